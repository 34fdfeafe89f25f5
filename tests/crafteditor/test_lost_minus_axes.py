"""Tick labels whose minus signs OCR lost on one side of the 0 (SciencePlots' serif '−')."""

import pytest


def test_minus_signs_lost_below_zero_are_put_back():
    """SciencePlots' serif '−' is lost to OCR: a y axis −2 … 2 read 2 1 0 1 2 had fitted a flat axis."""
    from crafteditor.charts.axes import fit_axis, mirrored_minus

    ticks = [(10.0, "2.0"), (30.0, "1.0"), (50.0, "0.0"), (70.0, "1.0"), (90.0, "2.0")]
    mended = mirrored_minus(ticks, rising=False)
    assert [t for _, t in mended] == ["2.0", "1.0", "0.0", "-1.0", "-2.0"]
    axis = fit_axis(mended)
    assert abs(axis.value(90.0) + 2.0) < 1e-6 and abs(axis.value(10.0) - 2.0) < 1e-6
    # on an x axis the negatives are left of the 0
    assert [t for _, t in mirrored_minus(ticks, rising=True)] == ["-2.0", "-1.0", "0.0", "1.0", "2.0"]


@pytest.mark.parametrize("ticks", [
    [(10.0, "0"), (30.0, "5"), (50.0, "10")],  # the 0 at the end: nothing beyond it
    [(10.0, "-2"), (30.0, "-1"), (50.0, "0"), (70.0, "1")],  # the minus signs read
    [(10.0, "3"), (30.0, "1"), (50.0, "0"), (70.0, "1"), (90.0, "2")],  # no one scale: not a lost minus
])
def test_labels_without_a_lost_minus_stay_as_read(ticks):
    from crafteditor.charts.axes import mirrored_minus

    assert mirrored_minus(ticks, rising=True) == ticks
