"""Long forward edges (skip connections) run in nested lanes beside a straight main chain."""

from __future__ import annotations

from pathlib import Path

import pytest

from crafter.formats import load_figure
from crafter.layout.figure import layout_figure

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "encoder_decoder.dsl"


def _segments(pts):  # type: ignore[no-untyped-def]
    return [((p.x, p.y), (q.x, q.y)) for p, q in zip(pts, pts[1:])]


def _cross(a, b) -> bool:  # type: ignore[no-untyped-def]
    """Whether a horizontal and a vertical segment cross strictly inside both."""
    (h, v) = (a, b) if abs(a[0][1] - a[1][1]) < 1e-6 else (b, a)
    if abs(h[0][1] - h[1][1]) > 1e-6 or abs(v[0][0] - v[1][0]) > 1e-6:
        return False
    x, y = v[0][0], h[0][1]
    return (min(h[0][0], h[1][0]) + 1 < x < max(h[0][0], h[1][0]) - 1
            and min(v[0][1], v[1][1]) + 1 < y < max(v[0][1], v[1][1]) - 1)


def test_unet_chain_straight_and_skips_in_nested_lanes() -> None:
    from crafter.layout.elk import elk_available

    if not elk_available():
        pytest.skip("Node.js or elkjs is not installed")
    fig = layout_figure(load_figure(EXAMPLE), engine="elk")
    by = {c.id: c for c in fig.components}
    chain = ["img", "enc1", "enc2", "enc3", "neck", "dec3", "dec2", "dec1", "mask"]
    ys = {round(by[i].box.cy, 1) for i in chain}
    assert len(ys) == 1, f"main chain not on one line: {ys}"
    skips = ["s1", "s2", "s3"]
    genc, gdec = by["genc"].box, by["gdec"].box
    for s in skips:
        pts = by[s].route
        # below both groups, crossing each frame once (out of the encoder, into the decoder)
        assert max(p.y for p in pts) > max(genc.y + genc.h, gdec.y + gdec.h)
    segs = {s: _segments(by[s].route) for s in skips}
    chain_segs = [sg for e in ("e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8") for sg in _segments(by[e].route)]
    for i, a in enumerate(skips):
        for b in skips[i + 1:]:
            assert not any(_cross(p, q) for p in segs[a] for q in segs[b]), f"{a} crosses {b}"
        assert not any(_cross(p, q) for p in segs[a] for q in chain_segs), f"{a} crosses the main chain"
