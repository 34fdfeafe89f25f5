"""draw.io's style strings, both ways: what the writer puts in a cell's ``style`` and how the reader takes it back.

A style is ``key=value;bare;…`` (:func:`format_style`, :func:`parse_style`). Each FigureSpec
property the writer spells in draw.io's words (arrowheads, dashes, colours with their
opacity in a key of its own, font bits, image data URIs without ``;base64``) sits here next
to the reading that turns draw.io's words back into the FigureSpec's, including the many
names diagrams.net itself uses for arrows and shapes drawn there.
"""

from __future__ import annotations

import math
import re

from crafter.spec.colors import is_color, to_rgb
from crafter.spec.model import SHAPES

# FigureSpec arrowheads ↔ draw.io arrow names (and whether the head is filled).
ARROWS = {"none": ("none", None), "arrow": ("block", 1), "open": ("open", None), "diamond": ("diamond", 1),
          "circle": ("oval", 0), "bar": ("dash", None), "triangle_open": ("block", 0)}
ARROW_BACK = {"none": "none", "block": "arrow", "classic": "arrow", "classicThin": "arrow", "blockThin": "arrow",
              "open": "open", "openThin": "open", "openAsync": "open", "async": "arrow", "diamond": "diamond",
              "diamondThin": "diamond", "oval": "circle", "circle": "circle", "circlePlus": "circle",
              "dash": "bar", "halfCircle": "circle", "cross": "bar", "ERone": "bar", "ERmandOne": "bar",
              "box": "diamond", "doubleBlock": "arrow", "manyOptional": "open", "ERmany": "open"}
# draw.io shape names → FigureSpec shapes (for cells drawn in draw.io itself)
SHAPE_BACK = {"rhombus": "diamond", "ellipse": "ellipse", "doubleEllipse": "ellipse", "cylinder": "cylinder",
              "cylinder3": "cylinder", "datastore": "cylinder", "parallelogram": "parallelogram",
              "hexagon": "hexagon", "document": "document", "mxgraph.basic.layered_rect": "stack",
              "mxgraph.flowchart.document": "document", "mxgraph.flowchart.database": "cylinder",
              "mxgraph.flowchart.decision": "diamond", "mxgraph.flowchart.data": "parallelogram",
              "mxgraph.flowchart.multi-document": "stack", "mxgraph.flowchart.preparation": "hexagon",
              "mxgraph.flowchart.start_1": "ellipse", "mxgraph.flowchart.terminator": "round",
              "mxgraph.flowchart.on-page_reference": "circle", "process": "box", "rectangle": "box",
              "label": "box", "card": "box", "note": "document", "tape": "document", "step": "hexagon"}


def decimals(v: float, digits: int) -> str:
    """A number at ``digits`` decimals, trailing zeros dropped.

    Coordinates and sizes go through :func:`crafter.base.markup.num` (two decimals, the same
    text as this at ``digits=2``). This is for the other precisions draw.io takes on purpose:
    ports are fractions of a box's side, at four decimals (two would put a port up to 0.5 % of
    the side away from the route's end), and opacities are whole percents.
    """
    r = round(v, digits)
    if r == int(r):
        return str(int(r))
    return f"{r:.{digits}f}".rstrip("0")


def to_number(v: str | None) -> float:
    """A number read from a draw.io attribute or style value: 0 when missing, malformed or not finite."""
    try:
        f = float(v) if v is not None else 0.0
    except ValueError:
        return 0.0
    return f if math.isfinite(f) else 0.0


def hex_color(color: str) -> str:
    """A FigureSpec colour as draw.io writes colours: '#RRGGBB' (opacity goes in its own key), or 'none'."""
    if color == "none" or not is_color(color):
        return "none"
    r, g, b = to_rgb(color[:7] if color.startswith("#") and len(color) == 9 else color)
    return f"#{round(r * 255):02X}{round(g * 255):02X}{round(b * 255):02X}"


def opacity_key(key: str, color: str) -> dict[str, str]:
    if color.startswith("#") and len(color) == 9:
        return {key: decimals(int(color[7:9], 16) / 255 * 100, 0)}
    return {}


def dash_keys(style: str) -> dict[str, str]:
    if style == "dashed":
        return {"dashed": "1"}
    if style == "dotted":
        return {"dashed": "1", "dashPattern": "1 3"}
    return {}


def font_style_bits(bold: bool, italic: bool) -> str:
    return str((1 if bold else 0) | (2 if italic else 0))


def drawio_data_uri(href: str) -> str:
    """draw.io's style syntax uses ';' as a separator, so its data URIs drop ';base64'."""
    head, _, data = href.partition(",")
    return head.replace(";base64", "") + "," + "".join(data.split())


def format_style(style: dict[str, str | None]) -> str:
    return "".join(f"{k};" if v is None else f"{k}={v};" for k, v in style.items())


def parse_style(text: str | None) -> dict[str, str | None]:
    """draw.io's 'key=value;bare;…' style string; a bare word (a shape name, 'text') maps to None."""
    out: dict[str, str | None] = {}
    for part in (text or "").split(";"):
        part = part.strip()
        if not part:
            continue
        if "=" in part:
            k, _, v = part.partition("=")
            out[k.strip()] = v.strip()
        else:
            out[part] = None
    return out


# draw.io turns its trapezoid (narrow on top) by the cell's direction: east is unturned, south a quarter clockwise
TRAPEZOID_DIRECTION = {"trapezoid": "east", "trapezoid_right": "south", "trapezoid_down": "west",
                       "trapezoid_left": "north"}


def shape_from_style(style: dict[str, str | None]) -> str:
    shape = style.get("shape")
    if shape == "trapezoid":
        turned = {v: k for k, v in TRAPEZOID_DIRECTION.items()}
        return turned.get(style.get("direction") or "east", "trapezoid")
    if shape in SHAPE_BACK:
        found = SHAPE_BACK[shape]
    else:
        first = next((k for k, v in style.items() if v is None), None)
        found = SHAPE_BACK.get(first or "", "box")
    if found == "ellipse" and style.get("aspect") == "fixed":
        found = "circle"
    if found == "box" and style.get("rounded") == "1":
        found = "round"
    return found if found in SHAPES else "box"


def color_from_style(v: str | None) -> str | None:
    """A draw.io colour as a FigureSpec colour ('#RRGGBB' or 'none'); None for 'default' and the like."""
    if v is None:
        return None
    v = v.strip()
    if v == "none":
        return "none"
    if re.fullmatch(r"#[0-9a-fA-F]{6}", v):
        return v.upper()
    if re.fullmatch(r"#[0-9a-fA-F]{3}", v):
        return "#" + "".join(ch * 2 for ch in v[1:]).upper()
    if is_color(v):
        return hex_color(v)
    return None


def dash_from_style(style: dict[str, str | None]) -> str:
    if style.get("dashed") != "1":
        return "solid"
    pattern = [to_number(x) for x in (style.get("dashPattern") or "").split()]
    if pattern and pattern[0] <= 1.5:
        return "dotted"
    return "dashed"


def arrow_from_style(style: dict[str, str | None], end: str, default: str | None = None) -> str:
    name = style.get(f"{end}Arrow")
    if name is None:
        # draw.io's defaults: a classic head at the target end, nothing at the source
        return default if default is not None else ("arrow" if end == "end" else "none")
    kind = ARROW_BACK.get(name, "arrow" if name else "none")
    if kind == "arrow" and style.get(f"{end}Fill") == "0" and name in ("block", "blockThin", "classic", "classicThin"):
        return "triangle_open"  # a hollow triangle: UML's inheritance
    return kind


def head_size_from_style(style: dict[str, str | None]) -> float | None:
    """The edge's head_size from draw.io's endSize (or startSize): the head's length, px; None when unset."""
    for key in ("endSize", "startSize"):
        v = to_number(style.get(key))
        if 0 < v <= 200:
            return v
    return None


def href_from_drawio(image: str) -> str | None:
    m = re.fullmatch(r"data:image/(png|jpeg|jpg|webp|gif)(?:;base64)?,([A-Za-z0-9+/=\s]+)", image.strip())
    if not m:
        return None
    kind = "jpeg" if m.group(1) == "jpg" else m.group(1)
    return f"data:image/{kind};base64,{''.join(m.group(2).split())}"
