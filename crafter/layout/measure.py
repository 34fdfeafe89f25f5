"""Sizes of everything layout places that is not a node shape: edge labels, annotations,
group and panel headings, charts and images.

Every size is measured with the shipped font (``crafter.base.text``) and the same
wrapping the renderer applies, so what is drawn fits what was reserved.
"""

from __future__ import annotations

import importlib
import math
import re

from crafter.base.rules import edge_font, edge_label_wrap, group_band, group_bold, group_font
from crafter.base.text import text_block_size, text_width, wrap
from crafter.base.theme import Theme
from crafter.spec.model import Chart, Edge, Group, Image, Panel, Text

EDGE_LABEL_PAD_X = 3.0  # the renderer draws a background plate this much wider than the text
EDGE_LABEL_PAD_Y = 1.0
ANNOTATION_GAP = 4.0  # between an annotation and what it annotates
DEFAULT_CHART_SIZE = (320.0, 220.0)  # paper theme; other themes scale with the font
DEFAULT_IMAGE_SIZE = (120.0, 90.0)


def ceil2(v: float) -> float:
    """Round up to 2 decimals: sizes never shrink below what was measured."""
    return math.ceil(v * 100 - 1e-6) / 100


def edge_label_size(edge: Edge, theme: Theme) -> tuple[float, float]:
    """(w, h) of an edge's label box: its wrapped text plus the background plate's padding."""
    fs = edge_font(edge, theme)
    lines = wrap(edge.label or "", fs, edge_label_wrap(edge, theme))
    w, h = text_block_size(lines, fs, theme.line_height)
    return ceil2(w + 2 * EDGE_LABEL_PAD_X), ceil2(h + 2 * EDGE_LABEL_PAD_Y)


def annotation_font(text: Text, theme: Theme) -> float:
    return text.font_size or theme.small_font_size


def annotation_size(text: Text, theme: Theme) -> tuple[float, float]:
    """(w, h) of a free text's box (rotation included: a -90° title is tall and thin)."""
    fs = annotation_font(text, theme)
    if text.rotate % 90 == 0:
        lines = wrap(text.text, fs, 2 * theme.node_max_text_w, bold=text.bold, italic=text.italic)
    else:  # the renderer keeps explicit lines only for odd angles
        lines = text.text.split("\n")
    w, h = text_block_size(lines, fs, theme.line_height, bold=text.bold, italic=text.italic)
    w, h = w + 0.02, h  # the renderer re-wraps at the box's width: keep a hair of slack
    a = math.radians(text.rotate)
    if text.rotate % 180 == 90:
        w, h = h, w
    elif text.rotate % 90 != 0:
        c, s = abs(math.cos(a)), abs(math.sin(a))
        w, h = w * c + h * s, w * s + h * c
    return ceil2(w), ceil2(h)


def group_label_width(group: Group, theme: Theme) -> float:
    """Room a group's heading needs across: inset, the single-line label, and padding."""
    if not group.label:
        return 0.0
    inset = getattr(theme, "group_label_inset", theme.group_pad)
    label = " ".join(group.label.split("\n"))
    return ceil2(inset + text_width(label, group_font(group, theme), bold=group_bold(group, theme)) + theme.group_pad)


def group_padding(group: Group, theme: Theme) -> tuple[float, float, float, float]:
    """(top, right, bottom, left) room between a group's frame and its members."""
    p = theme.group_pad
    top = group_band(group, theme) + p * 0.5 if group.label else p
    return (top, p, p, p)


def panel_label_text(panel: Panel, index: int) -> str:
    """The heading's label: the panel's own, or (a), (b)... by its order among the panels."""
    if panel.label is not None:
        return panel.label
    s, i = "", index + 1
    while i:
        i, r = divmod(i - 1, 26)
        s = chr(ord("a") + r) + s
    return f"({s})"


def panel_heading_width(panel: Panel, index: int, theme: Theme) -> float:
    fs = getattr(theme, "panel_font_size", theme.font_size)
    label = panel_label_text(panel, index)
    w = 2.0
    if label:
        w += text_width(label + " ", fs, bold=True)
    if panel.title:
        w += text_width(" ".join(panel.title.split("\n")), fs)
    return ceil2(w + 4)


def panel_padding(panel: Panel, theme: Theme) -> tuple[float, float, float, float]:
    """(top, right, bottom, left): panels have no visible frame, so only the heading takes room."""
    p = theme.group_pad * 0.5
    return (theme.group_label_h + p, p, p, p)


def chart_size(chart: Chart, theme: Theme) -> tuple[float, float]:
    """The chart's box: ``crafter.charts.chart_size`` when the charts package has it."""
    charts_chart_size = None
    for module in ("crafter.charts", "crafter.charts.render"):
        try:
            charts_chart_size = getattr(importlib.import_module(module), "chart_size", None)
        except ImportError:
            continue
        if charts_chart_size is not None:
            break
    if charts_chart_size is not None:
        try:
            w, h = charts_chart_size(chart, theme)
            if w > 0 and h > 0 and math.isfinite(w) and math.isfinite(h):
                return ceil2(w), ceil2(h)
        except Exception:  # a chart the charts package cannot size still gets a box
            pass
    scale = theme.font_size / 12.0
    w = chart.width or DEFAULT_CHART_SIZE[0] * scale
    h = chart.height or DEFAULT_CHART_SIZE[1] * scale
    return ceil2(w), ceil2(h)


def image_size(image: Image) -> tuple[float, float]:
    if image.box is not None:
        return image.box.w, image.box.h
    return DEFAULT_IMAGE_SIZE


_PATH_TOKEN = None
_PATH_ARITY = {"M": 2, "L": 2, "T": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "A": 7, "Z": 0}


def path_bounds(d: str) -> tuple[float, float, float, float] | None:
    """Bounding box (x, y, w, h) of SVG path data, from its end and control points."""
    global _PATH_TOKEN
    if _PATH_TOKEN is None:
        _PATH_TOKEN = re.compile(r"[MmLlHhVvCcSsQqTtAaZz]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
    tokens = _PATH_TOKEN.findall(d)
    xs: list[float] = []
    ys: list[float] = []
    cx = cy = sx = sy = 0.0
    cmd = None
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.isalpha():
            cmd = tok
            i += 1
            if cmd in "Zz":
                cx, cy = sx, sy
            continue
        if cmd is None:
            return None
        n = _PATH_ARITY[cmd.upper()]
        if n == 0 or i + n > len(tokens) or any(t.isalpha() for t in tokens[i:i + n]):
            return None
        args = [float(t) for t in tokens[i:i + n]]
        i += n
        rel = cmd.islower()
        up = cmd.upper()
        if up == "H":
            cx = cx + args[0] if rel else args[0]
        elif up == "V":
            cy = cy + args[0] if rel else args[0]
        elif up == "A":
            cx, cy = (cx + args[5], cy + args[6]) if rel else (args[5], args[6])
        else:
            pts = list(zip(args[0::2], args[1::2]))
            if rel:
                pts = [(cx + px, cy + py) for px, py in pts]
            for px, py in pts[:-1]:  # control points bound the curve
                xs.append(px)
                ys.append(py)
            cx, cy = pts[-1]
        xs.append(cx)
        ys.append(cy)
        if up == "M":
            sx, sy = cx, cy
            cmd = "l" if rel else "L"  # extra pairs after a moveto are lines
    if not xs:
        return None
    x0, y0 = min(xs), min(ys)
    return (x0, y0, max(xs) - x0, max(ys) - y0)
