"""A style shown to a person: its colours as labelled swatches and a small figure drawn in it."""

from __future__ import annotations

from typing import Any

from crafter.spec.model import Figure
from crafter.style.model import apply_style, value

SAMPLE = {
    "title": "Sample in this style",
    "components": [
        {"id": "data", "kind": "node", "label": "Data", "shape": "cylinder"},
        {"id": "model", "kind": "node", "label": "Model", "shape": "round"},
        {"id": "out", "kind": "node", "label": "Output"},
        {"id": "e1", "kind": "edge", "source": "data", "target": "model", "label": "train"},
        {"id": "e2", "kind": "edge", "source": "model", "target": "out"},
        {"id": "g", "kind": "group", "label": "Pipeline", "members": ["data", "model"]},
    ],
}


def swatch_figure(style: dict[str, Any]) -> Figure | None:
    """One labelled swatch per learned colour (a node filled with it), row by row; None without colours."""
    names = [("node_fill", "node fill"), ("node_stroke", "node stroke"), ("edge_color", "edges"),
             ("text_color", "text"), ("group_fill", "group fill"), ("group_stroke", "group frame"),
             ("background", "page")]
    chips = [(label, value(style, f"palette.{key}")) for key, label in names]
    chips += [(f"role {i + 1}", c) for i, c in enumerate(value(style, "palette.role_fills") or [])]
    chips += [(f"series {i + 1}", c) for i, c in enumerate(value(style, "palette.series") or [])]
    chips = [(label, c) for label, c in chips if c]
    if not chips:
        return None
    comps = []
    for i, (label, colour) in enumerate(chips):
        x, y = 10 + (i % 6) * 118, 10 + (i // 6) * 58
        comps.append({"id": f"s{i}", "kind": "node", "label": f"{label}\n{colour}", "fill": colour,
                      "text_color": "#FFFFFF" if _dark(colour) else "#1A1A1A", "stroke": "#9AA3AF",
                      "box": {"x": x, "y": y, "w": 108, "h": 46}, "pinned": True, "font_size": 10})
    return Figure.from_dict({"components": comps})


def sample_figure(style: dict[str, Any]) -> Figure:
    """A small diagram (nodes, labelled edges, a group, a title) drawn in the style."""
    return apply_style(Figure.from_dict(SAMPLE), style, direction=True)


def _dark(colour: str) -> bool:
    h = colour.lstrip("#")
    r, g, b = (int(h[i:i + 2], 16) for i in (0, 2, 4))
    return 0.299 * r + 0.587 * g + 0.114 * b < 128
