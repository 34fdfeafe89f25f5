"""Chart kinds papers use every day, drawn by matplotlib as a researcher would (not by our
generator): grouped bars under a grid, subplots with letter categories."""

import io
import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from mpl_helpers import mpl_png as _png  # noqa: E402
from mpl_helpers import read_rows as _rows  # noqa: E402

from crafteditor import convert  # noqa: E402


@pytest.fixture(scope="module")
def grouped():
    fig, ax = plt.subplots(figsize=(5, 3.2))
    x = np.arange(4)
    ax.bar(x - 0.19, [72.1, 75.4, 80.2, 83.9], 0.38, label="ours")
    ax.bar(x + 0.19, [70.3, 71.8, 74.0, 79.5], 0.38, label="baseline")
    ax.set_xticks(x, ["CIFAR", "SVHN", "STL", "ImageNet"])
    ax.set_ylabel("Accuracy (%)")
    ax.set_ylim(60, 90)
    ax.legend()
    ax.grid(axis="y", alpha=0.4)  # matplotlib draws the grid over the bars
    return convert(_png(fig))


def test_grouped_bars_under_a_grid_are_read_whole(grouped):
    """The gridlines crossing the bars had joined the x axis into one stroke with them (the axis
    was lost to a gridline) and cut every bar into stacked pieces."""
    spec, rows = _rows(grouped)
    want = {("ours", "CIFAR"): 72.1, ("ours", "SVHN"): 75.4, ("ours", "STL"): 80.2, ("ours", "ImageNet"): 83.9,
            ("baseline", "CIFAR"): 70.3, ("baseline", "SVHN"): 71.8, ("baseline", "STL"): 74.0,
            ("baseline", "ImageNet"): 79.5}
    got = {(s, x): y for s, x, y in rows}
    assert set(got) == set(want)
    assert all(abs(got[k] - v) <= 0.02 * 30 for k, v in want.items())  # within 2% of the axis range
    assert grouped.report["components"] == {"chart": 1}


def test_grouped_bars_keep_their_side_by_side_order(grouped):
    """Vega-Lite sorts the offset field's names: 'baseline' had moved left of 'ours'."""
    spec, _ = _rows(grouped)
    assert spec["encoding"]["xOffset"]["sort"] == ["ours", "baseline"]
    assert spec["encoding"]["color"]["scale"]["domain"] == ["ours", "baseline"]  # the legend's order
    assert grouped.report["ssim"] >= 0.84


def test_a_lone_capital_category_is_read():
    """A lone 'C' is drawn as a 'c' is, larger: the recogniser split it 0.84 / 0.15 between the
    two cases and the glyph fell under the lone-glyph bar (0.85); both cases now count."""
    fig, (a, b) = plt.subplots(1, 2, figsize=(7, 3))
    a.bar(["A", "B", "C"], [3, 5, 2])
    b.plot([1, 2, 3, 4], [0.2, 0.5, 0.4, 0.9], "-o")
    conv = convert(_png(fig))
    assert len(conv.figure.of_kind("chart")) == 2
    _, rows = _rows(conv, 0)
    assert [(x, round(y, 1)) for _, x, y in rows] == [("A", 3.0), ("B", 5.0), ("C", 2.0)]


def test_a_dashed_line_keeps_every_marker_and_a_grey_grid_stays_grey():
    """'--s' draws each square touching its dashes: those markers had been taken for line
    vertices and dropped (6 of SGD's 11 points). The grid's colour was the darkest pixel on
    its rows, where the series lines cross it: olive for a light grey grid."""
    t = np.arange(0, 11)
    fig, ax = plt.subplots(figsize=(5, 3.2))
    ax.plot(t, 1 / (1 + 0.3 * t), "-o", label="Adam")
    ax.plot(t, 1 / (1 + 0.2 * t), "--s", label="SGD")
    ax.grid(True, alpha=0.3)
    ax.legend()
    conv = convert(_png(fig))
    spec, rows = _rows(conv)
    sgd = sorted((x, y) for s, x, y in rows if s == "SGD")
    assert [round(x) for x, _ in sgd] == list(range(11))
    assert all(abs(y - 1 / (1 + 0.2 * round(x))) <= 0.02 * 0.8 for x, y in sgd)
    grid = spec["config"]["axis"].get("gridColor")
    assert grid is not None and min(int(grid[i:i + 2], 16) for i in (1, 3, 5)) >= 200
    r, g, b = (int(grid[i:i + 2], 16) for i in (1, 3, 5))
    assert max(r, g, b) - min(r, g, b) <= 12  # grey


def test_horizontal_bars_are_a_chart_with_categories_on_y():
    """barh: categories left of the y axis, numbers below the x axis (the x axis's 0 tick runs
    the y axis on past the corner). It had come back as four boxes and loose text."""
    fig, ax = plt.subplots(figsize=(5, 3))
    ax.barh(["BERT", "RoBERTa", "T5", "GPT-2"], [82.1, 86.4, 88.9, 79.3], color="#4C72B0")
    ax.set_xlabel("GLUE score")
    ax.set_title("Benchmarks")
    conv = convert(_png(fig))
    assert conv.report["components"] == {"chart": 1}
    spec, _ = _rows(conv)
    enc = spec["encoding"]
    assert enc["y"]["type"] == "nominal" and enc["x"]["type"] == "quantitative"
    assert enc["y"]["sort"] == ["GPT-2", "T5", "RoBERTa", "BERT"]  # top to bottom, as drawn
    assert enc["x"]["title"] == "GLUE score" and spec["title"] == "Benchmarks"
    got = {r["y"]: r["x"] for r in spec["data"]["values"]}
    want = {"BERT": 82.1, "RoBERTa": 86.4, "T5": 88.9, "GPT-2": 79.3}
    assert set(got) == set(want) and all(abs(got[k] - v) <= 0.02 * 93 for k, v in want.items())
    assert conv.report["ssim"] >= 0.93


def test_grouped_horizontal_bars_keep_their_legend_and_order():
    fig, ax = plt.subplots(figsize=(5, 3.4))
    y = np.arange(3)
    ax.barh(y - 0.19, [61.2, 70.5, 77.9], 0.38, label="zero-shot")
    ax.barh(y + 0.19, [68.4, 79.1, 84.3], 0.38, label="fine-tuned")
    ax.set_yticks(y, ["small", "base", "large"])
    ax.legend(loc="upper left")
    conv = convert(_png(fig))
    spec, rows = _rows(conv)
    assert spec["encoding"]["color"]["scale"]["domain"] == ["zero-shot", "fine-tuned"]
    assert spec["encoding"]["yOffset"]["sort"] == ["fine-tuned", "zero-shot"]  # top bar of each pair first
    got = {(s, c): v for s, c, v in ((r["series"], r["y"], r["x"]) for r in spec["data"]["values"])}
    want = {("zero-shot", "small"): 61.2, ("zero-shot", "base"): 70.5, ("zero-shot", "large"): 77.9,
            ("fine-tuned", "small"): 68.4, ("fine-tuned", "base"): 79.1, ("fine-tuned", "large"): 84.3}
    assert set(got) == set(want) and all(abs(got[k] - v) <= 0.02 * 90 for k, v in want.items())


def test_a_markers_anti_aliased_rim_is_not_a_series():
    """Diamond markers leave a rim of their colour blended with the background round each one:
    it had been read as a third series of ragged points. Markers keep their shapes."""
    fig, ax = plt.subplots(figsize=(5, 3.2))
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    x = np.linspace(0, 1, 6)
    ax.plot(x, x ** 2, "-^", label="quadratic", color="#C44E52")
    ax.plot(x, x, "-D", label="linear", color="#8172B3")
    ax.legend(frameon=False)
    spec, rows = _rows(convert(_png(fig)))
    assert spec["encoding"]["color"]["scale"]["domain"] == ["quadratic", "linear"]
    linear = sorted((x, y) for s, x, y in rows if s == "linear")
    assert [round(x, 1) for x, _ in linear] == [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    assert all(abs(x - y) <= 0.02 for x, y in linear)
    # the markers keep their shapes
    assert spec["encoding"]["shape"]["scale"]["range"] == ["triangle-up", "diamond"]
    # the quadratic's first and last markers lie under the linear's diamonds: its line's ends
    # are those points (the re-drawn curve had stopped a step short at both ends)
    quad = sorted((x, y) for s, x, y in rows if s == "quadratic")
    assert [round(x, 1) for x, _ in quad] == [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    assert all(abs(y - x * x) <= 0.02 * 1.05 for x, y in quad)


def test_stacked_bars_are_read_as_their_segments():
    """matplotlib's bottom=: the second series stands on the first's tops, not on the axis. Its
    segments had been read as points at their corners."""
    fig, ax = plt.subplots(figsize=(5, 3.2))
    cats = ["enc", "dec", "head"]
    a, b = np.array([3.1, 2.2, 0.6]), np.array([1.2, 1.9, 0.3])
    ax.bar(cats, a, label="forward")
    ax.bar(cats, b, bottom=a, label="backward")
    ax.legend()
    spec, rows = _rows(convert(_png(fig)))
    assert spec["mark"]["type"] == "bar" and spec["encoding"]["y"].get("stack") == "zero"
    assert "xOffset" not in spec["encoding"]
    got = {(s, x): y for s, x, y in rows}
    want = {("forward", c): v for c, v in zip(cats, a)} | {("backward", c): v for c, v in zip(cats, b)}
    assert set(got) == set(want) and all(abs(got[k] - v) <= 0.02 * 4.5 for k, v in want.items())


def test_error_bars_on_bars_are_data_and_a_split_rotated_title_is_one():
    """yerr= strokes through the bar tops become each bar's y_err, drawn by an errorbar layer.
    The rotated title 'mAP', which the detector cut into 'AP' and 'm', is one title again."""
    fig, ax = plt.subplots(figsize=(5, 3.2))
    ax.bar(["A", "B", "C", "D"], [0.62, 0.71, 0.68, 0.80], yerr=[0.03, 0.02, 0.04, 0.02], capsize=4,
           color="#55A868")
    ax.set_ylabel("mAP")
    conv = convert(_png(fig))
    assert conv.report["components"] == {"chart": 1}
    spec = conv.figure.of_kind("chart")[0].spec
    assert spec["encoding"]["y"]["title"] == "mAP"
    assert [layer["mark"]["type"] if isinstance(layer["mark"], dict) else layer["mark"] for layer in spec["layer"]] \
        == ["bar", "errorbar"]
    got = {r["x"]: (r["y"], r["y_err"]) for r in spec["data"]["values"]}
    want = {"A": (0.62, 0.03), "B": (0.71, 0.02), "C": (0.68, 0.04), "D": (0.80, 0.02)}
    for k, (v, e) in want.items():
        assert abs(got[k][0] - v) <= 0.02 * 0.85 and abs(got[k][1] - e) <= 0.005
    assert conv.report["ssim"] >= 0.95


def test_bars_without_error_bars_stay_one_layer(grouped):
    spec = grouped.figure.of_kind("chart")[0].spec
    assert "layer" not in spec and all("y_err" not in r for r in spec["data"]["values"])


@pytest.mark.parametrize("style", ["grouped", "stacked", "hbar", "errorbars", "grid_markers", "hgrouped",
                                   "value_labels"])
def test_gallery_styles_are_read_back(style):
    """One chart of each gallery style (`crafteditor bench --kind gallery`): values within 2%."""
    from crafteditor.scoring import score_chart
    from crafteditor.synthetic import gallery_chart

    png, truth = gallery_chart(style, 0)
    conv = convert(png)
    assert conv.report["components"].get("chart") == 1
    assert score_chart(conv.figure, truth)["within_2pct"] >= 0.9


def test_value_labels_over_bars_are_the_data_and_a_text_layer():
    """bar_label's numbers: the author's values (the bars' heights read to a pixel had relabelled
    81.8 as 81.9), drawn by a text layer from the data instead of loose text over the chart; a
    label beside a taller bar is not a legend entry (its 'swatch' runs on down)."""
    fig, ax = plt.subplots(figsize=(5, 3.2))
    bars = ax.bar(["ResNet", "ViT", "Swin", "ConvNeXt"], [76.1, 81.8, 83.5, 82.1], color="#8172B3")
    ax.bar_label(bars, fmt="%.1f")
    ax.set_ylim(60, 90)
    conv = convert(_png(fig))
    assert conv.report["components"] == {"chart": 1}
    spec = conv.figure.of_kind("chart")[0].spec
    assert {r["x"]: r["y"] for r in spec["data"]["values"]} == {"ResNet": 76.1, "ViT": 81.8, "Swin": 83.5,
                                                                 "ConvNeXt": 82.1}
    text = [layer for layer in spec["layer"] if layer["mark"]["type"] == "text"]
    assert len(text) == 1 and text[0]["encoding"]["text"] == {"field": "y", "type": "quantitative", "format": ".1f"}
    assert text[0]["mark"]["dy"] < 0  # above the bar tops


def _confusion(cmap="Blues", bar=True):
    cm = np.array([[50, 3, 2], [4, 41, 7], [1, 6, 45]])
    labels = ["cat", "dog", "bird"]
    fig, ax = plt.subplots(figsize=(4.2, 3.6))
    im = ax.imshow(cm, cmap=cmap)
    ax.set_xticks(range(3), labels)
    ax.set_yticks(range(3), labels)
    for i in range(3):
        for j in range(3):
            dark = cm[i, j] > 25 if cmap == "Blues" else cm[i, j] < 25  # viridis is dark at its low end
            ax.text(j, i, str(cm[i, j]), ha="center", va="center", color="white" if dark else "black")
    ax.set_xlabel("Predicted")
    ax.set_ylabel("True")
    if bar:
        fig.colorbar(im, ax=ax)
    return cm, labels, convert(_png(fig))


@pytest.mark.parametrize("cmap,scheme", [("Blues", "blues"), ("viridis", "viridis")])
def test_an_annotated_heatmap_is_a_chart_of_its_numbers(cmap, scheme):
    """A confusion matrix (imshow + numbers in the cells): a plot filled with cells has no axis
    line to find, and had come back as 20 loose texts, image patches and paths. Its numbers are
    the data, its colours name the scheme, the colour bar is its legend."""
    cm, labels, conv = _confusion(cmap)
    assert conv.report["components"] == {"chart": 1}
    spec = conv.figure.of_kind("chart")[0].spec
    got = {(r["y"], r["x"]): r["value"] for r in spec["data"]["values"]}
    assert got == {(labels[i], labels[j]): float(cm[i, j]) for i in range(3) for j in range(3)}
    assert spec["encoding"]["x"]["sort"] == labels and spec["encoding"]["y"]["sort"] == labels  # tick marks stripped
    assert spec["encoding"]["x"]["title"] == "Predicted" and spec["encoding"]["y"]["title"] == "True"
    rect = spec["layer"][0]
    assert rect["mark"]["type"] == "rect" and rect["encoding"]["color"]["scale"]["scheme"] == scheme
    assert rect["encoding"]["color"].get("legend") == {"orient": "right"}  # the colour bar, right of the plot
    assert spec["layer"][1]["mark"]["type"] == "text"
    assert conv.report["ssim"] >= 0.85


def test_a_heatmap_without_numbers_is_read_off_its_colour_bar():
    """An attention map: no numbers in the cells, a colour bar beside them. Each cell's value is
    the bar's value where the bar has the cell's colour; the bar's range is the scale's domain."""
    rng = np.random.default_rng(1)
    att = rng.random((5, 5))
    att = att / att.sum(axis=1, keepdims=True)
    toks = ["The", "cat", "sat", "on", "mat"]
    fig, ax = plt.subplots(figsize=(4.4, 3.8))
    im = ax.imshow(att, cmap="viridis", vmin=0, vmax=0.5)
    ax.set_xticks(range(5), toks)
    ax.set_yticks(range(5), toks)
    fig.colorbar(im, ax=ax)
    conv = convert(_png(fig))
    assert conv.report["components"] == {"chart": 1}
    spec = conv.figure.of_kind("chart")[0].spec
    assert [layer["mark"]["type"] for layer in spec["layer"]] == ["rect"]  # no numbers were drawn
    scale = spec["layer"][0]["encoding"]["color"]["scale"]
    assert scale["scheme"] == "viridis" and scale["domain"] == [0.0, 0.5]
    got = {(r["y"], r["x"]): r["value"] for r in spec["data"]["values"]}
    for i, a in enumerate(toks):
        for j, b in enumerate(toks):
            assert abs(got[(a, b)] - att[i, j]) <= 0.02 * 0.5


def test_horizontal_bars_keep_their_error_bars_and_value_labels():
    """The turned reading's layers, turned back: error bars along x (xError), labels right of the
    bars' ends. A layered horizontal chart had been refused (no top-level bar mark)."""
    cats, vals = ["BERT", "RoBERTa", "T5", "GPT-2"], [82.1, 86.4, 88.9, 79.3]
    fig, ax = plt.subplots(figsize=(5, 3))
    ax.barh(cats, vals, color="#4C72B0", xerr=[1.2, 0.8, 1.5, 2.0], capsize=3)
    ax.set_xlim(0, 100)
    spec = convert(_png(fig)).figure.of_kind("chart")[0].spec
    assert [layer["mark"]["type"] for layer in spec["layer"]] == ["bar", "errorbar"]
    assert spec["layer"][1]["encoding"]["xError"] == {"field": "x_err"}
    got = {r["y"]: (r["x"], r["x_err"]) for r in spec["data"]["values"]}
    for c, v, e in zip(cats, vals, [1.2, 0.8, 1.5, 2.0]):
        assert abs(got[c][0] - v) <= 2.0 and abs(got[c][1] - e) <= 0.5

    fig, ax = plt.subplots(figsize=(5, 3))
    bars = ax.barh(cats, vals, color="#4C72B0")
    ax.bar_label(bars, fmt="%.1f", padding=3)
    ax.set_xlim(0, 100)
    spec = convert(_png(fig)).figure.of_kind("chart")[0].spec
    text = spec["layer"][1]
    assert text["mark"]["type"] == "text" and text["encoding"]["text"]["field"] == "x" and text["mark"]["dx"] > 0
    assert {r["y"]: r["x"] for r in spec["data"]["values"]} == dict(zip(cats, vals))


def test_shaded_bands_are_each_lines_errorband():
    """mean ± sd curves (fill_between over plot): each band is a pale tint of its line's colour,
    drawn over the line, overlapping the other band. The bands had outweighed the lines, which
    were dropped as fringes: one series of scattered points came back."""
    x = np.arange(0, 11)
    fig, ax = plt.subplots(figsize=(5, 3.2))
    truth = {}
    for name, a in (("ours", 0.35), ("baseline", 0.22)):
        m, sd = 1 - np.exp(-a * x), 0.05 + 0.01 * x
        ax.plot(x, m, label=name)
        ax.fill_between(x, m - sd, m + sd, alpha=0.2)
        truth[name] = (m, sd)
    ax.legend()
    ax.set_ylabel("Accuracy")
    conv = convert(_png(fig))
    spec = conv.figure.of_kind("chart")[0].spec
    # the detector's box for the rotated title stopped short of 'Ac' ('curacy'): it is read out
    assert spec["encoding"]["y"]["title"] == "Accuracy"
    assert spec["encoding"]["color"]["scale"]["domain"] == ["ours", "baseline"]
    assert [layer["mark"]["type"] for layer in spec["layer"]] == ["errorband", "line"]
    assert spec["layer"][1]["mark"]["point"] is False  # plain lines stay plain
    for name, (m, sd) in truth.items():
        rows = [r for r in spec["data"]["values"] if r["series"] == name]
        assert len(rows) >= 6
        for r in rows:
            i = int(round(r["x"]))
            if not 1 <= i <= 9 or abs(r["x"] - i) > 0.1:
                continue  # band edges are read at the line's vertices, which the data's x need not be
            assert abs(r["y"] - m[i]) <= 0.02 * 1.2
            assert abs(r["lo"] - (m[i] - sd[i])) <= 0.03 and abs(r["hi"] - (m[i] + sd[i])) <= 0.03
    assert conv.report["ssim"] >= 0.92


def _classic(style: str, seed: int):
    from crafteditor.scoring import score_chart
    from crafteditor.synthetic import gallery_chart, random_chart

    with plt.style.context("classic"):
        png, truth = random_chart(seed) if style == "random" else gallery_chart(style, seed)
    conv = convert(png)
    return conv, score_chart(conv.figure, truth)


@pytest.mark.parametrize("style,seed", [("errorbars", 0), ("value_labels", 1), ("grouped", 1), ("hbar", 1),
                                        ("grid_markers", 0), ("random", 2)])
def test_matplotlib_classic_style_charts_are_read(style, seed):
    """matplotlib's classic style sets tick labels close to the axis (the column of y labels
    had been read as one rotated line, '8..2...68', and the axis fitted as a log scale), draws
    bars with black outlines and ticks inward on all four sides (read as a black series of
    bars), and its category labels a word's gap apart ('Mamba ResNet' was one category). Its
    markers have black edges: a scatter's discs had been dropped for their (larger) rings, and
    diamonds cut out of their line; its tick labels sit 3.5 px above their ticks (the axis is
    fitted on the ticks)."""
    conv, score = _classic(style, seed)
    assert score["within_2pct"] == 1.0
    spec = conv.figure.of_kind("chart")[0].spec
    series = {r.get("series") for r in spec["data"]["values"]}
    assert len(series) == (2 if style in ("grouped", "grid_markers") else 1)  # no black outline series


def _sheet(sheet: str, style: str, seed: int):
    from crafteditor.scoring import score_chart
    from crafteditor.synthetic import gallery_chart, random_chart

    with plt.style.context(sheet):
        png, truth = random_chart(seed) if style == "random" else gallery_chart(style, seed)
    conv = convert(png)
    return conv, score_chart(conv.figure, truth)


@pytest.mark.parametrize("sheet,style,seed", [
    ("ggplot", "grouped", 0), ("ggplot", "random", 1), ("ggplot", "hbar", 1),
    ("seaborn-v0_8-darkgrid", "stacked", 0), ("seaborn-v0_8-darkgrid", "grid_markers", 0),
    ("bmh", "errorbars", 0), ("bmh", "hbar", 1), ("Solarize_Light2", "grouped", 1),
])
def test_matplotlib_tinted_panel_charts_are_read(sheet, style, seed):
    """ggplot, seaborn's darkgrid (seaborn's default) and bmh draw the plot on a grey panel with
    white (bmh: dashed grey) gridlines; ggplot and seaborn draw no axis lines. No chart had been
    found: the panel came back as a shape and its gridlines as edges. The data are read, and the
    re-rendered chart has the panel's fill, its gridlines on both axes, and no axis lines where
    the original has none."""
    conv, score = _sheet(sheet, style, seed)
    assert score["charts"] == 1 and score["within_2pct"] == 1.0
    assert not conv.figure.of_kind("node") and not conv.figure.of_kind("edge")  # no panel shape, no gridline edges
    spec = conv.figure.of_kind("chart")[0].spec
    config = spec["config"]
    panel = {"ggplot": "#E5E5E5", "seaborn-v0_8-darkgrid": "#EAEAF2", "bmh": "#EEEEEE",
             "Solarize_Light2": "#EEE8D5"}[sheet]
    assert config["view"]["fill"] == panel
    # the page around the panel: Solarize's cream is kept, the others' white is the theme's
    assert conv.figure.background == ("#FDF6E3" if sheet == "Solarize_Light2" else None)
    assert config["axis"]["grid"] is True
    if sheet == "bmh":
        assert config["view"]["stroke"]  # its light grey frame
        assert len(config["axis"]["gridDash"]) == 2  # dashed
        assert config["axis"]["gridColor"] == "#B2B2B2"
    else:
        assert config["axis"]["domain"] is False
        assert config["axis"]["gridColor"] == ("#FDF6E3" if sheet == "Solarize_Light2" else "#FFFFFF")  # the page's
        assert "gridDash" not in config["axis"]
    if sheet == "seaborn-v0_8-darkgrid":
        assert config["axis"]["ticks"] is False
    grey = {"ggplot": "#555555", "Solarize_Light2": "#657B83"}  # their tick labels' colours
    if sheet in grey:
        assert config["axis"]["labelColor"] == grey[sheet]
    else:
        assert "labelColor" not in config["axis"]  # black, the theme's own
    band = "y" if style == "hbar" else "x"
    if spec["encoding"][band]["type"] == "nominal":  # gridlines at the categories too
        assert spec["encoding"][band]["axis"]["grid"] is True
    assert conv.report["ssim"] >= 0.85


def test_a_bar_ending_beside_the_legend_keeps_its_length():
    """The legend's box is its frame, not a margin past it: BERT's bar ending just left of the
    legend had been cut to the margin's edge (64.2 read as 61.9)."""
    from crafteditor.scoring import score_chart
    from crafteditor.synthetic import gallery_chart

    png, truth = gallery_chart("hgrouped", 1)
    conv = convert(png)
    assert score_chart(conv.figure, truth)["within_2pct"] == 1.0


@pytest.mark.parametrize("sheet,style,seed", [("fivethirtyeight", "random", 1), ("fivethirtyeight", "grouped", 0),
                                              ("fivethirtyeight", "grid_markers", 1)])
def test_charts_framed_by_their_gridlines_alone_are_read(sheet, style, seed):
    """fivethirtyeight draws gridlines and no axis lines (on a grey page): its gridlines' ends are
    the plot's edges. A gridline or the legend's edge had been taken for the x axis, and the
    chart read from there (half the points lost)."""
    conv, score = _sheet(sheet, style, seed)
    assert score["charts"] == 1 and score["within_2pct"] >= (0.7 if style == "grid_markers" else 1.0)
    config = conv.figure.of_kind("chart")[0].spec["config"]
    assert config["axis"]["domain"] is False and config["axis"]["grid"] is True
    assert "fill" not in config.get("view", {})  # the grid lies on the page itself
    assert conv.figure.background == "#F0F0F0"  # which is grey, and kept


def test_thick_lines_keep_their_markers_through_jpeg():
    """fivethirtyeight's 8 px lines as a q75 JPEG: the red line's ragged edge had rooted its
    skeleton in spurs (width read 2.3 px), and the opening that finds markers lost eight of its
    nine squares. The width and markers are read on the line smoothed by a 3×3 median."""

    from PIL import Image

    from crafteditor.scoring import score_chart
    from crafteditor.synthetic import gallery_chart

    with plt.style.context("fivethirtyeight"):
        png, truth = gallery_chart("grid_markers", 0)
    buf = io.BytesIO()
    Image.open(io.BytesIO(png)).convert("RGB").save(buf, "JPEG", quality=75)
    conv = convert(buf.getvalue())
    score = score_chart(conv.figure, truth)
    assert score["found"] == score["points"] == 18 and score["within_2pct"] == 1.0


def test_a_grey_page_is_kept_but_a_scanned_one_turns_white():
    """fivethirtyeight's grey page comes back as the figure's background (the re-render had been
    white around the plot: SSIM 0.86); the same chart as a q85 JPEG keeps it too. A scan's page
    is paper, whose tint is no part of the figure: the scan preset leaves the page white."""

    from PIL import Image

    from crafteditor.config import Config

    conv, _ = _sheet("fivethirtyeight", "grouped", 0)
    assert conv.figure.background == "#F0F0F0"
    assert 'id="crafter--background"' in conv.svg and 'fill="#F0F0F0"' in conv.svg
    assert conv.report["ssim"] >= 0.88
    with plt.style.context("fivethirtyeight"):
        from crafteditor.synthetic import gallery_chart

        png, _ = gallery_chart("grouped", 0)
    buf = io.BytesIO()
    Image.open(io.BytesIO(png)).convert("RGB").save(buf, "JPEG", quality=85)
    page = convert(buf.getvalue()).figure.background
    assert page is not None and max(abs(int(page[i:i + 2], 16) - 0xF0) for i in (1, 3, 5)) <= 2
    assert convert(buf.getvalue(), Config.preset("scan")).figure.background is None


def test_a_despined_chart_with_a_grid_is_read():
    """seaborn's whitegrid with every spine removed (sns.despine(left=True, bottom=True))."""
    from crafteditor.scoring import score_chart

    with plt.style.context("seaborn-v0_8-whitegrid"):
        fig, ax = plt.subplots(figsize=(5, 3.4))
        x = np.arange(1, 8)
        ax.plot(x, 0.3 * x + 1, "-o", label="train")
        ax.plot(x, 0.2 * x ** 1.2, "-o", label="val")
        for side in ax.spines.values():
            side.set_visible(False)
        ax.legend()
        ylim, xlim = ax.get_ylim(), ax.get_xlim()
        png = _png(fig)
    from crafteditor.synthetic import ChartTruth

    truth = ChartTruth(kind="line", series={"train": [(v, 0.3 * v + 1) for v in range(1, 8)],
                                            "val": [(v, 0.2 * v ** 1.2) for v in range(1, 8)]},
                       y_range=ylim, x_range=xlim)
    conv = convert(png)
    assert score_chart(conv.figure, truth)["within_2pct"] == 1.0


def test_bars_with_black_edges_keep_their_edges():
    """edgecolor='k', as many papers draw bars: the edge is no series of its own, and the
    re-rendered bars have it again (mark.stroke), their fill their own colour."""
    fig, ax = plt.subplots(figsize=(5, 3.4))
    cats, vals = ["ResNet", "ViT", "Swin", "BERT"], [71.2, 80.5, 83.1, 64.0]
    ax.bar(cats, vals, color="#4C72B0", edgecolor="k", linewidth=1.5)
    ax.set_ylim(0, 100)
    conv = convert(_png(fig))
    spec, rows = _rows(conv)
    mark = spec["mark"]
    assert mark["stroke"] == "#000000" and 0.5 <= mark["strokeWidth"] <= 2.5 and mark["color"] == "#4C72B0"
    got = {x: y for _, x, y in rows}
    assert set(got) == set(cats) and all(abs(got[c] - v) <= 2.0 for c, v in zip(cats, vals))
    bar = re.search(r'<rect id="[^"]*bar[^"]*"[^>]*>', conv.svg).group(0)
    assert 'fill="#4C72B0"' in bar and 'stroke="#000000"' in bar


@pytest.mark.parametrize("sheet", ["default", "ggplot"])
def test_side_by_side_subplots_are_two_charts_with_their_own_legends(sheet):
    """Two subplots in one figure: each is its own chart (ggplot's two grey panels too), and the
    right one's legend is its own (it had been taken for the left one's, the column right of a
    plot running on into the next plot); a tick label '1.5' read as one number, not '1' and '5'."""
    with plt.style.context(sheet):
        fig, (a1, a2) = plt.subplots(1, 2, figsize=(8, 3.2))
        a1.bar(["A", "B", "C"], [3.2, 5.1, 4.4])
        x = np.arange(1, 7)
        a2.plot(x, x * 0.5 + 1, "-o", label="train")
        a2.plot(x, x * 0.3 + 1.2, "-s", label="val")
        a2.legend()
        png = _png(fig)
    conv = convert(png)
    charts = conv.figure.of_kind("chart")
    assert len(charts) == 2
    bars = {r["x"]: r["y"] for r in charts[0].spec["data"]["values"]}
    assert all(abs(bars[k] - v) <= 0.1 for k, v in {"A": 3.2, "B": 5.1, "C": 4.4}.items())
    lines = charts[1].spec["data"]["values"]
    assert {r["series"] for r in lines} == {"train", "val"}
    for r in lines:
        want = r["x"] * (0.5 if r["series"] == "train" else 0.3) + (1 if r["series"] == "train" else 1.2)
        assert abs(r["y"] - want) <= 0.02 * 2.7, r


def test_a_scatter_with_overlapping_markers_stays_a_scatter():
    """Two markers drawn over each other make one blob no lone-marker test takes: it had been
    read as a short line, and the whole series re-drawn as a line joining its points."""
    from crafteditor.scoring import score_chart
    from crafteditor.synthetic import random_chart

    png, truth = random_chart(11)
    assert truth.kind == "scatter"
    conv = convert(png)
    spec = conv.figure.of_kind("chart")[0].spec
    assert (spec["mark"]["type"] if isinstance(spec["mark"], dict) else spec["mark"]) == "point"
    assert score_chart(conv.figure, truth)["within_2pct"] >= 0.95


def test_a_grid_drawn_over_the_bars_is_drawn_over_them_again():
    """matplotlib lays its grid over bars (axisbelow 'line'), here at alpha 0.4: the re-rendered
    grid is over the bars too (axis.zindex 1), with the paint and opacity read off the line over
    the page and over the bars. ggplot's lies under them and stays there."""
    from crafteditor.synthetic import gallery_chart

    png, _ = gallery_chart("grouped", 0)
    axis = convert(png).figure.of_kind("chart")[0].spec["config"]["axis"]
    assert axis["zindex"] == 1 and 0.25 <= axis["gridOpacity"] <= 0.55
    assert 0.8 <= axis["gridWidth"] / 0.64 <= 2.5  # 0.8 pt at 150 dpi is 1.7 image px (0.64 figure px each)
    assert all(abs(int(axis["gridColor"][i:i + 2], 16) - 0xB0) <= 12 for i in (1, 3, 5))  # matplotlib's #B0B0B0
    conv, _ = _sheet("ggplot", "grouped", 0)
    assert "zindex" not in conv.figure.of_kind("chart")[0].spec["config"]["axis"]


@pytest.mark.parametrize("style,seed,kind", [("grouped", 0, "bar"), ("hgrouped", 1, "bar"), ("grid_markers", 0, "line")])
def test_legend_swatches_come_back_as_matplotlib_draws_them(style, seed, kind):
    """matplotlib's legend handles are 2 em long (bars: 2 × 0.7 em rectangles), 0.8 em before
    their labels; they had come back as Vega's small squares 4 px before the label. The swatch
    is measured beside each entry and written as config.legend (symbolType, symbolSize,
    labelOffset)."""
    from crafteditor.scoring import score_chart
    from crafteditor.synthetic import gallery_chart

    png, truth = gallery_chart(style, seed)
    conv = convert(png)
    assert score_chart(conv.figure, truth)["within_2pct"] == 1.0
    spec = conv.figure.of_kind("chart")[0].spec
    legend = spec["config"]["legend"]
    font = legend["labelFontSize"]
    width = legend["symbolSize"] ** 0.5
    assert 1.6 * font <= width <= 2.4 * font  # 2 em
    assert 0.5 * font <= legend["labelOffset"] <= 1.1 * font  # 0.8 em
    if kind == "bar":
        a = float(legend["symbolType"].split(",")[1].split("H")[0])
        assert legend["symbolType"] == f"M-1,{a}H1V{-a}H-1Z" and 0.25 <= -a <= 0.45  # 0.7 em of 2 em
    else:
        assert "symbolType" not in legend  # a line's swatch is its stroke
