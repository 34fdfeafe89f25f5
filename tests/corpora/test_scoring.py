"""The scoring rules of the prose track, on hand-made figures with known answers."""

from __future__ import annotations

import pytest

from crafter.corpora import normal_form, score_figure, total
from crafter.spec import parse_dsl

GOLD = parse_dsl('''figure "RAG"
q node "User query"
enc node "Query encoder"
idx node "Vector index" shape=cylinder
llm node "LLM generator"
e1 edge q -> enc
e2 edge enc -> idx "k-NN search"
e3 edge idx -> llm
e4 edge q -- llm
g group "Retrieval" [enc, idx]
''')
ALIASES = {"llm": ["Generator", "Language model"], "enc": ["Encoder"]}


def test_the_gold_scores_one() -> None:
    s = score_figure(GOLD, GOLD, ALIASES)
    assert (s.nodes.f1, s.edges.f1, s.groups.f1) == (1.0, 1.0, 1.0)


def test_normal_form() -> None:
    assert normal_form("The  Query-Encoders\n(FAISS)") == "query encoder faiss"
    assert normal_form("class") == "class" and normal_form("Loss") == "loss"


def test_aliases_and_close_labels_match_but_other_words_do_not() -> None:
    pred = parse_dsl('a node "user queries"\nb node "Encoder"\nc node "Vectr index"\nd node "Language model"\n'
                     'x node "Decoder"')
    s = score_figure(GOLD, pred, ALIASES)
    assert s.matched == {"a": "q", "b": "enc", "c": "idx", "d": "llm"}
    assert (s.nodes.tp, s.nodes.n_pred, s.nodes.n_gold) == (4, 5, 4)


def test_a_word_subset_matches_only_when_it_is_half_the_label() -> None:
    gold = parse_dsl('a node "GATK variant calling"\nb node "Sorting"')
    assert score_figure(gold, parse_dsl('x node "Variant calling"')).nodes.tp == 1
    assert score_figure(gold, parse_dsl('x node "Calling"')).nodes.tp == 0


def test_a_reversed_or_undirected_edge_is_wrong() -> None:
    rev = parse_dsl('a node "User query"\nb node "Query encoder"\ne edge b -> a')
    assert score_figure(GOLD, rev).edges.tp == 0
    und = parse_dsl('a node "User query"\nb node "Query encoder"\ne edge a -- b')
    assert score_figure(GOLD, und).edges.tp == 0
    back = parse_dsl('a node "User query"\nb node "Query encoder"\ne edge b <- a')  # drawn a -> b
    assert score_figure(GOLD, back).edges.tp == 1


def test_an_undirected_gold_link_needs_an_undirected_prediction() -> None:
    pred = parse_dsl('a node "LLM generator"\nb node "User query"\ne edge a -- b')
    assert score_figure(GOLD, pred).edges.tp == 1
    arrow = parse_dsl('a node "LLM generator"\nb node "User query"\ne edge b -> a')
    assert score_figure(GOLD, arrow).edges.tp == 0


def test_edges_between_unmatched_nodes_count_as_wrong_predictions() -> None:
    pred = parse_dsl('a node "Tokenizer"\nb node "Reranker"\ne edge a -> b')
    s = score_figure(GOLD, pred)
    assert (s.edges.tp, s.edges.n_pred, s.edges.n_gold) == (0, 1, 4)


@pytest.mark.parametrize("members,hit", [("b, c", 1), ("a, b, c", 1), ("a, b, c, d", 1), ("a, b, d", 0), ("a, d", 0)])
def test_groups_match_by_members(members: str, hit: int) -> None:
    pred = parse_dsl('a node "User query"\nb node "Query encoder"\nc node "Vector index"\nd node "LLM generator"\n'
                     f'g group "Anything" [{members}]')
    assert score_figure(GOLD, pred).groups.tp == hit


def test_nested_groups_are_compared_by_their_leaves() -> None:
    pred = parse_dsl('b node "Query encoder"\nc node "Vector index"\ng1 group "Inner" [b]\ng2 group "Outer" [g1, c]')
    s = score_figure(GOLD, pred)
    assert (s.groups.tp, s.groups.n_pred) == (1, 2)


def test_counts_add_up_over_figures() -> None:
    a = score_figure(GOLD, GOLD)
    b = score_figure(GOLD, parse_dsl('a node "Nothing"'))
    t = total([a, b])
    assert (t.nodes.tp, t.nodes.n_pred, t.nodes.n_gold) == (4, 5, 8)
    assert t.nodes.precision == 0.8 and t.nodes.recall == 0.5
