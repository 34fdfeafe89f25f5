"""Real sequence diagrams drawn by another maker: js-sequence-diagrams (bramp's, the npm fork
``@rokt33r/js-sequence-diagrams``, Raphaël build) in its ``simple`` and ``hand`` themes — the hand theme's
napkin look (a handwriting font, wobbly boxes, participants at top and bottom) is that of
websequencediagrams.com, whose figures the real set's unknown-maker sequences are.

Sources are real: every Mermaid ``sequenceDiagram`` block in the fetched snapshots of a few repositories
(``/work/.mirror/<owner>+<name>/repo``, bare git), each kept with its repository, path and licence. A block is
translated to js-sequence-diagrams' syntax: participants by their shown names, messages (solid/dotted, filled/
open heads) and notes kept; ``alt``/``loop``/``activate``/``autonumber``/``box`` lines dropped (the maker has
none); Mermaid's headless ``->``, cross ``-x`` and two-headed ``<<->>`` the maker cannot draw (:func:`_open`).
A source a real-set figure may have been drawn from is left out (``mermaid_versions.RealSet``, any split: a
figure of its repository in its directory, of its name, or sharing most participant names; only the count is
told). Truth from the source as the real set's conventions give it: nodes each participant twice (drawn at top
and bottom), edges the messages (source first, self-messages too), text the title, names, messages and notes.

    craftbench makers seq-real -o /work/draw13/seq13/jsd -n 40
"""

from __future__ import annotations

import html.entities
import random
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from craftbench.makers.browser import scaled_pages
from craftbench.makers.mermaid_versions import RealSet
from craftbench.makers.mirrors import mirror_root, source_blocks
from crafter.errors import CrafterError

# repository -> licence (each snapshot's own LICENSE file)
REPOS = {"kubernetes/enhancements": "Apache-2.0", "kubernetes-sigs/cluster-api": "Apache-2.0",
         "mermaid-js/mermaid": "MIT", "neozenith/clem": "MIT", "roozbehf/diagram-mermaid-example": "MIT"}
THEMES = ("hand", "simple")
JSD = ("underscore/underscore-min.js", "raphael/raphael.min.js",
       "@rokt33r/js-sequence-diagrams/dist/sequence-diagram-raphael-min.js")

# the arrow token matched whole, longest first, so a name may hold ``-`` (``kube-apiserver->>etcd``); names hold
# no ``<``, ``>`` or ``:``, so ``kube-xyz->>b`` is not read as ``kube`` ``-x`` ``yz->>b``
_ARROW = re.compile(r"^\s*([^:<>]+?)\s*(<<)?(-->>|->>|--x|-x|--\)|-\)|-->|->)\s*([+-]?)\s*([^:<>]+?)\s*:\s*(.*)$")
_PART = re.compile(r"^\s*(?:participant|actor)\s+(.+?)(?:\s+as\s+(.+))?\s*$")
_TYPED = re.compile(r"@\{.*\}\s*$")  # a participant's type and other properties after its id
_NOTE = re.compile(r"^\s*note\s+(left of|right of|over)\s+([^:]+?)\s*:\s*(.*)$", re.I)
_DROP = re.compile(r"^\s*(?:alt|else|opt|loop|par|and|critical|option|break|rect|end|box|activate|deactivate|"
                   r"autonumber|create|destroy|links?|properties|details|%%)\b", re.I)


class SeqRealMakerError(CrafterError):
    """js-sequence-diagrams (npm), Playwright or Chromium missing, or a source the maker refuses."""


@dataclass
class Sequence:
    repo: str
    path: str
    licence: str
    title: str = ""
    parts: list[str] = field(default_factory=list)   # shown names, in order of first appearance
    msgs: list[tuple[str, str, str, bool, bool]] = field(default_factory=list)  # (from, to, text, dotted, open)
    notes: list[tuple[str, list[str], str]] = field(default_factory=list)
    order: list[tuple[str, int]] = field(default_factory=list)  # ("msg" | "note", index) as the source has them
    block: str = ""  # the Mermaid block as the repository holds it (init directives dropped)


def _entity(m: re.Match) -> str:
    """Mermaid's ``#35;`` / ``#quot;`` escapes read; one out of Unicode's range or unknown kept as written."""
    body = m.group(1)
    if body.isdigit():
        n = int(body)
        return chr(n) if 0 < n <= 0x10FFFF and not 0xD800 <= n <= 0xDFFF else m.group(0)
    return html.entities.html5.get(body + ";", m.group(0))


def _text(s: str) -> str:
    s = re.sub(r"<br\s*/?>", " ", s, flags=re.I)
    s = re.sub(r"#(\w+);", _entity, s)
    return re.sub(r"\s+", " ", s.replace('"', "'")).strip()


def _open(arrow: str) -> bool:
    """Whether a Mermaid arrow is drawn with js-sequence-diagrams' open head (``->>``) rather than its filled one
    (``->``). Mermaid's filled head (``->>``) and open one (``-)``) map one to one; the maker has no headless line,
    no cross and no second head, so ``->`` (none) takes the open head, the lighter, ``-x`` the filled one, and
    ``<<->>`` its head at the receiver only."""
    return arrow.endswith(")") or not arrow.endswith((">>", "x"))


def parse_mermaid(block: str, repo: str, path: str, licence: str) -> Sequence | None:
    """A Mermaid ``sequenceDiagram`` block read into a :class:`Sequence` (``None``: something not understood)."""
    seq = Sequence(repo, path, licence, block=block)
    alias: dict[str, str] = {}

    def name(ident: str) -> str:
        ident = ident.strip()
        shown = alias.get(ident, ident)
        if shown not in seq.parts:
            seq.parts.append(shown)
        return shown

    for line in block.splitlines()[1:]:
        if not line.strip() or _DROP.match(line):
            continue
        if m := re.match(r"^\s*title\s*:?\s*(.+)$", line, re.I):
            seq.title = _text(m.group(1))
        elif m := _PART.match(line):
            # (Mermaid 11's participant types: ``participant API@{ "type": "boundary" } as Public API``)
            ident = _TYPED.sub("", m.group(1)).strip()
            shown = _text(m.group(2) or ident)
            alias[ident] = shown
            name(ident)
        elif m := _NOTE.match(line):
            seq.order.append(("note", len(seq.notes)))
            seq.notes.append((m.group(1).lower(), [name(p) for p in m.group(2).split(",")][:2], _text(m.group(3))))
        elif m := _ARROW.match(line):
            a, b = name(m.group(1)), name(m.group(5))
            seq.order.append(("msg", len(seq.msgs)))
            seq.msgs.append((a, b, _text(m.group(6)), m.group(3).startswith("--"), _open(m.group(3))))
        else:
            return None
    ok = 2 <= len(seq.parts) <= 10 and 2 <= len(seq.msgs) <= 30
    return seq if ok and all(len(p) <= 40 for p in seq.parts) else None


def harvest(mirror: Path | None = None, real: RealSet | None = None) -> list[Sequence]:
    """Every usable Mermaid sequence block in the mirrored repositories of :data:`REPOS` (under ``mirror``, default
    :func:`~craftbench.makers.mirrors.mirror_root`), in a stable order, those a real-set figure may have been drawn
    from left out (``real``: one of its repository in the same directory, of the same name, or sharing most
    participant names; counted in ``real.left_out``)."""
    found = []
    for repo, licence, path, block in source_blocks(REPOS, ["sequenceDiagram"], _sequence_blocks, real, mirror,
                                                    ("*.md", "*.mmd")):
        seq = parse_mermaid(block, repo, path, licence)
        if seq and not (real is not None and real.like(repo, seq.parts)):
            found.append(seq)
    return found


def _sequence_blocks(path: str, body: str) -> list[str]:
    """The ``sequenceDiagram`` blocks of a file: a Markdown file's ```` ```mermaid ```` fences, or a ``.mmd`` file
    whole; each without its ``%%{init}%%`` directives."""
    blocks = re.findall(r"```mermaid\s*\n(.*?)```", body, flags=re.S) if path.endswith(".md") else [body]
    blocks = (re.sub(r"%%\{.*?\}%%", "", b, flags=re.S).strip() for b in blocks)
    return [b for b in blocks if b.startswith("sequenceDiagram")]


def _q(name: str) -> str:
    return '"' + name + '"'


def source(seq: Sequence) -> str:
    """The sequence in js-sequence-diagrams' syntax (names quoted: they may hold ``-`` or ``:``)."""
    lines = [f"Title: {seq.title}"] if seq.title else []
    lines += [f"participant {_q(p)}" for p in seq.parts]
    for kind, i in seq.order:
        if kind == "msg":
            a, b, text, dotted, open_ = seq.msgs[i]
            lines.append(f"{_q(a)}{'--' if dotted else '-'}{'>>' if open_ else '>'}{_q(b)}: {text}")
        else:
            where, who, text = seq.notes[i]
            lines.append(f"Note {where} {','.join(_q(p) for p in who)}: {text}")
    return "\n".join(lines)


def truth(seq: Sequence) -> dict:
    words = [seq.title] + seq.parts + [m[2] for m in seq.msgs] + [n[2] for n in seq.notes] + seq.parts
    return {"text": re.sub(r"\s+", " ", " ".join(w for w in words if w)).strip(),
            "nodes": seq.parts + seq.parts, "edges": [[a, b] for a, b, *_ in seq.msgs]}


PAGE = """<html><body style="margin:0;background:#fff"><div id="c" style="display:inline-block;padding:12px;
background:#fff"></div></body></html>"""


def render(jobs: list[tuple[str, str, int, Path]]) -> None:
    """Render each (source, theme, device scale, PNG path) in one headless Chromium."""
    root = Path(__file__).resolve().parents[2] / "node_modules"
    scripts = [root / s for s in JSD]
    if missing := [str(s) for s in scripts if not s.is_file()]:
        raise SeqRealMakerError(f"{', '.join(missing)}: not found (npm install at the repository root)")
    with scaled_pages(SeqRealMakerError, "js-sequence-diagrams") as page:
        for src, theme, scale, png in jobs:
            p = page(scale)
            p.set_content(PAGE)
            for s in scripts:
                p.add_script_tag(path=str(s))
            try:
                p.evaluate("([s, t]) => Diagram.parse(s).drawSVG(document.getElementById('c'), {theme: t})",
                           [src, theme])
            except Exception as e:  # noqa: BLE001 - Playwright's Error carries the parser's message
                raise SeqRealMakerError(f"js-sequence-diagrams refused {png.stem}: {str(e)[:300]}\n{src}") from None
            p.locator("#c").screenshot(path=str(png))


def draw(figs: Path, n: int = 40, seed: int = 0) -> list[dict]:
    """Draw up to ``n`` real sequences (themes in turn, device scale 1 or 2) under ``figs``; their truth records."""
    rng = random.Random(seed)
    real = RealSet()
    seqs = harvest(real=real)
    print(f"seq-real: {real.left_out} sources left out as maybe a real-set figure's", file=sys.stderr)
    if not seqs:
        raise SeqRealMakerError(f"no Mermaid sequence blocks found under {mirror_root()}")
    jobs, records = [], []
    for i in range(n):
        seq, theme = seqs[i % len(seqs)], THEMES[(i // len(seqs) + i) % len(THEMES)]
        scale = rng.choice((1, 2))
        fid = f"seq_jsd_{i:03d}_{theme}"
        src = source(seq)
        (figs / f"{fid}.txt").write_text(src + "\n", encoding="utf-8")
        jobs.append((src, theme, scale, figs / f"{fid}.png"))
        records.append({"id": fid, "file": f"figs/{fid}.png", "kind": "diagram", "maker": "js-sequence-diagrams",
                        "style": f"js-sequence-diagrams sequence, {theme}, scale {scale}", "repo": seq.repo,
                        "path": seq.path, "licence": seq.licence, "images": 0, **truth(seq)})
    render(jobs)
    return records
