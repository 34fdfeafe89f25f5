"""Column type inference: quantitative, nominal, ordinal, temporal."""

from __future__ import annotations

import pytest

from crafter.data import read_table_bytes, table_from_records
from crafter.data.infer import parse_date, parse_number


@pytest.mark.parametrize("text,value", [
    ("1.5", 1.5), ("-2e-3", -0.002), ("\u22123", -3), ("1,234", 1234), ("81.2%", 81.2), (" 7 ", 7), ("+4", 4),
    (".5", 0.5), ("1,234.5", 1234.5),
])
def test_numbers(text, value):
    assert parse_number(text) == value


@pytest.mark.parametrize("text", ["abc", "1.2.3", "inf", "nan", "7B", "1,23"])
def test_not_numbers(text):
    assert parse_number(text) is None


@pytest.mark.parametrize("text,iso", [
    ("2024-01-05", "2024-01-05"), ("2024/1/5", "2024-01-05"), ("2024-01", "2024-01-01"),
    ("2024-01-05 13:45", "2024-01-05T13:45:00"), ("2024-01-05T13:45:10Z", "2024-01-05T13:45:10Z"),
])
def test_dates(text, iso):
    assert parse_date(text) == iso


def test_invalid_dates_are_text():
    assert parse_date("2024-13-40") is None and parse_date("5 Jan") is None


def _types(csv: str) -> dict[str, str]:
    return read_table_bytes(csv.encode(), "t.csv").types


def test_quantitative_nominal_temporal():
    assert _types("a,b,c\n1,x,2024-01-01\n2.5,y,2024-02-01\n") == {"a": "quantitative", "b": "nominal", "c": "temporal"}


def test_ordinal_vocabularies_and_sizes():
    t = read_table_bytes(b"size,scale,diff\nlarge,7B,hard\nsmall,125M,easy\nbase,1.3B,medium\n", "o.csv")
    assert t.types == {"size": "ordinal", "scale": "ordinal", "diff": "ordinal"}
    assert t.column("size").order == ["small", "base", "large"]
    assert t.column("scale").order == ["125M", "1.3B", "7B"]
    assert t.column("diff").distinct() == ["easy", "medium", "hard"]


def test_integer_values_stay_integers():
    assert read_table_bytes(b"step\n1\n2\n", "s.csv").column("step").values == [1, 2]


def test_mostly_text_columns_with_numbers_are_nominal():
    t = read_table_bytes(b"id\nA1\n2\nB3\nC4\n", "n.csv")
    assert t.types["id"] == "nominal" and t.column("id").values == ["A1", "2", "B3", "C4"]


def test_from_records_and_describe():
    t = table_from_records([{"m": "A", "acc": 1.0}, {"m": "B", "acc": 3.0, "note": "x"}])
    assert t.names == ["m", "acc", "note"]
    d = t.describe()
    assert "acc: quantitative, 2 distinct (1.0 .. 3.0)" in d and d.startswith("2 rows")
