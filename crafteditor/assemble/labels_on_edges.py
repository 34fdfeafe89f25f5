"""Edge labels wrapped over lines: Mermaid wraps a label longer than about 200 px onto a second and third
line on its plate ('clone + submit' / 'OrchestratorWorkflow'), draw.io and dagre-d3 likewise. The label
is the whole block, not its line nearest the connector, the others left as loose text beside the edge."""

from __future__ import annotations

from collections.abc import Callable

from crafteditor.ocr.runs import TextRun

MAX_LINES = 3  # a wrapped edge label has at most this many lines (a paragraph beside an edge is no label)
LEADING = 1.9  # the next line's top lies within this many font heights of the line above's top
SAME_SIZE = 1.35  # the lines' font sizes are within this ratio of each other


def wrapped_label(k: int, runs: list[TextRun], loose: set[int], ours: Callable[[int], bool]) -> list[int]:
    """The runs of the label whose line ``runs[k]`` is, top to bottom: the lines of ``loose`` above and
    below it, of its size, centred on one another (a wrapped label is centred) and one line-height apart;
    ``ours``: whether a run lies nearer this edge than any other (a fan's labels stacked over one another
    belong to their own edges)."""
    block = [k]
    for step in (-1, 1):
        while len(block) < MAX_LINES:
            edge = runs[block[0] if step < 0 else block[-1]]
            nxt = _next_line(edge, runs, loose - set(block), step)
            if nxt is None or not ours(nxt):
                break
            block = [nxt, *block] if step < 0 else [*block, nxt]
    return block


def _next_line(r: TextRun, runs: list[TextRun], loose: set[int], step: int) -> int | None:
    """The loose run that is the line right under ``r`` (``step`` 1) or right over it (-1), if one is."""
    font = max(r.font_px, r.h)
    best = None
    for j in loose:
        q = runs[j]
        if q.angle != 0 or max(q.font_px, q.h) > SAME_SIZE * font or font > SAME_SIZE * max(q.font_px, q.h):
            continue
        drop = (q.y - r.y) * step
        if not 0.6 * font <= drop <= LEADING * font:
            continue
        # centred on one another: the shorter line's middle within the longer's middle third
        short, long_ = (q, r) if q.w <= r.w else (r, q)
        if abs(short.cx - long_.cx) > long_.w / 6 + 0.5 * font:
            continue
        if best is None or drop < best[0]:
            best = (drop, j)
    return best[1] if best is not None else None
