"""Metrics that need no human: each takes the ground truth and a system's output.

* validity — the output is a FigureSpec (or at least an SVG) that loads;
* component precision/recall/F1 — nodes matched by label, edges by (matched)
  endpoints, groups by members;
* text CER — character error rate of the labels;
* layout quality — node overlaps, edge crossings, labels overflowing their boxes;
* SSIM against the reference PNG (visual tasks);
* editability — share of the text kept as ``<text>``, primitives vs traced paths,
  elements per figure;
* chart numeric error — largest |value − truth| over the y-axis range;
* repair fix rate and locality — faults fixed, untouched components left unchanged.

Every function is pure and tested on hand-made cases with known answers.
"""

from __future__ import annotations

import difflib
import io
import re
import unicodedata
from dataclasses import dataclass
from typing import Any, Iterable

import numpy as np
from defusedxml import ElementTree as ET
from PIL import Image

from crafteditor import quality
from crafter.base.text import levenshtein, text_width
from crafter.base.theme import figure_theme
from crafter.corpora import score_figure
from crafter.formats import svg_to_png
from crafter.spec import Figure, print_component

# ---------------------------------------------------------------------------------
# Matching
# ---------------------------------------------------------------------------------


def normalise(label: str | None) -> str:
    text = unicodedata.normalize("NFKC", label or "").casefold()
    return re.sub(r"\s+", " ", text).strip()


def _similar(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, a, b).ratio()


def match_nodes(truth: Figure, pred: Figure, threshold: float = 0.8) -> dict[str, str]:
    """Map predicted node ids to truth node ids: exact labels first, then close ones."""
    t_nodes = {n.id: normalise(n.text) for n in truth.of_kind("node")}
    p_nodes = {n.id: normalise(n.text) for n in pred.of_kind("node")}
    mapping: dict[str, str] = {}
    free_t = dict(t_nodes)
    for pid, plab in p_nodes.items():
        for tid, tlab in free_t.items():
            if plab == tlab:
                mapping[pid] = tid
                del free_t[tid]
                break
    pairs = sorted(
        ((_similar(plab, tlab), pid, tid) for pid, plab in p_nodes.items() if pid not in mapping
         for tid, tlab in free_t.items()),
        reverse=True,
    )
    for score, pid, tid in pairs:
        if score < threshold:
            break
        if pid in mapping or tid not in free_t:
            continue
        mapping[pid] = tid
        del free_t[tid]
    return mapping


@dataclass
class PRF:
    tp: int
    n_pred: int
    n_truth: int

    @property
    def precision(self) -> float:
        return self.tp / self.n_pred if self.n_pred else (1.0 if self.n_truth == 0 else 0.0)

    @property
    def recall(self) -> float:
        return self.tp / self.n_truth if self.n_truth else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


def component_scores(truth: Figure, pred: Figure) -> dict[str, float]:
    """Precision/recall/F1 for nodes, edges and groups, and all components together."""
    mapping = match_nodes(truth, pred)
    nodes = PRF(len(mapping), len(pred.of_kind("node")), len(truth.of_kind("node")))

    t_edges = {(e.source, e.target) for e in truth.of_kind("edge")}
    p_edges = [(mapping.get(e.source), mapping.get(e.target)) for e in pred.of_kind("edge")]
    matched_edges = set()
    for pe in p_edges:
        if pe in t_edges and pe not in matched_edges:
            matched_edges.add(pe)
    edges = PRF(len(matched_edges), len(p_edges), len(t_edges))

    # groups: a predicted group matches a truth group when their (mapped) node sets agree (Jaccard ≥ 0.5)
    def leaf_members(fig: Figure, gid: str, seen: set[str] | None = None) -> set[str]:
        seen = seen or set()
        out: set[str] = set()
        comp = fig.by_id().get(gid)
        for m in getattr(comp, "members", []):
            if m in seen:
                continue
            seen.add(m)
            sub = fig.by_id().get(m)
            if sub is not None and sub.kind == "group":
                out |= leaf_members(fig, m, seen)
            else:
                out.add(m)
        return out

    t_groups = {g.id: leaf_members(truth, g.id) for g in truth.of_kind("group")}
    p_groups = {g.id: {mapping.get(m, f"?{m}") for m in leaf_members(pred, g.id)} for g in pred.of_kind("group")}
    used: set[str] = set()
    g_tp = 0
    for pid, pm in p_groups.items():
        best = max(((len(pm & tm) / max(len(pm | tm), 1), tid) for tid, tm in t_groups.items() if tid not in used),
                   default=(0, None))
        if best[0] >= 0.5 and best[1] is not None:
            used.add(best[1])
            g_tp += 1
    groups = PRF(g_tp, len(p_groups), len(t_groups))
    n_pred_charts, n_true_charts = len(pred.of_kind("chart")), len(truth.of_kind("chart"))
    charts = PRF(min(n_true_charts, n_pred_charts), n_pred_charts, n_true_charts)
    total = PRF(nodes.tp + edges.tp + groups.tp + charts.tp,
                nodes.n_pred + edges.n_pred + groups.n_pred + charts.n_pred,
                nodes.n_truth + edges.n_truth + groups.n_truth + charts.n_truth)
    return {
        "node_precision": nodes.precision, "node_recall": nodes.recall, "node_f1": nodes.f1,
        "edge_precision": edges.precision, "edge_recall": edges.recall, "edge_f1": edges.f1,
        "group_f1": groups.f1, "chart_f1": charts.f1,
        "component_precision": total.precision, "component_recall": total.recall, "component_f1": total.f1,
    }


def prose_scores(truth: Figure, pred: Figure, aliases: dict[str, list[str]] | None = None) -> dict[str, float]:
    """The prose track's scores, by the written corpus's rules (:mod:`crafter.corpora.scoring`): node, edge
    and group precision/recall/F1 plus the counts behind them (the report sums counts over briefs)."""
    s = score_figure(truth, pred, aliases)
    out: dict[str, float] = {}
    for name, prf in (("node", s.nodes), ("edge", s.edges), ("group", s.groups)):
        out.update({f"{name}_precision": prf.precision, f"{name}_recall": prf.recall, f"{name}_f1": prf.f1,
                    f"{name}_tp": prf.tp, f"{name}_pred": prf.n_pred, f"{name}_gold": prf.n_gold})
    every = s.nodes + s.edges + s.groups
    out.update({"component_precision": every.precision, "component_recall": every.recall, "component_f1": every.f1})
    return out


def text_cer(truth: Figure, pred: Figure) -> float:
    """Character error rate of node labels (unmatched truth labels count in full)."""
    mapping = {t: p for p, t in match_nodes(truth, pred, threshold=0.5).items()}
    p_by_id = pred.by_id()
    errors = chars = 0
    for n in truth.of_kind("node"):
        ref = n.text
        chars += len(ref)
        hyp = p_by_id[mapping[n.id]].text if n.id in mapping else ""
        errors += levenshtein(ref, hyp)
    return errors / chars if chars else 0.0


# ---------------------------------------------------------------------------------
# Layout quality
# ---------------------------------------------------------------------------------


def _segments(route) -> list[tuple[float, float, float, float]]:
    return [(a.x, a.y, b.x, b.y) for a, b in zip(route, route[1:])]


def _cross(s: tuple[float, float, float, float], t: tuple[float, float, float, float]) -> bool:
    (x1, y1, x2, y2), (x3, y3, x4, y4) = s, t

    def orient(ax, ay, bx, by, cx, cy):
        v = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
        return 0 if abs(v) < 1e-9 else (1 if v > 0 else -1)

    o1, o2 = orient(x1, y1, x2, y2, x3, y3), orient(x1, y1, x2, y2, x4, y4)
    o3, o4 = orient(x3, y3, x4, y4, x1, y1), orient(x3, y3, x4, y4, x2, y2)
    return o1 * o2 < 0 and o3 * o4 < 0


def layout_quality(fig: Figure) -> dict[str, float]:
    """Counts on a laid-out figure: node overlaps, edge crossings, label overflows."""
    theme = figure_theme(fig)
    nodes = [n for n in fig.of_kind("node") if n.box is not None]
    overlaps = sum(1 for i, a in enumerate(nodes) for b in nodes[i + 1:] if a.box.intersects(b.box, margin=-0.5))
    edges = [e for e in fig.of_kind("edge") if e.route]
    crossings = 0
    for i, a in enumerate(edges):
        for b in edges[i + 1:]:
            if {a.source, a.target} & {b.source, b.target}:
                continue  # edges sharing a node meet there by design
            crossings += sum(1 for s in _segments(a.route) for t in _segments(b.route) if _cross(s, t))
    overflow = 0
    for n in nodes:
        size = n.font_size or theme.font_size
        longest = max((text_width(line, size, bold=n.bold) for line in n.text.split("\n")), default=0)
        # wrapped labels are the renderer's job; an unbreakable word is not
        if longest > n.box.w + 1 and " " not in n.text:
            overflow += 1
    return {"overlaps": float(overlaps), "crossings": float(crossings), "overflows": float(overflow)}


# ---------------------------------------------------------------------------------
# Visual and editability
# ---------------------------------------------------------------------------------


def png_from_svg(svg: str, width: int | None = None, height: int | None = None) -> "Any":
    png = svg_to_png(svg, width=width, height=height, background="white")
    return np.asarray(Image.open(io.BytesIO(png)).convert("L"))


def ssim(reference_png: bytes | "Any", candidate_svg: str | None = None, candidate_png: bytes | None = None) -> float:
    """Structural similarity of a candidate (SVG or PNG) to the reference PNG, grey, at the reference size."""

    ref = np.asarray(_flat(reference_png)) if isinstance(reference_png, bytes) else reference_png
    if candidate_svg is not None:
        cand = png_from_svg(candidate_svg, width=ref.shape[1])
        if cand.shape != ref.shape and abs(cand.shape[0] - ref.shape[0]) <= 2:
            # the same drawing, rounded one pixel differently: draw it at exactly the reference size
            cand = png_from_svg(candidate_svg, width=ref.shape[1], height=ref.shape[0])
    elif candidate_png is not None:
        cand = np.asarray(_flat(candidate_png))
    else:
        return 0.0
    if cand.shape != ref.shape:
        cand = np.asarray(Image.fromarray(cand).resize((ref.shape[1], ref.shape[0]), Image.BILINEAR))
    return quality.ssim(ref, cand)


def _flat(png: bytes) -> "Any":
    """A PNG as grey levels with transparency flattened onto white (not read as black)."""
    rgba = Image.open(io.BytesIO(png)).convert("RGBA")
    return Image.alpha_composite(Image.new("RGBA", rgba.size, "white"), rgba).convert("L")


_PRIMITIVES = {"rect", "circle", "ellipse", "line", "polyline", "polygon"}


def editability(svg: str, truth: Figure | None = None) -> dict[str, float]:
    """Text kept as <text>, primitives vs traced paths, and elements per figure, from the SVG alone."""
    try:
        root = ET.fromstring(svg.encode("utf-8"))
    except Exception:
        return {"text_as_text": 0.0, "primitive_share": 0.0, "elements": 0.0}
    counts: dict[str, int] = {}
    text_chars = 0
    for el in root.iter():
        tag = el.tag.rsplit("}", 1)[-1]
        if tag in ("metadata",):
            continue
        counts[tag] = counts.get(tag, 0) + 1
        if tag == "text":
            text_chars += len("".join(el.itertext()).strip())
    shapes = sum(counts.get(t, 0) for t in _PRIMITIVES)
    paths = counts.get("path", 0)
    drawn = sum(v for k, v in counts.items() if k in _PRIMITIVES | {"path", "text", "image"})
    if truth is not None:
        want = sum(len(n.text.replace("\n", "")) for n in truth.of_kind("node"))
        want += sum(len(c.title or "") for c in truth.of_kind("chart"))
        want += sum(len(t.text) for t in truth.of_kind("text"))
        text_share = min(1.0, text_chars / want) if want else 1.0
    else:
        text_share = 1.0 if counts.get("text") else 0.0
    return {
        "text_as_text": float(text_share),
        "primitive_share": shapes / (shapes + paths) if shapes + paths else 0.0,
        "elements": float(drawn),
    }


# ---------------------------------------------------------------------------------
# Charts and repair
# ---------------------------------------------------------------------------------


def _chart_points(chart) -> tuple[dict[tuple[str, str], float], str]:
    enc = chart.spec.get("encoding", {})
    xf = enc.get("x", {}).get("field")
    yf = enc.get("y", {}).get("field")
    cf = enc.get("color", {}).get("field")
    ff = enc.get("column", {}).get("field") or enc.get("facet", {}).get("field")
    values = chart.spec.get("data", {}).get("values", [])
    out: dict[tuple[str, str], float] = {}
    for v in values:
        try:
            key = (str(v.get(xf)), f"{v.get(cf, '')}|{v.get(ff, '')}")
            out[key] = float(v.get(yf))
        except (TypeError, ValueError):
            continue
    return out, yf or ""


def chart_error(truth: Figure, pred: Figure) -> float | None:
    """Largest |value − truth| / y-range over the truth's marks (1.0 for a missing mark); None without charts."""
    t_charts = truth.of_kind("chart")
    if not t_charts:
        return None
    p_charts = pred.of_kind("chart")
    worst = 0.0
    for i, tc in enumerate(t_charts):
        tp, _ = _chart_points(tc)
        if not tp:
            continue
        if i >= len(p_charts):
            return 1.0
        pp, _ = _chart_points(p_charts[i])
        lo, hi = min(tp.values()), max(tp.values())
        span = (hi - lo) or abs(hi) or 1.0
        # match by x alone when the series keys differ (e.g. a legend renamed)
        by_x: dict[str, list[float]] = {}
        for (x, _s), val in pp.items():
            by_x.setdefault(x, []).append(val)
        for key, val in tp.items():
            if key in pp:
                err = abs(pp[key] - val) / span
            elif by_x.get(key[0]):
                err = min(abs(v - val) for v in by_x[key[0]]) / span
            else:
                err = 1.0
            worst = max(worst, min(err, 1.0))
    return worst


_GEOMETRY = {"box", "route", "label_box", "pinned"}


def semantic_line(component) -> str:
    """A component's DSL statement without layout fields: what 'unchanged' means for locality."""
    fields = type(component).model_fields
    return print_component(component.model_copy(
        update={k: None if k != "pinned" else False for k in _GEOMETRY if k in fields}))


def repair_scores(truth: Figure, faulty: Figure, pred: Figure, fault_ids: Iterable[str],
                  fault: str) -> dict[str, float]:
    """fix rate: the faulty components now match the truth; locality: everything else unchanged."""
    fault_ids = set(fault_ids)
    t_by, f_by, p_by = truth.by_id(), faulty.by_id(), pred.by_id()
    if fault == "overlap":
        fixed = layout_quality(pred)["overlaps"] == 0 and all(i in p_by for i in fault_ids)
    elif fault == "deleted_arrow":
        want = {(t_by[i].source, t_by[i].target) for i in fault_ids if i in t_by}
        have = {(e.source, e.target) for e in pred.of_kind("edge")}
        fixed = want <= have
    elif fault == "wrong_bar":
        fixed = (chart_error(truth, pred) or 0.0) <= 0.005
    else:
        fixed = all(i in p_by and semantic_line(p_by[i]) == semantic_line(t_by[i]) for i in fault_ids)
    untouched = [cid for cid in f_by if cid not in fault_ids]
    same = sum(1 for cid in untouched if cid in p_by and semantic_line(p_by[cid]) == semantic_line(f_by[cid]))
    locality = same / len(untouched) if untouched else 1.0
    return {"fix_rate": 1.0 if fixed else 0.0, "locality": locality}
