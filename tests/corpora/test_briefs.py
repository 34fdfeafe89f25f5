"""The written brief corpus: size, coverage, frozen splits, gold figures that say what their tags say."""

from __future__ import annotations

import collections

import pytest

from crafter.corpora import FIELDS, NOISE, PHENOMENA, STYLES, TEST_SHA256, load_briefs, split_sha256
from crafter.corpora.briefs import eight_word_runs


@pytest.fixture(scope="module")
def splits():
    return {s: load_briefs(s) for s in ("train", "dev", "test")}


def test_sizes(splits) -> None:
    assert len(splits["train"]) >= 800 and len(splits["dev"]) >= 150 and len(splits["test"]) >= 250
    ids = [b.id for bs in splits.values() for b in bs]
    assert len(ids) == len(set(ids)) >= 1200


def test_the_test_split_is_frozen() -> None:
    assert split_sha256("test") == TEST_SHA256, "the test split changed: it is frozen (its sha256 is in the README)"


def test_fields_styles_and_tags_are_known(splits) -> None:
    every = [b for bs in splits.values() for b in bs]
    assert {b.field for b in every} == set(FIELDS) and len(FIELDS) >= 14
    assert {b.style for b in every} == set(STYLES) and len(STYLES) >= 10
    assert all(set(b.phenomena) <= set(PHENOMENA) and set(b.noise) <= set(NOISE) for b in every)
    assert sum(bool(b.noise) for b in every) >= len(every) / 2
    assert sum("distractors" in b.noise for b in every) >= len(every) / 4


def test_test_holds_field_and_style_pairs_train_lacks(splits) -> None:
    train_pairs = {(b.field, b.style) for b in splits["train"]}
    assert not {(b.field, b.style) for b in splits["test"]} & train_pairs
    assert {b.field for b in splits["train"]} == set(FIELDS) and {b.style for b in splits["train"]} == set(STYLES)


@pytest.mark.parametrize("split,least", [("train", 30), ("test", 10)])
def test_every_phenomenon_is_well_represented(splits, split: str, least: int) -> None:
    counts = collections.Counter(p for b in splits[split] for p in b.phenomena)
    assert {p: counts[p] for p in PHENOMENA if counts[p] < least} == {}


def test_no_test_brief_shares_eight_words_with_a_train_brief(splits) -> None:
    train_runs = set().union(*(eight_word_runs(b.text) for b in splits["train"]))
    shared = {b.id: sorted(eight_word_runs(b.text) & train_runs)[:1] for b in splits["test"]
              if eight_word_runs(b.text) & train_runs}
    assert shared == {}


def test_gold_figures_parse_and_show_their_tags(splits) -> None:
    problems = []
    for b in (b for bs in splits.values() for b in bs):
        fig = b.gold
        kinds = collections.Counter(c.kind for c in fig.components)
        ids = {c.id for c in fig.components}
        if kinds["node"] < 2 or not fig.title:
            problems.append(f"{b.id}: a figure needs a title and two nodes")
        if "condition" in b.phenomena and not any(n.shape == "diamond" for n in fig.of_kind("node")):
            problems.append(f"{b.id}: tagged condition, no decision diamond")
        if "multi_panel" in b.phenomena and not kinds["panel"]:
            problems.append(f"{b.id}: tagged multi_panel, no panel")
        if "groups" in b.phenomena and not (kinds["group"] or kinds["panel"]):
            problems.append(f"{b.id}: tagged groups, no group")
        if "nested_groups" in b.phenomena and not any(
                m in {g.id for g in fig.of_kind("group")} for g in fig.components if g.kind in ("group", "panel")
                for m in g.members):
            problems.append(f"{b.id}: tagged nested_groups, no group inside a group")
        if not set(b.aliases) <= ids:
            problems.append(f"{b.id}: aliases for components that do not exist: {set(b.aliases) - ids}")
    assert problems == []
