"""Reading tables from files and uploads: CSV/TSV, JSON (records, columns, lines), XLSX.

Every reader ends in :func:`crafter.data.infer.table_from_cells`, so types and errors are
the same whatever the format. Errors are :class:`~crafter.errors.InputError` and name the
file, the row (file line for text, sheet row for XLSX, record index for JSON) and the column.

* Size: files above :data:`MAX_TABLE_BYTES` are refused before reading (a chart of a
  gigabyte of rows is never what the user meant; aggregate first).
* Encodings: UTF-8, UTF-8 with BOM, UTF-16/32 (BOM or BOM-less), else Windows-1252
  and finally Latin-1 (which decodes any byte).
* Delimiters: ``, \\t ; |`` chosen by which one splits the first lines into the same
  number (>1) of fields; ``;`` files may use a decimal comma (``0,85``).
* Header: present unless the first row looks like the rows under it (numbers where
  the columns are numeric); ``header=`` overrides.
"""

from __future__ import annotations

import codecs
import csv
import io
import json
import os
import zipfile
from pathlib import Path
from typing import Any

from crafter.data.infer import parse_date, parse_number, table_from_cells
from crafter.data.table import Table
from crafter.errors import InputError

MAX_TABLE_BYTES = 50 * 1024 * 1024  # 50 MiB
MAX_ROWS = 1_000_000
_DELIMITERS = (",", "\t", ";", "|")
_DELIMITER_NAMES = {",": "comma", "\t": "tab", ";": "semicolon", "|": "pipe"}
TEXT_SUFFIXES = {".csv", ".tsv", ".tab", ".txt", ".dat"}
JSON_SUFFIXES = {".json", ".jsonl", ".ndjson"}
XLSX_SUFFIXES = {".xlsx", ".xlsm"}


def _human_size(n: int) -> str:
    for unit in ("bytes", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1024  # type: ignore[assignment]
    return f"{n} bytes"


def _check_size(size: int, source: str, max_bytes: int) -> None:
    if size > max_bytes:
        raise InputError(
            f"the file is {_human_size(size)}, above the {_human_size(max_bytes)} limit for a chart table; "
            "aggregate or sample it first (or raise max_bytes)",
            file=source,
        )


def read_table(
    path: str | os.PathLike[str],
    *,
    sheet: str | int | None = None,
    header: bool | None = None,
    max_bytes: int = MAX_TABLE_BYTES,
) -> Table:
    """Read a table file (.csv .tsv .txt .json .jsonl .xlsx); the suffix picks the reader.

    ``sheet`` names (or numbers, from 0) the spreadsheet sheet; the first one by default.
    """
    p = Path(path)
    source = str(path)
    if not p.exists():
        raise InputError("no such file", file=source)
    if p.is_dir():
        raise InputError("is a folder, not a table file", file=source)
    _check_size(p.stat().st_size, source, max_bytes)
    return read_table_bytes(p.read_bytes(), p.name, sheet=sheet, header=header, max_bytes=max_bytes, source=source)


def read_table_bytes(
    data: bytes,
    filename: str,
    *,
    sheet: str | int | None = None,
    header: bool | None = None,
    max_bytes: int = MAX_TABLE_BYTES,
    source: str | None = None,
) -> Table:
    """Read an uploaded table; ``filename`` (its suffix) picks the format, content decides if unknown."""
    source = source or filename
    _check_size(len(data), source, max_bytes)
    if not data.strip():
        raise InputError("the file is empty", file=source)
    suffix = Path(filename).suffix.lower()
    if suffix == ".xls":
        raise InputError("old Excel .xls files are not supported; save the sheet as .xlsx or .csv", file=source)
    is_zip = data[:4] == b"PK\x03\x04"
    if suffix in XLSX_SUFFIXES or (is_zip and suffix not in JSON_SUFFIXES):
        table = _read_xlsx(data, source, sheet)
    elif suffix in JSON_SUFFIXES or (suffix not in TEXT_SUFFIXES and data.lstrip()[:1] in (b"[", b"{")):
        table = _read_json(data, source, lines=suffix in (".jsonl", ".ndjson"))
    else:
        table = _read_delimited(data, source, header=header, tab=suffix in (".tsv", ".tab"))
    if sheet is not None and table.sheet is None:
        raise InputError(f"sheet={sheet!r} applies only to spreadsheets (.xlsx)", file=source)
    return table


# ---------------------------------------------------------------------------------------
# Text: encodings, delimiters, header
# ---------------------------------------------------------------------------------------


def decode_text(data: bytes, source: str) -> tuple[str, str]:
    """The text of a table file and the encoding used."""
    for bom, enc in ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
                     (codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16")):
        if data.startswith(bom):
            try:
                return data.decode(enc), enc
            except UnicodeDecodeError as e:
                raise InputError(f"starts with a {enc} byte-order mark but is not valid {enc} (byte {e.start})",
                                 file=source) from None
    head = data[:4096]
    if b"\x00" in head:
        # BOM-less UTF-16: ASCII text leaves every other byte zero
        even_zero = head[0::2].count(0) / max(1, len(head[0::2]))
        odd_zero = head[1::2].count(0) / max(1, len(head[1::2]))
        enc = "utf-16-le" if odd_zero > 0.3 > even_zero else "utf-16-be" if even_zero > 0.3 > odd_zero else None
        if enc is None:
            raise InputError("this is binary data, not a text table (CSV/TSV)", file=source)
        try:
            return data.decode(enc), enc
        except UnicodeDecodeError:
            raise InputError("this is binary data, not a text table (CSV/TSV)", file=source) from None
    for enc in ("utf-8", "cp1252"):
        try:
            return data.decode(enc), enc
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1"), "latin-1"


def _split(text: str, delimiter: str, limit: int | None = None) -> list[tuple[int, list[str]]]:
    """Rows with the file line each starts on; blank lines skipped."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, skipinitialspace=False)
    rows: list[tuple[int, list[str]]] = []
    line = 1
    try:
        for row in reader:
            start = line
            line = reader.line_num + 1
            if not any(cell.strip() for cell in row):
                continue
            rows.append((start, row))
            if limit is not None and len(rows) >= limit:
                break
            if len(rows) > MAX_ROWS:
                raise InputError(f"more than {MAX_ROWS:,} rows; aggregate or sample the table first", file=None)
    except csv.Error as e:
        raise InputError(f"row {line}: {e}") from None
    return rows


def sniff_delimiter(text: str, *, prefer_tab: bool = False) -> str:
    """The delimiter that splits the first lines into the most equal field counts (>1)."""
    sample = text[:65536]
    cut = sample.rfind("\n")
    if 0 < cut < len(sample) - 1 and len(text) > len(sample):
        sample = sample[:cut]
    order = ("\t",) + tuple(d for d in _DELIMITERS if d != "\t") if prefer_tab else _DELIMITERS
    best, best_score = ",", (0, 0)
    for d in order:
        try:
            rows = [r for _, r in _split(sample, d, limit=50)]
        except InputError:
            continue
        if not rows:
            continue
        counts = [len(r) for r in rows]
        width = max(set(counts), key=counts.count)
        if width < 2:
            continue
        score = (sum(c == width for c in counts), width)
        if score > best_score:
            best, best_score = d, score
    return best


def _looks_numeric(cell: str, decimal_comma: bool) -> bool:
    return parse_number(cell, decimal_comma=decimal_comma) is not None or parse_date(cell) is not None


def has_header(rows: list[list[str]], decimal_comma: bool = False) -> bool:
    """True unless the first row looks like data (numbers where the columns below are numeric)."""
    if len(rows) < 2:
        return True
    first, body = rows[0], rows[1:51]
    numeric_cols = [
        j for j in range(len(first))
        if all(_looks_numeric(r[j], decimal_comma) for r in body if j < len(r) and r[j].strip())
        and any(j < len(r) and r[j].strip() for r in body)
    ]
    if not numeric_cols:
        return True
    return not all(_looks_numeric(first[j], decimal_comma) for j in numeric_cols)


def _check_printable(text: str, source: str) -> None:
    head = text[:4096]
    controls = sum(1 for ch in head if ord(ch) < 32 and ch not in "\t\n\r\x0c" or 0xFFF0 <= ord(ch) or
                   0xD800 <= ord(ch) <= 0xDFFF)
    if head and controls / len(head) > 0.02:
        raise InputError("this is binary data, not a text table (CSV/TSV)", file=source)


def _read_delimited(data: bytes, source: str, *, header: bool | None, tab: bool) -> Table:
    text, encoding = decode_text(data, source)
    _check_printable(text, source)
    if not text.strip():
        raise InputError("the file is empty", file=source)
    delimiter = sniff_delimiter(text, prefer_tab=tab)
    try:
        numbered = _split(text, delimiter)
    except InputError as e:
        raise InputError(e.message, file=source) from None
    if not numbered:
        raise InputError("the file is empty", file=source)
    rows = [r for _, r in numbered]
    decimal_comma = delimiter == ";"
    header_present = has_header(rows, decimal_comma) if header is None else header
    if header_present:
        head_line, head = numbered[0]
        body = numbered[1:]
    else:
        head = [f"column_{j + 1}" for j in range(len(rows[0]))]
        body = numbered
    head = list(head)
    # a trailing delimiter on every line makes an empty last column: drop it
    while head and not head[-1].strip() and all(len(r) >= len(head) and not r[len(head) - 1].strip() for _, r in body):
        head.pop()
    if not body:
        raise InputError("the file has a header but no data rows", file=source)
    width = len(head)
    cells: list[list[str]] = []
    for line, row in body:
        if len(row) > width and not any(c.strip() for c in row[width:]):
            row = row[:width]
        if len(row) != width:
            raise InputError(
                f"row {line} has {len(row)} {_DELIMITER_NAMES[delimiter]}-separated cells, "
                f"expected {width} like the header (ragged row)",
                file=source,
            )
        cells.append(row)
    table = table_from_cells(head, cells, source=source, row_numbers=[ln for ln, _ in body],
                             decimal_comma=decimal_comma)
    table.notes.append(f"{encoding}, {_DELIMITER_NAMES[delimiter]}-separated, "
                       f"{'header row' if header_present else 'no header row'}")
    return table


# ---------------------------------------------------------------------------------------
# JSON
# ---------------------------------------------------------------------------------------

_RECORD_KEYS = ("data", "values", "records", "rows", "runs", "results", "items")


def _flatten(record: dict[str, Any], source: str, index: int, prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in record.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict):
            out.update(_flatten(v, source, index, prefix=f"{key}."))
        elif isinstance(v, list):
            raise InputError(
                f"record {index}, key '{key}': a list is not a table cell; "
                "give one record per row (or one key per column)",
                file=source,
            )
        else:
            out[key] = v
    return out


def _read_json(data: bytes, source: str, *, lines: bool) -> Table:
    text, _ = decode_text(data, source)
    value: Any
    if lines:
        value = _json_lines(text, source)
    else:
        try:
            value = json.loads(text)
        except json.JSONDecodeError as e:
            if e.msg == "Extra data":  # JSON Lines without the .jsonl suffix
                value = _json_lines(text, source)
            else:
                raise InputError(f"line {e.lineno}, column {e.colno}: invalid JSON: {e.msg}", file=source) from None
    records = _json_records(value, source)
    if not records:
        raise InputError("the JSON holds no records", file=source)
    flat = []
    for i, r in enumerate(records, start=1):
        if not isinstance(r, dict):
            raise InputError(f"record {i} is a {type(r).__name__}, expected an object of column: value", file=source)
        flat.append(_flatten(r, source, i))
    names: dict[str, None] = {}
    for r in flat:
        for k in r:
            names.setdefault(k, None)
    header = list(names)
    if not header:
        raise InputError("the JSON records have no keys", file=source)
    cells = [[r.get(k) for k in header] for r in flat]
    table = table_from_cells(header, cells, source=source, first_row=1, row_label="record")
    table.notes.append(f"JSON, {len(flat)} records")
    return table


def _json_lines(text: str, source: str) -> list[Any]:
    out = []
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError as e:
            raise InputError(f"line {n}, column {e.colno}: invalid JSON: {e.msg}", file=source) from None
    return out


def _json_records(value: Any, source: str) -> list[Any]:
    if isinstance(value, list):
        if value and all(isinstance(r, list) for r in value):  # [[header...], [row...], ...]
            head, *rows = value
            for i, r in enumerate(rows, start=2):
                if len(r) != len(head):
                    raise InputError(f"row {i} has {len(r)} values, expected {len(head)} like the header row",
                                     file=source)
            return [dict(zip((str(h) for h in head), r)) for r in rows]
        return value
    if isinstance(value, dict):
        for key in _RECORD_KEYS:
            if isinstance(value.get(key), list):
                return _json_records(value[key], source)
        lists = {k: v for k, v in value.items() if isinstance(v, list)}
        if lists and len(lists) == len(value):  # columns: {"model": [...], "acc": [...]}
            lengths = {k: len(v) for k, v in lists.items()}
            if len(set(lengths.values())) > 1:
                detail = ", ".join(f"'{k}' has {n}" for k, n in lengths.items())
                raise InputError(f"columns of different lengths ({detail})", file=source)
            names = list(lists)
            return [dict(zip(names, row)) for row in zip(*lists.values())]
        if len(lists) == 1:
            return _json_records(next(iter(lists.values())), source)
        return [value]
    raise InputError(f"expected JSON records (a list of objects), found a {type(value).__name__}", file=source)


# ---------------------------------------------------------------------------------------
# XLSX
# ---------------------------------------------------------------------------------------


def _read_xlsx(data: bytes, source: str, sheet: str | int | None) -> Table:
    from openpyxl import load_workbook  # heavy: 0.4 s of start-up, only for .xlsx tables
    from openpyxl.utils import get_column_letter  # heavy: as above

    try:
        wb = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except (zipfile.BadZipFile, KeyError, OSError, ValueError) as e:
        raise InputError(f"not a readable .xlsx workbook ({e.__class__.__name__}: {e})", file=source) from None
    try:
        names = wb.sheetnames
        if sheet is None:
            ws = wb.worksheets[0]
        elif isinstance(sheet, int) or (isinstance(sheet, str) and sheet.isdigit() and sheet not in names):
            idx = int(sheet)
            if not 0 <= idx < len(names):
                raise InputError(f"no sheet number {idx}; the workbook has {len(names)} sheet(s): {', '.join(names)}",
                                 file=source)
            ws = wb.worksheets[idx]
        elif sheet in names:
            ws = wb[sheet]
        else:
            raise InputError(f"no sheet named '{sheet}'; sheets: {', '.join(names)}", file=source)
        rows: list[tuple[int, tuple[Any, ...]]] = []
        for r, row in enumerate(ws.iter_rows(values_only=True), start=1):
            if any(v is not None and str(v).strip() for v in row):
                rows.append((r, row))
            if len(rows) > MAX_ROWS:
                raise InputError(f"sheet '{ws.title}' has more than {MAX_ROWS:,} rows; aggregate it first", file=source)
        title = ws.title
    finally:
        wb.close()
    where = f"{source} [sheet '{title}']"
    if not rows:
        raise InputError("the sheet is empty", file=where)
    head_row, head = rows[0]
    head = list(head)
    while head and (head[-1] is None or not str(head[-1]).strip()):
        head.pop()
    if not head:
        raise InputError("the sheet has no header row", file=where)
    if len(rows) < 2:
        raise InputError(f"the sheet has a header (row {head_row}) but no data rows", file=where)
    width = len(head)
    cells = []
    for r, row in rows[1:]:
        extra = [j for j in range(width, len(row)) if row[j] is not None and str(row[j]).strip()]
        if extra:
            raise InputError(
                f"row {r}, column {get_column_letter(extra[0] + 1)}: a value beyond the {width} header columns "
                "(ragged row; give that column a header)",
                file=where,
            )
        cells.append(list(row[:width]) + [None] * (width - len(row)))
    table = table_from_cells(head, cells, source=where, row_numbers=[r for r, _ in rows[1:]])
    table.sheet = title
    table.notes.append(f"XLSX sheet '{title}'")
    return table

