"""A label's first or last letter that its line's crop left out is read with its word (issue 31):
a letter a connector runs into ('Level' read 'evel' under a Mermaid link, 'Transform' read 'Transfo'
under a curved arrow), or one touching a shape of another colour ('Sunny' beside a pie's wedge).
Crops of dev figures (tests/crafteditor/crops/README.md)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

pytest.importorskip("rapidocr_onnxruntime")

from crafteditor.config import Config  # noqa: E402
from crafteditor.ocr.read import read_text  # noqa: E402
from crafteditor.ocr.run_ends import _unworded  # noqa: E402
from crafteditor.paint import find_paints  # noqa: E402

CROPS = Path(__file__).parent / "crops"


def _read(name: str) -> list[str]:
    rgb = np.asarray(Image.open(CROPS / name).convert("RGB")).copy()
    return [r.text for r in read_text(rgb, find_paints(rgb, Config()), Config())]


@pytest.mark.parametrize("name,label", [
    ("clem_level_title.png", "Level 3: Global Learning"),  # a link ends at the L
    ("tf_pipeline_transform.png", "Transform"),  # a curved arrow leaves the 'rm'
    ("vl_pie_pyramid.png", "Sunny side of a pyramid"),  # the S touches the blue wedge
])
def test_end_letter_touched_by_a_stroke_is_read_with_its_word(name, label):
    assert label in _read(name)


def test_a_known_word_is_not_grown_into_an_unknown_one():
    # a connector's end beside 'challenge' had been read 'Tchallenge' (an Excalidraw pool diagram)
    assert _unworded("challenge", "Tchallenge")
    assert _unworded("Upload images", "I Upload images")  # an icon's stroke read as a word of its own
    assert _unworded("T1 fired", "iT1 fired")
    assert _unworded("Upload images", "1Upload images")
    assert _unworded("Upload images", "I_Upload images")  # a stroke before a capital read as a small letter
    assert not _unworded("Transfo", "Transform")
    assert not _unworded("evel 3: Global Learning", "Level 3: Global Learning")
