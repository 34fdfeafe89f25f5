"""Routes kept off group titles: an engine routes edges through a group's padding, and the top padding holds
the group's title (ELK routes a backward edge, or one coming in from above, straight through it).

:func:`clear_titles` moves a vertical stretch of an orthogonal route that crosses a title sideways, past the
title's end (or before the group's edge), where the move keeps the route orthogonal, its ends on their
boxes and every stretch it changes off the other boxes. Giving ELK the title as the group's label instead
reserves the band, but a try of it last round widened a titled group by 138 px on a dev brief's plan: the
figure spreads for an edge or two. Of 73 titled groups in the dev briefs' plans, 2 had an edge through the
title; this moves one (the other comes down into a box under the title, with no room past it).
"""

from __future__ import annotations

from crafter.layout.problem import Pt, Rect
from crafter.layout.routing import segment_hits

TITLE_CLEARANCE = 6.0  # px between a moved stretch and the title's end
END_INSET = 12.0  # a moved end stays this far inside its box's side (off a rounded corner)


def _crosses(p: Pt, q: Pt, r: Rect) -> bool:
    return segment_hits(p, q, r, shrink=0.0)


def clear_titles(pts: list[Pt], titles: list[Rect], blocks: list[Rect], ends: tuple[Rect | None, Rect | None]
                 ) -> list[Pt]:
    """``pts`` (an orthogonal route) with each vertical stretch through one of ``titles`` moved sideways
    where it can be: off ``blocks`` (the boxes the route must not cross), its first and last stretch still on
    ``ends`` (the source's and the target's boxes). A stretch that cannot move stays."""
    pts = list(pts)
    for t in titles:
        for i in range(len(pts) - 1):
            p, q = pts[i], pts[i + 1]
            if abs(p[0] - q[0]) > 1e-6 or not _crosses(p, q, t):
                continue
            for x in (t[0] + t[2] + TITLE_CLEARANCE, t[0] - TITLE_CLEARANCE):
                moved = _moved(pts, i, x)
                if _allowed(pts, moved, i, titles, blocks, ends):
                    pts = moved
                    break
    return pts


def _moved(pts: list[Pt], i: int, x: float) -> list[Pt]:
    out = list(pts)
    out[i], out[i + 1] = (x, pts[i][1]), (x, pts[i + 1][1])
    return out


def _allowed(old: list[Pt], new: list[Pt], i: int, titles: list[Rect], blocks: list[Rect],
             ends: tuple[Rect | None, Rect | None]) -> bool:
    for k, end in ((0, ends[0]), (len(new) - 1, ends[1])):
        if k in (i, i + 1):  # the stretch starts or ends on a box: it must still meet that box's side
            if end is None or not end[0] + END_INSET <= new[k][0] <= end[0] + end[2] - END_INSET:
                return False
    changed = [j for j in (i - 1, i, i + 1) if 0 <= j < len(new) - 1]
    for j in changed:
        p, q = new[j], new[j + 1]
        if j != i and abs(p[1] - q[1]) > 1e-6:
            return False  # a neighbour that is not horizontal would turn slanted
        if any(_crosses(p, q, b) for b in blocks) or any(_crosses(p, q, t) for t in titles):
            return False
        # nor back through its own source's or target's box (segment_hits with a half-pixel shrink: a stretch
        # that only meets the box's side is on it, not through it)
        if any(end is not None and segment_hits(p, q, end, shrink=0.5) for end in ends):
            return False
    return True
