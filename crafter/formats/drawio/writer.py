"""draw.io export: a figure as an uncompressed diagrams.net (mxGraph XML) document.

Every component becomes one cell whose id is the component id. Nodes are vertices with
draw.io's matching shapes (rhombus, ellipse, cylinder3, parallelogram, hexagon, document,
layered_rect…) and the figure's colours; groups and panels are containers, their members
children with coordinates relative to the container (so dragging a group drags its
members); edges name their ``source`` and ``target`` cells (so they follow a moved box)
and carry the layout route as waypoints, labels, dashes and arrowheads. Charts and paths
become SVG images, raster images image cells. Labels are plain text (no HTML), broken into
the lines the SVG shows.

Each cell is wrapped in an ``<object>`` carrying ``crafter`` — the component as JSON —
and the root cell carries the figure's own fields, so nothing the FigureSpec holds is
lost in draw.io. :func:`visible_cell` is what draw.io shows of a component; the reader
(:mod:`crafter.formats.drawio.reader`) compares a cell with it to see what a user changed.
"""

from __future__ import annotations

import base64
import html
import json
import re
from typing import Any
from xml.etree import ElementTree as ET

from crafter.base.geometry import TRAPEZOIDS, trapezoid_inset
from crafter.base.markup import SVG_NS, esc_text, num
from crafter.base.rules import (
    EXPORT_LAYERS,
    WRAP_SLACK,
    drawing_order,
    edge_font,
    group_bold,
    group_font,
    group_stroke_width,
    panel_letters,
    readable_on,
    wrap_width,
)
from crafter.base.svgpath import parse_path, path_bbox, path_to_d, transform_path
from crafter.base.text import FONT_CLASS_FAMILIES, text_width, wrap
from crafter.base.theme import Theme, figure_theme
from crafter.formats.drawio.style import (
    ARROWS,
    TRAPEZOID_DIRECTION,
    dash_keys,
    decimals,
    drawio_data_uri,
    font_style_bits,
    format_style,
    hex_color,
    opacity_key,
)
from crafter.render.svg import draw_svg, ensure_layout
from crafter.spec.markup import has_markup, segments
from crafter.spec.model import Box, Chart, Component, Edge, Figure, Group, Image, Node, Panel, Path, Size, Text, parents

FIGURE_FIELDS = ("version", "title", "caption", "theme", "direction", "routing", "width_in", "background", "canvas")


def figure_to_drawio(fig: Figure) -> str:
    """A figure (laid out first if it lacks geometry) as an uncompressed ``.drawio`` document."""
    fig = ensure_layout(fig)
    t = figure_theme(fig)
    parent_of = parents(fig)
    by_id = fig.by_id()
    # containers before their members (draw.io needs parents first), back to front
    order = drawing_order(fig, EXPORT_LAYERS, parent_of)
    canvas = fig.canvas or Size(w=max((c.box.right for c in fig.components if c.box), default=800),
                                h=max((c.box.bottom for c in fig.components if c.box), default=600))
    mxfile = ET.Element("mxfile", host="Crafter", agent="Crafter", type="device", compressed="false")
    diagram = ET.SubElement(mxfile, "diagram", id="crafter-figure", name=_page_name(fig))
    model = ET.SubElement(diagram, "mxGraphModel", dx="0", dy="0", grid="1", gridSize="10", guides="1",
                          tooltips="1", connect="1", arrows="1", fold="1", page="1", pageScale="1",
                          pageWidth=num(max(canvas.w, 100)), pageHeight=num(max(canvas.h, 100)),
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


def _cell(c: Component, fig: Figure, t: Theme, by_id: dict[str, Component],
          parent_of: dict[str, str]) -> ET.Element | None:
    vis = visible_cell(c, fig, t, by_id, parent_of)
    if vis is None:
        return None
    label = markup_html(vis["label"]) if vis["style"].get("html") == "1" else vis["label"]
    obj = ET.Element("object", id=c.id, label=label, crafterKind=c.kind,
                     crafter=_json(c.model_dump(mode="json", exclude_defaults=True)))
    if vis.get("tooltip"):
        obj.set("tooltip", vis["tooltip"])
    attrs = {"style": format_style(vis["style"]), "parent": vis["parent"]}
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
        ET.SubElement(geo, "mxPoint", x=num(sp[0]), y=num(sp[1]), **{"as": "sourcePoint"})
        ET.SubElement(geo, "mxPoint", x=num(tp[0]), y=num(tp[1]), **{"as": "targetPoint"})
        if vis["points"]:
            arr = ET.SubElement(geo, "Array", **{"as": "points"})
            for x, y in vis["points"]:
                ET.SubElement(arr, "mxPoint", x=num(x), y=num(y))
    else:
        x, y, w, h = vis["geometry"]
        ET.SubElement(cell, "mxGeometry", x=num(x), y=num(y), width=num(w), height=num(h), **{"as": "geometry"})
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
    box = component_box(c, t)
    if box is None:
        return None
    ox, oy = (parent_box.x, parent_box.y) if parent_box is not None else (0.0, 0.0)
    out["geometry"] = (box.x - ox, box.y - oy, box.w, box.h)
    out["box"] = box
    style: dict[str, str] = {}
    if isinstance(c, Node):
        style = _node_style(c, t, box)
        fs = c.font_size or t.font_size
        out["label"] = "\n".join(wrap(c.text, fs, wrap_width(c, box.w, t), bold=c.bold, italic=c.italic))
    elif isinstance(c, Group):
        bold, width = group_bold(c, t), group_stroke_width(c, t)
        style = {"rounded": "1", "absoluteArcSize": "1", "arcSize": num(2 * t.corner_radius), "whiteSpace": "wrap",
                 "html": "0", "container": "1", "collapsible": "0", "recursiveResize": "0", "verticalAlign": "top",
                 "align": "left", "spacingLeft": num(t.group_label_inset - 2), "spacingTop": "-2",
                 "fontStyle": "1" if bold else "0", "fontSize": num(group_font(c, t)),
                 "fillColor": hex_color(c.fill or t.group_fill), "strokeColor": hex_color(c.stroke or t.group_stroke),
                 "fontColor": hex_color(c.text_color or t.group_text_color), "strokeWidth": num(width)}
        style.update(dash_keys(t.frame_dash(c.style)))
        out["label"] = " ".join((c.label or "").split("\n"))
    elif isinstance(c, Panel):
        index = [p.id for p in fig.components if isinstance(p, Panel)].index(c.id)
        shown = c.label if c.label is not None else f"({panel_letters(index)})"
        style = {"rounded": "0", "whiteSpace": "wrap", "html": "0", "container": "1", "collapsible": "0",
                 "recursiveResize": "0", "fillColor": "none", "strokeColor": "none", "verticalAlign": "top",
                 "align": "left", "spacingLeft": "2", "spacingTop": "-2", "fontSize": num(t.panel_font_size),
                 "fontColor": hex_color(t.text_color)}
        out["label"] = " ".join(s for s in (shown, c.title) if s)
    elif isinstance(c, Text):
        fs = c.font_size or t.small_font_size
        style = {"text": None, "html": "0", "whiteSpace": "wrap", "align": "center", "verticalAlign": "middle",
                 "strokeColor": "none", "fillColor": "none", "fontSize": num(fs),
                 "fontColor": hex_color(c.color or t.annotation_color), "fontStyle": font_style_bits(c.bold, c.italic)}
        if c.rotate:
            style["rotation"] = num(c.rotate)
        width = box.h if abs(c.rotate) % 180 == 90 else box.w
        out["label"] = "\n".join(wrap(c.text, fs, max(width, fs) + WRAP_SLACK, bold=c.bold, italic=c.italic)
                                 if c.box is not None else c.text.split("\n"))
        if c.rotate and abs(c.rotate) % 180 == 90:
            # draw.io rotates the cell about its centre: give it the unrotated size
            out["geometry"] = (box.cx - box.h / 2 - ox, box.cy - box.w / 2 - oy, box.h, box.w)
    elif isinstance(c, Image):
        style = {"shape": "image", "imageAspect": "0", "image": drawio_data_uri(c.href)}
        out["label"] = ""
        out["tooltip"] = c.alt or ""
    elif isinstance(c, (Chart, Path)):
        svg = _component_svg(c, fig, box)
        style = {"shape": "image", "imageAspect": "0", "noLabel": "1",
                 "image": "data:image/svg+xml," + base64.b64encode(svg.encode("utf-8")).decode("ascii")}
        out["label"] = (c.title or "") if isinstance(c, Chart) else ""
    if isinstance(c, (Node, Text)):
        if has_markup(out["label"]):  # sub- and superscripts as <sub>/<sup> in an HTML label
            style["html"] = "1"
        if c.font:
            style["fontFamily"] = FONT_CLASS_FAMILIES[c.font].split(",")[0]
    out["style"] = style
    return out


def markup_html(label: str) -> str:
    """A label with sub- and superscripts (``T_{1}``) as draw.io HTML: ``T<sub>1</sub>``, lines
    joined with ``<br>``."""
    out = []
    for piece, shift in segments(label):
        body = html.escape(piece, quote=False).replace("\n", "<br>")
        out.append(f"<{shift[:3]}>{body}</{shift[:3]}>" if shift else body)
    return "".join(out)


def component_box(c: Component, t: Theme) -> Box | None:
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
        style = {"rounded": "1", "absoluteArcSize": "1", "arcSize": num(2 * min(t.corner_radius, b.w / 2, b.h / 2))}
    elif shape == "ellipse":
        style = {"ellipse": None}
    elif shape == "circle":
        style = {"ellipse": None, "aspect": "fixed"}
    elif shape == "diamond":
        style = {"rhombus": None}
    elif shape == "cylinder":
        style = {"shape": "cylinder3", "boundedLbl": "1", "backgroundOutline": "1",
                 "size": num(min(b.h * 0.12, b.w * 0.25, 7.0))}
    elif shape == "parallelogram":
        style = {"shape": "parallelogram", "perimeter": "parallelogramPerimeter", "fixedSize": "1",
                 "size": num(min(b.h * 0.35, b.w * 0.2))}
    elif shape == "hexagon":
        style = {"shape": "hexagon", "perimeter": "hexagonPerimeter2", "fixedSize": "1",
                 "size": num(min(b.h * 0.3, b.w * 0.2))}
    elif shape in TRAPEZOIDS:  # draw.io's trapezoid is narrow on top; its direction turns it
        style = {"shape": "trapezoid", "perimeter": "trapezoidPerimeter", "fixedSize": "1",
                 "size": num(trapezoid_inset(shape, b.w, b.h)), "direction": TRAPEZOID_DIRECTION[shape]}
    elif shape == "document":
        style = {"shape": "document", "boundedLbl": "1", "size": num(min(0.1 * 2, 10.0 / max(b.h, 1)))}
    elif shape == "stack":
        style = {"shape": "mxgraph.basic.layered_rect", "dx": num(2 * min(4.0, b.h * 0.1, b.w * 0.05)),
                 "outlineConnect": "0"}
    else:
        style = {"rounded": "0"}
    fill = n.fill or t.node_fill
    style.update({
        "whiteSpace": "wrap", "html": "0",
        "fillColor": hex_color(fill), "strokeColor": hex_color(n.stroke or t.node_stroke),
        "strokeWidth": num(t.stroke_width if n.stroke_width is None else n.stroke_width),
        "fontColor": hex_color(n.text_color or readable_on(fill, t)), "fontSize": num(n.font_size or t.font_size),
        "fontStyle": font_style_bits(n.bold, n.italic),
    })
    style.update(opacity_key("fillOpacity", fill))
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
        "strokeColor": hex_color(color), "strokeWidth": num(t.edge_width if e.stroke_width is None else e.stroke_width),
        "fontSize": num(edge_font(e, t)), "fontColor": hex_color(t.edge_label_color),
        "labelBackgroundColor": hex_color(t.background),
    }
    if routing == "spline":
        style["curved"] = "1"
    style.update(opacity_key("strokeOpacity", color))
    style.update(dash_keys(e.style))
    for end, head in (("end", e.head), ("start", e.tail)):
        name, fill = ARROWS[t.head_kind(head)]
        style[f"{end}Arrow"] = name
        if fill is not None:
            style[f"{end}Fill"] = str(fill)
        if e.head_size is not None:
            style[f"{end}Size"] = num(e.head_size)
    for prefix, comp, p in (("exit", src, route[0]), ("entry", tgt, route[-1])):
        rel = _relative_port(comp.box, p)
        if rel is not None:
            style[f"{prefix}X"], style[f"{prefix}Y"] = decimals(rel[0], 4), decimals(rel[1], 4)
            style[f"{prefix}Dx"] = style[f"{prefix}Dy"] = "0"
    out.update(style=style, source=e.source, target=e.target, ends=(route[0], route[-1]), points=route[1:-1],
               label="\n".join(wrap(e.label, edge_font(e, t), max(e.label_box.w, edge_font(e, t)) + WRAP_SLACK))
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
    solo = Figure(theme=fig.theme, style=fig.style,
                  canvas=Size(w=max(box.w, 1), h=max(box.h, 1)), components=[moved])
    try:
        svg = draw_svg(solo, embed_spec=False)
    # The image is only a picture of the chart (its spec travels in the cell's data), so a spec
    # the chart renderer cannot draw, for whatever reason, gets a labelled frame instead.
    except Exception as e:  # noqa: BLE001
        t = figure_theme(fig)
        title = esc_text(getattr(c, "title", None) or "chart")
        svg = (f'<svg xmlns="{SVG_NS}" width="{num(box.w)}" height="{num(box.h)}">'
               f'<rect x="0.5" y="0.5" width="{num(max(box.w - 1, 0))}" height="{num(max(box.h - 1, 0))}" '
               f'fill="none" stroke="{t.group_stroke}" stroke-dasharray="4,3"/>'
               f'<text x="{num(box.w / 2)}" y="{num(box.h / 2)}" text-anchor="middle" font-size="12" '
               f'font-family="DejaVu Sans, sans-serif">{title}</text><!-- {esc_text(str(e))} --></svg>')
    # the solo figure's viewBox may carry a margin; pin it to the component's own extent
    return re.sub(r'viewBox="[^"]*"', f'viewBox="0 0 {num(max(box.w, 1))} {num(max(box.h, 1))}"',
                  re.sub(r'(<svg[^>]*?) width="[^"]*" height="[^"]*"',
                         rf'\1 width="{num(max(box.w, 1))}" height="{num(max(box.h, 1))}"', svg, count=1), count=1)


def _json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
