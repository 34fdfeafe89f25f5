"""A seeded Excalidraw-style flowchart: wobbly double-stroked boxes with hachure fills,
hand-drawn curved arrows with open heads, labels and titled frames. Hachure and the doubled
strokes make one figure of ~1,000 line pieces, the load that made assembly quadratic."""

from __future__ import annotations

import io
import math
import random

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from crafteditor.shapes.detect import DetectedShape
from crafteditor.shapes.faces import Face

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
WORDS = ("Ingest", "Parse", "Validate", "Store", "Index", "Query", "Rank", "Cache", "Render", "Notify",
         "Queue", "Worker", "Retry", "Audit", "Export", "Train", "Score", "Deploy", "Monitor", "Alert")


def _wobble(rng: random.Random, p, q, amp: float = 1.6, steps: int = 12):
    """A hand-drawn stroke from p to q: a slight bow plus jitter."""
    bow = rng.uniform(-3, 3)
    (x0, y0), (x1, y1) = p, q
    L = math.dist(p, q) or 1.0
    nx, ny = -(y1 - y0) / L, (x1 - x0) / L
    pts = []
    for i in range(steps + 1):
        t = i / steps
        off = bow * math.sin(math.pi * t) + rng.uniform(-amp, amp) * 0.3
        pts.append((x0 + (x1 - x0) * t + nx * off, y0 + (y1 - y0) * t + ny * off))
    return pts


def _rough_box(d: ImageDraw.ImageDraw, rng: random.Random, x0, y0, x1, y1, color, hachure: bool):
    corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    if hachure:  # Excalidraw's hachure fill: wobbly diagonals clipped to the box
        step = 9
        for c in range(int(x0 - (y1 - y0)), int(x1), step):
            a = (max(x0 + 3, c), min(y1 - 3, y1 - 3 - (max(x0 + 3, c) - c)))
            b = (min(x1 - 3, c + (y1 - y0)), max(y0 + 3, y1 - 3 - (min(x1 - 3, c + (y1 - y0)) - c)))
            if b[0] - a[0] > 6:
                d.line(_wobble(rng, a, b, amp=1.0, steps=6), fill=color, width=2)
    for _ in range(2):  # two passes, slightly apart, as the rough renderer draws them
        for k in range(4):
            p, q = corners[k], corners[(k + 1) % 4]
            jp = (p[0] + rng.uniform(-3, 3), p[1] + rng.uniform(-3, 3))
            jq = (q[0] + rng.uniform(-3, 3), q[1] + rng.uniform(-3, 3))
            d.line(_wobble(rng, jp, jq), fill=(30, 30, 30), width=2)


def _arrow(d: ImageDraw.ImageDraw, rng: random.Random, p, q):
    pts = _wobble(rng, p, q, amp=2.0, steps=16)
    d.line(pts, fill=(30, 30, 30), width=3)
    ang = math.atan2(q[1] - pts[-3][1], q[0] - pts[-3][0])
    for s in (-1, 1):
        a = ang + math.pi - s * 0.45
        d.line(_wobble(rng, q, (q[0] + 18 * math.cos(a), q[1] + 18 * math.sin(a)), steps=4),
               fill=(30, 30, 30), width=3)


def handdrawn_flowchart(seed: int = 0, cols: int = 6, rows: int = 4, size=(1866, 1095)) -> bytes:
    """PNG bytes of a hand-drawn flowchart of ``cols × rows`` boxes (the truth: their labels)."""
    rng = random.Random(seed)
    W, H = size
    im = Image.new("RGB", size, "white")
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype(FONT, 22)
    small = ImageFont.truetype(FONT, 16)
    dx, dy = W / cols, H / rows
    fills = [(224, 49, 49), (47, 158, 68), (25, 113, 194), (240, 140, 0)]
    boxes = {}
    for r in range(rows):
        for c in range(cols):
            x0, y0 = c * dx + 40, r * dy + 50
            x1, y1 = x0 + dx - 110, y0 + dy - 120
            _rough_box(d, rng, x0, y0, x1, y1, fills[(r + c) % 4], hachure=(r + c) % 2 == 0)
            word = WORDS[(r * cols + c) % len(WORDS)]
            tw = d.textlength(word, font=font)
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            d.rectangle((cx - tw / 2 - 4, cy - 14, cx + tw / 2 + 4, cy + 14), fill="white")
            d.text(((x0 + x1 - tw) / 2, (y0 + y1) / 2 - 12), word, fill=(20, 20, 20), font=font)
            boxes[r, c] = (x0, y0, x1, y1)
    for (r, c), (x0, y0, x1, y1) in boxes.items():
        if (r, c + 1) in boxes:
            nx0 = boxes[r, c + 1][0]
            _arrow(d, rng, (x1 + 6, (y0 + y1) / 2), (nx0 - 6, (y0 + y1) / 2))
            d.text((x1 + 12, (y0 + y1) / 2 - 26), "next", fill=(60, 60, 60), font=small)
        if (r + 1, c) in boxes and c % 2 == 0:
            ny0 = boxes[r + 1, c][1]
            _arrow(d, rng, ((x0 + x1) / 2, y1 + 6), ((x0 + x1) / 2, ny0 - 6))
    buf = io.BytesIO()
    im.save(buf, format="PNG")
    return buf.getvalue()


if __name__ == "__main__":  # python tests/crafteditor/handdrawn.py out.png
    import sys

    with open(sys.argv[1], "wb") as fh:
        fh.write(handdrawn_flowchart())


# -- a pencil box-and-arrow sketch ------------------------------------------------------------

SKETCH_WORDS = ("Camera", "Detector", "Tracker", "Database", "Report", "Review", "Sensor", "Filter", "Model",
                "Planner", "Output", "Storage")


def _outline(kind: str, x0: float, y0: float, x1: float, y1: float) -> list[tuple[float, float]]:
    """Corner points of a box, a diamond, or an ellipse's polygon, clockwise from the top left."""
    cx, cy, rx, ry = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2, (y1 - y0) / 2
    if kind == "diamond":
        return [(cx, y0), (x1, cy), (cx, y1), (x0, cy)]
    if kind == "ellipse":
        return [(cx + rx * math.cos(2 * math.pi * k / 24), cy + ry * math.sin(2 * math.pi * k / 24)) for k in range(24)]
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


def _pencil_outline(d: ImageDraw.ImageDraw, rng: random.Random, pts, ink, gap_share: float) -> None:
    """A closed outline drawn by hand: every side wobbles, and the pen lifts before closing it
    (a gap of ``gap_share`` of the perimeter at the start)."""
    sides = list(zip(pts, pts[1:] + pts[:1]))
    perimeter = sum(math.dist(p, q) for p, q in sides)
    skip = gap_share * perimeter
    for k, (p, q) in enumerate(sides):
        if k == 0 and skip > 0:
            t = min(0.9, skip / math.dist(p, q))
            p = (p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t)
        steps = max(2, int(math.dist(p, q) / 14))
        d.line(_wobble(rng, p, q, amp=3.0, steps=steps), fill=ink, width=2)


def _pencil_arrow(d: ImageDraw.ImageDraw, rng: random.Random, p, q, ink) -> None:
    """A wobbly line from p to q with an open 'V' head at q."""
    pts = _wobble(rng, p, q, amp=3.0, steps=max(3, int(math.dist(p, q) / 16)))
    d.line(pts, fill=ink, width=2)
    ang = math.atan2(q[1] - p[1], q[0] - p[0])
    for s in (-1, 1):
        a = ang + math.pi - s * 0.5
        d.line([q, (q[0] + 13 * math.cos(a) + rng.uniform(-1, 1), q[1] + 13 * math.sin(a) + rng.uniform(-1, 1))],
               fill=ink, width=2)


def pencil_sketch(seed: int = 0, n: int = 5) -> tuple[bytes, list[str], list[tuple[str, str]]]:
    """A hand-drawn box-and-arrow sketch in pencil grey on grainy paper: ``n`` nodes (boxes,
    ellipses, diamonds, not quite closed) in two rows, typed labels, wobbly arrows with open
    heads from each node to the next. Returns (PNG bytes, node labels, edges as label pairs)."""
    rng = random.Random(seed)
    W, H = 1100, 520
    im = Image.new("RGB", (W, H), (250, 250, 247))
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype(FONT, 20)
    words = rng.sample(SKETCH_WORDS, n)
    per_row = (n + 1) // 2
    boxes = []
    for i, word in enumerate(words):
        r, c = divmod(i, per_row)
        if r == 1:
            c = per_row - 1 - c  # the second row runs back, so every arrow is short
        cx = 110 + c * (W - 220) / max(1, per_row - 1)
        cy = 130 + r * 260
        kind = ("box", "box", "ellipse", "diamond")[rng.randrange(4)]
        tw = d.textlength(word, font=font)
        hw = tw / 2 + (34 if kind == "box" else 48 if kind == "ellipse" else 64)
        hh = 32 if kind == "box" else 40 if kind == "ellipse" else 52
        x0, y0, x1, y1 = cx - hw, cy - hh, cx + hw, cy + hh
        grey = rng.randint(70, 130)
        _pencil_outline(d, rng, _outline(kind, x0, y0, x1, y1), (grey, grey, grey), rng.uniform(0.0, 0.03))
        d.text((cx - tw / 2, cy - 12), word, fill=(grey - 30,) * 3, font=font)
        boxes.append((x0, y0, x1, y1))
    edges = []
    for i in range(n - 1):
        (a0, b0, a1, b1), (c0, d0, c1, d1) = boxes[i], boxes[i + 1]
        if abs((b0 + b1) - (d0 + d1)) < 10:  # same row: side to side
            left = c0 > a1
            p = (a1 + 8, (b0 + b1) / 2) if left else (a0 - 8, (b0 + b1) / 2)
            q = (c0 - 6, (d0 + d1) / 2) if left else (c1 + 6, (d0 + d1) / 2)
        else:  # down to the next row
            p, q = ((a0 + a1) / 2, b1 + 8), ((c0 + c1) / 2, d0 - 6)
        grey = rng.randint(70, 130)
        _pencil_arrow(d, rng, p, q, (grey, grey, grey))
        edges.append((words[i], words[i + 1]))
    arr = np.asarray(im, np.float32) + np.random.default_rng(seed).normal(0, 5, (H, W, 1))
    im = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8)).filter(ImageFilter.GaussianBlur(0.6))
    buf = io.BytesIO()
    im.save(buf, format="PNG")
    return buf.getvalue(), words, edges


def _bowed(p, q, bow: float, n: int = 16) -> list[tuple[float, float]]:
    """A stroke from p to q bowed sideways by ``bow`` px in its middle (a rough renderer's line)."""
    (x0, y0), (x1, y1) = p, q
    L = math.dist(p, q)
    nx, ny = -(y1 - y0) / L, (x1 - x0) / L
    return [(x0 + (x1 - x0) * t + nx * bow * math.sin(math.pi * t), y0 + (y1 - y0) * t + ny * bow * math.sin(math.pi * t))
            for t in (i / n for i in range(n + 1))]


def _excalidraw_arrow(d: ImageDraw.ImageDraw, rng: random.Random, p, q, gap: float = 14.0) -> None:
    """An Excalidraw arrow bound to the box at q: two passes of one bowed stroke, crossing each
    other, stopping ``gap`` px short of the box, an open 'V' head at the tip."""
    L = math.dist(p, q)
    ux, uy = (q[0] - p[0]) / L, (q[1] - p[1]) / L
    tip = (q[0] - ux * gap, q[1] - uy * gap)
    bow = rng.uniform(-4, 4)
    for off in (0.0, 1.5):
        a = (p[0] - uy * off, p[1] + ux * off)
        b = (tip[0] - uy * off * 0.2, tip[1] + ux * off * 0.2)
        d.line(_bowed(a, b, bow + 0.5 * off), fill=(30, 30, 30), width=2)
    ang = math.atan2(uy, ux)
    for s in (-1, 1):
        a = ang + math.pi - s * 0.5
        d.line([tip, (tip[0] + 20 * math.cos(a), tip[1] + 20 * math.sin(a))], fill=(30, 30, 30), width=2)


def excalidraw_arrows(seed: int = 0) -> tuple[bytes, list[tuple[str, str]]]:
    """PNG bytes of three Excalidraw-style boxes (sides bowed, read as typeset boxes) and two
    rough arrows bound to them with gaps; the truth: the edges as (source, target) labels."""
    rng = random.Random(seed)
    im = Image.new("RGB", (900, 420), "white")
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype(FONT, 20)
    boxes = {"Source": (60, 60, 240, 140), "Target": (620, 60, 800, 140), "Store": (340, 280, 520, 360)}
    for name, (x0, y0, x1, y1) in boxes.items():
        c = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
        for k in range(4):
            d.line(_bowed(c[k], c[(k + 1) % 4], rng.uniform(2.5, 4.0)), fill=(30, 30, 30), width=2)
        tw = d.textlength(name, font=font)
        d.text(((x0 + x1 - tw) / 2, (y0 + y1) / 2 - 12), name, fill=(20, 20, 20), font=font)
    _excalidraw_arrow(d, rng, (250, 100), (620, 100))
    _excalidraw_arrow(d, rng, (150, 150), (340, 320))
    buf = io.BytesIO()
    im.save(buf, format="PNG")
    return buf.getvalue(), [("Source", "Target"), ("Source", "Store")]


def rough_wobble(rng: random.Random, t: np.ndarray, amp: float) -> np.ndarray:
    """An outline's radial offsets (px) at angles ``t``, as rough.js's: random, not periodic in a few lobes (a
    sum of harmonics 2-6 with random weights and phases, scaled to peak at ``amp``), so no axis mirrors them."""
    w = sum(rng.uniform(0.3, 1.0) * np.sin(k * t + rng.uniform(0, 2 * math.pi)) for k in range(2, 7))
    return amp * w / np.abs(w).max()


def excalidraw_states(seed: int = 0) -> tuple[bytes, list[tuple[str, str]]]:
    """PNG bytes of three states drawn as rough ellipses (rough.js's: two passes, each off the true outline by a
    pixel or two at random (:func:`rough_wobble`), read as typeset ellipses, with no box among them) and two
    Excalidraw arrows stopping a binding gap short of them; the truth: the edges as (source, target) labels."""
    rng = random.Random(seed)
    im = Image.new("RGB", (900, 460), "white")
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype(FONT, 20)
    states = {"Open": (150, 110), "Payment": (700, 110), "Closed": (430, 360)}
    a, b = 95, 50
    for name, (cx, cy) in states.items():
        for _ in range(2):
            t = np.linspace(0, 2 * math.pi, 120)
            off = rough_wobble(rng, t, rng.uniform(1.5, 2.5))
            ring = list(zip((cx + (a + off) * np.cos(t)).tolist(), (cy + (b + off) * np.sin(t)).tolist()))
            d.line(ring, fill=(30, 30, 30), width=2)
        tw = d.textlength(name, font=font)
        d.text((cx - tw / 2, cy - 12), name, fill=(20, 20, 20), font=font)
    _excalidraw_arrow(d, rng, (150 + a + 20, 110), (700 - a, 110), gap=20)
    _excalidraw_arrow(d, rng, (700 - 30, 110 + b + 18), (430 + 45, 360 - b + 3), gap=20)
    buf = io.BytesIO()
    im.save(buf, format="PNG")
    return buf.getvalue(), [("Open", "Payment"), ("Payment", "Closed")]


def whiteboard_photo(seed: int = 0, size=(1800, 1200)) -> tuple[bytes, list[str]]:
    """JPEG bytes of a simulated phone photo of a whiteboard: marker boxes and capitals, lit
    unevenly (a lamp's gradient and a dark corner), blurred a little, with sensor noise; the truth:
    the words written on it."""
    rng = np.random.default_rng(seed)
    W, H = size
    im = Image.new("RGB", size, "white")
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype(FONT, 44)
    words = ["INGEST", "PARSE", "STORE", "QUERY"]
    inks = [(30, 60, 160), (170, 40, 40), (30, 120, 70), (40, 40, 40)]
    for k, word in enumerate(words):
        x0, y0 = 150 + (k % 2) * 850, 200 + (k // 2) * 500
        d.rectangle((x0, y0, x0 + 500, y0 + 220), outline=inks[k], width=6)
        d.text((x0 + 60, y0 + 80), word, fill=inks[k], font=font)
    d.line((650, 310, 1000, 310), fill=(30, 60, 160), width=6)
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    light = 0.95 - 0.35 * (xx / W) * (yy / H) - 0.1 * ((xx - W * 0.3) / W) ** 2  # lamp top left, dark corner
    board = np.asarray(im.filter(ImageFilter.GaussianBlur(1.2)), np.float32) * np.array([0.93, 0.95, 0.97])
    photo = board * light[..., None] + rng.normal(0, 4, (H, W, 3))
    buf = io.BytesIO()
    Image.fromarray(np.clip(photo, 0, 255).astype(np.uint8)).save(buf, format="JPEG", quality=85)
    return buf.getvalue(), words


# -- Excalidraw boxes with hachure fills, labels written over the strokes ----------------------

def hatched_boxes(seed: int = 0, n: int = 4, squeeze: float = 1.0) -> tuple[bytes, list[str], list[tuple[str, str]]]:
    """(PNG bytes, box labels, edges) of a row of hachure-filled sketched boxes joined by arrows;
    the labels are written straight over the strokes (no white patch), as Excalidraw draws them,
    ``squeeze`` times as wide as DejaVu Sans writes them (hand lettering is narrow: Virgil ≈ 0.7)."""
    rng = random.Random(seed)
    size = (260 * n + 60, 330)
    im = Image.new("RGB", size, "white")
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype(FONT, 24)
    fills = [(240, 140, 0), (47, 158, 68), (25, 113, 194), (224, 49, 49)]
    labels = [WORDS[(seed * 3 + i) % len(WORDS)] for i in range(n)]
    boxes = []
    for i, word in enumerate(labels):
        x0, y0 = 50 + 260 * i, 90 + rng.uniform(-10, 10)
        x1, y1 = x0 + 180, y0 + 130
        _rough_box(d, rng, x0, y0, x1, y1, fills[i % len(fills)], hachure=True)
        _squeezed_text(im, ((x0 + x1) / 2, (y0 + y1) / 2), word, font, squeeze)
        boxes.append((x0, y0, x1, y1))
    for (_, ay0, ax1, ay1), (bx0, by0, _, by1) in zip(boxes, boxes[1:]):
        _arrow(d, rng, (ax1 + 8, (ay0 + ay1) / 2), (bx0 - 8, (by0 + by1) / 2))
    buf = io.BytesIO()
    im.save(buf, format="PNG")
    return buf.getvalue(), labels, list(zip(labels, labels[1:]))


# -- Excalidraw entity tables: a shaded header box on an unfilled body of bare column names ----

TABLES = (("Games", ("game_id", "player_id", "title_text", "max_score")),
          ("Players", ("player_id", "nick_name", "join_date")),
          ("Scores", ("score_id", "game_id", "player_id", "points_total")))


def entity_tables(seed: int = 0) -> tuple[bytes, list[str]]:
    """(PNG bytes, each table's label: its name, then its columns) of sketched entity tables joined by lines."""
    rng = random.Random(seed)
    im = Image.new("RGB", (1000, 330), "white")
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype(FONT, 22)
    small = ImageFont.truetype(FONT, 17)
    labels, sides = [], []
    for i, (name, cols) in enumerate(TABLES):
        x0, y0 = 60 + 320 * i, 70 + rng.uniform(-8, 8)
        x1, ym, y1 = x0 + 230, y0 + 50, y0 + 50 + 28 * len(cols) + 24
        d.rectangle((x0, y0, x1, ym), fill=(233, 236, 239))
        _rough_box(d, rng, x0, y0, x1, ym, None, hachure=False)
        _rough_box(d, rng, x0, ym, x1, y1, None, hachure=False)
        d.text(((x0 + x1 - d.textlength(name, font=font)) / 2, y0 + 12), name, fill=(20, 20, 20), font=font)
        for k, c in enumerate(cols):
            d.text((x0 + 10, ym + 12 + 28 * k), c, fill=(20, 20, 20), font=small)
        labels.append(" ".join((name, *cols)))
        sides.append((x0, x1, (ym + y1) / 2))
    for (_, a1, ay), (b0, _, by) in zip(sides, sides[1:]):
        d.line(_wobble(rng, (a1 + 2, ay), (b0 - 2, by)), fill=(30, 30, 30), width=2)
    buf = io.BytesIO()
    im.save(buf, format="PNG")
    return buf.getvalue(), labels


def _squeezed_text(im: Image.Image, centre, word: str, font, squeeze: float) -> None:
    """``word`` drawn centred on ``centre``, its width scaled by ``squeeze`` (its height kept)."""
    tw, th = int(font.getlength(word)) + 4, font.size + 10
    mask = Image.new("L", (tw, th), 0)
    ImageDraw.Draw(mask).text((2, 2), word, fill=255, font=font)
    mask = mask.resize((max(1, round(tw * squeeze)), th), Image.LANCZOS)
    ink = Image.new("RGB", mask.size, (20, 20, 20))
    im.paste(ink, (round(centre[0] - mask.width / 2), round(centre[1] - th / 2)), mask)


def box_shape(x, y, w, h, bow: float = 0.0) -> DetectedShape:
    """A box shape whose face bows in by ``bow`` px in the middle of each side."""
    m = np.ones((h, w), bool)
    for i in range(h):
        d = int(round(bow * np.sin(np.pi * i / (h - 1))))
        m[i, :d] = m[i, w - d:] = False
    for j in range(w):
        d = int(round(bow * np.sin(np.pi * j / (w - 1))))
        m[:d, j] = m[h - d:, j] = False
    face = Face(paint=0, x=x, y=y, w=w, h=h, mask=m, filled=m)
    return DetectedShape(shape="box", x=x, y=y, w=w, h=h, fill=(255, 255, 255), stroke=(0, 0, 0), stroke_px=2.0,
                         iou=0.95, face=face)


def participant_boxes(rgb: np.ndarray, xs, ys, w: int, h: int, lw: int) -> list[DetectedShape]:
    """A sequence diagram's participant boxes, ``w`` × ``h`` centred on each column of ``xs``, one row at each
    of ``ys`` (head and foot), drawn on ``rgb`` with ``lw``-px outlines; their shapes, row by row."""
    boxes = [box_shape(x - w // 2, y, w, h) for y in ys for x in xs]
    for s in boxes:
        cv2.rectangle(rgb, (s.x, s.y), (s.x + s.w - 1, s.y + s.h - 1), (0, 0, 0), lw)
    return boxes
