"""The layers drawn over a bar chart's bars: error bars (``yerr=``) and value labels
(``bar_label``), kept as layers drawn from the data."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

import numpy as np

from crafteditor.charts.axes import Axis
from crafteditor.charts.numbers import parse_number
from crafteditor.charts.series import Series
from crafteditor.paint import Paints, to_hex


def read_error_bars(rgb, paints: Paints, series: list[Series], yaxis: Axis, plot) -> str | None:
    """Error bars on bars: a thin stroke of another colour on the bar's centre line, through
    its top (matplotlib's ``yerr=``; drawn over the bar below the top). Each bar's (down, up)
    go into ``Series.errors``; returns the bars' colour, or None where no bar has one.

    A stroke must rise at least 3 px above the top and stop short of the plot's top (a
    vertical gridline runs the whole height)."""
    if yaxis.log or not series or any(s.kind != "bar" or s.stacked for s in series):
        return None
    H, W = paints.labels.shape
    bg = paints.background_rgb.astype(np.float32)
    px0, py0, px1, py1 = plot
    colors = []
    found = False
    for s in series:
        fill = np.asarray(s.color, np.float32)
        s.errors = []
        for (x0, x1, top), (x, value) in zip(s.floors, s.points):
            cx = int(round((x0 + x1) / 2 - 0.5))
            t = int(round(top))
            if not (2 <= cx < W - 2 and py0 + 2 < t < py1):
                s.errors.append(None)
                continue
            strip = rgb[:, cx - 1:cx + 2].astype(np.float32)
            ya = t - 1
            while ya > py0 + 1 and _unlike(strip[ya], fill, bg).any():
                ya -= 1
            yb = t + 1
            while yb < py1 - 1 and _unlike(strip[yb], fill, bg).any():
                yb += 1
            up_px, down_px = (t - 1) - ya, yb - (t + 1)
            if up_px < 3 or ya <= py0 + 2 or up_px + down_px > 0.6 * (py1 - py0):
                s.errors.append(None)
                continue
            # the ends are the caps' centre lines, half a stroke inside the ink's ends (the
            # stroke's width: the error line's, across it midway up)
            mid = (ya + t) // 2
            half = 0.5 * float(_unlike(rgb[mid, max(0, cx - 4):cx + 5].astype(np.float32), fill, bg).sum())
            top_v = yaxis.value(top)
            up = yaxis.value(ya + 0.5 + half) - top_v
            down = top_v - yaxis.value(yb - 0.5 - half) if down_px >= 2 else up
            s.errors.append((abs(down), abs(up)))
            band = strip[ya + 1:t - 1].reshape(-1, 3)
            dist = np.linalg.norm(band - bg, axis=1)
            colors.append(band[int(np.argmax(dist))])
            found = True
    if not found:
        for s in series:
            s.errors = []
        return None
    return to_hex(tuple(int(v) for v in np.median(np.array(colors), axis=0)))


def _unlike(px: np.ndarray, fill: np.ndarray, bg: np.ndarray) -> np.ndarray:
    """Pixels (N×3) drawn in neither the bar's colour nor the background's."""
    return (np.linalg.norm(px - fill, axis=1) > 60) & (np.linalg.norm(px - bg, axis=1) > 60)


@dataclass
class ValueLabels:
    """Numbers written above the bars, each its bar's value."""
    runs: list[int]
    decimals: int
    dy: float  # px from the bar's top to the labels' centre (negative: above)
    font_px: float
    color: str | None
    affixes: tuple[str, str] = ("", "")  # what every label writes before and after its number ('$', 's', '%')
    unit: float = 1.0  # what the number as written stands for, the affix a multiplier ('12.3k': 1000; '4.63s': 1)


# a value label as written: what comes before its number, the number, what comes after ('0.06s', '45 %', '$12')
_WRITTEN = re.compile(r"^(\D*?)([−\-–+]?\d[\d,]*(?:\.(\d+))?)(\D*)$")


def _written(text: str) -> tuple[str, int, str]:
    """A label's prefix, decimal places and suffix as written ('0.06s': '', 2, 's')."""
    m = _WRITTEN.match(text.strip())
    if m is None:
        return "", 0, ""
    return m.group(1), len(m.group(3) or ""), m.group(4)


def _unit(text: str) -> float | None:
    """What a label's number as written is multiplied by to be its value: 1000 for '12.3k' (its value
    12300), 1 for '4.63s'; None where the number is 0 or not written plainly."""
    m = _WRITTEN.match(text.strip())
    v = parse_number(text)
    if m is None or v is None:
        return None
    shown = float(m.group(2).replace(",", "").replace("−", "-").replace("–", "-"))
    return v / shown if shown else None


def _labels_unit(texts: list[str]) -> float:
    """The multiplier every label's number stands for (:func:`_unit`), to 6 significant digits (1.1B's
    and 2.3B's differ in the float's last bit); 1 where they do not agree."""
    units = {float(f"{u:.6g}") for u in map(_unit, texts) if u is not None}
    return units.pop() if len(units) == 1 else 1.0


def read_value_labels(runs, used, series: list[Series], yaxis: Axis, plot, font: float) -> ValueLabels | None:
    """Value labels (matplotlib's ``bar_label``): a number centred over a bar, just above its
    top, that reads as the bar's value. Kept as a text layer drawn from the data, so an edited
    value relabels its bar; they had been loose text over the chart. Three bars in four at least."""
    if yaxis.log or not series or any(s.kind != "bar" or s.stacked for s in series):
        return None
    px0, py0, px1, py1 = plot
    span = abs(yaxis.value(py0) - yaxis.value(py1)) or 1.0
    taken: list[int] = []
    offsets: list[float] = []
    exact: list[tuple[Series, int, float]] = []  # (series, point, the label's value)
    decimals = 0
    total = 0
    for s in series:
        for i, ((x0, x1, top), (_, value)) in enumerate(zip(s.floors, s.points)):
            total += 1
            for k, r in enumerate(runs):
                if k in used or k in taken or r.angle != 0:
                    continue
                v = parse_number(r.text)
                if v is None or not (x0 - 2 <= r.cx <= x1 + 2) \
                        or not (top - 2.5 * font <= r.bottom <= top + 0.35 * font):
                    continue
                if abs(v - value) > 0.02 * span:
                    continue
                taken.append(k)
                exact.append((s, i, v))
                offsets.append(r.cy - top)
                decimals = max(decimals, _written(r.text)[1])
                break
    if not taken or len(taken) < 0.75 * total:
        return None
    # a unit or sign every label writes around its number ('0.06s', '45%', '$12') is drawn with it: the
    # labels written with the chart's number format alone had lost it (uv's benchmark: '4.630' for '4.63s',
    # the unit's letter counted as a decimal place)
    written = Counter((_written(runs[k].text)[0], _written(runs[k].text)[2]) for k in taken)
    affixes, n = written.most_common(1)[0]
    # a multiplier the affix stands for ('k', 'M'): the label writes the value over it ('12300.0k' for '12.3k')
    unit = _labels_unit([runs[k].text for k in taken])
    # the labels are the author's own numbers: they are the values (the bars' heights, read to
    # a pixel, had relabelled 81.8 as 81.9)
    for s, i, v in exact:
        s.points[i] = (s.points[i][0], v)
    colors = [runs[k].color for k in taken]
    color = to_hex(tuple(int(v) for v in np.median(np.array(colors), axis=0))) if colors else None
    return ValueLabels(runs=taken, decimals=decimals, dy=float(np.median(offsets)),
                       font_px=float(np.median([runs[k].font_px for k in taken])), color=color,
                       affixes=affixes if n == len(taken) else ("", ""), unit=unit if n == len(taken) else 1.0)
