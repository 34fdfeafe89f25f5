"""Hand lettering redrawn at the width it was written, not the height.

A run's font size is read from its ink height and kept where its width disagrees by more than
12 % (:func:`crafteditor.ocr.font_metrics.size_and_weight_from_width`: for a typeset label such a
width means a misread). Hand lettering is narrow for its height: Excalidraw's Virgil and marker
on a whiteboard run about two thirds as wide as DejaVu Sans at the same cap height, so a
hand-drawn figure's labels came back half as wide again as written, spilling out of their boxes.
On a figure read as hand-drawn, a run of a few letters and more is redrawn at the size that
makes it as wide as its ink (never larger than the height says, never under MIN_SHARE of it).
"""

from __future__ import annotations

from dataclasses import replace

from crafteditor.ocr.font_metrics import ink_width_em
from crafteditor.ocr.runs import TextRun

MIN_LETTERS = 4  # shorter runs: their width says little
MIN_SHARE = 0.6  # never drawn under this share of the height's size (a reading with extra letters)
SLACK = 0.97  # sizes within 3 % of the height's are left as they are


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
