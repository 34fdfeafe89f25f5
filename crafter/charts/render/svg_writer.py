"""The SVG the chart painter writes: elements and attributes, readable unique ids, and the
compact JSON a mark carries as its datum."""

from __future__ import annotations

import json
import re
from typing import Any, Sequence
from xml.sax.saxutils import escape, quoteattr

from crafter.base.markup import num
from crafter.charts.compile.encoding import value_label


class SvgWriter:
    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, s: str) -> None:
        self.parts.append(s)

    def open(self, id_: str, **attrs: Any) -> None:
        self.parts.append(f"<g id={quoteattr(id_)}{_attrs(attrs)}>")

    def close(self) -> None:
        self.parts.append("</g>")

    def text(self, x: float, y: float, s: str, *, size: float | None = None, anchor: str | None = None,
             rotate: float = 0.0, id_: str | None = None, **attrs: Any) -> None:
        a = f' id={quoteattr(id_)}' if id_ else ""
        a += f' x="{num(x)}" y="{num(y)}"'
        if size is not None:
            a += f' font-size="{num(size)}"'
        if anchor and anchor != "start":
            a += f' text-anchor="{anchor}"'
        if rotate:
            a += f' transform="rotate({num(rotate)} {num(x)} {num(y)})"'
        self.parts.append(f"<text{a}{_attrs(attrs)}>{escape(s)}</text>")

    def result(self) -> str:
        return "".join(self.parts)


def _attrs(attrs: dict[str, Any]) -> str:
    out = []
    for k, v in attrs.items():
        if v is None or v is False:
            continue
        name = k.rstrip("_").replace("_", "-")
        out.append(f" {name}={quoteattr(str(v))}")
    return "".join(out)


def dash_array(d: Sequence[float] | None) -> str | None:
    return ",".join(num(x) for x in d) if d else None


def slug(value: Any) -> str:
    s = re.sub(r"[^A-Za-z0-9]+", "-", value_label(value)).strip("-").lower()
    return s[:32] or "x"


class ElementIds:
    """Unique, readable element ids under the chart id."""

    def __init__(self, chart_id: str) -> None:
        self.chart_id = chart_id
        self.used: set[str] = set()

    def make(self, *parts: Any) -> str:
        base = "-".join([self.chart_id] + [str(p) for p in parts if p not in (None, "")])
        out, n = base, 2
        while out in self.used:
            out = f"{base}-{n}"
            n += 1
        self.used.add(out)
        return out


def datum_json(datum: Any) -> str:
    """A datum as compact JSON for ``data-crafter-datum`` (floats at full precision)."""
    return json.dumps(datum, ensure_ascii=False, separators=(",", ":"), default=str, allow_nan=False)
