"""A crude grid layout used by the app tests only while crafter.layout is not installed.

It gives every component the geometry the renderer needs, nothing more; the tests assert
what the app does with a figure, not where the boxes go.
"""

from __future__ import annotations

import sys
import types

from crafter.spec import Figure


def layout_figure(fig: Figure) -> Figure:
    data = fig.to_dict()
    comps = data["components"]
    by_id = {c["id"]: c for c in comps}
    x = y = 20.0
    for i, c in enumerate(c for c in comps if c["kind"] in ("node", "chart", "image")):
        if not c.get("pinned") or "box" not in c:
            c["box"] = {"x": 20 + (i % 4) * 170, "y": 40 + (i // 4) * 90, "w": 140, "h": 50}
    for c in reversed(comps):  # containers after their members (members come first in the DSL)
        if c["kind"] in ("group", "panel"):
            boxes = [by_id[m]["box"] for m in c["members"] if "box" in by_id.get(m, {})]
            if boxes:
                x0 = min(b["x"] for b in boxes) - 8
                y0 = min(b["y"] for b in boxes) - 24
                x1 = max(b["x"] + b["w"] for b in boxes) + 8
                y1 = max(b["y"] + b["h"] for b in boxes) + 8
            else:
                x0, y0, x1, y1 = 0, 0, 40, 40
            c["box"] = {"x": x0, "y": y0, "w": x1 - x0, "h": y1 - y0}
    for c in comps:
        if c["kind"] == "text" and "at" not in c:
            c["box"] = {"x": 10, "y": 5, "w": 100, "h": 16}
        if c["kind"] == "edge":
            a, b = by_id[c["source"]]["box"], by_id[c["target"]]["box"]
            p = {"x": a["x"] + a["w"] / 2, "y": a["y"] + a["h"] / 2}
            q = {"x": b["x"] + b["w"] / 2, "y": b["y"] + b["h"] / 2}
            c["route"] = [p, q]
            if c.get("label"):
                c["label_box"] = {"x": (p["x"] + q["x"]) / 2, "y": (p["y"] + q["y"]) / 2, "w": 60, "h": 14}
    w = max((c["box"]["x"] + c["box"]["w"] for c in comps if "box" in c), default=100) + 20
    h = max((c["box"]["y"] + c["box"]["h"] for c in comps if "box" in c), default=100) + 20
    data["canvas"] = {"w": w, "h": h}
    return Figure.from_dict(data)


def install_if_missing() -> bool:
    """Put this layout in place of crafter.layout when that has no layout_figure; True if it did."""
    try:
        from crafter.layout import layout_figure as _real  # noqa: F401

        return False
    except ImportError:
        mod = types.ModuleType("crafter.layout")
        mod.layout_figure = layout_figure  # type: ignore[attr-defined]
        sys.modules["crafter.layout"] = mod
        return True
