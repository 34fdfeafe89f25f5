"""Written corpora Crafter is measured and trained on, and how a figure is scored against a gold one.

>>> from crafter.corpora import load_briefs, score_figure     # doctest: +SKIP
>>> b = load_briefs("dev")[0]
>>> score_figure(b.gold, my_figure, b.aliases).nodes.f1

:mod:`crafter.corpora.briefs` holds the brief corpus (train, dev and a frozen test split);
:mod:`crafter.corpora.scoring` the scoring rules, shared with CraftBench.
"""

from crafter.corpora.briefs import (
    FIELDS,
    NOISE,
    PHENOMENA,
    SPLITS,
    STYLES,
    TEST_SHA256,
    Brief,
    load_briefs,
    split_sha256,
)
from crafter.corpora.scoring import PRF, FigureScore, match_nodes, normal_form, score_figure, total

__all__ = [
    "Brief", "FIELDS", "FigureScore", "NOISE", "PHENOMENA", "PRF", "SPLITS", "STYLES", "TEST_SHA256", "load_briefs",
    "match_nodes", "normal_form", "score_figure", "split_sha256", "total",
]
