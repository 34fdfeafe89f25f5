"""Free text: the runs no chart, node, group or edge took, as text components where they stood."""

from __future__ import annotations

from typing import Any

from crafteditor.assemble.builder import FigureBuilder, hex_rgb
from crafteditor.config import THEME
from crafteditor.ocr.runs import TextRun
from crafteditor.paint import color_distance, to_hex
from crafter.spec.model import Point, Text


def free_texts(b: FigureBuilder, runs: list[TextRun], used: set[int], targets: dict[int, str]) -> list[Text]:
    """The runs not in ``used``; ``targets``: the ids edges already point at, by run."""
    out = []
    for k, r in enumerate(runs):
        if k in used:
            continue
        fs = r.font_px * b.s
        # 'at' is the centre of the text block; the renderer puts the baseline 0.35 em below it
        if r.angle == 0:
            cx, cy = r.cx * b.s, r.baseline * b.s - 0.35 * fs
        elif r.angle == -90:
            cx, cy = r.baseline * b.s - 0.35 * fs, r.cy * b.s
        elif r.angle == 90:
            cx, cy = r.baseline * b.s + 0.35 * fs, r.cy * b.s
        else:  # slanted: turned about the centre of its ink
            cx, cy = r.cx * b.s, r.cy * b.s
        kw: dict[str, Any] = {"font_size": round(fs, 1)}
        if r.bold:
            kw["bold"] = True
        if r.font in ("serif", "mono"):  # sans is the theme's font
            kw["font"] = r.font
        if color_distance(r.color, hex_rgb(THEME.annotation_color)) > 12:
            kw["color"] = to_hex(r.color)
        if r.angle:
            kw["rotate"] = r.angle
        if (spacing := r.spacing_at(r.font_px)) is not None:  # as wide as its ink
            kw["letter_spacing"] = round(spacing * b.s, 2)
        cid = targets.get(k) or b.new_id("t", r.text)
        out.append(Text(kind="text", id=cid, text=r.shown, at=Point(x=round(cx, 2), y=round(cy, 2)), **kw))
        b.chars_kept += len(r.text.replace(" ", ""))
    return out
