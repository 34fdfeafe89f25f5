"""A dashed group frame's four sides are its outline: not a column of '1' labels, a loose grey path
drawn over the frame, or an image patch. A side drawn one pixel wide at a fractional position has a
full core column with a stray rim pixel per dash (the lone-glyph pass read each as a '1'), and the
fill, drawn up to the stroke's centre, reaches into the side through every gap (its inner rim was
left inside the frame's face, over for the lines or the tracing)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from crafteditor import Config, convert
from crafteditor.bench import render_truth
from crafteditor.ocr.lone_glyphs import _drop_dashes

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

SMALL = """figure "Encoder stack" direction=TB
a node "Embedding layer" shape=box
b node "Attention block" shape=box
c node "Output head" shape=box
e1 edge a -> b
e2 edge b -> c
g group "Frozen weights" [a, b] fill=#F7F7F7 style=dashed
"""

# the training_loop example drawn with its glyphs unhinted: as a process that exported a PDF
# first drew every PNG before ci16 made the hinting part of the fonts.conf
_UNHINTED = """
import sys
from pathlib import Path
from crafter.formats import figure_to_pdf_bytes
from crafter.spec import parse_dsl
from crafteditor.bench import render_truth
figure_to_pdf_bytes(parse_dsl('x node "Tokenizer loss"'))
Path(sys.argv[2]).write_bytes(render_truth(Path(sys.argv[1]), 150)[1])
"""


def _loose_along_sides(fig, group_label: str) -> list[str]:
    """The paths of ``fig`` lying along a side of the group titled ``group_label`` (each point within
    3 user units of one side's line, between its ends)."""
    g = next(g for g in fig.of_kind("group") if g.label == group_label)
    b = g.box
    out = []
    for p in fig.of_kind("path"):
        nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", p.d)]
        pts = list(zip(nums[::2], nums[1::2]))
        for side_x in (b.x, b.x + b.w):
            if pts and all(abs(x - side_x) <= 3 and b.y - 3 <= y <= b.y + b.h + 3 for x, y in pts):
                out.append(p.d)
        for side_y in (b.y, b.y + b.h):
            if pts and all(abs(y - side_y) <= 3 and b.x - 3 <= x <= b.x + b.w + 3 for x, y in pts):
                out.append(p.d)
    return out


def _frame_is_clean(png: bytes, group_label: str) -> None:
    fig = convert(png, Config.preset("diagram")).figure
    assert group_label in {g.label for g in fig.of_kind("group")}
    assert _loose_along_sides(fig, group_label) == []
    assert not list(fig.of_kind("image"))  # nothing left over as a raster patch
    assert not [t.text for t in fig.of_kind("text") if t.text.strip() in {"1", "l", "I", "|"}]  # no dash as a '1'


@pytest.mark.parametrize("dpi", [100, 120, 170, 200])
def test_a_small_dashed_frames_sides_are_its_outline(tmp_path, dpi):
    """At each of these sizes one side lands between pixels: the side had come back as twelve '1'
    labels, a loose path and an image patch (170 dpi), an image patch (120) or traced slivers of the
    rim (100, 200)."""
    dsl = tmp_path / "frame.dsl"
    dsl.write_text(SMALL)
    _, png = render_truth(dsl, dpi)
    fig = convert(png, Config.preset("diagram")).figure
    groups = list(fig.of_kind("group"))
    assert len(groups) == 1  # (its title's letters are not what is tested: 100 dpi reads "welghts")
    assert not groups[0].label.endswith("1")  # a side's dash beside the title had been read into it (170 dpi)
    assert not list(fig.of_kind("path")) and not list(fig.of_kind("image"))
    assert [t.text for t in fig.of_kind("text")] == ["Encoder stack"]
    assert len(list(fig.of_kind("node"))) == 3 and len(list(fig.of_kind("edge"))) == 2


def test_training_loops_frozen_frame_is_clean_hinted():
    _, png = render_truth(EXAMPLES / "training_loop.dsl", 150)
    _frame_is_clean(png, "Frozen (no gradients)")


def test_training_loops_frozen_frame_is_clean_unhinted(tmp_path):
    """The same figure with its text a pixel off (unhinted glyphs, drawn in a process of its own with a
    fonts.conf that leaves hinting to the surface, after a PDF): the frame's lower dashes had been kept
    as an image patch, and its left side as a loose path."""
    from crafter.base.text import FONT_DIR

    system = next((p for p in ("/etc/fonts/fonts.conf", "/usr/local/etc/fonts/fonts.conf") if Path(p).exists()), None)
    include = f'<include ignore_missing="yes">{system}</include>' if system else ""
    conf = tmp_path / "fonts.conf"
    conf.write_text('<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n'
                    f"  {include}\n  <dir>{FONT_DIR}</dir>\n  <cachedir>{tmp_path / 'cache'}</cachedir>\n"
                    "</fontconfig>\n")
    out = tmp_path / "unhinted.png"
    env = {**__import__("os").environ, "FONTCONFIG_FILE": str(conf)}
    subprocess.run([sys.executable, "-c", _UNHINTED, str(EXAMPLES / "training_loop.dsl"), str(out)], env=env,
                   check=True, timeout=300, cwd=Path(__file__).resolve().parents[2])
    png = out.read_bytes()
    assert png != render_truth(EXAMPLES / "training_loop.dsl", 150)[1]  # the other rendering indeed
    _frame_is_clean(png, "Frozen (no gradients)")


def test_one_column_dashes_with_a_stray_rim_pixel_are_dashes_not_glyphs():
    """Bars one column wide, each with a pixel of anti-aliasing beside it, stacked in a column: the
    lone-glyph pass drops them; a lone such bar (an 'l' or 'I') and a '1' with its foot stay."""
    lab = np.zeros((120, 40), np.int32)
    stats = [np.zeros(5, np.int64)]
    cands = []

    def put(i: int, x: int, y: int, pixels: list[tuple[int, int]]) -> None:
        for dx, dy in pixels:
            lab[y + dy, x + dx] = i
        xs, ys = [x + dx for dx, _ in pixels], [y + dy for _, dy in pixels]
        stats.append(np.array([min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1, len(pixels)]))
        cands.append(tuple(int(v) for v in stats[-1][:4]) + (i,))

    for k in range(4):  # a dashed side: 7 px dashes, 4 px gaps, a rim pixel beside each dash's end
        put(k + 1, 10, 5 + 11 * k, [(1, dy) for dy in range(7)] + [(0, 6 - (k % 2) * 6)])
    put(5, 30, 5, [(0, dy) for dy in range(8)] + [(1, 0)])  # a lone bar: nothing like it above or below
    put(6, 30, 60, [(1, dy) for dy in range(8)] + [(0, 1), (0, 7), (2, 7)])  # a '1': flag and foot
    put(7, 30, 71, [(1, dy) for dy in range(8)] + [(0, 1), (0, 7), (2, 7)])  # and another under it
    kept = _drop_dashes(cands, np.array(stats), lab)
    assert [c[4] for c in kept] == [5, 6, 7]
