"""Node shapes as geometry: outlines, where the label sits, and the smallest box that holds a label.

The renderer (``crafter.render.shapes.shape_svg``) draws each shape to fill the node's box
and centres the label in a *label area*; it breaks the label with
:func:`node_label_lines`. This module mirrors that drawing as polygons so layout can

* size a node so its wrapped label stays inside the drawn outline, not only inside the
  box (a diamond or circle needs far more room than a rectangle), and
* end edges on the outline itself (:func:`clip_to_outline`).

``tests/layout/test_shapes.py`` checks the polygons here against the renderer's SVG, so
the two cannot drift apart silently.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from crafter.base import rules
from crafter.base.geometry import (
    TRAPEZOIDS,
    cylinder_rim,
    document_wave,
    hexagon_inset,
    outline_polygon,
    parallelogram_skew,
    stack_offset,
    trapezoid_inset,
)
from crafter.base.text import text_block_size, wrap
from crafter.base.theme import Theme
from crafter.spec.model import Box, Node

Pt = tuple[float, float]

# Shapes whose label area is the box itself (minus padding), so any box wider than the
# label holds it; the others are curved or slanted and need a search for their size.
RECT_SHAPES = ("box", "round", "cylinder", "document", "stack")
# Room kept between a label and a curved or slanted outline (fraction of the rectangle padding).
CURVED_PAD = 0.35


# ---------------------------------------------------------------------------------
# The renderer's drawing, as numbers (proportions come from crafter.render.shapes)
# ---------------------------------------------------------------------------------


def label_area(shape: str, box: Box) -> Box:
    """The rectangle the renderer centres a node's label in."""
    x, y, w, h = box.x, box.y, box.w, box.h
    if shape == "cylinder":
        ry = cylinder_rim(w, h)
        return Box(x=x, y=y + 2 * ry, w=w, h=max(h - 3 * ry, 0.0))
    if shape == "document":
        return Box(x=x, y=y, w=w, h=max(h - document_wave(h), 0.0))
    if shape == "stack":
        off = stack_offset(w, h)
        return Box(x=x, y=y + 2 * off, w=w - 2 * off, h=h - 2 * off)
    return box


def outline(shape: str, box: Box, *, segments: int = 48) -> list[Pt]:
    """The drawn outline as a polygon (curves sampled), clockwise in SVG coordinates."""
    x, y, w, h = box.x, box.y, box.w, box.h
    cx, cy = x + w / 2, y + h / 2
    if shape == "diamond":
        return [(cx, y), (x + w, cy), (cx, y + h), (x, cy)]
    if shape == "parallelogram":
        s = parallelogram_skew(w, h)
        return [(x + s, y), (x + w, y), (x + w - s, y + h), (x, y + h)]
    if shape == "hexagon":
        s = hexagon_inset(w, h)
        return [(x + s, y), (x + w - s, y), (x + w, cy), (x + w - s, y + h), (x + s, y + h), (x, cy)]
    if shape in TRAPEZOIDS:
        return outline_polygon(shape, box) or []
    if shape in ("ellipse", "circle"):
        rx, ry = (w / 2, h / 2) if shape == "ellipse" else (min(w, h) / 2, min(w, h) / 2)
        return [(cx + rx * math.cos(2 * math.pi * k / segments), cy + ry * math.sin(2 * math.pi * k / segments))
                for k in range(segments)]
    if shape == "cylinder":
        ry, rx = cylinder_rim(w, h), w / 2
        n = segments // 4
        top = [(cx - rx * math.cos(math.pi * k / n), y + ry - ry * math.sin(math.pi * k / n)) for k in range(n + 1)]
        bottom = [(cx + rx * math.cos(math.pi * k / n), y + h - ry + ry * math.sin(math.pi * k / n))
                  for k in range(n + 1)]
        return top + bottom
    if shape == "document":
        amp = document_wave(h)
        base = y + h - amp
        wave = _cubic((x + w, base), (x + w * 0.75, base - 2 * amp), (x + w * 0.6, base - 1.2 * amp), (cx, base), 8)
        wave += _cubic((cx, base), (x + w * 0.35, base + 1.6 * amp), (x + w * 0.2, base + 1.6 * amp), (x, base), 8)[1:]
        return [(x, y), (x + w, y)] + wave
    if shape == "stack":
        o = stack_offset(w, h)
        return [(x + 2 * o, y), (x + w, y), (x + w, y + h - 2 * o), (x + w - o, y + h - 2 * o),
                (x + w - o, y + h - o), (x + w - 2 * o, y + h - o), (x + w - 2 * o, y + h), (x, y + h),
                (x, y + 2 * o), (x + o, y + 2 * o), (x + o, y + o), (x + 2 * o, y + o)]
    return [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]


def _cubic(p0: Pt, p1: Pt, p2: Pt, p3: Pt, n: int) -> list[Pt]:
    out = []
    for k in range(n + 1):
        t = k / n
        a, b, c, d = (1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t * t, t ** 3
        out.append((a * p0[0] + b * p1[0] + c * p2[0] + d * p3[0], a * p0[1] + b * p1[1] + c * p2[1] + d * p3[1]))
    return out


# ---------------------------------------------------------------------------------
# Labels
# ---------------------------------------------------------------------------------


def node_font(node: Node, theme: Theme) -> tuple[float, bool, bool]:
    return (node.font_size or theme.font_size, node.bold, node.italic)


def node_label_lines(node: Node, box_w: float, theme: Theme) -> list[str]:
    """The lines the renderer draws for a node ``box_w`` wide."""
    return rules.node_label_lines(node, theme, box_w)[0]


def label_fits(node: Node, box: Box, theme: Theme, *, tolerance: float = 0.05) -> bool:
    """Whether the renderer's label block lies inside the box's label area and the drawn outline."""
    fs, bold, italic = node_font(node, theme)
    lines = node_label_lines(node, box.w, theme)
    tw, th = text_block_size(lines, fs, theme.line_height, bold=bold, italic=italic)
    area = label_area(node.shape, box)
    if tw > area.w + tolerance or th > area.h + tolerance:
        return False
    rect = (area.cx - tw / 2, area.cy - th / 2, area.cx + tw / 2, area.cy + th / 2)
    if node.shape in RECT_SHAPES:
        return True
    poly = outline(node.shape, box, segments=96)
    return all(point_in_polygon(px, py, poly, tolerance) for px, py in
               ((rect[0], rect[1]), (rect[2], rect[1]), (rect[2], rect[3]), (rect[0], rect[3])))


# ---------------------------------------------------------------------------------
# Sizing
# ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Wrapping:
    """One way the label breaks: valid while the wrap width lies in [lo, hi)."""

    tw: float
    th: float
    lo: float
    hi: float


def _wrappings(text: str, fs: float, line_height: float, bold: bool, italic: bool, cap: float,
               limit: int = 10) -> list[_Wrapping]:
    """The distinct line breaks of ``text`` for wrap widths up to ``cap``, widest first."""
    out: list[_Wrapping] = []
    c, hi = cap, math.inf
    words = " ".join(text.split())
    for _ in range(limit):
        lines = wrap(text, fs, c, bold=bold, italic=italic)
        if out and " ".join(" ".join(lines).split()) != words:
            break  # narrower would cut a word in two: only the widest wrapping may do that
        tw, th = text_block_size(lines, fs, line_height, bold=bold, italic=italic)
        out.append(_Wrapping(tw, th, tw, hi))
        # narrower than the widest line forces another break; stop at one glyph per line
        if tw <= fs * 1.5 or len(lines) >= 8:
            break
        hi, c = tw, tw - 0.05
    return out


def node_size(node: Node, theme: Theme) -> tuple[float, float]:
    """The smallest (w, h) that holds the node's label inside its drawn outline.

    ``node.width``/``node.height`` are minimum sizes; the theme's ``node_min_w/h`` too.
    """
    metrics = _Metrics(theme.node_pad_x, theme.node_pad_y, theme.line_height, theme.node_min_w, theme.node_min_h,
                       theme.node_max_text_w)
    return _node_size(node.text, node.shape, node.font_size or theme.font_size, node.bold, node.italic,
                      node.width, node.height, metrics)


@dataclass(frozen=True)
class _Metrics:
    """The theme numbers node sizes depend on (hashable, so sizes can be cached)."""

    node_pad_x: float
    node_pad_y: float
    line_height: float
    node_min_w: float
    node_min_h: float
    node_max_text_w: float


@lru_cache(maxsize=8192)
def _node_size(text: str, shape: str, fs: float, bold: bool, italic: bool, width: float | None,
               height: float | None, theme: _Metrics) -> tuple[float, float]:
    px, py = theme.node_pad_x, theme.node_pad_y
    lh = theme.line_height
    w_lo = max(theme.node_min_w, width or 0.0)
    h_lo = max(theme.node_min_h, height or 0.0)
    if shape == "circle":
        w_lo = h_lo = max(theme.node_min_h * 1.3, width or 0.0, height or 0.0)
    elif shape == "diamond":
        w_lo, h_lo = max(w_lo, theme.node_min_w * 1.2), max(h_lo, theme.node_min_h * 1.3)

    if shape in RECT_SHAPES:
        c = theme.node_max_text_w if width is None else max(width - 2 * px, fs)
        lines = wrap(text, fs, c, bold=bold, italic=italic)
        tw, th = text_block_size(lines, fs, lh, bold=bold, italic=italic)
        w = max(w_lo, tw + 2 * px)
        if shape == "stack":
            w = max(w, tw + 2 * px + 2 * stack_offset(w, 1e9))
        h = max(h_lo, _rect_height(shape, w, th, py))
        return _ceil2(w), _ceil2(h)

    cap = theme.node_max_text_w if width is None else math.inf
    cpx, cpy = px * CURVED_PAD, py * CURVED_PAD
    best: tuple[float, float, float] | None = None
    wrappings = _wrappings(text, fs, lh, bold, italic, cap)
    if shape in ("parallelogram", "hexagon", *TRAPEZOIDS):  # read like boxes: keep the box's line breaks
        wrappings = wrappings[:1]
    for wr in wrappings:
        # the renderer wraps at min(w - 2px, cap): this wrapping holds for w in [lo + 2px, hi + 2px)
        lo = max(w_lo, wr.lo + 2 * px)
        hi = wr.hi + 2 * px - 0.1 if math.isfinite(wr.hi) else max(lo * 3, (wr.tw + 2 * cpx) * 3)
        if lo > hi:
            continue
        for w in _samples(lo, hi):
            h = _curved_height(shape, w, wr.tw + 2 * cpx, wr.th + 2 * cpy, py)
            if h is None:
                continue
            if shape == "circle":
                w = h = max(w, h, h_lo)
                if w > hi:  # a bigger circle wraps its label differently
                    continue
            h = max(h, h_lo)
            cost = _shape_cost(shape, w, h)
            if best is None or cost < best[0] - 1e-9:
                best = (cost, w, h)
    if best is None:  # cannot happen for sane themes; fall back to a generous box
        w, h = text_block_size(wrap(text, fs, theme.node_max_text_w, bold=bold, italic=italic), fs, lh)
        return _ceil2(max(w_lo, 2 * w + 2 * px)), _ceil2(max(h_lo, 2 * h + 2 * py))
    return _ceil2(best[1]), _ceil2(best[2])


def _rect_height(shape: str, w: float, th: float, py: float) -> float:
    need = th + 2 * py
    if shape == "cylinder":
        h = need
        for _ in range(60):  # h = need + 3 * rim(h): a contraction, converges from below
            h = need + 3 * cylinder_rim(w, h)
        return h + 0.01
    if shape == "document":
        h = need
        for _ in range(60):
            h = need + document_wave(h)
        return h + 0.01
    if shape == "stack":
        h = need
        for _ in range(60):
            h = need + 2 * stack_offset(w, h)
        return h + 0.01
    return need


def _curved_height(shape: str, w: float, tw: float, th: float, py: float) -> float | None:
    """Height a shape ``w`` wide needs to hold a tw x th rectangle inside its outline."""
    if shape == "diamond":  # |dx|/(w/2) + |dy|/(h/2) <= 1 at the rectangle's corner
        return th / (1 - tw / w) if tw < w * 0.97 else None
    if shape == "ellipse":
        return th / math.sqrt(1 - (tw / w) ** 2) if tw < w * 0.97 else None
    if shape == "circle":
        return math.hypot(tw, th)
    h = th + 2 * py - 2 * py * CURVED_PAD  # th already holds the curved padding
    if shape == "parallelogram":  # the corner at the slanted side: w >= tw + s * (1 + th / h)
        return h if w >= tw + parallelogram_skew(w, h) * (1 + th / h) else None
    if shape == "hexagon":
        if w < tw + 2 * hexagon_inset(w, h) * th / h:
            return None
        return h
    if shape in ("trapezoid", "trapezoid_down"):  # the text's corners on the narrow side's half
        return h if w >= tw + trapezoid_inset(shape, w, h) * (h + th) / h else None
    if shape in ("trapezoid_left", "trapezoid_right"):  # taller, as the slanted top and bottom close in
        need = h
        for _ in range(60):
            h = need + trapezoid_inset(shape, w, h) * (w + tw) / w
        return h + 0.01
    return h


def _samples(lo: float, hi: float, n: int = 24) -> list[float]:
    if hi - lo < 1e-6:
        return [lo]
    return [lo + (hi - lo) * (k / n) ** 2 for k in range(n + 1)]


def _shape_cost(shape: str, w: float, h: float) -> float:
    """Area, with a penalty for shapes flatter than they read well."""
    ratio = {"diamond": 1.9, "ellipse": 2.2}.get(shape, 3.5)
    flat = max(0.0, w / h - ratio)
    return w * h * (1 + 0.6 * flat * flat) + w * 0.01  # ties: the narrower one


def _ceil2(v: float) -> float:
    return math.ceil(v * 100 - 1e-6) / 100


# ---------------------------------------------------------------------------------
# Polygons
# ---------------------------------------------------------------------------------


def point_in_polygon(px: float, py: float, poly: list[Pt], tolerance: float = 0.0) -> bool:
    """Inside (or within ``tolerance`` of the boundary of) a simple polygon."""
    inside = False
    n = len(poly)
    for i in range(n):
        (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % n]
        if (y1 > py) != (y2 > py):
            xc = x1 + (py - y1) * (x2 - x1) / (y2 - y1)
            if xc > px:
                inside = not inside
    if inside or tolerance <= 0:
        return inside
    return distance_to_polygon(px, py, poly) <= tolerance


def distance_to_polygon(px: float, py: float, poly: list[Pt]) -> float:
    best = math.inf
    n = len(poly)
    for i in range(n):
        (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % n]
        dx, dy = x2 - x1, y2 - y1
        L = dx * dx + dy * dy
        t = 0.0 if L == 0 else max(0.0, min(1.0, ((px - x1) * dx + (py - y1) * dy) / L))
        best = min(best, math.hypot(px - x1 - t * dx, py - y1 - t * dy))
    return best


def clip_to_outline(shape: str, box: Box, inner: Pt, outer: Pt) -> Pt:
    """Where the line from ``outer`` towards ``inner`` first meets the shape's outline.

    ``outer`` is the route's neighbouring point (outside the shape), ``inner`` the
    endpoint the route had (on or inside the box). The line is extended past ``inner``
    so a route that stops at the box's side reaches a diamond's or circle's edge.
    """
    if shape in ("box", "round"):
        poly = outline("box", box)
    else:
        poly = outline(shape, box, segments=96)
    ox, oy = outer
    dx, dy = inner[0] - ox, inner[1] - oy
    length = math.hypot(dx, dy)
    if length < 1e-9:
        return inner
    dx, dy = dx / length, dy / length
    best = math.inf
    n = len(poly)
    for i in range(n):
        (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % n]
        ex, ey = x2 - x1, y2 - y1
        den = dx * ey - dy * ex
        if abs(den) < 1e-12:
            continue
        t = ((x1 - ox) * ey - (y1 - oy) * ex) / den  # along the ray
        u = ((x1 - ox) * dy - (y1 - oy) * dx) / den  # along the polygon edge
        if t >= -1e-9 and -1e-9 <= u <= 1 + 1e-9 and t < best:
            best = t
    if not math.isfinite(best):
        return inner
    return (ox + dx * best, oy + dy * best)
