"""Sequence diagrams laid out by hand in a slide editor: messages drawn as straight strokes that
drop on their way from one lifeline to another (:func:`slanted_strokes`), which the row reader of
:mod:`crafteditor.assemble.sequences` cannot see as rows."""

from __future__ import annotations

import math

import cv2
import numpy as np

from crafteditor.assemble.geometry import run_across

# (sender, receiver: lifeline indices; the ends on their lifelines; a head at the sender too; colour;
# the stroke's width, px; solid, dashed or dotted)
Stroke = tuple[int, int, tuple[float, float], tuple[float, float], bool, tuple[int, ...], float, str]
Piece = tuple[tuple[float, float], tuple[float, float]]  # a straight stretch of a stroke: its two ends

# a slide-drawn sequence diagram's slanted messages come in a few dozen pieces (gRPC's retry figure: 19); chaining
# is quadratic in them, and a paper figure dense with slanted ink had 2,868 (17 CPU-s)
MAX_PIECES = 400
# a slide-drawn diagram's strokes are hairlines: gRPC's figure has 6,300 px of them, docs sequence diagrams 30-60k;
# a scale-4 Mermaid export's ink (6.5 M px) cost the Hough pass 18 CPU-s
MAX_INK = 200_000


def slanted_strokes(ink: np.ndarray, rgb: np.ndarray, drawn: np.ndarray,
                    lines: list[tuple[float, float, float]]) -> list[Stroke]:
    """Messages drawn as straight slanted strokes from one lifeline to another, as a sequence
    diagram laid out by hand in a slide editor draws them (gRPC's retry proposal, Google Slides:
    every message dropped 12-55 px along its way, and the row reader took the stretches between
    neighbouring lifelines for hand-drawn waves, joining the wrong participants). The strokes are
    found on ``drawn`` (the ink less the glyphs) with the lifelines erased, in pieces where a
    label or a lifeline cut them: pieces on one course are chained. The head, at either end,
    gives the direction; a stroke with none is no message. ``lines``: the lifelines' (x, top,
    bottom), left to right. Not yet robust (review): with other drops (12-40 px over the same widths) part of
    the messages still come back as hops, their level pixel steps taken by the row reader first; a test marks it."""
    mask = drawn.copy()
    for lf in lines:
        mask[:, max(0, int(lf[0]) - 2):int(lf[0]) + 3] = False
    if int(np.count_nonzero(mask)) > MAX_INK:
        return []  # fills and thick strokes, no hairline messages; the Hough pass alone would cost seconds
    found = cv2.HoughLinesP(mask.astype(np.uint8) * 255, 1, np.pi / 720, 30, minLineLength=25, maxLineGap=6)
    pieces: list[Piece] = []
    for x0, y0, x1, y1 in (found.reshape(-1, 4).tolist() if found is not None else []):
        dx, dy = abs(x1 - x0), abs(y1 - y0)
        if 0.005 * dx <= dy <= 0.35 * dx:
            pieces.append(((float(x0), float(y0)), (float(x1), float(y1))))
    if len(pieces) > MAX_PIECES:
        return []  # a drawing dense with slanted ink (hatching, a paper figure's fine lines), not messages
    out: list[Stroke] = []
    used: set[int] = set()
    for k, ln in enumerate(pieces):
        if k in used:
            continue
        ahead, last = _chain(ln, {k}, pieces, used)
        behind, first = _chain((ln[1], ln[0]), ahead, pieces, used)
        used |= ahead | behind
        p, q = first[1], last[1]
        a, b = _lifeline_at(p, lines), _lifeline_at(q, lines)
        if a is None or b is None or a == b or abs(q[1] - p[1]) < 4:  # level rows are the row reader's
            continue
        # the ends carried along the stroke onto the lifelines, over the ink the pieces left out
        # (a head, a stretch a label's erased glyphs cut)
        dx, dy = q[0] - p[0], q[1] - p[1]
        pa = (lines[a][0], p[1] + dy * (lines[a][0] - p[0]) / dx)
        pb = (lines[b][0], p[1] + dy * (lines[b][0] - p[0]) / dx)
        style = _dash_style(ink, p, q)
        # a dashed stroke's stretch to its lifeline is inked as far as its dashes are (8 on, 4 off: 2/3)
        need = 0.7 if style == "solid" else 0.4
        # (and inked along the way: pieces chained over 160 px gaps had joined a self-message's return
        # to a stretch of a box's border, a 'stroke' 29 % ink, where every message read is 60 % or more)
        if not (_reaches(ink, p, pa, need) and _reaches(ink, q, pb, need)) or _inked(ink, pa, pb) < need or any(
                _off(p, m[2], m[3]) <= 4 and _off(q, m[2], m[3]) <= 4 for m in out):
            continue  # short of a lifeline, or a stretch of a stroke read already (its pieces overlap)
        head_a, head_b = _slant_head(ink, pa, pb), _slant_head(ink, pb, pa)
        if head_a and not head_b:
            a, b, pa, pb, head_a, head_b = b, a, pb, pa, head_b, head_a
        if head_b:
            pix = _stroke_colours(ink, rgb, pa, pb)
            colour = tuple(int(v) for v in np.median(pix, axis=0)) if len(pix) else (0, 0, 0)
            out.append((a, b, pa, pb, head_a, colour, _stroke_width(ink, rgb, pa, pb, colour), style))
    return out


def _along(p: tuple[float, float], q: tuple[float, float], lo: float, hi: float) -> tuple[np.ndarray, np.ndarray]:
    """Points every pixel along the stretch lo..hi (shares of the way) of the segment p-q: (xs, ys), float."""
    t = np.linspace(lo, hi, max(2, int((hi - lo) * math.dist(p, q))))
    return p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t


def _stroke_width(ink: np.ndarray, rgb: np.ndarray, p: tuple[float, float], q: tuple[float, float],
                  colour: tuple[int, ...]) -> float:
    """The stroke's width, px: across it, each pixel's share of the stroke's colour over the page's
    (an antialiased 1 px stroke covers two pixels by halves), summed; the median over its middle stretch."""
    H, W = ink.shape
    L = math.dist(p, q)
    nx, ny = -(q[1] - p[1]) / L, (q[0] - p[0]) / L
    xs, ys = _along(p, q, 0.2, 0.8)
    offs = np.arange(-6, 7)
    cx = np.clip(np.round(xs[:, None] + nx * offs[None, :]).astype(int), 0, W - 1)
    cy = np.clip(np.round(ys[:, None] + ny * offs[None, :]).astype(int), 0, H - 1)
    pix = rgb[cy, cx].astype(np.float64)  # samples × offsets × 3
    page = np.median(np.concatenate([pix[:, :2], pix[:, -2:]], axis=1).reshape(-1, 3), axis=0)
    full = np.linalg.norm(np.asarray(colour, np.float64) - page)
    if full < 30:
        return 1.0
    share = np.clip(np.linalg.norm(pix - page, axis=2) / full, 0.0, 1.0)
    widths = share[:, 2:-2].sum(axis=1)
    on = ink[cy[:, 6], cx[:, 6]]
    return float(max(1.0, round(np.median(widths[on]), 1))) if on.any() else 1.0


def _dash_style(ink: np.ndarray, p: tuple[float, float], q: tuple[float, float]) -> str:
    """Solid, dashed or dotted: the ink along the stroke's middle stretch broken by gaps again and again
    (three or more, a fifth of the way or more), dotted where the pieces are as short as the gaps."""
    xs, ys = _along(p, q, 0.1, 0.9)
    H, W = ink.shape
    xi, yi = np.clip(np.round(xs).astype(int), 0, W - 1), np.round(ys).astype(int)
    on = np.zeros(len(xi), bool)
    for d in (-1, 0, 1):
        on |= ink[np.clip(yi + d, 0, H - 1), xi]
    edges = np.flatnonzero(np.diff(on.astype(np.int8)))  # where ink starts or stops
    runs = np.diff(np.concatenate([[0], edges + 1, [len(on)]]))
    values = [bool(on[0]) ^ bool(k % 2) for k in range(len(runs))]
    gaps = [n for n, v in zip(runs[1:-1], values[1:-1]) if not v and n >= 2]
    pieces = [n for n, v in zip(runs[1:-1], values[1:-1]) if v]
    if len(gaps) < 3 or sum(gaps) < 0.2 * len(on):
        return "solid"
    return "dotted" if pieces and float(np.median(pieces)) <= 3 else "dashed"


def _stroke_colours(ink: np.ndarray, rgb: np.ndarray, p: tuple[float, float], q: tuple[float, float]) -> np.ndarray:
    """The colours of the ink along the middle stretch of the segment p-q (N×3)."""
    t = np.linspace(0.2, 0.8, max(2, int(math.dist(p, q))))
    xs = np.clip(np.round(p[0] + (q[0] - p[0]) * t).astype(int), 0, ink.shape[1] - 1)
    ys = np.clip(np.round(p[1] + (q[1] - p[1]) * t).astype(int), 0, ink.shape[0] - 1)
    on = ink[ys, xs]
    return rgb[ys[on], xs[on]]


def _chain(first: Piece, taken: set[int], pieces: list[Piece], used: set[int]) -> tuple[set[int], Piece]:
    """The pieces on the course of the stroke ``first`` begins, each starting up to 160 px past
    the last (or overlapping it), with ``taken`` (the pieces already on the stroke), and the last
    of them, run the stroke's way. (Pieces as their two ends: as LinePaths, each turned round by a
    dataclass copy, the search was half of a sequence diagram's reading.)"""
    chain, end = set(taken), first
    p0 = first[0]
    while True:
        q = end[1]
        L = math.dist(p0, q)
        ux, uy = (q[0] - p0[0]) / L, (q[1] - p0[1]) / L
        nxt = None
        for j, other in enumerate(pieces):
            if j in chain or j in used:
                continue
            for cand in (other, (other[1], other[0])):
                s, e = cand
                ahead = (s[0] - q[0]) * ux + (s[1] - q[1]) * uy
                beyond = (e[0] - q[0]) * ux + (e[1] - q[1]) * uy
                off = abs((s[0] - p0[0]) * uy - (s[1] - p0[1]) * ux)
                off_e = abs((e[0] - p0[0]) * uy - (e[1] - p0[1]) * ux)
                if -60 <= ahead <= 160 and beyond > 3 and off <= 3.5 and off_e <= 3.5 + 0.02 * math.dist(s, e) and (
                        nxt is None or ahead < nxt[0]):
                    nxt = (ahead, j, cand)
        if nxt is None:
            return chain, end
        chain.add(nxt[1])
        end = nxt[2]


def _off(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    """How far ``p`` lies from the segment a-b."""
    L2 = (b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2
    t = 0.0 if L2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * (b[0] - a[0]) + (p[1] - a[1]) * (b[1] - a[1])) / L2))
    return math.dist(p, (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])))


def _reaches(ink: np.ndarray, p: tuple[float, float], on: tuple[float, float], need: float = 0.7) -> bool:
    """Whether the stroke's end ``p`` reaches its lifeline at ``on``: within 12 px, or over ink (a
    head, a stretch under a label) to within 6 px of it (a slide's arrow tip stops short)."""
    L = math.dist(p, on)
    if L <= 12:
        return True
    stop = (on[0] + (p[0] - on[0]) * 6 / L, on[1] + (p[1] - on[1]) * 6 / L)
    return _inked(ink, p, stop) >= need


def _inked(ink: np.ndarray, p: tuple[float, float], q: tuple[float, float]) -> float:
    """The share of the segment p-q that is ink (by the pixel or the one above or below it)."""
    n = int(math.dist(p, q))
    if n < 2:
        return 1.0
    t = np.linspace(0.0, 1.0, n)
    xs = np.clip(np.round(p[0] + (q[0] - p[0]) * t).astype(int), 0, ink.shape[1] - 1)
    ys = np.round(p[1] + (q[1] - p[1]) * t).astype(int)
    near = [ink[np.clip(ys + d, 0, ink.shape[0] - 1), xs] for d in (-1, 0, 1)]
    return float((near[0] | near[1] | near[2]).mean())


def _lifeline_at(p: tuple[float, float], lines: list[tuple[float, float, float]], tol: float = 50.0) -> int | None:
    """The lifeline a stroke's end ``p`` stops near (the rest, a head or a stretch under a label,
    is checked for ink by the caller), if any."""
    best = min(range(len(lines)), key=lambda k: abs(lines[k][0] - p[0]))
    x, top, bottom = lines[best]
    return best if abs(x - p[0]) <= tol and top - 4 <= p[1] <= bottom + 4 else None


def _slant_head(ink: np.ndarray, tip: tuple[float, float], frm: tuple[float, float], width: float = 1.0) -> bool:
    """An arrowhead at ``tip`` of the stroke coming from ``frm``: across the stroke, ink wider
    than 2.5 line widths at two or more steps 3-12 px back from the tip (a head's flanks), and a
    line's width 16 px back (no box or bar the stroke runs along)."""
    L = math.dist(tip, frm)
    u = ((tip[0] - frm[0]) / L, (tip[1] - frm[1]) / L)

    def across(t: float) -> int:
        return run_across(lambda x, y: bool(ink[y, x]), ink.shape, tip, u, t, 9)

    def flanks(t: int) -> bool:
        """A barb on both sides t px back from the tip: a little ink 2-9 px off the shaft (a lifeline
        crossing there, a hand-drawn one wandering by the tip, inks the whole way across)."""
        bx, by = tip[0] - t * u[0], tip[1] - t * u[1]
        hits = [sum(0 <= (x := int(round(bx - side * o * u[1]))) < W and 0 <= (y := int(round(by + side * o * u[0]))) < H
                    and bool(ink[y, x]) for o in range(2, 10)) for side in (-1, 1)]
        return all(1 <= h <= 4 for h in hits)

    H, W = ink.shape
    wide = sum(2.5 * width + 1 <= across(t) <= 14 for t in range(3, 13))
    # an open head's two barbs part from the shaft a few px back: no run across is wide there
    # (a ladder diagram's and PlantUML's async messages: the slanted messages read as none)
    return (wide >= 2 or sum(flanks(t) for t in range(4, 13)) >= 3) and across(16.0) <= width + 2
