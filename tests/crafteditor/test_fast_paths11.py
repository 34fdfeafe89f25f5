"""Round 11's speed-ups of issue 31 change no reading: a sequence diagram's ink under its bands, a
script minus put back, the pixels leftovers are traced from, each exactly what the plain code gave."""

from __future__ import annotations

import cv2
import numpy as np

from crafteditor.assemble.seq_ink import BAND, INK, NEAR, SHARE, ink_mask
from crafteditor.blobs import find_blobs
from crafteditor.ocr.corrections import SCRIPT_GAP, restore_script_minus
from crafteditor.paint import farther_than
from crafteditor.vectorizer import _trace_source


def _plain_ink_mask(rgb: np.ndarray, background: tuple[int, int, int]) -> np.ndarray:
    """seq_ink.ink_mask as it was: the fills' colours counted before the broad pieces were looked for."""
    ink = farther_than(rgb, background, INK)
    solid = cv2.morphologyEx(ink.astype(np.uint8), cv2.MORPH_OPEN, np.ones((BAND, BAND), np.uint8)) > 0
    n = int(solid.sum())
    if n < BAND * BAND * 4:
        return ink
    px = np.ascontiguousarray(rgb[:, :, :3])[solid].astype(np.int32)
    colours, counts = np.unique((px[:, 0] << 16) | (px[:, 1] << 8) | px[:, 2], return_counts=True)
    paper = np.zeros_like(ink)
    top = np.argsort(-counts)[:6]
    for c in colours[top][counts[top] >= SHARE * n]:
        paper |= ~farther_than(rgb, (int(c) >> 16 & 255, int(c) >> 8 & 255, int(c) & 255), NEAR, within=solid) & solid
    n, labels, stats, _ = cv2.connectedComponentsWithStats(solid.astype(np.uint8), connectivity=8)
    broad = (stats[:, cv2.CC_STAT_WIDTH] >= 4 * BAND) & (stats[:, cv2.CC_STAT_HEIGHT] >= 8 * BAND)
    broad[0] = False
    if not broad.any():
        return ink
    return ink & ~(paper & broad[labels])


def _sequence_page(seed: int, band: bool) -> np.ndarray:
    """Lifelines, messages, boxes and notes (and, with ``band``, a tall pale band behind two lifelines)."""
    rng = np.random.default_rng(seed)
    rgb = np.full((420, 360, 3), 255, np.uint8)
    if band:
        rgb[30:400, 40:200] = (230, 236, 250)
    for x in (80, 160, 280):
        rgb[20:60, x - 30:x + 30] = (40, 40, 40)
        rgb[22:58, x - 28:x + 28] = (250, 245, 200)
        rgb[60:400, x] = (90, 90, 90)
    for y in rng.integers(80, 380, 5):
        rgb[y, 80:280] = (20, 20, 20)
    y, x = rng.integers(100, 300), rng.integers(200, 300)
    rgb[y:y + 40, x:x + 50] = (255, 220, 220)  # a note: a fill, not a band
    return rgb


def test_sequence_ink_under_bands_is_the_plain_readings():
    for seed in range(3):
        for band in (True, False):
            rgb = _sequence_page(seed, band)
            want = _plain_ink_mask(rgb, (255, 255, 255))
            got = ink_mask(rgb, (255, 255, 255))
            assert got.dtype == want.dtype and np.array_equal(got, want)
            # a Fortran-ordered (transposed) image reads the same: no write lost in a copy
            assert np.array_equal(ink_mask(np.asfortranarray(rgb), (255, 255, 255)), want)
    blank = np.full((60, 60, 3), 255, np.uint8)
    assert not ink_mask(blank, (255, 255, 255)).any()


def _plain_script_minus(text, centres, upright, pad, font_px):
    """corrections.restore_script_minus as it was: each character's glyph found by a list over the glyphs."""
    if len(centres) != len(text) or len(text) < 3 or font_px < 6:
        return text, centres
    n, _, stats = find_blobs(upright)[:3]
    if n < 4:
        return text, centres
    xs = [c - pad for c in centres]

    def glyph_at(cx):
        hit = [k for k in range(1, n) if stats[k, 0] - 1 <= cx <= stats[k, 0] + stats[k, 2] + 1]
        return max(hit, key=lambda k: stats[k, 3]) if hit else None

    for i in range(1, len(text)):
        j = i + 1 if text[i] == " " else i
        if j >= len(text) or not text[i - 1].isalnum() or not text[j].isalnum():
            continue
        a, b = glyph_at(xs[i - 1]), glyph_at(xs[j])
        if a is None or b is None or a == b:
            continue
        left, right = stats[a, 0] + stats[a, 2], stats[b, 0]
        if right - left > (SCRIPT_GAP if j > i else 2 * SCRIPT_GAP) * font_px:
            continue
        for k in range(1, n):
            x, y, w, h, _ = stats[k]
            mid = y + h / 2
            if left - 1 <= x and x + w <= right + 1 and w >= max(1.5 * h, 3, 0.2 * font_px) and h <= 0.2 * font_px + 2 \
                    and max(stats[a, 1], stats[b, 1]) <= mid <= min(stats[a, 1] + stats[a, 3], stats[b, 1] + stats[b, 3]):
                return _plain_script_minus(text[:i] + "-" + text[j:], [*centres[:i], x + w / 2 + pad, *centres[j:]],
                                           upright, pad, font_px)
    return text, centres


def test_a_script_minus_is_put_back_as_the_plain_search_put_it():
    # TeX's h_{t-1}: 'h', a subscript 't', a bar and a '1', read 'ht1' or 'ht 1'; glyphs of equal height
    # side by side, overlapping columns and stray specks make the lookups tie and miss
    rng = np.random.default_rng(7)
    put_back = 0
    for trial in range(60):
        m = np.zeros((24, 70), np.uint8)
        m[2:20, 2:10] = 1  # h
        m[8:20, 13:18] = 1  # t
        bar = trial % 3 != 0
        if bar:
            m[13:15, 20:26] = 1  # the minus
        m[8:20, 28:32] = 1  # 1
        for _ in range(int(rng.integers(0, 4))):
            y, x = rng.integers(0, 22), rng.integers(0, 68)
            m[y:y + 2, x:x + int(rng.integers(1, 4))] = 1
        text = "ht 1" if trial % 2 else "ht1"
        centres = [6.0, 15.5, 24.0, 30.0] if len(text) == 4 else [6.0, 15.5, 30.0]
        centres = [c + float(rng.normal(0, 1.5)) for c in centres]
        pad = int(rng.integers(0, 3))
        want = _plain_script_minus(text, [c + pad for c in centres], m, pad, 20.0)
        got = restore_script_minus(text, [c + pad for c in centres], m, pad, 20.0)
        assert got == want
        put_back += "-" in got[0]
    assert put_back >= 10  # the minus was found, not only missed the same way


def test_the_traced_pixels_are_np_where_s():
    rng = np.random.default_rng(3)
    decoded = rng.integers(0, 256, (90, 120, 3), dtype=np.uint8)
    erased = decoded.copy()
    erased[20:50, 30:90] = 255
    text_ink = np.zeros((90, 120), bool)
    text_ink[25:40, 35:80:3] = True
    near = cv2.dilate(text_ink.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
    want = np.where(near[..., None], erased, decoded)
    got = _trace_source(decoded, erased, text_ink)
    assert got.dtype == want.dtype and np.array_equal(got, want)
    assert got is not decoded and np.array_equal(decoded[25, 35], decoded[25, 35])
    assert _trace_source(decoded, erased, np.zeros((90, 120), bool)) is decoded
    strided = decoded[:, ::-1]  # a view, not C-ordered
    assert np.array_equal(_trace_source(strided, erased, text_ink), np.where(near[..., None], erased, strided))


def test_sketch_ink_is_the_plain_colour_by_colour_narrowing():
    from crafteditor.config import Config
    from crafteditor.paint import find_paints
    from crafteditor.shapes.sketch import INK_CONTRAST, _surfaces, sketch_ink

    rgb = np.full((160, 200, 3), 255, np.uint8)
    rgb[20:90, 20:120] = (200, 220, 250)  # a pastel fill
    rgb[100:150, 60:180] = (235, 235, 235)  # a pale grey one
    cv2.rectangle(rgb, (20, 20), (120, 90), (60, 60, 60), 2)
    cv2.line(rgb, (10, 150), (190, 100), (120, 120, 120), 1, cv2.LINE_AA)
    paints = find_paints(rgb, Config())
    assert len(_surfaces(paints)) == 3
    plain = np.ones(rgb.shape[:2], bool)
    for colour in _surfaces(paints):
        plain &= farther_than(rgb, colour, INK_CONTRAST, within=plain)
    assert np.array_equal(sketch_ink(rgb, paints), plain)
    exclude = np.zeros(rgb.shape[:2], bool)
    exclude[:, :50] = True
    assert np.array_equal(sketch_ink(rgb, paints, exclude), plain & ~exclude)


def _plain_blended_share(px: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """photos._blended_share as it was: the sorted codes and their counts found again."""
    n = codes.shape[1]
    order = np.sort(codes, axis=1)
    change = np.concatenate([np.ones((len(codes), 1), bool), np.diff(order, axis=1) != 0], axis=1)
    first = np.where(change, np.arange(n), n)
    nxt = np.minimum.accumulate(np.concatenate([first[:, 1:], np.full((len(codes), 1), n)], axis=1)[:, ::-1],
                                axis=1)[:, ::-1]
    counts = np.where(change, nxt - np.arange(n), 0)
    top = np.take_along_axis(order, np.argsort(-counts, axis=1, kind="stable")[:, :3], axis=1)
    pts = px.astype(np.float64)
    colours = []
    for k in range(3):
        own = (codes == top[:, k:k + 1])[..., None]
        colours.append((pts * own).sum(axis=1) / np.maximum(own.sum(axis=1), 1))
    best = np.full(codes.shape, np.inf)
    for i, j in ((0, 1), (0, 2), (1, 2)):
        a, ab = colours[i][:, None, :], (colours[j] - colours[i])[:, None, :]
        t = np.clip(((pts - a) * ab).sum(axis=2) / np.maximum((ab * ab).sum(axis=2), 1e-9), 0.0, 1.0)
        best = np.minimum(best, np.linalg.norm(pts - (a + t[..., None] * ab), axis=2))
    return (best <= 8.0).mean(axis=1)


def test_blended_shares_from_photo_blocks_counts_are_the_plain_ones(monkeypatch):
    """photo_blocks hands its sorted codes and run lengths to _blended_share, which had found them again."""
    import crafteditor.photos as photos

    got, want = [], []
    real = photos._blended_share

    def both(px, codes, order, counts):
        got.append(real(px, codes, order, counts))
        want.append(_plain_blended_share(px, codes))
        return got[-1]

    monkeypatch.setattr(photos, "_blended_share", both)
    rng = np.random.default_rng(3)
    rgb = np.full((160, 160, 3), 255, np.uint8)
    rgb[:80, :80] = rng.integers(0, 256, (80, 80, 3))  # noise: a photo's colours
    levels = rng.integers(0, 4, (80, 80, 1)) * 40  # few levels, many ties among the commonest
    rgb[80:, 80:] = np.clip(np.concatenate([levels + 60, levels + 90, 200 - levels], axis=2) + rng.integers(
        0, 20, (80, 80, 3)), 0, 255).astype(np.uint8)
    photos.photo_blocks(rgb)
    assert got and all(np.array_equal(g, w) for g, w in zip(got, want))
