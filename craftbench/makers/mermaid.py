"""Mermaid diagrams drawn by Mermaid itself (``mermaid`` from npm, in a headless Chromium), truth from the source.

Each figure is one Mermaid source made from a seed: a flowchart (TD/LR; rect, round, stadium, diamond, circle,
subroutine, cylinder, hexagon; labelled, dotted and thick links; subgraphs), a state diagram (start and end
dots, labelled transitions, a composite state), an ER diagram (crow's feet, relationship labels, attribute
tables), a class diagram (inheritance, realisation, dependency; compartments) or a sequence diagram
(participants and actors, messages, dashed replies, self messages, notes, loops), in one of the themes
default, neutral, dark and forest, at device scale 1 or 2. The truth follows the real set's Mermaid entries
(``realset/manifest.json``): a node is a box's whole text (a class or an entity with its rows), an edge the
pair of its ends' labels, source first (the end without the head first for an undirected link); a sequence
diagram's participants are drawn twice (top and bottom) and its lifelines are listed as (X, X) edges.
Edges touching a state diagram's start or end dot are left out (those ends have no label).

The page is local (``mermaid.min.js`` read from ``node_modules``; no network), the browser the system's
``/usr/bin/chromium`` through Playwright (never ``playwright install``).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from pathlib import Path

from craftbench.makers.browser import scaled_pages
from crafter.errors import CrafterError

KINDS = ("flowchart", "state", "er", "class", "sequence")
THEMES = ("default", "neutral", "dark", "forest")
BACKGROUND = {"default": "#ffffff", "neutral": "#ffffff", "dark": "#333333", "forest": "#ffffff"}

WORDS = ("user", "order", "payment", "invoice", "account", "server", "client", "cache", "queue", "worker",
         "report", "check", "build", "deploy", "review", "start", "parse", "load", "store", "index", "search",
         "login", "session", "token", "retry", "error", "done", "ready", "idle", "open", "closed", "valid",
         "submit", "approve", "reject", "update", "delete", "create", "notify", "email", "message", "event",
         "stream", "batch", "model", "train", "test", "score", "filter", "merge", "split", "export", "import",
         "backup", "restore", "config", "schema", "record", "ticket", "refund", "cart", "product", "stock",
         "shipping", "address", "profile", "admin", "gateway", "router", "service", "database", "storage",
         "monitor", "alert", "metric", "upload", "download", "render", "output", "input", "result", "request",
         "response", "handler", "manager", "network", "policy", "rule", "vendor", "customer", "driver", "route")
TYPES = ("int", "string", "float", "bool", "date", "List", "long")


class MermaidMakerError(CrafterError):
    """Mermaid (npm) or Chromium/Playwright missing, or a Mermaid source Mermaid refuses."""


class MermaidMissingError(MermaidMakerError):
    """Mermaid (npm), Playwright or Chromium missing: nothing to draw in (not a source refused)."""


def mermaid_js(root: Path | None = None) -> Path:
    """``node_modules/mermaid/dist/mermaid.min.js`` under the repository root (``npm install`` puts it there)."""
    root = root or Path(__file__).resolve().parents[2]
    path = root / "node_modules" / "mermaid" / "dist" / "mermaid.min.js"
    if not path.is_file():
        raise MermaidMissingError(f"{path}: not found (run `npm install` at the repository root)")
    return path


@dataclass
class Diagram:
    kind: str
    source: str
    text: list[str] = field(default_factory=list)
    nodes: list[str] = field(default_factory=list)
    edges: list[list[str]] = field(default_factory=list)


def _words(rng: random.Random, lo: int = 1, hi: int = 2, cap: bool = True, vocab: tuple[str, ...] = WORDS) -> str:
    """A label of ``lo`` to ``hi`` words drawn from ``vocab``, the first capitalised unless ``cap`` is false."""
    ws = [rng.choice(vocab) for _ in range(rng.randint(lo, hi))]
    if cap:
        ws[0] = ws[0].capitalize()
    return " ".join(ws)


def _labels(rng: random.Random, n: int, lo: int = 1, hi: int = 2) -> list[str]:
    """``n`` distinct labels (a repeated label would make the truth ambiguous)."""
    out: list[str] = []
    while len(out) < n:
        w = _words(rng, lo, hi)
        if w not in out:
            out.append(w)
    return out


def _graph_edges(rng: random.Random, n: int, extra: int) -> list[tuple[int, int]]:
    """A connected DAG on ``n`` nodes (each node after the first hangs from an earlier one) plus ``extra`` more."""
    pairs = [(rng.randrange(i), i) for i in range(1, n)]
    for _ in range(extra * 3):
        if extra <= 0:
            break
        a, b = sorted(rng.sample(range(n), 2))
        if (a, b) not in pairs:
            pairs.append((a, b))
            extra -= 1
    return pairs


SHAPES = {"rect": "[{}]", "round": "({})", "stadium": "([{}])", "subroutine": "[[{}]]", "cylinder": "[({})]",
          "circle": "(({}))", "diamond": "{{{}}}", "hexagon": "{{{{{}}}}}"}
LINKS = {"arrow": "-->", "open": "---", "dotted": "-.->", "thick": "==>"}


def flowchart(rng: random.Random) -> Diagram:
    n = rng.randint(4, 9)
    labels = _labels(rng, n)
    d = Diagram("flowchart", "")
    shapes = [rng.choice(list(SHAPES)) if rng.random() < 0.6 else "rect" for _ in range(n)]
    lines = [f"flowchart {rng.choice(('TD', 'LR', 'TD', 'LR', 'BT'))}"]
    defs = [f'    N{i}{SHAPES[shapes[i]].format(chr(34) + labels[i] + chr(34))}' for i in range(n)]
    if n >= 6 and rng.random() < 0.5:  # a subgraph around a run of nodes
        a = rng.randrange(n - 3)
        b = a + rng.randint(2, 3)
        title = _words(rng, 1, 2)
        d.text.append(title)
        defs = defs[:a] + [f'    subgraph G1 ["{title}"]'] + defs[a:b] + ["    end"] + defs[b:]
    lines += defs
    for a, b in _graph_edges(rng, n, rng.randint(0, 2)):
        link = LINKS[rng.choice(("arrow", "arrow", "arrow", "open", "dotted", "thick"))]
        if rng.random() < 0.35:
            lab = _words(rng, 1, 2, cap=False)
            d.text.append(lab)
            lines.append(f'    N{a} {link}|"{lab}"| N{b}')
        else:
            lines.append(f"    N{a} {link} N{b}")
        d.edges.append([labels[a], labels[b]])
    d.text += labels
    d.nodes = labels
    d.source = "\n".join(lines)
    return d


def state(rng: random.Random) -> Diagram:
    n = rng.randint(3, 7)
    labels = _labels(rng, n, 1, 1)
    d = Diagram("state", "")
    lines = ["stateDiagram-v2"]
    if rng.random() < 0.3:
        lines.append("    direction LR")
    lines += [f'    state "{labels[i]}" as S{i}' for i in range(n)]
    lines.append("    [*] --> S0")
    lines += state_transitions(rng, d, labels, _graph_edges(rng, n, rng.randint(0, 2)), back=0.25, labelled=0.6, most_words=2)
    lines.append(f"    S{n - 1} --> [*]")
    d.nodes = list(labels)
    d.text += labels
    if rng.random() < 0.4:  # a composite state with two inner states
        title = _words(rng, 1, 1)
        inner = [w for w in _labels(rng, 4, 1, 1) if w not in labels][:2]
        if len(inner) == 2:
            lines += [f'    state "{title}" as C1 {{', f'        state "{inner[0]}" as I0',
                      f'        state "{inner[1]}" as I1', "        [*] --> I0", "        I0 --> I1", "    }",
                      f"    S{rng.randrange(n)} --> C1"]
            d.text += [title, *inner]
            d.nodes += inner
            d.edges.append(inner)
    d.source = "\n".join(lines)
    return d


CARDS = ("||", "|o", "}|", "}o")
CARDS_R = {"||": "||", "|o": "o|", "}|": "|{", "}o": "o{"}


def state_transitions(rng: random.Random, d: Diagram, labels: list[str], pairs: list[tuple[int, int]], *,
                      back: float, labelled: float, most_words: int) -> list[str]:
    """A state diagram's transitions ``S{a} --> S{b}``, one a pair: a share ``back`` turned round, a share
    ``labelled`` labelled (1 to ``most_words`` words); labels go to ``d``'s text, (source, target) to its edges."""
    lines = []
    for a, b in pairs:
        if rng.random() < back:
            a, b = b, a  # a transition back
        if rng.random() < labelled:
            lab = _words(rng, 1, most_words, cap=False)
            d.text.append(lab)
            lines.append(f"    S{a} --> S{b} : {lab}")
        else:
            lines.append(f"    S{a} --> S{b}")
        d.edges.append([labels[a], labels[b]])
    return lines


def er(rng: random.Random) -> Diagram:
    n = rng.randint(2, 6)
    names = [w.upper().replace(" ", "-") for w in _labels(rng, n, 1, 1)]
    d = Diagram("er", "")
    lines = ["erDiagram"]
    for a, b in _graph_edges(rng, n, rng.randint(0, 1)):
        left, right = rng.choice(CARDS), CARDS_R[rng.choice(CARDS)]
        link = "--" if rng.random() < 0.7 else ".."
        lab = _words(rng, 1, 1, cap=False)
        d.text.append(lab)
        lines.append(f"    {names[a]} {left}{link}{right} {names[b]} : {lab}")
        d.edges.append([names[a], names[b]])
    labels = []
    for name in names:
        rows = []
        if rng.random() < 0.7:
            lines.append(f"    {name} {{")
            for k, attr in enumerate(_labels(rng, rng.randint(1, 4), 1, 1)):
                attr = attr.lower()
                key = " PK" if k == 0 and rng.random() < 0.6 else (" FK" if rng.random() < 0.15 else "")
                row = f"{rng.choice(TYPES)} {attr}{key}"
                lines.append(f"        {row}")
                rows.append(row)
            lines.append("    }")
        labels.append(" ".join([name, *rows]))
    d.nodes = labels
    d.text += labels
    by_name = dict(zip(names, labels, strict=True))
    d.edges = [[by_name[a], by_name[b]] for a, b in d.edges]
    d.source = "\n".join(lines)
    return d


RELATIONS = {"inherit": "<|--", "realise": "..|>", "assoc": "-->", "depend": "..>"}


def klass(rng: random.Random) -> Diagram:
    n = rng.randint(2, 6)
    names = [w.replace(" ", "") for w in _labels(rng, n, 1, 2)]
    d = Diagram("class", "")
    lines = ["classDiagram"]
    if rng.random() < 0.3:
        lines.append("    direction LR")
    labels = []
    for name in names:
        attrs = [f"{rng.choice('+-#')}{rng.choice(TYPES)} {rng.choice(WORDS)}" for _ in range(rng.randint(0, 3))]
        methods = [f"{rng.choice('+-')}{rng.choice(WORDS)}{rng.choice(WORDS).capitalize()}()"
                   for _ in range(rng.randint(0, 3))]
        if attrs or methods:
            lines += [f"    class {name} {{", *(f"        {m}" for m in attrs + methods), "    }"]
        else:
            lines.append(f"    class {name}")
        labels.append(" ".join([name, *attrs, *methods]))
    parent = rng.randrange(n)
    for a, b in _graph_edges(rng, n, rng.randint(0, 1)):
        rel = rng.choice(("inherit", "inherit", "realise", "assoc", "depend"))
        if rel == "inherit":  # Parent <|-- Child: the head at the parent
            p, c = (a, b) if rng.random() < 0.5 or a != parent else (parent, b)
            lines.append(f"    {names[p]} <|-- {names[c]}")
            d.edges.append([labels[c], labels[p]])
            continue
        lab = ""
        if rng.random() < 0.4:
            lab = _words(rng, 1, 1, cap=False)
            d.text.append(lab)
        lines.append(f"    {names[a]} {RELATIONS[rel]} {names[b]}" + (f" : {lab}" if lab else ""))
        d.edges.append([labels[a], labels[b]])
    d.nodes = labels
    d.text += labels
    d.source = "\n".join(lines)
    return d


def sequence(rng: random.Random) -> Diagram:
    n = rng.randint(2, 5)
    names = _labels(rng, n, 1, 2)
    d = Diagram("sequence", "")
    lines = ["sequenceDiagram"]
    if rng.random() < 0.3:
        lines.append("    autonumber")
    autonumber = lines[-1].strip() == "autonumber"
    for i, name in enumerate(names):
        lines.append(f"    {'actor' if rng.random() < 0.2 else 'participant'} P{i} as {name}")
    notes = []
    k = 0
    loop_open = False
    for _ in range(rng.randint(3, 8)):
        r = rng.random()
        if r < 0.12 and not loop_open:
            lab = _words(rng, 1, 2, cap=False)
            lines.append(f"    loop {lab}")
            d.text += ["loop", lab]
            loop_open = True
            continue
        if r < 0.22:
            who = rng.randrange(n)
            note = _words(rng, 1, 3)
            lines.append(f"    Note {rng.choice(('right of', 'left of', 'over'))} P{who}: {note}")
            notes.append(note)
            continue
        a = rng.randrange(n)
        b = a if rng.random() < 0.1 else rng.choice([j for j in range(n) if j != a])
        arrow = rng.choice(("->>", "->>", "-->>", "-)", "->>"))
        msg = _words(rng, 1, 3, cap=False)
        k += 1
        lines.append(f"    P{a}{arrow}P{b}: {msg}")
        d.text.append(f"{k} {msg}" if autonumber else msg)
        d.edges.append([names[a], names[b]])
        if loop_open and rng.random() < 0.5:
            lines.append("    end")
            loop_open = False
    if loop_open:
        lines.append("    end")
    if not d.edges:
        lines.append("    P0->>P1: start")
        d.text.append(f"{k + 1} start" if autonumber else "start")
        d.edges.append([names[0], names[1]])
    d.nodes = names + notes + names
    d.text += names + notes + names
    d.edges += [[x, x] for x in names]  # the lifelines
    d.source = "\n".join(lines)
    return d


MAKE = {"flowchart": flowchart, "state": state, "er": er, "class": klass, "sequence": sequence}

PAGE = "<!doctype html><html><head><meta charset='utf-8'></head><body style='margin:0;background:{bg}'>" \
       "<div id='c' style='display:inline-block;padding:{pad}px'></div></body></html>"

RENDER_JS = """async ([src, theme, font]) => {
  mermaid.initialize({startOnLoad: false, theme: theme, securityLevel: 'strict',
                      themeVariables: {fontSize: font}});
  const el = document.getElementById('c');
  el.innerHTML = '';
  const {svg} = await mermaid.render('m' + Math.floor(Math.random() * 1e9), src);
  el.innerHTML = svg;
  const s = el.querySelector('svg');
  const w = s.viewBox.baseVal.width;
  s.style.maxWidth = 'none';
  s.setAttribute('width', w);
  s.setAttribute('height', s.viewBox.baseVal.height);
}"""


def _render(page, src: str, theme: str, font: str, out: Path) -> None:
    page.set_content(PAGE.format(bg=BACKGROUND[theme], pad=16))
    page.add_script_tag(path=str(mermaid_js()))
    try:
        page.evaluate(RENDER_JS, [src, theme, font])
    except Exception as e:  # noqa: BLE001 - Playwright's Error carries Mermaid's parse message
        raise MermaidMakerError(f"Mermaid refused a {out.stem} source: {str(e)[:300]}\n{src}") from None
    page.locator("#c").screenshot(path=str(out))


def sources(n: int, seed: int) -> list[tuple[str, Diagram, str, int, str]]:
    """``n`` (id, diagram, theme, device scale, font size) from ``seed``: kinds in turn, the rest drawn at random."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        kind = KINDS[i % len(KINDS)]
        diagram = MAKE[kind](rng)
        theme = THEMES[(i // len(KINDS)) % len(THEMES)]
        scale = rng.choice((1, 2))
        font = rng.choice(("14px", "16px", "16px", "18px"))
        out.append((f"mm_{i:03d}_{kind}_{theme}", diagram, theme, scale, font))
    return out


def _clean(text: list[str]) -> str:
    return re.sub(r"\s+", " ", " ".join(text)).strip()


def render(jobs: list[tuple[str, str, int, str, Path]]) -> None:
    """Render each (Mermaid source, theme, device scale, font size, PNG path) in one headless Chromium."""
    mermaid_js()
    with scaled_pages(MermaidMissingError, "Mermaid") as page:
        for src, theme, scale, font, png in jobs:
            _render(page(scale), src, theme, font, png)


def draw(figs: Path, n: int = 20, seed: int = 0) -> list[dict]:
    """Render ``n`` Mermaid diagrams to ``figs`` (PNG, with each ``.mmd`` source beside it); their truth records."""
    return draw_sources(figs, sources(n, seed))


def draw_sources(figs: Path, items: list[tuple[str, Diagram, str, int, str]], variant: str = "") -> list[dict]:
    """Render diagrams ``(id, diagram, theme, scale, font)`` to ``figs`` (PNG and ``.mmd``); their truth records.
    A ``variant`` (named in each record's style) sets its theme in the source's init directive: its page is
    rendered in Mermaid's default theme, or the dark one, whose background the page follows."""
    jobs, records = [], []
    for fid, diagram, theme, scale, font in items:
        png = figs / f"{fid}.png"
        (figs / f"{fid}.mmd").write_text(diagram.source + "\n", encoding="utf-8")
        page = ("dark" if theme == "dark" else "default") if variant else theme
        jobs.append((diagram.source, page, scale, font, png))
        records.append({"id": fid, "file": f"figs/{png.name}", "kind": "diagram", "maker": f"mermaid-{diagram.kind}",
                        "style": f"mermaid {diagram.kind}{' ' + variant if variant else ''}, {theme}",
                        "mermaid_kind": diagram.kind, "theme": theme, "scale": scale, "font_size": font,
                        "text": _clean(diagram.text), "nodes": diagram.nodes, "edges": diagram.edges, "images": 0})
    render(jobs)
    return records
