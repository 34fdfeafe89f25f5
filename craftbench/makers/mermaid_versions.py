"""Real Mermaid flowcharts and state diagrams, taken from public repositories, drawn by Mermaid 8, 9, 10 and 11.

The other Mermaid makers draw sources we wrote, in one Mermaid (11). A PNG committed to a repository was
exported over six years by mermaid-cli, the live editor or GitHub, from Mermaid 8.x, 9.x and 10.x: other
arrowheads, edge-label plates, fonts (trebuchet 16 px), node padding, ``graph`` drawn by dagre-d3, v1
``stateDiagram``, often at 1×. Here every source is a **real** ``mermaid`` block (a Markdown fence, or a ``.mmd``
file) from a repository snapshot under :func:`craftbench.makers.mirrors.mirror_root` (the ``fetch`` tool brings
them), never one a real-set figure may have been drawn from (:class:`RealSet`: a picture of its name beside it,
a real-set figure of its repository with its name, every extension stripped, or sharing most of its node
labels, any split; only the count left out is told), each
figure drawn by one of the npm aliases ``mermaid8`` (8.14.0), ``mermaid9`` (9.4.3), ``mermaid10`` (10.9.3) or
``mermaid`` (11), in turn, at device scale 1 or 2; a version that refuses a source
(newer syntax) hands it to the next one. Each record keeps its repository, path and licence.

The truth is the source as Mermaid 11's own parser reads it (``getDiagramFromText``, the diagram's ``db``),
in the conventions of ``craftbench.makers.mermaid_readme``: a node is its box's whole text (``<br>`` a space,
markdown marks and tags dropped), an edge the pair of its ends' labels, source first; an invisible link, or
one touching a subgraph, a start/end dot, a fork/join or a choice is left out; a composite state is a node
(its title), a note is a node. A source whose labels repeat (an ambiguous truth), that draws icons or
pictures, or that has fewer than three nodes or two edges is skipped.

    craftbench makers mermaid-versions -o /tmp/makers/mmv -n 48 --seed 1
"""

from __future__ import annotations

import hashlib
import html
import json
import random
import re
import subprocess
import sys
from pathlib import Path

from craftbench.makers.browser import scaled_pages
from craftbench.makers.mermaid import BACKGROUND, PAGE, MermaidMakerError, MermaidMissingError, _clean
from craftbench.makers.mirrors import mirror_root

# repository (owner/name) -> its licence; only repositories whose licence allows redistribution of a drawing
REPOS = {"mermaid-js/mermaid": "MIT", "kubernetes/enhancements": "Apache-2.0", "kubernetes/community": "Apache-2.0",
         "kubernetes-sigs/cluster-api": "Apache-2.0", "daithi-walker/daedalus": "MIT",
         "ctfer-io/ctfd-chall-manager": "Apache-2.0", "lyft/flinkk8soperator": "Apache-2.0",
         "neozenith/clem": "MIT", "nf-core/rnaseq": "MIT", "tensorflow/community": "Apache-2.0"}
# npm package -> the Mermaid version it holds (package.json's aliases)
VERSIONS = {"mermaid8": "8.14.0", "mermaid9": "9.4.3", "mermaid10": "10.9.3", "mermaid": "11"}
SHORT = {"mermaid8": "m8", "mermaid9": "m9", "mermaid10": "m10", "mermaid": "m11"}
THEMES = ("default", "default", "neutral", "forest", "dark")
FENCE = re.compile(r"^\s*(```|~~~)\s*mermaid(?:-example)?\s*$")
HEADS = {"graph": "flowchart", "flowchart": "flowchart", "stateDiagram": "state", "stateDiagram-v2": "state"}
SKIP = re.compile(r"fa:fa-|<img|\bclick\b|\bhref\b|@\{|:::?\s*$")
MIN_NODES, MAX_NODES, MIN_EDGES = 3, 30, 2
MANIFEST = Path(__file__).resolve().parents[2] / "realset" / "manifest.json"


def mermaid_js(package: str, root: Path | None = None) -> Path:
    """``node_modules/<package>/dist/mermaid.min.js`` (``npm install`` puts the aliases there)."""
    root = root or Path(__file__).resolve().parents[2]
    path = root / "node_modules" / package / "dist" / "mermaid.min.js"
    if not path.is_file():
        raise MermaidMissingError(f"{path}: not found (run `npm install` at the repository root)")
    return path


def blocks(text: str, markdown: bool) -> list[str]:
    """The Mermaid sources in a Markdown file's ``mermaid`` fences, or a ``.mmd`` file's whole text."""
    if not markdown:
        return [text]
    out, lines, i = [], text.split("\n"), 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if m:
            j = i + 1
            while j < len(lines) and not lines[j].strip().startswith(m.group(1)):
                j += 1
            out.append("\n".join(lines[i + 1:j]))
            i = j
        i += 1
    return out


def kind_of(src: str) -> str | None:
    """``flowchart`` or ``state`` from a source's first statement (directives and comments skipped), else None."""
    for line in src.split("\n"):
        s = line.strip()
        if s and not s.startswith("%%") and s != "---":
            return HEADS.get(s.split()[0])
    return None


def _name(path: str) -> str:
    """A file's name, every extension stripped: ``docs/Flow-chart.mmd.svg`` -> ``flow_chart``."""
    return Path(path).name.split(".")[0].lower().replace("-", "_")


def _words(labels: list[str]) -> frozenset[str]:
    return frozenset(w for w in (" ".join(re.findall(r"\w+", label(x).casefold())) for x in labels) if w)


class RealSet:
    """The real-figure set's figure names and node labels by repository (any split), held only to leave out a
    source one of them may have been drawn from. Its checks answer yes or no and count the yeses
    (:attr:`left_out`); nothing of a figure is shown."""

    def __init__(self, manifest: Path = MANIFEST) -> None:
        figures = json.loads(manifest.read_text(encoding="utf-8")).get("figures", []) if manifest.is_file() else []
        self._names: dict[str, set[str]] = {}
        self._labels: dict[str, list[frozenset[str]]] = {}
        self._dirs: dict[str, set[str]] = {}
        for f in figures:
            if f.get("repo"):
                self._names.setdefault(f["repo"], set()).add(_name(f.get("path") or ""))
                self._dirs.setdefault(f["repo"], set()).add(str(Path(f.get("path") or "").parent))
                self._labels.setdefault(f["repo"], []).append(_words(f.get("nodes") or []))
        self.left_out = 0

    def __repr__(self) -> str:
        return f"RealSet({len(self._names)} repositories)"

    def _told(self, hit: bool) -> bool:
        self.left_out += hit
        return hit

    def named(self, repo: str, path: str) -> bool:
        """Whether a real-set figure of ``repo`` has the name of ``path`` (every extension stripped)."""
        return self._told(_name(path) in self._names.get(repo, ()))

    def beside(self, repo: str, path: str) -> bool:
        """Whether a real-set figure of ``repo`` lies in the directory of ``path``."""
        return self._told(str(Path(path).parent) in self._dirs.get(repo, ()))

    def like(self, repo: str, nodes: list[str], anywhere: bool = False) -> bool:
        """Whether a real-set figure of ``repo`` (``anywhere``: of any repository, as a fork's copy of a scene
        may be) shares most node labels with ``nodes`` (two at least, more than half of the smaller of the two)."""
        mine = _words(nodes)
        pool = [x for ls in self._labels.values() for x in ls] if anywhere else self._labels.get(repo, ())
        return self._told(any(len(mine & theirs) >= 2 and len(mine & theirs) * 2 > min(len(mine), len(theirs))
                              for theirs in pool))


def harvest(mirror: Path, real: RealSet | None = None) -> list[dict]:
    """Every flowchart and state diagram in the mirrored repositories of :data:`REPOS`, once each (sorted), those
    a real-set figure may have been drawn from left out (a picture of the same name beside it, or ``real``)."""
    seen, out = set(), []
    for repo, licence in sorted(REPOS.items()):
        git = mirror / repo.replace("/", "+") / "repo"
        if not git.is_dir():
            continue
        run = lambda *a: subprocess.run(["git", "--git-dir", str(git), *a], capture_output=True,  # noqa: E731
                                        text=True, errors="replace").stdout
        paths = run("ls-tree", "-r", "--name-only", "HEAD").split("\n")
        exported = {(str(Path(p).parent), _name(p)) for p in paths if re.search(r"\.(png|jpe?g|svg|gif)$", p, re.I)}
        for path in paths:
            if not re.search(r"\.(md|mmd|mermaid)$", path) or (str(Path(path).parent), _name(path)) in exported \
                    or (real is not None and real.named(repo, path)):
                continue  # a source exported beside itself, or named as a real-set figure: never drawn here
            for src in blocks(run("show", f"HEAD:{path}"), path.endswith(".md")):
                key = re.sub(r"\s+", " ", src).strip()
                if kind_of(src) and key not in seen and not SKIP.search(src):
                    seen.add(key)
                    out.append({"repo": repo, "path": path, "licence": licence, "kind": kind_of(src), "source": src})
    return out


def label(text: str) -> str:
    """A box's text as drawn: ``<br>`` a space, tags, markdown marks and quotes dropped, entities read."""
    t = re.sub(r"<br\s*/?>", " ", text or "", flags=re.I)
    t = re.sub(r"<[^>]+>", "", t)
    t = re.sub(r"#(\d+);", lambda m: chr(int(m.group(1))), t)
    t = re.sub(r"#(\w+);", r"&\1;", t)
    t = html.unescape(t).replace("`", "").replace("**", "")
    t = re.sub(r"(?<!\w)_(\S.*?)_(?!\w)", r"\1", t)
    return re.sub(r"\s+", " ", t).strip().strip('"').strip()


def flow_truth(db: dict) -> dict | None:
    """Nodes, edges and words of a flowchart from Mermaid's parse (vertices, edges, subgraphs), or None."""
    subs = {s["id"]: label(s["title"]) for s in db["s"]}
    names = {v["id"]: label(v["text"] or v["id"]) for v in db["v"] if v["id"] not in subs}
    edges, words = [], []
    for e in db["e"]:
        if e["stroke"] == "invisible":
            continue
        if e.get("text"):
            words.append(label(e["text"]))
        if e["start"] in names and e["end"] in names:
            edges.append([names[e["start"]], names[e["end"]]])
    return _checked(list(names.values()), edges, words + list(subs.values()))


def _walk(doc: list[dict], states: dict, rels: list, notes: list) -> None:
    for st in doc:
        if not isinstance(st, dict):
            continue  # a bare statement (a direction, a style line)
        if st.get("stmt") == "relation":
            rels.append((st["state1"]["id"], st["state2"]["id"], st.get("description") or ""))
            for end in (st["state1"], st["state2"]):
                states.setdefault(end["id"], {"type": "start" if "start" in end else end.get("type"), "desc": []})
        elif st.get("stmt") == "state":
            s = states.setdefault(st["id"], {"type": st.get("type"), "desc": []})
            if st.get("type") not in (None, "default"):
                s["type"] = st["type"]
            d = st.get("description")
            s["desc"] += [x for x in (d if isinstance(d, list) else [d]) if x]
            if st.get("note"):
                notes.append(label(st["note"].get("text", "")))
            if st.get("doc"):
                _walk(st["doc"], states, rels, notes)


def state_truth(root: dict) -> dict | None:
    """Nodes, edges and words of a state diagram from Mermaid's parse (its root document), or None."""
    states, rels, notes = {}, [], []
    _walk(root.get("doc", []), states, rels, notes)
    if any(len(s["desc"]) > 1 for s in states.values()):
        return None  # a title over described rows: the box's text has no one reading
    names = {i: label(s["desc"][0] if s["desc"] else i) for i, s in states.items()
             if s["type"] in (None, "default") and not i.startswith("divider")}
    edges = [[names[a], names[b]] for a, b, _ in rels if a in names and b in names]
    words = [label(t) for _, _, t in rels if t]
    return _checked(list(names.values()) + notes, edges, words)


def _checked(nodes: list[str], edges: list[list[str]], words: list[str]) -> dict | None:
    if not MIN_NODES <= len(nodes) <= MAX_NODES or len(edges) < MIN_EDGES or len(set(nodes)) < len(nodes) \
            or not all(nodes):
        return None
    return {"nodes": nodes, "edges": edges, "text": nodes + [w for w in words if w]}


PARSE_JS = """async (src) => {
  mermaid.initialize({startOnLoad: false});
  const d = await mermaid.mermaidAPI.getDiagramFromText(src);
  const db = d.db;
  if (db.getVertices) {
    const v = db.getVertices();
    return {v: (v instanceof Map ? [...v.values()] : Object.values(v)).map(x => ({id: x.id, text: x.text})),
            e: db.getEdges().map(e => ({start: e.start, end: e.end, text: e.text, stroke: e.stroke})),
            s: db.getSubGraphs().map(s => ({id: s.id, title: s.title}))};
  }
  return JSON.parse(JSON.stringify(db.getRootDocV2()));
}"""

# Mermaid 8/9 render synchronously to a callback (or return the SVG), 10/11 resolve to {svg}
RENDER_JS = """async ([src, theme, old]) => {
  mermaid.initialize({startOnLoad: false, theme: theme, securityLevel: 'strict'});
  const el = document.getElementById('c');
  el.innerHTML = '';
  let got = null;
  const id = 'm' + Math.floor(Math.random() * 1e9);
  const r = old ? await mermaid.render(id, src, (s) => { got = s; }) : await mermaid.render(id, src);
  el.innerHTML = typeof r === 'string' ? r : (r && r.svg) || got;
  const s = el.querySelector('svg');
  const w = s.viewBox.baseVal.width, h = s.viewBox.baseVal.height;
  if (w > 0) { s.style.maxWidth = 'none'; s.setAttribute('width', w); s.setAttribute('height', h); }
}"""


def _page(pages, scale: int, package: str, theme: str):
    page = pages(scale)
    page.set_content(PAGE.format(bg=BACKGROUND[theme], pad=16))
    page.add_script_tag(path=str(mermaid_js(package)))
    return page


def _truth(pages, item: dict) -> dict | None:
    try:
        db = _page(pages, 1, "mermaid", "default").evaluate(PARSE_JS, item["source"])
    except Exception:  # noqa: BLE001 - Mermaid 11 refuses the source (an old or broken one): not drawn
        return None
    return flow_truth(db) if item["kind"] == "flowchart" else state_truth(db)


def _draw_one(pages, src: str, packages: list[str], theme: str, scale: int, png: Path) -> str | None:
    """Draw ``src`` in the first of ``packages`` that takes it; the package, or None when all refuse."""
    for package in packages:
        page = _page(pages, scale, package, theme)
        try:
            page.evaluate(RENDER_JS, [src, theme, package in ("mermaid8", "mermaid9")])
        except Exception:  # noqa: BLE001 - this version refuses the source's syntax: the next one tries
            continue
        if page.locator("#c svg").count() != 1 or page.locator("#c").bounding_box()["width"] < 40:
            continue
        page.locator("#c").screenshot(path=str(png))
        return package
    return None


def draw(figs: Path, n: int = 48, seed: int = 0) -> list[dict]:
    """Draw ``n`` real sources (versions in turn) to ``figs`` (PNG and ``.mmd``); their truth records."""
    mirror, real = mirror_root(), RealSet()
    pool = harvest(mirror, real)
    if not pool:
        raise MermaidMakerError(f"{mirror}: no mirrored repository of {', '.join(REPOS)} holds a Mermaid source")
    random.Random(seed).shuffle(pool)
    order = list(VERSIONS)
    records = []
    with scaled_pages(MermaidMissingError, "Mermaid") as pages:
        for item in pool:
            if len(records) >= n:
                break
            truth = _truth(pages, item)
            if truth is None or real.like(item["repo"], truth["nodes"]):
                continue
            k = len(records)
            package = order[k % len(order)]
            theme, scale = THEMES[(k // len(order)) % len(THEMES)], (1, 2)[(k // 2) % 2]
            tag = hashlib.sha1(item["source"].encode()).hexdigest()[:6]
            drawn = figs / f"mv_{k:03d}.png"
            got = _draw_one(pages, item["source"], order[order.index(package):] + order[:order.index(package)],
                            theme, scale, drawn)
            if got is None:
                continue
            fid = f"mv_{k:03d}_{item['kind']}_{SHORT[got]}_{scale}x_{tag}"  # named by the version that drew it
            png = drawn.rename(figs / f"{fid}.png")
            (figs / f"{fid}.mmd").write_text(item["source"] + "\n", encoding="utf-8")
            version = VERSIONS[got]
            records.append({"id": fid, "file": f"figs/{png.name}", "kind": "diagram",
                            "maker": f"mermaid-{item['kind']}", "mermaid_kind": item["kind"],
                            "style": f"mermaid {item['kind']} {version}, {theme}, {scale}x",
                            "mermaid_version": version, "theme": theme, "scale": scale,
                            "repo": item["repo"], "path": item["path"], "licence": item["licence"],
                            "text": _clean(truth["text"]), "nodes": truth["nodes"], "edges": truth["edges"],
                            "images": 0})
    print(f"mermaid-versions: {real.left_out} sources left out as maybe a real-set figure's", file=sys.stderr)
    return records
