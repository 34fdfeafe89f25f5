"""Excalidraw state machines drawn with rough.js and Excalidraw's fonts: the kind of scene the plain
Excalidraw maker (``craftbench.makers.excalidraw``) does not hold.

A scene is a few states (ellipses or rounded rectangles, each labelled) on a loose grid; transitions between
neighbours, many of them both ways as two curved arrows bowing to either side of the pair, a few self-loops
(an arc leaving a state's top and coming back into it), and most transitions labelled with an event written
on the arrow (Excalidraw's bound text: a patch of page colour masks the line under the words). Style per
figure as the plain maker's (roughness, fill, stroke, font, light or dark export, 1x or 2x).

The truth follows the real set's conventions: every label's words in ``text``, each state's label as a node,
each transition as a ``[source, target]`` pair (a self-loop as ``[state, state]``; a pair joined both ways as
two pairs). Records name ``kind: "states"`` plus the plain maker's classes, and ``loops`` and ``two_way``
counts, so a bench can be grouped by them.
"""

from __future__ import annotations

import random
from pathlib import Path

from craftbench.makers.excalidraw import FILLS, SCENE_PRELUDE, _style, draw_scenes
from craftbench.makers.mermaid import WORDS, _words


def state_scene(rng: random.Random, i: int) -> dict:
    """A state machine: states on a grid, transitions (some both ways), self-loops, labels on arrows."""
    st = {**_style(rng, i), "arrow": "curved", "rounded": True}
    cols, rows = rng.randint(2, 4), rng.randint(1, 2)
    cells = [(c, r) for r in range(rows) for c in range(cols)]
    keep = sorted(rng.sample(cells, max(2, min(len(cells), rng.randint(3, 6)))), key=lambda t: (t[1], t[0]))
    labels: list[str] = []
    while len(labels) < len(keep):
        w = _words(rng, 1, 2) if rng.random() < 0.8 else rng.choice(WORDS).upper()
        if w.lower() not in (x.lower() for x in labels):
            labels.append(w)
    nodes = [{"id": k, "col": c, "row": r, "shape": rng.choice(("ellipse", "ellipse", "rect")), "lines": [lab],
              "fill": rng.choice(FILLS)} for k, ((c, r), lab) in enumerate(zip(keep, labels, strict=True))]
    at = {(n["col"], n["row"]): n["id"] for n in nodes}
    edges, truth_edges, text = [], [], []

    def add(a: int, b: int, bend: float) -> None:
        lab = _words(rng, 1, 2, cap=False) if rng.random() < 0.7 else ""
        edges.append({"a": a, "b": b, "label": lab, "bend": bend})
        truth_edges.append([labels[a], labels[b]])
        if lab:
            text.append(lab)

    for n in nodes:
        for dc, dr in ((1, 0), (0, 1)):
            j = at.get((n["col"] + dc, n["row"] + dr))
            if j is None or rng.random() > 0.8:
                continue
            if rng.random() < 0.45:  # both ways: two arcs bowing to either side of the pair
                add(n["id"], j, 0.18 + rng.random() * 0.1)
                add(j, n["id"], 0.18 + rng.random() * 0.1)
            else:
                a, b = (n["id"], j) if rng.random() < 0.7 else (j, n["id"])
                add(a, b, rng.choice((0.0, 0.0, 0.12)))
    loops = [n["id"] for n in nodes if n["row"] == 0 and rng.random() < 0.3]
    for k in loops:
        add(k, k, 0.0)
    if not edges:
        add(nodes[0]["id"], nodes[1]["id"], 0.0)
    two_way = sum(1 for e in edges if e["a"] != e["b"] and any((f["a"], f["b"]) == (e["b"], e["a"]) for f in edges)) // 2
    return {"style": st, "nodes": nodes, "edges": edges, "extras": {}, "loops": len(loops), "two_way": two_way,
            "truth": {"text": " ".join(labels + text), "nodes": list(labels), "edges": truth_edges}}


DRAW_JS = r"""async ([scene, fonts, seed]) => {
""" + SCENE_PRELUDE + r"""  for (const n of scene.nodes) {
    const tw = measure(n.lines[0]);
    n.w = Math.max(tw + 2 * (18 + rnd() * 16), 100 + rnd() * 40); n.h = lh + 2 * (14 + rnd() * 12);
    if (n.shape === 'ellipse') { n.w *= 1.35; n.h *= 1.5; }
  }
  const ncol = Math.max(...scene.nodes.map(n => n.col)) + 1, nrow = Math.max(...scene.nodes.map(n => n.row)) + 1;
  const colw = Array(ncol).fill(60), rowh = Array(nrow).fill(40);
  for (const n of scene.nodes) { colw[n.col] = Math.max(colw[n.col], n.w); rowh[n.row] = Math.max(rowh[n.row], n.h); }
  const lw = Math.max(0, ...scene.edges.filter(e => e.label).map(e => measure(e.label, fs * 0.8)));
  const gx = Math.max(140 + rnd() * 80, lw + 100), gy = Math.max(130 + rnd() * 50, 2 * fs + 110);
  const x0 = [], y0 = [];
  let acc = 20;
  for (let c = 0; c < ncol; c++) { x0.push(acc); acc += colw[c] + gx; }
  acc = 110;  // room for the self-loops over the top row
  for (let r = 0; r < nrow; r++) { y0.push(acc); acc += rowh[r] + gy; }
  for (const n of scene.nodes) {
    n.cx = x0[n.col] + colw[n.col] / 2 + (rnd() - 0.5) * 16; n.cy = y0[n.row] + rowh[n.row] / 2 + (rnd() - 0.5) * 10;
  }
  const svg = document.createElementNS(NS, 'svg');
  const rc = rough.svg(svg);
  const opts = (extra) => Object.assign({roughness: st.roughness, strokeWidth: st.stroke_width, stroke: st.stroke,
    bowing: 1, seed: 1 + Math.floor(rnd() * 1e6), fillWeight: st.stroke_width / 2,
    hachureGap: st.stroke_width * 4, disableMultiStroke: st.roughness === 0, preserveVertices: true}, extra || {});
  const text = (s, x, y, size) => {
    const t = document.createElementNS(NS, 'text');
    t.setAttribute('x', x); t.setAttribute('y', y); t.setAttribute('font-family', fam); t.setAttribute('font-size', size);
    t.setAttribute('text-anchor', 'middle'); t.setAttribute('dominant-baseline', 'middle'); t.setAttribute('fill', st.stroke);
    t.textContent = s; svg.appendChild(t);
  };
  const add = (el) => svg.appendChild(el);
  for (const n of scene.nodes) {
    const x = n.cx - n.w / 2, y = n.cy - n.h / 2, o = opts(st.fill === 'none' ? {} : {fill: n.fill, fillStyle: st.fill});
    if (n.shape === 'ellipse') add(rc.ellipse(n.cx, n.cy, n.w, n.h, o));
    else {
      const r = Math.min(32, n.w / 4, n.h / 4);
      add(rc.path(`M ${x + r} ${y} L ${x + n.w - r} ${y} Q ${x + n.w} ${y} ${x + n.w} ${y + r} L ${x + n.w} ${y + n.h - r} ` +
        `Q ${x + n.w} ${y + n.h} ${x + n.w - r} ${y + n.h} L ${x + r} ${y + n.h} Q ${x} ${y + n.h} ${x} ${y + n.h - r} ` +
        `L ${x} ${y + r} Q ${x} ${y} ${x + r} ${y}`, o));
    }
    text(n.lines[0], n.cx, n.cy, fs);
  }
  const exit = (n, tx, ty, gap) => {  // where the ray from n's centre towards (tx, ty) leaves its outline, plus gap
    const dx = tx - n.cx, dy = ty - n.cy, L = Math.hypot(dx, dy) || 1, ux = dx / L, uy = dy / L, a = n.w / 2, b = n.h / 2;
    const t = n.shape === 'ellipse' ? 1 / Math.sqrt((ux / a) ** 2 + (uy / b) ** 2) :
      Math.min(Math.abs(ux) > 1e-9 ? a / Math.abs(ux) : 1e9, Math.abs(uy) > 1e-9 ? b / Math.abs(uy) : 1e9);
    return [n.cx + ux * (t + gap), n.cy + uy * (t + gap)];
  };
  const byId = Object.fromEntries(scene.nodes.map(n => [n.id, n]));
  const bg = '#ffffff';
  for (const e of scene.edges) {
    const A = byId[e.a], B = byId[e.b], o = opts({fill: undefined}), gap = () => 4 + rnd() * 4;
    let pts, mid;
    if (A === B) {  // a self-loop over the state's top
      const s = exit(A, A.cx - A.w * 0.3, A.cy - A.h, gap()), t = exit(A, A.cx + A.w * 0.3, A.cy - A.h, gap());
      const top = A.cy - A.h / 2 - 55 - rnd() * 15;
      pts = [s, [A.cx - A.w * 0.28, top], [A.cx + A.w * 0.28, top], t];
      mid = [A.cx, top - fs * 0.3];
    } else {  // bend > 0 bows to the left of the way from A to B, so the way back bows to the other side
      const dx = B.cx - A.cx, dy = B.cy - A.cy, L = Math.hypot(dx, dy), k = e.bend;
      const m = [(A.cx + B.cx) / 2 + dy * k, (A.cy + B.cy) / 2 - dx * k];
      const p = exit(A, m[0], m[1], gap()), q = exit(B, m[0], m[1], gap());
      const c = [(p[0] + q[0]) / 2 + dy / L * Math.hypot(q[0] - p[0], q[1] - p[1]) * k,
                 (p[1] + q[1]) / 2 - dx / L * Math.hypot(q[0] - p[0], q[1] - p[1]) * k];
      pts = k ? [p, c, q] : [p, q];
      mid = k ? c : [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2];
    }
    add(pts.length > 2 ? rc.curve(pts, o) : rc.linearPath(pts, o));
    const [px, py] = pts[pts.length - 2], [qx, qy] = pts[pts.length - 1];
    const ang = Math.atan2(qy - py, qx - px), len = 15 + 4 * st.stroke_width;
    const wing = (s) => [qx - len * Math.cos(ang + s * 0.42), qy - len * Math.sin(ang + s * 0.42)];
    if (st.head === 'triangle') add(rc.polygon([wing(1), [qx, qy], wing(-1)], opts({fill: st.stroke, fillStyle: 'solid'})));
    else { add(rc.linearPath([wing(1), [qx, qy]], o)); add(rc.linearPath([wing(-1), [qx, qy]], o)); }
    if (e.label) {
      const tw = measure(e.label, fs * 0.8), r = document.createElementNS(NS, 'rect');
      r.setAttribute('x', mid[0] - tw / 2 - 4); r.setAttribute('y', mid[1] - fs * 0.55); r.setAttribute('width', tw + 8);
      r.setAttribute('height', fs * 1.1); r.setAttribute('fill', bg); add(r);
      text(e.label, mid[0], mid[1], Math.round(fs * 0.8));
    }
  }
  document.getElementById('c').appendChild(svg);
  const bb = svg.getBBox();
  svg.setAttribute('viewBox', `${bb.x - 10} ${bb.y - 10} ${bb.width + 20} ${bb.height + 20}`);
  svg.setAttribute('width', bb.width + 20); svg.setAttribute('height', bb.height + 20);
  svg.style.background = bg; svg.style.display = 'block';
  if (st.theme === 'dark') document.getElementById('c').style.filter = 'invert(93%) hue-rotate(180deg)';
  return [bb.x, bb.y, bb.width, bb.height];
}"""


def draw(figs: Path, n: int = 20, seed: int = 0) -> list[dict]:
    """Draw ``n`` state machines to ``figs`` (PNG, each scene as ``.json`` beside it); their truth records."""
    def record(sc: dict) -> dict:
        st = sc["style"]
        return {"maker": "excalidraw-states", "arrow": "curved", "loops": sc["loops"], "two_way": sc["two_way"],
                "style": f"excalidraw state machine, roughness {st['roughness']}, {st['fill']}, {st['font']}",
                "phenomena": ["hand-drawn", "state machine"]}

    return draw_scenes(figs, n, seed, state_scene,
                       lambda i, st: f"exs_{i:03d}_r{st['roughness']}_{st['fill']}_{st['theme']}", record, DRAW_JS)
