"""Aggregates a chart computes from raw rows: Vega-Lite's ``aggregate`` ops, error-bar extents
and box-plot statistics.

Differences from Vega, on purpose: ``ci`` is the Student-t 95% interval of the mean
(Vega bootstraps, which is random); quartiles use linear interpolation (numpy's default,
Vega's too).
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from crafter.spec.chart_shorthand import AGGREGATES

ERROR_EXTENTS = ("stdev", "stderr", "ci", "iqr")


def aggregate(op: str, values: Sequence[float]) -> float | None:
    """One Vega-Lite aggregate op over the non-missing values (None when undefined)."""
    vals = np.asarray([v for v in values if v is not None], dtype=float)
    if op == "count":
        return float(len(values))
    if op == "distinct":
        return float(len(set(v for v in values if v is not None)))
    if len(vals) == 0:
        return None
    if op == "sum":
        return float(vals.sum())
    if op in ("mean", "average"):
        return float(vals.mean())
    if op == "median":
        return float(np.median(vals))
    if op == "min":
        return float(vals.min())
    if op == "max":
        return float(vals.max())
    if op == "q1":
        return float(np.percentile(vals, 25))
    if op == "q3":
        return float(np.percentile(vals, 75))
    if op in ("stdev", "variance", "stderr"):
        if len(vals) < 2:
            return None
        var = float(vals.var(ddof=1))
        if op == "variance":
            return var
        sd = math.sqrt(var)
        return sd if op == "stdev" else sd / math.sqrt(len(vals))
    raise ValueError(f"unknown aggregate '{op}'; expected one of {', '.join(AGGREGATES)}")


def error_extent(values: Sequence[float], extent: str) -> tuple[float, float, float]:
    """(center, lower, upper) for an error bar: mean ± stdev/stderr/95% t-CI, or median with IQR."""
    vals = np.asarray([v for v in values if v is not None], dtype=float)
    if len(vals) == 0:
        raise ValueError("no values")
    if extent == "iqr":
        q1, med, q3 = np.percentile(vals, [25, 50, 75])
        return float(med), float(q1), float(q3)
    mean = float(vals.mean())
    if len(vals) < 2:
        return mean, mean, mean
    sd = float(vals.std(ddof=1))
    if extent == "stdev":
        half = sd
    elif extent == "stderr":
        half = sd / math.sqrt(len(vals))
    elif extent == "ci":
        from scipy.stats import t  # heavy: 2-3 s to import; only the 'ci' extent needs it

        half = float(t.ppf(0.975, len(vals) - 1)) * sd / math.sqrt(len(vals))
    else:
        raise ValueError(f"unknown error extent '{extent}'; expected one of {', '.join(ERROR_EXTENTS)}")
    return mean, mean - half, mean + half


def box_stats(values: Sequence[float], extent: float | str = 1.5) -> dict[str, float | list[float]]:
    """Box-plot numbers: quartiles, whiskers (Tukey ``extent``×IQR, or "min-max") and outliers."""
    vals = np.sort(np.asarray([v for v in values if v is not None], dtype=float))
    q1, med, q3 = (float(x) for x in np.percentile(vals, [25, 50, 75]))
    if extent == "min-max":
        lo, hi = float(vals[0]), float(vals[-1])
    else:
        k = float(extent)
        iqr = q3 - q1
        inside = vals[(vals >= q1 - k * iqr) & (vals <= q3 + k * iqr)]
        lo, hi = float(inside.min()), float(inside.max())
    outliers = [float(v) for v in vals if v < lo or v > hi]
    return {"lower": lo, "q1": q1, "median": med, "q3": q3, "upper": hi, "outliers": outliers}
