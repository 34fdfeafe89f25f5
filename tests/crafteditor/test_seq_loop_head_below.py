"""A self-message Mermaid draws at scale 1 beside a 3 px lifeline: a curve out to the right and back, its arrowhead
at its foot making the blob taller below than above, so the bulge covers the middle third of its height but a row
(rows 6-18 of 29; the middle third 9-19). It is a loop; round 22 had wanted the bulge over every row of that third
and read none of the 12 self-messages of a large drawn figure (a real kubernetes/enhancements Mermaid block drawn
by Mermaid 11 at scale 1, seq23's set lg_002: edges 10 of 22 read). The ink is that figure's, right of the lifeline."""

from __future__ import annotations

import numpy as np

from crafteditor.assemble.seq_loops import _loop

CURVE = (
    ".........###############........................",
    ".#############################..................",
    "###############...################..............",
    "####........................########............",
    "................................######..........",
    "...................................#####........",
    ".....................................#####......",
    ".......................................###......",
    "........................................###.....",
    ".........................................###....",
    "..........................................##....",
    "..........................................##....",
    "..........................................###...",
    "..........................................###...",
    "..........................................##....",
    "..........................................##....",
    ".........................................###....",
    "........................................###.....",
    ".......................................###......",
    "....###..............................####.......",
    ".######............................#####........",
    "#######.........................######..........",
    "#######.....................########............",
    "###############...###############...............",
    "##############################..................",
    "######...###############........................",
    ".#####..........................................",
    "..####..........................................",
    "...###..........................................",
)


def _blob(rows: tuple[str, ...]) -> np.ndarray:
    return np.array([[c == "#" for c in r] for r in rows], bool)


def test_a_scale_1_mermaid_curve_with_its_head_below_is_a_loop():
    blob = _blob(CURVE)
    ys, xs = np.nonzero(blob)
    assert _loop(blob[ys.min():ys.max() + 1, xs.min():xs.max() + 1])


def test_a_curve_whose_bulge_misses_half_its_middle_is_none():
    blob = _blob(CURVE)
    blob[8:20, 36:] = False  # the bulge cut away over most of the middle third: no curve out and back
    ys, xs = np.nonzero(blob)
    assert not _loop(blob[ys.min():ys.max() + 1, xs.min():xs.max() + 1])
