"""Circled step numbers: a small disc or ring with a digit or two in it (①②③ in pipeline figures).

The text detector passes over them (one glyph, often light on a dark disc, walled in by its
ring) and the lone-glyph pass wants a glyph to stand clear of all ink, so they came back as
empty circles. Once shapes are found, the circle's face has holes where its glyph is: that
glyph is read there, dark on white whatever its colours, and becomes a text run inside the
circle, which assembly makes the circle node's label.
"""

from __future__ import annotations

import cv2
import numpy as np

from crafteditor.config import Config
from crafteditor.ocr.accents import read_math
from crafteditor.ocr.engine import OcrEngine
from crafteditor.ocr.runs import TextRun, make_run
from crafteditor.ocr.text_lines import TextLine
from crafteditor.paint import distances
from crafteditor.shapes.detect import DetectedShape

BADGE_MAX_SIDE = 64.0  # user units: a step number's circle is small (a node with a word is wider)
BADGE_MIN_CONFIDENCE = 0.8


def read_badges(rgb: np.ndarray, shapes: list[DetectedShape], runs: list[TextRun], engine: OcrEngine,
                config: Config, scale: float) -> list[TextRun]:
    """Text runs for the glyphs inside small circles that hold no text run yet."""
    latin = config.ocr_scripts == "latin"
    jobs = []
    for s in shapes:
        if s.shape not in ("circle", "ellipse") or s.is_group or max(s.w, s.h) * scale > BADGE_MAX_SIDE:
            continue
        if any(s.x <= r.cx <= s.x + s.w and s.y <= r.cy <= s.y + s.h for r in runs):
            continue
        job = _glyph_crop(rgb, s)
        if job is not None:
            jobs.append(job)
    if not jobs:
        return []
    out = []
    for (text, conf, centres), (crop, line, region, fill, origin) in zip(
            engine.recognize([j[0] for j in jobs], latin, fold_case=True), jobs):
        if config.ocr_math_letters and text.strip():  # a math label in a circle (a network's ŷ_m): its accent
            text, conf, centres = read_math(text, conf, centres, crop,
                                            lambda c: engine.recognize([c], latin, fold_case=True)[0])
        text = text.strip()
        if not text or conf < max(BADGE_MIN_CONFIDENCE, config.ocr_min_confidence) or len(text) > 3 \
                or not text.isalnum():
            continue
        run = make_run(text, conf, centres, crop, line, 0.0, region, fill, origin, "badge")
        if run is not None:
            out.append(run)
    return out


def _glyph_crop(rgb: np.ndarray, s: DetectedShape) -> tuple | None:
    """(crop for the recogniser, its line, region, fill, origin) of the holes in a circle's face."""
    f = s.face
    holes = f.filled & ~f.mask
    # the holes' rim is anti-aliasing against the ring; a glyph is well inside the face
    inner = cv2.erode(f.filled.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
    glyph = holes & inner
    if glyph.sum() < 6:
        return None
    ys, xs = np.nonzero(glyph)
    y0, y1, x0, x1 = int(ys.min()), int(ys.max()) + 1, int(xs.min()), int(xs.max()) + 1
    if y1 - y0 < 0.25 * f.h or y1 - y0 < 5:  # a speck, not a digit
        return None
    region = rgb[f.y + y0:f.y + y1, f.x + x0:f.x + x1]
    mask = glyph[y0:y1, x0:x1]
    fill = np.asarray(s.fill, np.float32)
    # dark on white whatever the colours (a white digit on a navy disc)
    d = distances(region, fill)
    ink = float(np.percentile(d[mask], 90)) if mask.any() else 1.0
    keep = cv2.dilate(mask.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    alpha = np.where(keep, np.clip(d / max(ink, 1.0), 0, 1), 0)
    gray = (255 * (1 - alpha)).astype(np.uint8)
    pad = max(3, int(round(0.25 * min(mask.shape))))
    gray = cv2.copyMakeBorder(gray, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=255)
    crop = np.ascontiguousarray(np.repeat(gray[:, :, None], 3, axis=2))
    return crop, TextLine(mask, 0, 0, False), region, fill, (f.y + y0, f.x + x0)
