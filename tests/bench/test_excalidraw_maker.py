"""`craftbench makers excalidraw`: sketches drawn with rough.js and Excalidraw's fonts, truth from the scene.

Needs Chromium, Playwright, rough.js (``npm install``) and Excalidraw's fonts (the npm package
``@excalidraw/excalidraw``, which ``make env`` unpacks, or ``CRAFTBENCH_EXCALIDRAW_FONTS``); skips cleanly
without them."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from craftbench.makers import draw_makers
from craftbench.makers.excalidraw import ExcalidrawMakerError, font_dir, rough_js, scene
from crafteditor.browser import CHROMIUM
from crafteditor.realset import load_real


def _ready() -> str | None:
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "Playwright is not installed"
    if not Path(CHROMIUM).is_file():
        return f"no {CHROMIUM}"
    try:
        rough_js()
        font_dir()
    except ExcalidrawMakerError as e:
        return str(e)
    return None


def test_a_scenes_truth_lists_its_labelled_shapes_and_the_arrows_between_them():
    for i in range(12):
        sc = scene(random.Random(i), i)
        truth = sc["truth"]
        labels = [" ".join(n["lines"]) for n in sc["nodes"]]
        assert truth["nodes"][:len(labels)] == labels
        assert len(set(map(str.lower, truth["nodes"]))) == len(truth["nodes"])  # no label twice: unambiguous edges
        assert len(truth["edges"]) == len(sc["edges"])
        for a, b in truth["edges"]:
            assert a in truth["nodes"] and b in truth["nodes"]
        for w in labels:
            assert w in truth["text"]


@pytest.mark.skipif(_ready() is not None, reason=_ready() or "")
def test_drawn_sketches_land_with_a_manifest_the_real_track_reads(tmp_path: Path):
    manifest = draw_makers("excalidraw", tmp_path, n=3, seed=5)
    figs = load_real(tmp_path, "all", manifest)
    assert len(figs) == 3 and {f.split for f in figs} == {"drawn"}
    for rec in json.loads(manifest.read_text())["figures"]:
        assert {"roughness", "fill", "arrow", "font", "theme", "container"} <= set(rec)
        im = np.asarray(Image.open(tmp_path / rec["file"]).convert("L"))
        assert im.shape[0] > 100 and im.shape[1] > 150
        dark = im < 128 if rec["theme"] == "light" else im > 128
        assert 0.002 < dark.mean() < 0.3  # strokes and letters drawn, on a page of their own


def test_a_state_machines_truth_lists_two_way_pairs_self_loops_and_labels_on_arrows():
    from craftbench.makers.excalidraw_states import state_scene

    seen_two_way = seen_loop = 0
    for i in range(16):
        sc = state_scene(random.Random(i), i)
        truth = sc["truth"]
        assert len(truth["edges"]) == len(sc["edges"]) >= 1
        for e, (a, b) in zip(sc["edges"], truth["edges"], strict=True):
            assert a in truth["nodes"] and b in truth["nodes"]
            assert (a == b) == (e["a"] == e["b"])  # a self-loop is a pair of one state
            if e["label"]:
                assert e["label"] in truth["text"]
        seen_two_way += sc["two_way"]
        seen_loop += sc["loops"]
    assert seen_two_way and seen_loop  # the kinds the plain maker lacks are drawn
