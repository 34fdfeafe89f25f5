"""The OCR engine: rapidocr's detector and recogniser (its bundled ONNX models), and the reader
trained here (:mod:`crafteditor.reader`) in front of the recogniser.

Detection gives text line quadrilaterals; recognition reads line crops with its own CTC decode,
which can refuse CJK look-alikes in Latin figures (``ocr_scripts='latin'``) and reports where each
character sits, so word spaces are restored from the ink gaps (:mod:`crafteditor.ocr.corrections`).
The engine loads once per process (:func:`get_engine`).
"""

from __future__ import annotations

import logging
import math
import os
import threading

import cv2
import numpy as np

from crafteditor.cpu_parts import charged
from crafteditor.onnx_fusion import fused_model
from crafteditor.reader import get_reader
from crafteditor.sessions import session_options
from crafteditor.text_regions import TextRegions, region_probabilities

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
# px of padding every crop gets past its own width, whatever its floor: read alone with none, a
# line's last glyph went astray ('docx,' read 'docxi', 'WashingMachine()' 'WashingMachine0');
# on the 12 dev figures whose readings changed, words 87.3% with none, 88.3% with 16 px, 88.1% with 32
REC_MARGIN = 16


class OcrEngine:
    """rapidocr's detector and recogniser sessions with a decode that knows character positions."""

    def __init__(self, threads: int = 0) -> None:
        from rapidocr_onnxruntime import RapidOCR  # heavy: 0.3 s to import; loaded with the first engine

        # 0: the cores this process may run on. onnxruntime's own default counts the machine's
        # cores, so a conversion pinned to one core (taskset, a container's cpuset) ran two
        # threads on it: 10% more CPU per figure on the bench (0.92 vs 0.83 s)
        threads = threads or _available_cores()
        logging.getLogger("RapidOCR").setLevel(logging.ERROR)
        ocr = RapidOCR(intra_op_num_threads=threads, inter_op_num_threads=1)
        self.detector = ocr.text_det
        self.recognizer = ocr.text_rec

        # recognition runs one line crop at a time (~5 ms each): a second thread's hand-offs cost
        # more than it saves, so the recogniser and the reader run on one; detection (one large
        # image) keeps ``threads``. Dev typeset figures: 12.6 -> 12.0 s CPU, same SVGs
        self.reader = get_reader(1)
        # onnxruntime's worker threads spin while they wait for work. On a CPU shared with other
        # jobs that doubled the wall time of a conversion (bench -n 6 --examples on 2 busy cores:
        # 2.10 s per figure spinning, 1.39 s not; CPU time 2.02 s vs 1.31 s), so they sleep instead
        for part, n in ((self.detector.infer, threads), (self.recognizer.session, 1)):
            part.session = _quiet_session(part.session, n)
        vocab = list(self.recognizer.postprocess_op.character)
        self.vocab = vocab
        index = {ch: i for i, ch in enumerate(vocab)}
        self._class_of = index
        # each class's other case (C/c, O/o...), -1 where it has none
        self.other_case = np.array([index.get(ch.swapcase(), -1) if len(ch) == 1 and ch.swapcase() != ch else -1
                                    for ch in vocab] + [-1], dtype=np.int64)
        # CJK (and fullwidth forms) start at U+2E80; Latin, Greek, maths and arrows lie below
        self.latin_mask = np.array([i == 0 or (len(ch) == 1 and ord(ch) < 0x2E80) for i, ch in enumerate(vocab)],
                                   dtype=np.float32)

    @charged("ocr detect")
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
        whole = preds is None
        if whole:
            preds = infer(resized)
        boxes, _ = self.detector.postprocess_op(preds, (h, w))
        if not len(boxes) and not whole:
            # nothing found on the mosaic of places where glyphs are: the whole image is looked at. The
            # detector sees less on a small mosaic of short tiles than on the page they came from (a narrow
            # Vega-Lite scatter's tick labels, each cut out with its tick and an axis stub: none of 15 found
            # on a 320x224 mosaic, all on the 704x192 page; the dark theme's chart read no word)
            boxes, _ = self.detector.postprocess_op(infer(resized), (h, w))
        boxes = self.detector.filter_tag_det_res(boxes, (h, w))
        return [np.asarray(b, dtype=np.float32) for b in boxes]

    def detect_scaled(self, bgr: np.ndarray, scale: float, regions: TextRegions | None = None) -> list[np.ndarray]:
        """Text line quadrilaterals, detected on the image resized by ``scale`` (returned in image
        pixels); ``regions``: where text can be (image pixels), as :meth:`detect` takes them."""
        h, w = bgr.shape[:2]
        if scale < 1:
            small = cv2.resize(bgr, (max(32, round(w * scale)), max(32, round(h * scale))),
                               interpolation=cv2.INTER_AREA)
            sy, sx = small.shape[0] / h, small.shape[1] / w
            quads = self.detect(small, limit_side=min(small.shape[:2]),
                                regions=None if regions is None else regions.scaled(sx, sy))
            return [q / np.array([sx, sy], dtype=np.float32) for q in quads]
        return self.detect(bgr, limit_side=int(round(min(h, w) * scale)), regions=regions)

    @charged("ocr recognize")
    def recognize(self, crops: list[np.ndarray], latin: bool, word_width: int = REC_PAD_WIDTH,
                  fold_case: bool = False, fast: bool = False,
                  memo: ProbsMemo | None = None) -> list[tuple[str, float, list[float]]]:
        """Read each BGR line crop: (text, confidence, x centre of each character in crop pixels).

        Crops are padded to ``REC_PAD_WIDTH`` like rapidocr does; crops of a word or more
        (twice as wide as tall) only to ``word_width``, and with a ``word_width`` given, crops of
        two or three glyphs ('20', 'yes') only to ``REC_NARROW_WIDTH``: less padding, same readings.
        ``fold_case``: a character's confidence counts its other case too (see :meth:`_decode`).
        ``fast``: the crops are clean line crops (:func:`crafteditor.ocr.text_lines.line_crops`) of
        Latin text, and the reader (:mod:`crafteditor.reader`) reads them first; rapidocr reads those
        it is unsure of. ``memo``: the page's class probabilities kept for :meth:`class_probs` (:class:`ProbsMemo`).
        """
        out: list[tuple[str, float, list[float]]] = [("", 0.0, [])] * len(crops)
        if not crops:
            return out
        memo = memo if latin else None  # (it keeps the Latin classes only)
        if fast and latin and not fold_case and self.reader is not None:
            quick = self.reader.read(crops)
            rest = [i for i, r in enumerate(quick) if r is None]
            slow = self.recognize([crops[i] for i in rest], latin, word_width, memo=memo) if rest else []
            for i, r in zip(rest, slow):
                quick[i] = r
            return quick  # type: ignore[return-value]
        narrow = REC_NARROW_WIDTH if word_width != REC_PAD_WIDTH else REC_PAD_WIDTH
        # each crop is read alone, padded only by its own shape: in a batch every crop was padded
        # to the widest, and the recogniser's reading depends on the padding (an extra crop
        # elsewhere turned 'docx,' into 'docxi'). Batches saved nothing on a CPU: 4 crops of
        # 96 px in one call cost 4.7 ms each, alone 5.1 ms; at 320 px 15.3 and 15.4 ms
        first: dict[tuple, int] = {}  # the same crop twice (a line read again with a crossing
        twin = [first.setdefault((c.shape, c.tobytes()), i) for i, c in enumerate(crops)]  # stroke
        for i, c in enumerate(crops):  # painted out, where the stroke missed it) is read once
            if twin[i] != i:
                continue
            h, w = c.shape[:2]
            preds, width = self._infer(c, word_width, narrow, memo)
            resized_w = min(width, int(math.ceil(REC_HEIGHT * w / max(1, h))))
            out[i] = self._decode(preds, width / preds.shape[0] * w / max(1, resized_w), latin, fold_case)
        for i, j in enumerate(twin):
            out[i] = out[j]
        return out

    def _infer(self, crop: np.ndarray, word_width: int, narrow: int,
               memo: ProbsMemo | None = None) -> tuple[np.ndarray, int]:
        """The recogniser's class probabilities (T×C) of one BGR crop padded to its width floor (see
        :meth:`recognize`), and that padded width; kept in ``memo`` and taken from it where it has them."""
        key = None if memo is None else (crop.shape, word_width, narrow, crop.tobytes())
        kept = None if key is None else memo.get(key)
        if kept is not None:
            return kept
        h, w = crop.shape[:2]
        aspect = w / max(1, h)
        floor = word_width if aspect >= 2 else narrow if aspect >= LONE_GLYPH_ASPECT else REC_PAD_WIDTH
        width = max(floor, int(math.ceil(REC_HEIGHT * aspect)) + REC_MARGIN)
        # (width + 0.5) / REC_HEIGHT: rapidocr takes int(REC_HEIGHT * ratio) as the width
        x = self.recognizer.resize_norm_img(crop, (width + 0.5) / REC_HEIGHT)[None].astype(np.float32)
        out = self.recognizer.session(x)[0][0], width  # T×C class probabilities
        if key is not None:
            memo.keep(key, out)
        return out

    @charged("ocr recognize")
    def class_probs(self, crop: np.ndarray, latin: bool, word_width: int = REC_WORD_WIDTH,
                    memo: ProbsMemo | None = None) -> np.ndarray:
        """rapidocr's per-step class probabilities (T×C, each row summing to 1) of one BGR line crop,
        padded as :meth:`recognize` pads it; with ``latin`` CJK classes are ruled out (see :meth:`_decode`).
        What a reading's likelihood is weighed on (:mod:`crafteditor.ocr.small_lexicon`). ``memo``: taken
        from there where :meth:`recognize` read the same crop with it (no second recogniser call)."""
        narrow = REC_NARROW_WIDTH if word_width != REC_PAD_WIDTH else REC_PAD_WIDTH
        probs = self._infer(crop, word_width, narrow, memo if latin else None)[0]
        if latin:
            probs = probs * self.latin_mask[None, : probs.shape[1]]
        return probs / np.maximum(probs.sum(axis=1, keepdims=True), 1e-12)

    def class_indices(self, text: str) -> list[int] | None:
        """The recogniser's class of each character of ``text``; None where one has no class."""
        out = [self._class_of.get(ch, 0) for ch in text]
        return None if 0 in out else out

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
        # CTC: a character per run of one class other than the blank (0), read at its first step, centred on
        # its steps' middle; run bounds found at once (a loop over the steps in Python was 1% of the CPU)
        edges = np.flatnonzero(np.diff(best, prepend=0, append=0))
        starts, ends = edges[:-1], edges[1:]  # [start, end) of each run of one class, blanks' runs too
        keep = best[starts] != 0
        starts, ends = starts[keep], ends[keep]
        if not starts.size:
            return "", 0.0, []
        chars = [self.vocab[k] if k < len(self.vocab) else "" for k in best[starts].tolist()]
        steps = [list(range(a, b)) for a, b in zip(starts.tolist(), ends.tolist())]
        scores = conf[starts].astype(np.float64).tolist()
        self._times_sign(chars, steps, probs)
        centres = [(float(np.mean(s)) + 0.5) * px_per_step for s in steps]
        return "".join(chars), float(np.mean(scores)), centres

    def _times_sign(self, chars: list[str], steps: list[list[int]], probs: np.ndarray) -> None:
        """An 'x' that is a multiplication sign: ×, at DejaVu's sizes, is an x raised half a
        pixel, and the recogniser's argmax goes either way ('256×256x3': p(x) 0.53, p(×) 0.47;
        '× N layers': 0.47 / 0.25). Where × has some of the probability (≥ 3%: the variable
        in 'Input x' has 0.8%) and the x stands between numbers, or alone before a number or
        a capital ('×24', '× N'), it is ×. Measured: × 0.09–0.69, the letter 0.008–0.017; read
        alone (no wider crop's padding in its batch) 'blocks ×24' gave × 0.04."""
        times = self.vocab.index("×") if "×" in self.vocab else -1
        if times < 0 or "x" not in chars:
            return
        for i, ch in enumerate(chars):
            if ch != "x" or float(probs[steps[i], times].max()) < 0.03:
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


class ProbsMemo:
    """One page's recogniser outputs (class probabilities, padded width) by crop, while it reads Latin small print:
    the small-print lexicon (:mod:`crafteditor.ocr.small_lexicon`) weighs a line on the crops the first reading
    and the re-read at working sizes (:mod:`crafteditor.ocr.small_print`) had already run the recogniser on
    (mermaid-wild seed 19's column figures: 101 recogniser calls on one, 70 distinct crops). Only the Latin
    classes' columns are kept (223 of 6,625: a page's outputs were 52 MB whole), the others given back as 0, as
    a Latin reading rules them out (:meth:`OcrEngine._decode`, :meth:`OcrEngine.class_probs`); up to
    :data:`MEMO_BYTES`, past that only looked up."""

    def __init__(self, latin_mask: np.ndarray) -> None:
        self.latin = np.flatnonzero(latin_mask)
        self.kept: dict[tuple, tuple[np.ndarray, int, int]] = {}
        self.bytes = 0

    def get(self, key: tuple) -> tuple[np.ndarray, int] | None:
        if key not in self.kept:
            return None
        columns, width, classes = self.kept[key]
        probs = np.zeros((columns.shape[0], classes), dtype=columns.dtype)
        probs[:, self.latin[self.latin < classes]] = columns
        return probs, width

    def keep(self, key: tuple, value: tuple[np.ndarray, int]) -> None:
        probs, width = value
        columns = probs[:, self.latin[self.latin < probs.shape[1]]]
        if self.bytes + columns.nbytes <= MEMO_BYTES:
            self.kept[key] = columns, width, probs.shape[1]
            self.bytes += columns.nbytes


MEMO_BYTES = 16 << 20


def _quiet_session(session, threads: int):
    """The same model, its element-wise nodes fused (:mod:`crafteditor.onnx_fusion`), in a
    session whose intra-op threads do not spin while idle (the session itself where onnxruntime
    does not say which file it loaded)."""
    import onnxruntime as ort  # heavy: deferred to the first engine, as rapidocr is

    path = getattr(session, "_model_path", None)
    if not isinstance(path, str):
        return session
    opts = session_options(threads)
    try:
        return ort.InferenceSession(fused_model(path), sess_options=opts, providers=["CPUExecutionProvider"])
    except Exception:  # a damaged cached model must not stop the OCR: run the model as shipped
        return ort.InferenceSession(path, sess_options=opts, providers=["CPUExecutionProvider"])


def _available_cores() -> int:
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
