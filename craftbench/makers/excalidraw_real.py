"""Real Excalidraw scenes from public repositories, drawn with rough.js and Excalidraw's fonts.

The ``excalidraw`` and ``excalidraw-states`` makers draw scenes we composed; here every scene is one a person
drew: a ``.excalidraw`` / ``.excalidraw.json`` file, or the scene Excalidraw embeds in a ``*.excalidraw.png``
export (the PNG's ``application/vnd.excalidraw+json`` text chunk, deflated), found anywhere in the history of
the repository snapshots under :func:`craftbench.makers.mirrors.mirror_root` (the newest version of each path;
a scene copied to several paths is drawn once). Only repositories whose snapshot holds a licence file naming
a licence we can record (:func:`licence_of`) are read, and a scene a real-set figure may have come from is left
out (``mermaid_versions.RealSet``: a real-set figure of its repository in its directory or of its name, or any
real-set figure, of any repository (a fork's copy), sharing most node labels, any split; only the count is told).
A scene is deduplicated only among those kept, so neither an unlicensed copy nor one left out hides another; a
scene whose elements are malformed (a shape without an id, a coordinate not a number, a point not a pair, a PNG
chunk not a scene) is skipped and counted.

Each scene is drawn as Excalidraw draws its elements (:data:`DRAW_JS`, the plain maker's page, fonts and
rough.js): rectangles (sharp or rounded), ellipses, diamonds, lines and arrows (straight, curved through their
points, or elbowed) with their heads, text in its family where the plain maker loads it (:data:`FAMILIES`;
Assistant, 4, Lilita One, 7, and unknown families in Excalifont), size, alignment and colour, free-hand strokes,
images whose data the scene embeds (``images`` counts them; a remote or missing file is left blank),
each with its seed, roughness, stroke width and style, fill style, opacity and rotation; exported at 1x or 2x
with Excalidraw's 10 px padding, light first and Excalidraw's dark export on a second pass.

Truth from the scene (:func:`truth`): ``text`` every text element's words; ``nodes`` every shape (rectangle,
ellipse, diamond) with a label: its bound text, else the free text lying inside it and in no smaller shape —
a shape holding other shapes (a container) is a node only when an arrow reaches it; ``edges`` every arrow whose
two ends reach labelled shapes, ``[start, end]`` (``[end, start]`` when its only head is at the start). An end
reaches a shape by its binding (a binding to a shape's text is to the shape); an unbound end reaches the
smallest shape whose box, grown by :data:`TOUCH` px, holds the end point (a hand-placed arrow stops on or
near the outline; a binding gap is 4–10 px), a container only where the end lies within :data:`TOUCH` of its
outline (an arrow between two shapes inside it does not reach it). Arrows' own labels are text only.

    craftbench makers excalidraw-real -o /tmp/makers/exr -n 40
"""

from __future__ import annotations

import json
import math
import random
import re
import struct
import zlib
from pathlib import Path

from craftbench.makers.excalidraw import SCENE_PRELUDE, ExcalidrawMakerError, _clean, render
from craftbench.makers.mermaid_versions import RealSet
from craftbench.makers.mirrors import git, git_bytes, harvested, mirror_root
from crafter.formats.sanitize import capped_inflate

SHAPES = ("rectangle", "ellipse", "diamond")
TOUCH = 12.0  # px: how far outside a shape's box an unbound arrow end may stop and still reach it
MIN_NODES, MAX_NODES, MIN_EDGES = 2, 60, 1
# Excalidraw's fontFamily numbers -> the families the plain maker loads (2 and 9: Helvetica / Liberation Sans);
# 4 (Assistant), 7 (Lilita One) and any other: Excalifont
FAMILIES = {1: "Virgil", 2: "Liberation Sans", 3: "Cascadia", 5: "Excalifont", 6: "Nunito", 8: "Comic Shanns",
            9: "Liberation Sans"}
# a licence file's words -> the licence recorded (first match)
LICENCES = (("Apache-2.0", r"Apache License"), ("MIT", r"\bMIT License|Permission is hereby granted, free of charge"),
            ("BSD-3-Clause", r"Redistribution and use in source and binary forms"), ("ISC", r"\bISC License"),
            ("MPL-2.0", r"Mozilla Public License"), ("GPL-3.0", r"GNU GENERAL PUBLIC LICENSE\s+Version 3"),
            ("AGPL-3.0", r"GNU AFFERO GENERAL PUBLIC LICENSE"), ("LGPL", r"GNU LESSER GENERAL PUBLIC LICENSE"),
            ("CC-BY-4.0", r"Creative Commons Attribution 4\.0"), ("Unlicense", r"unencumbered software released"))
SCENE_PATH = re.compile(r"\.excalidraw(\.json|\.png)?$", re.I)
PNG_KEY = b"application/vnd.excalidraw+json"
MAX_INFLATED = 64 * 2**20  # bytes: a deflated chunk or scene inflating beyond this is a bomb, not a figure


def inflate(data: bytes) -> bytes:
    """zlib-deflated ``data`` inflated, never beyond :data:`MAX_INFLATED` (``zlib.error`` then, as for bad data)."""
    return capped_inflate(data, MAX_INFLATED)


def licence_of(text: str) -> str | None:
    """The licence a licence file's text names (:data:`LICENCES`), or None."""
    return next((name for name, pat in LICENCES if re.search(pat, text[:4000], re.I)), None)


def png_text(data: bytes, key: bytes) -> bytes | None:
    """The value of a PNG's first ``tEXt`` chunk keyed ``key`` (zTXt: inflated, at most :data:`MAX_INFLATED`
    bytes), or None."""
    i = 8
    while i + 8 <= len(data):
        (n,) = struct.unpack(">I", data[i:i + 4])
        kind = data[i + 4:i + 8]
        if kind in (b"tEXt", b"zTXt"):
            k, _, value = data[i + 8:i + 8 + n].partition(b"\0")
            if k == key:
                try:
                    return value if kind == b"tEXt" else inflate(value[1:])  # zTXt: a method byte first
                except zlib.error:
                    return None
        i += 12 + n
    return None


def png_scene(data: bytes) -> dict | None:
    """The scene an Excalidraw PNG export embeds (its ``application/vnd.excalidraw+json`` tEXt chunk), or None."""
    value = png_text(data, PNG_KEY)
    if value is None:
        return None
    try:
        wrap = json.loads(value.decode("latin-1"))
        raw = wrap["encoded"].encode("latin-1")  # a byte string, one char per byte
        return json.loads((inflate(raw) if wrap.get("compressed") else raw).decode("utf-8"))
    except (ValueError, KeyError, TypeError, AttributeError, zlib.error):
        return None


def _box(e: dict) -> tuple[float, float, float, float]:
    """An element's box (x0, y0, x1, y1), width and height taken unsigned."""
    x, y, w, h = e.get("x", 0), e.get("y", 0), e.get("width", 0), e.get("height", 0)
    return min(x, x + w), min(y, y + h), max(x, x + w), max(y, y + h)


def _inside(a: tuple, b: tuple, grow: float = 0.0) -> bool:
    return a[0] >= b[0] - grow and a[1] >= b[1] - grow and a[2] <= b[2] + grow and a[3] <= b[3] + grow


def _area(b: tuple) -> float:
    return (b[2] - b[0]) * (b[3] - b[1])


def _words(e: dict) -> str:
    return _clean(e.get("originalText") or e.get("text") or "")


def truth(scene: dict) -> dict:
    """Text, nodes and edges of a scene, as the module docstring says."""
    els = [e for e in scene.get("elements", []) if isinstance(e, dict) and not e.get("isDeleted")]
    by_id = {e.get("id"): e for e in els}
    texts = [e for e in els if e.get("type") == "text" and _words(e)]
    shapes = [e for e in els if e.get("type") in SHAPES]
    boxes = {s["id"]: _box(s) for s in shapes}
    label: dict[str, list[dict]] = {}
    for t in texts:
        host = by_id.get(t.get("containerId"))
        if host is not None and host.get("type") in SHAPES:
            label.setdefault(host["id"], []).append(t)
    for t in texts:
        if t.get("containerId"):
            continue
        tb = _box(t)
        hosts = [s for s in shapes if _inside(tb, boxes[s["id"]], 4)]
        if hosts:
            host = min(hosts, key=lambda s: _area(boxes[s["id"]]))
            if not any(by_id.get(x.get("containerId")) is host for x in label.get(host["id"], [])):
                label.setdefault(host["id"], []).append(t)
    names = {sid: " ".join(_words(t) for t in sorted(ts, key=lambda t: (t.get("y", 0), t.get("x", 0))))
             for sid, ts in label.items()}
    container = {s["id"] for s in shapes if any(o is not s and _inside(boxes[o["id"]], boxes[s["id"]]) for o in shapes)}

    def end(arrow: dict, which: str) -> str | None:
        bound = (arrow.get(f"{which}Binding") or {}).get("elementId")
        el = by_id.get(bound)
        if el is not None and el.get("type") == "text" and by_id.get(el.get("containerId")) in shapes:
            el = by_id[el["containerId"]]
        if el is not None and el.get("type") in SHAPES:
            return el["id"]
        pts = arrow.get("points") or []
        if not pts:
            return None
        px, py = pts[0] if which == "start" else pts[-1]
        p = (arrow.get("x", 0) + px, arrow.get("y", 0) + py)
        hosts = [s for s in shapes if _inside((*p, *p), boxes[s["id"]], TOUCH)
                 and not (s["id"] in container and _inside((*p, *p), boxes[s["id"]], -TOUCH))]
        return min(hosts, key=lambda s: _area(boxes[s["id"]]))["id"] if hosts else None

    edges, reached = [], set()
    for a in (e for e in els if e.get("type") == "arrow"):
        s, t = end(a, "start"), end(a, "end")
        if s in names and t in names:
            if a.get("startArrowhead") and not a.get("endArrowhead"):
                s, t = t, s
            edges.append((s, t))
            reached |= {s, t}
    nodes = [sid for sid in names if sid not in container or sid in reached]
    return {"text": _clean(" ".join(_words(t) for t in texts)), "nodes": [names[n] for n in nodes],
            "edges": [[names[s], names[t]] for s, t in edges if s in nodes and t in nodes]}


def harvest(mirror: Path | None = None, real: RealSet | None = None) -> tuple[list[dict], int, int]:
    """Every usable scene in the mirrored repositories (sorted by repository and path, each scene once), the
    number of scenes (distinct, none kept) left out for want of a licence file we can name, and the number of
    malformed scenes skipped."""
    mirror = mirror or mirror_root()
    out, seen, unlicensed, malformed = [], set(), set(), 0
    for gdir in sorted(mirror.glob("*+*/repo")):
        repo = gdir.parent.name.replace("+", "/", 1)
        paths = sorted({p for p in git(gdir, "log", "--all", "--format=", "--name-only", "--", "*.excalidraw",
                                       "*.excalidraw.json", "*.excalidraw.png", check=False).split("\n")
                        if SCENE_PATH.search(p)})
        if not paths:
            continue
        lic_files = [p for p in git(gdir, "ls-tree", "--name-only", "HEAD", check=False).split("\n")
                     if re.match(r"(?i)(licen[cs]e|copying)", p)]
        licence = next((x for x in (licence_of(git_bytes(gdir, "show", f"HEAD:{f}", check=False)
                                               .decode("utf-8", "replace"))
                                    for f in lic_files) if x), None)
        for path in paths:
            if real is not None and (real.beside(repo, path) or real.named(repo, path)):
                continue
            commit = git(gdir, "log", "--all", "-n1", "--diff-filter=AM", "--format=%H", "--", path, check=False).strip()
            if not commit:
                continue
            data = git_bytes(gdir, "show", f"{commit}:{path}", check=False)
            try:
                scene = png_scene(data) if path.lower().endswith(".png") else json.loads(data.decode("utf-8"))
            except (ValueError, UnicodeDecodeError):
                scene = None
            if not isinstance(scene, dict) or not isinstance(scene.get("elements"), list):
                continue
            try:
                t = truth(scene) if well_formed(scene) else None
            except (TypeError, ValueError, KeyError, AttributeError):
                t = None
            if t is None:
                malformed += 1
                continue
            key = json.dumps([sorted(t["nodes"]), sorted(t["edges"])])  # a scene copied and retouched: once
            if not (MIN_NODES <= len(t["nodes"]) <= MAX_NODES and len(t["edges"]) >= MIN_EDGES):
                continue
            if licence is None:
                unlicensed.add(key)
                continue
            if (real is not None and real.like(repo, t["nodes"], anywhere=True)) or key in seen:
                continue
            seen.add(key)
            out.append({"repo": repo, "path": path, "commit": commit, "licence": licence, "scene": scene,
                        "truth": t})
    return out, len(unlicensed - seen), malformed


def _number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def well_formed(scene: dict) -> bool:
    """Whether every element of a scene that is drawn or read is as Excalidraw writes it: a dict with a string
    type and id; x, y, width, height, fontSize and angle numbers where given; points [x, y] pairs of numbers;
    text and container ids strings; bindings and roundness dicts. A scene that is not is skipped (one bad
    element would stop the drawing page, or the reading of its truth)."""
    for e in scene.get("elements") or []:
        if not isinstance(e, dict):
            return False
        if e.get("isDeleted"):
            continue
        if not isinstance(e.get("type"), str) or not isinstance(e.get("id"), str):
            return False
        if not all(_number(e[k]) for k in ("x", "y", "width", "height", "fontSize", "angle") if k in e):
            return False
        pts = e.get("points")
        if pts is not None and not (isinstance(pts, list)
                                    and all(isinstance(q, list) and len(q) == 2 and all(map(_number, q)) for q in pts)):
            return False
        if not all(isinstance(e[k], str) for k in ("text", "originalText") if k in e) \
                or not isinstance(e.get("containerId") or "", str):
            return False
        for k in ("startBinding", "endBinding", "roundness"):
            if e.get(k) is not None and not isinstance(e[k], dict):
                return False
    return True


def embedded_images(scene: dict) -> int:
    """How many image elements of a scene have their data in it (a ``data:`` URL in its files), as drawn."""
    files = scene.get("files") if isinstance(scene.get("files"), dict) else {}
    return sum(1 for e in scene.get("elements") or [] if isinstance(e, dict) and not e.get("isDeleted")
               and e.get("type") == "image" and isinstance(files.get(e.get("fileId")), dict)
               and str(files[e["fileId"]].get("dataURL") or "").startswith("data:"))


DRAW_JS = r"""async ([scene, fonts, seed]) => {
""" + SCENE_PRELUDE + r"""  const FAM = scene.families, svg = document.createElementNS(NS, 'svg'), rc = rough.svg(svg);
  const files = scene.files || {};
  const dash = (e) => e.strokeStyle === 'dashed' ? [8, 8 + e.strokeWidth] :
    e.strokeStyle === 'dotted' ? [1.5, 6 + e.strokeWidth] : undefined;
  const roughness = (e) => {  // Excalidraw's adjustRoughness: small shapes drawn less rough
    const mx = Math.max(Math.abs(e.width), Math.abs(e.height)), mn = Math.min(Math.abs(e.width), Math.abs(e.height));
    return (mn >= 20 && mx >= 50) || mn >= 15 || ['arrow', 'line'].includes(e.type) ? e.roughness :
      Math.min(e.roughness / (mx < 10 ? 3 : 2), 2.5);
  };
  const opts = (e, fill) => {
    const o = {seed: e.seed || 1, roughness: roughness(e), stroke: e.strokeColor, strokeLineDash: dash(e),
      strokeWidth: e.strokeStyle !== 'solid' ? e.strokeWidth + 0.5 : e.strokeWidth, disableMultiStroke: e.strokeStyle !== 'solid',
      fillWeight: e.strokeWidth / 2, hachureGap: e.strokeWidth * 4, preserveVertices: e.roughness < 2};
    if (fill && e.backgroundColor && e.backgroundColor !== 'transparent') {
      o.fill = e.backgroundColor; o.fillStyle = e.fillStyle || 'hachure';
    }
    return o;
  };
  const radius = (e, x) => !e.roundness ? 0 :
    e.roundness.type === 3 ? (x <= 128 ? x * 0.25 : (e.roundness.value || 32)) : x * 0.25;
  const head = (g, e, kind, [px, py], [qx, qy]) => {  // Excalidraw's getArrowheadPoints, heads at (qx, qy)
    const L = Math.hypot(qx - px, qy - py) || 1, ux = (qx - px) / L, uy = (qy - py) / L;
    const size = Math.min(kind === 'arrow' ? 25 : kind.startsWith('diamond') ? 12 : 15,
                          L * (kind.startsWith('diamond') ? 0.25 : 0.5));
    const ang = (kind === 'bar' ? 90 : kind === 'arrow' ? 20 : 25) * Math.PI / 180;
    const xs = qx - ux * size, ys = qy - uy * size;
    const rot = (a) => [qx + (xs - qx) * Math.cos(a) - (ys - qy) * Math.sin(a),
                        qy + (xs - qx) * Math.sin(a) + (ys - qy) * Math.cos(a)];
    const o = Object.assign(opts(e, false), {strokeLineDash: undefined});
    const solid = Object.assign({}, o, {fill: e.strokeColor, fillStyle: 'solid'});
    if (kind === 'arrow') { g.appendChild(rc.linearPath([rot(ang), [qx, qy], rot(-ang)], o)); }
    else if (kind === 'bar') { g.appendChild(rc.linearPath([rot(ang), rot(-ang)], o)); }
    else if (kind.startsWith('triangle')) {
      g.appendChild(rc.polygon([[qx, qy], rot(ang), rot(-ang)], kind.endsWith('outline') ? o : solid));
    }
    else if (kind.startsWith('dot') || kind.startsWith('circle')) {
      g.appendChild(rc.circle(qx - ux * size / 2, qy - uy * size / 2, size, kind.endsWith('outline') ? o : solid));
    } else if (kind.startsWith('diamond')) {
      const m = [qx - ux * size * 2, qy - uy * size * 2], s = rot(ang), t = rot(-ang);
      const back = (v) => [v[0] - ux * size / 2, v[1] - uy * size / 2];
      g.appendChild(rc.polygon([[qx, qy], back(s), m, back(t)], kind.endsWith('outline') ? o : solid));
    } else g.appendChild(rc.linearPath([rot(ang), [qx, qy], rot(-ang)], o));  // crow's feet and others: an open head
  };
  for (const e of scene.elements) {
    if (e.isDeleted || e.type === 'frame' || e.type === 'magicframe' || e.type === 'selection') continue;
    const g = document.createElementNS(NS, 'g');
    const w = e.width || 0, h = e.height || 0, cx = e.x + w / 2, cy = e.y + h / 2;
    if (e.angle) g.setAttribute('transform', `rotate(${e.angle * 180 / Math.PI} ${cx} ${cy})`);
    g.setAttribute('opacity', (e.opacity ?? 100) / 100);
    if (e.type === 'rectangle') {
      const r = radius(e, Math.min(w, h)), x = e.x, y = e.y;
      g.appendChild(r ? rc.path(`M ${x + r} ${y} L ${x + w - r} ${y} Q ${x + w} ${y}, ${x + w} ${y + r} ` +
        `L ${x + w} ${y + h - r} ` +
        `Q ${x + w} ${y + h}, ${x + w - r} ${y + h} L ${x + r} ${y + h} Q ${x} ${y + h}, ${x} ${y + h - r} L ${x} ${y + r} ` +
        `Q ${x} ${y}, ${x + r} ${y}`, opts(e, true)) : rc.rectangle(x, y, w, h, opts(e, true)));
    } else if (e.type === 'ellipse') g.appendChild(rc.ellipse(cx, cy, w, h, Object.assign(opts(e, true), {curveFitting: 1})));
    else if (e.type === 'diamond') g.appendChild(rc.polygon([[cx, e.y], [e.x + w, cy], [cx, e.y + h], [e.x, cy]], opts(e, true)));
    else if (e.type === 'arrow' || e.type === 'line') {
      const pts = (e.points || []).map(([px, py]) => [e.x + px, e.y + py]);
      if (pts.length < 2) continue;
      const closed = e.type === 'line' && e.polygon;
      const o = opts(e, closed);
      if (closed) g.appendChild(rc.polygon(pts, o));
      else g.appendChild(e.roundness && !e.elbowed && pts.length > 2 ? rc.curve(pts, o) : rc.linearPath(pts, o));
      if (e.type === 'arrow') {
        if (e.endArrowhead) head(g, e, e.endArrowhead, pts[pts.length - 2], pts[pts.length - 1]);
        if (e.startArrowhead) head(g, e, e.startArrowhead, pts[1], pts[0]);
      }
    } else if (e.type === 'freedraw') {
      const pts = (e.points || []).map(([px, py]) => `${e.x + px},${e.y + py}`).join(' ');
      const p = document.createElementNS(NS, 'polyline');
      p.setAttribute('points', pts); p.setAttribute('fill', 'none'); p.setAttribute('stroke', e.strokeColor);
      p.setAttribute('stroke-width', e.strokeWidth * 1.5); p.setAttribute('stroke-linecap', 'round');
      p.setAttribute('stroke-linejoin', 'round'); g.appendChild(p);
    } else if (e.type === 'image') {
      const f = files[e.fileId];
      if (!f || !String(f.dataURL || '').startsWith('data:')) continue;  // only data the scene holds
      const im = document.createElementNS(NS, 'image');
      im.setAttribute('href', f.dataURL); im.setAttribute('x', e.x); im.setAttribute('y', e.y);
      im.setAttribute('width', w); im.setAttribute('height', h); im.setAttribute('preserveAspectRatio', 'none');
      g.appendChild(im);
    } else if (e.type === 'text') {
      const lines = String(e.text || '').split('\n'), size = e.fontSize || 20, lh = size * (e.lineHeight || 1.25);
      const al = e.textAlign || 'left', anchor = al === 'center' ? 'middle' : al === 'right' ? 'end' : 'start';
      const x = al === 'center' ? e.x + w / 2 : al === 'right' ? e.x + w : e.x;
      lines.forEach((l, k) => {
        const t = document.createElementNS(NS, 'text');
        t.setAttribute('x', x); t.setAttribute('y', e.y + k * lh + lh / 2); t.setAttribute('font-size', size);
        t.setAttribute('font-family', `'${FAM[e.fontFamily] || 'Excalifont'}'`); t.setAttribute('text-anchor', anchor);
        t.setAttribute('dominant-baseline', 'middle'); t.setAttribute('fill', e.strokeColor);
        t.setAttribute('xml:space', 'preserve'); t.textContent = l; g.appendChild(t);
      });
    } else continue;
    svg.appendChild(g);
  }
  document.getElementById('c').appendChild(svg);
  const bb = svg.getBBox(), bg = scene.background || '#ffffff';
  // the whole export on one page: a scene wider than the page is drawn smaller, as a reader's screen shows it
  const k = Math.min(1, 2300 / (bb.width + 20), 1500 / (bb.height + 20));
  svg.setAttribute('viewBox', `${bb.x - 10} ${bb.y - 10} ${bb.width + 20} ${bb.height + 20}`);
  svg.setAttribute('width', (bb.width + 20) * k); svg.setAttribute('height', (bb.height + 20) * k);
  svg.style.background = bg; svg.style.display = 'block';
  if (st.theme === 'dark') document.getElementById('c').style.filter = 'invert(93%) hue-rotate(180deg)';
  return [bb.x, bb.y, bb.width, bb.height];
}"""


def _classes(scene: dict) -> dict:
    """What a scene holds, for grouping a bench's rows: arrow kinds, bound/unbound ends, ellipses, labels on arrows."""
    els = [e for e in scene["elements"] if isinstance(e, dict) and not e.get("isDeleted")]
    arrows = [e for e in els if e.get("type") == "arrow"]
    bound = {e.get("containerId") for e in els if e.get("type") == "text"}
    return {"arrows": len(arrows),
            "curved": sum(1 for a in arrows if a.get("roundness") and len(a.get("points") or []) > 2 and not a.get("elbowed")),
            "elbow": sum(1 for a in arrows if a.get("elbowed")),
            "unbound_ends": sum((a.get("startBinding") is None) + (a.get("endBinding") is None) for a in arrows),
            "arrow_labels": sum(1 for a in arrows if a.get("id") in bound),
            "ellipses": sum(1 for e in els if e.get("type") == "ellipse"),
            "roughness": max((e.get("roughness", 1) for e in els), default=1)}


def _slug(s: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-")[:40]


def draw(figs: Path, n: int = 40, seed: int = 0) -> list[dict]:
    """Draw up to ``n`` real scenes under ``figs`` (each once light, then dark on a second pass; device scale 1 or
    2), each scene's JSON beside its PNG; their truth records."""
    rng = random.Random(seed)
    scenes = harvested("excalidraw-real", ".excalidraw scenes", harvest, RealSet(), ExcalidrawMakerError)
    jobs, records = [], []
    for i in range(min(n, 2 * len(scenes))):
        src = scenes[i % len(scenes)]
        sc = src["scene"]
        fams = {e.get("fontFamily") for e in sc["elements"] if isinstance(e, dict) and e.get("type") == "text"}
        used = sorted({FAMILIES.get(f, "Excalifont") for f in fams} | {"Excalifont"})
        theme = "light" if i < len(scenes) else "dark"
        style = {"font": used[0], "fonts": used, "font_size": 20, "scale": rng.choice((1, 2)), "theme": theme}
        job = {"style": style, "elements": sc["elements"], "files": sc.get("files") or {},
               "families": {str(k): v for k, v in FAMILIES.items()},
               "background": (sc.get("appState") or {}).get("viewBackgroundColor") or "#ffffff"}
        fid = f"exr_{i:03d}_{_slug(src['repo'].split('/')[1])}_{_slug(Path(src['path']).name.split('.')[0])}_{theme}"
        (figs / f"{fid}.json").write_text(json.dumps(sc), encoding="utf-8")
        jobs.append((job, seed * 1000 + i + 1, figs / f"{fid}.png"))
        t = src["truth"]
        records.append({"id": fid, "file": f"figs/{fid}.png", "kind": "diagram", "maker": "excalidraw-real",
                        "style": f"excalidraw (real scene), {theme}, scale {style['scale']}", "repo": src["repo"],
                        "path": src["path"], "commit": src["commit"], "licence": src["licence"], "theme": theme,
                        "scale": style["scale"], "images": embedded_images(sc), **_classes(sc), "phenomena": ["hand-drawn"],
                        "text": t["text"], "nodes": t["nodes"], "edges": t["edges"]})
    render(jobs, DRAW_JS)
    return records
