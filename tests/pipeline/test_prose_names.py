"""Names the rule-based reader takes from real prose: a panel whose sentence names no flow is drawn by the
noun phrase it opens on, not by its first words."""

from __future__ import annotations

from figure_labels import edge_labels

from crafter.agents.extract import figure_from_brief, read_brief


def _panel_nodes(fig):
    labels = {c.id: c.label for c in fig.of_kind("node")}
    return {p.label: sorted(labels[m] for m in p.members if m in labels) for p in fig.of_kind("panel")}


def test_a_panel_without_a_flow_is_drawn_by_its_subject() -> None:
    fig = figure_from_brief("(a) Stage 1: the encoder feeds the decoder. "
                            "(b) Stage 2: a PixelCNN prior is fitted over the discrete code indices.")
    panels = _panel_nodes(fig)
    assert panels["(a)"] == ["Decoder", "Encoder"]
    assert panels["(b)"] == ["PixelCNN prior"]  # not "a PixelCNN prior is fitted over"


def test_a_panel_opening_on_a_pronoun_draws_no_sentence_as_a_box() -> None:
    fig = figure_from_brief("(a) the encoder feeds the decoder. (b) we apply that forest to 80,000 candidates.")
    labels = [n.label for n in fig.of_kind("node")]
    assert not any(len(lab.split()) > 4 for lab in labels)


def test_words_that_name_no_thing_are_no_boxes() -> None:
    fig = figure_from_brief("The records are received by the walreceiver, flushed to the local WAL and replayed by "
                            "the startup process. Iterative jobs map poorly onto MapReduce. The classifier sends "
                            "variants with two or more stars to the curator.")
    labels = {n.label for n in fig.of_kind("node")}
    assert not labels & {"Replayed", "Poorly", "More", "Two"}
    assert {"Local WAL", "MapReduce", "Curator"} <= labels


def test_a_state_an_arrow_names_stays_a_box() -> None:
    fig = figure_from_brief("- prepare phase: matching prepares → prepared\n- commit phase: commits → committed\n")
    labels = {n.label for n in fig.of_kind("node")}
    assert {"Prepared", "Committed"} <= labels


def test_a_name_ends_before_the_participle_that_says_what_was_done_to_it() -> None:
    fig = figure_from_brief("clang -O2 → shared library loaded at startup\n"
                            "- borrow check → errors mapped back to source spans\n")
    labels = {n.label for n in fig.of_kind("node")}
    assert {"Shared library", "Errors"} <= labels
    assert not any("loaded" in lab or "mapped" in lab for lab in labels)
    assert "Merged analysis file" in {n.label for n in figure_from_brief("cleaning → merged analysis file")
                                      .of_kind("node")}


def test_a_list_item_said_as_a_clause_names_its_subject() -> None:
    fig = figure_from_brief("- waveform → conv encoder → quantiser\n- decoder reconstructs the waveform\n"
                            "- System build: solvate and neutralise\n")
    labels = {n.label for n in fig.of_kind("node")}
    assert "Decoder" in labels and not any("reconstructs" in lab for lab in labels)
    assert "System build" in labels  # a name with nothing after its verb-like word stays whole


def test_a_flow_said_not_to_happen_leaves_the_next_verb_phrase_standing() -> None:
    r = read_brief("The router sends nothing to the cache and passes tokens to the decoder.")
    assert r.relations == [("Router", "Decoder")] and r.negated == [("Router", "Cache")]
    r = read_brief("The front end never talks to the annotator and reads from the database.")
    assert r.relations == [("Database", "Front end")] and ("Front end", "Annotator") in r.negated


def test_a_word_capitalised_only_where_a_sentence_opens_is_no_proper_name() -> None:
    from crafter.agents.reading import said_again_as

    # a name the reader capitalised ("Encoder") that the brief writes in lower case: a common word
    text = "An encoder block feeds the decoder. Its weights stay frozen and the encoder is shared."
    assert said_again_as(["encoder block", "Encoder", "decoder"], text) == {}
    text = "The rig is run by a Bpod state machine. On each trial the Bpod triggers the sound card."
    assert said_again_as(["Bpod state machine", "Bpod", "sound card"], text) == {"Bpod": "Bpod state machine"}


def test_a_name_is_cut_to_the_thing_it_names() -> None:
    from crafter.agents.reading import tidy_name

    assert tidy_name("Passages accurately") == "Passages"
    assert tidy_name("Sample first") == "Sample"
    assert tidy_name("Sites may") == "Sites"
    assert tidy_name("Two linear heads") == "Linear heads"
    assert tidy_name("One of 42 application labels") == "42 application labels"
    assert tidy_name("Accumulates them") is None and tidy_name("Fresh one") is None
    assert tidy_name("Scheduler itself") == "Scheduler" and tidy_name("Yet patient records") == "Patient records"
    # a proper name in title case keeps an adverb-like word at either end (YARN; a distillery's still)
    assert tidy_name("Yet Another Resource Negotiator") == "Yet Another Resource Negotiator"
    assert tidy_name("Pot Still") == "Pot Still"
    for name in ("Genome assembly", "Weighted DiD", "Five-year recall", "Array offline", "Encoder"):
        assert tidy_name(name) == name


def test_a_reading_drops_a_verb_phrase_and_a_pronoun_one() -> None:
    fig = figure_from_brief("When the memtable is full it is frozen, and a fresh one takes its place. The frozen "
                            "memtable is flushed to an SSTable. Two linear heads feed the sampler.")
    labels = {n.label for n in fig.of_kind("node")}
    assert "Fresh one" not in labels and "Two linear heads" not in labels
    assert "Linear heads" in labels


def test_steps_listed_in_a_groups_brackets_run_in_order() -> None:
    fig = figure_from_brief("The raw voltage passes through the preprocessing chain (bandpass filter, common median "
                            "reference, bad-channel removal) before sorting.")
    labels = {n.id: n.label for n in fig.of_kind("node")}
    edges = {(labels[e.source], labels[e.target]) for e in fig.of_kind("edge")}
    assert {("Bandpass filter", "Common median reference"), ("Common median reference", "Bad-channel removal")} <= edges


def test_a_verb_word_inside_a_name_before_its_verb_stays_in_the_name() -> None:
    r = read_brief("The global trigger combines them into an accept decision. A software trigger sends the pulses "
                   "to the event builder.")
    assert "Global trigger" in r.entities and "Software trigger" in r.entities
    r = read_brief("The workers update weights on the server.")
    assert ("Workers", "Weights") in r.relations  # after a plural the bare verb is the verb


def test_parallel_parts_in_a_groups_brackets_are_not_chained() -> None:
    fig = figure_from_brief("The car reads three sensors (camera, lidar, radar) and a planner uses their fused map.")
    assert not {("Camera", "Lidar"), ("Lidar", "Radar")} & edge_labels(fig)


def test_a_noun_that_ends_like_a_participle_or_an_adverb_names_a_thing() -> None:
    from crafter.agents.reading import says_no_thing

    r = read_brief("The denoiser sends frames to the watershed, and the watershed passes masks to the tracker.")
    assert ("Watershed", "Tracker") in r.relations
    for word in ("watershed", "testbed", "airspeed", "multiply"):
        assert not says_no_thing(word, f"the {word} runs")
    for word in ("poorly", "replayed", "finished", "absorbed"):
        assert says_no_thing(word, f"it is {word} here")


def test_one_after_a_noun_is_a_number_in_the_name() -> None:
    from crafter.agents.reading import tidy_name

    for name in ("Stage one", "Phase one", "Part one"):
        assert tidy_name(name) == name
    assert tidy_name("Fresh one") is None and tidy_name("Matching one") is None and tidy_name("Old ones") is None
    assert tidy_name("Patch bytes one") is None  # "predicts the patch's bytes one at a time"


def test_a_noun_ending_in_ed_is_not_cut_as_a_participle() -> None:
    from crafter.agents.phrases import clean_phrase

    assert clean_phrase("hardware testbed at the lab", side="right").startswith("Hardware testbed")
    fig = figure_from_brief("Raw frames -> marker-controlled watershed -> nucleus table")
    assert "Marker-controlled watershed" in {n.label for n in fig.of_kind("node")}


def test_input_and_output_said_in_lower_case_stay_boxes() -> None:
    from crafter.agents.reading import says_no_thing

    text = "the input goes to the encoder and the decoder writes the output"
    assert not says_no_thing("input", text) and not says_no_thing("output", text)
    assert says_no_thing("others", "the others wait") and says_no_thing("side", "read side by side")


def test_a_dropped_name_leaves_no_edge_label() -> None:
    from crafter.agents.reading import BriefReading, rename_names

    r = BriefReading(entities=["A", "B", "C"], relations=[("A", "B"), ("B", "C")],
                     edge_labels={("A", "B"): "x", ("B", "C"): "y"})
    rename_names(r, {"B": None})
    assert r.entities == ["A", "C"] and r.relations == [] and r.edge_labels == {}


def test_a_plural_after_a_modifier_with_nothing_after_it_is_a_noun() -> None:
    from crafter.agents.reading import says_no_thing

    assert not says_no_thing("scores", "a final MLP maps the global feature to k class scores.")
    assert not says_no_thing("filters", "the peers exchange Bloom filters summarising their logs")
    assert says_no_thing("returns", "the worker acts, and it returns.")  # after a subject's pronoun: a verb
    assert says_no_thing("returns", "the worker returns the batch to the learner")
