"""Cell parsing and column type inference: raw cells (text or JSON/XLSX values) → typed columns.

Types follow Vega-Lite: a column whose cells are all numbers is ``quantitative``; ISO
dates are ``temporal``; text from a known ordered vocabulary (small/base/large, low/high)
or sizes with a unit (125M, 1.3B, 7B) is ``ordinal``; other text is ``nominal``.
A column that is numeric except for a few text cells is an error that names the first
such cell: that is almost always a typo ("n/a?", "0.8l") that would otherwise silently
turn a metric into categories.
"""

from __future__ import annotations

import datetime as _dt
import math
import re
from typing import Any, Sequence

from crafter.data.table import Column, Table
from crafter.errors import InputError

MISSING_TOKENS = frozenset({"", "na", "n/a", "nan", "null", "none", "-", "--", "—", "–", "?", "#n/a"})

_NUMBER = re.compile(r"^[+\-\u2212]?(?:\d+\.?\d*|\.\d+)(?:[eE][+\-]?\d+)?$")
_THOUSANDS = re.compile(r"^[+\-\u2212]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$")
_DECIMAL_COMMA = re.compile(r"^[+\-\u2212]?\d+,\d+$")
_DATE = re.compile(
    r"^(\d{4})[-/](\d{1,2})(?:[-/](\d{1,2})"
    r"(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+\-]\d{2}:?\d{2})?)?)?$"
)
_SIZE = re.compile(r"^(\d+(?:\.\d+)?)\s*([kKmMbBtTxX])$")
_SIZE_MULT = {"k": 1e3, "m": 1e6, "b": 1e9, "t": 1e12, "x": 1.0}

# Ordered vocabularies: a text column drawn entirely from one of these is ordinal.
ORDERED_VOCABULARIES: tuple[tuple[str, ...], ...] = (
    ("xxs", "xs", "s", "m", "l", "xl", "xxl"),
    ("tiny", "mini", "small", "base", "medium", "large", "xl", "xxl", "huge", "giant"),
    ("very low", "low", "medium", "high", "very high"),
    ("none", "low", "medium", "high"),
    ("easy", "medium", "hard"),
    ("short", "medium", "long"),
    ("never", "rarely", "sometimes", "often", "always"),
    ("strongly disagree", "disagree", "neutral", "agree", "strongly agree"),
)

# A column of numbers with one stray text cell, or up to 20% of them, is a numeric column
# with typos (an error), not a text column.
NUMERIC_SHARE = 0.8


def _is_missing(v: Any) -> bool:
    if v is None:
        return True
    if isinstance(v, float) and math.isnan(v):
        return True
    return isinstance(v, str) and v.strip().lower() in MISSING_TOKENS


def parse_number(text: str, *, decimal_comma: bool = False) -> int | float | None:
    """A number written as text (``1.5``, ``-2e-3``, ``1,234``, ``81.2%``, ``−3``) or None."""
    s = text.strip().replace("\u2212", "-").replace("\u00a0", "").replace(" ", "")
    if s.endswith("%"):
        s = s[:-1]
    if decimal_comma and _DECIMAL_COMMA.match(s):
        s = s.replace(",", ".")
    elif _THOUSANDS.match(s):
        s = s.replace(",", "")
    if not _NUMBER.match(s):
        return None
    if re.match(r"^[+\-]?\d+$", s):
        return int(s)
    value = float(s)
    return value if math.isfinite(value) else None


def parse_date(text: str) -> str | None:
    """An ISO-8601-like date/datetime as a normalised ISO string, or None."""
    m = _DATE.match(text.strip())
    if not m:
        return None
    y, mo, d, hh, mm, ss, tz = m.groups()
    try:
        _dt.date(int(y), int(mo), int(d or 1))
    except ValueError:
        return None
    out = f"{int(y):04d}-{int(mo):02d}" + (f"-{int(d):02d}" if d else "-01")
    if hh is not None:
        if not (0 <= int(hh) < 24):
            return None
        out += f"T{int(hh):02d}:{mm}:{ss or '00'}"
        if tz:
            out += "Z" if tz == "Z" else tz
    return out


def size_value(text: str) -> float | None:
    """The magnitude of a size with a unit: ``7B`` → 7e9, ``125M`` → 1.25e8, ``8x`` → 8."""
    m = _SIZE.match(text.strip())
    if not m:
        return None
    return float(m.group(1)) * _SIZE_MULT[m.group(2).lower()]


def _ordinal_order(values: list[str]) -> list[str] | None:
    distinct = list(dict.fromkeys(values))
    if len(distinct) < 2:
        return None
    lowered = [v.strip().lower() for v in distinct]
    for vocab in ORDERED_VOCABULARIES:
        if all(v in vocab for v in lowered):
            return sorted(distinct, key=lambda v: vocab.index(v.strip().lower()))
    sizes = [size_value(v) for v in distinct]
    if all(s is not None for s in sizes):
        units = {v.strip()[-1].lower() for v in distinct}
        # "8x" and "7B" together are not one scale; numbers alone are not "sizes"
        if len(units) == 1 or "x" not in units:
            return [v for _, v in sorted(zip(sizes, distinct), key=lambda t: t[0])]
    return None


def infer_column(
    name: str,
    cells: Sequence[Any],
    *,
    source: str | None,
    row_numbers: Sequence[int],
    row_label: str = "row",
    decimal_comma: bool = False,
) -> Column:
    """Type one column and convert its cells (raises :class:`InputError` naming the bad cell)."""
    values: list[Any] = [None] * len(cells)
    numbers: dict[int, int | float] = {}
    dates: dict[int, str] = {}
    texts: dict[int, str] = {}
    for i, v in enumerate(cells):
        if _is_missing(v):
            continue
        if isinstance(v, bool):
            texts[i] = "true" if v else "false"
        elif isinstance(v, (int, float)):
            if isinstance(v, float) and not math.isfinite(v):
                texts[i] = str(v)
            else:
                numbers[i] = v
        elif isinstance(v, (_dt.datetime, _dt.date)):
            dates[i] = v.isoformat() if isinstance(v, _dt.datetime) else v.isoformat()
        else:
            s = str(v).strip()
            n = parse_number(s, decimal_comma=decimal_comma)
            if n is not None:
                numbers[i] = n
                continue
            d = parse_date(s)
            if d is not None:
                dates[i] = d
            else:
                texts[i] = s
    present = len(numbers) + len(dates) + len(texts)
    if present == 0:
        return Column(name, "nominal", values)
    if numbers and not dates and not texts:
        for i, n in numbers.items():
            values[i] = n
        return Column(name, "quantitative", values)
    others = len(texts) + len(dates)
    if len(numbers) >= 2 and (others == 1 or others <= (1 - NUMERIC_SHARE) * present):
        i = min(list(texts) + list(dates))
        bad = texts.get(i) if i in texts else cells[i]
        where = f"{row_label} {row_numbers[i]}, column '{name}'"
        raise InputError(
            f"{where}: '{bad}' is text in a numeric column "
            f"({len(numbers)} of {present} cells are numbers); fix the cell or leave it empty",
            file=source,
        )
    if dates and not numbers and not texts:
        for i, d in dates.items():
            values[i] = d
        return Column(name, "temporal", values)
    # text: every present cell as written
    for i in range(len(cells)):
        if i in texts:
            values[i] = texts[i]
        elif i in numbers:
            values[i] = str(cells[i]).strip() if isinstance(cells[i], str) else _num_text(numbers[i])
        elif i in dates:
            values[i] = str(cells[i]).strip() if isinstance(cells[i], str) else dates[i]
    present_text = [v for v in values if v is not None]
    order = _ordinal_order(present_text)
    if order is not None:
        return Column(name, "ordinal", values, order=order)
    return Column(name, "nominal", values)


def _num_text(n: int | float) -> str:
    return str(int(n)) if isinstance(n, float) and n.is_integer() else str(n)


def check_header(header: Sequence[Any], *, source: str | None) -> list[str]:
    """Column names: strings, blanks named ``column_N``, duplicates rejected."""
    names: list[str] = []
    for j, h in enumerate(header):
        name = "" if h is None else str(h).strip()
        names.append(name or f"column_{j + 1}")
    seen: dict[str, int] = {}
    for j, name in enumerate(names):
        if name in seen:
            raise InputError(
                f"duplicate column name '{name}' (columns {seen[name] + 1} and {j + 1}); rename one",
                file=source,
            )
        seen[name] = j
    return names


def table_from_cells(
    header: Sequence[Any],
    cells: Sequence[Sequence[Any]],
    *,
    source: str | None = None,
    first_row: int = 2,
    row_numbers: Sequence[int] | None = None,
    row_label: str = "row",
    decimal_comma: bool = False,
) -> Table:
    """Type a rectangular block of cells under a header into a :class:`Table`."""
    names = check_header(header, source=source)
    if row_numbers is None:
        row_numbers = list(range(first_row, first_row + len(cells)))
    columns = []
    for j, name in enumerate(names):
        col_cells = [row[j] if j < len(row) else None for row in cells]
        columns.append(infer_column(name, col_cells, source=source, row_numbers=row_numbers,
                                    row_label=row_label, decimal_comma=decimal_comma))
    return Table(columns, source=source)


def table_from_records(records: list[dict[str, Any]], *, source: str | None = None) -> Table:
    """A typed table from ``[{column: value}]`` (keys united in first-seen order)."""
    names: dict[str, None] = {}
    for r in records:
        for k in r:
            names.setdefault(str(k), None)
    header = list(names)
    cells = [[r.get(k) for k in header] for r in records]
    return table_from_cells(header, cells, source=source, first_row=1, row_label="record")
