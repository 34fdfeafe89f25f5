"""What follows a box moved in another editor: the edges on it, the notes placed near it,
and the frames of the groups it sits in.

The rules are the SVG merge-back's (:mod:`crafter.formats.svg_import`), written over
component dicts so the PowerPoint merge applies them the same way: a moved or resized box
is mapped from the drawn extent's change and pinned; an edge whose ends moved alike shifts
with them, otherwise it is re-routed (:func:`crafter.formats.merge.reroute`); a text placed
``near`` a moved component moves with it; a group or panel grows to hold members moved out
of it.
"""

from __future__ import annotations

from typing import Any

from crafter.base.theme import Theme
from crafter.formats.merge import edges_follow, frame_around, notes_follow
from crafter.spec.model import Box


def follow_moves(data: dict[str, dict[str, Any]], moved: dict[str, tuple[Box, Box]], parent_of: dict[str, str],
                 theme: Theme, routing: str) -> list[str]:
    """Apply ``moved`` (component id → drawn extent before, after) to ``data`` in place; the notes."""
    notes: list[str] = []
    shifts: dict[str, tuple[float, float]] = {}
    resized: set[str] = set()
    for cid, (ob, nb) in moved.items():
        d = data[cid]
        if d["kind"] == "text":
            dx, dy = nb.cx - ob.cx, nb.cy - ob.cy
            if d.get("box"):
                d["box"] = {**d["box"], "x": round(d["box"]["x"] + dx, 2), "y": round(d["box"]["y"] + dy, 2)}
            elif d.get("at"):
                d["at"] = {"x": round(d["at"]["x"] + dx, 2), "y": round(d["at"]["y"] + dy, 2)}
            d["pinned"] = True
            shifts[cid] = (dx, dy)
            notes.append(f"text '{cid}' moved by ({dx:.1f}, {dy:.1f})")
            continue
        if d["kind"] == "path" or not d.get("box"):
            continue
        b = d["box"]
        sx = nb.w / ob.w if ob.w > 1e-6 else 1.0
        sy = nb.h / ob.h if ob.h > 1e-6 else 1.0
        new = {"x": round(nb.x + (b["x"] - ob.x) * sx, 2), "y": round(nb.y + (b["y"] - ob.y) * sy, 2),
               "w": round(max(b["w"] * sx, 0.0), 2), "h": round(max(b["h"] * sy, 0.0), 2)}
        d["box"], d["pinned"] = new, True
        if abs(nb.w - ob.w) > 0.5 or abs(nb.h - ob.h) > 0.5:
            resized.add(cid)
            notes.append(f"{d['kind']} '{cid}' moved/resized to {new['x']:.1f},{new['y']:.1f} "
                         f"{new['w']:.1f}×{new['h']:.1f}")
        else:
            notes.append(f"{d['kind']} '{cid}' moved by ({new['x'] - b['x']:.1f}, {new['y'] - b['y']:.1f})")
        shifts[cid] = (new["x"] - b["x"], new["y"] - b["y"])
    if shifts:
        notes_follow(data, shifts)
        edges_follow(data, shifts, resized, theme, routing)
        notes += _frames_grow(data, shifts, parent_of, theme)
    return notes


def _frames_grow(data: dict[str, dict[str, Any]], shifts: dict[str, tuple[float, float]], parent_of: dict[str, str],
                 theme: Theme) -> list[str]:
    notes = []
    depth = {}
    for cid in data:
        p, k = cid, 0
        while p in parent_of:
            p, k = parent_of[p], k + 1
        depth[cid] = k
    grown: set[str] = set()
    for gid in sorted((c for c, d in data.items() if d["kind"] in ("group", "panel")), key=lambda c: -depth[c]):
        g = data[gid]
        if gid in shifts or not g.get("box"):
            continue
        members = [data[m] for m in g.get("members", []) if m in data and data[m].get("box")
                   and (m in shifts or m in grown)]
        if not members:
            continue
        b = g["box"]
        x0, y0, x1, y1 = frame_around(g, members, theme)
        if (x0, y0, x1, y1) != (b["x"], b["y"], b["x"] + b["w"], b["y"] + b["h"]):
            g["box"] = {"x": round(x0, 2), "y": round(y0, 2), "w": round(x1 - x0, 2), "h": round(y1 - y0, 2)}
            grown.add(gid)
            notes.append(f"{g['kind']} '{gid}' grown to hold its moved members")
    return notes
