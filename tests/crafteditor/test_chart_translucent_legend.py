"""Legend swatches drawn translucent: Vega-Lite draws a line chart's legend strokes at 0.7 opacity
(a blend of the series paint with the page, too few pixels to be a paint of its own), and matplotlib's
legend handles set to alpha 0.5 come out a pale paint of their own. Either way the entry names the
series whose paint it thins; the series had been 'series 1' and 'series 2' and every value lost its
name. And a lone stroke among capital-letter labels turned 90° is the capital I, not the digit 1."""

from __future__ import annotations

import io
import json
from dataclasses import replace

import numpy as np
import pytest
from mpl_helpers import mpl_png, plt, read_rows
from PIL import Image

from crafteditor import convert
from crafteditor.charts.hanging import _capitals_mended
from crafteditor.ocr.runs import TextRun
from crafteditor.realset import score_values


def test_matplotlib_legend_handles_at_half_alpha_name_their_lines():
    x = [0, 1, 2, 3, 4]
    train, test = [3, 5, 4, 7, 6], [1, 2, 2.5, 2, 4]
    fig, ax = plt.subplots(figsize=(5, 3.5))
    ax.plot(x, train, color="#1f77b4", lw=2, label="train")
    ax.plot(x, test, color="#d62728", lw=2, label="test")
    for h in ax.legend(loc="upper left").legend_handles:
        h.set_alpha(0.5)
    conv = convert(mpl_png(fig))
    spec, rows = read_rows(conv)
    assert {s for s, _, _ in rows} == {"train", "test"}
    truth = {"values": [["train", a, b] for a, b in zip(x, train)] + [["test", a, b] for a, b in zip(x, test)],
             "value_axis": [0.7, 7.3]}
    assert score_values(conv.figure, truth) >= 0.9


def test_vega_lite_line_legend_of_numbers_names_its_lines():
    """Vega-Lite's legend strokes at 0.7 opacity beside the names '0' and '1'."""
    vlc = pytest.importorskip("vl_convert")
    rows = [(0, 0, 28), (0, 1, 43), (0, 2, 81), (0, 3, 19), (1, 0, 91), (1, 1, 55), (1, 2, 53), (1, 3, 66)]
    spec = {"data": {"values": [{"a": a, "b": b, "c": c} for c, a, b in rows]}, "mark": "line",
            "encoding": {"x": {"field": "a", "type": "quantitative"}, "y": {"field": "b", "type": "quantitative"},
                         "color": {"field": "c", "type": "nominal"}}}
    img = np.asarray(Image.open(io.BytesIO(vlc.vegalite_to_png(json.dumps(spec), scale=2))).convert("RGB"))
    conv = convert(img)
    _, read = read_rows(conv)
    assert {"0", "1"} <= {s for s, _, _ in read}
    truth = {"values": [[str(c), a, b] for c, a, b in rows], "value_axis": [0, 100]}
    assert score_values(conv.figure, truth) >= 0.85


def _run(text: str) -> TextRun:
    return TextRun(text=text, x=0.0, y=0.0, w=5.0, h=8.0, angle=-90.0, font_px=5.0, bold=False, color=(0, 0, 0),
                   confidence=0.9, baseline=5.0, glyphs=np.ones((8, 5), bool))


def test_a_lone_stroke_among_capital_labels_is_the_capital_i():
    assert [r.text for r in _capitals_mended([_run(t) for t in "ABCDEFGH1"])] == list("ABCDEFGHI")
    assert [r.text for r in _capitals_mended([_run(t) for t in ("M", "N", "0", "P")])] == list("MNOP")
    # numbers stay numbers where the labels are not letters, or not all but one
    assert [r.text for r in _capitals_mended([_run(t) for t in ("1", "2", "3", "A")])] == ["1", "2", "3", "A"]
    assert [r.text for r in _capitals_mended([_run(t) for t in ("A", "B", "1", "0")])] == ["A", "B", "1", "0"]


def test_a_real_digit_category_among_capital_letters_stays_a_digit():
    """Vega-Lite sorts a category '1' (or '0') before 'A': at 1x, OCR reading it alone, it had become
    'I' ('O'), a name no row of the data has. Only the capital the letter beside it leads to is mended,
    not one already there, and an I only where its ink is a plain stroke (a '1' has its flag)."""
    assert [r.text for r in _capitals_mended([_run(t) for t in "1ABCDEFGH"])] == list("1ABCDEFGH")
    assert [r.text for r in _capitals_mended([_run(t) for t in "0ABCDEFGH"])] == list("0ABCDEFGH")
    assert [r.text for r in _capitals_mended([_run(t) for t in "ABHI1"])] == list("ABHI1")
    flag = np.zeros((4, 7), bool)
    flag[1:3, :] = True  # the stroke, turned
    flag[0, 5:] = flag[3, 0] = True  # its flag and foot
    one = replace(_run("1"), glyphs=flag)
    assert [r.text for r in _capitals_mended([_run(t) for t in "ABCDEFGH"] + [one])] == list("ABCDEFGH1")


def test_a_real_one_category_among_capital_letters_in_a_vega_lite_bar_chart():
    vlc = pytest.importorskip("vl_convert")
    vals = [28, 55, 43, 91, 81, 53, 19, 87, 52]
    spec = {"height": 200, "data": {"values": [{"a": c, "b": v} for c, v in zip("ABCDEFGH1", vals)]},
            "mark": "bar", "encoding": {"x": {"field": "a", "type": "nominal"}, "y": {"field": "b", "type": "quantitative"}}}
    img = np.asarray(Image.open(io.BytesIO(vlc.vegalite_to_png(json.dumps(spec), scale=1))).convert("RGB"))
    names = {r.get("x") for c in convert(img).figure.of_kind("chart") for r in c.spec["data"]["values"]}
    assert "1" in names and "I" not in names


def test_a_pale_series_of_its_own_keeps_its_name():
    """tab20's light blue is a blend of its blue with the page, and a stacked bar's thin slice has few
    pixels: still a series with marks of its own, not a translucent key of the blue one (the blue bars
    had been named 'extra' and the slice left 'series 2')."""
    cats = ["a", "b", "c", "d"]
    full, extra = [10, 12, 9, 11], [0.6, 0.5, 0.7, 0.4]
    fig, ax = plt.subplots(figsize=(5, 3.5))
    ax.bar(cats, extra, color="#aec7e8", label="extra")
    ax.bar(cats, full, bottom=extra, color="#1f77b4", label="full")
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
    _, rows = read_rows(convert(mpl_png(fig)))
    assert {s for s, _, _ in rows} == {"extra", "full"}
    assert all(y > 5 for s, _, y in rows if s == "full") and all(y < 1 for s, _, y in rows if s == "extra")
