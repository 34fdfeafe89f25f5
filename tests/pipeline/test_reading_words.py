"""The rule reader finds a name as whole words: "use" is not said in "because", "both" not in "Bothell",
"log" not in "catalog" (a name found inside another word put links and collectives in the wrong place)."""

from __future__ import annotations

from figure_labels import edge_labels

from crafter.agents.extract import _said_backward, figure_from_brief
from crafter.agents.reading import find_word, made_by


def test_a_name_is_found_as_whole_words() -> None:
    assert find_word("We cache it because the user asks.", "use") == -1
    assert find_word("We cache it because users ask; the user decides.", "user") == 20  # a plural counts
    assert find_word("The Bothell lab. Both feed the archive.", "both") == 17
    assert find_word("Raw FASTQs go to QC.", "raw fastq") == 0
    assert find_word("anything", "") == -1


def test_a_head_link_read_backward_by_the_words_between_its_ends() -> None:
    # "imputation against the panel": the panel -> imputation, though "imputation" is said first inside
    # "reimputation"
    text = "Reimputation is rare. Imputation against the TOPMed panel runs per chromosome."
    assert _said_backward("imputation", "TOPMed panel", text)
    assert not _said_backward("TOPMed panel", "imputation", text)


def test_both_spreads_over_the_two_things_said_before_it_not_a_word_holding_both() -> None:
    fig = figure_from_brief("The Bothell lab ships spectra to the archive.\n"
                            "The \"camera\" and the \"microphone\" record the session.\n"
                            "both → sync box")
    assert {("camera", "Sync box"), ("microphone", "Sync box")} <= edge_labels(fig)


def test_a_thing_named_by_the_step_that_made_it() -> None:
    assert made_by("Annotated variants", ["Uploaded VCF", "VEP (annotator)"]) == "VEP (annotator)"
    assert made_by("Annotated variants", ["Uploaded VCF", "Preannotation cache"]) is None


def test_both_analyses_are_the_two_analyses_said_before() -> None:
    # "Both analyses inform the typology": no box "Analyses"; the two analyses the head named feed it
    text = ("We ran a cross-sectional analysis of each wave and a trajectory analysis of each person. "
            "Both analyses inform the typology.")
    head = {"node": ["cross-sectional analysis", "trajectory analysis", "typology"], "links": [], "members": []}
    fig = figure_from_brief(text, names=head)
    assert {("Cross-sectional analysis", "Typology"), ("Trajectory analysis", "Typology")} <= edge_labels(fig)
    assert "Analyses" not in {n.label for n in fig.of_kind("node")}


def test_flow_verbs_train_compute_estimate_talk() -> None:
    fig = figure_from_brief("The ranking loss trains the student encoder. The EKF estimates the vehicle pose. "
                            "The router computes the shortest paths. The client talks to the gateway.")
    assert {("Ranking loss", "Student encoder"), ("EKF", "Vehicle pose"), ("Router", "Shortest paths"),
            ("Client", "Gateway")} <= edge_labels(fig)
