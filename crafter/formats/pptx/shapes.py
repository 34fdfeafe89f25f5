"""DrawingML details the PPTX writer sets on python-pptx shapes: paint, line ends, glue,
connector frames, text frames, freeforms and picture bytes.

python-pptx covers fills, lines and text; what it has no API for (arrowheads, connection
sites beyond a rectangle's four, connector rotation and adjust values, curved freeforms,
colours with alpha) is written into the shape's XML here, in schema order.
"""

from __future__ import annotations

import base64
import io
import re
from dataclasses import dataclass, replace
from typing import Any

from PIL import Image as PILImage
from pptx.dml.color import RGBColor
from pptx.enum.dml import MSO_LINE_DASH_STYLE
from pptx.enum.shapes import MSO_SHAPE
from pptx.enum.text import MSO_ANCHOR, MSO_AUTO_SIZE, PP_ALIGN
from pptx.oxml import parse_xml
from pptx.oxml.ns import nsdecls, qn
from pptx.util import Emu, Pt

from crafter.base.svgpath import parse_path, path_bbox
from crafter.formats.pptx.package import EMU_PER_PX, SlideFrame
from crafter.spec.colors import is_color, to_rgb
from crafter.spec.markup import has_markup, segments

PT_PER_PX = 0.75
DASHES = {"dashed": "dash", "dotted": "sysDot"}


@dataclass(frozen=True)
class Font:
    name: str
    size_px: float
    color: str
    bold: bool = False
    italic: bool = False
    line_height: float = 1.25


# =================================================================================
# Paint
# =================================================================================


def rgb(color: str) -> Any:
    r, g, b = to_rgb(color)
    return RGBColor(round(r * 255), round(g * 255), round(b * 255))


def alpha_of(color: str) -> int | None:
    """A #rrggbbaa colour's opacity in DrawingML's 1/1000 %, None for opaque."""
    if color.startswith("#") and len(color) == 9:
        return round(int(color[7:9], 16) / 255 * 100000)
    return None


def _add_alpha(fill_parent: Any, color: str) -> None:
    alpha = alpha_of(color)
    if alpha is None or fill_parent is None:
        return

    clr = fill_parent.find(f"{qn('a:solidFill')}/{qn('a:srgbClr')}")
    if clr is not None:
        clr.append(parse_xml(f'<a:alpha {nsdecls("a")} val="{alpha}"/>'))


def unstyle(shape: Any) -> None:
    """Drop python-pptx's theme style reference: no theme gradient, shadow or line sneaks in."""
    style = shape.element.find(qn("p:style"))
    if style is not None:
        shape.element.remove(style)


def set_fill(shape: Any, color: str) -> None:
    if color == "none" or not is_color(color):
        shape.fill.background()
        return
    shape.fill.solid()
    shape.fill.fore_color.rgb = rgb(color)
    _add_alpha(shape.element.spPr, color)


def set_line(shape: Any, color: str, width_px: float, style: str = "solid") -> None:
    line = shape.line
    if color == "none" or width_px <= 0 or not is_color(color):
        line.fill.background()
        return
    line.color.rgb = rgb(color)
    line.width = Emu(round(width_px * EMU_PER_PX))
    if style in DASHES:
        line.dash_style = MSO_LINE_DASH_STYLE.DASH if style == "dashed" else MSO_LINE_DASH_STYLE.ROUND_DOT
    _add_alpha(shape.element.spPr.find(qn("a:ln")), color)


def paint(shape: Any, fill: str, stroke: str, width: float, style: str = "solid") -> None:
    set_fill(shape, fill)
    set_line(shape, stroke, width, style)


# =================================================================================
# Connectors
# =================================================================================


def set_line_ends(cxn: Any, head: str, tail: str, size: str = "med") -> None:
    """Arrowheads: DrawingML's ``headEnd`` sits at the line's start, ``tailEnd`` at its end; ``size`` is
    DrawingML's sm/med/lg (a multiple of the line width)."""
    ln = cxn.element.spPr.find(qn("a:ln"))
    if ln is None:
        return
    for tag, kind in (("a:headEnd", head), ("a:tailEnd", tail)):
        old = ln.find(qn(tag))
        if old is not None:
            ln.remove(old)
        if kind != "none":
            ln.append(parse_xml(f'<{tag} {nsdecls("a")} type="{kind}" w="{size}" len="{size}"/>'))


def glue(cxn: Any, shape: Any, idx: int, *, begin: bool) -> None:
    """Glue one end of a connector to connection site ``idx`` of ``shape``."""
    if idx < 4:  # python-pptx's begin_connect knows the four sites of rectangle-like shapes
        (cxn.begin_connect if begin else cxn.end_connect)(shape, idx)
        return

    nv = cxn.element.find(f"{qn('p:nvCxnSpPr')}/{qn('p:cNvCxnSpPr')}")
    tag = "a:stCxn" if begin else "a:endCxn"
    old = nv.find(qn(tag))
    if old is not None:
        nv.remove(old)
    el = parse_xml(f'<{tag} {nsdecls("a")} id="{shape.shape_id}" idx="{idx}"/>')
    if begin:
        nv.insert(0, el)
    else:
        locks = nv.find(qn("a:extLst"))
        (locks.addprevious(el) if locks is not None else nv.append(el))


def set_connector_frame(cxn: Any, geo: Any, frame: SlideFrame) -> None:
    """A connector's preset, adjust values, rotation, flips, offset and extent."""
    spPr = cxn.element.spPr
    xfrm = spPr.find(qn("a:xfrm"))
    for attr in ("rot", "flipH", "flipV"):
        xfrm.attrib.pop(attr, None)
    if geo.rot:
        xfrm.set("rot", str(geo.rot))
    if geo.flip_h:
        xfrm.set("flipH", "1")
    if geo.flip_v:
        xfrm.set("flipV", "1")
    xfrm.find(qn("a:off")).set("x", str(frame.x(geo.off[0])))
    xfrm.find(qn("a:off")).set("y", str(frame.y(geo.off[1])))
    xfrm.find(qn("a:ext")).set("cx", str(frame.length(geo.ext[0])))
    xfrm.find(qn("a:ext")).set("cy", str(frame.length(geo.ext[1])))
    geom = spPr.find(qn("a:prstGeom"))
    gds = "".join(f'<a:gd name="adj{i + 1}" fmla="val {v}"/>' for i, v in enumerate(geo.adjusts))
    geom.getparent().replace(geom, parse_xml(f'<a:prstGeom {nsdecls("a")} prst="{geo.prst}"><a:avLst>{gds}</a:avLst>'
                                             "</a:prstGeom>"))


# =================================================================================
# Text
# =================================================================================


def frame_text(tf: Any, paras: list[list[str]], font: Font, *, insets: tuple[int, int, int, int], wrap_text: bool,
               anchor: str = "middle", align: str = "center") -> None:
    """Lines into a text frame: a paragraph per author's line, the lines wrapping made as ``a:br``."""
    tf.auto_size = MSO_AUTO_SIZE.NONE
    tf.word_wrap = wrap_text
    tf.margin_left, tf.margin_top, tf.margin_right, tf.margin_bottom = insets
    tf.vertical_anchor = {"middle": MSO_ANCHOR.MIDDLE, "top": MSO_ANCHOR.TOP}[anchor]
    for i, lines in enumerate(paras):
        p = tf.paragraphs[0] if i == 0 else tf.add_paragraph()
        _paragraph_format(p, font, PP_ALIGN.CENTER if align == "center" else PP_ALIGN.LEFT)
        for j, line in enumerate(lines):
            if j:
                p.add_line_break()
            _run(p, line, font)


def frame_runs(tf: Any, runs: list[tuple[str, bool]], font: Font, *, insets: tuple[int, int, int, int]) -> None:
    """One left-aligned line of runs, each bold or not (a panel's letter and title)."""
    tf.auto_size = MSO_AUTO_SIZE.NONE
    tf.word_wrap = False
    tf.margin_left, tf.margin_top, tf.margin_right, tf.margin_bottom = insets
    tf.vertical_anchor = MSO_ANCHOR.TOP
    p = tf.paragraphs[0]
    _paragraph_format(p, font, PP_ALIGN.LEFT)
    for text, bold in runs:
        _run(p, text, replace(font, bold=bold))


def _paragraph_format(p: Any, font: Font, align: Any) -> None:
    p.alignment = align
    # exact spacing: the SVG's line height, so a label's block is as tall as its box expects
    p.line_spacing = Pt(max(font.size_px * PT_PER_PX, 1.0) * font.line_height)
    p.space_before = Pt(0)
    p.space_after = Pt(0)


def _run(p: Any, text: str, font: Font) -> None:
    """A line as runs: sub- and superscripts (``T_{1}``) as runs raised or lowered by DrawingML's
    ``baseline`` (in 1/1000 %), at the size PowerPoint gives them (it shrinks them itself)."""
    for piece, shift in segments(text) if has_markup(text) else [(text, "")]:
        r = _plain_run(p, piece, font)
        if shift:
            r.font._rPr.set("baseline", "-25000" if shift == "sub" else "30000")


def _plain_run(p: Any, text: str, font: Font) -> Any:
    r = p.add_run()
    r.text = text
    f = r.font
    f.name = font.name
    f.size = Pt(max(1.0, round(font.size_px * PT_PER_PX * 100) / 100))  # PowerPoint's smallest size: 1 pt
    f.bold = font.bold
    f.italic = font.italic
    f.color.rgb = rgb(font.color)
    return r


# =================================================================================
# Freeforms and pictures
# =================================================================================


def add_freeform(shapes: Any, d: str, frame: SlideFrame) -> Any | None:
    """A path component as a freeform (custom geometry: lines, cubic Béziers, closes), or None
    for path data that draws nothing."""
    segs = parse_path(d)
    bbox = path_bbox(segs)
    if bbox is None:
        return None
    x0, y0, x1, y1 = bbox
    w, h = max(frame.length(x1 - x0), 1), max(frame.length(y1 - y0), 1)
    shape = shapes.add_shape(MSO_SHAPE.RECTANGLE, Emu(frame.x(x0)), Emu(frame.y(y0)), Emu(w), Emu(h))

    def pt(p: tuple[float, float]) -> str:
        return f'<a:pt x="{frame.length(p[0] - x0)}" y="{frame.length(p[1] - y0)}"/>'

    body = []
    for s in segs:
        if s.op == "M":
            body.append(f"<a:moveTo>{pt(s.pts[0])}</a:moveTo>")
        elif s.op == "L":
            body.append(f"<a:lnTo>{pt(s.pts[0])}</a:lnTo>")
        elif s.op == "C":
            body.append(f"<a:cubicBezTo>{''.join(pt(p) for p in s.pts)}</a:cubicBezTo>")
        elif s.op == "Z":
            body.append("<a:close/>")
    geom = parse_xml(f'<a:custGeom {nsdecls("a")}><a:avLst/><a:gdLst/><a:ahLst/><a:cxnLst/>'
                     f'<a:rect l="0" t="0" r="r" b="b"/><a:pathLst><a:path w="{w}" h="{h}">{"".join(body)}'
                     "</a:path></a:pathLst></a:custGeom>")
    prst = shape.element.spPr.find(qn("a:prstGeom"))
    prst.getparent().replace(prst, geom)
    return shape


def picture_bytes(href: str) -> bytes:
    """An image component's bytes in a format PowerPoint shows (WebP becomes PNG)."""
    m = re.match(r"data:image/(png|jpeg|webp|gif);base64,(.*)$", href, re.S)
    assert m is not None, "image hrefs are data URIs (the model checks it)"
    data = base64.b64decode("".join(m.group(2).split()))
    if m.group(1) == "webp":
        out = io.BytesIO()
        with PILImage.open(io.BytesIO(data)) as im:
            im.save(out, format="PNG")
        data = out.getvalue()
    return data
