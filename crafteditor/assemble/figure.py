"""The whole figure: charts, nodes, groups, edges, free text and leftovers, on the page, in
reading order."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from crafteditor.assemble.actors import actor_figures, stick_actors
from crafteditor.assemble.builder import FigureBuilder, hex_rgb
from crafteditor.assemble.dashes import dash_rows
from crafteditor.assemble.edges import edge_components
from crafteditor.assemble.faint import drop_page_coloured
from crafteditor.assemble.frame_wedges import without_frame_wedges
from crafteditor.assemble.groups import group_components
from crafteditor.assemble.icons import (
    backdrop,
    caption_shapes,
    captioned_icons,
    end_at_icons,
    holds_pictogram,
    icon_pictures,
    named_tiles,
    within,
)
from crafteditor.assemble.leftovers import free_line, traced_components
from crafteditor.assemble.line_frames import frames_from_lines
from crafteditor.assemble.named_frames import named_boxes
from crafteditor.assemble.nodes import divider_paths, label_text, node_component, shape_labels, text_nodes
from crafteditor.assemble.plates import carry_plates
from crafteditor.assemble.sequences import find_sequence, participant_shapes, without_cells
from crafteditor.assemble.texts import free_texts
from crafteditor.config import THEME
from crafteditor.lines.paths import LinePath
from crafteditor.ocr.runs import TextRun
from crafteditor.paint import color_distance, to_hex
from crafteditor.shapes.detect import DetectedShape
from crafteditor.trace import TracedObject
from crafter.spec.model import Figure, Size


def build_figure(b: FigureBuilder, runs: list[TextRun], shapes: list[DetectedShape], lines: list[LinePath],
                 charts: list[Any], traced: list[TracedObject], deadline: float | None = None) -> Figure:
    """The FigureSpec of the detected parts (``charts``: the chart stage's results, each of
    which makes its own component with the builder; past ``deadline``, a
    :func:`~crafteditor.config.budget_clock` value, lines are no longer joined across gaps)."""
    comps: list[Any] = []
    used_runs: set[int] = set()
    # a sequence diagram: the cells its lifelines and messages enclose are no boxes
    seq = find_sequence(b.image.rgb, b.paints.background_rgb, shapes, runs) if not charts else None
    if seq is not None:
        b.sequence_messages = len(seq.messages)
        shapes = without_cells(seq, [*shapes, *seq.extra])
    # an edge label's plate is no node: the edge it cuts in two runs on through it
    parts = participant_shapes(seq.lifelines) if seq is not None else set()
    shapes, lines, kept = carry_plates(shapes, runs, lines, parts, b.paints.background_rgb, b.image.rgb)
    if seq is not None:
        seq.renumber(kept)
    elif not charts:  # frames traced as lines (a title in the border, edges through it): groups, their sides
        # no lines (a chart's panel borders and page frame are its own: drawn as groups they were drawn twice)
        shapes, lines = frames_from_lines(b.image.rgb, shapes, lines, runs)
        shapes = named_boxes(shapes, runs, lines)  # a 'frame' holding only its centred name: a sketched node
        # a face between two frames' borders, where links leave nested frames, is no node: its links run on
        shapes, lines = without_frame_wedges(b.image.rgb, b.paints.background_rgb, shapes, runs, lines)
    # charts own their tick labels, titles and legends
    for ch in charts:
        used_runs |= set(ch.run_indices)
        comps.append(ch.component(b))
        b.chars_kept += sum(len(runs[i].text.replace(" ", "")) for i in ch.run_indices)
    node_ids: dict[int, str] = {}
    labels = shape_labels(runs, shapes, used_runs)
    # names set in a tile around a pictogram, or over or under a shape without text, label it;
    # a pictogram with its name under it is a node too (:mod:`crafteditor.assemble.icons`)
    captioned = named_tiles(runs, shapes, labels, used_runs, lines) | caption_shapes(b, runs, shapes, labels, used_runs)
    tiles = {i for i in captioned if shapes[i].is_group}  # a frame around a pictogram, named: a node
    tiles |= {i for i, s in enumerate(shapes) if holds_pictogram(b, s, traced)}  # its fill goes under it
    shapes = [replace(s, is_group=False) if i in tiles else s for i, s in enumerate(shapes)]
    drawn = captioned_icons(b, runs, shapes, used_runs, traced)
    # each such icon is kept as one picture; the unnamed shapes and strokes read inside it are its own
    traced, pictured = icon_pictures(b, [d for _, _, d in drawn], traced)
    if seq is None:  # a use case's stick-figure actor, named under it, is a captioned icon too
        drawn += stick_actors(b, shapes, runs, labels, used_runs, lines)
    icons = [(s, caption) for s, caption, _ in drawn]
    if seq is not None:  # a stick-figure actor named under its figure is a node, as an icon is
        icons += actor_figures(seq, shapes, runs, labels, used_runs, len(shapes) + len(icons))
    first_icon = len(shapes)
    shapes = [*shapes, *(s for s, _ in icons)]
    labels.update({first_icon + j: caption for j, (_, caption) in enumerate(icons)})
    hidden: dict[int, str] = {}  # unnamed shapes inside an icon kept as a picture: edges to them end at the icon
    for i, s in enumerate(shapes):
        if s.is_group:
            continue
        if i < first_icon and not labels.get(i) and i not in tiles and pictured and within(
                (s.x, s.y), pictured, 0.0) and within((s.x + s.w, s.y + s.h), pictured, 0.0):
            hidden[i] = b.new_id("n")
            continue
        lab = labels.get(i, [])
        text = label_text([runs[k] for k in lab]) if lab else None
        cid = b.new_id("n", text)
        node_ids[i] = cid
        node = node_component(b, cid, s, [runs[k] for k in lab], in_place=i >= first_icon or i in captioned or i in tiles)
        # an icon's node is not filled (nor outlined): the icon is drawn as it was traced; a
        # tile's fill is drawn under its pictogram
        if i in tiles:
            comps.append(backdrop(b, s))
        comps.append(node.model_copy(update={"fill": "none"}) if i >= first_icon or i in tiles else node)
        comps.extend(divider_paths(b, s))
        b.chars_kept += sum(len(runs[k].text.replace(" ", "")) for k in lab)
    comps.extend(group_components(b, runs, shapes, labels, node_ids))
    # free text first gets a chance to label an edge
    free = [k for k in range(len(runs)) if k not in used_runs]
    titles = [runs[k] for i, s in enumerate(shapes) if s.is_group for k in labels.get(i, [])]
    # lines to an icon end at the icon as drawn, a stand-in for its node (wider, over its caption too)
    ends = _icon_parts(shapes, labels, {**node_ids, **hidden}, first_icon)
    ends.update({len(shapes) + j: node_ids[first_icon + j] for j in range(len(drawn))})
    lines, strokes = end_at_icons(lines, [n for n, _, _ in drawn], [d for _, _, d in drawn])
    for ln in strokes:
        if not all(within(p, pictured) for p in ln.points):  # an icon's strokes are in its picture
            comps.extend(free_line(b, ln, ln.points))
    edge_comps, text_targets = edge_components(b, lines, [*shapes, *(d for _, _, d in drawn)], ends,
                                              runs, free, used_runs, titles, deadline=deadline, seq=seq)
    # a sparse dashed line's dashes, left apart, as one path; no line in the page's colour
    comps.extend(dash_rows(drop_page_coloured(b, edge_comps), b.free_points))
    # borderless labels a chain of arrows runs through
    comps.extend(text_nodes(b, runs, text_targets, edge_comps, used_runs, [c for c in comps if c.kind == "node"]))
    comps.extend(free_texts(b, runs, used_runs, text_targets))
    for obj in traced:
        comps.extend(traced_components(b, obj))
    # texts referenced by edges must exist before validation: order is free in the IR
    canvas = Size(w=round(b.image.width * b.s, 2), h=round(b.image.height * b.s, 2))
    return Figure(canvas=canvas, background=page_color(b), components=_reading_order(comps))


def _icon_parts(shapes: list[DetectedShape], labels: dict[int, list[int]], node_ids: dict[int, str],
                first_icon: int) -> dict[int, str]:
    """The node ids edges join, an unnamed shape inside a captioned icon's node (a database icon's
    cylinder) standing for that node: a connector drawn to the icon ends on the shape, and had joined
    an unnamed node (draw.io's architecture diagrams: 'Settings API' to a nameless cylinder, not 'Settings DB')."""
    out = dict(node_ids)
    for i, s in enumerate(shapes[:first_icon]):
        if i not in node_ids or labels.get(i):
            continue
        for j in range(first_icon, len(shapes)):
            t = shapes[j]
            if j in node_ids and t.x <= s.x and t.y <= s.y and s.x + s.w <= t.x + t.w and s.y + s.h <= t.y + t.h:
                out[i] = node_ids[j]
                break
    return out


def page_color(b: FigureBuilder) -> str | None:
    """The figure's background where the page is not the theme's white: fivethirtyeight's
    grey, Solarize's cream, a slide's dark page. Within one paint merge of white (a JPEG's
    254s) it is white; a scan's page is always white, its paper's yellow is no design."""
    page = b.paints.background_rgb
    if b.config.preset_name == "scan" or color_distance(page, hex_rgb(THEME.background)) <= max(
            b.config.color_merge, 6.0):
        return None
    return to_hex(page)


def _reading_order(comps: list[Any]) -> list[Any]:
    """Reading order in the DSL: groups after their members, edges after nodes.

    Not the drawing order of ``crafter.render.svg`` (back to front, groups first): this is
    the order of the statements in the recovered figure's DSL."""
    rank = {"node": 0, "text": 1, "chart": 1, "edge": 2, "group": 3, "path": 4, "image": 4}
    return sorted(comps, key=lambda c: rank.get(c.kind, 5))
