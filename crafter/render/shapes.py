"""Node shapes: SVG outline elements for each shape, and where the label sits inside.

Every shape fills the node's box exactly (its bounding box is the layout box), so layout,
critique and rendering agree on where a node is. Proportions are tuned for nodes of
30–60 px height with 9 pt labels: small rims and offsets that read at print size.
"""

from __future__ import annotations

from dataclasses import dataclass

from crafter.base.geometry import (
    TRAPEZOIDS,
    cylinder_rim,
    document_wave,
    outline_polygon,
    stack_offset,
)
from crafter.base.markup import esc_attr, num
from crafter.spec.model import Box


@dataclass(frozen=True)
class Paint:
    fill: str
    stroke: str
    width: float
    dash: str | None = None  # stroke-dasharray, or None for solid

    def attrs(self) -> str:
        out = f'fill="{esc_attr(self.fill)}" stroke="{esc_attr(self.stroke)}" stroke-width="{num(self.width)}"'
        if self.dash:
            out += f' stroke-dasharray="{self.dash}"'
        return out


def dash_array(style: str, width: float) -> str | None:
    """stroke-dasharray for a dash style, scaled to the line width."""
    if style == "dashed":
        return f"{num(4 * width + 1)},{num(2.5 * width + 0.5)}"
    if style == "dotted":
        return f"{num(max(width, 0.8))},{num(2 * width + 0.5)}"
    return None


def round_rect_d(x: float, y: float, w: float, h: float, r: float) -> str:
    """A closed rounded rectangle as path data, clockwise from the top left."""
    return (f"M{num(x + r)},{num(y)} H{num(x + w - r)} A{num(r)},{num(r)} 0 0 1 {num(x + w)},{num(y + r)} "
            f"V{num(y + h - r)} A{num(r)},{num(r)} 0 0 1 {num(x + w - r)},{num(y + h)} H{num(x + r)} "
            f"A{num(r)},{num(r)} 0 0 1 {num(x)},{num(y + h - r)} V{num(y + r)} "
            f"A{num(r)},{num(r)} 0 0 1 {num(x + r)},{num(y)} Z")


def _poly(points: list[tuple[float, float]], paint: Paint) -> str:
    pts = " ".join(f"{num(x)},{num(y)}" for x, y in points)
    return f'<polygon points="{pts}" {paint.attrs()} stroke-linejoin="round"/>'


def shape_svg(shape: str, b: Box, paint: Paint, corner_radius: float) -> tuple[str, Box]:
    """(SVG elements of the outline, the box the label is centred in)."""
    x, y, w, h = b.x, b.y, b.w, b.h
    a = paint.attrs()
    if shape == "round":
        r = min(corner_radius, h / 2, w / 2)
        return f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}" rx="{num(r)}" {a}/>', b
    if shape == "ellipse":
        return (f'<ellipse cx="{num(b.cx)}" cy="{num(b.cy)}" rx="{num(w / 2)}" ry="{num(h / 2)}" {a}/>', b)
    if shape == "circle":
        return f'<circle cx="{num(b.cx)}" cy="{num(b.cy)}" r="{num(min(w, h) / 2)}" {a}/>', b
    if shape in ("diamond", "parallelogram", "hexagon", *TRAPEZOIDS):
        return _poly(outline_polygon(shape, b) or [], paint), b
    if shape == "cylinder":
        ry = cylinder_rim(w, h)
        rx = w / 2
        body = (f"M{num(x)},{num(y + ry)} L{num(x)},{num(y + h - ry)} "
                f"A{num(rx)},{num(ry)} 0 0 0 {num(x + w)},{num(y + h - ry)} L{num(x + w)},{num(y + ry)} "
                f"A{num(rx)},{num(ry)} 0 0 0 {num(x)},{num(y + ry)} Z")
        # the lid's front rim is an open subpath of the same path (one element per node): it
        # winds like the body, so the fill it implies (closed by its chord) lies inside the
        # body's under the nonzero rule, and an open subpath's stroke leaves the chord undrawn
        rim = f"M{num(x)},{num(y + ry)} A{num(rx)},{num(ry)} 0 0 0 {num(x + w)},{num(y + ry)}"
        svg = f'<path d="{body} {rim}" {a}/>'
        return svg, Box(x=x, y=y + 2 * ry, w=w, h=max(h - 3 * ry, 0))
    if shape == "document":
        amp = document_wave(h)
        base = y + h - amp
        d = (f"M{num(x)},{num(y)} L{num(x + w)},{num(y)} L{num(x + w)},{num(base)} "
             f"C{num(x + w * 0.75)},{num(base - 2 * amp)} {num(x + w * 0.6)},{num(base - 1.2 * amp)} "
             f"{num(x + w / 2)},{num(base)} "
             f"C{num(x + w * 0.35)},{num(base + 1.6 * amp)} {num(x + w * 0.2)},{num(base + 1.6 * amp)} "
             f"{num(x)},{num(base)} Z")
        return f'<path d="{d}" {a} stroke-linejoin="round"/>', Box(x=x, y=y, w=w, h=max(h - amp, 0))
    if shape == "stack":
        off = stack_offset(w, h)
        r = min(2.0, h / 4)
        sw, sh = w - 2 * off, h - 2 * off  # one sheet
        label = Box(x=x, y=y + 2 * off, w=sw, h=sh)
        if paint.fill == "none":
            # nothing hides the sheets behind: each is a whole outline
            parts = [f'<rect x="{num(x + k * off)}" y="{num(y + (2 - k) * off)}" width="{num(sw)}" '
                     f'height="{num(sh)}" rx="{num(r)}" {a}/>' for k in (2, 1, 0)]
            return "".join(parts), label
        # One path (one element per node, as the cylinder): the front sheet closed, then what
        # shows of each sheet behind as an open subpath from where its left side comes out
        # above the sheet in front to where its bottom goes under it. Every subpath winds
        # clockwise, so the fills they imply overlap without holes (nonzero rule); strokes are
        # painted after all fills, so no hidden outline shows through the front sheet.
        d = [round_rect_d(x, y + 2 * off, sw, sh, r)]
        for k in (1, 2):
            x0, y0 = x + k * off, y + (2 - k) * off  # sheet k's top left
            d.append(f"M{num(x0)},{num(y0 + off)} V{num(y0 + r)} A{num(r)},{num(r)} 0 0 1 {num(x0 + r)},{num(y0)} "
                     f"H{num(x0 + sw - r)} A{num(r)},{num(r)} 0 0 1 {num(x0 + sw)},{num(y0 + r)} "
                     f"V{num(y0 + sh - r)} A{num(r)},{num(r)} 0 0 1 {num(x0 + sw - r)},{num(y0 + sh)} "
                     f"H{num(x0 - off + sw)}")
        return f'<path d="{" ".join(d)}" {a}/>', label
    # box
    return f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}" {a}/>', b
