"""Why a figure's true words were not kept as text: each missed word of a real figure's truth classed
(issue 31), so fixes go to the largest class first.

A missed word is a truth word (compared on its letters and digits, as the real-set score does) the
SVG does not draw as text. Its class, the first that fits:

* ``scorer`` — the SVG has it under a looser comparison (×/x, µ/u, a ligature, a symbol the truth
  spells out): the truth's or the score's convention, not a reading;
* ``split`` — two or three neighbouring words of the reading make it (a hyphenated word read over
  two lines, 'Data base'), or a word of the reading holds it joined to a neighbour ('Accuracybymodel');
* ``paths`` — a text run read it but the SVG does not draw it as text (kept as traced ink, or lost
  in assembly);
* ``misread`` — a word of the reading no truth word accounts for is like it (``read`` shows which);
* ``never`` — nothing of the reading is near it: no text box there.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections import Counter
from typing import Any

from crafteditor.realset import norm_word

CLASSES = ("never", "misread", "split", "paths", "scorer")

# characters a truth and a reading may spell differently for one glyph
_LOOSE = str.maketrans({"×": "x", "µ": "u", "μ": "u", "ß": "ss", "æ": "ae", "ø": "o", "ł": "l"})


def _loose(w: str) -> str:
    w = unicodedata.normalize("NFKD", w.lower().translate(_LOOSE))
    return "".join(ch for ch in w if ch.isascii() and ch.isalnum())


def words(text: str) -> list[str]:
    return [n for n in (norm_word(t) for t in text.split()) if n]


def classify_missed(truth: str, svg_words: list[str], run_texts: list[str]) -> list[dict[str, Any]]:
    """Each missed truth word ``{"word", "class", "read"?}``; ``svg_words``: the words the SVG draws as
    text in drawing order (normalised), ``run_texts``: the OCR runs' readings."""
    t_count = Counter(words(truth))
    p_count = Counter(svg_words)
    missed = t_count - p_count
    extra = list((p_count - t_count).elements())
    run_words = Counter(w for t in run_texts for w in words(t))
    # words the reading has that the truth does not: what a missed word may have become
    spare = Counter(extra)
    out: list[dict[str, Any]] = []
    seq = list(svg_words)
    for word in sorted(missed.elements()):
        row: dict[str, Any] = {"word": word}
        loose = next((e for e in spare if spare[e] > 0 and _loose(e) == _loose(word)), None)
        joined = _joined(word, seq)
        if loose is not None:
            row.update({"class": "scorer", "read": loose})
            spare[loose] -= 1
        elif joined is not None:
            row.update({"class": "split", "read": joined})
        elif run_words[word] > p_count[word]:
            row["class"] = "paths"
        else:
            # compared on glyph shapes: 'z00' is 'zoo' misread
            shapes = {_shape(e): e for e in spare if spare[e] > 0}
            near = difflib.get_close_matches(_shape(word), list(shapes), n=1, cutoff=0.6)
            if near:
                row.update({"class": "misread", "read": shapes[near[0]]})
                spare[shapes[near[0]]] -= 1
            else:
                row["class"] = "never"
        out.append(row)
    return out


_SHAPE = str.maketrans({"0": "o", "1": "l", "i": "l", "5": "s"})


def _shape(w: str) -> str:
    return w.translate(_SHAPE)


def _joined(word: str, seq: list[str]) -> str | None:
    """The reading's words that split or hold ``word``: 2–3 neighbours that make it, or one word that
    holds it with a neighbour's letters (at least 3 letters of it, the rest another word)."""
    for i in range(len(seq)):
        for n in (2, 3):
            if i + n <= len(seq) and "".join(seq[i:i + n]) == word:
                return " ".join(seq[i:i + n])
    if len(word) >= 3:
        for s in seq:
            if s != word and len(s) > len(word) and (s.startswith(word) or s.endswith(word)):
                return s
    return None


def count_classes(rows: list[dict[str, Any]]) -> dict[str, int]:
    c = Counter(r["class"] for r in rows)
    return {k: c.get(k, 0) for k in CLASSES}
