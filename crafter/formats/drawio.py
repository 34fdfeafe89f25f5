"""draw.io (diagrams.net) export and import: mxGraph XML, uncompressed.

Export (:func:`figure_to_drawio`): every component becomes one cell whose id is the
component id. Nodes are vertices with draw.io's matching shapes (rhombus, ellipse,
cylinder3, parallelogram, hexagon, document, layered_rect…) and the figure's colours;
groups and panels are containers, their members children with coordinates relative to
the container (so dragging a group drags its members); edges name their ``source`` and
``target`` cells (so they follow a moved box) and carry the layout route as waypoints,
labels, dashes and arrowheads. Charts and paths become SVG images, raster images
image cells. Labels are plain text (no HTML), broken into the lines the SVG shows.

Each cell is wrapped in an ``<object>`` carrying ``crafter`` — the component as JSON —
and the root cell carries the figure's own fields, so nothing the FigureSpec holds is
lost in draw.io. Import (:func:`drawio_to_figure`) reads the cells back and **merges**
what someone changed in diagrams.net into those components: a new label, colour, shape,
dash or arrowhead, a moved or resized box (pinned, so layout keeps it), a node dragged
into another container, a deleted cell. Cells without ``crafter`` data (added in
draw.io, or a whole diagram drawn there) become new components. Compressed diagrams
(deflate + base64, draw.io's older default) are read too.
"""

from __future__ import annotations

import base64
import json
import math
import re
import zlib
from dataclasses import replace
from html.parser import HTMLParser
from typing import Any
from urllib.parse import unquote
from xml.etree import ElementTree as ET

from pydantic import ValidationError

from crafter.base.markup import esc_text
from crafter.base.rules import WRAP_SLACK, panel_letters, readable_on
from crafter.base.svgpath import parse_path, path_bbox, path_to_d, transform_path
from crafter.base.text import text_width, wrap
from crafter.base.theme import Theme, figure_theme, get_theme
from crafter.errors import InputError, SpecError
from crafter.formats.merge import label_box_at_half_length, merge_lines, reroute
from crafter.formats.svg_import import safe_xml_root
from crafter.render.svg import draw_svg, ensure_layout
from crafter.spec.colors import is_color, to_rgb
from crafter.spec.model import (
    COMPONENT_TYPES,
    ID_PATTERN,
    SHAPES,
    Box,
    Chart,
    Component,
    Edge,
    Figure,
    Group,
    Image,
    Node,
    Panel,
    Path,
    Size,
    Text,
    figure_from_data,
    parents,
)

MAX_DRAWIO_BYTES = 50 * 1024 * 1024
MAX_INFLATED_BYTES = 100 * 1024 * 1024  # a compressed diagram may not inflate beyond this
GEOMETRY_TOLERANCE = 0.5  # px: coordinates are written with two decimals
FIGURE_FIELDS = ("version", "title", "caption", "theme", "direction", "routing", "width_in", "background", "canvas")

# FigureSpec arrowheads ↔ draw.io arrow names (and whether the head is filled).
ARROWS = {"none": ("none", None), "arrow": ("block", 1), "open": ("open", None), "diamond": ("diamond", 1),
          "circle": ("oval", 0), "bar": ("dash", None)}
_ARROW_BACK = {"none": "none", "block": "arrow", "classic": "arrow", "classicThin": "arrow", "blockThin": "arrow",
               "open": "open", "openThin": "open", "openAsync": "open", "async": "arrow", "diamond": "diamond",
               "diamondThin": "diamond", "oval": "circle", "circle": "circle", "circlePlus": "circle",
               "dash": "bar", "halfCircle": "circle", "cross": "bar", "ERone": "bar", "ERmandOne": "bar",
               "box": "diamond", "doubleBlock": "arrow", "manyOptional": "open", "ERmany": "open"}
# draw.io shape names → FigureSpec shapes (for cells drawn in draw.io itself)
_SHAPE_BACK = {"rhombus": "diamond", "ellipse": "ellipse", "doubleEllipse": "ellipse", "cylinder": "cylinder",
               "cylinder3": "cylinder", "datastore": "cylinder", "parallelogram": "parallelogram",
               "hexagon": "hexagon", "document": "document", "mxgraph.basic.layered_rect": "stack",
               "mxgraph.flowchart.document": "document", "mxgraph.flowchart.database": "cylinder",
               "mxgraph.flowchart.decision": "diamond", "mxgraph.flowchart.data": "parallelogram",
               "mxgraph.flowchart.multi-document": "stack", "mxgraph.flowchart.preparation": "hexagon",
               "mxgraph.flowchart.start_1": "ellipse", "mxgraph.flowchart.terminator": "round",
               "mxgraph.flowchart.on-page_reference": "circle", "process": "box", "rectangle": "box",
               "label": "box", "card": "box", "note": "document", "tape": "document", "step": "hexagon"}


# =================================================================================
# Export
# =================================================================================


def figure_to_drawio(fig: Figure) -> str:
    """A figure (laid out first if it lacks geometry) as an uncompressed ``.drawio`` document."""
    fig = ensure_layout(fig)
    t = figure_theme(fig)
    parent_of = parents(fig)
    by_id = fig.by_id()
    order = _drawing_order(fig, parent_of)
    canvas = fig.canvas or Size(w=max((c.box.right for c in fig.components if c.box), default=800),
                                h=max((c.box.bottom for c in fig.components if c.box), default=600))
    mxfile = ET.Element("mxfile", host="Crafter", agent="Crafter", type="device", compressed="false")
    diagram = ET.SubElement(mxfile, "diagram", id="crafter-figure", name=_page_name(fig))
    model = ET.SubElement(diagram, "mxGraphModel", dx="0", dy="0", grid="1", gridSize="10", guides="1",
                          tooltips="1", connect="1", arrows="1", fold="1", page="1", pageScale="1",
                          pageWidth=_num(max(canvas.w, 100)), pageHeight=_num(max(canvas.h, 100)),
                          math="0", shadow="0", background=t.background)
    root = ET.SubElement(model, "root")
    figure_data = {k: v for k, v in fig.to_dict().items() if k in FIGURE_FIELDS}
    figure_data["order"] = [c.id for c in fig.components]  # the author's order (cells are in drawing order)
    top = ET.SubElement(root, "object", id="0", label="", crafterFigure=_json(figure_data))
    ET.SubElement(top, "mxCell")
    ET.SubElement(root, "mxCell", id="1", parent="0")
    for c in order:
        cell = _cell(c, fig, t, by_id, parent_of)
        if cell is not None:
            root.append(cell)
    ET.indent(mxfile, space="  ")
    return ET.tostring(mxfile, encoding="unicode", xml_declaration=False) + "\n"


def _page_name(fig: Figure) -> str:
    return " ".join((fig.title or "Crafter figure").split())[:80]


def _drawing_order(fig: Figure, parent_of: dict[str, str]) -> list[Component]:
    """Containers before their children (draw.io needs parents first), back to front as in the SVG."""
    def depth(cid: str) -> int:
        d = 0
        while cid in parent_of:
            cid, d = parent_of[cid], d + 1
        return d

    rank = {"panel": 0, "group": 1, "edge": 2, "node": 3, "text": 4, "chart": 5, "image": 5, "path": 5}
    return sorted(fig.components, key=lambda c: (rank[c.kind], depth(c.id) if c.kind in ("panel", "group") else 0))


def _cell(c: Component, fig: Figure, t: Theme, by_id: dict[str, Component],
          parent_of: dict[str, str]) -> ET.Element | None:
    vis = visible_cell(c, fig, t, by_id, parent_of)
    if vis is None:
        return None
    obj = ET.Element("object", id=c.id, label=vis["label"], crafterKind=c.kind,
                     crafter=_json(c.model_dump(mode="json", exclude_defaults=True)))
    if vis.get("tooltip"):
        obj.set("tooltip", vis["tooltip"])
    attrs = {"style": _style_text(vis["style"]), "parent": vis["parent"]}
    if c.kind == "edge":
        attrs.update(edge="1", source=vis["source"], target=vis["target"])
    else:
        attrs["vertex"] = "1"
    if vis["style"].get("container") != "1":
        attrs["connectable"] = "1" if c.kind not in ("text", "path", "image") else "0"
    cell = ET.SubElement(obj, "mxCell", **attrs)
    if c.kind == "edge":
        geo = ET.SubElement(cell, "mxGeometry", relative="1", **{"as": "geometry"})
        sp, tp = vis["ends"]
        ET.SubElement(geo, "mxPoint", x=_num(sp[0]), y=_num(sp[1]), **{"as": "sourcePoint"})
        ET.SubElement(geo, "mxPoint", x=_num(tp[0]), y=_num(tp[1]), **{"as": "targetPoint"})
        if vis["points"]:
            arr = ET.SubElement(geo, "Array", **{"as": "points"})
            for x, y in vis["points"]:
                ET.SubElement(arr, "mxPoint", x=_num(x), y=_num(y))
    else:
        x, y, w, h = vis["geometry"]
        ET.SubElement(cell, "mxGeometry", x=_num(x), y=_num(y), width=_num(w), height=_num(h), **{"as": "geometry"})
    return obj


def visible_cell(c: Component, fig: Figure, t: Theme, by_id: dict[str, Component],
                 parent_of: dict[str, str]) -> dict[str, Any] | None:
    """What draw.io shows of a component: label, style keys, parent, geometry (or the edge's ends).

    Export writes exactly this, and import compares a cell with it to see what a user changed.
    """
    parent = parent_of.get(c.id)
    parent_box = by_id[parent].box if parent and by_id[parent].box is not None else None
    if parent_box is None:
        parent = None
    out: dict[str, Any] = {"parent": parent or "1"}
    if isinstance(c, Edge):
        return _visible_edge(c, fig, t, by_id, out)
    box = _component_box(c, t)
    if box is None:
        return None
    ox, oy = (parent_box.x, parent_box.y) if parent_box is not None else (0.0, 0.0)
    out["geometry"] = (box.x - ox, box.y - oy, box.w, box.h)
    out["box"] = box
    style: dict[str, str] = {}
    if isinstance(c, Node):
        style = _node_style(c, t, box)
        fs = c.font_size or t.font_size
        max_w = box.w - 2 * t.node_pad_x
        if c.width is None:
            max_w = min(max_w, t.node_max_text_w)
        out["label"] = "\n".join(wrap(c.text, fs, max(max_w, fs) + WRAP_SLACK, bold=c.bold, italic=c.italic))
    elif isinstance(c, Group):
        style = {"rounded": "1", "absoluteArcSize": "1", "arcSize": _num(2 * t.corner_radius), "whiteSpace": "wrap",
                 "html": "0", "container": "1", "collapsible": "0", "recursiveResize": "0", "verticalAlign": "top",
                 "align": "left", "spacingLeft": _num(t.group_label_inset - 2), "spacingTop": "-2",
                 "fontStyle": "1" if t.group_label_bold else "0", "fontSize": _num(t.group_font_size),
                 "fillColor": _hex(c.fill or t.group_fill), "strokeColor": _hex(c.stroke or t.group_stroke),
                 "fontColor": _hex(c.text_color or t.group_text_color), "strokeWidth": _num(t.group_stroke_width)}
        style.update(_dash(c.style))
        out["label"] = " ".join((c.label or "").split("\n"))
    elif isinstance(c, Panel):
        index = [p.id for p in fig.components if isinstance(p, Panel)].index(c.id)
        shown = c.label if c.label is not None else f"({panel_letters(index)})"
        style = {"rounded": "0", "whiteSpace": "wrap", "html": "0", "container": "1", "collapsible": "0",
                 "recursiveResize": "0", "fillColor": "none", "strokeColor": "none", "verticalAlign": "top",
                 "align": "left", "spacingLeft": "2", "spacingTop": "-2", "fontSize": _num(t.panel_font_size),
                 "fontColor": _hex(t.text_color)}
        out["label"] = " ".join(s for s in (shown, c.title) if s)
    elif isinstance(c, Text):
        fs = c.font_size or t.small_font_size
        style = {"text": None, "html": "0", "whiteSpace": "wrap", "align": "center", "verticalAlign": "middle",
                 "strokeColor": "none", "fillColor": "none", "fontSize": _num(fs),
                 "fontColor": _hex(c.color or t.annotation_color), "fontStyle": _font_style(c.bold, c.italic)}
        if c.rotate:
            style["rotation"] = _num(c.rotate)
        width = box.h if abs(c.rotate) % 180 == 90 else box.w
        out["label"] = "\n".join(wrap(c.text, fs, max(width, fs) + WRAP_SLACK, bold=c.bold, italic=c.italic)
                                 if c.box is not None else c.text.split("\n"))
        if c.rotate and abs(c.rotate) % 180 == 90:
            # draw.io rotates the cell about its centre: give it the unrotated size
            out["geometry"] = (box.cx - box.h / 2 - ox, box.cy - box.w / 2 - oy, box.h, box.w)
    elif isinstance(c, Image):
        style = {"shape": "image", "imageAspect": "0", "image": _drawio_data_uri(c.href)}
        out["label"] = ""
        out["tooltip"] = c.alt or ""
    elif isinstance(c, (Chart, Path)):
        svg = _component_svg(c, fig, box)
        style = {"shape": "image", "imageAspect": "0", "noLabel": "1",
                 "image": "data:image/svg+xml," + base64.b64encode(svg.encode("utf-8")).decode("ascii")}
        out["label"] = (c.title or "") if isinstance(c, Chart) else ""
    out["style"] = style
    return out


def _component_box(c: Component, t: Theme) -> Box | None:
    if c.box is not None:
        return c.box
    if isinstance(c, Path):
        bb = path_bbox(parse_path(c.d))
        if bb is None:
            return None
        return Box(x=bb[0], y=bb[1], w=bb[2] - bb[0], h=bb[3] - bb[1])
    if isinstance(c, Text) and c.at is not None:
        fs = c.font_size or t.small_font_size
        lines = c.text.split("\n")
        w = max(text_width(s, fs, bold=c.bold, italic=c.italic) for s in lines) + 4
        h = len(lines) * fs * t.line_height
        if abs(c.rotate) % 180 == 90:
            w, h = h, w
        return Box(x=c.at.x - w / 2, y=c.at.y - h / 2, w=w, h=h)
    return None


def _node_style(n: Node, t: Theme, b: Box) -> dict[str, str]:
    shape = n.shape
    style: dict[str, str | None]
    if shape == "round":
        style = {"rounded": "1", "absoluteArcSize": "1", "arcSize": _num(2 * min(t.corner_radius, b.w / 2, b.h / 2))}
    elif shape == "ellipse":
        style = {"ellipse": None}
    elif shape == "circle":
        style = {"ellipse": None, "aspect": "fixed"}
    elif shape == "diamond":
        style = {"rhombus": None}
    elif shape == "cylinder":
        style = {"shape": "cylinder3", "boundedLbl": "1", "backgroundOutline": "1",
                 "size": _num(min(b.h * 0.12, b.w * 0.25, 7.0))}
    elif shape == "parallelogram":
        style = {"shape": "parallelogram", "perimeter": "parallelogramPerimeter", "fixedSize": "1",
                 "size": _num(min(b.h * 0.35, b.w * 0.2))}
    elif shape == "hexagon":
        style = {"shape": "hexagon", "perimeter": "hexagonPerimeter2", "fixedSize": "1",
                 "size": _num(min(b.h * 0.3, b.w * 0.2))}
    elif shape == "document":
        style = {"shape": "document", "boundedLbl": "1", "size": _num(min(0.1 * 2, 10.0 / max(b.h, 1)))}
    elif shape == "stack":
        style = {"shape": "mxgraph.basic.layered_rect", "dx": _num(2 * min(4.0, b.h * 0.1, b.w * 0.05)),
                 "outlineConnect": "0"}
    else:
        style = {"rounded": "0"}
    fill = n.fill or t.node_fill
    style.update({
        "whiteSpace": "wrap", "html": "0",
        "fillColor": _hex(fill), "strokeColor": _hex(n.stroke or t.node_stroke),
        "strokeWidth": _num(t.stroke_width if n.stroke_width is None else n.stroke_width),
        "fontColor": _hex(n.text_color or readable_on(fill, t)), "fontSize": _num(n.font_size or t.font_size),
        "fontStyle": _font_style(n.bold, n.italic),
    })
    style.update(_opacity("fillOpacity", fill))
    return style  # type: ignore[return-value]


def _visible_edge(e: Edge, fig: Figure, t: Theme, by_id: dict[str, Component], out: dict[str, Any]) -> dict[str, Any]:
    route = [(p.x, p.y) for p in e.route] if e.route else []
    src, tgt = by_id[e.source], by_id[e.target]
    if len(route) < 2:
        a, b = src.box, tgt.box
        if a is not None and b is not None:
            route = [(a.cx, a.cy), (b.cx, b.cy)]
        else:
            route = [(0.0, 0.0), (0.0, 0.0)]
    routing = e.routing or fig.routing
    color = e.color or t.edge_color
    style: dict[str, str | None] = {
        "edgeStyle": "orthogonalEdgeStyle" if routing == "orthogonal" else "none",
        "rounded": "1" if routing == "orthogonal" else "0", "html": "0", "whiteSpace": "wrap",
        "strokeColor": _hex(color), "strokeWidth": _num(t.edge_width if e.stroke_width is None else e.stroke_width),
        "fontSize": _num(t.small_font_size), "fontColor": _hex(t.edge_label_color),
        "labelBackgroundColor": _hex(t.background),
    }
    if routing == "spline":
        style["curved"] = "1"
    style.update(_opacity("strokeOpacity", color))
    style.update(_dash(e.style))
    for end, head in (("end", e.head), ("start", e.tail)):
        name, fill = ARROWS[head]
        style[f"{end}Arrow"] = name
        if fill is not None:
            style[f"{end}Fill"] = str(fill)
    for prefix, comp, p in (("exit", src, route[0]), ("entry", tgt, route[-1])):
        rel = _relative_port(comp.box, p)
        if rel is not None:
            style[f"{prefix}X"], style[f"{prefix}Y"] = _num(rel[0], 4), _num(rel[1], 4)
            style[f"{prefix}Dx"] = style[f"{prefix}Dy"] = "0"
    out.update(style=style, source=e.source, target=e.target, ends=(route[0], route[-1]), points=route[1:-1],
               label="\n".join(wrap(e.label, t.small_font_size, max(e.label_box.w, t.small_font_size) + WRAP_SLACK))
               if e.label and e.label_box is not None else (e.label or ""))
    return out


def _relative_port(b: Box | None, p: tuple[float, float]) -> tuple[float, float] | None:
    """Where a route end meets its box, as draw.io's (0..1, 0..1) port; None when it is not on the border."""
    if b is None or b.w <= 0 or b.h <= 0:
        return None
    fx, fy = (p[0] - b.x) / b.w, (p[1] - b.y) / b.h
    tol_x, tol_y = 2.0 / b.w, 2.0 / b.h
    if not (-tol_x <= fx <= 1 + tol_x and -tol_y <= fy <= 1 + tol_y):
        return None
    on_border = min(abs(fx), abs(fx - 1)) <= tol_x or min(abs(fy), abs(fy - 1)) <= tol_y
    if not on_border:
        return None
    return min(max(fx, 0.0), 1.0), min(max(fy, 0.0), 1.0)


def _component_svg(c: Chart | Path, fig: Figure, box: Box) -> str:
    """A chart or path drawn alone as a small SVG document, for an image cell."""
    if isinstance(c, Chart):
        moved = c.model_copy(update={"box": Box(x=0, y=0, w=box.w, h=box.h)})
    else:
        segs = transform_path(parse_path(c.d), (1, 0, 0, 1, -box.x, -box.y))
        moved = c.model_copy(update={"d": path_to_d(segs) or "M0,0", "box": None})
    solo = Figure(theme=fig.theme, canvas=Size(w=max(box.w, 1), h=max(box.h, 1)), components=[moved])
    try:
        svg = draw_svg(solo, embed_spec=False)
    # The image is only a picture of the chart (its spec travels in the cell's data), so a spec
    # the chart renderer cannot draw, for whatever reason, gets a labelled frame instead.
    except Exception as e:  # noqa: BLE001
        t = figure_theme(fig)
        title = esc_text(getattr(c, "title", None) or "chart")
        svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(box.w)}" height="{_num(box.h)}">'
               f'<rect x="0.5" y="0.5" width="{_num(max(box.w - 1, 0))}" height="{_num(max(box.h - 1, 0))}" '
               f'fill="none" stroke="{t.group_stroke}" stroke-dasharray="4,3"/>'
               f'<text x="{_num(box.w / 2)}" y="{_num(box.h / 2)}" text-anchor="middle" font-size="12" '
               f'font-family="DejaVu Sans, sans-serif">{title}</text><!-- {esc_text(str(e))} --></svg>')
    # the solo figure's viewBox may carry a margin; pin it to the component's own extent
    return re.sub(r'viewBox="[^"]*"', f'viewBox="0 0 {_num(max(box.w, 1))} {_num(max(box.h, 1))}"',
                  re.sub(r'(<svg[^>]*?) width="[^"]*" height="[^"]*"',
                         rf'\1 width="{_num(max(box.w, 1))}" height="{_num(max(box.h, 1))}"', svg, count=1), count=1)


# -- small helpers shared by export and import ------------------------------------------


def _json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _num(v: float, digits: int = 2) -> str:
    r = round(v, digits)
    if r == int(r):
        return str(int(r))
    return f"{r:.{digits}f}".rstrip("0")


def _hex(color: str) -> str:
    """A FigureSpec colour as draw.io writes colours: '#RRGGBB' (opacity goes in its own key), or 'none'."""
    if color == "none" or not is_color(color):
        return "none"
    r, g, b = to_rgb(color[:7] if color.startswith("#") and len(color) == 9 else color)
    return f"#{round(r * 255):02X}{round(g * 255):02X}{round(b * 255):02X}"


def _opacity(key: str, color: str) -> dict[str, str]:
    if color.startswith("#") and len(color) == 9:
        return {key: _num(int(color[7:9], 16) / 255 * 100, 0)}
    return {}


def _dash(style: str) -> dict[str, str]:
    if style == "dashed":
        return {"dashed": "1"}
    if style == "dotted":
        return {"dashed": "1", "dashPattern": "1 3"}
    return {}


def _font_style(bold: bool, italic: bool) -> str:
    return str((1 if bold else 0) | (2 if italic else 0))


def _drawio_data_uri(href: str) -> str:
    """draw.io's style syntax uses ';' as a separator, so its data URIs drop ';base64'."""
    head, _, data = href.partition(",")
    return head.replace(";base64", "") + "," + "".join(data.split())


def _style_text(style: dict[str, str | None]) -> str:
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


# =================================================================================
# Import
# =================================================================================


class _Cell:
    """One mxCell with the attributes of its <object> wrapper, if any."""

    def __init__(self, el: ET.Element, wrapper: ET.Element | None) -> None:
        src = wrapper if wrapper is not None else el
        self.id = src.get("id") or el.get("id") or ""
        self.attrs = dict(wrapper.attrib) if wrapper is not None else {}
        self.value = (wrapper.get("label") if wrapper is not None else el.get("value")) or ""
        self.style_text = el.get("style") or ""
        self.style = parse_style(self.style_text)
        self.parent = el.get("parent")
        self.vertex = el.get("vertex") == "1"
        self.edge = el.get("edge") == "1"
        self.source = el.get("source")
        self.target = el.get("target")
        geo = el.find("mxGeometry")
        self.x = self.y = self.w = self.h = 0.0
        self.points: list[tuple[float, float]] = []
        self.source_point = self.target_point = None
        if geo is not None:
            self.x, self.y = _float(geo.get("x")), _float(geo.get("y"))
            self.w, self.h = _float(geo.get("width")), _float(geo.get("height"))
            for p in geo.findall("mxPoint"):
                pt = (_float(p.get("x")), _float(p.get("y")))
                if p.get("as") == "sourcePoint":
                    self.source_point = pt
                elif p.get("as") == "targetPoint":
                    self.target_point = pt
            arr = geo.find("Array")
            if arr is not None:
                self.points = [(_float(p.get("x")), _float(p.get("y"))) for p in arr.findall("mxPoint")]

    @property
    def text(self) -> str:
        if self.style.get("html") == "1":
            return html_to_text(self.value)
        return self.value


def _float(v: str | None) -> float:
    try:
        f = float(v) if v is not None else 0.0
    except ValueError:
        return 0.0
    return f if math.isfinite(f) else 0.0


def drawio_to_figure(source: str | bytes, *, file: str | None = None, page: int = 0) -> Figure:
    """A ``.drawio`` document (text) → FigureSpec, merging edits into the components it carries."""
    if isinstance(source, str):
        source = source.encode("utf-8")
    if len(source) > MAX_DRAWIO_BYTES:
        raise InputError(f"draw.io file is {len(source) // 2**20} MB; the limit is {MAX_DRAWIO_BYTES // 2**20} MB",
                         file=file)
    root = safe_xml_root(source, file=file, what="draw.io file")
    model = _graph_model(root, page, file)
    cells: list[_Cell] = []
    root_el = model.find("root")
    if root_el is None:
        raise InputError("the draw.io diagram has no <root> of cells", file=file)
    for el in root_el:
        if el.tag == "mxCell":
            cells.append(_Cell(el, None))
        else:
            inner = el.find("mxCell")
            if inner is not None:
                cells.append(_Cell(inner, el))
    return _Importer(cells, file=file, page_name=_page_title(root, page),
                     page_background=model.get("background")).figure()


def _graph_model(root: ET.Element, page: int, file: str | None) -> ET.Element:
    if root.tag == "mxGraphModel":
        return root
    if root.tag != "mxfile":
        raise InputError(f"not a draw.io file: the root element is <{root.tag}>, not <mxfile>", file=file)
    diagrams = root.findall("diagram")
    if not diagrams:
        raise InputError("the draw.io file has no diagram", file=file)
    if page >= len(diagrams):
        raise InputError(f"the draw.io file has {len(diagrams)} page(s); page {page + 1} does not exist", file=file)
    d = diagrams[page]
    model = d.find("mxGraphModel")
    if model is not None:
        return model
    text = (d.text or "").strip()
    if not text:
        raise InputError("the draw.io diagram is empty", file=file)

    return safe_xml_root(_inflate(text, file).encode("utf-8"), file=file, what="draw.io diagram")


def _inflate(text: str, file: str | None) -> str:
    """draw.io's compressed form: base64 of raw deflate of the URL-encoded XML."""
    try:
        raw = base64.b64decode("".join(text.split()), validate=True)
        d = zlib.decompressobj(-15)
        data = d.decompress(raw, MAX_INFLATED_BYTES)
        if not data.strip():
            raise ValueError("no data")
        if d.unconsumed_tail:
            raise InputError(f"the compressed draw.io diagram inflates beyond {MAX_INFLATED_BYTES // 2**20} MB",
                             file=file)
        return unquote(data.decode("utf-8"))
    except (ValueError, zlib.error, UnicodeDecodeError) as e:
        raise InputError(f"cannot decompress the draw.io diagram ({e})", file=file) from None


def _page_title(root: ET.Element, page: int) -> str | None:
    if root.tag != "mxfile":
        return None
    diagrams = root.findall("diagram")
    name = diagrams[page].get("name") if page < len(diagrams) else None
    return None if not name or re.fullmatch(r"Page-\d+", name) else name


class _Importer:
    def __init__(self, cells: list[_Cell], *, file: str | None, page_name: str | None,
                 page_background: str | None = None) -> None:
        self.file = file
        self.cells = {c.id: c for c in cells if c.id}
        self.order = [c.id for c in cells if c.id]
        root = self.cells.get("0")
        self.figure_data: dict[str, Any] = {}
        if root is not None and root.attrs.get("crafterFigure"):
            try:
                data = json.loads(root.attrs["crafterFigure"])
                if isinstance(data, dict):
                    self.figure_data = data
            except json.JSONDecodeError:
                pass
        if not self.figure_data and page_name:
            self.figure_data = {"title": page_name}
        theme = get_theme(self.figure_data.get("theme", "paper")
                          if self.figure_data.get("theme") in ("paper", "slides", "mono") else "paper")
        # the page colour as draw.io last saved it (Format ▸ Background) wins over the one the
        # export wrote; the theme's own colour is no override
        if page_background and page_background != "none" and is_color(page_background):
            if page_background.upper() == theme.background.upper():
                self.figure_data.pop("background", None)
            else:
                self.figure_data["background"] = page_background
        page = self.figure_data.get("background")
        self.theme = replace(theme, background=page) if isinstance(page, str) and is_color(page) else theme
        self.layers = {cid for cid, c in self.cells.items() if c.parent in (None, "0") or cid == "0"}
        self.children: dict[str, list[str]] = {}  # parent cell id → child cell ids, in document order
        for cid in self.order:
            parent = self.cells[cid].parent
            if parent:
                self.children.setdefault(parent, []).append(cid)
        self.ids: dict[str, str] = {}  # cell id → component id
        self.used: set[str] = set()
        self.moved_cells: set[str] = set()  # cells whose box changed in draw.io
        # edges are routed after every vertex is read: (component data, cell, route still valid, label changed)
        self.pending_routes: list[tuple[dict[str, Any], _Cell, bool, bool]] = []

    # -- geometry -----------------------------------------------------------------
    def absolute(self, cell: _Cell) -> Box:
        """A vertex's box in page coordinates (children of containers are relative to them)."""
        x, y = cell.x, cell.y
        seen = {cell.id}
        p = cell.parent
        while p and p not in self.layers and p in self.cells and p not in seen:
            seen.add(p)
            pc = self.cells[p]
            if pc.edge:
                break
            x, y = x + pc.x, y + pc.y
            p = pc.parent
        return Box(x=x, y=y, w=max(cell.w, 0.0), h=max(cell.h, 0.0))

    def offset_of(self, cell_id: str | None) -> tuple[float, float]:
        if not cell_id or cell_id in self.layers or cell_id not in self.cells:
            return 0.0, 0.0
        b = self.absolute(self.cells[cell_id])
        return b.x, b.y

    # -- ids -----------------------------------------------------------------------
    def component_id(self, cell: _Cell, stored: dict[str, Any] | None) -> str:
        if cell.id in self.ids:
            return self.ids[cell.id]
        want = stored.get("id") if stored and isinstance(stored.get("id"), str) else cell.id
        if not re.fullmatch(ID_PATTERN, want or ""):
            want = re.sub(r"[^A-Za-z0-9_-]", "_", want or "cell")
            want = re.sub(r"-{2,}", "-", want).strip("-") or "cell"
            if not re.match(r"[A-Za-z_]", want):
                want = "c_" + want
        base, i = want, 2
        while want in self.used:
            want, i = f"{base}_{i}", i + 1
        self.used.add(want)
        self.ids[cell.id] = want
        return want

    # -- the figure -----------------------------------------------------------------
    def figure(self) -> Figure:
        comps: dict[str, dict[str, Any]] = {}
        stored_ids = set()
        # first pass: reserve the ids of cells Crafter wrote, so new cells never take them
        for cid in self.order:
            cell = self.cells[cid]
            stored = self.stored(cell)
            if stored is not None:
                self.component_id(cell, stored)
                stored_ids.add(cid)
        for cid in self.order:
            cell = self.cells[cid]
            if cid in self.layers or not (cell.vertex or cell.edge):
                continue
            if cell.vertex and cell.parent in self.cells and self.cells[cell.parent].edge:
                continue  # an edge label drawn as a child vertex: read with its edge
            stored = self.stored(cell)
            data = self.merge(cell, stored) if stored is not None else self.foreign(cell)
            if data is None:
                continue
            comps[cid] = data
        self.membership(comps)
        self.drop_dangling(comps)
        order = self.figure_data.get("order") if isinstance(self.figure_data.get("order"), list) else []
        by_comp = {d["id"]: d for d in comps.values()}
        ordered = [by_comp[i] for i in order if i in by_comp]
        in_order = set(order)
        ordered += [d for d in comps.values() if d["id"] not in in_order]
        fig_data = {k: v for k, v in self.figure_data.items() if k in FIGURE_FIELDS}
        fig_data["components"] = ordered
        return figure_from_data(fig_data, file=self.file)

    def stored(self, cell: _Cell) -> dict[str, Any] | None:
        text = cell.attrs.get("crafter")
        if not text:
            return None
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            return None
        if not isinstance(data, dict) or data.get("kind") not in ("node", "edge", "group", "text", "panel", "image",
                                                                   "path", "chart"):
            return None
        return data

    # -- merging a cell Crafter wrote --------------------------------------------------
    def merge(self, cell: _Cell, stored: dict[str, Any]) -> dict[str, Any] | None:
        data = dict(stored)
        data["id"] = self.component_id(cell, stored)
        try:
            comp = COMPONENT_TYPES[data["kind"]].model_validate(
                {k: v for k, v in data.items() if k not in ("members", "source", "target", "near")}
                | ({"source": "x", "target": "x"} if data["kind"] == "edge" else {}))
        except (ValidationError, SpecError, KeyError, TypeError):
            return self.foreign(cell)  # its Crafter data was damaged: read it like any draw.io cell
        if data["kind"] == "edge":
            return self.merge_edge(cell, data, comp)
        vis = None
        if comp.kind in ("node", "group", "text"):
            vis = visible_cell(comp, Figure(theme=self.theme.name), self.theme, {comp.id: comp}, {})
        style = cell.style
        if comp.kind == "panel":
            shown = data.get("label")
            text = cell.text
            old = " ".join(s for s in (shown, data.get("title")) if s)
            if shown is None:  # numbered automatically: compare with the title alone
                old = data.get("title") or ""
                text = re.sub(r"^\([a-z]+\)\s*", "", text)
            # a title of spaces only is drawn as nothing and reads back as nothing: no edit
            if text.strip() != old.strip():
                if shown and text.startswith(shown + " "):
                    data["title"] = text[len(shown) + 1:] or None
                else:
                    data["title"] = text or None
        elif vis is not None:
            self.merge_label(cell, data, comp, vis)
            exp = vis["style"]
            self.merge_colors(style, exp, data, comp)
        box = self.absolute(cell)
        if comp.kind == "text" and comp.rotate and abs(comp.rotate) % 180 == 90:
            box = Box(x=box.cx - box.h / 2, y=box.cy - box.w / 2, w=box.h, h=box.w)
        old_box = _component_box(comp, self.theme)
        if old_box is None or _moved(old_box, box):
            self.apply_box(data, comp, box, old_box)
            self.moved_cells.add(cell.id)
        return data

    def merge_label(self, cell: _Cell, data: dict[str, Any], comp: Component, vis: dict[str, Any]) -> None:
        field = {"node": "label", "group": "label", "text": "text"}.get(comp.kind)
        if field is None:
            return
        new = cell.text
        if new == vis["label"]:
            return
        if comp.kind == "group":
            data["label"] = new or None
            return
        old_value = data.get(field)
        if comp.kind == "node" and old_value is None:
            old_value = comp.id
        data[field] = merge_lines(old_value or "", vis["label"].split("\n"), new.split("\n"))

    def merge_colors(self, style: dict[str, str | None], exp: dict[str, str | None], data: dict[str, Any],
                     comp: Component) -> None:
        fields = {
            "node": {"fillColor": "fill", "strokeColor": "stroke", "fontColor": "text_color"},
            "group": {"fillColor": "fill", "strokeColor": "stroke", "fontColor": "text_color"},
            "text": {"fontColor": "color"},
        }.get(comp.kind, {})
        for key, field in fields.items():
            got = _color_value(style.get(key))
            if got is not None and got.upper() != (exp.get(key) or "").upper():
                data[field] = got
        if comp.kind in ("node", "text"):
            fs = _float(style.get("fontSize")) if style.get("fontSize") else None
            if fs and fs > 0 and abs(fs - _float(exp.get("fontSize"))) > 0.01:
                data["font_size"] = fs
            if style.get("fontStyle", "0") != exp.get("fontStyle"):
                bits = int(_float(style.get("fontStyle")))
                data["bold"], data["italic"] = bool(bits & 1), bool(bits & 2)
        if comp.kind == "node":
            sw = style.get("strokeWidth")
            if sw is not None and abs(_float(sw) - _float(exp.get("strokeWidth"))) > 0.01:
                data["stroke_width"] = max(_float(sw), 0.0)
            shape = shape_from_style(style)
            if shape != comp.shape and shape_from_style(exp) != shape:  # type: ignore[attr-defined]
                data["shape"] = shape
        if comp.kind == "group":
            style_now = _dash_back(style)
            if style_now != comp.style:  # type: ignore[attr-defined]
                data["style"] = style_now
        if comp.kind == "text":
            rot = _float(style.get("rotation"))
            if abs(rot - comp.rotate) > 0.01:  # type: ignore[attr-defined]
                data["rotate"] = rot

    def apply_box(self, data: dict[str, Any], comp: Component, box: Box, old: Box | None) -> None:
        """A moved or resized cell: new box, pinned; a path's outline follows its image."""
        if isinstance(comp, Path):
            if old is not None and old.w > 0 and old.h > 0:
                sx, sy = box.w / old.w, box.h / old.h
                m = (sx, 0.0, 0.0, sy, box.x - old.x * sx, box.y - old.y * sy)
                data["d"] = path_to_d(transform_path(parse_path(comp.d), m))
            return
        if isinstance(comp, Text) and comp.box is None and comp.at is not None:
            data["at"] = {"x": box.cx, "y": box.cy}
        else:
            data["box"] = box.model_dump()
        data["pinned"] = True

    def merge_edge(self, cell: _Cell, data: dict[str, Any], comp: Edge) -> dict[str, Any] | None:
        style = cell.style
        t = self.theme
        src, tgt = cell.source, cell.target
        if src not in self.cells or tgt not in self.cells:
            return None  # disconnected in draw.io: an edge must join two components
        reconnected = (src, tgt) != (data.get("source"), data.get("target"))
        color = _color_value(style.get("strokeColor"))
        exp_color = _hex(comp.color or t.edge_color)
        if color is not None and color.upper() != exp_color.upper():
            data["color"] = color
        sw = style.get("strokeWidth")
        exp_w = t.edge_width if comp.stroke_width is None else comp.stroke_width
        if sw is not None and abs(_float(sw) - exp_w) > 0.01:
            data["stroke_width"] = max(_float(sw), 0.0)
        dash = _dash_back(style)
        if dash != comp.style:
            data["style"] = dash
        for end, field in (("end", "head"), ("start", "tail")):
            got = _arrow_back(style, end)
            if got != getattr(comp, field):
                data[field] = got
        text = cell.text or self.child_label(cell)
        if comp.label_box is not None and comp.label:
            exp_label = "\n".join(wrap(comp.label, t.small_font_size, max(comp.label_box.w, t.small_font_size)
                                       + WRAP_SLACK))
        else:
            exp_label = comp.label or ""
        label_changed = text != exp_label
        if label_changed:
            data["label"] = merge_lines(comp.label or "", exp_label.split("\n"), text.split("\n")) or None
        old_points = [(p.x, p.y) for p in comp.route[1:-1]] if comp.route and len(comp.route) >= 2 else []
        points = cell.points
        same_points = len(points) == len(old_points) and all(
            abs(a[0] - b[0]) <= GEOMETRY_TOLERANCE and abs(a[1] - b[1]) <= GEOMETRY_TOLERANCE
            for a, b in zip(points, old_points))
        self.pending_routes.append((data, cell, same_points and not reconnected, label_changed))
        return data

    def child_label(self, edge_cell: _Cell) -> str:
        for cid in self.children.get(edge_cell.id, []):
            c = self.cells[cid]
            if c.vertex and c.text:
                return c.text
        return ""

    # -- cells drawn in draw.io ---------------------------------------------------------
    def foreign(self, cell: _Cell) -> dict[str, Any] | None:
        style = cell.style
        cid = self.component_id(cell, None)
        if cell.edge:
            if cell.source not in self.cells or cell.target not in self.cells:
                return None
            data: dict[str, Any] = {"id": cid, "kind": "edge", "source": cell.source, "target": cell.target}
            text = cell.text or self.child_label(cell)
            if text:
                data["label"] = text
            color = _color_value(style.get("strokeColor"))
            if color and color != "none":
                data["color"] = color
            data["style"] = _dash_back(style)
            data["head"] = _arrow_back(style, "end", default="arrow")
            data["tail"] = _arrow_back(style, "start", default="none")
            # draw.io draws an edge without an edge style as straight segments through its waypoints
            if style.get("curved") == "1":
                data["routing"] = "spline"
            elif style.get("edgeStyle") in (None, "none"):
                data["routing"] = "straight"
            self.pending_routes.append((data, cell, False, True))
            return data
        box = self.absolute(cell)
        first = next(iter(style), None)
        image = style.get("image")
        if style.get("shape") == "image" or (first == "image"):
            href = _href_from_drawio(image or "")
            if href is None:
                return None  # external or unsupported image: not imported (no external references)
            return {"id": cid, "kind": "image", "href": href, "box": box.model_dump(), "pinned": True}
        container = style.get("container") == "1" or first in ("swimlane", "group") or style.get("shape") == "swimlane"
        children = any(self.cells[c].vertex or self.cells[c].edge for c in self.children.get(cell.id, []))
        if container or (first == "group" and children):
            data = {"id": cid, "kind": "group", "box": box.model_dump(), "pinned": True}
            if cell.text:
                data["label"] = " ".join(cell.text.split("\n"))
            if first == "group":
                data["fill"], data["stroke"] = "none", "none"
            else:
                self.colors_into(style, data, {"fillColor": "fill", "strokeColor": "stroke", "fontColor": "text_color"})
            data["style"] = _dash_back(style)
            return data
        is_text = first == "text" or style.get("shape") == "text" or (
            style.get("strokeColor") == "none" and style.get("fillColor") in ("none", None) and "shape" not in style
            and first not in _SHAPE_BACK and first not in ("ellipse", "rhombus"))
        if is_text:
            if not cell.text.strip():
                return None
            data = {"id": cid, "kind": "text", "text": cell.text, "box": box.model_dump(), "pinned": True}
            self.colors_into(style, data, {"fontColor": "color"})
            self.font_into(style, data)
            rot = _float(style.get("rotation"))
            if rot:
                data["rotate"] = rot
            return data
        data = {"id": cid, "kind": "node", "shape": shape_from_style(style), "box": box.model_dump(), "pinned": True}
        data["label"] = cell.text
        self.colors_into(style, data, {"fillColor": "fill", "strokeColor": "stroke", "fontColor": "text_color"})
        self.font_into(style, data)
        return data

    def colors_into(self, style: dict[str, str | None], data: dict[str, Any], keys: dict[str, str]) -> None:
        for key, field in keys.items():
            v = _color_value(style.get(key))
            if v is not None:
                data[field] = v

    def font_into(self, style: dict[str, str | None], data: dict[str, Any]) -> None:
        fs = _float(style.get("fontSize"))
        if fs > 0:
            data["font_size"] = fs
        bits = int(_float(style.get("fontStyle")))
        if bits & 1:
            data["bold"] = True
        if bits & 2:
            data["italic"] = True

    # -- figure-wide fix-ups --------------------------------------------------------------
    def membership(self, comps: dict[str, dict[str, Any]]) -> None:
        """Groups and panels hold the cells drawn inside them; edges get their routes."""
        containers = {cid for cid, d in comps.items() if d["kind"] in ("group", "panel")}
        children: dict[str, list[str]] = {cid: [] for cid in containers}
        for cid in self.order:
            if cid in comps and comps[cid]["kind"] != "edge":
                p = self.cells[cid].parent
                if p in containers:
                    children[p].append(comps[cid]["id"])
        for cid in containers:
            d = comps[cid]
            old = [m for m in d.get("members", []) if isinstance(m, str)]
            now = children[cid]
            kept = [m for m in old if m in now or self.non_vertex_member(m, comps)]
            d["members"] = kept + [m for m in now if m not in kept]
        for data, cell, unchanged, label_changed in self.pending_routes:
            self.route_edge(data, cell, comps, unchanged, label_changed)

    def non_vertex_member(self, member: str, comps: dict[str, dict[str, Any]]) -> bool:
        """Members that export does not nest (edges) stay members while they exist."""
        return any(d["id"] == member and d["kind"] == "edge" for d in comps.values())

    def route_edge(self, data: dict[str, Any], cell: _Cell, comps: dict[str, dict[str, Any]], unchanged: bool,
                   label_changed: bool) -> None:
        src, tgt = comps.get(cell.source or ""), comps.get(cell.target or "")
        if src is None or tgt is None or src["kind"] == "edge" or tgt["kind"] == "edge":
            data["_drop"] = True
            return
        data["source"], data["target"] = src["id"], tgt["id"]
        moved = cell.source in self.moved_cells or cell.target in self.moved_cells
        if unchanged and not moved and data.get("route"):
            if not label_changed:
                return
            if data.get("label"):
                route = [(p["x"], p["y"]) for p in data["route"]]
                box = label_box_at_half_length(data["label"], route, self.theme)
                data["label_box"] = {k: round(v, 2) for k, v in box.model_dump().items()}
            elif not data.get("label"):
                data.pop("label_box", None)
            return
        sb, tb = _box_of(src, self.theme), _box_of(tgt, self.theme)
        if sb is None or tb is None:
            data.pop("route", None)
            data.pop("label_box", None)
            return
        routing = data.get("routing") or self.figure_data.get("routing") or "orthogonal"
        reroute(data, sb, tb, self.theme, via=list(cell.points), orthogonal=routing == "orthogonal")

    def drop_dangling(self, comps: dict[str, dict[str, Any]]) -> None:
        """Edges whose ends were deleted go too; references to deleted components are cleared."""
        for cid in [c for c, d in comps.items() if d.pop("_drop", False)]:
            del comps[cid]
        alive = {d["id"] for d in comps.values()}
        for cid in list(comps):
            d = comps[cid]
            if d["kind"] == "edge" and (d["source"] not in alive or d["target"] not in alive):
                del comps[cid]
        alive = {d["id"] for d in comps.values()}
        for d in comps.values():
            if "members" in d:
                d["members"] = [m for m in d["members"] if m in alive]
            if d["kind"] == "text" and d.get("near") not in (None, *alive):
                d["near"] = None


# -- import helpers -------------------------------------------------------------------


def shape_from_style(style: dict[str, str | None]) -> str:
    shape = style.get("shape")
    if shape in _SHAPE_BACK:
        found = _SHAPE_BACK[shape]
    else:
        first = next((k for k, v in style.items() if v is None), None)
        found = _SHAPE_BACK.get(first or "", "box")
    if found == "ellipse" and style.get("aspect") == "fixed":
        found = "circle"
    if found == "box" and style.get("rounded") == "1":
        found = "round"
    return found if found in SHAPES else "box"


def _color_value(v: str | None) -> str | None:
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
        return _hex(v)
    return None


def _dash_back(style: dict[str, str | None]) -> str:
    if style.get("dashed") != "1":
        return "solid"
    pattern = [_float(x) for x in (style.get("dashPattern") or "").split()]
    if pattern and pattern[0] <= 1.5:
        return "dotted"
    return "dashed"


def _arrow_back(style: dict[str, str | None], end: str, default: str | None = None) -> str:
    name = style.get(f"{end}Arrow")
    if name is None:
        # draw.io's defaults: a classic head at the target end, nothing at the source
        return default if default is not None else ("arrow" if end == "end" else "none")
    return _ARROW_BACK.get(name, "arrow" if name else "none")


def _href_from_drawio(image: str) -> str | None:
    m = re.fullmatch(r"data:image/(png|jpeg|jpg|webp|gif)(?:;base64)?,([A-Za-z0-9+/=\s]+)", image.strip())
    if not m:
        return None
    kind = "jpeg" if m.group(1) == "jpg" else m.group(1)
    return f"data:image/{kind};base64,{''.join(m.group(2).split())}"


def _moved(a: Box, b: Box) -> bool:
    return any(abs(u - v) > GEOMETRY_TOLERANCE for u, v in ((a.x, b.x), (a.y, b.y), (a.w, b.w), (a.h, b.h)))


def _box_of(d: dict[str, Any], t: Theme) -> Box | None:
    if d.get("box"):
        return Box.model_validate(d["box"])
    return None


class _HtmlText(HTMLParser):
    """Text of a draw.io HTML label: tags dropped, <br>/<div>/<p> as line breaks, entities decoded."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag == "br":
            self.parts.append("\n")
        elif tag in ("div", "p", "li") and self.parts and not self.parts[-1].endswith("\n"):
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def html_to_text(value: str) -> str:
    p = _HtmlText()
    p.feed(value)
    p.close()
    text = "".join(p.parts).replace("\xa0", " ")
    return "\n".join(line.rstrip() for line in text.strip("\n").split("\n"))
