"""Numbers read as names (:mod:`crafter.agents.quantities`): a quantity is no box, a reference mark and a cut-off
thousands group no part of a name; a count of things and a version number stay."""

from __future__ import annotations

from crafter.agents.extract import figure_from_brief
from crafter.agents.quantities import is_quantity, tidy_numbers
from crafter.agents.reading import BriefReading


def test_a_quantity_with_its_unit_is_no_name() -> None:
    for q in ("0.4 s", "100 fps", "7 MHz", "4k", "11x speed-up", "~15 min per sample"):
        assert is_quantity(q), q
    for name in ("12 months", "2 s timeout", "HoloLens 2", "1×1 conv", "3D embedding", "40 normal BAMs"):
        assert not is_quantity(name), name


def test_a_unit_is_matched_as_written() -> None:
    """"5G" (the network) is no 5 grams, "24H" no hours: the units had been matched in any case."""
    for name in ("5G", "24H", "3 MS", "12 S"):
        assert not is_quantity(name), name
    for q in ("5 g", "24 h", "3 ms", "12 s", "100 FPS speed-up", "2 GB per Node"):
        assert is_quantity(q), q


def test_reference_marks_and_thousands_groups_are_cut_and_quantities_dropped() -> None:
    text = "We mine values with GapMiner [7], merge them with 3,000 computed values and sweep from 7 MHz to 1 Hz."
    reading = BriefReading(entities=["GapMiner 7", "000 computed values", "7 MHz", "1 Hz"],
                           relations=[("GapMiner 7", "000 computed values"), ("7 MHz", "1 Hz")])
    tidy_numbers(reading, text)
    assert reading.entities == ["GapMiner", "Computed values"]
    assert reading.relations == [("GapMiner", "Computed values")]


def test_a_sweep_between_two_frequencies_draws_no_boxes() -> None:
    fig = figure_from_brief("The analyser measures each cell from 7 MHz to 1 Hz and the fitter reads the spectra.")
    labels = {n.label for n in fig.of_kind("node")}
    assert not labels & {"7 MHz", "1 Hz"}
