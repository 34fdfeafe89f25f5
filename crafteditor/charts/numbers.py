"""Numbers as charts print them: tick and value labels read back into floats."""

from __future__ import annotations

import functools
import re

_NUM = re.compile(r"^[−\-–+]?\d+(?:[.,]\d+)?(?:[eE][−\-+]?\d+)?%?$")
_UNIT = re.compile(r"^([−\-–+]?\d+(?:\.\d+)?)([A-Za-zµμ]{1,3}(?:/[A-Za-z]{1,3})?)$")


_DECIMAL_COMMA = re.compile(r"^[−\-–+]?\d+,\d{1,2}%?$")


# a pure reading of a label, asked of each run's text again per layer and panel (five dev chart pages: 11,000
# calls, 0.4 of their 24 CPU-s profiled)
@functools.lru_cache(maxsize=4096)
def parse_number(text: str) -> float | None:
    t = text.strip().replace(" ", "")
    # a comma before one or two digits is no thousands separator: a decimal comma ('2,5'), or
    # OCR's reading of a point ('4,0' among '3.0 5.0' had been 40, and the axis fit lost)
    t = t.replace(",", ".") if _DECIMAL_COMMA.match(t) else t
    t = t.replace("−", "-").replace("–", "-").replace(",", "")
    if len(t) > 1 and t.endswith("-") and t[-2].isdigit():
        t = t[:-1]  # the tick mark beside a y label, read with it ('80 -')
    t = t.rstrip("%")
    if len(t) > 1 and t[-1] in "x×" and t[-2].isdigit():
        t = t[:-1]  # a factor ('12x': seaborn benchmarks relative to a baseline)
    unit = _UNIT.match(t)
    if unit is not None and unit.group(2) not in ("k", "K", "M", "B", "e", "E"):
        t = unit.group(1)  # a unit after the number ('40 MB/s', '2s', '10 ms'): the number
    for suffix, mult in (("k", 1e3), ("K", 1e3), ("M", 1e6), ("B", 1e9)):
        if t.endswith(suffix) and _NUM.match(t[:-1] or "x"):
            try:
                return float(t[:-1]) * mult
            except ValueError:
                return None
    if not _NUM.match(t):
        return None
    try:
        return float(t)
    except ValueError:
        return None
