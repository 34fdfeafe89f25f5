"""A log axis given a value of zero or less draws it at the axis's low end (a bar's base at 0 on a
log axis read off a raster figure had stopped the whole conversion with a math domain error)."""

from __future__ import annotations

from crafter.charts.scales import ContinuousScale


def test_a_log_scale_puts_zero_and_negatives_at_its_low_end():
    scale = ContinuousScale("log", 1.0, 1000.0, nice=False)
    scale.set_range(0.0, 300.0)
    assert scale(0.0) == scale(-5.0) == scale(1.0) == 0.0
    assert abs(scale(1000.0) - 300.0) < 1e-9
