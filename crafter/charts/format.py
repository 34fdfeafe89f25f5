"""Tick-label and value formatting (and parsing them back, for the fidelity check).

* Linear ticks: matplotlib's ``ScalarFormatter`` picks one number of decimals for the whole
  axis (0.00 0.25 0.50…) with its offset and scientific switch turned off; above 10⁴ the
  labels switch to SI-style suffixes (20k, 1.5M, 7B), below 10⁻³ to compact exponents.
* Log ticks: plain numbers inside 10⁻³…10⁴, else powers of ten with Unicode superscripts
  (10⁻⁵), which stay ``<text>`` and need no math renderer.
* Vega-Lite ``format`` strings are d3-format; Python's format mini-language is d3's
  ancestor, so we translate (adding d3's ``~``, ``s``, ``r`` and ``p``).
* Every label is written with a true minus sign (U+2212), as typesetting wants.

:func:`parse_label` reads any label this module writes back into a number.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import Sequence

MINUS = "\u2212"
_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
_FROM_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")
SI_SUFFIXES = ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "k"))
_PARSE_SI = {"T": 1e12, "B": 1e9, "G": 1e9, "M": 1e6, "k": 1e3, "K": 1e3, "m": 1e-3, "µ": 1e-6, "μ": 1e-6,
             "u": 1e-6, "n": 1e-9}


def _minus(s: str) -> str:
    return s.replace("-", MINUS) if s.startswith("-") or "e-" in s else s


def _trim(s: str) -> str:
    """Drop trailing zeros after a decimal point (d3's ``~``)."""
    if "." not in s:
        return s
    m = re.match(r"^(.*?\.\d*?)(0+)([^\d]*)$", s)
    if m:
        s = m.group(1) + m.group(3)
    return s.replace(".e", "e").rstrip(".") if not s.endswith(".") else s[:-1]


def _decimals_for(values: Sequence[float], limit: int = 10) -> int:
    """The fewest decimals that write every value exactly (to 1e-9 of the largest)."""
    scale = max((abs(v) for v in values), default=1.0) or 1.0
    for d in range(limit + 1):
        if all(abs(round(v, d) - v) <= 1e-9 * scale for v in values):
            return d
    return limit


@lru_cache(maxsize=1)
def _scalar_formatter():
    from matplotlib.ticker import ScalarFormatter  # heavy: 0.4 s to import; only tick labels need it

    f = ScalarFormatter(useOffset=False, useMathText=False)
    f.set_powerlimits((-99, 99))  # scientific notation is ours to decide (SI suffixes instead)
    f.create_dummy_axis()
    return f


def linear_tick_labels(values: Sequence[float]) -> list[str]:
    """Labels for evenly spaced ticks, one style for the axis."""
    if not values:
        return []
    big = max(abs(v) for v in values)
    step = min((abs(b - a) for a, b in zip(values, values[1:]) if b != a), default=big or 1.0)
    if big >= 1e4 and step >= 100:
        for factor, suffix in SI_SUFFIXES:
            if big >= factor:
                scaled = [v / factor for v in values]
                d = _decimals_for(scaled, 3)
                return [_minus(f"{s:.{d}f}{suffix}") if s != 0 else "0" for s in scaled]
    if 0 < big < 1e-3 or (big >= 1e7 and step < 100):
        return [_exp_label(v) for v in values]
    f = _scalar_formatter()
    f.axis.set_view_interval(min(values), max(values))
    f.axis.set_data_interval(min(values), max(values))
    labels = f.format_ticks(list(values))
    return [lab.replace("\u2212", MINUS) for lab in labels]


def _exp_label(v: float) -> str:
    """Compact exponent form: 1.5e−4."""
    if v == 0:
        return "0"
    mant, _, exp = f"{v:.3e}".partition("e")
    return _minus(f"{_trim(mant)}e{int(exp)}")


def power_label(v: float, base: float = 10.0) -> str:
    """``10⁻³`` for a power of the base, else a mantissa: ``2×10⁻³``."""
    if v == 0:
        return "0"
    sign = MINUS if v < 0 else ""
    v = abs(v)
    e = math.floor(math.log(v, base) + 1e-9)
    mant = v / base ** e
    b = "10" if base == 10 else _trim(f"{base:g}")
    if abs(mant - 1) < 1e-9:
        return f"{sign}{b}{str(e).translate(_SUPERSCRIPT)}"
    return f"{sign}{_trim(f'{mant:.2f}')}×{b}{str(e).translate(_SUPERSCRIPT)}"


def log_tick_labels(values: Sequence[float], base: float = 10.0) -> list[str]:
    if not values:
        return []
    lo, hi = min(values), max(values)
    if base != 10 and all(float(v).is_integer() for v in values) and hi < 1e5:
        return [f"{int(v)}" for v in values]
    if base == 10 and lo >= 1e-3 and hi < 1e5:
        out = []
        for v in values:
            d = _decimals_for([v], 4)
            out.append(f"{v:,.{d}f}" if v >= 1e4 else f"{v:.{d}f}")
        return out
    return [power_label(v, base) for v in values]


def symlog_tick_labels(values: Sequence[float]) -> list[str]:
    out = []
    for v in values:
        a = abs(v)
        if a >= 1e4:
            out.append(power_label(v))
        else:
            out.append(_minus(f"{v:.{_decimals_for([v], 4)}f}"))
    return out


def format_number(v: float) -> str:
    """A single value, compactly (4 significant digits): text marks, legends."""
    if isinstance(v, int) or (isinstance(v, float) and v.is_integer() and abs(v) < 1e15):
        return _minus(f"{int(v)}")
    return _minus(_trim(f"{v:.4g}") if "e" not in f"{v:.4g}" else f"{v:.3g}")


# ---------------------------------------------------------------------------------------
# d3-format (Vega-Lite "format" strings)
# ---------------------------------------------------------------------------------------

_D3 = re.compile(
    r"^(?:(?P<fill>.)?(?P<align>[<>=^]))?(?P<sign>[-+( ])?(?P<symbol>[$#])?(?P<zero>0)?(?P<width>\d+)?"
    r"(?P<comma>,)?(?:\.(?P<precision>\d+))?(?P<trim>~)?(?P<type>[efgrsdpb%oxXc])?$"
)


def d3_format(spec: str, value: float) -> str:
    """Format a number with a d3-format specifier (``.1f``, ``.0%``, ``,.2r``, ``~s``, ``.2e``)."""
    m = _D3.match(spec)
    if not m:
        raise ValueError(f"'{spec}' is not a d3 number format (e.g. '.2f', '.0%', '~s', ',d')")
    g = m.groupdict()
    t = g["type"] or ""
    prec = int(g["precision"]) if g["precision"] is not None else None
    comma = "," if g["comma"] else ""
    sign = g["sign"] if g["sign"] in ("+", " ") else ""
    suffix = ""
    v = value
    if t == "s":  # SI prefix, precision = significant digits
        p = prec if prec is not None else 6
        if v == 0:
            body = "0"
        else:
            e3 = max(-8, min(8, int(math.floor(math.log10(abs(v)) / 3))))
            e3 = e3 if abs(v) >= 1 or e3 < 0 else 0
            prefixes = {-8: "y", -7: "z", -6: "a", -5: "f", -4: "p", -3: "n", -2: "µ", -1: "m", 0: "",
                        1: "k", 2: "M", 3: "G", 4: "T", 5: "P", 6: "E", 7: "Z", 8: "Y"}
            scaled = v / 10 ** (3 * e3)
            digits = max(0, p - 1 - int(math.floor(math.log10(abs(scaled)))) if scaled else 0)
            body = f"{scaled:{sign}.{digits}f}"
            suffix = prefixes[e3]
        if g["trim"] or prec is None:
            body = _trim(body)
        return _minus(body + suffix)
    if t == "r":
        p = prec if prec is not None else 6
        digits = max(0, p - 1 - int(math.floor(math.log10(abs(v)))) if v else 0)
        body = f"{v:{sign}{comma}.{digits}f}"
    elif t == "p":
        p = prec if prec is not None else 6
        v100 = v * 100
        digits = max(0, p - 1 - int(math.floor(math.log10(abs(v100)))) if v100 else 0)
        body = f"{v100:{sign}{comma}.{digits}f}"
        suffix = "%"
    elif t == "%":
        body = f"{v * 100:{sign}{comma}.{prec if prec is not None else 6}f}"
        suffix = "%"
    elif t == "d":
        body = f"{int(round(v)):{sign}{comma}d}"
    elif t in ("e", "f", "g"):
        body = f"{v:{sign}{comma}.{prec if prec is not None else 6}{t}}"
    elif t in ("b", "o", "x", "X"):
        body = format(int(round(v)), t)
    elif t == "c":
        body = chr(int(v))
    else:  # no type: like ~g with 12 significant digits
        body = f"{v:{sign}{comma}.{prec if prec is not None else 12}g}"
        body = _trim(body) if "e" not in body else body
    if g["trim"] and t in ("e", "f", "g", "r", "p", "%"):
        mant, _, exp = body.partition("e")
        body = _trim(mant) + (f"e{exp}" if exp else "")
    if g["symbol"] == "$":
        body = ("-$" + body[1:]) if body.startswith("-") else "$" + body
    out = body + suffix
    if g["width"]:
        w = int(g["width"])
        fill = "0" if g["zero"] else (g["fill"] or " ")
        align = g["align"] or (">" if not g["zero"] else "=")
        out = format(out, f"{fill}{align if align != '=' else '>'}{w}")
    return _minus(out)


# ---------------------------------------------------------------------------------------
# Parsing labels back
# ---------------------------------------------------------------------------------------

_POWER = re.compile(r"^([+\-]?)(?:(\d+(?:\.\d+)?)×)?(\d+)([⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)$")
_PLAIN = re.compile(r"^([+\-]?)\$?([\d,]*\.?\d+(?:[eE][+\-]?\d+)?)([A-Za-zµμ%]?)$")


def parse_label(text: str) -> float | None:
    """The number a tick label shows (any style :mod:`format` writes), or None."""
    s = text.strip().replace(MINUS, "-").replace("\u2009", "").replace(" ", "")
    if not s:
        return None
    m = _POWER.match(s)
    if m:
        sign, mant, base, exp = m.groups()
        val = (float(mant) if mant else 1.0) * float(base) ** int(exp.translate(_FROM_SUPERSCRIPT))
        return -val if sign == "-" else val
    m = _PLAIN.match(s)
    if not m:
        return None
    sign, body, suffix = m.groups()
    try:
        val = float(body.replace(",", ""))
    except ValueError:
        return None
    if suffix == "%":
        val /= 100
    elif suffix:
        if suffix not in _PARSE_SI:
            return None
        val *= _PARSE_SI[suffix]
    return -val if sign == "-" else val
