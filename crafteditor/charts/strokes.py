"""Long straight strokes: axis lines, gridlines (dashed ones too) and tick marks, found as runs of
ink along rows or columns; a series' mask mended across the gridlines drawn over it and rid of
the strokes that are no marks."""

from __future__ import annotations

import cv2
import numpy as np

from crafteditor.blobs import find_blobs
from crafteditor.paint import distances


def long_lines(ink: np.ndarray, horizontal: bool, min_len: int) -> list[tuple[int, int, int, int]]:
    """Thin straight strokes at least ``min_len`` long: (x0, y0, x1, y1), end exclusive.

    A bar standing on an axis survives the opening too; only the rows (columns) where the
    stroke runs its full length are kept, so the axis comes out thin.
    """
    runs = _long_runs(ink, horizontal, min_len)
    # components found in the box the runs lie in, from an even row and column (the scan's 2×2
    # blocks fall as on the page: the same labels, in the same order), not over the whole page
    rows, cols = np.flatnonzero(runs.any(axis=1)), np.flatnonzero(runs.any(axis=0))
    if rows.size == 0:
        return []
    oy, ox = int(rows[0]) & ~1, int(cols[0]) & ~1
    n, lab, stats, _ = find_blobs(runs[oy:rows[-1] + 1, ox:cols[-1] + 1])
    out = []
    for i in range(1, n):
        bx, by, w, h, _ = stats[i]
        comp = lab[by:by + h, bx:bx + w] == i
        x, y = bx + ox, by + oy
        widths = comp.sum(axis=1) if horizontal else comp.sum(axis=0)
        full = np.nonzero(widths >= 0.9 * widths.max())[0]
        if full.size == 0:
            continue
        # every thin band of consecutive full rows is a line: gridlines drawn over the bars
        # join the axis the bars stand on into one component (a grouped bar chart's x axis had
        # been lost to its longest band, a gridline)
        bands = []
        for band in np.split(full, np.nonzero(np.diff(full) > 1)[0] + 1):
            if len(band) <= 6:
                bands.append(band)
                continue
            # a bar nearly as long as its axis, standing on it (classic style's outlined bars):
            # the axis is the rows that run the whole length
            whole = band[widths[band] >= 0.985 * widths.max()]
            parts = [b for b in np.split(whole, np.nonzero(np.diff(whole) > 1)[0] + 1) if 0 < len(b) <= 6]
            if not parts and 6 < len(whole) <= 12 and whole[-1] - whole[0] == len(whole) - 1:
                # one run of 7 to 12 rows each the whole length: one soft stroke (an upscaled
                # figure's 2 px axis fades over 9 rows), its middle rows the line
                mid = len(whole) // 2
                parts = [whole[mid - 1:mid + 2]]
            bands += parts
        for band in bands:
            if horizontal:
                cols = np.nonzero(comp[band].any(axis=0))[0]
                out.append((int(x + cols[0]), int(y + band[0]), int(x + cols[-1] + 1), int(y + band[-1] + 1)))
            else:
                rows = np.nonzero(comp[:, band].any(axis=1))[0]
                out.append((int(x + band[0]), int(y + rows[0]), int(x + band[-1] + 1), int(y + rows[-1] + 1)))
    return out


def _long_runs(ink: np.ndarray, horizontal: bool, min_len: int) -> np.ndarray:
    """The opening of ``ink`` by a ``min_len`` line (1×min_len, or min_len×1): its runs of at
    least ``min_len`` pixels along each row (column). Each row is opened on its own, so only the
    rows with that much ink are: the same mask, in a seventh of the time on a gridded chart
    (784 openings of the six-sheet gallery: 2.5 s)."""
    a = ink.astype(np.uint8) if horizontal else ink.astype(np.uint8).T
    out = np.zeros(a.shape, np.uint8)
    # (OpenCV's erosion counts the outside of the image as ink: a shorter run at the edge stays)
    rows = np.flatnonzero((np.count_nonzero(a, axis=1) >= min_len) | (a[:, 0] > 0) | (a[:, -1] > 0))
    if rows.size:
        out[rows] = cv2.morphologyEx(np.ascontiguousarray(a[rows]), cv2.MORPH_OPEN, np.ones((1, min_len), np.uint8))
    return out if horizontal else np.ascontiguousarray(out.T)


def find_rules(ink: np.ndarray, inner) -> list[tuple[bool, int, int, int, int]]:
    """Gridlines across the plot, in any colour: (horizontal, x0, y0, x1, y1), end exclusive.
    Dashed ones too (bmh's): gaps up to 8 px along the line are closed first."""
    x0, y0, x1, y1 = inner
    sub = np.zeros(ink.shape, np.uint8)
    sub[y0:y1, x0:x1] = ink[y0:y1, x0:x1]
    out = []
    for horizontal, length in ((True, int(0.8 * (x1 - x0))), (False, int(0.8 * (y1 - y0)))):
        if length >= 10:
            k = np.ones((1, 9) if horizontal else (9, 1), np.uint8)
            dashes = cv2.morphologyEx(sub, cv2.MORPH_CLOSE, k).astype(bool)
            out += [(horizontal, *ln) for ln in long_lines(dashes, horizontal, length)]
    return out


def bridge_rules(m: np.ndarray, rules) -> np.ndarray:
    """A series' mask mended where a gridline is drawn over its marks (matplotlib draws the grid
    above bars): rule pixels with the series on both sides of the rule are the series. A grouped
    bar chart's bars had been cut at every gridline into stacked pieces, each read as a bar."""
    out = m
    for horizontal, x0, y0, x1, y1 in rules:
        if horizontal:
            if y0 < 1 or y1 >= m.shape[0]:
                continue
            both = m[y0 - 1, x0:x1] & m[y1, x0:x1]
            if both.any():
                out = out.copy() if out is m else out
                out[y0:y1, x0:x1] |= both[None, :]
        else:
            if x0 < 1 or x1 >= m.shape[1]:
                continue
            both = m[y0:y1, x0 - 1] & m[y0:y1, x1]
            if both.any():
                out = out.copy() if out is m else out
                out[y0:y1, x0:x1] |= both[:, None]
    return out


SEEN_THROUGH = 40.0  # how far (RGB distance) a gridline seen through a translucent mark moves its colour
THROUGH_OFF = 10.0  # how far (RGB distance) such a pixel may lie off the blend of the mark's and the line's
GRID_THICK = 2  # the thickest gridline seen through a mark (px across): a thicker band is a mark of its own


def bridge_seen_through(m: np.ndarray, rgb: np.ndarray, color, inner, page=(255, 255, 255), others=(),
                        reach: int = 3) -> np.ndarray:
    """A series' mask mended where a gridline shows through its translucent marks (seaborn's histograms at
    alpha 0.75 over the grid): thin lines across a mark, at most ``reach`` px above and below (or either
    side of) a pixel of the series, ``GRID_THICK`` px across at most, of a colour near the series' own and a
    blend of it with a gridline's (the ``page`` colour's or white) or another paint's (``others``: a line of
    another series crossing it). Such a line is no rule to find: once a
    tinted panel is made page its white gridlines are page, and only their blend with the mark remains,
    another paint that had cut each bin at every gridline into pieces read as points. A band of another
    colour near the series' (a 3 px segment of the next shade of a sequential palette) stays out."""
    x0, y0, x1, y1 = inner
    sub = m[y0:y1, x0:x1]
    if sub.size == 0 or not sub.any():
        return m
    px = rgb[y0:y1, x0:x1]
    near = (distances(px, color) <= SEEN_THROUGH) & ~sub
    if not near.any():
        return m
    at = np.nonzero(near)
    blend = np.zeros(at[0].size, bool)
    for end in (page, (255, 255, 255), *others):
        blend |= _blend_of(px[at], color, end)
    near[at] = blend
    if not near.any():
        return m
    # only between solid parts of marks, five pixels thick across the line at least (a bar's): a thin line's
    # own anti-aliased edge is near its colour too, and filled in it had moved a jagged line's vertices
    u8 = sub.astype(np.uint8)
    tall = cv2.erode(u8, np.ones((5, 1), np.uint8), borderValue=0).astype(bool)
    wide = cv2.erode(u8, np.ones((1, 5), np.uint8), borderValue=0).astype(bool)
    far = reach + 2  # a solid pixel lies two inside its run's edge
    h, w = sub.shape
    pad_t, pad_w = np.pad(tall, far), np.pad(wide, far)
    above = np.zeros_like(sub)
    below, left, right = above.copy(), above.copy(), above.copy()
    for k in range(1, far + 1):
        above |= pad_t[far - k:far - k + h, far:far + w]
        below |= pad_t[far + k:far + k + h, far:far + w]
        left |= pad_w[far:far + h, far - k:far - k + w]
        right |= pad_w[far:far + h, far + k:far + k + w]
    fill = (_thin(near, 0) & above & below) | (_thin(near, 1) & left & right)
    if not fill.any():
        return m
    out = m.copy()
    out[y0:y1, x0:x1] |= fill
    return out


def _blend_of(px: np.ndarray, color, end) -> np.ndarray:
    """Whether each pixel's colour (``px``: …×3) is a blend of ``color`` with ``end``: on the segment from one to the
    other, within ``THROUGH_OFF`` of it, its projection a part of the way (not ``end`` itself)."""
    c, d = np.asarray(color, np.float32), np.asarray(end, np.float32) - np.asarray(color, np.float32)
    off = px.astype(np.float32) - c
    t = (off @ d) / max(float(d @ d), 1.0)
    return (t > 0) & (t < 0.9) & (np.linalg.norm(off - t[..., None] * d, axis=-1) <= THROUGH_OFF)


def _thin(near: np.ndarray, axis: int) -> np.ndarray:
    """The pixels of ``near`` in runs of at most ``GRID_THICK`` along ``axis`` (0: down a column)."""
    k = GRID_THICK + 1
    n = near.shape[axis]
    if n < k:
        return near
    run = np.ones(near.shape[:axis] + (n - k + 1,) + near.shape[axis + 1:], bool)
    for j in range(k):
        run &= np.take(near, range(j, j + n - k + 1), axis=axis)
    thick = np.zeros_like(near)
    for j in range(k):
        idx = [slice(None)] * near.ndim
        idx[axis] = slice(j, j + n - k + 1)
        thick[tuple(idx)] |= run
    return near & ~thick


def drop_rules(m: np.ndarray, inner) -> np.ndarray:
    """Remove long straight strokes spanning most of the plot (gridlines, reference lines)."""
    x0, y0, x1, y1 = inner
    out = m.copy()
    for horizontal, length in ((True, int(0.8 * (x1 - x0))), (False, int(0.8 * (y1 - y0)))):
        if length < 10:
            continue
        for lx0, ly0, lx1, ly1 in long_lines(m, horizontal, length):
            if not in_block(m, (horizontal, lx0, ly0, lx1, ly1)):
                out[ly0:ly1, lx0:lx1] = False
    return out


BLOCK_FLANK = 2  # px of the same paint either side of a 'line' that make it the middle of a bar


def in_block(same: np.ndarray, line: tuple[bool, int, int, int, int]) -> bool:
    """Whether a line found by :func:`long_lines` (horizontal, x0, y0, x1, y1) is the middle of a
    solid block of ``same`` (one paint's pixels): a bar as long as the plot, its uniform rows
    taken for one soft stroke (horizontal bars 1-2 px apart at 1x, the longest reaching nearly
    across). The block runs on past the line on both sides; a gridline's edges fade into the
    page or cross other marks."""
    horizontal, x0, y0, x1, y1 = line
    if not horizontal:
        same, (x0, y0, x1, y1) = same.T, (y0, x0, y1, x1)
    if y0 < BLOCK_FLANK or y1 + BLOCK_FLANK > same.shape[0] or x1 <= x0:
        return False
    return all(float(same[a:b, x0:x1].mean()) >= 0.9 for a, b in ((y0 - BLOCK_FLANK, y0), (y1, y1 + BLOCK_FLANK)))


RULE_UNDER_SHARE = 0.2  # of the plot's width a gridline under the marks shows between them, at least


def drop_rules_under_marks(m: np.ndarray, ink: np.ndarray, inner) -> np.ndarray:
    """Remove gridlines drawn under the marks: rows (columns) where ``m``'s thin strokes, with the
    other ink between them (the bars over the line), run 0.8 of the plot across and ``m`` shows a
    fifth of it, in two pieces or more, seen in the gaps between the marks: no other ink right above
    or below most of them. Vega's themes draw the grid under the bars; excel's in mid grey had been a
    line series of its pieces between the bars (the gridlines' colour, its 'values' at every gap). A
    line's own flat runs edging an area's fill (one piece, or pieces with the fill right under them)
    stay: a filled line chart's low stretches had been cut from its series."""
    x0, y0, x1, y1 = inner
    out = m
    for horizontal in (True, False):
        sub = m[y0:y1, x0:x1] if horizontal else m[y0:y1, x0:x1].T
        full = ink[y0:y1, x0:x1] if horizontal else ink[y0:y1, x0:x1].T
        h, w = sub.shape
        if h < 8 or w < 10:
            continue
        # thin: no ink of m three rows above or below
        near = np.zeros_like(sub)
        near[3:] |= sub[:-3]
        near[:-3] |= sub[3:]
        thin = sub & ~near
        # other ink within three rows above or below: a fill the stroke edges, not a gap it is seen in
        other = full & ~sub
        edged = np.zeros_like(sub)
        for k in (1, 2, 3):
            edged[k:] |= other[:-k]
            edged[:-k] |= other[k:]
        for row in np.flatnonzero(thin.sum(axis=1) >= RULE_UNDER_SHARE * w):
            pieces = np.diff(np.concatenate(([0], thin[row].astype(np.int8), [0])))
            if (pieces == 1).sum() < 2 or (thin[row] & edged[row]).sum() > 0.5 * thin[row].sum():
                continue
            covered = np.concatenate(([0], (full[row] | sub[row]).astype(np.int8), [0]))
            edges = np.flatnonzero(np.diff(covered))
            if (edges[1::2] - edges[::2]).max() < 0.8 * w:
                continue
            out = out.copy() if out is m else out
            cols = np.flatnonzero(thin[row])
            if horizontal:
                out[y0 + row, x0 + cols] = False
            else:
                out[y0 + cols, x0 + row] = False
    return out


def drop_inner_ticks(m: np.ndarray, inner) -> np.ndarray:
    """Tick marks drawn inward from the frame (matplotlib's classic style: on all four sides) are
    no marks: short thin strokes of ``m`` that run into the plot's inner edge are removed."""
    x0, y0, x1, y1 = inner
    sub = m[y0:y1, x0:x1]
    if not sub.any():
        return m
    n, lab, stats, _ = find_blobs(sub)
    h, w = sub.shape
    longest = max(12, int(0.05 * min(h, w)))
    drop = np.zeros(n, bool)
    for i in range(1, n):
        x, y, cw, ch, _ = stats[i]
        at_side = x == 0 or y == 0 or x + cw >= w or y + ch >= h
        drop[i] = at_side and max(cw, ch) <= longest and min(cw, ch) <= 3
    if not drop.any():
        return m
    out = m.copy()
    out[y0:y1, x0:x1] &= ~drop[lab]
    return out
