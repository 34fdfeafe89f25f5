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


def test_a_line_of_another_colour_across_the_bins_is_not_taken_for_them():
    rgb, m = _bins((40, 40, 40))  # a dark reference line drawn over the bins is no part of them
    assert not bridge_seen_through(m, rgb, BIN, (0, 0, 40, 40))[20].any()
