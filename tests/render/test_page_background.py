"""A figure's own page colour (``background``): kept by both forms, drawn by the renderer and
every export, and the page the contrast check reads text against."""

from __future__ import annotations

import re

import pytest

from crafter.agents.critique import check_contrast
from crafter.base.theme import figure_theme, get_theme
from crafter.errors import SpecError
from crafter.formats import drawio_to_figure, figure_to_drawio, figure_to_tikz
from crafter.formats.svg import load_svg
from crafter.render import figure_to_svg
from crafter.spec import Figure, parse_dsl, print_dsl

GREY_PAGE = '''figure "Throughput" background=#F0F0F0
enc node "Encoder"
dec node "Decoder"
e1 edge enc -> dec "latent"
note text "per GPU" at=40,90
'''

CHART = (
    "figure background=#FDF6E3\n"
    'c chart spec={"mark":"point","data":{"values":[{"x":1,"y":2},{"x":2,"y":3}]},'
    '"encoding":{"x":{"field":"x","type":"quantitative"},"y":{"field":"y","type":"quantitative"}}}\n'
)


def _background_rect(svg: str) -> str:
    m = re.search(r'<rect id="crafter--background"[^>]*fill="([^"]+)"', svg)
    assert m, "no background rect"
    return m.group(1)


def test_dsl_and_json_keep_the_page_colour() -> None:
    fig = parse_dsl(GREY_PAGE)
    assert fig.background == "#F0F0F0"
    assert "background=#F0F0F0" in print_dsl(fig).splitlines()[0]
    assert parse_dsl(print_dsl(fig)) == fig
    assert Figure.from_dict(fig.to_dict()) == fig
    assert "background" not in parse_dsl('figure "x"\na node "A"\n').to_dict()  # the default is left out


@pytest.mark.parametrize("value", ["none", "#12", "url(#x)", '"/><script>'])
def test_a_page_colour_that_is_no_colour_is_refused_by_name(value: str) -> None:
    with pytest.raises(SpecError, match="background"):
        Figure.from_dict({"background": value, "components": []})


def test_the_renderer_paints_the_page_and_the_svg_reopens_to_the_same_figure() -> None:
    fig = parse_dsl(GREY_PAGE)
    svg = figure_to_svg(fig)
    assert _background_rect(svg) == "#F0F0F0"
    assert _background_rect(figure_to_svg(parse_dsl('figure "x"\na node "A"\n'))) == "#FFFFFF"
    assert load_svg(svg).background == "#F0F0F0"


def test_figure_theme_overrides_only_the_page() -> None:
    fig = parse_dsl(GREY_PAGE)
    theme, base = figure_theme(fig), get_theme("paper")
    assert theme.background == "#F0F0F0"
    assert {k: v for k, v in vars(theme).items() if k != "background"} == \
        {k: v for k, v in vars(base).items() if k != "background"}
    assert figure_theme(parse_dsl('figure "x"\n')) is base


def test_a_chart_on_a_cream_page_has_no_white_boxes() -> None:
    svg = figure_to_svg(parse_dsl(CHART))
    assert _background_rect(svg) == "#FDF6E3"
    assert "#FFFFFF" not in svg.split('id="crafter--background"', 1)[1].upper().replace("STROKE=\"#FFFFFF\"", "")


def test_tikz_and_drawio_carry_the_page_colour() -> None:
    fig = parse_dsl(GREY_PAGE)
    tikz = figure_to_tikz(fig)
    page = [ln for ln in tikz.splitlines() if ln.startswith("\\fill[crF0F0F0]")]
    assert page and tikz.index(page[0]) < tikz.index("% node enc")  # under everything
    assert "\\fill[" not in figure_to_tikz(parse_dsl('figure "x"\na node "A"\n'))
    doc = figure_to_drawio(fig)
    assert 'background="#F0F0F0"' in doc
    assert drawio_to_figure(doc).background == "#F0F0F0"


def test_a_page_colour_set_in_drawio_is_imported() -> None:
    doc = figure_to_drawio(parse_dsl('figure "x"\na node "A"\n'))
    assert drawio_to_figure(doc).background is None  # white is the theme's own
    assert drawio_to_figure(doc.replace('background="#FFFFFF"', 'background="#222233"')).background == "#222233"
    grey = figure_to_drawio(parse_dsl(GREY_PAGE))
    assert drawio_to_figure(grey.replace('background="#F0F0F0"', 'background="#ffffff"')).background is None


def test_contrast_is_checked_against_the_page() -> None:
    text = 'figure{bg}\nnote text "faint note" at=40,40 color=#C8C8C8\n'
    on_white = check_contrast(parse_dsl(text.format(bg="")))
    on_dark = check_contrast(parse_dsl(text.format(bg=" background=#202020")))
    assert on_white and on_white[0]["component_ids"] == ["note"]
    assert not on_dark  # light grey reads well on a dark page
