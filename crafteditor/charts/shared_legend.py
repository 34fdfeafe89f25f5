"""One legend for several plots: facets (ggplot2's ``facet_wrap``, seaborn's ``FacetGrid``, plotnine) and subplots
under one figure legend draw the legend once, beside the last panel. The panels read without it name their series
'series 1', 'series 2'; each takes the names of the panel whose legend shows the same colours.
"""

from __future__ import annotations

import re
from typing import Any

from crafteditor.charts.component import ChartResult

_UNNAMED = re.compile(r"series \d+")
_CLOSE = 60  # the most two colours of one series differ, summed over R, G and B (anti-aliasing, JPEG)


def _colours(spec: dict[str, Any]) -> dict[str, tuple[int, int, int]] | None:
    """The spec's series names -> their colours (its colour scale's domain and range), None without one."""
    scale = (((spec.get("encoding") or {}).get("color") or {}).get("scale") or {})
    domain, rng = scale.get("domain"), scale.get("range")
    if not isinstance(domain, list) or not isinstance(rng, list) or len(domain) != len(rng) or len(domain) < 2:
        return None
    out = {}
    for name, hx in zip(domain, rng):
        if not (isinstance(hx, str) and re.fullmatch(r"#[0-9a-fA-F]{6}", hx)):
            return None
        out[str(name)] = (int(hx[1:3], 16), int(hx[3:5], 16), int(hx[5:7], 16))
    return out


def _rename(spec: dict[str, Any], names: dict[str, str]) -> None:
    """Series renamed in ``spec`` (in place): its rows, its colour domain, its offsets' order, its shapes'."""
    for row in (spec.get("data") or {}).get("values") or []:
        if row.get("series") in names:
            row["series"] = names[row["series"]]
    enc = spec.get("encoding") or {}
    scale = enc["color"]["scale"]
    scale["domain"] = [names.get(n, n) for n in scale["domain"]]
    if isinstance((enc.get("xOffset") or {}).get("sort"), list):
        enc["xOffset"]["sort"] = [names.get(n, n) for n in enc["xOffset"]["sort"]]
    shape_scale = (enc.get("shape") or {}).get("scale") or {}
    if isinstance(shape_scale.get("domain"), list):
        shape_scale["domain"] = [names.get(n, n) for n in shape_scale["domain"]]


def name_from_shared_legend(results: list[ChartResult]) -> None:
    """Plots whose series are all unnamed take the names of another plot's legend of the same colours, each colour
    one name (in place). A legend's unnamed entries (a confidence band's pale fill read as one more series beside
    seaborn's named lines) name nothing; a plot's colours that match no legend name keep theirs, where every
    name of that legend is matched."""
    legends = [{n: rgb for n, rgb in c.items() if not _UNNAMED.fullmatch(n)} for r in results
               if (c := _colours(r.spec)) and not all(_UNNAMED.fullmatch(n) for n in c)]
    for r in results:
        own = _colours(r.spec)
        if own is None or not all(_UNNAMED.fullmatch(n) for n in own):
            continue
        for legend in legends:
            names = _names_from(own, legend)
            if names is not None:
                _rename(r.spec, names)
                break


def _names_from(own: dict[str, tuple[int, int, int]], legend: dict[str, tuple[int, int, int]]) -> dict[str, str] | None:
    """``own``'s series names -> the names of ``legend`` whose colours theirs are: each colour near at most one
    of the legend's, no legend name taken twice, something named, and a colour near none left only where every
    name of the legend (two or more) is taken; None otherwise."""
    names: dict[str, str] = {}
    for n, rgb in own.items():
        close = [m for m, c in legend.items() if sum(abs(a - b) for a, b in zip(rgb, c)) <= _CLOSE]
        if len(close) > 1 or (close and close[0] in names.values()):
            return None
        if close:
            names[n] = close[0]
    unmatched = len(own) - len(names)
    return names if names and (not unmatched or len(names) == len(legend) >= 2) else None
