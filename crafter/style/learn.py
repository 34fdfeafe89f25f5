"""Learning a house style from the evidence of several figures (:mod:`crafter.style.observe`).

Each field is settled twice: within a figure (the plain node fill is its most used fill, a size
its median), then across figures by majority of figures. Where figures disagree the style is
*mixed*: the majority is taken and the figures that differ are listed (``mixed`` in the file).
Every value carries ``count`` (observations), ``figures`` (figures showing the field) and
``confidence`` (the share of observations that agree with the value).
"""

from __future__ import annotations

import statistics
from collections import Counter
from typing import Any, Callable

from crafter.style.color import SAME_COLOUR, delta_e
from crafter.style.fonts import GENERIC, closest_face, font_class
from crafter.style.model import SCHEMA_ID, validate_style
from crafter.style.observe import Evidence

COLOUR_FIELDS = {"palette.node_fill", "palette.node_stroke", "palette.edge_color", "palette.edge_label_color",
                 "palette.text_color", "palette.group_fill", "palette.group_stroke", "palette.background",
                 "chart.plot_background", "chart.grid_color", "chart.axis_color"}
NUMBER_FIELDS = {"sizes.label", "strokes.node", "strokes.edge", "strokes.group", "shapes.corner_radius",
                 "layout.node_sep", "layout.rank_sep", "chart.axis_width"}
# sizes observed in px and stored relative to the label size
RATIO_FIELDS = {"sizes.title": "sizes.title_ratio", "sizes.edge_label": "sizes.edge_label_ratio",
                "sizes.group_label": "sizes.group_label_ratio"}
FIGURE_LEVEL = {"palette.node_fill"}  # the plain fill: a figure's other fills are its role fills
SPACING_FIELDS = {"layout.node_sep", "layout.rank_sep"}
# a node's outline width, seen in only some of the figures whose nodes are outlined (a raster's
# outlines are often too thin or too pale for the reader to measure): as sure as it is common
NODE_COVERAGE_FIELDS = {"strokes.node"}
MAX_ROLE_FILLS = 8


def same(key: str, a: Any, b: Any) -> bool:
    """Whether two values of a field are one value (colours within ΔE 5, sizes within 10 % or 0.5 px)."""
    if key in COLOUR_FIELDS:
        return delta_e(a, b) < SAME_COLOUR
    if key in SPACING_FIELDS:  # a layout's gaps vary with labels and routing: a quarter is one spacing
        return abs(a - b) <= max(2.0, 0.25 * max(abs(a), abs(b)))
    if key in NUMBER_FIELDS or key in RATIO_FIELDS.values() or key in RATIO_FIELDS:
        return abs(a - b) <= max(0.5 if key not in RATIO_FIELDS.values() else 0.04, 0.1 * max(abs(a), abs(b)))
    if key == "palette.series":
        return len(a) == len(b) and all(delta_e(x, y) < SAME_COLOUR for x, y in zip(a, b))
    return a == b


def _clusters(key: str, obs: list[tuple[Any, float]]) -> list[list[tuple[Any, float]]]:
    """Observations grouped into values that are :func:`same`, heaviest first."""
    groups: list[list[tuple[Any, float]]] = []
    for v, w in sorted(obs, key=lambda p: -p[1]):
        for g in groups:
            if same(key, g[0][0], v):
                g.append((v, w))
                break
        else:
            groups.append([(v, w)])
    return sorted(groups, key=lambda g: -sum(w for _, w in g))


def _representative(key: str, group: list[tuple[Any, float]]) -> Any:
    if key in NUMBER_FIELDS or key in RATIO_FIELDS or key in RATIO_FIELDS.values():
        return round(statistics.median(v for v, _ in group), 2)
    weights: Counter = Counter()
    for v, w in group:
        weights[v] += w
    return weights.most_common(1)[0][0]


def _figure_values(key: str, evidence: list[Evidence]) -> list[tuple[Evidence, Any, float]]:
    """Each figure's own value of ``key`` and its weight (observations)."""
    out = []
    for ev in evidence:
        obs = ev.obs.get(key)
        if obs:
            out.append((ev, _representative(key, _clusters(key, obs)[0]), sum(w for _, w in obs)))
    return out


def settle(key: str, evidence: list[Evidence], mixed: list[dict[str, Any]]) -> dict[str, Any] | None:
    """One field across figures: the majority value, how sure, and the others (``mixed`` if figures differ)."""
    per_fig = _figure_values(key, evidence)
    if not per_fig:
        return None
    groups: list[list[tuple[Evidence, Any, float]]] = []
    for item in sorted(per_fig, key=lambda p: -p[2]):
        for g in groups:
            if same(key, g[0][1], item[1]):
                g.append(item)
                break
        else:
            groups.append([item])
    all_obs = [o for ev in evidence for o in ev.obs.get(key, [])]
    # most figures first; between as many figures, the value more observations agree with
    groups.sort(key=lambda g: (-len(g), -sum(w for v, w in all_obs if same(key, v, g[0][1]))))
    best = groups[0]
    val = _representative(key, [(v, w) for _, v, w in best])
    agree = sum(w for v, w in all_obs if same(key, v, val))
    total = sum(w for _, w in all_obs)
    confidence = agree / total if total else 0.0
    if key in FIGURE_LEVEL:  # within a figure the other values have roles of their own: figures vote
        confidence = len(best) / len(per_fig)
    if key in NODE_COVERAGE_FIELDS:
        outlined = sum(1 for ev in evidence if ev.obs.get("palette.node_stroke"))
        confidence *= min(1.0, len(per_fig) / outlined) if outlined else 1.0
    entry: dict[str, Any] = {"value": _jsonable(val), "confidence": round(confidence, 3),
                             "count": len(all_obs), "figures": len(per_fig)}
    others = [g for g in _clusters(key, all_obs)[0:] if not same(key, g[0][0], val)]
    if others:
        entry["others"] = [{"value": _jsonable(_representative(key, g)), "count": len(g)} for g in others[:6]]
    if len(groups) > 1:
        mixed.append({"field": key, "majority": _jsonable(val), "majority_files": [ev.file for ev, *_ in best],
                      "others": [{"value": _jsonable(_representative(key, [(v, w) for _, v, w in g])),
                                  "files": [ev.file for ev, *_ in g]} for g in groups[1:]]})
    return entry


def _jsonable(v: Any) -> Any:
    return list(v) if isinstance(v, tuple) else v


def _ratios(evidence: list[Evidence]) -> None:
    """Title, edge-label and group-label sizes → ratios to the same figure's label size."""
    for ev in evidence:
        labels = [v for v, _ in ev.obs.get("sizes.label", [])]
        if not labels:
            continue
        label = statistics.median(labels)
        for src, dst in RATIO_FIELDS.items():
            for v, w in ev.obs.get(src, []):
                ev.obs[dst].append((round(v / label, 3), w))


def _role_fills(evidence: list[Evidence], plain: str | None) -> dict[str, Any] | None:
    """Node fills other than the plain one, most used first (over all figures)."""
    obs = [o for ev in evidence for o in ev.obs.get("palette.fills", [])]
    groups = [g for g in _clusters("palette.node_fill", obs) if plain is None or delta_e(g[0][0], plain) >= SAME_COLOUR]
    if not groups:
        return None
    fills = [_representative("palette.node_fill", g) for g in groups[:MAX_ROLE_FILLS]]
    share = sum(len(g) for g in groups[:MAX_ROLE_FILLS]) / max(1, sum(len(g) for g in groups))
    return {"value": fills, "confidence": round(share, 3), "count": len(obs),
            "figures": sum(1 for ev in evidence if ev.obs.get("palette.fills"))}


def _font(evidence: list[Evidence], mixed: list[dict[str, Any]]) -> dict[str, Any]:
    for ev in evidence:
        for name, w in ev.obs.get("font.family", []):
            cls = font_class(name)
            if cls is not None:
                ev.obs["font.class"].append((cls, w))
    out: dict[str, Any] = {}
    cls = settle("font.class", evidence, mixed)
    if cls is None:
        return out
    out["class"] = cls
    names = Counter(n for ev in evidence for n, _ in ev.obs.get("font.family", []) if font_class(n) == cls["value"])
    # no name of that class (the class came from letter shapes): the installed face of the class
    face = closest_face(names.most_common(1)[0][0] if names else GENERIC[cls["value"]], cls["value"])
    if face:
        out["face"] = {"value": face, "confidence": cls["confidence"], "count": sum(names.values()) or cls["count"],
                       "figures": cls["figures"]}
    return out


SECTIONS: dict[str, tuple[str, ...]] = {
    "palette": ("node_fill", "node_stroke", "edge_color", "edge_label_color", "text_color", "group_fill",
                "group_stroke", "background", "series"),
    "sizes": ("label", "title_ratio", "edge_label_ratio", "group_label_ratio"),
    "strokes": ("node", "edge", "group"),
    "shapes": ("corner_radius", "arrowhead"),
    "group_frame": ("dash",),
    "chart": ("grid", "frame", "domain", "ticks", "tick_direction", "legend_orient", "plot_background", "grid_color",
              "axis_color", "axis_width"),
    "layout": ("direction", "node_sep", "rank_sep"),
}


def learn_style(evidence: list[Evidence], name: str, *, unreadable: list[dict[str, str]] | None = None,
                progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """The style the figures share (a dict valid against the style schema)."""
    _ratios(evidence)
    mixed: list[dict[str, Any]] = []
    style: dict[str, Any] = {"$schema": SCHEMA_ID, "format": "crafter-style", "version": 1, "name": name,
                             "learned_from": [{"file": ev.file, "reader": ev.reader, "components": ev.components}
                                              for ev in evidence]}
    if unreadable:
        style["unreadable"] = list(unreadable)
    for section, keys in SECTIONS.items():
        out = {}
        for key in keys:
            entry = settle(f"{section}.{key}", evidence, mixed)
            if entry is not None:
                out[key] = entry
        if section == "palette":
            roles = _role_fills(evidence, out.get("node_fill", {}).get("value"))
            if roles:
                out["role_fills"] = roles
        if out:
            style[section] = out
    font = _font(evidence, mixed)
    if font:
        style["font"] = font
    if mixed:
        style["mixed"] = mixed
    return validate_style(style)
