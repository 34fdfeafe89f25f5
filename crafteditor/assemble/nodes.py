"""Nodes: a detected shape with the text inside it as its label, in the theme's terms."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import numpy as np

from crafteditor.assemble.builder import FigureBuilder, hex_rgb
from crafteditor.assemble.circled import operator_font_size, operator_glyph
from crafteditor.config import THEME
from crafteditor.ocr.runs import TextRun
from crafteditor.paint import color_distance, to_hex
from crafteditor.shapes.compartments import badge_letter, member_text
from crafteditor.shapes.detect import DetectedShape
from crafter.base.rules import label_pad_x
from crafter.base.text import text_width
from crafter.spec.model import Node, Path

# A label fitted to its box (:func:`node_component`) is written no smaller than this many user units, or than
# FIT_SHARE of its read size where that is smaller. An absolute floor alone re-wrapped small print: a README's
# Mermaid flowchart at 1x sets its labels at 6 px, and 'Closed' (read at 6 px in a box 33 units wide, 17 of
# them the renderer's room) needed 4.7 px; held at 6 it broke into 'Close' / 'd', and the word was lost
FIT_FLOOR = 6.0
FIT_SHARE = 0.7


def shape_labels(runs: list[TextRun], shapes: list[DetectedShape], used: set[int]) -> dict[int, list[int]]:
    """Text runs whose centre lies in a node (the smallest), or in a group's top band."""
    out: dict[int, list[int]] = {}
    order = sorted(range(len(shapes)), key=lambda i: shapes[i].w * shapes[i].h)
    for k, r in enumerate(runs):
        if k in used:
            continue
        for i in order:
            s = shapes[i]
            if not s.contains_point(r.cx, r.cy):
                continue
            if s.is_group:
                # a group's label sits in its top band, clear of its members
                band = max(3.0 * r.h, 0.25 * s.h) if s.h < 6 * r.h else 2.5 * r.h
                if r.cy - s.y <= band and r.angle == 0 and not any(
                        shapes[m].contains_point(r.cx, r.cy, margin=2) for m in s.members):
                    out.setdefault(i, []).append(k)
                    used.add(k)
                break
            if _off_diamond(r, s):
                break  # a decision's 'yes' set by its lower corner, in its box but off the diamond: the edge's
            inside_w = min(r.right, s.x + s.w) - max(r.x, s.x)
            if inside_w >= 0.85 * r.w and r.y >= s.y - 2 and r.bottom <= s.y + s.h + 2:
                out.setdefault(i, []).append(k)
                used.add(k)
            break
    for i in out:
        out[i].sort(key=lambda k: (runs[k].y, runs[k].x))
        held = [runs[k] for k in out[i]]
        for k in [k for k in out[i] if badge_letter(runs[k], shapes[i], held)]:  # an icon's letter: free text
            out[i].remove(k)
            used.discard(k)
        for k in out[i]:
            if (text := member_text(runs[k], shapes[i])) is not None:
                runs[k] = replace(runs[k], text=text, marked=None)
    return out


def _off_diamond(r: TextRun, s: DetectedShape) -> bool:
    """Whether run ``r`` lies off diamond ``s`` though in its box: no point of the run's box lies within
    the diamond (shrunk by a pixel), as an edge's 'yes' or 'no' set by the corner a branch leaves from.
    draw.io sets a decision's words over its sides where they are wider (its words cross the outline:
    they are its label); a 'yes' in the box's corner was read into it ('force resync after
    MinReadySeconds? yes', issue 31) and the branch's label was lost."""
    if s.shape != "diamond" or s.w <= 0 or s.h <= 0:
        return False
    cx, cy, hw, hh = s.x + s.w / 2, s.y + s.h / 2, s.w / 2 - 1, s.h / 2 - 1
    # the run's box point nearest the centre
    nx, ny = min(max(cx, r.x), r.right), min(max(cy, r.y), r.bottom)
    return abs(nx - cx) / hw + abs(ny - cy) / hh > 1.0


def label_lines(lab: list[TextRun]) -> list[tuple[str, float]]:
    """A label's lines (text, centre y), top to bottom: runs side by side on one line (their
    heights overlap by half) joined left to right, with a space unless they touch ('LR_' and a
    '1' the recogniser read apart came back as two lines, '1' above 'LR_', sorted by their tops)."""
    rows: list[list[TextRun]] = []
    for r in sorted(lab, key=lambda q: q.cy):
        row = rows[-1] if rows else None
        if row is not None and min(r.bottom, row[-1].bottom) - max(r.y, row[-1].y) >= 0.5 * min(r.h, row[-1].h) \
                and r.angle == row[-1].angle == 0:
            row.append(r)
        else:
            rows.append([r])
    out = []
    for row in rows:
        row.sort(key=lambda q: q.x)
        text = row[0].shown
        for a, b in zip(row, row[1:]):
            text += ("" if b.x - a.right < 0.15 * max(a.font_px, b.font_px) else " ") + b.shown
        out.append((text, float(np.mean([q.cy for q in row]))))
    return out


def label_text(lab: list[TextRun]) -> str:
    return "\n".join(t for t, _ in label_lines(lab))


def node_component(b: FigureBuilder, cid: str, s: DetectedShape, lab: list[TextRun], in_place: bool = False) -> Node:
    """``in_place``: the label's lines stay where they were read (a caption under or over its
    shape, :mod:`crafteditor.assemble.icons`)."""
    kw: dict[str, Any] = {}
    box = b.box(s.x, s.y, s.w, s.h)
    if lab:
        lines = label_lines(lab)
        kw["label"] = "\n".join(t for t, _ in lines)
        fs = float(np.median([r.font_px for r in lab])) * b.s
        # the theme's size stands in for one within 0.4 px of it; either way the renderer
        # must not re-wrap a line the original fitted on one line (it breaks at the box's
        # width less the padding), so a size that would not fit is written down, fitted
        shown = round(fs, 1) if abs(fs - THEME.font_size) > 0.4 else THEME.font_size
        widest = max(text_width(t, 1.0, bold=all(q.bold for q in lab)) for t, _ in lines)
        # the renderer breaks at the box's width less the padding, or at one em where that is
        # less (crafter.base.rules.wrap_width): a circled 'N' 23 px wide fits at its own size
        # (it had been shrunk to 6 px, a dot)
        room = box.w - 2 * label_pad_x(box.w, THEME)
        if widest > 0 and widest * shown > max(room, shown):
            shown = max(min(FIT_FLOOR, FIT_SHARE * shown), math.floor((room / widest - 0.01) * 10) / 10)
        if shown != THEME.font_size:
            kw["font_size"] = shown
        if s.dividers or in_place:
            kw["label"] = slotted_label(lines, box.y + box.h / 2, shown * THEME.line_height, b.s)
        if all(r.bold for r in lab):
            kw["bold"] = True
        if len(lab) == 1 and (spacing := lab[0].spacing_at(shown / b.s)) is not None:  # one line, as wide as its ink
            kw["letter_spacing"] = round(spacing * b.s, 2)
        fonts = [r.font for r in lab if r.font]  # the lines long enough to tell
        top = max(fonts, key=fonts.count) if fonts else None
        if top in ("serif", "mono") and fonts.count(top) * 2 > len(fonts):  # most of them
            kw["font"] = top
        col = lab[0].color
        # a caption outside its shape is not on its fill: its colour is written down whatever it is
        if in_place or color_distance(col, hex_rgb(THEME.text_color)) > 40:
            kw["text_color"] = to_hex(col)
    elif not in_place and (op := operator_glyph(b.image.rgb, s)) is not None:
        # an operator circle's lone symbol, which the recogniser does not read (⊙, +, ×)
        kw["label"] = op[0]
        kw["font_size"] = operator_font_size(op[0], op[1], b.s)
        b.chars_kept += 1
    else:
        kw["label"] = ""
    fill = b.color_or_none(s.fill, THEME.node_fill)
    if s.dividers:  # a class box: its fill is drawn behind its dividers (divider_paths), nodes go on top
        fill = "none"
    if fill:
        kw["fill"] = fill
    if s.stroke is None:
        kw["stroke"] = "none"
    else:
        st = b.color_or_none(s.stroke, THEME.node_stroke, thin=True)
        if st:
            kw["stroke"] = st
        sw = s.stroke_px * b.s
        if abs(sw - THEME.stroke_width) > 0.3:
            kw["stroke_width"] = round(sw, 1)
    # a requested width stops the renderer re-wrapping the label at 150 px
    return Node(kind="node", id=cid, shape=s.shape, box=box, pinned=True, width=box.w or None,
                height=box.h or None, **kw)


def slotted_label(lab: list[tuple[str, float]], cy: float, lh: float, scale: float) -> str:
    """A class box's lines, each in the slot of the renderer's centred block nearest its place,
    the slots between left empty: its name stays above the first divider, its attributes
    between the dividers (one block of lines centred in the box crossed them)."""
    at = [y * scale - cy for _, y in lab]  # each line's centre, from the box's centre
    best: tuple[float, list[int], float] | None = None
    for half in (0.0, 0.5):  # an odd block has a line on the centre, an even one a gap
        slots: list[int] = []
        for a in at:
            m = int(math.floor(a / lh - half + 0.5))
            slots.append(max(m, slots[-1] + 1) if slots else m)
        err = sum(abs((m + half) * lh - a) for m, a in zip(slots, at))
        if best is None or err < best[0]:
            best = (err, slots, half)
    assert best is not None
    _, slots, half = best
    # the block runs from -reach to +reach (shifted half a line for an even block): symmetric about the centre
    lo, hi = min(slots), max(slots)
    reach_lo, reach_hi = (-hi - 1, -lo - 1) if half else (-hi, -lo)
    first, last = min(lo, reach_lo), max(hi, reach_hi)
    lines = [""] * (last - first + 1)
    for (text, _), m in zip(lab, slots):
        lines[m - first] = text
    return "\n".join(lines)


def divider_paths(b: FigureBuilder, s: DetectedShape) -> list[Path]:
    """A class box's fill and its compartment dividers in its stroke: paths are drawn under
    the nodes, so the node itself is left unfilled over them."""
    if not s.dividers:
        return []
    box = b.box(s.x, s.y, s.w, s.h)
    x0, x1 = box.x, round(box.x + box.w, 2)
    out = [Path(kind="path", id=b.new_id("p"), d=f"M{x0} {box.y} H{x1} V{round(box.y + box.h, 2)} H{x0} Z",
                fill=to_hex(s.fill))]
    if s.stroke is not None:
        out += [Path(kind="path", id=b.new_id("p"), d=f"M{x0} {b.pt((0.0, y)).y} H{x1}", fill="none",
                     stroke=to_hex(s.stroke), stroke_width=round(max(0.5, s.stroke_px * b.s), 1)) for y in s.dividers]
    return out


def chain_links(b: FigureBuilder, runs: list[TextRun], targets: dict[int, str], edges: list[Any]) -> set[int]:
    """The labels of ``targets`` (their ids by run) a chain of arrows runs through: an arrow's head points
    into it and another arrow leaves it for a head elsewhere, the two meeting it on opposite sides (a
    port's name at the ends of undirected links is no link; a line cut in two beside a port's name meets
    it on one side)."""
    into: dict[str, list[tuple[float, float]]] = {}
    out_of: dict[str, list[tuple[float, float]]] = {}
    for e in edges:
        if getattr(e, "head", "none") == "none" or not getattr(e, "route", None):
            continue
        into.setdefault(e.target, []).append((e.route[-1].x, e.route[-1].y))
        out_of.setdefault(e.source, []).append((e.route[0].x, e.route[0].y))
    out = set()
    for k, cid in targets.items():
        r = runs[k]
        c = b.pt((r.cx, r.cy))
        if r.angle == 0 and any((p[0] - c.x) * (q[0] - c.x) + (p[1] - c.y) * (q[1] - c.y) < 0
                                for p in into.get(cid, []) for q in out_of.get(cid, [])):
            out.add(k)
    return out


def text_nodes(b: FigureBuilder, runs: list[TextRun], targets: dict[int, str], edges: list[Any],
               used: set[int], nodes: list[Any] = ()) -> list[Node]:  # type: ignore[assignment]
    """Labels without an outline that an arrow points into and another leaves, as nodes drawn without a
    fill or an outline: a TikZ chain's borderless ``a(x)`` between its layers, a commutative
    diagram's bare terms (janosh/diagrams, issue 31: the arrows were kept, to texts, and the terms
    never counted as the graph's nodes). A label arrows only end at (a free end's 'real?') stays text.
    A label beside a node (within twice its height of the node's box: a port's name by its device) stays
    text. ``nodes``: the nodes found so far. The runs made nodes are added to ``used``."""
    out = []
    links = chain_links(b, runs, targets, edges)
    for k, cid in targets.items():
        r = runs[k]
        if k in used or k not in links:
            continue
        near = b.box(r.x - 2 * r.h, r.y - 2 * r.h, r.w + 4 * r.h, r.h * 5)
        if any(n.box is not None and near.x < n.box.x + n.box.w and n.box.x < near.x + near.w
               and near.y < n.box.y + n.box.h and n.box.y < near.y + near.h for n in nodes):
            continue
        pad = 0.25 * r.h
        kw: dict[str, Any] = {"font_size": round(r.font_px * b.s, 1)}
        if r.font in ("serif", "mono"):
            kw["font"] = r.font
        if r.bold:
            kw["bold"] = True
        if color_distance(r.color, hex_rgb(THEME.text_color)) > 40:
            kw["text_color"] = to_hex(r.color)
        box = b.box(r.x - pad, r.y - pad, r.w + 2 * pad, r.h + 2 * pad)
        # wide enough that the renderer sets the label on one line, as it stood (it breaks at the
        # box's width less the padding), about the label's centre
        need = text_width(r.text, kw["font_size"], bold=r.bold) + 2 * THEME.node_pad_x + 2
        if need > box.w:
            box = box.model_copy(update={"x": round(box.x - (need - box.w) / 2, 2), "w": round(need, 2)})
        out.append(Node(kind="node", id=cid, shape="box", box=box, pinned=True, width=box.w or None,
                        height=box.h or None, label=r.shown, fill="none", stroke="none", **kw))
        used.add(k)
        b.chars_kept += len(r.text.replace(" ", ""))
    return out
