"""A FigureSpec as a PowerPoint file whose every part stays editable (python-pptx).

One slide per figure (or one per panel, ``slides="panels"``), the slide the size of the
figure's drawing, so it pastes into a deck at print size:

* nodes are native AutoShapes of their kind (rectangle, rounded rectangle, ellipse, diamond,
  can, parallelogram, hexagon, flowchart document; a stack is a group of three sheets), the
  label in the shape's own text frame, broken where the SVG breaks it (the author's breaks
  as paragraphs, wrapping as line breaks), in the theme's font, size, weight and colours;
* edges are connectors glued to their shapes' connection sites (moving a box in PowerPoint
  drags its arrows), elbow connectors drawing our orthogonal route, with arrowheads, dash,
  colour and width; a label is a text box on the route's label plate;
* groups are group shapes holding a frame (the title in its text frame) and their members,
  so dragging a group drags what is in it; panels likewise, their letter and title in the
  frame; free text is a text box, images are pictures, paths are freeforms;
* charts are native PowerPoint charts holding their data (:mod:`crafter.formats.pptx.chart`);
* the FigureSpec is stored in the package, and every shape is named and tagged with its
  component id (:mod:`crafter.formats.pptx.package`).

Positions are the laid-out figure's (1 px = 9,525 EMU) inside the SVG's own frame, title
band included; z-order follows the SVG's (frames, then charts and pictures, edges, nodes,
text) inside each group.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from html import unescape
from typing import Any

from pptx import Presentation
from pptx.enum.shapes import MSO_CONNECTOR, MSO_SHAPE
from pptx.oxml.ns import qn
from pptx.util import Emu

from crafter.base.rules import (
    WRAP_SLACK,
    drawn_route,
    edge_font,
    edge_label_plate,
    edge_label_wrap,
    group_band,
    group_bold,
    group_font,
    group_stroke_width,
    panel_letters,
    readable_on,
    wrap_width,
)
from crafter.base.text import FONT_CLASS_FAMILIES, text_block_size, wrap
from crafter.base.theme import Theme, figure_theme
from crafter.formats.pptx.chart import add_chart
from crafter.formats.pptx.geometry import (
    NODE_PRESETS,
    ROTATED,
    connection_sites,
    connector_for,
    is_orthogonal,
    node_adjustments,
    node_outline_box,
    pick_site,
    segment_direction,
    simplify,
    snap_route,
    stack_sheets,
    text_rect_center,
)
from crafter.formats.pptx.package import TITLE_KEY, ShapeTagger, SlideFrame, add_shape_tags, add_spec_part
from crafter.formats.pptx.shapes import (
    Font,
    add_freeform,
    frame_runs,
    frame_text,
    glue,
    paint,
    picture_bytes,
    rgb,
    set_connector_frame,
    set_fill,
    set_line,
    set_line_ends,
    unstyle,
)
from crafter.render import draw_svg, ensure_layout
from crafter.render.markers import MarkerSpec
from crafter.render.shapes import Paint, shape_svg
from crafter.render.svg import BASELINE_SHIFT
from crafter.spec.model import Box, Chart, Component, Edge, Figure, Group, Image, Node, Panel, Path, Text, parents

# FigureSpec arrowheads → DrawingML line ends (DrawingML has no bar: it is drawn without one; nor a hollow
# triangle: it is drawn filled)
LINE_ENDS = {"arrow": "triangle", "open": "arrow", "diamond": "diamond", "circle": "oval", "bar": "none",
             "none": "none", "triangle_open": "triangle"}
WRITER_VERSION = 1
WRAPPED_SHAPES = ("box", "round", "stack", "document", "cylinder")  # text frames as wide as the shape


def head_extent(e: Edge, t: Theme) -> str:
    """DrawingML's arrowhead size (sm/med/lg) for the edge's head_size against the renderer's default (med)."""
    if e.head_size is None:
        return "med"
    width = t.edge_width if e.stroke_width is None else e.stroke_width
    ratio = e.head_size / MarkerSpec("arrow", "head", "", width, "").base  # the SVG markers' size rule
    return "sm" if ratio < 0.75 else "med" if ratio < 1.4 else "lg"


def figure_to_pptx(fig: Figure, *, slides: str = "figure") -> bytes:
    """The figure as PPTX bytes (laid out first if it lacks geometry).

    ``slides``: ``"figure"`` (one slide) or ``"panels"`` (a slide per panel, and one for what
    lies outside every panel, if anything does).
    """
    prs, tagger = build_presentation(fig, slides=slides)
    out = io.BytesIO()
    prs.save(out)
    return add_shape_tags(out.getvalue(), tagger.resolved())


def build_presentation(fig: Figure, *, slides: str = "figure") -> tuple[Any, ShapeTagger]:
    """The python-pptx presentation :func:`figure_to_pptx` saves, and the tags it adds on saving
    (the merge reads this unsaved copy of what the writer draws)."""
    if slides not in ("figure", "panels"):
        raise ValueError(f"slides must be 'figure' or 'panels', not {slides!r}")
    fig = ensure_layout(fig)
    prs = Presentation()
    tagger = ShapeTagger()
    frame, title = drawing_frame(fig)
    stored = []
    plan = _slide_plan(fig, slides, frame)
    # one slide size for the whole deck: the largest drawing's (a panel's slide keeps its top left)
    prs.slide_width = max(f.slide_size[0] for _, f, _ in plan)
    prs.slide_height = max(f.slide_size[1] for _, f, _ in plan)
    for ids, slide_frame, with_title in plan:
        slide = prs.slides.add_slide(prs.slide_layouts[6])  # the blank layout
        tagger.new_slide()
        _SlideWriter(fig, slide, slide_frame, tagger, ids, title if with_title else None).draw()
        stored.append({"frame": slide_frame.to_dict(), "ids": sorted(ids)})
    add_spec_part(prs, {"writer": WRITER_VERSION, "mode": slides, "figure": fig.to_dict(), "slides": stored})
    return prs, tagger


@dataclass
class _Title:
    lines: list[str]
    cx: float
    cy: float


def drawing_frame(fig: Figure) -> tuple[SlideFrame, _Title | None]:
    """The drawing's frame and title exactly as the SVG (and so the PNG) has them."""
    svg = draw_svg(fig, embed_spec=False)
    m = re.search(r'viewBox="([-0-9.e]+) ([-0-9.e]+) ([-0-9.e]+) ([-0-9.e]+)"', svg[:3000])
    assert m is not None, "the SVG writer always sets a viewBox"
    frame = SlideFrame.for_drawing(*(float(v) for v in m.groups()))
    t = re.search(r'<text id="crafter--title"[^>]*>(.*?)</text>', svg, re.S)
    if not fig.title or t is None:
        return frame, None
    spans = re.findall(r'<tspan x="([-0-9.e]+)" y="([-0-9.e]+)">(.*?)</tspan>', t.group(1), re.S)
    if not spans:
        return frame, None
    th = figure_theme(fig)
    fs = th.title_font_size
    cy = float(spans[0][1]) - BASELINE_SHIFT * fs + (len(spans) - 1) * fs * th.line_height / 2
    return frame, _Title([unescape(s[2]) for s in spans], float(spans[0][0]), cy)


def _slide_plan(fig: Figure, slides: str, frame: SlideFrame) -> list[tuple[set[str], SlideFrame, bool]]:
    """(component ids, frame, whether the title is drawn) per slide."""
    everything = {c.id for c in fig.components}
    panels = [p for p in fig.components if isinstance(p, Panel) and p.box is not None]
    if slides == "figure" or not panels:
        return [(everything, frame, True)]
    parent = parents(fig)

    def top_panel(cid: str) -> str | None:
        top = cid if isinstance(fig.get(cid), Panel) else None
        while cid in parent:
            cid = parent[cid]
            if isinstance(fig.get(cid), Panel):
                top = cid
        return top

    owner = {c.id: top_panel(c.id) for c in fig.components}
    for c in fig.components:  # edges and notes go where what they join or annotate goes
        if isinstance(c, Edge) and owner[c.id] is None and owner[c.source] == owner[c.target]:
            owner[c.id] = owner[c.source]
        elif isinstance(c, Text) and owner[c.id] is None and c.near is not None:
            owner[c.id] = owner.get(c.near)
    plan = []
    rest = {cid for cid, o in owner.items() if o is None}
    if rest:
        plan.append((rest, frame, True))
    m = figure_theme(fig).margin
    for p in panels:
        if p.id not in parent:
            b = p.box
            plan.append(({cid for cid, o in owner.items() if o == p.id},
                         SlideFrame.for_drawing(b.x - m, b.y - m, b.w + 2 * m, b.h + 2 * m), False))
    return plan


def paragraphs(text: str, fs: float, width: float | None, *, bold: bool = False,
               italic: bool = False) -> list[list[str]]:
    """A text's lines as drawn, grouped by the author's paragraphs (None: no wrapping)."""
    if width is None:
        return [[p] for p in text.split("\n")]
    return [wrap(p, fs, width, bold=bold, italic=italic) for p in text.split("\n")]


# =================================================================================
# One slide
# =================================================================================


class _SlideWriter:
    def __init__(self, fig: Figure, slide: Any, frame: SlideFrame, tagger: ShapeTagger, ids: set[str],
                 title: _Title | None) -> None:
        self.fig = fig
        self.slide = slide
        self.frame = frame
        self.tagger = tagger
        self.ids = ids
        self.title = title
        self.theme: Theme = figure_theme(fig)
        self.font_name = self.theme.font_family.split(",")[0].strip().strip("'\"")
        self.by_id = fig.by_id()
        self.parent = parents(fig)
        self.children: dict[str | None, list[Component]] = {}
        for c in fig.components:
            if c.id in ids:
                self.children.setdefault(self._container_of(c), []).append(c)
        self.glue_targets: dict[str, tuple[Any, str, Box, float | None]] = {}  # id → (shape, preset, box, adjust)
        self.edge_anchor: dict[str | None, tuple[Any, Any]] = {}  # container → (its shapes, first node or text)
        self.edge_ends = {e for c in fig.components if isinstance(c, Edge) for e in (c.source, c.target)}
        self.glued: list[tuple[Any, bool, Any]] = []  # (connector, its start?, the shape glued to)

    # -- structure -------------------------------------------------------------------
    def _container_of(self, c: Component) -> str | None:
        if c.id in self.parent:
            p = self.parent[c.id]
            return p if p in self.ids else None
        if isinstance(c, Edge):
            a, b = self._chain(c.source), self._chain(c.target)
            common = [x for x in a if x in b]
            return common[0] if common else None
        return None

    def _chain(self, cid: str) -> list[str]:
        """The groups and panels (on this slide) around a component, innermost first."""
        out = []
        while cid in self.parent:
            cid = self.parent[cid]
            if cid in self.ids:
                out.append(cid)
        return out

    def draw(self) -> None:
        fill = self.slide.background.fill
        fill.solid()
        fill.fore_color.rgb = rgb(self.theme.background)
        if self.title is not None:
            self._draw_title(self.title)
        shapes = self.slide.shapes
        # python-pptx looks for the largest shape id on every add (quadratic in the shape count);
        # its turbo mode counts instead, and _renumber makes the ids unique once all are drawn
        shapes.turbo_add_enabled = True
        self._draw_container(None, shapes)
        for c in self.fig.components:
            if isinstance(c, Edge) and c.id in self.ids:
                self._draw_edge(c)
        # group frames fitted to what they hold now that the connectors have their final frames

        for grp in reversed(list(shapes.element.iter(qn("p:grpSp")))):
            grp.recalculate_extents()
        self._renumber()

    def _renumber(self) -> None:
        """Shape ids 2, 3… in document order, and the connectors' glue pointed at the new ids."""
        tree = self.slide.shapes.element
        next_id = 2
        for c_nv in tree.iter(qn("p:cNvPr")):
            if c_nv.getparent().getparent() is tree:
                continue  # the shape tree's own (id 1)
            c_nv.set("id", str(next_id))
            next_id += 1
        for cxn, begin, target in self.glued:
            ref = cxn.find(f"{qn('p:nvCxnSpPr')}/{qn('p:cNvCxnSpPr')}/{qn('a:stCxn' if begin else 'a:endCxn')}")
            ref.set("id", target[0][0].get("id"))

    def _draw_title(self, title: _Title) -> None:
        t = self.theme
        fs = t.title_font_size
        h = len(title.lines) * fs * t.line_height
        box = Box(x=self.frame.x0, y=title.cy - h / 2, w=self.frame.w, h=h)
        shape = self._textbox(self.slide.shapes, box, [[line] for line in title.lines], fs, t.text_color, bold=True)
        self._name(shape, TITLE_KEY, "title")

    def _draw_container(self, cid: str | None, shapes: Any) -> None:
        members = self.children.get(cid, [])
        if cid is not None:
            c = self.by_id[cid]
            (self._draw_group_frame if isinstance(c, Group) else self._draw_panel_frame)(c, shapes)
        for kind in ("panel", "group"):
            for c in members:
                if c.kind == kind:
                    grp = shapes.add_group_shape()
                    self._name(grp, c.id, "container")
                    inner = grp.shapes
                    inner.turbo_add_enabled = True
                    self._draw_container(c.id, inner)
        for c in members:
            if isinstance(c, Chart):
                self._draw_chart(c, shapes)
            elif isinstance(c, Image):
                self._draw_image(c, shapes)
            elif isinstance(c, Path):
                self._draw_path(c, shapes)
        anchor = None
        for kind in ("node", "text"):
            for c in members:
                if c.kind == kind:
                    shape = self._draw_node(c, shapes) if isinstance(c, Node) else self._draw_text(c, shapes)
                    anchor = shape.element if anchor is None else anchor
        self.edge_anchor[cid] = (shapes, anchor)

    def _name(self, shape: Any, cid: str, role: str = "") -> None:
        shape.name = cid if not role or cid == TITLE_KEY else f"{cid} {role}"
        self.tagger.tag(shape, cid, role)

    def _font(self, size_px: float, color: str, bold: bool = False, italic: bool = False,
              family: str | None = None) -> Font:
        name = FONT_CLASS_FAMILIES[family].split(",")[0] if family else self.font_name
        return Font(name, size_px * self.frame.scale, color, bold, italic, self.theme.line_height)

    def _autoshape(self, shapes: Any, prst: str, b: Box, adjusts: list[float]) -> Any:
        kind = {"rect": MSO_SHAPE.RECTANGLE, "roundRect": MSO_SHAPE.ROUNDED_RECTANGLE, "ellipse": MSO_SHAPE.OVAL,
                "diamond": MSO_SHAPE.DIAMOND, "can": MSO_SHAPE.CAN, "parallelogram": MSO_SHAPE.PARALLELOGRAM,
                "hexagon": MSO_SHAPE.HEXAGON, "flowChartDocument": MSO_SHAPE.FLOWCHART_DOCUMENT,
                "trapezoid": MSO_SHAPE.TRAPEZOID,
                "flowChartManualOperation": MSO_SHAPE.FLOWCHART_MANUAL_OPERATION}[prst]
        f = self.frame
        shape = shapes.add_shape(kind, Emu(f.x(b.x)), Emu(f.y(b.y)), Emu(f.length(b.w)), Emu(f.length(b.h)))
        unstyle(shape)
        for i, v in enumerate(adjusts[:len(shape.adjustments)]):
            shape.adjustments[i] = v
        return shape

    def _textbox(self, shapes: Any, b: Box, paras: list[list[str]], fs: float, color: str, *, bold: bool = False,
                 italic: bool = False, family: str | None = None) -> Any:
        f = self.frame
        shape = shapes.add_textbox(Emu(f.x(b.x)), Emu(f.y(b.y)), Emu(f.length(b.w)), Emu(f.length(b.h)))
        frame_text(shape.text_frame, paras, self._font(fs, color, bold, italic, family), insets=(0, 0, 0, 0),
                   wrap_text=False)
        return shape

    # -- nodes -----------------------------------------------------------------------
    def _draw_node(self, n: Node, shapes: Any) -> Any:
        t, f = self.theme, self.frame
        b = n.box
        assert b is not None, f"node '{n.id}' has no box"
        fill = n.fill or t.node_fill
        stroke = n.stroke or t.node_stroke
        width = t.stroke_width if n.stroke_width is None else n.stroke_width
        if n.shape == "stack":
            main = shapes.add_group_shape()
            self._name(main, n.id)
            sheets = stack_sheets(b)
            members = main.shapes
            members.turbo_add_enabled = True
            for i, sb in enumerate(sheets):
                sheet = self._autoshape(members, "roundRect", sb, node_adjustments("stack", b, t.corner_radius))
                paint(sheet, fill, stroke, width)
                self._name(sheet, n.id, "label" if i == len(sheets) - 1 else f"sheet{i + 1}")
            label_shape, outline, prst, adjust = sheet, sheets[-1], "roundRect", None
        else:
            prst = NODE_PRESETS[n.shape]
            outline = node_outline_box(n.shape, b)
            adjusts = node_adjustments(n.shape, b, t.corner_radius)
            main = label_shape = self._autoshape(shapes, prst, outline, adjusts)
            paint(main, fill, stroke, width)
            self._name(main, n.id)
            adjust = adjusts[0] if adjusts else None
        self.glue_targets[n.id] = (label_shape, prst, outline, adjust)
        _, area = shape_svg(n.shape, b, Paint(fill=fill, stroke=stroke, width=width), t.corner_radius)
        # the label's block is centred where the SVG centres it; insets move the preset's text rectangle there
        shift = area.cy - text_rect_center(prst, outline, adjust)
        top, bottom = (2 * shift, 0.0) if shift > 0 else (0.0, -2 * shift)
        fs = n.font_size or t.font_size
        paras = paragraphs(n.text, fs, wrap_width(n, b.w, t), bold=n.bold, italic=n.italic)
        font = self._font(fs, n.text_color or readable_on(fill, t), n.bold, n.italic, n.font)
        frame_text(label_shape.text_frame, paras, font,
                   insets=(Emu(f.length(2)), Emu(f.length(top)), Emu(f.length(2)), Emu(f.length(bottom))),
                   wrap_text=n.shape in WRAPPED_SHAPES)
        if n.shape in ROTATED:  # the shape turned, its label turned back to read level
            main.rotation = ROTATED[n.shape]
            label_shape.text_frame._txBody.bodyPr.set("vert", "vert270" if ROTATED[n.shape] == 90.0 else "vert")
        return main

    # -- groups and panels -----------------------------------------------------------
    def _draw_group_frame(self, g: Group, shapes: Any) -> None:
        t = self.theme
        b = g.box
        assert b is not None, f"group '{g.id}' has no box"
        radius = min(t.corner_radius, b.w / 2, b.h / 2) / max(min(b.w, b.h), 1.0)
        frame = self._autoshape(shapes, "roundRect", b, [radius])
        width = group_stroke_width(g, t)
        paint(frame, g.fill or t.group_fill, g.stroke or t.group_stroke, width, t.frame_dash(g.style))
        self._name(frame, g.id, "frame")
        self.glue_targets[g.id] = (frame, "roundRect", b, None)
        if g.label:
            fs = group_font(g, t)
            top = min(group_band(g, t), b.h) / 2 + 2 - fs * t.line_height / 2
            frame_text(frame.text_frame, [[" ".join(g.label.split("\n"))]],
                       self._font(fs, g.text_color or t.group_text_color, group_bold(g, t)),
                       insets=(Emu(self.frame.length(t.group_label_inset)), Emu(self.frame.length(max(top, 0))), 0, 0),
                       wrap_text=False, anchor="top", align="left")

    def _draw_panel_frame(self, p: Panel, shapes: Any) -> None:
        t = self.theme
        b = p.box
        assert b is not None, f"panel '{p.id}' has no box"
        frame = self._autoshape(shapes, "rect", b, [])
        paint(frame, "none", "none", 0)
        self._name(frame, p.id, "frame")
        self.glue_targets[p.id] = (frame, "rect", b, None)
        index = [c.id for c in self.fig.components if isinstance(c, Panel)].index(p.id)
        label = p.label if p.label is not None else f"({panel_letters(index)})"
        fs = t.panel_font_size
        top = min(t.group_label_h, b.h) / 2 + 1 - fs * t.line_height / 2
        runs = [(label, True)] if label else []
        if p.title:
            runs.append(((" " if label else "") + p.title, False))
        if runs:
            frame_runs(frame.text_frame, runs, self._font(fs, t.text_color),
                       insets=(Emu(self.frame.length(2)), Emu(self.frame.length(max(top, 0))), 0, 0))

    # -- text, images, paths, charts -------------------------------------------------
    def _draw_text(self, x: Text, shapes: Any) -> Any:
        t = self.theme
        fs = x.font_size or t.small_font_size
        if x.box is not None:
            width = x.box.h if abs(x.rotate) % 180 == 90 else x.box.w
            paras = paragraphs(x.text, fs, max(width, fs) + WRAP_SLACK if x.rotate % 90 == 0 else None,
                               bold=x.bold, italic=x.italic)
            cx, cy = x.box.cx, x.box.cy
        else:
            assert x.at is not None, f"text '{x.id}' has neither box nor at"
            paras = paragraphs(x.text, fs, None)
            cx, cy = x.at.x, x.at.y
        w, h = text_block_size([line for p in paras for line in p], fs, t.line_height, bold=x.bold, italic=x.italic)
        box = Box(x=cx - w / 2 - 2, y=cy - h / 2, w=w + 4, h=h)  # 2 px to spare: wrapping is off, nothing moves
        shape = self._textbox(shapes, box, paras, fs, x.color or t.annotation_color, bold=x.bold, italic=x.italic,
                              family=x.font)
        if x.rotate:
            shape.rotation = x.rotate
        self._name(shape, x.id)
        self.glue_targets[x.id] = (shape, "rect", box, None)
        return shape

    def _draw_image(self, im: Image, shapes: Any) -> None:
        b = im.box
        assert b is not None, f"image '{im.id}' has no box"
        f = self.frame
        pic = shapes.add_picture(io.BytesIO(picture_bytes(im.href)), Emu(f.x(b.x)), Emu(f.y(b.y)),
                                 Emu(f.length(b.w)), Emu(f.length(b.h)))
        if im.alt:
            pic.element[0][0].set("descr", im.alt)  # p:nvPicPr/p:cNvPr@descr: the picture's alt text
        self._name(pic, im.id)
        self.glue_targets[im.id] = (pic, "rect", b, None)

    def _draw_path(self, p: Path, shapes: Any) -> None:
        t = self.theme
        if p.fill is None and p.stroke is None:
            fill, stroke = t.text_color, "none"
        else:
            fill, stroke = p.fill or "none", p.stroke or "none"
        shape = add_freeform(shapes, p.d, self.frame)
        if shape is None:
            return
        unstyle(shape)
        paint(shape, fill, stroke, t.stroke_width if p.stroke_width is None else p.stroke_width)
        self._name(shape, p.id)

    def _draw_chart(self, c: Chart, shapes: Any) -> None:
        assert c.box is not None, f"chart '{c.id}' has no box"
        if c.id in self.edge_ends:
            # a chart has no connection sites: edges glue to a clear rectangle behind it
            anchor = self._autoshape(shapes, "rect", c.box, [])
            paint(anchor, "none", "none", 0)
            self._name(anchor, c.id, "anchor")
            self.glue_targets[c.id] = (anchor, "rect", c.box, None)
        shape = add_chart(shapes, c, self.fig, self.frame)
        self._name(shape, c.id)

    # -- edges -----------------------------------------------------------------------
    def _draw_edge(self, e: Edge) -> None:
        shapes, anchor = self.edge_anchor.get(self._container_of(e), (self.slide.shapes, None))
        route = drawn_route(e, self.by_id)
        if len(route) < 2:
            return
        t = self.theme
        routing = e.routing or self.fig.routing
        pts = simplify(route)
        orthogonal = routing == "orthogonal" and is_orthogonal(pts)
        ends = [self.glue_targets.get(e.source), self.glue_targets.get(e.target)]
        sites = []
        if ends[0] is not None and ends[1] is not None and len(pts) >= 2:
            for (target, prst, box, adj), p, q in ((ends[0], pts[0], pts[1]), (ends[1], pts[-1], pts[-2])):
                options = connection_sites(prst, box, adj)
                away = segment_direction(p, q) if orthogonal else None  # the way the route leaves the shape
                idx = pick_site(options, p, box, away)
                sites.append((target, idx, options[idx]))
            (_, _, (start, s_dir)), (_, _, (end, e_dir)) = sites
            pts = snap_route(pts, start, end, s_dir, e_dir) if orthogonal else [start, end]
        geo = connector_for(pts, orthogonal)
        cxn = self._connector(shapes, geo)
        for i, (shape, idx, _) in enumerate(sites):
            glue(cxn, shape, idx, begin=i == 0)
            self.glued.append((cxn.element, i == 0, shape.element))
        set_connector_frame(cxn, geo, self.frame)
        set_line(cxn, e.color or t.edge_color, t.edge_width if e.stroke_width is None else e.stroke_width, e.style)
        set_line_ends(cxn, LINE_ENDS[t.head_kind(e.tail)], LINE_ENDS[t.head_kind(e.head)], head_extent(e, t))
        self._name(cxn, e.id)
        placed = [cxn]
        if e.label:
            fs = edge_font(e, t)
            lines, lb = edge_label_plate(e, route, t)
            width = max(lb.w, fs) + WRAP_SLACK if e.label_box is not None else edge_label_wrap(e, t)
            paras = paragraphs(e.label, fs, width)
            if sum(len(p) for p in paras) != len(lines):
                paras = [lines]
            label = self._textbox(shapes, lb, paras, fs, t.edge_label_color)
            set_fill(label, self._fill_behind(lb.cx, lb.cy))
            self._name(label, e.id, "label")
            placed.append(label)
        if anchor is not None:
            for shape in placed:
                anchor.addprevious(shape.element)

    def _connector(self, shapes: Any, geo: Any) -> Any:
        kind = MSO_CONNECTOR.STRAIGHT if geo.prst == "straightConnector1" else MSO_CONNECTOR.ELBOW
        f = self.frame
        cxn = shapes.add_connector(kind, Emu(f.x(geo.start[0])), Emu(f.y(geo.start[1])), Emu(f.x(geo.end[0])),
                                   Emu(f.y(geo.end[1])))
        unstyle(cxn)
        return cxn

    def _fill_behind(self, x: float, y: float) -> str:
        """The colour under a point: the innermost group's fill there, else the page (the SVG's rule)."""
        best, depth = self.theme.background, -1
        for g in self.fig.components:
            if isinstance(g, Group) and g.box is not None and g.box.contains_point(x, y):
                d = len(self._chain(g.id))
                fill = g.fill or self.theme.group_fill
                if d > depth and fill != "none":
                    best, depth = fill, d
        return best
