"""A label's first or last letter that its line's crop left out is read with its word (issue 31):
a letter a connector runs into ('Level' read 'evel' under a Mermaid link, 'Transform' read 'Transfo'
under a curved arrow), or one touching a shape of another colour ('Sunny' beside a pie's wedge).
Crops of dev figures (tests/crafteditor/crops/README.md)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

pytest.importorskip("rapidocr_onnxruntime")

from crafteditor.config import Config  # noqa: E402
from crafteditor.ocr import run_ends  # noqa: E402
from crafteditor.ocr.read import read_text  # noqa: E402
from crafteditor.ocr.run_ends import _unworded, whole_words  # noqa: E402
from crafteditor.ocr.runs import TextRun  # noqa: E402
from crafteditor.paint import find_paints  # noqa: E402

CROPS = Path(__file__).parent / "crops"


def _read(name: str) -> list[str]:
    rgb = np.asarray(Image.open(CROPS / name).convert("RGB")).copy()
    return [r.text for r in read_text(rgb, find_paints(rgb, Config()), Config())]


@pytest.mark.parametrize("name,label", [
    ("clem_level_title.png", "Level 3: Global Learning"),  # a link ends at the L
    ("tf_pipeline_transform.png", "Transform"),  # a curved arrow leaves the 'rm'
    ("vl_pie_pyramid.png", "Sunny side of a pyramid"),  # the S touches the blue wedge
])
def test_end_letter_touched_by_a_stroke_is_read_with_its_word(name, label):
    assert label in _read(name)


def test_a_known_word_is_not_grown_into_an_unknown_one():
    # a connector's end beside 'challenge' had been read 'Tchallenge' (an Excalidraw pool diagram)
    assert _unworded("challenge", "Tchallenge")
    assert _unworded("Upload images", "I Upload images")  # an icon's stroke read as a word of its own
    assert _unworded("T1 fired", "iT1 fired")
    assert _unworded("Upload images", "1Upload images")
    assert _unworded("Upload images", "I_Upload images")  # a stroke before a capital read as a small letter
    assert not _unworded("Transfo", "Transform")
    assert not _unworded("evel 3: Global Learning", "Level 3: Global Learning")


def test_both_ends_grown_are_each_checked_for_case():
    assert _unworded("Kafka", "iKafkaX")  # a stroke read at each end of one word
    assert _unworded("Kafka", "iKafka") and _unworded("Kafka", "KafkaX")
    assert not _unworded("ransfo", "Transform")


def test_a_capital_grown_before_a_capitalised_word_makes_it_all_capitals_or_is_refused():
    assert _unworded("Kafka", "DKafka")  # an arrowhead read as D
    assert _unworded("Kafka streams", "DKafka streams")
    assert not _unworded("AFKA", "KAFKA") and not _unworded("PI", "API")


def _bars(rgb: np.ndarray, cols) -> None:
    for c in cols:
        rgb[12:22, c] = 0


def _run(text: str, x: int, w: int, rgb: np.ndarray) -> TextRun:
    glyphs = (rgb[11:23, x:x + w] < 128).any(axis=2)
    return TextRun(text, float(x), 11.0, float(w), 12.0, 0.0, 10.0, False, (0, 0, 0), 0.95, 22.0, glyphs)


def _growths(runs, rgb, monkeypatch) -> list[tuple[str, int, int]]:
    seen = []

    def read(r, rgb, lo, hi, *rest):
        seen.append((r.text, lo, hi))
        return replace(r, x=float(lo), w=float(hi - lo))
    monkeypatch.setattr(run_ends, "_read_grown", read)
    whole_words(runs, rgb, None)
    return seen


def test_a_missed_letter_between_two_runs_goes_to_one_of_them(monkeypatch):
    rgb = np.full((34, 100, 3), 255, np.uint8)
    _bars(rgb, [*range(40, 43), *range(44, 47), *range(49, 50), *range(52, 55), *range(57, 60), *range(61, 64)])
    a, b = _run("ab", 40, 10, rgb), _run("cd", 57, 7, rgb)  # the letter at 52..54 between them is in neither
    grown = _growths([a, b], rgb, monkeypatch)
    assert [t for t, lo, hi in grown if lo <= 52 < hi] == ["ab"]  # 'cd' stops at the grown 'ab'


def test_no_gap_as_wide_as_the_runs_own_word_space_is_bridged(monkeypatch):
    rgb = np.full((34, 100, 3), 255, np.uint8)
    _bars(rgb, [*range(20, 23), 24, *range(27, 30), 31, *range(34, 36)])  # 'ab c' with a 2 px word space
    run = _run("ab c", 20, 12, rgb)  # the 'd' at 34..35, past a 2 px gap, is a word of its own
    assert _growths([run], rgb, monkeypatch) == []


def test_a_number_never_grows_and_a_word_grows_only_by_letters():
    """A log tick '10' whose raised exponent joins the re-read ('102'), or two bar labels read as one
    taking a neighbour's digit ('8378' -> '68378'), are no lost end letters: the chart's numbers stay."""
    from crafteditor.ocr.run_ends import _grown_letters

    assert not _grown_letters("10", "102")
    assert not _grown_letters("8378", "68378")
    assert not _grown_letters("Step", "Step2")
    assert _grown_letters("evel", "Level")
    assert _grown_letters("Transfo", "Transform")


def _engine_reader():
    from crafteditor.ocr.engine import REC_WORD_WIDTH, get_engine

    engine = get_engine(Config().ocr_threads)
    return lambda c: engine.recognize([c], True, REC_WORD_WIDTH)[0]


def test_a_subscript_t_the_box_cut_off_under_a_short_run_is_read_with_it():
    """d2l's LSTM draws its states as a bold capital with an italic subscript t hanging under the capital's
    bottom (H_t); the detector boxed the H alone and the t was lost ('H'). The rows are taken lower for a
    short run whose right end has such hanging ink, and the t the recogniser reads as a comma is put right."""
    rgb = np.asarray(Image.open(CROPS / "d2l_lstm_hidden_ht.png").convert("RGB")).copy()
    x, y, w, h = 129, 30, 23, 21  # the bold H alone, as the detector boxed it in the whole figure
    glyphs = (rgb[y:y + h, x:x + w] < 128).any(axis=2)
    run = TextRun("H", float(x), float(y), float(w), float(h), 0.0, 28.2, True, (0, 0, 0), 0.99, float(y + h), glyphs)
    assert run_ends._hangs_right(run, rgb)
    (grown,) = whole_words([run], rgb, _engine_reader())
    assert grown.text == "Ht"


def test_ink_on_the_runs_own_rows_past_its_end_is_no_hanging_script():
    rgb = np.full((34, 100, 3), 255, np.uint8)
    _bars(rgb, [*range(20, 23), *range(24, 27)])
    rgb[12:22, 29:31] = 0  # a next letter on the run's rows: not under them
    assert not run_ends._hangs_right(_run("ab", 20, 7, rgb), rgb)
    rgb = np.full((34, 100, 3), 255, np.uint8)
    _bars(rgb, [*range(20, 23), *range(24, 27)])
    rgb[18:26, 29:31] = 0  # a stroke from inside the rows on down under them, script-sized: a hanging t
    assert run_ends._hangs_right(_run("ab", 20, 7, rgb), rgb)
    assert not run_ends._hangs_right(_run("12", 20, 7, rgb), rgb)  # a number takes no subscript letter here
