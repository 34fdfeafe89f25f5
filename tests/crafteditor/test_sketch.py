"""Hand-drawn sketches (issue 31): a pencil box-and-arrow sketch — wobbly, grey, outlines not
quite closed, open arrowheads, on grainy paper — comes back as clean nodes with their labels and
edges between them; a typeset figure is read as before."""

from __future__ import annotations

import io
import math
from types import SimpleNamespace

import numpy as np
import pytest
from handdrawn import pencil_sketch
from PIL import Image, ImageDraw

from crafteditor.batch import convert_one
from crafteditor.config import Config, budget_clock
from crafteditor.convert import convert
from crafteditor.paint import find_paints
from crafteditor.shapes import sketch
from crafteditor.shapes.sketch import find_sketch_shapes

SEEDS = range(6)


def _read(png: bytes, config: Config) -> tuple[set[str], set[tuple[str, str]], dict]:
    """(node labels, edges as (source label, target label), the conversion's report)."""
    conv = convert(png, config)
    labels = {c.id: c.label for c in conv.figure.components if c.kind == "node"}
    edges = {(labels.get(c.source), labels.get(c.target)) for c in conv.figure.components if c.kind == "edge"}
    return set(labels.values()), edges, conv.report


def test_pencil_sketches_come_back_as_nodes_and_edges():
    nodes_found = nodes_all = edges_found = edges_all = 0
    for seed in SEEDS:
        png, words, edges = pencil_sketch(seed)
        got_nodes, got_edges, report = _read(png, Config.preset("sketch"))
        hits = sum(w in got_nodes for w in words)
        print(f"\nseed {seed}: nodes {hits}/{len(words)}, edges {len(got_edges & set(edges))}/{len(edges)}, "
              f"{report['seconds']} s")
        assert hits >= len(words) - 1, (seed, words, got_nodes)
        nodes_found += hits
        nodes_all += len(words)
        edges_found += len(got_edges & set(edges))
        edges_all += len(edges)
    print(f"pencil sketches, seeds {list(SEEDS)}: nodes {nodes_found}/{nodes_all}, edges {edges_found}/{edges_all}")
    assert nodes_found >= 0.9 * nodes_all
    assert edges_found >= 0.7 * edges_all


def test_the_default_preset_sees_a_sketch_and_reads_it_as_one():
    png, words, edges = pencil_sketch(0)
    # no time budget: whether the second reading fits one is the next test's; on a loaded machine the
    # wall-clock budget left too little for it and this test failed for a reason that is not its own
    got_nodes, got_edges, report = _read(png, Config(timeout=0))
    assert report["preset"] == "sketch"
    assert set(words) <= got_nodes
    assert len(got_edges & set(edges)) >= len(edges) - 1


def test_a_sketch_with_no_time_left_for_a_second_reading_keeps_its_first(monkeypatch):
    """The second reading runs within the figure's one budget: where it would not fit, the first
    reading stands, its clean sketch outlines with it (the re-read had started a fresh budget, so a
    hand-drawn figure could take twice its own)."""
    from crafteditor.vectorizer import Budget

    monkeypatch.setattr(Budget, "affords", lambda self, spent: False)
    png, words, _ = pencil_sketch(0)
    got_nodes, _, report = _read(png, Config())
    assert report["preset"] == "auto"
    assert len(set(words) & got_nodes) >= 3  # fewer than the sketch reading finds (5 of 5), but its outlines stand


def test_a_budget_affords_a_second_reading_only_where_thrice_the_work_judged_fits():
    """The second reading's choice weighs the work judged from the figure (its pixels, text lines and
    shapes), not the clock: a figure's output does not depend on how loaded the machine was."""
    from crafteditor.vectorizer import Budget, reading_work

    now = budget_clock()
    assert Budget(None, now).affords(1e6)
    assert Budget(10.0, now).affords(1.0) and not Budget(10.0, now).affords(6.0)
    assert Budget(10.0, now - 9.5).affords(0.5)  # however much of the budget the clock says is spent
    small, big = reading_work((800, 1000), [None] * 20, [None] * 10), reading_work((3000, 4000), [None] * 20, [None] * 10)
    assert 0 < small < big and reading_work((800, 1000), [None] * 400, []) > small
    # the dev split's largest first readings are read again (an A4 page at 150 dpi with 200 text lines)
    assert Budget(20.0, now).affords(reading_work((1754, 1240), [None] * 200, [None] * 40))


def test_the_choice_to_read_again_is_the_same_on_a_loaded_machine(monkeypatch):
    """A figure read while the clock runs fast (each CPU-second counted a hundred times over: a loaded
    machine's caches) is read again as a sketch as on a quiet one, to the same figure."""
    import crafteditor.vectorizer as vz

    png, words, _ = pencil_sketch(0)
    quiet = convert(png, Config(quality=False))
    clock = vz.budget_clock
    start = clock()
    monkeypatch.setattr(vz, "budget_clock", lambda: start + 100.0 * (clock() - start))
    loaded = convert(png, Config(quality=False))
    assert quiet.report["preset"] == loaded.report["preset"] == "sketch"
    assert quiet.figure.to_dict() == loaded.figure.to_dict()


def test_a_typeset_figure_is_read_as_before(golden):
    png, _truth = golden["diagram_150"]
    auto = convert(png, Config.preset("diagram"))
    off = convert(png, Config.preset("diagram", sketch="off"))
    assert auto.report["preset"] == "diagram"
    assert auto.figure.to_dict() == off.figure.to_dict()


def _wobbly_box(gap_share: float, seed: int = 0) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    """A grey hand-drawn box on off-white paper, its outline open by ``gap_share`` of its perimeter."""
    rng = np.random.default_rng(seed)
    W, H = 400, 240
    im = Image.new("RGB", (W, H), (248, 247, 243))
    d = ImageDraw.Draw(im)
    x0, y0, x1, y1 = 100, 70, 300, 170
    perimeter = 2 * ((x1 - x0) + (y1 - y0))
    pts = []
    for t in np.linspace(gap_share * perimeter, perimeter, 240):  # the pen starts past the gap
        s = t
        if s <= x1 - x0:
            p = (x0 + s, y0)
        elif s <= (x1 - x0) + (y1 - y0):
            p = (x1, y0 + s - (x1 - x0))
        elif s <= 2 * (x1 - x0) + (y1 - y0):
            p = (x1 - (s - (x1 - x0) - (y1 - y0)), y1)
        else:
            p = (x0, y1 - (s - 2 * (x1 - x0) - (y1 - y0)))
        wob = 2.5 * math.sin(t / 23.0) + rng.normal(0, 0.4)
        pts.append((p[0] + wob, p[1] - wob))
    d.line(pts, fill=(120, 120, 120), width=2)
    return np.asarray(im), (x0, y0, x1 - x0, y1 - y0)


@pytest.mark.parametrize("gap_share", [0.0, 0.03])
def test_a_wobbly_box_open_by_a_few_percent_is_one_clean_box(gap_share):
    rgb, (x, y, w, h) = _wobbly_box(gap_share)
    config = Config.preset("sketch")
    shapes = find_sketch_shapes(rgb, find_paints(rgb, config), config, 1.0, [])
    assert len(shapes) == 1
    s = shapes[0]
    assert s.shape in ("box", "round")
    for got, want in zip((s.x, s.y, s.w, s.h), (x, y, w, h)):
        assert abs(got - want) <= 4, (s, (x, y, w, h))


def test_sketch_off_finds_nothing():
    rgb, _ = _wobbly_box(0.0)
    config = Config.preset("sketch", sketch="off")
    assert find_sketch_shapes(rgb, find_paints(rgb, config), config, 1.0, []) == []


def test_a_page_taken_for_ink_is_not_thinned_for_outlines(monkeypatch):
    # a translucent grey page flattened on white: the paper read is white, the page all ink
    rgb = _wobbly_box(0.0)[0].copy()
    rgb[6:-6, 6:-6] = (rgb[6:-6, 6:-6].astype(np.float32) * 0.6).astype(np.uint8)  # white only at the border
    config = Config.preset("sketch")
    paints = find_paints(rgb, config, (255, 255, 255))
    assert paints.background_rgb.min() > 240
    thinned = []
    monkeypatch.setattr(sketch, "_bridge_ends", lambda ink, reach: thinned.append(1) or ink)
    assert find_sketch_shapes(rgb, paints, config, 1.0, []) == []
    assert not thinned


def test_the_sketch_option_is_checked():
    with pytest.raises(Exception, match="sketch"):
        Config(sketch="maybe")  # type: ignore[arg-type]


def test_a_sketch_png_round_trips_through_the_cli_preset(tmp_path):
    png, words, _ = pencil_sketch(1)
    src = tmp_path / "sketch.png"
    Image.open(io.BytesIO(png)).save(src)
    rec = convert_one(str(src), str(tmp_path / "sketch.svg"), Config.preset("sketch").to_dict())
    assert rec["status"] == "ok"
    svg = (tmp_path / "sketch.svg").read_text(encoding="utf-8")
    assert sum(w in svg for w in words) >= len(words) - 1



def test_a_face_reaching_past_the_image_edge_is_pasted_clipped():
    """A hand-drawn outline redrawn half a pencil stroke out can start left of the image (a TikZ
    figure read with the sketch preset failed with a broadcast error in the shape mask)."""
    from crafteditor.vectorizer import _paste

    into = np.zeros((4, 5), bool)
    _paste(into, np.ones((3, 3), bool), -2, -1)  # up and left of the corner
    assert into.sum() == 2 and into[0, 0] and into[1, 0]
    _paste(into, np.ones((3, 3), bool), 4, 3)  # past the bottom right
    assert into[3, 4] and into.sum() == 3
    _paste(into, np.ones((3, 3), bool), 9, 9)  # wholly outside: nothing
    assert into.sum() == 3


def _hole(bite: bool) -> np.ndarray:
    """A 120×80 hole: a box's, or one with a half-disc bitten out of each side (the pocket of paper
    an LSTM cell's curves and lines fence in)."""
    m = np.ones((80, 120), bool)
    if bite:
        yy, xx = np.mgrid[:80, :120]
        for cx, cy, r in ((0, 40, 25), (120, 40, 25), (60, 0, 25), (60, 80, 25)):
            m &= (xx - cx) ** 2 + (yy - cy) ** 2 > r * r
    return m


def test_a_pocket_between_curves_is_no_sign_of_a_sketch():
    """Two loosely matching 'boxes' whose sides bulge by pixels are pockets of a typeset figure,
    not hand-drawn outlines (an LSTM figure was read twice, as a sketch, and lost nodes and edges);
    two rough boxes with straight or wobbling sides are."""
    import cv2

    from crafteditor.shapes.sketch import BOX_STRAY_PX, ROUGH_PX, _side_stray, looks_rough, sketch_ink

    assert _side_stray(_hole(False)) < 1e-6
    assert _side_stray(_hole(True)) > BOX_STRAY_PX
    rgb, (x, y, w, h) = _wobbly_box(0.0)
    ink = sketch_ink(rgb, find_paints(rgb, Config.preset("sketch")))
    _, lab = cv2.connectedComponents((~ink).astype(np.uint8), connectivity=4)
    inside = lab == lab[y + h // 2, x + w // 2]  # the wobbly box's paper, inside its pencil
    ys, xs = np.nonzero(inside)
    stray = _side_stray(inside[ys.min():ys.max() + 1, xs.min():xs.max() + 1])
    assert 0.1 < stray <= BOX_STRAY_PX, stray
    box = SimpleNamespace(shape="round")
    rough = ROUGH_PX + 0.5
    assert not looks_rough([(box, rough, _side_stray(_hole(True)), 0.4)] * 2)
    assert looks_rough([(box, rough, 0.4, 0.4)] * 2)
    assert not looks_rough([(box, rough, 0.4, 0.4), (box, ROUGH_PX - 0.5, 0.4, 0.4)])


def test_a_second_reading_as_a_sketch_reuses_the_first_readings_text(monkeypatch):
    """The re-read starts from the text read the first time (the same pixels): OCR once a figure."""
    import crafteditor.vectorizer as vz

    monkeypatch.setattr(vz.Budget, "affords", lambda self, spent: True)
    calls = []
    real = vz.read_text
    monkeypatch.setattr(vz, "read_text", lambda *a, **k: calls.append(1) or real(*a, **k))
    png, words, _ = pencil_sketch(0)
    got_nodes, _, report = _read(png, Config())
    assert report["preset"] == "sketch"
    assert len(calls) == 1
    assert set(words) <= got_nodes
    # the bench's CPU split: the text read once counts as text (not as the discarded first reading),
    # and the stages still sum to the conversion's CPU seconds
    stages = report["cpu_stages"]
    assert stages["text"] > 0 and "first reading" in stages
    assert sum(stages.values()) == pytest.approx(report["cpu_seconds"], abs=0.01)
