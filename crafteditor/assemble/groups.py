"""Groups: a frame around nodes, titled by the text in its top band, holding the members it
directly contains."""

from __future__ import annotations

import numpy as np

from crafteditor.assemble.builder import FigureBuilder
from crafteditor.config import THEME
from crafteditor.ocr.runs import TextRun
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
        group_comps.append((i, cid, s, text, fs if fs and abs(fs - THEME.group_font_size) > 0.4 else None))
    # direct containment: each member belongs to the smallest group around it
    parent: dict[int, int] = {}
    for gi, _, g, _, _ in sorted(group_comps, key=lambda t: -(t[2].w * t[2].h)):
        for m in g.members:
            if m not in parent or shapes[parent[m]].w * shapes[parent[m]].h > g.w * g.h:
                parent[m] = gi
    out = []
    for gi, cid, g, text, fs in group_comps:
        members = [node_ids[m] for m in sorted(node_ids) if parent.get(m) == gi]
        out.append(Group(
            kind="group", id=cid, label=text, members=members, box=b.box(g.x, g.y, g.w, g.h), pinned=True,
            fill=b.color_or_none(g.fill, THEME.group_fill),
            stroke=b.color_or_none(g.stroke, THEME.group_stroke, thin=True),
            style=g.dashed,  # type: ignore[arg-type]
            font_size=fs,  # the title's own size, as nodes keep theirs
        ))
    return out
