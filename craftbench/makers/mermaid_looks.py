"""Mermaid flowcharts and state diagrams in the **looks** the other Mermaid makers leave out.

``mermaid_readme`` and ``mermaid_wild`` draw Mermaid's themes on a white (or dark grey) page at its own
size or shrunk to GitHub's column; the real test's Mermaid reads worse than all of them, so each figure here
takes one look in turn, for a flowchart and for a state diagram alike:

- ``hand``: Mermaid 11's ``look: handDrawn`` (rough.js doubled strokes, hachure fills), every figure;
- ``gh_dark``: GitHub's dark-mode page (``#0d1117``), the diagram in Mermaid's ``dark`` theme on it;
- ``vars``: an ``%%{init}%%`` with ``themeVariables`` (custom fill, border and line colours, another font
  and size) and thick links (``linkStyle default stroke-width``);
- ``graph``: the old ``graph LR``/``graph TD`` keyword with ``classDef`` strokes (coloured, thick, dashed);
- ``small``: a wide diagram's SVG rasterised by a docs tool at 55–75 % of its size;
- ``jpeg``: a JPEG copy (quality 55–80) of a plain render.

A state diagram here is ``mermaid_readme``'s (composite states, notes, fork and join, choice, ``[*]`` ends,
direction LR) with, half the time, a composite with two concurrent regions (``--``). The ``elk`` layout is
not drawn: ``@mermaid-js/layout-elk`` is not installed. Truth as in ``mermaid_readme``: a node is its box's
whole text, an edge the pair of its ends' labels, source first; edges touching ``[*]``, forks, choices and
subgraphs are left out.

    craftbench makers mermaid-looks -o /tmp/makers/mml -n 36 --seed 1
"""

from __future__ import annotations

import random
from pathlib import Path

from craftbench.makers.browser import scaled_pages
from craftbench.makers.mermaid import PAGE, Diagram, MermaidMakerError, _clean, mermaid_js
from craftbench.makers.mermaid_readme import _distinct, flowchart, state
from craftbench.makers.mermaid_wild import RENDER_JS

LOOKS = ("hand", "gh_dark", "vars", "graph", "small", "jpeg")
FONTS = ("monospace", "Georgia, serif", "Verdana, sans-serif", "trebuchet ms, verdana, arial")
PALETTE = (("#e7f5ff", "#1c7ed6", "#495057"), ("#fff9db", "#f08c00", "#343a40"), ("#ebfbee", "#2f9e44", "#2b8a3e"),
           ("#f3f0ff", "#7048e8", "#5f3dc4"), ("#2b3a55", "#9ec5fe", "#adb5bd"))


def _init(look: str, rng: random.Random) -> tuple[str, str]:
    """The ``%%{init}%%`` line for ``look`` and the page colour behind the diagram."""
    parts, page = ['"theme": "default"'], "#ffffff"
    if look == "hand":
        theme = rng.choice(("default", "neutral", "forest", "base"))
        parts = [f'"theme": "{theme}"', '"look": "handDrawn"', f'"handDrawnSeed": {rng.randint(1, 99)}']
    elif look == "gh_dark":
        parts, page = ['"theme": "dark"'], "#0d1117"
    elif look == "vars":
        fill, border, line = rng.choice(PALETTE)
        parts = ['"theme": "base"', f'"themeVariables": {{"primaryColor": "{fill}", "primaryBorderColor": "{border}", '
                 f'"lineColor": "{line}", "fontFamily": "{rng.choice(FONTS)}", '
                 f'"fontSize": "{rng.choice(("12px", "14px", "18px", "20px"))}", '
                 f'"primaryTextColor": "{"#ffffff" if fill == "#2b3a55" else "#212529"}"}}']
    elif look in ("graph", "small", "jpeg"):
        parts = [f'"theme": "{rng.choice(("default", "neutral", "forest"))}"']
    return "%%{init: {" + ", ".join(parts) + "}}%%", page


def _concurrent(rng: random.Random, d: Diagram) -> list[str]:
    """A composite state with two concurrent regions, each a short chain; its title and states are nodes."""
    names = [w for w in _distinct(rng, 10) if all(w not in t and t not in w for t in d.text)][:5]
    if len(names) < 5:
        return []
    title, a0, a1, b0, b1 = names
    first = d.nodes[0]
    d.text += names
    d.nodes += names
    d.edges += [[a0, a1], [b0, b1], [first, title]]  # S0 -> R1 ends at the title, as mermaid_readme's
    return [f'    state "{title}" as R1 {{', f'        state "{a0}" as A0', f'        state "{a1}" as A1',
            "        [*] --> A0", "        A0 --> A1", "        --", f'        state "{b0}" as B0',
            f'        state "{b1}" as B1', "        [*] --> B0", "        B0 --> B1", "    }", "    S0 --> R1"]


def _links_thick(rng: random.Random, d: Diagram) -> list[str]:
    width = rng.choice(("2px", "3px", "4px"))
    return [f"    linkStyle default stroke-width:{width}"] if d.edges else []


def _graph_keyword(rng: random.Random, d: Diagram) -> None:
    """``flowchart X`` written as the old ``graph X``, with ``classDef`` strokes (colour, width, dashes)."""
    lines = d.source.split("\n")
    lines = [ln.replace("flowchart ", "graph ", 1) if ln.startswith("flowchart ") else ln for ln in lines]
    lines = [ln for ln in lines if not ln.lstrip().startswith(("classDef", "class "))]
    n = len(d.nodes)
    stroke = rng.choice(("#e03131", "#1971c2", "#2f9e44", "#f08c00"))
    dash = ",stroke-dasharray: 5 5" if rng.random() < 0.5 else ""
    lines.append(f"    classDef em stroke:{stroke},stroke-width:{rng.choice(('2px', '3px', '4px'))}{dash}")
    lines.append("    class " + ",".join(f"N{k}" for k in sorted(rng.sample(range(n), max(1, n // 2)))) + " em")
    d.source = "\n".join(lines)


def diagram(rng: random.Random, kind: str, look: str) -> tuple[Diagram, str]:
    """One Mermaid source of ``kind`` in ``look``; its page colour."""
    init, page = _init(look, rng)
    if kind == "state":
        d = state(rng, "default")
        body = d.source.split("\n")[1:]
        if rng.random() < 0.5:
            body += _concurrent(rng, d)
    else:
        d = flowchart(rng, "default")
        body = d.source.split("\n")[1:]
        if look == "small":  # a wide LR graph, the kind a docs tool shrinks
            body = [ln.replace("flowchart TD", "flowchart LR").replace("flowchart TB", "flowchart LR") for ln in body]
        if look == "vars":
            body += _links_thick(rng, d)
    d.source = "\n".join([init, *body])
    if kind == "flowchart" and look == "graph":
        _graph_keyword(rng, d)
    return d, page


def sources(n: int, seed: int) -> list[tuple[str, Diagram, str, str, int]]:
    """``n`` (id, diagram, look, page colour, device scale) from ``seed``."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        look = LOOKS[i % len(LOOKS)]
        kind = "state" if (i // len(LOOKS)) % 3 == 2 else "flowchart"
        d, page = diagram(rng, kind, look)
        scale = 1 if look == "small" else rng.choice((1, 2))
        out.append((f"ml_{i:03d}_{kind}_{look}", d, look, page, scale))
    return out


def render(jobs: list[tuple[str, str, int, float, Path]]) -> None:
    """Render each (source, page colour, device scale, size factor, image path) in one headless Chromium;
    a ``.jpg`` path is saved as a JPEG (quality 55–80, from its name's hash)."""
    mermaid_js()
    with scaled_pages(MermaidMakerError, "Mermaid") as pages:
        for src, bg, scale, k, path in jobs:
            page = pages(scale)
            page.set_content(PAGE.format(bg=bg, pad=16))
            page.add_script_tag(path=str(mermaid_js()))
            try:
                page.evaluate(RENDER_JS, [src, 0, k])
            except Exception as e:  # noqa: BLE001 - Playwright's Error carries Mermaid's parse message
                raise MermaidMakerError(f"Mermaid refused a {path.stem} source: {str(e)[:300]}\n{src}") from None
            if path.suffix == ".jpg":
                quality = 55 + sum(path.stem.encode()) % 26
                page.locator("#c").screenshot(path=str(path), type="jpeg", quality=quality)
            else:
                page.locator("#c").screenshot(path=str(path))


def draw(figs: Path, n: int = 36, seed: int = 0) -> list[dict]:
    """Render ``n`` diagrams to ``figs`` (image and ``.mmd``); their truth records."""
    jobs, records = [], []
    rng = random.Random(seed * 7919 + 1)
    for fid, d, look, page, scale in sources(n, seed):
        path = figs / f"{fid}.{'jpg' if look == 'jpeg' else 'png'}"
        (figs / f"{fid}.mmd").write_text(d.source + "\n", encoding="utf-8")
        k = rng.uniform(0.55, 0.75) if look == "small" else 1.0
        jobs.append((d.source, page, scale, k, path))
        records.append({"id": fid, "file": f"figs/{path.name}", "kind": "diagram", "maker": f"mermaid-{d.kind}",
                        "style": f"mermaid {d.kind} look {look}", "mermaid_kind": d.kind, "look": look,
                        "scale": scale, "size_factor": round(k, 3), "text": _clean(d.text), "nodes": d.nodes,
                        "edges": d.edges, "images": 0})
    render(jobs)
    return records
