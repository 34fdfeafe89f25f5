"""A node's label read at README size (a Mermaid flowchart drawn at 1x into a README's column: 6 px type) stays
whole when it is fitted to its box: the renderer draws each word on one line, never broken inside it (issue 31)."""

import numpy as np

from crafteditor.assemble.builder import FigureBuilder
from crafteditor.assemble.nodes import node_component
from crafteditor.config import THEME, Config
from crafteditor.loading import load_image
from crafteditor.ocr.runs import TextRun
from crafteditor.paint import find_paints
from crafteditor.shapes.detect import DetectedShape
from crafteditor.shapes.faces import Face
from crafter.base.rules import node_label_lines


def _box(x: float, y: float, w: float, h: float) -> DetectedShape:
    ones = np.ones((int(h), int(w)), bool)
    face = Face(paint=-1, x=int(x), y=int(y), w=int(w), h=int(h), mask=ones, filled=ones)
    return DetectedShape(shape="box", x=x, y=y, w=w, h=h, fill=(236, 236, 255), stroke=(147, 112, 219),
                         stroke_px=1.0, iou=1.0, face=face)


def _run(text: str, x: float, y: float, w: float, font_px: float) -> TextRun:
    h = 0.75 * font_px
    return TextRun(text=text, x=x, y=y, w=w, h=h, angle=0, font_px=font_px, bold=False, color=(51, 51, 51),
                   confidence=0.99, baseline=y + h, glyphs=np.ones((int(h), int(w)), bool))


def _builder() -> FigureBuilder:
    rgb = np.full((60, 200, 3), 255, np.uint8)
    return FigureBuilder(load_image(rgb, Config()), Config(), find_paints(rgb, Config()))


def test_a_word_in_a_small_box_at_readme_size_is_drawn_whole():
    """'Closed' read at 6 px in a box 33 px wide (Mermaid's at 1x): the renderer's room is 17 px; held at a 6 px
    floor it had broken into 'Close' / 'd' and the word was lost."""
    node = node_component(_builder(), "n", _box(10, 10, 33, 21), [_run("Closed", 16, 17, 21, 6.0)])
    lines, size = node_label_lines(node, THEME)
    assert lines == ["Closed"]
    assert 4.0 <= size < 6.0


def test_a_label_read_at_a_working_size_keeps_the_floor():
    """Type read at 12 px is fitted no smaller than 6 px: a label whose fit would go further wraps at its spaces."""
    node = node_component(_builder(), "n", _box(10, 10, 60, 40), [_run("Encoder decoder stack", 14, 20, 52, 12.0)])
    lines, size = node_label_lines(node, THEME)
    assert size == 6.0
    assert all(w in {"Encoder", "decoder", "stack"} for ln in lines for w in ln.split())
