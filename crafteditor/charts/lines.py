"""Line and point series: a line's vertices from its skeleton, the markers on it (an opening wider
than the line), lone markers (a scatter) and their shapes, and the line's stroke width."""

from __future__ import annotations

import math
from collections.abc import Callable

import cv2
import numpy as np

from crafteditor.blobs import find_blobs
from crafteditor.charts.axes import Axis, x_of
from crafteditor.charts.series import Series
from crafteditor.lines.routes import simplify
from crafteditor.lines.skeleton import trace_skeleton


def line_series(m: np.ndarray, lab: np.ndarray, comps: list, rects: list, color, yaxis: Axis,  # long: blob by blob
                xaxis: Axis, cover: Callable[[int, int, int, int], np.ndarray]) -> Series | None:
    """A paint's blobs (``comps``: (label in ``lab``, stats); ``rects``: the filled rectangles) as a
    line, its vertices from the skeleton or its markers where it has them, or as points (lone
    markers: a scatter); ``cover(y, x, h, w)``: each pixel's share of the paint in that box (its lines' widths)."""
    centres: list[tuple[float, float]] = []
    line_pts: list[tuple[float, float]] = []
    marker_areas: list[float] = []
    widths: list[float] = []
    cores: list[float] = []  # the skeleton widths (the speck test's; widths are the drawn ones)
    single: list[tuple[tuple[float, float], float]] = []  # components with one marker-sized blob
    shapes: list[str] = []  # each marker's shape (Vega-Lite's names)
    opened_areas: list[float] = []  # the markers found on lines by the opening
    lone_areas: list[float] = []  # the lone markers'
    lone_centres: list[tuple[float, float]] = []
    line_spans: list[tuple[int, int]] = []  # x extents of the components read as lines
    clusters: list[tuple[np.ndarray, int, int]] = []  # line components no marker survived in
    pieces: list[tuple[np.ndarray, int, int, np.ndarray]] = []  # line components and their markers' pixels
    has_line = False
    ring_ink: list[float] = []  # hollow markers' ink (Vega-Lite's default point, matplotlib's facecolors='none')
    clumped = _clumps(lab, comps, centres, marker_areas)
    for i, s in comps:
        if i in clumped:
            continue
        x, y, w, h, area = s
        comp = lab[y:y + h, x:x + w] == i
        lone = lone_marker(comp, s)
        ring = None if lone else _ring(comp, s)  # a hollow marker: sized and shaped as the disc it rings
        if ring is not None or lone:  # a lone marker (scatter)
            disc = comp if ring is None else ring
            centres.append((x + w / 2, y + h / 2))
            marker_areas.append(float(disc.sum()))
            lone_areas.append(float(disc.sum()))
            lone_centres.append(centres[-1])
            shapes.append(_marker_shape(disc))
            ring_ink += [float(area)] if ring is not None else []
            continue
        if any(j == i for j, _ in rects):
            continue  # a filled rectangle off the axis is no line (a stacked segment read alone)
        # a line, maybe with markers on it: markers survive an opening wider than the line
        comp = _smoothed(comp)
        lw = line_width(comp)
        if lw > 12:
            continue  # an area, not a line: opening it with a 2.2·lw disc took seconds
        k, nb, blab, bstats, blobs = _marker_blobs(comp, lw)
        on_line = blab[k:-k, k:-k] > 0
        line_spans.append((int(x), int(x + w)))
        pieces.append((comp, int(x), int(y), on_line))
        if not blobs:
            clusters.append((comp, int(x), int(y)))
        has_line = True
        cores.append(lw)
        widths.append(stroke_width(comp & ~on_line if blobs else comp, cover(y, x, h, w)))
        if len(blobs) >= 2:
            for j in range(1, nb):
                bx, by, bw, bh, barea = bstats[j]
                if barea < 0.5 * k * k:
                    continue
                centres.append((x + bx - k + bw / 2, y + by - k + bh / 2))
                marker_areas.append(float(barea))
                opened_areas.append(float(barea))
                shapes.append(_marker_shape(blab[by:by + bh, bx:bx + bw] == j))
            continue
        if len(blobs) == 1:
            # one marker with a dash or two attached (a dashed line's markers): a marker if the
            # series has markers of its size elsewhere (decided below; a plain line's one thick
            # bend is not)
            bx, by, bw, bh, barea = blobs[0]
            single.append(((x + bx - k + bw / 2, y + by - k + bh / 2), float(barea)))
        from skimage.morphology import skeletonize  # heavy: 0.6-0.9 s to import; only line series need it

        # every piece of the skeleton longer than a spur: a thin line's skeleton is cut into pieces at the
        # junctions where a grid line's blend notches it (Vega-Lite's 1.5 px sine at scale 1: four to eight
        # pieces a half-wave, of which the longest alone had kept one flank and lost the troughs)
        paths = trace_skeleton(skeletonize(comp))
        spur = max(6.0, 3.0 * lw)
        kept = [p for p in paths if len(p) > spur] or ([max(paths, key=len)] if paths else [])
        for path in kept:
            line_pts += simplify([(x + xx + 0.5, y + yy + 0.5) for yy, xx in path], 1.0)
    if centres and single:
        # a dashed line with markers: each marker touches its dashes (SGD's squares on '--s'
        # had lost six of eleven points), taken where sized like the series' lone markers
        # (sized as the opening leaves them, where a line's markers were found that way: a lone
        # fragment at the plot's edge had halved the typical size and lost three diamonds)
        typical = float(np.median(opened_areas or marker_areas))
        for c, a in single:
            if 0.5 * typical <= a <= 2.0 * typical:
                centres.append(c)
                marker_areas.append(a)
    if has_line and len(lone_areas) >= 3 and _scattered(line_spans, centres):
        # a scatter whose overlapping markers merged into blobs (read as short 'lines'): its
        # points are those blobs' markers, and it is no line chart (the points had been joined up)
        has_line = False
        typical = float(np.median(ring_ink if 2 * len(ring_ink) > len(lone_areas) else lone_areas))  # rings: by ink
        for comp, x, y in clusters:
            for c in _split_cluster(comp, typical):
                centres.append((x + c[0], y + c[1]))
                marker_areas.append(typical)
    fit: list[tuple[float, float]] = []
    if has_line and len(lone_areas) >= 6 and 2 * len(lone_areas) >= len(centres):
        # a scatter with a curve fitted through it in its paint (seaborn's regplot, residplot's lowess): the
        # markers are the points, and the line's own course is the curve (they had been joined up into a
        # zigzag through the markers, and the curve lost)
        fit = _fitted_curve(pieces, lone_centres, float(np.median(lone_areas)))
        has_line = not fit
    if has_line and line_pts and len(lone_areas) < 3 and not opened_areas and len(centres) == len(lone_areas):
        # a plain line cut by the curves crossing it: a piece or two as small as a marker are
        # more of its vertices, not its points (SciencePlots' green curve among five others
        # had been read as the one point of its one round piece)
        line_pts += centres
        centres, marker_areas = [], []
    if has_line and len(centres) >= 2:
        centres += _hidden_ends(m, centres)
    pts_px = sorted(centres) if centres else staircase(sorted(line_pts))
    if not pts_px:
        return None
    kind = "line" if has_line else "point"
    # the commonest; a tie goes to the first seen (a set's order changed with PYTHONHASHSEED, and the reading with it)
    shape = max(shapes, key=shapes.count) if len(shapes) >= 2 and centres else None
    return Series(color=color, kind=kind, points=[(x_of(xaxis, px), yaxis.value(py)) for px, py in pts_px],
                  marker_areas=marker_areas, line_width=float(np.median(widths)) if widths else None,
                  line_core=float(np.median(cores)) if cores else None,
                  shape=shape, hollow=bool(centres) and 2 * len(ring_ink) > len(centres),
                  fit=[(x_of(xaxis, px), yaxis.value(py)) for px, py in fit])


def _lone(s) -> bool:
    """A component's stats: one marker alone (compact, filled, small)."""
    x, y, w, h, area = s
    return area >= 0.55 * w * h and max(w, h) <= 1.7 * min(w, h) and max(w, h) <= 60


def lone_marker(comp: np.ndarray, s) -> bool:
    """A component alone is a marker (see :func:`_lone`), or a triangle, which fills half its box (a
    lone ggplot2 triangle, 0.53 of its box, had been a piece of line; a fill of 0.45 for every blob
    made dashes and line pieces markers, SciencePlots' grid chart 43 -> 404 elements)."""
    x, y, w, h, area = s
    return _lone(s) or (area >= 0.45 * w * h and max(w, h) <= 1.7 * min(w, h) <= 60
                        and _marker_shape(comp).startswith("triangle"))


def _ring(comp: np.ndarray, s) -> np.ndarray | None:
    """A component's mask filled in, where it is a hollow marker alone: a small compact closed
    outline round a hole (an open circle's ring fills under half its box, and was read as a bend
    of a line: Vega-Lite's default point mark had made every scatter a zigzag)."""
    x, y, w, h, area = s
    if max(w, h) > 60 or min(w, h) < 5 or max(w, h) > 1.3 * min(w, h):
        return None
    # a ring broken by a pixel (a gridline's crossing, its anti-aliased thin side) closed first
    closed = cv2.morphologyEx(np.pad(comp, 1).astype(np.uint8), cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    outside = np.pad(closed[1:-1, 1:-1] == 0, 1, constant_values=True).astype(np.uint8)
    cv2.floodFill(outside, None, (0, 0), 2)
    filled = outside[1:-1, 1:-1] != 2
    n = int(filled.sum())
    return filled if n >= 0.6 * w * h and n >= 1.3 * area else None


def _clumps(lab: np.ndarray, comps: list, centres: list[tuple[float, float]], areas: list[float]) -> set[int]:
    """A dense scatter's clumps of overlapping markers, each as many markers as its area holds
    (k-means over its pixels), where eight or more markers stand alone: a clump is compact (a
    line through the plot is not). Adds their centres and sizes; returns the clumps' labels
    (ggplot2's 300-point scatter had been read as a line of 111 vertices, clumps as bends)."""
    lone = [float(s[4]) for _, s in comps if _lone(s)]
    if len(lone) < 8:
        return set()
    typical = float(np.median(lone))
    if any(not _lone(s) and max(s[2], s[3]) > 8 * typical ** 0.5 and s[4] < 0.35 * s[2] * s[3] for _, s in comps):
        return set()  # a line runs through the plot in this paint: its pieces are no clumps (d2l's posterior mean)
    done: set[int] = set()
    for i, s in comps:
        x, y, w, h, area = (int(v) for v in s)
        if _lone(s) or area < 1.5 * typical or area > 40 * typical or max(w, h) > 8 * typical ** 0.5:
            continue
        ys, xs = np.nonzero(lab[y:y + h, x:x + w] == i)
        pts = np.stack([xs + 0.5 + x, ys + 0.5 + y], axis=1).astype(np.float32)
        n = int(np.clip(round(area / typical), 2, 40))
        crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
        cv2.setRNGSeed(0)
        _, _, found = cv2.kmeans(pts, n, None, crit, 2, cv2.KMEANS_PP_CENTERS)
        centres += [(float(cx), float(cy)) for cx, cy in found]
        areas += [typical] * n
        done.add(i)
    return done


def _marker_blobs(comp: np.ndarray, lw: float):
    """The markers on a line: what survives an opening with a disc wider than the line.

    A disc 2.2 line widths across keeps a bend or a crossing from passing for a marker; a
    triangle on a thick line is narrower than that (bmh's 2 pt lines: a 12 px triangle's
    inscribed circle is 7 px, the disc 11), so when it leaves none, narrower discs are tried,
    and taken where they leave three or more blobs of one size (markers repeat; bends differ).
    Returns (disc, label count, labels, stats, blobs)."""
    for i, mult in enumerate((2.2, 1.8, 1.5)):
        k = int(round(mult * lw + 2)) | 1
        padded = np.pad(comp, k).astype(np.uint8)
        opened = cv2.morphologyEx(padded, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
        nb, blab, bstats, _ = find_blobs(opened)
        blobs = [bstats[j] for j in range(1, nb) if bstats[j][4] >= 0.5 * k * k]
        if i == 0:
            first = (k, nb, blab, bstats, blobs)
            if blobs:
                return first
            continue
        areas = [int(b[4]) for b in blobs]
        if len(blobs) >= 3 and max(areas) <= 2 * min(areas):
            return k, nb, blab, bstats, blobs
    return first


FIT_STEP = 3  # px between a fitted curve's vertices: its course as drawn, a value read at any x
FIT_SPAN = 9  # columns of FIT_STEP px in the running median along a fitted curve (27 px)
FIT_SWINGS = 4  # a fitted curve's path up and down, in its own height, at most


def _fitted_curve(pieces: list[tuple[np.ndarray, int, int, np.ndarray]], lone: list[tuple[float, float]],
                  marker_area: float) -> list[tuple[float, float]]:
    """The course of a curve drawn through a scatter in the scatter's paint, px, left to right: the
    line pieces' skeletons, what survives an opening wider than the line (markers, clumps of them) cut out, a vertex
    every FIT_STEP px of x. None
    where the ``lone`` markers (those touching no line) lie on the course, not off it: a dashed
    line's markers between its dashes, or where the line is no longer than a marker row."""
    from skimage.morphology import skeletonize  # heavy: 0.6-0.9 s to import; only line series need it

    xs_all, ys_all = [], []
    for comp, x, y, marks in pieces:
        line = comp & ~cv2.dilate(marks.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
        ys, xs = np.nonzero(skeletonize(line))
        xs_all.append(xs + x + 0.5)
        ys_all.append(ys + y + 0.5)
    xs, ys = np.concatenate(xs_all or [np.zeros(0)]), np.concatenate(ys_all or [np.zeros(0)])
    if xs.size == 0:
        return []
    cols: list[tuple[float, float]] = []
    for a in np.arange(xs.min(), xs.max() + 1, FIT_STEP):
        sel = (xs >= a) & (xs < a + FIT_STEP)
        if sel.any():
            cols.append((float(xs[sel].mean()), float(np.median(ys[sel]))))
    # a running median over FIT_SPAN columns: what is left of a clump of markers on the line (their
    # rims, where they overlap) is a spike a few columns wide, not the curve's course
    half = FIT_SPAN // 2
    course = [(x, float(np.median([c[1] for c in cols[max(0, i - half):i + half + 1]]))) for i, (x, _) in enumerate(cols)]
    cx = np.array([c[0] for c in course])
    radius = (marker_area / np.pi) ** 0.5
    off = [abs(py - course[int(np.argmin(np.abs(cx - px)))][1]) > 2 * radius
           for px, py in lone if np.abs(cx - px).min() <= FIT_STEP]
    # the curve crosses the scatter's x range (a line of a few short pieces is the markers' own)
    spread = max(c[0] for c in lone) - min(c[0] for c in lone) if lone else 0.0
    if len(off) < 6 or sum(off) < 0.6 * len(off) or cx.max() - cx.min() < 0.3 * spread:
        return []
    # a fitted curve is smooth: it rises and falls a few times at most (the black outlines of
    # stacked step histograms under black data points, in one paint, had passed for one)
    cy = np.array([c[1] for c in course])
    if np.abs(np.diff(cy)).sum() > FIT_SWINGS * max(float(cy.max() - cy.min()), 1.0):
        return []
    return course


def _scattered(line_spans: list[tuple[int, int]], centres: list[tuple[float, float]]) -> bool:
    """The 'lines' of a series cover under 30 % of its x extent: blobs among lone markers."""
    if not line_spans or not centres:
        return False
    lo = min([a for a, _ in line_spans] + [c[0] for c in centres])
    hi = max([b for _, b in line_spans] + [c[0] for c in centres])
    covered = np.zeros(int(hi - lo) + 2, bool)
    for a, b in line_spans:
        covered[int(a - lo):int(b - lo) + 1] = True
    return hi - lo > 0 and covered.sum() < 0.3 * (hi - lo)


def _split_cluster(comp: np.ndarray, typical: float) -> list[tuple[float, float]]:
    """The centres of the markers merged in one blob: as many as its area holds (at most four),
    spread along its long axis."""
    ys, xs = np.nonzero(comp)
    n = int(np.clip(round(xs.size / max(typical, 1.0)), 1, 4))
    pts = np.stack([xs + 0.5, ys + 0.5], axis=1).astype(np.float64)
    mean = pts.mean(axis=0)
    if n == 1:
        return [(float(mean[0]), float(mean[1]))]
    _, vecs = np.linalg.eigh(np.cov((pts - mean).T))
    t = (pts - mean) @ vecs[:, -1]
    edges = np.quantile(t, np.linspace(0, 1, n + 1))
    out = []
    for a, b in zip(edges[:-1], edges[1:]):
        part = pts[(t >= a) & (t <= b)]
        if len(part):
            out.append((float(part[:, 0].mean()), float(part[:, 1].mean())))
    return out


def _hidden_ends(m: np.ndarray, centres: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """A line with markers that runs on past its first or last marker ends at a point whose
    marker another series' covers (two curves from one start: the quadratic's (0, 0) and
    (1, 1) lay under the linear's diamonds, and the re-drawn line stopped a step short).
    Its far end, where it runs on by half a marker step or more, is that point."""
    from skimage.morphology import skeletonize  # heavy: 0.6-0.9 s to import; only line series need it

    xs = sorted(c[0] for c in centres)
    step = float(np.median(np.diff(xs))) if len(xs) >= 2 else 0.0
    if step <= 0:
        return []
    sk = skeletonize(m)
    ys, xs_ = np.nonzero(sk)
    if xs_.size == 0:
        return []
    out = []
    left, right = min(xs), max(xs)
    for pick, beyond in ((int(np.argmin(xs_)), lambda x: x < left - 0.5 * step),
                         (int(np.argmax(xs_)), lambda x: x > right + 0.5 * step)):
        x, y = float(xs_[pick]) + 0.5, float(ys[pick]) + 0.5
        if beyond(x):
            # markers stand on a grid of x: an end within a quarter step of it is on it
            ref = left if x < left else right
            k = round((x - ref) / step)
            if k and abs(x - (ref + k * step)) <= 0.25 * step:
                x = ref + k * step
            out.append((x, y))
    return out


def _marker_shape(m: np.ndarray) -> str:
    """circle, square, diamond, triangle-up or triangle-down, from a marker's pixels: how much of
    its box it fills, and where it is widest (a triangle at its base, a diamond midway)."""
    h, w = m.shape
    if h < 4 or w < 4:
        return "circle"
    fill = float(m.sum()) / (h * w)
    if fill >= 0.9:
        return "square"
    rows = m.sum(axis=1).astype(float)
    widest = np.flatnonzero(rows >= 0.9 * rows.max())
    at = float(widest.mean()) / max(1, h - 1)
    # a triangle is widest at its base, and heavier there than at its apex even where the
    # line's opening has rounded it (a 9x11 '^': rows 2 6 8 | 9 11 11 | 11 9 5)
    third = max(1, h // 3)
    top_w, bottom_w = float(rows[:third].sum()), float(rows[-third:].sum())
    if at >= 0.68 or bottom_w >= 1.35 * max(top_w, 1.0):
        return "triangle-up"
    if at <= 0.32 or top_w >= 1.35 * max(bottom_w, 1.0):
        return "triangle-down"
    if fill >= 0.7:
        return "circle"
    quarter = rows[int(round(0.25 * (h - 1)))] / max(rows.max(), 1.0)
    return "diamond" if 0.3 <= quarter <= 0.75 else "circle"


def _smoothed(m: np.ndarray) -> np.ndarray:
    """A line's mask without its ragged edge, where it is 3 px wide or more.

    A JPEG's line has ragged edges, a pixel in and a pixel out, and every notch roots a spur of
    the skeleton (fivethirtyeight's 8 px red line: 2,049 skeleton pixels, its width read as
    2.3 px) and bites into the markers an opening looks for (four of nine squares lost). A 3×3
    median smooths the edge; where it keeps 90 % of the mask the line is wide enough for it
    (584 skeleton pixels, 7.9 px), else the mask is kept as it is (a thin line would vanish)."""
    smooth = cv2.medianBlur(m.astype(np.uint8), 3).astype(bool)
    return smooth if smooth.sum() >= 0.9 * m.sum() else m


def line_width(m: np.ndarray) -> float:
    """Stroke width of a (mostly) line-shaped mask: twice the median distance to its edge on the skeleton."""
    from skimage.morphology import skeletonize  # heavy: 0.6-0.9 s to import; only line series need it

    sk = skeletonize(m)
    if not sk.any():
        return 1.0
    dist = cv2.distanceTransform(np.pad(m, 1).astype(np.uint8), cv2.DIST_L2, 5)[1:-1, 1:-1]
    return float(max(1.0, 2.0 * np.median(dist[sk]) - 0.5))


def stroke_width(m: np.ndarray, cover: np.ndarray) -> float:
    """The width a line was drawn with: its paint's pixels (``m``) and the anti-aliased edge they
    leave out (``cover``: each pixel's share of the paint, 0-1, over the same crop), over its
    length (:func:`line_width`'s skeleton distance is quantised: 1.5 px for every line 1.5-3 px
    wide, and the lines came back half as thick).

    The core is a band of area A around a centreline of length L: its contours (through the
    edge pixels' centres, each 4 px short of the band's edge) run 2·(L + c), and c·L = A; the
    edge adds its pixels' shares (none where the line was snapped to the pixel grid, as
    matplotlib draws a step histogram). Matplotlib lines 1.5-9 px wide, level, sloped, curved
    and stepped, in three colours: within 6 % (sloped ones a little thin)."""
    contours, _ = cv2.findContours(m.astype(np.uint8), cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    half = sum(cv2.arcLength(c, True) + 4.0 for c in contours) / 2.0
    area = float(m.sum())
    if not area:
        return 1.0
    core = (half - math.sqrt(max(0.0, half * half - 4.0 * area))) / 2.0
    edge = cv2.dilate(m.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool) & ~m
    return max(1.0, (area + float(cover[edge].sum())) / max(half - core, 1.0))


def drawn_marker_area(core: float) -> float:
    """A point marker's drawn area from its paint's pixels (``core``, px²): the disc 0.4 px wider
    all round, the anti-aliased edge the paint leaves out (matplotlib markers 4-12 px across:
    within 10 %; the core alone is 20-30 % short)."""
    return math.pi * (math.sqrt(core / math.pi) + 0.4) ** 2


def staircase(pts: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """A step histogram's outline (``pts``: a line's vertices, px, left to right) as its bins:
    each bin's level from the level runs over it, drawn from edge to edge. Where two
    histograms cross, one hides the other's risers and runs, and the skeleton had cut the
    corners there into slopes; a line that is not mostly level runs and risers between bins of
    one width is kept as it is."""
    if len(pts) < 6:
        return pts
    pts = _riser_order(pts)
    flat, rise, total = [], [], 0.0
    for (xa, ya), (xb, yb) in zip(pts, pts[1:]):
        dx, dy = abs(xb - xa), abs(yb - ya)
        total += dx + dy
        if dy <= 2 and dx > 0:
            flat.append((min(xa, xb), max(xa, xb), (ya + yb) / 2))
        elif dx <= 6 and dy > 3:  # a riser (its ends a pixel or two apart; cut where another series covers it)
            rise.append((xa + xb) / 2)
    steady = sum(b - a for a, b, _ in flat) + sum(abs(yb - ya) for (xa, ya), (xb, yb) in zip(pts, pts[1:])
                                                  if abs(xb - xa) <= 6)
    if len(rise) < 3 or total <= 0 or steady < 0.6 * total:
        return pts
    edges: list[float] = []
    for x in sorted(rise + [pts[0][0], pts[-1][0]]):
        if edges and x - edges[-1] <= 3:
            continue
        edges.append(x)
    # a histogram's bins are of one width (a steep curve's few near-vertical pieces are not)
    widths = np.diff(edges)
    if len(widths) < 3 or np.mean(np.abs(widths / np.median(widths) - 1) <= 0.2) < 0.7:
        return pts
    out: list[tuple[float, float]] = []
    for a, b in zip(edges, edges[1:]):
        over = [(min(b, hi) - max(a, lo), y) for lo, hi, y in flat if min(b, hi) - max(a, lo) > 2]
        if not over:
            continue  # hidden under another series: the line runs on to the next bin
        over.sort(key=lambda t: t[1])
        half, acc = sum(w for w, _ in over) / 2, 0.0
        level = over[-1][1]
        for w, y in over:
            acc += w
            if acc >= half:
                level = y
                break
        out += [(a, level), (b, level)]
    return out or pts


def _riser_order(pts: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Vertices sorted by x put a riser's ends in y order, up or down: each group at one x is
    put back in path order, nearest the previous vertex's height first (the runs either side
    had become diagonals from a riser's far end)."""
    out: list[tuple[float, float]] = []
    i = 0
    while i < len(pts):
        j = i + 1
        while j < len(pts) and pts[j][0] - pts[i][0] <= 2:
            j += 1
        group = pts[i:j]
        if out:
            group.sort(key=lambda p: abs(p[1] - out[-1][1]))
        out += group
        i = j
    return out
