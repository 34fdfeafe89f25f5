"""What a PPTX slide draws, shape by shape, in figure coordinates.

:func:`read_slides` walks every slide's shape tree (groups included, their child frames
mapped through) and returns one :class:`Drawn` per shape: its component id and role (from
the CRAFTER tags, or the shape's name), preset, frame in figure px, text (paragraphs of
lines), font, fill, outline, dash, line ends, glue, picture bytes or external link, chart
data. Both the merge of a Crafter PPTX (which reads its own regenerated drawing and the
edited file the same way, and compares them) and the import of any other PPTX start here.

Colours come back as ``#RRGGBB`` (``#RRGGBBAA`` with alpha), ``"none"`` for no fill or no
line, and None where the file leaves them to the theme's style (a theme colour is resolved
through the presentation's colour scheme).
"""

from __future__ import annotations

import colorsys
import math
import re
from dataclasses import dataclass, field
from typing import Any, Iterator

from pptx.opc.constants import RELATIONSHIP_TYPE as RT

from crafter.errors import InputError
from crafter.formats.pptx.chart_data import read_chart_part
from crafter.formats.pptx.package import TAG_ID, TAG_ROLE, TITLE_KEY, SlideFrame, parse_part_xml, read_shape_tags
from crafter.spec.colors import CSS_COLOR_NAMES, to_rgb
from crafter.spec.model import ID_PATTERN, Box

A = "http://schemas.openxmlformats.org/drawingml/2006/main"
P = "http://schemas.openxmlformats.org/presentationml/2006/main"
R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"
CHART_URI = "http://schemas.openxmlformats.org/drawingml/2006/chart"
MAX_SHAPES = 20_000  # more shapes than any figure holds: refused before anything is built
MAX_GROUP_DEPTH = 50
_ID_RE = re.compile(ID_PATTERN)
# DrawingML line ends → FigureSpec arrowheads
ARROWHEADS = {"triangle": "arrow", "stealth": "arrow", "arrow": "open", "diamond": "diamond", "oval": "circle",
              "none": "none"}


def a(tag: str) -> str:
    return f"{{{A}}}{tag}"


def p(tag: str) -> str:
    return f"{{{P}}}{tag}"


Matrix = tuple[float, float, float, float]  # x' = sx*x + tx, y' = sy*y + ty


@dataclass
class Drawn:
    """One shape as read from a slide (lengths in figure px)."""

    cid: str | None  # component id (tag or name), None for shapes Crafter did not write
    role: str
    tag: str  # sp, cxnSp, pic, graphicFrame, grpSp
    name: str
    shape_id: int
    slide: int
    box: Box
    rotation: float = 0.0
    prst: str | None = None
    path_d: str | None = None  # custom geometry as SVG path data in figure px
    text_box: bool = False
    placeholder: str | None = None  # the placeholder type ("title", "body"…)
    paragraphs: list[list[str]] | None = None
    runs: list[tuple[str, bool]] = field(default_factory=list)  # (text, bold) of the first paragraph
    font_px: float | None = None
    bold: bool = False
    italic: bool = False
    text_color: str | None = None
    fill: str | None = None
    line: str | None = None
    line_px: float | None = None
    dash: str = "solid"
    head: str = "none"  # at the line's start (DrawingML headEnd)
    tail: str = "none"  # at its end (tailEnd)
    glue: tuple[int | None, int | None] = (None, None)  # shape ids at the start and the end
    start: tuple[float, float] | None = None
    end: tuple[float, float] | None = None
    image: bytes | None = None
    image_type: str | None = None
    link: str | None = None  # an external picture's target (never fetched)
    chart: Any = None  # a ChartTable
    parent: "Drawn | None" = None  # the group shape it sits in
    alt: str | None = None

    @property
    def text(self) -> str | None:
        """The text: paragraphs joined by newlines, line breaks inside them as spaces."""
        if self.paragraphs is None:
            return None
        return "\n".join(" ".join(lines) for lines in self.paragraphs)


def read_slides(prs: Any, frames: list[SlideFrame], known: set[str], *, file: str | None = None,
                report: Any = None) -> list[Drawn]:
    """Every shape of every slide (slide ``i`` mapped by ``frames[i]``; the last frame serves
    the slides beyond). ``known``: component ids a shape's name may be matched against."""
    colors = theme_colors(prs, file=file)
    out: list[Drawn] = []
    for i, slide in enumerate(prs.slides):
        frame = frames[min(i, len(frames) - 1)]
        reader = _SlideReader(slide, i, frame, known, colors, file, report)
        for el in _shape_children(slide.shapes.element):
            reader.walk(el, (1.0, 0.0, 1.0, 0.0), None, 0)
        out += reader.drawn
        if len(out) > MAX_SHAPES:
            raise InputError(f"the presentation has more than {MAX_SHAPES:,} shapes; a figure has far fewer "
                             "(refusing to import it)", file=file)
        _placeholder_frames(slide, reader)
    return out


def _shape_children(tree: Any) -> Iterator[Any]:
    """Shape elements of a shape tree, looking into markup-compatibility wrappers."""
    for el in tree.iterchildren():
        tag = el.tag if isinstance(el.tag, str) else ""
        if tag == f"{{{MC}}}AlternateContent":
            branch = el.find(f"{{{MC}}}Fallback")
            if branch is None:
                branch = el.find(f"{{{MC}}}Choice")
            if branch is not None:
                yield from _shape_children(branch)
        elif tag in (p("sp"), p("cxnSp"), p("pic"), p("graphicFrame"), p("grpSp")):
            yield el


def _placeholder_frames(slide: Any, reader: "_SlideReader") -> None:
    """Placeholders without their own frame take their layout's (python-pptx resolves it)."""
    missing = [d for d in reader.drawn if d.placeholder is not None and d.box.w == 0 and d.box.h == 0]
    if not missing:
        return
    by_id = {s.shape_id: s for s in slide.shapes}
    for d in missing:
        s = by_id.get(d.shape_id)
        if s is not None and s.width is not None and s.height is not None:
            x, y = reader.frame.point(s.left, s.top)
            d.box = Box(x=x, y=y, w=reader.frame.px(s.width), h=reader.frame.px(s.height))


# =================================================================================
# One slide
# =================================================================================


class _SlideReader:
    def __init__(self, slide: Any, index: int, frame: SlideFrame, known: set[str], colors: dict[str, str],
                 file: str | None, report: Any) -> None:
        self.slide = slide
        self.part = slide.part
        self.index = index
        self.frame = frame
        self.known = known
        self.colors = colors
        self.file = file
        self.report = report
        self.drawn: list[Drawn] = []

    def walk(self, el: Any, m: Matrix, parent: Drawn | None, depth: int) -> None:
        if depth > MAX_GROUP_DEPTH:
            raise InputError(f"slide {self.index + 1}: groups nested more than {MAX_GROUP_DEPTH} deep", file=self.file)
        if len(self.drawn) > MAX_SHAPES:
            raise InputError(f"slide {self.index + 1} has more than {MAX_SHAPES:,} shapes; a figure has far fewer "
                             "(refusing to import it)", file=self.file)
        tag = el.tag.rsplit("}", 1)[-1]
        xfrm = el.find(f"{p('grpSpPr')}/{a('xfrm')}") if tag == "grpSp" else (
            el.find(p("xfrm")) if tag == "graphicFrame" else el.find(f"{p('spPr')}/{a('xfrm')}"))
        d = self._drawn(el, tag, xfrm, m, parent)
        self.drawn.append(d)
        if tag == "grpSp":
            child_m = _group_matrix(xfrm, m)
            for child in _shape_children(el):
                self.walk(child, child_m, d, depth + 1)
            return
        if tag in ("sp", "cxnSp"):
            self._shape_props(d, el)
            self._text(d, el)
        elif tag == "pic":
            self._picture(d, el)
            self._shape_props(d, el)
        elif tag == "graphicFrame":
            self._graphic(d, el)

    def _drawn(self, el: Any, tag: str, xfrm: Any, m: Matrix, parent: Drawn | None) -> Drawn:
        nv = el[0]
        c_nv = nv.find(p("cNvPr"))
        name = c_nv.get("name", "") if c_nv is not None else ""
        shape_id = int(c_nv.get("id", "0")) if c_nv is not None and (c_nv.get("id") or "").isdigit() else 0
        tags = read_shape_tags(self.part, el)
        cid, role = tags.get(TAG_ID), tags.get(TAG_ROLE, "")
        if cid is None:
            cid, role = _id_from_name(name, self.known)
        x, y, w, h, rot, flip_h, flip_v = _xfrm(xfrm)
        (x0, y0), (x1, y1) = _apply(m, (x, y)), _apply(m, (x + w, y + h))
        fx0, fy0 = self.frame.point(min(x0, x1), min(y0, y1))
        d = Drawn(cid=cid, role=role or "", tag=tag, name=name, shape_id=shape_id, slide=self.index,
                  box=Box(x=fx0, y=fy0, w=self.frame.px(abs(x1 - x0)), h=self.frame.px(abs(y1 - y0))),
                  rotation=rot, parent=parent, alt=c_nv.get("descr") if c_nv is not None else None)
        ph = nv.find(f"{p('nvPr')}/{p('ph')}")
        if ph is not None:
            d.placeholder = ph.get("type", "body")
        c_nv_sp = nv.find(p("cNvSpPr"))
        d.text_box = c_nv_sp is not None and c_nv_sp.get("txBox") in ("1", "true")
        if tag in ("cxnSp", "sp"):  # a line drawn as a shape has ends too
            self._connector_ends(d, nv, x, y, w, h, rot, flip_h, flip_v, m)
        return d

    def _connector_ends(self, d: Drawn, nv: Any, x: float, y: float, w: float, h: float, rot: float, flip_h: bool,
                        flip_v: bool, m: Matrix) -> None:
        c = nv.find(p("cNvCxnSpPr"))
        if c is not None:
            st, en = c.find(a("stCxn")), c.find(a("endCxn"))
            d.glue = (_int(st.get("id")) if st is not None else None, _int(en.get("id")) if en is not None else None)
        cx, cy = x + w / 2, y + h / 2
        pts = []
        for lx, ly in (((w if flip_h else 0.0), (h if flip_v else 0.0)), ((0.0 if flip_h else w), (0.0 if flip_v else h))):
            ux, uy = lx - w / 2, ly - h / 2
            t = math.radians(rot)
            rx, ry = ux * math.cos(t) - uy * math.sin(t), ux * math.sin(t) + uy * math.cos(t)
            pts.append(self.frame.point(*_apply(m, (cx + rx, cy + ry))))
        d.start, d.end = pts[0], pts[1]

    # -- paint --------------------------------------------------------------------
    def _shape_props(self, d: Drawn, el: Any) -> None:
        sp_pr = el.find(p("spPr"))
        if sp_pr is None:
            return
        geom = sp_pr.find(a("prstGeom"))
        if geom is not None:
            d.prst = geom.get("prst")
        elif sp_pr.find(a("custGeom")) is not None:
            d.path_d = _cust_geom_d(sp_pr.find(a("custGeom")), d.box)
        d.fill = self._fill(sp_pr)
        style = el.find(p("style"))
        if d.fill is None and style is not None:
            ref = style.find(a("fillRef"))
            if ref is not None and ref.get("idx") not in (None, "0"):
                d.fill = self._color_in(ref)
        ln = sp_pr.find(a("ln"))
        if ln is not None:
            if ln.find(a("noFill")) is not None:
                d.line = "none"
            else:
                d.line = self._color_in(ln.find(a("solidFill")))
            if ln.get("w") and ln.get("w").isdigit():
                d.line_px = self.frame.px(int(ln.get("w")))
            dash = ln.find(a("prstDash"))
            if dash is not None:
                val = dash.get("val", "solid")
                d.dash = "solid" if val == "solid" else "dotted" if val in ("dot", "sysDot") else "dashed"
            elif ln.find(a("custDash")) is not None:
                d.dash = "dashed"
            for end_tag, attr in (("headEnd", "head"), ("tailEnd", "tail")):
                e = ln.find(a(end_tag))
                if e is not None:
                    setattr(d, attr, ARROWHEADS.get(e.get("type", "none"), "arrow"))
        if d.line is None and style is not None:
            ref = style.find(a("lnRef"))
            if ref is not None and ref.get("idx") not in (None, "0"):
                d.line = self._color_in(ref)

    def _fill(self, sp_pr: Any) -> str | None:
        if sp_pr.find(a("noFill")) is not None:
            return "none"
        for tag in ("solidFill", "gradFill", "pattFill"):
            f = sp_pr.find(a(tag))
            if f is not None:
                return self._color_in(f)
        return None

    def _color_in(self, parent: Any) -> str | None:
        """The colour an element holds (srgbClr, schemeClr through the theme, sysClr, prstClr)."""
        if parent is None:
            return None
        clr = next((c for c in parent.iter() if isinstance(c.tag, str) and c.tag in (
            a("srgbClr"), a("schemeClr"), a("sysClr"), a("prstClr"), a("scrgbClr"))), None)
        if clr is None:
            return None
        return resolve_color(clr, self.colors)

    # -- text ---------------------------------------------------------------------
    def _text(self, d: Drawn, el: Any) -> None:
        body = el.find(p("txBody"))
        if body is None:
            return
        paras: list[list[str]] = []
        first_run = None
        for para in body.iterfind(a("p")):
            lines = [""]
            for child in para:
                if child.tag in (a("r"), a("fld")):
                    t = child.find(a("t"))
                    text = (t.text or "") if t is not None else ""
                    lines[-1] += text
                    first_run = child if first_run is None else first_run
                    if not paras:
                        rpr = child.find(a("rPr"))
                        d.runs.append((text, rpr is not None and rpr.get("b") in ("1", "true")))
                elif child.tag == a("br"):
                    lines.append("")
            paras.append(lines)
        while paras and paras[-1] == [""] and len(paras) > 1:
            paras.pop()  # PowerPoint keeps an empty last paragraph after a typed newline
        if not any(s for lines in paras for s in lines):
            return
        d.paragraphs = paras
        rpr = first_run.find(a("rPr")) if first_run is not None else None
        if rpr is not None:
            if rpr.get("sz", "").isdigit():
                d.font_px = int(rpr.get("sz")) / 100 / 0.75 / self.frame.scale
            d.bold = rpr.get("b") in ("1", "true")
            d.italic = rpr.get("i") in ("1", "true")
            d.text_color = self._color_in(rpr.find(a("solidFill")))

    # -- pictures and graphic frames ----------------------------------------------
    def _picture(self, d: Drawn, el: Any) -> None:
        blip = el.find(f"{p('blipFill')}/{a('blip')}")
        if blip is None:
            return
        rid_embed, rid_link = blip.get(f"{{{R}}}embed"), blip.get(f"{{{R}}}link")
        rel = self.part.rels.get(rid_embed) if rid_embed else None
        if rel is not None and not rel.is_external:
            d.image, d.image_type = rel.target_part.blob, rel.target_part.content_type
            return
        link_rel = self.part.rels.get(rid_link or rid_embed or "")
        d.link = link_rel.target_ref if link_rel is not None else (rid_link or "?")
        if self.report is not None:
            self.report.skipped.append(f"picture '{d.name}' on slide {self.index + 1} links to an external file "
                                       f"({_short(d.link)}); it was not fetched")

    def _graphic(self, d: Drawn, el: Any) -> None:
        data = el.find(f"{a('graphic')}/{a('graphicData')}")
        uri = data.get("uri", "") if data is not None else ""
        if uri == CHART_URI:
            ref = data.find(f"{{{CHART_URI}}}chart")
            rel = self.part.rels.get(ref.get(f"{{{R}}}id")) if ref is not None else None
            if rel is not None and not rel.is_external:
                root = parse_part_xml(rel.target_part.blob, str(rel.target_part.partname), file=self.file)
                d.chart = read_chart_part(root)
                return
        if self.report is not None:
            what = "table" if uri.endswith("/table") else "diagram (SmartArt)" if "diagram" in uri else "object"
            self.report.skipped.append(f"{what} '{d.name}' on slide {self.index + 1}: no FigureSpec form")


# =================================================================================
# Geometry and colour helpers
# =================================================================================


def _int(v: str | None) -> int | None:
    return int(v) if v is not None and v.isdigit() else None


def _short(v: str, n: int = 80) -> str:
    return v if len(v) <= n else v[: n - 1] + "…"


def _id_from_name(name: str, known: set[str]) -> tuple[str | None, str]:
    """A shape named ``id`` or ``id role`` after a component the figure has."""
    head, _, role = name.partition(" ")
    if head == TITLE_KEY and head in known:
        return head, "title"
    if head in known and _ID_RE.fullmatch(head):
        return head, role
    return None, ""


def _xfrm(xfrm: Any) -> tuple[float, float, float, float, float, bool, bool]:
    if xfrm is None:
        return 0.0, 0.0, 0.0, 0.0, 0.0, False, False
    off, ext = xfrm.find(a("off")), xfrm.find(a("ext"))
    x = float(off.get("x", 0)) if off is not None else 0.0
    y = float(off.get("y", 0)) if off is not None else 0.0
    w = float(ext.get("cx", 0)) if ext is not None else 0.0
    h = float(ext.get("cy", 0)) if ext is not None else 0.0
    rot = float(xfrm.get("rot", 0)) / 60000
    return x, y, w, h, rot, xfrm.get("flipH") in ("1", "true"), xfrm.get("flipV") in ("1", "true")


def _group_matrix(xfrm: Any, m: Matrix) -> Matrix:
    """Child coordinates of a group → its parent's: off + (p − chOff) · ext / chExt."""
    if xfrm is None:
        return m
    x, y, w, h, _, _, _ = _xfrm(xfrm)
    ch_off, ch_ext = xfrm.find(a("chOff")), xfrm.find(a("chExt"))
    cx = float(ch_off.get("x", 0)) if ch_off is not None else x
    cy = float(ch_off.get("y", 0)) if ch_off is not None else y
    cw = float(ch_ext.get("cx", 0)) if ch_ext is not None else w
    chh = float(ch_ext.get("cy", 0)) if ch_ext is not None else h
    sx = w / cw if cw else 1.0
    sy = h / chh if chh else 1.0
    # compose: parent(p) = m(off + (p - chOff) * s)
    msx, mtx, msy, mty = m
    return (msx * sx, msx * (x - cx * sx) + mtx, msy * sy, msy * (y - cy * sy) + mty)


def _apply(m: Matrix, pt: tuple[float, float]) -> tuple[float, float]:
    return m[0] * pt[0] + m[1], m[2] * pt[1] + m[3]


def _cust_geom_d(geom: Any, box: Box) -> str | None:
    """A custom geometry's paths as SVG path data in figure px (lines, Béziers, closes)."""
    parts: list[str] = []
    for path in geom.iterfind(f"{a('pathLst')}/{a('path')}"):
        pw, ph = float(path.get("w", 0) or 0), float(path.get("h", 0) or 0)
        sx = box.w / pw if pw else 1.0
        sy = box.h / ph if ph else 1.0

        def pt(el: Any, sx: float = sx, sy: float = sy) -> str:
            return f"{box.x + float(el.get('x', 0)) * sx:.2f},{box.y + float(el.get('y', 0)) * sy:.2f}"

        for cmd in path:
            pts = [pt(q) for q in cmd.iterfind(a("pt"))]
            op = {"moveTo": "M", "lnTo": "L", "cubicBezTo": "C", "quadBezTo": "Q"}.get(cmd.tag.rsplit("}", 1)[-1])
            if cmd.tag == a("close"):
                parts.append("Z")
            elif op and pts:
                parts.append(op + " ".join(pts))
    return " ".join(parts) or None


# Office's default theme, for presentations whose theme cannot be read
_DEFAULT_SCHEME = {"dk1": "#000000", "lt1": "#FFFFFF", "dk2": "#44546A", "lt2": "#E7E6E6", "accent1": "#4472C4",
                   "accent2": "#ED7D31", "accent3": "#A5A5A5", "accent4": "#FFC000", "accent5": "#5B9BD5",
                   "accent6": "#70AD47", "hlink": "#0563C1", "folHlink": "#954F72"}


def theme_colors(prs: Any, *, file: str | None = None) -> dict[str, str]:
    """The presentation's colour scheme (accent1…, dk1…, and bg1/tx1… through the master's map)."""
    colors = dict(_DEFAULT_SCHEME)
    try:
        master = prs.slide_masters[0]
        theme_part = master.part.part_related_by(RT.THEME)
    except (IndexError, KeyError):
        return _with_map(colors, None)
    root = parse_part_xml(theme_part.blob, str(theme_part.partname), file=file)
    scheme = root.find(f"{a('themeElements')}/{a('clrScheme')}")
    if scheme is not None:
        for slot in scheme:
            if not isinstance(slot.tag, str) or not len(slot):
                continue
            clr = slot[0]
            value = clr.get("lastClr") if clr.tag == a("sysClr") else clr.get("val")
            if value and re.fullmatch(r"[0-9A-Fa-f]{6}", value):
                colors[slot.tag.rsplit("}", 1)[-1]] = "#" + value.upper()
    clr_map = master.element.find(p("clrMap"))
    return _with_map(colors, clr_map)


def _with_map(colors: dict[str, str], clr_map: Any) -> dict[str, str]:
    mapping = {"bg1": "lt1", "tx1": "dk1", "bg2": "lt2", "tx2": "dk2"}
    if clr_map is not None:
        mapping.update({k: v for k, v in clr_map.attrib.items() if k in mapping})
    for k, v in mapping.items():
        colors[k] = colors.get(v, "#000000")
    return colors


def resolve_color(clr: Any, scheme: dict[str, str]) -> str | None:
    """An a:srgbClr / a:schemeClr / a:sysClr / a:prstClr element as #RRGGBB (#RRGGBBAA with alpha),
    luminance and shade/tint modifiers applied."""
    tag = clr.tag.rsplit("}", 1)[-1]
    if tag == "srgbClr":
        base = "#" + (clr.get("val") or "000000").upper()
    elif tag == "schemeClr":
        base = scheme.get(clr.get("val", ""), "#000000")
    elif tag == "sysClr":
        base = "#" + (clr.get("lastClr") or ("FFFFFF" if clr.get("val") == "window" else "000000")).upper()
    elif tag == "prstClr":
        name = (clr.get("val") or "black").lower()
        if name not in CSS_COLOR_NAMES:
            return None
        r, g, b = to_rgb(name)
        base = "#{:02X}{:02X}{:02X}".format(round(r * 255), round(g * 255), round(b * 255))
    else:
        return None
    if not re.fullmatch(r"#[0-9A-F]{6}", base):
        return None
    return _modified(base, clr)


def _modified(base: str, clr: Any) -> str:
    r, g, b = (int(base[i:i + 2], 16) / 255 for i in (1, 3, 5))
    alpha = None
    for mod in clr:
        if not isinstance(mod.tag, str):
            continue
        name, val = mod.tag.rsplit("}", 1)[-1], mod.get("val", "")
        v = int(val) / 100000 if val.lstrip("-").isdigit() else None
        if v is None:
            continue
        if name in ("lumMod", "lumOff"):
            h, light, s = colorsys.rgb_to_hls(r, g, b)
            light = light * v if name == "lumMod" else min(1.0, max(0.0, light + v))
            r, g, b = colorsys.hls_to_rgb(h, min(1.0, light), s)
        elif name == "shade":
            r, g, b = r * v, g * v, b * v
        elif name == "tint":
            r, g, b = (1 - (1 - c) * v for c in (r, g, b))
        elif name == "alpha":
            alpha = v
    out = "#{:02X}{:02X}{:02X}".format(*(round(min(1.0, max(0.0, c)) * 255) for c in (r, g, b)))
    if alpha is not None and alpha < 0.999:
        out += f"{round(alpha * 255):02X}"
    return out
