"""Noun phrases the rule-based reader reads whole in real prose (links11): a verb's bare form or a participle
inside a noun phrase, a demonstrative before a noun, a number with a thousands separator, the subject of a
verb the lexicon lacks, things queried "together with" others."""

from __future__ import annotations

from crafter.agents.extract import figure_from_brief


def _read(text: str) -> tuple[set[str], set[tuple[str, str]]]:
    fig = figure_from_brief(text)
    labels = {c.id: c.label for c in fig.of_kind("node")}
    return set(labels.values()), {(labels[e.source], labels[e.target]) for e in fig.of_kind("edge")}


def test_a_verb_inside_a_noun_phrase_stays_in_the_name() -> None:
    nodes, edges = _read("Both sector concentrators stream to the central trigger processor, which forwards "
                         "triggered data to the event builder.")
    assert ("Sector concentrators", "Central trigger processor") in edges
    assert ("Central trigger processor", "Event builder") in edges
    assert "Central" not in nodes and "Processor" not in nodes


def test_after_a_plural_the_bare_form_is_still_the_verb() -> None:
    _, edges = _read("The workers update weights on the server.")
    assert ("Workers", "Weights") in edges


def test_a_participle_before_its_noun_is_an_adjective() -> None:
    _, edges = _read("The reader stores annotated variants in a database.")
    assert ("Reader", "Database") in edges
    _, edges = _read("The data are filtered by the cleaner.")  # a passive stays a passive
    assert ("Data", "Cleaner") in edges


def test_that_before_a_noun_is_a_determiner() -> None:
    nodes, edges = _read("The web front end reads from that database only.")
    assert ("Database", "Web front end") in edges
    _, edges = _read("The planner publishes a goal; the controller consumes that goal.")
    assert ("Goal", "Controller") in edges


def test_a_number_with_a_thousands_separator_is_one_word() -> None:
    nodes, _ = _read("A ViT-VQGAN tokeniser turns each 256×256 image into 1,024 discrete tokens.")
    assert {"256×256 image", "1,024 discrete tokens", "ViT-VQGAN tokeniser"} <= nodes
    assert not any(n.startswith("024") for n in nodes)


def test_the_subject_of_a_verb_the_lexicon_lacks_is_a_box() -> None:
    nodes, _ = _read("A SPAN port mirrors the core switch. The decoder reconstructs the image from the codes.")
    assert {"SPAN port", "Decoder"} <= nodes
    assert "Core switch" not in nodes  # what it acts on is not taken (dev: more false boxes than true)


def test_things_queried_together_with_others_are_objects_too() -> None:
    nodes, edges = _read("The annotator queries a local VEP cache together with gnomAD and ClinVar.")
    assert {"gnomAD", "ClinVar", "Local VEP cache"} <= nodes
    assert ("Annotator", "gnomAD") in edges or ("gnomAD", "Annotator") in edges


def test_a_list_after_a_preposition_names_boxes() -> None:
    nodes, _ = _read("The calendered electrodes are punched and stacked with graphite anodes and separator.")
    assert {"Graphite anodes", "Separator"} <= nodes
    nodes, edges = _read("The press feeds the stacker, which combines the electrodes with a separator.")
    assert "Separator" not in nodes and ("Press", "Stacker") in edges  # one thing: as often a remark as a box


def test_a_verb_in_s_never_said_after_a_determiner_is_no_box() -> None:
    from crafter.agents.reading import says_no_thing

    text = "If validation fails, the tool writes an error report and stops. Otherwise it registers the dataset, " \
           "which returns an accession."
    assert says_no_thing("Returns", text) and says_no_thing("Registers", text)
    text = "The aligner maps the reads to the genome; clean reads go to the caller, which calls variants."
    assert not says_no_thing("Reads", text)  # "the reads": a thing


def test_a_verb_the_lexicon_lacks_still_sends_to_its_target() -> None:
    _, edges = _read("A SPAN port mirrors the core switch into the sensor NIC.")
    assert ("SPAN port", "Sensor NIC") in edges


def test_own_after_a_possessive_is_no_part_of_the_name() -> None:
    nodes, _ = _read("Image tokens flow through two streams, each with its own adaLN modulation, QKV projection "
                     "and MLP.")
    assert {"adaLN modulation", "QKV projection", "MLP"} <= nodes


def test_an_arrow_chain_name_ends_before_a_prepositional_phrase() -> None:
    nodes, edges = _read("LLVM IR builder → ORC JIT → function pointer at query time\n"
                         "kept units → weighted DiD on crime rates\n"
                         "deterministic key per record → upsert into Cassandra")
    assert {"Function pointer", "Weighted DiD", "Upsert"} <= nodes
    assert ("ORC JIT", "Function pointer") in edges


def test_a_one_word_subject_is_a_box_where_no_flow_is_read() -> None:
    nodes, _ = _read("The watcher is restarted weekly. The sequencer writes to the run folder.")
    assert {"Watcher", "Sequencer", "Run folder"} <= nodes
    nodes, _ = _read("The curated gene panel is restarted weekly. The sequencer writes to the run folder.")
    assert not any("panel" in n.lower() for n in nodes)  # longer subjects: more often wrong than right
