"""The :class:`Table`: a typed, column-oriented table read from a user's file.

A table is a list of :class:`Column` objects, each with a name, a Vega-Lite measurement
type (``quantitative``, ``nominal``, ``ordinal``, ``temporal``) and its values, already
converted: numbers are ``int``/``float``, text is ``str``, dates are ISO-8601 strings
(what Vega-Lite reads), missing cells are ``None``. ``Table.to_records()`` gives the
``[{column: value}, ...]`` list a chart spec inlines as ``data.values``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator, Literal

MeasureType = Literal["quantitative", "nominal", "ordinal", "temporal"]
MEASURE_TYPES: tuple[str, ...] = MeasureType.__args__  # type: ignore[attr-defined]


@dataclass
class Column:
    name: str
    type: MeasureType
    values: list[Any]
    # for ordinal columns: the categories in their natural order (small < base < large)
    order: list[Any] | None = None

    @property
    def present(self) -> list[Any]:
        """The non-missing values."""
        return [v for v in self.values if v is not None]

    @property
    def cardinality(self) -> int:
        return len(set(self.present))

    def distinct(self) -> list[Any]:
        """Distinct values in order of first appearance (or the ordinal order)."""
        if self.order is not None:
            return list(self.order)
        seen: dict[Any, None] = {}
        for v in self.present:
            seen.setdefault(v, None)
        return list(seen)


@dataclass
class Table:
    columns: list[Column]
    source: str | None = None  # the file name, for messages
    sheet: str | None = None  # for spreadsheets: the sheet read
    notes: list[str] = field(default_factory=list)  # what the reader decided (delimiter, encoding...)

    def __post_init__(self) -> None:
        lengths = {len(c.values) for c in self.columns}
        assert len(lengths) <= 1, f"columns of unequal length: {lengths}"

    # -- shape -----------------------------------------------------------------------
    @property
    def names(self) -> list[str]:
        return [c.name for c in self.columns]

    @property
    def types(self) -> dict[str, MeasureType]:
        return {c.name: c.type for c in self.columns}

    @property
    def n_rows(self) -> int:
        return len(self.columns[0].values) if self.columns else 0

    def __len__(self) -> int:
        return self.n_rows

    def column(self, name: str) -> Column:
        for c in self.columns:
            if c.name == name:
                return c
        raise KeyError(name)

    def __contains__(self, name: object) -> bool:
        return any(c.name == name for c in self.columns)

    @property
    def rows(self) -> list[tuple[Any, ...]]:
        return list(zip(*(c.values for c in self.columns)))

    def iter_records(self) -> Iterator[dict[str, Any]]:
        names = self.names
        for row in zip(*(c.values for c in self.columns)):
            yield dict(zip(names, row))

    def to_records(self) -> list[dict[str, Any]]:
        """``[{column: value}, ...]`` in row order: Vega-Lite's inline ``data.values``."""
        return list(self.iter_records())

    def describe(self, max_examples: int = 3) -> str:
        """A one-line-per-column summary (name, type, cardinality, examples), e.g. for a prompt."""
        lines = [f"{self.n_rows} rows"]
        for c in self.columns:
            ex = ", ".join(str(v) for v in c.distinct()[:max_examples])
            if c.type == "quantitative" and c.present:
                ex = f"{min(c.present)} .. {max(c.present)}"
            lines.append(f"{c.name}: {c.type}, {c.cardinality} distinct ({ex})")
        return "\n".join(lines)
