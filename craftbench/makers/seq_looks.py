"""The same real sequence diagrams drawn by every tool and theme: Mermaid (default, neutral, forest, dark),
PlantUML (its default skin, ``monochrome``, a blue skinparam set, ``strictuml``, ``handwritten`` and a monochrome
napkin) and js-sequence-diagrams (``simple`` and the hand-drawn ``hand``), so a bench shows which *look* loses
participants or messages when the content is held fixed.

Sources are the real Mermaid ``sequenceDiagram`` blocks :func:`craftbench.makers.seq_real.harvest` finds in
the mirrored repositories (those a real-set figure may have been drawn from left out). A seed picks the
sources; each is drawn through all :data:`LOOKS` in turn. Mermaid draws the block as the repository holds it
(its ``alt``/``loop`` frames, activations and ``autonumber`` too); PlantUML and js-sequence-diagrams draw it
translated (participants, messages solid or dashed, filled or open heads, notes; frames and activations
dropped, as :func:`seq_real.parse_mermaid` reads them). A source Mermaid 11 refuses is drawn in the other
looks only.

Truth in the real set's conventions (``realset/manifest.json``'s sequence entries): nodes each participant
twice (all three tools draw the participants again at the foot) and each note; edges the messages as
(sender, receiver), a self-message (X, X); text the title, names, messages and notes.

    craftbench makers seq-looks -o /work/draw15/seq -n 72 --seed 15
"""

from __future__ import annotations

import random
import re
import shutil
import sys
from pathlib import Path

from craftbench.makers import plantuml, seq_real
from craftbench.makers.browser import scaled_pages
from craftbench.makers.mermaid import MermaidMakerError, MermaidMissingError, _render, mermaid_js
from craftbench.makers.mermaid_versions import RealSet

LOOKS = (("mermaid", "default"), ("mermaid", "neutral"), ("mermaid", "forest"), ("mermaid", "dark"),
         ("plantuml", "default"), ("plantuml", "monochrome"), ("plantuml", "blue"), ("plantuml", "strict"),
         ("plantuml", "handwritten"), ("plantuml", "napkin"), ("jsd", "simple"), ("jsd", "hand"))


def _puml_text(s: str) -> str:
    """A message, note or name as PlantUML shows it literally (``\\n`` would break a line; ``%`` opens a call of
    PlantUML's preprocessor, ``%getenv("HOME")`` drawn as the value: written as its code point instead)."""
    return s.replace("\\", "/").replace("%", "<U+0025>")


def puml_source(seq: seq_real.Sequence, skin: str, dpi: int) -> str:
    """The sequence in PlantUML's syntax, participants by alias (their shown names may hold anything)."""
    ids = {p: f"P{i}" for i, p in enumerate(seq.parts)}
    lines = ["@startuml", f"skinparam dpi {dpi}", *plantuml.SKIN_LINES[skin]]
    if seq.title:
        lines.append(f"title {_puml_text(seq.title)}")
    lines += [f'participant "{_puml_text(p)}" as {ids[p]}' for p in seq.parts]
    for kind, i in seq.order:
        if kind == "msg":
            a, b, text, dotted, open_ = seq.msgs[i]
            arrow = ("--" if dotted else "-") + (">>" if open_ else ">")
            lines.append(f"{ids[a]} {arrow} {ids[b]}" + (f" : {_puml_text(text)}" if text else ""))
        else:
            where, who, text = seq.notes[i]
            lines.append(f"note {where} {', '.join(ids[p] for p in who)} : {_puml_text(text)}")
    return "\n".join([*lines, "@enduml", ""])


def truth(seq: seq_real.Sequence) -> dict:
    notes = [n[2] for n in seq.notes if n[2]]
    words = [seq.title] + seq.parts + [m[2] for m in seq.msgs] + notes + seq.parts
    return {"text": re.sub(r"\s+", " ", " ".join(w for w in words if w)).strip(),
            "nodes": seq.parts + notes + seq.parts, "edges": [[a, b] for a, b, *_ in seq.msgs]}


def _mermaid(jobs: list[tuple[str, str, int, Path]]) -> set[str]:
    """Render each (block, theme, scale, PNG) in Mermaid 11; the ids of the PNGs it refused."""
    mermaid_js()
    refused = set()
    with scaled_pages(MermaidMissingError, "Mermaid") as page:
        for src, theme, scale, png in jobs:
            try:
                _render(page(scale), src, theme, "16px", png)
            except MermaidMakerError as e:
                print(f"seq-looks: {png.stem}: {str(e).splitlines()[0][:160]}", file=sys.stderr)
                refused.add(png.stem)
    return refused


def draw(figs: Path, n: int = 72, seed: int = 0) -> list[dict]:
    """Draw ``n`` figures under ``figs``: ``ceil(n / len(LOOKS))`` real sequences picked by ``seed``, each in
    every look in turn; their truth records (a figure Mermaid refused left out)."""
    if shutil.which("plantuml") is None:
        raise plantuml.PlantumlMakerError("the seq-looks maker needs `plantuml` (Debian: apt-get install plantuml)")
    rng = random.Random(seed)
    real = RealSet()
    seqs = seq_real.harvest(real=real)
    print(f"seq-looks: {real.left_out} sources left out as maybe a real-set figure's", file=sys.stderr)
    if not seqs:
        raise seq_real.SeqRealMakerError(f"no Mermaid sequence blocks found under {seq_real.mirror_root()}")
    picked = rng.sample(seqs, min(len(seqs), -(-n // len(LOOKS))))
    mm, puml, jsd, records = [], [], [], []
    for i in range(n):
        seq, (tool, theme) = picked[i // len(LOOKS) % len(picked)], LOOKS[i % len(LOOKS)]
        fid = f"seqlk_{i // len(LOOKS):02d}_{tool}_{theme}"
        png = figs / f"{fid}.png"
        if tool == "mermaid":
            scale = rng.choice((1, 2))
            (figs / f"{fid}.mmd").write_text(seq.block + "\n", encoding="utf-8")
            mm.append((seq.block, theme, scale, png))
            look = f"scale {scale}"
        elif tool == "plantuml":
            dpi = rng.choice((96, 120, 150))
            puml.append((fid, puml_source(seq, theme, dpi)))
            look = f"{dpi} dpi"
        else:
            scale = rng.choice((1, 2))
            src = seq_real.source(seq)
            (figs / f"{fid}.txt").write_text(src + "\n", encoding="utf-8")
            jsd.append((src, theme, scale, png))
            look = f"scale {scale}"
        records.append({"id": fid, "file": f"figs/{png.name}", "kind": "diagram", "maker": tool,
                        "style": f"{tool} sequence, {theme}, {look}", "look": f"{tool}-{theme}", "repo": seq.repo,
                        "path": seq.path, "licence": seq.licence, "images": 0, **truth(seq)})
    refused = _mermaid(mm) if mm else set()
    if puml:
        for fid in plantuml.render(figs, puml, strict=False):
            print(f"seq-looks: {fid}: PlantUML drew nothing for it; left out", file=sys.stderr)
            refused.add(fid)
    if jsd:
        seq_real.render(jsd)
    return [r for r in records if r["id"] not in refused]
