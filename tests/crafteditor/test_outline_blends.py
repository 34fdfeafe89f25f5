"""A coloured outline's anti-aliased tips are drawn, not a photo (issue 31, net11): a flowchart's
teal decision diamond with grey connectors touching its tips had each tip kept as an embedded
picture, which cut the diamond's face short, so the decision was no node and every edge into or
out of it was lost (the dev figure java-design-patterns' state flowchart: crop in crops/README.md)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image

from crafteditor.config import Config
from crafteditor.convert import convert
from crafteditor.photos import find_photos
from crafter.spec.model import Node

CROP = Path(__file__).parent / "crops" / "state_flowchart_decision.png"
PAGE = (240, 244, 247)


def _crop() -> np.ndarray:
    return np.asarray(Image.open(CROP).convert("RGB"))


def test_outline_tips_are_no_photo():
    assert find_photos(_crop(), background=np.array(PAGE)) == []


def test_a_photo_beside_them_still_is_one():
    rgb = np.full((200, 380, 3), PAGE, np.uint8)
    rgb[:180, :270] = _crop()
    rng = np.random.default_rng(3)
    yy, xx = np.mgrid[0:64, 0:80]
    shade = np.stack([120 + yy, 90 + xx, 160 - yy], axis=2) + rng.integers(-25, 25, (64, 80, 3))
    rgb[96:160, 288:368] = np.clip(shade, 0, 255).astype(np.uint8)
    found = find_photos(rgb, background=np.array(PAGE))
    assert len(found) == 1 and found[0].x // 8 == 288 // 8 and found[0].y // 8 == 96 // 8


def test_the_decision_is_a_node():
    fig = convert(_crop(), Config(quality=False)).figure
    nodes = {" ".join((c.label or "").split()): c.shape for c in fig.components if isinstance(c, Node)}
    assert nodes.get("Transition Condition?") == "diamond"
    assert not [c for c in fig.components if c.kind == "image"]
