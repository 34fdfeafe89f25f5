"""The reader's input, vocabulary and network.

A crop (glyph pixels on a flat background, :func:`crafteditor.ocr.text_lines.line_crops`) is turned
grey, its polarity and contrast normalised (background 0, the glyphs' strongest ink 1: grey
text on white, white text on a dark fill and black text read alike), and scaled to
:data:`HEIGHT` rows. The network is convolutional only: five 3×3 stages down to a column of
features every 4 px, two 1-D convolutions along the line, and a CTC head over :data:`VOCAB`.
"""

from __future__ import annotations

import cv2
import numpy as np

HEIGHT = 32
MAX_WIDTH = 1024  # crops wider than this at HEIGHT rows (a 32-em line) go to rapidocr
STRIDE = 4  # input columns per output step
# what rapidocr reads in Latin figures: printable ASCII, and the symbols CraftEditor's labels
# carry that it has classes for; the dashes and minus are read as '-' (the OCR module tells
# them apart by the bar's width afterwards, as it does for rapidocr). UNKNOWN stands for any
# other character (Greek, arrows, relations): a reading that has one goes to rapidocr
UNKNOWN = "\ufffd"
VOCAB = "".join(chr(c) for c in range(32, 127)) + "×°±µ" + UNKNOWN
CLASS = {ch: i + 1 for i, ch in enumerate(VOCAB)}  # each character's class; 0 is CTC's blank
CHANNELS = (16, 32, 48, 64, 96)
FEATURES = 128


def normalize_crop(bgr: np.ndarray) -> np.ndarray | None:
    """A BGR crop → uint8 HEIGHT×W (0 background, 255 the strongest ink); None when empty."""
    if bgr.ndim == 3:
        gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    else:
        gray = bgr
    h, w = gray.shape[:2]
    if h < 4 or w < 2:
        return None
    g = gray.astype(np.float32)
    border = np.concatenate([g[0], g[-1], g[:, 0], g[:, -1]])
    bg = float(np.median(border))
    ink = float(g.min()) if bg >= 128 else float(g.max())
    span = ink - bg
    if abs(span) < 24:  # nothing stands out from the background
        return None
    v = np.clip((g - bg) / span, 0.0, 1.0)
    width = max(STRIDE * 2, int(round(w * HEIGHT / h)))
    if width > MAX_WIDTH:
        return None
    interp = cv2.INTER_AREA if h > HEIGHT else cv2.INTER_LINEAR
    out = cv2.resize(v, (width, HEIGHT), interpolation=interp)
    return (np.clip(out, 0, 1) * 255 + 0.5).astype(np.uint8)


def steps(width: int) -> int:
    """Output steps for an input ``width`` columns wide."""
    return -(-width // STRIDE)


def pad_batch(xs: list[np.ndarray]) -> np.ndarray:
    """HEIGHT-row float inputs in [0, 1] → one B×1×HEIGHT×W batch, zero (background) padded on
    the right to the widest, W a whole number of steps."""
    out = np.zeros((len(xs), 1, HEIGHT, steps(max(x.shape[1] for x in xs)) * STRIDE), np.float32)
    for i, x in enumerate(xs):
        out[i, 0, :, : x.shape[1]] = x
    return out


def build_network(n_classes: int = len(VOCAB) + 1):
    """The torch module (training and export only; inference runs the exported ONNX)."""
    import torch  # heavy: 6 s to import; only training and export build the network
    from torch import nn  # heavy: as torch above

    c1, c2, c3, c4, c5 = CHANNELS

    def block(i, o):
        return [nn.Conv2d(i, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True)]

    class Reader(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Sequential(
                *block(1, c1), nn.MaxPool2d(2),                     # 16 × W/2
                *block(c1, c2), nn.MaxPool2d(2),                    # 8 × W/4
                *block(c2, c3), *block(c3, c4), nn.MaxPool2d((2, 1)),  # 4 × W/4
                *block(c4, c5), nn.MaxPool2d((2, 1)),               # 2 × W/4
                nn.Conv2d(c5, FEATURES, (2, 1), bias=False), nn.BatchNorm2d(FEATURES), nn.ReLU(inplace=True),
            )
            self.seq1 = nn.Conv1d(FEATURES, FEATURES, 3, padding=1)
            self.seq2 = nn.Conv1d(FEATURES, FEATURES, 3, padding=1)
            self.head = nn.Conv1d(FEATURES, n_classes, 1)

        def forward(self, x):  # B×1×H×W float in [0, 1] → B×T×C log-probabilities
            f = self.conv(x).squeeze(2)
            f = f + torch.relu(self.seq1(f))
            f = f + torch.relu(self.seq2(f))
            return torch.log_softmax(self.head(f), dim=1).transpose(1, 2)

    return Reader()


def decode(probs: np.ndarray) -> tuple[str, list[float], list[list[int]], float]:
    """Greedy CTC decode of T×C probabilities (class 0 the blank): the text, each character's
    probability, its steps, and how sure the reading is: the least sure character, and at the
    steps that chose the blank, one minus the likeliest letter there, but for the letter of the
    step just before or after (a letter's first and last steps share with the blank). A letter
    the reader dropped is a blank step where that letter is likely: 'Lnear' for 'Linear', or the
    second of a doubled letter ('al-reduce' for 'all-reduce', '700' for '7000'), whose blank
    steps lie beside the first's but do not touch them (0.964 sure → 0.897)."""
    best = probs.argmax(axis=1)
    top = probs.max(axis=1)
    chars: list[str] = []
    scores: list[float] = []
    steps: list[list[int]] = []
    owner = np.full(len(best), -1)  # the character each step belongs to
    prev = 0
    for t, k in enumerate(best):
        if k != 0 and k != prev:
            chars.append(VOCAB[k - 1])
            scores.append(float(top[t]))
            steps.append([t])
        elif k != 0:
            steps[-1].append(t)
            scores[-1] = max(scores[-1], float(top[t]))
        if k != 0:
            owner[t] = len(chars) - 1
        prev = k
    sure = float(min(scores)) if scores else 0.0
    blank = np.flatnonzero(owner < 0)
    if blank.size and chars:
        p = probs[blank].copy()
        p[:, 0] = 0.0
        # the characters of the steps just before and after each blank step (−1: a blank there)
        padded = np.concatenate([[-1], owner, [-1]])
        cls = np.array([CLASS[ch] for ch in chars])
        rows = np.arange(blank.size)
        for near in (padded[blank], padded[blank + 2]):
            p[rows[near >= 0], cls[near[near >= 0]]] = 0.0
        sure = min(sure, 1.0 - float(p.max()))
    return "".join(chars), scores, steps, sure
