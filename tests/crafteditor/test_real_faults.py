"""Faults real figures showed (issue 31), each reproduced on a small synthetic figure:
line joins that were cubic in the line pieces of a hand-drawn figure, a figure that could hold a
batch for minutes, photos traced into outline polygons."""

from __future__ import annotations

import hashlib
import json
import random
import time

import numpy as np
import pytest
from ce_helpers import png_bytes
from conftest import REAL_MANIFEST
from handdrawn import handdrawn_flowchart
from PIL import Image, ImageDraw, ImageFont

import crafteditor.config as ce_config
from crafteditor.assemble.joins import _join_pair, bridge_gaps
from crafteditor.batch import convert_one
from crafteditor.bench import svg_to_rgb
from crafteditor.config import Config, budget_clock
from crafteditor.convert import convert
from crafteditor.lines.paths import LinePath
from crafteditor.ocr.runs import TextRun
from crafteditor.photos import find_photos
from crafteditor.realset import RealSetError, load_real, norm_word, score_real, svg_words
from crafter.render import figure_to_svg
from crafter.spec import Figure

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def _label(x, y, w=40, h=12) -> TextRun:
    return TextRun(text="lbl", x=x, y=y, w=w, h=h, angle=0, font_px=h, bold=False, color=(0, 0, 0),
                   confidence=1.0, baseline=y + h, glyphs=np.zeros((h, w), bool))


def _line(p, q, **kw) -> LinePath:
    mid = ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)
    return LinePath(points=[p, mid, q], width=2.0, color=(20, 20, 20), **kw)


def _cut_lines(rng: random.Random, n_gaps: int, noise: int):
    """Horizontal lines each cut in two by a label drawn over it, plus short stray pieces."""
    lines, labels = [], []
    for k in range(n_gaps):
        x, y = rng.uniform(0, 4000), rng.uniform(0, 4000)
        labels.append(_label(x, y - 6))
        lines.append(_line((x - rng.uniform(30, 80), y), (x - 3, y)))
        lines.append(_line((x + 43, y), (x + 43 + rng.uniform(30, 80), y)))
    for _ in range(noise):
        x, y = rng.uniform(0, 4000), rng.uniform(0, 4000)
        lines.append(_line((x, y), (x + rng.uniform(-20, 20), y + rng.uniform(-20, 20))))
    rng.shuffle(lines)
    return lines, labels


def _pairwise(lines, groups, labels):
    """The former search: every ordered pair, restarted after each join."""
    lines = list(lines)
    changed = True
    while changed:
        changed = False
        for i in range(len(lines)):
            for j in range(len(lines)):
                if i != j:
                    m = _join_pair(lines[i], lines[j], groups, labels)
                    if m is not None:
                        lines[i] = m
                        del lines[j]
                        changed = True
                        break
            if changed:
                break
    return lines


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_line_joins_are_those_of_the_pairwise_scan(seed):
    lines, labels = _cut_lines(random.Random(seed), n_gaps=12, noise=30)
    # crowd some ends together: several candidates per gap
    fast = bridge_gaps(lines, [], labels)
    assert [ln.points for ln in fast] == [ln.points for ln in _pairwise(lines, [], labels)]
    assert len(fast) == len(lines) - 12


def test_line_joins_scale_to_a_hand_drawn_figure():
    lines, labels = _cut_lines(random.Random(7), n_gaps=400, noise=1200)
    t = time.perf_counter()
    out = bridge_gaps(lines, [], labels)
    print(f"\nbridge_gaps: {len(lines)} lines, {len(labels)} labels: {time.perf_counter() - t:.2f} s")
    assert len(out) == len(lines) - 400


def test_line_joins_stop_at_the_deadline():
    lines, labels = _cut_lines(random.Random(3), n_gaps=20, noise=10)
    out = bridge_gaps(lines, [], labels, deadline=budget_clock() - 1)
    assert [ln.points for ln in out] == [ln.points for ln in lines]


def test_hand_drawn_flowchart_converts_with_its_labels(tmp_path):
    png = handdrawn_flowchart(seed=0)
    t = time.perf_counter()
    conv = convert(png, Config())
    print(f"\nhand-drawn flowchart 1866x1095: {time.perf_counter() - t:.1f} s, "
          f"{len(conv.figure.components)} components, timings {conv.report['timings']}")
    assert "over_budget" not in conv.report
    found = svg_words(conv.svg)
    boxes = ["ingest", "parse", "validate", "store", "render", "queue", "deploy", "monitor"]
    assert sum(found[w] > 0 for w in boxes) >= 7


def test_a_figure_past_its_time_budget_is_traced_and_marked(tmp_path, monkeypatch):
    monkeypatch.setattr(ce_config, "TIME_BUDGET_MIN_S", 0.0)
    src = tmp_path / "flow.png"
    src.write_bytes(handdrawn_flowchart(seed=1, cols=3, rows=2, size=(700, 420)))
    cfg = Config(timeout=1e-9, quality=False)
    rec = convert_one(str(src), str(tmp_path / "flow.svg"), cfg.to_dict())
    assert rec["status"] == "ok"
    assert set(rec["over_budget"]) >= {"shapes", "lines"}
    svg = (tmp_path / "flow.svg").read_text(encoding="utf-8")
    assert "<path" in svg or "<image" in svg  # what was not read is traced, not lost


def test_time_budget_option_is_checked():
    with pytest.raises(ce_config.ConfigError, match="timeout"):
        Config(timeout=-1)
    assert Config(timeout=0).time_budget(4000, 4000) is None
    assert Config().time_budget(100, 100) == ce_config.TIME_BUDGET_MIN_S


# -- photos ----------------------------------------------------------------------------------

def _photo(h: int, w: int, seed: int = 0) -> np.ndarray:
    """A photo-like patch: smooth colour fields with fine texture."""
    rng = np.random.default_rng(seed)
    small = rng.integers(0, 255, (h // 8 + 2, w // 8 + 2, 3)).astype(np.uint8)
    base = np.asarray(Image.fromarray(small).resize((w, h), Image.BICUBIC), np.float32)
    grain = rng.normal(0, 14, (h, w, 3))
    return np.clip(base + grain, 0, 255).astype(np.uint8)


def _diagram_with_photo() -> np.ndarray:
    im = Image.new("RGB", (520, 240), "white")
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype(FONT, 20)
    d.rectangle((300, 80, 470, 150), fill=(214, 230, 244), outline=(30, 60, 120), width=2)
    d.text((340, 102), "Encoder", fill=(20, 20, 20), font=font)
    d.line((200, 115, 292, 115), fill=(40, 40, 40), width=2)
    d.polygon([(298, 115), (286, 109), (286, 121)], fill=(40, 40, 40))
    a = np.asarray(im).copy()
    a[50:180, 40:190] = _photo(130, 150)
    return a


def test_a_photo_in_a_diagram_is_kept_as_one_image():
    conv = convert(png_bytes(_diagram_with_photo()), Config())
    images = [c for c in conv.figure.components if c.kind == "image"]
    assert len(images) == 1
    b = images[0].box
    assert abs(b.x - 40) <= 4 and abs(b.y - 50) <= 4 and abs(b.w - 150) <= 6 and abs(b.h - 130) <= 6
    # nothing else is read inside the photo: no outline polygons, no text
    inside = [c for c in conv.figure.components if c.kind in ("path", "text", "node")
              and getattr(c, "box", None) is not None and 45 < c.box.cx < 185 and 55 < c.box.cy < 175]
    assert inside == []
    assert any(c.kind == "node" and c.label == "Encoder" for c in conv.figure.components)


def test_gradient_fills_and_fringed_text_are_not_photos():
    im = Image.new("RGB", (600, 200), "white")
    d = ImageDraw.Draw(im)
    for x in range(40, 560):  # a purple-to-orange gradient bar, as cross-attention blocks are drawn
        t = (x - 40) / 520
        d.line((x, 30, x, 80), fill=(int(160 + 80 * t), int(120 + 20 * t), int(200 - 140 * t)))
    d.text((60, 110), "Multi-Scale Transformer Encoder", fill=(0, 0, 0), font=ImageFont.truetype(FONT, 28))
    a = np.asarray(im).copy()
    a[:, 1:, 0] = a[:, :-1, 0]  # sub-pixel colour fringes, as on screenshots of paper figures
    assert find_photos(a) == []


# -- the real-figure set's scoring ------------------------------------------------------------

def test_words_compare_on_letters_and_digits():
    assert norm_word("I₁·T₁") == norm_word("I1·T1") == "i1t1"
    assert norm_word("…") == ""
    svg = ('<svg><text x="1" y="2"><tspan x="1" y="2">Text</tspan><tspan x="1" y="14">Encoder</tspan></text>'
           '<text>T<tspan baseline-shift="sub">N</tspan> &amp; x</text></svg>')
    assert svg_words(svg) == {"text": 1, "encoder": 1, "tn": 1, "x": 1}


def test_score_real_counts_nodes_edges_and_words():
    fig = Figure.model_validate({"canvas": {"w": 300, "h": 100}, "components": [
        {"kind": "node", "id": "a", "label": "Add", "box": {"x": 0, "y": 0, "w": 60, "h": 30}},
        {"kind": "node", "id": "b", "label": "MatMul", "box": {"x": 100, "y": 0, "w": 60, "h": 30}},
        {"kind": "edge", "id": "e", "source": "b", "target": "a"}]})
    svg = '<svg><text>Add</text><text>MatMul</text></svg>'
    truth = {"text": "Add MatMul Input", "nodes": ["Add", "MatMul", "Linear"], "edges": [["MatMul", "Add"]]}
    sc = score_real(fig, svg, truth)
    assert sc["words"] == pytest.approx(2 / 3)
    assert sc["nodes"] == pytest.approx(0.8)
    assert sc["edges"] == 1.0


def test_the_real_set_files_are_the_ones_the_truth_was_made_for(real_set):
    figs = load_real(real_set, manifest=REAL_MANIFEST)  # every file present, every sha256 as recorded
    assert len(figs) >= 120 and {f.split for f in figs} == {"dev", "test"}


# -- text drawn twice --------------------------------------------------------------------------

def test_a_label_on_a_traced_shape_is_drawn_once():
    """A label inside a shape no detector takes (a trapezoid, CLIP's encoders) was drawn twice:
    as text, and again in the shape's traced paths (thin strokes grown back into the trace)."""
    im = Image.new("RGB", (420, 260), "white")
    d = ImageDraw.Draw(im)
    d.polygon([(60, 30), (260, 80), (260, 180), (60, 230)], fill=(225, 213, 231), outline=(150, 110, 170))
    d.text((100, 112), "Text", fill=(0, 0, 0), font=ImageFont.truetype(FONT, 24))
    d.text((100, 140), "Encoder", fill=(0, 0, 0), font=ImageFont.truetype(FONT, 24))
    conv = convert(png_bytes(np.asarray(im)), Config())
    assert svg_words(conv.svg)["encoder"] == 1
    # the trapezoid is now a node of its own (its label the node's): drawn without any text
    assert [c.shape for c in conv.figure.components if c.kind == "node"] == ["trapezoid_right"]
    no_text = conv.figure.model_copy(update={"components": [
        c.model_copy(update={"label": " "}) if c.kind == "node" else c
        for c in conv.figure.components if c.kind != "text"]})
    drawn = svg_to_rgb(figure_to_svg(no_text), (260, 420)).astype(int)
    under_label = drawn[112:168, 100:200]
    assert (under_label.sum(axis=2) < 300).sum() < 20  # no dark glyph strokes left in the traced shape


def test_real_set_errors_name_the_file(tmp_path):
    with pytest.raises(RealSetError, match="manifest.json"):
        load_real(tmp_path)
    (tmp_path / "manifest.json").write_text(json.dumps({"figures": [{"id": "a", "file": "figs/a.png", "text": "x"}]}))
    with pytest.raises(RealSetError, match="figure 'a': file .*a.png is missing"):
        load_real(tmp_path)
    Image.new("RGB", (8, 8), "white").save(tmp_path / "a.png")
    (tmp_path / "manifest.json").write_text(json.dumps({"figures": [
        {"id": "a", "file": "a.png", "text": "x", "split": "test"}]}))
    assert [f.id for f in load_real(tmp_path, "test")] == ["a"] and load_real(tmp_path, "dev") == []


def test_a_figure_that_is_not_the_one_the_truth_was_made_for_is_refused(tmp_path):
    Image.new("RGB", (8, 8), "white").save(tmp_path / "a.png")
    rec = {"id": "a", "file": "a.png", "text": "x", "repo": "o/r", "path": "a.png", "commit": "0" * 40,
           "sha256": hashlib.sha256((tmp_path / "a.png").read_bytes()).hexdigest()}
    (tmp_path / "manifest.json").write_text(json.dumps({"figures": [rec]}))
    assert [f.id for f in load_real(tmp_path)] == ["a"]
    Image.new("RGB", (8, 8), "black").save(tmp_path / "a.png")
    with pytest.raises(RealSetError, match="figure 'a': .*a.png is not the file the truth was made for"):
        load_real(tmp_path)
    (tmp_path / "a.png").unlink()
    with pytest.raises(RealSetError, match=r"a.png is missing \(from o/r, a.png at 000000000000\)"):
        load_real(tmp_path)
