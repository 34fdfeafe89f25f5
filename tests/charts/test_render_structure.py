"""The SVG a chart draws: named semantic groups, one element per mark with its datum, text as text,
everything inside the chart's box, no label on top of another."""

from __future__ import annotations

import json
import math

import pytest
from charts_testlib import NAMES, local, parse

from crafter.base.text import ASCENT, DESCENT, text_width
from crafter.charts import chart_size, chart_svg, chart_svg_fragment, make_chart
from crafter.charts.theme import chart_theme
from crafter.spec import Box


def _elements(root):
    yield root
    for child in root:
        yield from _elements(child)


def _ancestors(root):
    parents = {}
    for el in _elements(root):
        for child in el:
            parents[child] = el
    return parents


def _inherited(el, parents, attr, default=None):
    while el is not None:
        if el.get(attr) is not None:
            return el.get(attr)
        el = parents.get(el)
    return default


def text_boxes(root):
    """(element, (x0, y0, x1, y1)) for every <text>, from DejaVu metrics, anchor and rotation."""
    parents = _ancestors(root)
    out = []
    for el in _elements(root):
        if local(el.tag) != "text":
            continue
        s = "".join(el.itertext())
        fs = float(_inherited(el, parents, "font-size", 12))
        bold = _inherited(el, parents, "font-weight") == "bold"
        x, y = float(el.get("x", 0)), float(el.get("y", 0))
        w = text_width(s, fs, bold=bold)
        anchor = el.get("text-anchor", "start")
        x0 = x - (w / 2 if anchor == "middle" else w if anchor == "end" else 0)
        corners = [(x0, y - ASCENT * fs), (x0 + w, y - ASCENT * fs), (x0, y + DESCENT * fs), (x0 + w, y + DESCENT * fs)]
        tr = el.get("transform", "")
        if tr.startswith("rotate("):
            a, cx, cy = (float(v) for v in tr[7:-1].split())
            r = math.radians(a)
            corners = [(cx + (px - cx) * math.cos(r) - (py - cy) * math.sin(r),
                        cy + (px - cx) * math.sin(r) + (py - cy) * math.cos(r)) for px, py in corners]
        out.append((el, corners))
    return out


def _bbox(corners):
    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    return min(xs), min(ys), max(xs), max(ys)


def _overlap(a, b, slack=0.5):
    """Whether two (possibly rotated) text rectangles overlap: separating-axis test on their edges."""
    quads = []
    for q in (a, b):  # corners come as TL, TR, BL, BR: order them around the rectangle
        quads.append([q[0], q[1], q[3], q[2]])
    for quad in quads:
        for i in range(4):
            (x1, y1), (x2, y2) = quad[i], quad[(i + 1) % 4]
            nx, ny = y2 - y1, x1 - x2
            norm = math.hypot(nx, ny) or 1.0
            nx, ny = nx / norm, ny / norm
            pa = [px * nx + py * ny for px, py in quads[0]]
            pb = [px * nx + py * ny for px, py in quads[1]]
            if max(pa) - slack <= min(pb) or max(pb) - slack <= min(pa):
                return False
    return True


@pytest.mark.parametrize("name", NAMES)
def test_text_inside_the_chart_and_not_overlapping(cases, name):
    chart = cases[name]
    svg = chart_svg(chart, margin=0)
    root = parse(svg)
    W, H = float(root.get("width")), float(root.get("height"))
    boxes = text_boxes(root)
    assert boxes
    for el, corners in boxes:
        x0, y0, x1, y1 = _bbox(corners)
        assert x0 >= -1 and y0 >= -1 and x1 <= W + 1 and y1 <= H + 1, \
            f"{el.get('id') or ''.join(el.itertext())!r} sticks out of the chart: {(x0, y0, x1, y1)} vs {W}x{H}"
    labels = [(el, b) for el, b in boxes if el.get("data-crafter-datum") is None]  # text marks sit on cells
    for i, (a, ba) in enumerate(labels):
        for b, bb in labels[i + 1:]:
            assert not _overlap(ba, bb), f"'{''.join(a.itertext())}' overlaps '{''.join(b.itertext())}'"


def test_semantic_groups_and_ids(accuracy):
    chart = make_chart(accuracy, x="model", y="top1_accuracy", color="dataset", id="acc", title="Accuracy <by> model",
                       legend="right")
    root = parse(chart_svg(chart))
    ids = [el.get("id") for el in _elements(root) if el.get("id")]
    assert len(ids) == len(set(ids)), "ids are unique"
    assert all(i == "acc" or i.startswith("acc-") for i in ids), "every id is prefixed by the chart id"
    for part in ("acc-title", "acc-plot", "acc-grid-y", "acc-marks", "acc-axis-x", "acc-axis-x-domain", "acc-axis-x-ticks",
                 "acc-axis-x-labels", "acc-axis-x-title", "acc-axis-y", "acc-axis-y-domain", "acc-axis-y-ticks",
                 "acc-axis-y-labels", "acc-axis-y-title", "acc-legend", "acc-legend-title", "acc-legend-cifar-10",
                 "acc-bar-cifar-10", "acc-bar-imagenet"):
        assert part in ids, part
    # one element per mark, carrying its datum
    bars = [el for el in _elements(root) if local(el.tag) == "rect" and el.get("data-crafter-datum")]
    assert len(bars) == 15
    data = sorted((json.loads(b.get("data-crafter-datum"))["model"], json.loads(b.get("data-crafter-datum"))["dataset"])
                  for b in bars)
    assert data == sorted((r["model"], r["dataset"]) for r in accuracy)
    # all text is <text>, and user text is escaped
    title = next(el for el in _elements(root) if el.get("id") == "acc-title")
    assert "".join(title.itertext()) == "Accuracy <by> model"
    assert not any(local(el.tag) in ("image", "foreignObject", "script") for el in _elements(root))


def test_fragment_fills_the_box_in_figure_coordinates(accuracy):
    chart = make_chart(accuracy, x="model", y="top1_accuracy", color="dataset", id="acc")
    box = Box(x=120, y=40, w=420, h=260)
    frag = chart_svg_fragment(chart, box, "paper")
    assert not frag.startswith("<svg")
    root = parse(f"<g>{frag}</g>")  # a fragment: several top-level elements
    for el, corners in text_boxes(root):
        x0, y0, x1, y1 = _bbox(corners)
        assert box.x - 1 <= x0 and x1 <= box.right + 1 and box.y - 1 <= y0 and y1 <= box.bottom + 1
    for el in _elements(root):
        if local(el.tag) == "rect" and el.get("data-crafter-datum"):
            x, y = float(el.get("x")), float(el.get("y"))
            assert box.x <= x <= box.right and box.y <= y <= box.bottom


def test_chart_size_is_the_single_column_by_default(accuracy):
    chart = make_chart(accuracy, x="model", y="top1_accuracy", color="dataset")
    w, h = chart_size(chart, "paper")
    assert w == pytest.approx(3.3 * 96)
    assert 150 < h < 320
    sw, sh = chart_size(chart, "slides")
    assert sw > w and sh > h
    chart.width, chart.height = 400, 200  # the plot size, when set
    w2, h2 = chart_size(chart, "paper")
    assert w2 > 400 and h2 > 200


def test_fonts_and_palette_come_from_the_figure_theme(accuracy):
    chart = make_chart(accuracy, x="model", y="top1_accuracy", color="dataset", id="acc")
    svg = chart_svg(chart)
    ct = chart_theme("paper")
    assert "DejaVu Sans" in ct.font_family and f'font-family="{ct.font_family}"' in svg
    for color in ct.palette[:3]:
        assert f'fill="{color}"' in svg


def test_long_titles_wrap_inside_the_chart(accuracy):
    chart = make_chart(accuracy, title="Top-1 accuracy of five vision backbones fine-tuned on three image "
                                       "classification benchmarks, mean of three runs")
    root = parse(chart_svg(chart, margin=0))
    W = float(root.get("width"))
    title = next(el for el in _elements(root) if el.get("id") == "chart-title")
    assert len([el for el in title if local(el.tag) == "text"]) >= 2
    for el, corners in text_boxes(root):
        x0, _, x1, _ = _bbox(corners)
        assert -1 <= x0 and x1 <= W + 1
