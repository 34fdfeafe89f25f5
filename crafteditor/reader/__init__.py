"""CraftEditor's reader: a small CTC line recogniser trained here, in front of rapidocr's.

rapidocr's recogniser is most of a conversion's time (0.18 s of a bench figure's 0.48 s CPU;
~10 ms a line crop). The lines CraftEditor hands it are clean: glyph pixels on a flat
background (:func:`crafteditor.ocr.text_lines.line_crops`). The reader reads such a crop in well under
a millisecond; where it is sure of every character (:data:`GATE`) its reading is taken, and
every other crop goes to rapidocr as before. Trained by this package's own code on random
strings (:mod:`crafteditor.training.reader_data`, :mod:`crafteditor.training.reader_train`); the weights ship in
``weights/`` with what was measured on held-out pages (``reader.json``).
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

import numpy as np

from crafteditor.reader.model import HEIGHT, STRIDE, UNKNOWN, VOCAB, decode, normalize_crop, pad_batch, steps
from crafteditor.sessions import session_options

WEIGHTS = Path(__file__).parent / "weights"
# how sure a reading must be to be taken: its least sure character, and 1 − the likeliest
# letter at a blank step (reader.model.decode). Set where the reader is wrong no more often
# than rapidocr on the same crops (python -m crafteditor.training.reader_parity; reader.json holds the
# tables): of the held-out crops read 0.96 to 0.98 sure, the reader misreads 3 of 160 in the
# training fonts and 3 of 146 in fonts it never saw (Roboto, STIX), rapidocr 11 and 11 of the
# same; at 0.95 to 0.96 it is the worse in the unseen fonts (5 of 37 against 4). A lone
# character needs more: a tick label's '0' read as nothing, or 'l' for '1', loses a whole
# label, and one character costs rapidocr little to read
GATE = 0.96
SINGLE_GATE = 0.98


class Reader:
    def __init__(self, threads: int = 1, weights: Path = WEIGHTS) -> None:
        import onnxruntime as ort  # heavy: optional dependency, loaded with the first reader

        meta = json.loads((weights / "reader.json").read_text())
        if meta.get("vocab") != VOCAB or meta.get("height") != HEIGHT:
            raise ValueError(f"{weights / 'reader.json'}: the weights were trained for another vocabulary or height")
        self.session = ort.InferenceSession(str(weights / "reader.onnx"), sess_options=session_options(max(1, threads)),
                                            providers=["CPUExecutionProvider"])

    def read(self, crops: list[np.ndarray], gate: float = GATE) -> list[tuple[str, float, list[float]] | None]:
        """Each BGR crop's (text, mean confidence, x centre of each character in crop pixels),
        or None where the reader is unsure (a character under ``gate``, or under
        :data:`SINGLE_GATE` for a one-character reading, one it has no class for, nothing read,
        a crop it cannot take, a glyph between two of its characters that none stands on: :func:`skipped_glyph`)."""
        out: list[tuple[str, float, list[float]] | None] = [None] * len(crops)
        # each crop alone: in a batch padded to the widest, a crop's last columns saw the
        # padding's activations rather than the network's edge (the gate was set on crops read
        # alone, by training.reader_parity); batches of like widths saved under 10% of the
        # reader's ~1 ms a crop
        for i, c in enumerate(crops):
            x = normalize_crop(c)
            if x is not None:
                probs = self.session.run(None, {"x": pad_batch([x * (1.0 / 255.0)])})[0]  # 1×T×C
                reading = _decode(probs[0, :steps(x.shape[1])], c.shape[1] / x.shape[1], gate)
                if reading is not None and skipped_glyph(x, [cx * x.shape[1] / c.shape[1] for cx in reading[2]]):
                    reading = None  # sure, but a glyph between two of its characters went unread
                out[i] = reading
        return out


GLYPH_INK = 128  # a column of a normalised crop holds a glyph's core where its ink is this strong (of 255)
GLYPH_ROWS = 0.5  # a skipped glyph's ink stands this share of the line's ink height at least


def skipped_glyph(x: np.ndarray, centres: list[float]) -> bool:
    """Whether a normalised crop (:func:`~crafteditor.reader.model.normalize_crop`) holds a glyph between two
    characters of its reading that no character's centre (``centres``, in ``x``'s columns) falls on: a run of
    glyph-core columns, apart from its neighbours, as tall as a letter. A centre stands on its glyph from one
    CTC step before the glyph's first column to its last (the next character's spike may come a column past a
    glyph it is not). The reader may be sure of a reading a letter short: ggplot2's axis title 'mpg' at 11 px
    came back 'mg' at 0.9999 (three patchwork figures), the 'p' between them unread; rapidocr reads 'mpg'. On
    dev it sends 40 of 3,155 first-round crops to rapidocr; of the 9 read otherwise, 8 were the reader's
    misreadings ('Embcddcd', 'value_ranslation_id', 'instaling'), one a sideways try of a line read upright."""
    if len(centres) < 2:
        return False
    core = x >= GLYPH_INK
    cols = core.any(axis=0).astype(np.int8)
    edges = np.diff(np.concatenate(([0], cols, [0])))
    starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
    rows = np.flatnonzero(core.any(axis=1))
    if not rows.size:
        return False
    line_h = rows[-1] - rows[0] + 1
    for a, b in zip(starts, ends):
        if not (centres[0] < a and b <= centres[-1]) or any(a - STRIDE <= cx <= b for cx in centres):
            continue
        ys = np.flatnonzero(core[:, a:b].any(axis=1))
        if ys[-1] - ys[0] + 1 >= GLYPH_ROWS * line_h:
            return True
    return False


def taken(text: str, sure: float, gate: float = GATE) -> bool:
    """Whether a reading this sure is taken at ``gate`` (:data:`SINGLE_GATE` at least for one
    character; never an empty reading or one with a character the reader has no class for)."""
    if not text.strip() or UNKNOWN in text:
        return False
    return sure >= (max(gate, SINGLE_GATE) if len(text.strip()) == 1 else gate)


def _decode(probs: np.ndarray, px: float, gate: float) -> tuple[str, float, list[float]] | None:
    text, scores, spans, sure = decode(probs)
    if not taken(text, sure, gate):
        return None
    centres = [(float(np.mean(s)) + 0.5) * STRIDE * px for s in spans]
    return text, float(np.mean(scores)), centres


_READERS: dict[int, Reader] = {}
_LOCK = threading.Lock()


def get_reader(threads: int = 1) -> Reader | None:
    """The process's reader (None where its weights are missing: rapidocr reads everything)."""
    with _LOCK:
        if threads not in _READERS:
            if not (WEIGHTS / "reader.onnx").exists():
                return None
            _READERS[threads] = Reader(threads)
        return _READERS[threads]
