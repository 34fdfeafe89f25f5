"""draw.io import: a ``.drawio`` document read back into a FigureSpec, edits merged.

:func:`drawio_to_figure` reads the cells back and **merges** what someone changed in
diagrams.net into the components the writer stored in them
(:mod:`crafter.formats.drawio.writer`): a new label, colour, shape, dash or arrowhead, a
moved or resized box (pinned, so layout keeps it), a node dragged into another container,
a deleted cell. Cells without ``crafter`` data (added in draw.io, or a whole diagram drawn
there) become new components. Compressed diagrams (deflate + base64, draw.io's older
default) are read too. The XML goes through the same safe parser as SVG import
(:func:`crafter.formats.sanitize.safe_xml_root`).
"""

from __future__ import annotations

import base64
import json
import re
import zlib
from dataclasses import replace
from html.parser import HTMLParser
from typing import Any
from urllib.parse import unquote
from xml.etree import ElementTree as ET

from pydantic import ValidationError

from crafter.base.rules import WRAP_SLACK, edge_font
from crafter.base.svgpath import parse_path, path_to_d, transform_path
from crafter.base.text import wrap
from crafter.base.theme import Theme, get_theme
from crafter.errors import InputError, SpecError
from crafter.formats.drawio.style import (
    SHAPE_BACK,
    arrow_from_style,
    color_from_style,
    dash_from_style,
    head_size_from_style,
    hex_color,
    href_from_drawio,
    parse_style,
    shape_from_style,
    to_number,
)
from crafter.formats.drawio.writer import FIGURE_FIELDS, component_box, visible_cell
from crafter.formats.merge import label_box_at_half_length, merge_lines, reroute
from crafter.formats.sanitize import InflateLimit, capped_inflate, safe_xml_root
from crafter.spec.colors import is_color
from crafter.spec.model import COMPONENT_TYPES, ID_PATTERN, Box, Component, Edge, Figure, Path, Text, figure_from_data

MAX_DRAWIO_BYTES = 50 * 1024 * 1024
MAX_INFLATED_BYTES = 100 * 1024 * 1024  # a compressed diagram may not inflate beyond this
GEOMETRY_TOLERANCE = 0.5  # px: coordinates are written with two decimals


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
            self.x, self.y = to_number(geo.get("x")), to_number(geo.get("y"))
            self.w, self.h = to_number(geo.get("width")), to_number(geo.get("height"))
            for p in geo.findall("mxPoint"):
                pt = (to_number(p.get("x")), to_number(p.get("y")))
                if p.get("as") == "sourcePoint":
                    self.source_point = pt
                elif p.get("as") == "targetPoint":
                    self.target_point = pt
            arr = geo.find("Array")
            if arr is not None:
                self.points = [(to_number(p.get("x")), to_number(p.get("y"))) for p in arr.findall("mxPoint")]

    @property
    def text(self) -> str:
        if self.style.get("html") == "1":
            return html_to_text(self.value)
        return self.value


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

    return safe_xml_root(inflate_diagram(text, file).encode("utf-8"), file=file, what="draw.io diagram")


def inflate_diagram(text: str, file: str | None = None) -> str:
    """draw.io's compressed form (base64 of raw deflate of the URL-encoded XML) as its XML, never inflated beyond
    :data:`MAX_INFLATED_BYTES` (:class:`InputError` then, as for anything that does not decompress)."""
    try:
        raw = base64.b64decode("".join(text.split()), validate=True)
        try:
            data = capped_inflate(raw, MAX_INFLATED_BYTES, -15)
        except InflateLimit:
            raise InputError(f"the compressed draw.io diagram inflates beyond {MAX_INFLATED_BYTES // 2**20} MB",
                             file=file) from None
        if not data.strip():
            raise ValueError("no data")
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
        old_box = component_box(comp, self.theme)
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
            got = color_from_style(style.get(key))
            if got is not None and got.upper() != (exp.get(key) or "").upper():
                data[field] = got
        if comp.kind in ("node", "text", "group"):
            fs = to_number(style.get("fontSize")) if style.get("fontSize") else None
            if fs and fs > 0 and abs(fs - to_number(exp.get("fontSize"))) > 0.01:
                data["font_size"] = fs
            if comp.kind != "group" and style.get("fontStyle", "0") != exp.get("fontStyle"):
                bits = int(to_number(style.get("fontStyle")))
                data["bold"], data["italic"] = bool(bits & 1), bool(bits & 2)
        if comp.kind == "node":
            sw = style.get("strokeWidth")
            if sw is not None and abs(to_number(sw) - to_number(exp.get("strokeWidth"))) > 0.01:
                data["stroke_width"] = max(to_number(sw), 0.0)
            shape = shape_from_style(style)
            if shape != comp.shape and shape_from_style(exp) != shape:  # type: ignore[attr-defined]
                data["shape"] = shape
        if comp.kind == "group":
            style_now = dash_from_style(style)
            if style_now != comp.style:  # type: ignore[attr-defined]
                data["style"] = style_now
        if comp.kind == "text":
            rot = to_number(style.get("rotation"))
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
        color = color_from_style(style.get("strokeColor"))
        exp_color = hex_color(comp.color or t.edge_color)
        if color is not None and color.upper() != exp_color.upper():
            data["color"] = color
        sw = style.get("strokeWidth")
        exp_w = t.edge_width if comp.stroke_width is None else comp.stroke_width
        if sw is not None and abs(to_number(sw) - exp_w) > 0.01:
            data["stroke_width"] = max(to_number(sw), 0.0)
        dash = dash_from_style(style)
        if dash != comp.style:
            data["style"] = dash
        for end, field in (("end", "head"), ("start", "tail")):
            got = arrow_from_style(style, end)
            if got != getattr(comp, field):
                data[field] = got
        size = head_size_from_style(style)
        if (size is None) != (comp.head_size is None) or (size and comp.head_size and abs(size - comp.head_size) > 0.01):
            data["head_size"] = size
        fs = to_number(style.get("fontSize"))
        efs = edge_font(comp, t)
        if fs > 0 and abs(fs - efs) > 0.01:
            data["font_size"] = fs
        text = cell.text or self.child_label(cell)
        if comp.label_box is not None and comp.label:
            exp_label = "\n".join(wrap(comp.label, efs, max(comp.label_box.w, efs) + WRAP_SLACK))
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
            color = color_from_style(style.get("strokeColor"))
            if color and color != "none":
                data["color"] = color
            data["style"] = dash_from_style(style)
            data["head"] = arrow_from_style(style, "end", default="arrow")
            data["tail"] = arrow_from_style(style, "start", default="none")
            size = head_size_from_style(style)
            if size is not None:
                data["head_size"] = size
            fs = to_number(style.get("fontSize"))
            if fs > 0 and text:
                data["font_size"] = fs
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
            href = href_from_drawio(image or "")
            if href is None:
                return None  # external or unsupported image: not imported (no external references)
            return {"id": cid, "kind": "image", "href": href, "box": box.model_dump(), "pinned": True}
        container = style.get("container") == "1" or first in ("swimlane", "group") or style.get("shape") == "swimlane"
        children = any(self.cells[c].vertex or self.cells[c].edge for c in self.children.get(cell.id, []))
        if container or (first == "group" and children):
            data = {"id": cid, "kind": "group", "box": box.model_dump(), "pinned": True}
            if cell.text:
                data["label"] = " ".join(cell.text.split("\n"))
                fs = to_number(style.get("fontSize"))
                if fs > 0:
                    data["font_size"] = fs
            if first == "group":
                data["fill"], data["stroke"] = "none", "none"
            else:
                self.colors_into(style, data, {"fillColor": "fill", "strokeColor": "stroke", "fontColor": "text_color"})
            data["style"] = dash_from_style(style)
            return data
        is_text = first == "text" or style.get("shape") == "text" or (
            style.get("strokeColor") == "none" and style.get("fillColor") in ("none", None) and "shape" not in style
            and first not in SHAPE_BACK and first not in ("ellipse", "rhombus"))
        if is_text:
            if not cell.text.strip():
                return None
            data = {"id": cid, "kind": "text", "text": cell.text, "box": box.model_dump(), "pinned": True}
            self.colors_into(style, data, {"fontColor": "color"})
            self.font_into(style, data)
            rot = to_number(style.get("rotation"))
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
            v = color_from_style(style.get(key))
            if v is not None:
                data[field] = v

    def font_into(self, style: dict[str, str | None], data: dict[str, Any]) -> None:
        fs = to_number(style.get("fontSize"))
        if fs > 0:
            data["font_size"] = fs
        bits = int(to_number(style.get("fontStyle")))
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
                box = label_box_at_half_length(data["label"], route, self.theme, data.get("font_size"))
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


def _moved(a: Box, b: Box) -> bool:
    return any(abs(u - v) > GEOMETRY_TOLERANCE for u, v in ((a.x, b.x), (a.y, b.y), (a.w, b.w), (a.h, b.h)))


def _box_of(d: dict[str, Any], t: Theme) -> Box | None:
    if d.get("box"):
        return Box.model_validate(d["box"])
    return None


class _HtmlText(HTMLParser):
    """Text of a draw.io HTML label: tags dropped, <br>/<div>/<p> as line breaks, <sub>/<sup> as
    ``_{…}``/``^{…}``, entities decoded."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag == "br":
            self.parts.append("\n")
        elif tag in ("div", "p", "li") and self.parts and not self.parts[-1].endswith("\n"):
            self.parts.append("\n")
        elif tag in ("sub", "sup"):  # Crafter's markup for sub- and superscripts
            self.parts.append("_{" if tag == "sub" else "^{")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("sub", "sup"):
            self.parts.append("}")

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def html_to_text(value: str) -> str:
    p = _HtmlText()
    p.feed(value)
    p.close()
    text = "".join(p.parts).replace("\xa0", " ")
    return "\n".join(line.rstrip() for line in text.strip("\n").split("\n"))
