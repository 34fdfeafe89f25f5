"""Edits made to a Crafter PPTX, merged into the FigureSpec it carries, component by component.

The stored figure is written again (the same writer, in memory) and both drawings are read
the same way (:func:`crafter.formats.pptx.drawn.read_slides`); for each component id the
shapes are compared, so only what someone changed in PowerPoint counts, and whatever the
writer cannot say in DrawingML (a ``bar`` arrowhead, a CSS colour name) survives untouched:

* a label retyped (paragraphs are the author's lines; line breaks our wrapping), a title;
* a fill, outline or text colour, an outline width or dash, an arrowhead, a font size or
  weight, a node's preset changed ("Change Shape");
* a box moved or resized (then pinned, so layout keeps it; edges follow, frames grow to
  hold moved members), a text moved or turned;
* a connector glued to another shape (the edge's source or target), its label deleted;
* a component deleted (with the edges that hung on it), a chart's data edited ("Edit Data":
  values, added or removed categories and series, :mod:`crafter.formats.pptx.chart_data`),
  a picture replaced;
* shapes and connectors added (new components, :mod:`crafter.formats.pptx.convert`; one
  added inside a group shape of a Crafter group joins that group).

An unedited file gives back exactly the stored figure.
"""

from __future__ import annotations

from typing import Any

from crafter.base.svgpath import parse_path, path_to_d, transform_path
from crafter.formats.merge import EditMerger, remove_components
from crafter.formats.pptx.chart import native_chart
from crafter.formats.pptx.chart_data import merge_chart_data
from crafter.formats.pptx.convert import NewComponents, picture_href
from crafter.formats.pptx.drawn import Drawn, read_slides
from crafter.formats.pptx.follow import follow_moves
from crafter.formats.pptx.geometry import shape_from_preset
from crafter.formats.pptx.package import TITLE_KEY, SlideFrame
from crafter.formats.pptx.write import build_presentation
from crafter.spec.model import Box, Chart, Figure, figure_from_data, parents

GEOMETRY_TOLERANCE = 0.5  # px: EMU are rounded to whole numbers, far below this
FLOAT_TOLERANCE = 0.15  # px of font size or line width: LibreOffice saves font sizes to 0.1 pt (0.13 px)
KEY_ROLE = {"group": "frame", "panel": "frame"}  # the shape whose presence means the component is still there


def merge_pptx_edits(fig: Figure, payload: dict[str, Any], prs: Any, *, report: Any, file: str | None) -> Figure:
    """The stored figure with the edits made to its slides merged in (``fig`` itself when none)."""
    frames = [SlideFrame.from_dict(s["frame"]) for s in payload.get("slides") or []] or [
        SlideFrame(0.0, 0.0, 1.0, 1.0)]
    known = {c.id for c in fig.components} | {TITLE_KEY}
    # what the writer draws for the stored figure (shapes known by their names: tags come on saving)
    original, _ = build_presentation(fig, slides=payload.get("mode", "figure"))
    before = read_slides(original, frames, known)
    after = read_slides(prs, frames, known, file=file, report=report)
    return _Merger(fig, before, after, report, file).run()


def _index(drawn: list[Drawn]) -> tuple[dict[str, dict[str, Drawn]], list[Drawn]]:
    """component id → role → shape (the first of each), and the shapes that belong to none."""
    out: dict[str, dict[str, Drawn]] = {}
    extra: list[Drawn] = []
    for d in drawn:
        if d.cid is None or d.role in out.get(d.cid, {}):
            extra.append(d)  # not ours, or a copy of one of ours (PowerPoint copies names and tags)
        else:
            out.setdefault(d.cid, {})[d.role] = d
    return out, extra


class _Merger(EditMerger):
    def __init__(self, fig: Figure, before: list[Drawn], after: list[Drawn], report: Any, file: str | None) -> None:
        super().__init__(fig, report, file)
        self.before, _ = _index(before)
        self.after, self.extra = _index(after)
        self.shape_owner = {(d.slide, d.shape_id): d.cid for roles in self.after.values() for d in roles.values()}
        self.moved: dict[str, tuple[Box, Box]] = {}

    def run(self) -> Figure:
        removed: set[str] = set()
        for c in self.fig.components:
            role = KEY_ROLE.get(c.kind, "")
            b, a = self.before.get(c.id, {}), self.after.get(c.id, {})
            if role not in b:
                continue  # nothing was drawn for it
            if role not in a and not (c.kind == "node" and "label" in a):
                removed.add(c.id)
                self.note(f"{c.kind} '{c.id}' deleted")
                continue
            getattr(self, f"merge_{c.kind}")(self.data[c.id], b, a)
        self.merge_title()
        self.follow_moves()
        added = self.additions()
        if not self.changed:
            return self.fig
        comps = remove_components(list(self.data.values()), removed) + added
        out = self.fig.to_dict()
        out["components"] = comps
        return figure_from_data(out, file=self.file)

    # -- fields ---------------------------------------------------------------------
    def set(self, d: dict[str, Any], key: str, value: Any, what: str | None = None) -> None:
        if d.get(key) == value:
            return
        d[key] = value
        self.note(f"{d['kind']} '{d['id']}': {what or key.replace('_', ' ')} changed to {value!r}")

    def paint(self, d: dict[str, Any], b: Drawn, a: Drawn, fields: dict[str, str]) -> None:
        """Colours, widths, dashes and fonts that differ between the two drawings of a shape."""
        for attr, key in fields.items():
            old, new = getattr(b, attr), getattr(a, attr)
            if isinstance(old, float) and isinstance(new, float):
                if abs(old - new) > FLOAT_TOLERANCE:
                    self.set(d, key, round(new, 2))
            elif new != old and new is not None:
                self.set(d, key, new)

    def text(self, d: dict[str, Any], key: str, b: Drawn, a: Drawn, default: str = "", one_line: bool = False) -> None:
        if a.paragraphs == b.paragraphs:
            return
        new = a.text or ""
        if one_line:
            new = " ".join(new.split("\n"))
        old = d.get(key)
        if new != (default if old is None else old):
            self.set(d, key, new)

    def box(self, d: dict[str, Any], b: Drawn, a: Drawn) -> None:
        if d.get("box") is None and d["kind"] != "path":
            return
        ob, nb = b.box, a.box
        if any(abs(u - v) > GEOMETRY_TOLERANCE for u, v in zip((ob.x, ob.y, ob.w, ob.h), (nb.x, nb.y, nb.w, nb.h))):
            self.moved[d["id"]] = (ob, nb)

    # -- per kind -------------------------------------------------------------------
    def merge_node(self, d: dict[str, Any], b: dict[str, Drawn], a: dict[str, Drawn]) -> None:
        main_b, main_a = b[""], a.get("") or a["label"]
        label_b, label_a = b.get("label", main_b), a.get("label", main_a)
        self.text(d, "label", label_b, label_a, default=d["id"])
        self.paint(d, label_b, label_a, {"fill": "fill", "line": "stroke", "line_px": "stroke_width",
                                         "text_color": "text_color", "font_px": "font_size", "bold": "bold",
                                         "italic": "italic"})
        if d.get("shape", "box") != "stack" and main_a.prst != main_b.prst and main_a.prst:
            self.set(d, "shape", shape_from_preset(main_a.prst, main_a.box.w, main_a.box.h))
        self.box(d, main_b, main_a)

    def merge_edge(self, d: dict[str, Any], b: dict[str, Drawn], a: dict[str, Drawn]) -> None:
        cb, ca = b[""], a[""]
        for i, key in ((0, "source"), (1, "target")):
            shape_id = ca.glue[i]
            owner = self.shape_owner.get((ca.slide, shape_id)) if shape_id is not None else None
            if owner and owner != d[key] and owner in self.data and self.data[owner]["kind"] != "edge":
                self.set(d, key, owner, f"{key} (reconnected)")
        self.paint(d, cb, ca, {"line": "color", "line_px": "stroke_width", "dash": "style"})
        if ca.tail != cb.tail:
            self.set(d, "head", ca.tail)
        if ca.head != cb.head:
            self.set(d, "tail", ca.head)
        if "label" in b:
            if "label" not in a:
                for key in ("label", "label_box"):
                    d.pop(key, None)
                self.note(f"edge '{d['id']}': label deleted")
            else:
                self.text(d, "label", b["label"], a["label"])

    def merge_group(self, d: dict[str, Any], b: dict[str, Drawn], a: dict[str, Drawn]) -> None:
        fb, fa = b["frame"], a["frame"]
        if d.get("label"):
            self.text(d, "label", fb, fa, one_line=True)
        self.paint(d, fb, fa, {"fill": "fill", "line": "stroke", "dash": "style", "text_color": "text_color"})
        self.box(d, fb, fa)

    def merge_panel(self, d: dict[str, Any], b: dict[str, Drawn], a: dict[str, Drawn]) -> None:
        fb, fa = b["frame"], a["frame"]
        if fa.runs != fb.runs:
            label = "".join(t for t, bold in fa.runs if bold).strip()
            title = "".join(t for t, bold in fa.runs if not bold).strip()
            if not any(bold for _, bold in fa.runs) and fa.text:  # retyped in one run: "(a) Title"
                label, _, title = fa.text.partition(" ")
            old_label = d.get("label")
            if old_label is not None or label != "".join(t for t, bold in fb.runs if bold).strip():
                self.set(d, "label", label)
            if (title or None) != d.get("title"):
                self.set(d, "title", title or None)
                if d["title"] is None:
                    d.pop("title")
        self.box(d, fb, fa)

    def merge_text(self, d: dict[str, Any], b: dict[str, Drawn], a: dict[str, Drawn]) -> None:
        tb, ta = b[""], a[""]
        self.text(d, "text", tb, ta)
        self.paint(d, tb, ta, {"text_color": "color", "font_px": "font_size", "bold": "bold", "italic": "italic"})
        if abs(ta.rotation - tb.rotation) > 0.01:
            self.set(d, "rotate", round(((ta.rotation + 180) % 360) - 180, 2), "rotation")
        if abs(ta.box.cx - tb.box.cx) > GEOMETRY_TOLERANCE or abs(ta.box.cy - tb.box.cy) > GEOMETRY_TOLERANCE:
            self.moved[d["id"]] = (tb.box, ta.box)

    def merge_chart(self, d: dict[str, Any], b: dict[str, Drawn], a: dict[str, Drawn]) -> None:
        cb, ca = b[""], a[""]
        self.box(d, cb, ca)
        if cb.chart is None or ca.chart is None:
            return

        if ca.chart.title != cb.chart.title:
            self.set(d, "title", ca.chart.title or None)
        native = native_chart(Chart.model_validate({k: v for k, v in d.items() if k != "kind"} | {"kind": "chart"}),
                              self.theme)
        if native is None:
            return
        spec, notes = merge_chart_data(d["spec"], native.fields, cb.chart, ca.chart)
        if spec is None:
            if notes and self._data_edited(cb.chart, ca.chart):
                self.report.skipped.append(f"chart '{d['id']}': data edited in PowerPoint, not merged: {notes[0]}")
            return
        d["spec"] = spec
        self.note(f"chart '{d['id']}': data edited ({'; '.join(notes[:6])}{'…' if len(notes) > 6 else ''})")

    @staticmethod
    def _data_edited(b: Any, a: Any) -> bool:
        return (b.categories, b.series, b.points) != (a.categories, a.series, a.points)

    def merge_image(self, d: dict[str, Any], b: dict[str, Drawn], a: dict[str, Drawn]) -> None:
        ib, ia = b[""], a[""]
        self.box(d, ib, ia)
        if ia.image is not None and ib.image is not None and ia.image != ib.image:
            href = picture_href(ia.image, ia.image_type)
            if href is not None:
                d["href"] = href
                self.note(f"image '{d['id']}': picture replaced")

    def merge_path(self, d: dict[str, Any], b: dict[str, Drawn], a: dict[str, Drawn]) -> None:
        pb, pa = b[""], a[""]
        self.paint(d, pb, pa, {"fill": "fill", "line": "stroke", "line_px": "stroke_width"})
        ob, nb = pb.box, pa.box
        if any(abs(u - v) > GEOMETRY_TOLERANCE for u, v in zip((ob.x, ob.y, ob.w, ob.h), (nb.x, nb.y, nb.w, nb.h))):
            sx = nb.w / ob.w if ob.w > 1e-6 else 1.0
            sy = nb.h / ob.h if ob.h > 1e-6 else 1.0
            m = (sx, 0.0, 0.0, sy, nb.x - ob.x * sx, nb.y - ob.y * sy)
            d["d"] = path_to_d(transform_path(parse_path(d["d"]), m))
            self.note(f"path '{d['id']}' moved/resized")

    def merge_title(self) -> None:
        tb, ta = self.before.get(TITLE_KEY, {}).get("title"), self.after.get(TITLE_KEY, {}).get("title")
        if tb is None or ta is None or ta.paragraphs == tb.paragraphs:
            return
        title = " ".join((ta.text or "").split()) or None
        if title != self.fig.title:
            self.fig = self.fig.model_copy(update={"title": title})
            self.note(f"title changed to {title!r}")

    # -- moves and additions --------------------------------------------------------
    def follow_moves(self) -> None:
        """Moved boxes (pinned), then the edges, notes and frames that depend on them."""
        for line in follow_moves(self.data, self.moved, parents(self.fig), self.theme, self.fig.routing):
            self.note(line)

    def additions(self) -> list[dict[str, Any]]:
        extra = [d for d in self.extra if d.cid != TITLE_KEY and not (d.parent is not None and d.parent.cid
                                                                     and d.parent.cid in self.data
                                                                     and self.data[d.parent.cid]["kind"] == "node")]
        if not extra:
            return []
        maker = NewComponents(set(self.data), self.report)
        boxes = {cid: Box.model_validate(c["box"]) for cid, c in self.data.items()
                 if c.get("box") and c["kind"] in ("node", "group", "panel", "text", "image", "chart")}
        maker.add(extra, {k: v for k, v in self.shape_owner.items() if v is not None}, boxes)
        by_shape = {v: k for k, v in maker.by_shape.items()}
        for c in maker.comps:
            self.note(f"new {c['kind']} '{c['id']}' drawn in PowerPoint")
            source = next((d for d in extra if (d.slide, d.shape_id) == by_shape.get(c["id"])), None)
            group = source.parent.cid if source is not None and source.parent is not None else None
            if group in self.data and self.data[group]["kind"] in ("group", "panel") and c["kind"] != "edge":
                self.data[group].setdefault("members", []).append(c["id"])
        return maker.comps
