"""XML text for the SVG writer: escaping, number formatting, and right-to-left text.

Everything a user typed passes through :func:`esc_text` or :func:`esc_attr` before it
reaches the SVG, so a label like ``a < b & "c"`` stays text and never becomes markup.
Characters XML 1.0 cannot carry at all (control characters, lone surrogates) are
replaced by U+FFFD in what is *drawn*; the exact text survives in the embedded JSON.
"""

from __future__ import annotations

import re
import unicodedata

try:  # declared dependencies; without them right-to-left lines go to cairo in logical order
    import arabic_reshaper
    from bidi import get_display
except ImportError:  # pragma: no cover - both are declared dependencies
    arabic_reshaper = None

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
XML_NS = "http://www.w3.org/XML/1998/namespace"  # xml:space, xml:lang
CRAFTER_NS = "https://crafter.dev/ns"  # the FigureSpec embedded in every SVG Crafter writes

# Characters outside XML 1.0's Char production (tab, LF and CR are allowed).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
# Scripts written right to left: Hebrew, Arabic, Syriac, Thaana, NKo…, their presentation
# forms, and the RTL ranges of the supplementary planes. A cheap pre-check before the
# per-character bidi lookup.
_RTL_RANGES = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff\U00010800-\U00010fff\U0001e800-\U0001efff]")


def esc_text(s: str) -> str:
    """Text content: XML-escaped, characters XML cannot hold replaced by U+FFFD."""
    s = _NOT_XML.sub("\ufffd", s)
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def esc_attr(s: str) -> str:
    """An attribute value for a double-quoted attribute (whitespace kept as character references)."""
    return (esc_text(s).replace('"', "&quot;").replace("\n", "&#10;").replace("\r", "&#13;")
            .replace("\t", "&#9;"))


def esc_json_for_xml(json_text: str) -> str:
    """JSON text made safe as XML element content, losslessly.

    Characters XML cannot carry only occur inside JSON strings (the JSON grammar itself is
    ASCII), so rewriting them as ``\\uXXXX`` escapes keeps the JSON value identical. A lone
    surrogate is written as its escape, which ``json.loads`` turns back into the same code point.
    """
    def _u(m: re.Match[str]) -> str:
        return "\\u%04x" % ord(m.group(0))

    return esc_text(_NOT_XML.sub(_u, json_text))


def num(v: float) -> str:
    """A coordinate with at most two decimals and no trailing zeros (compact, stable output)."""
    s = f"{v:.2f}"  # one formatting call: this runs for every coordinate of a 5,000-node figure
    if s.endswith("00"):
        s = s[:-3]
    elif s[-1] == "0":
        s = s[:-1]
    return "0" if s == "-0" else s


def needs_preserve(line: str) -> bool:
    """True when SVG's default whitespace handling would change the line (double or edge spaces)."""
    return "  " in line or line[:1].isspace() or line[-1:].isspace() or "\t" in line


# -- right-to-left text ----------------------------------------------------------------

def base_direction(text: str) -> str:
    """'rtl' when the first strongly directional character is right-to-left, else 'ltr'.

    This is the Unicode bidi algorithm's rule P2–P3 (HTML's ``dir=auto``): "שלום world" is
    an RTL paragraph, "Step 2: שלום" an LTR one.
    """
    if not _RTL_RANGES.search(text):
        return "ltr"
    for ch in text:
        d = unicodedata.bidirectional(ch)
        if d == "L":
            return "ltr"
        if d in ("R", "AL"):
            return "rtl"
    return "ltr"


def visual_order(line: str, direction: str) -> str:
    """A line in left-to-right display order with Arabic letters joined (for cairo).

    SVG viewers (browsers, Inkscape, Illustrator) apply the bidi algorithm themselves, so
    the SVG keeps logical order. cairosvg draws characters one after another in the order
    given, so the PNG/PDF path pre-orders RTL lines here. Without python-bidi and
    arabic-reshaper installed the line is returned unchanged.
    """
    if not _RTL_RANGES.search(line) or arabic_reshaper is None:
        return line
    shaped = arabic_reshaper.reshape(line)
    return get_display(shaped, base_dir="R" if direction == "rtl" else "L")
