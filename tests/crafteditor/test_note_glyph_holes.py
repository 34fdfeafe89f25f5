"""A note one line tall is a node with its text, not an empty frame. A box whose face has long holes (lines
drawn inside it) is taken for a frame (:func:`crafteditor.shapes.frames.holds_drawing`); in a note as tall as
two lines of its text, the rims its erased glyphs leave (a stem 12 px tall, a third of the face's height) had
passed for such lines: two Mermaid notes beside a lifeline and an activation bar ('During pod sync', 'Pull OCI
object') came back as empty groups with bold titles and pale traced scraps of their glyphs.

The fixture ``mermaid/sequence_notes_by_bar.png`` is the top 300 rows of that sequence diagram (its source
beside it: a real kubelet/container-runtime sequence) as Mermaid 11 draws it in headless Chromium at scale 1,
shrunk (Lanczos) to an 830 px README column."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from crafteditor.convert import convert
from crafteditor.ocr.runs import TextRun
from crafteditor.realset import _label
from crafteditor.shapes.faces import Face
from crafteditor.shapes.frames import holds_drawing
from crafter.spec.model import Group, Node

HERE = Path(__file__).parent / "mermaid"


def test_notes_beside_a_lifeline_and_an_activation_bar_are_nodes_with_their_text():
    fig = convert(HERE / "sequence_notes_by_bar.png", name="sequence_notes_by_bar").figure
    nodes = [_label(c.label) for c in fig.components if isinstance(c, Node)]
    groups = [_label(c.label) for c in fig.components if isinstance(c, Group)]
    assert "during pod sync" in nodes
    assert any(n.startswith("pull oc") and n.endswith("object") for n in nodes)
    assert not groups


def _run(text: str, x: float, y: float, w: float, h: float) -> TextRun:
    return TextRun(text=text, x=x, y=y, w=w, h=h, angle=0.0, font_px=h, bold=False, color=(0, 0, 0),
                   confidence=1.0, baseline=y + h, glyphs=np.zeros((int(h), int(w)), bool))


def _note_face(holes: list[tuple[int, int, int, int]]) -> Face:
    """A note's face, 144 x 33 px at (78, 102), with the holes (x, y, w, h in the face) cut out of it."""
    filled = np.ones((33, 144), bool)
    mask = filled.copy()
    for x, y, w, h in holes:
        mask[y:y + h, x:x + w] = False
    return Face(paint=1, x=78, y=102, w=144, h=33, mask=mask, filled=filled)


def test_glyph_stems_in_a_line_of_text_are_no_drawing_but_a_line_outside_it_is():
    stems = [(7, 11, 1, 12), (61, 14, 1, 10), (65, 14, 1, 12)]  # 'D', 'p', 'd': a third of the face's height
    text = [_run("During pod sync", 87, 113, 127, 15)]
    assert not holds_drawing(_note_face(stems), text)
    assert holds_drawing(_note_face(stems), [])  # without the text read, they pass for lines
    arrow = (10, 4, 120, 2)  # a line drawn across the face above the text
    assert holds_drawing(_note_face([*stems, arrow]), text)
