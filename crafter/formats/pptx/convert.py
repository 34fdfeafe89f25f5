"""Shapes drawn in PowerPoint as new FigureSpec components (best effort).

Used for a PPTX Crafter did not write and for what someone added to a Crafter PPTX:
AutoShapes become nodes (their preset picks the shape: flowchart presets too), text boxes
become text, pictures images, charts chart components (:mod:`crafter.formats.pptx.chart_data`),
freeforms paths, and connectors edges between the components their ends are glued to (or,
unglued, lie on); a line that joins nothing stays a path. Every box is pinned, so layout
keeps the slide's arrangement.
"""

from __future__ import annotations

import base64
import io
import re
from typing import Any

from PIL import Image as PILImage

from crafter.formats.pptx.chart_data import chart_spec_from_table
from crafter.formats.pptx.drawn import Drawn
from crafter.formats.pptx.geometry import shape_from_preset
from crafter.spec.model import ID_PATTERN, Box

_ID_RE = re.compile(ID_PATTERN)
LINE_PRESETS = ("line", "straightConnector1", "bentConnector2", "bentConnector3", "bentConnector4", "bentConnector5",
                "curvedConnector2", "curvedConnector3", "curvedConnector4", "curvedConnector5")
SNAP_PX = 8.0  # an unglued connector's end this close to a shape joins it
_PICTURE_TYPES = {"image/png": "png", "image/jpeg": "jpeg", "image/gif": "gif", "image/webp": "webp"}


def box_dict(b: Box) -> dict[str, float]:
    return {"x": round(b.x, 2), "y": round(b.y, 2), "w": round(max(b.w, 0.0), 2), "h": round(max(b.h, 0.0), 2)}


class NewComponents:
    """Turns drawn shapes into component dicts with fresh ids (``taken`` ids are avoided)."""

    def __init__(self, taken: set[str], report: Any) -> None:
        self.taken = set(taken)
        self.report = report
        self.comps: list[dict[str, Any]] = []
        self.by_shape: dict[tuple[int, int], str] = {}  # (slide, shape id) → the component made of it

    def new_id(self, d: Drawn, kind: str) -> str:
        base = re.sub(r"[^A-Za-z0-9_]+", "-", d.name.strip().lower()).strip("-")
        base = re.sub(r"-{2,}", "-", base)
        if not base or not _ID_RE.fullmatch(base):
            base = kind
        cid, n = base, 1
        while cid in self.taken or not _ID_RE.fullmatch(cid):
            n += 1
            cid = f"{base}{n}" if base == kind else f"{base}-{n}"
        self.taken.add(cid)
        return cid

    def add(self, drawn: list[Drawn], glue_map: dict[tuple[int, int], str], boxes: dict[str, Box]) -> None:
        """Shapes first, then connectors (which join what the shapes became, or ``glue_map``'s components)."""
        for d in drawn:
            if d.tag != "cxnSp" and not (d.tag == "sp" and d.prst in LINE_PRESETS):
                self.add_shape(d)
        known = dict(glue_map)
        known.update(self.by_shape)
        all_boxes = dict(boxes)
        all_boxes.update({c["id"]: Box.model_validate(c["box"]) for c in self.comps
                          if c.get("box") and c["kind"] in ("node", "text", "image", "chart")})
        for d in drawn:
            if d.tag == "cxnSp" or (d.tag == "sp" and d.prst in LINE_PRESETS):
                self.add_connector(d, known, all_boxes)

    def add_shape(self, d: Drawn) -> None:
        if d.tag == "grpSp" or d.box.w <= 0 and d.box.h <= 0:
            return
        if d.tag == "pic":
            self._picture(d)
        elif d.tag == "graphicFrame":
            self._chart(d)
        elif d.tag == "sp":
            if d.path_d is not None:
                self._path(d)
            elif d.paragraphs is not None and (d.text_box or (d.fill in (None, "none") and d.line in (None, "none"))):
                self._text(d)
            elif d.fill not in (None, "none") or d.line not in (None, "none") or d.paragraphs is not None:
                self._node(d)

    def _node(self, d: Drawn) -> None:
        cid = self.new_id(d, "node")
        c: dict[str, Any] = {"id": cid, "kind": "node", "box": box_dict(d.box), "pinned": True,
                             "shape": shape_from_preset(d.prst, d.box.w, d.box.h),
                             "label": "\n".join(line for lines in (d.paragraphs or []) for line in lines)}
        for key, value in (("fill", d.fill), ("stroke", d.line), ("text_color", d.text_color)):
            if value is not None:
                c[key] = value
        if d.line_px is not None:
            c["stroke_width"] = round(d.line_px, 2)
        self._font(c, d)
        self._keep(d, c)

    def _text(self, d: Drawn) -> None:
        cid = self.new_id(d, "text")
        c: dict[str, Any] = {"id": cid, "kind": "text", "box": box_dict(d.box), "pinned": True,
                             "text": "\n".join(line for lines in d.paragraphs or [] for line in lines)}
        if d.text_color is not None:
            c["color"] = d.text_color
        if d.rotation:
            c["rotate"] = round(((d.rotation + 180) % 360) - 180, 2)
        self._font(c, d)
        self._keep(d, c)

    def _font(self, c: dict[str, Any], d: Drawn) -> None:
        if d.font_px is not None and d.font_px > 0:
            c["font_size"] = round(d.font_px, 2)
        if d.bold:
            c["bold"] = True
        if d.italic:
            c["italic"] = True

    def _picture(self, d: Drawn) -> None:
        if d.image is None:
            return  # a linked picture: reported when read, never fetched
        href = picture_href(d.image, d.image_type)
        if href is None:
            self.report.skipped.append(f"picture '{d.name}': its format ({d.image_type}) cannot be embedded")
            return
        c = {"id": self.new_id(d, "image"), "kind": "image", "box": box_dict(d.box), "pinned": True, "href": href}
        if d.alt:
            c["alt"] = d.alt
        self._keep(d, c)

    def _chart(self, d: Drawn) -> None:
        if d.chart is None:
            return

        spec = chart_spec_from_table(d.chart)
        c = {"id": self.new_id(d, "chart"), "kind": "chart", "box": box_dict(d.box), "pinned": True, "spec": spec}
        self._keep(d, c)

    def _path(self, d: Drawn) -> None:
        c: dict[str, Any] = {"id": self.new_id(d, "path"), "kind": "path", "d": d.path_d,
                             "fill": d.fill if d.fill is not None else "none",
                             "stroke": d.line if d.line is not None else "none"}
        if d.line_px is not None:
            c["stroke_width"] = round(d.line_px, 2)
        self._keep(d, c)

    def add_connector(self, d: Drawn, known: dict[tuple[int, int], str], boxes: dict[str, Box]) -> None:
        ends = []
        for shape_id, point in ((d.glue[0], d.start), (d.glue[1], d.end)):
            cid = known.get((d.slide, shape_id)) if shape_id is not None else None
            if cid is None and point is not None:
                cid = _nearest(boxes, point)
            ends.append(cid)
        if ends[0] is None or ends[1] is None or ends[0] == ends[1]:
            if d.start is not None and d.end is not None:
                c = {"id": self.new_id(d, "path"), "kind": "path",
                     "d": f"M{d.start[0]:.2f},{d.start[1]:.2f} L{d.end[0]:.2f},{d.end[1]:.2f}",
                     "stroke": d.line if d.line not in (None, "none") else "#000000"}
                if d.line_px is not None:
                    c["stroke_width"] = round(d.line_px, 2)
                self._keep(d, c)
            return
        c = {"id": self.new_id(d, "edge"), "kind": "edge", "source": ends[0], "target": ends[1],
             "head": d.tail, "tail": d.head}  # DrawingML's tailEnd is at the end: the FigureSpec's head
        if d.line not in (None, "none"):
            c["color"] = d.line
        if d.line_px is not None:
            c["stroke_width"] = round(d.line_px, 2)
        if d.dash != "solid":
            c["style"] = d.dash
        self._keep(d, c)

    def _keep(self, d: Drawn, c: dict[str, Any]) -> None:
        self.comps.append(c)
        self.by_shape[(d.slide, d.shape_id)] = c["id"]


def _nearest(boxes: dict[str, Box], pt: tuple[float, float]) -> str | None:
    best, dist = None, SNAP_PX
    for cid, b in boxes.items():
        dx = max(b.x - pt[0], 0.0, pt[0] - b.right)
        dy = max(b.y - pt[1], 0.0, pt[1] - b.bottom)
        d = (dx * dx + dy * dy) ** 0.5
        if d <= dist:
            best, dist = cid, d
    return best


def picture_href(data: bytes, content_type: str | None) -> str | None:
    """A picture as a data URI of a format the FigureSpec takes (others converted to PNG where Pillow
    reads them; vector formats such as EMF give None)."""
    kind = _PICTURE_TYPES.get(content_type or "")
    if kind is None:
        try:
            with PILImage.open(io.BytesIO(data)) as im:
                if im.format in ("WMF", "EMF") or im.width * im.height > 50_000_000:
                    return None
                out = io.BytesIO()
                im.save(out, format="PNG")
            data, kind = out.getvalue(), "png"
        except Exception:  # noqa: BLE001 - any format Pillow cannot read
            return None
    return f"data:image/{kind};base64,{base64.b64encode(data).decode('ascii')}"
