"""How sure the reading of a figure's text is, for the user to check what may be misread.

The conversion report's ``text_confidence`` is the share of the words read surely: at or above
:data:`SURE_WORD` (a run's confidence: the recogniser's mean character score, the same for each
of its words) and not a likely misreading (:func:`lexicon_doubt`); ``unsure_words`` the others,
each ``{"text", "score", "box": [x, y, w, h]}`` in image pixels (a word's box is its share of the
run's ink box, by characters), with ``"maybe"``: the word it may be, where the lexicon gave one.
In the SVG, the ``<text>`` of a text component or node label read from an unsure run carries
``class="crafter-unsure"``.

A recogniser is sure of most of its misreadings: 'Returmns' for 'Returns', 'Z00' for 'Zoo' came
back 0.99 sure. A word the lexicon doubts (:func:`~crafteditor.ocr.lexicon.lexicon_doubt`: one OCR
slip from a word it knows) is unsure whatever its score.
"""

from __future__ import annotations

import re
from typing import Any

from crafteditor.ocr.lexicon import lexicon_doubt
from crafteditor.ocr.runs import TextRun
from crafteditor.reader import GATE
from crafter.spec.markup import plain
from crafter.spec.model import Figure, Node, Text

# a word read less sure than this is listed for the user to check: the reader's own gate (under it
# the reader hands a line to rapidocr). Clean words read 0.97 to 1.0; the misreadings of a probe
# figure (σ read as 0, superscripts dropped) 0.90 to 0.94
SURE_WORD = GATE
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
