"""Missed words of the real set's dev figures, classed (crafteditor.missed_words; issue 31).

    python scripts/missed_words.py shared/realfigs OUT.json [--only 'G_*,C_k8s*'] [--svgs DIR]
    python scripts/missed_words.py /tmp/makers/mmr OUT.json --split drawn   # a maker's drawn figures

Converts each dev figure, writes per figure its missed words with their class, the runs read
(text, confidence), its real-set scores, and the words' class counts over all figures; prints the counts.

Dev, the TikZ and whiteboard figures aside (other lanes'), round 7 -> branch text8 (session 43):
never 169 -> 172, misread 153 -> 135, split/merged 62 -> 50, read but drawn as paths 17 -> 17,
scorer convention 2 -> 2 (403 -> 376 missed words).
All of dev, round 9 (main c804f11) -> branch text10 (session 45): never 219 -> 202, misread 188 -> 190,
split/merged 57 -> 55, paths 15 -> 15, scorer 6 -> 6 (485 -> 468 missed words of 4,779).
All of dev, round 12 (main 2c0424c) -> branch words13 (session 48, ocr/run_ends.py): never 191 -> 190,
misread 183 -> 172, split 51 -> 53, paths 17 -> 17, scorer 6 -> 6 (448 -> 438 of 4,779). Of round 12's
misread: 60 glyphs confused, 46 handwriting, 41 end letters lost, 23 an inner letter lost, 13 merged
with a neighbour.
The 36 dev figures of median glyph <= 9 px at 1x and the 2 diagrams without a measured one, at --condition half,
main 986d8c0 -> branch small14 (session 49, ocr/small_print.py): never 458 -> 452, misread 260 -> 227,
split 70 -> 88 (797 -> 776 missed words). A tolerant box ground (dropped: it lowered three clean dev figures)
had added never 452 -> 398 (a PlantUML note's lines at half read as all ink).
All of dev, round 16 (main 080c4cc) -> branch words16 (session 51; charts' numbers as written, the figure as
its own dictionary): never 187 -> 187, misread 175 -> 167, split 53 -> 51, paths 18 -> 9, scorer 6 -> 6
(439 -> 420 missed words of 4,779).
Drawn real TikZ (``craftbench makers tikz-wild -n 40 --seed 17``: 505 truth words), main 16dba1c -> branch words17
(session 52, ocr/greek.py: Greek weighed in TeX's Computer Modern, a math label's Greek lead letter): never 96 -> 86,
misread 51 -> 51 (158 -> 148 missed: τ, τ₂, φ_a..φ_c); ``makers tikz -n 40 --seed 17`` 79 -> 79; the 81 dev figures
with a Greek letter or a short label led by a look-alike: no score moved.
All of dev, round 18 (main 7444ca9): never 187, misread 167, split 51, paths 9, scorer 6 (420 of 4,779); of
misread and split, by the reading: 88 a letter short, 63 a glyph confused, 33 a glyph more at an end (an icon,
a box side, a touching label), 21 joined with a neighbour, 13 split apart. Branch words18 (session 53,
reader.skipped_glyph: a sure reading of the trained reader with a glyph between two of its characters unread
goes to rapidocr; it fires on 40 of dev's 3,155 first-round crops, in 19 figures, all benched): misread 167 -> 163
('mpg' on three patchwork figures, 'Embedded' on ViT). Drawn at seed 18, n 40: ``tikz-wild`` 158 missed (never
108: math letters, slanted labels), ``mermaid-readme`` 16; neither moved.
Drawn at seed 19, n 30, main e2d8d6e -> branch tikz19 (session 54; a digit lead over a script hanging lower read as an
italic letter: CM's z read '2'; a lowered 'o' after a letter a subscript zero; an x-height lead the recogniser read as
no letter told among x-height letters from 6 px): ``tikz-wild`` (337 truth words) never 51 -> 48, misread 39 -> 29
(97 -> 84 missed: z_1, z_d read '21', '2d'; q_0 read 'qo'), ``tikz`` (326) misread 19 -> 14 (62 -> 57: x_1 read '1', 'Z2').
Of what is left on tikz-wild: Greek read as Latin or digits (γ '7', φ 'P', ρ 'p', ε '∈') ~17, italic letters under 8 px
at 150 dpi ~10, a superscript stacked over a subscript (m_1^2) read apart 8.
Round 24 (branch tikz24, main 330735a), 94 TikZ and paper-architecture figures from 9 repositories: the 18 dev ones,
``makers tikz-wild -n 36 --seed 24`` (janosh/diagrams), 40 PetarV-/TikZ sources drawn through tikz_wild's truth and
compile path (seed 0): 354 of 1,661 truth words missed, 332 of them math: a lone math letter never boxed 72 (6
repositories: a label beside a vertex dot, atoms on shaded balls), Greek never 57 and misread 43 (θ '0', ψ '4', μ 'M'),
a letter with its script never 31, misread 27 (the script lost: h_2 'h', H_t 'H'; the lead lost: w_3 '3'), a stacked
script split 11; plain words 22. At --condition half the PetarV- set keeps 0.673 of its words (0.786 at 1x).
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import sys
from collections import Counter
from pathlib import Path

from crafteditor.conditions import apply_condition
from crafteditor.config import Config
from crafteditor.convert import convert
from crafteditor.missed_words import classify_missed, count_classes
from crafteditor.realset import load_real, score_real, svg_word_list


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("folder", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--only", default="")
    ap.add_argument("--svgs", type=Path)
    ap.add_argument("--condition", default="", help="read each figure as delivered: half, jpeg60... (crafteditor.conditions)")
    ap.add_argument("--split", choices=("dev", "drawn"), default="dev", help="dev, or 'drawn' for a maker's figures")
    a = ap.parse_args()
    pats = [p for p in a.only.split(",") if p]
    figs = [f for f in load_real(a.folder, "dev" if a.split == "dev" else "all") if f.split == a.split]  # never test
    if pats:
        figs = [f for f in figs if any(fnmatch.fnmatch(f.id, p) for p in pats)]
    rows, total = [], Counter()
    for f in figs:
        source = apply_condition(f.path.read_bytes(), a.condition)[0] if a.condition else f.path
        conv = convert(source, Config(), name=f.id)
        if a.svgs:
            a.svgs.mkdir(parents=True, exist_ok=True)
            (a.svgs / f"{f.id}.svg").write_text(conv.svg)
        seq = svg_word_list(conv.svg)  # in drawing order: a split word's halves are neighbours
        runs = conv.vectorized.texts
        missed = classify_missed(f.truth["text"], seq, [r.text for r in runs])
        total.update(count_classes(missed))
        rows.append({"id": f.id, "group": f.truth.get("maker") or f.truth.get("style"), "n_truth": len(f.truth["text"].split()),
                     "missed": missed, "text_confidence": conv.report.get("text_confidence"),
                     "cpu": conv.report["cpu_seconds"], "scores": score_real(conv.figure, conv.svg, f.truth),
                     "runs": [[r.text, round(r.confidence, 3), [round(r.x), round(r.y), round(r.w), round(r.h)], r.angle]
                              for r in runs]})
        print(f.id, len(missed), dict(Counter(m["class"] for m in missed)), flush=True)
    json.dump({"classes": dict(total), "figures": rows}, a.out.open("w"), indent=1)
    print(dict(total))
    return 0


if __name__ == "__main__":
    sys.exit(main())
