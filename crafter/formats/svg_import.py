"""SVG coming back: Crafter SVGs edited elsewhere (merge-back), and foreign SVGs (sanitised import).

:func:`import_svg` reads any SVG and returns a FigureSpec:

1. **A Crafter SVG** carries its figure in ``<metadata>``. The figure is drawn again
   with the renderer, and the file is compared with that drawing component by
   component (each is one ``<g id=… data-crafter-kind=…>``). What a person changed in
   Inkscape or Illustrator is merged into the figure: a label retyped (``<text>`` with
   Inkscape's ``sodipodi:role="line"`` tspans), a fill or stroke recoloured (attribute
   or ``style``), a box moved or resized (``x``/``y``/``width`` or a ``transform`` on
   the group or any ancestor, e.g. an Inkscape layer) — the box is then pinned so the
   layout keeps it, and the edges follow — a component deleted (with the edges that
   hung on it), the title retyped, and shapes or text drawn in addition (imported as
   new components). An unedited file gives back exactly the embedded figure.
2. **Any other SVG** is sanitised and imported as ``path``, ``text`` and ``image``
   components in figure coordinates (transforms applied, ``<use>`` of internal
   definitions expanded, gradients reduced to their first colour).

Sanitising (:func:`sanitize_tree`, also usable on its own through
:func:`sanitize_svg`) removes scripts, event-handler attributes, ``foreignObject``,
animation elements, every reference that is not internal (``#id``) or an inline raster
``data:`` image, and ``javascript:``/``url(http…)`` in styles. Before parsing, a
``DOCTYPE`` and its entity declarations are cut out and undeclared entity references
dropped, so entity-expansion attacks (billion laughs) cost nothing; parsing then goes
through ``defusedxml`` with DTDs forbidden. Everything removed is listed in the
:class:`ImportReport`.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path as FsPath
from typing import Any, Iterator
from xml.etree import ElementTree as ET

from crafter.base.svgpath import (
    IDENTITY,
    Matrix,
    Segment,
    apply,
    ellipse_path,
    multiply,
    parse_path,
    parse_transform,
    path_bbox,
    path_to_d,
    points_path,
    rect_path,
    rotation_of,
    scale_of,
    transform_path,
)
from crafter.base.text import text_width
from crafter.base.theme import figure_theme, get_theme
from crafter.errors import InputError
from crafter.formats.merge import merge_lines, remove_components, reroute
from crafter.formats.svg import read_embedded_figure
from crafter.render.svg import BASELINE_SHIFT, draw_svg
from crafter.spec.colors import is_color, to_rgb
from crafter.spec.model import ID_PATTERN, Box, Figure, Size, figure_from_data, parents

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
SODIPODI_NS = "http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd"
INKSCAPE_NS = "http://www.inkscape.org/namespaces/inkscape"
MAX_SVG_BYTES = 200 * 1024 * 1024
MAX_IMPORTED_COMPONENTS = 50_000
MAX_USE_DEPTH = 8
MAX_VISITS = 500_000  # elements walked, <use> copies included: caps "use bombs" that fan out exponentially
MAX_TREE_DEPTH = 200
GEOMETRY_TOLERANCE = 0.5  # px; the SVG writer rounds coordinates to 0.01
SHAPE_TAGS = ("rect", "circle", "ellipse", "line", "polyline", "polygon", "path")
# Elements that draw nothing themselves, or whose content is never figure content.
NOT_DRAWN = ("defs", "symbol", "clipPath", "mask", "marker", "pattern", "linearGradient", "radialGradient",
             "filter", "metadata", "title", "desc", "style", "script", "foreignObject", "namedview", "cursor",
             "font", "font-face", "glyph", "missing-glyph", "view")
DANGEROUS_ELEMENTS = ("script", "foreignObject", "iframe", "embed", "object", "applet", "handler", "listener",
                      "animate", "set", "animateMotion", "animateTransform", "animateColor", "discard")
INHERITED = ("fill", "stroke", "stroke-width", "font-size", "font-weight", "font-style", "fill-opacity",
             "stroke-opacity", "text-anchor", "visibility", "color", "font-family")
_DATA_IMAGE = re.compile(r"^\s*data:image/(png|jpeg|jpg|webp|gif);base64,([A-Za-z0-9+/=\s]*)$")


@dataclass
class ImportReport:
    """What an import did: edits merged into a Crafter figure, things removed or skipped."""

    crafter: bool = False  # the SVG carried a Crafter figure
    merged: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)  # unsafe content taken out
    skipped: list[str] = field(default_factory=list)  # content that has no FigureSpec form

    def lines(self) -> list[str]:
        return ([f"merged: {m}" for m in self.merged] + [f"removed: {r}" for r in self.removed]
                + [f"skipped: {s}" for s in self.skipped])


# =================================================================================
# Entry points
# =================================================================================


def import_svg(source: str | bytes | FsPath, *, report: ImportReport | None = None) -> Figure:
    """Any SVG (a path, or the SVG text) → FigureSpec; see the module docstring."""
    report = report if report is not None else ImportReport()
    data, file = _read(source)
    root = safe_xml_root(data, file=file, what="SVG", report=report)
    if _local(root.tag) != "svg":
        raise InputError(f"not an SVG file: the root element is <{_local(root.tag)}>, not <svg>", file=file)
    fig = read_embedded_figure(root, file=file)
    sanitize_tree(root, report)
    if fig is not None:
        report.crafter = True
        return merge_svg_edits(root, fig, report=report, file=file)
    return foreign_figure(root, report=report, file=file)


def sanitize_svg(source: str | bytes | FsPath) -> tuple[str, ImportReport]:
    """The SVG with everything unsafe removed (as text), and the report of what went."""
    report = ImportReport()
    data, file = _read(source)
    root = safe_xml_root(data, file=file, what="SVG", report=report)
    sanitize_tree(root, report)
    ET.register_namespace("", SVG_NS)
    ET.register_namespace("xlink", XLINK_NS)
    return ET.tostring(root, encoding="unicode"), report


def _read(source: str | bytes | FsPath) -> tuple[bytes, str | None]:
    if isinstance(source, FsPath) or (isinstance(source, str) and not source.lstrip().startswith("<")):
        p = FsPath(source)
        if not p.exists():
            raise InputError("no such file", file=str(p))
        if p.stat().st_size > MAX_SVG_BYTES:
            raise InputError(f"SVG is {p.stat().st_size // 2**20} MB; the limit is {MAX_SVG_BYTES // 2**20} MB",
                             file=str(p))
        return p.read_bytes(), str(p)
    data = source.encode("utf-8") if isinstance(source, str) else source
    if len(data) > MAX_SVG_BYTES:
        raise InputError(f"SVG is {len(data) // 2**20} MB; the limit is {MAX_SVG_BYTES // 2**20} MB")
    return data, None


# =================================================================================
# Safe parsing
# =================================================================================

_BUILTIN_ENTITIES = {"amp", "lt", "gt", "quot", "apos"}
_ENTITY_REF = re.compile(rb"&([A-Za-z_:][A-Za-z0-9_.:-]*);")


def safe_xml_root(data: bytes, *, file: str | None = None, what: str = "XML",
                  report: ImportReport | None = None) -> ET.Element:
    """Parse untrusted XML: DOCTYPE (and its entities) cut out, undeclared entities dropped, defusedxml."""
    from defusedxml import ElementTree as SafeET
    from defusedxml.common import DefusedXmlException

    data, doctype = strip_doctype(data)
    if doctype and report is not None:
        n = len(re.findall(rb"<!ENTITY", doctype))
        report.removed.append(f"DOCTYPE declaration ({n} entity definition{'s' if n != 1 else ''}, not expanded)")
    dropped = [m.group(1).decode("ascii", "replace") for m in _ENTITY_REF.finditer(data)
               if m.group(1).decode("ascii", "replace") not in _BUILTIN_ENTITIES]
    if dropped:
        data = _ENTITY_REF.sub(lambda m: m.group(0) if m.group(1).decode("ascii", "replace") in _BUILTIN_ENTITIES
                               else b"", data)
        if report is not None:
            report.removed.append(f"{len(dropped)} entity reference(s) ({', '.join(sorted(set(dropped))[:5])})")
    try:
        return SafeET.fromstring(data, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except DefusedXmlException as e:
        raise InputError(f"refusing unsafe XML in the {what} ({type(e).__name__})", file=file) from None
    except ET.ParseError as e:
        raise InputError(f"not a well-formed {what}: {e}", file=file) from None


def strip_doctype(data: bytes) -> tuple[bytes, bytes]:
    """Cut ``<!DOCTYPE …>`` (internal subset, quotes and comments included) out of the prolog."""
    start = data.find(b"<!DOCTYPE")
    if start < 0:
        return data, b""
    first_element = re.search(rb"<[A-Za-z_]", data)
    if first_element is not None and first_element.start() < start:
        return data, b""  # a "<!DOCTYPE" after the root element starts is text or CDATA, not a declaration
    i, depth, quote, n = start + 9, 0, 0, len(data)
    while i < n:
        ch = data[i]
        if quote:
            if ch == quote:
                quote = 0
        elif data.startswith(b"<!--", i):
            end = data.find(b"-->", i + 4)
            i = n if end < 0 else end + 3
            continue
        elif ch in (0x22, 0x27):  # " or '
            quote = ch
        elif ch == 0x5B:  # [
            depth += 1
        elif ch == 0x5D:  # ]
            depth = max(depth - 1, 0)
        elif ch == 0x3E and depth == 0:  # >
            return data[:start] + data[i + 1:], data[start:i + 1]
        i += 1
    return data[:start], data[start:]


def sanitize_tree(root: ET.Element, report: ImportReport) -> None:
    """Remove scripts, handlers, foreignObject, animations and external references, in place."""
    ids = {el.get("id") for el in root.iter() if el.get("id")}
    stack: list[tuple[ET.Element, int]] = [(root, 0)]
    while stack:
        el, depth = stack.pop()
        if depth > MAX_TREE_DEPTH:
            for child in list(el):
                el.remove(child)
            report.removed.append(f"elements nested deeper than {MAX_TREE_DEPTH} levels")
            continue
        for child in list(el):
            tag = _local(child.tag) if isinstance(child.tag, str) else ""
            if not isinstance(child.tag, str) or tag in DANGEROUS_ELEMENTS:
                el.remove(child)
                if tag:
                    report.removed.append(f"<{tag}> element")
                continue
            stack.append((child, depth + 1))
        for name in list(el.attrib):
            local = _local(name).lower()
            value = el.attrib[name]
            if local.startswith("on"):
                del el.attrib[name]
                report.removed.append(f"{_local(name)} handler on <{_local(el.tag)}>")
            elif local == "href" or local == "src":
                if not _internal_or_inline(value, ids):
                    del el.attrib[name]
                    report.removed.append(f"external reference on <{_local(el.tag)}> ({_short(value)})")
            elif local == "style" or local in ("fill", "stroke", "filter", "clip-path", "mask", "cursor",
                                               "marker-start", "marker-mid", "marker-end"):
                clean = _clean_declarations(value) if local == "style" else _clean_css(value, ids)
                if local != "style" and clean != value:
                    clean = ""  # a paint that pointed outside: fall back to the inherited one
                if clean != value:
                    report.removed.append(f"external or script reference in {_local(name)} on <{_local(el.tag)}>")
                    if clean:
                        el.attrib[name] = clean
                    else:
                        del el.attrib[name]
        if _local(el.tag) == "style" and el.text:
            clean = _clean_css(el.text, ids)
            if clean != el.text:
                report.removed.append("external or script reference in a <style> sheet")
                el.text = clean


def _internal_or_inline(value: str, ids: set[str | None]) -> bool:
    v = value.strip()
    if v.startswith("#"):
        return True
    return bool(_DATA_IMAGE.match(v))


_CSS_URL = re.compile(r"url\(\s*(['\"]?)(.*?)\1\s*\)", re.I | re.S)


def _clean_css(text: str, ids: set[str | None]) -> str:
    """CSS with external ``url(…)``, ``@import``, ``expression()`` and ``javascript:`` removed."""
    out = re.sub(r"@import[^;]*;?", "", text, flags=re.I)
    out = re.sub(r"expression\s*\([^)]*\)", "none", out, flags=re.I)
    out = re.sub(r"javascript:[^;\"')]*", "", out, flags=re.I)
    out = re.sub(r"-moz-binding\s*:[^;]*;?", "", out, flags=re.I)

    def url(m: re.Match[str]) -> str:
        target = m.group(2).strip()
        return m.group(0) if target.startswith("#") or _DATA_IMAGE.match(target) else "none"

    return _CSS_URL.sub(url, out)


def _clean_declarations(style: str) -> str:
    """A style attribute without the declarations that reach outside or run script."""
    kept = []
    for decl in style.split(";"):
        if decl.strip() and _clean_css(decl, set()) == decl:
            kept.append(decl.strip())
    return ";".join(kept)


def _short(v: str) -> str:
    v = " ".join(v.split())
    return v if len(v) <= 60 else v[:57] + "..."


# =================================================================================
# Styles and elements
# =================================================================================


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def own_style(el: ET.Element) -> dict[str, str]:
    """Presentation attributes overridden by the ``style`` attribute (CSS sheets are not applied)."""
    out: dict[str, str] = {}
    for name, value in el.attrib.items():
        if "}" not in name and name in INHERITED + ("opacity", "display"):
            out[name] = value.strip()
    for decl in (el.get("style") or "").split(";"):
        k, sep, v = decl.partition(":")
        if sep:
            out[k.strip().lower()] = v.strip().replace("!important", "").strip()
    return out


def effective_style(el: ET.Element, inherited: dict[str, str]) -> dict[str, str]:
    mine = own_style(el)
    style = {k: v for k, v in inherited.items() if k in INHERITED}
    for k, v in mine.items():
        if v != "inherit":
            style[k] = v
    # opacity is not inherited, but a group's opacity fades everything in it
    op = _float(mine.get("opacity"), 1.0) * _float(inherited.get("_opacity"), 1.0)
    style["_opacity"] = str(op)
    return style


def _float(v: Any, default: float = 0.0) -> float:
    if v is None:
        return default
    m = re.match(r"\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)", str(v))
    if not m:
        return default
    f = float(m.group(1))
    return f if math.isfinite(f) else default


def _length(v: str | None, default: float, font_size: float = 12.0) -> float:
    """An SVG length in px (px, pt, pc, mm, cm, in, em; % taken of the font size)."""
    if v is None:
        return default
    m = re.match(r"\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*([a-z%]*)", v)
    if not m:
        return default
    n = float(m.group(1))
    unit = m.group(2)
    factor = {"": 1, "px": 1, "pt": 96 / 72, "pc": 16, "mm": 96 / 25.4, "cm": 96 / 2.54, "in": 96,
              "em": font_size, "ex": font_size / 2, "%": font_size / 100}.get(unit, 1)
    out = n * factor
    return out if math.isfinite(out) else default


_RGB = re.compile(r"rgba?\(\s*([^)]*)\)", re.I)


def css_color(value: str | None, root_ids: dict[str, ET.Element] | None = None,
              current: str | None = None) -> str | None:
    """A CSS colour as '#RRGGBB' or 'none'; None when it is not a colour (or unknown)."""
    if value is None:
        return None
    v = value.strip()
    low = v.lower()
    if low in ("none", "transparent"):
        return "none"
    if low == "currentcolor":
        return css_color(current) if current else "#000000"
    if low.startswith("url("):
        m = re.match(r"url\(\s*['\"]?#([^'\")]+)", v)
        if m and root_ids is not None and m.group(1) in root_ids:
            return _gradient_color(root_ids[m.group(1)], root_ids)
        fallback = v[v.find(")") + 1:].strip()
        return css_color(fallback) if fallback else None
    m = _RGB.match(v)
    if m:
        parts = [p.strip() for p in re.split(r"[,\s/]+", m.group(1)) if p.strip()]
        if len(parts) < 3:
            return None
        vals = []
        for p in parts[:3]:
            f = _float(p)
            vals.append(round(f * 2.55) if p.endswith("%") else round(f))
        r, g, b = (min(max(x, 0), 255) for x in vals)
        return f"#{r:02X}{g:02X}{b:02X}"
    if re.fullmatch(r"#[0-9a-fA-F]{3}", v):
        return "#" + "".join(ch * 2 for ch in v[1:]).upper()
    if re.fullmatch(r"#[0-9a-fA-F]{6}", v):
        return v.upper()
    if re.fullmatch(r"#[0-9a-fA-F]{8}", v):
        return v[:7].upper()
    if is_color(low):
        r, g, b = to_rgb(low)
        return f"#{round(r * 255):02X}{round(g * 255):02X}{round(b * 255):02X}"
    return None


def _gradient_color(grad: ET.Element, ids: dict[str, ET.Element], depth: int = 0) -> str | None:
    """A gradient stands for its first stop's colour (gradients have no FigureSpec form)."""
    for stop in grad:
        if _local(stop.tag) == "stop":
            st = own_style(stop)
            col = stop.get("stop-color") or st.get("stop-color")
            for decl in (stop.get("style") or "").split(";"):
                k, _, v = decl.partition(":")
                if k.strip() == "stop-color":
                    col = v.strip()
            return css_color(col or "black")
    href = grad.get(f"{{{XLINK_NS}}}href") or grad.get("href") or ""
    if href.startswith("#") and href[1:] in ids and depth < 4:
        return _gradient_color(ids[href[1:]], ids, depth + 1)
    return None


def shape_segments(el: ET.Element) -> list[Segment]:
    """A basic shape or path element as path segments, in its own coordinates."""
    tag = _local(el.tag)
    g = el.get
    if tag == "path":
        return parse_path(g("d") or "")
    if tag == "rect":
        w, h = _length(g("width"), 0), _length(g("height"), 0)
        if w <= 0 or h <= 0:
            return []
        rx, ry = _length(g("rx"), -1), _length(g("ry"), -1)
        if rx < 0 and ry >= 0:
            rx = ry
        if ry < 0 and rx >= 0:
            ry = rx
        return rect_path(_length(g("x"), 0), _length(g("y"), 0), w, h, max(rx, 0), max(ry, 0))
    if tag == "circle":
        r = _length(g("r"), 0)
        return ellipse_path(_length(g("cx"), 0), _length(g("cy"), 0), r, r) if r > 0 else []
    if tag == "ellipse":
        rx, ry = _length(g("rx"), 0), _length(g("ry"), 0)
        return ellipse_path(_length(g("cx"), 0), _length(g("cy"), 0), rx, ry) if rx > 0 and ry > 0 else []
    if tag == "line":
        return [Segment("M", ((_length(g("x1"), 0), _length(g("y1"), 0)),)),
                Segment("L", ((_length(g("x2"), 0), _length(g("y2"), 0)),))]
    if tag in ("polyline", "polygon"):
        return points_path(g("points") or "", closed=tag == "polygon")
    return []


def text_lines(el: ET.Element) -> list[str]:
    """The lines of a ``<text>``: a new line at each tspan with its own ``y`` or Inkscape's role="line"."""
    preserve = el.get("{http://www.w3.org/XML/1998/namespace}space") == "preserve"

    def norm(s: str) -> str:
        return s.replace("\n", " ").replace("\t", " ") if preserve else " ".join(s.split())

    lines: list[str] = []
    current: str | None = None
    if el.text and el.text.strip():
        current = el.text
    for child in el:
        if _local(child.tag) in ("tspan", "textPath", "a"):
            content = "".join(child.itertext())
            starts = (child.get(f"{{{SODIPODI_NS}}}role") == "line" or child.get("y") is not None)
            if starts:
                if current is not None:
                    lines.append(current)
                current = content
            else:
                current = (current or "") + content
        if child.tail and child.tail.strip():
            current = (current or "") + child.tail
    if current is not None:
        lines.append(current)
    lines = [norm(s) for s in lines]
    if not preserve:
        lines = [s.strip() for s in lines]
    return lines


def text_anchor_point(el: ET.Element) -> tuple[float, float]:
    """(x, y) of the first line's baseline start, in the element's coordinates."""
    x, y = el.get("x"), el.get("y")
    for child in el:
        if _local(child.tag) == "tspan":
            x = x if x is not None else child.get("x")
            y = y if y is not None else child.get("y")
            if x is None:
                x = child.get("x")
            if y is None:
                y = child.get("y")
            break
    return _first_number(x), _first_number(y)


def _first_number(v: str | None) -> float:
    if not v:
        return 0.0
    return _float(v.replace(",", " ").split()[0] if v.split() else v)


# =================================================================================
# Foreign SVG → components
# =================================================================================


class _ForeignImporter:
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
        tag = _local(el.tag)
        if tag in NOT_DRAWN:
            return
        style = effective_style(el, inherited)
        if style.get("display") == "none" or own_style(el).get("display") == "none":
            return
        m = multiply(m, parse_transform(el.get("transform")))
        if tag in ("g", "a", "switch", "svg") or tag == "":
            if tag == "svg" and el is not self.root:
                m = multiply(m, (1, 0, 0, 1, _length(el.get("x"), 0), _length(el.get("y"), 0)))
            for child in el:
                self.walk(child, m, style, depth + 1, use_depth)
        elif tag == "use":
            href = (el.get(f"{{{XLINK_NS}}}href") or el.get("href") or "").strip()
            target = self.ids_map.get(href[1:]) if href.startswith("#") else None
            if target is None or use_depth >= MAX_USE_DEPTH:
                if href:
                    self.report.skipped.append(f"<use> of '{_short(href)}' (not found or nested too deep)")
                return
            m2 = multiply(m, (1, 0, 0, 1, _length(el.get("x"), 0), _length(el.get("y"), 0)))
            if _local(target.tag) == "symbol":
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
        opacity = _float(style.get(f"{key}-opacity"), 1.0) * _float(style.get("_opacity"), 1.0)
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
        if _local(el.tag) in ("line",):
            fill = "none"
        width = _length(style.get("stroke-width"), 1.0) * scale_of(m)
        data: dict[str, Any] = {"id": self.new_id(el, "path"), "kind": "path", "d": path_to_d(segs),
                                "fill": fill or "none", "stroke": stroke or "none"}
        if stroke not in (None, "none"):
            data["stroke_width"] = round(max(width, 0.0), 3)
        self.comps.append(data)

    def add_text(self, el: ET.Element, m: Matrix, style: dict[str, str]) -> None:
        lines = text_lines(el)
        if not any(s.strip() for s in lines):
            return
        fs = _length(style.get("font-size"), 16.0)
        # a tspan's own size (common in Inkscape files) wins over the text element's
        for child in el.iter():
            if _local(child.tag) == "tspan" and own_style(child).get("font-size"):
                fs = _length(own_style(child)["font-size"], fs)
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
        match = _DATA_IMAGE.match(href)
        if not match:
            if href:
                self.report.skipped.append(f"<image> that is not an inline PNG/JPEG/WebP/GIF ({_short(href)})")
            return
        kind = "jpeg" if match.group(1) == "jpg" else match.group(1)
        x, y = _length(el.get("x"), 0), _length(el.get("y"), 0)
        w, h = _length(el.get("width"), 0), _length(el.get("height"), 0)
        if w <= 0 or h <= 0:
            return
        corners = [apply(m, p) for p in ((x, y), (x + w, y), (x, y + h), (x + w, y + h))]
        xs, ys = [p[0] for p in corners], [p[1] for p in corners]
        box = {"x": min(xs), "y": min(ys), "w": max(xs) - min(xs), "h": max(ys) - min(ys)}
        self.comps.append({"id": self.new_id(el, "image"), "kind": "image", "box": box, "pinned": True,
                           "href": f"data:image/{kind};base64,{''.join(match.group(2).split())}"})


def _root_frame(root: ET.Element) -> tuple[Matrix, Size | None]:
    """The root's user space → figure coordinates (viewBox origin at 0,0), and the canvas size."""
    vb = [_float(v) for v in re.split(r"[\s,]+", (root.get("viewBox") or "").strip()) if v]
    if len(vb) == 4 and vb[2] > 0 and vb[3] > 0:
        return (1, 0, 0, 1, -vb[0], -vb[1]), Size(w=vb[2], h=vb[3])
    w, h = _length(root.get("width"), 0), _length(root.get("height"), 0)
    return IDENTITY, (Size(w=w, h=h) if w > 0 and h > 0 else None)


def foreign_figure(root: ET.Element, *, report: ImportReport | None = None, file: str | None = None) -> Figure:
    """A sanitised non-Crafter SVG as a figure of path, text and image components."""
    report = report if report is not None else ImportReport()
    imp = _ForeignImporter(root, report, file)
    m, canvas = _root_frame(root)
    imp.walk(root, m, {})
    _drop_page_background(imp.comps, canvas, report)
    if not imp.comps:
        raise InputError("the SVG draws nothing Crafter can import (no shapes, text or inline images)", file=file)
    title = next((" ".join(el.text.split()) for el in root if _local(el.tag) == "title" and el.text), None)
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


# =================================================================================
# Merge-back of an edited Crafter SVG
# =================================================================================


@dataclass
class _Move:
    """A component the editor moved: drawn extent before and after (x0, y0, x1, y1), or a plain shift."""

    before: tuple[float, float, float, float] | None = None
    after: tuple[float, float, float, float] | None = None
    shift: tuple[float, float] | None = None  # for text, which has no drawn extent to compare

    def offset(self) -> tuple[float, float]:
        if self.shift is not None:
            return self.shift
        assert self.before is not None and self.after is not None
        return self.after[0] - self.before[0], self.after[1] - self.before[1]

    def resized(self) -> bool:
        if self.before is None or self.after is None:
            return False
        b, a = self.before, self.after
        return (abs((a[2] - a[0]) - (b[2] - b[0])) > GEOMETRY_TOLERANCE
                or abs((a[3] - a[1]) - (b[3] - b[1])) > GEOMETRY_TOLERANCE)


@dataclass
class _Drawn:
    """One component's ``<g>`` as drawn: its shapes and texts with their transforms and styles."""

    shapes: list[tuple[ET.Element, Matrix, dict[str, str]]] = field(default_factory=list)
    texts: list[tuple[ET.Element, Matrix, dict[str, str]]] = field(default_factory=list)
    images: list[tuple[ET.Element, Matrix]] = field(default_factory=list)

    def bbox(self) -> tuple[float, float, float, float] | None:
        boxes = []
        for el, m, _ in self.shapes:
            bb = path_bbox(transform_path(shape_segments(el), m))
            if bb is not None:
                boxes.append(bb)
        for el, m in self.images:
            x, y = _length(el.get("x"), 0), _length(el.get("y"), 0)
            w, h = _length(el.get("width"), 0), _length(el.get("height"), 0)
            pts = [apply(m, p) for p in ((x, y), (x + w, y), (x, y + h), (x + w, y + h))]
            boxes.append((min(p[0] for p in pts), min(p[1] for p in pts), max(p[0] for p in pts),
                          max(p[1] for p in pts)))
        if not boxes:
            return None
        return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))

    def text_anchor(self) -> tuple[float, float] | None:
        if not self.texts:
            return None
        el, m, _ = self.texts[0]
        return apply(m, text_anchor_point(el))


def _collect(g: ET.Element, m: Matrix, style: dict[str, str]) -> _Drawn:
    out = _Drawn()

    def walk(el: ET.Element, m: Matrix, style: dict[str, str], depth: int) -> None:
        for child in el:
            tag = _local(child.tag)
            if tag in NOT_DRAWN or child.get("data-crafter-kind") or depth > MAX_TREE_DEPTH:
                continue
            cstyle = effective_style(child, style)
            cm = multiply(m, parse_transform(child.get("transform")))
            if tag in SHAPE_TAGS:
                out.shapes.append((child, cm, cstyle))
            elif tag == "text":
                out.texts.append((child, cm, cstyle))
            elif tag == "image":
                out.images.append((child, cm))
            elif tag in ("g", "a", "switch"):
                walk(child, cm, cstyle, depth + 1)

    walk(g, m, style, 0)
    return out


def _component_groups(root: ET.Element) -> dict[str, tuple[ET.Element, Matrix, dict[str, str]]]:
    """Every ``<g data-crafter-kind>`` anywhere (an editor may have moved it into a layer), with the
    transform and inherited style of everything above it, its own transform included."""
    found: dict[str, tuple[ET.Element, Matrix, dict[str, str]]] = {}
    stack: list[tuple[ET.Element, Matrix, dict[str, str], int]] = [(root, IDENTITY, {}, 0)]
    while stack:
        el, m, style, depth = stack.pop()
        for child in el:
            if _local(child.tag) in NOT_DRAWN or depth > MAX_TREE_DEPTH:
                continue
            cm = multiply(m, parse_transform(child.get("transform")))
            cstyle = effective_style(child, style)
            if child.get("data-crafter-kind"):
                cid = child.get("data-crafter-id") or child.get("id")
                if cid and cid not in found:
                    found[cid] = (child, cm, cstyle)
            elif _local(child.tag) in ("g", "a", "switch", "svg"):
                stack.append((child, cm, cstyle, depth + 1))
    return found


def merge_svg_edits(root: ET.Element, fig: Figure, *, report: ImportReport | None = None,
                    file: str | None = None) -> Figure:
    """The embedded figure with the edits made to its drawing merged in (``fig`` itself if none)."""
    from defusedxml import ElementTree as SafeET

    report = report if report is not None else ImportReport()
    original = SafeET.fromstring(draw_svg(fig).encode("utf-8"))
    return _Merger(fig, original, root, report, file).run()


class _Merger:
    def __init__(self, fig: Figure, original: ET.Element, edited: ET.Element, report: ImportReport,
                 file: str | None) -> None:
        self.fig = fig
        self.theme = figure_theme(fig)
        self.report = report
        self.file = file
        self.original = original
        self.edited = edited
        self.orig_groups = _component_groups(original)
        self.edit_groups = _component_groups(edited)
        self.ids_map = {el.get("id"): el for el in edited.iter() if el.get("id")}
        self.data = {c.id: c.model_dump(mode="json", exclude_defaults=True) | {"id": c.id, "kind": c.kind}
                     for c in fig.components}
        self.changed = False
        self.moved: dict[str, _Move] = {}

    def note(self, text: str) -> None:
        self.changed = True
        self.report.merged.append(text)

    def run(self) -> Figure:
        removed: set[str] = set()
        for c in self.fig.components:
            if c.id not in self.orig_groups:
                continue  # the writer drew nothing for it (an edge without a route, an empty label)
            if c.id not in self.edit_groups:
                removed.add(c.id)
                self.note(f"{c.kind} '{c.id}' deleted")
                continue
            og, om, ostyle = self.orig_groups[c.id]
            eg, em, estyle = self.edit_groups[c.id]
            before, after = _collect(og, om, ostyle), _collect(eg, em, estyle)
            getattr(self, f"merge_{c.kind}")(self.data[c.id], before, after)
        self.undo_page_shift()
        self.follow_moves()
        self.merge_title()
        added = self.additions()
        if not self.changed:
            return self.fig
        comps = remove_components([self.data[c.id] for c in self.fig.components], removed) + added
        out = self.fig.to_dict()
        out["components"] = comps
        return figure_from_data(out, file=self.file)

    # -- per kind -------------------------------------------------------------------
    def merge_node(self, d: dict[str, Any], before: _Drawn, after: _Drawn) -> None:
        self.merge_field(d, "label", before, after, 0, default=d["id"])
        self.merge_paint(d, before, after, fill="fill", stroke="stroke")
        self.merge_text_color(d, before, after, "text_color")
        self.merge_box(d, before, after)

    def merge_group(self, d: dict[str, Any], before: _Drawn, after: _Drawn) -> None:
        self.merge_field(d, "label", before, after, 0, one_line=True)
        self.merge_paint(d, before, after, fill="fill", stroke="stroke")
        self.merge_text_color(d, before, after, "text_color")
        self.merge_box(d, before, after)

    def merge_panel(self, d: dict[str, Any], before: _Drawn, after: _Drawn) -> None:
        fields = []
        shown_label = d.get("label")
        if shown_label is None or shown_label:
            fields.append("label")
        if d.get("title"):
            fields.append("title")
        for i, f in enumerate(fields):
            self.merge_field(d, f, before, after, i, one_line=True)
        self.merge_box(d, before, after)

    def merge_edge(self, d: dict[str, Any], before: _Drawn, after: _Drawn) -> None:
        if d.get("label"):
            self.merge_field(d, "label", before, after, 0)
        self.merge_paint(d, before, after, stroke="color", only_first=True)

    def merge_field(self, d: dict[str, Any], field_name: str, before: _Drawn, after: _Drawn, index: int, *,
                   default: str = "", one_line: bool = False) -> None:
        if field_name == "text" and d["kind"] != "text":
            return
        if index >= len(before.texts):
            return
        old_lines = text_lines(before.texts[index][0])
        if len(after.texts) == len(before.texts):
            new_lines = text_lines(after.texts[index][0])
        elif not after.texts and len(before.texts) == 1:
            new_lines = [""]  # the text was deleted: an empty label
        else:
            self.report.skipped.append(f"{d['kind']} '{d['id']}': text elements added or removed; labels not merged")
            return
        if new_lines == old_lines:
            return
        old_value = d.get(field_name)
        old_value = default if old_value is None else old_value
        if one_line:
            new = " ".join(new_lines)
        else:
            new = merge_lines(old_value, old_lines, new_lines)
        if new == old_value:
            return
        d[field_name] = new
        self.note(f"{d['kind']} '{d['id']}': {field_name.replace('_', ' ')} changed to {new!r}")

    def merge_paint(self, d: dict[str, Any], before: _Drawn, after: _Drawn, *, fill: str | None = None,
                    stroke: str | None = None, only_first: bool = False) -> None:
        pairs = list(zip(before.shapes, after.shapes))
        if only_first:
            pairs = pairs[:1]
        for prop, field_name in (("fill", fill), ("stroke", stroke)):
            if field_name is None:
                continue
            for (_, _, bs), (_, _, as_) in pairs:
                old = css_color(bs.get(prop), None)
                new = css_color(as_.get(prop), self.ids_map, as_.get("color"))
                if new is not None and new != old:
                    d[field_name] = new
                    self.note(f"{d['kind']} '{d['id']}': {field_name.replace('_', ' ')} changed to {new}")
                    break

    def merge_text_color(self, d: dict[str, Any], before: _Drawn, after: _Drawn, field_name: str) -> None:
        if not before.texts or not after.texts:
            return
        old = css_color(before.texts[0][2].get("fill"))
        new = css_color(after.texts[0][2].get("fill"), self.ids_map, after.texts[0][2].get("color"))
        if new is not None and new != old:
            d[field_name] = new
            self.note(f"{d['kind']} '{d['id']}': {field_name.replace('_', ' ')} changed to {new}")

    def merge_box(self, d: dict[str, Any], before: _Drawn, after: _Drawn) -> None:
        """Map the drawn extent's change onto the box: moved and/or resized, then pinned."""
        ob, nb = before.bbox(), after.bbox()
        if ob is None or nb is None or d.get("box") is None:
            return
        if all(abs(a - b) <= GEOMETRY_TOLERANCE for a, b in zip(ob, nb)):
            return
        self.moved[d["id"]] = _Move(before=ob, after=nb)

    # 'text' components: their text, colour and position
    def merge_text(self, d: dict[str, Any], before: _Drawn, after: _Drawn) -> None:
        self.merge_field(d, "text", before, after, 0)
        self.merge_text_color(d, before, after, "color")
        a0, a1 = before.text_anchor(), after.text_anchor()
        if a0 is None or a1 is None:
            return
        dx, dy = a1[0] - a0[0], a1[1] - a0[1]
        if abs(dx) > GEOMETRY_TOLERANCE or abs(dy) > GEOMETRY_TOLERANCE:
            self.moved[d["id"]] = _Move(shift=(dx, dy))

    def merge_chart(self, d: dict[str, Any], before: _Drawn, after: _Drawn) -> None:
        self.merge_box(d, before, after)

    def merge_image(self, d: dict[str, Any], before: _Drawn, after: _Drawn) -> None:
        self.merge_box(d, before, after)

    def merge_path(self, d: dict[str, Any], before: _Drawn, after: _Drawn) -> None:
        self.merge_paint(d, before, after, fill="fill", stroke="stroke", only_first=True)
        if not before.shapes or not after.shapes:
            return
        (bel, bm, _), (ael, am, _) = before.shapes[0], after.shapes[0]
        old = path_to_d(transform_path(shape_segments(bel), bm))
        new = path_to_d(transform_path(shape_segments(ael), am))
        if new and new != old:
            d["d"] = new
            self.note(f"path '{d['id']}': outline changed")

    # -- moves ------------------------------------------------------------------------
    def undo_page_shift(self) -> None:
        """An editor that resizes the page shifts everything by one offset: that is no edit."""
        placed = [cid for cid, d in self.data.items()
                  if cid in self.edit_groups and (d.get("box") is not None or d["kind"] == "text")]
        if len(self.moved) < 2 or len(self.moved) != len(placed) or any(m.resized() for m in self.moved.values()):
            return
        offsets = {(round(m.offset()[0], 1), round(m.offset()[1], 1)) for m in self.moved.values()}
        if len(offsets) == 1:
            self.report.skipped.append("every component moved by the same offset (a page resize): positions kept")
            self.moved.clear()

    def follow_moves(self) -> None:
        """Apply moves to boxes (pinned), then let edges, annotations and group frames follow."""
        shifts: dict[str, tuple[float, float]] = {}
        resized: set[str] = set()
        for cid, mv in self.moved.items():
            d = self.data[cid]
            if mv.shift is not None:  # a text component
                dx, dy = mv.shift
                if d.get("box"):
                    b = d["box"]
                    d["box"] = {**b, "x": b["x"] + dx, "y": b["y"] + dy}
                elif d.get("at"):
                    d["at"] = {"x": d["at"]["x"] + dx, "y": d["at"]["y"] + dy}
                d["pinned"] = True
                shifts[cid] = (dx, dy)
                self.note(f"text '{cid}' moved by ({dx:.1f}, {dy:.1f})")
                continue
            assert mv.before is not None and mv.after is not None
            ob, nb = mv.before, mv.after
            ow, oh, nw, nh = ob[2] - ob[0], ob[3] - ob[1], nb[2] - nb[0], nb[3] - nb[1]
            sx = nw / ow if ow > 1e-6 else 1.0
            sy = nh / oh if oh > 1e-6 else 1.0
            b = d["box"]
            new = {"x": round(nb[0] + (b["x"] - ob[0]) * sx, 2), "y": round(nb[1] + (b["y"] - ob[1]) * sy, 2),
                   "w": round(max(b["w"] * sx, 0.0), 2), "h": round(max(b["h"] * sy, 0.0), 2)}
            d["box"] = new
            d["pinned"] = True
            if mv.resized():
                resized.add(cid)
                self.note(f"{d['kind']} '{cid}' moved/resized to {new['x']:.1f},{new['y']:.1f} "
                          f"{new['w']:.1f}×{new['h']:.1f}")
            else:
                self.note(f"{d['kind']} '{cid}' moved by ({new['x'] - b['x']:.1f}, {new['y'] - b['y']:.1f})")
            shifts[cid] = (new["x"] - b["x"], new["y"] - b["y"])
        if not shifts:
            return
        # annotations placed near a moved component move with it
        for d in self.data.values():
            if d["kind"] == "text" and d.get("near") in shifts and d["id"] not in shifts and d.get("box"):
                dx, dy = shifts[d["near"]]
                b = d["box"]
                d["box"] = {**b, "x": b["x"] + dx, "y": b["y"] + dy}
        # edges: carried along when both ends moved alike, re-routed otherwise
        for d in self.data.values():
            if d["kind"] != "edge" or (d["source"] not in shifts and d["target"] not in shifts):
                continue
            s, t = self.data.get(d["source"]), self.data.get(d["target"])
            if s is None or t is None or not s.get("box") or not t.get("box"):
                continue
            ss, ts = shifts.get(d["source"]), shifts.get(d["target"])
            same = (ss is not None and ts is not None and abs(ss[0] - ts[0]) < 0.01 and abs(ss[1] - ts[1]) < 0.01
                    and d["source"] not in resized and d["target"] not in resized)
            routing = d.get("routing") or self.fig.routing
            reroute(d, Box.model_validate(s["box"]), Box.model_validate(t["box"]), self.theme,
                    shift=ss if same else None, orthogonal=routing == "orthogonal")
        # group and panel frames grow to hold members moved out of them
        parent_of = parents(self.fig)
        depth = {cid: 0 for cid in self.data}
        for cid in self.data:
            p, k = cid, 0
            while p in parent_of:
                p, k = parent_of[p], k + 1
            depth[cid] = k
        pad = self.theme.group_pad
        for gid in sorted((c for c, d in self.data.items() if d["kind"] in ("group", "panel")),
                          key=lambda c: -depth[c]):
            g = self.data[gid]
            if gid in shifts or not g.get("box"):
                continue
            members = [self.data[m] for m in g.get("members", []) if m in self.data and self.data[m].get("box")
                       and (m in shifts or self.data[m].get("_grown"))]
            if not members:
                continue
            b = g["box"]
            x0, y0, x1, y1 = b["x"], b["y"], b["x"] + b["w"], b["y"] + b["h"]
            label_h = self.theme.group_label_h if g.get("label") or g["kind"] == "panel" else 0.0
            for m in members:
                mb = m["box"]
                x0, y0 = min(x0, mb["x"] - pad), min(y0, mb["y"] - pad - label_h)
                x1, y1 = max(x1, mb["x"] + mb["w"] + pad), max(y1, mb["y"] + mb["h"] + pad)
            if (x0, y0, x1, y1) != (b["x"], b["y"], b["x"] + b["w"], b["y"] + b["h"]):
                g["box"] = {"x": x0, "y": y0, "w": x1 - x0, "h": y1 - y0}
                g["_grown"] = True
                self.note(f"{g['kind']} '{gid}' grown to hold its moved members")
        for d in self.data.values():
            d.pop("_grown", None)

    def merge_title(self) -> None:
        title = self.fig.title
        if not title:
            return
        old = self.original.find(f".//{{{SVG_NS}}}text[@id='crafter--title']")
        new = next((el for el in self.edited.iter() if el.get("id") == "crafter--title"), None)
        if old is None:
            return
        if new is None:
            self.report.skipped.append("the title was deleted from the drawing; the figure keeps its title")
            return
        ol, nl = text_lines(old), text_lines(new)
        if ol != nl:
            new_title = " ".join(s for s in nl if s) or None
            if new_title != title:
                self.fig = self.fig.model_copy(update={"title": new_title})
                self.note(f"title changed to {new_title!r}")

    def additions(self) -> list[dict[str, Any]]:
        """Shapes, text and images drawn in the editor outside every component: new components."""
        imp = _ForeignImporter(self.edited, self.report, self.file)
        imp.used = set(self.data)
        for el, em, style in self._outside_elements():
            imp.walk(el, em, style)
        if imp.comps:
            for c in imp.comps:
                self.note(f"new {c['kind']} '{c['id']}' drawn in the editor")
        return imp.comps

    def _outside_elements(self) -> Iterator[tuple[ET.Element, Matrix, dict[str, str]]]:
        """Drawable elements that belong to no component and that the writer did not put there."""
        writer_ids = {el.get("id") for el in self.original.iter() if el.get("id")}

        def walk(el: ET.Element, m: Matrix, style: dict[str, str], depth: int) -> Iterator[Any]:
            for child in el:
                tag = _local(child.tag)
                if tag in NOT_DRAWN or depth > MAX_TREE_DEPTH:
                    continue
                # a component's group is merged above; a copy of one (Inkscape's duplicate gives it a
                # new id) is new drawing like any other
                if child.get("data-crafter-kind") and (child.get("data-crafter-id") or child.get("id")) in self.data:
                    continue
                cid = child.get("id") or ""
                if cid in writer_ids or "--" in cid:
                    continue
                cm = multiply(m, parse_transform(child.get("transform")))
                cstyle = effective_style(child, style)
                if tag in ("g", "a", "switch"):
                    yield from walk(child, cm, cstyle, depth + 1)
                elif tag in SHAPE_TAGS + ("text", "image", "use"):
                    # the walker applies the element's own transform itself
                    yield child, m, style

        yield from walk(self.edited, IDENTITY, {}, 0)

