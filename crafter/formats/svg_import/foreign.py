"""A foreign SVG (one Crafter did not write) as a figure of ``path``, ``text`` and ``image`` components.

The SVG has been sanitised first (:func:`crafter.formats.sanitize.sanitize_tree`). What it
draws comes in figure coordinates: transforms applied, ``<use>`` of internal definitions
expanded, gradients reduced to their first colour, a page-sized background rectangle
dropped. The walk is bounded (elements visited, ``<use>`` depth, nesting, components), so
a "use bomb" that fans out exponentially is refused rather than expanded.
"""

from __future__ import annotations

import re
from typing import Any
from xml.etree import ElementTree as ET

from crafter.base.markup import XLINK_NS
from crafter.base.svgpath import (
    IDENTITY,
    Matrix,
    apply,
    multiply,
    parse_path,
    parse_transform,
    path_bbox,
    path_to_d,
    rotation_of,
    scale_of,
    transform_path,
)
from crafter.base.text import text_width
from crafter.base.theme import get_theme
from crafter.errors import InputError
from crafter.formats.sanitize import INLINE_RASTER, MAX_TREE_DEPTH, ImportReport, local_name, shorten
from crafter.formats.svg_import.elements import (
    NOT_DRAWN,
    SHAPE_TAGS,
    css_color,
    effective_style,
    length,
    number,
    own_style,
    shape_segments,
    text_anchor_point,
    text_lines,
)
from crafter.render.svg import BASELINE_SHIFT
from crafter.spec.model import ID_PATTERN, Figure, Size, figure_from_data

MAX_IMPORTED_COMPONENTS = 50_000
MAX_USE_DEPTH = 8
MAX_VISITS = 500_000  # elements walked, <use> copies included: caps "use bombs" that fan out exponentially


class ForeignImporter:
    """Walks a sanitised SVG and turns what it draws into path/text/image components."""

    def __init__(self, root: ET.Element, report: ImportReport, file: str | None) -> None:
        self.root = root
        self.report = report
        self.file = file
        self.ids_map = {el.get("id"): el for el in root.iter() if el.get("id")}
        self.comps: list[dict[str, Any]] = []
        self.used: set[str] = set()
        self.counters: dict[str, int] = {}
        self.visits = 0
        self.too_deep = False

    def new_id(self, el: ET.Element, kind: str) -> str:
        want = el.get("id") or ""
        if not re.fullmatch(ID_PATTERN, want) or want in self.used:
            n = self.counters.get(kind, 0)
            while True:
                n += 1
                want = f"{kind}{n}"
                if want not in self.used and want not in self.ids_map:
                    break
            self.counters[kind] = n
        self.used.add(want)
        return want

    def walk(self, el: ET.Element, m: Matrix, inherited: dict[str, str], depth: int = 0, use_depth: int = 0) -> None:
        self.visits += 1
        if self.visits > MAX_VISITS:
            raise InputError(f"the SVG expands to more than {MAX_VISITS} elements (nested <use> copies); "
                             "refusing to import it", file=self.file)
        if depth > MAX_TREE_DEPTH:
            if not self.too_deep:
                self.too_deep = True
                self.report.skipped.append(f"elements nested deeper than {MAX_TREE_DEPTH} levels")
            return
        tag = local_name(el.tag)
        if tag in NOT_DRAWN:
            return
        style = effective_style(el, inherited)
        if style.get("display") == "none" or own_style(el).get("display") == "none":
            return
        m = multiply(m, parse_transform(el.get("transform")))
        if tag in ("g", "a", "switch", "svg") or tag == "":
            if tag == "svg" and el is not self.root:
                m = multiply(m, (1, 0, 0, 1, length(el.get("x"), 0), length(el.get("y"), 0)))
            for child in el:
                self.walk(child, m, style, depth + 1, use_depth)
        elif tag == "use":
            href = (el.get(f"{{{XLINK_NS}}}href") or el.get("href") or "").strip()
            target = self.ids_map.get(href[1:]) if href.startswith("#") else None
            if target is None or use_depth >= MAX_USE_DEPTH:
                if href:
                    self.report.skipped.append(f"<use> of '{shorten(href)}' (not found or nested too deep)")
                return
            m2 = multiply(m, (1, 0, 0, 1, length(el.get("x"), 0), length(el.get("y"), 0)))
            if local_name(target.tag) == "symbol":
                for child in target:
                    self.walk(child, m2, style, depth + 1, use_depth + 1)
            else:
                self.walk(target, m2, style, depth + 1, use_depth + 1)
        elif tag in SHAPE_TAGS:
            self.add_path(el, m, style)
        elif tag == "text":
            self.add_text(el, m, style)
        elif tag == "image":
            self.add_image(el, m)
        if len(self.comps) > MAX_IMPORTED_COMPONENTS:
            raise InputError(f"the SVG draws more than {MAX_IMPORTED_COMPONENTS} shapes; simplify it first",
                             file=self.file)

    def paint(self, style: dict[str, str], key: str, default: str | None) -> str | None:
        raw = style.get(key, default)
        col = css_color(raw, self.ids_map, style.get("color"))
        if col is None:
            col = css_color(default) if raw != default else None
        if col is None or col == "none":
            return col
        opacity = number(style.get(f"{key}-opacity"), 1.0) * number(style.get("_opacity"), 1.0)
        if opacity < 0.999:
            col += f"{max(0, min(255, round(opacity * 255))):02X}"
        return col

    def add_path(self, el: ET.Element, m: Matrix, style: dict[str, str]) -> None:
        if style.get("visibility") == "hidden":
            return
        segs = transform_path(shape_segments(el), m)
        if not segs:
            return
        fill = self.paint(style, "fill", "black")
        stroke = self.paint(style, "stroke", "none")
        if (fill in (None, "none")) and (stroke in (None, "none")):
            return  # draws nothing (e.g. an invisible hit area)
        if local_name(el.tag) in ("line",):
            fill = "none"
        width = length(style.get("stroke-width"), 1.0) * scale_of(m)
        data: dict[str, Any] = {"id": self.new_id(el, "path"), "kind": "path", "d": path_to_d(segs),
                                "fill": fill or "none", "stroke": stroke or "none"}
        if stroke not in (None, "none"):
            data["stroke_width"] = round(max(width, 0.0), 3)
        self.comps.append(data)

    def add_text(self, el: ET.Element, m: Matrix, style: dict[str, str]) -> None:
        lines = text_lines(el)
        if not any(s.strip() for s in lines):
            return
        fs = length(style.get("font-size"), 16.0)
        # a tspan's own size (common in Inkscape files) wins over the text element's
        for child in el.iter():
            if local_name(child.tag) == "tspan" and own_style(child).get("font-size"):
                fs = length(own_style(child)["font-size"], fs)
                break
        weight = style.get("font-weight", "normal")
        bold = weight in ("bold", "bolder") or (weight.isdigit() and int(weight) >= 600)
        italic = style.get("font-style", "normal") in ("italic", "oblique")
        x, y = text_anchor_point(el)
        lh = fs * get_theme("paper").line_height
        width = max(text_width(s, fs, bold=bold, italic=italic) for s in lines)
        anchor = style.get("text-anchor", "start")
        cx = x + width / 2 if anchor == "start" else x - width / 2 if anchor == "end" else x
        cy = y + (len(lines) - 1) * lh / 2 - BASELINE_SHIFT * fs
        ax, ay = apply(m, (cx, cy))
        scale = scale_of(m)
        data: dict[str, Any] = {"id": self.new_id(el, "text"), "kind": "text", "text": "\n".join(lines),
                                "at": {"x": ax, "y": ay}, "font_size": round(max(fs * scale, 0.5), 3),
                                "pinned": True}
        color = self.paint(style, "fill", "black")
        if color and color != "none":
            data["color"] = color
        if bold:
            data["bold"] = True
        if italic:
            data["italic"] = True
        rot = rotation_of(m)
        if abs(rot) > 0.5:
            data["rotate"] = round(rot, 2)
        self.comps.append(data)

    def add_image(self, el: ET.Element, m: Matrix) -> None:
        href = (el.get(f"{{{XLINK_NS}}}href") or el.get("href") or "").strip()
        match = INLINE_RASTER.match(href)
        if not match:
            if href:
                self.report.skipped.append(f"<image> that is not an inline PNG/JPEG/WebP/GIF ({shorten(href)})")
            return
        kind = "jpeg" if match.group(1) == "jpg" else match.group(1)
        x, y = length(el.get("x"), 0), length(el.get("y"), 0)
        w, h = length(el.get("width"), 0), length(el.get("height"), 0)
        if w <= 0 or h <= 0:
            return
        corners = [apply(m, p) for p in ((x, y), (x + w, y), (x, y + h), (x + w, y + h))]
        xs, ys = [p[0] for p in corners], [p[1] for p in corners]
        box = {"x": min(xs), "y": min(ys), "w": max(xs) - min(xs), "h": max(ys) - min(ys)}
        self.comps.append({"id": self.new_id(el, "image"), "kind": "image", "box": box, "pinned": True,
                           "href": f"data:image/{kind};base64,{''.join(match.group(2).split())}"})


def _root_frame(root: ET.Element) -> tuple[Matrix, Size | None]:
    """The root's user space → figure coordinates (viewBox origin at 0,0), and the canvas size."""
    vb = [number(v) for v in re.split(r"[\s,]+", (root.get("viewBox") or "").strip()) if v]
    if len(vb) == 4 and vb[2] > 0 and vb[3] > 0:
        return (1, 0, 0, 1, -vb[0], -vb[1]), Size(w=vb[2], h=vb[3])
    w, h = length(root.get("width"), 0), length(root.get("height"), 0)
    return IDENTITY, (Size(w=w, h=h) if w > 0 and h > 0 else None)


def foreign_figure(root: ET.Element, *, report: ImportReport | None = None, file: str | None = None) -> Figure:
    """A sanitised non-Crafter SVG as a figure of path, text and image components."""
    report = report if report is not None else ImportReport()
    imp = ForeignImporter(root, report, file)
    m, canvas = _root_frame(root)
    imp.walk(root, m, {})
    _drop_page_background(imp.comps, canvas, report)
    if not imp.comps:
        raise InputError("the SVG draws nothing Crafter can import (no shapes, text or inline images)", file=file)
    title = next((" ".join(el.text.split()) for el in root if local_name(el.tag) == "title" and el.text), None)
    data: dict[str, Any] = {"components": imp.comps}
    if title:
        data["title"] = title
    if canvas is not None:
        data["canvas"] = canvas.model_dump()
    return figure_from_data(data, file=file)


def _drop_page_background(comps: list[dict[str, Any]], canvas: Size | None, report: ImportReport) -> None:
    """A filled rectangle under everything that covers the whole page is the page, not a shape
    (matplotlib and most editors write one); the figure has its own background."""
    if canvas is None or not comps or comps[0]["kind"] != "path" or comps[0].get("fill") in (None, "none"):
        return
    bb = path_bbox(parse_path(comps[0]["d"]))
    if bb is None:
        return
    if bb[0] <= 0.5 and bb[1] <= 0.5 and bb[2] >= canvas.w - 0.5 and bb[3] >= canvas.h - 0.5 \
            and len(parse_path(comps[0]["d"])) <= 6:
        report.skipped.append(f"the page background rectangle ({comps[0]['fill']})")
        del comps[0]
