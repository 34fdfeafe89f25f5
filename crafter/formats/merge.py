"""Folding edits made in another editor (Inkscape, diagrams.net) back into a FigureSpec.

Both importers see the figure as another program showed it — labels broken into lines,
boxes moved by hand, components deleted — and need the same few rules to turn that
back into the IR: which line breaks were the author's (:func:`merge_lines`), how an
edge follows a node that was moved (:func:`reroute`), and what a deletion takes with
it (:func:`remove_components`). Keeping them here means a label edited in Inkscape
and the same edit in draw.io give the same FigureSpec.
"""

from __future__ import annotations

from typing import Any

from crafter.base.rules import clip_to_box as _clip
from crafter.base.rules import label_plate_at_half_length
from crafter.base.theme import Theme, figure_theme
from crafter.spec.model import Box, Figure

Pt = tuple[float, float]


class EditMerger:
    """What a merge-back (SVG, PowerPoint) keeps while it folds edits into ``fig``: the figure's
    theme, each component as data to change (``data``), and whether anything changed, each change
    noted in ``report.merged``."""

    def __init__(self, fig: Figure, report: Any, file: str | None) -> None:
        self.fig = fig
        self.theme = figure_theme(fig)
        self.report = report
        self.file = file
        self.data = {c.id: c.model_dump(mode="json", exclude_defaults=True) | {"id": c.id, "kind": c.kind}
                     for c in fig.components}
        self.changed = False

    def note(self, text: str) -> None:
        self.changed = True
        self.report.merged.append(text)


def merge_lines(old: str, old_lines: list[str], new_lines: list[str]) -> str:
    """A label edited as shown lines, back into a label.

    The shown lines mix the author's line breaks with soft ones made by wrapping. With the
    same number of lines, each break keeps its kind (soft breaks become spaces again);
    otherwise every shown break is taken as the author's.
    """
    if len(new_lines) != len(old_lines) or not new_lines:
        return "\n".join(new_lines)
    hard = _hard_breaks(old, old_lines)
    out = new_lines[0]
    for i, line in enumerate(new_lines[1:]):
        out += ("\n" if hard[i] else " ") + line
    return out


def _hard_breaks(label: str, lines: list[str]) -> list[bool]:
    """For each break between shown lines, whether the label has a newline there."""
    out = []
    pos = 0
    for line in lines[:-1]:
        idx = label.find(line, pos)
        if idx < 0:
            out.append(True)
            continue
        pos = idx + len(line)
        out.append(label[pos:pos + 1] == "\n")
        pos += 1
    return out


def clip_to_box(b: Box, toward: Pt) -> Pt:
    """Where the ray from the box centre toward a point leaves the box."""
    return _clip(b, toward[0], toward[1])


def frame_around(g: dict[str, Any], members: list[dict[str, Any]], t: Theme) -> tuple[float, float, float, float]:
    """A group's or panel's frame (x0, y0, x1, y1) grown to hold its members' boxes: the theme's padding
    round them and its title band above them (taller for a title set bigger)."""
    b, pad = g["box"], t.group_pad
    x0, y0, x1, y1 = b["x"], b["y"], b["x"] + b["w"], b["y"] + b["h"]
    label_h = t.group_label_h if g.get("label") or g["kind"] == "panel" else 0.0
    label_h *= (g.get("font_size") or t.group_font_size) / t.group_font_size  # a title set bigger
    for m in members:
        mb = m["box"]
        x0, y0 = min(x0, mb["x"] - pad), min(y0, mb["y"] - pad - label_h)
        x1, y1 = max(x1, mb["x"] + mb["w"] + pad), max(y1, mb["y"] + mb["h"] + pad)
    return x0, y0, x1, y1


def label_box_at_half_length(label: str, route: list[Pt], t: Theme, font_size: float | None = None) -> Box:
    """A label box at the route's halfway point, sized to the text (the SVG writer's rule for a missing one)."""
    return label_plate_at_half_length(label, font_size or t.small_font_size, route, t)[1]


def reroute(edge: dict[str, Any], source: Box, target: Box, t: Theme, *, via: list[Pt] | None = None,
            shift: Pt | None = None, orthogonal: bool = False) -> None:
    """Give an edge (component data) a route again after its ends moved.

    ``shift``: both ends moved by the same offset, so the route and its label box move with
    them unchanged. Otherwise the edge runs from box to box through ``via`` points (with
    none: a straight line, or horizontal and vertical segments when ``orthogonal``); the
    label sits at its middle.
    """
    if shift is not None and edge.get("route"):
        dx, dy = shift
        edge["route"] = [{"x": round(p["x"] + dx, 2), "y": round(p["y"] + dy, 2)} for p in edge["route"]]
        if edge.get("label_box"):
            b = edge["label_box"]
            edge["label_box"] = {**b, "x": round(b["x"] + dx, 2), "y": round(b["y"] + dy, 2)}
        return
    pts = list(via or [])
    if not pts and orthogonal:
        route = orthogonal_route(source, target)
    else:
        first = pts[0] if pts else (target.cx, target.cy)
        last = pts[-1] if pts else (source.cx, source.cy)
        route = [clip_to_box(source, first)] + pts + [clip_to_box(target, last)]
    edge["route"] = [{"x": round(x, 2), "y": round(y, 2)} for x, y in route]
    if edge.get("label"):
        b = label_box_at_half_length(edge["label"], route, t, edge.get("font_size"))
        edge["label_box"] = {k: round(v, 2) for k, v in b.model_dump().items()}
    else:
        edge.pop("label_box", None)


def notes_follow(data: dict[str, dict[str, Any]], shifts: dict[str, tuple[float, float]]) -> None:
    """Texts placed ``near`` a moved component (id → its shift) move with it, in place."""
    for d in data.values():
        if d["kind"] == "text" and d.get("near") in shifts and d["id"] not in shifts and d.get("box"):
            dx, dy = shifts[d["near"]]
            d["box"] = {**d["box"], "x": d["box"]["x"] + dx, "y": d["box"]["y"] + dy}


def edges_follow(data: dict[str, dict[str, Any]], shifts: dict[str, tuple[float, float]], resized: set[str],
                 theme: Theme, routing: str) -> None:
    """Edges on moved components (id → shift), in place: carried along where both ends moved alike
    (and neither was resized), re-routed otherwise (:func:`reroute`; ``routing``: the figure's)."""
    for d in data.values():
        if d["kind"] != "edge" or (d["source"] not in shifts and d["target"] not in shifts):
            continue
        s, t = data.get(d["source"]), data.get(d["target"])
        if s is None or t is None or not s.get("box") or not t.get("box"):
            continue
        ss, ts = shifts.get(d["source"]), shifts.get(d["target"])
        same = (ss is not None and ts is not None and abs(ss[0] - ts[0]) < 0.01 and abs(ss[1] - ts[1]) < 0.01
                and d["source"] not in resized and d["target"] not in resized)
        reroute(d, Box.model_validate(s["box"]), Box.model_validate(t["box"]), theme, shift=ss if same else None,
                orthogonal=(d.get("routing") or routing) == "orthogonal")


def orthogonal_route(a: Box, b: Box) -> list[Pt]:
    """Horizontal and vertical segments from box a to box b: straight when they face each
    other, else out of the side facing b, across halfway, and into b's facing side."""
    ox0, ox1 = max(a.x, b.x), min(a.right, b.right)
    oy0, oy1 = max(a.y, b.y), min(a.bottom, b.bottom)
    if oy1 - oy0 > 4:  # side by side: one horizontal segment
        y = (oy0 + oy1) / 2
        return [(a.right, y), (b.x, y)] if b.cx >= a.cx else [(a.x, y), (b.right, y)]
    if ox1 - ox0 > 4:  # one above the other: one vertical segment
        x = (ox0 + ox1) / 2
        return [(x, a.bottom), (x, b.y)] if b.cy >= a.cy else [(x, a.y), (x, b.bottom)]
    if abs(b.cx - a.cx) >= abs(b.cy - a.cy):
        x0 = a.right if b.cx > a.cx else a.x
        x1 = b.x if b.cx > a.cx else b.right
        mid = (x0 + x1) / 2
        return [(x0, a.cy), (mid, a.cy), (mid, b.cy), (x1, b.cy)]
    y0 = a.bottom if b.cy > a.cy else a.y
    y1 = b.y if b.cy > a.cy else b.bottom
    mid = (y0 + y1) / 2
    return [(a.cx, y0), (a.cx, mid), (b.cx, mid), (b.cx, y1)]


def remove_components(comps: list[dict[str, Any]], removed: set[str]) -> list[dict[str, Any]]:
    """Drop components and what depends on them: edges to them, their places in groups.

    A deleted group's members stay, and move up into the group's own container.
    """
    removed = set(removed)
    while True:  # edges to removed components go too (and edges to those edges cannot exist)
        more = {c["id"] for c in comps if c["kind"] == "edge" and c["id"] not in removed
                and (c["source"] in removed or c["target"] in removed)}
        if not more:
            break
        removed |= more
    kept_members = {c["id"]: c.get("members", []) for c in comps if c["kind"] in ("group", "panel")}
    out = []
    for c in comps:
        if c["id"] in removed:
            continue
        c = dict(c)
        if "members" in c:
            members: list[str] = []
            for m in c["members"]:
                if m in removed:
                    # lift the members of a deleted group into this one
                    members += [x for x in _surviving_members(m, kept_members, removed) if x not in members]
                elif m not in members:
                    members.append(m)
            c["members"] = members
        if c["kind"] == "text" and c.get("near") in removed:
            c["near"] = None
            if c.get("box") is None and c.get("at") is None:
                continue  # nothing left to place it by
        out.append(c)
    # a member lifted into an outer group must not also stay listed in another one
    seen: set[str] = set()
    for c in out:
        if "members" in c:
            c["members"] = [m for m in c["members"] if not (m in seen or seen.add(m))]
    return out


def _surviving_members(gid: str, members: dict[str, list[str]], removed: set[str]) -> list[str]:
    out: list[str] = []
    for m in members.get(gid, []):
        if m in removed:
            out += _surviving_members(m, members, removed)
        else:
            out.append(m)
    return out
