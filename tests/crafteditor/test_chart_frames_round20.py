"""Plots framed by their tick labels alone (a W&B panel: no y axis line, the x axis's title set in
the plot's corner above its labels), log axes whose powers of ten OCR read half raised, half flat, and
tick labels kept as written."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from mpl_helpers import mpl_png as _png  # noqa: E402
from mpl_helpers import read_rows as _rows  # noqa: E402

from crafteditor import convert  # noqa: E402
from crafteditor.charts.axes import fit_axis  # noqa: E402
from crafteditor.charts.style import tick_format  # noqa: E402
from crafteditor.charts.tick_frames import tick_frames  # noqa: E402
from crafteditor.ocr.runs import TextRun  # noqa: E402


def _value_at(rows, x):
    """The line's value at ``x``: between the vertices either side of it."""
    pts = sorted((float(px), y) for _, px, y in rows)
    for (xa, ya), (xb, yb) in zip(pts, pts[1:]):
        if xa <= x <= xb:
            return ya + (yb - ya) * (x - xa) / (xb - xa) if xb > xa else ya
    return None


def test_a_wandb_panel_with_its_step_title_in_the_corner_is_read_as_a_chart():
    """W&B draws no y axis line, sets 'Step' in the plot's bottom-right corner above the x labels and
    leaves the lowest tick above the plot's foot: the lone 'Step' had been taken for the x labels' row,
    so no frame was found (the card's edge framed nothing) and the curve became loose edges."""
    steps = np.arange(0, 401)
    loss = 2.9 + 0.7 * np.exp(-steps / 25.0)
    fig, ax = plt.subplots(figsize=(8, 4))
    fig.patch.set_edgecolor("#dddddd")  # the panel's card round it
    fig.patch.set_linewidth(3)
    ax.plot(steps, loss, color="#4d8bd2", lw=1.5)
    for side in ("top", "right", "left"):
        ax.spines[side].set_visible(False)
    ax.spines["bottom"].set_color("#bbbbbb")
    ax.tick_params(length=0, colors="#777777")
    ax.set_ylim(2.6, 3.65)
    ax.set_yticks([2.8, 3.0, 3.2, 3.4, 3.6])
    ax.set_xticks([0, 100, 200, 300, 400])
    ax.text(400, 2.63, "Step", ha="right", va="bottom", color="#777777", fontsize=11)
    ax.set_title("val/loss")
    conv = convert(_png(fig))
    charts = conv.figure.of_kind("chart")
    assert len(charts) == 1
    _, rows = _rows(conv)
    for x in (50, 200, 390):
        got = _value_at(rows, x)
        want = 2.9 + 0.7 * np.exp(-x / 25.0)
        assert got is not None and abs(got - want) <= 0.02 * 1.05, (x, got, want)


def _run(text, x, y, w, h=14.0):
    return TextRun(text=text, x=x, y=y, w=w, h=h, angle=0.0, font_px=h, bold=False, color=(100, 100, 100),
                   confidence=0.9, baseline=y + h, glyphs=np.zeros((0, 0), bool))


def test_a_lone_title_above_the_x_labels_does_not_hide_the_frame():
    """nanoGPT's W&B panel (the runs as read): y numbers 3.6 … 2.8, then 'Step' alone in the plot's corner
    above the x labels' row; the frame is the plot's, its foot on the axis line over the labels."""
    runs = [_run("val/loss", 555, 81, 93, 25)]
    runs += [_run(t, 53 if len(t) > 1 else 70, y, 26 if len(t) > 1 else 9)
             for t, y in (("3.6", 118), ("3.4", 198), ("3.2", 278), ("3", 358), ("2.8", 438))]
    runs.append(_run("Step", 1070, 491, 41, 22))
    runs += [_run(t, x, 551, 10 * len(t)) for t, x in (("0", 103), ("100", 341), ("200", 589), ("300", 837),
                                                        ("400", 1085))]
    ink = np.zeros((614, 1206), bool)
    ink[548:550, 85:1122] = True  # the x axis line
    frames = tick_frames(runs, ink, np.array([249, 249, 249], np.uint8), [])
    assert len(frames) == 1
    f = frames[0]
    assert 75 <= f.x0 <= 90 and 1110 <= f.x1 <= 1130 and 540 <= f.y1 <= 550 and f.y0 <= 125


def test_a_log_axis_of_powers_read_half_raised_half_flat_is_a_log_axis():
    """matplotlib's 10⁴ … 10¹ on y: two exponents seen raised ('1e4', '1e2'), two read flat ('103',
    '101'); the mix had been fitted as the numbers 10000, 103, 100, 101 (a scale off by a decade)."""
    axis = fit_axis([(64.5, "1e4"), (133.5, "103"), (205.5, "1e2"), (274.5, "101")])
    assert axis.log
    for px, e in ((64.5, 4), (205.5, 2), (345.0, 0)):
        assert abs(axis.a + axis.b * px - e) < 0.05
    # '10⁰' read with a degree sign is 10⁰
    axis = fit_axis([(65, "104"), (135, "103"), (206, "102"), (276, "101"), (347, "10°")])
    assert axis.log and abs(axis.a + axis.b * 347 - 0) < 0.05


def test_a_lone_whole_tick_among_even_decimals_keeps_its_bare_form():
    """W&B writes '2.8 3 3.2 3.4 3.6': the chart redrawn had written '3.0', and the word '3' was lost;
    a point OCR lost ('25' among 2.5 steps) breaks the even step and keeps the chart's own format."""
    assert tick_format(["3.6", "3.4", "3.2", "3", "2.8"]) == ".1~f"
    assert tick_format(["2.5", "25", "3.5"]) is None
