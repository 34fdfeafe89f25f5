"""links_report's plans-alone scores: the rules' figures, and with a name head's reading, scored as the
bench scores a whole figure (dev split only)."""

from __future__ import annotations

from crafter.agents.extract import figure_from_brief
from crafter.benchmarks.links_report import plan_scores
from crafter.corpora import load_briefs, score_figure


def test_plan_scores_add_up_the_briefs() -> None:
    briefs = list(load_briefs("dev"))[:3]
    calls = []

    def read(text: str) -> dict:
        calls.append(text)
        return {"node": [], "links": [], "members": []}  # an empty head reading: the rules' figure stands

    scores = plan_scores(briefs, read)
    assert set(scores) == {"rules", "rules+head"} and len(calls) == 3
    tp = sum(score_figure(b.gold, figure_from_brief(b.text), b.aliases).nodes.tp for b in briefs)
    assert scores["rules"].nodes.tp == tp == scores["rules+head"].nodes.tp
    assert scores["rules"].nodes.n_gold == sum(len(b.gold.of_kind("node")) for b in briefs)


def test_each_brief_is_planned_once_for_the_tables_and_the_scores(monkeypatch) -> None:
    import crafter.benchmarks.links_report as lr

    briefs = list(load_briefs("dev"))[:2]
    built = []
    monkeypatch.setattr(lr, "figure_from_brief", lambda text, **kw: built.append(text) or figure_from_brief(text, **kw))
    forms, groups, scores = lr.analyse(briefs, lambda text: {"node": [], "links": [], "members": []})
    assert len(built) == 4  # rules, rules+head: one each a brief
    assert scores["rules"].nodes.n_gold == sum(len(b.gold.of_kind("node")) for b in briefs)


def test_node_misses_class_every_missed_gold_node_once() -> None:
    from crafter.benchmarks.links_report import NODE_CLASSES, node_misses

    briefs = list(load_briefs("dev"))[:4]
    misses = node_misses(briefs)
    assert set(misses) == set(NODE_CLASSES)
    missed = 0
    for b in briefs:
        s = score_figure(b.gold, figure_from_brief(b.text), b.aliases)
        missed += len(b.gold.of_kind("node")) - s.nodes.tp
    assert sum(len(v) for v in misses.values()) == missed
    assert all(x.split()[0] in {b.id for b in briefs} for v in misses.values() for x in v)


def test_false_nodes_class_every_unmatched_box_once() -> None:
    from crafter.benchmarks.links_report import FALSE_CLASSES, false_nodes

    briefs = list(load_briefs("dev"))[:4]
    false = false_nodes(briefs)
    assert set(false) == set(FALSE_CLASSES)
    drawn = 0
    for b in briefs:
        s = score_figure(b.gold, figure_from_brief(b.text), b.aliases)
        drawn += s.nodes.n_pred - s.nodes.tp
    assert sum(len(v) for v in false.values()) == drawn


def test_a_generic_noun_is_the_one_the_reader_drops() -> None:
    from crafter.agents.subject import GENERIC_NOUNS
    from crafter.benchmarks.links_report import FALSE_CLASSES, _false_class

    for word in GENERIC_NOUNS | {"model", "system", "module"}:
        assert (_false_class(word, {word}, []) == FALSE_CLASSES[3]) == (word in GENERIC_NOUNS), word
