"""Make an SVG safe to show in the app: nothing in it may run, load or navigate.

Two layers, so one mistake is not enough to let code through:

1. :func:`sanitize_svg` keeps an allow-list of drawing elements and attributes and
   drops everything else: ``<script>``, ``<foreignObject>`` (HTML inside SVG),
   animations (they can rewrite an ``href`` to ``javascript:``), event handlers
   (``onload=`` …), links and ``url(...)`` references to anything but the document's
   own ids or an embedded raster image, and a style sheet with any CSS hazard. What
   counts as dangerous is SVG import's knowledge too, kept once in
   :mod:`crafter.formats.sanitize`. It parses with defusedxml (no DTDs, no entities).
2. :func:`figure_html` shows the result as an ``<img>`` with a ``data:`` URI: browsers
   never run scripts or fetch resources inside an SVG loaded as an image, and its
   ``<style>`` cannot restyle the page around it.

The SVG the user downloads is the renderer's own, untouched (it carries the FigureSpec
in ``<metadata>``); only the copy shown in the page goes through here.
"""

from __future__ import annotations

import base64
import html
import re
from xml.etree import ElementTree as ET

from defusedxml import ElementTree as SafeET
from defusedxml.common import DefusedXmlException

from crafter.base.markup import SVG_NS, XLINK_NS, XML_NS
from crafter.errors import InputError
from crafter.formats.sanitize import (
    DANGEROUS_CSS,
    DANGEROUS_ELEMENTS,
    is_event_handler,
    is_safe_reference,
    keep_safe_urls,
)

# Drawing, text, paint servers and filters: what a figure needs, nothing that acts.
ALLOWED_ELEMENTS = frozenset("""
svg g defs symbol use title desc marker
path rect circle ellipse line polyline polygon
text tspan textPath
linearGradient radialGradient stop pattern clipPath mask
image style
filter feBlend feColorMatrix feComponentTransfer feComposite feDropShadow feFlood
feFuncA feFuncB feFuncG feFuncR feGaussianBlur feMerge feMergeNode feMorphology feOffset
""".split())
# Containers whose children may be kept though the element itself goes (a link's text).
UNWRAP_ELEMENTS = frozenset({"a", "switch"})
assert ALLOWED_ELEMENTS.isdisjoint(DANGEROUS_ELEMENTS) and UNWRAP_ELEMENTS.isdisjoint(DANGEROUS_ELEMENTS), \
    "the display allow-list may not let through an element SVG import takes as dangerous"


def _local(tag: str) -> tuple[str | None, str]:
    """(namespace, local name) of an ElementTree tag or attribute name."""
    if tag.startswith("{"):
        ns, _, name = tag[1:].partition("}")
        return ns, name
    return None, tag


def _safe_css(text: str) -> str | None:
    """The CSS with external url(...) references removed; None if it is beyond repair."""
    if DANGEROUS_CSS.search(text):
        return None
    return keep_safe_urls(text)


def _clean_attributes(el: ET.Element) -> None:
    for name in list(el.attrib):
        ns, local = _local(name)
        value = el.attrib.pop(name)
        if is_event_handler(local):
            continue
        if local == "href" and ns in (None, XLINK_NS):
            if is_safe_reference(value):
                el.set("href", value.strip())
            continue
        if ns not in (None, XML_NS):
            continue  # foreign-namespace attributes (editor cruft, xlink:* besides href)
        if local == "style" or "url(" in value.lower():
            cleaned = _safe_css(value)
            if cleaned is None:
                continue
            value = cleaned
        if "javascript:" in value.lower():
            continue
        el.set(name, value)


def _clean(el: ET.Element) -> None:
    """Clean ``el``'s children in place (``el`` itself is already known to be allowed)."""
    new_children: list[ET.Element] = []
    for child in list(el):
        ns, local = _local(child.tag) if isinstance(child.tag, str) else ("", "")
        if ns not in (SVG_NS, None):
            continue  # <metadata> content, sodipodi:*, HTML in another namespace...
        child.tag = f"{{{SVG_NS}}}{local}"
        if local in UNWRAP_ELEMENTS:
            # keep what the link or switch contains, as a plain group
            child.tag = f"{{{SVG_NS}}}g"
            _clean_attributes(child)
            child.attrib.pop("href", None)
            _clean(child)
            new_children.append(child)
            continue
        if local not in ALLOWED_ELEMENTS:
            continue
        _clean_attributes(child)
        if local == "style":
            css = _safe_css(child.text or "")
            if css is None:
                continue
            child.text = css
        _clean(child)
        new_children.append(child)
    for child in list(el):
        el.remove(child)
    el.extend(new_children)


def sanitize_svg(svg: str | bytes) -> str:
    """The SVG with everything that could execute, load or navigate removed.

    Raises :class:`InputError` if it is not a well-formed SVG document.
    """
    if isinstance(svg, str):
        svg = svg.encode("utf-8")
    try:
        root = SafeET.fromstring(svg)
    except DefusedXmlException as e:
        raise InputError(f"refusing unsafe XML ({type(e).__name__}: DTDs and entities are not allowed)") from None
    except ET.ParseError as e:
        raise InputError(f"not an SVG document: {e}") from None
    if _local(root.tag)[1] != "svg":
        raise InputError(f"not an SVG document: the root element is <{_local(root.tag)[1]}>, not <svg>")
    root.tag = f"{{{SVG_NS}}}svg"
    _clean_attributes(root)
    _clean(root)
    out: list[str] = []
    _write(root, out, top=True)
    return "".join(out)


def _write(el: ET.Element, out: list[str], *, top: bool = False) -> None:
    """Serialise a cleaned tree: every element is SVG (default namespace), attributes plain."""
    name = _local(el.tag)[1]
    attrs = "".join(
        f' {"xml:" + _local(k)[1] if _local(k)[0] == XML_NS else k}="{html.escape(v, quote=True)}"'
        for k, v in el.attrib.items()
    )
    ns = f' xmlns="{SVG_NS}"' if top else ""
    out.append(f"<{name}{ns}{attrs}>")
    if el.text:
        out.append(html.escape(el.text, quote=False))
    for child in el:
        _write(child, out)
        if child.tail:
            out.append(html.escape(child.tail, quote=False))
    out.append(f"</{name}>")


def svg_data_uri(svg: str) -> str:
    """A ``data:image/svg+xml;base64,…`` URI for the (already sanitised) SVG."""
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")


def figure_html(svg: str, *, alt: str = "figure", caption: str | None = None) -> str:
    """HTML that shows an SVG in the page: sanitised, inside an ``<img>``, on a white card.

    Raises :class:`InputError` when ``svg`` is not a well-formed SVG.
    """
    safe = sanitize_svg(svg)
    cap = f'<div class="crafter-figure-caption">{html.escape(caption)}</div>' if caption else ""
    return (
        f'<div class="crafter-figure" data-testid="crafter-figure">'
        f'<img src="{svg_data_uri(safe)}" alt="{html.escape(alt, quote=True)}"/>{cap}</div>'
    )


_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>~|$])")


def md(text: str) -> str:
    """User or pipeline text made literal for Streamlit markdown.

    Ids like ``user_query`` would turn italic, ``$5 and $10`` into maths, ``<b>`` vanish;
    escaping the characters that start inline formatting keeps the text as written.
    """
    return _MARKDOWN_SPECIAL.sub(r"\\\1", str(text))


def raster_html(data: bytes, *, alt: str, caption: str | None = None) -> str:
    """The same card for an uploaded PNG/JPEG (checked by its magic bytes, never sniffed as HTML)."""
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        mime = "image/png"
    elif data[:3] == b"\xff\xd8\xff":
        mime = "image/jpeg"
    else:
        raise InputError("not a PNG or JPEG image")
    cap = f'<div class="crafter-figure-caption">{html.escape(caption)}</div>' if caption else ""
    uri = f"data:{mime};base64," + base64.b64encode(data).decode("ascii")
    return (f'<div class="crafter-figure" data-testid="crafter-raster">'
            f'<img src="{uri}" alt="{html.escape(alt, quote=True)}"/>{cap}</div>')


__all__ = ["ALLOWED_ELEMENTS", "InputError", "figure_html", "md", "raster_html", "sanitize_svg", "svg_data_uri"]
