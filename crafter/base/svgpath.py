"""SVG geometry for importers and exporters: path data, transforms, bounding boxes.

Path data is parsed into absolute segments of three kinds only — move, line, cubic
Bézier, close — so every consumer (TikZ output, transforming an imported path into
figure coordinates, bounding boxes) handles one small vocabulary: ``H``/``V`` become
lines, quadratics and ``S``/``T`` become cubics, elliptical arcs become cubics (exact to
well under a pixel). Transforms are 2×3 affine matrices ``(a, b, c, d, e, f)`` as in SVG.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from crafter.errors import InputError

Pt = tuple[float, float]
Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
MAX_PATH_COMMANDS = 200_000  # a path with more segments than this is not something a figure holds


@dataclass(frozen=True)
class Segment:
    """One absolute path segment: 'M' (pts=[p]), 'L' ([p]), 'C' ([c1, c2, p]) or 'Z' ([])."""

    op: str
    pts: tuple[Pt, ...]


# ---------------------------------------------------------------------------------
# Transforms
# ---------------------------------------------------------------------------------


def multiply(m: Matrix, n: Matrix) -> Matrix:
    """m ∘ n: apply n first, then m."""
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + c * b2, b * a2 + d * b2, a * c2 + c * d2, b * c2 + d * d2,
            a * e2 + c * f2 + e, b * e2 + d * f2 + f)


def apply(m: Matrix, p: Pt) -> Pt:
    a, b, c, d, e, f = m
    return (a * p[0] + c * p[1] + e, b * p[0] + d * p[1] + f)


def scale_of(m: Matrix) -> float:
    """The mean length scale of a transform (for stroke widths and font sizes)."""
    return math.sqrt(abs(m[0] * m[3] - m[1] * m[2])) or 1.0


def rotation_of(m: Matrix) -> float:
    """The rotation angle of a transform, in degrees (SVG's clockwise-positive sense)."""
    return math.degrees(math.atan2(m[1], m[0]))


_TRANSFORM = re.compile(r"(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^)]*)\)")
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def parse_transform(text: str | None) -> Matrix:
    """An SVG ``transform`` attribute as one matrix (unknown parts are ignored)."""
    m = IDENTITY
    if not text:
        return m
    for name, args in _TRANSFORM.findall(text):
        v = [float(x) for x in _NUMBER.findall(args)]
        if name == "matrix" and len(v) == 6:
            t = tuple(v)
        elif name == "translate" and v:
            t = (1.0, 0.0, 0.0, 1.0, v[0], v[1] if len(v) > 1 else 0.0)
        elif name == "scale" and v:
            t = (v[0], 0.0, 0.0, v[1] if len(v) > 1 else v[0], 0.0, 0.0)
        elif name == "rotate" and v:
            r = math.radians(v[0])
            cos, sin = math.cos(r), math.sin(r)
            t = (cos, sin, -sin, cos, 0.0, 0.0)
            if len(v) >= 3:
                cx, cy = v[1], v[2]
                t = multiply((1, 0, 0, 1, cx, cy), multiply(t, (1, 0, 0, 1, -cx, -cy)))
        elif name == "skewX" and v:
            t = (1.0, 0.0, math.tan(math.radians(v[0])), 1.0, 0.0, 0.0)
        elif name == "skewY" and v:
            t = (1.0, math.tan(math.radians(v[0])), 0.0, 1.0, 0.0, 0.0)
        else:
            continue
        m = multiply(m, t)  # type: ignore[arg-type]
    if not all(math.isfinite(x) for x in m):
        return IDENTITY
    return m


# ---------------------------------------------------------------------------------
# Path data
# ---------------------------------------------------------------------------------

_PATH_TOKEN = re.compile(r"([MmLlHhVvCcSsQqTtAaZz])|([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)")
_ARGS = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}


def parse_path(d: str) -> list[Segment]:
    """SVG path data → absolute segments (M, L, C, Z). Malformed tails are dropped, as browsers do."""
    tokens: list[str | float] = []
    for cmd, num in _PATH_TOKEN.findall(d):
        tokens.append(cmd if cmd else float(num))
        if len(tokens) > MAX_PATH_COMMANDS * 7:
            raise InputError(f"path data has more than {MAX_PATH_COMMANDS} segments")
    out: list[Segment] = []
    cur: Pt = (0.0, 0.0)
    start: Pt = (0.0, 0.0)
    last_ctrl: Pt | None = None  # for S (cubic) reflection
    last_qctrl: Pt | None = None  # for T (quadratic) reflection
    i, cmd = 0, ""
    while i < len(tokens):
        tok = tokens[i]
        if isinstance(tok, str):
            cmd = tok
            i += 1
            if cmd in "Zz":
                out.append(Segment("Z", ()))
                cur = start
                last_ctrl = last_qctrl = None
                continue
        elif not cmd or cmd in "Zz":
            break  # numbers with no command: malformed
        n = _ARGS[cmd.upper()]
        args = tokens[i:i + n]
        if len(args) < n or any(isinstance(a, str) for a in args):
            break
        i += n
        a = [float(x) for x in args]  # type: ignore[arg-type]
        rel = cmd.islower()
        ox, oy = cur if rel else (0.0, 0.0)
        up = cmd.upper()
        if up == "M":
            cur = (ox + a[0], oy + a[1])
            start = cur
            out.append(Segment("M", (cur,)))
            cmd = "l" if rel else "L"  # implicit lineto after the first pair
            last_ctrl = last_qctrl = None
        elif up == "L":
            cur = (ox + a[0], oy + a[1])
            out.append(Segment("L", (cur,)))
            last_ctrl = last_qctrl = None
        elif up == "H":
            cur = ((cur[0] if rel else 0.0) + a[0], cur[1])
            out.append(Segment("L", (cur,)))
            last_ctrl = last_qctrl = None
        elif up == "V":
            cur = (cur[0], (cur[1] if rel else 0.0) + a[0])
            out.append(Segment("L", (cur,)))
            last_ctrl = last_qctrl = None
        elif up == "C":
            c1, c2, p = (ox + a[0], oy + a[1]), (ox + a[2], oy + a[3]), (ox + a[4], oy + a[5])
            out.append(Segment("C", (c1, c2, p)))
            cur, last_ctrl, last_qctrl = p, c2, None
        elif up == "S":
            c1 = (2 * cur[0] - last_ctrl[0], 2 * cur[1] - last_ctrl[1]) if last_ctrl else cur
            c2, p = (ox + a[0], oy + a[1]), (ox + a[2], oy + a[3])
            out.append(Segment("C", (c1, c2, p)))
            cur, last_ctrl, last_qctrl = p, c2, None
        elif up in ("Q", "T"):
            if up == "Q":
                q, p = (ox + a[0], oy + a[1]), (ox + a[2], oy + a[3])
            else:
                q = (2 * cur[0] - last_qctrl[0], 2 * cur[1] - last_qctrl[1]) if last_qctrl else cur
                p = (ox + a[0], oy + a[1])
            c1 = (cur[0] + 2 / 3 * (q[0] - cur[0]), cur[1] + 2 / 3 * (q[1] - cur[1]))
            c2 = (p[0] + 2 / 3 * (q[0] - p[0]), p[1] + 2 / 3 * (q[1] - p[1]))
            out.append(Segment("C", (c1, c2, p)))
            cur, last_ctrl, last_qctrl = p, None, q
        elif up == "A":
            p = (ox + a[5], oy + a[6])
            for c1, c2, e in arc_to_cubics(cur, a[0], a[1], a[2], bool(a[3]), bool(a[4]), p):
                out.append(Segment("C", (c1, c2, e)))
            cur, last_ctrl, last_qctrl = p, None, None
        if len(out) > MAX_PATH_COMMANDS:
            raise InputError(f"path data has more than {MAX_PATH_COMMANDS} segments")
    return out


def arc_to_cubics(p0: Pt, rx: float, ry: float, phi_deg: float, large: bool, sweep: bool,
                  p1: Pt) -> list[tuple[Pt, Pt, Pt]]:
    """An SVG elliptical arc as cubic Béziers (SVG 1.1 implementation notes, F.6)."""
    if p0 == p1:
        return []
    rx, ry = abs(rx), abs(ry)
    if rx == 0 or ry == 0:
        return [(p0, p1, p1)]
    phi = math.radians(phi_deg % 360)
    cos, sin = math.cos(phi), math.sin(phi)
    dx, dy = (p0[0] - p1[0]) / 2, (p0[1] - p1[1]) / 2
    x1, y1 = cos * dx + sin * dy, -sin * dx + cos * dy
    lam = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry)
    if lam > 1:
        s = math.sqrt(lam)
        rx, ry = rx * s, ry * s
    num = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
    den = rx * rx * y1 * y1 + ry * ry * x1 * x1
    coef = math.sqrt(max(num / den, 0.0)) if den else 0.0
    if large == sweep:
        coef = -coef
    cx1, cy1 = coef * rx * y1 / ry, -coef * ry * x1 / rx
    cx = cos * cx1 - sin * cy1 + (p0[0] + p1[0]) / 2
    cy = sin * cx1 + cos * cy1 + (p0[1] + p1[1]) / 2

    def angle(ux: float, uy: float, vx: float, vy: float) -> float:
        return math.atan2(ux * vy - uy * vx, ux * vx + uy * vy)

    t1 = angle(1, 0, (x1 - cx1) / rx, (y1 - cy1) / ry)
    dt = angle((x1 - cx1) / rx, (y1 - cy1) / ry, (-x1 - cx1) / rx, (-y1 - cy1) / ry)
    if not sweep and dt > 0:
        dt -= 2 * math.pi
    elif sweep and dt < 0:
        dt += 2 * math.pi
    n = max(1, math.ceil(abs(dt) / (math.pi / 2) - 1e-9))
    step = dt / n
    k = 4 / 3 * math.tan(step / 4)

    def point(t: float) -> Pt:
        x, y = rx * math.cos(t), ry * math.sin(t)
        return (cx + cos * x - sin * y, cy + sin * x + cos * y)

    def deriv(t: float) -> Pt:
        x, y = -rx * math.sin(t), ry * math.cos(t)
        return (cos * x - sin * y, sin * x + cos * y)

    out = []
    t = t1
    for _ in range(n):
        a, b = point(t), point(t + step)
        da, db = deriv(t), deriv(t + step)
        out.append(((a[0] + k * da[0], a[1] + k * da[1]), (b[0] - k * db[0], b[1] - k * db[1]), b))
        t += step
    out[-1] = (out[-1][0], out[-1][1], p1)  # land exactly on the given end point
    return out


def transform_path(segs: list[Segment], m: Matrix) -> list[Segment]:
    if m == IDENTITY:
        return segs
    return [Segment(s.op, tuple(apply(m, p) for p in s.pts)) for s in segs]


def path_to_d(segs: list[Segment], digits: int = 2) -> str:
    """Absolute segments → compact SVG path data (commands M, L, C, Z only)."""

    def f(v: float) -> str:
        s = f"{v:.{digits}f}".rstrip("0").rstrip(".")
        return "0" if s in ("-0", "") else s

    parts = []
    for s in segs:
        parts.append(s.op + " ".join(f"{f(x)},{f(y)}" for x, y in s.pts))
    return " ".join(parts)


def path_bbox(segs: list[Segment]) -> tuple[float, float, float, float] | None:
    """Exact bounding box (x0, y0, x1, y1) of the drawn path, curves included; None if empty."""
    xs: list[float] = []
    ys: list[float] = []
    cur: Pt | None = None
    for s in segs:
        if s.op in ("M", "L"):
            cur = s.pts[0]
            xs.append(cur[0])
            ys.append(cur[1])
        elif s.op == "C" and cur is not None:
            c1, c2, p = s.pts
            for axis, vals in ((0, xs), (1, ys)):
                vals.append(p[axis])
                for t in _cubic_extrema(cur[axis], c1[axis], c2[axis], p[axis]):
                    vals.append(_cubic_at(cur[axis], c1[axis], c2[axis], p[axis], t))
            cur = p
    if not xs:
        return None
    return min(xs), min(ys), max(xs), max(ys)


def _cubic_at(a: float, b: float, c: float, d: float, t: float) -> float:
    u = 1 - t
    return u * u * u * a + 3 * u * u * t * b + 3 * u * t * t * c + t * t * t * d


def _cubic_extrema(a: float, b: float, c: float, d: float) -> list[float]:
    """Parameters in (0, 1) where the cubic's derivative vanishes."""
    qa = -a + 3 * b - 3 * c + d
    qb = 2 * (a - 2 * b + c)
    qc = b - a
    if abs(qa) < 1e-12:
        return [-qc / qb] if abs(qb) > 1e-12 and 0 < -qc / qb < 1 else []
    disc = qb * qb - 4 * qa * qc
    if disc < 0:
        return []
    r = math.sqrt(disc)
    return [t for t in ((-qb + r) / (2 * qa), (-qb - r) / (2 * qa)) if 0 < t < 1]


# ---------------------------------------------------------------------------------
# Basic shapes as path segments (rect, circle, ellipse, line, polyline, polygon)
# ---------------------------------------------------------------------------------

_K = 0.5522847498307936  # cubic approximation of a quarter circle


def ellipse_path(cx: float, cy: float, rx: float, ry: float) -> list[Segment]:
    kx, ky = rx * _K, ry * _K
    return [
        Segment("M", ((cx + rx, cy),)),
        Segment("C", ((cx + rx, cy + ky), (cx + kx, cy + ry), (cx, cy + ry))),
        Segment("C", ((cx - kx, cy + ry), (cx - rx, cy + ky), (cx - rx, cy))),
        Segment("C", ((cx - rx, cy - ky), (cx - kx, cy - ry), (cx, cy - ry))),
        Segment("C", ((cx + kx, cy - ry), (cx + rx, cy - ky), (cx + rx, cy))),
        Segment("Z", ()),
    ]


def rect_path(x: float, y: float, w: float, h: float, rx: float = 0.0, ry: float = 0.0) -> list[Segment]:
    if rx <= 0 and ry <= 0:
        return [Segment("M", ((x, y),)), Segment("L", ((x + w, y),)), Segment("L", ((x + w, y + h),)),
                Segment("L", ((x, y + h),)), Segment("Z", ())]
    rx = min(rx if rx > 0 else ry, w / 2)
    ry = min(ry if ry > 0 else rx, h / 2)
    kx, ky = rx * (1 - _K), ry * (1 - _K)
    return [
        Segment("M", ((x + rx, y),)), Segment("L", ((x + w - rx, y),)),
        Segment("C", ((x + w - kx, y), (x + w, y + ky), (x + w, y + ry))), Segment("L", ((x + w, y + h - ry),)),
        Segment("C", ((x + w, y + h - ky), (x + w - kx, y + h), (x + w - rx, y + h))), Segment("L", ((x + rx, y + h),)),
        Segment("C", ((x + kx, y + h), (x, y + h - ky), (x, y + h - ry))), Segment("L", ((x, y + ry),)),
        Segment("C", ((x, y + ky), (x + kx, y), (x + rx, y))), Segment("Z", ()),
    ]


def points_path(points: str, *, closed: bool) -> list[Segment]:
    vals = [float(v) for v in _NUMBER.findall(points or "")]
    pts = list(zip(vals[0::2], vals[1::2]))
    if not pts:
        return []
    segs = [Segment("M", (pts[0],))] + [Segment("L", (p,)) for p in pts[1:]]
    if closed:
        segs.append(Segment("Z", ()))
    return segs
