"""Decisions said without arrows: a condition clause's question becomes a diamond box."""

from crafter.agents.decisions import decision_label
from crafter.agents.extract import figure_from_brief


def _labels(fig):
    return {n.label: n.shape for n in fig.of_kind("node")}


def test_a_bound_in_a_condition_clause_becomes_the_question():
    brief = ("The tuning loop applies a step input to the arm and records the response. If the overshoot exceeds "
             "15 %, the controller halves the proportional gain and repeats the step; otherwise the gains are "
             "written to the firmware.")
    shapes = _labels(figure_from_brief(brief))
    assert shapes.get("Overshoot > 15 %?") == "diamond"


def test_a_state_in_a_condition_clause_becomes_the_question():
    brief = ("The scheduler reads the job queue and the node map. If the target partition is drained, it parks the "
             "job in the backlog; if not, it dispatches the job to the partition.")
    assert _labels(figure_from_brief(brief)).get("Target partition drained?") == "diamond"


def test_measure_verbs_and_bounds_in_words():
    assert decision_label("the mean flux deviates by more than 2% anywhere") == "Deviation > 2%?"
    assert decision_label("the score is above 0.7") == "Score > 0.7?"
    assert decision_label("it exceeds the district's quota") == "Above district's quota?"


def test_a_pronoun_or_a_long_clause_builds_nothing():
    assert decision_label("it is frozen") is None
    assert decision_label("one exists") is None
    assert decision_label("a variant already has a ClinVar assertion") is None
    brief = "The cache serves reads. If one exists, the request is routed there, otherwise a new sandbox boots."
    assert not any(s == "diamond" for s in _labels(figure_from_brief(brief)).values())
