"""Round 22's mends to the rule reader of written briefs: what the critic and the router read, and names read
before as the first words of a fuller one."""

from __future__ import annotations

from crafter.agents.extract import describes_diagram, figure_from_brief, read_brief
from crafter.agents.reading import BriefReading, prefer_fuller_names

WRAPPED = '''def run_rollouts(env, horizon=20):
    """Model-based value expansion.

    Every real transition collected from `env` is written into the
    replay buffer. Minibatches drawn from the replay buffer are passed
    to the dynamics model, whose imagined rollouts are fed into the
    critic as extra targets.
    """'''


def test_the_critic_and_the_router_read_wrapped_prose_unwrapped_as_the_planner_does() -> None:
    # read_brief (the critic's brief_entities, the router's describes_diagram) read the broken lines: a link
    # said across a line break ("passed ⏎ to the dynamics model") was lost to them
    relations = read_brief(WRAPPED).relations
    assert ("Replay buffer", "Dynamics model") in relations and ("Imagined rollouts", "Critic") in relations
    assert ("Crawler", "Indexer") in read_brief('def refresh(cache):\n    """Every hour the crawler fetches the listed '
                                                'pages and passes their\n    text to the indexer, which rebuilds the '
                                                'search index."""').relations
    assert describes_diagram(WRAPPED)


def test_a_fuller_name_takes_the_longest_name_read_before_as_its_first_words() -> None:
    reading = BriefReading(entities=["medaka", "medaka variant", "bcftools consensus"],
                           relations=[("medaka variant", "bcftools consensus")])
    prefer_fuller_names(reading, ["medaka variant calling"])
    assert "medaka variant calling" in reading.entities and "medaka variant" not in reading.entities
    assert ("medaka variant calling", "bcftools consensus") in reading.relations


def _graph(text: str) -> tuple[set[str], set[tuple[str, str]]]:
    fig = figure_from_brief(text)
    labels = {n.id: n.text for n in fig.of_kind("node")}
    return set(labels.values()), {(labels[e.source], labels[e.target]) for e in fig.of_kind("edge")}


def test_things_set_side_by_side_between_bars_in_an_arrow_chain_are_boxes_each() -> None:
    nodes, edges = _graph("Usability study\n"
                          "- volunteers (n = 18) → counterbalanced order → keyboard task | voice task | pen task\n"
                          "- every task → SUS questionnaire")
    assert {"Keyboard task", "Voice task", "Pen task"} <= nodes
    assert not any("|" in n for n in nodes)
    assert {("Counterbalanced order", t) for t in ("Keyboard task", "Voice task", "Pen task")} <= edges


def test_a_list_item_of_names_between_bars_is_boxes_side_by_side_that_all_three_gathers() -> None:
    nodes, edges = _graph("Genome annotation QC\n"
                          "- in: the draft assembly\n"
                          "- BRAKER (gene models) | RepeatMasker (repeats) | tRNAscan (tRNAs) – run separately\n"
                          "- all three → summary report")
    assert {"BRAKER", "RepeatMasker", "tRNAscan"} <= nodes and "All three" not in nodes
    assert {("BRAKER", "Summary report"), ("RepeatMasker", "Summary report"), ("tRNAscan", "Summary report")} <= edges


def test_a_list_of_names_ending_an_arrow_chain_is_fed_each() -> None:
    nodes, edges = _graph("Coating characterisation\n"
                          "- sputtered coupons → profilometry, pin-on-disc wear test, GIXRD phase analysis\n"
                          "- every measurement → shared results sheet")
    assert {("Sputtered coupons", n) for n in ("Profilometry", "Pin-on-disc wear test", "GIXRD phase analysis")} <= edges


def test_a_remark_after_an_arrow_is_no_list_of_names() -> None:
    nodes, _ = _graph("Read path\n- key lookup → walk the version chain, newest first\n- visible → return the row")
    assert "Newest first" not in nodes
    nodes, _ = _graph("Sampler\n- low effective sample size → extend chains, recheck")
    assert "Recheck" not in nodes


def test_a_step_headed_by_an_order_is_named_by_its_process_noun() -> None:
    nodes, edges = _graph("Docking refinement for each hit:\n"
                          "- inputs: the receptor PDB and the docked pose\n"
                          "- protonate: PROPKA assigns states at pH 7\n"
                          "- minimise: 2000 steepest-descent steps\n"
                          "- quantify: MM-GBSA binding energies per pose\n"
                          "- report: a ranked table of poses")
    assert {"Minimisation", "Quantification"} <= nodes and not {"Minimise", "Quantify"} & nodes
    assert ("Minimisation", "Quantification") in edges
    assert "Report" in nodes  # a noun heading keeps its word


def test_a_decision_verdict_heading_keeps_its_word() -> None:
    nodes, _ = _graph("Packet path:\n"
                      "- lookup: the flow table is searched for the 5-tuple\n"
                      "- accept: the packet is forwarded to the LAN\n"
                      "- reject: the packet is dropped and counted")
    assert "Accepting" not in nodes


def test_all_of_a_list_line_sends_each_of_its_names_on() -> None:
    nodes, edges = _graph("Dictation study\n"
                          "volunteers → counterbalanced order → keyboard task | voice task | pen task\n"
                          "all tasks → completion time + error count\n"
                          "completion time → mixed-effects model")
    assert "All tasks" not in nodes and "Tasks" not in nodes
    assert {(t, m) for t in ("Keyboard task", "Voice task", "Pen task")
            for m in ("Completion time", "Error count")} <= edges


def test_a_thing_made_by_its_passive_agent_comes_from_it() -> None:
    # the agent makes the subject: the arrow runs from the maker
    _, edges = _graph("The surface mesh is extracted from the density grid by marching cubes.")
    assert ("Marching cubes", "Surface mesh") in edges
    _, edges = _graph("A session key is derived by the HKDF step and handed to the cipher.")
    assert ("HKDF step", "Session key") in edges
    # the agent takes the subject in: the arrow runs to it, as before
    _, edges = _graph("Raw reads are assembled by hifiasm into contigs.")
    assert ("Raw reads", "Hifiasm") in edges


def test_every_one_of_a_list_line_goes_on_where_one_of_them_was_read_to() -> None:
    _, edges = _graph("Dictation study\n"
                      "- volunteers → counterbalanced order → keyboard session | voice session | pen session\n"
                      "- every session → SUS questionnaire")
    assert {(s, "SUS questionnaire") for s in ("Keyboard session", "Voice session", "Pen session")} <= edges
