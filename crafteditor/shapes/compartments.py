"""Class boxes: a UML class (or an entity table) is one box cut into compartments by dividers,
its name on top and its attributes and operations below. Each compartment is a face of its own
and came back as a node of its own ('Dog' | '+String size' | '+bark() +smell()'), the class
split in three. Compartments stacked on one another (same left and right side, each one's top
on the one above's bottom, same fill) whose lower parts read as members, or are empty, are
joined into one node; the dividers are kept, to be drawn as lines (``DetectedShape.dividers``).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import numpy as np

from crafteditor.ocr.runs import TextRun
from crafteditor.paint import color_distance, luma_summed
from crafteditor.shapes.faces import merge_faces

# shapes.detect calls this module, so its DetectedShape is not imported here (no import loops)
DetectedShape = Any

PALE_LUMA = 225.0  # two compartments this light (luma) are one box's, whatever their tints

# a member line: '+int age', '-canEat()', 'name: String', '#id', '~count', 'PK id', 'void run()'
_MEMBER = re.compile(r"^\s*[+\-#~●•o0]\s*\S|\(.*\)|\w\s*:\s*\w|^\s*(PK|FK)\b"
                     # an entity table's column: a name and its type
                     r"|\b(int|integer|bigint|smallint|varchar|char|character|text|bool|boolean|date|datetime"
                     r"|timestamp|float|double|decimal|numeric|string|uuid|serial|json|blob|void|long)\b", re.I)
# a bare column name in snake case ('game_id', 'short_description') alone on its line: two or more
# make an entity table's column list (one is a stacked box's name: 'hidden_layer')
_COLUMN = re.compile(r"^\s*[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+\s*$")


def join_compartments(shapes: list[DetectedShape], runs: list[TextRun]) -> list[DetectedShape]:
    """``shapes`` with each class box's compartments joined into one (group members re-indexed)."""
    order = sorted((i for i, s in enumerate(shapes) if _candidate(s)), key=lambda i: shapes[i].y)
    below: dict[int, int] = {}
    taken: set[int] = set()
    for i in order:
        for j in order:
            if j != i and j not in taken and _stacked(shapes[i], shapes[j], runs):
                below[i] = j
                taken.add(j)
                break
    heads = [i for i in order if i in below and i not in taken]
    if not heads:
        return shapes
    drop: set[int] = set()
    replaced: dict[int, DetectedShape] = {}
    for head in heads:
        chain = [head]
        while chain[-1] in below:
            chain.append(below[chain[-1]])
        if not all(_members_or_empty(shapes[k], runs) for k in chain[1:]):
            continue
        replaced[head] = _joined([shapes[k] for k in chain])
        drop.update(chain[1:])
    if not replaced:
        return shapes
    return _without([replaced.get(i, s) for i, s in enumerate(shapes)], drop)


def empty_foot(rgb: np.ndarray, s: DetectedShape, runs: list[TextRun]) -> float:
    """The height of an empty compartment under class box ``s`` (its fill between two strokes,
    thinner than a face: PlantUML's class with no methods; no text in it, ``rgb`` having its
    text erased), or 0."""
    H, W = rgb.shape[:2]
    x0, x1 = int(s.x + 0.2 * s.w), int(s.x + 0.8 * s.w)
    y = int(round(s.y + s.h))
    if s.stroke is None or x1 - x0 < 4 or y + 4 >= H:
        return 0.0
    strip = rgb[y:min(H, y + int(4 * s.stroke_px) + 30), x0:x1].astype(np.float32)
    fill = (np.linalg.norm(strip - np.asarray(s.fill, np.float32), axis=2) <= 20).mean(axis=1) >= 0.95
    stroke = (np.linalg.norm(strip - np.asarray(s.stroke, np.float32), axis=2) <= 40).mean(axis=1) >= 0.95
    rows = np.flatnonzero(fill)
    if len(rows) < 2 or rows[0] > s.stroke_px + 2:
        return 0.0
    end = rows[0]
    while end + 1 < len(fill) and fill[end + 1]:
        end += 1
    if end - rows[0] + 1 < 2 or end + 1 >= len(stroke) or not stroke[end + 1:end + 2 + int(s.stroke_px)].any():
        return 0.0
    foot = float(end + 1 + s.stroke_px / 2)
    y1 = s.y + s.h + foot
    if any(r.bottom > s.y + s.h and r.y < y1 and r.right > s.x and r.x < s.x + s.w for r in runs):
        return 0.0
    return foot


def over_empty_compartments(rgb: np.ndarray, shapes: list[DetectedShape], runs: list[TextRun]) -> list[DetectedShape]:
    """``shapes`` with each box that has an empty compartment under it (:func:`empty_foot`) and
    another compartment right below that taken down over it (PlantUML's class with no fields:
    its name and its methods read as two boxes a strip apart), so the two join."""
    for s in shapes:
        if not _candidate(s) or s.dividers:
            continue
        foot = empty_foot(rgb, s, runs)
        gap = max(3.0, 2 * s.stroke_px + 1)
        if foot and any(t is not s and _candidate(t) and abs(t.x - s.x) <= 3 and abs(t.w - s.w) <= 3
                        and abs(t.y - (s.y + s.h + foot)) <= gap for t in shapes):
            s.dividers = [s.y + s.h]
            s.h += foot
    return shapes


def class_badges_dropped(shapes: list[DetectedShape]) -> list[DetectedShape]:
    """``shapes`` less the circled kind letters (PlantUML's C, I, A, E) in class boxes' name
    compartments: an icon of the class, no node (an arrow ending on the box's top met the badge's
    ring first and was joined to it); its letter is left out of the name (:func:`badge_letter`)."""
    drop = {j for s in shapes if s.dividers and not s.is_group for j, t in enumerate(shapes)
            if t.shape in ("circle", "ellipse") and _badge_of(t, s)}
    return _without(shapes, drop) if drop else shapes


def _badge_of(t: DetectedShape, s: DetectedShape) -> bool:
    title = s.dividers[0] - s.y
    return (s.x <= t.x and t.x + t.w <= s.x + 0.5 * s.w and s.y <= t.y and t.y + t.h <= s.dividers[0] + 1
            and t.h <= 0.9 * title)


def badge_letter(r: TextRun, s: DetectedShape, held: list[TextRun]) -> bool:
    """Whether run ``r`` in class box ``s`` is its circled kind letter: one letter in the name
    compartment's left half, left of the name on its line."""
    return (bool(s.dividers) and len(r.text.strip()) == 1 and r.text.strip().isalpha() and r.bottom <= s.dividers[0] + 1
            and r.cx < s.x + 0.5 * s.w and any(q is not r and q.x > r.right and abs(q.cy - r.cy) <= 0.6 * q.h
                                                 for q in held))


# a member's visibility icon read as a glyph (PlantUML: a circle public, a square private, a
# diamond protected, a triangle package): written as UML's own mark
_ICON = re.compile(r"^\s*([oO0○●■□◆◇▲△])\s+(?=\S)")
_MARKS = {"o": "+", "O": "+", "0": "+", "○": "+", "●": "+", "■": "-", "□": "-", "◆": "#", "◇": "#", "▲": "~", "△": "~"}
# the kind letter read into the name's line ('E Storage': the badge's E and the name as one run)
_KIND = re.compile(r"^\s*[CIAE]\s+(?=[A-Z]\w)")


def member_text(r: TextRun, s: DetectedShape) -> str | None:
    """Run ``r``'s text in class box ``s`` with a visibility icon read as a glyph made UML's mark
    (or a kind letter read into the name left out); None where nothing changes."""
    if not s.dividers:
        return None
    if r.cy > s.dividers[0] and (m := _ICON.match(r.text)):
        return _MARKS[m.group(1)] + r.text[m.end():]
    if r.cy < s.dividers[0] and (m := _KIND.match(r.text)):
        return r.text[m.end():]
    return None


def _without(shapes: list[DetectedShape], drop: set[int]) -> list[DetectedShape]:
    """``shapes`` less those of ``drop``, the group members of those kept renumbered to match (in place)."""
    keep = [i for i in range(len(shapes)) if i not in drop]
    index = {old: new for new, old in enumerate(keep)}
    out = [shapes[i] for i in keep]
    for s in out:
        s.members = [index[m] for m in s.members if m in index]
    return out


def _candidate(s: DetectedShape) -> bool:
    return not s.is_group and s.shape in ("box", "round") and s.stroke is not None


def _stacked(a: DetectedShape, b: DetectedShape, runs: list[TextRun]) -> bool:
    """``b`` is the compartment right under ``a``: same sides, its top on a's bottom, same fill (or
    both pale, ``b`` holding members: an entity table's header is often shaded grey over a white body)."""
    # a sketched outline's sides wander by a few px (a hand-drawn compartment: twice the slack)
    sketched = any(s.face is not None and s.face.soft for s in (a, b))
    tol = max(3.0, (0.04 if sketched else 0.02) * max(a.w, b.w))
    gap = max(3.0, 2 * max(a.stroke_px, b.stroke_px) + 1)
    return (abs(a.x - b.x) <= tol and abs(a.w - b.w) <= tol and abs(b.y - (a.y + a.h)) <= gap
            and (color_distance(a.fill, b.fill) <= 30
                 or (min(_luma(a.fill), _luma(b.fill)) >= PALE_LUMA and _holds_members(b, runs))))


def _luma(c: tuple[int, int, int] | None) -> float:
    return 0.0 if c is None else float(luma_summed(c))


def _inside(r: TextRun, s: DetectedShape) -> bool:
    return s.x <= r.cx <= s.x + s.w and s.y <= r.cy <= s.y + s.h


def _members_or_empty(s: DetectedShape, runs: list[TextRun]) -> bool:
    """A lower compartment: empty, or holding a member line (a stack of layers' boxes holds names)."""
    held = [r for r in runs if _inside(r, s)]
    return not held or _members(held)


def _holds_members(s: DetectedShape, runs: list[TextRun]) -> bool:
    return _members([r for r in runs if _inside(r, s)])


def _members(held: list[TextRun]) -> bool:
    """Whether the runs held by a compartment include a member line (or two bare column names)."""
    return any(_MEMBER.search(r.text) for r in held) or sum(bool(_COLUMN.match(r.text)) for r in held) >= 2


def _joined(parts: list[DetectedShape]) -> DetectedShape:
    top, bottom = parts[0], parts[-1]
    face = top.face
    for p in parts[1:]:
        face = merge_faces(face, p.face)
    # the dividers' centre lines: where one compartment's outline meets the next one's
    dividers = [float(np.mean([a.y + a.h, b.y])) for a, b in zip(parts, parts[1:])]
    dividers = sorted([*dividers, *(d for p in parts for d in p.dividers)])  # an empty compartment's too
    # the dividers are the box's own: not holes of a drawing inside it (a frame's, frames.holds_drawing)
    mask = face.mask.copy()
    reach = int(np.ceil(top.stroke_px)) + 2
    for y in dividers:
        r0, r1 = max(0, int(y) - face.y - reach), max(0, int(y) - face.y + reach + 1)
        mask[r0:r1] |= face.filled[r0:r1]
    face = replace(face, mask=mask)
    x0, x1 = min(p.x for p in parts), max(p.x + p.w for p in parts)
    return replace(top, shape="box", x=x0, w=x1 - x0, h=bottom.y + bottom.h - top.y, iou=min(p.iou for p in parts),
                   face=face, dividers=dividers, members=[])


def join_tables(shapes: list[DetectedShape], rgb: np.ndarray, background: tuple[int, int, int],
                runs: list[TextRun]) -> list[DetectedShape]:
    """``shapes`` with each entity table's header joined with its body: a Mermaid or dbdiagram entity
    is a stroked header box over rows cut into cells (type | name | key), every other row filled
    like the page (no face of its own). The header's two sides run on down the body to its bottom
    border; the body holds member lines (column types). The cells are absorbed into one node."""
    out = list(shapes)
    drop: set[int] = set()
    for i, h in enumerate(shapes):
        if i in drop or not _candidate(h) or h.dividers or not any(_inside(r, h) for r in runs):
            continue
        bottom = _sides_run_down(rgb, background, h)
        if bottom is None:
            continue
        body = replace(h, y=h.y + h.h, h=bottom - (h.y + h.h))
        held = [r for r in runs if _inside(r, body)]
        cells = [j for j, c in enumerate(shapes) if j != i and not c.is_group and c.x >= h.x - 3
                 and c.x + c.w <= h.x + h.w + 3 and c.y >= body.y - 3 and c.y + c.h <= bottom + 3]
        if not held or not _members(held) or any(shapes[j].members for j in cells):
            continue
        face = h.face
        for j in cells:
            face = merge_faces(face, shapes[j].face)
        rows = sorted({round(shapes[j].y) for j in cells} | {round(shapes[j].y + shapes[j].h) for j in cells} | {
            round(h.y + h.h)})
        out[i] = replace(h, h=bottom - h.y, face=face, dividers=[float(y) for y in rows if y < bottom - 3])
        drop.update(cells)
    if not drop:
        return shapes
    return _without(out, drop)


def _sides_run_down(rgb: np.ndarray, background: tuple[int, int, int], h: DetectedShape) -> float | None:
    """The bottom of the body under header ``h``: where its two sides, running on down as ink,
    meet a border across (None where they do not run on at least half the header's height)."""
    H, W = rgb.shape[:2]
    y0 = int(round(h.y + h.h)) + 1
    r = int(np.ceil(h.stroke_px)) + 1
    xl, xr = int(round(h.x)), int(round(h.x + h.w))
    if y0 >= H - 2 or xl - r < 0 or xr + r >= W:
        return None
    bg = np.asarray(background, np.int16)

    def ink(block: np.ndarray) -> np.ndarray:  # only the columns asked: the page's full width was a third of shapes' time
        return np.abs(block.astype(np.int16) - bg).sum(axis=-1) > 60

    both = ink(rgb[y0:, xl - r:xl + r + 1]).any(axis=1) & ink(rgb[y0:, xr - r:xr + r + 1]).any(axis=1)
    off = np.flatnonzero(~both)
    n = int(off[0]) if len(off) else len(both)
    if n < 0.5 * h.h:
        return None
    # a border across at the sides' end
    for y in range(n - 1, max(-1, n - 2 * r - 2), -1):
        if ink(rgb[y0 + y, xl:xr + 1]).mean() >= 0.9:
            return float(y0 + y)
    return None
