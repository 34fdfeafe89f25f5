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
    assert decision_label("the mean flux deviates by more than 2% anywhere") == ("Deviation > 2%?", "Deviation")
    assert decision_label("the score is above 0.7") == ("Score > 0.7?", "Score")
    assert decision_label("it exceeds the district's quota") == ("Above district's quota?", None)  # the thing is said elsewhere


def test_a_pronoun_or_a_long_clause_builds_nothing():
    assert decision_label("it is frozen") is None
    assert decision_label("they differ by more than the agreed tolerance") is None
    assert decision_label("one exists") is None
    assert decision_label("a variant already has a ClinVar assertion") is None
    brief = "The cache serves reads. If one exists, the request is routed there, otherwise a new sandbox boots."
    assert not any(s == "diamond" for s in _labels(figure_from_brief(brief)).values())


def _arrows(fig):
    lab = {n.id: n.label for n in fig.of_kind("node")}
    return {(lab[e.source], lab[e.target]): e.label for e in fig.of_kind("edge")}


def test_the_branches_leave_the_question():
    brief = ("The scheduler reads the job queue and the node map. If the target partition is drained, it writes "
             "the job to the backlog store; otherwise the dispatcher sends it to the partition.")
    arrows = _arrows(figure_from_brief(brief))
    out = {dst: word for (src, dst), word in arrows.items() if src == "Target partition drained?"}
    assert out == {"Backlog store": "yes", "Partition": "no"}


def test_a_branch_said_before_the_test_is_a_loop_and_keeps_its_arrow_in():
    brief = ("1. Mount the sample.\n2. Record a test frame.\n3. If any pixels are saturated, lower the gain and "
             "record another test frame.\n4. Acquire the z-stack.")
    arrows = _arrows(figure_from_brief(brief))
    assert any(dst == "Pixels saturated?" for _, dst in arrows) or any(src == "Pixels saturated?" for src, _ in arrows)
    assert not any(src == "Pixels saturated?" and dst.lower().startswith("mount") for src, dst in arrows)


def test_a_subject_and_its_one_verb_after_if_is_asked_by_its_passing_side():
    assert decision_label("the calibration fails") == ("Calibration passed?", "Calibration")
    assert decision_label("the two raters disagree") == ("Two raters agree?", "Two raters")
    assert decision_label("homogeneity holds") == ("Homogeneity holds?", "Homogeneity")
    # "when" starts a step on an event, it tests nothing; a pronoun says no subject
    assert decision_label("a batch finishes", "when") is None
    assert decision_label("it fails") is None


def test_the_tested_things_bare_box_gives_way_to_the_question():
    brief = ("A drone flies the survey grid. Battery is read once per minute. If the battery is below 15 %, the "
             "autopilot returns to the launch pad.")
    labels = set(_labels(figure_from_brief(brief)))
    assert "Battery < 15 %?" in labels
    assert "Battery" not in labels


def test_a_noun_ending_like_a_participle_stays_in_the_question():
    # "seed", "feed" end like "estimated" but name the thing measured: not a modifier that drops
    assert decision_label("the feed rate exceeds 5 %") == ("Feed rate > 5 %?", "Feed rate")
    assert decision_label("the estimated drift exceeds 2 mm") == ("Drift > 2 mm?", "Drift")
    brief = ("The planter monitor counts seeds on each row unit. If the seed spacing is above 30 cm, the monitor "
             "raises a skip alarm on the cab display; otherwise the row unit keeps its meter speed.")
    assert _labels(figure_from_brief(brief)).get("Seed spacing > 30 cm?") == "diamond"


def test_a_box_made_of_the_clause_itself_is_the_question():
    # "If the peak temperature exceeds 250 °C" also read as a box "Peak temperature exceeds 250 C": one box, the question
    brief = ("The reflow oven profiler logs the board temperature at each zone. If the peak temperature exceeds 250 °C, "
             "the line controller slows the conveyor; otherwise the boards move on to optical inspection.")
    shapes = _labels(figure_from_brief(brief))
    assert shapes.get("Peak temperature > 250 °C?") == "diamond"
    assert not any("exceeds" in label.lower() for label in shapes)
    brief = ("The mass-flow controller feeds argon into the sputter chamber. If the base pressure is above 5 mTorr, the "
             "interlock closes the gate valve; otherwise the magnetron power supply ramps up.")
    assert not any(label.lower().startswith("above") for label in _labels(figure_from_brief(brief)))


def test_the_clauses_subject_said_as_a_box_stays_beside_the_question():
    # only the subject ("the recalculated n"), not the test: a thing of its own, not the question's words
    brief = ("The interim analysis pools the variance of both arms. If the recalculated n exceeds the cap, the data "
             "monitoring committee raises the enrolment target; otherwise the original target stands.")
    assert "Recalculated n" in _labels(figure_from_brief(brief))
