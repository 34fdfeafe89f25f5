"""Two participants' names set less than an em apart (PlantUML's icon participants, drawn wide: OCR read
'pod-snapshot-controller kubelet (owns the Pod)' as one line at the foot) are cut apart where each stands on a
lifeline's column of its own; a line standing on no lifelines stays whole."""

from __future__ import annotations

import numpy as np

from crafteditor.assemble.seq_names import names_on_lifelines
from crafteditor.ocr.runs import TextRun


def _run(text: str, x: float, y: float, spans: list[tuple[int, int]], h: int = 14) -> TextRun:
    """A line whose glyph mask inks the column ``spans`` (a word per span) over ``h`` rows."""
    w = spans[-1][1]
    glyphs = np.zeros((h, w), bool)
    for a, b in spans:
        glyphs[:, a:b:2] = True  # letters: every other column
    return TextRun(text=text, x=x, y=y, w=float(w), h=float(h), angle=0.0, font_px=18.0, bold=False, color=(0, 0, 0),
                   confidence=0.9, baseline=y + h, glyphs=glyphs)


def _page(columns: list[int], top: int, bottom: int) -> np.ndarray:
    ink = np.zeros((300, 400), bool)
    for x in columns:
        ink[top:bottom:2, x] = True  # a dashed lifeline
    return ink


def test_names_over_two_lifelines_are_cut_between_them():
    # 'pod-snapshot-controller' over x = 100 + 84, 'kubelet' over x = 100 + 202; a gap of 10 px (0.56 em)
    run = _run("pod-snapshot-controller kubelet", 100, 40, [(0, 168), (178, 226)])
    pieces = names_on_lifelines(run, _page([184, 302], 56, 280))
    assert [p.text for p in pieces] == ["pod-snapshot-controller", "kubelet"]
    assert pieces[1].x == 278


def test_a_line_at_the_foot_is_cut_on_the_lifelines_running_into_it():
    run = _run("pod-snapshot-controller kubelet", 100, 250, [(0, 168), (178, 226)])
    pieces = names_on_lifelines(run, _page([184, 302], 20, 246))
    assert [p.text for p in pieces] == ["pod-snapshot-controller", "kubelet"]


def test_a_line_on_no_lifelines_stays_whole():
    run = _run("pod-snapshot-controller kubelet", 100, 40, [(0, 168), (178, 226)])
    assert names_on_lifelines(run, _page([], 0, 0)) == [run]
    # one lifeline under the first name only: the second is no participant's
    assert names_on_lifelines(run, _page([184], 56, 280)) == [run]
