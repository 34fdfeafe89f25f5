"""A group's own frame width and title weight (read from an image: Group.stroke_width, Group.bold) are
drawn by every writer, and laid out and checked with the same weight."""

from __future__ import annotations

import io

from pptx import Presentation

from crafter.base.theme import figure_theme
from crafter.formats.drawio.writer import figure_to_drawio
from crafter.formats.pptx.write import figure_to_pptx
from crafter.formats.tikz import figure_to_tikz
from crafter.layout import layout_figure
from crafter.layout.measure import group_label_width
from crafter.render import figure_to_svg
from crafter.spec import Figure, Group, Node


def _figure(bold: bool | None, width: float | None) -> Figure:
    return layout_figure(Figure(components=[
        Node(kind="node", id="a", label="Reader"), Node(kind="node", id="b", label="Writer"),
        Group(kind="group", id="g", label="Storage layer", members=["a", "b"], bold=bold, stroke_width=width)]))


def test_every_writer_draws_the_groups_own_weight_and_width():
    plain, theme = _figure(False, 3.0), _figure(None, None)
    svg = figure_to_svg(plain)
    assert 'stroke-width="3"' in svg
    tikz, tikz_theme = figure_to_tikz(plain), figure_to_tikz(theme)
    label = [ln for ln in tikz.splitlines() if "(g-label)" in ln][0]
    assert "bfseries" not in label and "line width=2.25pt" in tikz
    assert "bfseries" in [ln for ln in tikz_theme.splitlines() if "crafter group label/.style" in ln][0]
    drawio = figure_to_drawio(plain)
    assert "strokeWidth=3" in drawio
    prs = Presentation(io.BytesIO(figure_to_pptx(plain)))
    runs = [r for sh in _shapes(prs.slides[0].shapes) if sh.has_text_frame
            for p in sh.text_frame.paragraphs for r in p.runs if r.text == "Storage layer"]
    assert runs and all(r.font.bold is False for r in runs)


def _shapes(shapes):
    for sh in shapes:
        yield from (_shapes(sh.shapes) if hasattr(sh, "shapes") else [sh])


def test_a_plain_title_is_measured_as_plain():
    plain, bold = _figure(False, None), _figure(True, None)
    g = lambda f: next(c for c in f.components if c.id == "g")  # noqa: E731
    theme = figure_theme(plain)
    assert group_label_width(g(plain), theme) < group_label_width(g(bold), theme)
