"""Mermaid 11's handDrawn look (rough.js) fills a node with wide strokes in the fill colour and thin slits of paper
between them (issue 31: on 12 drawn handDrawn Mermaid figures nodes read 0.58, edges 0.21): the slits cut the fill
into slivers (no node) and read as lines. They are painted in the fill before anything is read."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from crafteditor.convert import convert
from crafteditor.hatching import paper_distance, slits_filled
from crafteditor.realset import _label
from crafter.spec.model import Edge, Node

LAVENDER, BLUE, PAPER = (236, 236, 255), (37, 99, 235), (255, 255, 255)


def _slitted_box(fill: tuple[int, int, int], paper: tuple[int, int, int] = PAPER) -> np.ndarray:
    """A 2x export's box: ``fill`` cut by parallel 3 px paper slits at 50° every 12 px, a dark outline."""
    img = np.full((240, 420, 3), paper, np.uint8)
    cv2.rectangle(img, (40, 40), (380, 200), fill, -1)
    box = np.zeros(img.shape[:2], np.uint8)
    cv2.rectangle(box, (42, 42), (378, 198), 1, -1)
    slits = np.zeros_like(box)
    for x in range(-200, 420, 12):
        cv2.line(slits, (x, 200), (x + 134, 40), 1, 3)
    img[(slits & box) > 0] = paper
    cv2.rectangle(img, (40, 40), (380, 200), (147, 112, 219), 3)
    return img


def _slits_filled(img: np.ndarray, paper: tuple[int, int, int]) -> np.ndarray | None:
    p = np.array(paper, np.float32)
    return slits_filled(img, p, paper_distance(img, p))


def test_paper_slits_in_a_pastel_fill_are_painted_in_the_fill():
    img = _slitted_box(LAVENDER)
    out = _slits_filled(img, PAPER)
    assert out is not None
    inside = out[60:180, 60:360].reshape(-1, 3)
    assert (np.abs(inside.astype(int) - LAVENDER).max(axis=1) <= 3).mean() > 0.97  # flat, not striped
    assert (out[:30] == PAPER).all()  # the paper outside is left alone


def test_slits_on_dark_paper_are_painted_in_the_dark_fill():
    """Mermaid's dark theme: near-black fills on #333 paper, the slits in the paper's grey."""
    dark, black = (51, 51, 51), (31, 32, 32)
    out = _slits_filled(_slitted_box(black, dark), dark)
    assert out is not None
    inside = out[60:180, 60:360].reshape(-1, 3)
    assert (np.abs(inside.astype(int) - black).max(axis=1) <= 3).mean() > 0.97


def test_paper_marks_on_a_deep_fill_are_kept():
    """White on a deep fill may be its label's letters: left as drawn."""
    img = _slitted_box(BLUE)
    out = _slits_filled(img, PAPER)
    assert out is None or np.array_equal(out, img)


SOURCE = """%%{init: {"theme": "default", "look": "handDrawn", "handDrawnSeed": 7}}%%
flowchart LR
  A[Request delete] --> B[Cart order]
  B --> C[Token gateway]
  B --> D[Restore store]
  D --> E[Import output]
"""


def test_hand_drawn_mermaid_flowchart_reads_its_nodes_and_edges(tmp_path: Path):
    from craftbench.makers.mermaid import MermaidMakerError, render

    png = tmp_path / "hand.png"
    try:
        render([(SOURCE, "default", 2, "16px", png)])
    except MermaidMakerError as e:  # no Chromium or Playwright here: the maker cannot draw
        pytest.skip(str(e))
    fig = convert(png, name="hand").figure
    labels = {c.id: _label(c.label) for c in fig.components if isinstance(c, Node)}
    assert set(labels.values()) == {"request delete", "cart order", "token gateway", "restore store", "import output"}
    pairs = Counter((labels.get(e.source), labels.get(e.target)) for e in fig.components if isinstance(e, Edge))
    want = [("request delete", "cart order"), ("cart order", "token gateway"), ("cart order", "restore store"),
            ("restore store", "import output")]
    assert sum(pairs[p] for p in want) >= 3


def test_paper_distance_is_each_pixels_largest_channel_difference():
    """Read once per image and handed to the slit and hachure passes (it was computed by each)."""
    img = _slitted_box(LAVENDER)[::2, 1::2]  # not contiguous, as a crop is
    paper = np.array((250.4, 251.0, 254.6), np.float32)
    want = np.abs(img.astype(int) - np.round(paper).astype(int)).max(axis=2)
    assert np.array_equal(paper_distance(img, paper), want)
