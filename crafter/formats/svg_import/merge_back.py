"""Merge-back: a Crafter SVG edited in Inkscape or Illustrator, folded back into its figure.

A Crafter SVG carries its figure in ``<metadata>``. The figure is drawn again with the
renderer, and the file is compared with that drawing component by component (each is one
``<g id=… data-crafter-kind=…>``). What a person changed is merged into the figure: a
label retyped (``<text>`` with Inkscape's ``sodipodi:role="line"`` tspans), a fill or
stroke recoloured (attribute or ``style``), a box moved or resized (``x``/``y``/``width``
or a ``transform`` on the group or any ancestor, e.g. an Inkscape layer) — the box is then
pinned so the layout keeps it, and the edges follow — a component deleted (with the edges
that hung on it), the title retyped, and shapes or text drawn in addition (imported as new
components, as a foreign SVG's are). An unedited file gives back exactly the embedded figure.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator
from xml.etree import ElementTree as ET

from defusedxml import ElementTree as SafeET

from crafter.base.markup import SVG_NS
from crafter.base.svgpath import (
    IDENTITY,
    Matrix,
    apply,
    multiply,
    parse_transform,
    path_bbox,
    path_to_d,
    transform_path,
)
from crafter.formats.merge import EditMerger, edges_follow, frame_around, merge_lines, notes_follow, remove_components
from crafter.formats.sanitize import MAX_TREE_DEPTH, ImportReport, local_name
from crafter.formats.svg_import.elements import (
    NOT_DRAWN,
    SHAPE_TAGS,
    css_color,
    effective_style,
    length,
    shape_segments,
    text_anchor_point,
    text_lines,
)
from crafter.formats.svg_import.foreign import ForeignImporter
from crafter.render.svg import draw_svg
from crafter.spec.model import Figure, figure_from_data, parents

GEOMETRY_TOLERANCE = 0.5  # px; the SVG writer rounds coordinates to 0.01



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
            x, y = length(el.get("x"), 0), length(el.get("y"), 0)
            w, h = length(el.get("width"), 0), length(el.get("height"), 0)
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
            tag = local_name(child.tag)
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
            if local_name(child.tag) in NOT_DRAWN or depth > MAX_TREE_DEPTH:
                continue
            cm = multiply(m, parse_transform(child.get("transform")))
            cstyle = effective_style(child, style)
            if child.get("data-crafter-kind"):
                cid = child.get("data-crafter-id") or child.get("id")
                if cid and cid not in found:
                    found[cid] = (child, cm, cstyle)
            elif local_name(child.tag) in ("g", "a", "switch", "svg"):
                stack.append((child, cm, cstyle, depth + 1))
    return found


def merge_svg_edits(root: ET.Element, fig: Figure, *, report: ImportReport | None = None,
                    file: str | None = None) -> Figure:
    """The embedded figure with the edits made to its drawing merged in (``fig`` itself if none)."""
    report = report if report is not None else ImportReport()
    original = SafeET.fromstring(draw_svg(fig).encode("utf-8"))
    return _Merger(fig, original, root, report, file).run()


class _Merger(EditMerger):
    def __init__(self, fig: Figure, original: ET.Element, edited: ET.Element, report: ImportReport,
                 file: str | None) -> None:
        super().__init__(fig, report, file)
        self.original = original
        self.edited = edited
        self.orig_groups = _component_groups(original)
        self.edit_groups = _component_groups(edited)
        self.ids_map = {el.get("id"): el for el in edited.iter() if el.get("id")}
        self.moved: dict[str, _Move] = {}

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
        notes_follow(self.data, shifts)  # annotations placed near a moved component move with it
        edges_follow(self.data, shifts, resized, self.theme, self.fig.routing)
        # group and panel frames grow to hold members moved out of them
        parent_of = parents(self.fig)
        depth = {cid: 0 for cid in self.data}
        for cid in self.data:
            p, k = cid, 0
            while p in parent_of:
                p, k = parent_of[p], k + 1
            depth[cid] = k
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
            x0, y0, x1, y1 = frame_around(g, members, self.theme)
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
        imp = ForeignImporter(self.edited, self.report, self.file)
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
                tag = local_name(child.tag)
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
