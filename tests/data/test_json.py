"""JSON tables: records, wrapped records, columns, JSON Lines, nesting, and located errors."""

from __future__ import annotations

import json

import pytest

from crafter.data import read_table, read_table_bytes
from crafter.errors import InputError


def test_records():
    t = read_table_bytes(json.dumps([{"model": "A", "acc": 1.5}, {"model": "B", "acc": 2}]).encode(), "r.json")
    assert t.types == {"model": "nominal", "acc": "quantitative"}
    assert t.to_records() == [{"model": "A", "acc": 1.5}, {"model": "B", "acc": 2}]


@pytest.mark.parametrize("key", ["data", "values", "records", "rows", "runs", "results"])
def test_wrapped_records(key):
    t = read_table_bytes(json.dumps({key: [{"a": 1}, {"a": 2}]}).encode(), "r.json")
    assert t.column("a").values == [1, 2]


def test_columns_object():
    t = read_table_bytes(b'{"model": ["A", "B"], "acc": [0.5, 0.7]}', "c.json")
    assert t.to_records() == [{"model": "A", "acc": 0.5}, {"model": "B", "acc": 0.7}]


def test_columns_of_different_lengths():
    with pytest.raises(InputError, match="different lengths"):
        read_table_bytes(b'{"model": ["A", "B"], "acc": [0.5]}', "c.json")


def test_rows_with_header_row():
    t = read_table_bytes(b'[["model", "acc"], ["A", 1], ["B", 2]]', "h.json")
    assert t.names == ["model", "acc"] and t.column("acc").values == [1, 2]


def test_json_lines(write):
    t = read_table(write("runs.jsonl", '{"step": 1, "loss": 2.5}\n{"step": 2, "loss": 2.1}\n\n'))
    assert t.column("loss").values == [2.5, 2.1]
    # JSON Lines under a .json name works too
    assert read_table(write("runs.json", '{"a": 1}\n{"a": 2}\n')).n_rows == 2


def test_union_of_keys_in_first_seen_order():
    t = read_table_bytes(b'[{"a": 1}, {"b": "x", "a": 2}]', "u.json")
    assert t.names == ["a", "b"] and t.column("b").values == [None, "x"]


def test_nested_objects_are_flattened_with_dots(examples):
    t = read_table(examples / "ablation_runs.json")
    assert "metrics.score" in t.names and t.types["metrics.score"] == "quantitative"


def test_list_cell_is_an_error_naming_record_and_key():
    with pytest.raises(InputError) as e:
        read_table_bytes(b'[{"a": 1}, {"a": 2, "hist": [1, 2]}]', "l.json")
    assert "record 2" in str(e.value) and "'hist'" in str(e.value)


def test_invalid_json_names_line_and_column():
    with pytest.raises(InputError) as e:
        read_table_bytes(b'[\n {"a": 1},\n {"a": }\n]', "bad.json")
    assert "bad.json: line 3, column" in str(e.value)


def test_non_object_record():
    with pytest.raises(InputError, match="record 2 is a int"):
        read_table_bytes(b'[{"a": 1}, 5]', "n.json")


def test_text_in_numeric_column_names_the_record():
    with pytest.raises(InputError) as e:
        read_table_bytes(b'[{"acc": 1}, {"acc": 2}, {"acc": "oops"}, {"acc": 4}]', "t.json")
    assert "record 3, column 'acc'" in str(e.value)


def test_empty_json():
    with pytest.raises(InputError, match="no records"):
        read_table_bytes(b"[]", "e.json")
