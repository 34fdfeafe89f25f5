"""Golden figures: Crafter-rendered diagrams and matplotlib charts at 100–300 dpi, scored
against the figure each was drawn from (regenerate with make_golden.py)."""

import pytest

from crafteditor import Config, convert
from crafteditor.scoring import score_chart, score_diagram
from crafteditor.synthetic import ChartTruth
from crafter.spec import Chart, Figure, Text


@pytest.fixture(scope="module")
def converted(golden):
    out = {}
    for name, (png, truth) in golden.items():
        preset = "chart" if name.startswith("chart") else "diagram"
        out[name] = (convert(png, Config.preset(preset)), truth)
    return out


@pytest.mark.parametrize("name", ["diagram_150", "diagram_300"])
def test_clean_diagrams_meet_the_aims(converted, name):
    conv, truth = converted[name]
    score = score_diagram(conv.figure, Figure.from_dict(truth))
    assert score["boxes"] >= 0.9, score  # nodes with the right label
    assert score["shapes"] >= 0.9, score
    assert score["arrows"] >= 0.8, score  # edges with the right endpoints
    assert score["words"] >= 0.95, score
    assert conv.report["ssim"] >= 0.95
    assert conv.report["text_as_text"] == 1.0


def test_low_resolution_diagram_still_reads(converted):
    conv, truth = converted["diagram_100"]
    score = score_diagram(conv.figure, Figure.from_dict(truth))
    assert score["boxes"] >= 0.8 and score["words"] >= 0.9, score


def test_diagram_output_is_pinned_and_editable(converted):
    conv, _ = converted["diagram_150"]
    fig = conv.figure
    nodes = fig.of_kind("node")
    assert nodes and all(n.pinned and n.box is not None for n in nodes)
    edges = fig.of_kind("edge")
    ids = {c.id for c in fig.components}
    assert edges and all(e.route and e.source in ids and e.target in ids for e in edges)
    assert "<text" in conv.svg and "data-crafter-kind=\"node\"" in conv.svg
    # the SVG carries its FigureSpec: reopening gives the same figure back
    from crafter.formats import load_svg

    assert load_svg(conv.svg.encode("utf-8")) == fig


def test_crafter_laid_out_example(converted):
    """A figure from examples/, laid out by Crafter (shared trunks, stacks, groups, rounded corners)."""
    conv, truth = converted["example_multi_agent"]
    score = score_diagram(conv.figure, Figure.from_dict(truth))
    assert score["shapes"] >= 0.85 and score["boxes"] >= 0.85, score
    assert score["arrows"] >= 0.6 and score["words"] >= 0.9, score


@pytest.mark.parametrize("name", ["chart_bar_150", "chart_line_200", "chart_scatter_100"])
def test_chart_values_within_two_percent(converted, name):
    conv, truth = converted[name]
    t = ChartTruth(**truth)
    score = score_chart(conv.figure, t)
    assert score["charts"] == 1
    assert score["within_2pct"] >= 0.9, score
    chart = conv.figure.of_kind("chart")[0]
    assert isinstance(chart, Chart) and chart.pinned
    assert chart.spec["data"]["values"]
    if t.log_y:
        assert chart.spec["encoding"]["y"]["scale"]["type"] == "log"


def test_chart_text_is_kept(converted):
    conv, truth = converted["chart_bar_150"]
    spec = conv.figure.of_kind("chart")[0].spec
    assert spec.get("title") == truth["title"]
    cats = [row["x"] for row in spec["data"]["values"]]
    assert cats == [x for x, _ in truth["series"]["value"]]
    # no tick label left behind as loose text
    assert not [c for c in conv.figure.components if isinstance(c, Text)]
