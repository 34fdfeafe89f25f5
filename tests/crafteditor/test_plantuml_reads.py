"""PlantUML's own look, drawn by PlantUML (``craftbench makers plantuml``, issue 31 round 6): a sequence
diagram whose participants are an actor, a database or an entity (a name under an icon, no box) read
with no lifeline at all (nodes half, edges none); a class diagram in PlantUML's default skin, whose
boxes stand in a hard grey drop shadow, carry a circled kind letter and often an empty compartment,
read with no class box (only the letters' circles as nodes). Each test skips without ``plantuml``.
And labels set over up-arrows (d2l's ViT figure, drawn here with PIL) are no participants."""

from __future__ import annotations

import shutil
import subprocess
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw

from crafteditor import convert
from crafteditor.realset import score_real
from crafter.spec.model import Edge, Node

needs_plantuml = pytest.mark.skipif(
    shutil.which("plantuml") is None or shutil.which("dot") is None, reason="plantuml (Java) or Graphviz not installed"
)


def _plantuml_png(tmp_path: Path, source: str) -> bytes:
    src = tmp_path / "fig.puml"
    src.write_text(f"@startuml\nskinparam dpi 120\n{source}\n@enduml\n", encoding="utf-8")
    subprocess.run(["plantuml", "-tpng", str(src)], check=True, capture_output=True, timeout=180)
    return (tmp_path / "fig.png").read_bytes()


@needs_plantuml
def test_the_plantuml_maker_draws_figures_with_their_truth(tmp_path):
    import json

    from craftbench.makers import draw_makers

    manifest = draw_makers("plantuml", tmp_path, n=2, seed=3)
    figures = json.loads(manifest.read_text())["figures"]
    assert [f["maker"] for f in figures] == ["plantuml-sequence", "plantuml-class"]
    for f in figures:
        assert (tmp_path / f["file"]).is_file() and f["nodes"] and f["edges"]


@needs_plantuml
def test_plantuml_actors_and_databases_are_participants_with_messages(tmp_path):
    png = _plantuml_png(tmp_path, """
actor "Customer" as C
participant "Shop" as S
database "Stock" as D
entity "Ledger" as L
C -> S : place order
S -> D : reserve items
D --> S : reserved
S -> L : record sale
S --> C : confirmation
""")
    conv = convert(png)
    names = ["Customer", "Shop", "Stock", "Ledger"]
    assert score_real(conv.figure, conv.svg, {"text": "", "nodes": names * 2})["nodes"] >= 0.85
    # every message joins its two participants, sender first
    ends = {c.id: c.label for c in conv.figure.components if isinstance(c, Node)}
    pairs = Counter((ends.get(e.source), ends.get(e.target)) for e in conv.figure.components if isinstance(e, Edge))
    messages = Counter([("Customer", "Shop"), ("Shop", "Stock"), ("Stock", "Shop"), ("Shop", "Ledger"), ("Shop", "Customer")])
    assert not messages - pairs, pairs


@needs_plantuml
def test_plantuml_class_boxes_in_drop_shadows_are_nodes_without_their_kind_letter(tmp_path):
    png = _plantuml_png(tmp_path, """
class Account {
+owner : String
+balance : float
+deposit() : void
}
class Savings {
+rate : float
}
interface Auditable {
+audit() : bool
}
Account <|-- Savings
Account ..|> Auditable
""")
    conv = convert(png)
    labels = [" ".join(c.label.split()) for c in conv.figure.components if isinstance(c, Node) and c.label]
    assert not [lab for lab in labels if len(lab) == 1], labels  # the circled C and I are no nodes
    truth = {"text": "", "nodes": ["Account owner : String balance : float deposit() : void", "Savings rate : float",
                                   "Auditable audit() : bool"]}
    assert score_real(conv.figure, conv.svg, truth)["nodes"] >= 0.66, labels


def test_labels_over_up_arrows_are_no_sequence_participants():
    img = Image.new("RGB", (760, 520), "white")
    d = ImageDraw.Draw(img)
    for i in range(6):
        x = 80 + i * 120
        d.text((x - 14, 20), f"Rep{i}", fill="black", font_size=18)
        d.line([(x, 48), (x, 470)], fill="black", width=2)  # an arrow up into the label, from far below
        d.polygon([(x - 6, 58), (x + 6, 58), (x, 46)], fill="black")
    for y in (150, 300):  # wide boxes the arrows pass through
        d.rectangle([40, y, 720, y + 50], outline="black", width=2)
    conv = convert(np.asarray(img))
    named = [c.label for c in conv.figure.components if isinstance(c, Node) and c.label and c.label.startswith("Rep")]
    assert named == [], named
