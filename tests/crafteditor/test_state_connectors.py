"""State-machine connectors (issue 31, the real set's C_cyclops_state-machine): a draw.io
transition's label sits on its line with a white background, and a label of two lines erases the
line under both of them."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from ce_helpers import png_bytes
from PIL import Image, ImageDraw, ImageFont

from crafteditor.assemble.joins import bridge_gaps
from crafteditor.convert import convert
from crafteditor.lines.paths import LinePath
from crafteditor.ocr.runs import TextRun
from crafter.spec.model import Edge, Node

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def _run(text: str, x: float, y: float, w: float, h: float) -> TextRun:
    return TextRun(text=text, x=x, y=y, w=w, h=h, angle=0, font_px=h, bold=False, color=(0, 0, 0),
                   confidence=1.0, baseline=y + h, glyphs=np.zeros((int(h), int(w)), bool))


def test_a_line_cut_by_a_two_line_label_is_joined_across_both_lines():
    """The gap runs from above the first line's box to below the second's: no one line's box
    holds both ends, the block of the two does."""
    labels = [_run("Nodes", 328, 432, 33, 15), _run("terminated", 316, 446, 56, 9)]
    lines = [LinePath(points=[(342.0, 600.0), (342.0, 459.5)], width=1.0, color=(0, 0, 0)),
             LinePath(points=[(342.0, 429.5), (342.0, 281.0)], width=1.0, color=(0, 0, 0))]
    out = bridge_gaps(lines, [], labels)
    assert len(out) == 1 and out[0].points[0] == (342.0, 600.0) and out[0].points[-1] == (342.0, 281.0)
    # two labels side by side on one row are no block: a line between them is left alone
    apart = [_run("left", 200, 440, 40, 12), _run("right", 300, 440, 40, 12)]
    assert len(bridge_gaps(lines, [], apart)) == 2


def _state_machine_png() -> bytes:
    """Three circled states down a page; each transition's label is drawn over its line on a
    white plate, the first one on two lines ('Nodes' / 'terminated'), as draw.io exports them."""
    img = Image.new("RGB", (520, 760), "white")
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 15)
    centres = {"Pending": (260, 90), "Waiting": (260, 370), "Failed": (260, 650)}
    for name, (cx, cy) in centres.items():
        d.ellipse([cx - 50, cy - 50, cx + 50, cy + 50], outline="black", width=2, fill="white")
        tw = d.textlength(name, font=font)
        d.text((cx - tw / 2, cy - 9), name, fill="black", font=font)

    def transition(y0: float, y1: float, lines: list[str]) -> None:
        d.line([(260, y0), (260, y1 - 12)], fill="black", width=2)
        d.polygon([(260, y1), (254, y1 - 13), (266, y1 - 13)], fill="black")
        mid = (y0 + y1) / 2 - 9 * len(lines)
        for k, text in enumerate(lines):
            tw = d.textlength(text, font=font)
            top = mid + 18 * k
            d.rectangle([260 - tw / 2 - 2, top - 1, 260 + tw / 2 + 2, top + 20], fill="white")
            d.text((260 - tw / 2, top), text, fill="black", font=font)

    transition(140, 320, ["Nodes", "terminated"])
    transition(420, 600, ["Any failure"])
    return png_bytes(np.asarray(img))


def test_a_transition_under_a_two_line_label_joins_its_states():
    fig = convert(_state_machine_png()).figure
    names = {c.id: c.label for c in fig.components if isinstance(c, Node)}
    pairs = {(names.get(e.source), names.get(e.target)) for e in fig.components if isinstance(e, Edge)}
    assert ("Pending", "Waiting") in pairs and ("Waiting", "Failed") in pairs


def _head_pixels(tip: tuple[float, float], half_width: float, length: float) -> np.ndarray:
    """The pixel centres of a filled head pointing down, its tip at ``tip``."""
    xs, ys = np.meshgrid(np.arange(tip[0] - half_width, tip[0] + half_width + 1),
                         np.arange(tip[1] - length, tip[1] + 1))
    inside = np.abs(xs - tip[0]) <= half_width * (tip[1] - ys) / length
    return np.stack([xs[inside], ys[inside]], axis=1).astype(np.float64) + 0.5


def test_a_curve_bending_into_a_wide_head_points_it_into_the_state():
    """A Mermaid transition curves down into its state; its head is wider than long, so the
    head's pixels lie along the wrong axis, and the curve's last stretch arrives 27° off. The
    chord from where the curve enters to the head's centre points the head down, at the state
    (G_daedalus_state-machine's executing -> changelog had its head turned sideways)."""
    from crafteditor.lines.paths import Arrowhead

    pixels = _head_pixels((928.0, 492.0), 19.0, 26.0)
    h = Arrowhead(tip=(928.0, 479.0), base=(928.0, 479.0), length=38.0, width=26.0, mask_box=(909, 466, 948, 493),
                  pixels=pixels, weights=np.ones(len(pixels)))
    direction, _ = h.axis((923.0, 440.0), (0.45, 0.89))
    assert direction == (0.0, 1.0)


def test_a_head_goes_to_its_line_not_to_a_sliver_of_its_rim():
    """Where a long line and a piece shorter than the head both end by it, the line takes the
    head, though the piece ends half a pixel nearer (daedalus' awaiting_hitl lost its incoming
    transition's head to an 8 px sliver)."""
    from crafteditor.lines.arrows import attach_heads
    from crafteditor.lines.paths import Arrowhead

    pixels = _head_pixels((214.0, 812.0), 12.0, 24.0)
    residual = np.zeros((900, 400), bool)
    residual[pixels[:, 1].astype(int), pixels[:, 0].astype(int)] = True
    h = Arrowhead(tip=(214.0, 800.0), base=(214.0, 800.0), length=29.0, width=25.0, mask_box=(201, 787, 227, 813),
                  pixels=pixels, weights=np.ones(len(pixels)))
    curve = LinePath(points=[(60.0, 700.0), (150.0, 760.0), (214.5, 787.1)], width=1.0, color=(0, 0, 0))
    sliver = LinePath(points=[(196.6, 794.5), (204.6, 794.5)], width=1.0, color=(0, 0, 0))
    attach_heads([curve, sliver], [h], 1.0, residual)
    assert curve.head_end is h and sliver.head_end is None and sliver.head_start is None


def _box(x: float, y: float, w: float, h: float):
    from crafteditor.shapes.detect import DetectedShape

    return DetectedShape(shape="box", x=x, y=y, w=w, h=h, fill=(255, 255, 224), stroke=(0, 0, 0), stroke_px=1.0,
                         iou=1.0, face=None)


def test_a_line_grazing_a_notes_corner_stays_one_line():
    """A PlantUML transition passes the corner of a note's box; the ring erased round the note's
    outline cut it there, and the two pieces had read as Running -> note -> Deleting. Pieces
    that run on away from the node are one line; a piece that goes into the node ends there."""
    from crafteditor.assemble.joins import join_grazed_corners

    note = _box(99.8, 497.0, 409.4, 56.0)
    into = LinePath(points=[(30.0, 520.0), (60.0, 535.0), (99.8, 549.5)], width=1.0, color=(20, 20, 20))
    onward = LinePath(points=[(103.0, 553.0), (300.0, 596.0), (528.0, 610.0)], width=1.0, color=(20, 20, 20))
    out = join_grazed_corners([into, onward], [note])
    assert len(out) == 1 and out[0].points[0] == (30.0, 520.0) and out[0].points[-1] == (528.0, 610.0)
    inward = LinePath(points=[(103.0, 551.0), (200.0, 530.0), (300.0, 520.0)], width=1.0, color=(20, 20, 20))
    assert len(join_grazed_corners([into, inward], [note])) == 2


def test_two_lines_meeting_a_fork_bar_from_opposite_sides_stay_two():
    """A UML fork bar 6 px thick: a line into it from the left and one out of it to the right meet it
    from opposite sides; they cross no corner and are two edges through the bar, never one past it."""
    from crafteditor.assemble.joins import join_grazed_corners

    bar = _box(197.0, 100.0, 6.0, 120.0)
    left = LinePath(points=[(60.0, 160.0), (194.0, 160.0)], width=2.0, color=(20, 20, 20))
    right = LinePath(points=[(206.0, 160.0), (340.0, 160.0)], width=2.0, color=(20, 20, 20))
    assert len(join_grazed_corners([left, right], [bar])) == 2


def test_the_faint_rim_of_erased_text_is_no_line():
    """Where text was erased, its glyphs' anti-aliased rim can stay in the ink mask; traced, it
    made lines of a near-white paint (#F4F4F4 on white) that read as edges from a state to its
    caption (C_tf-community_async-pipeline: Eg -> 'ExampleGen' twice). A drawn stroke is kept."""
    from crafteditor.lines.detect import detect_lines

    rgb = np.full((200, 220, 3), 255, np.uint8)
    residual = np.zeros((200, 220), bool)
    rgb[99:101, 20:200] = 244  # the rim: in the mask, but hardly off the canvas
    rgb[149:151, 20:200] = 60  # a stroke
    residual[99:101, 20:200] = True
    residual[149:151, 20:200] = True
    lines, _ = detect_lines(rgb, residual, np.array([255.0, 255.0, 255.0]))
    assert len(lines) == 1 and all(abs(y - 150) <= 1.5 for _, y in lines[0].points)


def test_a_pale_grey_connector_is_still_a_line():
    """The faint-rim rule drops only paint within a tint of the canvas: a pale connector drawn #E0E0E0 (a
    light guide, a disabled link) is a line."""
    from crafteditor.lines.detect import detect_lines

    rgb = np.full((200, 220, 3), 255, np.uint8)
    residual = np.zeros((200, 220), bool)
    rgb[99:101, 20:200] = 224
    residual[99:101, 20:200] = True
    lines, _ = detect_lines(rgb, residual, np.array([255.0, 255.0, 255.0]))
    assert len(lines) == 1


def test_a_dotted_link_cut_by_its_label_is_joined_though_its_halves_read_in_two_greys():
    """Mermaid's dotted link either side of its label ('export'): the short half's antialiased dots read #888,
    the long half's #666 on a white page (59 apart), one ink blended with the page in different shares. It had
    come back as two edges to the label. Links of two inks are not joined so."""
    label = [_run("export", 150, 304, 50, 20)]
    halves = [LinePath(points=[(175.0, 278.0), (175.0, 298.0)], width=3.3, color=(136, 136, 136)),
              LinePath(points=[(176.0, 327.0), (175.0, 349.0)], width=3.3, color=(102, 102, 102))]
    out = bridge_gaps(halves, [], label, page=(255, 255, 255))
    assert len(out) == 1 and {out[0].points[0], out[0].points[-1]} == {(175.0, 278.0), (175.0, 349.0)}
    red_blue = [replace(halves[0], color=(220, 60, 60)), replace(halves[1], color=(60, 60, 220))]
    assert len(bridge_gaps(red_blue, [], label, page=(255, 255, 255))) == 2
