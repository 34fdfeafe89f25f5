"""PlantUML sequence and class diagrams drawn by PlantUML itself (``plantuml``, Java), truth from the source.

PlantUML's look is its own: a sequence diagram's participants are boxes (or an actor's stick figure, a
database's cylinder) drawn again at the foot unless ``hide footbox``, dashed lifelines, activation bars,
solid calls and dashed replies, self messages, ``alt``/``loop``/``opt`` frames with their guards, notes,
dividers and ``autonumber``; a class diagram's classes are boxes with a circled letter, a name and
compartments of fields and methods, joined by inheritance, realisation, association and dependency lines.
Skins: PlantUML's default (yellow boxes, dark red lines), ``monochrome``, a blue one and ``strictuml``, at
72 to 200 dpi.

The truth follows the real set's sequence and UML entries (``realset/manifest.json``): a sequence diagram's
nodes are its participants (twice where the foot boxes are drawn) and its notes, its edges the messages as
(sender, receiver), a self message (X, X); a class diagram's node is a box's whole text (name, then fields
and methods; the circled letter is an icon, no word), an edge (the end without the head, the end with it):
(child, parent) for inheritance.
"""

from __future__ import annotations

import random
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from craftbench.makers.mermaid import _words as mermaid_words
from crafter.errors import CrafterError

KINDS = ("sequence", "class")
SKINS = ("default", "monochrome", "blue", "strict")
WORDS = ("user", "order", "payment", "invoice", "account", "server", "client", "cache", "queue", "worker",
         "report", "check", "build", "deploy", "review", "parse", "load", "store", "index", "search", "login",
         "session", "token", "retry", "error", "ready", "submit", "approve", "reject", "update", "delete",
         "create", "notify", "email", "message", "event", "stream", "batch", "model", "config", "schema",
         "record", "ticket", "refund", "cart", "product", "stock", "profile", "gateway", "router", "service",
         "database", "storage", "monitor", "alert", "metric", "upload", "render", "result", "request", "handler",
         "manager", "network", "policy", "vendor", "customer", "driver", "scheduler", "broker", "proxy")
TYPES = ("int", "String", "float", "boolean", "Date", "List", "long", "void")
PARTICIPANTS = ("participant",) * 6 + ("actor", "database", "entity", "control", "boundary", "collections")
SKIN_LINES = {
    "default": [],
    "monochrome": ["skinparam monochrome true"],
    "blue": ["skinparam ParticipantBackgroundColor #DDEEFF", "skinparam ParticipantBorderColor #3366AA",
             "skinparam SequenceLifeLineBorderColor #3366AA", "skinparam ArrowColor #224477",
             "skinparam ClassBackgroundColor #E8F0FF", "skinparam ClassBorderColor #3366AA",
             "skinparam NoteBackgroundColor #FFFFEE"],
    "strict": ["skinparam style strictuml", "skinparam monochrome true", "skinparam shadowing false"],
    "handwritten": ["skinparam handwritten true"],
    "napkin": ["skinparam handwritten true", "skinparam monochrome true", "skinparam shadowing false"],
}


class PlantumlMakerError(CrafterError):
    """``plantuml`` (or Java) missing, or a source PlantUML refuses."""


@dataclass
class Diagram:
    kind: str
    lines: list[str] = field(default_factory=list)
    text: list[str] = field(default_factory=list)
    nodes: list[str] = field(default_factory=list)
    edges: list[list[str]] = field(default_factory=list)


def _words(rng: random.Random, lo: int = 1, hi: int = 2, cap: bool = True) -> str:
    return mermaid_words(rng, lo, hi, cap, vocab=WORDS)


def _labels(rng: random.Random, n: int, lo: int = 1, hi: int = 2) -> list[str]:
    out: list[str] = []
    while len(out) < n:
        w = _words(rng, lo, hi)
        if w not in out and all(w.split()[0] != o.split()[0] for o in out):
            out.append(w)
    return out


def _message(rng: random.Random, d: Diagram, names: list[str], a: int, b: int, reply: bool, number: int) -> None:
    msg = _words(rng, 1, 3, cap=False)
    if rng.random() < 0.2:
        msg = f"{msg}({rng.choice(WORDS)})"
    d.lines.append(f"P{a} {'-->' if reply else '->'} P{b} : {msg}")
    d.text.append(f"{number} {msg}" if number else msg)
    d.edges.append([names[a], names[b]])


def sequence(rng: random.Random, steps: tuple[int, int] = (3, 9)) -> Diagram:  # long: one pass over a random script
    n = rng.randint(2, 5)
    names = _labels(rng, n)
    d = Diagram("sequence")
    footbox = rng.random() < 0.7
    if not footbox:
        d.lines.append("hide footbox")
    auto = rng.random() < 0.25
    if auto:
        d.lines.append("autonumber")
    kinds = [rng.choice(PARTICIPANTS) for _ in range(n)]
    for i, name in enumerate(names):
        d.lines.append(f'{kinds[i]} "{name}" as P{i}')
    notes: list[str] = []
    frame: str | None = None
    number = 0
    active: list[int] = []
    for _ in range(rng.randint(*steps)):
        r = rng.random()
        if r < 0.15 and frame is None:
            frame = rng.choice(("alt", "loop", "opt", "group" if rng.random() < 0.3 else "loop"))
            guard = _words(rng, 1, 2, cap=False)
            d.lines.append(f"{frame} {guard}")
            d.text += [frame if frame != "group" else "", guard]
            continue
        if r < 0.25:
            note = _words(rng, 1, 3)
            who = rng.randrange(n)
            d.lines.append(f"note {rng.choice(('right of', 'left of', 'over'))} P{who} : {note}")
            notes.append(note)
            continue
        if r < 0.3:
            div = _words(rng, 1, 2)
            d.lines.append(f"== {div} ==")
            d.text.append(div)
            continue
        a = rng.randrange(n)
        b = a if rng.random() < 0.12 else rng.choice([j for j in range(n) if j != a])
        number += 1
        _message(rng, d, names, a, b, reply=False, number=number if auto else 0)
        if a != b and rng.random() < 0.4:
            d.lines.append(f"activate P{b}")
            active.append(b)
        if a != b and rng.random() < 0.45:  # the reply, dashed
            number += 1
            _message(rng, d, names, b, a, reply=True, number=number if auto else 0)
            if b in active:
                d.lines.append(f"deactivate P{b}")
                active.remove(b)
        if frame == "alt" and rng.random() < 0.5 and "else" not in d.lines[-3:]:
            guard = _words(rng, 1, 2, cap=False)
            d.lines.append(f"else {guard}")
            d.text.append(guard)
        elif frame and rng.random() < 0.5:
            d.lines.append("end")
            frame = None
    if frame:
        d.lines.append("end")
    for a in active:
        d.lines.append(f"deactivate P{a}")
    if not d.edges:
        number += 1
        _message(rng, d, names, 0, 1, reply=False, number=number if auto else 0)
    d.nodes = names + notes + (names if footbox else [])
    d.text += names + notes + (names if footbox else [])
    return d


RELATIONS = {"inherit": "<|--", "realise": "<|..", "assoc": "-->", "depend": "..>", "plain": "--"}


def klass(rng: random.Random) -> Diagram:
    n = rng.randint(2, 6)
    names = [w.title().replace(" ", "") for w in _labels(rng, n)]
    d = Diagram("class")
    if rng.random() < 0.5:
        d.lines.append("skinparam classAttributeIconSize 0")
    if rng.random() < 0.3:
        d.lines.append("hide empty members")
    if rng.random() < 0.3:
        d.lines.append("left to right direction")
    labels = []
    for i, name in enumerate(names):
        kind = rng.choice(("class",) * 4 + ("abstract class", "interface", "enum"))
        attrs = [f"{rng.choice('+-#')}{rng.choice(WORDS)} : {rng.choice(TYPES[:-1])}" for _ in range(rng.randint(0, 3))]
        methods = [f"{rng.choice('+-')}{rng.choice(WORDS)}{rng.choice(WORDS).capitalize()}() : {rng.choice(TYPES)}"
                   for _ in range(rng.randint(0, 3))]
        d.lines += [f"{kind} {name} {{", *attrs, *methods, "}"]
        # the kind is a circled letter (C, A, I, E: an icon, no word); the visibility marks are icons
        # unless classAttributeIconSize is 0 (then + - # are printed: no word either)
        words = [name, *(a[1:] for a in attrs), *(m[1:] for m in methods)]
        labels.append(" ".join(w for w in words if w))
    for j in range(1, n):
        i = rng.randrange(j)
        rel = rng.choice(("inherit", "inherit", "realise", "assoc", "depend", "plain"))
        lab = _words(rng, 1, 1, cap=False) if rel in ("assoc", "plain") and rng.random() < 0.4 else ""
        d.lines.append(f"{names[i]} {RELATIONS[rel]} {names[j]}" + (f" : {lab}" if lab else ""))
        d.text.append(lab)
        if rel in ("inherit", "realise"):  # Parent <|-- Child: the head at the parent
            d.edges.append([labels[j], labels[i]])
        else:  # A --> B: from A; a plain line from the first named
            d.edges.append([labels[i], labels[j]])
    d.nodes = labels
    d.text += labels
    return d


MAKE = {"sequence": sequence, "class": klass}


def source(d: Diagram, skin: str, dpi: int) -> str:
    head = ["@startuml", f"skinparam dpi {dpi}", *SKIN_LINES[skin]]
    return "\n".join([*head, *d.lines, "@enduml", ""])


def _clean(text: list[str]) -> str:
    words = " ".join(t for t in text if t)
    words = re.sub(r"<<(\w+)>>", r"\1", words)
    return re.sub(r"\s+", " ", words).strip()


def render(figs: Path, sources: list[tuple[str, str]], strict: bool = True) -> list[str]:
    """Draw each (id, PlantUML source) to ``figs/<id>.png``, the source kept beside it; one Java start for all.
    ``strict``: any failure raises; else the ids PlantUML drew nothing for are returned (sources taken from
    repositories: one it refuses must not stop the others)."""
    with tempfile.TemporaryDirectory() as tmp:
        for fid, src in sources:
            (Path(tmp) / f"{fid}.puml").write_text(src, encoding="utf-8")
            (figs / f"{fid}.puml").write_text(src, encoding="utf-8")
        done = subprocess.run(["plantuml", "-tpng", "-charset", "UTF-8", "-o", str(figs.resolve()), f"{tmp}/*.puml"],
                              capture_output=True, text=True, timeout=600)
    missing = [fid for fid, _ in sources if not (figs / f"{fid}.png").is_file()]
    if strict and (done.returncode or missing):
        raise PlantumlMakerError(f"plantuml failed ({', '.join(missing[:5])}): {(done.stderr or done.stdout)[-400:]}")
    # a source it refuses still gets a PNG: PlantUML's error picture, named in what it prints ("... in file: X.puml")
    refused = set(re.findall(r"in file: .*?([^/\s]+)\.puml", done.stderr + done.stdout))
    for fid in refused:
        (figs / f"{fid}.png").unlink(missing_ok=True)
    return [fid for fid, _ in sources if fid in refused or fid in missing]


def draw(figs: Path, n: int = 20, seed: int = 0) -> list[dict]:
    """Draw ``n`` PlantUML diagrams under ``figs`` (kinds in turn, content from ``seed``); their truth records."""
    if shutil.which("plantuml") is None:
        raise PlantumlMakerError("the plantuml maker needs `plantuml` (Debian: apt-get install plantuml)")
    if shutil.which("dot") is None:  # without it PlantUML draws its class and state diagrams as an error picture
        raise PlantumlMakerError("the plantuml maker needs Graphviz's `dot` (Debian: apt-get install graphviz)")
    rng = random.Random(seed)
    records, sources = [], []
    for i in range(n):
        kind = KINDS[i % len(KINDS)]
        d = MAKE[kind](rng)
        skin = SKINS[(i // len(KINDS)) % len(SKINS)]
        dpi = rng.choice((72, 96, 120, 150, 200))
        fid = f"puml_{i:03d}_{kind}_{skin}"
        sources.append((fid, source(d, skin, dpi)))
        records.append({"id": fid, "file": f"figs/{fid}.png", "kind": "diagram", "maker": f"plantuml-{kind}",
                        "style": f"plantuml {kind}, {skin}, {dpi} dpi", "text": _clean(d.text), "nodes": d.nodes,
                        "edges": d.edges, "images": 0})
    render(figs, sources)
    return records
