"""Groups: a frame around nodes, titled by the text in its top band, holding the members it
directly contains."""

from __future__ import annotations

import numpy as np

from crafteditor.assemble.builder import FigureBuilder, hex_rgb
from crafteditor.config import THEME
from crafteditor.ocr.runs import TextRun
from crafteditor.paint import color_distance, to_hex
from crafteditor.shapes.detect import DetectedShape
from crafter.spec.model import Group


def group_components(b: FigureBuilder, runs: list[TextRun], shapes: list[DetectedShape],
                     labels: dict[int, list[int]], node_ids: dict[int, str]) -> list[Group]:
    """One group per frame among ``shapes``; each frame's id is added to ``node_ids`` (edges
    may end on a frame), after the nodes' ids, which must all be there."""
    group_comps = []
    for i, s in enumerate(shapes):
        if not s.is_group:
            continue
        lab = labels.get(i, [])
        text = " ".join(runs[k].shown for k in lab) if lab else None
        cid = b.new_id("g", text)
        node_ids[i] = cid
        b.chars_kept += sum(len(runs[k].text.replace(" ", "")) for k in lab)
        fs = round(float(np.median([runs[k].font_px for k in lab])) * b.s, 1) if lab else None
        group_comps.append((i, cid, s, text, fs if fs and abs(fs - THEME.group_font_size) > 0.4 else None,
                            _title_look(b, [runs[k] for k in lab])))
    # direct containment: each member belongs to the smallest group around it
    parent: dict[int, int] = {}
    for gi, _, g, *_ in sorted(group_comps, key=lambda t: -(t[2].w * t[2].h)):
        for m in _inside(shapes, gi):
            if m not in parent or shapes[parent[m]].w * shapes[parent[m]].h > g.w * g.h:
                parent[m] = gi
    out = []
    for gi, cid, g, text, fs, look in group_comps:
        members = [node_ids[m] for m in sorted(node_ids) if parent.get(m) == gi]
        out.append(Group(
            kind="group", id=cid, label=text, members=members, box=b.box(g.x, g.y, g.w, g.h), pinned=True,
            fill=b.color_or_none(g.fill, THEME.group_fill),
            stroke=b.color_or_none(g.stroke, THEME.group_stroke, thin=True),
            style=g.dashed,  # type: ignore[arg-type]
            font_size=fs,  # the title's own size, as nodes keep theirs
            stroke_width=_frame_width(b, g), **look,
        ))
    return out


def _inside(shapes: list[DetectedShape], gi: int) -> list[int]:
    """The frame ``shapes[gi]``'s members that are still inside it and smaller: a member list carried
    through a step that dropped or reordered shapes can name the frame itself (a handDrawn Mermaid
    flowchart's subgraph listed itself, and the whole figure failed to build) or a shape elsewhere."""
    g = shapes[gi]
    out = []
    for m in g.members:
        if m == gi or not 0 <= m < len(shapes):
            continue
        t = shapes[m]
        if (t.x >= g.x - 2 and t.y >= g.y - 2 and t.x + t.w <= g.x + g.w + 2 and t.y + t.h <= g.y + g.h + 2
                and t.w * t.h < g.w * g.h):
            out.append(m)
    return out


def _frame_width(b: FigureBuilder, g: DetectedShape) -> float | None:
    """The frame's own stroke width where it is not the theme's (a 3 px grey frame drawn at 0.9
    px is most of what differs in a nested-frames figure: Azure's environment diagram)."""
    if g.stroke is None:
        return None
    sw = g.stroke_px * b.s
    return round(sw, 1) if abs(sw - THEME.group_stroke_width) > 0.3 else None


def _title_look(b: FigureBuilder, lab: list[TextRun]) -> dict[str, object]:
    """The title's colour and weight where they are not the theme's (it draws titles bold and
    dark; a plain grey title drawn so is the wrong ink over its whole line)."""
    if not lab:
        return {}
    look: dict[str, object] = {}
    if color_distance(lab[0].color, hex_rgb(THEME.group_text_color)) > 40:
        look["text_color"] = to_hex(lab[0].color)
    bold = all(r.bold for r in lab)
    if bold != THEME.group_label_bold:
        look["bold"] = bold
    return look
