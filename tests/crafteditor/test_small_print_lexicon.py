"""Small print's unknown words weighed against the lexicon on the recogniser's CTC likelihood
(:mod:`crafteditor.ocr.small_lexicon`; issue 31). The fixture beside its source
(``tests/crafteditor/mermaid/flowchart_column_dotted_i.*``) was drawn by ``craftbench makers mermaid-wild``
(seed 19, its figure mw_022): a Mermaid flowchart in a README's column at 1×, 4-5 px of ink, where every
dotted 'i' had been read 'l' ('emall', 'Sesslon', 'drlver', 'Traln'): its nodes 0.64 -> 0.93, edges 0.14 -> 0.76."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from crafteditor.convert import convert
from crafteditor.ocr.small_lexicon import ctc_log_likelihood, ctc_log_likelihoods, lexicon_neighbours, mend_line
from crafteditor.realset import svg_word_list

FIXTURE = Path(__file__).parent / "mermaid" / "flowchart_column_dotted_i.png"
ALPHABET = " abcdefghijklmnopqrstuvwxyz"  # class 0 is CTC's blank; a space is class 1


def _labels(text: str) -> list[int] | None:
    return [ALPHABET.index(ch) + 1 for ch in text] if all(ch in ALPHABET for ch in text) else None


def _probs(steps: list[dict[str, float]]) -> np.ndarray:
    """T×C probabilities: each step's named characters ('' the blank) at their share, the rest spread thin."""
    out = np.full((len(steps), len(ALPHABET) + 1), 1e-4)
    for t, step in enumerate(steps):
        for ch, p in step.items():
            out[t, 0 if ch == "" else ALPHABET.index(ch) + 1] = p
    return out / out.sum(axis=1, keepdims=True)


def test_ctc_likelihood_sums_every_alignment():
    p = np.array([[0.2, 0.7, 0.1], [0.5, 0.4, 0.1]])
    # 'a' (class 1) over two steps: 'aa', 'a-', '-a'
    want = 0.7 * 0.4 + 0.7 * 0.5 + 0.2 * 0.4
    assert math.isclose(ctc_log_likelihood(p, [1]), math.log(want), rel_tol=1e-6)
    # a doubled label needs a blank between its two: 'aa' as a word cannot be read from two steps
    assert ctc_log_likelihood(p, [1, 1]) < math.log(1e-9)
    # run together, candidates of other lengths give each its own likelihood
    both = ctc_log_likelihoods(p, [[1], [2], [1, 2]])
    assert math.isclose(both[0], math.log(want), rel_tol=1e-6)
    assert math.isclose(both[2], math.log(0.7 * 0.1), rel_tol=1e-6)


def test_a_known_word_about_as_likely_as_the_reading_replaces_it():
    # 'emall' read surely but for its fourth glyph, where the recogniser gave the 'i' a share
    steps = [{"e": 0.95}, {"": 0.9}, {"m": 0.95}, {"": 0.9}, {"a": 0.95}, {"": 0.9},
             {"l": 0.7, "i": 0.25}, {"": 0.9}, {"l": 0.95}, {"": 0.9}]
    assert "email" in lexicon_neighbours("emall")
    assert mend_line("emall", [lambda: _probs(steps)], _labels) == "email"


def test_a_name_the_lexicon_lacks_keeps_its_sure_reading():
    # 'kubelet' read surely: no known word near it is nearly as likely
    steps = [s for ch in "kubelet" for s in ({ch: 0.97}, {"": 0.97})]
    assert mend_line("kubelet", [lambda: _probs(steps)], _labels) == "kubelet"


def test_a_column_screenshots_dotted_i_is_read():
    words = svg_word_list(convert(FIXTURE, name="flowchart_column_dotted_i").svg)
    # (its lone 'Cllent' stays: at 1× the recogniser is sure of both l's)
    for word in ("email", "session", "driver", "train"):
        assert word in words, (word, words)


def test_a_page_of_small_print_weighs_its_lines_on_a_bounded_number_of_recogniser_calls(monkeypatch):
    """Each crop weighed is a recogniser call of its own: a page of 200 small lines had made 446 (9 CPU-s);
    past :data:`MEND_CALLS` the lines keep their reading, the first ones still mended."""
    from types import SimpleNamespace

    from crafteditor.ocr import small_lexicon

    steps = [{"e": 0.95}, {"": 0.9}, {"m": 0.95}, {"": 0.9}, {"a": 0.95}, {"": 0.9},
             {"l": 0.7, "i": 0.25}, {"": 0.9}, {"l": 0.95}, {"": 0.9}]
    calls = []

    def probs_of(crop: np.ndarray) -> np.ndarray:
        calls.append(crop.shape)
        return _probs(steps)

    crop = np.zeros((5, 30, 3), np.uint8)
    monkeypatch.setattr(small_lexicon, "working_size_crop", lambda region, line, bg, k: (crop, 0.0, k))
    line = SimpleNamespace(vertical=False, mask=np.zeros((5, 30), bool))
    jobs = [(np.zeros(3), [(crop, None)], None, line, crop) for _ in range(100)]
    readings = [("emall", 0.5, [float(i) for i in range(5)]) for _ in jobs]
    out = small_lexicon.mend_small_print(jobs, readings, probs_of, _labels)
    assert len(calls) < small_lexicon.MEND_CALLS + len(small_lexicon.WORKING_SCALES) + 1
    assert out[0][0] == "email" and out[-1][0] == "emall"


def test_software_words_the_encoder_vocabulary_lacks_are_known():
    """'retry', 'upload', 'schema', 'parse', 'login' (common in software diagrams, no whole words of the encoder's
    WordPiece vocabulary) are in the lexicon from ``software_words.txt``: a reading 'upload' is kept even
    where the recogniser finds 'upland' likelier (before, it was mended to 'upland'),
    and 'schena' (an 'm' read 'n') comes back 'schema'."""
    from crafteditor.ocr.lexicon import SOFTWARE_WORDS, encoder_words, lexicon

    extra = SOFTWARE_WORDS.read_text().split()
    assert {"retry", "upload", "schema", "parse", "login"} <= lexicon()
    assert all(w.isascii() and w.isalpha() and w.islower() and len(w) >= 5 for w in extra)
    assert not set(extra) & encoder_words()
    upload = [{"u": 0.97}, {"": 0.9}, {"p": 0.97}, {"": 0.9}, {"l": 0.97}, {"": 0.9}, {"a": 0.6, "o": 0.35},
              {"": 0.9}, {"n": 0.6, "a": 0.35}, {"": 0.9}, {"d": 0.97}, {"": 0.9}]
    assert mend_line("upload", [lambda: _probs(upload)], _labels) == "upload"
    schena = [s for ch in "sche" for s in ({ch: 0.97}, {"": 0.9})]
    schena += [{"n": 0.6, "m": 0.35}, {"": 0.9}, {"a": 0.97}]
    assert mend_line("schena", [lambda: _probs(schena)], _labels) == "schema"


def test_small_print_is_weighed_on_the_recognisers_outputs_it_had_already(monkeypatch):
    """The lexicon weighs a line on the crops the first reading and the re-read at working sizes ran the recogniser
    on already (the page's :class:`~crafteditor.ocr.engine.ProbsMemo`, the re-read's cuts): the same runs for fewer
    recogniser calls than when it ran the recogniser on each of them again."""
    import cv2

    from crafteditor.config import Config
    from crafteditor.ocr import read
    from crafteditor.ocr.engine import get_engine
    from crafteditor.paint import find_paints

    config = Config()
    rgb = cv2.cvtColor(cv2.imread(str(FIXTURE)), cv2.COLOR_BGR2RGB)
    paints = find_paints(rgb, config)
    recognizer = get_engine(config.ocr_threads).recognizer
    session, calls = recognizer.session, []

    def counted(x):
        calls.append(x.shape)
        return session(x)

    monkeypatch.setattr(recognizer, "session", counted)

    def runs() -> tuple[list, int]:
        calls.clear()
        out = read.read_text(rgb, paints, config)
        return [(r.text, r.x, r.y, r.confidence) for r in out], len(calls)

    shared, shared_calls = runs()
    mend = read.mend_small_print
    monkeypatch.setattr(read, "ProbsMemo", lambda latin_mask: None)
    monkeypatch.setattr(read, "mend_small_print", lambda *args: mend(*args[:5]))
    again, again_calls = runs()
    assert shared == again
    assert shared_calls < again_calls
