"""Reading SVG elements as a viewer draws them: styles, lengths, colours, shapes and text lines.

The foreign-SVG importer and the merge-back of an edited Crafter SVG both see an element
through these: its own presentation attributes and ``style`` (:func:`own_style`; CSS
sheets are not applied), what it inherits (:func:`effective_style`), lengths in px,
colours as ``#RRGGBB`` (gradients stand for their first stop), basic shapes as path
segments in the element's own coordinates, and a ``<text>`` as the lines it shows
(Inkscape's ``sodipodi:role="line"`` tspans included).
"""

from __future__ import annotations

import math
import re
from typing import Any
from xml.etree import ElementTree as ET

from crafter.base.markup import XLINK_NS, XML_NS
from crafter.base.svgpath import Segment, ellipse_path, parse_path, points_path, rect_path
from crafter.formats.sanitize import local_name
from crafter.spec.colors import is_color, to_rgb

SODIPODI_NS = "http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd"
INKSCAPE_NS = "http://www.inkscape.org/namespaces/inkscape"
SHAPE_TAGS = ("rect", "circle", "ellipse", "line", "polyline", "polygon", "path")
# Elements that draw nothing themselves, or whose content is never figure content.
NOT_DRAWN = ("defs", "symbol", "clipPath", "mask", "marker", "pattern", "linearGradient", "radialGradient",
             "filter", "metadata", "title", "desc", "style", "script", "foreignObject", "namedview", "cursor",
             "font", "font-face", "glyph", "missing-glyph", "view")
INHERITED = ("fill", "stroke", "stroke-width", "font-size", "font-weight", "font-style", "fill-opacity",
             "stroke-opacity", "text-anchor", "visibility", "color", "font-family")


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
    op = number(mine.get("opacity"), 1.0) * number(inherited.get("_opacity"), 1.0)
    style["_opacity"] = str(op)
    return style


def number(v: Any, default: float = 0.0) -> float:
    if v is None:
        return default
    m = re.match(r"\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)", str(v))
    if not m:
        return default
    f = float(m.group(1))
    return f if math.isfinite(f) else default


def length(v: str | None, default: float, font_size: float = 12.0) -> float:
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
            f = number(p)
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
        if local_name(stop.tag) == "stop":
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
    tag = local_name(el.tag)
    g = el.get
    if tag == "path":
        return parse_path(g("d") or "")
    if tag == "rect":
        w, h = length(g("width"), 0), length(g("height"), 0)
        if w <= 0 or h <= 0:
            return []
        rx, ry = length(g("rx"), -1), length(g("ry"), -1)
        if rx < 0 and ry >= 0:
            rx = ry
        if ry < 0 and rx >= 0:
            ry = rx
        return rect_path(length(g("x"), 0), length(g("y"), 0), w, h, max(rx, 0), max(ry, 0))
    if tag == "circle":
        r = length(g("r"), 0)
        return ellipse_path(length(g("cx"), 0), length(g("cy"), 0), r, r) if r > 0 else []
    if tag == "ellipse":
        rx, ry = length(g("rx"), 0), length(g("ry"), 0)
        return ellipse_path(length(g("cx"), 0), length(g("cy"), 0), rx, ry) if rx > 0 and ry > 0 else []
    if tag == "line":
        return [Segment("M", ((length(g("x1"), 0), length(g("y1"), 0)),)),
                Segment("L", ((length(g("x2"), 0), length(g("y2"), 0)),))]
    if tag in ("polyline", "polygon"):
        return points_path(g("points") or "", closed=tag == "polygon")
    return []


def text_lines(el: ET.Element) -> list[str]:
    """The lines of a ``<text>``: a new line at each tspan with its own ``y`` or Inkscape's role="line"."""
    preserve = el.get(f"{{{XML_NS}}}space") == "preserve"

    def norm(s: str) -> str:
        return s.replace("\n", " ").replace("\t", " ") if preserve else " ".join(s.split())

    lines: list[str] = []
    current: str | None = None
    if el.text and el.text.strip():
        current = el.text
    for child in el:
        if local_name(child.tag) in ("tspan", "textPath", "a"):
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
        if local_name(child.tag) == "tspan":
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
    return number(v.replace(",", " ").split()[0] if v.split() else v)
