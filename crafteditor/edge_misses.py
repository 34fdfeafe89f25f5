"""Why a real diagram's edges score what they score: every truth edge missed and every false edge added, classed.

``python -m crafteditor.edge_misses --real shared/realfigs --split dev --only 'C_*' [--cache DIR]``
converts each diagram (or reads its FigureSpec from ``--cache``), matches its edges to the truth as
:func:`crafteditor.realset.score_real` does, and prints a line per miss and per false edge with its class,
then the counts per class over all figures. Classes of a missed truth edge ``A → B``:

- ``endpoint missing``: no component carries A's (or B's) label (``words read`` when its words are all in
  the SVG, read but cut or merged otherwise; ``words lost`` when some are not read at all);
- ``direction wrong``: an edge joins the two, the other way;
- ``split``: drawn pieces that touch one another (at a bend, a bus, a fan-out) join A's box to B's box,
  but no one piece does;
- ``attached elsewhere``: one piece runs from A's box to B's box, its end given to another part;
- ``left free``: such a piece is a free path (it joins nothing);
- ``one end only``: a piece leaves A's (or B's) box and ends nowhere near the other;
- ``frame end``: the edge is found with a group's title as an end (``component_edges``), or ``frame title as
  end``: an end's label is a group's title (the truth takes a container for a node; the scorer's convention);
- ``line not found``: none of the above.

A false edge is ``reversed`` (the truth has its pair the other way), ``duplicate`` (a pair the truth has
fewer times), ``unlabelled end`` (an end with no label: a nameless shape or a text that is no node), or
``wrong pair``; free paths with arrowheads are counted apart (they are drawn, but join nothing).

A diagnosis tool (the pipeline never imports it): it reads the conversion's geometry in SVG user units.
"""

from __future__ import annotations

import argparse
import json
import math
import re
from collections import Counter
from pathlib import Path
from typing import Any

from crafteditor.bench import real_figures, under_condition
from crafteditor.blobs import joined_groups
from crafteditor.convert import convert
from crafteditor.realset import _edge_key, end_labels, svg_words, truth_edges, words_of
from crafter.base.text import text_width
from crafter.spec.model import Box, Edge, Figure

TOUCH = 14.0  # user units: how near a piece's end must come to a box (or another piece) to touch it


def _box(c: Any) -> Box | None:
    if c.box is not None:
        return c.box
    if c.kind == "text" and c.at is not None:
        fs = c.font_size or 12.0
        w = text_width(c.text, fs)
        return Box(x=c.at.x - w / 2, y=c.at.y - fs * 0.7, w=w, h=fs * 1.4)
    return None


def _near_box(p: tuple[float, float], b: Box, tol: float = TOUCH) -> bool:
    dx = max(b.x - p[0], 0.0, p[0] - b.right)
    dy = max(b.y - p[1], 0.0, p[1] - b.bottom)
    return math.hypot(dx, dy) <= tol


def _path_points(d: str) -> list[tuple[float, float]]:
    """The first subpath's points (a free line's stroke; its heads are later, closed subpaths)."""
    first = re.split(r"[Zz]|(?<=\d)\s*M", d)[0]
    nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?(?:[eE]-?\d+)?", first)]
    pts = list(zip(nums[0::2], nums[1::2]))
    # a free line with heads is stroked out and back (:func:`~crafteditor.assemble.leftovers.free_line`)
    if len(pts) >= 3 and len(pts) % 2 == 1 and pts[::-1] == pts:
        pts = pts[:len(pts) // 2 + 1]
    return pts


def _seg_dist(p, a, b) -> float:
    ax, ay, bx, by = *a, *b
    dx, dy = bx - ax, by - ay
    n = dx * dx + dy * dy
    t = 0.0 if n == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / n))
    return math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy)


def _poly_dist(p, pts) -> float:
    if len(pts) == 1:
        return math.hypot(p[0] - pts[0][0], p[1] - pts[0][1])
    return min(_seg_dist(p, a, b) for a, b in zip(pts, pts[1:]))


def _pieces(fig: Figure) -> list[dict[str, Any]]:
    """Every drawn line: edges (their routes, the ids they join) and free paths (their points)."""
    out = []
    for c in fig.components:
        if isinstance(c, Edge) and c.route:
            out.append({"id": c.id, "edge": c, "pts": [(p.x, p.y) for p in c.route]})
        elif c.kind == "path" and c.stroke not in (None, "none"):
            pts = _path_points(c.d)
            if len(pts) >= 2:
                out.append({"id": c.id, "edge": None, "pts": pts, "heads": c.d.count("Z") + c.d.count("z")})
    return out


def _clusters(pieces: list[dict[str, Any]]) -> list[int]:
    """Pieces that touch (an end of one on another) in one cluster: each piece's cluster number."""
    touch = [(i, j) for i, a in enumerate(pieces) for j in range(i + 1, len(pieces))
             if any(_poly_dist(e, pieces[j]["pts"]) <= 6 for e in (a["pts"][0], a["pts"][-1]))
             or any(_poly_dist(e, a["pts"]) <= 6 for e in (pieces[j]["pts"][0], pieces[j]["pts"][-1]))]
    return joined_groups(len(pieces), touch)


def diagnose(fig: Figure, svg: str, truth: dict[str, Any]) -> dict[str, Any]:
    """The misses and false edges of one figure, classed (see the module's docstring)."""
    # ends named as the scorer names them (:func:`crafteditor.realset.end_labels`: a circled '×' is '×', not '')
    labels, texts, frames = end_labels(fig)
    ends = {**texts, **labels}
    byid = {c.id: c for c in fig.components}
    t_edges = truth_edges(truth)
    edges = [e for e in fig.components if isinstance(e, Edge)]
    keys = [_edge_key(e, ends, t_edges) for e in edges]
    pred = Counter(keys)
    fkeys = Counter(_edge_key(e, {**ends, **frames}, t_edges) for e in edges)
    node_labels = {v for v in labels.values() if v}
    have = set(ends.values()) | node_labels
    words = svg_words(svg)
    pieces = _pieces(fig)
    roots = _clusters(pieces)
    misses = []
    for (a, b), n in t_edges.items():
        for _ in range(n - min(n, pred[(a, b)])):
            misses.append(((a, b), _miss_class(a, b, have, set(frames.values()), words, pred, t_edges, fkeys, ends,
                                               byid, pieces, roots)))
    false = []
    left = pred.copy()
    for (a, b), n in t_edges.items():
        left[(a, b)] -= min(n, pred[(a, b)])
    for e, k in zip(edges, keys):
        if left[k] <= 0:
            continue
        left[k] -= 1
        if (k[1], k[0]) in t_edges:
            cls = "reversed"
        elif k in t_edges:
            cls = "duplicate"
        elif not k[0] or not k[1] or k[0] not in node_labels and k[1] not in node_labels:
            cls = "unlabelled end"
        else:
            cls = "wrong pair"
        false.append((k, cls))
    headed_free = sum(1 for p in pieces if p["edge"] is None and p.get("heads"))
    return {"misses": misses, "false": false, "free_headed": headed_free, "truth": sum(t_edges.values()),
            "pred": len(edges)}


def _miss_class(a, b, have, titles, words, pred, t_edges, fkeys, ends, byid, pieces, roots) -> str:
    if fkeys[(a, b)] > pred[(a, b)]:
        return "frame end"
    for lab in (a, b):
        if lab not in have and lab in titles:
            return f"frame title as end: {lab!r}"
        if lab not in have:
            lost = [w for w in words_of(lab) if not words[w]]
            return f"endpoint missing ({'words lost' if lost else 'words read'}): {lab!r}"
    if pred[(b, a)] > t_edges[(b, a)]:
        return "direction wrong"
    boxes = {lab: [bx for cid, v in ends.items() if v == lab and (bx := _box(byid[cid])) is not None]
             for lab in (a, b)}

    def touches(p, lab) -> bool:
        return any(_near_box(e, bx) for e in (p["pts"][0], p["pts"][-1]) for bx in boxes[lab])

    one = [p for p in pieces if touches(p, a) and touches(p, b)]
    if one:
        p = one[0]
        if p["edge"] is None:
            return "left free"
        e = p["edge"]
        return f"attached elsewhere ({ends.get(e.source, e.source)!r} -> {ends.get(e.target, e.target)!r})"
    ra = {roots[i] for i, p in enumerate(pieces) if touches(p, a)}
    rb = {roots[i] for i, p in enumerate(pieces) if touches(p, b)}
    if ra & rb:
        return "split"
    if ra or rb:
        return "one end only"
    return "line not found"


def _class_name(c: str) -> str:
    return c.split(" (")[0].split(":")[0]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--real", type=Path, required=True)
    ap.add_argument("--split", default="dev")
    ap.add_argument("--only", default=None, help="comma-separated ids or shell patterns")
    ap.add_argument("--cache", type=Path, default=None, help="a folder of FigureSpecs and SVGs, by figure id")
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--condition", default=None, help="read each figure as delivered: half, third, jpeg60, blur1, "
                    "offwhite, margin (crafteditor.conditions; its own --cache folder, as its SVGs differ)")
    args = ap.parse_args(argv)
    totals, falses, out = Counter(), Counter(), {}
    figures = real_figures(args.real, args.split, only=args.only)
    for f in under_condition(figures, args.condition) if args.condition else figures:
        if not f.truth.get("edges"):
            continue
        cached = args.cache / f"{f.name}.json" if args.cache else None
        if cached is not None and cached.exists():
            fig = Figure.model_validate_json(cached.read_text())
            svg = cached.with_suffix(".svg").read_text()
        else:
            conv = convert(f.png, name=f.name)
            fig, svg = conv.figure, conv.svg
            if cached is not None:
                cached.parent.mkdir(parents=True, exist_ok=True)
                cached.write_text(fig.model_dump_json())
                cached.with_suffix(".svg").write_text(svg)
        d = diagnose(fig, svg, f.truth)
        out[f.name] = d
        print(f"== {f.name}: truth {d['truth']}, edges {d['pred']}, missed {len(d['misses'])}, "
              f"false {len(d['false'])}, free lines with heads {d['free_headed']}")
        for (a, b), cls in d["misses"]:
            print(f"   miss  {a!r} -> {b!r}: {cls}")
            totals[_class_name(cls)] += 1
        for (a, b), cls in d["false"]:
            print(f"   false {a!r} -> {b!r}: {cls}")
            falses[cls] += 1
        falses["free line with heads"] += d["free_headed"]
    print("\nmissed truth edges by class:", dict(totals.most_common()))
    print("false edges by class:", dict(falses.most_common()))
    if args.json:
        args.json.write_text(json.dumps(out, indent=1, default=str))


if __name__ == "__main__":
    main()
