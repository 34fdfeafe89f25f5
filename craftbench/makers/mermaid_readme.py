"""Mermaid diagrams as READMEs draw them: the classes ``craftbench.makers.mermaid`` does not cover yet.

A flowchart here has more nodes (up to 14, LR as often as TD), the link curve set by an ``init`` directive
(``basis``, Mermaid's default, or ``linear``, ``stepBefore``, ``monotoneX``, ``cardinal``), long labels that
Mermaid wraps over two or three lines, every link kind (``-->``, ``---``, ``-.->``, ``==>``, ``<-->``, ``--o``,
``--x``; labelled ones inline, ``-- text -->``, or piped), subgraphs with titles (one nested), ``classDef``
fills and chained links (``A --> B --> C``); a state diagram has composite states, notes, a fork and join,
a choice, long labels and transitions back. Themes: default, dark, neutral, forest, base (a ``themeVariables``
colour); one in five in Mermaid 11's ``handDrawn`` look.

The truth follows the real set's conventions (``crafteditor.realset``): a node is its box's whole text; an
edge the pair of its ends' labels, source first; a ``<-->`` link is one edge, source as written. An edge
touching a start/end dot, a fork bar, a choice diamond or a subgraph is left out (those ends have no label
of their own); one into a composite state ends at its title, a node (as the real set's state machines list
a container's title); a note is a node (as the sequence maker lists notes). Rendered by
``craftbench.makers.mermaid.render`` (headless Chromium).

    craftbench makers mermaid-readme -o /tmp/makers/mmr -n 24 --seed 1
"""

from __future__ import annotations

import random
from pathlib import Path

from craftbench.makers.mermaid import WORDS, Diagram, _words, draw_sources, state_transitions

KINDS = ("flowchart", "flowchart", "state")
THEMES = ("default", "dark", "neutral", "forest", "base")
CURVES = ("basis", "basis", "linear", "stepBefore", "monotoneX", "cardinal")
SHAPES = {"rect": "[{}]", "round": "({})", "stadium": "([{}])", "diamond": "{{{}}}", "cylinder": "[({})]",
          "circle": "(({}))", "hexagon": "{{{{{}}}}}", "parallelogram": "[/{}/]", "subroutine": "[[{}]]"}
LINKS = ("-->", "-->", "-->", "---", "-.->", "==>", "<-->", "--o", "--x")
LOOK_HAND = 0.2  # the share drawn in the handDrawn look
FILLS = ("#f9f", "#bbf", "#dfd", "#ffd8a8", "#e3f2fd", "#333", "#1f6feb")


def _label(rng: random.Random) -> str:
    """A short label most times, else a long one Mermaid wraps (its nodes wrap at about 200 px)."""
    return _words(rng, 4, 7) if rng.random() < 0.2 else _words(rng, 1, 3)


def _distinct(rng: random.Random, n: int) -> list[str]:
    out: list[str] = []
    while len(out) < n:
        w = _label(rng)
        if w not in out and all(w not in o and o not in w for o in out):
            out.append(w)
    return out


def _fresh(rng: random.Random, taken: list[str], lo: int, hi: int) -> str:
    """A title no label repeats (a repeated name would make the truth ambiguous)."""
    while (w := _words(rng, lo, hi)) in taken:
        pass
    return w


def _pairs(rng: random.Random, n: int) -> list[tuple[int, int]]:
    """A connected graph, mostly forward (chains and fans), a few links back and across."""
    pairs = []
    for i in range(1, n):
        a = i - 1 if rng.random() < 0.55 else rng.randrange(i)
        pairs.append((a, i))
    for _ in range(rng.randint(0, max(1, n // 4))):
        a, b = rng.sample(range(n), 2)
        if (a, b) not in pairs and (b, a) not in pairs:
            pairs.append((a, b))
    return pairs


def _init(theme: str, curve: str | None, rng: random.Random) -> str:
    parts = [f'"theme": "{theme}"']
    if rng.random() < LOOK_HAND:  # Mermaid 11's sketchy look (rough.js strokes and fills)
        parts.append('"look": "handDrawn"')
    if theme == "base":
        parts.append(f'"themeVariables": {{"primaryColor": "{rng.choice(("#e3f2fd", "#fff3bf", "#d3f9d8"))}"}}')
    if curve:
        parts.append(f'"flowchart": {{"curve": "{curve}"}}')
    return "%%{init: {" + ", ".join(parts) + "}}%%"


def flowchart(rng: random.Random, theme: str) -> Diagram:
    n = rng.randint(5, 14)
    labels = _distinct(rng, n)
    d = Diagram("flowchart", "")
    lines = [_init(theme, rng.choice(CURVES), rng), f"flowchart {rng.choice(('LR', 'TD', 'LR', 'TB'))}"]
    shapes = [rng.choice(list(SHAPES)) if rng.random() < 0.5 else "rect" for _ in range(n)]
    defs = [f'    N{i}{SHAPES[shapes[i]].format(chr(34) + labels[i] + chr(34))}' for i in range(n)]
    if n >= 6 and rng.random() < 0.6:  # a titled subgraph around a run of nodes, sometimes one inside it
        a = rng.randrange(n - 4)
        b = a + rng.randint(3, 4)
        title = _fresh(rng, labels, 1, 3)
        d.text.append(title)
        inner = defs[a:b]
        if rng.random() < 0.4:
            sub = _fresh(rng, [*labels, title], 1, 2)
            d.text.append(sub)
            inner = inner[:1] + [f'    subgraph G2 ["{sub}"]'] + inner[1:] + ["    end"]
        defs = defs[:a] + [f'    subgraph G1 ["{title}"]'] + (["    direction TB"] if rng.random() < 0.3 else []) \
            + inner + ["    end"] + defs[b:]
    lines += defs
    pairs = _pairs(rng, n)
    i = 0
    while i < len(pairs):
        a, b = pairs[i]
        link = rng.choice(LINKS)
        if i + 1 < len(pairs) and pairs[i + 1][0] == b and link != "<-->" and rng.random() < 0.3:
            c = pairs[i + 1][1]  # a chained link, A --> B --> C
            lines.append(f"    N{a} {link} N{b} {link} N{c}")
            d.edges += [[labels[a], labels[b]], [labels[b], labels[c]]]
            i += 2
            continue
        if rng.random() < 0.35 and link in ("-->", "---", "-.->", "==>"):
            lab = _words(rng, 1, 3, cap=False)
            d.text.append(lab)
            if link == "-->" and rng.random() < 0.5:
                lines.append(f"    N{a} -- {lab} --> N{b}")
            else:
                lines.append(f'    N{a} {link}|"{lab}"| N{b}')
        else:
            lines.append(f"    N{a} {link} N{b}")
        d.edges.append([labels[a], labels[b]])
        i += 1
    if rng.random() < 0.5:  # classDef fills, the way READMEs colour their boxes
        fill = rng.choice(FILLS)
        # its text set to stand out from the fill (a dark theme's light text on a light fill is unreadable)
        color = "#fff" if fill in ("#333", "#1f6feb") else "#000"
        lines.append(f"    classDef hot fill:{fill},stroke:#333,stroke-width:2px,color:{color}")
        lines.append("    class " + ",".join(f"N{k}" for k in sorted(rng.sample(range(n), max(1, n // 3)))) + " hot")
    d.text += labels
    d.nodes = labels
    d.source = "\n".join(lines)
    return d


def state(rng: random.Random, theme: str) -> Diagram:
    n = rng.randint(4, 8)
    labels = _distinct(rng, n)
    d = Diagram("state", "")
    lines = [_init(theme, None, rng), "stateDiagram-v2"]
    if rng.random() < 0.4:
        lines.append("    direction LR")
    lines += [f'    state "{labels[i]}" as S{i}' for i in range(n)]
    lines.append("    [*] --> S0")
    lines += state_transitions(rng, d, labels, _pairs(rng, n), back=0.2, labelled=0.5, most_words=3)
    lines.append(f"    S{rng.randrange(1, n)} --> [*]")
    d.nodes = list(labels)
    d.text += labels
    extra = [w for w in _distinct(rng, 8) if w not in labels]
    if rng.random() < 0.5 and len(extra) >= 3:  # a composite state: [*] -> inner0 -> inner1, entered from outside
        title, i0, i1 = extra[:3]
        extra = extra[3:]
        lines += [f'    state "{title}" as C1 {{', f'        state "{i0}" as I0', f'        state "{i1}" as I1',
                  "        [*] --> I0", "        I0 --> I1", "        I1 --> [*]", "    }",
                  f"    S{(s := rng.randrange(n))} --> C1"]
        d.text += [title, i0, i1]
        d.nodes += [title, i0, i1]  # a composite's title is a node, as the real set's state machines list it
        d.edges += [[i0, i1], [labels[s], title]]
    if rng.random() < 0.4 and len(extra) >= 2:  # a fork into two states and a join back
        f0, f1 = extra[:2]
        extra = extra[2:]
        s = rng.randrange(n)
        lines += ["    state fork1 <<fork>>", "    state join1 <<join>>", f'    state "{f0}" as F0',
                  f'    state "{f1}" as F1', f"    S{s} --> fork1", "    fork1 --> F0", "    fork1 --> F1",
                  "    F0 --> join1", "    F1 --> join1", f"    join1 --> S{rng.randrange(n)}"]
        d.text += [f0, f1]
        d.nodes += [f0, f1]
    if rng.random() < 0.3:  # a choice
        s = rng.randrange(n)
        a, b = rng.sample(range(n), 2)
        lines += ["    state check1 <<choice>>", f"    S{s} --> check1", f"    check1 --> S{a} : yes",
                  f"    check1 --> S{b} : no"]
        d.text += ["yes", "no"]
    if rng.random() < 0.4:
        note = " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 5)))
        lines.append(f"    note {rng.choice(('right', 'left'))} of S{rng.randrange(n)} : {note}")
        d.text.append(note)
        d.nodes.append(note)  # a note is a box, listed as the sequence maker lists its notes
    d.source = "\n".join(lines)
    return d


MAKE = {"flowchart": flowchart, "state": state}


def sources(n: int, seed: int) -> list[tuple[str, Diagram, str, int, str]]:
    """``n`` (id, diagram, theme, device scale, font size) from ``seed``."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        kind = KINDS[i % len(KINDS)]
        theme = THEMES[(i // len(KINDS)) % len(THEMES)]
        diagram = MAKE[kind](rng, theme)
        scale = rng.choice((1, 1, 2))
        font = rng.choice(("14px", "16px", "16px"))
        out.append((f"mr_{i:03d}_{kind}_{theme}", diagram, theme, scale, font))
    return out


def draw(figs: Path, n: int = 20, seed: int = 0) -> list[dict]:
    """Render ``n`` README-style Mermaid diagrams to ``figs`` (PNG and ``.mmd``); their truth records."""
    return draw_sources(figs, sources(n, seed), variant="readme")
