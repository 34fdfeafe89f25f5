"""Crafter's own busier examples, rendered at 150 dpi and converted back: the places where a
frame, a label or a title cuts through a line, and the symbols the recogniser has no class for."""

from pathlib import Path

import pytest

from crafteditor import Config, convert
from crafteditor.bench import render_truth
from crafteditor.scoring import score_diagram

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _convert(name: str):
    truth, png = render_truth(EXAMPLES / f"{name}.dsl", 150)
    conv = convert(png, Config.preset("diagram"))
    return conv.figure, truth


@pytest.fixture(scope="module")
def training_loop():
    return _convert("training_loop")


@pytest.fixture(scope="module")
def dataset_construction():
    return _convert("dataset_construction")


def _labels(fig) -> dict[str, str]:
    return {c.id: c.label for c in fig.of_kind("node")}


def test_a_frame_cut_by_edges_through_one_side_is_still_a_group(training_loop):
    """Two edges leaving the trainable frame downwards wall off a pocket of its fill; the frame
    is still found, with its two members."""
    fig, _ = training_loop
    groups = {g.label: g for g in fig.of_kind("group")}
    assert set(groups) == {"Frozen (no gradients)", "Trainable (1.2% of parameters)"}
    labels = _labels(fig)
    assert {labels[m] for m in groups["Trainable (1.2% of parameters)"].members} == {"LoRA adapters\n(rank 8)",
                                                                                  "Task head"}
    assert {labels[m] for m in groups["Frozen (no gradients)"].members} == {"Embedding layer",
                                                                           "Transformer blocks ×24"}
    assert not list(fig.of_kind("image"))  # nothing left over as a raster patch


def test_an_edge_through_a_group_title_and_one_under_its_label_are_whole_edges(training_loop):
    fig, _ = training_loop
    labels = _labels(fig)
    edges = {(labels.get(e.source), labels.get(e.target)): e for e in fig.of_kind("edge")}
    # the Tokenizer's arrow crosses 'Frozen (no gradients)': its head was erased with the title
    assert ("Tokenizer", "Embedding layer") in edges
    tok = edges[("Tokenizer", "Embedding layer")]
    assert tok.head == "arrow"
    assert len({p.x for p in tok.route}) == 1  # straight down, as drawn (its end had drifted 3 px)
    # '∇ loss' is drawn over its edge (the label's plate interrupts the line)
    loss = edges[("Cross-entropy\nloss", "AdamW optimizer")]
    assert loss.label == "∇ loss"
    assert not [t for t in fig.of_kind("text") if "loss" in t.text]


def test_symbols_outside_the_recognisers_vocabulary(training_loop, dataset_construction):
    texts = {t.text for f, _ in (training_loop, dataset_construction) for t in f.of_kind("text")}
    assert "ΔW = BA" in texts
    labels = set(_labels(dataset_construction[0]).values())
    assert "Agreement\nκ ≥ 0.7?" in labels
    assert "Final set: 48 k figures" in labels  # a k with its ascender stays a k


def test_a_title_over_a_node_is_two_lines(dataset_construction):
    """The title's and the first node's detector boxes are not joined as letters of one rotated word."""
    fig, truth = dataset_construction
    assert "Dataset construction" in {t.text for t in fig.of_kind("text")}
    assert "Crawl 2.1 M papers" in set(_labels(fig).values())
    sc = score_diagram(fig, truth)
    assert sc["boxes"] == 1.0 and sc["words"] == 1.0


def test_multiplication_signs_and_the_letter_x():
    """× is an x raised half a pixel: the recogniser splits its vote, and a lone x between or
    before numbers (or before a capital, '× N layers') is ×; the variable x stays x."""
    enc, _ = _convert("encoder_decoder")
    assert "Input image\n256×256×3" in set(_labels(enc).values())
    blk, _ = _convert("transformer_block")
    assert "× N layers" in {g.label for g in blk.of_kind("group")}
    assert "Input x" in set(_labels(blk).values())


@pytest.mark.parametrize("chars,p_times,expected", [
    ("xN layers", 0.09, "×N layers"),   # the space dropped, restored later from the glyph gap
    ("x N layers", 0.25, "× N layers"),
    ("256x3", 0.47, "256×3"),
    ("Input x", 0.017, "Input x"),      # the variable: the recogniser gives × under 2%
    ("x2 speed-up", 0.02, "x2 speed-up"),
])
def test_times_sign_rule(chars, p_times, expected):
    import numpy as np

    from crafteditor.ocr.engine import get_engine

    eng = get_engine()
    probs = np.zeros((len(chars), len(eng.vocab) + 1), np.float32)
    steps = [[t] for t in range(len(chars))]
    for t, ch in enumerate(chars):
        if ch == "x":
            probs[t, eng.vocab.index("×")] = p_times
    out = list(chars)
    eng._times_sign(out, steps, probs)
    assert "".join(out) == expected
