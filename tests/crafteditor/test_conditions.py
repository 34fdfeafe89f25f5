"""Delivery conditions (``crafteditor bench --real DIR --condition NAME``): the same figure as repositories
deliver it — a 1× screenshot, a JPEG, a blurred export, a coloured page, wide margins — with the same truth."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest
from PIL import Image, ImageDraw

from crafteditor.bench import BenchFigure, under_condition
from crafteditor.cli import main
from crafteditor.conditions import OFFWHITE, ConditionError, apply_condition, parse_condition


def _png(size=(240, 120), alpha=False, dpi=None) -> bytes:
    im = Image.new("RGBA" if alpha else "RGB", size, (255, 255, 255, 0) if alpha else "white")
    ImageDraw.Draw(im).rectangle((40, 30, 200, 90), outline=(0, 0, 0, 255), width=3)
    buf = io.BytesIO()
    im.save(buf, "PNG", **({"dpi": dpi} if dpi else {}))
    return buf.getvalue()


def _open(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data))


def test_half_and_third_downscale_like_a_screenshot_and_say_how_the_pixels_moved():
    data, scale, offset = apply_condition(_png(dpi=(192, 192)), "half")
    im = _open(data)
    assert im.size == (120, 60) and scale == 0.5 and offset == (0.0, 0.0)
    assert "dpi" not in im.info  # a screenshot says nothing of its resolution
    assert _open(apply_condition(_png(), "third")[0]).size == (80, 40)


def test_jpeg_blur_offwhite_and_margin_each_deliver_what_their_name_says():
    jpeg, _, _ = apply_condition(_png(alpha=True), "jpeg60")
    assert jpeg[:3] == b"\xff\xd8\xff" and _open(jpeg).getpixel((5, 5))[0] > 240  # transparency shown on white
    sharp = np.asarray(_open(_png()).convert("L"), float)
    blurred = np.asarray(_open(apply_condition(_png(), "blur1")[0]).convert("L"), float)
    assert blurred.min() > sharp.min() and np.abs(np.diff(blurred, axis=1)).max() < np.abs(np.diff(sharp, axis=1)).max()
    page = _open(apply_condition(_png(alpha=True), "offwhite")[0]).convert("RGB")
    assert page.getpixel((5, 5)) == OFFWHITE and page.getpixel((40, 60)) == (0, 0, 0)
    data, scale, (dx, dy) = apply_condition(_png(alpha=True), "margin")
    im = _open(data)
    assert im.size == (240 + 2 * 60, 120 + 2 * 60) and (dx, dy) == (60, 60) and scale == 1.0
    assert im.getpixel((0, 0))[3] == 0 and im.getpixel((60 + 40, 60 + 60))[3] == 255  # the figure moved by the margin


def test_a_jpeg_keeps_the_files_dpi_as_the_other_conditions_do():
    jpeg = _open(apply_condition(_png(dpi=(192, 192)), "jpeg60")[0])
    assert tuple(round(float(v)) for v in jpeg.info["dpi"]) == (192, 192)
    assert "dpi" not in _open(apply_condition(_png(dpi=(192, 192)), "half+jpeg60")[0]).info  # a screenshot has none


def test_conditions_compose_left_to_right_and_unknown_names_are_refused():
    data, scale, _ = apply_condition(_png(), "half+jpeg60")
    assert data[:3] == b"\xff\xd8\xff" and _open(data).size == (120, 60) and scale == 0.5
    assert [s.kind for s in parse_condition("margin+half")] == ["margin", "scale"]
    for bad in ("quarter", "jpeg0", "blur9", "", "half+"):
        with pytest.raises(ConditionError):
            parse_condition(bad)


def test_only_real_figures_are_conditioned_and_their_truth_holds():
    truth = {"text": "a b", "nodes": ["a"], "split": "dev"}
    real, drawn = BenchFigure("r", "real-diagram", _png(), truth), BenchFigure("d", "diagram", _png(), None)
    out = under_condition([real, drawn], "half")
    assert _open(out[0].png).size == (120, 60) and out[0].truth is truth
    assert out[1].png == drawn.png


@pytest.mark.slow  # a bench run: loads the OCR models
def test_bench_runs_the_real_set_under_a_condition_and_refuses_a_bad_one(tmp_path, capsys):
    (tmp_path / "figs").mkdir()
    (tmp_path / "figs" / "box.png").write_bytes(_png())
    (tmp_path / "manifest.json").write_text(json.dumps({"figures": [
        {"id": "box", "file": "figs/box.png", "split": "dev", "kind": "diagram", "text": ""}]}), encoding="utf-8")
    out = tmp_path / "rows.json"
    assert main(["bench", "-n", "0", "--real", str(tmp_path), "--condition", "half", "--json", str(out)]) == 0
    row = json.loads(out.read_text())[0]
    assert row["name"] == "box" and row["condition"] == "half"  # the rows say what they were read under
    capsys.readouterr()
    assert main(["bench", "-n", "0", "--real", str(tmp_path), "--condition", "quarter"]) == 2
    assert "unknown condition 'quarter'" in capsys.readouterr().err
    assert main(["bench", "-n", "0", "--condition", "half"]) == 2


@pytest.mark.slow  # converts a figure: loads the OCR models
def test_edge_misses_classes_a_diagram_read_under_a_condition(tmp_path, capsys):
    from crafteditor.bench import render_truth
    from crafteditor.edge_misses import main as edge_misses

    dsl = tmp_path / "pipe.dsl"
    dsl.write_text('figure "Pipeline"\nenc node "Encoder"\ndec node "Decoder"\ne1 edge enc -> dec\n', encoding="utf-8")
    (tmp_path / "figs").mkdir()
    (tmp_path / "figs" / "pipe.png").write_bytes(render_truth(dsl, 150)[1])
    (tmp_path / "manifest.json").write_text(json.dumps({"figures": [
        {"id": "pipe", "file": "figs/pipe.png", "split": "dev", "kind": "diagram", "text": "Pipeline Encoder Decoder",
         "nodes": ["Encoder", "Decoder"], "edges": [["Encoder", "Decoder"]]}]}), encoding="utf-8")
    out = tmp_path / "misses.json"
    edge_misses(["--real", str(tmp_path), "--condition", "half", "--json", str(out)])
    assert "== pipe: truth 1" in capsys.readouterr().out
    assert json.loads(out.read_text())["pipe"]["truth"] == 1
