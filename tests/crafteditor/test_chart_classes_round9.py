"""Chart classes of round 9 (issue 31): histograms of several series drawn translucent over each
other (ggplot2's ``position = 'identity'`` with ``alpha``, matplotlib's ``hist(alpha=0.5)``), each
drawn here the way its maker draws it."""

from __future__ import annotations

import numpy as np
from ce_helpers import figure_png

from crafteditor import convert
from crafteditor.ocr.runs import TextRun
from crafteditor.realset import score_values
from crafter.spec import Chart


def _overlapping_histograms(edge: str | None = None) -> tuple[bytes, list[list]]:
    """Three translucent histograms over each other with a legend; the truth lists each bin whose
    top stands clear of the other series' bins (as the real set's annotators do)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    edges = np.arange(0, 31, 2.0)
    counts = {
        "alpha": [1, 4, 6, 9, 15, 25, 15, 13, 6, 2, 0, 0, 0, 0, 0],
        "beta": [0, 1, 0, 2, 7, 4, 10, 9, 7, 3, 1, 0, 0, 0, 0],
        "gamma": [0, 0, 0, 0, 0, 0, 0, 0, 1, 8, 15, 20, 11, 9, 4],
    }
    colors = {"alpha": "#ff7f0e", "beta": "#9d4edd", "gamma": "#138d90"}
    fig, ax = plt.subplots(figsize=(6, 4), dpi=100)
    for name, c in counts.items():
        ax.bar(edges[:-1] + 1, c, width=2.0, color=colors[name], alpha=0.5, label=name,
               edgecolor=edge or "none")
    ax.set_ylim(0, 27)
    ax.legend(loc="upper right")
    truth = []
    for name, c in counts.items():
        others = [counts[o] for o in counts if o != name]
        truth += [[name, float(edges[i] + 1), v] for i, v in enumerate(c)
                  if v and all(v > o[i] + 1 for o in others)]
    return figure_png(fig), truth


def test_translucent_histograms_over_each_other_read_each_series_bins():
    """Where one series' bins overlap another's they show as the blend of the two: each series' own
    paint was left floating above the blend, no bar on the baseline, and its counts were lost
    (palmerpenguins' flipper histogram read 0 of 23 bins). Each bin runs on under the blend."""
    png, truth = _overlapping_histograms()
    assert len(truth) >= 12
    conv = convert(png)
    assert score_values(conv.figure, {"values": truth, "value_axis": [0, 27]}) >= 0.9


def test_a_scatter_on_ggplot2s_dark_panel_is_read_as_a_chart():
    """ggplot2's theme_dark: a grey50 panel, its gridlines grey42 and a little lighter, no axis lines.
    The panel was too dark to be taken for a tint, so no plot was framed and the scatter became a
    diagram of grey boxes; and once the panel was page its gridlines were dark enough for marks."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rng = np.random.default_rng(7)
    xs, ys = rng.uniform(2.1, 4.4, 40), rng.uniform(4.5, 7.8, 40)
    fig, ax = plt.subplots(figsize=(6, 4), dpi=100)
    ax.set_facecolor("#7f7f7f")
    ax.grid(True, color="#6b6b6b", linewidth=1.0)
    ax.grid(True, which="minor", color="#757575", linewidth=0.5)
    ax.minorticks_on()
    ax.set_axisbelow(True)
    for side in ax.spines.values():
        side.set_visible(False)
    ax.scatter(xs, ys, s=22, color="#00bfc4", zorder=3)
    ax.set_xlim(2.0, 4.5)
    ax.set_ylim(4.3, 8.0)
    conv = convert(figure_png(fig))
    (chart,) = [c for c in conv.figure.components if isinstance(c, Chart)]
    truth = [["y", float(x), float(y)] for x, y in zip(xs, ys)]
    assert chart.spec.get("mark", {}).get("type") == "point"
    assert score_values(conv.figure, {"values": truth, "value_axis": [4.3, 8.0]}) >= 0.8


def test_box_plots_on_a_numeric_axis_are_read_as_boxes_named_by_their_numbers():
    """ggplot2's ``geom_boxplot(aes(gear, disp))`` with a number for the group, on theme_grey: the
    white box faces cut the grey panel (no panel was found) and the axis reads 2.5 … 5.5, no
    category, so the boxes were read as a line through their corners (patchwork's example: half
    its box values lost). Each box and its whiskers is one blob; its centre's number names it."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    groups = {3: np.array([120, 230, 275, 300, 318, 330, 380, 410, 472]),
              4: np.array([71, 79, 95, 120, 131, 140, 160, 167]),
              5: np.array([95, 120, 145, 301, 351])}
    fig, ax = plt.subplots(figsize=(4, 4.5), dpi=100)
    ax.set_facecolor("#ebebeb")
    ax.grid(True, color="white", linewidth=1.2)
    ax.set_axisbelow(True)
    for side in ax.spines.values():
        side.set_visible(False)
    ax.boxplot(list(groups.values()), positions=list(groups), widths=0.75, manage_ticks=False, whis=(0, 100),
               patch_artist=True, boxprops={"facecolor": "white", "edgecolor": "#333333"},
               medianprops={"color": "#333333", "linewidth": 2.5}, whiskerprops={"color": "#333333"},
               capprops={"linewidth": 0})
    ax.set_xlim(2.5, 5.5)
    ax.set_xticks([2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 5.5])
    ax.set_xlabel("gear")
    lo, hi = ax.get_ylim()
    conv = convert(figure_png(fig))
    truth = [[f"box {q}", str(g), float(np.percentile(v, p))] for g, v in groups.items()
             for q, p in (("median", 50), ("Q1", 25), ("Q3", 75))]
    assert score_values(conv.figure, {"values": truth, "value_axis": [lo, hi]}) >= 0.8


def _joined_run(text: str, groups: list[tuple[int, int]], y: float = 204.0, bold: bool = False) -> TextRun:
    glyphs = np.zeros((9, groups[-1][1] + 1), bool)
    for a, b in groups:
        glyphs[:, a:b] = True
    return TextRun(text=text, x=300.0, y=y, w=float(glyphs.shape[1]), h=9.0, angle=0.0, font_px=12.14, bold=bold,
                   color=(0, 0, 0), confidence=1.0, baseline=y + 8.0, glyphs=glyphs)


def test_x_tick_numbers_joined_into_one_run_part_one_a_group_of_ink():
    """ggplot2's '3.0 3.5 … 5.5' in a narrow face, read as one run: the words' widths guessed from a
    wider face missed the ink by a quarter, the run stayed whole and the box plot's x axis was not
    read. Six numbers over six groups of ink, a gap apart, are six tick labels."""
    from crafteditor.charts.labels import split_tick_labels

    # the ink columns of the run as read (patchwork's nested layout, 12 px type, taken for bold)
    cols = ("######.##.#####............#####..#..#####...........######..#.######...........######..#..#####"
            "............#####.##.######...........######.##.#####")
    ink = np.array([c == "#" for c in cols])
    edges = np.flatnonzero(np.diff(np.concatenate([[False], ink, [False]]).astype(np.int8)))
    spans = list(zip(edges[0::2], edges[1::2]))
    runs = [_joined_run("3.0 3.5 4.0 4.5 5.0 5.5", spans, bold=True)]  # (the type's weight as OCR guessed it)
    split_tick_labels(runs, set(), 198.0, 281.0, 444.0, 11.0)
    assert [r.text for r in runs] == ["3.0", "3.5", "4.0", "4.5", "5.0", "5.5"]
    assert abs(runs[1].x - (300 + 27)) < 1e-6 and runs[1].w == 15
    groups = [(i * 27, i * 27 + 14) for i in range(6)]
    # five groups for six numbers: no telling which is which, the run stays whole
    runs = [_joined_run("3.0 3.5 4.0 4.5 5.0 5.5", groups[:5])]
    split_tick_labels(runs, set(), 198.0, 281.0, 444.0, 11.0)
    assert len(runs) == 1


def test_tick_numbers_of_a_plot_above_are_no_title():
    """The numbers under the plot above (its x tick labels, joined into one run) had titled the wide
    bar chart below it (patchwork's nested layout)."""
    from crafteditor.charts.labels import find_titles

    runs = [_joined_run("3.0 3.5 4.0 4.5 5.0 5.5", [(0, 140)], y=204.0),
            _joined_run("Counts by carb", [(0, 100)], y=220.0)]
    _, _, title = find_titles(runs, set(), [], [], (61.0, 247.0, 657.0, 431.0), 11.0)
    assert title == 1
    _, _, title = find_titles(runs[:1], set(), [], [], (61.0, 247.0, 657.0, 431.0), 11.0)
    assert title is None


def test_mean_markers_on_bar_tops_stay_points():
    """A bar chart with its means marked on the bars' tops: the markers are a point series, never grown
    down to the baseline as bars (the translucent-histogram rule is for line-like paint only)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    xs, heights, means = [0, 1, 2, 3], [6.0, 8.0, 5.0, 7.0], [6.5, 9.0, 5.5, 7.5]
    fig, ax = plt.subplots(figsize=(5, 3.6), dpi=100)
    ax.bar(xs, heights, color="#9ecae1", label="count")
    ax.scatter(xs, means, color="#d62728", s=40, zorder=3, label="mean")
    ax.set_xticks(xs, ["A", "B", "C", "D"])
    ax.set_ylim(0, 10)
    ax.legend(loc="upper right")
    conv = convert(figure_png(fig))
    charts = [c for c in conv.figure.components if isinstance(c, Chart)]
    assert charts
    truth = [["mean", x, m] for x, m in zip(["A", "B", "C", "D"], means)]
    assert score_values(conv.figure, {"values": truth, "value_axis": [0, 10]}) >= 0.75


def test_numbers_split_one_a_group_keep_their_superscripts():
    """Tick labels '10² 10³ 10⁴' joined into one run and split one number an ink group: each keeps its
    marked reading ('10^{2}'), so a log axis still reads 100, 1000, 10000 and not 102, 103, 104."""
    from crafteditor.charts.labels import _one_number_a_group

    glyphs = np.zeros((12, 90), bool)
    for c0 in (0, 35, 70):
        glyphs[2:12, c0:c0 + 18] = True
    run = TextRun(text="102 103 104", x=10.0, y=20.0, w=90.0, h=12.0, angle=0.0, font_px=12.0, bold=False,
                  color=(0, 0, 0), confidence=0.9, baseline=32.0, glyphs=glyphs, marked="10^{2} 10^{3} 10^{4}")
    pieces = _one_number_a_group(run)
    assert [p.text for p in pieces] == ["102", "103", "104"]
    assert [p.marked for p in pieces] == ["10^{2}", "10^{3}", "10^{4}"]
