"""Real PlantUML sequence diagrams (``@startuml`` files from the mirrored repositories) drawn by PlantUML itself,
as the repository holds them and in other skins, truth read off the source.

These are the sequence figures PlantUML's own users draw: ``hide footbox`` (participants only at the top), actors
as stick figures, ``entity``/``database``/``control``/... participants, ``box`` groups with or without a title,
activation bars, ``opt``/``alt``/``loop``/``group`` frames, notes over one or more participants, multi-line
messages. The repository's source is drawn untouched in the ``as-is`` look; the other looks add one skin's lines
after ``@startuml`` (:data:`craftbench.makers.plantuml.SKIN_LINES`).

Truth in the real set's conventions (``realset/manifest.json``'s sequence entries, e.g. a PlantUML figure of
template-jar): nodes each participant (twice where PlantUML draws the foot boxes, once under ``hide footbox``),
each titled ``box``'s title, each note and ``ref``; edges the messages as (sender, receiver) whichever way the
source writes the arrow, a self-message (X, X); text the title, names, messages, frame guards, notes and
dividers. A source with a construct this reader does not follow (``return``, ``!include``, preprocessor
calls, numbered ``autonumber``), or one that would make PlantUML load anything (``<img:…>``, ``!theme … from``,
builtin ``%…()`` functions) is left out, as are the sources a real-set figure may have been drawn from.

    craftbench makers seq-puml -o /tmp/makers/seqpuml -n 48 --seed 17
"""

from __future__ import annotations

import random
import re
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

from craftbench.makers import plantuml
from craftbench.makers.mermaid_versions import RealSet
from craftbench.makers.mirrors import source_blocks

# repository -> licence (each snapshot's own LICENSE file)
REPOS = {"kubernetes-sigs/cluster-api": "Apache-2.0", "iluwatar/java-design-patterns": "MIT",
         "Forsakringskassan/template-jar": "MIT"}
LOOKS = ("as-is", "monochrome", "strict", "handwritten")
KINDS = ("participant", "actor", "boundary", "control", "entity", "database", "collections", "queue")

_NAME = r'("[^"]+"|[\w.$@]+)'
# an arrow: optional reverse heads, a shaft of '-' (maybe coloured: -[#red]->), forward heads, x/o ends
_ARROW = re.compile(rf"^{_NAME}\s*([ox]?(?:<<?|/|\\\\)?-+(?:\[[^\]]*\])?-*(?:>>?|/|\\\\)?[ox]?)\s*{_NAME}"
                    r"\s*(?:[-+*!]{1,2})?\s*(?::\s*(.*))?$")
_PART = re.compile(rf"^({'|'.join(KINDS)})\s+{_NAME}(?:\s+as\s+{_NAME})?(.*)$")
_NOTE = re.compile(r"^(?:[hr]?note)\s+(?:left|right|over|across)(?:\s+of)?\s*([^:]*?)\s*(?:#\S+)?\s*(?::\s*(.*))?$",
                   re.I)
_REF = re.compile(r"^ref\s+over\s+([^:]+?)\s*(?::\s*(.*))?$", re.I)
_FRAME = re.compile(r"^(alt|else|opt|loop|par|break|critical|group|and)\b\s*(?:#\S+)?\s*(.*)$")
_SKIP = re.compile(r"^(?:activate|deactivate|destroy|create|skinparam|hide\s+(?:unlinked|stereotype)|show|"
                   r"autoactivate|\|\|\|?|\|\|\d+\|\||scale|left to right|top to bottom|!theme|!pragma|"
                   r"newpage|header|footer|center|legend|caption)\b", re.I)
_REFUSE = re.compile(r"^(?:return\b|!(?!theme|pragma)|autonumber\s+\S|[A-Za-z_]+\s*\()", re.I)
# what makes PlantUML reach past the source (1.2020 has no security profile): an image a label loads
# (<img:https://…>, <img src=…>), a theme fetched from a URL or file (!theme X from …), a builtin function
# (%getenv("HOME") draws the environment into the figure, %load_json reads files or URLs)
_REACHES = re.compile(r"<img\b|^\s*!theme\b.*\bfrom\b|%[a-z_]+\s*\(", re.I | re.M)


class SeqPumlMakerError(plantuml.PlantumlMakerError):
    """No usable PlantUML sequence source in the mirrors, or PlantUML missing."""


@dataclass
class PumlSequence:
    repo: str
    path: str
    licence: str
    source: str
    title: str = ""
    footbox: bool = True
    parts: list[str] = field(default_factory=list)       # shown names, in order of first appearance
    boxes: list[str] = field(default_factory=list)       # titled box groups
    msgs: list[tuple[str, str, str]] = field(default_factory=list)  # (sender, receiver, text)
    notes: list[str] = field(default_factory=list)       # notes and refs, as drawn boxes
    words: list[str] = field(default_factory=list)       # every drawn text in source order


def _text(s: str) -> str:
    """A label as PlantUML draws it: ``\\n`` breaks a line, Creole and HTML-ish markup draws no letters."""
    s = s.replace("\\n", " ").replace("\\t", " ")
    s = re.sub(r"</?(?:b|i|u|s|color|size|font|back|w|strike)(?::[^>]*)?>", "", s, flags=re.I)
    s = re.sub(r"(\*\*|//|__|~~|\"\")", "", s)
    return re.sub(r"\s+", " ", s).strip()


def _unq(name: str) -> str:
    return name[1:-1] if name.startswith('"') and name.endswith('"') else name


def parse(src: str, repo: str = "", path: str = "", licence: str = "") -> PumlSequence | None:
    """The sequence a PlantUML source draws, or None where it is no sequence diagram or holds something this
    reader does not follow."""
    body = re.sub(r"/'.*?'/", "", src, flags=re.S)
    if _REACHES.search(body):
        return None  # drawn untouched, it would load what it names: left out, like any source not followed
    m = re.search(r"@startuml[^\n]*\n(.*?)@enduml", body, flags=re.S)
    if not m:
        return None
    seq = PumlSequence(repo, path, licence, src.strip() + "\n")
    alias: dict[str, str] = {}

    def part(ref: str) -> str:
        ref = _unq(ref)
        shown = _text(alias.get(ref, ref))
        if shown not in seq.parts:
            seq.parts.append(shown)
        return shown

    lines = [ln.strip() for ln in m.group(1).split("\n")]
    i = 0
    while i < len(lines):
        ln = lines[i]
        i += 1
        if not ln or ln.startswith("'"):
            continue
        if _REFUSE.match(ln):
            return None
        if multi := re.match(r"^(?:[hr]?note\b[^:]*|ref\s+over\s+[^:]+)$", ln, re.I):
            end = next((j for j in range(i, len(lines)) if re.match(r"^end\s*(?:note|ref)$", lines[j], re.I)), None)
            if end is None:
                return None
            text = _text(" ".join(lines[i:end]))
            i = end + 1
            if text:
                seq.notes.append(text)
                seq.words.append(text)
            if multi.group(0).lower().startswith("ref"):
                seq.words.insert(len(seq.words) - bool(text), "ref")
            continue
        if ln.lower() == "hide footbox":
            seq.footbox = False
        elif t := re.match(r"^title\s+(.*)$", ln, re.I):
            seq.title = _text(t.group(1))
            seq.words.append(seq.title)
        elif p := _PART.match(ln):
            a, b = _unq(p.group(2)), (_unq(p.group(3)) if p.group(3) else None)
            # "Long name" as X, or X as "Long name": the quoted (or the first) one is shown
            shown, key = (b, a) if b and p.group(3).startswith('"') and not p.group(2).startswith('"') else (a, b)
            if key:
                alias[key] = shown
            part(shown)
        elif b := re.match(r"^box\b\s*(\"[^\"]*\"|[^#\s]+)?\s*(?:#\S+)?\s*$", ln, re.I):
            if b.group(1):
                seq.boxes.append(_text(_unq(b.group(1))))
                seq.words.append(seq.boxes[-1])
        elif re.match(r"^end\s*box$", ln, re.I) or re.match(r"^end(?:\s+\w+)?$", ln, re.I):
            continue
        elif r := _REF.match(ln):
            seq.words += ["ref", _text(r.group(2) or "")]
            seq.notes.append(_text(r.group(2) or ""))
        elif n := _NOTE.match(ln):
            text = _text(n.group(2) or "")
            if not text:
                return None
            seq.notes.append(text)
            seq.words.append(text)
        elif f := _FRAME.match(ln):
            seq.words += [f.group(1) if f.group(1) not in ("else", "and", "group") else "", _text(f.group(2))]
        elif d := re.match(r"^(?:==+|\.\.\.+)\s*(.*?)\s*(?:==+|\.\.\.+)?$", ln):
            seq.words.append(_text(d.group(1)))
        elif ln.lower() == "autonumber":
            return None  # numbered messages: their numbers are drawn text this truth does not place
        elif a := _ARROW.match(ln):
            left, arrow, right = part(a.group(1)), a.group(2), part(a.group(3))
            back = arrow.lstrip("ox").startswith(("<", "/", "\\")) and not arrow.rstrip("ox").endswith(">")
            text = _text(a.group(4) or "")
            seq.msgs.append((right, left, text) if back else (left, right, text))
            seq.words.append(text)
        elif _SKIP.match(ln):
            continue
        else:
            return None  # a line this reader does not follow: the truth would be a guess
    ok = 2 <= len(seq.parts) <= 12 and 2 <= len(seq.msgs) <= 60
    return seq if ok else None


def truth(seq: PumlSequence) -> dict:
    feet = seq.parts if seq.footbox else []
    words = [*seq.parts, *seq.words, *feet]
    return {"text": re.sub(r"\s+", " ", " ".join(w for w in words if w)).strip(),
            "nodes": [*seq.parts, *seq.boxes, *(n for n in seq.notes if n), *feet],
            "edges": [[a, b] for a, b, _ in seq.msgs]}


def harvest(real: RealSet | None = None) -> list[PumlSequence]:
    """Every usable PlantUML sequence source of :data:`REPOS` in the mirrors, in a stable order, those a real-set
    figure may have been drawn from left out (one of its repository beside it, of the same name, or sharing most
    participant names)."""
    found = []
    for repo, licence, path, block in source_blocks(REPOS, ["-I", "@startuml"],
                                                    lambda _, body: re.findall(r"@startuml.*?@enduml", body, flags=re.S),
                                                    real):
        seq = parse(block, repo, path, licence)
        if seq and not (real is not None and real.like(repo, seq.parts)):
            found.append(seq)
    return found


def _look(src: str, look: str, dpi: int) -> str:
    head = [f"skinparam dpi {dpi}"] + ([] if look == "as-is" else plantuml.SKIN_LINES[look])
    return re.sub(r"(@startuml[^\n]*\n)", lambda m: m.group(1) + "\n".join(head) + "\n", src, count=1)


def draw(figs: Path, n: int = 48, seed: int = 0) -> list[dict]:
    """Draw ``n`` figures under ``figs``: the usable sources in an order ``seed`` picks, each in the
    :data:`LOOKS` in turn (as many rounds as ``n`` needs); their truth records (one PlantUML refused left out)."""
    if shutil.which("plantuml") is None:
        raise SeqPumlMakerError("the seq-puml maker needs `plantuml` (Debian: apt-get install plantuml)")
    rng = random.Random(seed)
    real = RealSet()
    seqs = harvest(real=real)
    print(f"seq-puml: {len(seqs)} sources; {real.left_out} left out as maybe a real-set figure's", file=sys.stderr)
    if not seqs:
        raise SeqPumlMakerError("no usable PlantUML sequence sources in the mirrors")
    rng.shuffle(seqs)
    sources, records = [], []
    for i in range(n):
        seq, look = seqs[i % len(seqs)], LOOKS[(i // len(seqs) + i % len(seqs)) % len(LOOKS)]
        dpi = rng.choice((96, 120, 150))
        fid = f"seqpu_{i:03d}_{look}"
        sources.append((fid, _look(seq.source, look, dpi)))
        records.append({"id": fid, "file": f"figs/{fid}.png", "kind": "diagram", "maker": "plantuml",
                        "style": f"plantuml sequence, {look}, {dpi} dpi", "look": f"plantuml-{look}",
                        "repo": seq.repo, "path": seq.path, "licence": seq.licence, "images": 0,
                        "footbox": seq.footbox, **truth(seq)})
    refused = set(plantuml.render(figs, sources, strict=False))
    for fid in refused:
        print(f"seq-puml: {fid}: PlantUML drew nothing for it; left out", file=sys.stderr)
    return [r for r in records if r["id"] not in refused]
