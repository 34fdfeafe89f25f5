"""Drawing rules every renderer of a figure follows: SVG, TikZ and draw.io alike.

Where a label breaks, which colour text takes on a fill, how panels are numbered,
where an edge leaves a box and in what order components are drawn are decided here
once, so a figure exported to LaTeX or diagrams.net reads exactly like its SVG, and
merge-back can compare them.
"""

from __future__ import annotations

import math

from crafter.base.geometry import meet_outline, point_at_half_length
from crafter.base.text import text_width, wrap
from crafter.base.theme import Theme
from crafter.spec.colors import contrast_ratio, is_color
from crafter.spec.model import Box, Component, Edge, Figure, Group, Node, parents

WRAP_SLACK = 0.01  # px: absorbs float rounding between the layout's measure and a renderer's

# Drawing layers, back to front, by kind. The SVG writer draws charts, images and paths
# under edges, nodes and texts, so an annotation is never hidden under an imported filled
# shape (CraftEditor residue, foreign SVG) and edges may run over a chart to reach it.
SVG_LAYERS = {"panel": 0, "group": 1, "chart": 2, "image": 2, "path": 2, "edge": 3, "node": 4, "text": 5}
# TikZ and draw.io keep the order the SVG writer had before that change: charts, images and
# paths last, over everything (their output is unchanged by it).
EXPORT_LAYERS = {"panel": 0, "group": 1, "edge": 2, "node": 3, "text": 4, "chart": 5, "image": 5, "path": 5}


def nesting_depth(cid: str, parent_of: dict[str, str], cache: dict[str, int] | None = None) -> int:
    """How many groups or panels hold component ``cid`` (0 at the top level)."""
    chain = []
    while cid in parent_of and (cache is None or cid not in cache):
        chain.append(cid)
        cid = parent_of[cid]
    depth = cache.get(cid, 0) if cache is not None else 0
    for c in reversed(chain):
        depth += 1
        if cache is not None:
            cache[c] = depth
    return depth


def drawing_order(fig: Figure, layers: dict[str, int] = SVG_LAYERS,
                  parent_of: dict[str, str] | None = None) -> list[Component]:
    """The components back to front: by layer, and outer frames before the frames inside them.

    The sort is stable, so components of one layer keep the author's order.
    """
    parent_of = parents(fig) if parent_of is None else parent_of
    cache: dict[str, int] = {}
    return sorted(fig.components, key=lambda c: (
        layers[c.kind], nesting_depth(c.id, parent_of, cache) if c.kind in ("panel", "group") else 0))


def label_pad_x(box_w: float, theme: Theme) -> float:
    """The room a node's label leaves at each side of a box ``box_w`` wide: the theme's padding, or a quarter
    of a narrow box (a circled 'x1' or 'n2' 20 px wide fitted nothing at full padding, and its label broke
    into one character a line)."""
    return min(theme.node_pad_x, box_w / 4)


def wrap_width(n: Node, box_w: float, theme: Theme) -> float:
    """The width a node's label breaks at, for a node ``box_w`` wide."""
    fs = n.font_size or theme.font_size
    max_w = box_w - 2 * label_pad_x(box_w, theme)
    if n.width is None:
        max_w = min(max_w, theme.node_max_text_w)
    return max(max_w, fs) + WRAP_SLACK


def node_label_lines(n: Node, theme: Theme, box_w: float | None = None) -> tuple[list[str], float]:
    """A node's label as drawn (its lines and font size), at its box's width or ``box_w``."""
    if box_w is None:
        assert n.box is not None, f"node '{n.id}' has no box"
        box_w = n.box.w
    fs = n.font_size or theme.font_size
    return wrap(n.text, fs, wrap_width(n, box_w, theme), bold=n.bold, italic=n.italic), fs


def readable_on(fill: str, theme: Theme) -> str:
    """The theme's text colour, or white where that would be hard to read on ``fill`` (WCAG AA)."""
    dark = theme.text_color
    if fill == "none" or not is_color(fill):
        return dark
    try:
        if contrast_ratio(dark, fill) >= 4.5:
            return dark
        return "#FFFFFF" if contrast_ratio("#FFFFFF", fill) > contrast_ratio(dark, fill) else dark
    except (ValueError, KeyError):  # a colour matplotlib does not know
        return dark


def panel_letters(i: int) -> str:
    """0 → a, 25 → z, 26 → aa (automatic panel numbering)."""
    s = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        s = chr(ord("a") + r) + s
    return s


def clip_to_box(b: Box, tx: float, ty: float) -> tuple[float, float]:
    """Where the ray from b's centre toward (tx, ty) leaves b."""
    dx, dy = tx - b.cx, ty - b.cy
    if dx == 0 and dy == 0:
        return b.cx, b.cy
    sx = (b.w / 2) / abs(dx) if dx else math.inf
    sy = (b.h / 2) / abs(dy) if dy else math.inf
    s = min(sx, sy, 1.0)
    return b.cx + dx * s, b.cy + dy * s


def drawn_route(e: Edge, by_id: dict[str, Component]) -> list[tuple[float, float]]:
    """An edge's route as drawn: its ends moved onto round or slanted node outlines; a figure
    laid out by hand without routes gets a straight centre-to-centre line clipped to both boxes."""
    src, tgt = by_id.get(e.source), by_id.get(e.target)
    if e.route:
        pts = [(p.x, p.y) for p in e.route]
    else:
        a, b = getattr(src, "box", None), getattr(tgt, "box", None)
        if a is None or b is None:
            return []
        pts = [clip_to_box(a, b.cx, b.cy), clip_to_box(b, a.cx, a.cy)]
    if len(pts) < 2:
        return pts
    if isinstance(tgt, Node) and tgt.box is not None:
        pts[-1] = meet_outline(tgt.shape, tgt.box, pts[-2], pts[-1])
    if isinstance(src, Node) and src.box is not None:
        pts[0] = meet_outline(src.shape, src.box, pts[1], pts[0])
    return pts


def edge_font(e: Edge, theme: Theme) -> float:
    """An edge label's font size: the edge's own, else the theme's small size."""
    return e.font_size or theme.small_font_size


def label_wrap_width(fs: float, theme: Theme) -> float:
    """The width an edge label at font size ``fs`` breaks at (wider for a label set bigger than the theme's)."""
    return theme.node_max_text_w * max(1.0, fs / theme.small_font_size)


def edge_label_wrap(e: Edge, theme: Theme) -> float:
    """The width a laid-out edge label breaks at."""
    return label_wrap_width(edge_font(e, theme), theme)


def group_font(g: Group, theme: Theme) -> float:
    """A group title's font size: the group's own, else the theme's."""
    return g.font_size or theme.group_font_size


def group_bold(g: Group, theme: Theme) -> bool:
    """Whether a group's title is bold: the group's own weight (as read from an image), else the theme's."""
    return theme.group_label_bold if g.bold is None else g.bold


def group_stroke_width(g: Group, theme: Theme) -> float:
    """A group frame's line width: the group's own, else the theme's."""
    return theme.group_stroke_width if g.stroke_width is None else g.stroke_width


def group_band(g: Group, theme: Theme) -> float:
    """The height of the band a group's title sits in at the top of its frame (grows with the title's size)."""
    return theme.group_label_h * group_font(g, theme) / theme.group_font_size


def edge_label_plate(e: Edge, route: list[tuple[float, float]], theme: Theme) -> tuple[list[str], Box]:
    """An edge label's lines and the plate behind them: the layout's label box, or (for a figure
    without one) a plate centred at the route's half length."""
    fs = edge_font(e, theme)
    lb = e.label_box
    if lb is not None:
        return wrap(e.label or "", fs, max(lb.w, fs) + WRAP_SLACK), lb
    return label_plate_at_half_length(e.label or "", fs, route, theme)


def label_plate_at_half_length(label: str, fs: float, route: list[tuple[float, float]],
                               theme: Theme) -> tuple[list[str], Box]:
    """An edge label's lines at font size ``fs`` and a plate sized to them, centred at the route's half
    length (where a label without a laid-out box is drawn); it breaks at :func:`edge_label_wrap`'s width."""
    lines = wrap(label, fs, label_wrap_width(fs, theme))
    w = max(text_width(line, fs) for line in lines) + 6
    h = len(lines) * fs * theme.line_height + 2
    (mx, my), _ = point_at_half_length(route)
    return lines, Box(x=mx - w / 2, y=my - h / 2, w=w, h=h)
