"""Real draw.io diagrams from public repositories, drawn by draw.io's own viewer in a headless Chromium.

Sources: every ``.drawio`` / ``.dio`` / ``.drawio.xml`` file, every ``.xml`` file that is a draw.io document, and
the diagram draw.io embeds in a ``*.drawio.svg`` (the root's ``content`` attribute) or ``*.drawio.png`` export (its
``mxfile`` text chunk, URL-encoded), found anywhere in the history of the repository snapshots under
:func:`craftbench.makers.mirrors.mirror_root` (the newest version of each path), in repositories whose snapshot holds
a licence file we can name (:func:`craftbench.makers.excalidraw_real.licence_of`). A page stored compressed is
inflated (base64, raw deflate, URL-encoding: :func:`pages`). Every page of a file is its own figure. A source a
real-set figure may have come from is left out (``mermaid_versions.RealSet``: a real-set figure of its repository
in its directory or of its name, or any real-set figure sharing most node labels; only the count is told); a page
is drawn once however many paths hold it; a file that does not parse (or holds a coordinate that is no number)
is skipped and counted.

The renderer is draw.io's viewer (``viewer.min.js`` of draw.io 16.6.4, Apache-2.0, as the npm package
``docusaurus-plugin-drawio`` 0.4.0 ships it: ``npm install`` at the repository root): each page is decoded into the
viewer's ``Graph`` exactly as the viewer does and drawn at device scale 1 or 2 on the page's background (white
where it sets none). Nothing is fetched: shapes from draw.io's stencil libraries that the viewer loads at run time
(``mxgraph.aws4.*``, ``mxgraph.gcp2.*``…) draw as their fallback (a plain box or nothing), and LaTeX labels as
their source text; ``stencils`` counts such cells.

Truth from the page's XML (:func:`truth`), of the cells drawn (none hidden, none inside a collapsed container):
``text`` the words of every labelled cell (HTML stripped: tags,
entities, ``<br>`` as a space); ``nodes`` every vertex with words, except edge labels (a vertex whose parent is an
edge: text only) and free text (``text;`` style) no edge reaches; ``edges`` every edge whose two ends reach
labelled vertices, ``[source, target]`` (``[target, source]`` when its only arrowhead is at the start), listed
once. An end reaches a vertex by its ``source`` / ``target`` attribute; a dangling end (a point, no attribute)
reaches the smallest vertex, free text not counted, whose box, grown by :data:`TOUCH` px, holds the point (a
caption set beside an arrow, 'or' between two arrows of a UML legend, is no end), a vertex holding other vertices
(a container) only where the point lies within :data:`TOUCH` of its outline. An edge's own label is text only.

    craftbench makers drawio-real -o /tmp/makers/dio -n 60
"""

from __future__ import annotations

import html
import random
import re
import sys
from pathlib import Path
from urllib.parse import unquote
from xml.etree.ElementTree import Element, tostring

from defusedxml import ElementTree as SafeET
from defusedxml.common import DefusedXmlException

from craftbench.makers.browser import scaled_pages
from craftbench.makers.excalidraw_real import licence_of, png_text
from craftbench.makers.mermaid_versions import RealSet
from craftbench.makers.mirrors import git, git_bytes, harvested, mirror_root
from crafter.errors import CrafterError, InputError
from crafter.formats.drawio.reader import inflate_diagram
from crafter.formats.drawio.style import parse_style

ROOT = Path(__file__).resolve().parents[2]
VIEWER = "node_modules/docusaurus-plugin-drawio/viewer.min.js"
TOUCH = 10.0  # px: how far outside a vertex's box a dangling edge end may stop and still reach it
MIN_NODES, MAX_NODES, MIN_EDGES = 2, 80, 1
SOURCE_PATH = re.compile(r"\.(drawio|dio)(\.xml|\.svg|\.png)?$|\.xml$", re.I)
PATTERNS = ("*.drawio", "*.dio", "*.drawio.xml", "*.dio.xml", "*.drawio.svg", "*.drawio.png", "*.dio.svg",
            "*.dio.png", "*.xml")


class DrawioMakerError(CrafterError):
    """draw.io's viewer, Chromium or Playwright missing, or no usable diagram in the mirrors."""


def viewer_js(root: Path = ROOT) -> Path:
    """draw.io's ``viewer.min.js`` under ``node_modules`` (``npm install`` puts it there)."""
    path = root / VIEWER
    if not path.is_file():
        raise DrawioMakerError(f"{path}: not found (run `npm install` at the repository root)")
    return path


def _xml(text: str | bytes) -> Element | None:
    try:
        return SafeET.fromstring(text)
    except (SafeET.ParseError, DefusedXmlException, ValueError):
        return None


def _inflate(text: str) -> Element | None:
    """A compressed page (base64 of raw deflate of the URL-encoded model) as its ``mxGraphModel``; None where it
    does not decompress or would inflate beyond ``MAX_INFLATED_BYTES`` (a bomb in a mirrored file)."""
    try:
        return _xml(inflate_diagram(text))
    except InputError:
        return None


def pages(data: bytes, path: str) -> list[tuple[str, Element]] | None:
    """The pages (name, ``mxGraphModel``) of a draw.io file, its SVG or PNG export (by ``path``'s suffix);
    None where it is no draw.io document or does not parse."""
    low = path.lower()
    if low.endswith(".png"):
        value = png_text(data, b"mxfile")
        doc = _xml(unquote(value.decode("latin-1"))) if value is not None else None
    elif low.endswith(".svg"):
        svg = _xml(data)
        content = svg.get("content") if svg is not None else None
        doc = _xml(content) if content else None
    else:
        doc = _xml(data)
    if doc is None:
        return None
    if doc.tag == "mxGraphModel":
        return [("Page-1", doc)]
    if doc.tag != "mxfile":
        return None
    out = []
    for k, d in enumerate(doc.findall("diagram")):
        model = d.find("mxGraphModel")
        if model is None and (d.text or "").strip():
            model = _inflate(d.text)
        if model is None:
            return None
        out.append((d.get("name") or f"Page-{k + 1}", model))
    return out


def _words(value: str) -> str:
    """A label's words: HTML tags dropped (a line break a space), entities read, spaces collapsed."""
    s = re.sub(r"(?i)<br\s*/?>|</(div|p|li|tr|h\d)>", " ", value or "")
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]*>", " ", s))).strip()


def _style(s: str | None) -> dict[str, str]:
    """A cell's style string as a dict (:func:`~crafter.formats.drawio.style.parse_style`; its leading bare name,
    ``text`` or ``ellipse``, as ``{name: ""}``)."""
    return {k: "" if v is None else v for k, v in parse_style(s).items()}


def cells(model: Element) -> list[dict]:
    """A page's cells in drawing order: id, parent, vertex/edge, style, words, geometry and points; an
    ``object``/``UserObject`` wrapper's label (its placeholders filled from its attributes) and id lifted onto
    its ``mxCell``."""
    root = model.find("root")
    out = []
    for el in (root if root is not None else []):
        cell = el if el.tag == "mxCell" else el.find("mxCell")
        if cell is None:
            continue
        label = el.get("label") if el.tag != "mxCell" else cell.get("value")
        if el.get("placeholders") == "1":  # %name% in the label reads the wrapper's attribute of that name
            label = re.sub(r"%(\w+)%", lambda m: el.get(m.group(1), m.group(0)), label or "")
        geo = cell.find("mxGeometry")
        g = {k: float(geo.get(k) or 0) for k in ("x", "y", "width", "height")} if geo is not None else {}
        pts = {}
        if geo is not None:
            for p in geo.findall("mxPoint"):
                if p.get("as") in ("sourcePoint", "targetPoint"):
                    pts[p.get("as")] = (float(p.get("x") or 0), float(p.get("y") or 0))
            arr = geo.find("Array")
            pts["waypoints"] = len(arr.findall("mxPoint")) if arr is not None else 0
        out.append({"id": el.get("id"), "parent": cell.get("parent"), "vertex": cell.get("vertex") == "1",
                    "shown": cell.get("visible") != "0", "collapsed": cell.get("collapsed") == "1",
                    "edge": cell.get("edge") == "1", "source": cell.get("source"), "target": cell.get("target"),
                    "style": _style(cell.get("style")), "words": _words(label or ""), "geo": g, "points": pts,
                    "relative": geo is not None and geo.get("relative") == "1"})
    return out


def drawn(cs: list[dict]) -> list[dict]:
    """The cells the viewer draws: none hidden (``visible="0"``, a hidden layer) nor inside a collapsed one."""
    by_id = {c["id"]: c for c in cs}

    def shown(c: dict, depth: int = 0) -> bool:
        p = by_id.get(c["parent"])
        return c["shown"] and (p is None or depth > 50 or (not p["collapsed"] and shown(p, depth + 1)))

    return [c for c in cs if shown(c)]


def _boxes(cs: list[dict]) -> dict[str, tuple[float, float, float, float]]:
    """Every vertex's box on the page (x0, y0, x1, y1): its geometry offset by its vertex ancestors'."""
    by_id = {c["id"]: c for c in cs}
    out: dict[str, tuple] = {}

    def origin(cid: str | None, depth: int = 0) -> tuple[float, float]:
        c = by_id.get(cid)
        if c is None or not c["vertex"] or depth > 50:
            return 0.0, 0.0
        ox, oy = origin(c["parent"], depth + 1)
        return ox + c["geo"].get("x", 0), oy + c["geo"].get("y", 0)

    for c in cs:
        if c["vertex"] and not c["relative"]:
            x, y = origin(c["id"])
            out[c["id"]] = (x, y, x + c["geo"].get("width", 0), y + c["geo"].get("height", 0))
    return out


def _inside(p: tuple[float, float], b: tuple, grow: float) -> bool:
    return b[0] - grow <= p[0] <= b[2] + grow and b[1] - grow <= p[1] <= b[3] + grow


def truth(model: Element) -> dict:
    """Text, nodes and edges of one page, as the module docstring says."""
    cs = [c for c in drawn(cells(model)) if c["id"] is not None]
    by_id = {c["id"]: c for c in cs}
    boxes = _boxes(cs)
    edge_label = {c["id"] for c in cs if c["vertex"] and by_id.get(c["parent"], {}).get("edge")}
    named = {c["id"]: c["words"] for c in cs if c["vertex"] and c["words"] and c["id"] not in edge_label}
    container = {c["id"] for c in cs if any(d["parent"] == c["id"] and d["vertex"] for d in cs)}

    def end(e: dict, which: str) -> str | None:
        if e[which] in by_id:
            return e[which]
        p = e["points"].get(f"{which}Point")
        if p is None:
            return None
        ox, oy = boxes.get(e["parent"], (0, 0))[:2]
        p = (p[0] + ox, p[1] + oy)
        hosts = [v for v, b in boxes.items() if v in named and "text" not in by_id[v]["style"]
                 and _inside(p, b, TOUCH) and not (v in container and _inside(p, b, -TOUCH))]
        return min(hosts, key=lambda v: (boxes[v][2] - boxes[v][0]) * (boxes[v][3] - boxes[v][1])) if hosts else None

    edges, reached = [], set()
    for e in (c for c in cs if c["edge"]):
        s, t = end(e, "source"), end(e, "target")
        if s in named and t in named:
            st = e["style"]
            if st.get("startArrow", "none") != "none" and st.get("endArrow", "classic") == "none":
                s, t = t, s
            edges.append((s, t))
            reached |= {s, t}
    nodes = [v for v in named if "text" not in by_id[v]["style"] or v in reached]
    return {"text": " ".join(c["words"] for c in cs if c["words"]), "nodes": [named[v] for v in nodes],
            "edges": [[named[s], named[t]] for s, t in edges if s in nodes and t in nodes]}


def classes(model: Element) -> dict:
    """What a page holds, for grouping a bench's rows: its edges' kinds and ends, its vertices' looks."""
    cs = drawn(cells(model))
    es, vs = [c for c in cs if c["edge"]], [c for c in cs if c["vertex"]]
    by_id = {c["id"]: c for c in cs}
    parents = {c["parent"] for c in vs}
    return {"arrows": len(es),
            "orthogonal": sum(1 for e in es if "rthogonal" in e["style"].get("edgeStyle", "")
                              or "elbow" in e["style"].get("edgeStyle", "")),
            "curved": sum(1 for e in es if e["style"].get("curved") == "1"),
            "waypoints": sum(1 for e in es if e["points"].get("waypoints")),
            "dangling_ends": sum((e["source"] not in by_id) + (e["target"] not in by_id) for e in es),
            "container_ends": sum((e["source"] in parents) + (e["target"] in parents) for e in es),
            "edge_labels": sum(1 for e in es if e["words"]) + sum(1 for v in vs if by_id.get(v["parent"], {}).get("edge")),
            "jumps": sum(1 for e in es if e["style"].get("jumpStyle", "none") != "none"),
            "dashed": sum(1 for e in es if e["style"].get("dashed") == "1"),
            "stencils": sum(1 for v in vs if v["style"].get("shape", "").startswith("mxgraph.")
                            or "image" in v["style"]),
            "rounded": sum(1 for v in vs if v["style"].get("rounded") == "1"),
            "shadows": sum(1 for v in vs if v["style"].get("shadow") == "1"),
            "gradients": sum(1 for v in vs if v["style"].get("gradientColor", "none") not in ("none", "")),
            "captions_outside": sum(1 for v in vs if v["words"] and (v["style"].get("verticalLabelPosition") in
                                    ("bottom", "top") or v["style"].get("labelPosition") in ("left", "right"))),
            "ellipses": sum(1 for v in vs if "ellipse" in v["style"])}


def harvest(mirror: Path | None = None, real: RealSet | None = None) -> tuple[list[dict], int, int]:
    """Every usable page in the mirrored repositories (sorted by repository, path and page; each page once), the
    number of files left out for want of a licence file we can name, and the number of files that do not parse."""
    mirror = mirror or mirror_root()
    out, seen, unlicensed, malformed = [], set(), 0, 0
    for gdir in sorted(mirror.glob("*+*/repo")):
        repo = gdir.parent.name.replace("+", "/", 1)
        newest: dict[str, str] = {}  # path -> the newest commit that added or changed it (one pass: log is newest first)
        commit = ""
        for line in git(gdir, "log", "--all", "--diff-filter=AM", "--format=%H", "--name-only", "--", *PATTERNS,
                        check=False).split("\n"):
            if re.fullmatch(r"[0-9a-f]{40}", line):
                commit = line
            elif line and SOURCE_PATH.search(line):
                newest.setdefault(line, commit)
        paths = sorted(newest)
        if not paths:
            continue
        lic_files = [p for p in git(gdir, "ls-tree", "--name-only", "HEAD", check=False).split("\n")
                     if re.match(r"(?i)(licen[cs]e|copying)", p)]
        licence = next((x for x in (licence_of(git_bytes(gdir, "show", f"HEAD:{f}", check=False)
                                               .decode("utf-8", "replace")) for f in lic_files) if x), None)
        for path in paths:
            commit = newest[path]
            data = git_bytes(gdir, "show", f"{commit}:{path}", check=False)
            if path.lower().endswith(".xml") and b"<mxfile" not in data[:2000] and b"<mxGraphModel" not in data[:2000]:
                continue  # an XML file that is no draw.io document
            if licence is None:
                unlicensed += 1
                continue
            if real is not None and (real.beside(repo, path) or real.named(repo, path)):
                continue
            found = pages(data, path)
            if found is None:
                malformed += 1
                continue
            try:
                read = [(k, name, model, truth(model), classes(model)) for k, (name, model) in enumerate(found)]
            except ValueError:  # a coordinate that is no number ('12px'): the file is malformed, the rest go on
                malformed += 1
                continue
            for k, name, model, t, cl in read:
                key = tostring(model)
                if not (MIN_NODES <= len(t["nodes"]) <= MAX_NODES and len(t["edges"]) >= MIN_EDGES) or key in seen:
                    continue
                if real is not None and real.like(repo, t["nodes"], anywhere=True):
                    continue
                seen.add(key)
                out.append({"repo": repo, "path": path, "commit": commit, "licence": licence, "page": k,
                            "page_name": name, "model": key.decode("utf-8"), "truth": t, "classes": cl})
    return out, unlicensed, malformed


PAGE = ("<!doctype html><html><head><meta charset='utf-8'><style>html,body{margin:0;padding:0}</style></head>"
        "<body><div id='c' style='display:inline-block'></div></body></html>")

# The viewer's own drawing: the model decoded into its Graph (draw.io's styles, shapes, jumps, labels), the view
# moved so the drawing starts PAD px in, shrunk to fit 2300x1500 as a reader's screen shows a wide page
DRAW_JS = r"""([xml, bg]) => {
  const PAD = 10, div = document.getElementById('c');
  div.style.background = bg;
  const graph = new Graph(div);
  graph.setEnabled(false);
  const doc = mxUtils.parseXml(xml);
  new mxCodec(doc).decode(doc.documentElement, graph.getModel());
  let b = graph.getGraphBounds();
  const k = Math.min(1, 2300 / (b.width + 2 * PAD), 1500 / (b.height + 2 * PAD));
  graph.view.scaleAndTranslate(k, PAD / k - b.x / graph.view.scale, PAD / k - b.y / graph.view.scale);
  b = graph.getGraphBounds();
  div.style.width = Math.ceil(b.x + b.width + PAD) + 'px';
  div.style.height = Math.ceil(b.y + b.height + PAD) + 'px';
  return [b.x, b.y, b.width, b.height];
}"""


def render(jobs: list[tuple[str, str, int, Path]]) -> dict[Path, str]:
    """Draw each (model XML, background, device scale, PNG path) with draw.io's viewer in one headless Chromium;
    the pages the viewer could not draw (PNG path -> why; none written), the others drawn all the same."""
    from playwright.sync_api import Error as PlaywrightError  # heavy: a browser driver, needed only to draw

    js = viewer_js().read_text(encoding="utf-8")
    failed: dict[Path, str] = {}
    with scaled_pages(DrawioMakerError, "draw.io") as pages_at:
        for xml, bg, scale, png in jobs:
            page = pages_at(scale)
            try:
                page.set_content(PAGE)
                # no resource bundles or style sheets fetched: the viewer's defaults are built in
                page.add_script_tag(content="window.mxLoadResources = false; window.mxLoadStylesheets = false;")
                page.add_script_tag(content=js)
                page.evaluate(DRAW_JS, [xml, bg])
                page.locator("#c").screenshot(path=str(png))
            except PlaywrightError as e:  # a page the viewer chokes on: skipped, the batch goes on
                failed[png] = str(e).splitlines()[0] if str(e) else type(e).__name__
                png.unlink(missing_ok=True)
    return failed


def _slug(s: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-")[:32]


def draw(figs: Path, n: int = 60, seed: int = 0) -> list[dict]:
    """Draw up to ``n`` real draw.io pages under ``figs`` (a random draw of ``seed`` where there are more; device
    scale 1 or 2), each page's XML beside its PNG; their truth records."""
    rng = random.Random(seed)
    found = harvested("drawio-real", "draw.io pages", harvest, RealSet(), DrawioMakerError)
    chosen = sorted(rng.sample(range(len(found)), min(n, len(found))))
    jobs, records = [], []
    for i, j in enumerate(chosen):
        src = found[j]
        model = _xml(src["model"])
        bg = model.get("background") if model is not None else None
        bg = bg if bg and re.fullmatch(r"#[0-9a-fA-F]{3,8}", bg) else "#ffffff"
        scale = rng.choice((1, 2))
        fid = (f"dio_{i:03d}_{_slug(src['repo'].split('/')[1])}_{_slug(Path(src['path']).name.split('.')[0])}"
               f"_p{src['page']}")
        (figs / f"{fid}.xml").write_text(src["model"], encoding="utf-8")
        jobs.append((src["model"], bg, scale, figs / f"{fid}.png"))
        t = src["truth"]
        records.append({"id": fid, "file": f"figs/{fid}.png", "kind": "diagram", "maker": "drawio-real",
                        "style": f"draw.io (real file), viewer 16.6.4, scale {scale}", "repo": src["repo"],
                        "path": src["path"], "commit": src["commit"], "licence": src["licence"],
                        "page": src["page"], "page_name": src["page_name"], "scale": scale, **src["classes"],
                        "text": t["text"], "nodes": t["nodes"], "edges": t["edges"]})
    failed = render(jobs)
    for png, why in failed.items():
        print(f"drawio-real: {png.name} not drawn: {why}", file=sys.stderr)
        png.with_suffix(".xml").unlink(missing_ok=True)
    return [r for r in records if figs / Path(r["file"]).name not in failed]
