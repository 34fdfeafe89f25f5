"""Lines a label cut short: a connector's label sits in a gap of its line ('State A' on a
flowchart's branch, 'Yes' under a decision), and past the label only a short stub and the
arrowhead reach the node. The stub is too short to be read as a line of its own, so the line
ended at the label and was read as an edge to that text (java-design-patterns' state flowchart
lost three of its ten edges that way). Found here, the line is carried on through the label to
the node its course meets, where ink (the stub) runs on between the label and the node, and
the stub's arrowhead goes with it.

Limit: a line whose own end lies on the course past the label is no stub: a text node between
two arrows ('layer 1 → a(x) → layer 2') stays a node, though a stub that a line's own end was
traced from would stay cut too."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from crafteditor.assemble.geometry import ray_box, run_across
from crafteditor.assemble.joins import halo_pad
from crafteditor.lines.paths import Arrowhead, LinePath, direction_out
from crafteditor.ocr.runs import TextRun
from crafteditor.shapes.detect import DetectedShape

Pt = tuple[float, float]

STUB_INK = 0.4  # share of the course between label and node that must be ink (the stub and its head)
INK_CONTRAST = 40.0  # RGB distance from the page, and from the paper beside the course, at which a pixel is ink


def through_labels(lines: list[LinePath], shapes: list[DetectedShape], labels: list[TextRun], rgb: np.ndarray,
                   background: np.ndarray) -> list[LinePath]:
    """The lines, each headless end that stops at a label (within the label's erasure halo)
    carried on along its course past the label to the node it meets within a few label heights,
    where ink runs on there."""
    nodes = [s for s in shapes if not s.is_group]
    flat = [r for r in labels if r.angle == 0]
    if not nodes or not flat:
        return list(lines)
    out = []
    for ln in lines:
        pts = list(ln.points)
        heads = [ln.head_start, ln.head_end]
        for j, at_start in enumerate((True, False)):
            if heads[j] is not None:
                continue
            found = carried_past(pts, at_start, ln.width, nodes, flat, rgb, background)
            # the ink past the label is a stub too short to be a line: where a line of its own
            # starts there (a text node between two arrows, 'layer 1 → a(x) → layer 2'), it is no cut
            if found is not None and not any(o is not ln and _starts_between(o, pts[0] if at_start else pts[-1],
                                                                             found[0], ln.width) for o in lines):
                end, heads[j] = found
                pts = [end, *pts] if at_start else [*pts, end]
        out.append(ln if len(pts) == len(ln.points) else replace(ln, points=pts, head_start=heads[0],
                                                                   head_end=heads[1]))
    return out


def carried_past(pts: list[Pt], at_start: bool, width: float, nodes: list[DetectedShape], labels: list[TextRun],
                 rgb: np.ndarray, background: np.ndarray) -> tuple[Pt, Arrowhead | None] | None:
    """(where the line's course from this end, past the label it stops at, meets a node, the stub's
    arrowhead there or None); None if it stops at no label, meets no node near, or no ink runs on
    between them."""
    d = direction_out(pts, at_start)
    if d is None:
        return None
    p = pts[0] if at_start else pts[-1]
    label = next((r for r in labels if _in_box(p, _halo(r, width))), None)
    if label is None:
        return None
    # the course leaves the label's own box here (the stub past it may start inside the halo:
    # a label just above a node, its line's stub a few pixels long)
    box = (label.x, label.y, label.right, label.bottom)
    if not _in_box(p, box) and ray_box(p, (p[0] + d[0], p[1] + d[1]), box) is None:
        return None  # the label is beside the course, not across it
    t_out = max(0.0, min((hi - c) / v if v > 0 else (lo - c) / v for c, v, lo, hi in
                         ((p[0], d[0], box[0], box[2]), (p[1], d[1], box[1], box[3])) if abs(v) > 1e-9))
    q = (p[0] + d[0] * t_out, p[1] + d[1] * t_out)
    reach = 3 * label.h + 3 * width + 6
    best = None
    for s in nodes:
        if _in_box(p, (s.x, s.y, s.x + s.w, s.y + s.h)):
            return None  # the line already ends on a node
        hit = ray_box(p, (p[0] + d[0], p[1] + d[1]), (s.x, s.y, s.x + s.w, s.y + s.h))
        if hit is None or (hit[0] - p[0]) * d[0] + (hit[1] - p[1]) * d[1] < 0:
            continue
        if (hit[0] - q[0]) * d[0] + (hit[1] - q[1]) * d[1] < 1.0:
            return None  # a node the course meets before it leaves the label: the line is no cut one
        gap = math.dist(q, hit)
        if gap <= reach and (best is None or gap < best[0]):
            best = (gap, hit)
    if best is None:
        return None
    ink = _ink(rgb, background, q, best[1], width)
    if ink is None or not _inked(ink, q, best[1], width):
        return None
    x, y = best[1]
    if abs(d[0]) < 0.05:  # an axis-parallel course stays so (the end's pixel jitter aside)
        x = p[0]
    elif abs(d[1]) < 0.05:
        y = p[1]
    return (x, y), _stub_head(ink, (x, y), d, best[0], width)


def _starts_between(o: LinePath, a: Pt, b: Pt, width: float) -> bool:
    """Whether one of line ``o``'s ends lies on the course a→b (within the line's width and 3 px)."""
    length = math.dist(a, b)
    if length < 1.0:
        return False
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    for e in (o.points[0], o.points[-1]):
        t = (e[0] - a[0]) * ux + (e[1] - a[1]) * uy
        if 0 <= t <= length and abs((e[0] - a[0]) * uy - (e[1] - a[1]) * ux) <= width + 3:
            return True
    return False


def _halo(r: TextRun, width: float) -> tuple[float, float, float, float]:
    """A label's box grown by its erasure halo (as :func:`crafteditor.assemble.joins.bridge_gaps` grows it)."""
    pad = halo_pad(r, width)
    return (r.x - pad, r.y - pad, r.right + pad, r.bottom + pad)


def _in_box(p: Pt, box: tuple[float, float, float, float]) -> bool:
    return box[0] <= p[0] <= box[2] and box[1] <= p[1] <= box[3]


class _Ink:
    """Ink in a window of the image (``mask``, its top-left corner at ``x0``, ``y0``; ``shape``: the
    image's height and width): nothing outside the window is ink."""

    def __init__(self, mask: np.ndarray, x0: int, y0: int, shape: tuple[int, int]) -> None:
        self.mask, self.x0, self.y0, self.shape = mask, x0, y0, shape

    def at(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """Whether each pixel (xs, ys), within the image, is ink."""
        u, v = xs - self.x0, ys - self.y0
        inside = (u >= 0) & (v >= 0) & (u < self.mask.shape[1]) & (v < self.mask.shape[0])
        out = np.zeros(len(u), bool)
        out[inside] = self.mask[v[inside], u[inside]]
        return out

    def pixel(self, x: int, y: int) -> bool:
        """Whether pixel (x, y) is ink."""
        u, v = x - self.x0, y - self.y0
        return 0 <= u < self.mask.shape[1] and 0 <= v < self.mask.shape[0] and bool(self.mask[v, u])


def _ink(rgb: np.ndarray, background: np.ndarray, a: Pt, b: Pt, width: float) -> _Ink | None:
    """Ink over the course a→b's neighbourhood (a window round it, no mask the image's size): farther than
    :data:`INK_CONTRAST` from the page and from the paper beside the course (its median, sampled on
    both sides past a head's wings), so that a group's tint the course runs through is no ink."""
    length = math.dist(a, b)
    if length < 1.0:
        return None
    H, W = rgb.shape[:2]
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    off = max(1, int(round(width / 2))) + 3 * width + 3
    ts = np.linspace(0.0, length, max(2, int(length)))
    beside = []
    for sign in (1, -1):
        xs = np.clip(np.round(a[0] + ux * ts - uy * off * sign).astype(int), 0, W - 1)
        ys = np.clip(np.round(a[1] + uy * ts + ux * off * sign).astype(int), 0, H - 1)
        beside.append(rgb[ys, xs, :3].astype(np.float32))
    paper = np.median(np.concatenate(beside), axis=0)
    x0, x1 = int(max(0, min(a[0], b[0]) - off - 2)), int(min(W, max(a[0], b[0]) + off + 3))
    y0, y1 = int(max(0, min(a[1], b[1]) - off - 2)), int(min(H, max(a[1], b[1]) + off + 3))
    px = rgb[y0:y1, x0:x1, :3].astype(np.float32)
    mask = ((np.abs(px - background[None, None, :3]).max(axis=2) > INK_CONTRAST)
            & (np.abs(px - paper[None, None, :]).max(axis=2) > INK_CONTRAST))
    return _Ink(mask, x0, y0, (H, W))


def _inked(ink: _Ink, a: Pt, b: Pt, width: float) -> bool:
    """Whether ink covers at least :data:`STUB_INK` of the course a→b (within the line's half width across it)."""
    length = math.dist(a, b)
    n = max(2, int(length))
    H, W = ink.shape
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    side = max(1, int(round(width / 2)))  # (pixels clipped to the image, then looked up in the ink's window)
    hits = 0
    for k in range(n):
        cx, cy = a[0] + (b[0] - a[0]) * k / (n - 1), a[1] + (b[1] - a[1]) * k / (n - 1)
        xs = np.clip(np.round(cx - uy * np.arange(-side, side + 1)).astype(int), 0, W - 1)
        ys = np.clip(np.round(cy + ux * np.arange(-side, side + 1)).astype(int), 0, H - 1)
        hits += bool(ink.at(xs, ys).any())
    return hits >= STUB_INK * n


def _stub_head(ink: _Ink, tip: Pt, d: Pt, gap: float, width: float) -> Arrowhead | None:
    """The stub's filled arrowhead ending at ``tip`` (the course's direction ``d``), as
    :func:`crafteditor.assemble.edges._head_before` finds one: the ink across the course ≥ 2.5 line
    widths wide just back from the tip, and a line's width further back; None where there is none."""
    H, W = ink.shape
    inked = ink.pixel

    reach = int(min(gap, 16.0))
    # a run across the whole scan is the node's outline the tip touches, no head
    runs = [(t, r if r < 31 else 0) for t in np.arange(1.5, reach, 1.0)
            for r in (run_across(inked, (H, W), tip, d, t, 16),)]
    if not runs:
        return None
    wide = max(r for _, r in runs)
    if wide < 2.5 * width + 1:
        return None
    first = next(t for t, r in runs if r == wide)
    back = next((t for t, r in runs if t > first and r <= width + 2), None)
    if back is None:
        return None
    base = (tip[0] - d[0] * back, tip[1] - d[1] * back)
    xs, ys = (tip[0], base[0]), (tip[1], base[1])
    box = (int(min(xs) - wide / 2), int(min(ys) - wide / 2), int(max(xs) + wide / 2) + 1, int(max(ys) + wide / 2) + 1)
    return Arrowhead(tip=tip, base=base, length=float(back), width=float(wide), mask_box=box)
