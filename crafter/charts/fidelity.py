"""Numeric fidelity: read every mark's value back from the rendered SVG and compare.

:func:`read_back` uses only the SVG: each axis is fitted from its tick lines and the
numbers their *labels* show (the text a reader sees; the tick path's ``data-crafter-values``
only where a label is not a number, e.g. dates), then each mark's geometry (a bar's ends, a line's
vertices, a point's centre, an error bar's ends, a box's quartiles) is mapped back
through that fit and compared with the datum the mark carries. Errors are fractions of
the axis range (in the scale's own space: log decades for a log axis).

:func:`check_chart` is the critic's check: the same readings compared with the values
the chart's *data* implies (compiled afresh from the component's spec), so a stale or
tampered drawing, a wrong bar, a missing mark or a mislabelled axis is reported with the
chart id and the element id.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from typing import Any, Iterable

import numpy as np
from defusedxml import ElementTree as ET

from crafter.charts.compile.chart import plan_for
from crafter.charts.compile.encoding import parse_time, value_label
from crafter.charts.format import parse_label
from crafter.charts.scales import ScaleTransform

TOLERANCE = 0.005  # 0.5% of the axis range
_NUM = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


@dataclass
class MarkReading:
    element: str  # element id (line vertices: "<path id>#<i>")
    mark: str
    cell: int
    layer: int
    index: int
    datum: dict[str, Any]
    read: dict[str, Any]  # channel -> value read from the geometry
    fields: dict[str, str]  # channel -> datum key
    errors: dict[str, float] = field(default_factory=dict)  # channel -> error (fraction of the axis range)
    axes: tuple[Any, Any] = field(default=(None, None), repr=False, compare=False)  # (x fit, y fit)

    @property
    def error(self) -> float:
        return max(self.errors.values(), default=0.0)


@dataclass
class FidelityProblem:
    component: str
    message: str
    element: str | None = None
    error: float | None = None

    def __str__(self) -> str:
        return f"chart '{self.component}': {self.message}"


@dataclass
class ReadBackReport:
    chart_id: str | None
    marks: list[MarkReading]
    problems: list[FidelityProblem]

    @property
    def max_error(self) -> float:
        """The largest error of any mark, as a fraction of its axis range."""
        return max((m.error for m in self.marks), default=0.0)

    @property
    def worst(self) -> MarkReading | None:
        return max(self.marks, key=lambda m: m.error, default=None)

    def summary(self) -> str:
        w = self.worst
        where = f" (worst: {w.element}, {w.mark})" if w is not None and w.error > 0 else ""
        return (f"{len(self.marks)} marks read back, largest error {self.max_error:.4%} of the axis range{where}; "
                f"{len(self.problems)} problem(s)")


# ---------------------------------------------------------------------------------------
# SVG parsing with transforms
# ---------------------------------------------------------------------------------------


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _parse_transform(s: str | None) -> np.ndarray:
    m = np.eye(3)
    if not s:
        return m
    for name, args in re.findall(r"(\w+)\s*\(([^)]*)\)", s):
        a = [float(x) for x in _NUM.findall(args)]
        if name == "translate":
            t = np.array([[1, 0, a[0]], [0, 1, a[1] if len(a) > 1 else 0.0], [0, 0, 1]])
        elif name == "scale":
            sx = a[0]
            sy = a[1] if len(a) > 1 else sx
            t = np.array([[sx, 0, 0], [0, sy, 0], [0, 0, 1]])
        elif name == "rotate":
            r = math.radians(a[0])
            c, sn = math.cos(r), math.sin(r)
            rot = np.array([[c, -sn, 0], [sn, c, 0], [0, 0, 1]])
            if len(a) == 3:
                t = (np.array([[1, 0, a[1]], [0, 1, a[2]], [0, 0, 1]]) @ rot
                     @ np.array([[1, 0, -a[1]], [0, 1, -a[2]], [0, 0, 1]]))
            else:
                t = rot
        elif name == "matrix" and len(a) == 6:
            t = np.array([[a[0], a[2], a[4]], [a[1], a[3], a[5]], [0, 0, 1]])
        else:
            continue
        m = m @ t
    return m


def _apply(m: np.ndarray, x: float, y: float) -> tuple[float, float]:
    v = m @ np.array([x, y, 1.0])
    return float(v[0]), float(v[1])


def _parse_svg(svg: Any):
    if not isinstance(svg, (str, bytes)):
        return svg  # an Element already
    text = svg.decode("utf-8") if isinstance(svg, bytes) else svg
    try:
        return ET.fromstring(text)
    except Exception:  # a fragment with several top-level elements
        return ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{text}</svg>')


class _Tree:
    """Elements with their cumulative transforms (own transform included) and parents."""

    def __init__(self, root: Any) -> None:
        self.matrix: dict[int, np.ndarray] = {}
        self.parent_matrix: dict[int, np.ndarray] = {}
        self._walk(root, np.eye(3))

    def _walk(self, el: Any, m: np.ndarray) -> None:
        self.parent_matrix[id(el)] = m
        own = m @ _parse_transform(el.get("transform"))
        self.matrix[id(el)] = own
        for child in el:
            self._walk(child, own)


def _iter(el: Any) -> Iterable[Any]:
    yield el
    for child in el:
        yield from _iter(child)


def _find_chart(root: Any, chart_id: str | None) -> Any:
    for el in _iter(root):
        if chart_id is not None and el.get("id") == chart_id:
            return el
        if chart_id is None and el.get("data-crafter-kind") == "chart":
            return el
    if chart_id is not None:
        # a bare fragment: its ids start with the chart id
        if any((el.get("id") or "").startswith(chart_id + "-") for el in _iter(root)):
            return root
        raise KeyError(f"no chart with id '{chart_id}' in the SVG")
    return root


def _path_points(d: str) -> list[list[tuple[float, float]]]:
    """Subpaths of M/L/H/V path data (absolute or relative) as point lists (enough for what we draw)."""
    subs: list[list[tuple[float, float]]] = []
    x = y = 0.0
    start = (0.0, 0.0)
    for cmd, args in re.findall(r"([MLHVZmlhvz])([^MLHVZmlhvzAaCcSsQqTt]*)", d):
        nums = [float(v) for v in _NUM.findall(args)]
        rel = cmd.islower()
        c = cmd.upper()
        if c == "M" and len(nums) >= 2:
            x, y = (x + nums[0], y + nums[1]) if rel else (nums[0], nums[1])
            start = (x, y)
            subs.append([(x, y)])
            nums = nums[2:]
            c = "L"  # further pairs after a moveto are linetos
        if c == "Z":  # the closing point is the start again: not listed twice
            x, y = start
            continue
        if not subs:
            subs.append([(x, y)])
        if c == "L":
            for i in range(0, len(nums) - 1, 2):
                x, y = (x + nums[i], y + nums[i + 1]) if rel else (nums[i], nums[i + 1])
                subs[-1].append((x, y))
        elif c == "H":
            for v in nums:
                x = x + v if rel else v
                subs[-1].append((x, y))
        elif c == "V":
            for v in nums:
                y = y + v if rel else v
                subs[-1].append((x, y))
    return subs


# ---------------------------------------------------------------------------------------
# Axes
# ---------------------------------------------------------------------------------------


class _AxisFit(ScaleTransform):
    """Pixel ↔ value for one axis, fitted from its ticks and labels."""

    def __init__(self, channel: str, kind: str, base: float = 10.0, constant: float = 1.0) -> None:
        self.channel = channel
        self.kind = kind
        self.base = base
        self.constant = constant
        self.a = 1.0
        self.b = 0.0
        self.t_range = 1.0
        self.domain_px: tuple[float, float] = (0.0, 1.0)
        self.bands: list[tuple[float, str]] = []  # (centre px, label) for band/point axes
        self.residual = 0.0
        self.tick_problems: list[str] = []

    @property
    def discrete(self) -> bool:
        return self.kind in ("band", "point")


    def value(self, px: float) -> float:
        return self.inv((px - self.b) / self.a)

    def px(self, v: float) -> float:
        return self.a * self.fwd(v) + self.b

    def category(self, px: float) -> str | None:
        if not self.bands:
            return None
        return min(self.bands, key=lambda b: abs(b[0] - px))[1]

    def error(self, read: float, expected: float) -> float:
        try:
            return abs(self.fwd(read) - self.fwd(expected)) / self.t_range
        except (ValueError, ZeroDivisionError):
            return 1.0

    def baseline_px(self) -> float:
        lo_px, hi_px = self.domain_px
        if self.kind == "log":
            return lo_px if self.value(lo_px) < self.value(hi_px) else hi_px
        v0, v1 = self.value(lo_px), self.value(hi_px)
        if min(v0, v1) <= 0 <= max(v0, v1):
            return self.px(0.0)
        return lo_px if abs(v0) < abs(v1) else hi_px


def _read_axis(axis_el: Any, tree: _Tree, cell: Any = None) -> _AxisFit:
    ch = axis_el.get("data-crafter-axis")
    fit = _AxisFit(ch, axis_el.get("data-crafter-scale", "linear"), float(axis_el.get("data-crafter-base", 10) or 10),
                   float(axis_el.get("data-crafter-constant", 1) or 1))
    coord = 0 if ch == "x" else 1
    ticks: list[tuple[float, str | None]] = []
    labels: list[tuple[float, str]] = []
    domain: tuple[float, float] | None = None
    extra = []
    if cell is not None and not any(_local(el.tag) == "path" and el.get("data-crafter-values") is not None
                                    for el in _iter(axis_el)):
        # an axis drawn without tick marks (config.axis.ticks false) is read off its gridlines,
        # which list the same values and start at the same places
        extra = [g for g in _iter(cell) if g.get("class") == "crafter-chart-grid"
                 and (g.get("id") or "").endswith(f"grid-{ch}")][:1]
    for el in [*_iter(axis_el), *extra]:
        tag = _local(el.tag)
        eid = el.get("id") or ""
        if tag == "line" and eid.endswith("-domain"):
            m = tree.matrix[id(el)]
            p1 = _apply(m, float(el.get("x1")), float(el.get("y1")))
            p2 = _apply(m, float(el.get("x2")), float(el.get("y2")))
            domain = (p1[coord], p2[coord])
        elif tag == "path" and el.get("data-crafter-values") is not None:
            # the axis's ticks as one path: the n-th subpath starts at the n-th listed value's tick
            m = tree.matrix[id(el)]
            try:
                values = json.loads(el.get("data-crafter-values"))
            except ValueError:
                values = []
            starts = [sub[0] for sub in _path_points(el.get("d", "")) if sub]
            for (x, y), val in zip(starts, values if isinstance(values, list) else []):
                ticks.append((_apply(m, x, y)[coord], None if val is None else str(val)))
        elif tag == "line" and el.get("class") != "minor" and el.get("data-crafter-value") is not None:
            # SVGs written before ticks became one path: a line per tick
            m = tree.matrix[id(el)]
            p = _apply(m, float(el.get("x1")), float(el.get("y1")))
            ticks.append((p[coord], el.get("data-crafter-value")))
        elif tag == "text" and not eid.endswith("-title"):
            m = tree.parent_matrix[id(el)]
            p = _apply(m, float(el.get("x", 0)), float(el.get("y", 0)))
            labels.append((p[coord], "".join(el.itertext())))
    if domain is not None:
        fit.domain_px = domain
    # each label belongs to the nearest tick
    named: list[tuple[float, str | None, str | None]] = []
    for pos, val in ticks:
        lab = min(labels, key=lambda l: abs(l[0] - pos))[1] if labels else None
        named.append((pos, val, lab))
    if fit.discrete:
        fit.bands = [(pos, lab if lab is not None else (val or "")) for pos, val, lab in named]
        return fit
    pairs = []
    for pos, val, lab in named:
        shown = parse_label(lab) if lab is not None and fit.kind != "time" else None  # dates: the tick value
        attr = None
        try:
            attr = float(val) if val is not None else None
        except ValueError:
            pass
        v = shown if shown is not None else attr
        if v is None:
            continue
        if shown is not None and attr is not None and abs(shown - attr) > 1e-6 * max(1.0, abs(attr)) \
                and fit.kind != "time":
            fit.tick_problems.append(f"{ch} axis: tick label '{lab}' stands at the position of {attr:g}")
        try:
            pairs.append((pos, fit.fwd(v)))
        except ValueError:
            continue
    if len({round(t, 12) for _, t in pairs}) < 2:
        fit.tick_problems.append(f"{ch} axis: fewer than two readable tick labels")
        return fit
    px = np.array([p for p, _ in pairs])
    t = np.array([t for _, t in pairs])
    a, b = np.polyfit(t, px, 1)
    fit.a, fit.b = float(a), float(b)
    length = abs(fit.domain_px[1] - fit.domain_px[0]) or float(px.max() - px.min()) or 1.0
    fit.residual = float(np.max(np.abs(a * t + b - px))) / length
    if fit.residual > 0.002:
        fit.tick_problems.append(f"{ch} axis: tick labels are not where their values belong "
                                 f"(off by {fit.residual:.2%} of the axis)")
    t0, t1 = (fit.domain_px[0] - b) / a, (fit.domain_px[1] - b) / a
    fit.t_range = abs(t1 - t0) or 1.0
    return fit


# ---------------------------------------------------------------------------------------
# Marks
# ---------------------------------------------------------------------------------------


def _rect_box(el: Any, m: np.ndarray) -> tuple[float, float, float, float]:
    x, y = float(el.get("x", 0)), float(el.get("y", 0))
    w, h = float(el.get("width", 0)), float(el.get("height", 0))
    x0, y0 = _apply(m, x, y)
    x1, y1 = _apply(m, x + w, y + h)
    return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)


def _center(el: Any, tree: _Tree) -> tuple[float, float]:
    m = tree.matrix[id(el)]
    if _local(el.tag) == "circle":
        return _apply(tree.parent_matrix[id(el)] @ _parse_transform(el.get("transform")),
                      float(el.get("cx", 0)), float(el.get("cy", 0)))
    return _apply(m, 0.0, 0.0)


def _along(fit: _AxisFit | None, px: float) -> Any:
    if fit is None:
        return None
    return fit.category(px) if fit.discrete else fit.value(px)


def _read_mark(el: Any, mark: str, orient: str, fields: dict[str, str], xf: _AxisFit | None, yf: _AxisFit | None,
               tree: _Tree) -> list[tuple[int | None, dict[str, Any]]]:
    """[(vertex index or None, {channel: value})] for one mark element."""
    m = tree.matrix[id(el)]
    vert = orient == "vertical"
    cf, vf = (xf, yf) if vert else (yf, xf)
    c, v = ("x", "y") if vert else ("y", "x")
    tag = _local(el.tag)
    out: dict[str, Any] = {}
    if mark == "bar" and tag == "rect":
        return [(None, _read_bar(el, m, vert, fields, cf, vf))]
    if mark == "rect" and tag == "rect":
        x0, y0, x1, y1 = _rect_box(el, m)
        if xf is not None:
            out["x"] = _along(xf, (x0 + x1) / 2) if xf.discrete else xf.value(x0)
        if yf is not None:
            out["y"] = _along(yf, (y0 + y1) / 2) if yf.discrete else yf.value(y1)
        return [(None, out)]
    symbol = tag == "circle" or (tag == "path" and "translate" in (el.get("transform") or ""))
    if mark in ("point", "circle", "square", "line") and symbol:
        x, y = _center(el, tree)
        return [(None, {"x": _along(xf, x), "y": _along(yf, y)})]
    if mark == "line" and tag == "path":
        pts = [p for sub in _path_points(el.get("d", "")) for p in sub]
        return [(i, {"x": _along(xf, *_apply(m, px, py)[:1]), "y": _along(yf, _apply(m, px, py)[1])})
                for i, (px, py) in enumerate(pts)]
    if mark in ("area", "errorband") and tag == "path":
        return _read_band(el, m, mark, vert, fields, cf, vf)
    if mark == "errorbar" and tag == "path":
        sub = _path_points(el.get("d", ""))[0]
        (ax_, ay), (bx, by) = _apply(m, *sub[0]), _apply(m, *sub[1])
        if vf is not None:
            a, b = vf.value(ay if vert else ax_), vf.value(by if vert else bx)
            out[v], out[f"{v}2"] = min(a, b), max(a, b)
        out[c] = _along(cf, ax_ if vert else ay)
        return [(None, out)]
    if mark == "tick" and tag == "path":
        sub = _path_points(el.get("d", ""))[0]
        (ax_, ay), (bx, by) = _apply(m, *sub[0]), _apply(m, *sub[-1])
        if vert:
            return [(None, {"y": _along(yf, ay), "x": _along(xf, (ax_ + bx) / 2)})]
        return [(None, {"x": _along(xf, ax_), "y": _along(yf, (ay + by) / 2)})]
    if mark == "rule" and tag == "line":
        p1 = _apply(m, float(el.get("x1")), float(el.get("y1")))
        p2 = _apply(m, float(el.get("x2")), float(el.get("y2")))
        if abs(p1[0] - p2[0]) < 1e-6 and "x" in fields:
            out["x"] = _along(xf, p1[0])
        if abs(p1[1] - p2[1]) < 1e-6 and "y" in fields:
            out["y"] = _along(yf, p1[1])
        return [(None, out)]
    if mark == "boxplot" and tag == "g":
        return [(None, _read_box(el, vert, cf, vf, tree))]
    if mark == "text" and tag == "text":
        return [(None, {"text": "".join(el.itertext())})]
    return [(None, out)]


def _read_bar(el: Any, m: np.ndarray, vert: bool, fields: dict[str, str], cf: _AxisFit | None,
              vf: _AxisFit | None) -> dict[str, Any]:
    """A bar's value (its end away from the baseline; a stacked bar's both ends) and its category or bin."""
    c, v = ("x", "y") if vert else ("y", "x")
    out: dict[str, Any] = {}
    x0, y0, x1, y1 = _rect_box(el, m)
    lo, hi = (y0, y1) if vert else (x0, x1)
    clo, chi = (x0, x1) if vert else (y0, y1)
    if vf is not None and not vf.discrete:
        base = vf.baseline_px()
        far, near = (lo, hi) if abs(lo - base) >= abs(hi - base) else (hi, lo)
        out[v] = vf.value(far)
        if f"{v}2" in fields:
            out[f"{v}2"] = vf.value(near)
    if cf is not None:
        if cf.discrete:
            out[c] = cf.category((clo + chi) / 2)
        elif f"{c}2" in fields:
            a, b = cf.value(clo), cf.value(chi)
            out[c], out[f"{c}2"] = min(a, b), max(a, b)
        else:
            out[c] = cf.value((clo + chi) / 2)
    return out


def _read_band(el: Any, m: np.ndarray, mark: str, vert: bool, fields: dict[str, str], cf: _AxisFit | None,
               vf: _AxisFit | None) -> list[tuple[int | None, dict[str, Any]]]:
    """An area's or error band's vertices: its outline runs along one edge and back along the other."""
    c, v = ("x", "y") if vert else ("y", "x")
    pts = [_apply(m, px, py) for sub in _path_points(el.get("d", "")) for px, py in sub]
    n = len(pts) // 2
    first, second = pts[:n], pts[n:][::-1]
    res = []
    for i in range(n):
        p_first, p_second = first[i], second[i]
        pos_c = p_first[0] if vert else p_first[1]
        a = vf.value(p_first[1] if vert else p_first[0]) if vf else None
        b = vf.value(p_second[1] if vert else p_second[0]) if vf else None
        r: dict[str, Any] = {c: _along(cf, pos_c)}
        if mark == "errorband":  # first the upper edge, then the lower one
            r[v], r[f"{v}2"] = b, a
        else:
            r[v] = a
            if f"{v}2" in fields:
                r[f"{v}2"] = b
        res.append((i, r))
    return res


def _read_box(el: Any, vert: bool, cf: _AxisFit | None, vf: _AxisFit | None, tree: _Tree) -> dict[str, Any]:
    """A box plot's quartiles (the box), median (the line) and whisker ends, and its category."""
    c = "x" if vert else "y"
    box = next((e for e in el if _local(e.tag) == "rect"), None)
    med = next((e for e in el if _local(e.tag) == "line"), None)
    wh = next((e for e in el if _local(e.tag) == "path"), None)
    if box is None or med is None or wh is None or vf is None:
        return {}
    x0, y0, x1, y1 = _rect_box(box, tree.matrix[id(box)])
    q = sorted([vf.value(y0 if vert else x0), vf.value(y1 if vert else x1)])
    mm = tree.matrix[id(med)]
    mp = _apply(mm, float(med.get("x1")), float(med.get("y1")))
    subs = _path_points(wh.get("d", ""))
    wm = tree.matrix[id(wh)]
    ends = [vf.value(_apply(wm, *p)[1 if vert else 0]) for s in subs[:2] for p in s]
    out = {"q1": q[0], "q3": q[1], "median": vf.value(mp[1] if vert else mp[0]), "lower": min(ends),
           "upper": max(ends)}
    cpos = (x0 + x1) / 2 if vert else (y0 + y1) / 2
    out[c] = _along(cf, cpos)
    return out


def _compare(reading: dict[str, Any], datum: dict[str, Any], fields: dict[str, str], xf: _AxisFit | None,
             yf: _AxisFit | None) -> dict[str, float]:
    errors: dict[str, float] = {}
    for channel, value in reading.items():
        key = fields.get(channel)
        if key is None or value is None or key not in datum:
            continue
        expected = datum[key]
        if channel == "text":
            errors[channel] = _text_error(value, expected)
            continue
        axis = xf if channel.startswith("x") else yf
        if channel in ("lower", "q1", "median", "q3", "upper"):
            axis = yf if (yf is not None and not yf.discrete) else xf
        if axis is None:
            continue
        if axis.discrete:
            errors[channel] = 0.0 if str(value) == value_label(expected) else 1.0
        elif isinstance(expected, (int, float)) and not isinstance(expected, bool):
            errors[channel] = axis.error(float(value), float(expected))
        elif axis.kind == "time" and isinstance(expected, str):
            t = parse_time(expected)
            if t is not None:
                errors[channel] = axis.error(float(value), t)
    return errors


def _text_error(shown: str, expected: Any) -> float:
    """0 when a text mark shows its value (to the precision it prints), else 1."""
    if not isinstance(expected, (int, float)) or isinstance(expected, bool):
        return 0.0 if shown == value_label(expected) else 1.0
    v = parse_label(shown)
    if v is None:
        return 1.0
    digits = shown.replace("\u2212", "-").split(".")
    decimals = len(re.match(r"\d*", digits[1]).group(0)) if len(digits) > 1 else 0
    if shown.endswith("%"):
        decimals += 2
    tol = 0.5 * 10 ** (-decimals) + 1e-9 * abs(expected)
    return 0.0 if abs(v - expected) <= tol else 1.0


def read_back(svg: Any, chart_id: str | None = None, *, tolerance: float = TOLERANCE) -> ReadBackReport:
    """Read every mark's values from the SVG (text, bytes or an Element) and compare with its datum."""
    root = _parse_svg(svg)
    chart = _find_chart(root, chart_id)
    cid = chart_id or chart.get("id")
    tree = _Tree(root)
    cells = [el for el in _iter(chart) if el.get("data-crafter-cell") is not None]
    axes: dict[tuple[str, int, int], _AxisFit] = {}
    problems: list[FidelityProblem] = []
    for cell in cells:
        r, c = int(cell.get("data-crafter-row", 0)), int(cell.get("data-crafter-col", 0))
        for el in _iter(cell):
            if el.get("data-crafter-axis") is not None:
                fit = _read_axis(el, tree, cell)
                axes[(fit.channel, r, c)] = fit
                for p in fit.tick_problems:
                    problems.append(FidelityProblem(cid or "?", p, el.get("id")))
    marks: list[MarkReading] = []
    for cell in cells:
        ci = int(cell.get("data-crafter-cell"))
        r, c = int(cell.get("data-crafter-row", 0)), int(cell.get("data-crafter-col", 0))
        xf = axes.get(("x", r, c)) or next((f for (ch, _, cc), f in axes.items() if ch == "x" and cc == c), None)
        yf = axes.get(("y", r, c)) or next((f for (ch, rr, _), f in axes.items() if ch == "y" and rr == r), None)
        for group in _iter(cell):
            mark = group.get("data-crafter-mark")
            if mark is None:
                continue
            layer = int(group.get("data-crafter-layer", 0))
            orient = group.get("data-crafter-orient", "vertical")
            fields = json.loads(group.get("data-crafter-fields", "{}"))
            for el in group:
                raw = el.get("data-crafter-datum")
                if raw is None:
                    continue
                datum = json.loads(raw)
                idx = [int(i) for i in (el.get("data-crafter-index") or "0").split()]
                try:
                    readings = _read_mark(el, mark, orient, fields, xf, yf, tree)
                except (ValueError, ZeroDivisionError, IndexError) as e:
                    problems.append(FidelityProblem(cid or "?", f"cannot read {mark} '{el.get('id')}': {e}",
                                                    el.get("id")))
                    continue
                for vi, reading in readings:
                    if vi is not None:
                        if vi >= len(idx) or not isinstance(datum, list) or vi >= len(datum):
                            problems.append(FidelityProblem(cid or "?", f"{mark} '{el.get('id')}' has more vertices "
                                                            "than data", el.get("id"), 1.0))
                            continue
                        d, index, eid = datum[vi], idx[vi], f"{el.get('id')}#{vi}"
                    else:
                        d, index, eid = datum, idx[0], el.get("id")
                    mr = MarkReading(eid, mark, ci, layer, index, d, reading, fields, axes=(xf, yf))
                    mr.errors = _compare(reading, d, fields, xf, yf)
                    marks.append(mr)
                    if mr.error > tolerance:
                        problems.append(FidelityProblem(cid or "?", _describe(mr, d), eid, mr.error))
    if not cells:
        problems.append(FidelityProblem(cid or "?", "no chart cells found in the SVG"))
    return ReadBackReport(cid, marks, problems)


def _describe(mr: MarkReading, expected: dict[str, Any]) -> str:
    ch = max(mr.errors, key=lambda k: mr.errors[k])
    key = mr.fields.get(ch, ch)
    shown = mr.read.get(ch)
    exp = expected.get(key)
    ident = ", ".join(f"{k}={v}" for k, v in expected.items()
                      if isinstance(v, str) and k not in mr.fields.values())[:80]
    sv = f"{shown:.4g}" if isinstance(shown, float) else repr(shown)
    ev = f"{exp:.4g}" if isinstance(exp, float) else repr(exp)
    return (f"{mr.mark} '{mr.element}'{' (' + ident + ')' if ident else ''} draws {key}={sv} but the data says {ev} "
            f"(off by {mr.error:.1%} of the axis range)")


def check_chart(svg: Any, chart: Any, *, tolerance: float = TOLERANCE) -> list[FidelityProblem]:
    """Problems with how ``chart`` (a Chart component) is drawn in ``svg``: [] when faithful.

    Each mark's geometry is read back and compared with the values compiled from the
    chart's own data; marks missing from (or extra in) the drawing are reported too.
    """
    try:
        report = read_back(svg, chart.id, tolerance=tolerance)
    except KeyError as e:
        return [FidelityProblem(chart.id, str(e).strip("'\""))]
    plan = plan_for(chart)
    expected: dict[tuple[int, int, int], tuple[Any, Any]] = {}
    for cell in plan.cells:
        for layer in cell.layers:
            for it in layer.items:
                expected[(cell.index, layer.index, it.index)] = (it, layer)
    problems = [p for p in report.problems if p.error is None]  # axis and parsing problems
    seen: set[tuple[int, int, int]] = set()
    for mr in report.marks:
        key = (mr.cell, mr.layer, mr.index)
        if key not in expected:
            problems.append(FidelityProblem(chart.id, f"{mr.mark} '{mr.element}' is not in the chart's data",
                                            mr.element, 1.0))
            continue
        seen.add(key)
        it, layer = expected[key]
        errors = _compare(mr.read, it.datum, layer.fields, *mr.axes)
        err = max(errors.values(), default=0.0)
        if err > tolerance:
            reading = MarkReading(mr.element, mr.mark, mr.cell, mr.layer, mr.index, it.datum, mr.read, layer.fields,
                                  errors)
            problems.append(FidelityProblem(chart.id, _describe(reading, it.datum), mr.element, err))
    missing = [k for k in expected if k not in seen]
    for k in missing[:5]:
        it, layer = expected[k]
        ident = ", ".join(f"{a}={b}" for a, b in it.datum.items() if isinstance(b, str))
        problems.append(FidelityProblem(chart.id, f"a {layer.mark} for {ident or f'row {it.index}'} is missing from "
                                        "the drawing", None, 1.0))
    if len(missing) > 5:
        problems.append(FidelityProblem(chart.id, f"{len(missing) - 5} more marks are missing from the drawing",
                                        None, 1.0))
    return problems


__all__ = ["FidelityProblem", "MarkReading", "ReadBackReport", "TOLERANCE", "check_chart", "read_back"]
