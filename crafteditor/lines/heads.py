"""Arrowheads: filled heads, found as what survives a morphological opening a little wider than
the line (filled triangles keep a core, lines vanish); open 'V' heads, too thin to survive it,
found as two short arms in the skeleton; each head's kind (arrow, open, diamond) read from slices
across its axis.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from crafteditor.blobs import find_blobs, row_ends
from crafteditor.lines.paths import Arrowhead, Ends, Pt, direction_out, path_length

# a head found in ink with the nodes' outlines left in is kept only where this share of its
# pixels lies in the residual (:func:`crafteditor.lines.detect._heads_at_outlines`)
IN_RESIDUAL = 0.4
# ...and there a 'line' this many times the figure's line width is no connector but a band: a
# group's pale fill (the outline ink keeps groups), 100-400 px wide in a scale-4 Mermaid export,
# each opened with a kernel as wide (1-2 CPU-s a band) for 'heads' of hundreds of px that the
# outline pass never kept. A thick arrow's head is found in the residual pass as before.
BAND_WIDTHS = 8.0
# a head at a thin line's end drawn at 1x (:func:`_small_heads`): looked for on lines under this
# wide (px), painted at least this share of the figure's strongest ink (a README-size Mermaid
# export: heads 150-200 from the background, lines 55-75), at least this long (px)
SMALL_LINE = 2.0
SMALL_STRENGTH = 0.5
SMALL_LEAST = 2.5


def find_heads(residual: np.ndarray, lw: float, coverage: np.ndarray, thicker: bool = True,
               kept_in: np.ndarray | None = None, paint: np.ndarray | None = None) -> tuple[list[Arrowhead], np.ndarray]:
    """Filled heads: what survives an opening a little wider than the line (``lw``).

    Two kinds of survivor are not heads: a corner or junction of lines a little wider than
    ``lw`` (an anti-aliased elbow connector's square corner keeps the opening's whole
    kernel), told by its arms; and a line much wider than ``lw`` (a paper figure's 5 px
    black arrows among 2 px grey outlines), which survives whole with its head: where
    ``thicker``, such a line is opened again at its own width and the heads on it are kept.

    ``kept_in``: where the caller keeps only heads with :data:`IN_RESIDUAL` of their pixels in
    this mask, a thick line with too few of its pixels there to hold such a head is not opened
    (the same heads kept), nor one over :data:`BAND_WIDTHS` line widths wide (a band).

    ``paint``: each pixel's colour distance from the background; given, heads too small for the
    opening at lines under :data:`SMALL_LINE` px are looked for as well (:func:`_small_heads`;
    they stay out of the returned mask).
    """
    # wide enough to erase a line with its anti-aliased rim, narrow enough to fit inside a head
    k = int(round(1.5 * lw + 2)) | 1
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    opened = cv2.morphologyEx(residual.astype(np.uint8), cv2.MORPH_OPEN, kernel)
    n, lab, stats, _ = find_blobs(opened)
    heads: list[Arrowhead] = []
    head_mask = np.zeros_like(residual)
    H, W = residual.shape
    for i in range(1, n):
        x, y, w, h, area = stats[i]
        if area < 0.6 * k * k:
            continue
        pad = k // 2 + 2
        x0, y0, x1, y1 = max(0, x - pad), max(0, y - pad), min(W, x + w + pad), min(H, y + h + pad)
        core = (lab[y0:y1, x0:x1] == i).astype(np.uint8)
        grown = cv2.dilate(core, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k + 2, k + 2))).astype(bool)
        region = grown & residual[y0:y1, x0:x1]
        line_like = _line_like(region)
        if max(w, h) > 12 * lw + 20 or line_like:
            # a filled block (an icon, a bar), not an arrowhead; or a line wider than lw, with its head
            if thicker and line_like:
                found, mask = _heads_on_thick_line(region, residual[y0:y1, x0:x1], coverage[y0:y1, x0:x1], lw,
                                                   None if kept_in is None else kept_in[y0:y1, x0:x1])
                heads += [moved_head(f, x0, y0) for f in found]
                head_mask[y0:y1, x0:x1] |= mask
            continue
        if _line_joint(core, grown, residual, (x0, y0, x1, y1), k):
            continue
        head = _blob_head(region, (x0, y0, x1, y1), coverage, 2.0 * lw)
        if head is not None:
            head_mask[y0:y1, x0:x1] |= region
            heads.append(head)
    if paint is not None and lw < SMALL_LINE:
        heads += _small_heads(residual & ~head_mask, coverage, paint, k)
    return heads, head_mask


def _blob_head(region: np.ndarray, box: tuple[int, int, int, int], coverage: np.ndarray,
               least: float) -> Arrowhead | None:
    """A head of the ink ``region`` (a crop at ``box`` of the image), its axis provisional (its
    pixels' principal direction; the line it sits on fixes it later); none where its longer side
    is under ``least`` px."""
    x0, y0, x1, y1 = box
    ys, xs = np.nonzero(region)
    if ys.size < 4:
        return None
    pts = np.stack([xs + x0 + 0.5, ys + y0 + 0.5], axis=1).astype(np.float64)
    wts = coverage[ys + y0, xs + x0].astype(np.float64)
    centre = pts.mean(axis=0)
    evals, evecs = np.linalg.eigh(np.cov((pts - centre).T))
    axis = evecs[:, int(np.argmax(evals))]
    proj = (pts - centre) @ axis
    perp = (pts - centre) @ np.array([-axis[1], axis[0]])
    length = float(proj.max() - proj.min()) + 1
    width = float(perp.max() - perp.min()) + 1
    if max(length, width) < least:
        return None
    return Arrowhead(tip=(float(centre[0]), float(centre[1])), base=(float(centre[0]), float(centre[1])),
                     length=max(length, width), width=min(length, width), mask_box=(x0, y0, x1, y1),
                     pixels=pts, weights=wts)


def _small_heads(ink: np.ndarray, coverage: np.ndarray, paint: np.ndarray, k: int) -> list[Arrowhead]:
    """Filled heads too small for the opening sized by the line (``k`` px): a Mermaid diagram at
    README size draws its 1-px lines in anti-aliased grey with 3-4 px heads of solid paint, whose
    tips touch the node's outline (head and outline one blob in the ink, which no kernel parts).

    Found by their paint instead: blobs of ink painted at least half as strongly as the figure's
    strongest (the line's grey is not), with a 2 x 2 px solid core (a crisp 1-px line, a
    crossing's darker overlap has none), no more than a px longer than the ``k`` kernel, and a
    line leaving them (ink joined to them beyond their anti-aliased rim: a dash, a dot, a speck
    alone has none)
    and no other strong ink beside them (a glyph of a label the reader missed has its word's).
    They are not taken out of the lines' ink, so a dark bead mid-line cuts no line; one is a head
    only where a line's end claims it (:func:`crafteditor.lines.arrows.attach_heads`)."""
    vals = paint[ink]
    if vals.size == 0:
        return []
    strong = ink & (paint >= SMALL_STRENGTH * float(np.percentile(vals, 99.5)))
    n, lab, stats, _ = find_blobs(strong)
    heads: list[Arrowhead] = []
    H, W = ink.shape
    reach = k + 2
    for i in range(1, n):
        x, y, w, h, area = stats[i]
        if area < 4 or max(w, h) > k + 1:
            continue
        x0, y0, x1, y1 = max(0, x - reach), max(0, y - reach), min(W, x + w + reach), min(H, y + h + reach)
        blob = (lab[y0:y1, x0:x1] == i).astype(np.uint8)
        if not cv2.erode(blob, np.ones((2, 2), np.uint8), anchor=(0, 0)).any():
            continue
        rim = cv2.dilate(blob, np.ones((3, 3), np.uint8)).astype(bool)
        near = cv2.dilate(blob, np.ones((2 * reach + 1, 2 * reach + 1), np.uint8)).astype(bool)
        around = near & ~blob.astype(bool)
        if (around & strong[y0:y1, x0:x1]).any():
            continue
        # the ink joined to it, there: a line leaving it reaches past its rim
        _, joined = cv2.connectedComponents((near & ink[y0:y1, x0:x1]).astype(np.uint8), connectivity=8)
        own = joined == joined[blob.astype(bool)][0]
        if not (own & ~rim).any():
            continue
        head = _blob_head(blob.astype(bool), (x0, y0, x1, y1), coverage, SMALL_LEAST)
        if head is not None:
            heads.append(head)
    return heads


def _line_like(region: np.ndarray) -> bool:
    """Whether the ink that survived the opening is a stretch of line: over four times as long
    as its widest point is wide (an arrowhead is about as long as wide; a line with its head
    at one end is long, and widest only at the head)."""
    m = region.astype(np.uint8)
    if m.sum() < 8:
        return False
    inner = cv2.distanceTransform(_framed(m), cv2.DIST_L2, 3)
    (cx, cy), (a, b), _ = cv2.minAreaRect(row_ends(m))
    return max(a, b) > 4 * 2 * float(inner.max())


def _framed(m: np.ndarray) -> np.ndarray:
    """``np.pad(m, 1)`` of a uint8 mask (a frame of zeros: the distance map counts the image's edge as
    background), by OpenCV: the same array without numpy's per-call overhead (8,000 calls a Mermaid export)."""
    return cv2.copyMakeBorder(m, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)


def _heads_on_thick_line(region: np.ndarray, residual: np.ndarray, coverage: np.ndarray,
                         lw: float, kept_in: np.ndarray | None = None) -> tuple[list[Arrowhead], np.ndarray]:
    """The heads on a line wider than the figure's ``lw``, found by opening it at its own width:
    twice the typical distance from its middle to its edge (the ridge of its distance map)."""
    m = region.astype(np.uint8)
    inner = cv2.distanceTransform(_framed(m), cv2.DIST_L2, 3)[1:-1, 1:-1]
    # (its edge pixels are maxima too, of 1: the anti-aliased rim's corners)
    ridge = inner[(inner >= cv2.dilate(inner, np.ones((3, 3), np.uint8))) & (inner > 1.0)]
    if ridge.size == 0:
        return [], np.zeros_like(residual)
    # the mask's width less its anti-aliased rim (a pixel each side): the width ``lw`` is read
    # from ink coverage, and the opening's kernel is sized for that
    own = 2 * float(np.median(ridge)) - 2
    if own < 1.5 * lw:
        return [], np.zeros_like(residual)
    if kept_in is not None:
        if own > BAND_WIDTHS * lw:
            return [], np.zeros_like(residual)
        # a head found here has at least the opening's core, 0.6 k² pixels, all in the region
        k = int(round(1.5 * own + 2)) | 1
        if np.count_nonzero(region & kept_in) < IN_RESIDUAL * 0.6 * k * k - 1:  # (a pixel spare for rounding)
            return [], np.zeros_like(residual)
    return find_heads(region & residual, own, np.where(region, coverage, 0).astype(np.float32), thicker=False)


def moved_head(h: Arrowhead, dx: int, dy: int) -> Arrowhead:
    """A head found in a crop, moved (in place) into the whole image's pixels."""
    h.tip = (h.tip[0] + dx, h.tip[1] + dy)
    h.base = (h.base[0] + dx, h.base[1] + dy)
    x0, y0, x1, y1 = h.mask_box
    h.mask_box = (x0 + dx, y0 + dy, x1 + dx, y1 + dy)
    if len(h.pixels):
        h.pixels = h.pixels + np.array([dx, dy], dtype=h.pixels.dtype)
    return h


def _line_joint(core: np.ndarray, grown: np.ndarray, residual: np.ndarray, box: tuple[int, int, int, int],
                k: int) -> bool:
    """Whether what survived the opening is a corner or junction of lines, not a head: two or
    more arms leave it and it is no wider than they are (a head is wider than its shaft; the
    square corner of a line a little wider than the kernel keeps it, an anti-aliased elbow
    connector's corners and T-junctions had each become a head)."""
    H, W = residual.shape
    x0, y0, x1, y1 = box
    reach = k + 2
    X0, Y0, X1, Y1 = max(0, x0 - reach), max(0, y0 - reach), min(W, x1 + reach), min(H, y1 + reach)
    ink = residual[Y0:Y1, X0:X1].astype(np.uint8)
    inner = cv2.distanceTransform(_framed(ink), cv2.DIST_L2, 3)[1:-1, 1:-1]
    at = (slice(y0 - Y0, y1 - Y0), slice(x0 - X0, x1 - X0))
    body = np.zeros(ink.shape, bool)
    body[at] = grown
    near = cv2.dilate(body.astype(np.uint8), np.ones((2 * reach + 1, 2 * reach + 1), np.uint8)).astype(bool)
    ring = near & ~body & ink.astype(bool)
    n_arms, arm_lab = cv2.connectedComponents(ring.astype(np.uint8), connectivity=8)
    if n_arms - 1 < 2:
        return False
    # each arm's width: its widest point away from the body
    far = ring & ~cv2.dilate(body.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
    if not far.any():
        return False
    arm = float(inner[far].max())
    corehold = np.zeros(ink.shape, bool)
    corehold[at] = core.astype(bool)
    # the widest circle inside a joint of lines w wide: w/2 at a corner, 5/8 w at a T, w/√2 at
    # a crossing (its four inner corners give room); inside a head as long as it is 3 w wide, 0.9 w
    return float(inner[corehold].max()) <= (1.45 if n_arms - 1 <= 3 else 1.65) * arm


def head_kind(h: Arrowhead, d: tuple[float, float], residual: np.ndarray, lw: float, trusted: bool = True) -> str:
    """arrow, open or diamond, from cross-sections of the ink behind the tip.

    Slices across the axis, every half pixel back from the tip: a filled head is one run of ink
    per slice, an open 'V' is two or three (its arms, and the line between them); a filled
    triangle is widest at its back, a diamond half-way along. Measured on Crafter's own heads
    at 100–300 dpi (``tests/crafteditor/test_shapes_lines.py``).

    An axis not ``trusted`` (lent by the line, because the head's pixels are about as wide as long)
    may be wrong where a route turns just before a small head: slices across a wrong axis read
    any head as any kind, so then only a clear 'V' is claimed (hollow, symmetric, sharp tip).
    """
    H, W = residual.shape
    dx, dy = d
    nx, ny = -dy, dx
    tip = np.asarray(h.tip) - 0.5 * np.asarray(d)  # the last half pixel is anti-aliasing
    reach = 2.5 * max(h.length, h.width, 4 * lw)
    half = 0.9 * max(h.width, 4 * lw)
    ts = np.arange(1.0, reach, 0.5)
    ss = np.arange(-half, half + 0.01, 0.5)
    px = tip[0] - ts[:, None] * dx + ss[None, :] * nx
    py = tip[1] - ts[:, None] * dy + ss[None, :] * ny
    xi, yi = np.floor(px).astype(int), np.floor(py).astype(int)
    inside = (xi >= 0) & (xi < W) & (yi >= 0) & (yi < H)
    ink = np.zeros(px.shape, bool)
    ink[inside] = residual[yi[inside], xi[inside]]
    widths, runs, centres = [], [], []
    for row in ink:
        on = np.flatnonzero(row)
        if on.size == 0:
            widths.append(0.0)
            runs.append(0)
            centres.append(0.0)
            continue
        runs.append(1 + int(np.count_nonzero(np.diff(on) > 2)))  # a gap of over a pixel splits runs
        widths.append((on[-1] - on[0] + 1) * 0.5)
        centres.append(float(ss[on[0]] + ss[on[-1]]) / 2)
    widths_a = np.asarray(widths)
    wide = widths_a > lw + 2.5  # wider than the line: still the head
    if not wide.any():
        return "arrow"
    # the head is the first stretch of wide slices; what lies behind it (a route's corner, a
    # node's outline) is not the head
    first = int(np.argmax(wide))
    narrow = np.flatnonzero(~wide[first:])
    extent = first + (int(narrow[0]) if narrow.size else len(wide) - first)
    body = slice(int(0.3 * extent), max(int(0.3 * extent) + 1, int(0.8 * extent)))
    # a head is symmetric about its axis; lopsided slices mean the axis is not the head's (a
    # route turning just before a small head lends it the line's direction): claim nothing
    lopsided = float(np.median(np.abs(centres[first:extent])))
    if lopsided > 1.0 + 0.15 * float(widths_a[first:extent].max()):
        return "arrow"
    hollow = np.mean([r >= 2 for r in runs[body]]) if runs[body] else 0.0
    if not trusted:
        sharp = widths_a[0] <= 0.6 * widths_a[:extent].max()
        return "open" if hollow >= 0.5 and lopsided <= 0.75 and sharp else "arrow"
    if hollow >= 0.5:
        return "open"
    top = float(widths_a[:extent].max())
    widest = float(np.mean(np.flatnonzero(widths_a[:extent] >= 0.9 * top)))  # middle of the widest stretch
    # a diamond is widest half-way and narrows again behind; a triangle is widest at its back.
    # Middle of the widest stretch over the head's length, measured at 100 and 150 dpi:
    # diamonds 0.17–0.43, triangles 0.69–0.85 (0.69: a head whose back corners fade)
    if extent >= 6 and widest <= 0.55 * extent:
        return "diamond"
    return "arrow"


def pixel_gap(pixels: np.ndarray, pt: Pt) -> float:
    """Distance from ``pt`` to the nearest of a blob's pixel centres."""
    return float(np.min(np.hypot(pixels[:, 0] - pt[0], pixels[:, 1] - pt[1])))


def pixel_disc(pixels: np.ndarray) -> tuple[Pt, float]:
    """Centre and radius of a circle holding a blob's pixel centres."""
    c = pixels[:, :2].mean(axis=0)
    return (float(c[0]), float(c[1])), float(np.max(np.hypot(pixels[:, 0] - c[0], pixels[:, 1] - c[1])))


def _chord_offsets(p: list[Pt]) -> np.ndarray | None:
    """Distance of each point from the chord first–last point (None for a closed piece)."""
    a, b = np.asarray(p[0]), np.asarray(p[-1])
    chord = b - a
    n = float(np.hypot(*chord))
    if n < 1e-6:
        return None
    arr = np.asarray(p)
    return np.abs((arr[:, 0] - a[0]) * chord[1] - (arr[:, 1] - a[1]) * chord[0]) / n


# arms of a 'V' at 25°–80° to each other (Crafter's is 56°; a route's right-angle corner is not a head)
_V_COS = (math.cos(math.radians(80)), math.cos(math.radians(25)))


def find_open_heads(pieces: list[list[Pt]], residual: np.ndarray, coverage: np.ndarray, lw: float,
                    filled: list[Arrowhead]) -> tuple[list[list[Pt]], list[Arrowhead], list[Arrowhead]]:
    """Open 'V' heads too thin to survive the opening that finds filled heads.

    The skeleton of a 'V' is either one short piece that folds at its apex, or two short pieces
    meeting there (a line running into the apex splits it). Both arms are about equally long,
    at 25°–80° to each other (Crafter's is 56°; a route's right-angle corner is not a head).
    They leave the traced pieces and become heads of kind 'open'. Returns the pieces left, the
    open heads and the filled heads that are not an open head's tip.
    """
    search = _OpenHeadSearch(pieces, residual, coverage, lw)
    short = [i for i, p in enumerate(pieces) if 2 <= len(p) and path_length(p) <= 2.2 * search.max_arm]
    search.thick_tipped(filled, short)
    search.folded(short)
    search.meeting(short)
    # a filled blob at an open head's apex is that head's tip, not a second head
    kept = []
    for f in filled:
        for h in search.heads:
            if pixel_gap(f.pixels, h.tip) <= lw + 1.5:
                _absorb(h, f)
                break
        else:
            kept.append(f)
    return [p for i, p in enumerate(pieces) if i not in search.used], search.heads, kept


class _OpenHeadSearch:
    """The search of :func:`find_open_heads` over one figure's pieces: the open heads found so far
    (``heads``) and the pieces they took (``used``), which the later ways of finding one skip."""

    def __init__(self, pieces: list[list[Pt]], residual: np.ndarray, coverage: np.ndarray, lw: float) -> None:
        self.pieces, self.residual, self.coverage, self.lw = pieces, residual, coverage, lw
        self.max_arm = 10 * lw + 16
        self.heads: list[Arrowhead] = []
        self.used: set[int] = set()
        self.ends_index = Ends(pieces)

    def fed(self, apex: Pt, pointing: tuple[float, float], skip: set[int]) -> bool:
        """Whether a line arrives at the apex from behind, along the bisector (a dashed line
        may stop a dash gap short): two bent dashes at a route's corner are not a head."""
        lw = self.lw
        for k in self.ends_index.lines_near(apex, 4 * lw + 5):
            q = self.pieces[k]
            if k in skip or len(q) < 2:
                continue
            for at_start in (True, False):
                e = q[0] if at_start else q[-1]
                gap = math.dist(e, apex)
                if gap > 4 * lw + 5:
                    continue
                out = direction_out(q, at_start, 3 * lw + 3)
                if out is None or out[0] * pointing[0] + out[1] * pointing[1] < 0.85:
                    continue
                if gap <= 2 * lw + 2 or \
                        ((apex[0] - e[0]) * pointing[0] + (apex[1] - e[1]) * pointing[1]) / gap >= 0.85:
                    return True
        return False

    def make(self, arms: list[list[Pt]], apex: Pt, skip: set[int]) -> bool:
        """Add the open head whose arms are ``arms``, meeting at ``apex``, where they make one."""
        lw, residual = self.lw, self.residual
        ends = [a[-1] if math.dist(a[0], apex) < math.dist(a[-1], apex) else a[0] for a in arms]
        la, lb = (math.dist(apex, e) for e in ends)
        if min(la, lb) < 2 * lw + 1.5 or max(la, lb) > self.max_arm or max(la, lb) > 1.7 * min(la, lb):
            return False
        # each arm's direction from its outer two thirds: its skeleton bends into the apex
        dirs = []
        for a in arms:
            out = a if math.dist(a[0], apex) < math.dist(a[-1], apex) else a[::-1]
            start = out[len(out) // 3] if math.dist(out[len(out) // 3], out[-1]) >= 3 else out[0]
            n = math.dist(start, out[-1])
            if n < 1e-6:
                return False
            dirs.append(((out[-1][0] - start[0]) / n, (out[-1][1] - start[1]) / n))
        ua, ub = dirs
        if not _V_COS[0] <= ua[0] * ub[0] + ua[1] * ub[1] <= _V_COS[1]:
            return False
        bis = (ua[0] + ub[0], ua[1] + ub[1])
        nb = math.hypot(*bis)
        pointing = (-bis[0] / nb, -bis[1] / nb)
        if not self.fed(apex, pointing, skip):
            return False
        if _filled_between(apex, ends, residual, lw) or _ink_ahead(apex, pointing, residual) > 2.5 * lw + 2:
            return False  # the skeleton of a filled triangle also forks into two arms, short of its tip
        ink = _ink_along(arms, residual, self.coverage, lw)
        if ink is None:
            return False
        self.heads.append(Arrowhead(tip=apex, base=apex, length=0.5 * (la + lb), width=0.5 * (la + lb),
                                    mask_box=ink[2], pixels=ink[0], weights=ink[1],
                                    kind="open", pointing=pointing))
        return True

    def thick_tipped(self, filled: list[Arrowhead], short: list[int]) -> None:
        """A filled blob with two short arms hanging off it: at 300 dpi the thick tip of a 'V'
        survives the opening and the arms are cut to stubs."""
        pieces, lw, used = self.pieces, self.lw, self.used
        short_set = set(short)
        for f in filled:
            if not len(f.pixels):
                continue
            centre, radius = pixel_disc(f.pixels)
            touching = [i for i in self.ends_index.lines_near(centre, radius + lw + 2)
                        if i in short_set and i not in used and
                        min(pixel_gap(f.pixels, pieces[i][0]), pixel_gap(f.pixels, pieces[i][-1])) <= lw + 2]
            if len(touching) != 2:
                continue
            dirs = []
            for i in touching:
                p0, p1 = pieces[i][0], pieces[i][-1]
                near_end, far_end = (p0, p1) if pixel_gap(f.pixels, p0) <= pixel_gap(f.pixels, p1) else (p1, p0)
                n = math.dist(near_end, far_end)
                if n < 1.5 * lw + 1 or n > self.max_arm:
                    break
                dirs.append(((far_end[0] - near_end[0]) / n, (far_end[1] - near_end[1]) / n))
            if len(dirs) != 2:
                continue
            if not _V_COS[0] <= dirs[0][0] * dirs[1][0] + dirs[0][1] * dirs[1][1] <= _V_COS[1]:
                continue
            ink = _ink_along([pieces[i] for i in touching], self.residual, self.coverage, lw)
            if ink is None:
                continue
            bis = (dirs[0][0] + dirs[1][0], dirs[0][1] + dirs[1][1])
            nb = math.hypot(*bis)
            _absorb(f, Arrowhead(tip=f.tip, base=f.base, length=0, width=0, mask_box=ink[2], pixels=ink[0],
                                 weights=ink[1]))
            f.kind, f.pointing = "open", (-bis[0] / nb, -bis[1] / nb)
            used |= set(touching)

    def folded(self, short: list[int]) -> None:
        """One piece folded at its apex."""
        for i in short:
            p = self.pieces[i]
            off = _chord_offsets(p)
            if off is None:
                continue
            k = int(np.argmax(off))
            if 0 < k < len(p) - 1 and off[k] >= 2 * self.lw + 1 and self.make([p[:k + 1], p[k:]], p[k], {i}):
                self.used.add(i)

    def meeting(self, short: list[int]) -> None:
        """Two pieces meeting at the apex, or stopping short of it where the thick tip survived the
        opening as a filled blob (300 dpi): the apex is where their lines cross."""
        pieces, lw, used = self.pieces, self.lw, self.used
        reach = 3 * lw + 3
        straight = {i: _straight(pieces[i]) for i in short}
        for i in short:
            if i in used or not straight[i]:
                continue
            near = set(self.ends_index.lines_near(pieces[i][0], 2 * reach)) | \
                set(self.ends_index.lines_near(pieces[i][-1], 2 * reach))
            for j in sorted(k for k in near if k > i and k in straight):
                if j in used or i in used or not straight[j]:
                    continue
                # the chords' crossing is the pair's, not an end's: found once; and a head already
                # refused at an apex is refused there again (a whiteboard photo's ~10^5 pairs of
                # pen strokes took each up to four times)
                crossing: list[Pt | None] = []
                refused: set[Pt] = set()
                for ei in (0, -1):
                    for ej in (0, -1):
                        if i in used:
                            break
                        a, b = pieces[i][ei], pieces[j][ej]
                        gap = math.dist(a, b)
                        if gap > 2 * reach:
                            continue
                        if gap > 2 * lw + 2:
                            if not crossing:
                                crossing.append(_crossing(pieces[i], pieces[j]))
                            apex = crossing[0]
                        else:
                            apex = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
                        if apex is None or apex in refused or max(math.dist(apex, a), math.dist(apex, b)) > reach:
                            continue
                        if self.make([pieces[i], pieces[j]], apex, {i, j}):
                            used |= {i, j}
                        else:
                            refused.add(apex)


def _ink_ahead(p: Pt, d: tuple[float, float], residual: np.ndarray) -> float:
    """How far the ink runs on from ``p`` along ``d`` (px): a 'V' ends at its apex (or at the
    outline its tip touches)."""
    H, W = residual.shape
    t = 0.0
    while t < 60:
        x, y = int(p[0] + (t + 0.5) * d[0]), int(p[1] + (t + 0.5) * d[1])
        if not (0 <= x < W and 0 <= y < H) or not residual[y, x]:
            break
        t += 0.5
    return t


def _filled_between(apex: Pt, ends: list[Pt], residual: np.ndarray, lw: float) -> bool:
    """Whether the triangle apex–ends is inked inside, away from its arms and its bisector."""
    H, W = residual.shape
    tri = np.array([apex, ends[0], ends[1]], np.float64)
    x0, y0 = max(0, int(tri[:, 0].min()) - 1), max(0, int(tri[:, 1].min()) - 1)
    x1, y1 = min(W, int(tri[:, 0].max()) + 2), min(H, int(tri[:, 1].max()) + 2)
    if x1 <= x0 or y1 <= y0:
        return False
    inside = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(inside, [np.round(tri - [x0, y0]).astype(np.int32)], 1)
    strokes = np.zeros_like(inside)
    mid = ((ends[0][0] + ends[1][0]) / 2, (ends[0][1] + ends[1][1]) / 2)
    t = 2 * int(math.ceil(lw + 1)) + 1
    for a, b in ((apex, ends[0]), (apex, ends[1]), (apex, mid)):
        cv2.line(strokes, (round(a[0] - x0), round(a[1] - y0)), (round(b[0] - x0), round(b[1] - y0)), 1, thickness=t)
    interior = inside.astype(bool) & ~strokes.astype(bool)
    if interior.sum() < 4:
        return False
    return float(residual[y0:y1, x0:x1][interior].mean()) >= 0.5


def _ink_along(arms: list[list[Pt]], residual: np.ndarray, coverage: np.ndarray,
               lw: float) -> tuple[np.ndarray, np.ndarray, tuple[int, int, int, int]] | None:
    """The ink within a line width of the polylines ``arms``: pixel centres, coverages, box."""
    H, W = residual.shape
    r = int(math.ceil(lw + 1))
    xs = [p[0] for a in arms for p in a]
    ys = [p[1] for a in arms for p in a]
    x0, y0 = max(0, int(min(xs)) - r), max(0, int(min(ys)) - r)
    x1, y1 = min(W, int(max(xs)) + r + 1), min(H, int(max(ys)) + r + 1)
    near = np.zeros((y1 - y0, x1 - x0), np.uint8)
    for a in arms:
        poly = np.array([[p[0] - x0, p[1] - y0] for p in a], np.int32)
        cv2.polylines(near, [poly], False, 1, thickness=2 * r + 1)
    yy, xx = np.nonzero(near.astype(bool) & residual[y0:y1, x0:x1])
    if yy.size < 4:
        return None
    pts = np.stack([xx + x0 + 0.5, yy + y0 + 0.5], axis=1).astype(np.float64)
    return pts, coverage[yy + y0, xx + x0].astype(np.float64), (x0, y0, x1, y1)


def _crossing(p: list[Pt], q: list[Pt]) -> Pt | None:
    """Where the chords of two pieces cross (None when they are nearly parallel)."""
    (x1, y1), (x2, y2) = p[0], p[-1]
    (x3, y3), (x4, y4) = q[0], q[-1]
    den = (x1 - x2) * (y3 - y4) - (y1 - y2) * (x3 - x4)
    if den == 0 or abs(den) < 0.05 * math.dist(p[0], p[-1]) * math.dist(q[0], q[-1]):  # (a piece with no chord: 0)
        return None
    t = ((x1 - x3) * (y3 - y4) - (y1 - y3) * (x3 - x4)) / den
    return (x1 + t * (x2 - x1), y1 + t * (y2 - y1))


def _absorb(h: Arrowhead, other: Arrowhead) -> None:
    """Merge ``other``'s pixels into ``h`` (the box grows to hold both)."""
    h.pixels = np.concatenate([h.pixels, other.pixels])
    h.weights = np.concatenate([h.weights, other.weights])
    a, b = h.mask_box, other.mask_box
    h.mask_box = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def _straight(p: list[Pt]) -> bool:
    """No point strays more than 1.5 px (or 20% of the length) from the chord: pixel stairs and
    the bend where an arm's skeleton runs into its apex are allowed, and the skeleton's wobble
    in the last two pixels at each end is not looked at."""
    if len(p) >= 8:
        p = p[2:-2]
    off = _chord_offsets(p)
    return off is not None and float(off.max()) <= max(1.5, 0.2 * math.dist(p[0], p[-1]))


def pixels_mask(h: Arrowhead, shape: tuple[int, int]) -> np.ndarray:
    x0, y0 = h.mask_box[0], h.mask_box[1]
    m = np.zeros(shape, bool)
    m[(h.pixels[:, 1] - 0.5 - y0).astype(int), (h.pixels[:, 0] - 0.5 - x0).astype(int)] = True
    return m
