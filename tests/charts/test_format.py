"""Tick labels and d3 formats, and reading them back."""

from __future__ import annotations

import pytest

from crafter.charts.format import d3_format, linear_tick_labels, log_tick_labels, parse_label, symlog_tick_labels


def test_linear_labels_share_decimals_and_use_a_true_minus():
    assert linear_tick_labels([0, 0.25, 0.5, 0.75, 1.0]) == ["0.00", "0.25", "0.50", "0.75", "1.00"]
    assert linear_tick_labels([-2, -1, 0, 1]) == ["\u22122", "\u22121", "0", "1"]
    assert linear_tick_labels([0, 5000, 10000, 15000]) == ["0", "5k", "10k", "15k"]
    assert linear_tick_labels([0, 2.5e9, 5e9]) == ["0", "2.5B", "5.0B"]
    assert linear_tick_labels([0, 1e-4, 2e-4]) == ["0", "1e\u22124", "2e\u22124"]
    assert linear_tick_labels([2018, 2019, 2020]) == ["2018", "2019", "2020"]


def test_log_and_symlog_labels():
    assert log_tick_labels([0.01, 0.1, 1, 10]) == ["0.01", "0.1", "1", "10"]
    assert log_tick_labels([1e-6, 1e-4, 1e-2]) == ["10⁻⁶", "10⁻⁴", "10⁻²"]
    assert log_tick_labels([1, 4, 16, 64], base=2) == ["1", "4", "16", "64"]
    assert symlog_tick_labels([-100, 0, 10, 1e5]) == ["\u2212100", "0", "10", "10⁵"]


@pytest.mark.parametrize("spec,value,text", [
    (".1f", 3.14159, "3.1"), (".0%", 0.456, "46%"), ("~s", 1500, "1.5k"), (",d", 1234567, "1,234,567"),
    (".3~f", 2.5, "2.5"), (".2r", 0.01234, "0.012"), (".2e", 12345, "1.23e+04"), ("$,.2f", -1234.5, "\u2212$1,234.50"),
    ("+.1f", 2, "+2.0"), ("", 0.1 + 0.2, "0.3"),
])
def test_d3_formats(spec, value, text):
    assert d3_format(spec, value) == text


def test_bad_format():
    with pytest.raises(ValueError, match="d3 number format"):
        d3_format("%Y", 1.0)


@pytest.mark.parametrize("text,value", [
    ("1.5M", 1.5e6), ("\u22120.25", -0.25), ("10⁻³", 1e-3), ("2×10⁻³", 2e-3), ("50%", 0.5), ("1,000", 1000),
    ("20k", 2e4), ("1e\u22124", 1e-4), ("7B", 7e9), ("500m", 0.5),
])
def test_labels_parse_back(text, value):
    assert parse_label(text) == pytest.approx(value)


def test_non_numbers_do_not_parse():
    assert parse_label("ResNet-50") is None and parse_label("") is None and parse_label("Mar") is None


@pytest.mark.parametrize("values", [[0, 0.25, 0.5], [0, 5000, 10000], [-3, 0, 3], [1e-5, 2e-5], [0, 2.5e9, 5e9]])
def test_every_label_we_write_reads_back(values):
    for v, lab in zip(values, linear_tick_labels(values)):
        assert parse_label(lab) == pytest.approx(v)
