"""XLSX: first or named sheet, typed cells, and errors naming the sheet, row and column."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from openpyxl import Workbook

from crafter.data import read_table, read_table_bytes
from crafter.errors import InputError


def _xlsx(sheets: dict[str, list[list[object]]]) -> bytes:
    wb = Workbook()
    wb.remove(wb.active)
    for name, rows in sheets.items():
        ws = wb.create_sheet(name)
        for r in rows:
            ws.append(r)
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


BOOK = _xlsx({
    "results": [["model", "acc", "date"], ["A", 81.2, dt.date(2024, 5, 1)], ["B", 79.9, dt.date(2024, 6, 1)]],
    "memory": [[None], ["batch", "gb"], [1, 14.2], [2, 15.0]],
})


def test_first_sheet_by_default():
    t = read_table_bytes(BOOK, "book.xlsx")
    assert t.sheet == "results"
    assert t.types == {"model": "nominal", "acc": "quantitative", "date": "temporal"}
    assert t.column("date").values == ["2024-05-01T00:00:00", "2024-06-01T00:00:00"]


def test_named_and_numbered_sheet_skip_leading_empty_rows():
    for sheet in ("memory", 1, "1"):
        t = read_table_bytes(BOOK, "book.xlsx", sheet=sheet)
        assert t.names == ["batch", "gb"] and t.column("gb").values == [14.2, 15.0]


def test_missing_sheet_lists_the_sheets():
    with pytest.raises(InputError) as e:
        read_table_bytes(BOOK, "book.xlsx", sheet="latency")
    assert "no sheet named 'latency'" in str(e.value) and "results, memory" in str(e.value)
    with pytest.raises(InputError, match="no sheet number 5"):
        read_table_bytes(BOOK, "book.xlsx", sheet=5)


def test_error_cells_name_sheet_row_and_column():
    book = _xlsx({"s": [["model", "acc"], ["A", 1.0], ["B", 2.0], ["C", "#DIV/0!"], ["D", 4.0]]})
    with pytest.raises(InputError) as e:
        read_table_bytes(book, "calc.xlsx")
    msg = str(e.value)
    assert "calc.xlsx [sheet 's']" in msg and "row 4" in msg and "column 'acc'" in msg


def test_ragged_row_beyond_header():
    book = _xlsx({"s": [["a", "b"], [1, 2], [3, 4, 5]]})
    with pytest.raises(InputError, match="row 3, column C"):
        read_table_bytes(book, "r.xlsx")


def test_empty_sheet_and_header_only():
    with pytest.raises(InputError, match="empty"):
        read_table_bytes(_xlsx({"s": []}), "e.xlsx")
    with pytest.raises(InputError, match="no data rows"):
        read_table_bytes(_xlsx({"s": [["a", "b"]]}), "h.xlsx")


def test_not_a_workbook_and_old_xls():
    with pytest.raises(InputError, match="not a readable .xlsx"):
        read_table_bytes(b"PK\x03\x04 this is not a zip", "broken.xlsx")
    with pytest.raises(InputError, match=r"\.xls files are not supported"):
        read_table_bytes(b"\xd0\xcf\x11\xe0", "old.xls")


def test_sheet_option_is_for_spreadsheets_only():
    with pytest.raises(InputError, match="only to spreadsheets"):
        read_table_bytes(b"a,b\n1,2\n", "t.csv", sheet="x")


def test_example_workbook(examples):
    t = read_table(examples / "throughput.xlsx")
    assert t.names == ["batch_size", "engine", "tokens_per_s"] and t.n_rows == 21
    assert read_table(examples / "throughput.xlsx", sheet="memory").names == ["batch_size", "peak_memory_gb"]
