"""A line drawn over a borderless tinted band is a line, not the band's outline (draw.io's org charts
and swimlanes). A trunk running down through the band walls its face off; the faces either side are
read as frames whose stroke is the trunk, and their rings had erased it for the band's height: every
child under it lost its parent (its edges came back from a nameless frame). A frame outlined all round
keeps its outline (no loose path along its sides)."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from crafteditor import convert

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
LINE = (77, 77, 77)


def _box(d: ImageDraw.ImageDraw, x: int, y: int, text: str, w: int = 220, h: int = 60) -> None:
    f = ImageFont.truetype(FONT, 20)
    d.rounded_rectangle((x, y, x + w, y + h), 8, fill=(243, 243, 243))
    d.text((x + (w - d.textlength(text, font=f)) / 2, y + h / 2 - 12), text, fill=(30, 60, 110), font=f)


def _arrow(d: ImageDraw.ImageDraw, x0: int, y0: int, x1: int, y1: int) -> None:
    """A horizontal or vertical arrow, its head at (x1, y1)."""
    d.line((x0, y0, x1, y1), fill=LINE, width=4)
    if y0 == y1:
        d.polygon([(x1, y1), (x1 - 12, y1 - 7), (x1 - 12, y1 + 7)], fill=LINE)
    else:
        d.polygon([(x1, y1), (x1 - 7, y1 - 12), (x1 + 7, y1 - 12)], fill=LINE)


def _edges(path: Path) -> list[tuple[str, str]]:
    fig = convert(path).figure
    names = {c.id: (c.label or "").replace("\n", " ") for c in fig.of_kind("node")}
    return sorted((names.get(e.source, e.source), names.get(e.target, e.target)) for e in fig.of_kind("edge"))


def test_trunk_through_a_tinted_band_joins_its_children(tmp_path: Path) -> None:
    im = Image.new("RGB", (760, 600), "white")
    d = ImageDraw.Draw(im)
    _box(d, 290, 20, "Research", w=200)
    d.rectangle((20, 120, 740, 460), fill=(204, 204, 204))  # the band: no outline
    d.line((390, 80, 390, 540), fill=LINE, width=4)  # the trunk, down through the band
    for i, (left, right) in enumerate([("Programming", "HTTP"), ("Client Server", "Knowhow"), ("Testing", "Release")]):
        y = 140 + i * 110
        _box(d, 60, y, left)
        _box(d, 480, y, right)
        _arrow(d, 390, y + 30, 478, y + 30)
    _box(d, 290, 530, "Data Collection", w=200)
    _arrow(d, 390, 500, 390, 528)
    im.save(tmp_path / "org.png")
    assert _edges(tmp_path / "org.png") == [("Research", "Data Collection"), ("Research", "HTTP"),
                                             ("Research", "Knowhow"), ("Research", "Release")]


def test_outlined_frame_keeps_its_outline(tmp_path: Path) -> None:
    im = Image.new("RGB", (640, 320), "white")
    d = ImageDraw.Draw(im)
    d.rectangle((20, 20, 620, 300), fill=(230, 236, 245), outline=LINE, width=3)  # a group, outlined all round
    _box(d, 60, 130, "Reader")
    _box(d, 360, 130, "Writer")
    _arrow(d, 282, 160, 358, 160)
    im.save(tmp_path / "frame.png")
    fig = convert(tmp_path / "frame.png").figure
    assert _edges(tmp_path / "frame.png") == [("Reader", "Writer")]
    assert len(fig.of_kind("group")) == 1 and not fig.of_kind("path")
