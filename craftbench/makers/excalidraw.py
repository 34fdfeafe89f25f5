"""Excalidraw-like sketches drawn with rough.js (Excalidraw's own stroke library) and Excalidraw's own fonts.

Each figure is a scene made from a seed: labelled rectangles (sharp or rounded), ellipses and diamonds on a
loose grid, arrows between neighbours (straight, elbow or curved; bound to the shapes, with Excalidraw's
small gap, or free, starting a little off or inside the outline), text on arrows (on a patch of page colour,
as Excalidraw masks the line under it), free text beside the shapes (a title, a note), and containers
(a larger rough rectangle, often dashed, with a title inside its top left). Style per figure: roughness 0, 1
or 2 (architect, artist, cartoonist), fill none, hachure, cross-hatch or solid in Excalidraw's pastel
palette, stroke width 1, 2 or 4, stroke colour, font (Excalifont, Virgil, Nunito, Comic Shanns, Liberation
Sans as Helvetica) and size (S 16, M 20, L 28), light or dark (Excalidraw's dark export: the page inverted
with ``invert(93%) hue-rotate(180deg)``), exported at 1x or 2x with Excalidraw's 10 px padding.

The truth follows the real set's Excalidraw entries (``realset/manifest.json``): every label's words in
``text``, each labelled shape's label as a node, and each arrow between two labelled shapes as an edge
(source, target). Each record names its classes (``roughness``, ``fill``, ``arrow``, ``font``, ``theme``) so
the real track's per-figure scores can be grouped by class.

Fonts come from the npm package ``@excalidraw/excalidraw`` (``dist/prod/fonts``; OFL): from
``node_modules`` (``make env`` packs the package from the registry, checks its sha256 and unpacks only its
fonts there) or a folder named by ``CRAFTBENCH_EXCALIDRAW_FONTS``. rough.js is read from
``node_modules/roughjs`` (Mermaid's dependency). The browser is the system's ``/usr/bin/chromium`` through
Playwright, on a local page (no network).
"""

from __future__ import annotations

import base64
import json
import os
import random
import re
from pathlib import Path

from craftbench.makers.browser import scaled_pages
from craftbench.makers.mermaid import WORDS, _words
from crafter.errors import CrafterError

ROOT = Path(__file__).resolve().parents[2]
# family -> the woff2 file holding its Latin subset, under the package's dist/prod/fonts
FONTS = {"Excalifont": "Excalifont/Excalifont-Regular-a88b72a24fb54c9f94e3b5fdaa7481c9.woff2",
         "Virgil": "Virgil/Virgil-Regular.woff2",
         "Nunito": "Nunito/Nunito-Regular-XRXI3I6Li01BKofiOc5wtlZ2di8HDIkhdTQ3j6zbXWjgeg.woff2",
         "Comic Shanns": "ComicShanns/ComicShanns-Regular-279a7b317d12eb88de06167bd672b4b4.woff2",
         "Liberation Sans": "Liberation/LiberationSans-Regular.woff2",
         "Cascadia": "Cascadia/CascadiaCode-Regular.woff2"}
FONT_PICK = ("Excalifont", "Excalifont", "Excalifont", "Virgil", "Virgil", "Nunito", "Comic Shanns", "Liberation Sans")
STROKES = ("#1e1e1e", "#1e1e1e", "#1e1e1e", "#e03131", "#2f9e44", "#1971c2", "#f08c00", "#6741d9")
FILLS = ("#ffc9c9", "#b2f2bb", "#a5d8ff", "#ffec99", "#eebefa", "#ffd8a8", "#99e9f2", "#d0bfff")
FILL_STYLES = ("none", "hachure", "cross-hatch", "solid")
ARROWS = ("straight", "elbow", "curved")


class ExcalidrawMakerError(CrafterError):
    """rough.js, Excalidraw's fonts or Chromium/Playwright missing."""


def rough_js(root: Path = ROOT) -> Path:
    path = root / "node_modules" / "roughjs" / "bundled" / "rough.js"
    if not path.is_file():
        raise ExcalidrawMakerError(f"{path}: not found (run `npm install` at the repository root)")
    return path


def font_dir(root: Path = ROOT) -> Path:
    """The folder of Excalidraw's fonts: ``$CRAFTBENCH_EXCALIDRAW_FONTS`` or the npm package's ``dist/prod/fonts``."""
    env = os.environ.get("CRAFTBENCH_EXCALIDRAW_FONTS")
    for cand in ([Path(env)] if env else []) + [root / "node_modules/@excalidraw/excalidraw/dist/prod/fonts"]:
        if all((cand / f).is_file() for f in FONTS.values()):
            return cand
    raise ExcalidrawMakerError("Excalidraw's fonts not found: install the npm package @excalidraw/excalidraw or set "
                               "CRAFTBENCH_EXCALIDRAW_FONTS to its dist/prod/fonts folder")


def _style(rng: random.Random, i: int) -> dict:
    """One figure's style; roughness, fill, arrow kind and font cycle through their classes, dark is drawn by chance
    (one in five: a cycle of its own would fall in step with the arrow kinds')."""
    return {"roughness": (1, 0, 2, 1)[i % 4], "fill": FILL_STYLES[(i // 4) % 4], "arrow": ARROWS[i % 3],
            "font": FONT_PICK[(i * 3 + rng.randrange(2)) % len(FONT_PICK)],
            "font_size": rng.choice((16, 20, 20, 20, 28)), "stroke_width": rng.choice((1, 2, 2, 4)),
            "stroke": rng.choice(STROKES), "rounded": rng.random() < 0.5, "theme": "dark" if rng.random() < 0.2 else "light",
            "scale": rng.choice((1, 2, 2)), "multi_fill": rng.random() < 0.6, "head": rng.choice(("arrow", "arrow",
                                                                                                       "triangle"))}


def scene(rng: random.Random, i: int) -> dict:
    """A scene: nodes on a grid, arrows between neighbours, free text and containers, with its truth."""
    st = _style(rng, i)
    cols, rows = rng.randint(2, 4), rng.randint(1, 3)
    cells = [(c, r) for r in range(rows) for c in range(cols)]
    keep = sorted(rng.sample(cells, max(2, min(len(cells), rng.randint(3, 8)))), key=lambda t: (t[1], t[0]))
    labels: list[str] = []
    while len(labels) < len(keep):
        w = _words(rng, 1, 3) if rng.random() < 0.8 else rng.choice(WORDS).upper()
        if w.lower() not in (x.lower() for x in labels):
            labels.append(w)
    fill0 = rng.choice(FILLS)
    nodes = []
    for k, ((c, r), lab) in enumerate(zip(keep, labels, strict=True)):
        shape = rng.choice(("rect",) * 6 + ("ellipse", "ellipse", "diamond"))
        words = lab.split()
        lines = [" ".join(words[:2]), " ".join(words[2:])] if len(words) == 3 and rng.random() < 0.5 else [lab]
        nodes.append({"id": k, "col": c, "row": r, "shape": shape, "lines": [x for x in lines if x],
                      "fill": rng.choice(FILLS) if st["multi_fill"] else fill0})
    at = {(n["col"], n["row"]): n["id"] for n in nodes}
    pairs = []
    for n in nodes:
        for dc, dr in ((1, 0), (0, 1), (1, 1), (-1, 1)):
            j = at.get((n["col"] + dc, n["row"] + dr))
            diag = dc != 0 and dr != 0
            if j is not None and rng.random() < (0.25 if diag else 0.75):
                pairs.append((n["id"], j) if rng.random() < 0.75 else (j, n["id"]))
    text = []
    edges, truth_edges = [], []
    for a, b in pairs:
        lab = _words(rng, 1, 2, cap=False) if rng.random() < 0.3 else ""
        both = rng.random() < 0.15  # a double-headed arrow: the real set lists it once, left or top end first
        if both:
            a, b = sorted((a, b), key=lambda k: (nodes[k]["col"], nodes[k]["row"]))
        edges.append({"a": a, "b": b, "label": lab, "bound": rng.random() < 0.7, "both": both})
        truth_edges.append([labels[a], labels[b]])
        if lab:
            text.append(lab)
    extras = {}
    if rng.random() < 0.5:
        extras["title"] = _words(rng, 2, 3)
        text.insert(0, extras["title"])
    if rng.random() < 0.4:
        extras["note"] = {"node": rng.randrange(len(nodes)), "text": _words(rng, 2, 4, cap=False)}
        text.append(extras["note"]["text"])
    truth_nodes = list(labels)
    if rng.random() < 0.35 and cols >= 2:  # a container around one column's nodes
        col = rng.choice(sorted({n["col"] for n in nodes}))
        title = _words(rng, 1, 2)
        while title.lower() in (x.lower() for x in labels):
            title = _words(rng, 1, 2)
        # a titled container that arrows reach is a node of its own (the real set's Excalidraw entries list it)
        linked = [n["id"] for n in nodes if abs(n["col"] - col) == 1] if rng.random() < 0.6 else []
        extras["container"] = {"col": col, "title": title, "dashed": rng.random() < 0.6}
        text.append(title)
        if linked:
            k = rng.choice(linked)
            a, b = (k, "C") if rng.random() < 0.6 else ("C", k)
            edges.append({"a": a, "b": b, "label": "", "bound": True, "both": False})
            truth_edges.append([labels[a] if a != "C" else title, labels[b] if b != "C" else title])
            truth_nodes.append(title)
    return {"style": st, "nodes": nodes, "edges": edges, "extras": extras,
            "truth": {"text": " ".join(labels + text), "nodes": truth_nodes, "edges": truth_edges}}


PAGE = "<!doctype html><html><head><meta charset='utf-8'></head><body style='margin:0;background:#fff'>" \
       "<div id='c' style='display:inline-block'></div></body></html>"

# What every scene script starts with: the fonts loaded, text measured, a seeded random stream.
SCENE_PRELUDE = r"""  for (const [name, b64] of Object.entries(fonts)) {
    const f = new FontFace(name, `url(data:font/woff2;base64,${b64})`);
    await f.load(); document.fonts.add(f);
  }
  const st = scene.style, NS = 'http://www.w3.org/2000/svg';
  const fam = `'${st.font}'`, fs = st.font_size, lh = fs * 1.25;
  const ctx = document.createElement('canvas').getContext('2d');
  const measure = (s, size) => { ctx.font = `${size || fs}px ${fam}`; return ctx.measureText(s).width; };
  let rs = seed;
  const rnd = () => { rs = (rs * 16807) % 2147483647; return rs / 2147483647; };
"""

DRAW_JS = r"""async ([scene, fonts, seed]) => {
""" + SCENE_PRELUDE + r"""  // sizes
  for (const n of scene.nodes) {
    const tw = Math.max(...n.lines.map(l => measure(l)));
    let w = Math.max(tw + 2 * (14 + rnd() * 20), 90 + rnd() * 60), h = n.lines.length * lh + 2 * (12 + rnd() * 18);
    if (n.shape === 'ellipse') { w *= 1.35; h *= 1.45; }
    if (n.shape === 'diamond') { w = Math.max(w * 1.6, tw + 60); h *= 1.9; }
    n.w = w; n.h = h;
  }
  const ncol = Math.max(...scene.nodes.map(n => n.col)) + 1, nrow = Math.max(...scene.nodes.map(n => n.row)) + 1;
  const colw = Array(ncol).fill(60), rowh = Array(nrow).fill(40);
  for (const n of scene.nodes) { colw[n.col] = Math.max(colw[n.col], n.w); rowh[n.row] = Math.max(rowh[n.row], n.h); }
  // an arrow's label sits on it with room to spare (as a user drags the arrow longer to fit it)
  const lw = Math.max(0, ...scene.edges.filter(e => e.label).map(e => measure(e.label, fs * 0.8)));
  const gx = Math.max(80 + rnd() * 90, lw ? lw + 90 : 0), gy = Math.max(70 + rnd() * 60, lw ? fs + 70 : 0);
  const top = scene.extras.title ? 60 : 10;
  const cont = scene.extras.container;
  const x0 = [], y0 = [];
  let acc = 20;
  for (let c = 0; c < ncol; c++) { x0.push(acc); acc += colw[c] + gx + (cont ? 30 : 0); }
  acc = top + 20 + (cont ? 40 : 0);
  for (let r = 0; r < nrow; r++) { y0.push(acc); acc += rowh[r] + gy; }
  for (const n of scene.nodes) {
    n.cx = x0[n.col] + colw[n.col] / 2 + (rnd() - 0.5) * 20;
    n.cy = y0[n.row] + rowh[n.row] / 2 + (rnd() - 0.5) * 14;
  }
  const svg = document.createElementNS(NS, 'svg');
  const rc = rough.svg(svg);
  const opts = (extra) => Object.assign({roughness: st.roughness, strokeWidth: st.stroke_width, stroke: st.stroke,
    bowing: 1, seed: 1 + Math.floor(rnd() * 1e6), fillWeight: st.stroke_width / 2,
    hachureGap: st.stroke_width * 4, disableMultiStroke: st.roughness === 0, preserveVertices: true}, extra || {});
  const fillOpts = (n) => st.fill === 'none' ? {} : {fill: n.fill, fillStyle: st.fill};
  const text = (s, x, y, size, anchor, color) => {
    const t = document.createElementNS(NS, 'text');
    t.setAttribute('x', x); t.setAttribute('y', y); t.setAttribute('font-family', fam);
    t.setAttribute('font-size', size); t.setAttribute('text-anchor', anchor || 'middle');
    t.setAttribute('dominant-baseline', 'middle'); t.setAttribute('fill', color || st.stroke);
    t.textContent = s; svg.appendChild(t);
  };
  const add = (el) => svg.appendChild(el);
  let W = acc, H = acc;
  if (cont) {
    const inside = scene.nodes.filter(n => n.col === cont.col);
    const xa = Math.min(...inside.map(n => n.cx - n.w / 2)) - 25;
    const xb = Math.max(Math.max(...inside.map(n => n.cx + n.w / 2)) + 25, xa + measure(cont.title, Math.round(fs * 0.9)) + 30);
    const ya = Math.min(...inside.map(n => n.cy - n.h / 2)) - 50, yb = Math.max(...inside.map(n => n.cy + n.h / 2)) + 20;
    add(rc.rectangle(xa, ya, xb - xa, yb - ya, opts({stroke: '#868e96', strokeLineDash: cont.dashed ? [12, 8] : undefined})));
    text(cont.title, xa + 10, ya + 18, Math.round(fs * 0.9), 'start', '#495057');
    cont.box = {id: 'C', cx: (xa + xb) / 2, cy: (ya + yb) / 2, w: xb - xa, h: yb - ya, shape: 'rect', col: cont.col, row: -1};
  }
  for (const n of scene.nodes) {
    const x = n.cx - n.w / 2, y = n.cy - n.h / 2, o = opts(fillOpts(n));
    if (n.shape === 'ellipse') add(rc.ellipse(n.cx, n.cy, n.w, n.h, o));
    else if (n.shape === 'diamond') add(rc.polygon([[n.cx, y], [x + n.w, n.cy], [n.cx, y + n.h], [x, n.cy]], o));
    else if (st.rounded) {
      const r = Math.min(32, n.w / 4, n.h / 4);
      add(rc.path(`M ${x + r} ${y} L ${x + n.w - r} ${y} Q ${x + n.w} ${y} ${x + n.w} ${y + r} L ${x + n.w} ${y + n.h - r} ` +
        `Q ${x + n.w} ${y + n.h} ${x + n.w - r} ${y + n.h} L ${x + r} ${y + n.h} Q ${x} ${y + n.h} ${x} ${y + n.h - r} ` +
        `L ${x} ${y + r} Q ${x} ${y} ${x + r} ${y}`, o));
    } else add(rc.rectangle(x, y, n.w, n.h, o));
    n.lines.forEach((l, k) => text(l, n.cx, n.cy + (k - (n.lines.length - 1) / 2) * lh, fs));
  }
  // where the ray from a node's centre towards (tx, ty) leaves its outline
  const exit = (n, tx, ty, gap) => {
    const dx = tx - n.cx, dy = ty - n.cy, L = Math.hypot(dx, dy) || 1, ux = dx / L, uy = dy / L;
    const a = n.w / 2, b = n.h / 2;
    let t;
    if (n.shape === 'ellipse') t = 1 / Math.sqrt((ux / a) ** 2 + (uy / b) ** 2);
    else if (n.shape === 'diamond') t = 1 / (Math.abs(ux) / a + Math.abs(uy) / b);
    else t = Math.min(Math.abs(ux) > 1e-9 ? a / Math.abs(ux) : 1e9, Math.abs(uy) > 1e-9 ? b / Math.abs(uy) : 1e9);
    return [n.cx + ux * (t + gap), n.cy + uy * (t + gap)];
  };
  const byId = Object.fromEntries(scene.nodes.map(n => [n.id, n]));
  if (cont && cont.box) byId['C'] = cont.box;
  const bg = '#ffffff';
  for (const e of scene.edges) {
    const A = byId[e.a], B = byId[e.b];
    const gap = () => e.bound ? 4 + rnd() * 4 : -6 + rnd() * 22;
    let pts;
    const straight = st.arrow === 'straight' || A.id === 'C' || B.id === 'C' ||
      (st.arrow === 'elbow' && (A.row === B.row || A.col === B.col));
    if (A.id === 'C' || B.id === 'C') {  // a container's arrow meets its side by the title, above its nodes
      const [C, N] = A.id === 'C' ? [A, B] : [B, A];
      const c = [N.cx > C.cx ? C.cx + C.w / 2 + gap() : C.cx - C.w / 2 - gap(), C.cy - C.h / 2 + 25];
      const n = exit(N, c[0], c[1], gap());
      pts = A.id === 'C' ? [c, n] : [n, c];
    } else if (straight) {
      pts = [exit(A, B.cx, B.cy, gap()), exit(B, A.cx, A.cy, gap())];
    } else if (st.arrow === 'elbow') {  // leave A sideways, enter B from above/below
      const s = [A.cx + Math.sign(B.cx - A.cx) * (A.w / 2 + gap()), A.cy];
      const t = [B.cx, B.cy - Math.sign(B.cy - A.cy) * (B.h / 2 + gap())];
      pts = [s, [t[0], s[1]], t];
    } else {
      const p = exit(A, B.cx, B.cy, gap()), q = exit(B, A.cx, A.cy, gap());
      const dx = q[0] - p[0], dy = q[1] - p[1], k = (rnd() < 0.5 ? -1 : 1) * (0.12 + rnd() * 0.15);
      pts = [p, [(p[0] + q[0]) / 2 - dy * k, (p[1] + q[1]) / 2 + dx * k], q];
    }
    const o = opts({fill: undefined});
    add(st.arrow === 'curved' && pts.length === 3 ? rc.curve(pts, o) : rc.linearPath(pts, o));
    const head = ([px, py], [qx, qy]) => {
      const ang = Math.atan2(qy - py, qx - px), len = Math.min(15 + 4 * st.stroke_width, Math.hypot(qx - px, qy - py) / 3);
      const wing = (s) => [qx - len * Math.cos(ang + s * 0.42), qy - len * Math.sin(ang + s * 0.42)];
      if (st.head === 'triangle') add(rc.polygon([wing(1), [qx, qy], wing(-1)], opts({fill: st.stroke, fillStyle: 'solid'})));
      else { add(rc.linearPath([wing(1), [qx, qy]], o)); add(rc.linearPath([wing(-1), [qx, qy]], o)); }
    };
    head(pts[pts.length - 2], pts[pts.length - 1]);
    if (e.both) head(pts[1], pts[0]);
    if (e.label) {
      const m = pts.length === 3 && st.arrow === 'elbow' ? [(pts[0][0] + pts[1][0]) / 2, pts[0][1]] :
        (pts.length === 3 ? pts[1] : [(pts[0][0] + pts[1][0]) / 2, (pts[0][1] + pts[1][1]) / 2]);
      const tw = measure(e.label, fs * 0.8);
      const r = document.createElementNS(NS, 'rect');
      r.setAttribute('x', m[0] - tw / 2 - 4); r.setAttribute('y', m[1] - fs * 0.55); r.setAttribute('width', tw + 8);
      r.setAttribute('height', fs * 1.1); r.setAttribute('fill', bg); add(r);
      text(e.label, m[0], m[1], Math.round(fs * 0.8));
    }
  }
  if (scene.extras.title) text(scene.extras.title, 20, 30, Math.round(fs * 1.4), 'start');
  if (scene.extras.note) {
    const n = byId[scene.extras.note.node];
    text(scene.extras.note.text, n.cx + n.w / 2 + 12, n.cy + n.h / 2 + 14, Math.round(fs * 0.8), 'start', '#495057');
  }
  document.getElementById('c').appendChild(svg);
  const bb = svg.getBBox();
  W = bb.x + bb.width + 10; H = bb.y + bb.height + 10;
  const x = Math.min(0, bb.x - 10), y = Math.min(0, bb.y - 10);
  svg.setAttribute('viewBox', `${bb.x - 10} ${bb.y - 10} ${bb.width + 20} ${bb.height + 20}`);
  svg.setAttribute('width', bb.width + 20); svg.setAttribute('height', bb.height + 20);
  svg.style.background = bg; svg.style.display = 'block';
  if (st.theme === 'dark') document.getElementById('c').style.filter = 'invert(93%) hue-rotate(180deg)';
  return [x, y, W, H];
}"""


def _fonts_b64() -> dict[str, str]:
    root = font_dir()
    return {name: base64.b64encode((root / rel).read_bytes()).decode("ascii") for name, rel in FONTS.items()}


def render(jobs: list[tuple[dict, int, Path]], js: str = DRAW_JS) -> None:
    """Draw each (scene, seed, PNG path) in one headless Chromium with the drawing script ``js``."""
    rough = rough_js()
    fonts = _fonts_b64()
    with scaled_pages(ExcalidrawMakerError, "Excalidraw") as pages:
        for sc, seed, png in jobs:
            page = pages(sc["style"]["scale"])
            page.set_content(PAGE)
            page.add_script_tag(path=str(rough))
            used = sc["style"].get("fonts") or [sc["style"]["font"]]  # a real scene may mix families
            page.evaluate(js, [sc, {f: fonts[f] for f in used}, seed])
            page.locator("#c svg").screenshot(path=str(png))


def _container(sc: dict) -> str:
    """none, text (a titled container no arrow reaches) or node (one an arrow reaches)."""
    if "container" not in sc["extras"]:
        return "none"
    return "node" if any("C" in (e["a"], e["b"]) for e in sc["edges"]) else "text"


def _clean(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip()


def draw_scenes(figs: Path, n: int, seed: int, make, fid_of, record, js: str = DRAW_JS) -> list[dict]:
    """Draw ``n`` scenes ``make(rng, i)`` to ``figs`` (PNG named ``fid_of(i, style)``, each scene as ``.json`` beside
    it) with script ``js``; their truth records, the fields every scene shares plus ``record(scene)``."""
    rng = random.Random(seed)
    jobs, records = [], []
    for i in range(n):
        sc = make(rng, i)
        st = sc["style"]
        fid = fid_of(i, st)
        png = figs / f"{fid}.png"
        (figs / f"{fid}.json").write_text(json.dumps(sc, indent=1), encoding="utf-8")
        jobs.append((sc, seed * 1000 + i + 1, png))
        t = sc["truth"]
        records.append({"id": fid, "file": f"figs/{png.name}", "kind": "diagram", "roughness": st["roughness"],
                        "fill": st["fill"], "font": st["font"], "theme": st["theme"], "scale": st["scale"],
                        "text": _clean(t["text"]), "nodes": t["nodes"], "edges": t["edges"], "images": 0,
                        **record(sc)})
    render(jobs, js)
    return records


def draw(figs: Path, n: int = 20, seed: int = 0) -> list[dict]:
    """Draw ``n`` sketches to ``figs`` (PNG, with each scene as ``.json`` beside it); their truth records."""
    def record(sc: dict) -> dict:
        st = sc["style"]
        return {"maker": "excalidraw", "arrow": st["arrow"], "container": _container(sc),
                "style": f"excalidraw, roughness {st['roughness']}, {st['fill']}, {st['arrow']}, {st['font']}",
                "double": any(e["both"] for e in sc["edges"]), "phenomena": ["hand-drawn"]}

    return draw_scenes(figs, n, seed, scene, lambda i, st: f"ex_{i:03d}_r{st['roughness']}_{st['fill']}_{st['arrow']}",
                       record)
