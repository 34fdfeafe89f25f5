"""Steps a methods paragraph says as a chain of verbs ("the slices are embedded in paraffin, stained with eosin and
scanned at 40x"; "we etch the wafer and sputter a gold film") are boxes named by their process nouns, one after
another; one passive, a chain of verbs that say how a thing is, and what the writers did ("we present") are no
steps."""

from __future__ import annotations

from crafter.agents.extract import figure_from_brief
from crafter.agents.participles import read_verb_steps
from crafter.agents.phrases import nominal, participle_noun
from crafter.agents.reading import BriefReading


def _figure(text: str) -> tuple[set[str], set[tuple[str, str]]]:
    fig = figure_from_brief(text)
    labels = {n.id: n.label for n in fig.of_kind("node")}
    return set(labels.values()), {(labels[e.source], labels[e.target]) for e in fig.of_kind("edge")}


def test_process_nouns_of_participles_and_verbs() -> None:
    assert participle_noun("dehydrated") == "dehydration"
    assert participle_noun("purified") == "purification"
    assert participle_noun("nucleofected") == "nucleofection"
    assert participle_noun("re-plated") == "re-plating"
    assert participle_noun("mapped") == "mapping"
    assert participle_noun("labelled") == "labelling"
    assert participle_noun("measured") == "measurement"
    assert participle_noun("updated") == "updating"  # a short stem keeps the plain "-ing"
    assert nominal("featurise") == "featurisation"
    assert nominal("project") == "projection"
    assert nominal("spin-coat") == "spin-coating"


def test_a_passive_chain_draws_its_steps_in_order() -> None:
    labels, edges = _figure("Tissue handling. Each biopsy is trimmed on ice. The tissue slices are embedded in "
                            "paraffin, stained with haematoxylin and scanned at 40x magnification.")
    steps = ["Embedding", "Staining", "Scanning"]
    assert set(steps) <= labels
    assert {("Embedding", "Staining"), ("Staining", "Scanning")} <= edges
    assert "Trimming" not in labels  # one passive alone is no protocol


def test_a_passive_chain_starts_at_the_box_it_acts_on() -> None:
    reading = BriefReading(entities=["Sorted nuclei"])
    read_verb_steps(reading, "Sorted nuclei are permeabilised with detergent, tagmented with Tn5 and "
                             "amplified by PCR.")
    assert reading.entities[1:] == ["Permeabilisation", "Tagmenting", "Amplification"]
    assert reading.relations == [("Sorted nuclei", "Permeabilisation"), ("Permeabilisation", "Tagmenting"),
                                 ("Tagmenting", "Amplification")]


def test_what_a_thing_is_and_what_a_box_does_are_no_steps() -> None:
    for text in ("The weights are stored in S3 and shared with every worker.",
                 "Each request is based on the schema, needed by the router and used for caching.",
                 "Matched pairs are kept. The others are dropped and replaced by fresh ones."):
        reading = BriefReading()
        read_verb_steps(reading, text)
        assert reading.entities == [], text
    reading = BriefReading(entities=["Write-ahead log", "Memtable"])
    read_verb_steps(reading, "Every write is appended to the write-ahead log and inserted into the memtable.")
    assert reading.entities == ["Write-ahead log", "Memtable"]  # each verb hands it to a box: that box's work


def test_a_first_person_chain_draws_its_steps() -> None:
    labels, edges = _figure("We etch the silicon wafer in KOH, sputter a Ti adhesion layer and anneal it at "
                            "400 °C. We then sputter the Au2 contact pads and dice the wafer.")
    assert {"Etching", "Sputtering", "Annealing", "Au2 sputtering", "Dicing"} <= labels
    assert {("Etching", "Sputtering"), ("Sputtering", "Annealing"), ("Au2 sputtering", "Dicing")} <= edges


def test_what_the_writers_did_is_no_step() -> None:
    reading = BriefReading()
    read_verb_steps(reading, "We present Relay, a scheduler, and describe its queue. We chose Redis over Kafka.")
    assert reading.entities == []


def test_what_the_writers_did_in_the_past_is_no_step() -> None:
    for text in ("We built a prototype in Rust and ran it on eight GPUs.",
                 "We held the samples at 4 °C and sent them to the lab."):
        reading = BriefReading()
        read_verb_steps(reading, text)
        assert reading.entities == [], text  # not "Builting", "Ranning"


def test_the_middle_verb_of_a_list_of_three_is_a_step() -> None:
    reading = BriefReading(entities=["Pellet"])
    read_verb_steps(reading, "The pellet is washed, resuspended and counted.")
    assert reading.entities[1:] == ["Washing", "Resuspension", "Counting"]  # "resuspended" before "and": no gap
    assert ("Washing", "Resuspension") in reading.relations


def test_nouns_no_suffix_rule_makes_come_from_the_word_list() -> None:
    assert participle_noun("stored") == "storage"
    assert participle_noun("retrieved") == "retrieval"
    assert participle_noun("repeated") == "repetition"  # not "repeation"
    assert participle_noun("inserted") == nominal("insert") == "insertion"
    assert participle_noun("reconstructed") == "reconstruction"
    assert participle_noun("submitted") == nominal("submit") == "submission"
    assert nominal("synthesise") == "synthesis"  # not "synthesisation"
    assert nominal("embed") == "embedding"  # not "embeding"


def test_a_box_named_after_a_qualifier_still_does_the_work() -> None:
    reading = BriefReading(entities=["Write-ahead log", "Memtable"])
    read_verb_steps(reading, "Every write is appended to the node's write-ahead log and inserted into the "
                             "in-memory memtable.")
    assert reading.entities == ["Write-ahead log", "Memtable"]  # not "Appending", "Insertion"


def test_a_verb_that_names_no_step_is_none_in_a_chain_either() -> None:
    reading = BriefReading()
    read_verb_steps(reading, "When a loop closes, we add a loop constraint to the pose graph and optimize it.")
    assert reading.entities == []  # "add" names no step (phrases._VAGUE_VERBS), so one verb is left


def test_data_handed_to_a_box_said_with_a_possessive_or_in_math_is_no_step() -> None:
    for names, text in ((["Replica change log"], "Each edit is stamped with a clock and appended to the replica's "
                                                 "change log."),
                        (["Image x"], "Two crops are sampled and applied to the same image $x$.")):
        reading = BriefReading(entities=list(names))
        read_verb_steps(reading, text)
        assert reading.entities == names, text  # data moved between boxes, not "Sampling", "Applying"
