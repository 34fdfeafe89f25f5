"""Hand lettering redrawn at the width it was written, not the height.

A run's font size is read from its ink height and kept where its width disagrees by more than
12 % (:func:`crafteditor.ocr.font_metrics.size_and_weight_from_width`: for a typeset label such a
width means a misread). Hand lettering is narrow for its height: Excalidraw's Virgil and marker
on a whiteboard run about two thirds as wide as DejaVu Sans at the same cap height, so a
hand-drawn figure's labels came back half as wide again as written, spilling out of their boxes.
On a figure read as hand-drawn, a run of a few letters and more is redrawn at the size that
makes it as wide as its ink (never larger than the height says, never under MIN_SHARE of it).

Hand-drawn labels sit close to their box's rough side and to the arrows that reach them, so the
detector's box takes in a stroke beside the word, read as one more letter at the run's start or
end ('SourceRecordl'); a hand-drawn comma or colon after a word is read so too ('two componentst a
frontend', 'a statict pre-rendered'). :func:`trim_stray_strokes` takes such a letter off where the word
with it is unknown to the lexicon and the word without it is known.
"""

from __future__ import annotations

import re
from dataclasses import replace

from crafteditor.ocr.font_metrics import ink_width_em
from crafteditor.ocr.lexicon import LEXICON_PART, PARTS, lexicon
from crafteditor.ocr.runs import TextRun

MIN_LETTERS = 4  # shorter runs: their width says little
MIN_SHARE = 0.6  # never drawn under this share of the height's size (a reading with extra letters)
SLACK = 0.97  # sizes within 3 % of the height's are left as they are
STRAY_FIRST = "lijft"  # a stroke just before a word read as its first letter (a box's side, an arrow's stub)
STRAY_LAST = "ltijy"  # ...just after it, read as its last (a side, an arrowhead's wing)
VOWELS = "aeiouy"
_LETTERS = re.compile(r"[A-Za-z]+")
_LAST_LETTERS = re.compile(r"[A-Za-z]+$")


def fit_hand_lettering(runs: list[TextRun]) -> list[TextRun]:
    """``runs`` with each hand-lettered line sized by its width (see the module)."""
    out = []
    for r in runs:
        em = ink_width_em(r.text, r.bold) if r.angle == 0 and len(r.text.replace(" ", "")) >= MIN_LETTERS else None
        if em:
            by_width = r.w / em
            if by_width < SLACK * r.font_px:
                r = replace(r, font_px=max(MIN_SHARE * r.font_px, by_width))
        out.append(r)
    return out


def trim_stray_strokes(runs: list[TextRun]) -> list[TextRun]:
    """``runs`` with a stroke or a hand-drawn comma or colon read as a letter beside a word taken off (see
    the module): only a lower-case letter of :data:`STRAY_FIRST` / :data:`STRAY_LAST` at a word's first or
    last character, in a word part of letters ('SourceRecordl' -> 'Recordl') unknown to the lexicon and
    known without the letter, of :data:`LEXICON_PART` letters or more. Where it was the run's first or last
    character, the run's box and glyphs lose that letter's share of the width."""
    words = lexicon()
    if not words:
        return runs
    out = []
    for r in runs:
        if r.angle != 0 or len(r.text) <= LEXICON_PART:
            out.append(r)
            continue
        tokens = r.text.split(" ")
        first = last = False  # whether the run's own first (last) character goes
        for i, tok in enumerate(tokens):
            # after a vowel the letter is the word's own ('contrat', 'Applet': French and names the lexicon lacks)
            tail = (_edge_part(tok, first=False) if tok and tok[-1] in STRAY_LAST and tok[-2:-1].lower() not in VOWELS
                    else None)
            head = _edge_part(tok, first=True) if tok and tok[0] in STRAY_FIRST else None
            if tail and _stray(tail, tail[:-1], words):
                tokens[i], last = tok[:-1], last or i == len(tokens) - 1
            elif head and _stray(head, head[1:], words):
                tokens[i], first = tok[1:], first or i == 0
        text = " ".join(tokens)
        if text != r.text:
            n, cols = len(r.text), r.glyphs.shape[1]
            share, k = r.w / n, round(cols / n)
            x, w, glyphs = r.x, r.w, r.glyphs
            if first:
                x, w, glyphs = x + share, w - share, glyphs[:, k:] if cols > 2 * k else glyphs
            if last:
                w, glyphs = w - share, glyphs[:, :glyphs.shape[1] - k] if cols > 2 * k else glyphs
            r = replace(r, text=text, x=x, w=w, glyphs=glyphs, marked=None)
        out.append(r)
    return out


def _edge_part(text: str, first: bool) -> str | None:
    """A word's first (last) part, where it starts (ends) with a letter: the camelCase part of its
    letters there ('SourceRecordl' -> 'Recordl')."""
    m = _LETTERS.match(text) if first else _LAST_LETTERS.search(text)
    if not m:
        return None
    parts = PARTS.findall(m.group(0))  # letters only: the parts tile them, the first starts them, the last ends them
    return parts[0] if first else parts[-1]


def _stray(part: str, rest: str, words: frozenset[str]) -> bool:
    """Whether ``part`` is ``rest`` with a stroke read as a letter: ``rest`` a word of the lexicon,
    ``part`` not. Plain membership both ways: the loose rule (:func:`~crafteditor.ocr.lexicon.known_word`)
    passes 'statict' as 'stat' + 'ict' and 'Inges' as 'ing' + 'es' (a drawn 'Ingest' lost its t)."""
    return len(rest) >= LEXICON_PART and rest.lower() in words and part.lower() not in words
