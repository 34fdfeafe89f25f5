"""Round 22's speed-ups of issue 31 change no reading: a mask's convex hull taken of each row's first and last
pixel fills the pixels the hull of all its pixels fills; the recogniser's CTC decode, its runs found at once,
gives the characters, confidence and centres the step-by-step loop gave."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from crafteditor.blobs import hull_mask


def _hull_of_every_pixel(mask: np.ndarray) -> np.ndarray:
    out = np.zeros(mask.shape, np.uint8)
    cv2.fillConvexPoly(out, cv2.convexHull(cv2.findNonZero(mask.astype(np.uint8))), 1)
    return out.astype(bool)


def test_a_hull_of_the_rows_ends_fills_as_the_hull_of_every_pixel():
    rng = np.random.default_rng(22)
    for trial in range(600):
        h, w = (int(v) for v in rng.integers(1, 90, 2))
        m = np.zeros((h, w), np.uint8)
        kind = trial % 5
        if kind == 0:  # specks
            m = (rng.random((h, w)) < rng.random() * 0.2).astype(np.uint8)
        elif kind == 1:  # a frame's face crossed by links: boxes and a notch
            for _ in range(int(rng.integers(1, 4))):
                x, y = (int(v) for v in rng.integers(0, [w, h]))
                cv2.rectangle(m, (x, y), (x + int(rng.integers(0, w)), y + int(rng.integers(0, h))), 1, -1)
            m[:, int(rng.integers(0, w))] = 0
        elif kind == 2:  # a ring or a disc
            cv2.circle(m, (int(rng.integers(0, w)), int(rng.integers(0, h))), int(rng.integers(1, 50)), 1,
                       int(rng.choice([-1, 1, 3])))
        elif kind == 3:  # a cross: collinear points on the hull's sides
            m[int(rng.integers(0, h)), :] = 1
            m[:, int(rng.integers(0, w))] = 1
        else:  # a polygon with holes
            cv2.fillPoly(m, [rng.integers(0, max(h, w), (6, 2)).astype(np.int32)], 1)
            m[rng.random((h, w)) < 0.1] = 0
        if not m.any():
            m[int(rng.integers(0, h)), int(rng.integers(0, w))] = 1
        assert np.array_equal(hull_mask(m.astype(bool)), _hull_of_every_pixel(m)), trial


def _loop_decode(engine, probs, px_per_step, latin, fold_case=False):
    """OcrEngine._decode as it was: the CTC runs found step by step."""
    if latin:
        probs = probs * engine.latin_mask[None, : probs.shape[1]]
    best = probs.argmax(axis=1)
    conf = probs.max(axis=1)
    if fold_case:
        other = engine.other_case[np.minimum(best, len(engine.other_case) - 1)]
        conf = conf + np.where(other >= 0, probs[np.arange(len(best)), np.maximum(other, 0)], 0.0)
    chars, steps, scores, prev = [], [], [], 0
    for t, k in enumerate(best):
        if k != 0 and k != prev:
            chars.append(engine.vocab[k] if k < len(engine.vocab) else "")
            steps.append([t])
            scores.append(float(conf[t]))
        elif k != 0 and k == prev:
            steps[-1].append(t)
        prev = k
    if not chars:
        return "", 0.0, []
    engine._times_sign(chars, steps, probs)
    return "".join(chars), float(np.mean(scores)), [(float(np.mean(s)) + 0.5) * px_per_step for s in steps]


def test_the_ctc_decode_reads_as_the_loop_over_its_steps():
    pytest.importorskip("rapidocr_onnxruntime")
    from crafteditor.ocr.engine import get_engine

    engine = get_engine(1)
    rng = np.random.default_rng(22)
    classes = len(engine.vocab)
    x, times, two = engine.vocab.index("x"), engine.vocab.index("×"), engine.vocab.index("2")
    upper = engine.vocab.index("C")
    for trial in range(400):
        steps = int(rng.integers(1, 50))
        probs = rng.random((steps, classes)).astype(np.float32) * 0.01
        # peaked outputs: blanks, repeats, a '2x2' whose x is half a ×, a capital whose lower case has some odds
        top = rng.choice([0, 0, 0, x, two, upper, 5, 5, 3000], size=steps)
        probs[np.arange(steps), top] += rng.random(steps).astype(np.float32) * 5
        if trial % 3 == 0:
            probs[:, times] += 0.5 * (top == x)
        for latin in (True, False):
            for fold_case in (False, True):
                assert engine._decode(probs, 3.7, latin, fold_case) == _loop_decode(engine, probs, 3.7, latin, fold_case)
