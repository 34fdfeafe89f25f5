"""A sentence opening on words that point back to the sentence before (:mod:`crafter.agents.references`), read by
:func:`crafter.agents.links.read_links`: "Its output feeds the decoder", "Annotated calls go to the filter"."""

from __future__ import annotations

from crafter.agents.extract import figure_from_brief
from crafter.agents.links import read_links
from crafter.agents.reading import BriefReading, drop_collective_groups
from crafter.agents.references import pointing_back, referents


def _read(text: str, names: list[str]) -> list[tuple[str, str]]:
    reading = BriefReading(entities=names)
    read_links(text, reading)
    return reading.relations


def test_its_output_links_the_name_before_to_the_name_it_feeds() -> None:
    links = _read("The spectrogram encoder maps each clip to a sequence of frames. Its output feeds the "
                  "transformer decoder.", ["spectrogram encoder", "transformer decoder"])
    assert ("spectrogram encoder", "transformer decoder") in links
    assert ("transformer decoder", "spectrogram encoder") not in links


def test_data_said_by_a_noun_phrase_comes_from_the_name_that_made_it_not_from_an_aside() -> None:
    # "which consults a panel of normals": the aside's names are the caller's helpers, not what hands the calls on
    links = _read("Each sample is passed to the caller, which consults a panel of normals. Filtered calls are then "
                  "written to the warehouse.", ["sample", "caller", "panel of normals", "warehouse"])
    assert ("caller", "warehouse") in links
    assert ("panel of normals", "warehouse") not in links


def test_both_points_at_the_two_names_the_sentence_before_lists() -> None:
    links = _read("The tokenizer splits payloads and the timer measures gaps. Both feature sets feed the scorer.",
                  ["tokenizer", "timer", "scorer"])
    assert {("tokenizer", "scorer"), ("timer", "scorer")} <= set(links)


def test_openings_that_set_a_scene_or_say_a_list_item_point_at_nothing() -> None:
    assert pointing_back("If the check fails, the sample goes to the ") is None
    assert pointing_back("On each trial the tone is sent to the ") is None
    assert pointing_back("(b) no library code is copied into the ") is None
    assert pointing_back("- cleaned reads go to the ") is None
    assert pointing_back("The acquisition workflow is written in ") is None  # a language, not a hand-off
    assert pointing_back("The classifier scores flows and sends them to the ") is None  # a clause with a verb
    assert pointing_back("Its output conditions a ") == 1
    assert pointing_back("The two learners write to the ") == 2


def test_no_link_where_the_sentence_before_names_too_few() -> None:
    assert referents("The tokenizer splits payloads.", [(4, 13, "tokenizer")], 2) == []
    links = _read("We measure it twice. Its output feeds the scorer.", ["scorer"])
    assert links == []


def test_a_brief_draws_the_edge_the_reference_says() -> None:
    fig = figure_from_brief("The ingest worker hands each upload to the annotator, which queries a local cache. "
                            "Annotated records go to the classifier.",
                            names={"node": ["ingest worker", "annotator", "local cache", "classifier"], "links": [],
                                   "members": []})
    labels = {n.id: n.label.lower() for n in fig.of_kind("node")}
    edges = {(labels[e.source], labels[e.target]) for e in fig.of_kind("edge")}
    assert ("annotator", "classifier") in edges
    assert ("local cache", "classifier") not in edges


def test_a_participle_points_at_the_step_it_names() -> None:
    # "Clustered transcripts": what the cluster stage made, though the sentence before ends on its tool
    links = _read("The cluster stage groups the reads with cdhit. Clustered transcripts are mapped to the aligner.",
                  ["cluster stage", "cdhit", "aligner"])
    assert ("cluster stage", "aligner") in links
    assert ("cdhit", "aligner") not in links


def test_its_output_is_the_actors_not_a_prepositions_object() -> None:
    # "over the patch sequence": what the global model runs over; "its output" is the global model's
    links = _read("We embed each patch and run a global model over the patch sequence; its output for every patch "
                  "conditions a small local model.", ["global model", "patch sequence", "patch", "local model"])
    assert ("global model", "local model") in links
    assert ("patch sequence", "local model") not in links


def test_a_name_said_after_of_is_not_where_the_reference_goes() -> None:
    # "the typology of transitions": the name is the word after "of", not the thing informed
    assert pointing_back("Both analyses inform the typology of ") is None
    assert pointing_back("Both analyses inform the final ") == 2


def test_a_heading_before_is_no_sentence_to_go_on_from() -> None:
    links = _read("## Billing service\nInvoices go to the ledger writer.", ["Billing service", "ledger writer"])
    assert links == []


def _edges(text: str) -> set[tuple[str, str]]:
    fig = figure_from_brief(text)
    labels = {n.id: n.label.lower() for n in fig.of_kind("node")}
    return {(labels[e.source], labels[e.target]) for e in fig.of_kind("edge")}


def test_both_and_a_new_plural_gather_the_names_the_sentence_before_says() -> None:
    # "Both streams": no box called "Streams"; the two things sampled feed the filter, and the hub that samples
    # them is not drawn back into them
    text = ("The sensor hub samples the accelerometer and the gyroscope at 200 Hz. Both streams feed a Kalman "
            "filter, which publishes the pose to the motion planner.")
    labels = {n.label.lower() for n in figure_from_brief(text).of_kind("node")}
    assert "streams" not in labels
    edges = _edges(text)
    assert {("accelerometer", "kalman filter"), ("gyroscope", "kalman filter")} <= edges
    assert ("sensor hub", "accelerometer") not in edges


def test_a_collective_of_a_name_said_before_in_the_singular_stays_a_box() -> None:
    # "a relay node … Both relay nodes": the relay nodes are the boxes, not the sentence before's other names
    text = ("Each rack holds a relay node and four storage servers. Both relay nodes stream their metrics to the "
            "central collector.")
    assert ("relay nodes", "central collector") in _edges(text)


def test_a_data_phrase_said_once_that_opens_a_sentence_is_the_arrow_not_a_box() -> None:
    # "Cleaned recordings" are what the artefact filter hands on: the filter feeds the spike sorter, the
    # recordings are the arrow's words, and no box of their own sits between the two
    text = ("The acquisition board streams raw voltage from the probe to an artefact filter, which removes line "
            "noise and motion transients. Cleaned recordings are passed to the spike sorter, and the sorted units "
            "are stored in the lab database.")
    fig = figure_from_brief(text)
    labels = {n.label.lower() for n in fig.of_kind("node")}
    assert "cleaned recordings" not in labels
    assert ("artefact filter", "spike sorter") in _edges(text)


def test_a_data_phrase_with_a_branch_for_the_others_stays_a_box() -> None:
    # "…; rejected ones are …": the phrase names one branch of a decision, not only the thing handed on
    text = ("A screening model scores every incoming claim. Flagged claims are sent to a human auditor; cleared "
            "ones are paid automatically.")
    labels = {n.label.lower() for n in figure_from_brief(text).of_kind("node")}
    assert "flagged claims" in labels


def test_a_group_of_one_word_for_several_unread_things_is_no_group() -> None:
    # "these two steps" gathers steps the reading has no box for: a "Cleanup stage" of one "Steps" box is wrong
    text = ("Each batch of slides is first dewaxed in xylene and then rehydrated through graded ethanol; these two "
            "steps form the cleanup stage. The slides are then stained by the autostainer and scanned by a slide "
            "scanner.")
    assert "Cleanup stage" not in {g.label for g in figure_from_brief(text).of_kind("group")}


def test_a_group_of_the_things_brought_in_by_their_count_stays() -> None:
    # "by two annotators … The two annotators form …": the annotators are the things, the group stands
    text = ("Every transcript is coded independently by two annotators in NVivo. The two annotators form the coding "
            "stage, and a third researcher resolves their disagreements.")
    assert "Coding stage" in {g.label for g in figure_from_brief(text).of_kind("group")}


def test_a_tool_wrapping_one_thing_or_a_thing_built_from_one_input_is_no_group() -> None:
    # "segkit wraps the Cellpose model": a tool around one thing; "is built from all reference genomes": an input
    text = ("segkit wraps the Cellpose model for nucleus segmentation. A k-mer index is built from all reference "
            "genomes, and the classifier queries the k-mer index for every read.")
    assert {g.label for g in figure_from_brief(text).of_kind("group")} == set()
    # a tool wrapping two things still holds them
    text = "The sorter layer wraps Kilosort4 and MountainSort5, and the curation step reads its output."
    groups = {g.label.lower() for g in figure_from_brief(text).of_kind("group")}
    assert "sorter layer" in groups


def test_the_thing_a_tool_wraps_stays_a_box() -> None:
    text = "qmkit wraps our ORCA geometry optimisations. The results are parsed into a SQLite database."
    assert "ORCA geometry optimisations" in {n.label for n in figure_from_brief(text).of_kind("node")}


def test_a_group_of_one_plural_whose_singular_was_read_stays() -> None:
    # "analyses" after "a kinship analysis", "policies" after "a discharge policy": things of a kind read, not a word
    # for unread ones (a plural in "-yses" / "-ies" is no singular plus "s")
    for text, kind, group in (
            ("Each pedigree goes through a kinship analysis and the genotype panel through a linkage analysis; these "
             "two analyses form the genetics stage.", ["Kinship analysis", "Linkage analysis", "Analyses"],
             "Genetics stage"),
            ("The ward applies a discharge policy and an escalation policy; these two policies make up the governance "
             "layer.", ["Discharge policy", "Escalation policy", "Policies"], "Governance layer")):
        reading = BriefReading(entities=[*kind, group], groups=[(group, [kind[-1]])])
        drop_collective_groups(reading, text)
        assert reading.groups == [(group, [kind[-1]])]
