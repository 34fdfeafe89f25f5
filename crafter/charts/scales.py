"""Scales: data values → pixels (position) or colours, sizes, shapes, dashes; with ticks.

Tick placement is matplotlib's (``MaxNLocator`` with 1-2-2.5-5 steps for linear axes,
``LogLocator``, ``SymmetricalLogLocator``, ``AutoDateLocator``); "nice" domains extend
to the outer ticks, as Vega-Lite's ``nice`` does. Band and point scales follow d3's
formulas (step, bandwidth, paddingInner/Outer, align 0.5). Transforms follow Vega:
``symlog(x) = sign(x)·log1p(|x|/C)``.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Sequence

from crafter.charts import format as fmt


@dataclass
class Tick:
    value: Any  # data value (category for band/point scales; epoch ms for time)
    label: str
    pos: float = 0.0  # px, set by the scale
    minor: bool = False


class PositionScale:
    kind: str = ""
    r0: float = 0.0
    r1: float = 1.0

    def set_range(self, r0: float, r1: float) -> None:
        self.r0, self.r1 = r0, r1

    @property
    def length(self) -> float:
        return abs(self.r1 - self.r0)


class ScaleTransform:
    """Value ↔ transformed value of a linear, log or symlog scale (rendering and read-back share it).

    Expects ``kind``, ``base`` and ``constant`` attributes on the instance.
    """

    kind: str
    base: float
    constant: float

    def fwd(self, v: float) -> float:
        if self.kind == "log":
            return math.log(v, self.base)
        if self.kind == "symlog":
            return math.copysign(math.log1p(abs(v) / self.constant), v)
        return v

    def inv(self, t: float) -> float:
        if self.kind == "log":
            return self.base ** t
        if self.kind == "symlog":
            return math.copysign(math.expm1(abs(t)) * self.constant, t)
        return t


class ContinuousScale(ScaleTransform, PositionScale):
    """linear, log, symlog or time."""

    def __init__(self, kind: str, lo: float, hi: float, *, zero: bool = False, nice: bool = True,
                 base: float = 10.0, constant: float = 1.0, explicit: bool = False, integer: bool = False,
                 tick_count: int | None = None, reverse: bool = False,
                 label_format: str | dict[str, str] | None = None,
                 tick_values: Sequence[float] | None = None) -> None:
        assert kind in ("linear", "log", "symlog", "time"), kind
        self.tick_values = [float(v) for v in tick_values] if tick_values is not None else None  # axis "values"
        self.kind = kind
        self.base = base
        self.constant = constant
        self.nice = nice and not explicit
        self.integer = integer
        self.tick_count = tick_count
        self.reverse = reverse
        self.label_format = label_format
        if kind == "log" and (lo <= 0 or hi <= 0):
            raise ValueError("log scales need positive values")
        if zero and kind in ("linear", "symlog") and not explicit:
            lo, hi = min(lo, 0.0), max(hi, 0.0)
        if lo == hi:
            if kind == "log":
                lo, hi = lo / base, hi * base
            elif kind == "time":
                lo, hi = lo - 43_200_000.0, hi + 43_200_000.0  # ± half a day
            elif lo == 0:
                hi = 1.0
            else:
                pad = abs(lo) * 0.1
                lo, hi = (lo - pad, hi + pad) if not zero else (min(lo, 0.0), max(hi, 0.0))
        self.d0, self.d1 = lo, hi
        self._raw = (lo, hi)  # before "nice": finalize() starts again from here
        self.ticks_: list[Tick] = []


    def __call__(self, v: float) -> float:
        if self.kind == "log" and v <= 0:
            # a log axis has no place for zero or less: such a value (a bar's base at 0, read off a
            # figure whose log axis was read) is drawn at the axis's low end, not a math domain error
            v = min(self.d0, self.d1)
        t0, t1 = self.fwd(self.d0), self.fwd(self.d1)
        f = (self.fwd(v) - t0) / (t1 - t0)
        if self.reverse:
            f = 1 - f
        return self.r0 + f * (self.r1 - self.r0)

    def invert(self, px: float) -> float:
        t0, t1 = self.fwd(self.d0), self.fwd(self.d1)
        f = (px - self.r0) / (self.r1 - self.r0)
        if self.reverse:
            f = 1 - f
        return self.inv(t0 + f * (t1 - t0))

    def clamp(self, v: float) -> float:
        lo, hi = min(self.d0, self.d1), max(self.d0, self.d1)
        return min(max(v, lo), hi)

    # -- ticks -------------------------------------------------------------------------
    def _locator(self, n: int):
        import matplotlib.ticker as mt  # heavy: 0.4 s to import; importing crafter.charts must not load matplotlib

        if self.kind == "linear":
            return mt.MaxNLocator(nbins=n, steps=[1, 2, 2.5, 5, 10], integer=self.integer, min_n_ticks=2)
        if self.kind == "log":
            decades = math.log(self.d1 / self.d0, self.base)
            subs = (1.0, 2.0, 5.0) if decades < 1.5 else (1.0,)
            return mt.LogLocator(base=self.base, subs=subs, numticks=max(n, 3) + 1)
        if self.kind == "symlog":
            return mt.SymmetricalLogLocator(linthresh=self.constant, base=10)
        import matplotlib.dates as md  # heavy: 0.8 s to import; only time axes need it

        return md.AutoDateLocator(minticks=3, maxticks=max(n, 3) + 2)

    def finalize(self, length: float, spacing: float) -> None:
        """Choose ticks for an axis ``length`` px long (one per ``spacing`` px) and make the domain nice."""
        self.d0, self.d1 = self._raw
        n = self.tick_count or max(2, int(round(length / spacing)))
        loc = self._locator(n)
        if self.kind == "time":
            import matplotlib.dates as md  # heavy: 0.8 s to import; only time axes need it

            lo_day, hi_day = self.d0 / 86_400_000.0, self.d1 / 86_400_000.0
            vals = [v * 86_400_000.0 for v in loc.tick_values(md.num2date(lo_day), md.num2date(hi_day))]
        else:
            vals = [float(v) for v in loc.tick_values(self.d0, self.d1)]
        if self.nice and self.kind == "linear" and len(vals) >= 2:
            below = [v for v in vals if v <= self.d0 + 1e-12 * max(1.0, abs(self.d0))]
            above = [v for v in vals if v >= self.d1 - 1e-12 * max(1.0, abs(self.d1))]
            if below:
                self.d0 = max(below)
            if above:
                self.d1 = min(above)
        elif self.nice and self.kind == "symlog":
            self.d0, self.d1 = self._nice_symlog(self.d0), self._nice_symlog(self.d1)
            vals = [float(v) for v in loc.tick_values(self.d0, self.d1)]
        elif self.nice and self.kind == "log":
            self.d0 = self.base ** math.floor(math.log(self.d0, self.base) + 1e-9)
            self.d1 = self.base ** math.ceil(math.log(self.d1, self.base) - 1e-9)
            vals = [float(v) for v in loc.tick_values(self.d0, self.d1)]
        if self.tick_values is not None:  # the axis lists its ticks (Vega-Lite axis "values")
            vals = list(self.tick_values)
        lo, hi = min(self.d0, self.d1), max(self.d0, self.d1)
        eps = 1e-9 * (abs(self.fwd(hi) - self.fwd(lo)) or 1.0)
        major = [v for v in vals if self.fwd(lo) - eps <= self.fwd(v) <= self.fwd(hi) + eps] if self.kind != "time" \
            else [v for v in vals if lo - 1 <= v <= hi + 1]
        if self.kind == "log" and len(major) < 2:
            major = [lo, hi]
        labels = self.labels(major)
        self.ticks_ = [Tick(v, lab) for v, lab in zip(major, labels)]
        if self.kind == "log" and math.log(hi / lo, self.base) >= 1.5 and self.base == 10:
            import matplotlib.ticker as mt  # heavy: 0.4 s to import; only log axes' minor ticks need it here

            minor = mt.LogLocator(base=10, subs=tuple(range(2, 10)), numticks=99).tick_values(lo, hi)
            majors = {round(math.log10(v), 6) for v in major}
            self.ticks_ += [Tick(float(v), "", minor=True) for v in minor
                            if lo <= v <= hi and round(math.log10(v), 6) not in majors]
        for t in self.ticks_:
            t.pos = self(t.value)

    def _nice_symlog(self, v: float) -> float:
        """Out to the next power of ten beyond the linear part (±C, ±10C, ±100C...)."""
        c = self.constant
        if abs(v) <= c:
            return 0.0 if v == 0 else math.copysign(c, v)
        return math.copysign(c * 10 ** math.ceil(math.log10(abs(v) / c) - 1e-9), v)

    def declutter(self, min_gap: float) -> None:
        """Unlabel ticks closer than ``min_gap`` px to a kept one (0 and large magnitudes kept first)."""
        major = [t for t in self.ticks_ if not t.minor]
        order = sorted(major, key=lambda t: (t.value != 0, -abs(self.fwd(t.value)) if self.kind == "symlog" else 0))
        kept: list[Tick] = []
        for t in order:
            if all(abs(t.pos - k.pos) >= min_gap for k in kept):
                kept.append(t)
            else:
                t.minor, t.label = True, ""

    def labels(self, values: Sequence[float]) -> list[str]:
        if self.label_format:
            if self.kind == "time":
                return [time_label(v, self.label_format) for v in values]
            return [fmt.d3_format(self.label_format, v) for v in values]
        if self.kind == "linear":
            return fmt.linear_tick_labels(values)
        if self.kind == "log":
            return fmt.log_tick_labels(values, self.base)
        if self.kind == "symlog":
            return fmt.symlog_tick_labels(values)
        return time_labels(values)

    @property
    def ticks(self) -> list[Tick]:
        return self.ticks_


def _strftime(d3_time_format: str) -> str:
    """d3-time-format directives are strftime's (%Y %b %d %H...)."""
    return d3_time_format


# Vega's time multi-format (vega-format's timeMultiFormat): a tick is written in the format of the
# coarsest unit it starts, each unit's own where the specifier names it, else Vega's default
_MULTI_DEFAULTS = {"milliseconds": ".%L", "seconds": ":%S", "minutes": "%I:%M", "hours": "%I %p", "date": "%a %d",
                   "week": "%b %d", "month": "%B", "quarter": "%B", "year": "%Y"}


def time_unit(when: dt.datetime) -> str:
    """The coarsest time unit ``when`` starts (Vega's multi-format choice): year, quarter, month,
    week (a Sunday), date, hours, minutes, seconds or milliseconds."""
    if when.microsecond:
        return "milliseconds"
    if when.second:
        return "seconds"
    if when.minute:
        return "minutes"
    if when.hour:
        return "hours"
    if when.day > 1:
        return "date" if when.isoweekday() != 7 else "week"
    if when.month > 1:
        return "month" if (when.month - 1) % 3 else "quarter"
    return "year"


def time_label(v: float, spec: str | dict[str, str]) -> str:
    """An epoch-ms tick in a d3-time-format string, or a Vega time multi-format object
    ({"year": "%Y", "month": "%b"}: each tick in its unit's format)."""
    when = dt.datetime.fromtimestamp(v / 1000, dt.timezone.utc)
    if isinstance(spec, dict):
        unit = time_unit(when)
        spec = spec.get(unit) or (spec.get("day") if unit == "date" else None) or _MULTI_DEFAULTS[unit]
    return when.strftime(_strftime(spec))


def time_labels(values: Sequence[float]) -> list[str]:
    """Concise date labels (matplotlib's ConciseDateFormatter) for epoch-ms ticks."""
    import matplotlib.dates as md  # heavy: 0.8 s to import; only time axes need it

    days = [v / 86_400_000.0 for v in values]
    loc = md.AutoDateLocator()
    f = md.ConciseDateFormatter(loc, show_offset=False)
    return list(f.format_ticks(days))


class BandScale(PositionScale):
    """Discrete positions with a band (bars, heatmap cells, box plots)."""

    kind = "band"

    def __init__(self, domain: Sequence[Any], padding_inner: float = 0.1, padding_outer: float | None = None,
                 align: float = 0.5, reverse: bool = False) -> None:
        self.domain = list(domain)
        self.padding_inner = padding_inner
        self.padding_outer = padding_inner / 2 if padding_outer is None else padding_outer
        self.align = align
        self.reverse = reverse
        self._index = {_key(v): i for i, v in enumerate(self.domain)}
        self.step = self.bandwidth = 0.0
        self.start = 0.0

    def set_range(self, r0: float, r1: float) -> None:
        super().set_range(r0, r1)
        n = len(self.domain)
        lo, hi = min(r0, r1), max(r0, r1)
        step = (hi - lo) / max(1.0, n - self.padding_inner + 2 * self.padding_outer)
        self.start = lo + (hi - lo - step * (n - self.padding_inner)) * self.align
        self.step = step
        self.bandwidth = step * (1 - self.padding_inner)
        self._flip = (r1 < r0) != self.reverse

    def index(self, v: Any) -> int:
        try:
            return self._index[_key(v)]
        except KeyError:
            raise KeyError(v) from None

    def __call__(self, v: Any) -> float:
        """The band's start (lowest pixel)."""
        i = self.index(v)
        if self._flip:
            i = len(self.domain) - 1 - i
        return self.start + i * self.step

    def center(self, v: Any) -> float:
        return self(v) + self.bandwidth / 2

    def finalize(self, length: float, spacing: float) -> None:
        self.ticks_ = [Tick(v, fmt_category(v), pos=self.center(v)) for v in self.domain]

    @property
    def ticks(self) -> list[Tick]:
        return self.ticks_


class PointScale(BandScale):
    """Discrete positions without a band (lines and points over categories)."""

    kind = "point"

    def __init__(self, domain: Sequence[Any], padding: float = 0.5, reverse: bool = False) -> None:
        super().__init__(domain, padding_inner=1.0, padding_outer=padding, reverse=reverse)

    def set_range(self, r0: float, r1: float) -> None:
        super().set_range(r0, r1)
        self.bandwidth = 0.0


def _key(v: Any) -> Any:
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return v


def fmt_category(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return fmt.format_number(v)
    return str(v)


# ---------------------------------------------------------------------------------------
# Colour, size, shape, dash
# ---------------------------------------------------------------------------------------

# Vega scheme names → matplotlib colormaps (same published palettes: ColorBrewer, viridis family).
SCHEMES = {
    "viridis": "viridis", "magma": "magma", "inferno": "inferno", "plasma": "plasma", "cividis": "cividis",
    "turbo": "turbo", "blues": "Blues", "greens": "Greens", "greys": "Greys", "oranges": "Oranges",
    "purples": "Purples", "reds": "Reds", "bluegreen": "BuGn", "bluepurple": "BuPu", "greenblue": "GnBu",
    "orangered": "OrRd", "purpleblue": "PuBu", "purplebluegreen": "PuBuGn", "purplered": "PuRd", "redpurple": "RdPu",
    "yellowgreen": "YlGn", "yellowgreenblue": "YlGnBu", "yelloworangebrown": "YlOrBr", "yelloworangered": "YlOrRd",
    "blueorange": "PuOr_r", "brownbluegreen": "BrBG", "purplegreen": "PRGn", "pinkyellowgreen": "PiYG",
    "purpleorange": "PuOr", "redblue": "RdBu", "redgrey": "RdGy", "redyellowblue": "RdYlBu",
    "redyellowgreen": "RdYlGn", "spectral": "Spectral",
    "category10": "tab10", "tableau10": "tab10", "category20": "tab20", "tableau20": "tab20", "set1": "Set1",
    "set2": "Set2", "set3": "Set3", "dark2": "Dark2", "accent": "Accent", "paired": "Paired",
    "pastel1": "Pastel1", "pastel2": "Pastel2",
}
DIVERGING = {"blueorange", "brownbluegreen", "purplegreen", "pinkyellowgreen", "purpleorange", "redblue", "redgrey",
             "redyellowblue", "redyellowgreen", "spectral"}


@lru_cache(maxsize=64)
def colormap(scheme: str, reverse: bool = False):
    import matplotlib  # heavy: 0.4 s to import; only sequential colour scales need it

    name = SCHEMES.get(scheme.lower())
    if name is None:
        raise ValueError(f"unknown colour scheme '{scheme}'; expected one of {', '.join(sorted(SCHEMES))}")
    cmap = matplotlib.colormaps[name]
    return cmap.reversed() if reverse else cmap


def _hex(rgba: Sequence[float]) -> str:
    return "#{:02X}{:02X}{:02X}".format(*(int(round(c * 255)) for c in rgba[:3]))


class CategoricalColors:
    def __init__(self, domain: Sequence[Any], palette: Sequence[str], scale: dict[str, Any] | None = None) -> None:
        scale = scale or {}
        self.domain = list(domain)
        if isinstance(scale.get("range"), list):
            colors = [str(c) for c in scale["range"]]
        elif scale.get("scheme"):
            scheme = scale["scheme"]["name"] if isinstance(scale["scheme"], dict) else scale["scheme"]
            cmap = colormap(str(scheme))
            n = len(self.domain)
            if hasattr(cmap, "colors") and len(cmap.colors) <= 20:
                colors = [_hex(c) for c in cmap.colors]
            else:
                colors = [_hex(cmap(i / max(1, n - 1))) for i in range(n)]
        else:
            colors = list(palette)
        self.colors = colors
        self._map = {_key(v): colors[i % len(colors)] for i, v in enumerate(self.domain)}

    def __call__(self, v: Any) -> str:
        return self._map.get(_key(v), self.colors[0])


class SequentialColors:
    def __init__(self, lo: float, hi: float, scheme: str = "viridis", scale: dict[str, Any] | None = None) -> None:
        scale = scale or {}
        if isinstance(scale.get("domain"), list) and len(scale["domain"]) == 2:
            lo, hi = (float(x) for x in scale["domain"])
        sch = scale.get("scheme", scheme)
        if isinstance(sch, dict):
            sch = sch.get("name", scheme)
        self.scheme = str(sch)
        self.reverse = bool(scale.get("reverse", False))
        self.mid = scale.get("domainMid")
        if self.mid is None and self.scheme.lower() in DIVERGING and lo < 0 < hi:
            self.mid = 0.0
        if lo == hi:
            lo, hi = lo - 0.5, hi + 0.5
        self.lo, self.hi = lo, hi
        self.range_colors = scale.get("range") if isinstance(scale.get("range"), list) else None
        self._range_cmap: Any = None

    def fraction(self, v: float) -> float:
        if self.mid is not None:
            m = float(self.mid)
            if v < m:
                f = 0.5 * (v - self.lo) / (m - self.lo) if m != self.lo else 0.5
            else:
                f = 0.5 + 0.5 * (v - m) / (self.hi - m) if self.hi != m else 0.5
        else:
            f = (v - self.lo) / (self.hi - self.lo)
        return min(1.0, max(0.0, f))

    def __call__(self, v: float) -> str:
        f = self.fraction(v)
        if self.range_colors:
            if self._range_cmap is None:  # one colormap per scale, not one per colour looked up
                from matplotlib.colors import LinearSegmentedColormap  # heavy: 0.8 s to import; only colour ranges use it

                self._range_cmap = LinearSegmentedColormap.from_list("range", self.range_colors)
            return _hex(self._range_cmap(1 - f if self.reverse else f))
        return _hex(colormap(self.scheme, self.reverse)(f))


class SizeScale:
    def __init__(self, lo: float, hi: float, rmin: float, rmax: float, scale: dict[str, Any] | None = None) -> None:
        scale = scale or {}
        if isinstance(scale.get("range"), list) and len(scale["range"]) == 2:
            rmin, rmax = (float(x) for x in scale["range"])
        if scale.get("zero", True):
            lo = min(lo, 0.0)
        self.lo, self.hi, self.rmin, self.rmax = lo, hi if hi != lo else lo + 1, rmin, rmax

    def __call__(self, v: float) -> float:
        f = (v - self.lo) / (self.hi - self.lo)
        return self.rmin + f * (self.rmax - self.rmin)


SHAPES = ("circle", "square", "triangle-up", "cross", "diamond", "triangle-down", "triangle-right", "triangle-left")
DASHES: tuple[tuple[float, ...], ...] = ((), (5, 2.5), (1.5, 2), (6, 2, 1.5, 2), (3, 3), (8, 3, 2, 3, 2, 3))


def symbol_path(shape: str, area: float) -> str:
    """Path data for a marker of ``area`` px² centred on (0, 0) (Vega's symbol shapes)."""
    s = math.sqrt(max(area, 1.0))
    if shape == "circle":
        r = math.sqrt(area / math.pi)
        return f"M{r:.2f},0A{r:.2f},{r:.2f} 0 1,1 {-r:.2f},0A{r:.2f},{r:.2f} 0 1,1 {r:.2f},0Z"
    if shape == "square":
        h = s / 2
        return f"M{-h:.2f},{-h:.2f}H{h:.2f}V{h:.2f}H{-h:.2f}Z"
    if shape.startswith("triangle"):
        h = s * 0.62
        pts = [(0, -h), (h, h * 0.75), (-h, h * 0.75)]
        rot = {"triangle-up": 0, "triangle": 0, "triangle-down": 180, "triangle-right": 90,
               "triangle-left": 270}.get(shape, 0)
        c, sn = math.cos(math.radians(rot)), math.sin(math.radians(rot))
        pts = [(x * c - y * sn, x * sn + y * c) for x, y in pts]
        return "M" + "L".join(f"{x:.2f},{y:.2f}" for x, y in pts) + "Z"
    if shape == "diamond":
        h = s * 0.62
        return f"M0,{-h:.2f}L{h:.2f},0L0,{h:.2f}L{-h:.2f},0Z"
    if shape == "cross":
        a, b = s * 0.55, s * 0.18
        return (f"M{-a:.2f},{-b:.2f}H{-b:.2f}V{-a:.2f}H{b:.2f}V{-b:.2f}H{a:.2f}V{b:.2f}H{b:.2f}V{a:.2f}"
                f"H{-b:.2f}V{b:.2f}H{-a:.2f}Z")
    raise ValueError(f"unknown shape '{shape}'; expected one of {', '.join(SHAPES)}")
