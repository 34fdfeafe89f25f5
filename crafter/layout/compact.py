"""Tightening an engine's answer: groups hug their members, empty bands close up.

Both engines leave room that the finished drawing does not use: ELK sizes a compound
node for the edges that pass through it, and layers stay as far apart as their widest
member (or a reversed edge's detour) asked for. After an engine has laid out an
:class:`~crafter.layout.problem.Area`:

- :func:`hug_groups` shrinks each container to its children plus padding (innermost
  first), except containers that edges end on (their routes reach the old frame);
- :func:`close_gaps` finds bands across the drawing (rows, then columns) that no box
  reaches and that are wider than the spacing the theme asks for, and shrinks them.
  The map from old to new coordinates is monotone and piecewise linear, so orthogonal
  routes stay orthogonal and nothing changes order; only edge segments cross such a band.
"""

from __future__ import annotations

from crafter.layout.problem import Area, AreaLayout, Rect


def hug_groups(area: Area, lay: AreaLayout, keep: set[str], edge_sep: float = 10.0) -> None:
    """Shrink every container not in ``keep`` to its children's boxes plus its padding."""
    segments = [(p, q) for pts in lay.routes.values() for p, q in zip(pts, pts[1:])]

    def visit(it) -> None:  # type: ignore[no-untyped-def]
        for c in it.children:
            visit(c)
        if not it.container or it.id in keep or it.id not in lay.boxes:
            return
        kids = [lay.boxes[c.id] for c in it.children if c.id in lay.boxes]
        kids += [lay.annotation_boxes[a.id] for c in it.children for a in c.annotations
                 if a.id in lay.annotation_boxes]
        if not kids:
            return
        top, right, bottom, left = it.padding
        x0 = min(r[0] for r in kids) - left
        y0 = min(r[1] for r in kids) - top
        x1 = max(r[0] + r[2] for r in kids) + right
        y1 = max(r[1] + r[3] for r in kids) + bottom
        old = lay.boxes[it.id]
        ox0, oy0, ox1, oy1 = old[0], old[1], old[0] + old[2], old[1] + old[3]
        # a side stays outside edge segments running along it inside the old frame: an edge
        # the engine routed through the group must not end up on (or outside) the frame line
        mx0, my0, mx1, my1 = x0, y0, x1, y1
        for (p, q) in segments:
            if abs(p[0] - q[0]) < 1e-6 and max(min(p[1], q[1]), oy0) < min(max(p[1], q[1]), oy1):
                if ox0 < p[0] < mx0 + edge_sep:
                    x0 = min(x0, p[0] - edge_sep)
                if mx1 - edge_sep < p[0] < ox1:
                    x1 = max(x1, p[0] + edge_sep)
            elif abs(p[1] - q[1]) < 1e-6 and max(min(p[0], q[0]), ox0) < min(max(p[0], q[0]), ox1):
                if oy0 < p[1] < my0 + edge_sep:
                    y0 = min(y0, p[1] - edge_sep)
                if my1 - edge_sep < p[1] < oy1:
                    y1 = max(y1, p[1] + edge_sep)
        x0, y0, x1, y1 = max(x0, ox0), max(y0, oy0), min(x1, ox1), min(y1, oy1)
        w = max(x1 - x0, it.w)
        h = max(y1 - y0, it.h)
        if w >= old[2] - 0.5 and h >= old[3] - 0.5:
            return
        x0 = min(max(x0, old[0]), old[0] + old[2] - w)  # a minimum width keeps within the old frame
        lay.boxes[it.id] = (x0, y0, w, h)

    for it in area.items:
        visit(it)


def close_gaps(lay: AreaLayout, *, along_y: float, along_x: float, edge_sep: float) -> None:
    """Shrink empty rows wider than ``along_y`` and empty columns wider than ``along_x``."""
    for axis, target in ((1, along_y), (0, along_x)):
        rects = list(lay.boxes.values()) + list(lay.label_boxes.values()) + list(lay.annotation_boxes.values())
        if not rects:
            return
        spans = sorted((r[axis], r[axis] + r[axis + 2]) for r in rects)
        # stretches between the boxes' extents along this axis
        gaps: list[tuple[float, float]] = []
        reach = spans[0][1]
        for lo, hi in spans[1:]:
            if lo > reach:
                gaps.append((reach, lo))
            reach = max(reach, hi)
        # segments running across the band (at a fixed coordinate on this axis) need room too
        fixed_at = [p[axis] for pts in lay.routes.values()
                    for p, q in zip(pts, pts[1:]) if abs(p[axis] - q[axis]) < 1e-6]
        cuts: list[tuple[float, float, float]] = []  # (band start, band end, new length)
        for lo, hi in gaps:
            inside = sorted({round(v, 3) for v in fixed_at if lo < v < hi})
            want = max(target, (len(inside) + 1) * edge_sep)
            if hi - lo > want + 1.0:
                cuts.append((lo, hi, want))
        if not cuts:
            continue

        def remap(v: float) -> float:
            shift = 0.0
            for lo, hi, want in cuts:
                if v >= hi:
                    shift += (hi - lo) - want
                elif v > lo:
                    return v - shift - (v - lo) + (v - lo) * want / (hi - lo)
                else:
                    break
            return v - shift

        def move(r: Rect) -> Rect:
            if axis == 1:
                return (r[0], remap(r[1]), r[2], r[3])
            return (remap(r[0]), r[1], r[2], r[3])

        lay.boxes = {k: move(r) for k, r in lay.boxes.items()}
        lay.label_boxes = {k: move(r) for k, r in lay.label_boxes.items()}
        lay.annotation_boxes = {k: move(r) for k, r in lay.annotation_boxes.items()}
        if axis == 1:
            lay.routes = {k: [(x, remap(y)) for x, y in pts] for k, pts in lay.routes.items()}
        else:
            lay.routes = {k: [(remap(x), y) for x, y in pts] for k, pts in lay.routes.items()}
    lay.normalise()
