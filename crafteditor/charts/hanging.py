"""Category labels written turned 90° under an x axis, hanging from it (Vega-Lite's and Altair's
default on a band axis, ggplot's ``angle = 90``), which OCR's detector did not find: each column's
label is cut out of the ink below the axis and read on its own, turned upright."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from crafteditor.config import Config
from crafteditor.ocr.engine import get_engine
from crafteditor.ocr.runs import TextRun


def read_hanging(rgb: np.ndarray, bg: np.ndarray, columns: list[tuple[float, float]], ay: float, font: float,
                 config: Config, min_conf: float = 0.7, floor: float | None = None) -> list[TextRun] | None:
    """One run per column of ``columns`` (left and right pixels along x): the label hanging below
    the x axis at ``ay`` there, above ``floor`` (the axis title's top, where read), read bottom to
    top. None where a column shows no label or one read below ``min_conf``: the labels are all read
    or none is."""
    H = rgb.shape[0]
    bottom = min(H, int(ay + 6 * font), int(floor) - 1 if floor is not None else H)
    crops, boxes = [], []
    for a, b in columns:
        band = rgb[int(ay) + 2:bottom, int(a):int(b)]
        if band.size == 0:
            return None
        ink = np.linalg.norm(band.astype(np.float32) - bg, axis=2) > 80
        # the tick mark first: rows of a thin upright stroke, no letters across
        wide = np.flatnonzero(ink.sum(axis=1) > 2)
        if wide.size == 0:
            return None
        ys = np.flatnonzero(ink.any(axis=1))
        ys = ys[ys >= wide[0]]
        # the label: the ink from the first row down to the first gap of a type size (the axis title is below)
        gaps = np.flatnonzero(np.diff(ys) > 0.8 * font)
        y_end = int(ys[gaps[0]]) if gaps.size else int(ys[-1])
        xs = np.flatnonzero(ink[ys[0]:y_end + 1].any(axis=0))
        ya, yb, xa, xb = int(ys[0]), y_end + 1, int(xs[0]), int(xs[-1]) + 1
        pad = 3
        crop = np.rot90(band[max(0, ya - pad):yb + pad, max(0, xa - pad):xb + pad], k=-1)  # read bottom to top
        crops.append(cv2.cvtColor(np.ascontiguousarray(crop), cv2.COLOR_RGB2BGR))
        boxes.append((a + xa, ay + 2 + ya, xb - xa, yb - ya, ink[ya:yb, xa:xb]))
    if not crops:
        return None
    out = []
    for (text, conf, _), (x, y, w, h, glyphs) in zip(get_engine(config.ocr_threads).recognize(
            crops, config.ocr_scripts == "latin"), boxes):
        if not text.strip() or (conf < min_conf and not _lone_stroke(text, glyphs)):
            return None
        out.append(TextRun(text=text.strip(), x=float(x), y=float(y), w=float(w), h=float(h), angle=-90.0,
                           font_px=float(w), bold=False, color=(0, 0, 0), confidence=float(conf),
                           baseline=float(x + w), glyphs=glyphs))
    return _capitals_mended(out)


_CAPITAL_OF = {"1": "I", "l": "I", "|": "I", "0": "O"}  # a lone glyph read alone: a sans-serif I is a stroke
_STROKES = ("I", "l", "1", "|", "i")
STROKE_FILL = 0.85  # share of its box a lone upright stroke inks (a '1' with its flag: about 0.65)


def _lone_stroke(text: str, glyphs: np.ndarray) -> bool:
    """A label whose ink is one plain upright stroke, read as a stroke ('I', 'l', '1', '|') but
    unsurely: the recogniser's confidence on a bare bar is low (Vega-Lite's 'I' at 0.75x read
    'I' at 0.49, which had thrown away all nine labels), the ink says what it is."""
    return text.strip() in _STROKES and _plain_stroke(glyphs)


def _plain_stroke(glyphs: np.ndarray) -> bool:
    """Whether a label's ink is a plain upright stroke: it fills its box (a one with its flag inks about 0.65 of it)."""
    return glyphs.size > 0 and float(np.mean(glyphs)) >= STROKE_FILL


def _capitals_mended(labels: list[TextRun]) -> list[TextRun]:
    """Labels of one capital letter each (A to I, Vega-Lite's example data) where one lone
    stroke or ring among them was read as a digit or a small L: it is the capital ('I' read '1'
    had named a bar '1' in fifteen of the gallery's bar charts). Only the capital that the letter
    beside it leads to (H, then I), not one already there, and an I only where the ink is a plain
    stroke: a real category '1' or '0' among letters (sorted first, by 'A') stays a digit."""
    letters = [r.text for r in labels if len(r.text) == 1 and r.text.isalpha() and r.text.isupper()]
    if len(letters) < 3 or len(letters) + 1 < len(labels):
        return labels
    out = list(labels)
    for i, r in enumerate(labels):
        cap = _CAPITAL_OF.get(r.text)
        if cap is None or cap in letters:
            continue
        beside = [labels[j].text for j in (i - 1, i + 1) if 0 <= j < len(labels)]
        if not any(t in letters and abs(ord(t) - ord(cap)) == 1 for t in beside):
            continue
        if cap == "I" and not _plain_stroke(r.glyphs):
            continue
        out[i] = replace(r, text=cap)
    return out


def turned_readings(rgb: np.ndarray, labels: list[TextRun], config: Config) -> list[str] | None:
    """Short category labels (a glyph or two each) that the detector found but misread in the line it
    cut (a 'B' turned 90° under a band axis read 'ω'): each box is read again on its own, upright and
    turned, the turn decided once for the axis (turned where most labels read surer so), and a label
    takes that reading where it is surer than the first. Returns the labels' texts, or None where
    none changed."""
    if not labels:
        return None
    H, W = rgb.shape[:2]
    upright, turned = [], []
    for r in labels:
        pad = 3
        box = rgb[max(0, int(r.y) - pad):min(H, int(r.bottom) + pad + 1),
                  max(0, int(r.x) - pad):min(W, int(r.right) + pad + 1)]
        if box.size == 0:
            return None
        upright.append(cv2.cvtColor(np.ascontiguousarray(box), cv2.COLOR_RGB2BGR))
        turned.append(cv2.cvtColor(np.ascontiguousarray(np.rot90(box, k=-1)), cv2.COLOR_RGB2BGR))
    read = get_engine(config.ocr_threads).recognize(upright + turned, config.ocr_scripts == "latin")
    # one turn for the axis, not one per label: an upright 'N' read turned is a sure 'Z', an 'n' a
    # 'u'; a label read about as surely either way counts for upright
    ups, tus = read[:len(labels)], read[len(labels):]
    better = sum(bool(tu[0].strip()) and tu[1] > up[1] + 0.05 for up, tu in zip(ups, tus))
    out, changed = [], False
    for r, (text, conf, _) in zip(labels, tus if 2 * better > len(labels) else ups):
        if text.strip() and text.strip() != r.text.strip() and conf >= max(0.8, r.confidence + 0.05):
            out.append(text.strip())
            changed = True
        else:
            out.append(r.text.strip())
    return out if changed else None
