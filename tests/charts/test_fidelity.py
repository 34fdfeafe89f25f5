"""Numeric fidelity: values read back from the SVG alone, and the critic's check catching wrong drawings."""

from __future__ import annotations

import re

import pytest
from charts_testlib import parse

from crafter.charts import chart_svg, chart_svg_fragment, check_chart, make_chart, read_back
from crafter.spec import Box


@pytest.fixture
def bars(accuracy):
    return make_chart(accuracy, x="model", y="top1_accuracy", color="dataset", id="acc")


def _bar_rect(svg: str, element_id: str) -> re.Match:
    m = re.search(rf'<rect id="{re.escape(element_id)}" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"', svg)
    assert m, element_id
    return m


def test_read_back_reports_values_and_error(bars, accuracy):
    svg = chart_svg(bars)
    report = read_back(svg, "acc")
    assert len(report.marks) == len(accuracy)
    by_id = {m.element: m for m in report.marks}
    m = by_id["acc-bar-imagenet-vit-b-16"]
    assert m.datum == {"model": "ViT-B/16", "dataset": "ImageNet", "top1_accuracy": 81.1}
    assert m.read["y"] == pytest.approx(81.1, abs=0.05) and m.read["x"] == "ViT-B/16"
    assert report.max_error < 0.001
    assert "15 marks read back" in report.summary()


@pytest.mark.parametrize("factor", [1.05, 0.95])
def test_check_flags_a_bar_whose_data_changed_by_5_percent(bars, factor):
    svg = chart_svg(bars)  # drawn before the change: the drawing is now stale
    changed = bars.model_copy(deep=True)
    row = next(r for r in changed.spec["data"]["values"] if r["model"] == "DeiT-S" and r["dataset"] == "CIFAR-100")
    row["top1_accuracy"] = round(row["top1_accuracy"] * factor, 2)
    problems = check_chart(svg, changed)
    assert len(problems) == 1
    p = problems[0]
    assert p.component == "acc" and p.element == "acc-bar-cifar-100-deit-s"
    assert p.error > 0.005 and "DeiT-S" not in "" and "top1_accuracy" in p.message
    assert str(p).startswith("chart 'acc': bar 'acc-bar-cifar-100-deit-s'")


def test_check_flags_a_bar_drawn_5_percent_too_tall(bars):
    svg = chart_svg(bars)
    m = _bar_rect(svg, "acc-bar-cifar-10-resnet-50")
    y, h = float(m.group(2)), float(m.group(4))
    tampered = svg.replace(m.group(0), m.group(0).replace(f'y="{m.group(2)}"', f'y="{y - h * 0.05:.2f}"')
                           .replace(f'height="{m.group(4)}"', f'height="{h * 1.05:.2f}"'))
    problems = check_chart(tampered, bars)
    assert [p.element for p in problems] == ["acc-bar-cifar-10-resnet-50"]
    report = read_back(tampered, "acc")  # the drawing no longer matches its own datum either
    assert report.max_error > 0.04 and report.worst.element == "acc-bar-cifar-10-resnet-50"


def test_check_flags_a_moved_line_vertex_and_a_moved_point(loss_curves, latency):
    seed0 = [r for r in loss_curves if r["seed"] == 0]
    line = make_chart(seed0, x="step", y="train_loss", color="model", mark="line", yscale="log", id="loss")
    svg = chart_svg(line)
    d = re.search(r'id="loss-line-mamba-line" d="([^"]+)"', svg).group(1)
    pts = d[1:].split("L")
    x, y = pts[10].split(",")
    pts[10] = f"{x},{float(y) - 8:.2f}"
    problems = check_chart(svg.replace(d, "M" + "L".join(pts)), line)
    assert len(problems) == 1 and problems[0].element == "loss-line-mamba-line#10"

    scatter = make_chart(latency, x="latency_ms", y="top1_accuracy", color="family", mark="point", id="lat")
    svg = chart_svg(scatter)
    m = re.search(r'<circle id="(lat-point-vit-\d+)" cx="([\d.]+)"', svg)
    moved = svg.replace(m.group(0), m.group(0).replace(m.group(2), f"{float(m.group(2)) + 5:.2f}"))
    assert [p.element for p in check_chart(moved, scatter)] == [m.group(1)]


def test_check_flags_a_wrong_tick_label(bars):
    svg = chart_svg(bars)
    labels = re.search(r'<g id="acc-axis-y-labels".*?</g>', svg).group(0)
    wrong = labels.replace(">50<", ">60<")
    problems = check_chart(svg.replace(labels, wrong), bars)
    assert any("tick label '60'" in p.message for p in problems)


def test_check_flags_missing_and_extra_marks(bars):
    svg = chart_svg(bars)
    rect = _bar_rect(svg, "acc-bar-imagenet-swin-t")
    end = svg.index("/>", rect.start()) + 2
    gone = svg[:rect.start()] + svg[end:]
    problems = check_chart(gone, bars)
    assert any("missing from the drawing" in p.message and "Swin-T" in p.message for p in problems)
    fewer = bars.model_copy(deep=True)
    fewer.spec["data"]["values"] = [r for r in fewer.spec["data"]["values"] if r["model"] != "Swin-T"]
    assert any("not in the chart's data" in p.message for p in check_chart(svg, fewer))


def test_check_flags_bars_under_the_wrong_category(bars):
    swapped = bars.model_copy(deep=True)
    vals = swapped.spec["data"]["values"]
    a = next(r for r in vals if r["model"] == "ResNet-50" and r["dataset"] == "ImageNet")
    b = next(r for r in vals if r["model"] == "ViT-B/16" and r["dataset"] == "ImageNet")
    a["top1_accuracy"], b["top1_accuracy"] = b["top1_accuracy"], a["top1_accuracy"]
    assert len(check_chart(chart_svg(bars), swapped)) == 2


def test_read_back_works_on_a_fragment_and_through_transforms(bars):
    frag = chart_svg_fragment(bars, Box(x=50, y=30, w=400, h=250), "paper")
    assert read_back(frag, "acc").max_error < 0.001
    moved = f'<svg xmlns="http://www.w3.org/2000/svg"><g transform="translate(120,-40) scale(1.5)">' \
            f'<g id="acc" data-crafter-kind="chart">{frag}</g></g></svg>'
    report = read_back(moved)
    assert report.chart_id == "acc" and len(report.marks) == 15 and report.max_error < 0.001
    assert check_chart(moved, bars) == []


def test_read_back_in_log_and_symlog_space(loss_curves, rewards):
    seed0 = [r for r in loss_curves if r["seed"] == 0]
    for chart in (make_chart(seed0, x="step", y="train_loss", color="model", mark="line", yscale="log", id="a"),
                  make_chart(rewards, x="episode", y="return", color="algorithm", mark="line", yscale="symlog", id="b")):
        report = read_back(chart_svg(chart), chart.id)
        assert report.max_error < 0.001 and not report.problems


def test_stacked_bars_check_both_ends(accuracy):
    chart = make_chart(accuracy, x="model", y="top1_accuracy", color="dataset", stack=True, id="st")
    svg = chart_svg(chart)
    m = read_back(svg, "st").marks[0]
    assert set(m.read) >= {"y", "y2", "x"} and m.fields["y"].endswith("_end")
    assert check_chart(svg, chart) == []


def test_unknown_chart_id(bars):
    with pytest.raises(KeyError):
        read_back(chart_svg(bars), "nope")
    assert "no chart with id 'nope'" in str(check_chart(chart_svg(bars), bars.model_copy(update={"id": "nope"}))[0])


def test_text_marks_must_show_their_value(transfer):
    chart = make_chart(transfer, x="train_domain", y="test_domain", color="accuracy", mark="rect", id="hm")
    svg = chart_svg(chart)
    assert check_chart(svg, chart) == []
    wrong = re.sub(r'(<text id="hm-text-[^"]*"[^>]*>)88\.0<', r"\g<1>86.0<", svg, count=1)
    assert any(p.message.startswith("text") for p in check_chart(wrong, chart))
    parse(wrong)
