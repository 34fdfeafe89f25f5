"""Sub- and superscripts (``T_{1}``, ``10^{-3}``) and font classes (sans, serif, mono) in the IR,
drawn by every writer: SVG tspans with baseline-shift, PNG with the scripts really moved, TikZ,
draw.io (read back), PowerPoint runs; JSON and the DSL keep them as written."""

from __future__ import annotations

import io
import re

import numpy as np
import pytest
from PIL import Image

from crafteditor.realset import svg_words
from crafter.formats.drawio.reader import drawio_to_figure
from crafter.formats.drawio.writer import figure_to_drawio
from crafter.formats.raster import svg_to_png
from crafter.formats.tikz import figure_to_tikz
from crafter.render import ensure_layout, figure_to_svg
from crafter.spec import Figure, json_schema, parse_dsl, print_dsl
from crafter.spec.markup import plain, segments

DSL = '''figure "scripts"
a node "T_{1} encoder" font=serif
b node "lr 10^{-3}" font=mono
c text "W_{q} and snake_case x^2" near=b
e1 edge a -> b
'''


def test_markup_segments_only_the_braced_form():
    assert segments("T_{1} in") == [("T", ""), ("1", "sub"), (" in", "")]
    assert segments("10^{-3}") == [("10", ""), ("-3", "super")]
    assert segments("snake_case x^2 a_b") == [("snake_case x^2 a_b", "")]
    assert plain("W_{q}K^{T}") == "WqKT"


def test_svg_draws_shifted_tspans_and_the_font_class():
    svg = figure_to_svg(parse_dsl(DSL))
    assert '<tspan baseline-shift="sub"' in svg and ">1</tspan>" in svg
    assert re.search(r'<tspan baseline-shift="super" font-size="[0-9.]+">-3</tspan>', svg)
    assert "snake_case x^2" in svg  # unbraced text is untouched
    assert 'font-family="DejaVu Serif' in svg and 'font-family="DejaVu Sans Mono' in svg
    words = svg_words(svg)
    assert words["t1"] == 1 and words["103"] == 1 and words["wq"] == 1 and words["encoder"] == 1


def _ink_rows(png: bytes) -> np.ndarray:
    a = np.asarray(Image.open(io.BytesIO(png)).convert("L"))
    return np.flatnonzero((a < 128).any(axis=1))


def test_png_moves_sub_and_superscripts_off_the_baseline():
    def rows(text: str) -> np.ndarray:
        svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="60"><rect width="200" height="60" '
               'fill="white"/><text font-family="DejaVu Sans" font-size="20" text-anchor="middle">'
               f'<tspan x="100" y="35">{text}</tspan></text></svg>')
        return _ink_rows(svg_to_png(svg))
    flat = rows("nn")
    sub = rows('nn</tspan><tspan baseline-shift="sub" font-size="14">n')
    sup = rows('nn</tspan><tspan baseline-shift="super" font-size="14">n')
    assert sub.max() > flat.max() + 2  # the subscript hangs below the baseline
    assert sup.min() < flat.min() - 2  # the superscript rises above the x-height


def test_json_and_dsl_keep_markup_and_font():
    fig = parse_dsl(DSL)
    again = Figure.model_validate_json(fig.model_dump_json())
    assert again.by_id()["a"].label == "T_{1} encoder" and again.by_id()["a"].font == "serif"
    assert 'font=mono' in print_dsl(fig) and "10^{-3}" in print_dsl(fig)
    assert json_schema()["$defs"]["Node"]["properties"]["font"]
    with pytest.raises(Exception):
        parse_dsl('figure "x"\na node "A" font=fancy')


def test_tikz_writes_math_scripts_and_families():
    tex = figure_to_tikz(parse_dsl(DSL))
    assert "T$_{\\mathrm{1}}$ encoder" in tex and "10$^{\\mathrm{-3}}$" in tex
    assert "\\rmfamily" in tex and "\\ttfamily" in tex


def test_drawio_sub_sup_html_round_trip():
    fig = ensure_layout(parse_dsl(DSL))
    doc = figure_to_drawio(fig)
    assert "T&lt;sub&gt;1&lt;/sub&gt; encoder" in doc and "fontFamily=DejaVu Serif" in doc
    back = drawio_to_figure(doc).by_id()
    assert back["a"].label == "T_{1} encoder" and back["a"].font == "serif"
    edited = drawio_to_figure(doc.replace("T&lt;sub&gt;1&lt;/sub&gt;", "T&lt;sub&gt;2&lt;/sub&gt;")).by_id()
    assert edited["a"].label == "T_{2} encoder"


def test_pptx_runs_with_baseline_offsets():
    pptx = pytest.importorskip("pptx")
    from crafter.formats.pptx.write import figure_to_pptx

    prs = pptx.Presentation(io.BytesIO(figure_to_pptx(parse_dsl(DSL))))
    runs = [(r.text, r.font.name, r.font._rPr.get("baseline")) for sh in prs.slides[0].shapes if sh.has_text_frame
            for p in sh.text_frame.paragraphs for r in p.runs]
    assert ("1", "DejaVu Serif", "-25000") in runs
    assert ("-3", "DejaVu Sans Mono", "30000") in runs
