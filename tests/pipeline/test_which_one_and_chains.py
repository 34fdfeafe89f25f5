"""Round 14's review of the brief reader (links14): words ending "-ics" are nouns, passive steps chain only where the
order is said, words that say which one leave a label only after a determiner, and a pronoun after a clause that
linked nothing is that clause's subject anywhere in a brief."""

from __future__ import annotations

from crafter.agents.extract import figure_from_brief


def _read(text: str) -> tuple[set[str], set[tuple[str, str]]]:
    fig = figure_from_brief(text)
    labels = {n.id: n.label for n in fig.of_kind("node")}
    return set(labels.values()), {(labels[e.source], labels[e.target]) for e in fig.of_kind("edge")}


def test_a_word_ending_in_ics_is_a_noun_not_a_verb_the_lexicon_lacks() -> None:
    nodes, edges = _read("The web analytics events and server logs are sent to the warehouse.")
    assert ("Web analytics events", "Warehouse") in edges and "Web" not in nodes
    nodes, edges = _read("The lab metrics dashboards and alerts are fed by the collector.")
    assert ("Collector", "Lab metrics dashboards") in edges and "Lab" not in nodes


def test_two_agents_after_and_each_read_the_subject() -> None:
    _, edges = _read("The events are consumed by the dashboard and read by the archiver.")
    assert {("Events", "Dashboard"), ("Events", "Archiver")} <= edges
    assert ("Dashboard", "Archiver") not in edges
    _, edges = _read("Raw reads are trimmed by fastp and then aligned by BWA-MEM2.")  # a step word: a chain
    assert ("Fastp", "BWA-MEM2") in edges and ("Raw reads", "BWA-MEM2") not in edges


def test_a_list_item_opening_on_a_which_one_word_names_its_subject() -> None:
    nodes, edges = _read("1. A separate encoder reads the image.\n2. The decoder reconstructs the image.")
    assert {"Encoder", "Decoder"} <= nodes and ("Image", "Encoder") in edges
    assert not any("reads" in n for n in nodes)
    nodes, _ = _read("- a dedicated worker pulls jobs from the queue\n- the scheduler assigns jobs to the worker")
    assert "Worker" in nodes and not any("pulls" in n for n in nodes)


def test_names_that_open_on_a_which_one_like_word_keep_it() -> None:
    nodes, edges = _read("The signal is decomposed by Independent Component Analysis and the components are "
                         "classified by an SVM.")
    assert ("Signal", "Independent Component Analysis") in edges
    nodes, _ = _read("Whole slide images are tiled by a tiler; a ResNet encoder embeds the tiles.")
    assert "Whole slide images" in nodes
    nodes, _ = _read("The Extra Trees regressor reads the descriptors and outputs the yield.")
    assert "Extra Trees regressor" in nodes
    nodes, _ = _read("The independent statistician reads the unblinded database and reports to the board.")
    assert "Independent statistician" in nodes


def test_a_which_one_word_alone_is_no_box() -> None:
    nodes, edges = _read("The trainer writes the same.")
    assert nodes == {"Trainer"} and not edges
    nodes, edges = _read("The CLIP scorer reads the same generated images.")
    assert ("Generated images", "CLIP scorer") in edges and "Same" not in nodes


def test_which_one_words_leave_only_lower_case_words_at_a_name_s_start_or_after_a_determiner() -> None:
    from crafter.agents.labels import drop_which_one
    assert drop_which_one("its own adaLN modulation".split()) == ["its", "adaLN", "modulation"]
    assert drop_which_one("the gateway's own addresses".split()) == ["the", "gateway's", "addresses"]
    assert drop_which_one("Separate Chaining".split()) == ["Separate", "Chaining"]
    assert drop_which_one("further compaction".split()) == ["further", "compaction"]  # an adverb, no which-one word
    assert drop_which_one("the same".split()) == []


def test_a_pronoun_after_a_clause_that_linked_nothing_is_its_subject_past_a_brief_s_start() -> None:
    _, edges = _read("The loader reads files from disk. The images are resized; then a ViT encodes them; finally a "
                     "linear head predicts the class.")
    assert {("Images", "ViT"), ("ViT", "Linear head")} <= edges
    assert ("Loader", "ViT") not in edges
