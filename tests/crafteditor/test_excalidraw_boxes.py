"""Excalidraw's boxes: hachure fills (diagonal pen strokes) read as flat-filled nodes, entity tables as
class boxes, narrow hand lettering redrawn as wide as written."""

from __future__ import annotations

import io
from dataclasses import replace

import numpy as np
import pytest
from handdrawn import entity_tables, hatched_boxes
from PIL import Image, ImageDraw, ImageFont

from crafteditor.config import Config
from crafteditor.convert import convert
from crafteditor.hand_text import fit_hand_lettering, trim_stray_strokes
from crafteditor.hatching import dehatched
from crafteditor.loading import load_image
from crafteditor.ocr.font_metrics import ink_width_em
from crafteditor.ocr.runs import TextRun
from crafteditor.realset import _label, norm_word
from crafter.spec.model import Edge, Node

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


@pytest.mark.parametrize("seed", [0, 1])
def test_hatched_boxes_are_nodes_with_their_labels_and_edges(seed):
    png, labels, edges = hatched_boxes(seed)
    fig = convert(png, Config()).figure
    nodes = {c.id: norm_word(c.label or "") for c in fig.components if isinstance(c, Node)}
    assert sorted(v for v in nodes.values() if v) == sorted(norm_word(w) for w in labels)
    assert not [c for c in fig.components if c.kind == "image" and c.box.w > 60]  # no box kept as a picture
    found = {(nodes.get(e.source), nodes.get(e.target)) for e in fig.components if isinstance(e, Edge)}
    assert sum((norm_word(a), norm_word(b)) in found for a, b in edges) >= len(edges) - 1


def test_a_hatched_box_is_read_on_its_pastel_and_keeps_its_outline_and_label():
    png, _, _ = hatched_boxes(0, n=1)
    image = load_image(png)
    flat = dehatched(image)
    assert flat is not None
    inside = flat.rgb[130:150, 60:90].reshape(-1, 3).astype(int)  # hachure left of the label
    assert np.ptp(inside, axis=0).max() <= 2  # one flat colour
    r, g, b = inside[0]
    assert r > g > b and b > 150  # orange strokes on white: a pale orange
    dark = (image.rgb.astype(int).sum(axis=2) < 150)
    assert (flat.rgb[dark].astype(int).sum(axis=1) < 150).mean() > 0.97  # outline and letters untouched


def _no_hachure() -> bytes:
    """Text, a fan of diagonal edges and parallel diagonal arrows: dense, diagonal, no hachure."""
    im = Image.new("RGB", (900, 500), "white")
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype(FONT, 13)
    for i in range(12):
        d.text((20, 20 + 16 * i), "A wavy VW ax // vx zz xx AVAVA wax " * 2, fill=(20, 20, 20), font=font)
    for i in range(14):
        d.line((500, 40, 880, 40 + 30 * i), fill=(40, 40, 40), width=2)
    for i in range(4):
        d.line((40 + 30 * i, 480, 140 + 30 * i, 300), fill=(200, 60, 0), width=2)
    buf = io.BytesIO()
    im.save(buf, format="PNG")
    return buf.getvalue()


def test_text_and_fans_of_lines_are_no_hachure():
    assert dehatched(load_image(_no_hachure())) is None


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_sketched_entity_table_is_one_node_of_its_name_and_columns(seed):
    # Excalidraw's entity box: a shaded header box (a face) on an unfilled sketched body of bare
    # snake_case column names (no types): one class box, not a name node and a column node
    png, tables = entity_tables(seed)
    fig = convert(png, Config()).figure
    nodes = [_label(c.label) for c in fig.components if isinstance(c, Node)]
    assert sum(_label(t) in nodes for t in tables) >= 2


def test_narrow_hand_lettering_is_redrawn_as_wide_as_written():
    # labels 0.7 times as wide as DejaVu Sans at their height (Virgil, marker): sized by height,
    # they came back 1.4 times as wide as written, out over their boxes
    png, labels, _ = hatched_boxes(0, squeeze=0.7)
    fig = convert(png, Config()).figure
    sizes = {c.label: c.font_size for c in fig.components if isinstance(c, Node) and c.label}
    assert sorted(sizes) == sorted(labels)
    font = ImageFont.truetype(FONT, 24)
    for word, size in sizes.items():
        written = 0.7 * font.getlength(word)
        drawn = size * font.getlength(word) / 24
        assert 0.8 <= drawn / written <= 1.2, (word, size)


def test_only_hand_lettering_of_a_few_letters_is_resized():
    run = TextRun(text="Storage", x=0, y=0, w=60.0, h=18.0, angle=0.0, font_px=24.0, bold=False, color=(0, 0, 0),
                  confidence=0.9, baseline=14.0, glyphs=np.zeros((18, 60), bool))
    wide = ink_width_em("Storage") * 24.0
    fitted = fit_hand_lettering([run, replace(run, w=wide), replace(run, text="Sto"), replace(run, w=10.0)])
    assert fitted[0].font_px == pytest.approx(60.0 / ink_width_em("Storage"))
    assert [r.font_px for r in fitted[1:3]] == [24.0, 24.0]  # as wide as the height says; too short to tell
    assert fitted[3].font_px == pytest.approx(0.6 * 24.0)  # a misread: never under 60 % of the height's size


def test_a_stroke_beside_hand_lettering_read_as_a_letter_is_taken_off():
    """A box's side or an arrow's stub read as a letter at a hand-drawn label's end ('componentst') or
    start ('lstorage') goes, with its share of the box; names the lexicon does not know, known words, a
    letter inside the run and acronyms stay as read."""
    def run(text: str) -> TextRun:
        return TextRun(text=text, x=10.0, y=0.0, w=10.0 * len(text), h=18.0, angle=0.0, font_px=24.0, bold=False,
                       color=(0, 0, 0), confidence=0.9, baseline=14.0, glyphs=np.ones((18, 10 * len(text)), bool))

    read = ["componentst", "SourceRecordl Builder", "lstorage", "two componentst a frontend", "Traefik", "itraefik",
            "clients", "Static components", "CDKt", "Healthy", "Ingest", "RelevéIndex contrat Pandera", "Applet"]
    trimmed = trim_stray_strokes([run(t) for t in read])
    assert [r.text for r in trimmed] == ["components", "SourceRecord Builder", "storage", "two components a frontend",
                                         "Traefik", "itraefik", "clients", "Static components", "CDKt", "Healthy",
                                         "Ingest", "RelevéIndex contrat Pandera", "Applet"]
    assert trimmed[3].w == 10.0 * len(read[3])  # a letter inside the run: its box stays
    assert (trimmed[0].x, trimmed[0].w, trimmed[0].glyphs.shape[1]) == (10.0, 100.0, 100)
    assert (trimmed[2].x, trimmed[2].w, trimmed[2].glyphs.shape[1]) == (20.0, 70.0, 70)
