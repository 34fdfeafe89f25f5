"""Fewer, whole objects (issue 31): a sparse dashed line's dashes, which the line finder leaves
apart, come back as one path per row, drawn as before; a stroke's page-coloured rim, read as a
line of its own, is dropped."""

from __future__ import annotations

import io
from types import SimpleNamespace

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from crafteditor.assemble.dashes import dash_rows
from crafteditor.assemble.faint import drop_page_coloured
from crafteditor.config import Config
from crafteditor.convert import convert
from crafter.spec.model import Path

GREY = "#5E5E5E"
FREE: dict[str, list[tuple[float, float]]] = {}  # each test segment's points, by id (FigureBuilder.free_points)


def _seg(i: int, x0: float, y0: float, x1: float, y1: float, stroke: str = GREY, width: float = 3.0) -> Path:
    """A free line as leftovers.free_line writes it (no heads), its points kept by id."""
    FREE[f"p{i}"] = [(x0, y0), (x1, y1)]
    return Path(kind="path", id=f"p{i}", d=f"M{x0:.2f},{y0:.2f} L{x1:.2f},{y1:.2f}", fill="none", stroke=stroke,
                stroke_width=width)


def test_a_row_of_dashes_is_one_path_and_nothing_else_moves():
    row = [_seg(i, 100 + 37 * i, 50.5, 115 + 37 * i, 50.5) for i in range(6)]  # dash 15, gap 22
    long_line = _seg(10, 100, 200, 600, 200)  # solid, too long for a dash
    pair = [_seg(11, 100, 300, 115, 300), _seg(12, 137, 300, 152, 300)]  # two dashes are no pattern
    red = [_seg(20 + i, 100 + 37 * i, 400, 115 + 37 * i, 400, stroke="#FF0000") for i in range(2)]
    comps = [long_line, *row[:3], pair[0], *row[3:], pair[1], *red]
    out = dash_rows(comps, FREE)
    ids = [c.id for c in out]
    assert ids == ["p10", "p0", "p11", "p12", "p20", "p21"]
    merged = out[1]
    assert merged.d == " ".join(c.d for c in row) and merged.stroke == GREY and merged.stroke_width == 3.0


def test_dashes_far_apart_or_unlike_stay_apart():
    spread = [_seg(i, 100 + 100 * i, 50, 115 + 100 * i, 50) for i in range(4)]  # gaps of 85: no row
    mixed = [_seg(10 + i, 100 + 37 * i, 90, (115 if i % 2 else 140) + 37 * i, 90) for i in range(4)]
    assert [c.id for c in dash_rows(spread + mixed, FREE)] == [c.id for c in spread + mixed]


def _dashed_frame_figure(dash: int = 15, gap: int = 22, width: int = 3) -> bytes:
    """Two labelled boxes in a frame dashed sparsely (MLP-Mixer's 'Mixer Layer' frame: dashes
    shorter than the gaps between them)."""
    im = Image.new("RGB", (900, 420), "white")
    dr = ImageDraw.Draw(im)
    font = ImageFont.truetype("DejaVuSans.ttf", 22)
    for x, label in ((120, "Encoder"), (520, "Decoder")):
        dr.rectangle((x, 160, x + 220, 240), outline=(40, 40, 40), width=3)
        dr.text((x + 110, 200), label, fill=(20, 20, 20), font=font, anchor="mm")
    x0, y0, x1, y1 = 40, 60, 860, 360
    for a, b, fixed, horizontal in ((x0, x1, y0, True), (x0, x1, y1, True), (y0, y1, x0, False), (y0, y1, x1, False)):
        t = a
        while t < b:
            e = min(b, t + dash)
            dr.line(((t, fixed), (e, fixed)) if horizontal else ((fixed, t), (fixed, e)), fill=(94, 94, 94), width=width)
            t = e + gap
    buf = io.BytesIO()
    im.save(buf, format="PNG", dpi=(96, 96))
    return buf.getvalue()


def test_a_sparsely_dashed_frame_is_a_few_paths_not_one_per_dash():
    conv = convert(_dashed_frame_figure(), Config())
    frame = [c for c in conv.figure.components if c.kind == "path" and c.stroke == GREY]
    dashes = sum(c.d.count("M") for c in frame)
    assert dashes >= 50  # every dash is drawn (22 + 22 + 8 + 8 drawn, corners may join)
    assert len(frame) <= 8  # a row per side, and the corners (were one path per dash)
    assert conv.report["ssim"] >= 0.95


def test_a_page_coloured_rim_beside_a_stroke_is_dropped_but_faint_lines_and_dividers_stay():
    rgb = np.full((300, 400, 3), 255, np.uint8)
    rgb[50:53, 20:380] = 30  # a dark arrow shaft
    rgb[200:260, 20:380] = (40, 60, 120)  # a dark header
    b = SimpleNamespace(s=1.0, image=SimpleNamespace(rgb=rgb), paints=SimpleNamespace(background_rgb=np.array([255, 255, 255])),
                        free_points=FREE)
    rim = _seg(1, 20, 55.5, 380, 55.5, stroke="#F2F2F2", width=2.0)  # the shaft's rim: ink above, page below
    gridline = _seg(2, 20, 150, 380, 150, stroke="#F0F0F2", width=1.0)  # faint, the page on both sides
    divider = _seg(3, 20, 230, 380, 230, stroke="#FFFFFF", width=2.0)  # white across the header
    shaft = _seg(4, 20, 51.5, 380, 51.5, stroke="#1E1E1E", width=3.0)
    assert [c.id for c in drop_page_coloured(b, [rim, gridline, divider, shaft])] == ["p2", "p3", "p4"]


def test_a_lines_dots_narrower_than_1_8_widths_are_not_drawn_wider_dots_are():
    """A thin curve's 'markers' (a speck at each vertex, 1.2 px on a 0.74 px line, as their paint's pixels
    and the line's skeleton measure them) drew a circle per data point that nobody sees; dot markers 2.2 line
    widths wide are real and stay, drawn at their drawn size."""
    from crafteditor.charts.style import ChartStyle, specks

    def point_after(diameter: float, line: float):
        spec = {"mark": {"type": "line", "point": True}}
        core = 3.14159 * (diameter / 2) ** 2
        ChartStyle(marker_area=core * 1.3, line_width=line * 1.2, specks=specks(core, line))._apply_marks(spec, 1.0)
        return spec["mark"]["point"]

    assert point_after(1.2, 0.74) is False
    assert point_after(6.6, 3.0) == {"size": 44.48}
