"""Scoring a conversion against the figure it came from (benchmark and tests).

* boxes: a true node counts when a recovered node overlaps it (IoU ≥ 0.5) **and** carries
  the same label (whitespace-normalised); its shape is scored separately;
* arrows: a true edge counts when a recovered edge joins the nodes matched to its ends in
  the same direction (either direction for two-headed edges);
* heads: a true edge counted under arrows whose head and tail kinds (arrow, open, diamond…)
  are also right;
* words: the share of the true words (labels, edge labels, group labels, free text)
  found exactly among the recovered words (multiset recall);
* chart values: see :func:`score_chart`.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from crafter.spec.model import Box, Chart, Edge, Figure, Group, Node, Text


def _iou(a: Box, b: Box) -> float:
    ix = max(0.0, min(a.right, b.right) - max(a.x, b.x))
    iy = max(0.0, min(a.bottom, b.bottom) - max(a.y, b.y))
    inter = ix * iy
    union = a.w * a.h + b.w * b.h - inter
    return inter / union if union > 0 else 0.0


def _norm(s: str | None) -> str:
    return " ".join((s or "").split())


def figure_words(fig: Figure) -> list[str]:
    words: list[str] = []
    for c in fig.components:
        if isinstance(c, Node):
            words += (c.label or "").split()
        elif isinstance(c, (Edge, Group)):
            words += (c.label or "").split()
        elif isinstance(c, Text):
            words += c.text.split()
        elif isinstance(c, Chart):
            words += chart_words(c.spec)
    return words


def chart_words(spec: dict[str, Any]) -> list[str]:
    words: list[str] = []
    title = spec.get("title")
    if isinstance(title, dict):
        title = title.get("text")
    if isinstance(title, str):
        words += title.split()
    for ch in (spec.get("encoding") or {}).values():
        if isinstance(ch, dict) and isinstance(ch.get("title"), str):
            words += ch["title"].split()
    return words


def score_diagram(pred: Figure, truth: Figure) -> dict[str, Any]:
    t_nodes = [c for c in truth.components if isinstance(c, Node) and c.box is not None]
    p_nodes = [c for c in pred.components if isinstance(c, Node) and c.box is not None]
    pairs = sorted(((_iou(t.box, p.box), ti, pi) for ti, t in enumerate(t_nodes) for pi, p in enumerate(p_nodes)),
                   reverse=True)
    match: dict[str, str] = {}
    used: set[int] = set()
    for iou, ti, pi in pairs:
        if iou < 0.5:
            break
        if t_nodes[ti].id in match or pi in used:
            continue
        match[t_nodes[ti].id] = p_nodes[pi].id
        used.add(pi)
    p_by_id = {c.id: c for c in pred.components}
    labelled = sum(1 for t in t_nodes if t.id in match and _norm(p_by_id[match[t.id]].label) == _norm(t.label))
    shaped = sum(1 for t in t_nodes if t.id in match and p_by_id[match[t.id]].shape == t.shape)
    t_edges = [c for c in truth.components if isinstance(c, Edge)]
    p_edges = {(c.source, c.target): c for c in pred.components if isinstance(c, Edge)}
    found = headed = 0
    for e in t_edges:
        s, t = match.get(e.source), match.get(e.target)
        if s is None or t is None:
            continue
        if (s, t) in p_edges or ((e.tail != "none" or e.head == "none") and (t, s) in p_edges):
            found += 1
            got = p_edges.get((s, t))
            kinds = (got.head, got.tail) if got is not None else (p_edges[(t, s)].tail, p_edges[(t, s)].head)
            headed += kinds == (e.head, e.tail)
    t_words = Counter(figure_words(truth))
    p_words = Counter(figure_words(pred))
    hit = sum(min(n, p_words[w]) for w, n in t_words.items())
    return {
        "nodes": len(t_nodes),
        "nodes_found": len(match),
        "boxes": labelled / len(t_nodes) if t_nodes else 1.0,
        "shapes": shaped / len(t_nodes) if t_nodes else 1.0,
        "edges": len(t_edges),
        "arrows": found / len(t_edges) if t_edges else 1.0,
        "heads": headed / len(t_edges) if t_edges else 1.0,
        "words": hit / sum(t_words.values()) if t_words else 1.0,
        "extra_nodes": len(p_nodes) - len(match),
    }


def score_chart(pred: Figure, truth: Any) -> dict[str, Any]:
    """Chart values: mean and worst error of recovered data points, as a share of the axis range.

    ``truth`` is a :class:`crafteditor.synthetic.ChartTruth`. Bars are matched by category
    label, line and scatter points by series and nearest x.
    """
    charts = [c for c in pred.components if isinstance(c, Chart)]
    if not charts:
        return {"charts": 0, "points": sum(len(v) for v in truth.series.values()), "found": 0,
                "within_2pct": 0.0, "mean_error": None}
    spec = charts[0].spec
    rows = (spec.get("data") or {}).get("values") or []
    enc = spec.get("encoding") or {}
    xf = (enc.get("x") or {}).get("field", "x")
    yf = (enc.get("y") or {}).get("field", "y")
    cf = (enc.get("color") or {}).get("field")
    if (enc.get("y") or {}).get("type") == "nominal" and (enc.get("x") or {}).get("type") == "quantitative":
        xf, yf = yf, xf  # horizontal bars: the categories are on y
    lo, hi = truth.y_range
    if truth.log_y:
        lo, hi = math.log10(lo), math.log10(hi)
    span = (hi - lo) or 1.0
    xspan = (truth.x_range[1] - truth.x_range[0]) if truth.x_range else 1.0
    errors: list[float] = []
    total = 0
    for si, (name, pts) in enumerate(truth.series.items()):
        # the recovered series: by legend name, else by position
        cand = [r for r in rows if cf is None or str(r.get(cf)) == name]
        if not cand and cf is not None:
            groups = sorted({str(r.get(cf)) for r in rows})
            if si < len(groups):
                cand = [r for r in rows if str(r.get(cf)) == groups[si]]
        for x, y in pts:
            total += 1
            if truth.kind == "bar":
                m = [r for r in cand if _norm(str(r.get(xf))) == _norm(str(x))]
            else:
                m = sorted(cand, key=lambda r: abs(_num(r.get(xf)) - float(x)))[:1]
                if m and abs(_num(m[0].get(xf)) - float(x)) > 0.03 * xspan:
                    m = []
            if not m:
                continue
            v = _num(m[0].get(yf))
            tv = float(y)
            if truth.log_y:
                if v <= 0:
                    continue
                v, tv = math.log10(v), math.log10(tv)
            errors.append(abs(v - tv) / span)
    within = sum(1 for e in errors if e <= 0.02)
    return {
        "charts": len(charts),
        "points": total,
        "found": len(errors),
        "within_2pct": within / total if total else 1.0,
        "mean_error": sum(errors) / len(errors) if errors else None,
    }


def _num(v: Any) -> float:
    try:
        return float(v)
    except (TypeError, ValueError):
        return float("nan")
