"""A seeded Excalidraw-style flowchart: wobbly double-stroked boxes with hachure fills,
hand-drawn curved arrows with open heads, labels and titled frames. Hachure and the doubled
strokes make one figure of ~1,000 line pieces, the load that made assembly quadratic."""

from __future__ import annotations

import io
import math
import random

from PIL import Image, ImageDraw, ImageFont

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
