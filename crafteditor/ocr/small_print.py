"""Small print read again at a working size: a horizontal text line whose ink is a few pixels tall
(a 2× figure shown at 1×, a README's shrunk diagram) is cut again from its box upscaled, its glyphs
told from the ground on the upscaled pixels, and read again; the new reading replaces the first only
where the lexicon knows more of it (:func:`~crafteditor.ocr.lexicon.lexicon_score`) and its digits are
the same. Only the text stage sees the upscaled box: shapes and lines stay on the image's pixels.

At 5-6 px of ink the glyph mask of the 1× box loses an 'i' or a 't' at the threshold ('Heaing',
'Terminaing', 'Or Tmeost' at ``--condition half``); upscaled twice (bilinear) the
threshold falls between the strokes. Measured on four small-print dev diagrams at half, lines of at
most 9 px, words the lexicon knows summed over lines (the better of both readings of each line):
first reading 180; bilinear 2× 218, 3× 215; bicubic 2× 203, 3× 198; Lanczos 2× 194, 3× 187. On the same
figures clean (lines up to 12 px) 2× changed little (+1 to +2), so only lines of at most
:data:`SMALL_LINE` px are read again.

A line of 4-5 px ink (a wide Mermaid flowchart shrunk to a README's 830 px column at 1×) reads better at 3×
on one figure and at 2× on another: each small line is read at both
(:data:`WORKING_SCALES`, in the one recogniser call), the reading the lexicon knows most of taken. On the
11 column figures of ``craftbench makers mermaid-wild -n 40 --seed 18`` whose typical glyph is at most 6 px
(498 truth words), words the runs read: 2× alone 284, 3× alone 290, 4× alone 277, both 2× and 3× 297.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from crafteditor.config import past
from crafteditor.ocr.lexicon import lexicon_parts, lexicon_score
from crafteditor.ocr.text_lines import TextLine, crop_pad, glyph_mask, line_crops, split_lines

SMALL_LINE = 8  # px: a horizontal line whose ink is at most this tall is read again at a working size
WORKING_SCALES = (2, 3)  # its box is upscaled (bilinear) by each; ties go to the first
SURE_REREAD = 0.8  # the reading at the working size is taken only this sure at least
Reading = tuple[str, float, list[float]]  # the recogniser's (text, confidence, x centre of each character)
Cut = tuple[np.ndarray, float, float]  # a working size's crop (:func:`working_size_crop`)


def small_print_lines(jobs: list[tuple], readings: list[Reading]) -> list[int]:
    """The jobs (:func:`~crafteditor.ocr.text_lines.line_jobs`) of small print whose first reading the
    lexicon may know better: horizontal, ink at most :data:`SMALL_LINE` px tall, a word part it does
    not know."""
    return [j for j in small_lines(jobs) if lexicon_parts(readings[j][0])[1]]


def small_lines(jobs: list[tuple], height: int = SMALL_LINE) -> list[int]:
    """The jobs (:func:`~crafteditor.ocr.text_lines.line_jobs`) of small print: horizontal lines whose ink is
    at most ``height`` px tall."""
    return [j for j, job in enumerate(jobs) if not job[3].vertical and job[3].mask.shape[0] <= height]


def working_size_crop(region: np.ndarray, line: TextLine, bg: np.ndarray,
                      k: int = WORKING_SCALES[0]) -> Cut | None:
    """The line's crop for the recogniser cut from its box upscaled ``k`` times, the
    glyphs told from ``bg`` (the job's background: the plate :func:`~crafteditor.ocr.text_lines.line_jobs`
    chose, not the upscaled box's own border) there: (BGR crop, x of the crop's first column, crop pixels
    per image pixel), the x in the box's 1× pixels; None where the upscaled box holds no line there."""
    up = cv2.resize(region, None, fx=k, fy=k, interpolation=cv2.INTER_LINEAR)
    glyph, _ = glyph_mask(up, bg)
    lh, lw = line.mask.shape
    best, overlap = None, 0.0
    for cand in split_lines(glyph):  # the upscaled line that covers the 1× line most
        if cand.vertical:
            continue
        ch, cw = cand.mask.shape
        ox = min(cand.x0 + cw, k * (line.x0 + lw)) - max(cand.x0, k * line.x0)
        oy = min(cand.y0 + ch, k * (line.y0 + lh)) - max(cand.y0, k * line.y0)
        if ox > 0 and oy > 0 and ox * oy > overlap:
            best, overlap = cand, ox * oy
    if best is None or overlap < 0.5 * k * k * lh * lw:
        return None
    crop = line_crops(up, best, bg)[0][0]
    return crop, best.x0 / k - crop_pad(best) / k, float(k)


def better_reading(first: Reading, again: Reading) -> bool:
    """Whether the reading at the working size replaces the first: sure enough (:data:`SURE_REREAD`),
    its digits the first's (a tick label or a value keeps its reading), and the lexicon knows more of it."""
    digits = [ch for ch in first[0] if ch.isdigit()]
    return (again[1] >= SURE_REREAD and [ch for ch in again[0] if ch.isdigit()] == digits
            and lexicon_score(again[0]) > lexicon_score(first[0]))


def reread_small_print(jobs: list[tuple], readings: list[Reading],
                       read: Callable[[list[np.ndarray]], list[Reading]], deadline: float | None = None,
                       cuts: dict[tuple[int, int], Cut | None] | None = None) -> list[Reading]:
    """``readings`` (each job's first reading, upright) with small print read again at each working
    size (:data:`WORKING_SCALES`) where that is better (:func:`better_reading`, than the best reading so far);
    the centres mapped back to the 1× crop.
    ``read``: BGR crops → their (text, confidence, centres), the recogniser, called once for all lines.
    Past ``deadline`` (:func:`~crafteditor.config.budget_clock`) no more lines are cut, and none is read
    again if it passed before the recogniser's call. ``cuts``: each crop cut, kept there by (job, working size)
    (None where the upscaled box held no line), for the small-print lexicon to weigh the line on
    (:func:`~crafteditor.ocr.small_lexicon.mend_small_print`)."""
    out = list(readings)
    made = []
    for j in small_print_lines(jobs, readings):
        if past(deadline):
            break
        bg, _, _, line, region = jobs[j]
        for k in WORKING_SCALES:
            cut = working_size_crop(region, line, bg, k)
            if cuts is not None:
                cuts[j, k] = cut
            if cut is not None:
                made.append((j, *cut))
    if not made or past(deadline):
        return out
    for (j, _, x_first, k), again in zip(made, read([c[1] for c in made])):
        if better_reading(out[j], again):
            text, conf, centres = again
            line = jobs[j][3]  # the 1× crop: the line's glyphs from its column pad (line_crops' padding) on
            out[j] = (text, conf, [x_first + c / k - line.x0 + crop_pad(line) for c in centres])
    return out
