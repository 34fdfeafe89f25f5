"""Mermaid links at the sizes READMEs show them (issue 31, round 19): a label plate past which only a stub
of its link reaches the node, a dark theme's plate whose rim reads as a head, and nodes whose box
the page hides. Fixtures beside their sources (``tests/crafteditor/mermaid/*.mmd``), drawn by
``craftbench makers`` at seed 19: ``flowchart_column_plate_stubs`` is mermaid-wild's mw_000 (a README column,
device scale 2), ``flowchart_dark_plate_corners`` mermaid-readme's mr_004 (its right part) and
``flowchart_dark_unboxed_nodes`` mr_019 (its top half: 'Update start result' and 'Review upload' are
classed fill and stroke #333 on the dark theme's #333 page)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from crafteditor.convert import convert
from crafteditor.realset import _label
from crafter.spec.model import Edge, Node

HERE = Path(__file__).parent / "mermaid"


@pytest.fixture(scope="module")
def read():
    cache: dict[str, tuple[Counter, Counter, dict]] = {}

    def _read(name: str) -> tuple[Counter, Counter, dict]:
        if name not in cache:
            fig = convert(HERE / f"{name}.png", name=name).figure
            ends = {c.id: _label(c.label) for c in fig.components if isinstance(c, Node)}
            nodes = Counter(v for v in ends.values() if v)
            ends.update({c.id: _label(c.text) for c in fig.components if c.kind == "text"})
            edges = [e for e in fig.components if isinstance(e, Edge)]
            pairs = Counter(tuple(sorted((ends.get(e.source, "?"), ends.get(e.target, "?")))) for e in edges)
            by_pair = {tuple(sorted((ends.get(e.source, "?"), ends.get(e.target, "?")))): e.label for e in edges}
            cache[name] = (nodes, pairs, by_pair)
        return cache[name]
    return _read


def test_a_plate_with_only_a_stub_past_it_labels_its_link(read):
    # 'session' sits on the link from the parallelogram to 'Schema manager'; past it a 10 px stub and a
    # circle end fused with the box's outline: the link had ended at the plate, read as a node 'ession'
    nodes, pairs, by_pair = read("flowchart_column_plate_stubs")
    merge, schema = "merge worker build backup payment build metric", "schema manager"
    assert not any("ession" in n for n in nodes)
    assert pairs[(merge, schema)] == 1
    assert "ession" in (by_pair[(merge, schema)] or "")


def test_a_plate_its_link_runs_into_at_a_corner_is_no_node(read):
    # 'address record': the link's end slants the plate's corner (read as a parallelogram)
    nodes, pairs, _ = read("flowchart_column_plate_stubs")
    assert "address record" not in nodes
    assert pairs[("error", "merge worker build backup payment build metric")] == 1


def test_a_dark_plates_rim_is_no_head(read):
    # 'parse message': its plate's side left a sliver 7 by 4 px on the link's end, where the link's real head
    # (at 'Store product split') is 8 by 8
    nodes, pairs, _ = read("flowchart_dark_plate_corners")
    assert "parse message" not in nodes
    assert pairs[("report", "store product split")] == 1


def test_links_to_a_node_whose_box_the_page_hides_end_at_its_name(read):
    # the links stop a padding (about a line's height) short of 'Update start result' and 'Review upload',
    # drawn with no box; they had been free lines, joining nothing
    _, pairs, _ = read("flowchart_dark_unboxed_nodes")
    assert pairs[("config vendor valid message search render", "update start result")] == 1
    assert pairs[("create valid", "update start result")] == 1
    assert pairs[("restore split database", "review upload")] == 1


def test_a_title_one_line_points_at_is_no_node():
    """A block's output line stopping under the figure's title (nntikz's 'Multi-Head Attention'): no link
    leaves the title on its far side, so it stays a title, no node the line joins."""
    from PIL import Image, ImageDraw, ImageFont

    im = Image.new("RGB", (420, 320), "white")
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype("DejaVuSans.ttf", 18)
    d.text((210, 30), "Attention", fill="black", font=font, anchor="mm")
    d.rectangle([130, 200, 290, 260], fill=(230, 240, 255), outline=(40, 60, 120), width=2)
    d.text((210, 230), "Linear", fill="black", font=font, anchor="mm")
    d.line([(210, 200), (210, 64)], fill=(40, 40, 40), width=2)
    d.polygon([(203, 72), (217, 72), (210, 60)], fill=(40, 40, 40))
    fig = convert(np.asarray(im)).figure
    ends = {c.id: _label(c.label) for c in fig.components if isinstance(c, Node)}
    ends.update({c.id: _label(c.text) for c in fig.components if c.kind == "text"})
    assert not [e for e in fig.components if isinstance(e, Edge) and "attention" in (
        ends.get(e.source), ends.get(e.target))]
