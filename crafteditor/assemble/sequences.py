"""Sequence diagrams: participants in a row, each with a lifeline hanging from its box, and
messages, horizontal arrows from one lifeline to another (or out and back to the same one).

A message joins two participants, not the boxes its ends touch: its ends stop on lifelines far
below the boxes, often on an activation bar, and the generic edge pass, which attaches a line's
ends to the nearest outline, left them as free paths or joined them to the bar (mermaid's,
PlantUML's, websequencediagrams' and PowerPoint's sequence diagrams all read with no edge). The
lifelines and messages are read off the pixels (the tracer cuts a lifeline at every message
crossing it and joins a message's head to the lifeline it touches): a thin vertical ink column
below the middle of each box of a row, and rows of ink, solid or dashed, running from one such
column to another. The rectangles a lifeline, two messages and the next lifeline enclose are
no boxes (:func:`lifeline_cells`)."""

from __future__ import annotations

import difflib
import math
import re
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from crafteditor.assemble.geometry import bounds, dist_to_polyline
from crafteditor.assemble.seq_badges import without_badges
from crafteditor.assemble.seq_created import created_lifelines, creation_messages
from crafteditor.assemble.seq_icons import icon_lifelines, names_over_icons
from crafteditor.assemble.seq_ink import ink_mask
from crafteditor.assemble.seq_lifelines import lifeline
from crafteditor.assemble.seq_loops import curved_self_messages
from crafteditor.assemble.seq_names import names_on_lifelines
from crafteditor.assemble.seq_parts import Lifeline, Message
from crafteditor.assemble.seq_strokes import (
    WAVE,
    border_under,
    head_at,
    head_under,
    joins,
    median_colour,
    runs_past,
    runs_to_ends,
    spread,
    stops,
    stroke_alone,
    waves,
    wavy_head,
)
from crafteditor.assemble.seq_wander import wandering_messages
from crafteditor.assemble.slanted import slanted_strokes
from crafteditor.lines.paths import LinePath
from crafteditor.ocr.runs import TextRun, split_wide_gaps
from crafteditor.shapes.detect import DetectedShape, keep_shapes

FRAME_PAST = 0.25  # share of the 25 px past each end a row inks, at least, where it runs on as a frame's edge
# px: two participants' boxes of one row end within this of each other, whatever their heights (20 lost a 2x Mermaid
# figure's participant box 131 px tall whose bottom is 27 px over its icon participants' names)
ROW_TOL = 40.0
NAME_GAP = 1.0  # em: a gap this wide in a line of text outside every box parts two participants' names


@dataclass
class Sequence:
    lifelines: list[Lifeline]
    messages: list[Message]
    labels: list[int] = field(default_factory=list)  # shapes that are a message's label box, not participants
    # participants drawn as a name with no box (an actor's, a database's icon above it, or a bare name): a box
    # around the name, to be appended to the shapes (the lifelines' indices count them on from len(shapes))
    extra: list[DetectedShape] = field(default_factory=list)
    strokes: list[int] = field(default_factory=list)  # shapes that are a message's own stroke (a curved loop's)

    def renumber(self, keep: list[int]) -> None:
        """The lifelines' shape indices where only the shapes ``keep`` (ascending) are kept."""
        index = {old: new for new, old in enumerate(keep)}
        for ln in self.lifelines:
            ln.node = index[ln.node]
            ln.bottom = index.get(ln.bottom) if ln.bottom is not None else None
        self.strokes = [index[k] for k in self.strokes if k in index]


def participant_shapes(lifelines: list[Lifeline]) -> set[int]:
    """The shapes the lifelines hang from, and those repeated at their feet."""
    return {k for ln in lifelines for k in (ln.node, ln.bottom) if k is not None}


def find_sequence(rgb: np.ndarray, background: tuple[int, int, int], shapes: list[DetectedShape],
                  runs: list[TextRun]) -> Sequence | None:
    """The lifelines and messages of a sequence diagram, or None where the figure is none: at
    least two lifelines hanging from a row of boxes, and a message between them. Where a sequence
    is found, a line of ``runs`` holding the names of two participants is cut in two in place
    (:func:`_split_names`: its first piece in its place, the other appended)."""
    ink = ink_mask(rgb, background)  # once: each box and each name outside one looks under itself
    shapes = _worded_frames_as_boxes(shapes, runs)
    found = [ln for i, s in enumerate(shapes) if (ln := lifeline(rgb, ink, shapes, i)) is not None]
    names, pieces = _name_runs(shapes, runs, ink)
    boxes, origin = _name_boxes(shapes, names, background)
    pool = [*shapes, *boxes]
    candidates = found + _named_lifelines(rgb, ink, pool, len(shapes), found, [names[k].text for k in origin])
    icons = icon_lifelines(rgb, ink, pool, len(shapes), candidates)  # a name over its icon, the line under that
    candidates += icons
    found = _one_row(candidates, pool, len(shapes))
    names_over_icons(found, pool, len(shapes), runs)  # an icon the shape pass found, its name over it
    if found:  # a participant's lifeline runs down to where the others end (an arrow into a label stops short),
        # or to its name repeated at its foot (where another's runs on past a foot name OCR read as one line with
        # the next, into the icon under it: PlantUML's control and entity participants, a figure left with one)
        end = _common_end([ln.y1 for ln in found])
        found = [ln for ln in found if ln.node < len(shapes) or ln.bottom is not None
                 or end - ln.y1 <= max(12.0, 0.05 * (ln.y1 - ln.y0))]
    found += created_lifelines(ink, candidates, found, pool, len(shapes))
    if len(found) < 2:
        return None
    named = {origin[k - len(shapes)] for k in participant_shapes(found) if k >= len(shapes)}
    extra = _keep_extra(found, pool, len(shapes))
    found.sort(key=lambda ln: ln.x)
    ink = without_badges(ink, [ln.x for ln in found])  # the messages are read with autonumber badges as strokes
    H, W = ink.shape
    text = np.zeros(ink.shape, bool)
    for r in runs:  # the glyphs, not their boxes (a label's box often takes in its arrow)
        g = np.asarray(r.glyphs, bool)
        y0, x0 = int(r.y), int(r.x)
        if r.angle != 0 or g.ndim != 2 or y0 < 0 or x0 < 0:
            continue
        g = g[:H - y0, :W - x0]
        text[y0:y0 + g.shape[0], x0:x0 + g.shape[1]] |= g
    # with their antialiased rims
    text = cv2.dilate(text.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
    # a label in a box on its message (drawn over the arrow, which it cuts) hides it as text does
    boxes = _label_boxes(shapes, runs, min(ln.y0 for ln in found))
    boxed = np.zeros(ink.shape, bool)
    for k in boxes:
        s = shapes[k]
        boxed[max(0, int(s.y) - 2):int(s.y + s.h) + 3, max(0, int(s.x) - 2):int(s.x + s.w) + 3] = True
    glyphs = text.copy()
    text |= boxed
    messages = _messages(ink, rgb, text, found, boxed=boxed, glyphs=glyphs)
    drawn = ink & ~text
    lifelines = [(lf.x, lf.y0, lf.y1) for lf in found]
    slanted = [Message(a, b, [pa, pb], width, colour, style, True, tail)
               for a, b, pa, pb, tail, colour, width, style in slanted_strokes(ink, rgb, drawn, lifelines)]
    messages += slanted
    # hand-drawn messages (websequencediagrams' napkin style) wave over a dozen rows: read on the
    # ink spread up and down, where no straight message was found
    for m in sorted(_messages(spread(drawn, WAVE), rgb, text, found, drawn), key=lambda m: -abs(m.target - m.source)):
        # one wave, read once: by the widest pair of lifelines it joins; a slanted message's
        # stretch between two lifelines it passes is no wave of its own
        mid = ((m.points[0][0] + m.points[-1][0]) / 2, m.points[0][1])
        if all(abs(m.points[0][1] - n.points[0][1]) > 2 * WAVE for n in messages) and all(
                dist_to_polyline(mid, n.points) > 2 * WAVE for n in slanted):
            messages.append(m)
    messages += wandering_messages(drawn, rgb, found, messages)
    messages += creation_messages(ink, rgb, found, [*shapes, *extra], len(shapes))
    messages.sort(key=lambda m: m.points[0][1])
    # a row through a note's or other box's middle is none of its messages (a note's text, its fold)
    parts = participant_shapes(found)
    xs = [ln.x for ln in found]
    inner = [s for k, s in enumerate(shapes) if not s.is_group and k not in parts and k not in boxes
             and not _cell(s, xs)]
    # a message's label box: it runs through its middle (a cell the lifelines and messages fence in, read as the
    # box of the label in it, is none: the messages along its top and bottom are the diagram's, jsd's hand look)
    plates = [shapes[k] for k in boxes if k not in parts and not _cell(shapes[k], xs)]
    messages = [m for m in messages if not any(_through(s, m, 3) and _covers(s, m) for s in inner)
                and not any(_through(s, m, 3) and abs(m.points[0][1] - s.cy) > 0.2 * s.h for s in plates)]
    if not messages:  # a sequence's participants talk to each other, not only to themselves
        return None
    messages += _self_messages(ink, rgb, found, messages, glyphs)
    messages += _boxed_self_messages(ink, rgb, found, [shapes[k] for k in boxes], messages)
    loops = curved_self_messages(drawn, rgb, found, messages)
    messages += loops
    _split_names(runs, names, pieces, named)
    loop_boxes = [bounds(m.points) for m in loops]
    return Sequence(found, messages, [k for k in boxes if _on_message(shapes[k], messages)], extra,
                    [k for k, s in enumerate(shapes) if k not in parts and any(_inside(s, b) for b in loop_boxes)])


def _worded_frames_as_boxes(shapes: list[DetectedShape], runs: list[TextRun]) -> list[DetectedShape]:
    """The shapes, a frame holding no shape but a word as tall as a third of it taken for a box: a
    large font's glyphs are long holes in a box's face, a drawing inside a frame to the shape pass
    (a 3x export's participant 'Client' was a frame, no participant, and its messages lost)."""
    return [replace(s, is_group=False) if s.is_group and not s.members and s.shape in ("box", "round") and any(
        r.angle == 0 and s.contains_point(r.cx, r.cy) and r.h >= 0.3 * s.h for r in runs) else s for s in shapes]


def _inside(s: DetectedShape, box: tuple[float, float, float, float], pad: float = 6.0) -> bool:
    """Whether box ``s`` lies within ``box`` (x0, y0, x1, y1) grown ``pad`` px each way."""
    x0, y0, x1, y1 = box
    return x0 - pad <= s.x and s.x + s.w <= x1 + pad and y0 - pad <= s.y and s.y + s.h <= y1 + pad


def _cell(s: DetectedShape, xs: list[float], tol: float = 5.0) -> bool:
    """Whether ``s`` stands with both sides on lifelines: a cell lifelines and messages enclose."""
    return any(abs(s.x - x) <= tol for x in xs) and any(abs(s.x + s.w - x) <= tol for x in xs)


def _through(s: DetectedShape, m: Message, rim: float = -3.0) -> bool:
    """Whether message ``m``'s row runs through box ``s`` (``rim`` px past its top and bottom: 3 takes in its
    border, the row of a note's top or bottom side, which a box read as a label plate hides from the ends'
    tests; -3 its inside only). A row on the border counts only where it stays within the box's width: a message
    that runs on past the box's side is a real one the box was fenced by (a pocket between a lifeline, two
    messages and a note's side), not the box's own top or bottom."""
    y, xs = m.points[0][1], [p[0] for p in m.points]
    x0, x1 = min(xs), max(xs)
    if not s.x < (x0 + x1) / 2 < s.x + s.w:
        return False
    if s.y + 3 < y < s.y + s.h - 3:
        return True
    return s.y - rim < y < s.y + s.h + rim and s.x - rim <= x0 and x1 <= s.x + s.w + rim


def _covers(s: DetectedShape, m: Message) -> bool:
    """Whether box ``s`` spans most of message ``m``'s way (a note over the lifelines it joins; a
    box a band's edge and a frame cut out of the middle of a longer message is none of its notes)."""
    xs = [p[0] for p in m.points]
    return min(s.x + s.w, max(xs)) - max(s.x, min(xs)) >= 0.75 * (max(xs) - min(xs))


def _name_runs(shapes: list[DetectedShape], runs: list[TextRun], ink: np.ndarray) -> tuple[list[TextRun], list[int]]:
    """The runs, one outside every box cut where its ink has a gap of :data:`NAME_GAP` em: the names of two
    participants drawn with no box (PlantUML's database and actor icons) that OCR read as one line ('Cache approve
    Load create'), or a narrower gap where each piece stands on a lifeline's column (:func:`names_on_lifelines`);
    with, for each, the index of the run it was cut from."""
    names: list[TextRun] = []
    pieces: list[int] = []
    for k, r in enumerate(runs):
        cut = [r]
        if r.angle == 0 and not any(not s.is_group and s.contains_point(r.cx, r.cy) for s in shapes):
            cut = split_wide_gaps(r, NAME_GAP)
            if len(cut) == 1:
                cut = names_on_lifelines(r, ink)
        names += cut
        pieces += [k] * len(cut)
    return names, pieces


def _split_names(runs: list[TextRun], names: list[TextRun], pieces: list[int], used: set[int]) -> None:
    """Cut in ``runs`` (in place: the first piece takes the run's index, the others are appended) each run
    whose pieces (``names``, ``pieces``: :func:`_name_runs`) name a participant (their index in ``used``)."""
    for k in sorted({pieces[j] for j in used}):
        cut = [names[j] for j in range(len(names)) if pieces[j] == k]
        if len(cut) > 1:
            runs[k] = cut[0]
            runs += cut[1:]


def _name_boxes(shapes: list[DetectedShape], runs: list[TextRun], background: tuple[int, int, int]
                ) -> tuple[list[DetectedShape], list[int]]:
    """A box around each horizontal line of text outside every box: where a lifeline hangs from
    one, it names a participant drawn with no box (PlantUML's actors, databases, entities); with
    the index of each one's run. A line at the top of a band (a shape 8 times its height or more) counts as outside
    it: PlantUML's ``box`` band around a participant, its participant's box traced into the band's outline (a
    cluster-api figure's 'AWS Infrastructure Controller' had no lifeline, a note under it was read as a participant)."""
    out = []
    origin = []
    for k, r in enumerate(runs):
        if r.angle != 0 or r.h < 6 or not r.text.strip() or any(
                not s.is_group and s.contains_point(r.cx, r.cy) and not _band_top(s, r) for s in shapes):
            continue
        out.append(DetectedShape(shape="box", x=r.x - 2, y=r.y - 2, w=r.w + 4, h=r.h + 4, fill=background, stroke=None,
                                 stroke_px=0.0, iou=0.0, face=None))  # type: ignore[arg-type]
        origin.append(k)
    return out, origin


def _band_top(s: DetectedShape, r: TextRun) -> bool:
    """Whether line ``r`` stands at the top of shape ``s`` (within 6 of its heights) and ``s`` is a band, 8 of its
    heights tall or more: the name of a participant heading the band."""
    return s.h >= 8 * r.h and r.y <= s.y + 6 * r.h


def _named_lifelines(rgb: np.ndarray, ink: np.ndarray, pool: list[DetectedShape], base: int,
                     boxed: list[Lifeline], texts: list[str]) -> list[Lifeline]:
    """Lifelines hanging from a name with no box (``pool[base:]``, their ``texts``), on columns no boxed
    participant's lifeline takes; the name repeated at the foot is its bottom (another name's
    box of the same size is none, nor a line of another text: a note's line under the lifeline had
    cut it short, cluster-api's PlantUML figures with no foot boxes)."""
    out = []
    for i in range(base, len(pool)):
        ln = lifeline(rgb, ink, pool, i,
                      foot=lambda j, i=i: j < base or _same_name(texts[i - base], texts[j - base]))
        # (a box's lifeline on its column from another height: an icon above the name, an entity's circle)
        if ln is None or any(abs(ln.x - b.x) <= 20 and abs(ln.y0 - b.y0) <= max(6.0, 0.25 * pool[b.node].h)
                             for b in boxed):
            continue
        s, x = pool[i], int(ln.x)
        yb = int(math.ceil(s.y + s.h)) + 2
        border = border_under(ink, s, yb)
        if border is not None:  # the name's box, drawn but not found (on a band): the lifeline hangs from its border
            ln.y0 = float(border + 1)
        elif head_under(ink[yb:yb + max(6, int(0.8 * s.h)), max(0, x - 6):x + 7]):
            continue  # an arrowhead under the name: an arrow into a label, no lifeline
        if ln.bottom is not None and ln.bottom < base:
            ln.bottom = None
        out.append(ln)
    return out


def _keep_extra(found: list[Lifeline], pool: list[DetectedShape], base: int) -> list[DetectedShape]:
    """The name boxes the row of lifelines uses, numbered on from ``base`` (the others dropped)."""
    used = sorted(k for k in participant_shapes(found) if k >= base)
    index = {old: base + new for new, old in enumerate(used)}
    for ln in found:
        ln.node = index.get(ln.node, ln.node)
        ln.bottom = index.get(ln.bottom, ln.bottom) if ln.bottom is not None else None
    return [pool[k] for k in used]


def _boxed_self_messages(ink: np.ndarray, rgb: np.ndarray, lines: list[Lifeline], boxes: list[DetectedShape],
                         messages: list[Message]) -> list[Message]:
    """Messages to oneself whose loop a label box hides: a stroke out of the lifeline to the
    right just above a label box over the lifeline, and a head back at the lifeline just below it."""
    out: list[Message] = []
    H, W = ink.shape
    taken = [p[1] for m in messages for p in m.points]
    for s in boxes:
        for k, lf in enumerate(lines):
            x = int(lf.x)
            # (the lifeline runs on below the box: a participant's box at its foot is no label)
            if not (s.x < lf.x < s.x + s.w) or x + 40 >= W or lf.y1 < s.y + s.h or any(
                    s.y - 20 <= t <= s.y + s.h + 20 for t in taken):
                continue
            above = [y for y in range(max(0, int(s.y) - 20), max(0, int(s.y) - 2))
                     if ink[y, x + 8:x + 22].mean() >= 0.8]
            below = [y for y in range(int(s.y + s.h) + 3, min(H - 13, int(s.y + s.h) + 22))
                     if head_at(ink, y, lf.x, 1, 1.0)]
            if not above or not below:
                continue
            y1, y2 = float(np.mean(above)), float(np.mean(below))
            pix = rgb[int(y1), x + 8:x + 22][ink[int(y1), x + 8:x + 22]]
            color = median_colour(pix)
            xe = x + 22  # where the stroke out turns down (under the box)
            while xe < min(W - 1, s.x + s.w) and ink[int(y1) - 1:int(y1) + 2, xe + 1].any():
                xe += 1
            pts = [(lf.x, y1), (float(xe), y1), (float(xe), y2), (lf.x, y2)]
            out.append(Message(k, k, pts, float(max(1, len(above) - 1)), color, "solid", True, False))
            taken += [y1, y2]
    return out


def _label_boxes(shapes: list[DetectedShape], runs: list[TextRun], top: float) -> list[int]:
    """The boxes below the participants that hold one line of text and little else (a message's
    label box, as Mermaid-like themes and websequencediagrams' notes draw them)."""
    out = []
    for k, s in enumerate(shapes):
        if s.is_group or s.y < top:
            continue
        inside = [r for r in runs if r.angle == 0 and s.contains_point(r.cx, r.cy)]
        if len(inside) == 1 and s.h <= 3.5 * max(inside[0].h, inside[0].font_px) and inside[0].w >= 0.5 * s.w:
            out.append(k)
    return out


def _on_message(s: DetectedShape, messages: list[Message]) -> bool:
    """Whether a message runs through box ``s`` (or a self-message loops around it; a box wholly under the loop's
    way back is a note after it: PlantUML's ``note right of`` under a self-message had gone as its label)."""
    for m in messages:
        xs = [p[0] for p in m.points]
        ys = [p[1] for p in m.points]
        if m.source == m.target:
            if min(ys) - s.h <= s.cy <= max(ys) + s.h and s.y <= max(ys) + 2 and min(xs) - 10 <= s.cx <= max(xs) + s.w:
                return True
        elif s.y - 3 <= ys[0] <= s.y + s.h + 3 and min(xs) <= s.cx <= max(xs):
            return True
    return False


def _same_name(a: str, b: str) -> bool:
    """Whether two lines of text read as one name (letters and digits, OCR's slips aside)."""
    a, b = (re.sub(r"[\W_]+", "", t).casefold() for t in (a, b))
    return bool(a) and difflib.SequenceMatcher(None, a, b).ratio() >= 0.75


def _common_end(ends: list[float], tol: float = 12.0) -> float:
    """Where most lifelines end: one running on into an icon drawn under its
    name at the foot (PlantUML's database) is no measure of where the others stop (the lower one on a tie)."""
    return max(ends, key=lambda e: (sum(abs(f - e) <= tol for f in ends), e))


def _one_row(found: list[Lifeline], shapes: list[DetectedShape], named: int) -> list[Lifeline]:
    """The largest set of lifelines whose boxes end at one height (a sequence's participants), the highest of
    sets as large; the shapes from ``named`` on are name boxes (:func:`_name_boxes`)."""
    best: list[Lifeline] = []
    for a in found:
        sa = shapes[a.node]
        # a name's box is its text's, whose bottom moves with the letters (a descender, an icon's bar); a box's
        # bottom within a quarter of its height, at most ROW_TOL px: a tall box (a frame's or band's stretch a
        # lifeline runs out of) had taken in lifelines hundreds of px above it
        tol = min(max(6.0, 0.25 * sa.h), ROW_TOL) if a.node < named else max(10.0, 0.5 * sa.h)
        # icons of one row differ in height (a person's, a cylinder's): a quarter of the height from the name's
        # top to the icon's foot
        if a.icon:
            tol = min(max(tol, 0.25 * (a.y0 - sa.y)), ROW_TOL)
        # a stick-figure actor's head ends higher, its lifeline where the others end (beside a participant's box:
        # one taller than it is wide is a frame's or band's stretch, beside which every name is 'small')
        row = [b for b in found if abs(b.y0 - a.y0) <= tol or (
            b.y0 < a.y0 and abs(b.y1 - a.y1) <= tol and sa.h <= sa.w and _head_of(shapes[b.node], sa))]
        # of two rows as large, the higher: participants head the diagram (a band's side, solid under message labels
        # set across it, and a note's column whose 'head' was such a label had outranked cluster-api's participants)
        # (by its lowest top: a stick figure's head stands higher than the participants' boxes)
        if len(row) > len(best) or (row and len(row) == len(best) and max(b.y0 for b in row) < max(b.y0 for b in best)):
            best = row
    # two lifelines never share a column: the name's (``shapes[named:]``) over its icon's
    best.sort(key=lambda ln: (ln.x, -ln.node))
    out: list[Lifeline] = []
    for ln in best:
        if out and ln.x - out[-1].x <= 20:
            if ln.node >= named > out[-1].node:
                out[-1] = ln
            continue
        out.append(ln)
    return out


def _head_of(s: DetectedShape, box: DetectedShape) -> bool:
    """``s`` is small beside a participant's ``box`` and ends level with its row (its bottom no higher than two of
    the box's heights, or 40 px, above the box's top): a stick figure's head, not a box of its own. (A TB
    flowchart's link label, its plate small beside a node hundreds of px below on the link's column, had joined
    that node's 'row': the link and the node's side read as two lifelines, box borders between them as
    messages, every edge lost.) A head is round, about as wide as tall: a participant's box beside a frame's tag
    low down (a PlantUML ``group`` in a ``box`` band) is none, and had made the tag's column a participant's."""
    return (s.h <= 0.6 * box.h and s.w <= 0.6 * box.w and s.y + s.h >= box.y - max(2.0 * box.h, 40.0)
            and min(s.w, s.h) >= 0.6 * max(s.w, s.h))


def _messages(ink: np.ndarray, rgb: np.ndarray, text: np.ndarray, lines: list[Lifeline],
              raw: np.ndarray | None = None, boxed: np.ndarray | None = None,
              glyphs: np.ndarray | None = None) -> list[Message]:
    """Rows of ink from one lifeline to another: solid, or dashed evenly along the whole way,
    stopping at both lifelines (a note's or a fragment's frame runs on past them).

    ``raw``: the ink as drawn where ``ink`` is spread over rows (:data:`WAVE`): then only solid
    rows count, a band of them is one message if it is no taller than a wave, and its heads
    are looked for on every row of the band."""
    hits: dict[int, list[tuple[int, int]]] = {}  # row: the (i, j) pairs it joins
    lit = ink if glyphs is None else ink & ~glyphs  # by the lifelines, a line's ink, not a note's text
    n = len(lines)
    # each row's ink to the left of each column: a pair's rows with too little ink between it are skipped
    before = np.zeros((ink.shape[0], ink.shape[1] + 1), np.int32)
    np.cumsum(ink, axis=1, out=before[:, 1:])
    for i in range(n):
        for j in range(i + 1, n):
            a, b = lines[i], lines[j]
            y0, y1 = int(max(a.y0, b.y0)) + 3, int(min(a.y1, b.y1)) - 2
            if y1 <= y0:
                continue
            m = int(min(28, 0.2 * (b.x - a.x)))
            x0, x1 = int(a.x) + m, int(b.x) - m
            if x1 - x0 < 10:
                continue
            # solid by both lifelines: a row a label box hides most of
            ends = None if boxed is None else (
                (lit[y0:y1, int(a.x) + 4:int(a.x) + 20].mean(axis=1) >= 0.5)
                & (lit[y0:y1, int(b.x) - 19:int(b.x) - 3].mean(axis=1) >= 0.5)
                & (boxed[y0:y1, x0:x1].mean(axis=1) >= 0.4))
            counts = before[y0:y1, x1] - before[y0:y1, x0]
            # a row that runs on past both lifelines, thin, is a fragment's frame (Mermaid's dotted ``alt``/``loop``
            # top, its ``else`` divider and its foot, dots over half the way: read as messages between the outermost
            # participants it crosses, three false messages a frame)
            frame = (runs_past(ink, text, y0, y1, int(a.x), -1) >= FRAME_PAST) & (
                runs_past(ink, text, y0, y1, int(b.x), 1) >= FRAME_PAST)
            ok = joins(ink, text, y0, y1, x0, x1, ends, raw is None, counts) & stops(ink, text, y0, y1, int(a.x), -1) & stops(
                ink, text, y0, y1, int(b.x), 1) & ~frame
            for y in (y0 + np.flatnonzero(ok)).tolist():
                hits.setdefault(y, []).append((i, j))
    # (a wavy pass looks for heads in the row-spread ink too: a hand-drawn message passing over a lifeline
    # then shows a 'head' there and is lost; looked for in the ink as drawn instead, the real napkin figure
    # kubeadm-upgrade-node fell from 0.57 to 0.33 edge F1: tests/crafteditor/test_edges_round4.py, xfail)
    bare = ink & ~text if any(p[1] - p[0] > 1 for ps in hits.values() for p in ps) else ink
    # the widest pair of a row (one message passes over the lifelines between its ends) whose ink
    # runs on to both ends (a message to a nearer lifeline with a note after it: the note's row
    # reaches to the next lifeline's margin, not to it)
    rows: list[tuple[int, int, int]] = []
    for y in sorted(hits):
        pairs = sorted(hits[y], key=lambda p: lines[p[0]].x - lines[p[1]].x)
        # (and has no head at a lifeline between: a note after a message's head, over the next lifeline;
        # a label's glyphs over a lifeline it passes are no head, nor is an activation bar's side the label's
        # glyph mask cuts where the label is set across the bar: a head in the ink as drawn too)
        ends = [p for p in pairs if runs_to_ends(ink, y, lines[p[0]].x, lines[p[1]].x) and not any(
            head_at(bare, y, lines[k].x, side, 1.0) and head_at(ink, y, lines[k].x, side, 1.0)
            for k in range(p[0] + 1, p[1]) for side in (-1, 1))]
        if ends:
            rows.append((y, *ends[0]))
    out: list[Message] = []
    k = 0
    while k < len(rows):
        y, i, j = rows[k]
        band = [y]
        while k + 1 < len(rows) and rows[k + 1][1:] == (i, j) and rows[k + 1][0] - band[-1] <= 1:
            k += 1
            band.append(rows[k][0])
        k += 1
        if raw is None:
            # no thicker than a few lifelines (a scale-4 export's strokes are thick, its lifelines too)
            if len(band) <= 2 * max(lines[i].width, lines[j].width) + 4 and stroke_alone(
                    ink, text, band, lines[i].x, lines[j].x):
                out.append(_message(ink, rgb, lines, i, j, band, hidden=boxed))
        elif len(band) <= 4 * WAVE + 4 and waves(raw, lines[i].x, lines[j].x, band):
            out.append(_message(raw, rgb, lines, i, j, band, wavy=True))
    return out


def _self_messages(ink: np.ndarray, rgb: np.ndarray, lines: list[Lifeline], messages: list[Message],
                   glyphs: np.ndarray) -> list[Message]:
    """Messages a participant sends itself: a solid row of ink out of its lifeline to the right
    that stops short of half the way to the next one, a drop of 8-80 px, and a row back to the
    lifeline with a head at it. ``glyphs``: the text's ink, no paper about the stroke's row (a label set
    right above the loop, its descenders 4 px over it, had hidden PlantUML's self-messages at 96 dpi)."""
    out: list[Message] = []
    H, W = ink.shape
    taken = np.zeros(H, bool)  # rows within 3 px of a message's (a flag a row: a long lifeline asked
    for m in messages:  # every message of each of its rows, 1.6 M comparisons on a scale-4 Mermaid export)
        _take(taken, m.points[0][1])
    for k, lf in enumerate(lines):
        x = int(lf.x)
        reach = int(min((lines[k + 1].x - lf.x) * 0.5 if k + 1 < len(lines) else W - x - 8, 160))
        if reach < 30:
            continue
        # a thin stroke: no ink 4 px above or below it (a filled box's inside is no message); the rows
        # that are one looked for at once (row by row in Python it was a tall diagram's second cost)
        strip = ink[:, x + 14:x + 30]
        full = strip.all(axis=1)
        inked = (strip & ~glyphs[:, x + 14:x + 30]).any(axis=1)
        rows = np.arange(H)
        thin = full & ~inked[np.maximum(0, rows - 4)] & ~inked[np.minimum(H - 1, rows + 4)]
        y0, y_end = int(lf.y0) + 3, int(lf.y1) - 10
        y = y0
        for start in (y0 + np.flatnonzero(thin[y0:max(y0, y_end)])).tolist():
            if start < y:  # within the last self-message found
                continue
            y = start
            if taken[y]:
                y += 1
                continue
            xe = x + 30
            while xe < x + reach and ink[y, xe + 1]:
                xe += 1
            drop = ink[y:min(H, y + 81), xe - 2:xe + 1].any(axis=1)
            y2 = y + int(np.argmin(drop)) - 1 if not drop.all() else y + 80
            back = ink[max(0, y2 - 1):y2 + 2, x + 14:xe - 2].any(axis=0).mean() if y2 - y >= 8 else 0.0
            if xe >= x + reach or ink[y, xe + 2:xe + 6].any() or back < 0.85 or not head_at(ink, y2, x, 1, 1.0):
                y += 1
                continue
            pix = rgb[y, x + 14:xe][ink[y, x + 14:xe]]
            color = median_colour(pix)
            pts = [(lf.x, float(y)), (float(xe), float(y)), (float(xe), float(y2)), (lf.x, float(y2))]
            out.append(Message(k, k, pts, 1.0, color, "solid", True, False))
            _take(taken, y)
            _take(taken, y2)
            y = y2 + 4
    return out


def _take(taken: np.ndarray, t: float) -> None:
    """Flag the rows ``y`` with ``|y - t| <= 3``."""
    taken[max(0, math.ceil(t - 3)):max(0, math.floor(t + 3) + 1)] = True


def _message(ink: np.ndarray, rgb: np.ndarray, lines: list[Lifeline], i: int, j: int, band: list[int],
             wavy: bool = False, hidden: np.ndarray | None = None) -> Message:
    """The message on rows ``band`` from lifeline ``i`` to ``j`` (``wavy``: a hand-drawn one, the
    band as wide as its wave: solid, its heads looked for on every row and its width the
    stroke's ink per column; ``hidden``: where label boxes hide the arrow, left out of its style)."""
    a, b = lines[i], lines[j]
    y = float(np.mean(band))
    yi = int(round(y))
    m = int(min(28, 0.2 * (b.x - a.x)))
    if wavy:
        span = ink[band[0]:band[-1] + 1, int(a.x) + m:int(b.x) - m]
        per = span.sum(axis=0)
        width = float(max(1.0, np.median(per[per > 0]))) if (per > 0).any() else 1.0
        left, right = wavy_head(ink, band, a.x, 1, width), wavy_head(ink, band, b.x, -1, width)
        pix = rgb[band[0]:band[-1] + 1, int(a.x) + m:int(b.x) - m][span]
        style = "solid"
    else:
        width = float(max(1, len(band) - 1))  # a line's antialiased edge rows
        left, right = head_at(ink, yi, a.x, 1, width), head_at(ink, yi, b.x, -1, width)
        seen = ink[max(0, yi - 1):yi + 2, int(a.x) + m:int(b.x) - m].any(axis=0)
        if hidden is not None:  # solid or dashed where no label box hides it
            shown = ~hidden[yi, int(a.x) + m:int(b.x) - m]
            seen = seen[shown] if shown.sum() >= 6 else np.ones(1, bool)
        on = seen.mean() if seen.size else 1.0
        pix = rgb[yi, int(a.x) + m:int(b.x) - m][ink[yi, int(a.x) + m:int(b.x) - m]]
        style = "solid" if on > 0.85 else "dashed"
    color = median_colour(pix)
    if left and not right:  # drawn from right to left
        return Message(j, i, [(b.x, y), (a.x, y)], width, color, style, True, False)
    return Message(i, j, [(a.x, y), (b.x, y)], width, color, style, True, left and right)


def without_cells(seq: Sequence, shapes: list[DetectedShape], tol: float = 5.0) -> list[DetectedShape]:
    """The shapes less those whose left and right sides both stand on lifelines, below the
    participants (the cells lifelines and messages enclose); the lifelines' and groups' shape
    indices are renumbered in place."""
    xs = [ln.x for ln in seq.lifelines]
    top = min(ln.y0 for ln in seq.lifelines)
    drop = {k for k, s in enumerate(shapes) if s.y >= top - 2 and _cell(s, xs, tol)}
    drop |= set(seq.labels)  # a message's label box: its text labels the message
    drop |= set(seq.strokes)  # a curved self-message traced as an ellipse
    drop -= {ln.node for ln in seq.lifelines}  # the participants stay (a foot 'box' may be a label's: it goes)
    # a participant taken for a frame (:func:`_worded_frames_as_boxes`) is a box, and so is its repeat at the foot
    parts = participant_shapes(seq.lifelines)
    shapes = [replace(s, is_group=False) if k in parts and s.is_group else s for k, s in enumerate(shapes)]
    if not drop:
        return shapes
    keep = [k for k in range(len(shapes)) if k not in drop]
    seq.renumber(keep)
    return keep_shapes(shapes, keep)


def explained(ln: LinePath, seq: Sequence, tol: float = 6.0) -> bool:
    """Whether every point of a traced line lies on a lifeline or a message (it is drawn again)."""
    def near(p: tuple[float, float]) -> bool:
        for lf in seq.lifelines:
            if abs(p[0] - lf.x) <= tol and lf.y0 - tol <= p[1] <= lf.y1 + tol:
                return True
        return any(dist_to_polyline(p, m.points) <= tol + 4 for m in seq.messages)

    return all(near(p) for p in ln.points)

