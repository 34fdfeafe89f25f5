"""Scoring a figure against a gold figure: nodes, edges and groups, each as precision, recall and F1.

The rules (the prose track of CraftBench and ``crafter bench briefs`` use them as they are):

* **Labels** are compared in a normal form: Unicode NFKC, lower case, every run of
  characters that are not letters or digits a single space, the articles *a*, *an*, *the*
  dropped, a plural *s* dropped from words of four letters or more (not *ss*). A predicted
  node **matches** a gold node when its normal form equals the gold label's or one of the
  gold node's ``aliases``; failing that, when the two are **close**: the words of one are all
  among the words of the other and the shorter has at least half as many words as the longer
  ("GATK variant calling" ~ "Variant calling"), or their character similarity
  (:class:`difflib.SequenceMatcher` ratio) is at least 0.85 ("Tokeniser" ~ "Tokenizer").
  Exact matches are taken first, then close ones best first; each node matches at most once.
* **Edges** are matched after the nodes, by direction: an edge counts as the arrow it
  draws — ``a -> b`` is (a, b), ``a <- b`` is (b, a), ``a <-> b`` is both, ``a -- b`` (no
  head) is an undirected link. A predicted arrow is right when the gold has that arrow
  between the matched nodes; a reversed arrow is wrong; an undirected link is right only
  where the gold link is undirected too. Edge labels are not scored.
* **Groups** (and panels) match when their members, as matched nodes, overlap by a Jaccard
  index of at least 0.5 (nested groups are compared by their leaf members).

Counts are summed over briefs before precision and recall are taken (micro-average).
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Iterable, Mapping

from crafter.spec.model import Edge, Figure

ARTICLES = frozenset({"a", "an", "the"})
CLOSE_RATIO = 0.85
GROUP_JACCARD = 0.5


def normal_form(label: str | None) -> str:
    """The form labels are compared in (see the module docstring)."""
    text = unicodedata.normalize("NFKC", label or "").casefold()
    words = []
    for w in re.findall(r"[^\W_]+", text):
        if w in ARTICLES:
            continue
        if len(w) >= 4 and w.endswith("s") and not w.endswith("ss"):
            w = w[:-1]
        words.append(w)
    return " ".join(words)


def closeness(a: str, b: str) -> float:
    """1.0 for equal normal forms; otherwise a score ≥ the match threshold when close, or 0.0."""
    if not a or not b:
        return 0.0
    if a == b:
        return 1.0
    wa, wb = a.split(), b.split()
    small, large = (wa, wb) if len(wa) <= len(wb) else (wb, wa)
    if set(small) <= set(large) and len(small) * 2 >= len(large):
        return 0.9 + 0.05 * len(small) / len(large)
    # the ratio's upper bounds first (the same answers; a long brief has thousands of spans to try)
    if 2 * min(len(a), len(b)) < CLOSE_RATIO * (len(a) + len(b)):
        return 0.0
    m = difflib.SequenceMatcher(None, a, b)
    if m.real_quick_ratio() < CLOSE_RATIO or m.quick_ratio() < CLOSE_RATIO:
        return 0.0
    ratio = m.ratio()
    return ratio if ratio >= CLOSE_RATIO else 0.0


@dataclass
class PRF:
    """True positives, predictions and gold items of one kind; precision, recall and F1 from them."""

    tp: int = 0
    n_pred: int = 0
    n_gold: int = 0

    def __add__(self, other: PRF) -> PRF:
        return PRF(self.tp + other.tp, self.n_pred + other.n_pred, self.n_gold + other.n_gold)

    @property
    def precision(self) -> float:
        return self.tp / self.n_pred if self.n_pred else (1.0 if self.n_gold == 0 else 0.0)

    @property
    def recall(self) -> float:
        return self.tp / self.n_gold if self.n_gold else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


@dataclass
class FigureScore:
    nodes: PRF = field(default_factory=PRF)
    edges: PRF = field(default_factory=PRF)
    groups: PRF = field(default_factory=PRF)
    matched: dict[str, str] = field(default_factory=dict)  # predicted node id -> gold node id

    def __add__(self, other: FigureScore) -> FigureScore:
        return FigureScore(self.nodes + other.nodes, self.edges + other.edges, self.groups + other.groups)


def match_nodes(gold: Figure, pred: Figure, aliases: Mapping[str, list[str]] | None = None) -> dict[str, str]:
    """Predicted node id -> gold node id, one to one (see the module docstring)."""
    aliases = aliases or {}
    gold_forms = {n.id: {normal_form(n.text)} | {normal_form(a) for a in aliases.get(n.id, [])}
                  for n in gold.of_kind("node")}
    pred_forms = {n.id: normal_form(n.text) for n in pred.of_kind("node")}
    mapping: dict[str, str] = {}
    free = dict(gold_forms)
    for pid, pf in pred_forms.items():
        hit = next((gid for gid, forms in free.items() if pf and pf in forms), None)
        if hit is not None:
            mapping[pid] = hit
            del free[hit]
    candidates = sorted(((max(closeness(pf, f) for f in forms), pid, gid)
                         for pid, pf in pred_forms.items() if pid not in mapping
                         for gid, forms in free.items()), reverse=True)
    for score, pid, gid in candidates:
        if score <= 0.0:
            break
        if pid in mapping or gid not in free:
            continue
        mapping[pid] = gid
        del free[gid]
    return mapping


def arrows(e: Edge) -> set[tuple[str, str]]:
    """The arrows an edge draws, as (from, to) pairs; empty for an undirected link."""
    out = set()
    if e.head != "none":
        out.add((e.source, e.target))
    if e.tail != "none":
        out.add((e.target, e.source))
    return out


def _links(fig: Figure, rename: Mapping[str, str] | None = None) -> list[tuple[frozenset | tuple, ...]]:
    """Each edge as a tuple of directed pairs, or (frozenset of its ends,) when undirected."""
    out = []
    for e in fig.of_kind("edge"):
        s, t = (rename.get(e.source), rename.get(e.target)) if rename is not None else (e.source, e.target)
        pairs = arrows(e)
        if not pairs:
            out.append((frozenset((s, t)),))
        else:
            ren = {e.source: s, e.target: t}
            out.append(tuple(sorted((ren[a], ren[b]) for a, b in pairs)))
    return out


def score_edges(gold: Figure, pred: Figure, mapping: Mapping[str, str]) -> PRF:
    gold_links = _links(gold)
    pred_links = _links(pred, mapping)
    remaining = list(gold_links)
    tp = 0
    for link in pred_links:
        if any(None in (x if isinstance(x, tuple) else tuple(x)) for x in link):
            continue  # an end that matched no gold node
        if link in remaining:
            remaining.remove(link)
            tp += 1
    return PRF(tp, len(pred_links), len(gold_links))


def _leaves(fig: Figure, cid: str, seen: set[str] | None = None) -> set[str]:
    seen = set() if seen is None else seen
    out: set[str] = set()
    by_id = fig.by_id()
    for m in getattr(by_id.get(cid), "members", []) or []:
        if m in seen:
            continue
        seen.add(m)
        sub = by_id.get(m)
        if sub is not None and sub.kind in ("group", "panel"):
            out |= _leaves(fig, m, seen)
        else:
            out.add(m)
    return out


def score_groups(gold: Figure, pred: Figure, mapping: Mapping[str, str]) -> PRF:
    containers = ("group", "panel")
    gold_sets = {c.id: _leaves(gold, c.id) for c in gold.components if c.kind in containers}
    pred_sets = {c.id: {mapping.get(m, f"?{m}") for m in _leaves(pred, c.id)}
                 for c in pred.components if c.kind in containers}
    used: set[str] = set()
    tp = 0
    for pm in pred_sets.values():
        best, best_id = 0.0, None
        for gid, gm in gold_sets.items():
            if gid in used:
                continue
            j = len(pm & gm) / max(len(pm | gm), 1)
            if j > best:
                best, best_id = j, gid
        if best_id is not None and best >= GROUP_JACCARD:
            used.add(best_id)
            tp += 1
    return PRF(tp, len(pred_sets), len(gold_sets))


def score_figure(gold: Figure, pred: Figure, aliases: Mapping[str, list[str]] | None = None) -> FigureScore:
    """Nodes, edges and groups of ``pred`` against ``gold`` (see the module docstring)."""
    mapping = match_nodes(gold, pred, aliases)
    return FigureScore(
        nodes=PRF(len(mapping), len(pred.of_kind("node")), len(gold.of_kind("node"))),
        edges=score_edges(gold, pred, mapping),
        groups=score_groups(gold, pred, mapping),
        matched=mapping,
    )


def total(scores: Iterable[FigureScore]) -> FigureScore:
    out = FigureScore()
    for s in scores:
        out = out + s
    return out
