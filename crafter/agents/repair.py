"""Local repair: change only the flagged component, by rule for geometry, by the model for meaning.

One repair works on one *target* (an issue's ``target``: a component id, a new id to
add, or :data:`~crafter.agents.issues.FIGURE`) and returns a plain-data result::

    {"target": "dec", "ok": True, "by": "rule",
     "components": [<component dicts: the target's replacement and anything new>],
     "delete": [], "figure": {<figure-header fields to set>},
     "fixed": [<issue keys>], "attempts": 1, "error": None, "calls": [<model call records>]}

The graph runs one :func:`repair_target` per target in parallel (LangGraph ``Send``) and
merges the results with :func:`apply_repairs`, which re-checks every rule below, so a
result never corrupts the figure:

* a result may replace its target, add components with new ids, and (for figure-level
  targets) set figure-header fields or change the components its issues name;
* model output is parsed line by line (:func:`crafter.spec.parse_component`), checked
  against the figure (references resolve, kinds kept, no other existing id touched), and
  retried up to ``max_attempts`` before the repair gives up — the figure is unchanged then;
* after merging, every component not allowed to change is byte-identical
  (:func:`changed_ids`), which is the locality the tests measure.
"""

from __future__ import annotations

import math
from typing import Any

from crafter.agents.backend import call_model, parse_component_lines
from crafter.agents.chart_plan import rebuild_chart
from crafter.agents.critique import (
    _overlap_area,
    _shrink,
    _solid,
    best_text_color,
    leaf_boxes,
    node_text_fits,
    print_scale,
    segment_hits_box,
    text_on,
)
from crafter.agents.issues import FIGURE, issue_key
from crafter.agents.reading import SENTENCE_SPLIT
from crafter.base.theme import figure_theme
from crafter.errors import CrafterError, SpecError
from crafter.llm.prompts import repair_prompt
from crafter.spec import Figure, print_component, print_dsl
from crafter.spec.model import COMPONENT_TYPES, Box, Chart, Component, Edge, Group, Node, Text

MAX_ATTEMPTS = 3
REPAIR_MAX_NEW_TOKENS = 256  # replacement lines for one component and what it adds
GAP = 12.0  # px kept between a moved box and its neighbours
_NEW_OK = {"missing_entity", "instruction"}  # issues whose repair may add components
_LAYOUT_FIELDS = ("box", "route", "label_box")


class RepairRejected(CrafterError):
    """A repair result that would change more than its target, or break the figure."""


# ---------------------------------------------------------------------------------
# Locality
# ---------------------------------------------------------------------------------


def changed_ids(before: Figure, after: Figure, *, ignore_layout: bool = False) -> set[str]:
    """Ids whose DSL statement differs (added and removed ids included; FIGURE for the header)."""

    def statements(fig: Figure) -> dict[str, str]:
        comps = strip_layout(fig).components if ignore_layout else fig.components
        return {c.id: print_component(c) for c in comps}

    a, b = statements(before), statements(after)
    out = {cid for cid in a.keys() | b.keys() if a.get(cid) != b.get(cid)}
    head = lambda f: f.model_dump(exclude={"components", "canvas"})  # noqa: E731
    if head(before) != head(after):
        out.add(FIGURE)
    return out


def strip_layout(fig: Figure) -> Figure:
    """The figure without layout results (boxes of unpinned components, routes, label boxes, canvas)."""
    comps = []
    for c in fig.components:
        upd: dict[str, Any] = {}
        if c.box is not None and not c.pinned:
            upd["box"] = None
        if isinstance(c, Edge) and not c.pinned:
            upd.update(route=None, label_box=None)
        comps.append(c.model_copy(update=upd) if upd else c)
    return fig.model_copy(update={"components": comps, "canvas": None})


def _with(c: Component, **changes: Any) -> Component:
    """A validated copy of a component with some fields changed."""
    data = c.model_dump()
    data.update(changes)
    return type(c).model_validate(data)


# ---------------------------------------------------------------------------------
# Rules for geometric issues
# ---------------------------------------------------------------------------------


def _free_box(fig: Figure, target: Component, box: Box, order: tuple[str, ...]) -> Box | None:
    """The nearest position for ``box`` (moving in the given directions) that overlaps no other leaf."""
    others = [b for c, b in leaf_boxes(fig) if c.id != target.id]

    def clear(b: Box) -> bool:
        return b.x >= 0 and b.y >= 0 and all(_overlap_area(b, o) <= 0 for o in others)

    best: tuple[float, Box] | None = None
    for direction in order:
        cand = box
        for _ in range(len(others) + 1):
            if clear(cand):
                break
            # jump past the nearest blocker in this direction
            blockers = [o for o in others if _overlap_area(cand, o) > 0]
            if not blockers:  # off the top or left edge: this direction cannot work
                break
            if direction == "down":
                cand = cand.model_copy(update={"y": max(o.bottom for o in blockers) + GAP})
            elif direction == "right":
                cand = cand.model_copy(update={"x": max(o.right for o in blockers) + GAP})
            elif direction == "up":
                cand = cand.model_copy(update={"y": min(o.y for o in blockers) - GAP - cand.h})
            else:
                cand = cand.model_copy(update={"x": min(o.x for o in blockers) - GAP - cand.w})
        if clear(cand):
            dist = math.hypot(cand.x - box.x, cand.y - box.y)
            if best is None or dist < best[0] - 1e-6:
                best = (dist, cand)
    return best[1] if best else None


def fix_overlap(fig: Figure, target: Component) -> Component | None:
    """Move the target clear of every other box, and pin it there."""
    if target.box is None:
        return None
    order = ("down", "right", "up", "left") if fig.direction in ("LR", "RL") else ("right", "down", "left", "up")
    box = _free_box(fig, target, target.box, order)
    return _with(target, box=box.model_dump(), pinned=True) if box else None


def fix_text_overflow(fig: Figure, node: Node) -> Node | None:
    """Grow the node (about its centre) until its label fits; keep a requested size in step."""
    if node.box is None:
        return None
    theme = figure_theme(fig)
    b = node.box
    for step in range(1, 40):
        f = 1.0 + 0.08 * step
        w, h = b.w * f, b.h * (1.0 + 0.05 * step)
        cand = _with(node, box={"x": b.cx - w / 2, "y": b.cy - h / 2, "w": w, "h": h},
                     width=w if node.width is not None else None, height=h if node.height is not None else None)
        if node_text_fits(cand, theme)[0]:
            if cand.box.x < 0 or cand.box.y < 0:
                cand = _with(cand, box={"x": max(cand.box.x, 0), "y": max(cand.box.y, 0), "w": w, "h": h})
            return cand
    return None


def orthogonal_detour(fig: Figure, edge: Edge) -> list[tuple[float, float]] | None:
    """A short orthogonal route between the edge's ends that passes through no other node."""
    by_id = fig.by_id()
    src, tgt = by_id.get(edge.source), by_id.get(edge.target)
    if src is None or tgt is None or src.box is None or tgt.box is None:
        return None
    a, b = src.box, tgt.box
    obstacles = [_shrink(o, 2.0) for c, o in leaf_boxes(fig) if c.id not in (src.id, tgt.id) and not isinstance(c, Text)]
    # each route leaves its source and enters its target square to the side, through a short stub
    out = {"r": (1, 0), "l": (-1, 0), "b": (0, 1), "t": (0, -1)}
    ports_a = {"r": (a.right, a.cy), "l": (a.x, a.cy), "b": (a.cx, a.bottom), "t": (a.cx, a.y)}
    ports_b = {"r": (b.right, b.cy), "l": (b.x, b.cy), "b": (b.cx, b.bottom), "t": (b.cx, b.y)}
    ys = [o.y - GAP for o in obstacles] + [o.bottom + GAP for o in obstacles]
    ys += [a.y - GAP, a.bottom + GAP, b.y - GAP, b.bottom + GAP]
    xs = [o.x - GAP for o in obstacles] + [o.right + GAP for o in obstacles]
    xs += [a.x - GAP, a.right + GAP, b.x - GAP, b.right + GAP]
    own = [_shrink(a, 1.0), _shrink(b, 1.0)]
    stub = GAP / 2
    candidates: list[tuple[list[tuple[float, float]], tuple[int, int], tuple[int, int]]] = []
    for sa, pa in ports_a.items():
        qa = (pa[0] + out[sa][0] * stub, pa[1] + out[sa][1] * stub)
        for sb, pb in ports_b.items():
            qb = (pb[0] + out[sb][0] * stub, pb[1] + out[sb][1] * stub)
            middles = [[(qb[0], qa[1])], [(qa[0], qb[1])]]
            mx, my = (qa[0] + qb[0]) / 2, (qa[1] + qb[1]) / 2
            middles += [[(mx, qa[1]), (mx, qb[1])], [(qa[0], my), (qb[0], my)]]
            middles += [[(qa[0], y), (qb[0], y)] for y in ys] + [[(x, qa[1]), (x, qb[1])] for x in xs]
            if qa[0] == qb[0] or qa[1] == qb[1]:
                middles.append([])
            candidates += [([pa, qa, *m, qb, pb], out[sa], out[sb]) for m in middles]

    def ok(route: list[tuple[float, float]]) -> bool:
        segs = list(zip(route, route[1:]))
        if any(segment_hits_box(p, q, o) for p, q in segs for o in obstacles):
            return False
        # past the stubs the route must not cut back through its own end nodes
        inner = segs[1:-1]
        return not any(segment_hits_box(p, q, o) for p, q in inner for o in own)

    def cost(route: list[tuple[float, float]]) -> float:
        length = sum(abs(p[0] - q[0]) + abs(p[1] - q[1]) for p, q in zip(route, route[1:]))
        return length + 40.0 * (len(route) - 2)

    good = []
    for raw, da, db in candidates:
        r = _dedupe(raw)
        if len(r) < 2 or min(x for x, _ in r) < 0 or min(y for _, y in r) < 0:
            continue
        # leave the source and enter the target outwards, never back along the stub
        if (r[1][0] - r[0][0]) * da[0] + (r[1][1] - r[0][1]) * da[1] <= 0:
            continue
        if (r[-2][0] - r[-1][0]) * db[0] + (r[-2][1] - r[-1][1]) * db[1] <= 0:
            continue
        if ok(r):
            good.append(r)
    return min(good, key=cost) if good else None


def _dedupe(route: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The route without repeated points and without middle points of straight runs."""
    pts = list(route)
    changed = True
    while changed:
        changed = False
        out = [pts[0]]
        for p in pts[1:]:
            if abs(p[0] - out[-1][0]) > 1e-9 or abs(p[1] - out[-1][1]) > 1e-9:
                out.append(p)
        keep = [out[0]]
        for i in range(1, len(out) - 1):
            p, q, r = keep[-1], out[i], out[i + 1]
            if (p[0] == q[0] == r[0]) or (p[1] == q[1] == r[1]):
                changed = True  # q is on the line p–r (or a dead end back along it)
                continue
            keep.append(q)
        keep.append(out[-1])
        pts = keep
    return pts


def fix_edge_route(fig: Figure, edge: Edge) -> Edge | None:
    """Re-route the edge around the nodes it crossed, and pin the route."""
    route = orthogonal_detour(fig, edge)
    if route is None:
        return None
    upd: dict[str, Any] = {"route": [{"x": x, "y": y} for x, y in route], "pinned": True}
    if edge.routing not in (None, "orthogonal") or fig.routing != "orthogonal":
        upd["routing"] = "orthogonal"
    if edge.label and edge.label_box is not None:
        lb = _label_position(fig, edge, route)
        if lb is not None:
            upd["label_box"] = lb.model_dump()
    return _with(edge, **upd)


def _label_position(fig: Figure, edge: Edge, route: list[tuple[float, float]]) -> Box | None:
    """A spot along the route for the edge label that sits on no node and no other label."""
    lb = edge.label_box
    if lb is None or len(route) < 2:
        return None
    blockers = [b for c, b in leaf_boxes(fig) if c.id != edge.id]
    blockers += [e.label_box for e in fig.of_kind("edge") if e.id != edge.id and e.label_box is not None]
    seglens = [math.dist(p, q) for p, q in zip(route, route[1:])]
    total = sum(seglens) or 1.0
    for frac in (0.5, 0.35, 0.65, 0.2, 0.8):
        d = frac * total
        for (p, q), sl in zip(zip(route, route[1:]), seglens):
            if d <= sl or sl == seglens[-1]:
                t = 0 if sl == 0 else min(d / sl, 1.0)
                mx, my = p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t
                break
            d -= sl
        for dx, dy in ((0, 0), (0, -(lb.h / 2 + 3)), (0, lb.h / 2 + 3), (lb.w / 2 + 3, 0), (-(lb.w / 2 + 3), 0)):
            cand = Box(x=mx + dx - lb.w / 2, y=my + dy - lb.h / 2, w=lb.w, h=lb.h)
            if cand.x >= 0 and cand.y >= 0 and all(_overlap_area(_shrink(cand, 1.0), b) <= 0 for b in blockers):
                return cand
    return None


def fix_label_overlap(fig: Figure, edge: Edge) -> Edge | None:
    """Move the edge label to a free spot along its route (and pin the edge so layout keeps it)."""
    route = [(p.x, p.y) for p in edge.route] if edge.route else []
    lb = _label_position(fig, edge, route)
    if lb is None:
        return None
    return _with(edge, label_box=lb.model_dump(), pinned=True)


def fix_off_canvas(fig: Figure, c: Component) -> Component | None:
    """Bring the component inside the canvas (boxes are clamped and pinned; edges re-routed)."""
    if isinstance(c, Edge):
        return fix_edge_route(fig, c)
    if c.box is None or fig.canvas is None:
        return None
    b = c.box
    x = min(max(b.x, 0.0), max(fig.canvas.w - b.w, 0.0))
    y = min(max(b.y, 0.0), max(fig.canvas.h - b.h, 0.0))
    moved = _with(c, box={"x": x, "y": y, "w": b.w, "h": b.h}, pinned=True)
    if any(_overlap_area(moved.box, o) > 0 for cc, o in leaf_boxes(fig) if cc.id != c.id):
        placed = _free_box(fig, c, moved.box, ("down", "right", "up", "left"))
        if placed is not None:
            moved = _with(moved, box=placed.model_dump())
    return moved


def fix_contrast(fig: Figure, c: Component) -> Component | None:
    """Darken (or whiten) the text colour until it reads against its background."""
    theme = figure_theme(fig)

    if isinstance(c, Node):
        fill = _solid(c.fill or theme.node_fill, theme.background)
        return _with(c, text_color=best_text_color(fill, theme))
    if isinstance(c, Group):
        fill = _solid(c.fill or theme.group_fill, theme.background)
        return _with(c, text_color=best_text_color(fill, theme))
    if isinstance(c, Text):
        under = theme.background
        host = fig.by_id().get(c.near) if c.near and c.side == "center" else None
        if isinstance(host, Node):
            under = _solid(host.fill or theme.node_fill, theme.background)
        return _with(c, color=best_text_color(under, theme))
    return None


def fix_axis_title(c: Chart, channel: str) -> Chart | None:
    spec = dict(c.spec)
    enc = {k: dict(v) if isinstance(v, dict) else v for k, v in spec.get("encoding", {}).items()}
    e = enc.get(channel)
    if not isinstance(e, dict):
        return None
    e["title"] = e.get("field") or channel
    spec["encoding"] = enc
    return _with(c, spec=spec)


def fix_chart_readback(c: Chart) -> Chart | None:
    """Draw the chart again from its own data with the deterministic chart builder."""
    try:
        return rebuild_chart(c)
    except Exception:
        return None


def fix_tiny_font(fig: Figure, issue: dict[str, Any]) -> tuple[dict[str, Any], list[Component]]:
    """A figure printed too small: lay it out vertically first; if it already is, enlarge the small text."""
    if fig.direction in ("LR", "RL") and fig.canvas is not None and fig.canvas.w > fig.canvas.h:
        return {"direction": "TB"}, []

    scale = print_scale(fig) or 1.0
    theme = figure_theme(fig)
    want_px = 6.0 / (scale * 0.75) * 1.1
    changed = []
    by_id = fig.by_id()
    for cid in issue["component_ids"]:
        c = by_id.get(cid)
        # nodes, annotations, edge labels and group titles all carry their own font size
        if isinstance(c, (Node, Text, Edge, Group)) and any(fs < want_px for _, _, fs, _ in text_on(c, fig, theme)):
            changed.append(_with(c, font_size=round(want_px, 1)))
    return {}, changed


def repair_by_rule(fig: Figure, target: str, issues: list[dict[str, Any]]) -> dict[str, Any]:
    """Fix the target's geometric issues by rule. ``ok`` is False when no rule applied."""
    result = _result(target, "rule", issues)
    if target == FIGURE:
        header: dict[str, Any] = {}
        comps: list[Component] = []
        for issue in issues:
            if issue["code"] == "tiny_font":
                h, cs = fix_tiny_font(fig, issue)
                header.update(h)
                comps += cs
                if h or cs:
                    result["fixed"].append(issue_key(issue))
        result.update(ok=bool(header or comps), figure=header, components=[_dump(c) for c in comps])
        if not result["ok"]:
            result["error"] = "no rule can make the text larger at this print width"
        return result
    by_id = fig.by_id()
    current = by_id.get(target)
    if current is None:
        result["error"] = f"no component '{target}' to repair"
        return result
    work = fig
    for issue in issues:
        code = issue["code"]
        fixed: Component | None = None
        if code == "overlap":
            fixed = fix_overlap(work, current)
        elif code == "text_overflow" and isinstance(current, Node):
            fixed = fix_text_overflow(work, current)
        elif code in ("edge_crosses_node", "edge_detached") and isinstance(current, Edge):
            fixed = fix_edge_route(work, current)
        elif code == "label_overlap" and isinstance(current, Edge):
            fixed = fix_label_overlap(work, current)
        elif code == "off_canvas":
            fixed = fix_off_canvas(work, current)
        elif code == "low_contrast":
            fixed = fix_contrast(work, current)
        elif code == "chart_axis_title" and isinstance(current, Chart):
            fixed = fix_axis_title(current, issue.get("channel", "x"))
        elif code == "chart_readback" and isinstance(current, Chart):
            fixed = fix_chart_readback(current)
        if fixed is not None and print_component(fixed) != print_component(current):
            current = fixed
            work = _replace(work, fixed)
            result["fixed"].append(issue_key(issue))
    if result["fixed"]:
        result.update(ok=True, components=[_dump(current)])
    else:
        result["error"] = "no rule applied: " + ", ".join(i["code"] for i in issues)
    return result


# ---------------------------------------------------------------------------------
# The model, for semantic issues and free-form instructions
# ---------------------------------------------------------------------------------

def instruction_for(issues: list[dict[str, Any]], brief: str | None = None) -> str:
    """The text of the repair request for a target's issues."""
    parts = []
    for i in issues:
        if i["code"] == "missing_entity":
            ent = i.get("entity", i["target"])
            context = _sentence_with(brief or "", ent)
            text = f'add "{ent}" as a new component with id {i["target"]}, connected as the brief says'
            parts.append(text + (f": {context}" if context else ""))
        elif i["code"] == "instruction":
            parts.append(i.get("instruction", i["message"]))
        else:
            parts.append(i["message"])
    return "; ".join(parts)


def _sentence_with(brief: str, name: str) -> str:
    for s in SENTENCE_SPLIT.split(brief):
        if name.lower() in s.lower():
            return s.strip()[:300]
    return ""


def check_replacement(fig: Figure, target: str, comps: list[Component], *, allow_new: bool,
                      allowed_ids: set[str] | None = None) -> Figure:
    """The figure with ``comps`` merged in, or :class:`RepairRejected` saying what is wrong."""
    by_id = fig.by_id()
    allowed = {target} | (allowed_ids or set())
    seen: set[str] = set()
    for c in comps:
        if c.id in seen:
            raise RepairRejected(f"the repair writes component '{c.id}' twice")
        seen.add(c.id)
        if c.id in by_id and c.id not in allowed:
            raise RepairRejected(f"the repair would change '{c.id}', which was not flagged (only '{target}' may change)")
        if c.id not in by_id and not allow_new:
            raise RepairRejected(f"the repair adds '{c.id}'; this issue only allows changing '{target}'")
        if c.id in by_id and c.kind != by_id[c.id].kind:
            raise RepairRejected(f"the repair turns {by_id[c.id].kind} '{c.id}' into a {c.kind}")
    if target in by_id and target not in seen:
        raise RepairRejected(f"the repair output has no line for '{target}'")
    try:
        return merge(fig, comps, [], {})
    except SpecError as e:
        raise RepairRejected(f"the repaired figure would be invalid: {e}") from None


def repair_by_model(fig: Figure, target: str, issues: list[dict[str, Any]], backend: Any, *,
                    brief: str | None = None, max_attempts: int = MAX_ATTEMPTS) -> dict[str, Any]:
    """Ask the model's repair task for replacement lines; validate; retry up to ``max_attempts``."""
    result = _result(target, "model", issues)
    if backend is None:
        result["error"] = "no model backend (--backend none): semantic issues are reported, not fixed"
        return result
    allow_new = any(i["code"] in _NEW_OK for i in issues)
    allowed_ids = set()
    for i in issues:
        if i["code"] == "instruction":
            allowed_ids |= set(i["component_ids"])
    view = strip_layout(fig)
    prompt = repair_prompt(print_dsl(view), instruction_for(issues, brief), [target])
    original = {c.id: print_component(c) for c in view.components}
    for attempt in range(1, max_attempts + 1):
        result["attempts"] = attempt
        try:
            text, record = call_model(backend, "repair", prompt, max_new_tokens=REPAIR_MAX_NEW_TOKENS,
                                      temperature=0.0 if attempt == 1 else 0.7)
        except Exception as e:  # a dead server or a crash in the backend: give up on this target, keep the figure
            result["error"] = f"model call failed: {e}"
            return result
        result["calls"].append(record)
        try:
            comps = parse_component_lines(text)
            comps = [_keep_geometry(by_c, fig) for by_c in comps]
            check_replacement(fig, target, comps, allow_new=allow_new, allowed_ids=allowed_ids)
            if all(original.get(c.id) == print_component(strip_layout_component(c)) for c in comps):
                raise RepairRejected("the repair output repeats the component unchanged")
        except (SpecError, RepairRejected) as e:
            result["error"] = f"attempt {attempt}: {e}"
            if record.get("hit_length_limit") and isinstance(e, SpecError):
                result["error"] += " (the output ran to the length limit; not retried)"
                return result
            continue
        result.update(ok=True, error=None, components=[_dump(c) for c in comps],
                      fixed=[issue_key(i) for i in issues])
        return result
    return result


def strip_layout_component(c: Component) -> Component:
    upd: dict[str, Any] = {}
    if c.box is not None and not c.pinned:
        upd["box"] = None
    if isinstance(c, Edge) and not c.pinned:
        upd.update(route=None, label_box=None)
    return c.model_copy(update=upd) if upd else c


def _keep_geometry(c: Component, fig: Figure) -> Component:
    """A replacement keeps the original's pinned position unless it sets its own."""
    old = fig.by_id().get(c.id)
    if old is None or old.kind != c.kind:
        return c
    upd: dict[str, Any] = {}
    if c.box is None and old.box is not None:
        upd["box"] = old.box.model_dump()
        if old.pinned and not c.pinned:
            upd["pinned"] = True
    if isinstance(c, Edge) and isinstance(old, Edge) and c.route is None and old.pinned and old.route:
        upd["route"] = [p.model_dump() for p in old.route]
        upd["pinned"] = True
    return _with(c, **upd) if upd else c


# ---------------------------------------------------------------------------------
# One target, and the fan-in
# ---------------------------------------------------------------------------------


def repair_target(fig: Figure, target: str, issues: list[dict[str, Any]], *, backend: Any = None,
                  brief: str | None = None, max_attempts: int = MAX_ATTEMPTS) -> dict[str, Any]:
    """Repair one target: rules for its geometric issues, then the model for the rest."""
    rule_issues = [i for i in issues if i.get("fix") == "rule"]
    model_issues = [i for i in issues if i.get("fix") != "rule"]
    result = _result(target, "rule" if rule_issues else "model", issues)
    errors: list[str] = []
    work = fig
    if rule_issues:
        r = repair_by_rule(fig, target, rule_issues)
        if r["ok"]:
            try:
                work = merge(fig, [_load(c) for c in r["components"]], [], r["figure"])
                result.update(components=r["components"], figure=r["figure"], fixed=list(r["fixed"]))
            except SpecError as e:
                errors.append(f"rule repair invalid: {e}")
        else:
            errors.append(r["error"])
    if model_issues:
        m = repair_by_model(work, target, model_issues, backend, brief=brief, max_attempts=max_attempts)
        result["calls"] = m["calls"]
        result["attempts"] = m["attempts"]
        if m["ok"]:
            mine = {c["id"] for c in m["components"]}
            result["components"] = m["components"] + [c for c in result["components"] if c["id"] not in mine]
            result["fixed"] += m["fixed"]
            result["by"] = "rule+model" if rule_issues else "model"
        else:
            errors.append(m["error"])
    result["ok"] = bool(result["fixed"])
    result["error"] = "; ".join(e for e in errors if e) or None
    return result


def allowed_changes(result: dict[str, Any], issues: list[dict[str, Any]]) -> set[str]:
    """Existing ids a result may change: its target, and for figure-level or instruction issues their components."""
    allowed = {result["target"]}
    for i in issues:
        if i["target"] == result["target"] and (i["target"] == FIGURE or i["code"] == "instruction"):
            allowed |= set(i["component_ids"])
    return allowed


def apply_repairs(fig: Figure, results: list[dict[str, Any]], issues: list[dict[str, Any]]
                  ) -> tuple[Figure, list[dict[str, Any]], list[dict[str, Any]]]:
    """Merge the results into the figure, one at a time, re-checking locality for each.

    Returns (figure, applied results, rejected results with ``error`` set). Results are
    applied in target order, so the outcome does not depend on which repair finished first.
    """
    applied, rejected = [], []
    touched: set[str] = set()
    for r in sorted(results, key=lambda r: r["target"]):
        if not r.get("ok"):
            rejected.append(r)
            continue
        try:
            comps = [_load(c) for c in r.get("components", [])]
            allowed = allowed_changes(r, issues)
            existing = fig.by_id()
            clash = {c.id for c in comps} & touched
            if clash:
                raise RepairRejected(f"'{sorted(clash)[0]}' was already changed by another repair this round")
            for c in comps:
                if c.id in existing and c.id not in allowed:
                    raise RepairRejected(f"the repair of '{r['target']}' would change '{c.id}', which was not flagged")
            new = merge(fig, comps, r.get("delete", []), r.get("figure") or {})
            extra = changed_ids(fig, new) - allowed - {c.id for c in comps if c.id not in existing} - set(r.get("delete", []))
            if r.get("figure"):
                extra.discard(FIGURE)
            if extra:
                raise RepairRejected(f"the repair of '{r['target']}' changed {sorted(extra)}, which were not flagged")
        except (SpecError, RepairRejected) as e:
            rejected.append({**r, "ok": False, "error": str(e)})
            continue
        fig = new
        touched |= {c.id for c in comps} | set(r.get("delete", []))
        applied.append(r)
    return fig, applied, rejected


def merge(fig: Figure, comps: list[Component], delete: list[str], header: dict[str, Any]) -> Figure:
    """The figure with components replaced in place (new ones appended), some deleted, header fields set."""
    repl = {c.id: c for c in comps}
    out = []
    for c in fig.components:
        if c.id in delete:
            continue
        out.append(repl.pop(c.id, c))
    out += list(repl.values())
    data = fig.model_dump()
    data.update(header)
    data["components"] = [c.model_dump() for c in out]
    return Figure.from_dict(data)


def _replace(fig: Figure, c: Component) -> Figure:
    return merge(fig, [c], [], {})


def _dump(c: Component) -> dict[str, Any]:
    return c.model_dump(mode="json", exclude_defaults=True) | {"id": c.id, "kind": c.kind}


def _load(data: dict[str, Any]) -> Component:
    return COMPONENT_TYPES[data["kind"]].model_validate(data)


def _result(target: str, by: str, issues: list[dict[str, Any]]) -> dict[str, Any]:
    return {"target": target, "ok": False, "by": by, "components": [], "delete": [], "figure": {},
            "fixed": [], "attempts": 0, "error": None, "calls": [], "codes": sorted({i["code"] for i in issues})}


__all__ = [
    "apply_repairs", "changed_ids", "check_replacement", "merge", "repair_by_model",
    "repair_by_rule", "repair_target", "strip_layout", "RepairRejected",
]
