"""A chart's text runs: the figure's type size, tick labels the text detector joined or read with
their tick mark, and the axis titles and the title around a plot."""

from __future__ import annotations

import re
from dataclasses import replace

import numpy as np

from crafteditor.charts.numbers import parse_number
from crafteditor.ocr.runs import TextRun, split_wide_gaps


def typical_font(runs) -> float:
    """The figure's usual type size, px (the median run's)."""
    return float(np.median([r.font_px for r in runs])) if runs else 16.0


def pick(runs, used, pred) -> int | None:
    """The longest run (its index) not in ``used`` that ``pred`` holds for, or None."""
    cands = [k for k, r in enumerate(runs) if k not in used and pred(r)]
    if not cands:
        return None
    return max(cands, key=lambda k: len(runs[k].text))


def split_tick_labels(runs: list[TextRun], used: set[int], ay: float, ax: float, right: float,
                      font: float) -> None:
    """Category labels under an x axis that the text detector joined into one run ('Mamba
    ResNet': matplotlib's classic style sets them a word's gap apart; numbers, a narrower gap
    apart) become a run each, in
    place: the first piece keeps the run's index, the others are appended."""
    for k in range(len(runs)):
        r = runs[k]
        if k in used or r.angle != 0 or " " not in r.text or not (ay - 2 <= r.y <= ay + 3 * font) \
                or not (ax - 2 * font <= r.cx <= right + 2 * font):
            continue
        # numbers set close (Vega-Lite's '9.0 10.0' at the axis's end) part at a narrower gap
        numbers = all(parse_number(w) is not None for w in r.text.split())
        pieces = split_wide_gaps(r, 0.25 if numbers else 0.6)
        if len(pieces) == 1 and numbers:
            pieces = _one_number_a_group(r)
        elif len(pieces) == 1 and len(r.text.split()) >= 3:
            pieces = _evenly_spaced_words(r)
        if len(pieces) > 1:
            runs[k] = pieces[0]
            runs.extend(pieces[1:])
    _split_at_the_step(runs, used, ay, ax, right, font)


def _split_at_the_step(runs: list[TextRun], used: set[int], ay: float, ax: float, right: float,
                       font: float) -> None:
    """Two words or more joined into one run under the axis, their ink in as many groups whose centres
    stand the other labels' step apart (within 30 %: an end label is pushed in to stay in the view), one
    label each ('Jan Feb' beside 'Mar', 'Apr' …: Vega-Lite's months at 2x), in place as
    :func:`split_tick_labels`."""
    row = [k for k, r in enumerate(runs) if k not in used and r.angle == 0 and ay - 2 <= r.y <= ay + 3 * font
           and ax - 2 * font <= r.cx <= right + 2 * font]
    lone = sorted(runs[k].cx for k in row if len(runs[k].text.split()) == 1)
    if len(lone) < 3:
        return
    step = float(np.median(np.diff(lone)))
    level = float(np.median([runs[k].cy for k in row if len(runs[k].text.split()) == 1]))
    if step <= 0:
        return
    for k in row:
        # on the labels' line: the axis title below them ('date (month)') is no pair of labels
        if len(runs[k].text.split()) < 2 or abs(runs[k].cy - level) > 0.3 * font:
            continue
        pieces = _one_number_a_group(runs[k])
        if len(pieces) < 2:
            continue
        gaps = np.diff([p.x + p.w / 2 for p in pieces])
        if np.all(np.abs(gaps - step) <= 0.3 * step):
            runs[k] = pieces[0]
            runs.extend(pieces[1:])


def _one_number_a_group(run: TextRun) -> list[TextRun]:
    """Numbers joined into one run whose ink falls into as many groups, a quarter em apart or more,
    as it has words: one number a group. The words' widths need not fit the groups (ggplot2's
    '3.0 3.5 … 5.5' in a narrow face: the widths guessed from a wider one missed by a quarter, the
    run stayed whole, and the box plot's x axis was not read)."""
    words = run.text.split()
    if run.glyphs is None or not run.glyphs.size or len(words) < 2:
        return [run]
    ink = np.flatnonzero(run.glyphs.any(axis=0))
    if ink.size == 0:
        return [run]
    cuts = np.flatnonzero(np.diff(ink) > max(2.0, 0.25 * run.font_px))
    groups = [(int(g[0]), int(g[-1]) + 1) for g in np.split(ink, cuts + 1)]
    if len(groups) != len(words):
        return [run]
    # each number keeps its own marked reading (a tick '10^{2}'), as split_wide_gaps's pieces do
    marks = run.marked.split(" ") if run.marked and len(run.marked.split(" ")) == len(words) else None
    out = []
    for k, (word, (c0, c1)) in enumerate(zip(words, groups)):
        rows = np.flatnonzero(run.glyphs[:, c0:c1].any(axis=1))
        r0, r1 = int(rows[0]), int(rows[-1]) + 1
        out.append(replace(run, text=word, marked=marks[k] if marks else None, x=run.x + c0, y=run.y + r0,
                           w=float(c1 - c0), h=float(r1 - r0), glyphs=run.glyphs[r0:r1, c0:c1].copy()))
    return out


def _evenly_spaced_words(run: TextRun) -> list[TextRun]:
    """Three or more words whose ink falls into as many groups at one step apart (centre to centre,
    within a tenth) are labels of evenly spaced categories, set closer than a word's gap ('Jan Feb
    Mar Apr May Jun': Vega-Lite's month bands at 1x and below); a phrase's words, of unlike lengths,
    are not evenly spaced."""
    pieces = _one_number_a_group(run)
    if len(pieces) < 3:
        return [run]
    centres = np.array([p.x + p.w / 2 for p in pieces])
    steps = np.diff(centres)
    widths = np.array([p.w for p in pieces])
    if steps.min() <= 0 or steps.max() > 1.1 * steps.min() or widths.max() > steps.min():
        return [run]
    return pieces


def label_text(text: str) -> str:
    """A category label read together with the tick mark beside it ('ResNet -') is the label."""
    return re.sub(r"\s*[-–—]$", "", text) or text


def find_titles(runs, taken: set[int], xticks: list[int], yticks: list[int], plot,
                font: float) -> tuple[int | None, int | None, int | None]:
    """A plot's axis titles and its title (run indices, None where there is none; ``taken``: runs
    that are something else): the x title below the x tick labels (further down where there are
    none: they were rotated, and not read), the y title (rotated) left of the y tick labels, and
    the title above the plot."""
    ax, top, right, ay = plot
    tick_bottom = max([runs[k].bottom for k in xticks], default=ay)
    ytick_left = min((runs[k].x for k in yticks), default=ax)
    reach = 3 * font if xticks else 7 * font  # unread (rotated) tick labels push the axis title down
    x_title = pick(runs, taken, lambda r: r.angle == 0 and tick_bottom - 2 <= r.y <= tick_bottom + reach
                   and ax - font <= r.cx <= right + font)
    y_title = pick(runs, taken, lambda r: r.angle != 0 and r.right <= ytick_left + 2
                   and ytick_left - 4 * font <= r.x and top - font <= r.cy <= ay + font)
    # numbers alone are no title: the tick labels of a plot above (patchwork's nested layout: the
    # box plot's '3.0 3.5 … 5.5', joined into one run, had titled the bar chart below it)
    title = pick(runs, taken, lambda r: r.angle == 0 and top - 4 * font <= r.y and r.bottom <= top + 2
                 and ax - font <= r.cx <= right + font and not _numbers_only(r.text))
    return x_title, y_title, title


def _numbers_only(text: str) -> bool:
    """Every word of ``text`` reads as a number (tick labels, not a title)."""
    words = text.split()
    return bool(words) and all(parse_number(w) is not None for w in words)
