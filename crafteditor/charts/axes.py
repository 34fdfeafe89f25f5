"""Calibrated axes: tick labels (OCR'd numbers) fitted to their pixels, linear or log10, and the
fit snapped onto the tick marks; a pixel's value along an axis, or its category."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np

from crafteditor.blobs import find_blobs
from crafteditor.charts.numbers import parse_dates, parse_number, times_ten
from crafteditor.ocr.runs import TextRun, joined_glyphs
from crafteditor.paint import Paints


@dataclass
class Axis:
    """A calibrated axis: value = a + b·pixel (in log10 space when ``log``)."""

    a: float
    b: float
    log: bool = False
    categories: list[tuple[float, str]] = field(default_factory=list)  # (pixel centre, label)
    dates: list[tuple[float, str]] = field(default_factory=list)  # a time axis's ticks: (days, label as written)

    @property
    def time(self) -> bool:
        """Values are days since 1970-01-01 (:func:`date_axis`): the axis read its ticks as dates."""
        return bool(self.dates)

    def value(self, px: float) -> float:
        v = self.a + self.b * px
        return 10 ** v if self.log else v

    def pixel(self, value: float) -> float:
        v = math.log10(value) if self.log else value
        return (v - self.a) / self.b


def moved(axis: Axis, dx: float) -> Axis:
    """The same axis drawn ``dx`` px further along (a facet's in the next column)."""
    return Axis(axis.a - axis.b * dx, axis.b, axis.log, [(c + dx, label) for c, label in axis.categories],
                axis.dates)


def y_tick(run: TextRun) -> tuple[float, str]:
    """A y tick label's (pixel, text). '10³' in matplotlib's log labels reads '103', which
    is also a plausible linear label (101, 102, 103 evenly spaced fit a linear axis exactly):
    the glyphs tell them apart. Its exponent is smaller and raised; the label is then 1e3,
    at the centre of its base '10' (the exponent lifts the ink box's centre)."""
    m = re.fullmatch(r"10([−\-–—]?\d{1,2})", run.text.strip())
    if m is None or run.glyphs is None or run.glyphs.size == 0:
        return run.cy, run.text
    n, _, stats, _ = find_blobs(run.glyphs)
    comps = sorted((stats[i] for i in range(1, n) if stats[i][cv2.CC_STAT_AREA] >= 2), key=lambda st: st[0])
    exp_len = len(m.group(1))  # its glyphs, a minus sign included
    if len(comps) < 2 + exp_len:
        return run.cy, run.text
    base, exp = comps[:2], comps[-exp_len:]
    base_top = min(st[1] for st in base)
    base_bottom = max(st[1] + st[3] for st in base)
    exp_bottom = max(st[1] + st[3] for st in exp)
    exp_h = max(st[3] for st in exp)
    base_h = base_bottom - base_top
    if exp_bottom <= base_top + 0.75 * base_h and exp_h <= 0.85 * base_h:
        return run.y + (base_top + base_bottom) / 2.0, "1e" + re.sub("[−–—]", "-", m.group(1))
    return run.cy, run.text


def lost_minus(run: TextRun, rgb: np.ndarray | None, bg: tuple[int, int, int]) -> bool:
    """A minus sign OCR dropped ('1' for −1: d2l's y axis read 2, 1, 0, 1, 2): a short level
    dash of ink just left of the digits, at their middle, nothing else there."""
    if rgb is None or not re.fullmatch(r"\d+(?:\.\d+)?", run.text.strip()):
        return False
    h = run.h
    x0, x1 = int(run.x - 0.9 * h), int(run.x)
    y0, y1 = int(run.y), int(run.bottom) + 1
    if x0 < 0 or y0 < 0 or x1 - x0 < 3 or y1 - y0 < 5:
        return False
    win = np.abs(rgb[y0:y1, x0:x1].astype(np.int16) - np.array(bg, np.int16)).max(axis=2) > 80
    rows = np.flatnonzero(win.any(axis=1))
    cols = np.flatnonzero(win.any(axis=0))
    if rows.size == 0 or cols.size < 0.3 * h:
        return False
    level = rows[-1] - rows[0] + 1 <= max(3, 0.2 * h) and 0.3 * h <= (rows[0] + rows[-1]) / 2 <= 0.75 * h
    solid = cols[-1] - cols[0] + 1 == cols.size and (x1 - x0) - cols[-1] <= 0.4 * h
    return bool(level and solid)


def spaced_decimal(run: TextRun, rgb: np.ndarray | None, bg: tuple[int, int, int]) -> str | None:
    """A decimal point OCR read as a space ('7 5' for 7.5, '10 0' for 10.0 in small type: ggplot's
    count axis 0.0 … 10.0 came back 0 … 100): the number written whole where the gap between the
    run's two digit groups holds a dot of ink on the baseline and none above it."""
    m = re.fullmatch(r"([−\-]?\d+) (\d+)", run.text.strip())
    if m is None or rgb is None or run.glyphs is None or run.glyphs.size == 0:
        return None
    cols = np.flatnonzero(run.glyphs.any(axis=0))
    H, W = rgb.shape[:2]
    y_mid, y1 = int(run.y + 0.6 * run.h), int(run.bottom) + 1
    if cols.size < 2 or run.y < 0 or y1 > H:
        return None

    def inked(ya: int, yb: int, x0: int, x1: int) -> bool:
        win = rgb[ya:yb, x0:x1].astype(np.int16)
        return bool(win.size) and bool((np.abs(win - np.array(bg, np.int16)).max(axis=2) > 80).any())

    # the gaps between glyphs, the widest first: the space read is the one with the point in it
    for i in sorted(np.flatnonzero(np.diff(cols) >= 3), key=lambda i: cols[i] - cols[i + 1]):
        # one column in from each glyph: their anti-aliased rims are no point
        x0, x1 = int(run.x) + int(cols[i]) + 2, int(run.x) + int(cols[i + 1]) - 1
        if 0 <= x0 < x1 <= W and inked(y_mid, y1, x0, x1) and not inked(int(run.y), y_mid - 1, x0, x1):
            return f"{m.group(1)}.{m.group(2)}"
    return None


def mend_spaced_decimals(runs: list[TextRun], idx: list[int], rgb: np.ndarray | None,
                         bg: tuple[int, int, int]) -> None:
    """Tick labels among ``idx`` whose decimal point was read as a space (:func:`spaced_decimal`)
    get their number as written, in place: the axis, its tick values and format read it so."""
    for k in idx:
        text = spaced_decimal(runs[k], rgb, bg)
        if text is not None:
            runs[k] = replace(runs[k], text=text, marked=None)


def mend_thousands_points(runs: list[TextRun], idx: list[int]) -> None:
    """Tick labels among ``idx`` read '1.000' where the others are whole numbers of three digits
    or more ('0 100 ... 900 1,000': OCR took the thousands comma for a point, and the axis's top
    tick for 1) get their thousands comma back, in place."""
    texts = [runs[k].text.strip() for k in idx]
    whole = [t for t in texts if re.fullmatch(r"[−\-]?\d{1,3}(,\d{3})*", t)]
    pointed = [t for t in texts if re.fullmatch(r"[−\-]?\d{1,3}(\.\d{3})+", t)]
    # '0 5.000 10.000 15.000' (Vega-Lite's '5,000' at 0.75x): a format writing three decimals
    # writes its zero '0.000' too, so beside a bare whole number these are thousands
    thousands = len(pointed) >= 2 and len(whole) + len(pointed) == len(texts) \
        and all(re.fullmatch(r"[−\-]?[1-9]\d{0,2}(\.000)+", t) for t in pointed)
    if not thousands and (len(whole) < 2 or max(abs(parse_number(t) or 0) for t in whole) < 100):
        return
    for k, t in zip(idx, texts):
        if re.fullmatch(r"[−\-]?\d{1,3}(\.\d{3})+", t):
            runs[k] = replace(runs[k], text=t.replace(".", ","), marked=None)


def mend_dropped_points(runs: list[TextRun], idx: list[int], vertical: bool) -> None:
    """Tick labels among ``idx`` whose decimal point OCR lost ('02' or '0 5' for 0.2 and 0.5 among
    '0.3 0.4 … 0.8' in Vega-Lite's 1x type; ggplot2's '3.0' read '30') get it back, in place: where the
    axis's other labels write as many decimals, fit their pixels, and put the point where that fit
    says the label's value is (within a quarter of the labels' smallest step) and its reading is not.
    ``vertical``: the labels run down a y axis (their centres' y), else along an x axis."""
    pos = {k: runs[k].cy if vertical else runs[k].cx for k in idx}
    marked = {k: m for k in idx if (m := re.fullmatch(r"[−\-]?\d+\.(\d+)", runs[k].text.strip()))}
    places = [len(m.group(1)) for m in marked.values()]
    if len(marked) < 2:
        return
    d = max(places, key=places.count)
    ref = [(pos[k], parse_number(runs[k].text)) for k, m in marked.items() if len(m.group(1)) == d]
    ref = [(p, v) for p, v in ref if v is not None]
    vals = sorted({v for _, v in ref})
    if len(vals) < 2 or len({p for p, _ in ref}) < 2:
        return
    b, a = np.polyfit([p for p, _ in ref], [v for _, v in ref], 1)
    tol = 0.25 * min(y - x for x, y in zip(vals, vals[1:]))
    if any(abs(a + b * p - v) > tol for p, v in ref):
        return  # the decimals themselves fit no straight line (a log axis): nothing to mend by
    for k in idx:
        m = re.fullmatch(r"([−\-]?)(\d+) ?(\d*)", runs[k].text.strip())
        if k in marked or m is None or len(m.group(2) + m.group(3)) <= d:
            continue
        digits = m.group(2) + m.group(3)
        text = f"{m.group(1)}{digits[:-d]}.{digits[-d:]}"
        pred = a + b * pos[k]
        mended, read = parse_number(text), parse_number(runs[k].text.replace(" ", ""))
        if mended is not None and abs(mended - pred) <= tol and (read is None or abs(read - pred) > tol):
            runs[k] = replace(runs[k], text=text, marked=None)


def tick_text(run: TextRun, rgb: np.ndarray | None, bg: tuple[int, int, int]) -> tuple[float, str]:
    """A numeric tick label's (pixel centre, text) as written: a minus sign dropped
    (:func:`lost_minus`), a raised exponent read flat (:func:`y_tick`) put back."""
    if lost_minus(run, rgb, bg):
        return run.cy, "-" + run.text.strip()
    return y_tick(run)


def mirrored_minus(ticks: list[tuple[float, str]], rising: bool) -> list[tuple[float, str]]:
    """Tick labels (pixel, text) whose minus signs were all lost on one side of '0' (SciencePlots'
    serif '−' on a y axis −2.0 … 2.0 read 2.0 1.5 1.0 0.5 0.0 0.5 1.0 1.5 2.0, and fitted a flat
    axis) with the minus put back: the labels on the side where the axis's values fall, below the
    0 on a y axis (``rising`` False), left of it on an x axis, where every label's value over its
    distance from the 0 is one scale, as on a linear axis."""
    vals = [(px, t, parse_number(t)) for px, t in ticks]
    zero = [px for px, _, v in vals if v == 0]
    if len(zero) != 1 or any(v is None for _, _, v in vals):
        return ticks
    z = zero[0]
    low_side = rising  # on an x axis the negatives are left of the 0 (smaller pixels); on a y axis, below it

    def negative(px: float) -> bool:
        return px != z and (px < z) == low_side

    if not any(negative(px) and v > 0 for px, _, v in vals) or all(negative(px) for px, _, _ in vals if px != z):
        return ticks
    signed = [(px, t, -abs(v) if negative(px) else v) for px, t, v in vals]
    scales = [v / (px - z) for px, _, v in signed if px != z]
    # one scale, and values rising along the axis as it runs (a mirrored reading fits none)
    if len(scales) < 3 or any(abs(k - float(np.median(scales))) > 0.1 * abs(float(np.median(scales))) for k in scales):
        return ticks
    return [(px, ("-" + t.strip().lstrip("−-–") if negative(px) else t)) for px, t, _ in signed]


def tick_number(text: str) -> bool:
    """A tick label's text that is a number, a power of ten read flat ('10–3') included."""
    return parse_number(text) is not None or re.fullmatch(r"10[−\-–—]\d{1,2}", text.strip()) is not None


def join_powers(runs: list[TextRun], idx: list[int], rgb: np.ndarray | None,
                bg: tuple[int, int, int]) -> dict[int, int]:
    """Tick labels 10ⁿ whose exponent OCR read as a run of its own ('10' and a raised '3', the
    minus sign between them in neither): {the '10' run: its exponent's run}, among ``idx``. The
    exponent is smaller, starts within a minus sign and a gap of the '10' and ends above its middle."""
    pairs: dict[int, int] = {}
    for k in idx:
        ten = runs[k]
        if ten.text.strip() != "10":
            continue
        for j in idx:
            e = runs[j]
            if j == k or j in pairs.values() or not re.fullmatch(r"[−\-–—]?\d{1,2}", e.text.strip()):
                continue
            if -1 <= e.x - ten.right <= 1.5 * ten.h and e.bottom <= ten.cy + 0.15 * ten.h and e.h <= 0.9 * ten.h \
                    and e.y >= ten.y - 0.8 * ten.h:
                pairs[k] = j
                break
    return pairs


def join_decimals(runs: list[TextRun], idx: list[int], rgb: np.ndarray | None,
                  bg: tuple[int, int, int]) -> dict[int, tuple[int, str]]:
    """Tick labels that OCR split at their decimal point ('1' and '6' for 1.6): {the left run:
    (the right run, the number written whole)}, among ``idx``. The two are digits on one row a
    point's width apart, with a dot of ink between them on the baseline."""
    out: dict[int, tuple[int, str]] = {}
    taken: set[int] = set()
    for k in idx:
        a = runs[k]
        if not re.fullmatch(r"[−\-]?\d+", a.text.strip()) or k in taken or rgb is None:
            continue
        for j in idx:
            b = runs[j]
            if j == k or j in taken or j in out or not re.fullmatch(r"\d+", b.text.strip()):
                continue
            gap = b.x - a.right
            if abs(b.cy - a.cy) > 0.3 * a.h or not 1 <= gap <= 0.8 * a.h:
                continue
            x0, x1 = int(a.right) + 1, int(b.x)
            y0, y1 = int(a.y + 0.6 * a.h), int(a.bottom) + 1
            win = rgb[max(0, y0):y1, max(0, x0):max(0, x1)].astype(np.int16)
            above = rgb[int(a.y):max(int(a.y), y0 - 1), max(0, x0):max(0, x1)].astype(np.int16)
            # a one-pixel point in small grey type is faint (Vega-Lite's at scale 1: 64 off white)
            ink = np.abs(win - np.array(bg, np.int16)).max(axis=2) > 50 if win.size else np.zeros((0, 0), bool)
            ink_above = (np.abs(above - np.array(bg, np.int16)).max(axis=2) > 50).any() if above.size else False
            if ink.any() and not ink_above:
                out[k] = (j, f"{a.text.strip()}.{b.text.strip()}")
                taken.update((k, j))
                break
    return out


def merge_decimals(runs: list[TextRun], idx: list[int], rgb: np.ndarray | None,
                   bg: tuple[int, int, int]) -> set[int]:
    """Tick labels among ``idx`` split at their decimal point (:func:`join_decimals`) made one run
    each, in place, at the left piece's index, over both pieces' box (an x label's centre is the
    number's: Vega-Lite's binned axis '10.0 12.5 15.0' came back '10', '0', '12', '5', and the
    halves fitted no scale). Returns the right pieces' indices, labels no more."""
    pairs = join_decimals(runs, idx, rgb, bg)
    for k, (j, text) in pairs.items():
        a, b = runs[k], runs[j]
        y0, y1 = min(a.y, b.y), max(a.bottom, b.bottom)
        runs[k] = replace(a, text=text, marked=None, w=b.right - a.x, y=y0, h=y1 - y0,
                          glyphs=joined_glyphs((a, b), a.x, y0, b.right, y1))
    return {j for j, _ in pairs.values()}


def power_text(ten: TextRun, exp: TextRun, rgb: np.ndarray | None, bg: tuple[int, int, int]) -> str:
    """'1e-3' for a '10' and its raised exponent read apart: a minus sign is the short dash of
    ink between them, level with the exponent's middle."""
    digits = re.sub("[−–—]", "-", exp.text.strip())
    if not digits.startswith("-") and rgb is not None:
        x0, x1 = int(ten.right) + 1, int(exp.x)
        y0, y1 = int(exp.y), int(exp.bottom) + 1
        gap = rgb[max(0, y0):y1, max(0, x0):max(0, x1)].astype(np.int16)
        if gap.size:
            ink = np.abs(gap - np.array(bg, np.int16)).max(axis=2) > 80
            cols = np.flatnonzero(ink.any(axis=0))
            if cols.size >= 2 and ink.any(axis=1).sum() <= max(3, 0.25 * (y1 - y0)):
                digits = "-" + digits
    return "1e" + digits


_DECADE = re.compile(r"10(?:[^\d\s.,%]{1,2})?|1e[−\-]?\d{1,2}")


def decade_ticks(ticks: list[tuple[int, float, str]], sign: int) -> dict[int, str] | None:
    """Tick labels 10ⁿ whose exponents OCR garbled ('10', '10-', '10°', a minus sign lost: '1e2'
    for 10⁻²), as (run, pixel, text): where three or more stand evenly spaced (a missing one
    a whole step), they are consecutive decades, the exponent growing ``sign`` per step along
    the pixels (+1 on x, −1 on y). The exponents are anchored where most of those read agree
    ('10°' is 10⁰; '1e2' is 10² or 10⁻²). Returns {run: '1eN'}, or None."""
    dec = sorted((px, k, t.strip()) for k, px, t in ticks if _DECADE.fullmatch(t.strip()))
    if len(dec) < 3:
        return None
    steps = np.diff([px for px, _, _ in dec])
    unit = float(steps.min()) if steps.size else 0.0
    if unit <= 0 or any(abs(st / unit - round(st / unit)) > 0.08 for st in steps):
        return None
    idx = np.concatenate([[0], np.cumsum(np.rint(steps / unit))]).astype(int)
    votes: dict[int, int] = {}
    for i, (_, _, t) in zip(idx, dec):
        read = [0] if t[2:] in ("°", "º", "o", "O") else []
        if t.startswith("1e"):
            e = int(t[2:].replace("−", "-"))
            read = [e, -e] if e else [0]
        for e in read:
            votes[e - sign * int(i)] = votes.get(e - sign * int(i), 0) + 1
    if not votes:
        return None
    offset = max(votes, key=lambda o: (votes[o], -abs(o)))
    return {k: f"1e{offset + sign * int(i)}" for i, (_, k, _) in zip(idx, dec)}


def fit_axis(ticks: list[tuple[float, str]]) -> Axis | None:
    """Robust pixel → value fit; linear or log10, whichever explains the labels better."""
    pts = [(px, parse_number(t)) for px, t in ticks]
    pts = [(px, v) for px, v in pts if v is not None]
    if len(pts) < 2 or len({v for _, v in pts}) < 2:
        return None  # ticks that all read one number calibrate nothing (a handwritten lifeline's dashes read '1')
    if all(re.fullmatch(r"1e-?\d+", t.strip()) for _, t in ticks):
        # powers of ten written with raised exponents (see y_tick): a log axis, however few
        # (two labels fit a linear axis as exactly)
        lg = robust_fit([p for p, _ in pts], [math.log10(v) for _, v in pts])
        if lg is not None:
            return Axis(a=lg[0], b=lg[1], log=True)
    if any(times_ten(t) for _, t in ticks):
        # matplotlib's minor log labels ('3 × 10¹', '6 × 10⁰') are a log axis's only: its
        # decades among them read flat ('101 -' is 10¹, with the tick mark)
        read = [(px, _decade_exponent(re.sub(r"\s*[-–]$", "", t.strip())), parse_number(t)) for px, t in ticks]
        logs = [(px, e if e is not None else math.log10(v)) for px, e, v in read
                if e is not None or (v is not None and v > 0)]
        lg = robust_fit([p for p, _ in logs], [e for _, e in logs]) if len(logs) >= 2 else None
        if lg is not None:
            return Axis(a=lg[0], b=lg[1], log=True)
    cands = []
    lin = robust_fit([p for p, _ in pts], [v for _, v in pts])
    if lin is not None:
        cands.append((lin[2], Axis(a=lin[0], b=lin[1], log=False)))
    pos = [(p, v) for p, v in pts if v > 0]
    # a log axis has no 0 or negative label (2 and 1 of −2 … 2 fit one); two labels fit either
    # exactly: a log axis's two are powers of ten (ggplot2's sparse '5', '10' had been read as log)
    decades = all(abs(math.log10(v) - round(math.log10(v))) < 1e-6 for _, v in pos)
    if len(pos) >= 2 and len(pos) == len(pts) and (len(pos) > 2 or decades):
        lg = robust_fit([p for p, _ in pos], [math.log10(v) for _, v in pos])
        if lg is not None:
            cands.append((lg[2] * 1.0, Axis(a=lg[0], b=lg[1], log=True)))
    # '10²' comes out of OCR as '102': read 10k as 10^k ('10⁰' as '10°', the degree sign, as in
    # decade_ticks), among labels whose raised exponents were seen ('1e4', y_tick's)
    sup = [(px, e) for px, t in ticks if (e := _decade_exponent(t)) is not None]
    if len(sup) >= 2 and len(sup) == len(ticks) and not all(re.fullmatch(r"1e-?\d+", t.strip()) for _, t in ticks):
        exps = [e for _, e in sup]
        fit = robust_fit([p for p, _ in sup], exps)
        if fit is not None:
            cands.append((fit[2] * 0.5, Axis(a=fit[0], b=fit[1], log=True)))
    if not cands:
        return None
    return min(cands, key=lambda c: c[0])[1]


def _decade_exponent(text: str) -> float | None:
    """The exponent of a label 10ⁿ as OCR or y_tick wrote it: '102', '10−2', '10°' (10⁰), '1e4'."""
    m = re.fullmatch(r"10([−\-]?\d|[°º])|1e([−\-]?\d+)", text.strip())
    if m is None:
        return None
    e = m.group(1) or m.group(2)
    return 0.0 if e in ("°", "º") else float(e.replace("−", "-"))


def date_axis(ticks: list[tuple[float, str]]) -> Axis | None:
    """A time axis from its tick labels (pixel, text), in days since 1970-01-01 (see
    :func:`~crafteditor.charts.numbers.parse_dates`): most labels dates, three at least, fitted
    linearly; None where they are no dates or do not fit one straight scale (months as
    categories under bars are evenly spaced, but name no year)."""
    ticks = sorted(ticks)
    days = parse_dates([t for _, t in ticks])
    pts = [(px, d) for (px, _), d in zip(ticks, days) if d is not None]
    if len(pts) < 3 or len(pts) < 0.7 * len(ticks) or len({d for _, d in pts}) < len(pts):
        return None
    fit = robust_fit([p for p, _ in pts], [d for _, d in pts])
    if fit is None or fit[1] <= 0 or fit[2] > 0.05:
        return None
    return Axis(a=fit[0], b=fit[1],
                dates=[(d, t) for (_, t), d in zip(ticks, days) if d is not None])


def flush_ends(ticks: list[tuple[TextRun, str]]) -> list[tuple[float, str]]:
    """Numeric x labels as (pixel, text): each at its centre, but the first at its left edge and the
    last at its right where that is where the scale the others fit puts their values (Vega-Lite's
    ``labelFlush``: the end labels of a quantitative axis are set flush with their ticks, inward, and
    read at their centres they had stretched the scale by half a label: a histogram's bins 0.2 off)."""
    out = [(r.cx, t) for r, t in ticks]
    pts = sorted(((r, v) for r, t in ticks if (v := parse_number(t)) is not None), key=lambda p: p[0].cx)
    if len(pts) < 4:
        return out
    fit = robust_fit([r.cx for r, _ in pts[1:-1]], [v for _, v in pts[1:-1]])
    if fit is None or fit[2] > 0.01:
        return out
    a, b, _ = fit
    moved: dict[int, float] = {}
    for (r, v), edge in ((pts[0], pts[0][0].x), (pts[-1], pts[-1][0].right)):
        want = (v - a) / b
        if abs(want - edge) < 0.25 * abs(want - r.cx):
            moved[id(r)] = edge
    return [(moved.get(id(r), px), t) for (r, _), (px, t) in zip(ticks, out)]


def doubling_categories(ticks: list[tuple[float, str]]) -> bool:
    """Evenly spaced labels whose numbers grow by one factor other than ten (512, 1k, 2k, 4k; 1, 2,
    4, 8): sizes set as categories, not a log axis (a log axis's labels are powers of ten, and
    matplotlib writes them 10ⁿ). Read as log, the grouped bars over them had been shredded."""
    pts = sorted((px, v) for px, t in ticks if (v := parse_number(t)) is not None)
    if len(pts) < 3 or any(v <= 0 for _, v in pts):
        return False
    steps = np.diff([px for px, _ in pts])
    ratios = [b / a for (_, a), (_, b) in zip(pts, pts[1:])]
    even = steps.min() > 0 and np.ptp(steps) <= 0.1 * steps.mean()
    # '1k' is 1000 beside 512: within 5 % of one ratio
    geometric = all(abs(r / ratios[0] - 1) <= 0.05 for r in ratios) and ratios[0] >= 1.5
    return bool(even and geometric and abs(ratios[0] - 10) > 0.5)


def snap_to_ticks(axis: Axis, paints: Paints, labels: list[TextRun], ax: float, font: float) -> Axis:
    """The y axis refitted on its tick marks (or gridlines), where each label has one near it.

    A label's ink centre is only near its tick: matplotlib's classic style sets them 3.5 px
    above (12 pt digits, 'center_baseline'), which put a chart's top point 2.4 % of the axis
    low. The tick is a thin stroke running from the axis line, inward or outward."""
    if axis.log or len(labels) < 3:
        return axis
    H, W = paints.labels.shape
    xa = int(round(ax))
    reach = max(3, int(round(0.5 * font)))
    found = []
    for r in labels:
        v = parse_number(r.text)
        if v is None:
            continue
        p = axis.pixel(v)
        r0, r1 = max(0, int(p - reach)), min(H, int(p + reach) + 1)
        best = None
        for c0, c1 in ((max(int(r.right) + 1, xa - 9), xa - 1), (xa + 2, min(W, xa + 10))):
            if c1 - c0 < 3 or r1 - r0 < 3:
                continue
            full = (paints.labels[r0:r1, c0:c1] != paints.background).mean(axis=1) >= 0.8
            rows = np.flatnonzero(full)
            for band in np.split(rows, np.flatnonzero(np.diff(rows) > 1) + 1) if rows.size else []:
                if len(band) > 4 or band[0] == 0 or band[-1] == r1 - r0 - 1:
                    continue  # no thin stroke (a bar's edge), or cut by the window
                centre = r0 + float(band.mean()) + 0.5
                if best is None or abs(centre - p) < abs(best - p):
                    best = centre
        if best is not None:
            found.append((best, r.text))
    if len(found) < max(3, len(labels) - 1):
        return axis
    lin = robust_fit([p for p, _ in found], [parse_number(t) for _, t in found])
    # ticks sit exactly on their values; a fit that does not, or moves the scale much, is not them
    if lin is None or lin[2] > 0.004 or abs(lin[1] - axis.b) > 0.05 * abs(axis.b):
        return axis
    return replace(axis, a=lin[0], b=lin[1])


def robust_fit(px: list[float], vals: list[float]) -> tuple[float, float, float] | None:
    """(a, b, relative residual) of vals ≈ a + b·px, dropping one bad reading if that helps (of
    eight or more, up to a quarter: OCR had read '120M' and '140M' as '20M' and '40M')."""
    x = np.asarray(px, float)
    y = np.asarray(vals, float)
    if len(x) < 2 or np.ptp(x) < 1:
        return None

    def fit(xx, yy):
        b, a = np.polyfit(xx, yy, 1)
        res = np.abs(yy - (a + b * xx))
        span = np.ptp(yy) or 1.0
        return a, b, float(res.max() / span), res

    a, b, err, res = fit(x, y)
    if err > 0.01 and len(x) >= 4:
        keep = np.ones(len(x), bool)
        for _ in range(max(1, len(x) // 4) if len(x) >= 8 else 1):
            # the reading farthest off the line through the others: a line pulled through a far-off
            # one can leave its worst residual on a good one ('0.75' read '0 75' over 0.50 … 0.00:
            # the 0.50 was dropped, and the axis ran 75 … -15)
            keep[max(np.flatnonzero(keep), key=lambda i: _left_out(x, y, keep, i, fit))] = False
            a2, b2, err2, res = fit(x[keep], y[keep])
            if err2 < err / 3:
                a, b, err = a2, b2, err2
                break
    if err > 0.01 and len(x) >= 5:
        a, b, err = _consensus(x, y, a, b, err, fit)
    if b == 0:
        return None
    return float(a), float(b), err


def _left_out(x: np.ndarray, y: np.ndarray, keep: np.ndarray, i: int, fit) -> float:
    """How far reading ``i`` lies off the line fitted through the other kept ones, in the span of all
    kept ones: one measure for every candidate (in the span of the others, a good end label, whose
    absence narrows it, looked the farthest: 0, 25, 50 and 75 read 7.5 dropped the 50)."""
    others = keep.copy()
    others[i] = False
    a, b, _, _ = fit(x[others], y[others])
    return float(abs(y[i] - (a + b * x[i])) / (np.ptp(y[keep]) or 1.0))


def _consensus(x: np.ndarray, y: np.ndarray, a: float, b: float, err: float, fit) -> tuple[float, float, float]:
    """The fit through most labels where two or more were misread (Vega-Lite's binned axis,
    '10.0 12.5 15.0 17.5 20.0 22.5' read '… 12.0 … 22.0': dropping the worst one left the other,
    and the bins were read on a scale 5 units off): every pair of labels proposes a line; the one
    that most labels lie on (within 1 % of their span), at least three and 60 % of them, is refitted
    on those, if that fits three times better."""
    span = float(np.ptp(y)) or 1.0
    best = None
    for i in range(len(x)):
        for j in range(i + 1, len(x)):
            if x[j] == x[i]:
                continue
            bb = (y[j] - y[i]) / (x[j] - x[i])
            on = np.abs(y - (y[i] + bb * (x - x[i]))) <= 0.01 * span
            if best is None or on.sum() > best.sum():
                best = on
    if best is None or best.sum() < max(3, 0.6 * len(x)) or best.all():
        return a, b, err
    a2, b2, err2, _ = fit(x[best], y[best])
    return (a2, b2, err2) if err2 < err / 3 else (a, b, err)


def x_of(xaxis: Axis, px: float) -> Any:
    if xaxis.categories:
        return min(xaxis.categories, key=lambda c: abs(c[0] - px))[1]
    return xaxis.value(px)
