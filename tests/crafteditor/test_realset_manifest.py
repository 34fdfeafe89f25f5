"""The real-figure set's committed truth (realset/manifest.json): provenance a reader can follow,
licences that let us keep the figures, a frozen test split, truth that is self-consistent."""

import hashlib
import json
import re
from collections import Counter

from conftest import REAL_MANIFEST

from crafteditor.realset import norm_word

ALLOWED = {"MIT", "Apache-2.0", "BSD-2-Clause", "BSD-3-Clause", "ISC", "CC0-1.0", "CC-BY-4.0", "CC-BY-SA-4.0", "Unlicense"}
FIGURES = json.loads(REAL_MANIFEST.read_text(encoding="utf-8"))["figures"]


def test_every_figure_says_where_it_comes_from_and_under_which_licence():
    assert len(FIGURES) >= 120
    assert len({f["id"] for f in FIGURES}) == len(FIGURES)
    assert len({f["sha256"] for f in FIGURES}) == len(FIGURES)  # no figure twice under two names
    for f in FIGURES:
        assert re.fullmatch(r"[\w.-]+/[\w.-]+", f["repo"]) and f["path"], f["id"]
        assert re.fullmatch(r"[0-9a-f]{40}", f["commit"]) and re.fullmatch(r"[0-9a-f]{64}", f["sha256"]), f["id"]
        assert f.get("licence_file"), f["id"]
        licences = set(re.split(r"\s+OR\s+", f["licence"]))
        assert licences & ALLOWED, (f["id"], f["licence"])
        assert f["file"].startswith("figs/") and not f["file"].startswith("/"), f["id"]


def test_the_set_spans_diagrams_and_charts_of_many_makers_and_repositories():
    kinds = Counter(f["kind"] for f in FIGURES)
    assert kinds["diagram"] >= 60 and kinds["chart"] >= 40
    assert len({f["repo"] for f in FIGURES}) >= 40
    makers = {f.get("maker") for f in FIGURES}
    assert {"matplotlib", "ggplot2", "vega-altair", "mermaid", "graphviz", "excalidraw", "drawio"} <= makers
    assert sum("hand-drawn" in f.get("phenomena", []) for f in FIGURES) >= 10


def test_the_test_split_is_a_third_drawn_by_a_rule_of_the_id():
    """The split was drawn once by sha256(id) and is frozen: a figure keeps it as the set grows."""
    for f in FIGURES:
        rule = "test" if int(hashlib.sha256(f["id"].encode()).hexdigest()[:8], 16) % 3 == 0 else "dev"
        assert f["split"] == rule, f["id"]
    n_test = sum(f["split"] == "test" for f in FIGURES)
    assert 0.25 <= n_test / len(FIGURES) <= 0.42


def test_the_truth_is_self_consistent():
    for f in FIGURES:
        words = {norm_word(w) for w in f["text"].split()}
        assert f["text"].strip(), f["id"]
        nodes = set(f.get("nodes") or [])
        for a, b in f.get("edges") or []:
            assert a in nodes and b in nodes, (f["id"], a, b)  # an edge joins two labelled nodes
        for label in nodes:  # a node's words are words of the figure
            assert all(norm_word(w) in words for w in label.split() if norm_word(w)), (f["id"], label)
        if f.get("values"):
            assert f["kind"] == "chart", f["id"]
            lo, hi = f["value_axis"]
            assert lo < hi, f["id"]
            assert all(len(v) == 3 and isinstance(v[2], (int, float)) for v in f["values"]), f["id"]
