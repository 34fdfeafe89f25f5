"""Chart classes of round 14 (issue 31): seaborn's histograms, their bins translucent over the grid of a
tinted panel (``histplot`` at alpha 0.75 over darkgrid's white gridlines)."""

from __future__ import annotations

import numpy as np

from crafteditor.charts.strokes import bridge_seen_through

BIN = (117, 144, 192)  # seaborn's blue at alpha 0.75 over the panel
THROUGH = (121, 149, 196)  # the same over a white gridline: a paint of its own, near the bin's


def _bins(line_colour: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Two bins side by side, a white edge between them, a gridline across both at row 20; the bins' mask
    as paint clustering leaves it (the gridline's row not in it)."""
    rgb = np.full((40, 40, 3), 255, np.uint8)
    rgb[5:35, 5:18] = BIN
    rgb[5:35, 19:32] = BIN
    rgb[20, 5:18] = line_colour
    rgb[20, 19:32] = line_colour
    return rgb, np.all(rgb == BIN, axis=2)


def test_a_gridline_seen_through_translucent_bins_no_longer_cuts_them():
    """Once the tinted panel is made page the gridline is found nowhere but through the bins, so no rule
    mended them: every bin was cut at every gridline into pieces read as points (seaborn's
    faceted_histogram example: 0.33 of its values read; 0.96 mended)."""
    rgb, m = _bins(THROUGH)
    mended = bridge_seen_through(m, rgb, BIN, (0, 0, 40, 40))
    assert mended[5:35, 5:18].all() and mended[5:35, 19:32].all()
    assert not mended[:, 18].any()  # the white edge between two bins stays: they are two bars


def test_a_band_of_the_next_shade_of_a_sequential_palette_is_not_taken_for_the_series():
    """A 3 px segment of (90, 160, 205) between two parts of a (66, 146, 198) series: within 40 of it, and
    a tint of it, but thicker than a gridline seen through (a close sequential palette's next series)."""
    series = (66, 146, 198)
    rgb = np.full((40, 40, 3), 255, np.uint8)
    rgb[5:35, 5:18] = series
    rgb[19:22, 5:18] = (90, 160, 205)
    mended = bridge_seen_through(np.all(rgb == series, axis=2), rgb, series, (0, 0, 40, 40))
    assert not mended[19:22].any()


def test_a_line_of_a_colour_near_the_series_but_no_blend_with_the_grid_is_not_taken_for_it():
    """A 1 px line of (140, 130, 200), 28 from the bins' colour, but no blend of it with the page's
    or a white gridline's (a purple reference line over blue bins)."""
    rgb, m = _bins((140, 130, 200))
    assert not bridge_seen_through(m, rgb, BIN, (0, 0, 40, 40))[20].any()
