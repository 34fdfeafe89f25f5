"""Small pieces: number parsing, axis calibration, path translation, quality metrics, OCR spacing."""

import math

import cv2
import numpy as np
import pytest

from crafteditor.charts.axes import fit_axis
from crafteditor.charts.numbers import parse_number
from crafteditor.quality import ssim, svg_element_count
from crafteditor.trace import absolute_path


@pytest.mark.parametrize("text,value", [("10", 10.0), ("−2.5", -2.5), ("1,000", 1000.0), ("45%", 45.0),
                                        ("1e-3", 0.001), ("2k", 2000.0), ("ResNet", None), ("", None)])
def test_parse_number(text, value):
    assert parse_number(text) == value


def test_linear_and_log_axes_are_told_apart():
    lin = fit_axis([(400, "0"), (300, "10"), (200, "20"), (100, "30")])
    assert not lin.log and lin.value(250) == pytest.approx(15)
    log = fit_axis([(400, "1"), (300, "10"), (200, "100"), (100, "1000")])
    assert log.log and log.value(250) == pytest.approx(10 ** 1.5)
    sup = fit_axis([(400, "100"), (300, "101"), (200, "102")])  # 10⁰ 10¹ 10² read without superscripts
    assert sup.log and sup.value(200) == pytest.approx(100)


def test_vtracer_paths_are_made_absolute():
    assert absolute_path("M0 0 C1 2 3 4 5 6 Z", 10, 20, 0.5) == "M 5 10 C 5.5 11 6.5 12 7.5 13 Z"
    assert absolute_path("m0 0 l1 1", 0, 0, 1) is None


def test_quality_metrics():
    a = np.random.RandomState(0).randint(0, 255, (40, 50, 3)).astype(np.uint8)
    assert ssim(a, a) == pytest.approx(1.0)
    assert svg_element_count('<svg><metadata><rect/></metadata><g><rect/><text>x</text><path d=""/></g></svg>') == 3


def test_word_spaces_are_restored_from_ink_gaps():
    from crafteditor.ocr.corrections import restore_spaces

    # three letters, a wide gap, two letters: the recogniser dropped the space
    cols = np.zeros((10, 60), bool)
    for x0 in (0, 8, 16, 36, 44):
        cols[:, x0:x0 + 6] = True
    centres = [3.0, 11.0, 19.0, 39.0, 47.0]
    assert restore_spaces("abcde", centres, cols, 0, font_px=14.0) == "abc de"
    assert not math.isnan(centres[0])


def test_a_numbers_digits_stay_one_word():
    """A '1' is narrow ink in a digit's whole advance: '100' had come back '1 00', 'GM12878' 'GM 1 2878'
    (issue 31). Numbers a line holds apart, an em or more, stay apart."""
    from crafteditor.ocr.corrections import restore_spaces

    cols = np.zeros((10, 80), bool)
    for x0, w in ((0, 2), (8, 6), (16, 6), (36, 6), (44, 6)):  # '1', '0', '0', a wide gap, '5', '0'
        cols[:, x0:x0 + w] = True
    assert restore_spaces("10050", [1.0, 11.0, 19.0, 39.0, 47.0], cols, 0, font_px=14.0) == "100 50"
    # a point the recogniser dropped between two digits keeps its space: the charts read '2 5' back as 2.5
    glyphs = np.zeros((10, 30), bool)
    glyphs[:, 0:6] = glyphs[:, 12:18] = True
    assert restore_spaces("25", [3.0, 15.0], glyphs, 0, font_px=14.0) == "25"
    ink = glyphs.copy()
    ink[8:10, 8:10] = True  # the point: too small for the glyph mask, ink all the same
    assert restore_spaces("25", [3.0, 15.0], glyphs, 0, font_px=14.0, ink=ink) == "2 5"


def test_dashes_are_told_apart_by_ink_width():
    from crafteditor.ocr.corrections import restore_dashes

    # '1', a bar, '2' at a 20 px font: the bar's width decides which dash the recogniser's '-' was
    font_px = 20.0

    def read(bar_px: int) -> str:
        mask = np.zeros((16, 60), bool)
        mask[:, 0:4] = True  # the digit strokes
        mask[:, 52:56] = True
        mask[7:9, 10:10 + bar_px] = True
        return restore_dashes("1-2", [2.0, 10 + bar_px / 2, 54.0], mask, 0, font_px)

    assert read(5) == "1-2"  # hyphen: 0.26 em
    assert read(8) == "1–2"  # en dash: 0.40 em
    assert read(13) == "1−2"  # minus: 0.63 em
    assert read(18) == "1—2"  # em dash: 0.90 em


def test_en_dash_survives_ocr():
    from crafteditor import Config, vectorize
    from crafter.formats import figure_to_png_bytes
    from crafter.spec import Figure

    fig = Figure.model_validate({"canvas": {"w": 360, "h": 80}, "components": [
        {"id": "a", "kind": "text", "text": "stages 1–2", "at": {"x": 20, "y": 30}, "font_size": 14},
        {"id": "b", "kind": "text", "text": "Data-parallel", "at": {"x": 180, "y": 30}, "font_size": 14},
    ]})
    got = vectorize(figure_to_png_bytes(fig, 150), Config(charts=False)).figure
    words = " ".join(t.text for t in got.of_kind("text")).split()
    assert "1–2" in words and "Data-parallel" in words


def test_a_line_drawn_through_a_label_leaves_the_glyphs_it_touches():
    from crafteditor.ocr.text_lines import glyph_mask

    # a label's box: three glyph blobs, the middle two touching a 2 px vertical line that
    # crosses the whole box (an arrow through a group's title)
    region = np.full((20, 60, 3), 255, np.uint8)
    for x0 in (5, 20, 29):
        region[6:14, x0:x0 + 7] = 0
    region[:, 27:29] = 0  # the line touches the blobs at 20..27 and 29..36
    mask, line = glyph_mask(region, np.array([255, 255, 255], np.uint8))
    assert mask[6:14, 5:12].all()  # a glyph away from the line, as before
    assert mask[6:14, 20:27].all() and mask[6:14, 29:36].all()  # the glyphs on the line are kept
    assert not mask[:, 27:29].any() and line[:, 27:29].all()  # the line is not text


def test_text_detection_matches_rapidocrs_own_call(golden):
    """detect() prepares the detector's input itself (float32 normalisation into NCHW): the
    same boxes as rapidocr's own call on the same session."""
    from crafteditor.loading import load_image
    from crafteditor.ocr.engine import get_engine

    engine = get_engine()
    rgb = load_image(golden["diagram_150"][0]).rgb
    bgr = np.ascontiguousarray(rgb[:, :, ::-1])
    ours = engine.detect(bgr, limit_side=736)
    engine.detector.limit_side_len = 736
    theirs, _ = engine.detector(bgr)
    assert len(ours) == len(theirs) > 3
    key = lambda q: (round(float(q[:, 1].min())), round(float(q[:, 0].min())))  # noqa: E731
    for a, b in zip(sorted(ours, key=key), sorted(theirs, key=key)):
        assert np.abs(a - np.asarray(b, np.float32)).max() <= 1.0


def _run(text, glyphs, y=100.0):
    from crafteditor.ocr.runs import TextRun

    h, w = glyphs.shape
    return TextRun(text=text, x=50.0, y=y, w=float(w), h=float(h), angle=0, font_px=14.0, bold=False,
                   color=(0, 0, 0), confidence=0.9, baseline=y + h, glyphs=glyphs)


def test_a_raised_small_exponent_is_a_power_of_ten():
    """matplotlib's log labels '10³' read '103', also a plausible linear label: the glyphs decide."""
    from crafteditor.charts.axes import y_tick

    sup = np.zeros((20, 30), bool)
    sup[5:20, 1:3] = True  # '1'
    sup[5:20, 6:14] = True  # '0' (a block will do)
    sup[0:9, 17:22] = True  # the exponent: small and raised
    px, text = y_tick(_run("103", sup))
    assert text == "1e3" and parse_number(text) == 1000.0
    assert px == pytest.approx(100 + 12.5)  # the centre of the base '10', not of the ink box
    flat = np.zeros((15, 30), bool)
    for x0 in (1, 11, 21):  # three digits on one baseline
        flat[:, x0:x0 + 7] = True
    assert y_tick(_run("103", flat)) == (100 + 7.5, "103")


def test_a_log_axis_labelled_with_powers_of_ten_is_read():
    """A generated log chart labelled 10¹ 10² 10³ had come back as a linear axis from 101 to 103
    (values within 2%: 7%)."""
    from crafteditor import Config, convert
    from crafteditor.scoring import score_chart
    from crafteditor.synthetic import random_chart

    png, truth = random_chart(2011, 150)
    assert truth.log_y
    conv = convert(png, Config.preset("chart"))
    spec = conv.figure.of_kind("chart")[0].spec
    assert spec["encoding"]["y"]["scale"]["type"] == "log"
    assert score_chart(conv.figure, truth)["within_2pct"] >= 0.95
    # the series keep the legend's order (val, baseline, train), not the paints' commonness
    assert spec["encoding"]["color"]["scale"]["domain"] == list(truth.series)


def test_letters_of_one_shape_take_their_case_from_their_height():
    """c o s v w x z differ between cases only in size: a 100 dpi 'ViT' read 'viT'. Against the
    line's own capitals, a v as tall as the T is V; a glyph that touches its neighbour (italic
    'ts') is not measured (it had made 'gradientS')."""
    from crafteditor.ocr.corrections import restore_case

    m = np.zeros((20, 40), bool)
    m[2:20, 2:10] = True  # 'v' drawn cap-tall
    m[8:20, 14:16] = True  # 'i' (short stem; its dot left out)
    m[2:20, 22:30] = True  # 'T'
    assert restore_case("viT", [6.0, 15.0, 26.0], m, 0) == "ViT"
    short = np.zeros((20, 40), bool)
    short[8:20, 2:10] = True  # an x-height 'V'
    short[2:20, 14:16] = True  # 'l'
    short[8:20, 20:28] = True  # 'a'
    assert restore_case("Vla", [6.0, 15.0, 24.0], short, 0) == "vla"
    merged = np.zeros((20, 40), bool)
    merged[2:20, 2:6] = True  # 't'
    merged[8:20, 6:14] = True  # 's' touching it: one component holding both centres
    merged[2:20, 20:28] = True  # 'T'
    assert restore_case("tsT", [4.0, 10.0, 24.0], merged, 0) == "tsT"


def test_a_tick_stub_read_as_a_quote_is_dropped_and_a_real_quote_kept():
    """'ResNet'' came from the stub of an axis tick by a bmh chart's frame (a 1×2 px bar in the
    middle of the line); an apostrophe's ink is taller, and starts in the line's top third."""
    from crafteditor.ocr.corrections import drop_stray_quote
    from crafteditor.ocr.text_lines import TextLine

    mask = np.zeros((15, 40), bool)
    mask[0:15, 0:8] = True  # a letter
    mask[4:15, 12:20] = True  # another
    stub = mask.copy()
    stub[6:8, 30] = True
    crop = np.zeros((23, 48, 3), np.uint8)  # 4 px of padding around the mask
    text, centres, line = drop_stray_quote("Ab'", [8.0, 20.0, 34.5], crop, TextLine(stub, 3, 5, False))
    assert text == "Ab" and centres == [8.0, 20.0] and line.mask.shape == (15, 20) and line.x0 == 5
    quote = mask.copy()
    quote[0:4, 30] = True  # an apostrophe: 0.27 em tall, at the top
    text, centres, line = drop_stray_quote("Ab'", [8.0, 20.0, 34.5], crop, TextLine(quote, 3, 5, False))
    assert text == "Ab'" and line.mask.shape == (15, 40)


def test_blobs_are_opencvs_default_labelling():
    """find_blobs names a faster scan; labels, stats and centroids are OpenCV's default ones."""
    from crafteditor.blobs import find_blobs

    rng = np.random.default_rng(7)
    masks = [rng.random((int(rng.integers(2, 80)), int(rng.integers(2, 80)))) < rng.uniform(0.05, 0.7)
             for _ in range(300)]
    masks.append(np.zeros((5, 5), bool))
    for m in masks:
        want = cv2.connectedComponentsWithStats(m.astype(np.uint8), connectivity=8)
        got = find_blobs(m)
        assert got[0] == want[0] and np.array_equal(got[1], want[1]) and np.array_equal(got[2], want[2])
        assert np.allclose(got[3][1:], want[3][1:])


def test_blobs_of_sparse_ink_in_a_large_mask_are_opencvs():
    """Ink in a small part of a large mask is scanned in its box alone: labels (in OpenCV's order),
    stats and centroids, the background's row too, are exactly those of the whole mask's scan."""
    from crafteditor.blobs import find_blobs

    rng = np.random.default_rng(11)
    for t in range(200):
        h, w = (int(v) for v in rng.integers(64, 600, 2))
        m = np.zeros((h, w), bool)
        for _ in range(int(rng.integers(0, 6))):
            y, x = int(rng.integers(0, h)), int(rng.integers(0, w))
            bh, bw = int(rng.integers(1, h // 3)), int(rng.integers(1, w // 3))
            m[y:y + bh, x:x + bw] |= rng.random((min(bh, h - y), min(bw, w - x))) < rng.choice([0.1, 0.4, 1.0])
        if t % 7 == 0:  # ink on the edges: the box spans the mask one way
            m[:, int(rng.integers(0, w))] = True
        want = cv2.connectedComponentsWithStatsWithAlgorithm(m.astype(np.uint8), 8, cv2.CV_32S, cv2.CCL_BBDT)
        got = find_blobs(m)
        assert got[0] == want[0]
        for g, x in zip(got[1:], want[1:]):
            assert g.dtype == x.dtype and np.array_equal(g, x)


def test_long_runs_are_the_opening_by_a_line():
    """charts.strokes._long_runs opens only the rows (columns) that can hold a long run: the mask
    is OpenCV's opening by a 1×L (L×1) line, short runs at the image's edge included."""
    from crafteditor.charts.strokes import _long_runs

    rng = np.random.default_rng(3)
    for _ in range(300):
        h, w = (int(v) for v in rng.integers(1, 120, 2))
        length = int(rng.integers(1, 60))
        m = rng.random((h, w)) < rng.uniform(0.3, 0.99)
        for horizontal in (True, False):
            line = np.ones((1, length) if horizontal else (length, 1), np.uint8)
            want = cv2.morphologyEx(m.astype(np.uint8), cv2.MORPH_OPEN, line)
            assert np.array_equal(_long_runs(m, horizontal, length), want)


def _line_mask(text: str, bold: bool, px: int = 16):
    from matplotlib import font_manager
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.truetype(font_manager.findfont(font_manager.FontProperties(
        family="DejaVu Sans", weight="bold" if bold else "normal")), px)
    w = int(font.getlength(text)) + 8
    im = Image.new("L", (w, 2 * px), 0)
    ImageDraw.Draw(im).text((4, px // 3), text, fill=255, font=font)
    centres = [4 + font.getlength(text[:i]) + font.getlength(ch) / 2 for i, ch in enumerate(text)]
    return np.asarray(im) > 100, centres


@pytest.mark.parametrize("bold", [False, True])
def test_a_zero_read_as_the_letter_o_is_a_zero(bold):
    """'Node O (NVLink)': an O standing alone or among digits whose glyph is a zero's is 0; a
    round O stays, and a word's O is never looked at."""
    from crafteditor.ocr.corrections import restore_zeros

    for drawn, read, want in (("Node 0 (NV)", "Node O (NV)", "Node 0 (NV)"), ("1.05", "1.O5", "1.05"),
                              ("Node O (NV)", "Node O (NV)", "Node O (NV)"), ("O(n) 0", "O(n) O", "O(n) 0"),
                              ("BOX 0", "BOX O", "BOX 0")):
        mask, centres = _line_mask(drawn, bold)
        assert restore_zeros(read, centres, mask, 0, 16.0) == want, (drawn, read)


def test_a_box_corner_read_as_a_last_l_is_dropped():
    """A stub of a box's corner at the top of a word's line, read as its last letter ('challengel';
    issue 31), goes; a real last 'l', a stem most of the line tall, stays."""
    from crafteditor.ocr.corrections import drop_stray_quote
    from crafteditor.ocr.text_lines import TextLine

    mask = np.zeros((20, 60), bool)
    for x0 in (0, 10, 20, 30, 40):  # five letters, x-height
        mask[6:16, x0:x0 + 6] = True
    stub = mask.copy()
    stub[0:5, 52:54] = True
    stem = mask.copy()
    stem[1:16, 52:54] = True
    crop = np.zeros((26, 66, 3), np.uint8)  # 3 px of padding around the mask
    centres = [6.0, 16.0, 26.0, 36.0, 46.0, 56.0]
    text, _, line = drop_stray_quote("chaill", centres, crop, TextLine(stub, 0, 0, False))
    assert text == "chail" and line.mask.shape[1] == 46
    assert drop_stray_quote("chaill", centres, crop, TextLine(stem, 0, 0, False))[0] == "chaill"
