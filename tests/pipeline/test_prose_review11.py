"""Review findings on the prose reader (links11): past tenses, "along", back-references, number tokens."""

from __future__ import annotations

import pytest

from crafter.agents.extract import figure_from_brief, read_brief
from crafter.agents.labels import normalise_label
from crafter.agents.phrases import clean_phrase
from crafter.agents.prose import ProseState, _tokens, read_prose
from crafter.agents.reading import says_no_thing


def _read(sentence: str) -> ProseState:
    st = ProseState()
    read_prose(sentence, st)
    return st


@pytest.mark.parametrize("verb", ["assigned", "produced", "collected", "forwarded"])
def test_a_past_tense_after_its_subject_is_a_verb(verb: str) -> None:
    # methods sections are written in the past tense: "-ed" after the subject's head noun is its verb
    assert _read(f"The scheduler {verb} tasks to the workers.").relations == [("Scheduler", "Workers", "Tasks")]
    # and after a determiner or a verb it is still an adjective
    assert _read("The trigger forwards triggered data to the builder.").relations == [
        ("Trigger", "Builder", "Triggered data")]
    assert _read("The reader takes the filtered reads to the aligner.").relations == [
        ("Reader", "Aligner", "Filtered reads")]
    assert _read("The bridge forwards each vehicle's converted pose to the PX4.").relations == [
        ("Bridge", "PX4", "Vehicle converted pose")]
    assert _read("HLT: accepted events are assembled by the event builder.").relations == [
        ("Accepted events", "Event builder", None)]


def test_a_past_tense_brief_draws_its_flow() -> None:
    fig = figure_from_brief("The scheduler assigned tasks to the workers. The workers produced results for the "
                            "reducer.")
    labels = {n.id: normalise_label(n.label) for n in fig.of_kind("node")}
    n = normalise_label
    assert set(labels.values()) == {n("Scheduler"), n("Workers"), n("Reducer")}
    assert {(labels[e.source], labels[e.target]) for e in fig.of_kind("edge")} == {
        (n("Scheduler"), n("Workers")), (n("Workers"), n("Reducer"))}


def test_along_at_a_sentence_end_or_before_a_name() -> None:
    read_brief("The tap copies frames. The switch passes frames along.")  # no crash
    assert _read("The switch passes frames along.").relations == [("Switch", "Frames", None)]
    st = _read("The switch passes frames along Kafka and Redis to the collector.")
    assert st.relations == [("Switch", "Collector", "Frames")] and {"Kafka", "Redis"} <= set(st.actors)
    assert _read("The stage queries a VEP cache together with gnomAD.").relations == [  # a store queried answers
        ("VEP cache", "Stage", None), ("gnomAD", "Stage", None)]  # back (verb_flows._reads_back)


def test_a_verbs_plural_object_is_a_thing() -> None:
    text = "The monitor collects alerts from the agents. The cache serves queries and it writes updates to disk."
    assert not any(says_no_thing(w, text) for w in ("alerts", "queries", "updates"))
    assert says_no_thing("applies", "It then applies the rules.")


def test_an_idiomatic_name_is_not_cut_at_its_preposition() -> None:
    for name in ("Human in the loop", "Man in the middle", "Man In The Middle", "Human in the Loop"):
        assert clean_phrase(name, side="right") == name
    assert clean_phrase("function pointer at query time", side="right") == "Function pointer"
    assert clean_phrase("TGA under nitrogen", side="right") == "TGA"


@pytest.mark.parametrize("lead", ["Both", "These", "Such"])
def test_a_back_reference_subject_is_no_box(lead: str) -> None:
    assert _read(f"{lead} paths are merged later.").actors == []
    assert _read("The watcher is restarted weekly.").actors == ["Watcher"]
    # the two things said before stay boxes
    assert _read("The returns are the advantages plus the baselines. Both arrays are returned.").actors == [
        "Returns", "Advantages", "Baselines"]


def test_a_number_with_thousands_before_a_comma() -> None:
    assert [t.text for t in _tokens("batches of 1,024, then the head")] == [
        "batches", "of", "1,024", ",", "then", "the", "head"]
    assert [t.text for t in _tokens("1,024 tokens")] == ["1,024", "tokens"]
