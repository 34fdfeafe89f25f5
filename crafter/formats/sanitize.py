"""What is unsafe in an SVG, decided once; and the sanitiser of SVG import.

Two sanitisers use this knowledge, each with its own policy:

* **import** (:func:`sanitize_tree`, :func:`sanitize_svg`; SVG import and draw.io read
  through :func:`safe_xml_root`) keeps everything but the dangerous parts, which it cuts
  out and lists in the :class:`ImportReport`;
* **display** (:mod:`crafter.ui.sanitize`) keeps an allow-list of drawing elements and
  refuses a whole style sheet that holds anything dangerous.

Both take as dangerous: the elements in :data:`DANGEROUS_ELEMENTS` (scripts,
``foreignObject``, embedded documents, animations, which can rewrite an ``href`` to
``javascript:``), event-handler attributes (:func:`is_event_handler`), every reference
that is not internal (``#id``) or an inline raster ``data:`` image
(:func:`is_safe_reference`), and in CSS the constructs of :data:`CSS_HAZARDS`
(``@import``, ``expression()``, ``javascript:``, ``-moz-binding``, ``behavior``) and any
``url(…)`` to outside.

Before parsing, :func:`safe_xml_root` cuts a ``DOCTYPE`` and its entity declarations out
and drops undeclared entity references, so entity-expansion attacks (billion laughs) cost
nothing; parsing then goes through ``defusedxml`` with DTDs forbidden.
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass, field
from pathlib import Path as FsPath
from xml.etree import ElementTree as ET

from defusedxml import ElementTree as SafeET
from defusedxml.common import DefusedXmlException

from crafter.base.markup import SVG_NS, XLINK_NS
from crafter.errors import InputError
from crafter.formats.svg import read_svg_source

MAX_TREE_DEPTH = 200  # elements nested deeper are cut (the import's walkers stop there too)
# Elements that run script, embed another document or animate attributes.
DANGEROUS_ELEMENTS = ("script", "foreignObject", "iframe", "embed", "object", "applet", "handler", "listener",
                      "animate", "set", "animateMotion", "animateTransform", "animateColor", "discard")
# The only references an SVG keeps besides internal ones: an inline raster image.
INLINE_RASTER = re.compile(r"^\s*data:image/(png|jpeg|jpg|webp|gif);base64,([A-Za-z0-9+/=\s]*)$")
CSS_URL = re.compile(r"url\(\s*(['\"]?)(.*?)\1\s*\)", re.I | re.S)
# CSS that loads or runs something: (how it starts, how far import cuts, what import leaves in its place).
CSS_HAZARDS = (
    (r"@import", r"@import[^;]*;?", ""),
    (r"expression\s*\(", r"expression\s*\([^)]*\)", "none"),
    (r"javascript:", r"javascript:[^;\"')]*", ""),
    (r"-moz-binding", r"-moz-binding\s*:[^;]*;?", ""),
    (r"behavior\s*:", r"behavior\s*:[^;}]*;?", ""),  # IE's HTC behaviours; cut to the end of the declaration
)
DANGEROUS_CSS = re.compile("|".join(start for start, _, _ in CSS_HAZARDS), re.I)


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
# What is dangerous
# =================================================================================


def is_event_handler(attribute: str) -> bool:
    """``onload``, ``onclick``…: attributes that run script (``attribute`` is a local name)."""
    return attribute.lower().startswith("on")


def is_safe_reference(value: str) -> bool:
    """An ``href``/``src``/``url()`` target that loads nothing: an internal ``#id`` or an inline raster image."""
    v = value.strip()
    if v.startswith("#"):
        return True
    return bool(INLINE_RASTER.match(v))


def keep_safe_urls(css: str) -> str:
    """CSS with every ``url(…)`` that is not a safe reference replaced by ``none``."""

    def url(m: re.Match[str]) -> str:
        return m.group(0) if is_safe_reference(m.group(2)) else "none"

    return CSS_URL.sub(url, css)


def clean_css(text: str) -> str:
    """CSS with the hazards of :data:`CSS_HAZARDS` cut out and external ``url(…)`` removed."""
    out = text
    for _, cut, replacement in CSS_HAZARDS:
        out = re.sub(cut, replacement, out, flags=re.I)
    return keep_safe_urls(out)


def clean_declarations(style: str) -> str:
    """A style attribute without the declarations that reach outside or run script."""
    kept = []
    for decl in style.split(";"):
        if decl.strip() and clean_css(decl) == decl:
            kept.append(decl.strip())
    return ";".join(kept)


def local_name(tag: str) -> str:
    """An ElementTree tag or attribute name without its ``{namespace}``."""
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def shorten(v: str) -> str:
    """A value as the report quotes it: whitespace collapsed, at most 60 characters."""
    v = " ".join(v.split())
    return v if len(v) <= 60 else v[:57] + "..."


# =================================================================================
# Import: safe parsing and sanitising
# =================================================================================


def sanitize_svg(source: str | bytes | FsPath) -> tuple[str, ImportReport]:
    """The SVG with everything unsafe removed (as text), and the report of what went."""
    report = ImportReport()
    data, file = read_svg_source(source)
    root = safe_xml_root(data, file=file, what="SVG", report=report)
    sanitize_tree(root, report)
    ET.register_namespace("", SVG_NS)
    ET.register_namespace("xlink", XLINK_NS)
    return ET.tostring(root, encoding="unicode"), report


class InflateLimit(zlib.error):
    """Deflated data that inflates beyond the limit it was read with: a bomb, not a file."""


def capped_inflate(data: bytes, limit: int, wbits: int = zlib.MAX_WBITS) -> bytes:
    """Deflated ``data`` inflated, never beyond ``limit`` bytes (:class:`InflateLimit` then; ``zlib.error``
    for data that does not inflate). ``wbits`` as for :func:`zlib.decompressobj` (-15: a raw deflate stream)."""
    d = zlib.decompressobj(wbits)
    out = d.decompress(data, limit)
    if d.unconsumed_tail:
        raise InflateLimit(f"inflates beyond {limit} bytes")
    return out


_BUILTIN_ENTITIES = {"amp", "lt", "gt", "quot", "apos"}
_ENTITY_REF = re.compile(rb"&([A-Za-z_:][A-Za-z0-9_.:-]*);")


def safe_xml_root(data: bytes, *, file: str | None = None, what: str = "XML",
                  report: ImportReport | None = None) -> ET.Element:
    """Parse untrusted XML: DOCTYPE (and its entities) cut out, undeclared entities dropped, defusedxml."""
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
    stack: list[tuple[ET.Element, int]] = [(root, 0)]
    while stack:
        el, depth = stack.pop()
        if depth > MAX_TREE_DEPTH:
            for child in list(el):
                el.remove(child)
            report.removed.append(f"elements nested deeper than {MAX_TREE_DEPTH} levels")
            continue
        for child in list(el):
            tag = local_name(child.tag) if isinstance(child.tag, str) else ""
            if not isinstance(child.tag, str) or tag in DANGEROUS_ELEMENTS:
                el.remove(child)
                if tag:
                    report.removed.append(f"<{tag}> element")
                continue
            stack.append((child, depth + 1))
        for name in list(el.attrib):
            local = local_name(name).lower()
            value = el.attrib[name]
            if is_event_handler(local):
                del el.attrib[name]
                report.removed.append(f"{local_name(name)} handler on <{local_name(el.tag)}>")
            elif local == "href" or local == "src":
                if not is_safe_reference(value):
                    del el.attrib[name]
                    report.removed.append(f"external reference on <{local_name(el.tag)}> ({shorten(value)})")
            elif local == "style" or local in ("fill", "stroke", "filter", "clip-path", "mask", "cursor",
                                               "marker-start", "marker-mid", "marker-end"):
                clean = clean_declarations(value) if local == "style" else clean_css(value)
                if local != "style" and clean != value:
                    clean = ""  # a paint that pointed outside: fall back to the inherited one
                if clean != value:
                    report.removed.append(f"external or script reference in {local_name(name)} "
                                          f"on <{local_name(el.tag)}>")
                    if clean:
                        el.attrib[name] = clean
                    else:
                        del el.attrib[name]
        if local_name(el.tag) == "style" and el.text:
            clean = clean_css(el.text)
            if clean != el.text:
                report.removed.append("external or script reference in a <style> sheet")
                el.text = clean
