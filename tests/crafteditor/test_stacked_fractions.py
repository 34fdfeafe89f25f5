"""A TeX stacked fraction (F over its rule over N) read as one sideways line 'FN' (issue 31): the words F and
N were lost and the fraction was drawn turned 90°. Its parts, read upright by the lone-glyph pass one
above the other with the rule between them, now stand in its place. On a crop of the dev figure
G_diagrams_thermo-ensemble-trafos (crops/README.md)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from crafteditor.config import Config
from crafteditor.convert import convert
from crafteditor.ocr import read
from crafteditor.ocr.read import _stacked_fraction, longest_run
from crafteditor.ocr.runs import TextRun

CROP = Path(__file__).parent / "crops" / "thermo_stacked_fractions.png"


def test_a_stacked_fraction_reads_upright_numerator_over_denominator():
    fig = convert(CROP.read_bytes(), Config()).figure
    texts = [c for c in fig.components if c.kind in ("text", "node")]
    words = [(getattr(c, "text", None) or getattr(c, "label", None), getattr(c, "rotate", None)) for c in texts]
    assert not any(w and w.replace(" ", "") == "FN" for w, _ in words), words
    f = [c for c in texts if getattr(c, "text", None) == "F"]
    n = [c for c in texts if getattr(c, "text", None) == "N" and f and abs(c.at.x - f[0].at.x) < 10]
    assert f and n and n[0].at.y > f[0].at.y, words  # the numerator above its denominator, upright
    assert not f[0].rotate and not n[0].rotate


def test_longest_run_is_the_longest_row_of_ink():
    m = np.zeros((3, 9), bool)
    m[0, 1:3] = m[1, 2:8] = m[2, 0] = True
    assert longest_run(m) == 6
    assert longest_run(np.zeros((2, 4), bool)) == 0


def _run(text: str, x: float, y: float, w: float, h: float, angle: float = 0.0, conf: float = 0.99) -> TextRun:
    return TextRun(text=text, x=x, y=y, w=w, h=h, angle=angle, font_px=h, bold=False, color=(0, 0, 0),
                   confidence=conf, baseline=y + h, glyphs=np.ones((int(h), int(w)), bool))


def _e_over_t(rule: bool = False, gridline: bool = False) -> tuple[np.ndarray, list[TextRun]]:
    """An 'E' (12 px wide) over a wider 'T' (20 px): the T's bar runs across the band between their middles."""
    ink = np.zeros((60, 60), bool)
    ink[10:24, 20:22] = True  # E: spine and three arms
    ink[10:12, 20:32] = ink[16:18, 20:30] = ink[22:24, 20:32] = True
    ink[28:30, 16:36] = True  # T: bar and stem
    ink[28:42, 25:27] = True
    if rule:
        ink[28:30, 16:36] = False
        ink[26:28, 15:37] = True  # a rule of its own, over a T without its bar
    if gridline:
        ink[25, :] = True
    return ink, [_run("E", 20, 10, 12, 14), _run("T", 16, 28, 20, 14)]


def test_a_wider_glyphs_bar_or_a_gridline_is_no_fraction_rule():
    sideways = _run("ET", 15, 10, 22, 32, angle=90)
    ink, parts = _e_over_t()
    assert not _stacked_fraction(sideways, parts, ink)  # a sideways 'ET': its T's bar is joined to the stem
    ink, parts = _e_over_t(gridline=True)
    assert not _stacked_fraction(sideways, parts, ink)
    ink, parts = _e_over_t(rule=True)
    assert _stacked_fraction(sideways, parts, ink)


class _Paints:
    def __init__(self, ink: np.ndarray) -> None:
        self.ink = ink

    def ink_mask(self) -> np.ndarray:
        return self.ink


def test_a_sure_short_sideways_run_hides_its_ink_unless_it_may_be_stacked(monkeypatch):
    """A rotated tick label read surely keeps its ink from the lone-glyph pass (its glyphs were read there
    only to be dropped); one whose ink lies in pieces one above the other may be a fraction and does not."""
    seen: list[list[TextRun]] = []

    def lone(rgb, paints, runs, *a):
        seen.append(runs)
        return []

    monkeypatch.setattr(read, "read_lone_glyphs", lone)
    ink = np.zeros((60, 60), bool)
    ink[10:40, 20:30] = True  # one piece: a sideways label
    tick = _run("10", 20, 10, 10, 30, angle=90)
    read._with_lone_glyphs([tick], np.zeros((60, 60, 3), np.uint8), _Paints(ink), None, True, Config())
    assert any(r is tick for r in seen[-1])  # passed as read: its ink is hidden
    ink, _ = _e_over_t(rule=True)
    stack = _run("ET", 15, 10, 22, 32, angle=90)
    read._with_lone_glyphs([stack], np.zeros((60, 60, 3), np.uint8), _Paints(ink), None, True, Config())
    assert not any(r is stack for r in seen[-1])
