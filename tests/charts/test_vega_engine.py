"""The exported Vega-Lite opens in Vega itself (vl-convert bundles the engine the Vega editor runs)
and draws every layer: a semantic check beyond the JSON Schema."""

from __future__ import annotations

import re

import pytest
from charts_testlib import NAMES

from crafter.charts.compile.chart import plan_for
from crafter.formats import to_vegalite

vlc = pytest.importorskip("vl_convert")

# Vega mark types each of our marks becomes
VEGA_MARKS = {"bar": "rect", "rect": "rect", "line": "line", "point": "symbol", "circle": "symbol",
              "square": "symbol", "area": "area", "errorband": "area", "errorbar": "rule", "rule": "rule",
              "text": "text", "tick": "rect", "boxplot": "rect"}


def _drawn(svg: str, vega_mark: str) -> int:
    """How many elements Vega drew in groups of class mark-<type> role-mark."""
    n = 0
    for m in re.finditer(rf'<g class="mark-{vega_mark} role-mark[^"]*"[^>]*>(.*?)</g>', svg, re.S):
        n += len(re.findall(r"<(path|line|text|rect|circle)\b", m.group(1)))
    return n


@pytest.mark.parametrize("name", NAMES)
def test_vega_draws_every_layer(cases, name):
    chart = cases[name]
    svg = vlc.vegalite_to_svg(to_vegalite(chart))
    for layer in plan_for(chart).layers:
        kind = VEGA_MARKS[layer.mark]
        assert _drawn(svg, kind) > 0, f"Vega drew no {kind} marks for the {layer.mark} layer"
