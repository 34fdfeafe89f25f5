"""Traced lines and their arrowheads, in image pixels: :class:`LinePath`, :class:`Arrowhead`, and
the geometry of a path's ends (its length, the direction out of an end, which ends lie near a point).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

Pt = tuple[float, float]


def snapped_to_axis(d: np.ndarray) -> np.ndarray:
    """A head's unit axis within ~12° of horizontal or vertical, made exactly that; else as it is."""
    if abs(d[1]) < 0.2:
        return np.array([1.0 if d[0] > 0 else -1.0, 0.0])
    if abs(d[0]) < 0.2:
        return np.array([0.0, 1.0 if d[1] > 0 else -1.0])
    return d


@dataclass
class Arrowhead:
    tip: Pt
    base: Pt  # centre of the head's back, where the line enters
    length: float
    width: float
    mask_box: tuple[int, int, int, int]  # x0, y0, x1, y1 of the head pixels
    pixels: np.ndarray = field(repr=False, default_factory=lambda: np.zeros((0, 2)))  # N×2 pixel centres (x, y)
    weights: np.ndarray = field(repr=False, default_factory=lambda: np.zeros(0))  # ink coverage of each
    kind: str = "arrow"  # the IR's head names: arrow (filled triangle), open (a 'V'), diamond, triangle_open
    pointing: tuple[float, float] | None = None  # axis known from the head's own shape (a 'V': its bisector)
    axis_from_shape: bool = False  # set by axis(): the head's pixels (not the line) gave its axis

    def principal(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The pixels' coverage-weighted centre, and the eigenvalues and eigenvectors of their spread."""
        w = np.clip(self.weights, 0.05, 1.0)
        c = (self.pixels * w[:, None]).sum(axis=0) / w.sum()
        rel = self.pixels - c
        evals, evecs = np.linalg.eigh((rel * w[:, None]).T @ rel / w.sum())
        return c, evals, evecs

    def axis(self, entry: Pt, fallback: tuple[float, float]) -> tuple[tuple[float, float], Pt]:
        """(direction from the line into the head, a point on the head's axis).

        An arrowhead is longer than wide, so its pixels' principal direction is its axis
        (snapped to horizontal/vertical within ~12°); the line's own direction is only the
        fallback, because a route often turns a rounded corner just before its head.
        """
        c, evals, evecs = self.principal()
        self.axis_from_shape = True
        if self.pointing is not None:  # a 'V' is about as wide as long: its pixels give no axis
            d = np.asarray(self.pointing, dtype=np.float64)
        elif evals[0] <= 1e-9 or evals[1] / evals[0] < 1.4:
            d = np.asarray(fallback, dtype=np.float64)
            self.axis_from_shape = False
        else:
            d = evecs[:, int(np.argmax(evals))]
            if float(d @ (c - np.asarray(entry))) < 0:
                d = -d
            # the line enters a head on its axis: where the line's direction points at the head's
            # centre and the pixels' axis does not, the pixels mislead (a small 'V' swallowed by
            # its blob is wider than long); a route turning a corner just before its head
            # enters beside the line's direction, and keeps the pixels' axis
            v = c - np.asarray(entry)
            nv = float(np.hypot(*v))
            f = np.asarray(fallback, dtype=np.float64)
            if nv > 1e-6 and abs(float(d @ v)) / nv < 0.5:
                if abs(float(f @ v)) / nv > 0.95:
                    d = f
                    self.axis_from_shape = False
                elif float(f @ v) / nv > 0.85:
                    # a curve bending into its head (a Mermaid transition's, wider than long
                    # across): its last stretch points near the head, the chord from the entry
                    # to the head's centre points into it (daedalus' executing -> changelog
                    # head had been turned across, its tip beside the state)
                    d = v / nv
                    self.axis_from_shape = False
        d = snapped_to_axis(d)
        return (float(d[0]), float(d[1])), (float(c[0]), float(c[1]))

    def orient(self, origin: Pt, direction: tuple[float, float]) -> None:
        """Put tip and base on the axis through ``origin`` along ``direction`` (pointing to the tip)."""
        if len(self.pixels) == 0:
            return
        d = np.asarray(direction, dtype=np.float64)
        e = np.asarray(origin, dtype=np.float64)
        rel = self.pixels - e
        proj = rel @ d
        solid = self.weights >= 0.35
        far = float(proj[solid].max() if solid.any() else proj.max()) + 0.5
        near = float(proj.min())
        across = np.array([-d[1], d[0]])
        perp = rel @ across
        self.tip = tuple(e + d * far)  # type: ignore[assignment]
        self.base = tuple(e + d * max(near, far - self.length))  # type: ignore[assignment]
        self.width = float(perp.max() - perp.min()) + 1


@dataclass
class LinePath:
    """A traced line: points from one end to the other, in image pixels."""

    points: list[Pt]
    width: float  # stroke width, px
    color: tuple[int, int, int]
    style: str = "solid"  # solid, dashed, dotted
    head_start: Arrowhead | None = None
    head_end: Arrowhead | None = None
    pieces: int = 1  # dash pieces chained into this path
    ink: int = 0  # pixels of ink the path explains
    open_ends: list[bool] = field(default_factory=lambda: [True, True])  # False where it ends in a junction

    @property
    def length(self) -> float:
        return sum(math.dist(a, b) for a, b in zip(self.points, self.points[1:]))

    def reversed(self) -> LinePath:
        """The same line run the other way: points, heads and which ends are open swapped."""
        return replace(self, points=self.points[::-1], head_start=self.head_end, head_end=self.head_start,
                       open_ends=self.open_ends[::-1])

    @property
    def start(self) -> Pt:
        return self.points[0]

    @property
    def end(self) -> Pt:
        return self.points[-1]


def path_length(pts: list[Pt]) -> float:
    # summed in the same order as a generator of the steps would, at half its cost (called ~10^5 times a figure)
    return sum(map(math.dist, pts, pts[1:])) + 1.0


def direction_out(pts: list[Pt], at_start: bool, span: float = 8.0) -> tuple[float, float] | None:
    """Unit vector pointing out of the path at one end (None for a dot)."""
    seq = pts if at_start else pts[::-1]
    a = seq[0]
    for b in seq[1:]:
        if math.dist(a, b) >= span:
            break
    else:
        b = seq[-1]
    d = math.dist(a, b)
    if d < 1.5:
        return None
    return ((a[0] - b[0]) / d, (a[1] - b[1]) / d)


class Ends:
    """The two ends of every polyline in one k-d tree: which ends lie near a point.

    Every search for "line ends around here" in :mod:`crafteditor.lines` goes through it (a hand-drawn
    sketch has thousands of short strokes; all-pairs tests took minutes).
    """

    def __init__(self, lines: list[list[Pt]], keep=lambda line: bool(line)) -> None:
        from scipy.spatial import cKDTree  # heavy: 1 s to import; loaded with the first traced lines

        self.owner: list[int] = []  # line index of each end
        self.at: list[int] = []  # 0: the line's first point, 1: its last
        self.pts: list[Pt] = []
        for i, line in enumerate(lines):
            if keep(line):
                for e, pt in ((0, line[0]), (1, line[-1])):
                    self.owner.append(i)
                    self.at.append(e)
                    self.pts.append(pt)
        self._tree = cKDTree(np.asarray(self.pts, dtype=float)) if self.pts else None

    def near(self, pt: Pt, radius: float) -> list[int]:
        """Indices of the ends within ``radius`` of ``pt``, in order."""
        return sorted(self._tree.query_ball_point(pt, radius)) if self._tree is not None else []

    def lines_near(self, pt: Pt, radius: float) -> list[int]:
        """Lines with an end within ``radius`` of ``pt``, in index order."""
        return sorted({self.owner[k] for k in self.near(pt, radius)})
