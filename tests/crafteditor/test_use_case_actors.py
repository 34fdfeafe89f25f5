"""A use-case diagram's stick-figure actor is a node named by the name under it, and the connectors
drawn from its hand join it: its head was a nameless shape, its limbs lines, its name loose text, and
a connector starting at the hand (a head's width off the head) ended at no node."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from crafteditor import convert

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
INK = (60, 60, 60)


def _actor(d: ImageDraw.ImageDraw, cx: int, top: int, name: str, f: ImageFont.FreeTypeFont) -> None:
    d.ellipse((cx - 16, top, cx + 16, top + 32), fill=(218, 232, 252), outline=(108, 142, 191), width=2)
    limb = (108, 142, 191)
    d.line((cx, top + 32, cx, top + 80), fill=limb, width=2)  # spine
    d.line((cx - 30, top + 48, cx + 30, top + 48), fill=limb, width=2)  # arms
    d.line((cx, top + 80, cx - 28, top + 118), fill=limb, width=2)  # legs
    d.line((cx, top + 80, cx + 28, top + 118), fill=limb, width=2)
    d.text((cx - d.textlength(name, font=f) / 2, top + 128), name, fill=(0, 0, 0), font=f)


def _use_case(d: ImageDraw.ImageDraw, x: int, y: int, text: str, f: ImageFont.FreeTypeFont) -> None:
    d.ellipse((x, y, x + 220, y + 80), fill=(213, 232, 212), outline=(130, 179, 102), width=2)
    d.text((x + 110 - d.textlength(text, font=f) / 2, y + 28), text, fill=(0, 0, 0), font=f)


def _arrow(d: ImageDraw.ImageDraw, p: tuple[int, int], q: tuple[int, int]) -> None:
    d.line((*p, *q), fill=INK, width=2)
    dx, dy = q[0] - p[0], q[1] - p[1]
    n = (dx * dx + dy * dy) ** 0.5
    ux, uy = dx / n, dy / n
    d.polygon([q, (q[0] - 14 * ux + 6 * uy, q[1] - 14 * uy - 6 * ux), (q[0] - 14 * ux - 6 * uy, q[1] - 14 * uy + 6 * ux)],
              fill=INK)


def test_actor_joins_its_use_cases(tmp_path: Path) -> None:
    im = Image.new("RGB", (760, 420), "white")
    d = ImageDraw.Draw(im)
    f = ImageFont.truetype(FONT, 20)
    _actor(d, 90, 120, "Customer", f)
    _use_case(d, 420, 40, "Register", f)
    _use_case(d, 420, 260, "Login", f)
    _arrow(d, (124, 168), (424, 88))
    _arrow(d, (124, 178), (424, 296))
    im.save(tmp_path / "use_case.png")
    fig = convert(tmp_path / "use_case.png").figure
    names = {c.id: " ".join((c.label or "").split()) for c in fig.of_kind("node")}
    assert sorted((names.get(e.source), names.get(e.target)) for e in fig.of_kind("edge")) == [
        ("Customer", "Login"), ("Customer", "Register")]
