"""Chart themes: paper (single/double column, DejaVu Sans, Okabe–Ito), slides, mono."""

from __future__ import annotations

import pytest

from crafter.base.theme import OKABE_ITO, PX_PER_IN, PX_PER_PT
from crafter.charts import chart_size, chart_svg, chart_theme, make_chart


def test_paper_theme():
    ct = chart_theme("paper")
    assert ct.width == pytest.approx(3.3 * PX_PER_IN)
    assert chart_theme("paper", width="double").width == pytest.approx(7 * PX_PER_IN)
    assert 8 <= ct.tick_font_size / PX_PER_PT <= 10 and 8 <= ct.label_font_size / PX_PER_PT <= 10
    assert ct.palette == OKABE_ITO and ct.font_family.startswith("DejaVu Sans")


def test_slides_are_bigger_and_mono_is_grey():
    paper, slides, mono = chart_theme("paper"), chart_theme("slides"), chart_theme("mono")
    assert slides.tick_font_size > paper.tick_font_size * 1.4 and slides.line_width > paper.line_width
    assert all(c.startswith("#") and c[1:3] == c[3:5] == c[5:7] for c in mono.palette)


def test_double_column_width_fits_exactly(accuracy):
    from crafter.cli.charts import _fit_total_width

    chart = make_chart(accuracy, x="model", y="top1_accuracy", color="dataset")
    _fit_total_width(chart, "paper", "double")
    assert chart_size(chart, "paper")[0] == pytest.approx(7 * PX_PER_IN, abs=0.5)


@pytest.mark.parametrize("theme", ["paper", "slides", "mono"])
def test_every_theme_renders(accuracy, theme):
    svg = chart_svg(make_chart(accuracy, x="model", y="top1_accuracy", color="dataset"), theme)
    from crafter.base.markup import num as _f

    assert f'font-size="{_f(chart_theme(theme).tick_font_size)}"' in svg
