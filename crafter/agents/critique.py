"""The critic: deterministic checks of a laid-out figure, each issue naming component ids.

Every check is a small function ``check_*(fig, …) -> list[issue]`` over a laid-out
:class:`Figure` (boxes, routes, canvas filled in); :func:`critique` runs them all.
Issues are plain dicts (see :mod:`crafter.agents.issues`).

Text is measured exactly as the renderer draws it (:mod:`crafter.base.text`, the
shapes' label areas, the renderer's default text colour), so the critic and the
picture agree: an issue here is something a reader would see.
"""

from __future__ import annotations

from typing import Any, Iterable

from crafter.agents.extract import brief_entities
from crafter.agents.issues import FIGURE, make_issue
from crafter.agents.labels import labels_match, slug_id
from crafter.base.rules import group_bold
from crafter.base.theme import PX_PER_IN, Theme, figure_theme
from crafter.charts.fidelity import check_chart
from crafter.layout.routing import segment_hits
from crafter.layout.shapes import label_fits, node_label_lines
from crafter.spec.colors import contrast_ratio, is_color, to_rgb
from crafter.spec.model import Box, Chart, Component, Edge, Figure, Group, Image, Node, Panel, Text

AA_NORMAL, AA_LARGE = 4.5, 3.0  # WCAG 2 AA contrast for normal and large text
MIN_PRINT_PT = 6.0  # smallest legible print size
TOL = 0.5  # px: float noise between layout and critic


def critique(fig: Figure, *, svg: str | None = None, brief: str | None = None) -> list[dict[str, Any]]:
    """All issues of a laid-out figure, in a stable order (check, then component order)."""
    issues: list[dict[str, Any]] = []
    issues += check_overlaps(fig)
    issues += check_text_overflow(fig)
    issues += check_edges_cross_nodes(fig)
    issues += check_edge_ends(fig)
    issues += check_edge_labels(fig)
    issues += check_off_canvas(fig)
    issues += check_contrast(fig)
    issues += check_font_size(fig)
    issues += check_charts(fig, svg)
    if brief:
        issues += check_brief_entities(fig, brief)
    return issues


# ---------------------------------------------------------------------------------
# Geometry helpers
# ---------------------------------------------------------------------------------


def _overlap_area(a: Box, b: Box) -> float:
    w = min(a.right, b.right) - max(a.x, b.x)
    h = min(a.bottom, b.bottom) - max(a.y, b.y)
    return w * h if w > TOL and h > TOL else 0.0


def _shrink(b: Box, d: float) -> Box:
    return Box(x=b.x + d, y=b.y + d, w=max(b.w - 2 * d, 0), h=max(b.h - 2 * d, 0))


def segment_hits_box(p: tuple[float, float], q: tuple[float, float], b: Box) -> bool:
    """Does the segment p–q pass through the interior of b? (the router's own clipping test)"""
    return segment_hits(p, q, (b.x, b.y, b.w, b.h), shrink=0.0)


def _route(e: Edge) -> list[tuple[float, float]]:
    return [(p.x, p.y) for p in e.route] if e.route else []


def leaf_boxes(fig: Figure) -> list[tuple[Component, Box]]:
    """Components that occupy space on their own (not frames around others), with their boxes."""
    out = []
    for c in fig.components:
        if isinstance(c, (Node, Chart, Image)) and c.box is not None:
            out.append((c, c.box))
        elif isinstance(c, Text) and c.box is not None:
            out.append((c, c.box))
    return out


def _descendants(fig: Figure, cid: str) -> set[str]:
    out: set[str] = set()
    by_id = fig.by_id()
    stack = [cid]
    while stack:
        c = by_id.get(stack.pop())
        if isinstance(c, (Group, Panel)):
            for m in c.members:
                if m not in out:
                    out.add(m)
                    stack.append(m)
    return out


# ---------------------------------------------------------------------------------
# Checks
# ---------------------------------------------------------------------------------


def check_overlaps(fig: Figure) -> list[dict[str, Any]]:
    """Nodes, charts, images and free text whose boxes overlap."""
    issues = []
    leaves = leaf_boxes(fig)
    for i, (a, ab) in enumerate(leaves):
        for b, bb in leaves[i + 1:]:
            if isinstance(a, Image) and isinstance(b, Image):
                continue  # raster patches from CraftEditor may stack
            if isinstance(a, Text) and a.near == b.id and a.side == "center":
                continue
            if isinstance(b, Text) and b.near == a.id and b.side == "center":
                continue
            if _overlap_area(ab, bb) <= 0:
                continue
            # move the one that is free to move: unpinned first, else the later one
            target = b if (not b.pinned or a.pinned) else a
            other = a if target is b else b
            issues.append(make_issue(
                "overlap", [target.id, other.id],
                f"{target.kind} '{target.id}' overlaps {other.kind} '{other.id}'", target=target.id,
                other=other.id,
            ))
    return issues


def node_text_fits(node: Node, theme: Theme) -> tuple[bool, str]:
    """Does the node's label fit inside its drawn outline? (fits, reason) — the layout's own test."""
    b = node.box
    if b is None or not node.text:
        return True, ""
    if label_fits(node, b, theme, tolerance=TOL):
        return True, ""
    fs = node.font_size or theme.font_size
    lines = node_label_lines(node, b.w, theme)
    return False, f"{len(lines)} line(s) of {fs:g} px text do not fit a {b.w:.0f}×{b.h:.0f} {node.shape}"


def check_text_overflow(fig: Figure) -> list[dict[str, Any]]:
    """Labels that do not fit inside their node."""
    theme = figure_theme(fig)
    issues = []
    for n in fig.of_kind("node"):
        ok, why = node_text_fits(n, theme)
        if not ok:
            issues.append(make_issue("text_overflow", [n.id], f"label of node '{n.id}' overflows: {why}"))
    return issues


def check_edges_cross_nodes(fig: Figure) -> list[dict[str, Any]]:
    """Edges that run through a node (or chart) that is neither their source nor their target."""
    issues = []
    obstacles = [(c, b) for c, b in leaf_boxes(fig) if isinstance(c, (Node, Chart, Image))]
    for e in fig.of_kind("edge"):
        pts = _route(e)
        if len(pts) < 2:
            continue
        ends = {e.source, e.target} | _descendants(fig, e.source) | _descendants(fig, e.target)
        crossed = []
        for c, b in obstacles:
            if c.id in ends:
                continue
            inner = _shrink(b, 2.0)
            if any(segment_hits_box(p, q, inner) for p, q in zip(pts, pts[1:])):
                crossed.append(c.id)
        if crossed:
            names = ", ".join(f"'{x}'" for x in crossed)
            issues.append(make_issue("edge_crosses_node", [e.id, *crossed],
                                     f"edge '{e.id}' ({e.source} -> {e.target}) runs through {names}", target=e.id))
    return issues


def check_edge_ends(fig: Figure) -> list[dict[str, Any]]:
    """Edges whose route starts or ends away from the component it joins (e.g. a pinned route after a move)."""
    by_id = fig.by_id()
    issues = []
    for e in fig.of_kind("edge"):
        pts = _route(e)
        if len(pts) < 2:
            continue
        for end, (px, py) in (("source", pts[0]), ("target", pts[-1])):
            c = by_id.get(getattr(e, end))
            b = getattr(c, "box", None)
            if b is None:
                continue
            if not (b.x - 3 <= px <= b.right + 3 and b.y - 3 <= py <= b.bottom + 3):
                issues.append(make_issue("edge_detached", [e.id, c.id],
                                         f"edge '{e.id}' no longer reaches its {end} '{c.id}'", target=e.id))
                break
    return issues


def check_edge_labels(fig: Figure) -> list[dict[str, Any]]:
    """Edge labels that sit on a node."""
    issues = []
    nodes = [(c, b) for c, b in leaf_boxes(fig) if isinstance(c, (Node, Chart))]
    for e in fig.of_kind("edge"):
        if not e.label or e.label_box is None:
            continue
        hit = [c.id for c, b in nodes if _overlap_area(_shrink(e.label_box, 1.0), b) > 0]
        if hit:
            issues.append(make_issue("label_overlap", [e.id, *hit],
                                     f"the label of edge '{e.id}' sits on {', '.join(repr(h) for h in hit)}",
                                     target=e.id))
    return issues


def check_off_canvas(fig: Figure) -> list[dict[str, Any]]:
    """Content outside the canvas (clipped in every export)."""
    if fig.canvas is None:
        return []
    canvas = Box(x=0, y=0, w=fig.canvas.w, h=fig.canvas.h)
    issues = []
    for c in fig.components:
        boxes = [c.box] if c.box is not None else []
        if isinstance(c, Edge):
            if c.label_box is not None:
                boxes.append(c.label_box)
            pts = _route(c)
            if pts:
                xs, ys = [p[0] for p in pts], [p[1] for p in pts]
                boxes.append(Box(x=min(xs), y=min(ys), w=max(xs) - min(xs), h=max(ys) - min(ys)))
        for b in boxes:
            if not canvas.contains(b, tolerance=1.0):
                issues.append(make_issue(
                    "off_canvas", [c.id],
                    f"{c.kind} '{c.id}' reaches outside the {canvas.w:.0f}×{canvas.h:.0f} canvas "
                    f"(at {b.x:.0f},{b.y:.0f} size {b.w:.0f}×{b.h:.0f})",
                ))
                break
    return issues


def _solid(color: str, background: str) -> str:
    """A colour with alpha composed over the background, as #rrggbb."""
    if color.startswith("#") and len(color) == 9:
        a = int(color[7:9], 16) / 255
        fr, fg, fb = to_rgb(color[:7])
        br, bg, bb = to_rgb(background)
        mix = [a * f + (1 - a) * b for f, b in ((fr, br), (fg, bg), (fb, bb))]
        return "#" + "".join(f"{round(v * 255):02x}" for v in mix)
    return background if color == "none" else color


def readable_text_color(fill: str, theme: Theme) -> str:
    """The renderer's default label colour on ``fill`` (theme text colour, or white on dark fills)."""
    dark = theme.text_color
    if fill == "none" or not is_color(fill):
        return dark
    try:
        if contrast_ratio(dark, fill) >= AA_NORMAL:
            return dark
        return "#FFFFFF" if contrast_ratio("#FFFFFF", fill) > contrast_ratio(dark, fill) else dark
    except (ValueError, KeyError):
        return dark


def best_text_color(fill: str, theme: Theme) -> str:
    """The most readable of the theme's text colour, black and white on ``fill``."""
    candidates = [theme.text_color, "#000000", "#FFFFFF"]
    if contrast_ratio(theme.text_color, fill) >= AA_NORMAL:
        return theme.text_color
    return max(candidates, key=lambda c: contrast_ratio(c, fill))


def text_on(c: Component, fig: Figure, theme: Theme) -> list[tuple[str, str, float, bool]]:
    """(foreground, background, font px, bold) for each piece of text a component draws."""
    bg = theme.background
    out = []
    if isinstance(c, Node) and c.text:
        fill = _solid(c.fill or theme.node_fill, bg)
        fg = c.text_color or readable_text_color(fill, theme)
        out.append((_solid(fg, fill), fill, c.font_size or theme.font_size, c.bold))
    elif isinstance(c, Group) and c.label:
        fill = _solid(c.fill or theme.group_fill, bg)
        out.append((_solid(c.text_color or theme.group_text_color, fill), fill, c.font_size or theme.group_font_size,
                    group_bold(c, theme)))
    elif isinstance(c, Text) and c.text:
        under = bg
        if c.near and c.side == "center":
            host = fig.by_id().get(c.near)
            if isinstance(host, Node):
                under = _solid(host.fill or theme.node_fill, bg)
        out.append((_solid(c.color or theme.annotation_color, under), under, c.font_size or theme.small_font_size,
                    c.bold))
    elif isinstance(c, Edge) and c.label:
        out.append((theme.edge_label_color, bg, c.font_size or theme.small_font_size, False))
    return out


def check_contrast(fig: Figure) -> list[dict[str, Any]]:
    """Text whose contrast with what is behind it is below WCAG AA."""
    theme = figure_theme(fig)
    issues = []
    for c in fig.components:
        for fg, bg, fs, bold in text_on(c, fig, theme):
            try:
                ratio = contrast_ratio(fg, bg)
            except (ValueError, KeyError):
                continue
            large = fs >= 24 or (bold and fs >= 18.66)  # WCAG "large text": 18 pt, or 14 pt bold
            need = AA_LARGE if large else AA_NORMAL
            if ratio < need:
                issues.append(make_issue(
                    "low_contrast", [c.id],
                    f"text of {c.kind} '{c.id}' ({fg} on {bg}) has contrast {ratio:.1f}:1; WCAG AA needs {need:g}:1",
                ))
                break
    return issues


def print_scale(fig: Figure) -> float | None:
    """Printed size of one SVG unit relative to 1 px at 96 dpi, at the figure's print width."""
    if fig.width_in is None or fig.canvas is None or fig.canvas.w <= 0:
        return None
    return fig.width_in * PX_PER_IN / fig.canvas.w


def check_font_size(fig: Figure) -> list[dict[str, Any]]:
    """Text that prints smaller than 6 pt at the chosen width (``figure.width_in``)."""
    scale = print_scale(fig)
    if scale is None:
        return []
    theme = figure_theme(fig)
    small: list[tuple[str, float]] = []
    for c in fig.components:
        for _, _, fs, _ in text_on(c, fig, theme):
            pt = fs * scale * 72 / PX_PER_IN
            if pt < MIN_PRINT_PT - 1e-6:
                small.append((c.id, pt))
    if not small:
        return []
    smallest = min(pt for _, pt in small)
    return [make_issue(
        "tiny_font", [cid for cid, _ in small],
        f"at {fig.width_in:g} in wide the figure is scaled to {scale:.0%}: {len(small)} component(s) print "
        f"text at {smallest:.1f} pt (minimum {MIN_PRINT_PT:g} pt)",
        target=FIGURE,
    )]


def check_charts(fig: Figure, svg: str | None) -> list[dict[str, Any]]:
    """Charts whose drawn marks do not read back to their data, or that lack axis titles."""
    charts = fig.of_kind("chart")
    if not charts:
        return []
    issues = []
    for c in charts:
        if svg is not None:
            try:
                problems = list(check_chart(svg, c) or [])
            except Exception as e:  # a checker failure is reported, never fatal
                problems = [f"could not read the chart back: {e}"]
            if problems:
                first = problems[0] if isinstance(problems[0], str) else getattr(problems[0], "message", str(problems[0]))
                issues.append(make_issue(
                    "chart_readback", [c.id],
                    f"{len(problems)} mark(s) of chart '{c.id}' do not read back to the data: {first}",
                ))
        enc = c.spec.get("encoding", {}) if isinstance(c.spec, dict) else {}
        for ch in ("x", "y"):
            e = enc.get(ch)
            if isinstance(e, dict) and e.get("type") == "quantitative" and "title" in e and not e["title"]:
                issues.append(make_issue("chart_axis_title", [c.id], f"the {ch} axis of chart '{c.id}' has no title",
                                         channel=ch))
    return issues


def figure_labels(fig: Figure) -> list[str]:
    """Every name the figure shows: node and group labels, texts, panel and chart titles."""
    out: list[str] = []
    for c in fig.components:
        for attr in ("label", "title", "text"):
            v = getattr(c, attr, None)
            if isinstance(v, str) and v:
                out.append(v.replace("\n", " "))
        if isinstance(c, Node) and c.label is None:
            out.append(c.id.replace("_", " "))
    if fig.title:
        out.append(fig.title)
    return out


def missing_entities(fig: Figure, brief: str) -> list[str]:
    """Names the brief certainly gives that no label of the figure matches."""
    labels = figure_labels(fig)
    return [ent for ent in brief_entities(brief) if not any(labels_match(ent, lab) for lab in labels)]


def check_brief_entities(fig: Figure, brief: str) -> list[dict[str, Any]]:
    """Things the brief names that the figure lacks (targets are new ids for the repairer to add)."""
    used = {c.id for c in fig.components}
    issues = []
    for ent in missing_entities(fig, brief):
        new_id = slug_id(ent, used)
        issues.append(make_issue("missing_entity", [], f"the brief names \"{ent}\" but the figure has no such component",
                                 target=new_id, entity=ent))
    return issues


def check_dangling(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """References to ids that do not exist, in raw component dicts (before validation).

    A validated :class:`Figure` cannot hold one, so this runs on model output while it is
    assembled (:func:`crafter.agents.plan.assemble_figure`).
    """
    ids = {c.get("id") for c in components}
    issues = []
    for c in components:
        refs: list[tuple[str, str]] = []
        if c.get("kind") == "edge":
            refs = [("source", c.get("source")), ("target", c.get("target"))]
        elif c.get("kind") in ("group", "panel"):
            refs = [("members", m) for m in c.get("members", [])]
        elif c.get("kind") == "text" and c.get("near"):
            refs = [("near", c["near"])]
        for field, ref in refs:
            if ref not in ids:
                issues.append(make_issue("dangling_id", [c["id"]],
                                         f"{c['kind']} '{c['id']}' refers to '{ref}' ({field}), which does not exist",
                                         field=field, ref=ref))
    return issues


def summarise(issues: Iterable[dict[str, Any]]) -> dict[str, int]:
    """Counts by severity."""
    out: dict[str, int] = {}
    for i in issues:
        out[i["severity"]] = out.get(i["severity"], 0) + 1
    return out


__all__ = [
    "critique", "check_overlaps", "check_text_overflow", "check_edges_cross_nodes", "check_edge_ends", "check_edge_labels",
    "check_off_canvas", "check_contrast", "check_font_size", "check_charts", "check_brief_entities",
    "missing_entities", "figure_labels", "segment_hits_box", "node_text_fits", "print_scale", "best_text_color",
    "text_on", "summarise", "check_dangling",
]
