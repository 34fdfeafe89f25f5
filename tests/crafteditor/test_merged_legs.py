"""Two edges an orthogonal router merged into one leg by a node: one comes down and turns into the
node along the leg, ending in its head; the other leaves the node along the same leg (issue 31,
edges17: java-design-patterns' state flowchart read 'Execute Behavior B' -> 'Remain in Current State'
through the corner, the head on the diamond left mid-line)."""

from __future__ import annotations

import numpy as np
from ce_helpers import edge_pairs
from PIL import Image, ImageDraw, ImageFont

from crafteditor.config import Config
from crafteditor.convert import convert

PAGE, LINE, INK = (240, 244, 247), (120, 136, 150), (46, 61, 75)


def _merged_leg(head_at_far_end: bool = True) -> np.ndarray:
    """'Check' (left), 'Act' (right) and 'Wait' above the leg between them: Wait's line comes down to
    a corner 20 px right of Check and turns left into Check's head; Check's line runs right along
    that leg on to Act (with a head at Act when ``head_at_far_end``)."""
    im = Image.new("RGB", (640, 360), PAGE)
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype("DejaVuSans.ttf", 15)
    boxes = {"Check": (40, 220), "Act": (460, 220), "Wait": (150, 30)}
    for name, (x, y) in boxes.items():
        d.rounded_rectangle([x, y, x + 140, y + 80], radius=4, fill=(213, 231, 247), outline=(44, 136, 217), width=2)
        d.text((x + 70, y + 40), name, fill=INK, font=font, anchor="mm")
    corner = (200, 260)
    d.line([(corner[0], 110), corner], fill=LINE, width=4)  # Wait's line down to the corner
    d.line([corner, (448 if head_at_far_end else 460, 260)], fill=LINE, width=4)  # the leg on to Act
    d.line([(196, 260), corner], fill=LINE, width=4)
    d.polygon([(196, 252), (196, 268), (182, 260)], fill=LINE)  # Check's head, its base on the corner
    if head_at_far_end:
        d.polygon([(446, 252), (446, 268), (460, 260)], fill=LINE)
    return np.asarray(im)


def test_a_head_on_a_corner_parts_the_two_edges():
    fig = convert(_merged_leg(), Config(quality=False)).figure
    pairs = edge_pairs(fig)
    assert pairs.get(("Wait", "Check")) == 1
    assert pairs.get(("Check", "Act")) == 1
    assert ("Wait", "Act") not in pairs


def test_a_fan_in_keeps_both_edges_into_the_node():
    """No head at Act: the leg is a trunk two edges share into Check, and both stay edges into it."""
    fig = convert(_merged_leg(head_at_far_end=False), Config(quality=False)).figure
    assert edge_pairs(fig) == {("Wait", "Check"): 1, ("Act", "Check"): 1}
