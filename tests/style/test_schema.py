"""The style schema is published (shipped in the package, printed by `crafter style schema`) and is a
valid JSON Schema that every learned style meets; JPEG figures are read like PNGs."""

from __future__ import annotations

import json

import jsonschema
from PIL import Image

from crafter.benchmarks.style import LAB
from crafter.cli import main
from crafter.style import delta_e, learn_from_files, style_schema


def test_the_shipped_schema_is_valid_and_printed(tmp_path, capsys) -> None:
    jsonschema.Draft202012Validator.check_schema(style_schema())
    assert main(["style", "schema", "-o", str(tmp_path / "s.json")]) == 0
    assert json.loads((tmp_path / "s.json").read_text(encoding="utf-8")) == style_schema()


def test_a_jpeg_is_read_through_crafteditor(png_sets, vectorizer, tmp_path) -> None:
    jpg = tmp_path / "fig.jpg"
    Image.open(png_sets["lab"][0]).convert("RGB").save(jpg, quality=85, dpi=(150, 150))  # sizes need the dpi
    style = learn_from_files([jpg], "jpeg", vectorizer=vectorizer)
    assert style["learned_from"][0]["reader"] == "crafteditor"
    # large areas keep their colour through JPEG; a 2 px outline blends with its neighbours (ΔE ≈ 19)
    assert delta_e(style["palette"]["node_fill"]["value"], LAB.node_fill) < 5.0
    assert abs(style["sizes"]["label"]["value"] - LAB.font_size) <= 4 / 3  # 1 pt
    assert style["font"]["class"]["value"] == "serif"
