"""Text: OCR with rapidocr's bundled ONNX models, turned into :class:`TextRun` records.

rapidocr gives line boxes and strings; figures need more, so this module
(FIELD-NOTES: "Accuracybymodel", stacked tick labels read as one box):

* runs detection, then recognises each line itself with its own CTC decode, which
  can refuse CJK look-alikes in Latin figures (``ocr_scripts='latin'``) and reports
  where each character sits, so word spaces are restored from the ink gaps;
* splits boxes holding several stacked lines, and reads tall boxes both ways to
  recover rotated text (y-axis titles read bottom-to-top);
* estimates font size from the ink height and the glyph extents of the recognised
  string in the renderer's font (DejaVu Sans), weight from stroke thickness, colour
  from the most contrasting glyph pixels;
* tells hyphen, en dash, minus and em dash apart by the width of the bar (the recogniser
  only knows '-' and '—');
* finds lone glyphs the detector misses (single-digit tick labels) in a second pass;
* erases the glyph pixels it explained, so shapes and lines are found without text.

The engine loads once per process (:func:`get_engine`).
"""

from __future__ import annotations

import itertools
import math
import threading
from dataclasses import dataclass, field, replace
from functools import lru_cache

import cv2
import numpy as np

from crafteditor.blobs import find_blobs
from crafteditor.config import Config
from crafteditor.onnx_fusion import fused_model
from crafteditor.paint import Paints, darkest_color, distances
from crafteditor.reader import get_reader
from crafteditor.sessions import session_options
from crafteditor.text_regions import (
    TextRegions,
    dark_components,
    find_text_regions,
    region_probabilities,
    typical_glyph_height,
)
from crafter.base.text import font_path
from crafter.spec.model import RectGeometry

REC_HEIGHT = 48  # rapidocr's recogniser input height
REC_PAD_WIDTH = 320  # rapidocr pads every recognition crop to this width
# Detector lines of a word or more are padded only to this: most figure labels are short, and
# the bench read the same words with it. Lone glyphs keep the full pad (a '0' padded less
# read better sideways), and so does the lone-glyph pass (it accepted junk).
REC_WORD_WIDTH = 96
# Detector lines of two or three glyphs (tick labels '20', 'yes'; crops 1.1–2× as wide as tall)
# are padded only to this: they were 89 of the bench's 366 first-round crops and 29% of its
# recognition, at 320 px each, and read the same at 144. A crop narrower than LONE_GLYPH_ASPECT
# (one glyph) keeps the full pad: matplotlib's lone '0' tick was lost at 144.
REC_NARROW_WIDTH = 144
LONE_GLYPH_ASPECT = 1.1
REC_BATCH, REC_BATCH_PX = 4, 1600  # recognition batches: crops at most, padded width at most
SURE_READING = 0.97  # a rotated line read this confidently is not tried at its other angles
LIGHT_FILL = 200.0  # luminance above which a paint is a fill, never a glyph's colour
DETECT_GLYPH_HEIGHT = 14.0  # px: large figures are shrunk for the detector until glyphs are this tall


@dataclass
class TextRun(RectGeometry):
    """One line of recognised text, in image pixels."""

    text: str
    x: float  # ink box (axis-aligned, in the image)
    y: float
    w: float
    h: float
    angle: float  # 0: horizontal; -90: reads bottom-to-top (y-axis titles); 90: top-to-bottom
    font_px: float  # font size in image pixels
    bold: bool
    color: tuple[int, int, int]
    confidence: float
    baseline: float  # horizontal: the baseline's y; rotated: the baseline's x
    glyphs: np.ndarray = field(repr=False)  # bool mask of the glyph pixels over the ink box
    source: str = "det"  # 'det' (detector box) or 'glyph' (second pass over lone glyphs)


# -- the engine ---------------------------------------------------------------------------

class OcrEngine:
    """rapidocr's detector and recogniser sessions with a decode that knows character positions."""

    def __init__(self, threads: int = 0) -> None:
        import logging

        from rapidocr_onnxruntime import RapidOCR

        # 0: the cores this process may run on. onnxruntime's own default counts the machine's
        # cores, so a conversion pinned to one core (taskset, a container's cpuset) ran two
        # threads on it: 10% more CPU per figure on the bench (0.92 vs 0.83 s)
        threads = threads or _available_cores()
        logging.getLogger("RapidOCR").setLevel(logging.ERROR)
        ocr = RapidOCR(intra_op_num_threads=threads, inter_op_num_threads=1)
        self.detector = ocr.text_det
        self.recognizer = ocr.text_rec

        self.reader = get_reader(threads)
        # onnxruntime's worker threads spin while they wait for work. On a CPU shared with other
        # jobs that doubled the wall time of a conversion (bench -n 6 --examples on 2 busy cores:
        # 2.10 s per figure spinning, 1.39 s not; CPU time 2.02 s vs 1.31 s), so they sleep instead
        for part in (self.detector.infer, self.recognizer.session):
            part.session = _quiet_session(part.session, threads)
        vocab = list(self.recognizer.postprocess_op.character)
        self.vocab = vocab
        index = {ch: i for i, ch in enumerate(vocab)}
        # each class's other case (C/c, O/o...), -1 where it has none
        self.other_case = np.array([index.get(ch.swapcase(), -1) if len(ch) == 1 and ch.swapcase() != ch else -1
                                    for ch in vocab] + [-1], dtype=np.int64)
        # CJK (and fullwidth forms) start at U+2E80; Latin, Greek, maths and arrows lie below
        self.latin_mask = np.array([i == 0 or (len(ch) == 1 and ord(ch) < 0x2E80) for i, ch in enumerate(vocab)],
                                   dtype=np.float32)

    def detect(self, bgr: np.ndarray, limit_side: int = 736, regions: TextRegions | None = None) -> list[np.ndarray]:
        """Text line quadrilaterals (4×2 float arrays) in image pixels.

        rapidocr's own detector call, but for the input: the same resize (short side up to
        ``limit_side``, both sides rounded to multiples of 32), normalised in float32 by
        ``cv2.dnn.blobFromImage`` straight into NCHW; rapidocr normalises in float64 and
        transposes after: 27 ms of a bench figure's 0.22 s of detection, now ~5 ms. With
        ``regions`` (image pixels) the detector runs on a mosaic of those regions only
        (:mod:`crafteditor.text_regions`), unless that would cost as much as the whole image.
        """
        h, w = bgr.shape[:2]
        ratio = limit_side / min(h, w) if min(h, w) < limit_side else 1.0
        size = (int(round(int(w * ratio) / 32) * 32), int(round(int(h * ratio) / 32) * 32))
        if size[0] <= 0 or size[1] <= 0:
            return []
        resized = cv2.resize(bgr, size)

        def infer(image: np.ndarray) -> np.ndarray:
            # (x/255 − 0.5)/0.5, rapidocr's mean and std
            blob = cv2.dnn.blobFromImage(image, scalefactor=2.0 / 255.0, mean=(127.5, 127.5, 127.5), swapRB=False)
            return self.detector.infer(blob)[0]

        preds = None
        if regions is not None:
            preds = region_probabilities(infer, resized, regions.scaled(size[0] / w, size[1] / h),
                                         self.detector.postprocess_op.thresh)
        if preds is None:
            preds = infer(resized)
        boxes, _ = self.detector.postprocess_op(preds, (h, w))
        boxes = self.detector.filter_tag_det_res(boxes, (h, w))
        return [np.asarray(b, dtype=np.float32) for b in boxes]

    def detect_scaled(self, bgr: np.ndarray, scale: float, regions: TextRegions | None = None) -> list[np.ndarray]:
        """Text line quadrilaterals, detected on the image resized by ``scale`` (returned in image
        pixels); ``regions``: where text can be (image pixels), as :meth:`detect` takes them."""
        h, w = bgr.shape[:2]
        if scale < 1:
            small = cv2.resize(bgr, (max(32, round(w * scale)), max(32, round(h * scale))), interpolation=cv2.INTER_AREA)
            sy, sx = small.shape[0] / h, small.shape[1] / w
            quads = self.detect(small, limit_side=min(small.shape[:2]),
                                regions=None if regions is None else regions.scaled(sx, sy))
            return [q / np.array([sx, sy], dtype=np.float32) for q in quads]
        return self.detect(bgr, limit_side=int(round(min(h, w) * scale)), regions=regions)

    def recognize(self, crops: list[np.ndarray], latin: bool, word_width: int = REC_PAD_WIDTH,
                  fold_case: bool = False, fast: bool = False) -> list[tuple[str, float, list[float]]]:
        """Read each BGR line crop: (text, confidence, x centre of each character in crop pixels).

        Crops are padded to ``REC_PAD_WIDTH`` like rapidocr does; crops of a word or more
        (twice as wide as tall) only to ``word_width``, and with a ``word_width`` given, crops of
        two or three glyphs ('20', 'yes') only to ``REC_NARROW_WIDTH``: less padding, same readings.
        ``fold_case``: a character's confidence counts its other case too (see :meth:`_decode`).
        ``fast``: the crops are clean line crops (:func:`_line_crops`) of Latin text, and the
        reader (:mod:`crafteditor.reader`) reads them first; rapidocr reads those it is unsure of.
        """
        out: list[tuple[str, float, list[float]]] = [("", 0.0, [])] * len(crops)
        if not crops:
            return out
        if fast and latin and not fold_case and self.reader is not None:
            quick = self.reader.read(crops)
            rest = [i for i, r in enumerate(quick) if r is None]
            slow = self.recognize([crops[i] for i in rest], latin, word_width) if rest else []
            for i, r in zip(rest, slow):
                quick[i] = r
            return quick  # type: ignore[return-value]
        aspects = [c.shape[1] / max(1, c.shape[0]) for c in crops]
        narrow = REC_NARROW_WIDTH if word_width != REC_PAD_WIDTH else REC_PAD_WIDTH
        padded = [max(a, (word_width if a >= 2 else narrow if a >= LONE_GLYPH_ASPECT else REC_PAD_WIDTH) / REC_HEIGHT)
                  for a in aspects]
        order = [int(i) for i in np.argsort(padded, kind="stable")]
        for batch in _width_batches(order, padded):
            # the same crop twice in a batch (a line read again with a crossing stroke painted
            # out, where the stroke missed the line: 27 of the bench's 379 crops) is read once;
            # the batch keeps its width, so every reading is what it was
            first: dict[tuple, int] = {}
            twin = {i: first.setdefault((crops[i].shape, crops[i].tobytes()), i) for i in batch}
            idx = [i for i in batch if twin[i] == i]
            ratio = max(padded[i] for i in idx)
            inputs = np.stack([self.recognizer.resize_norm_img(crops[i], ratio) for i in idx]).astype(np.float32)
            preds = self.recognizer.session(inputs)[0]  # B×T×C class probabilities
            width = int(REC_HEIGHT * ratio)
            stride = width / preds.shape[1]
            for row, i in enumerate(idx):
                h, w = crops[i].shape[:2]
                resized_w = min(width, int(math.ceil(REC_HEIGHT * w / max(1, h))))
                out[i] = self._decode(preds[row], stride * w / max(1, resized_w), latin, fold_case)
            for i in batch:
                out[i] = out[twin[i]]
        return out

    def _decode(self, probs: np.ndarray, px_per_step: float, latin: bool,
                fold_case: bool = False) -> tuple[str, float, list[float]]:
        if latin:
            probs = probs * self.latin_mask[None, : probs.shape[1]]
        best = probs.argmax(axis=1)
        conf = probs.max(axis=1)
        if fold_case:
            # a lone 'C' is drawn as a 'c' is, larger: the recogniser split it 0.84 / 0.15 and
            # the glyph fell under the lone-glyph bar. Whether it is text is the sum of both
            other = self.other_case[np.minimum(best, len(self.other_case) - 1)]
            conf = conf + np.where(other >= 0, probs[np.arange(len(best)), np.maximum(other, 0)], 0.0)
        chars: list[str] = []
        steps: list[list[int]] = []
        scores: list[float] = []
        prev = 0
        for t, k in enumerate(best):
            if k != 0 and k != prev:
                chars.append(self.vocab[k] if k < len(self.vocab) else "")
                steps.append([t])
                scores.append(float(conf[t]))
            elif k != 0 and k == prev:
                steps[-1].append(t)
            prev = k
        if not chars:
            return "", 0.0, []
        self._times_sign(chars, steps, probs)
        centres = [(float(np.mean(s)) + 0.5) * px_per_step for s in steps]
        return "".join(chars), float(np.mean(scores)), centres

    def _times_sign(self, chars: list[str], steps: list[list[int]], probs: np.ndarray) -> None:
        """An 'x' that is a multiplication sign: ×, at DejaVu's sizes, is an x raised half a
        pixel, and the recogniser's argmax goes either way ('256×256x3': p(x) 0.53, p(×) 0.47;
        '× N layers': 0.47 / 0.25). Where × has some of the probability (≥ 5%: the variable
        in 'Input x' has 0.8%) and the x stands between numbers, or alone before a number or
        a capital ('×24', '× N'), it is ×. Measured: × 0.09–0.69, the letter 0.008–0.017."""
        times = self.vocab.index("×") if "×" in self.vocab else -1
        if times < 0 or "x" not in chars:
            return
        for i, ch in enumerate(chars):
            if ch != "x" or float(probs[steps[i], times].max()) < 0.05:
                continue
            before = chars[i - 1] if i > 0 else " "
            after = chars[i + 1] if i + 1 < len(chars) else " "
            after2 = chars[i + 2] if i + 2 < len(chars) else " "
            # (the recogniser may drop the space: the same '× N layers' rendered in another
            # process, its anti-aliasing a shade apart, read 'xN layers', p(×) 0.09)
            if (before.isdigit() or before == " ") and (
                    after.isdigit() or (after.isupper() and before == " ")
                    or (after == " " and (after2.isdigit() or after2.isupper()))):
                chars[i] = "×"


def _width_batches(order: list[int], padded: list[float]) -> list[list[int]]:
    """Crops sorted by padded aspect ratio → batches of like widths.

    Every crop in a batch is padded to its widest, and the recogniser's cost is about linear
    in batch × width (7 ms per 96 px crop), a little worse past ~1,600 px per batch: batches
    of 8 in sorted order spent 16% of the bench's recognition on padding. A batch now holds
    crops within 15% of its narrowest, at most 4 and 1,600 px; readings on the bench unchanged.
    """
    batches: list[list[int]] = []
    for i in order:
        b = batches[-1] if batches else None
        if (b is not None and len(b) < REC_BATCH and padded[i] <= 1.15 * padded[b[0]]
                and (len(b) + 1) * padded[i] * REC_HEIGHT <= REC_BATCH_PX):
            b.append(i)
        else:
            batches.append([i])
    return batches


def _quiet_session(session, threads: int):
    """The same model, its element-wise nodes fused (:mod:`crafteditor.onnx_fusion`), in a
    session whose intra-op threads do not spin while idle (the session itself where onnxruntime
    does not say which file it loaded)."""
    import onnxruntime as ort

    path = getattr(session, "_model_path", None)
    if not isinstance(path, str):
        return session
    opts = session_options(threads)
    try:
        return ort.InferenceSession(fused_model(path), sess_options=opts, providers=["CPUExecutionProvider"])
    except Exception:  # a damaged cached model must not stop the OCR: run the model as shipped
        return ort.InferenceSession(path, sess_options=opts, providers=["CPUExecutionProvider"])



def _available_cores() -> int:
    import os

    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not on Linux
        return max(1, os.cpu_count() or 1)


_ENGINES: dict[int, OcrEngine] = {}
_ENGINES_LOCK = threading.Lock()


def get_engine(threads: int = 0) -> OcrEngine:
    """The process's OCR engine (loaded once: ~0.3 s)."""
    with _ENGINES_LOCK:
        if threads not in _ENGINES:
            _ENGINES[threads] = OcrEngine(threads)
        return _ENGINES[threads]


# -- font metrics -------------------------------------------------------------------------

_FONT_LOCK = threading.Lock()


@lru_cache(maxsize=None)
def _font(bold: bool):
    """DejaVu Sans (or Bold), opened lazily: (glyph set, codepoint → glyph name, units per em, advances).

    Opened once per face and process: with ``maxsize=2`` and three cache keys (``_font()``,
    ``_font(False)``, ``_font(True)``) the cache evicted on every text run, and reopening the
    fonts cost 0.14 s per figure (cProfile over the bench's 21 figures: 3.0 s of 30.6 s).
    """
    from fontTools.ttLib import TTFont

    font = TTFont(str(font_path(bold)), lazy=True)
    return font.getGlyphSet(), font.getBestCmap(), font["head"].unitsPerEm, font["hmtx"].metrics


@lru_cache(maxsize=4096)
def _glyph_bounds(cp: int) -> tuple[float, float] | None:
    """Vertical ink extent (yMin, yMax) of one DejaVu Sans glyph, in ems (None: no glyph or no ink).

    Per character on demand: drawing the whole font up front cost 3.6 s per process
    (profiled on a 1188×672 diagram), more than the OCR of a figure.
    """
    from fontTools.pens.boundsPen import BoundsPen

    glyphs, cmap, upem, _ = _font(False)
    name = cmap.get(cp)
    if name is None or cp > 0x2FFF:
        return None
    pen = BoundsPen(glyphs)
    with _FONT_LOCK:  # a lazily loaded font decompiles its tables on first touch
        glyphs[name].draw(pen)
    if pen.bounds is None:
        return None
    return pen.bounds[1] / upem, pen.bounds[3] / upem


@lru_cache(maxsize=4096)
def _glyph_x_extent(cp: int, bold: bool) -> tuple[float, float, float] | None:
    """(advance, ink xMin, ink xMax) of one DejaVu Sans glyph in ems (None: no glyph; no ink: xMin > xMax)."""
    from fontTools.pens.boundsPen import BoundsPen

    glyphs, cmap, upem, hmtx = _font(bold)
    name = cmap.get(cp)
    if name is None or cp > 0x2FFF or name not in hmtx:
        return None
    pen = BoundsPen(glyphs)
    with _FONT_LOCK:
        glyphs[name].draw(pen)
    advance = hmtx[name][0] / upem
    if pen.bounds is None:
        return advance, 1.0, 0.0
    return advance, pen.bounds[0] / upem, pen.bounds[2] / upem


def ink_width_em(text: str, bold: bool = False) -> float | None:
    """Horizontal ink extent of one line of ``text`` in ems (DejaVu Sans, no kerning; None: unknown glyphs)."""
    pen_x, left, right = 0.0, None, None
    for ch in text:
        g = _glyph_x_extent(ord(ch), bold)
        if g is None:
            return None
        advance, x0, x1 = g
        if x0 <= x1:
            left = pen_x + x0 if left is None else left
            right = pen_x + x1
        pen_x += advance
    if left is None or right is None:
        return None
    return right - left


def size_and_weight_from_width(text: str, ink_w: float, font_px: float, bold: bool) -> tuple[float, bool]:
    """(font size, bold) that make ``text`` as wide as its ink, where that agrees with the height's estimate.

    The ink height of a line is a few pixels quantised by hinting (one pixel is 6% of a
    10 px label at 150 dpi); its width spans many glyphs and pins the size to about 1%.
    A width far from the height's estimate means the reading is not the drawn text
    (a missed glyph, a box edge in the crop) or the font is not DejaVu: keep the height's.
    Bold glyphs are ~13% wider, so a line the stroke test called bold whose width fits
    the regular face (and not the bold one) is regular: the stroke test errs on dark
    anti-aliasing, the width does not.
    """
    if len(text.replace(" ", "")) < 4:
        return font_px, bold
    em_regular, em_bold = ink_width_em(text, False), ink_width_em(text, True)
    if not em_regular or not em_bold:
        return font_px, bold
    off_regular = abs(ink_w / em_regular / font_px - 1.0)
    off_bold = abs(ink_w / em_bold / font_px - 1.0)
    if bold and off_regular <= 0.04 and off_bold >= 0.09:
        bold = False
    by_width = ink_w / (em_bold if bold else em_regular)
    return (by_width if abs(by_width / font_px - 1.0) <= 0.12 else font_px), bold


def ink_extent_em(text: str) -> tuple[float, float]:
    """(lowest, highest) ink of ``text`` relative to the baseline, in ems (DejaVu Sans)."""
    lo, hi = [], []
    for ch in text:
        b = _glyph_bounds(ord(ch))
        if b is not None:
            lo.append(b[0])
            hi.append(b[1])
    if not lo:
        return -0.2, 0.73
    return min(lo), max(hi)


# -- reading a figure ---------------------------------------------------------------------

@dataclass
class _Line:
    mask: np.ndarray  # glyph mask of the line, in region coordinates
    y0: int  # region-relative ink box
    x0: int
    vertical: bool


def read_text(rgb: np.ndarray, paints: Paints, config: Config) -> list[TextRun]:
    """All text runs in the image (nothing is modified)."""
    engine = get_engine(config.ocr_threads)
    latin = config.ocr_scripts == "latin"
    bgr = cv2.cvtColor(np.ascontiguousarray(rgb), cv2.COLOR_RGB2BGR)  # a strided numpy copy: 5 ms at 150 dpi
    jobs = line_jobs(rgb, bgr, engine, config.ocr_regions)
    # round 1 reads each line at its likeliest angle; round 2 tries the other angles of a
    # rotated line only where round 1 was unsure (most vertical text is read at once)
    fast = config.ocr_reader
    first = engine.recognize([job[1][0][0] for job in jobs], latin, REC_WORD_WIDTH, fast=fast)
    unsure = [j for j, job in enumerate(jobs) if len(job[1]) > 1 and first[j][1] < SURE_READING]
    second = engine.recognize([c for j in unsure for c, _ in jobs[j][1][1:]], latin, REC_WORD_WIDTH, fast=fast)
    results: list[list[tuple[str, float, list[float]]]] = [[r] for r in first]
    k = 0
    for j in unsure:
        n_more = len(jobs[j][1]) - 1
        results[j] += second[k:k + n_more]
        k += n_more
    runs: list[TextRun] = []
    for (bg, crops, (y0, x0), line, region), cands in zip(jobs, results):
        # upright text wins ties: a lone '5' reads as well sideways
        best = max(range(len(cands)), key=lambda i: cands[i][1] + (0.03 if crops[i][1] == 0 else 0.0))
        text, conf, centres = cands[best]
        if not text.strip() or conf < config.ocr_min_confidence or _drawn_arrow(text):
            continue
        crop, angle = crops[best]
        run = _make_run(text, conf, centres, crop, line, angle, region, bg, (y0, x0), "det")
        if run is not None:
            runs.append(run)
    runs = _extend_rotated(_join_rotated(_dedupe(runs)), rgb, engine, latin)
    runs += _read_lone_glyphs(rgb, paints, runs, engine, latin, config)
    return runs


def line_jobs(rgb: np.ndarray, bgr: np.ndarray, engine: OcrEngine, regions: bool = True) -> list[tuple]:
    """The detector's lines, each as (background, crops at its plausible angles, region origin
    (y0, x0), the line, its region): what :func:`read_text` recognises (and what the reader's
    training pages are cut into, :mod:`crafteditor.training.reader_data`). ``regions``: detect on a mosaic
    of the places text can be (:mod:`crafteditor.text_regions`), not the whole image."""
    h, w = rgb.shape[:2]
    gray = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    dark = dark_components(gray)
    quads = engine.detect_scaled(bgr, detection_scale(rgb, dark), find_text_regions(gray, dark) if regions else None)
    rects = []
    for q in quads:
        x0 = max(0, int(math.floor(q[:, 0].min())) - 2)
        y0 = max(0, int(math.floor(q[:, 1].min())) - 2)
        x1 = min(w, int(math.ceil(q[:, 0].max())) + 3)
        y1 = min(h, int(math.ceil(q[:, 1].max())) + 3)
        if x1 - x0 >= 3 and y1 - y0 >= 3:
            rects.append((x0, y0, x1, y1))
    jobs: list[tuple] = []
    for x0, y0, x1, y1 in _merge_vertical(rects):
        region = rgb[y0:y1, x0:x1]
        bg = _region_background(region)
        glyph, crossing = _glyph_mask(region, bg)
        for line in _split_lines(glyph):
            jobs.append((bg, _line_crops(region, line, bg), (y0, x0), line, region))
        if crossing.any():
            # the line is no part of the text, so it is painted out of the crop (and of the ink
            # the stroke-width and colour estimates look at) — but where it runs down a glyph's
            # stem that loses the glyph ('layel's'): both are read, and _dedupe keeps the more
            # confident reading of the line
            region = region.copy()
            region[crossing] = bg
            for line in _split_lines(glyph):
                jobs.append((bg, _line_crops(region, line, bg), (y0, x0), line, region))
    return jobs


def _extend_rotated(runs: list[TextRun], rgb: np.ndarray, engine: OcrEngine, latin: bool) -> list[TextRun]:
    """A rotated line whose detector box stopped short of its first or last letters (a y title
    'Accuracy' came back 'curacy'): where glyph ink goes on along the line's column past an
    end, within a letter gap, the longer box is read again and kept if it reads more, as well."""
    H, W = rgb.shape[:2]
    out = []
    for r in runs:
        if r.angle not in (-90.0, 90.0) or r.glyphs is None:
            out.append(r)
            continue
        x0, x1 = max(0, int(r.x) - 2), min(W, int(math.ceil(r.right)) + 2)
        y0, y1 = int(r.y), int(math.ceil(r.bottom))
        band = rgb[:, x0:x1]
        bg = _region_background(rgb[max(0, y0 - 4):min(H, y1 + 4), x0:x1])
        dist = distances(band, bg)
        inked = (dist > 60).any(axis=1)
        gap = max(2, int(0.5 * r.w))
        top, bottom = y0, y1
        while top > 0 and inked[max(0, top - gap):top].any():
            top = max(0, top - gap) + int(np.flatnonzero(inked[max(0, top - gap):top])[0])
        while bottom < H and inked[bottom:min(H, bottom + gap)].any():
            bottom = bottom + int(np.flatnonzero(inked[bottom:min(H, bottom + gap)])[-1]) + 1
        if (y0 - top) + (bottom - y1) < 0.3 * r.w or bottom - top > 4 * (y1 - y0):
            out.append(r)
            continue
        region = rgb[top:bottom, x0:x1]
        crop = np.rot90(region, k=-1 if r.angle == -90.0 else 1)
        text, conf, _ = engine.recognize([cv2.cvtColor(np.ascontiguousarray(crop), cv2.COLOR_RGB2BGR)], latin)[0]
        if len(text.strip()) <= len(r.text.strip()) or conf < r.confidence - 0.1:
            out.append(r)
            continue
        glyph, _ = _glyph_mask(region, bg)
        out.append(replace(r, text=text.strip(), x=float(x0), y=float(top), w=float(x1 - x0), h=float(bottom - top),
                           confidence=conf, glyphs=glyph))
    return out


def _join_rotated(runs: list[TextRun]) -> list[TextRun]:
    """A rotated line the detector cut in two along its length is one line: two runs of one
    angle in one column, end to end (a y-axis title 'mAP' came back as 'AP' and a loose 'm').
    Read bottom to top at -90°, top to bottom at +90°; a space where the gap is a word gap."""
    out = list(runs)
    changed = True
    while changed:
        changed = False
        for i, a in enumerate(out):
            if a.angle not in (-90.0, 90.0):
                continue
            for j, b in enumerate(out):
                if j == i or b.angle != a.angle:
                    continue
                overlap = min(a.right, b.right) - max(a.x, b.x)
                gap = b.y - a.bottom  # b below a
                if overlap < 0.6 * min(a.w, b.w) or not -1 <= gap <= 0.8 * max(a.w, b.w) \
                        or abs(a.font_px - b.font_px) > 0.25 * max(a.font_px, b.font_px):
                    continue
                first, second = (b, a) if a.angle == -90.0 else (a, b)
                space = " " if gap > 0.3 * max(a.w, b.w) else ""
                x0, y0 = min(a.x, b.x), a.y
                x1, y1 = max(a.right, b.right), b.bottom
                glyphs = np.zeros((int(math.ceil(y1 - y0)), int(math.ceil(x1 - x0))), bool)
                for r in (a, b):
                    gy, gx = int(round(r.y - y0)), int(round(r.x - x0))
                    hh, ww = r.glyphs.shape
                    glyphs[gy:gy + hh, gx:gx + ww] |= r.glyphs[:glyphs.shape[0] - gy, :glyphs.shape[1] - gx]
                out[i] = replace(first, text=first.text + space + second.text, x=x0, y=y0, w=x1 - x0, h=y1 - y0,
                                 font_px=(a.font_px + b.font_px) / 2, confidence=min(a.confidence, b.confidence),
                                 glyphs=glyphs)
                del out[j]
                changed = True
                break
            if changed:
                break
    return out


def detection_scale(rgb: np.ndarray, dark: np.ndarray | None = None) -> float:
    """How much to resize the image for the text detector: until the typical glyph (median
    height of the dark components of glyph size) is ``DETECT_GLYPH_HEIGHT`` px tall.

    The detector used to see every small figure upscaled to a short side of 736 px (at most
    2×, never beyond 2000 px on the long side), whatever its glyphs: a 150 dpi chart (15 px
    glyphs) went in at 1.44×, a narrow 150 dpi diagram at 1.84×. That bound stays, and the
    glyph height now caps it (never below 1×): on ``crafteditor bench -n 6 --examples``
    26% fewer detector pixels for the same words, boxes, arrows and chart values. What the
    detector then missed were lone glyphs on a node's fill (the '+' of a summation node), which
    the lone-glyph pass now reads. Large figures are shrunk the same way (to 0.25× at most): on
    generated 300 dpi figures (``--dpi 300``) the same words, boxes and arrows for 40% less CPU.
    """
    h, w = rgb.shape[:2]
    short = min(h, w)
    limit = min(max(736, short), 2000 * short / max(h, w), max(2 * short, 64))
    if dark is None:
        dark = dark_components(cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY))
    glyph_h = typical_glyph_height(dark)
    by_glyph = None if glyph_h is None else DETECT_GLYPH_HEIGHT / glyph_h
    if limit > short:
        up = limit / short
        return up if by_glyph is None else max(1.0, min(up, by_glyph))
    return 1.0 if by_glyph is None else float(np.clip(by_glyph, 0.25, 1.0))


def _drawn_arrow(text: str) -> bool:
    """A reading made only of arrow and rule glyphs is a drawn arrow or line inside the box, not text
    (a dashed arrow read sideways came back as '→' at 0.85)."""
    t = text.replace(" ", "")
    return bool(t) and all(ch in "→←↑↓↔⟶⟵-–—|_" for ch in t)


def _merge_vertical(rects: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """Join detector boxes that split one rotated line (a y-axis title) into words."""
    rects = list(rects)
    merged = True
    while merged:
        merged = False
        for i in range(len(rects)):
            for j in range(i + 1, len(rects)):
                a, b = rects[i], rects[j]
                wa, wb = a[2] - a[0], b[2] - b[0]
                tall_a, tall_b = (a[3] - a[1]) >= 1.4 * wa, (b[3] - b[1]) >= 1.4 * wb
                similar = 0.7 <= wa / max(1, wb) <= 1.4
                overlap_x = min(a[2], b[2]) - max(a[0], b[0])
                gap_y = max(a[1], b[1]) - min(a[3], b[3])
                # a rotated word split into letters: small boxes stacked almost touching (not
                # two wide lines: a title over a node's label had been read as one crop, as nothing)
                squat = wa <= 2 * (a[3] - a[1]) and wb <= 2 * (b[3] - b[1])
                letters = similar and squat and overlap_x >= 0.8 * min(wa, wb) and gap_y <= 0.3 * max(wa, wb)
                if not letters and (not (tall_a or tall_b) or not (tall_a and tall_b or similar)):
                    continue
                if overlap_x >= 0.6 * min(wa, wb) and gap_y <= 0.8 * max(wa, wb):
                    rects[i] = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
                    del rects[j]
                    merged = True
                    break
            if merged:
                break
    return rects


def _region_background(region: np.ndarray) -> np.ndarray:
    border = np.concatenate([region[0], region[-1], region[:, 0], region[:, -1]]).reshape(-1, 3)
    packed = (border[:, 0].astype(np.int32) << 16) | (border[:, 1].astype(np.int32) << 8) | border[:, 2]
    vals, counts = np.unique(packed, return_counts=True)
    v = int(vals[counts.argmax()])
    return np.array([(v >> 16) & 255, (v >> 8) & 255, v & 255], dtype=np.uint8)


def _glyph_mask(region: np.ndarray, bg: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Pixels of glyphs: far enough from the local background, minus strokes that cross the box;
    and the pixels of a vertical line drawn across the glyphs (empty when there is none)."""
    dist = distances(region, bg)
    contrast = float(np.percentile(dist, 99.5)) if dist.size else 0.0
    ink = dist > max(30.0, 0.35 * contrast)
    mask = _glyph_components(ink)
    # a vertical line drawn across the label (an arrow through a group's title) joins the
    # glyphs it touches into one component crossing the box, dropped whole: take the line out
    # and look again, so those glyphs are read (not 'gr dients') and erased, and the line is
    # left whole for the line finder (it had taken the unread 'a' for an arrowhead)
    H, W = ink.shape
    rest = ink & ~mask
    none = np.zeros_like(ink)
    if not mask.any() or not rest.any():
        return mask, none
    # a line: columns of dropped ink with a vertical run across the box or 2.5 glyphs long (the
    # detector's box may hold two lines, or the line end in an arrowhead inside it)
    n, _, stats, _ = find_blobs(mask)
    glyph_h = float(np.median(stats[1:, 3]))
    cols = _longest_runs(rest) >= min(0.9 * H, 2.5 * glyph_h)
    if not cols.any() or cols.sum() > 4:
        return mask, none
    lines = np.zeros_like(ink)
    lines[:, cols] = True
    # only glyph-sized pieces the line touched, within the kept glyphs' rows, come back (not a
    # frame's corner or a box's top, not the arrowhead the line ends in below the label)
    ys = np.flatnonzero(mask.any(axis=1))
    band = np.zeros_like(ink)
    band[int(ys[0]):int(ys[-1]) + 1] = True
    pieces = rest & ~lines & band
    near = cv2.dilate(lines.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    n, lab, stats, _ = find_blobs(pieces)
    for i in range(1, n):
        x, y, cw, ch, _ = stats[i]
        if x > 0 and x + cw < W and ch <= 1.5 * glyph_h and cw <= 2 * glyph_h:
            piece = lab == i
            if (piece & near).any():
                mask |= piece
    return mask, lines & rest


def _longest_runs(mask: np.ndarray) -> np.ndarray:
    """The longest vertical run of True in each column of ``mask``."""
    out = np.zeros(mask.shape[1], int)
    for x in np.flatnonzero(mask.any(axis=0)):
        edges = np.flatnonzero(np.diff(np.concatenate(([0], mask[:, x].astype(np.int8), [0]))))
        out[x] = int((edges[1::2] - edges[0::2]).max())
    return out


def _glyph_components(ink: np.ndarray) -> np.ndarray:
    """The components of ``ink`` that do not run into the detector box's sides."""
    n, lab, stats, _ = find_blobs(ink)
    H, W = ink.shape
    x, y, cw, ch = stats[:, 0], stats[:, 1], stats[:, 2], stats[:, 3]
    sides = (x == 0).astype(int) + (y == 0) + (x + cw >= W) + (y + ch >= H)
    inside = [i for i in range(1, n) if sides[i] == 0]
    # the long side of the glyphs that stand clear of the box's edges
    glyph_long = float(np.median(np.maximum(cw[inside], ch[inside]))) if inside else None
    keep = np.zeros(n, dtype=bool)
    for i in range(1, n):
        # the detector's box has a margin around the glyphs: what touches its edge is usually
        # a neighbouring stroke (a box border, an axis, a diamond's slanted side) — unless it is
        # a glyph filling much of a tight box (upright or rotated), touching one side only
        if sides[i] >= 2 or (sides[i] == 1 and ch[i] < 0.45 * H and cw[i] < 0.45 * W):
            continue
        long, short = max(cw[i], ch[i]), min(cw[i], ch[i])
        if sides[i] == 1 and glyph_long is not None and long >= 3 * glyph_long and short <= max(4, 0.1 * long):
            # a stroke many glyphs long along the box's side: the y axis beside a column of tick
            # labels, whose boxes had been joined into one (matplotlib's classic style sets its
            # labels close to the axis: the column was read as one rotated line, '8..2...68')
            continue
        keep[i] = True
    return keep[lab]


def _bands(profile: np.ndarray) -> list[tuple[int, int]]:
    on = profile > 0
    bands = []
    start = None
    for i, v in enumerate(on):
        if v and start is None:
            start = i
        elif not v and start is not None:
            bands.append((start, i))
            start = None
    if start is not None:
        bands.append((start, len(on)))
    return bands


def _split_lines(glyph: np.ndarray) -> list[_Line]:
    """One detector box → its text lines (stacked lines are split; tall single runs are vertical)."""
    ys, xs = np.nonzero(glyph)
    if ys.size == 0:
        return []
    y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    ink = glyph[y0:y1, x0:x1]
    bh, bw = ink.shape
    rows = _merge_close(_bands(ink.sum(axis=1)), gap=0)
    if bh >= 1.3 * bw:
        # tall: stacked short lines (tick labels), one rotated line, or one upright glyph
        gaps = [rows[i + 1][0] - rows[i][1] for i in range(len(rows) - 1)]
        heights = [b - a for a, b in rows]
        # stacked labels stand apart; the letters of a rotated word almost touch
        apart = bool(gaps) and float(np.median(gaps)) >= 0.6 * float(np.median(heights))
        if len(rows) >= 2 and apart and all((b - a) * 0.55 <= bw for a, b in rows) and _even(rows):
            return [_row_line(ink, a, b, y0, x0) for a, b in rows]
        return [_Line(ink, y0, x0, True)]
    tall = max(b - a for a, b in rows)
    if len(rows) >= 2 and all(b - a >= 0.45 * tall for a, b in rows):
        return [_row_line(ink, a, b, y0, x0) for a, b in rows]
    return [_Line(ink, y0, x0, False)]


def _row_line(ink: np.ndarray, a: int, b: int, y0: int, x0: int) -> _Line:
    """Rows a:b of a box's glyph mask as a line of its own, cut to its own columns: a group's
    title and the label of the node under it in one detector box had both taken the wider
    line's extent ('Embedding layer' was placed 19 px left and not taken as its node's label)."""
    cols = np.flatnonzero(ink[a:b].any(axis=0))
    c0, c1 = int(cols[0]), int(cols[-1]) + 1
    return _Line(ink[a:b, c0:c1], y0 + a, x0 + c0, False)


def _merge_close(bands: list[tuple[int, int]], gap: int) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for a, b in bands:
        if out and a - out[-1][1] <= gap:
            out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out


def _even(rows: list[tuple[int, int]]) -> bool:
    heights = [b - a for a, b in rows]
    return max(heights) <= 1.6 * max(1, min(heights))


def _line_crops(region: np.ndarray, line: _Line, bg: np.ndarray) -> list[tuple[np.ndarray, float]]:
    """BGR crops for the recogniser, one per plausible reading angle; non-glyph pixels painted over."""
    lh, lw = line.mask.shape
    patch = region[line.y0:line.y0 + lh, line.x0:line.x0 + lw].copy()
    # keep the anti-aliased rims of the glyphs, drop everything else
    keep = cv2.dilate(line.mask.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    patch[~keep] = bg
    short = min(lh, lw) if not line.vertical else lw
    pad = max(3, int(round(0.25 * short)))
    patch = cv2.copyMakeBorder(patch, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=[int(v) for v in bg])
    bgr = np.ascontiguousarray(patch[:, :, ::-1])
    if not line.vertical:
        return [(bgr, 0.0)]
    # bottom-to-top text turns upright clockwise; top-to-bottom counter-clockwise
    turned = [(np.ascontiguousarray(np.rot90(bgr, k=-1)), -90.0), (np.ascontiguousarray(np.rot90(bgr, k=1)), 90.0)]
    if lh < 2.2 * lw:  # a lone glyph or two is taller than wide without being rotated
        turned.insert(0, (bgr, 0.0))
    return turned


def _make_run(text: str, conf: float, centres: list[float], crop: np.ndarray, line: _Line, angle: float,
              region: np.ndarray, bg: np.ndarray, origin: tuple[int, int], source: str) -> TextRun | None:
    if angle == 0 and centres:
        text, centres, line = _drop_stray_quote(text, centres, crop, line)
        line = _trim_to_text(line, centres, crop, text)
        if line is None or not text.strip():
            return None
    mask = line.mask
    turn = 0 if angle == 0 else (-1 if angle == -90 else 1)
    upright = np.rot90(mask, k=turn) if turn else mask
    pad = (crop.shape[0] - upright.shape[0]) // 2
    ys = np.nonzero(upright.any(axis=1))[0]
    # the outermost rows are only partly inked (anti-aliasing): they add ~half a pixel to the height
    ink_h = max(1.0, float(ys[-1] - ys[0] + 1) - 0.45)
    lo, hi = ink_extent_em(text.replace(" ", ""))
    font_px = ink_h / max(0.3, hi - lo)
    text = _restore_symbols(text, centres, upright, pad, font_px)
    text = _restore_zeros(text, centres, upright, pad, font_px)
    text = _restore_dashes(text, centres, upright, pad, font_px)
    text = _restore_case(text, centres, upright, pad)
    text = _restore_spaces(text, centres, upright, pad, font_px).strip()
    if not text:
        return None
    lh, lw = mask.shape
    patch = region[line.y0:line.y0 + lh, line.x0:line.x0 + lw]
    color = darkest_color(patch, mask, bg.astype(np.float32))
    color = np.asarray(color if color is not None else (0, 0, 0), dtype=np.float32)
    bold = _is_bold(mask, _coverage(patch, mask, bg.astype(np.float32), color), font_px)
    xs = np.nonzero(upright.any(axis=0))[0]
    font_px, bold = size_and_weight_from_width(text, max(1.0, float(xs[-1] - xs[0] + 1) - 0.45), font_px, bold)
    baseline_up = ys[0] + hi * font_px  # baseline in upright line coordinates
    oy, ox = origin
    gx, gy = ox + line.x0, oy + line.y0
    if angle == 0:
        baseline = gy + baseline_up
    elif angle == -90:
        # upright = mask turned clockwise: upright row r is mask column r
        baseline = gx + baseline_up
    else:
        baseline = gx + (lw - baseline_up)
    return TextRun(
        text=text, x=float(gx), y=float(gy), w=float(lw), h=float(lh), angle=angle,
        font_px=float(font_px), bold=bold,
        color=tuple(int(round(float(v))) for v in color),  # type: ignore[arg-type]
        confidence=float(conf), baseline=float(baseline), glyphs=mask.copy(), source=source,
    )


QUOTES = "'`‘’"


def _under(cx: float, n: int, stats: np.ndarray, min_h: float = 0) -> list[int]:
    """The components (OpenCV stats labels) whose columns span ``cx`` (±1 px), at least ``min_h`` tall."""
    x, w, h = stats[1:n, 0], stats[1:n, 2], stats[1:n, 3]
    return (np.flatnonzero((x - 1 <= cx) & (cx <= x + w + 1) & (h >= min_h)) + 1).tolist()


def _drop_stray_quote(text: str, centres: list[float], crop: np.ndarray, line: _Line) -> tuple[str, list[float], _Line]:
    """A quote mark read at a line's end whose ink is no quote mark: an axis tick beside a
    category label ('ResNet '' for 'ResNet' and the stub of the tick by the frame). A quote's
    glyph is taller than wide, a fifth of an em or more, and starts in the line's top third; a
    tick is a level bar or a stub in the middle. The character, its centre and its ink are
    dropped (the ink would be erased with the text)."""
    if len(text) < 3 or len(centres) != len(text):
        return text, centres, line
    pad = (crop.shape[0] - line.mask.shape[0]) // 2
    n, lab, stats, _ = find_blobs(line.mask)
    for i in (len(text) - 1, 0):
        if text[i] not in QUOTES:
            continue
        hit = _under(centres[i] - pad, n, stats)
        if len(hit) != 1:
            continue
        _x, y, w, h, _a = stats[hit[0]]
        lh = line.mask.shape[0]  # about an em
        if w < h and h >= 0.2 * lh and y <= 0.3 * lh:  # a quote mark's ink
            continue
        mask = line.mask & (lab != hit[0])
        xs = np.flatnonzero(mask.any(axis=0))
        if xs.size == 0:
            continue
        x0, x1 = int(xs[0]), int(xs[-1]) + 1
        j = i - 1 if i else 1  # a space that set it apart goes with it
        keep = [k for k in range(len(text)) if k != i and not (k == j and text[j] == " ")]
        # only columns are cut (the rows, and so the crop's padding above the ink, stay): the
        # centres, in crop pixels, move by the columns cut on the left
        line = _Line(mask[:, x0:x1], line.y0, line.x0 + x0, line.vertical)
        return "".join(text[k] for k in keep), [centres[k] - x0 for k in keep], line
    return text, centres, line


def _trim_to_text(line: _Line, centres: list[float], crop: np.ndarray, text: str) -> _Line | None:
    """Drop ink the recogniser did not read: an arrowhead or stroke end inside the detector's
    box lies beyond the first or last character (and must not be erased with the text)."""
    mask = line.mask
    lh, lw = mask.shape
    pad = (crop.shape[0] - lh) // 2
    em = lh  # the line's ink height: about one em for mixed text
    lo = centres[0] - pad - 0.9 * em
    hi = centres[-1] - pad + 0.9 * em
    n, lab, stats, _ = find_blobs(mask)
    keep = np.zeros(n, bool)
    for i in range(1, n):
        x, _, w, _, _ = stats[i]
        keep[i] = x + w > lo and x < hi
    trimmed = keep[lab]
    if not trimmed.any():
        return None
    if trimmed.sum() == mask.sum():
        return line
    ys, xs = np.nonzero(trimmed)
    y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    return _Line(trimmed[y0:y1, x0:x1], line.y0 + int(y0), line.x0 + int(x0), line.vertical)


def split_wide_gaps(run: TextRun, min_gap_em: float = 0.6) -> list[TextRun]:
    """A horizontal run cut where its ink has a gap of ``min_gap_em`` or more between words,
    each piece with the words whose ink width fits it: two category labels set close together
    ('Mamba ResNet') that the detector read as one line. ``[run]`` where there is no such gap or
    the words cannot be shared out between the pieces."""
    words = run.text.split(" ")
    if run.angle != 0 or not 2 <= len(words) <= 12:  # (the word cuts are tried exhaustively)
        return [run]
    cols = run.glyphs.any(axis=0)
    ink = np.flatnonzero(cols)
    if ink.size == 0:
        return [run]
    edges = np.flatnonzero(np.diff(cols[ink[0]:ink[-1] + 1].astype(np.int8)))
    # (start, end) of each gap, in mask columns
    gaps = [(int(ink[0] + a + 1), int(ink[0] + b + 1)) for a, b in zip(edges[0::2], edges[1::2])]
    wide = [g for g in gaps if g[1] - g[0] >= min_gap_em * run.font_px]
    if not wide or len(wide) >= len(words):
        return [run]
    bounds = [int(ink[0])] + [c for g in wide for c in g] + [int(ink[-1]) + 1]
    pieces = list(zip(bounds[0::2], bounds[1::2]))  # ink columns of each piece
    # share the words out in order so each piece's text is as wide as its ink
    widths = [ink_width_em(w, run.bold) for w in words]
    if any(w is None for w in widths):
        return [run]
    space = (ink_width_em("a a", run.bold) or 0.0) - 2 * (ink_width_em("a", run.bold) or 0.0)
    best: tuple[float, list[int]] | None = None
    for cut in itertools.combinations(range(1, len(words)), len(pieces) - 1):
        parts = [list(range(a, b)) for a, b in zip((0,) + cut, cut + (len(words),))]
        cost = 0.0
        for ws, (c0, c1) in zip(parts, pieces):
            em = sum(widths[i] for i in ws) + space * (len(ws) - 1)  # type: ignore[misc]
            cost += abs(em * run.font_px - (c1 - c0)) / max(1, c1 - c0)
        if best is None or cost < best[0]:
            best = (cost, list(cut))
    if best is None or best[0] / len(pieces) > 0.25:
        return [run]
    cut = best[1]
    out = []
    for (a, b), (c0, c1) in zip(zip([0] + cut, cut + [len(words)]), pieces):
        rows = np.flatnonzero(run.glyphs[:, c0:c1].any(axis=1))
        r0, r1 = int(rows[0]), int(rows[-1]) + 1
        out.append(replace(run, text=" ".join(words[a:b]), x=run.x + c0, y=run.y + r0, w=float(c1 - c0),
                           h=float(r1 - r0), glyphs=run.glyphs[r0:r1, c0:c1].copy()))
    return out


def _coverage(patch: np.ndarray, mask: np.ndarray, bg: np.ndarray, color: np.ndarray) -> np.ndarray:
    """How much of each pixel the glyphs cover (0..1), from its place between background and text colour."""
    span = float(np.linalg.norm(color - bg))
    if span < 1:
        return mask.astype(np.float32)
    dist = distances(patch, bg)
    near = cv2.dilate(mask.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    return np.where(near, np.clip(dist / span, 0.0, 1.0), 0.0).astype(np.float32)


def _restore_spaces(text: str, centres: list[float], upright: np.ndarray, pad: int, font_px: float) -> str:
    """Insert the word spaces the recogniser dropped, where the ink has a word-sized gap."""
    if len(text) < 2 or len(centres) != len(text):
        return text
    cols = upright.any(axis=0)
    # letters sit ≤ 0.2 em apart (i–n in DejaVu); a word space is ~0.32 em plus bearings
    threshold = max(2.0, 0.27 * font_px)
    out = [text[0]]
    for i in range(1, len(text)):
        a = centres[i - 1] - pad
        b = centres[i] - pad
        if text[i] != " " and text[i - 1] != " " and b > a:
            lo, hi = max(0, int(a)), min(len(cols), int(math.ceil(b)))
            run = _longest_false(cols[lo:hi])
            if run >= threshold:
                out.append(" ")
        out.append(text[i])
    return "".join(out)


# Ink widths of the dashes in DejaVu Sans (em): hyphen 0.26, en dash 0.40, minus 0.63, em dash
# 0.90. The recogniser knows only '-' and '—', so '1–2' came back as '1-2' (FIELD-NOTES font).
_DASHES = ((0.33, "-"), (0.52, "–"), (0.78, "−"), (math.inf, "—"))


def _per_glyph(text: str, centres: list[float], upright: np.ndarray, pad: int, font_px: float, chars: str,
               fix) -> str:
    """``text`` with each character in ``chars`` replaced by ``fix(ch, cx, components, font_px)``
    where that returns one: cx is the character's centre in the upright line mask, components
    are OpenCV's (n, labels, stats) of the mask."""
    if len(centres) != len(text) or not any(ch in chars for ch in text) or font_px < 6:
        return text
    comps = find_blobs(upright)[:3]
    out = list(text)
    for i, ch in enumerate(text):
        if ch in chars:
            out[i] = fix(ch, centres[i] - pad, comps, font_px) or ch
    return "".join(out)


def _restore_dashes(text: str, centres: list[float], upright: np.ndarray, pad: int, font_px: float) -> str:
    """Tell hyphen, en dash, minus and em dash apart by the width of the bar's ink."""
    return _per_glyph(text, centres, upright, pad, font_px, "-–—−", _dash)


def _dash(ch: str, cx: float, comps, font_px: float) -> str | None:
    n, _, stats = comps
    best = None
    for k in range(1, n):
        x, _, w, h, _ = stats[k]
        # a dash is a flat bar under the character's centre
        if x - 1 <= cx <= x + w + 1 and h <= 0.2 * font_px + 2 and w >= h and (best is None or w > best):
            best = w
    if best is None:
        return None
    em = (best - 0.6) / font_px  # the mask's anti-aliased rim adds about half a pixel
    return next(d for limit, d in _DASHES if em < limit)


_SAME_SHAPE = "cosvwxzCOSVWXZ"  # letters whose two cases differ only in size
_TALL = "ABDEFGHIJKLMNPQRTUY0123456789bdfhkl"  # cap or ascender height, whatever the reading
_SHORT = "aemnru"  # x-height


def _restore_case(text: str, centres: list[float], upright: np.ndarray, pad: int) -> str:
    """The case of c, o, s, v, w, x, z from the glyph's height against the line's own letters:
    as tall as its capitals, upper; as short as its x-height letters, lower (a 100 dpi 'ViT'
    read 'viT'). Needs letters of known height in the same line to compare with."""
    if len(centres) != len(text) or not any(ch in _SAME_SHAPE for ch in text):
        return text
    n, _, stats = find_blobs(upright)[:3]

    # a glyph's own component: one holding no other letter's centre (italic 'ts' touch: that
    # 's' is as tall as its 't', and had read 'gradientS')
    xs = [c - pad for c in centres]

    def height(i: int) -> int | None:
        hit = _under(xs[i], n, stats, 3)
        if len(hit) != 1:
            return None
        x0, x1 = stats[hit[0], 0] + 1, stats[hit[0], 0] + stats[hit[0], 2] - 1
        if any(x0 <= xs[j] <= x1 for j in range(len(xs)) if j != i and text[j] != " "):
            return None
        return int(stats[hit[0], 3])

    heights = [height(i) for i in range(len(centres))]
    tall = [h for ch, h in zip(text, heights) if ch in _TALL and h]
    short = [h for ch, h in zip(text, heights) if ch in _SHORT and h]
    cap = float(np.median(tall)) if tall else None
    xh = float(np.median(short)) if short else None
    if cap is None or (xh is not None and xh >= 0.85 * cap):
        return text  # nothing tall to compare with, or no telling x-height from cap height
    out = list(text)
    for i, (ch, h) in enumerate(zip(text, heights)):
        if ch not in _SAME_SHAPE or not h:
            continue
        if h >= 0.88 * cap:
            out[i] = ch.upper()
        elif h <= (1.12 * xh if xh is not None else 0.8 * cap):
            out[i] = ch.lower()
    return "".join(out)


def _restore_symbols(text: str, centres: list[float], upright: np.ndarray, pad: int, font_px: float) -> str:
    """Mathematical symbols the recogniser has no class for, read back from their glyph.

    Its vocabulary lacks Δ, ∇ and κ (it has △, the white triangle, V and K): 'ΔW = BA' read
    '△W = BA', '∇ loss' 'V loss', 'κ ≥ 0.7' 'K ≥ 0.7'. A K or k no taller than an x is κ. A
    'V' whose glyph is a closed triangle with a bar on top is ∇; a '△' that stands where the
    other letters stand, 0.92 as wide as tall, is Δ (the white triangle dips 0.12 em below the
    baseline and is as wide as tall).
    """
    return _per_glyph(text, centres, upright, pad, font_px, "V△Kk", _symbol)


def _symbol(ch: str, cx: float, comps, font_px: float) -> str | None:
    n, lab, stats = comps
    # the character's glyph: the component under its centre at least 0.4 em tall
    hit = _under(cx, n, stats, 0.4 * font_px)
    if len(hit) != 1:
        return None
    x, y, w, h, _ = stats[hit[0]]
    glyph = (lab[y:y + h, x:x + w] == hit[0]).astype(np.uint8)
    # a hole: background the glyph encloses
    inner = cv2.floodFill(np.pad(1 - glyph, 1, constant_values=1), None, (0, 0), 0)[1][1:-1, 1:-1]
    closed = int(inner.sum()) >= 2
    if ch in "Kk":
        # κ is x-height tall (0.55 em), K and k cap and ascender height (0.73, 0.76 em); the
        # font size is the line's, from its reading as a K: a K that short is κ
        return "κ" if h <= 0.64 * font_px and w <= 0.75 * font_px else None
    if ch == "V":
        top = glyph[: max(1, int(round(0.15 * h)))]
        bar = float(top.any(axis=0).mean()) >= 0.8 and top.sum(axis=1).max() >= 0.7 * w
        return "∇" if closed and bar else None
    # where the other letters stand (the baseline estimate assumed the white triangle)
    others = [stats[k, 1] + stats[k, 3] for k in range(1, n) if k != hit[0] and stats[k, 3] >= 0.4 * font_px]
    on_line = bool(others) and abs(y + h - float(np.median(others))) <= 1
    # Δ is 0.92 as wide as tall, the white triangle 1.0
    return "Δ" if closed and on_line and w <= 0.96 * h else None


_NUMERIC = set("0123456789O.,%+-−")


def _restore_zeros(text: str, centres: list[float], upright: np.ndarray, pad: int, font_px: float) -> str:
    """A zero read as the letter O ('Node O (NVLink)' for a bold 'Node 0', an arrow crossing
    the label beside it painted out of the crop). An O that is a token of its own or stands
    among digits ('1O', 'O.5') is 0 where its glyph is as narrow as a zero's: under 0.82 as
    wide as tall. Measured at 14 and 40 px, regular and bold, in DejaVu Sans and Serif,
    Liberation Sans and Serif, FreeSans and STIX: zeros 0.60–0.80, O 0.90–1.10 (that bold
    'Node 0': 10 × 13 px, 0.77). Roboto's O (0.73–0.83) and a monospaced O (a zero's shape)
    can pass for a zero, where one stands alone. A word's O ('OK', 'O(n)') is never looked at."""
    if "O" not in text or len(centres) != len(text) or font_px < 6:
        return text
    comps = None
    out = list(text)
    for i, ch in enumerate(text):
        if ch != "O":
            continue
        a, b = i, i
        while a > 0 and text[a - 1] != " ":
            a -= 1
        while b + 1 < len(text) and text[b + 1] != " ":
            b += 1
        if not set(text[a:b + 1]) <= _NUMERIC:
            continue
        if comps is None:
            comps = find_blobs(upright)[:3]
        n, _, stats = comps
        hit = _under(centres[i] - pad, n, stats, 0.4 * font_px)
        if len(hit) == 1 and stats[hit[0], 2] < 0.82 * stats[hit[0], 3]:
            out[i] = "0"
    return "".join(out)


def _longest_false(arr: np.ndarray) -> int:
    best = cur = 0
    for v in arr:
        cur = 0 if v else cur + 1
        best = max(best, cur)
    return best


def _is_bold(mask: np.ndarray, coverage: np.ndarray, font_px: float) -> bool:
    """Stroke width (ink coverage per skeleton pixel) over font size: DejaVu regular 0.09 em, bold 0.15 em."""
    if font_px < 7:
        return False
    from skimage.morphology import skeletonize

    length = int(skeletonize(mask).sum())
    if length == 0:
        return False
    stroke = float(coverage.sum()) / length
    return stroke / font_px > 0.118


def _dedupe(runs: list[TextRun]) -> list[TextRun]:
    """The detector sometimes boxes one word twice: keep the more confident reading."""
    runs = sorted(runs, key=lambda r: -r.confidence)
    kept: list[TextRun] = []
    for r in runs:
        if any(_overlap(r, k) > 0.5 for k in kept):
            continue
        kept.append(r)
    return sorted(kept, key=lambda r: (r.y, r.x))


def _overlap(a: TextRun, b: TextRun) -> float:
    ix = max(0.0, min(a.right, b.right) - max(a.x, b.x))
    iy = max(0.0, min(a.bottom, b.bottom) - max(a.y, b.y))
    small = min(a.w * a.h, b.w * b.h)
    return ix * iy / small if small > 0 else 0.0


# -- second pass: lone glyphs the detector missed --------------------------------------------

def _read_lone_glyphs(rgb: np.ndarray, paints: Paints, runs: list[TextRun], engine: OcrEngine, latin: bool,
                      config: Config) -> list[TextRun]:
    """Isolated dark glyph clusters on the canvas or on a light fill (single-digit ticks, short
    labels, the '+' in a summation node)."""
    labels = paints.labels
    # light fills (nodes, group frames) are not ink here, so a glyph on one stands alone too
    lum = paints.colors.astype(np.float32) @ np.array([0.299, 0.587, 0.114], np.float32)
    light = (labels != paints.background) & (labels >= 0) & (lum[np.maximum(labels, 0)] > LIGHT_FILL)
    ink = (labels != paints.background) & ~light
    # a fill is an area, not the light rim anti-aliasing leaves around dark glyphs
    light = cv2.morphologyEx(light.astype(np.uint8), cv2.MORPH_OPEN, np.ones((5, 5), np.uint8)).astype(bool)
    for r in runs:
        x0, y0 = int(r.x), int(r.y)
        hh, ww = r.glyphs.shape
        ink[y0:y0 + hh, x0:x0 + ww] &= ~cv2.dilate(r.glyphs.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
    n, lab, stats, _ = find_blobs(ink)
    if n <= 1:
        return []
    heights = [r.h for r in runs if r.angle == 0] or [0.11 * 96 * 1.0]
    glyph_h = float(np.median(heights))
    text_colors = np.array([r.color for r in runs], dtype=np.float32) if runs else np.zeros((1, 3), np.float32)
    bg = paints.background_rgb.astype(np.float32)
    cands = []
    for i in range(1, n):
        x, y, cw, ch, area = stats[i]
        if not (0.45 * glyph_h <= ch <= 1.3 * glyph_h) or cw > 1.5 * ch or cw < 1:
            continue
        comp = lab[y:y + ch, x:x + cw] == i
        fill = area / float(cw * ch)
        if fill > 0.85 and cw > 0.5 * ch:  # a filled square or disc: a marker, not a glyph
            continue
        # a glyph is drawn in a text colour: dark, or the colour of text already read
        col = darkest_color(rgb[y:y + ch, x:x + cw], comp, bg)
        if col is None:
            continue
        if np.linalg.norm(text_colors - col[None, :], axis=1).min() > 60 and float(col.mean()) > 90:
            continue
        # and it stands alone: nothing else within half a glyph around it except other glyphs
        cands.append((x, y, cw, ch, i))
    cands = _drop_dashes(cands, stats)
    dots = [(int(x), int(y), int(cw), int(ch), i) for i, (x, y, cw, ch, area) in enumerate(stats) if i
            and area >= 2 and max(cw, ch) <= 0.3 * glyph_h and cw <= 2 * ch and ch <= 2 * cw]
    words = _cluster_glyphs(cands, glyph_h, dots)
    if not words:
        return []
    crops, metas = [], []
    for members in words:
        x0 = min(m[0] for m in members)
        y0 = min(m[1] for m in members)
        x1 = max(m[0] + m[2] for m in members)
        y1 = max(m[1] + m[3] for m in members)
        if _crowded(ink, lab, members, (x0, y0, x1, y1), glyph_h, light):
            continue
        mask = np.isin(lab[y0:y1, x0:x1], [m[4] for m in members])
        region = rgb[y0:y1, x0:x1]
        bgc = paints.background_rgb
        line = _Line(mask, 0, 0, False)
        crop = _line_crops(region, line, bgc)[0][0]
        crops.append(crop)
        metas.append((line, region, bgc, (y0, x0)))
    results = engine.recognize(crops, latin, fold_case=True)
    out = []
    for (text, conf, centres), crop, (line, region, bgc, origin) in zip(results, crops, metas):
        text = text.strip()
        if not text or conf < max(0.85, config.ocr_min_confidence) or not _plausible_label(text):
            continue
        run = _make_run(text, conf, centres, crop, line, 0.0, region, bgc, origin, "glyph")
        if run is not None:
            out.append(run)
    return out


def _drop_dashes(cands: list[tuple[int, int, int, int, int]], stats: np.ndarray) -> list[tuple[int, int, int, int, int]]:
    """Drop the dashes of vertical dashed lines: solid bars stacked in a column with a like bar.

    Each dash is glyph-sized and reads as '1' or 'I' (rejected, at 0.35–0.87 confidence), but
    at the lone-glyph pad of 320 px each cost ~24 ms: 61 of them were 1.4 s of the transformer
    block example's 4 s. Dash patterns leave gaps up to ~2.5 dash lengths, and ~3 where a dash
    between two is lost (a q75 JPEG of rag_pipeline: two dashes 18 px apart read as two '1' labels,
    and the dashed edge ended at them). A lone label 'I' or 'l' has no bar of its size right
    above or below it.
    """
    def bar(c) -> bool:
        x, y, cw, ch, i = c
        return cw <= 0.4 * ch and stats[i][4] >= 0.6 * cw * ch  # a thin bar: its anti-aliased rims half in

    bars = [c for c in cands if bar(c)]
    def dash(c) -> bool:
        x, y, cw, ch, _ = c
        for o in bars:
            if o is c:
                continue
            ox, oy, ocw, och, _ = o
            gap = max(oy - (y + ch), y - (oy + och))
            if abs((ox + ocw / 2) - (x + cw / 2)) <= 1.5 and abs(och - ch) <= 2 and 0 < gap <= 3.2 * ch:
                return True
        return False

    return [c for c in cands if not (bar(c) and dash(c))]


def _cluster_glyphs(cands: list[tuple[int, int, int, int, int]], glyph_h: float,
                    dots: list[tuple[int, int, int, int, int]] = ()) -> list[list[tuple]]:  # type: ignore[assignment]
    """Glyphs a letter's gap apart on one line, as words. ``dots``: components too small to be
    glyphs; one on the baseline between two glyphs joins them across a wider gap, as itself (the
    point of a tick label '1.5', which had been read as '1' and '5')."""
    cands = sorted(cands, key=lambda c: c[0])
    words: list[list[tuple]] = []
    for c in cands:
        for word in words:
            last = word[-1]
            same_line = min(last[1] + last[3], c[1] + c[3]) - max(last[1], c[1]) > 0.5 * min(last[3], c[3])
            gap = c[0] - (last[0] + last[2])
            if not same_line or gap < 0:
                continue
            if gap <= 0.45 * glyph_h:
                word.append(c)
                break
            base = min(last[1] + last[3], c[1] + c[3])
            point = next((d for d in dots if last[0] + last[2] <= d[0] and d[0] + d[2] <= c[0]
                          and abs(d[1] + d[3] - base) <= 0.15 * glyph_h), None)
            if point is not None and gap <= 1.0 * glyph_h:
                word += [point, c]
                break
        else:
            words.append([c])
    return words


def _crowded(ink: np.ndarray, lab: np.ndarray, members: list[tuple], box: tuple[int, int, int, int],
             glyph_h: float, light: np.ndarray) -> bool:
    """Other ink right around the cluster means it is part of a drawing, not a label.

    On a light fill (a node, a group frame) the cluster must stand clear of all ink by 0.6 of
    a glyph's height: there a dash of a dashed line meeting a dashed frame read as 'L', and
    an arrowhead on its line as '1', at 0.95 and more; the '+' of a summation node stands clear.
    """
    x0, y0, x1, y1 = box
    H, W = ink.shape
    m = max(2, int(0.3 * glyph_h))
    ya, yb, xa, xb = max(0, y0 - m), min(H, y1 + m), max(0, x0 - m), min(W, x1 + m)
    if light[ya:yb, xa:xb].any():
        m = max(2, int(0.6 * glyph_h))
        ya, yb, xa, xb = max(0, y0 - m), min(H, y1 + m), max(0, x0 - m), min(W, x1 + m)
        if (ink[ya:yb, xa:xb] & ~np.isin(lab[ya:yb, xa:xb], [mm[4] for mm in members])).any():
            return True
    around = ink[ya:yb, xa:xb] & ~np.isin(lab[ya:yb, xa:xb], [mm[4] for mm in members])
    return bool(around.sum() > 0.02 * around.size)


def _plausible_label(text: str) -> bool:
    """Lone-glyph reads are accepted only when they look like labels (digits, short words)."""
    t = text.replace(" ", "")
    if len(t) > 12:
        return False
    return all(ch.isalnum() or ch in ".,-−+%×^()/:" for ch in t)


def erase_text(rgb: np.ndarray, paints: Paints, runs: list[TextRun], ring: int = 1) -> None:
    """Paint the glyph pixels of ``runs`` with their local background, in place (image and labels).

    ``ring``: pixels around the glyphs erased with them: 1 holds their anti-aliasing; a JPEG's
    ringing reaches 2 (left behind, it drew each erased label's ghost as paths of the fill's
    colour, and cut the node's face open)."""
    H, W = paints.labels.shape
    b = ring + 1
    for r in runs:
        x0, y0 = int(r.x), int(r.y)
        hh, ww = r.glyphs.shape
        m = np.zeros((hh + 2 * b, ww + 2 * b), np.uint8)
        m[b:b + hh, b:b + ww] = r.glyphs
        m = cv2.dilate(m, np.ones((2 * ring + 1, 2 * ring + 1), np.uint8)).astype(bool)
        ya, xa = y0 - b, x0 - b
        yb, xb = ya + m.shape[0], xa + m.shape[1]
        cy0, cx0, cy1, cx1 = max(0, ya), max(0, xa), min(H, yb), min(W, xb)
        m = m[cy0 - ya:cy1 - ya, cx0 - xa:cx1 - xa]
        lab = paints.labels[cy0:cy1, cx0:cx1]
        around = cv2.dilate(m.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool) & ~m
        vals = lab[around]
        vals = vals[vals >= 0]
        paint = int(np.bincount(vals).argmax()) if vals.size else paints.background
        lab[m] = paint
        rgb[cy0:cy1, cx0:cx1][m] = paints.colors[paint]
