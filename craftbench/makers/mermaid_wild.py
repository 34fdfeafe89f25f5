"""Mermaid flowcharts and state diagrams as they reach a repository, in the ways the other Mermaid makers miss.

``craftbench.makers.mermaid_readme`` draws a README's diagrams at their own size on an opaque page; a figure
committed to a repository is often not that. Each figure here takes one **delivery** in turn:

- ``column``: the page GitHub shows, the diagram shrunk to fit an 830 px column (a wide LR graph's text
  falls to 7–10 px, its links to sub-pixel grey), screenshotted at 1× or 2×;
- ``transparent``: ``mmdc -b transparent``, no page behind the diagram (the bench flattens it onto white);
- ``plain``: the diagram at its own size, as ``mermaid_readme`` draws it;

and one **style** in turn: a label on every link, ``linkStyle`` colours and widths (``default`` or by index),
``classDef``/``style`` dark fills with white text, markdown strings (``**bold**``, line breaks), Mermaid 11's
``@{ shape: … }`` nodes, circle/cross/two-way ends (``o--o``, ``x--x``, ``<-->``) and invisible ``~~~`` links,
links into and out of subgraphs; directions LR/RL/TB/BT; every curve (``step`` too); themes default, neutral,
dark, forest, base. The bundled Mermaid has no ``elk`` layout (``@mermaid-js/layout-elk`` is not installed).

Truth as in ``mermaid_readme``: a node is its box's whole text (markdown marks dropped), an edge the pair of
its ends' labels, source first; an invisible link, or one touching a subgraph, a start/end dot, a fork or a
choice is left out.

    craftbench makers mermaid-wild -o /tmp/makers/mmw -n 40 --seed 1
"""

from __future__ import annotations

import random
import re
from pathlib import Path

from craftbench.makers.browser import scaled_pages
from craftbench.makers.mermaid import BACKGROUND, PAGE, Diagram, MermaidMakerError, _clean, _words, mermaid_js
from craftbench.makers.mermaid_readme import _distinct, _fresh, _pairs, state

DELIVERIES = ("column", "transparent", "column", "plain")
STYLES = ("every_label", "link_style", "dark_fills", "markdown", "new_shapes", "ends", "subgraph_links")
THEMES = ("default", "neutral", "dark", "forest", "base")
CURVES = ("basis", "linear", "step", "stepBefore", "stepAfter", "cardinal", "monotoneX", "natural")
SHAPES = {"rect": "[{}]", "round": "({})", "stadium": "([{}])", "diamond": "{{{}}}", "cylinder": "[({})]",
          "circle": "(({}))", "hexagon": "{{{{{}}}}}", "parallelogram": "[/{}/]", "trapezoid": "[/{}\\]",
          "subroutine": "[[{}]]", "asymmetric": ">{}]"}
NEW_SHAPES = ("rect", "rounded", "stadium", "diam", "cyl", "hex", "lean-r", "doc", "processes", "tag-rect")
LINKS = ("-->", "-->", "---", "-.->", "==>", "--o", "--x")
# a link line: its first end, then any link token (--> --- -.-> ==> --o --x o--o x--x <--> <-.-> <==> ~~~)
LINK_LINE = re.compile(r"^\s*\w+\s+[ox<]?(?:-{2,}|-\.+-|={2,}|~{3})[->ox]?[|\s]")
COLUMN_PX = 830  # GitHub's README column: a wider diagram is scaled down to fit


def _node(rng: random.Random, i: int, label: str, style: str) -> str:
    if style == "new_shapes" and rng.random() < 0.7:
        return f'    N{i}@{{ shape: {rng.choice(NEW_SHAPES)}, label: "{label}" }}'
    if style == "markdown":
        words = label.split(" ")
        k = rng.randrange(len(words))
        words[k] = f"**{words[k]}**"
        return f'    N{i}["`{" ".join(words)}`"]'
    shape = rng.choice(list(SHAPES)) if rng.random() < 0.5 else "rect"
    return f'    N{i}{SHAPES[shape].format(chr(34) + label + chr(34))}'


def _init(theme: str, curve: str, rng: random.Random) -> str:
    parts = [f'"theme": "{theme}"', f'"flowchart": {{"curve": "{curve}"}}']
    if theme == "base":
        parts.append(f'"themeVariables": {{"primaryColor": "{rng.choice(("#e3f2fd", "#fff3bf", "#d3f9d8", "#2b3a55"))}"'
                     f', "lineColor": "{rng.choice(("#333333", "#888888", "#1f6feb"))}"}}')
    return "%%{init: {" + ", ".join(parts) + "}}%%"


def _link(rng: random.Random, style: str, d: Diagram, a: str, b: str, pair: tuple[str, str] | None) -> str:
    """One link line ``a -> b``; ``pair`` its truth (None: left out of the edges)."""
    link = rng.choice(LINKS)
    if style == "ends":
        link = rng.choice(("o--o", "x--x", "<-->", "<-.->", "<==>", "-->", "~~~"))
    if link == "~~~":
        return f"    {a} ~~~ {b}"  # an invisible link: laid out, never drawn
    if pair:
        d.edges.append(list(pair))
    if style == "every_label" or rng.random() < 0.3:
        lab = _words(rng, 1, 3, cap=False)
        d.text.append(lab)
        return f'    {a} {link}|"{lab}"| {b}'
    return f"    {a} {link} {b}"


def flowchart(rng: random.Random, theme: str, style: str, wide: bool) -> Diagram:
    n = rng.randint(9, 16) if wide else rng.randint(5, 11)
    labels = _distinct(rng, n)
    d = Diagram("flowchart", "")
    direction = rng.choice(("LR", "LR", "RL")) if wide else rng.choice(("LR", "TD", "TB", "BT", "RL"))
    lines = [_init(theme, rng.choice(CURVES), rng), f"flowchart {direction}"]
    defs = [_node(rng, i, labels[i], style) for i in range(n)]
    sub = None
    if style == "subgraph_links" or (n >= 6 and rng.random() < 0.4):
        a = rng.randrange(n - 3)
        b = a + 3
        title = _fresh(rng, labels, 1, 3)
        d.text.append(title)
        sub = (a, b)
        defs = defs[:a] + [f'    subgraph G1 ["{title}"]'] + defs[a:b] + ["    end"] + defs[b:]
    lines += defs
    for a, b in _pairs(rng, n):
        lines.append(_link(rng, style, d, f"N{a}", f"N{b}", (labels[a], labels[b])))
    if style == "subgraph_links" and sub:  # links to and from the subgraph itself (no truth: no label ends)
        outside = [k for k in range(n) if not sub[0] <= k < sub[1]]
        lines.append(_link(rng, "", d, f"N{rng.choice(outside)}", "G1", None))
        lines.append(_link(rng, "", d, "G1", f"N{rng.choice(outside)}", None))
    if style == "link_style":
        colour = rng.choice(("#f66", "#1f6feb", "#999", "#2f9e44", "#ff922b"))
        width = rng.choice(("1px", "2px", "3px", "4px"))
        k = sum(bool(LINK_LINE.match(ln)) for ln in lines)  # linkStyle counts every link, in order
        if rng.random() < 0.5 or not k:
            lines.append(f"    linkStyle default stroke:{colour},stroke-width:{width}")
        else:
            idx = ",".join(str(i) for i in sorted(rng.sample(range(k), max(1, k // 2))))
            lines.append(f"    linkStyle {idx} stroke:{colour},stroke-width:{width},color:{colour}")
    if style == "dark_fills" or rng.random() < 0.3:
        fill = rng.choice(("#333", "#1f6feb", "#6741d9", "#2b8a3e", "#c92a2a", "#0b3d91"))
        lines.append(f"    classDef dark fill:{fill},stroke:#111,stroke-width:2px,color:#fff")
        lines.append("    class " + ",".join(f"N{k}" for k in sorted(rng.sample(range(n), max(1, n // 2)))) + " dark")
        lines.append(f"    style N{rng.randrange(n)} fill:#ffd43b,stroke:#f08c00,color:#000")
    d.text += labels
    d.nodes = labels
    d.source = "\n".join(lines)
    return d


def sources(n: int, seed: int) -> list[tuple[str, Diagram, str, int, str, str]]:
    """``n`` (id, diagram, theme, device scale, font size, delivery) from ``seed``."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        delivery = DELIVERIES[i % len(DELIVERIES)]
        theme = THEMES[(i // len(DELIVERIES)) % len(THEMES)]
        if i % 5 == 4:
            kind, style = "state", "state"
            diagram = state(rng, theme)
        else:
            kind, style = "flowchart", STYLES[(i // 5 * 4 + i % 5) % len(STYLES)]
            diagram = flowchart(rng, theme, style, wide=delivery == "column")
        scale = rng.choice((1, 1, 2)) if delivery == "column" else rng.choice((1, 2))
        out.append((f"mw_{i:03d}_{kind}_{delivery}_{style}_{theme}", diagram, theme, scale, "16px", delivery))
    return out


# A source drawn at ``factor`` of its own size, or shrunk to fit ``column`` px where that is > 0 (never grown).
RENDER_JS = """async ([src, column, factor]) => {
  mermaid.initialize({startOnLoad: false, securityLevel: 'strict'});
  const el = document.getElementById('c');
  el.innerHTML = '';
  const {svg} = await mermaid.render('m' + Math.floor(Math.random() * 1e9), src);
  el.innerHTML = svg;
  const s = el.querySelector('svg');
  const w = s.viewBox.baseVal.width, h = s.viewBox.baseVal.height;
  const k = (column > 0 ? Math.min(1, column / w) : 1) * factor;
  s.style.maxWidth = 'none';
  s.setAttribute('width', w * k);
  s.setAttribute('height', h * k);
}"""


def render(jobs: list[tuple[str, str, int, str, Path]]) -> None:
    """Render each (source, page theme, device scale, delivery, PNG path) in one headless Chromium."""
    mermaid_js()
    with scaled_pages(MermaidMakerError, "Mermaid") as pages:
        for src, theme, scale, delivery, png in jobs:
            page = pages(scale)
            bg = "transparent" if delivery == "transparent" else BACKGROUND[theme]
            page.set_content(PAGE.format(bg=bg, pad=16))
            page.add_script_tag(path=str(mermaid_js()))
            try:
                page.evaluate(RENDER_JS, [src, COLUMN_PX if delivery == "column" else 0, 1])
            except Exception as e:  # noqa: BLE001 - Playwright's Error carries Mermaid's parse message
                raise MermaidMakerError(f"Mermaid refused a {png.stem} source: {str(e)[:300]}\n{src}") from None
            page.locator("#c").screenshot(path=str(png), omit_background=delivery == "transparent")


def draw(figs: Path, n: int = 40, seed: int = 0) -> list[dict]:
    """Render ``n`` diagrams to ``figs`` (PNG and ``.mmd``); their truth records."""
    jobs, records = [], []
    for fid, diagram, theme, scale, font, delivery in sources(n, seed):
        png = figs / f"{fid}.png"
        (figs / f"{fid}.mmd").write_text(diagram.source + "\n", encoding="utf-8")
        page = "dark" if theme == "dark" else "default"
        jobs.append((diagram.source, page, scale, delivery, png))
        records.append({"id": fid, "file": f"figs/{png.name}", "kind": "diagram", "maker": f"mermaid-{diagram.kind}",
                        "style": f"mermaid {diagram.kind} wild {delivery}, {theme}", "mermaid_kind": diagram.kind,
                        "theme": theme, "scale": scale, "font_size": font, "delivery": delivery,
                        "text": _clean(diagram.text), "nodes": diagram.nodes, "edges": diagram.edges, "images": 0})
    render(jobs)
    return records
