"""The speed-ups of issue 31 change no reading: each fast path gives exactly what the plain numpy
it replaced gave (colour counting, a photo's block spreads, a face's box)."""

from __future__ import annotations

import math

import cv2
import numpy as np

from crafteditor.config import Config
from crafteditor.paint import _unique_colors, find_paints
from crafteditor.photos import BLOCK, photo_blocks
from crafteditor.shapes.faces import find_faces


def _figure_like(seed: int, h: int = 203, w: int = 317) -> np.ndarray:
    """A page with flat boxes, strokes, anti-aliased-looking noise and a noisy 'photo' patch."""
    rng = np.random.default_rng(seed)
    rgb = np.full((h, w, 3), 255, np.uint8)
    for _ in range(6):
        y, x = rng.integers(0, h - 30), rng.integers(0, w - 40)
        rgb[y:y + rng.integers(12, 30), x:x + rng.integers(15, 40)] = rng.integers(0, 256, 3)
    rgb[rng.random((h, w)) < 0.02] = rng.integers(0, 256, 3)
    rgb[20:80, 200:290] = rng.integers(0, 256, (60, 90, 3))
    return rgb


def test_colour_counts_are_np_unique_s():
    for seed in range(4):
        rgb = _figure_like(seed)
        flat = ((rgb[..., 0].astype(np.int32) << 16) | (rgb[..., 1].astype(np.int32) << 8) | rgb[..., 2]).ravel()
        for arr in (flat, flat[::-1].copy(), np.full(50, 7, np.int32)):
            want = np.unique(arr, return_inverse=True, return_counts=True)
            got = _unique_colors(arr)
            for a, b in zip(want, got):
                assert a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b)


def _plain_spread(rgb: np.ndarray) -> np.ndarray:
    H, W = rgb.shape[:2]
    bh, bw = H // BLOCK, W // BLOCK
    blocks = rgb[:bh * BLOCK, :bw * BLOCK].reshape(bh, BLOCK, bw, BLOCK, 3).transpose(0, 2, 1, 3, 4)
    blocks = blocks.reshape(bh, bw, BLOCK * BLOCK, 3)
    return (blocks.max(axis=2).astype(np.int16) - blocks.min(axis=2)).max(axis=2)


def test_photo_blocks_look_at_the_same_blocks():
    for seed in range(3):
        rgb = _figure_like(seed)
        seeds, texture = photo_blocks(rgb)
        assert seeds.shape == _plain_spread(rgb).shape
        # a block is looked at only where its colours spread: the noisy patch's blocks are photo seeds
        assert seeds[3:9, 26:35].mean() > 0.5
        assert not (seeds & (_plain_spread(rgb) < 16)).any() and not (texture & (_plain_spread(rgb) < 16)).any()


def test_lossy_paints_and_faces_come_back_whole():
    rgb = _figure_like(7)
    plain = find_paints(rgb, Config())
    lossy = find_paints(rgb, Config.preset("scan"))
    assert plain.labels.shape == lossy.labels.shape == rgb.shape[:2]
    faces = find_faces(plain, 10.0)
    assert faces and all(f.w >= 10 and f.h >= 10 and f.mask.shape == (f.h, f.w) for f in faces)


def test_channel_maxima_and_mask_overlaps_are_numpy_s():
    """Dehatching's largest channel difference and a mask IoU, counted the fast way, are the plain
    numpy values (so a hatched fill and a face's outline class come out as before)."""
    from crafteditor.hatching import paper_distance
    from crafteditor.ocr.font_class import fit
    from crafteditor.shapes.outlines import mask_iou

    rng = np.random.default_rng(5)
    for seed in range(3):
        diff = _figure_like(seed)
        assert np.array_equal(paper_distance(diff, np.zeros(3)), diff.max(axis=2))
    for _ in range(20):
        h, w = rng.integers(3, 60, 2)
        a, b = rng.random((h, w)) < rng.random(), rng.random((h, w)) < rng.random()
        union = np.logical_or(a, b).sum()
        assert mask_iou(a, b.astype(np.uint8)) == (float(np.logical_and(a, b).sum()) / float(union) if union else 0.0)
        if a.any():  # the font fit's overlap term, as plain sums
            scaled = cv2.resize(b.astype(np.uint8), (w, h), interpolation=cv2.INTER_AREA) > 0
            aspect = abs(math.log((w / h) / (b.shape[1] / b.shape[0])))
            plain = float(np.logical_and(scaled, a).sum()) / max(float(np.logical_or(scaled, a).sum()), 1.0)
            assert fit(a, b) == plain - 0.5 * aspect


def test_a_points_distance_to_a_box_is_the_contains_point_reading():
    """A line end's distance to a box-like node (how ends are attached to nodes) is as it was read with
    the box's own contains_point: inside, to the nearest side; outside, to the box."""
    from crafteditor.assemble.geometry import dist_to_shape
    from crafteditor.shapes.detect import DetectedShape

    rng = np.random.default_rng(3)
    for _ in range(30):
        x, y, w, h = (float(v) for v in rng.integers(0, 40, 4) + rng.random(4) * rng.integers(0, 2))
        s = DetectedShape(shape="box", x=x, y=y, w=w + 1, h=h + 1, fill=(255, 255, 255), stroke=None, stroke_px=1.0,
                          iou=1.0, face=None)  # type: ignore[arg-type]
        for p in [tuple(float(v) for v in rng.integers(-5, 50, 2)) for _ in range(40)] + [(s.x, s.y), (s.right, s.bottom)]:
            inside = s.contains_point(*p)
            want = min(p[0] - s.x, s.right - p[0], p[1] - s.y, s.bottom - p[1]) if inside else math.hypot(
                max(s.x - p[0], 0, p[0] - s.right), max(s.y - p[1], 0, p[1] - s.bottom))
            assert dist_to_shape(p, s) == want


def test_outline_boxes_leave_out_only_shapes_farther_than_asked():
    """OutlineBoxes (which shapes a sketched line's end carried on is asked about) names every shape
    that dist_to_shape puts within the distance, boxes and drawn faces (ellipses, diamonds) alike."""
    import cv2

    from crafteditor.assemble.geometry import OutlineBoxes, dist_to_shape
    from crafteditor.shapes.detect import DetectedShape
    from crafteditor.shapes.faces import Face

    rng = np.random.default_rng(5)
    shapes = []
    for k in range(12):
        x, y, w, h = (int(v) for v in rng.integers(0, 80, 2).tolist() + rng.integers(8, 30, 2).tolist())
        filled = np.zeros((h, w), np.uint8)
        if k % 3 == 0:
            cv2.ellipse(filled, (w // 2, h // 2), (w // 2 - 1, h // 2 - 1), 0, 0, 360, 1, -1)
        elif k % 3 == 1:
            cv2.fillPoly(filled, [np.array([[w // 2, 0], [w - 1, h // 2], [w // 2, h - 1], [0, h // 2]], np.int32)], 1)
        face = Face(paint=1, x=x, y=y, w=w, h=h, mask=filled > 0, filled=filled > 0)
        kind = ("ellipse", "diamond", "box")[k % 3]
        shapes.append(DetectedShape(shape=kind, x=float(x), y=float(y), w=float(w), h=float(h), fill=(255, 255, 255),
                                    stroke=(0, 0, 0), stroke_px=float(rng.integers(1, 5)), iou=1.0, face=face))
    boxes = OutlineBoxes(shapes)
    for _ in range(400):
        p = tuple(float(v) for v in rng.random(2) * 140 - 20)
        for d in (0.5, 3.0, 9.0):
            near = {k for k, s in enumerate(shapes) if dist_to_shape(p, s) <= d}
            assert near <= set(boxes.within(p, d).tolist())


def test_the_longest_gap_is_the_longest_run_of_false():
    """blobs.longest_gap (a chart axis's broken ink, the space between two letters) is the plain loop's count."""
    from crafteditor.blobs import longest_gap

    def plain(a):
        best = run = 0
        for v in a:
            run = 0 if v else run + 1
            best = max(best, run)
        return best

    rng = np.random.default_rng(3)
    for n in (0, 1, 2, 7, 40):
        for p in (0.0, 0.3, 0.8, 1.0):
            a = rng.random(n) < p
            assert longest_gap(a) == plain(a)
            assert longest_gap(a.astype(np.int32) * 5) == plain(a)


def test_a_regions_row_ends_give_its_minimum_area_rectangle():
    """heads._line_like's rectangle (is this survivor a stretch of line?) from two points a row is
    the one from every pixel: the same hull."""
    from crafteditor.lines.heads import row_ends

    rng = np.random.default_rng(11)
    for _ in range(200):
        h, w = (int(v) for v in rng.integers(3, 90, 2))
        m = np.zeros((h, w), np.uint8)
        for _ in range(int(rng.integers(1, 5))):
            x, y = int(rng.integers(0, w)), int(rng.integers(0, h))
            if rng.random() < 0.5:
                cv2.line(m, (x, y), (int(rng.integers(0, w)), int(rng.integers(0, h))), 1, int(rng.integers(1, 9)))
            else:
                cv2.circle(m, (x, y), int(rng.integers(1, 25)), 1, -1)
        m |= (rng.random((h, w)) < 0.01).astype(np.uint8)
        assert cv2.minAreaRect(row_ends(m)) == cv2.minAreaRect(cv2.findNonZero(m))


def test_barb_offsets_and_head_gaps_are_the_pixel_by_pixel_readings():
    """A barbed tip's side offsets (all looked up at once) and a line end's 'a head is here already'
    (only heads whose box comes near are measured) are what the point-by-point loops read."""
    from crafteditor.lines.barbs import _inked, _NearHeads, _side_offsets
    from crafteditor.lines.heads import pixel_gap
    from crafteditor.lines.paths import Arrowhead

    rng = np.random.default_rng(2)
    for _ in range(300):
        h, w = (int(v) for v in rng.integers(4, 40, 2))
        ink = rng.random((h, w)) < 0.3
        c = (float(rng.uniform(-4, w + 4)), float(rng.uniform(-4, h + 4)))
        a = float(rng.uniform(0, 2 * math.pi))
        n = (math.cos(a), math.sin(a)) if rng.random() < 0.7 else (0.0, -1.0)
        lo = float(rng.uniform(-9, 4))
        hi = lo + float(rng.uniform(0, 12))
        want = [float(u) for u in np.arange(lo, hi + 0.01, 0.5) if _inked(ink, c[0] + u * n[0], c[1] + u * n[1])]
        assert _side_offsets(ink, c, n, lo, hi) == want
    heads = []
    for _ in range(12):
        x, y = rng.uniform(0, 200, 2)
        pts = np.stack([x + rng.uniform(0, 9, 20), y + rng.uniform(0, 9, 20)], axis=1)
        heads.append(Arrowhead(tip=(x, y), base=(x, y), length=9, width=9, mask_box=(0, 0, 1, 1), pixels=pts,
                               weights=np.ones(20)))
    near = _NearHeads(heads, 7.0)
    for pt in [tuple(float(v) for v in rng.uniform(-10, 220, 2)) for _ in range(500)]:
        assert near.any_near(pt) == any(pixel_gap(hd.pixels, pt) <= 7.0 for hd in heads)


def test_heads_kept_at_outlines_are_the_same_with_thick_bands_skipped():
    """A thick arrow's head and a wide pale band, found in ink with a node's outline left in: the
    heads the outline pass keeps (40 % of their pixels in the residual) are the same whether or not
    a thick line too little in the residual to hold one is opened."""
    from crafteditor.lines.heads import IN_RESIDUAL, find_heads

    ink = np.zeros((220, 400), np.uint8)
    cv2.line(ink, (10, 30), (300, 30), 1, 2)  # the figure's thin lines
    cv2.line(ink, (10, 60), (300, 60), 1, 2)
    cv2.line(ink, (20, 110), (280, 110), 1, 14)  # a thick arrow...
    cv2.fillPoly(ink, [np.array([[280, 80], [340, 110], [280, 140]], np.int32)], 1)  # ...and its head
    ink[160:215, 10:390] = 1  # a band: a group's fill
    ink = ink.astype(bool)
    cov = ink.astype(np.float32)

    def kept(heads, residual):
        out = []
        for hd in heads:
            inside = residual[(hd.pixels[:, 1] - 0.5).astype(int), (hd.pixels[:, 0] - 0.5).astype(int)]
            if inside.mean() >= IN_RESIDUAL and not inside.all():
                out.append((hd.tip, hd.length, hd.width))
        return out

    plain, _ = find_heads(ink, 2.0, cov)
    assert plain  # the thick arrow's head is found (opened at its own width)
    for residual in (ink & (np.arange(400) > 300)[None, :], ink & (np.arange(220) < 150)[:, None],
                     np.zeros_like(ink), ink & (np.arange(400) % 3 == 0)[None, :]):
        skipped, _ = find_heads(ink, 2.0, cov, kept_in=residual)
        assert kept(skipped, residual) == kept(plain, residual)


def test_rows_taken_by_messages_are_those_within_three_pixels():
    """A self-message is looked for only on rows no message lies within 3 px of: the flags a row are
    the plain 'any message within 3 px' test."""
    from crafteditor.assemble.sequences import _take

    rng = np.random.default_rng(4)
    for _ in range(50):
        ts = [float(t) for t in rng.uniform(-10, 70, int(rng.integers(0, 6)))] + [float(rng.integers(0, 60))]
        taken = np.zeros(60, bool)
        for t in ts:
            _take(taken, t)
        assert taken.tolist() == [any(abs(y - t) <= 3 for t in ts) for y in range(60)]


def test_a_lines_explained_pixels_are_drawn_whole_in_its_box():
    """The ink a traced line explains (drawn in its bounding box) is the full-image drawing's, at
    the image's edges too."""
    from crafteditor.lines.detect import _draw_path
    from crafteditor.lines.paths import LinePath

    rng = np.random.default_rng(6)
    for _ in range(60):
        h, w = (int(v) for v in rng.integers(5, 80, 2))
        pts = [(float(x), float(y)) for x, y in zip(rng.uniform(-6, w + 6, 4), rng.uniform(-6, h + 6, 4))]
        lw = float(rng.uniform(0.6, 9))
        p = LinePath(points=pts[:int(rng.integers(2, 5))], width=lw, color=(0, 0, 0))
        got = rng.random((h, w)) < 0.1
        want = got.copy()
        plain = np.zeros((h, w), np.uint8)
        cv2.polylines(plain, [np.round(np.asarray(p.points)).astype(np.int32)], False, 1,
                      thickness=max(2, int(math.ceil(lw + 3))))
        want |= plain.astype(bool)
        _draw_path(got, p, lw)
        assert np.array_equal(got, want)


def test_a_colour_test_within_a_sparse_mask_is_the_whole_images():
    """farther_than within a mask (pencil ink narrowed fill by fill) gives the whole image's answer
    there, and False elsewhere, however few pixels the mask holds."""
    from crafteditor.paint import farther_than

    rgb = _figure_like(9)
    rng = np.random.default_rng(9)
    for share in (0.0, 0.01, 0.3, 0.7, 1.0):
        within = rng.random(rgb.shape[:2]) < share
        for color, threshold in (((255, 255, 255), 45.0), ((120, 30, 200), 80.0), ((0, 0, 0), 10.5)):
            want = farther_than(rgb, color, threshold) & within
            assert np.array_equal(farther_than(rgb, color, threshold, within=within), want)


def test_a_band_in_the_outline_ink_is_no_line_with_heads():
    """In the outline pass a group's pale band (here 40 line widths tall, with a wider block on it)
    is not opened for heads, while a thick arrow's head (6 line widths) still is."""
    from crafteditor.lines.heads import find_heads

    ink = np.zeros((400, 900), np.uint8)
    cv2.line(ink, (10, 30), (600, 30), 1, 2)  # the figure's thin lines
    cv2.line(ink, (10, 60), (600, 60), 1, 2)
    cv2.line(ink, (20, 110), (280, 110), 1, 14)  # a thick arrow and its head
    cv2.fillPoly(ink, [np.array([[280, 80], [340, 110], [280, 140]], np.int32)], 1)
    ink[200:280, 10:890] = 1  # a band...
    ink[170:310, 600:800] = 1  # ...wider in one place
    ink = ink.astype(bool)
    cov = ink.astype(np.float32)
    plain, _ = find_heads(ink, 2.0, cov)
    outline, _ = find_heads(ink, 2.0, cov, kept_in=ink)
    assert any(h.length > 100 for h in plain)  # the band's wide place reads as a 'head' when opened
    assert [round(h.tip[0]) for h in outline] == [round(h.tip[0]) for h in plain if h.length < 100]
    assert outline and 280 <= outline[0].tip[0] <= 345


def test_dash_bucketing_drops_the_dashes_the_plain_definition_drops():
    """Lone glyphs: dashes of a vertical dashed line (a thin bar with a like bar above or below in its
    column) are looked for per column; the result is what every bar against every other gives."""
    import random

    import numpy as np

    from crafteditor.ocr.lone_glyphs import _drop_dashes

    def plain(cands, stats):
        def bar(c):
            return c[2] <= 0.4 * c[3] and stats[c[4]][4] >= 0.6 * c[2] * c[3]
        bars = [c for c in cands if bar(c)]

        def dash(c):
            x, y, cw, ch, _ = c
            return any(o is not c and abs((o[0] + o[2] / 2) - (x + cw / 2)) <= 1.5 and abs(o[3] - ch) <= 2
                       and 0 < max(o[1] - (y + ch), y - (o[1] + o[3])) <= 3.2 * ch for o in bars)
        return [c for c in cands if not (bar(c) and dash(c))]

    rng = random.Random(7)
    for _ in range(500):
        n = rng.randint(0, 14)
        cands = [(rng.randint(0, 12), rng.randint(0, 120), rng.randint(1, 4), rng.randint(4, 14), i + 1)
                 for i in range(n)]
        stats = np.zeros((n + 1, 5), np.int64)
        for c in cands:
            stats[c[4]][4] = rng.randint(0, c[2] * c[3])
        # no pixels labelled: only the solid bars are bars (one full column is tested on its own)
        assert _drop_dashes(cands, stats, np.zeros((140, 20), np.int32)) == plain(cands, stats)


def test_a_hachures_dense_windows_are_the_float_means():
    """Dehatching's dense windows, counted in integers, are where the float mean of the window passes the
    share, for every share and window it uses (so the same hatched regions are found and painted)."""
    from crafteditor.hatching import DENSE, SLIT_DENSE, SPARSE, WINDOW, _dense

    rng = np.random.default_rng(8)
    pairs = {(DENSE, WINDOW), (SLIT_DENSE, WINDOW), *((d, w) for d, w, _, _ in SPARSE)}
    for share, window in pairs:
        for _ in range(6):
            h, w = (int(v) for v in rng.integers(20, 140, 2))
            mask = (rng.random((h, w)) < rng.uniform(0.5, 2.0) * share).astype(np.uint8)
            mean = cv2.boxFilter(mask.astype(np.float32), -1, (window, window), borderType=cv2.BORDER_CONSTANT)
            assert np.array_equal(_dense(mask, share, window), (mean > share).astype(np.uint8)), (share, window)


def _readme_size_line(heads: list[tuple[int, int]], right: int = 120) -> tuple[np.ndarray, np.ndarray]:
    """A 1-px line drawn at 1x (anti-aliased over two rows, grey 197 and 227) from x 10 to ``right`` at
    y 40, with 3 × 3 px blobs of solid paint (grey 50) at the given (x, y) top-left corners; the RGB
    image and its ink mask."""
    gray = np.full((80, 160), 251, np.uint8)
    gray[40, 10:right] = 197
    gray[41, 10:right] = 227
    for x, y in heads:
        gray[y:y + 3, x:x + 3] = 50
    rgb = np.repeat(gray[:, :, None], 3, axis=2)
    return rgb, gray < 240


def test_a_small_head_at_a_thin_lines_end_is_found_with_its_direction():
    """A README-size Mermaid arrow: a 3 px head of solid paint at the end of a 1-px anti-aliased grey line,
    no wider than the opening sized by the line can fit, is found, given to that end, pointing out
    of the line; a lone 3 px dot, a 3 px bead in a line's middle and a blob with another beside it (a
    glyph of a label the reader missed, at the line's end) are no heads."""
    from crafteditor.lines.detect import detect_lines

    bg = np.array([251, 251, 251], np.uint8)
    rgb, ink = _readme_size_line([(120, 39)])
    paths, _ = detect_lines(rgb, ink, bg)
    assert len(paths) == 1
    p = paths[0]
    head = p.head_end if p.points[-1][0] > p.points[0][0] else p.head_start
    tail = p.head_start if head is p.head_end else p.head_end
    assert head is not None and tail is None
    assert 119 <= head.tip[0] <= 124 and 38 <= head.tip[1] <= 43
    assert head.tip[0] > head.base[0]  # it points right, out of its line

    # the line's other end, left bare, and the line itself with no head: no head anywhere
    rgb, ink = _readme_size_line([])
    assert all(q.head_start is None and q.head_end is None for q in detect_lines(rgb, ink, bg)[0])
    # a dot alone beside a line, and a bead in a line's middle, are no heads
    rgb, ink = _readme_size_line([(60, 10), (60, 39)])
    assert all(q.head_start is None and q.head_end is None for q in detect_lines(rgb, ink, bg)[0])
    rgb, ink = _readme_size_line([(120, 39), (125, 38)])
    assert all(q.head_start is None and q.head_end is None for q in detect_lines(rgb, ink, bg)[0])
