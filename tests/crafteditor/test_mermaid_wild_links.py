"""Mermaid figures as they reach repositories (issue 31, round 15): links that leave a subgraph's node
through the frame's border, and a top-down flowchart's column of nodes that is no sequence diagram."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest
from handdrawn import box_shape

from crafteditor.assemble.seq_ink import ink_mask
from crafteditor.assemble.seq_lifelines import lifeline
from crafteditor.convert import convert
from crafteditor.realset import _label
from crafter.spec.model import Edge, Node

# a drawn source (craftbench makers mermaid-wild, seed 15, its figure mw_007), cut down: basis links leave
# 'Retry render download' inside the subgraph through the frame's top, two of them side by side
SUBGRAPH_LINKS = """%%{init: {"theme": "neutral", "flowchart": {"curve": "basis"}}}%%
flowchart RL
    N0{{"Stock"}}
    N1["Session"]
    subgraph G1 ["Admin"]
    N2[/"Refund done review router render rule test"/]
    N3["Retry render download ready client train ready"]
    N4["Cache"]
    end
    N5(["Restore load parse ready rule"])
    N6[/"Error storage update"\\]
    N7{"Schema address load"}
    N8["User account submit create router retry profile"]
    N0 --- N1
    N0 -.-> N2
    N1 --o|"cache server address"| N3
    N3 --> N4
    N3 --- N5
    N3 --x N6
    N6 -.-> N7
    N7 --> N8
    N1 --> N5
    N6 --- G1
    G1 --x N0
    classDef dark fill:#333,stroke:#111,stroke-width:2px,color:#fff
    class N1,N2,N3,N4 dark
"""


def _draw(tmp_path: Path, src: str, scale: int = 2) -> Path:
    pytest.importorskip("playwright")
    from craftbench.makers.mermaid import MermaidMakerError, render
    from crafteditor.browser import CHROMIUM

    if not Path(CHROMIUM).is_file():
        pytest.skip("no Chromium")
    png = tmp_path / "figure.png"
    try:
        render([(src, "default", scale, "16px", png)])
    except MermaidMakerError:
        pytest.skip("mermaid is not installed (npm install)")
    return png


def _pairs(png: Path) -> Counter:
    fig = convert(png, name=png.stem).figure
    labels = {c.id: _label(c.label) for c in fig.components if isinstance(c, Node)}
    return Counter((labels.get(e.source), labels.get(e.target)) for e in fig.components if isinstance(e, Edge))


@pytest.mark.slow
def test_links_leaving_a_subgraph_node_through_the_frame_keep_their_stretch_inside(tmp_path):
    """The links walled off a notch of the frame's face (from the node up to the border); the frame's stroke
    ring had followed the notch's sides, so the links' stretches inside the frame were masked as its outline
    and each link came back as a stub outside the frame, joined to one end only."""
    pairs = _pairs(_draw(tmp_path, SUBGRAPH_LINKS))
    assert pairs[("retry render download ready client train ready", "cache")] == 1, pairs
    assert pairs[("retry render download ready client train ready", "error storage update")] == 1, pairs


def _column(head: bool, k: int = 1) -> tuple[np.ndarray, list]:
    """Two boxes of one size, one over the other, joined by a vertical line (with an arrowhead into the
    lower box, or none); ``k``: the pixel density (a 2x export's strokes and head twice as wide)."""
    rgb = np.full((320 * k, 320 * k, 3), 255, np.uint8)
    shapes = [box_shape(100 * k, 20 * k, 120 * k, 40 * k), box_shape(100 * k, 240 * k, 120 * k, 40 * k)]
    for s in shapes:
        cv2.rectangle(rgb, (s.x, s.y), (s.x + s.w - 1, s.y + s.h - 1), (0, 0, 0), 2 * k)
    cv2.line(rgb, (160 * k, 61 * k), (160 * k, (238 if not head else 226) * k), (40, 40, 40), 2 * k)
    if head:
        cv2.fillPoly(rgb, [k * np.array([[153, 226], [167, 226], [160, 239]], np.int32)], (40, 40, 40))
    return rgb, shapes


@pytest.mark.parametrize("k", [1, 2, 3])
def test_a_column_that_runs_into_the_next_box_through_an_arrowhead_is_no_lifeline(k):
    """A top-down flowchart's links from node to node down a column (a real Mermaid flowchart,
    kubernetes/enhancements' DRA admin-access KEP) had read as a lifeline, the whole figure as a sequence;
    at 2x and 3x too (the head's and shaft's sizes had been 1x pixels: a 2x export's column stayed a lifeline)."""
    rgb, shapes = _column(head=True, k=k)
    assert lifeline(rgb, ink_mask(rgb, (255, 255, 255)), shapes, 0) is None
    rgb, shapes = _column(head=False, k=k)  # a lifeline down to its participant's box repeated at the foot
    assert lifeline(rgb, ink_mask(rgb, (255, 255, 255)), shapes, 0) is not None
