"""A one read as the letter l in a name ('configmapl' for configmap1, 'vlbetal' for v1beta1, 'rl' for r1;
issue 31): the recogniser reads a line's glyphs in their word's company, and a one among letters comes back
as the letter it stands beside. An 'l' whose glyph has a one's flag (ink left of its stem in its top third,
two strokes' width out or more) is 1 where its line shows that its face's l has none: another l or i of the
line is a bare stem (a sans face), or a glyph of the line read '1' is the same glyph. Alone, the flag tells
nothing: a serif or monospaced face's l has a top serif that long (DejaVu Serif, Latin Modern, DejaVu Sans
Mono), and read on its own such an l came back a sure '1' (measured: 135 wrong of 187 synthetic lines)."""

from __future__ import annotations

import numpy as np

from crafteditor.ocr.corrections import Labelling, labelled, lone_glyph

FLAG = 2.0  # strokes a one's flag reaches left of its stem, at least (flag_reach)
BARE = 0.5  # strokes a bare stem's top reaches left of it, at most


def restore_ones(text: str, centres: list[float], mask: np.ndarray, pad: int, blobs: Labelling | None = None) -> str:
    """``text`` with each flagged 'l' that the line shows is no l of its face put right (``centres``: the
    characters' x centres in the line crop, ``mask``: the line's glyph mask, ``pad`` columns into the crop)."""
    if "l" not in text or len(centres) != len(text) or mask.shape[0] < 8:
        return text
    comps = labelled(mask, blobs)
    tall = 0.4 * mask.shape[0]
    flagged = {i: g for i, ch in enumerate(text)
               if ch == "l" and (g := lone_glyph(i, centres, pad, comps, tall, 0)) is not None and flag_reach(g) >= FLAG}
    if not flagged:
        return text
    others = {i: g for i, ch in enumerate(text)
              if ch in "li1" and i not in flagged and (g := lone_glyph(i, centres, pad, comps, tall, 0)) is not None}
    # the face's l and i are bare stems: an l or i of the line with no flag at all
    bare = any(text[i] in "li" and _bare_stem(g) for i, g in others.items())
    ones = [g for i, g in others.items() if text[i] == "1"]
    out = list(text)
    for i, g in flagged.items():
        if bare or any(_same_glyph(g, one) for one in ones):
            out[i] = "1"
    return "".join(out)


def flag_reach(glyph: np.ndarray) -> float:
    """How far, in strokes, ink in a bar-like glyph's top third reaches left of where its stem starts in
    the rows 45-80% down: a one's flag reaches two strokes or more (DejaVu Sans 2.0, Helvetica's ~2.5), a
    serif l's or i's top serif about one, a sans l or i none; 0 for a glyph too small to tell."""
    h = glyph.shape[0]
    if h < 8:
        return 0.0
    rows = glyph[int(0.45 * h):int(0.8 * h)]
    inked = rows.any(axis=1)
    upper = glyph[:max(1, h // 3)]
    upper_inked = upper.any(axis=1)
    if not inked.any() or not upper_inked.any():
        return 0.0
    stem_left = float(np.median(rows.argmax(axis=1)[inked]))
    stroke = max(1.0, float(np.median(np.count_nonzero(rows, axis=1)[inked])))
    return max(0.0, stem_left - float(upper.argmax(axis=1)[upper_inked].min())) / stroke


def _bare_stem(glyph: np.ndarray) -> bool:
    """Whether a glyph is a bare stem: nothing left of it at its top, and no wider anywhere than a stroke and
    a half (a serif or monospaced face's i has a foot serif: DejaVu Sans Mono's, Latin Modern's)."""
    h, w = glyph.shape
    if h < 8 or flag_reach(glyph) > BARE:
        return False
    rows = glyph[int(0.45 * h):int(0.8 * h)]
    widths = np.count_nonzero(rows, axis=1)
    stroke = max(1.0, float(np.median(widths[widths > 0]))) if widths.any() else 1.0
    return w <= 1.5 * stroke + 1


def _same_glyph(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two glyph masks are one glyph's: boxes within a pixel, ink 80% shared."""
    if abs(a.shape[0] - b.shape[0]) > 1 or abs(a.shape[1] - b.shape[1]) > 1:
        return False
    h, w = min(a.shape[0], b.shape[0]), min(a.shape[1], b.shape[1])
    a, b = a[:h, :w], b[:h, :w]
    return float(np.count_nonzero(a & b)) >= 0.8 * float(max(np.count_nonzero(a | b), 1))
