"""matplotlib's offset text: the factor ('1e6', '×10⁶') and the offset ('+1.9e3') its ScalarFormatter writes once
beside an axis instead of in every tick label (large or small values, and years under the classic style).

The y axis's sits above the plot's top-left corner, the x axis's under the right end of the tick labels. A tick
read '2' under '1e6' is 2,000,000: without the factor every value of the chart is off by it.
"""

from __future__ import annotations

import re
from dataclasses import replace

from crafteditor.charts.axes import Axis
from crafteditor.charts.numbers import parse_number

# '1e6', '1e-5', '+1.9e3', '−2e3'; with use_mathtext, '×10⁶' and '+1.9×10³', which OCR reads flat: 'x106', '+1.9x103'
_OFFSET_RE = re.compile(r"(?P<sign>[+\-−–])?(?P<m>\d+(?:\.\d+)?)?(?:[eE](?P<e>[+\-−–]?\d{1,2})"
                        r"|[x×X]10\^?(?P<t>[+\-−–]?\d{1,2}))")


def offset_text(text: str) -> tuple[float, float] | None:
    """``text`` as matplotlib's offset text: (factor, offset), a value being ``tick × factor + offset``; None
    where it is not one. A factor is a bare power of ten ('1e6', '×10⁶'); a signed number is an offset."""
    m = _OFFSET_RE.fullmatch(re.sub(r"\s+", "", text))
    if m is None:
        return None
    exp = int((m["e"] or m["t"]).replace("−", "-").replace("–", "-"))
    if m["sign"]:  # '+1.9e3': an offset, its mantissa its own
        mantissa = float(m["m"]) if m["m"] else 1.0
        return 1.0, (-1.0 if m["sign"] != "+" else 1.0) * mantissa * 10.0 ** exp
    if m["m"] not in (None, "1") or exp == 0:
        return None  # '2e3' is a number, not a factor (the formatter's factor is a power of ten)
    return 10.0 ** exp, 0.0


def y_offset_run(runs, yt: list[int], skip: set[int], ax: float, top: float, font: float) -> int | None:
    """The run of the y axis's offset text: over the plot's top-left corner, starting at the axis, above the
    highest tick label ``yt``."""
    highest = min(runs[k].cy for k in yt)
    found = [k for k, r in enumerate(runs) if k not in skip and r.angle == 0 and offset_text(r.text) is not None
             and ax - 2 * font <= r.x <= ax + 2 * font and top - 3 * font <= r.bottom <= top + 0.5 * font
             and r.cy < highest - 0.6 * font]
    return found[0] if len(found) == 1 else None


def x_offset_run(runs, skip: set[int], ay: float, right: float, font: float) -> int | None:
    """The run of the x axis's offset text: under the plot's right end, a row below a tick label left of it
    (a last tick written '1e6' is a tick)."""
    found = [k for k, r in enumerate(runs) if k not in skip and r.angle == 0 and offset_text(r.text) is not None
             and abs(r.right - right) <= 3 * font and ay + 0.5 * font <= r.y <= ay + 4 * font
             and any(j != k and t.angle == 0 and ay - 2 <= t.y and t.cy < r.cy - 0.6 * font and t.right < r.right
                     and parse_number(t.text) is not None for j, t in enumerate(runs))]
    return found[0] if len(found) == 1 else None


def offset_axis(axis: Axis, text: str) -> Axis | None:
    """``axis`` with the offset text ``text`` applied (value = tick × factor + offset); None where it cannot take
    one (a log, time or category axis writes its values whole)."""
    got = offset_text(text)
    if got is None or axis.log or axis.time or axis.categories:
        return None
    factor, offset = got
    return replace(axis, a=axis.a * factor + offset, b=axis.b * factor)
