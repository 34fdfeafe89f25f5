"""The SVG writer: a laid-out :class:`Figure` becomes one editable SVG document.

What a user of Inkscape or Illustrator gets:

* every component is one ``<g id="{component id}" data-crafter-kind="{kind}">`` at the top
  level, never nested inside its group's or panel's ``<g>`` (frames are drawn first so they
  sit behind their members): one named object per component;
* labels are ``<text>``/``<tspan>`` in the theme's font, broken into lines with the same
  :func:`crafter.base.text.wrap` the layout measured them with;
* arrowheads are ``<marker>``s defined once in ``<defs>``;
* the whole FigureSpec is embedded in ``<metadata>`` (see :mod:`crafter.formats.svg`), so
  opening the SVG again restores the figure exactly.

Geometry comes from the figure (the layout's boxes and routes); the writer only adjusts
what it draws: edge ends move onto round or slanted outlines, lines stop under their
arrowheads, the title goes in the band the layout left above the components (or the
drawing grows to make one), and edge-label plates take the fill of the group behind them and
are drawn only where they hide something (a line, a frame's border, a chart…) drawn before them.

Drawing order (back to front): panels, groups (outer first), charts, images and paths,
edges, nodes, then texts last, so an annotation is never hidden under an imported filled
shape (CraftEditor residue, foreign SVG) and edges may run over a chart to reach it
(:func:`crafter.base.rules.drawing_order`). The writer is a single pass over the
components with string building, so a 5,000-node figure renders in well under a second.

Ids the renderer adds itself (background, title, markers) contain ``--``, which component
ids may not, so they never collide with a component.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Callable

from crafter.base.markup import (
    CRAFTER_NS,
    SVG_NS,
    XLINK_NS,
    base_direction,
    esc_attr,
    esc_json_for_xml,
    esc_text,
    needs_preserve,
    num,
    visual_order,
)
from crafter.base.rules import (
    SVG_LAYERS,
    WRAP_SLACK,
    drawing_order,
    drawn_route,
    edge_font,
    edge_label_plate,
    group_band,
    group_bold,
    group_font,
    group_stroke_width,
    nesting_depth,
    node_label_lines,
    panel_letters,
    readable_on,
)
from crafter.base.text import ASCENT, DESCENT, FONT_CLASS_FAMILIES, text_width, wrap
from crafter.base.theme import TITLE_MAX_W, Theme, figure_theme
from crafter.charts.render.painter import chart_svg_fragment
from crafter.errors import RenderError
from crafter.layout import layout_figure
from crafter.render.markers import MarkerSpec, can_trim, marker_def, trim
from crafter.render.routes import polyline_d, spline_d
from crafter.render.shapes import Paint, dash_array, shape_svg
from crafter.spec.markup import SCRIPT_SCALE, has_markup, segments
from crafter.spec.model import Box, Chart, Component, Edge, Figure, Group, Image, Node, Panel, Path, Text, parents

# Where the baseline of a centred line sits below the line's centre, in ems: the midpoint
# between DejaVu's ascent and descent (ASCENT - DESCENT) / 2 balances mixed-case labels;
# nudged down a little because most labels are lower case with few descenders.
BASELINE_SHIFT = (ASCENT - DESCENT) / 2 + 0.09
EMPTY_FIGURE = ("the figure has no components; add at least one, e.g. a line `a node \"Input\"` "
                "in the DSL, and render again")


def metadata_element(fig: Figure) -> str:
    """The ``<metadata>`` element embedding ``fig``."""
    data = json.dumps(fig.to_dict(), ensure_ascii=False, separators=(",", ":"))
    return (f'<metadata id="crafter--metadata"><crafter:figure xmlns:crafter="{CRAFTER_NS}" '
            f'format="json" version="{fig.version}">{esc_json_for_xml(data)}</crafter:figure></metadata>')


# ---------------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------------


def figure_to_svg(fig: Figure, *, relayout: bool = False) -> str:
    """The figure as an SVG document (laid out first if any component lacks its geometry)."""
    return draw_svg(ensure_layout(fig, relayout=relayout))


def ensure_layout(fig: Figure, *, relayout: bool = False) -> Figure:
    """``fig`` itself when every component already has its geometry, else the laid-out figure.

    Raises :class:`RenderError` for a figure with no components.
    """
    if not fig.components:
        raise RenderError(EMPTY_FIGURE)
    missing = missing_geometry(fig)
    if not relayout and missing is None:
        return fig
    return layout_figure(fig)


def missing_geometry(fig: Figure) -> str | None:
    """The id of the first component the renderer cannot place without a layout, or None."""
    for c in fig.components:
        if isinstance(c, Edge):
            if not c.route or (c.label and c.label_box is None):
                return c.id
        elif isinstance(c, Text):
            if c.box is None and c.at is None:
                return c.id
        elif isinstance(c, Path):
            continue  # path data is absolute
        elif c.box is None:
            return c.id
    return None


def draw_svg(fig: Figure, *, text_order: str = "logical", embed_spec: bool = True) -> str:
    """Write the SVG of a figure whose components all carry their geometry.

    ``text_order="visual"`` pre-orders right-to-left lines for renderers without a bidi
    algorithm (cairosvg); SVG files for people keep logical order. ``embed_spec=False``
    leaves out the ``<metadata>`` copy of the figure (raster export does not need it).
    """
    if not fig.components:
        raise RenderError(EMPTY_FIGURE)
    return _SvgWriter(fig, text_order=text_order).document(embed_spec=embed_spec)


# ---------------------------------------------------------------------------------
# The writer
# ---------------------------------------------------------------------------------


class _SvgWriter:
    def __init__(self, fig: Figure, *, text_order: str) -> None:
        self.fig = fig
        self.theme: Theme = figure_theme(fig)
        self.visual = text_order == "visual"
        self.markers: dict[str, str] = {}  # id -> <marker> element, in first-use order
        self.font_attr = f'font-family="{esc_attr(self.theme.font_family)}"'
        self.by_id = fig.by_id()
        self._frames: list[tuple[Box, str]] | None = None
        self._underlay: _Underlay | None = None
        self.content_top = 0.0  # topmost y of any component (set by bounds())

    # -- document -----------------------------------------------------------------
    def document(self, *, embed_spec: bool) -> str:
        fig, t = self.fig, self.theme
        body = [self.component(c) for c in drawing_order(fig, SVG_LAYERS)]
        x0, y0, x1, y1 = self.bounds()
        title_svg = ""
        if fig.title:
            x0, y0, x1, title_svg = self.title(x0, y0, x1)
        w, h = x1 - x0, y1 - y0
        head = (
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<svg xmlns="{SVG_NS}" xmlns:xlink="{XLINK_NS}" version="1.1" '
            f'width="{num(w)}" height="{num(h)}" viewBox="{num(x0)} {num(y0)} {num(w)} {num(h)}" '
            f'data-crafter-theme="{esc_attr(t.name)}">\n'
        )
        parts = [head]
        if fig.title:
            parts.append(f"<title>{esc_text(fig.title)}</title>\n")
        if fig.caption:
            parts.append(f"<desc>{esc_text(fig.caption)}</desc>\n")
        if embed_spec:
            parts.append(metadata_element(fig) + "\n")
        if self.markers:
            parts.append("<defs>\n" + "\n".join(self.markers.values()) + "\n</defs>\n")
        # the background runs past the viewBox: a PNG's pixel grid is the size rounded, so its
        # aspect is a fraction of a pixel off the viewBox's, and 'xMidYMid meet' centres the
        # drawing with a sliver to spare on one side, which a background cut at the viewBox left
        # transparent (rag_pipeline at 150 dpi: two columns each side, black once flattened).
        # Past the viewBox nothing is shown where the aspect is the viewBox's own
        m = max(2.0, 0.01 * max(w, h))
        parts.append(f'<rect id="crafter--background" x="{num(x0 - m)}" y="{num(y0 - m)}" width="{num(w + 2 * m)}" '
                     f'height="{num(h + 2 * m)}" fill="{esc_attr(t.background)}"/>\n')
        if title_svg:
            parts.append(title_svg + "\n")
        parts.append("\n".join(body))
        parts.append("\n</svg>\n")
        return "".join(parts)

    def title(self, x0: float, y0: float, x1: float) -> tuple[float, float, float, str]:
        """The figure title at the top: (new x0, y0, x1, SVG).

        The layout reserves a band for the title above the components; a hand-placed figure
        may not, and then the drawing grows upwards. A title wider than a narrow figure
        widens the drawing (up to TITLE_MAX_W) rather than breaking into lines.
        """
        t, m = self.theme, self.theme.margin
        fs = t.title_font_size
        title = self.fig.title or ""
        avail = max(x1 - x0 - 2 * m, min(text_width(title, fs, bold=True), TITLE_MAX_W), fs * 4)
        lines = wrap(title, fs, avail + WRAP_SLACK, bold=True)
        block_w = max(text_width(line, fs, bold=True) for line in lines)
        if block_w + 2 * m > x1 - x0:
            grow = (block_w + 2 * m - (x1 - x0)) / 2
            x0, x1 = x0 - grow, x1 + grow
        block_h = len(lines) * fs * t.line_height
        bottom = self.content_top - 0.3 * fs  # the title's lowest point, just above the components
        top_gap = m * 0.5  # the title sits high in its band: room below it separates it from the figure
        if y0 + top_gap + block_h > bottom:
            y0 = bottom - block_h - top_gap
        svg = self.text_lines(lines, (x0 + x1) / 2, y0 + top_gap + block_h / 2, fs, t.text_color, bold=True,
                              extra=' id="crafter--title"')
        return x0, y0, x1, svg

    def bounds(self) -> tuple[float, float, float, float]:
        """The drawing's extent: the canvas, grown to cover anything placed outside it."""
        fig, m = self.fig, self.theme.margin
        xs0, ys0, xs1, ys1 = [], [], [], []
        for c in fig.components:
            boxes = [c.box] if c.box is not None else []
            if isinstance(c, Edge):
                if c.label_box is not None:
                    boxes.append(c.label_box)
                if c.route:
                    px = [p.x for p in c.route]
                    py = [p.y for p in c.route]
                    boxes.append(Box(x=min(px), y=min(py), w=max(px) - min(px), h=max(py) - min(py)))
            for b in boxes:
                xs0.append(b.x)
                ys0.append(b.y)
                xs1.append(b.right)
                ys1.append(b.bottom)
        self.content_top = min(ys0) if ys0 else 0.0
        if fig.canvas is not None:
            x0, y0, x1, y1 = 0.0, 0.0, fig.canvas.w, fig.canvas.h
            if xs0:
                x0, y0 = min(x0, min(xs0) - m), min(y0, min(ys0) - m)
                x1, y1 = max(x1, max(xs1) + m), max(y1, max(ys1) + m)
            return x0, y0, x1, y1
        if not xs0:
            return 0.0, 0.0, 100.0, 100.0
        return min(0.0, min(xs0) - m), min(0.0, min(ys0) - m), max(xs1) + m, max(ys1) + m

    # -- components ---------------------------------------------------------------
    def component(self, c: Component) -> str:
        draw: Callable[[Component], str] = getattr(self, f"draw_{c.kind}")
        extra = ""
        if isinstance(c, Edge):
            extra = f' data-crafter-source="{esc_attr(c.source)}" data-crafter-target="{esc_attr(c.target)}"'
        return f'<g id="{esc_attr(c.id)}" data-crafter-kind="{c.kind}"{extra}>{draw(c)}</g>'

    def draw_node(self, n: Node) -> str:
        t = self.theme
        b = n.box
        assert b is not None, f"node '{n.id}' has no box"
        fill = n.fill or t.node_fill
        paint = Paint(fill=fill, stroke=n.stroke or t.node_stroke,
                      width=t.stroke_width if n.stroke_width is None else n.stroke_width)
        outline, area = shape_svg(n.shape, b, paint, t.corner_radius)
        lines, fs = node_label_lines(n, t)
        color = n.text_color or self.readable_on(fill)
        label = self.text_lines(lines, area.cx, area.cy, fs, color, bold=n.bold, italic=n.italic, family=n.font,
                                extra=spacing_attr(n.letter_spacing))
        return outline + label

    def draw_edge(self, e: Edge) -> str:
        t = self.theme
        color = e.color or t.edge_color
        width = t.edge_width if e.stroke_width is None else e.stroke_width
        route = drawn_route(e, self.by_id)
        if len(route) < 2:
            return ""
        head = self.marker_for(self.theme.head_kind(e.head), "head", color, width, route, e.head_size)
        tail = self.marker_for(self.theme.head_kind(e.tail), "tail", color, width, route, e.head_size)
        attrs = ""
        if head:
            attrs += f' marker-end="url(#{self.marker(head)})"'
        if tail:
            attrs += f' marker-start="url(#{self.marker(tail)})"'
        pts = trim(route, tail.inset if tail else 0.0, head.inset if head else 0.0)
        routing = e.routing or self.fig.routing
        if routing == "spline":
            d = spline_d(pts)
        elif routing == "orthogonal":
            d = polyline_d(pts, corner_radius=t.edge_corner_radius)
        else:
            d = polyline_d(pts)
        dash = dash_array(e.style, width)
        if dash:
            attrs += f' stroke-dasharray="{dash}"'
        cap = "round" if e.style == "dotted" else "butt"
        out = (f'<path d="{d}" fill="none" stroke="{esc_attr(color)}" stroke-width="{num(width)}" '
               f'stroke-linejoin="round" stroke-linecap="{cap}"{attrs}/>')
        self.underlay().add_edge(pts, routing == "spline", width, [m for m in (head, tail) if m],
                                 [route[-1]] * bool(head) + [route[0]] * bool(tail))
        if e.label:
            out += self.edge_label(e, route)
        return out


    def edge_label(self, e: Edge, route: list[tuple[float, float]]) -> str:
        t = self.theme
        lines, lb = edge_label_plate(e, route, t)
        rect = ""
        # the plate only hides what is drawn before it; on bare canvas or a group's flat fill it
        # is the colour of what it covers, an element that draws nothing
        if self.underlay().covers(lb):
            rect = (f'<rect x="{num(lb.x)}" y="{num(lb.y)}" width="{num(lb.w)}" height="{num(lb.h)}" rx="2" '
                    f'fill="{esc_attr(self.fill_behind(lb.cx, lb.cy))}" fill-opacity="0.92" stroke="none"/>')
        return rect + self.text_lines(lines, lb.cx, lb.cy, edge_font(e, t), t.edge_label_color)

    def underlay(self) -> "_Underlay":
        if self._underlay is None:
            self._underlay = _Underlay(self.fig, self.theme)
        return self._underlay

    def draw_group(self, g: Group) -> str:
        t = self.theme
        b = g.box
        assert b is not None, f"group '{g.id}' has no box"
        width = group_stroke_width(g, t)
        paint = Paint(fill=g.fill or t.group_fill, stroke=g.stroke or t.group_stroke, width=width,
                      dash=dash_array(t.frame_dash(g.style), width))
        r = min(t.corner_radius, b.w / 2, b.h / 2)
        out = (f'<rect x="{num(b.x)}" y="{num(b.y)}" width="{num(b.w)}" height="{num(b.h)}" rx="{num(r)}" '
               f"{paint.attrs()}/>")
        if g.label:
            fs = group_font(g, t)
            band = min(group_band(g, t), b.h)
            out += self.text_line_left(g.label, b.x + t.group_label_inset, b.y + band / 2 + 2, fs,
                                       g.text_color or t.group_text_color,
                                       bold=group_bold(g, t))
        return out

    def draw_panel(self, p: Panel) -> str:
        t = self.theme
        b = p.box
        assert b is not None, f"panel '{p.id}' has no box"
        # an invisible frame gives the panel's object its extent in an editor
        out = (f'<rect x="{num(b.x)}" y="{num(b.y)}" width="{num(b.w)}" height="{num(b.h)}" '
               f'fill="none" stroke="none"/>')
        label = p.label if p.label is not None else self.panel_label(p)
        fs = t.panel_font_size
        y = b.y + min(t.group_label_h, b.h) / 2 + 1
        x = b.x + 2
        if label:
            out += self.text_line_left(label, x, y, fs, t.text_color, bold=True, css_class="crafter-panel-label")
            x += text_width(label + " ", fs, bold=True)
        if p.title:
            out += self.text_line_left(p.title, x, y, fs, t.text_color)
        return out

    def panel_label(self, p: Panel) -> str:
        index = [c.id for c in self.fig.components if isinstance(c, Panel)].index(p.id)
        return f"({panel_letters(index)})"

    def draw_text(self, x: Text) -> str:
        t = self.theme
        fs = x.font_size or t.small_font_size
        color = x.color or t.annotation_color
        if x.box is not None:
            cx, cy = x.box.cx, x.box.cy
            width = x.box.h if abs(x.rotate) % 180 == 90 else x.box.w
            lines = wrap(x.text, fs, max(width, fs) + WRAP_SLACK, bold=x.bold, italic=x.italic) \
                if x.rotate % 90 == 0 else x.text.split("\n")
        else:
            assert x.at is not None, f"text '{x.id}' has neither box nor at"
            cx, cy = x.at.x, x.at.y  # 'at' is the centre of the text block
            lines = x.text.split("\n")
        extra = f' transform="rotate({num(x.rotate)} {num(cx)} {num(cy)})"' if x.rotate else ""
        extra += spacing_attr(x.letter_spacing)
        return self.text_lines(lines, cx, cy, fs, color, bold=x.bold, italic=x.italic, extra=extra, family=x.font)

    def draw_chart(self, c: Chart) -> str:
        b = c.box
        assert b is not None, f"chart '{c.id}' has no box"
        return chart_svg_fragment(c, b, self.theme)

    def draw_image(self, im: Image) -> str:
        b = im.box
        assert b is not None, f"image '{im.id}' has no box"
        href = esc_attr(im.href)
        title = f"<title>{esc_text(im.alt)}</title>" if im.alt else ""
        return (f'{title}<image x="{num(b.x)}" y="{num(b.y)}" width="{num(b.w)}" height="{num(b.h)}" '
                f'preserveAspectRatio="none" xlink:href="{href}" href="{href}"/>')

    def draw_path(self, p: Path) -> str:
        t = self.theme
        if p.fill is None and p.stroke is None:
            fill, stroke = t.text_color, "none"
        else:
            fill, stroke = p.fill or "none", p.stroke or "none"
        width = t.stroke_width if p.stroke_width is None else p.stroke_width
        return (f'<path d="{esc_attr(" ".join(p.d.split()))}" fill="{esc_attr(fill)}" stroke="{esc_attr(stroke)}" '
                f'stroke-width="{num(width)}"/>')

    # -- helpers ------------------------------------------------------------------
    def marker_for(self, head: str, end: str, color: str, width: float,
                   route: list[tuple[float, float]], size: float | None = None) -> MarkerSpec | None:
        """The marker for one end of an edge (None for 'none'); flush when the end segment is too short to trim."""
        if head == "none":
            return None
        spec = MarkerSpec(head, end, color, width, self.theme.background, size=size)
        if not can_trim(route, end == "tail", spec.inset_wanted):
            spec = replace(spec, flush=True)
        return spec

    def marker(self, spec: MarkerSpec) -> str:
        if spec.id not in self.markers:
            self.markers[spec.id] = marker_def(spec)
        return spec.id

    def fill_behind(self, x: float, y: float) -> str:
        """The colour under a point: the innermost group frame's fill there, else the background.

        Edge-label plates take it, so a label inside a tinted group does not sit on a white patch.
        """
        if self._frames is None:
            parent = parents(self.fig)
            groups = [g for g in self.fig.components if isinstance(g, Group) and g.box is not None]
            groups.sort(key=lambda g: -nesting_depth(g.id, parent))
            self._frames = [(g.box, g.fill or self.theme.group_fill) for g in groups]
        for box, fill in self._frames:
            if box.x <= x <= box.right and box.y <= y <= box.bottom and fill != "none":
                return fill
        return self.theme.background

    def readable_on(self, fill: str) -> str:
        return readable_on(fill, self.theme)

    def font(self, fs: float, bold: bool, italic: bool, family: str | None = None) -> str:
        face = f'font-family="{esc_attr(FONT_CLASS_FAMILIES[family])}"' if family else self.font_attr
        out = f'{face} font-size="{num(fs)}"'
        if bold:
            out += ' font-weight="bold"'
        if italic:
            out += ' font-style="italic"'
        return out

    def text_lines(self, lines: list[str], cx: float, cy: float, fs: float, color: str, *, bold: bool = False,
                   italic: bool = False, extra: str = "", family: str | None = None) -> str:
        """A block of lines centred on (cx, cy): one <text>, one <tspan> per line; ``family``: a
        font class (sans, serif, mono) drawn instead of the theme's font."""
        if not any(lines):
            return ""
        lh = fs * self.theme.line_height
        y = cy - (len(lines) - 1) * lh / 2 + BASELINE_SHIFT * fs
        text = "\n".join(lines)
        direction = base_direction(text)
        attrs = f'{self.font(fs, bold, italic, family)} fill="{esc_attr(color)}" text-anchor="middle"'
        if direction == "rtl" and not self.visual:
            attrs += ' direction="rtl" unicode-bidi="embed"'
        if any(needs_preserve(s) for s in lines):
            attrs += ' xml:space="preserve"'
        spans = []
        for i, line in enumerate(lines):
            shown = visual_order(line, direction) if self.visual else line
            spans.append(rich_text(shown, fs, f'x="{num(cx)}" y="{num(y + i * lh)}"'))
        return f'<text{extra} {attrs}>{"".join(spans)}</text>'

    def text_line_left(self, text: str, x: float, cy: float, fs: float, color: str, *, bold: bool = False,
                       css_class: str | None = None) -> str:
        """One line starting at x, vertically centred on cy (group and panel labels)."""
        line = " ".join(text.split("\n"))
        direction = base_direction(line)
        anchor = "start"
        extra = ""
        if direction == "rtl" and not self.visual:
            # with an RTL base direction 'end' is the text's left edge: keep the label at x
            anchor, extra = "end", ' direction="rtl" unicode-bidi="embed"'
        if needs_preserve(line):
            extra += ' xml:space="preserve"'
        if css_class:
            extra += f' class="{css_class}"'
        shown = visual_order(line, direction) if self.visual else line
        return (f'<text x="{num(x)}" y="{num(cy + BASELINE_SHIFT * fs)}" {self.font(fs, bold, False)} '
                f'fill="{esc_attr(color)}" text-anchor="{anchor}"{extra}>{rich_text(shown, fs)}</text>')


def spacing_attr(spacing: float | None) -> str:
    """The ``letter-spacing`` attribute of a label whose characters are set apart (or closer), or ''."""
    return f' letter-spacing="{num(spacing)}"' if spacing else ""


def rich_text(line: str, fs: float, pos: str = "") -> str:
    """A line's text: sub- and superscripts (``T_{1}``, ``10^{-3}``) as ``baseline-shift`` tspans
    at :data:`~crafter.spec.markup.SCRIPT_SCALE` of the size, each piece a sibling tspan (the text
    after a shift in one of its own, so a renderer without baseline-shift can move it back:
    :func:`crafter.formats.raster.cairo_shifts`). ``pos``: the line's ``x=… y=…`` attributes (one
    ``<tspan>`` per line), or '' where the ``<text>`` itself is placed."""
    if not has_markup(line):
        return f"<tspan {pos}>{esc_text(line)}</tspan>" if pos else esc_text(line)
    out = []
    for i, (piece, shift) in enumerate(segments(line)):
        attrs = f' baseline-shift="{shift}" font-size="{num(fs * SCRIPT_SCALE)}"' if shift else ""
        if i == 0 and pos:
            attrs = " " + pos + attrs
        if i == 0 and not attrs:
            out.append(esc_text(piece))
        else:
            out.append(f"<tspan{attrs}>{esc_text(piece)}</tspan>")
    return "".join(out)


# ---------------------------------------------------------------------------------
# What an edge-label plate would cover
# ---------------------------------------------------------------------------------


class _Underlay:
    """What is drawn before an edge's label: panels, groups, charts, images and paths (all of
    them, as they come first), and the edges drawn so far (the label's own included).

    The writer asks :meth:`covers` whether a label's plate would hide any of it; a plate that
    hides nothing is left out (one element less per labelled edge, the same picture). Edges
    drawn later pass over the plate anyway. Segments and boxes sit in a grid of ``CELL`` px,
    so a figure with thousands of edges is checked in about linear time.
    """

    CELL = 64.0

    def __init__(self, fig: Figure, theme: Theme) -> None:
        self.grid: dict[tuple[int, int], list[tuple[float, float, float, float, float, bool]]] = {}
        self.frames: list[tuple[Box, float, float]] = []  # group boxes: (box, stroke pad, label band)
        self.everywhere = False  # something whose extent is not known (a path with arcs)
        for c in fig.components:
            if isinstance(c, Group) and c.box is not None:
                width = group_stroke_width(c, theme)
                self.frames.append((c.box, width / 2 + max(1.0, theme.corner_radius),
                                    min(group_band(c, theme), c.box.h) if c.label else 0.0))
            elif isinstance(c, Panel) and c.box is not None:
                b = c.box
                self.add_box(b.x, b.y, b.right, b.y + min(theme.group_label_h, b.h))  # its label
            elif isinstance(c, (Chart, Image)) and c.box is not None:
                self.add_box(c.box.x, c.box.y, c.box.right, c.box.bottom)
            elif isinstance(c, Path):
                extent = _path_extent(c.d)
                if extent is None:
                    self.everywhere = True
                else:
                    pad = (c.stroke_width if c.stroke_width is not None else theme.stroke_width) / 2
                    self.add_box(extent[0] - pad, extent[1] - pad, extent[2] + pad, extent[3] + pad)

    def add_box(self, x0: float, y0: float, x1: float, y1: float, pad: float = 0.0, segment: bool = False) -> None:
        item = (x0, y0, x1, y1, pad, segment)
        lo_x, hi_x = min(x0, x1) - pad, max(x0, x1) + pad
        lo_y, hi_y = min(y0, y1) - pad, max(y0, y1) + pad
        for i in range(int(lo_x // self.CELL), int(hi_x // self.CELL) + 1):
            for j in range(int(lo_y // self.CELL), int(hi_y // self.CELL) + 1):
                self.grid.setdefault((i, j), []).append(item)

    def add_edge(self, pts: list[tuple[float, float]], spline: bool, width: float,
                 markers: list[MarkerSpec], ends: list[tuple[float, float]]) -> None:
        pad = width / 2 + 1.0
        if spline and len(pts) >= 3:
            # each Bézier of the Catmull–Rom curve lies in the hull of its control points
            ext = [pts[0]] + pts + [pts[-1]]
            for i in range(1, len(ext) - 2):
                p0, p1, p2, p3 = ext[i - 1], ext[i], ext[i + 1], ext[i + 2]
                c1 = (p1[0] + (p2[0] - p0[0]) / 6, p1[1] + (p2[1] - p0[1]) / 6)
                c2 = (p2[0] - (p3[0] - p1[0]) / 6, p2[1] - (p3[1] - p1[1]) / 6)
                xs, ys = (p1[0], c1[0], c2[0], p2[0]), (p1[1], c1[1], c2[1], p2[1])
                self.add_box(min(xs), min(ys), max(xs), max(ys), pad)
        else:
            for a, b in zip(pts, pts[1:]):
                self.add_box(a[0], a[1], b[0], b[1], pad, segment=True)
        for m, (x, y) in zip(markers, ends):
            r = max(m.length, m.half_width) + m.width + 1.0
            self.add_box(x - r, y - r, x + r, y + r)

    def covers(self, lb: Box) -> bool:
        if self.everywhere:
            return True
        x0, y0, x1, y1 = lb.x, lb.y, lb.right, lb.bottom
        for box, pad, band in self.frames:
            outside = (x1 < box.x - pad or x0 > box.right + pad or y1 < box.y - pad or y0 > box.bottom + pad)
            inside = (x0 > box.x + pad and x1 < box.right - pad and y0 > box.y + max(pad, band)
                      and y1 < box.bottom - pad)
            if not (outside or inside):
                return True  # across a frame's border or on its label
        seen: set[int] = set()
        for i in range(int(x0 // self.CELL), int(x1 // self.CELL) + 1):
            for j in range(int(y0 // self.CELL), int(y1 // self.CELL) + 1):
                for item in self.grid.get((i, j), ()):
                    if id(item) in seen:
                        continue
                    seen.add(id(item))
                    if _touches(item, x0, y0, x1, y1):
                        return True
        return False


def _touches(item: tuple[float, float, float, float, float, bool], x0: float, y0: float, x1: float,
             y1: float) -> bool:
    """Whether a segment (within ``pad``) or a box meets the rectangle x0..x1 × y0..y1."""
    ax, ay, bx, by, pad, segment = item
    x0, y0, x1, y1 = x0 - pad, y0 - pad, x1 + pad, y1 + pad
    if not segment:
        return min(ax, bx) <= x1 and max(ax, bx) >= x0 and min(ay, by) <= y1 and max(ay, by) >= y0
    # Liang–Barsky: clip the segment to the rectangle
    t0, t1 = 0.0, 1.0
    dx, dy = bx - ax, by - ay
    for p, q in ((-dx, ax - x0), (dx, x1 - ax), (-dy, ay - y0), (dy, y1 - ay)):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return False
    return True


_PATH_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def _path_extent(d: str) -> tuple[float, float, float, float] | None:
    """(x0, y0, x1, y1) holding absolute path data made of M, L, C, Q and Z (whose points,
    curve controls included, bound the drawing); None for anything else."""
    if re.search(r"[^MLCQZ0-9eE.,+\-\s]", d):
        return None
    nums = [float(v) for v in _PATH_NUMBER.findall(d)]
    if not nums or len(nums) % 2:
        return None
    xs, ys = nums[0::2], nums[1::2]
    return min(xs), min(ys), max(xs), max(ys)
