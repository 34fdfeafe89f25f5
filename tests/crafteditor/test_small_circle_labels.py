"""A label inside a small circle (a neuron's x_1, a graph's n_2) stays one word on one line (issue 31).

TikZ figures put sub-scripted names in circles 20-30 px wide; at the theme's full padding such a label had no
room, broke into one character a line ('n' over '1', or 'n' '_' '{' '1' '}'), and was lost as a word.
"""

import shutil
import subprocess
from pathlib import Path

import pytest

from crafteditor.config import THEME
from crafter.base.rules import node_label_lines
from crafter.base.text import wrap
from crafter.spec.model import Box, Node


def _circle(label: str, d: float, fs: float) -> Node:
    return Node(kind="node", id="n", shape="circle", label=label, box=Box(x=0, y=0, w=d, h=d), width=d, height=d,
                font_size=fs)


def test_a_subscripted_name_in_a_small_circle_is_one_line():
    for label in ("n_{1}", "x1", "h_{2}"):
        lines, _ = node_label_lines(_circle(label, 22.0, 8.0), THEME)
        assert lines == [label]


def test_a_wide_box_keeps_the_themes_padding():
    lines, _ = node_label_lines(_circle("Feature extractor", 80.0, 12.0), THEME)
    assert lines == ["Feature", "extractor"]


def test_a_word_cut_by_character_keeps_its_scripts():
    assert wrap(":n_{4}:", 6, 6.01) == [":", "n_{4}", ":"]
    assert all("{" not in ln or "}" in ln for ln in wrap("W_{hh}x_{t}", 6, 8))
    assert wrap(":x_{a_{b}}:", 6, 6.01) == [":", "x_{a_{b}}", ":"]  # a nested script stays with its glyph


GRAPH = r"""\documentclass[tikz,border=4pt]{standalone}
\begin{document}
\begin{tikzpicture}[v/.style={circle, draw, fill=orange!30, inner sep=1pt}]
  \node[v] (a) at (0,0) {$n_1$}; \node[v] (b) at (2,0) {$n_2$};
  \node[v] (c) at (2,2) {$n_3$}; \node[v] (d) at (0,2) {$n_4$};
  \draw (a) -- (b) -- (c) -- (d) -- (a);
\end{tikzpicture}
\end{document}
"""


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("pdflatex") is None or shutil.which("pdftoppm") is None, reason="needs TeX Live")
def test_circled_names_drawn_by_pdflatex_are_kept_as_words(tmp_path: Path):
    from crafteditor.config import Config
    from crafteditor.convert import convert
    from crafteditor.realset import svg_words

    (tmp_path / "g.tex").write_text(GRAPH, encoding="utf-8")
    subprocess.run(["pdflatex", "-interaction=nonstopmode", "g.tex"], cwd=tmp_path, capture_output=True, check=True)
    subprocess.run(["pdftoppm", "-r", "150", "-png", "-singlefile", "g.pdf", "g"], cwd=tmp_path, check=True)
    svg = convert(tmp_path / "g.png", Config()).svg
    words = svg_words(svg)
    assert sum(words[w] for w in ("n1", "n2", "n3", "n4")) >= 3
