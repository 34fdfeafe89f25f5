"""DrawingML geometry for Crafter's shapes: preset names, connection sites and connectors.

* :data:`NODE_PRESETS` names the preset geometry each node shape becomes (``can`` for a
  cylinder, ``flowChartDocument`` for a document…), :func:`node_adjustments` sets the preset's
  adjust values to Crafter's proportions (a parallelogram's skew, a hexagon's inset, a
  cylinder's rim), and :func:`shape_from_preset` maps presets back (also the flowchart ones a
  PowerPoint user picks).
* :func:`connection_sites` lists where a connector can be glued to a preset shape, in the
  order of the preset's ``cxnLst`` (the index a ``stCxn``/``endCxn`` names), each with the
  direction a line leaves the shape there.
* :func:`connector_for` turns an edge's route into a glued connector: which site at each end,
  and the preset (``straightConnector1``, ``bentConnector2`` … ``bentConnector5``), adjust
  values, rotation and flips that draw the route's elbows, so PowerPoint shows our route
  until a box is moved and then re-routes between the same sites.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from crafter.base.geometry import cylinder_rim, hexagon_inset, parallelogram_skew, stack_offset, trapezoid_inset
from crafter.spec.model import Box

Pt = tuple[float, float]

NODE_PRESETS = {
    "box": "rect", "round": "roundRect", "ellipse": "ellipse", "circle": "ellipse", "diamond": "diamond",
    "cylinder": "can", "parallelogram": "parallelogram", "hexagon": "hexagon", "document": "flowChartDocument",
    "stack": "roundRect",
    # PowerPoint's trapezoid is narrow on top; a side-facing one is that shape turned a quarter (ROTATED)
    "trapezoid": "trapezoid", "trapezoid_down": "flowChartManualOperation", "trapezoid_left": "trapezoid",
    "trapezoid_right": "trapezoid",
}
ROTATED = {"trapezoid_right": 90.0, "trapezoid_left": 270.0}  # clockwise degrees
# presets (ours and the flowchart ones people pick in PowerPoint) → node shapes
_SHAPE_OF_PRESET = {
    "rect": "box", "roundRect": "round", "ellipse": "ellipse", "diamond": "diamond", "can": "cylinder",
    "parallelogram": "parallelogram", "hexagon": "hexagon", "flowChartDocument": "document",
    "flowChartProcess": "box", "flowChartAlternateProcess": "round", "flowChartTerminator": "round",
    "flowChartDecision": "diamond", "flowChartMagneticDisk": "cylinder", "flowChartInputOutput": "parallelogram",
    "flowChartPreparation": "hexagon", "flowChartMultidocument": "stack", "flowChartConnector": "circle",
    "trapezoid": "trapezoid", "flowChartManualOperation": "trapezoid_down",
    "snip1Rect": "box", "round1Rect": "round", "round2SameRect": "round", "octagon": "hexagon",
}
# outward directions of connection sites
UP, DOWN, LEFT, RIGHT = (0.0, -1.0), (0.0, 1.0), (-1.0, 0.0), (1.0, 0.0)


def shape_from_preset(prst: str | None, w: float = 1.0, h: float = 1.0) -> str:
    """The node shape for a preset geometry (a box for anything unfamiliar)."""
    shape = _SHAPE_OF_PRESET.get(prst or "", "box")
    if shape == "ellipse" and abs(w - h) <= 0.5:
        return "circle"
    return shape


def node_adjustments(shape: str, b: Box, corner_radius: float) -> list[float]:
    """The preset's adjust values (python-pptx's normalised form: 1.0 = 100000) for Crafter's look."""
    ss = max(min(b.w, b.h), 1e-6)
    if shape == "round":
        return [min(corner_radius, b.w / 2, b.h / 2) / ss]
    if shape == "stack":
        return [min(2.0, b.h / 4) / ss]
    if shape == "parallelogram":
        return [parallelogram_skew(b.w, b.h) / ss]
    if shape == "hexagon":
        return [hexagon_inset(b.w, b.h) / ss, 1.15470]
    if shape == "cylinder":
        return [2 * cylinder_rim(b.w, b.h) / ss]
    if shape in ("trapezoid", "trapezoid_left", "trapezoid_right"):
        return [trapezoid_inset(shape, b.w, b.h) / ss]
    return []


def text_rect_center(prst: str, b: Box, adjust: float | None = None) -> float:
    """Where a preset's own text rectangle is centred vertically (the label's middle in PowerPoint)."""
    if prst == "flowChartDocument":
        return b.y + b.h * 17322 / 21600 / 2  # the text stops above the wave
    if prst == "can":
        ry = min(b.w, b.h) * (0.25 if adjust is None else adjust) / 2  # below the lid, above the bottom rim
        return b.y + (2 * ry + b.h - ry) / 2
    return b.cy


def stack_sheets(b: Box) -> list[Box]:
    """A stack's three sheets, back to front (the front one holds the label)."""
    off = stack_offset(b.w, b.h)
    sw, sh = b.w - 2 * off, b.h - 2 * off
    return [Box(x=b.x + k * off, y=b.y + (2 - k) * off, w=max(sw, 1.0), h=max(sh, 1.0)) for k in (2, 1, 0)]


def node_outline_box(shape: str, b: Box) -> Box:
    """The box the preset shape is drawn in: a circle is the square centred in the node's box."""
    if shape == "circle":
        r = min(b.w, b.h)
        return Box(x=b.cx - r / 2, y=b.cy - r / 2, w=r, h=r)
    if shape in ROTATED:  # the unturned frame: turned a quarter about its centre it covers ``b``
        return Box(x=b.cx - b.h / 2, y=b.cy - b.w / 2, w=b.h, h=b.w)
    return b


# =================================================================================
# Connection sites
# =================================================================================


def connection_sites(prst: str, b: Box, adjust: float | None = None) -> list[tuple[Pt, Pt]]:
    """(point, outward direction) of each connection site of a preset shape drawn in ``b``,
    in ``cxnLst`` order. ``adjust``: the preset's first adjust value (normalised) where it moves
    the sites (parallelogram, hexagon, can)."""
    x, y, w, h = b.x, b.y, b.w, b.h
    cx, cy = b.cx, b.cy
    ss = min(w, h)
    if prst == "ellipse":
        dx, dy = w / 2 * math.cos(math.pi / 4), h / 2 * math.sin(math.pi / 4)
        diag = (math.sqrt(0.5), math.sqrt(0.5))
        return [((cx, y), UP), ((cx - dx, cy - dy), (-diag[0], -diag[1])), ((x, cy), LEFT),
                ((cx - dx, cy + dy), (-diag[0], diag[1])), ((cx, y + h), DOWN), ((cx + dx, cy + dy), diag),
                ((x + w, cy), RIGHT), ((cx + dx, cy - dy), (diag[0], -diag[1]))]
    if prst == "parallelogram":
        s = ss * (0.25 if adjust is None else adjust)
        return [((cx, y), UP), ((x + (w + s) / 2, y), UP), ((x + w - s / 2, cy), RIGHT),
                ((x + (w - s) / 2, y + h), DOWN), ((cx, y + h), DOWN), ((x + s / 2, cy), LEFT)]
    if prst == "hexagon":
        s = ss * (0.25 if adjust is None else adjust)
        return [((x + w, cy), RIGHT), ((x + w - s, y + h), DOWN), ((x + s, y + h), DOWN), ((x, cy), LEFT),
                ((x + s, y), UP), ((x + w - s, y), UP)]
    top = y
    bottom = y + h
    if prst == "can":
        top = y + ss * (0.25 if adjust is None else adjust)  # the lid's front rim (2 × its radius)
    elif prst == "flowChartDocument":
        bottom = y + h * 20172 / 21600  # where the wave crosses the middle
    # rect, roundRect, diamond, can, flowChartDocument, text boxes, pictures: top, left, bottom, right
    return [((cx, top), UP), ((x, cy), LEFT), ((cx, bottom), DOWN), ((x + w, cy), RIGHT)]


def pick_site(sites: list[tuple[Pt, Pt]], p: Pt, b: Box, direction: Pt | None) -> int:
    """The site an edge end at ``p`` glues to: among the sites facing ``direction`` (the way the
    route leaves the shape there) when any does, the nearest in the box's proportions."""
    def dist(q: Pt) -> float:
        return math.hypot((q[0] - p[0]) / max(b.w, 1.0), (q[1] - p[1]) / max(b.h, 1.0))

    candidates = list(range(len(sites)))
    if direction is not None:
        facing = [i for i, (_, d) in enumerate(sites) if d[0] * direction[0] + d[1] * direction[1] > 0.9]
        candidates = facing or candidates
    return min(candidates, key=lambda i: dist(sites[i][0]))


# =================================================================================
# Connectors
# =================================================================================


@dataclass
class ConnectorShape:
    """A connector's DrawingML form: preset, adjust values (1/100000), and its frame in figure px."""

    prst: str
    start: Pt
    end: Pt
    adjusts: list[int] = field(default_factory=list)
    rot: int = 0  # 60000ths of a degree
    flip_h: bool = False
    flip_v: bool = False
    off: Pt = (0.0, 0.0)
    ext: Pt = (0.0, 0.0)


def simplify(pts: list[Pt], tol: float = 0.01) -> list[Pt]:
    """Without repeated points and without the middle points of straight runs."""
    out: list[Pt] = []
    for p in pts:
        if out and abs(p[0] - out[-1][0]) <= tol and abs(p[1] - out[-1][1]) <= tol:
            continue
        if len(out) >= 2:
            a, b = out[-2], out[-1]
            cross = (b[0] - a[0]) * (p[1] - b[1]) - (b[1] - a[1]) * (p[0] - b[0])
            dot = (b[0] - a[0]) * (p[0] - b[0]) + (b[1] - a[1]) * (p[1] - b[1])
            if abs(cross) <= tol * max(1.0, math.hypot(p[0] - a[0], p[1] - a[1])) and dot >= 0:
                out[-1] = p
                continue
        out.append(p)
    return out


def is_orthogonal(pts: list[Pt], tol: float = 0.5) -> bool:
    return all(abs(a[0] - b[0]) <= tol or abs(a[1] - b[1]) <= tol for a, b in zip(pts, pts[1:]))


def segment_direction(a: Pt, b: Pt) -> Pt | None:
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = math.hypot(dx, dy)
    return None if n < 1e-9 else (dx / n, dy / n)


def snap_route(pts: list[Pt], start: Pt, end: Pt, start_dir: Pt, end_dir: Pt) -> list[Pt]:
    """An orthogonal route moved onto the glued sites: its end segments keep their orientation,
    their first bends slide along; a straight route between sites out of line gets elbows."""
    horizontal_out = abs(start_dir[0]) > abs(start_dir[1])
    horizontal_in = abs(end_dir[0]) > abs(end_dir[1])
    if len(pts) <= 2:
        if horizontal_out and horizontal_in:
            if abs(start[1] - end[1]) <= 0.5:
                return [start, end]
            mx = (start[0] + end[0]) / 2
            return [start, (mx, start[1]), (mx, end[1]), end]
        if not horizontal_out and not horizontal_in:
            if abs(start[0] - end[0]) <= 0.5:
                return [start, end]
            my = (start[1] + end[1]) / 2
            return [start, (start[0], my), (end[0], my), end]
        return [start, (end[0], start[1]), end] if horizontal_out else [start, (start[0], end[1]), end]
    out = [start] + [tuple(p) for p in pts[1:-1]] + [end]
    first_h = abs(pts[1][1] - pts[0][1]) <= abs(pts[1][0] - pts[0][0])
    last_h = abs(pts[-1][1] - pts[-2][1]) <= abs(pts[-1][0] - pts[-2][0])
    out[1] = (out[1][0], start[1]) if first_h else (start[0], out[1][1])
    out[-2] = (out[-2][0], end[1]) if last_h else (end[0], out[-2][1])
    return simplify(out)  # type: ignore[arg-type]


def connector_for(pts: list[Pt], orthogonal: bool) -> ConnectorShape:
    """The connector drawing ``pts`` (already starting and ending on the glued sites)."""
    pts = simplify(pts)
    start, end = pts[0], pts[-1]
    if not orthogonal or len(pts) <= 2 or not is_orthogonal(pts):
        return _framed(ConnectorShape("straightConnector1", start, end), vertical_first=False)
    if len(pts) > 6:
        pts = _fewer_bends(pts)
    vertical_first = abs(pts[1][0] - pts[0][0]) < abs(pts[1][1] - pts[0][1])
    shape = ConnectorShape(f"bentConnector{len(pts) - 1}", start, end)  # one per segment count
    _framed(shape, vertical_first)
    sx, sy = start
    ex, ey = shape.end  # may have been nudged off a zero extent
    fx = (lambda v: (v - sx) / (ex - sx)) if abs(ex - sx) > 1e-9 else (lambda v: 0.0)
    fy = (lambda v: (v - sy) / (ey - sy)) if abs(ey - sy) > 1e-9 else (lambda v: 0.0)
    along, across = (fy, fx) if vertical_first else (fx, fy)
    coords = []
    for i, p in enumerate(pts[1:-2]):  # the coordinate each inner segment sits at
        first_axis = i % 2 == 0  # bends alternate: along the first segment's axis, then across
        if vertical_first:
            coords.append(along(p[1]) if first_axis else across(p[0]))
        else:
            coords.append(along(p[0]) if first_axis else across(p[1]))
    shape.adjusts = [int(round(c * 100000)) for c in coords]
    return shape


def _framed(shape: ConnectorShape, vertical_first: bool) -> ConnectorShape:
    """Set the frame (off, ext, rot, flips) so the preset's start and end land on ours."""
    (sx, sy), (ex, ey) = shape.start, shape.end
    if shape.prst != "straightConnector1":
        # an elbow between points on one line has no extent to bend in: give it a hair (1 px)
        if abs(ex - sx) < 1e-6:
            ex = sx + 1.0
        if abs(ey - sy) < 1e-6:
            ey = sy + 1.0
        shape.end = (ex, ey)
    dx, dy = ex - sx, ey - sy
    if not vertical_first:
        shape.off, shape.ext = (min(sx, ex), min(sy, ey)), (abs(dx), abs(dy))
        shape.flip_h, shape.flip_v = dx < 0, dy < 0
        return shape
    # drawn horizontally first, turned 90° clockwise about the centre: local x runs down the page
    cx, cy = (sx + ex) / 2, (sy + ey) / 2
    shape.rot = 5_400_000
    shape.ext = (abs(dy), abs(dx))
    shape.off = (cx - abs(dy) / 2, cy - abs(dx) / 2)
    shape.flip_h, shape.flip_v = dy < 0, dx > 0
    return shape


def _fewer_bends(pts: list[Pt]) -> list[Pt]:
    """A route of more than five segments as five (or four): its first and last bends kept, the
    middle segment at the route's middle (PowerPoint's elbow connectors bend at most four times)."""
    n = len(pts) - 1  # segments
    first_h = abs(pts[1][1] - pts[0][1]) <= abs(pts[1][0] - pts[0][0])
    mid = pts[len(pts) // 2]
    p0, p1, pl, pe = pts[0], pts[1], pts[-2], pts[-1]
    if n % 2 == 1:  # first and last segments run the same way: five segments
        if first_h:  # H V H V H
            return simplify([p0, p1, (p1[0], mid[1]), (pl[0], mid[1]), pl, pe])
        return simplify([p0, p1, (mid[0], p1[1]), (mid[0], pl[1]), pl, pe])
    # four segments: H V H V (or V H V H)
    if first_h:
        return simplify([p0, p1, (p1[0], pl[1]), pl, pe])
    return simplify([p0, p1, (pl[0], p1[1]), pl, pe])
