"""A chart's numbers come back as the figure wrote them (issue 31, words kept as text): value labels
with a unit or sign around the number ('0.06s', '45.0%'), and tick labels whose whole numbers are
written bare among decimals ('1 1.5 2', Plotly's). The chart stage redraws both from the data, and
its own number format had written '0.060' and '1.0 1.5 2.0': every such word was lost."""

import html
import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import FuncFormatter  # noqa: E402
from mpl_helpers import mpl_png as _png  # noqa: E402

from crafteditor import convert  # noqa: E402
from crafteditor.charts.style import tick_format  # noqa: E402


def _texts(svg: str) -> list[str]:
    """The SVG's text elements' strings (tags inside them dropped)."""
    return [html.unescape(re.sub(r"<[^>]+>", "", t)).strip() for t in re.findall(r"<text\b[^>]*>(.*?)</text>", svg, re.S)]


def test_value_labels_with_a_unit_keep_it_and_their_decimals():
    """uv's benchmark: seconds over each bar, '0.06s' (the unit's letter had been counted as a third
    decimal place and dropped: '0.060')."""
    tools, secs = ["uv", "poetry", "pdm", "pip-sync"], [0.56, 0.99, 1.90, 4.63]
    fig, ax = plt.subplots(figsize=(5, 3.2))
    bars = ax.bar(tools, secs, color="#6340AC")
    ax.bar_label(bars, fmt="%.2fs")
    ax.set_ylim(0, 5.5)
    conv = convert(_png(fig))
    spec = conv.figure.of_kind("chart")[0].spec
    text = [layer for layer in spec["layer"] if layer["mark"]["type"] == "text"]
    assert len(text) == 1 and text[0]["encoding"]["text"] == {"field": "label", "type": "nominal"}
    assert {r["x"]: r["label"] for r in spec["data"]["values"]} == {t: f"{v:.2f}s" for t, v in zip(tools, secs)}
    assert {r["x"]: r["y"] for r in spec["data"]["values"]} == dict(zip(tools, secs))  # still the data
    shown = _texts(conv.svg)
    assert all(f"{v:.2f}s" in shown for v in secs)


def test_percent_value_labels_keep_the_sign():
    fig, ax = plt.subplots(figsize=(5, 3.2))
    bars = ax.bar(["A", "B", "C", "D"], [45.0, 62.5, 71.0, 38.5], color="#4C72B0")
    ax.bar_label(bars, fmt="%.1f%%")
    ax.set_ylim(0, 100)
    conv = convert(_png(fig))
    shown = _texts(conv.svg)
    assert all(label in shown for label in ("45.0%", "62.5%", "71.0%", "38.5%"))


def test_plain_value_labels_stay_a_number_format_of_the_data():
    """No unit: the labels are the data's numbers in their decimals, so an edited value relabels its bar."""
    fig, ax = plt.subplots(figsize=(5, 3.2))
    bars = ax.bar(["ResNet", "ViT", "Swin", "ConvNeXt"], [76.1, 81.8, 83.5, 82.1], color="#8172B3")
    ax.bar_label(bars, fmt="%.1f")
    ax.set_ylim(60, 90)
    spec = convert(_png(fig)).figure.of_kind("chart")[0].spec
    text = [layer for layer in spec["layer"] if layer["mark"]["type"] == "text"]
    assert text[0]["encoding"]["text"] == {"field": "y", "type": "quantitative", "format": ".1f"}
    assert all("label" not in r for r in spec["data"]["values"])


def test_whole_ticks_written_bare_among_halves_keep_their_form():
    assert tick_format(["1", "1.5", "2", "2.5", "3"]) == ".1~f"
    assert tick_format(["0", "0.25", "0.5", "0.75", "1"]) == ".2~f"
    assert tick_format(["1.0", "1.5", "2.0"]) == ".1f"  # written fixed: stays fixed
    assert tick_format(["0", "0.5", "1"]) is None  # one decimal label is too little to tell
    # a Plotly-like axis: ticks at halves, whole ones written bare
    fig, ax = plt.subplots(figsize=(5.5, 3.4))
    ax.plot([1, 2, 3, 4, 5], [10, 15, 13, 17, 12], marker="o", color="#1F77B4")
    ax.set_xticks([1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5])
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    conv = convert(_png(fig))
    assert conv.report["components"].get("chart") == 1
    shown = _texts(conv.svg)
    assert all(t in shown for t in ("1", "1.5", "2", "2.5", "3", "4.5", "5")), shown
    assert "1.0" not in shown and "2.0" not in shown
