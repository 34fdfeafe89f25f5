"""Adversarial inputs for CraftEditor's time budget (issue 31): figures drawn here that make
stages run long: free-hand strokes, noise, 10,000 tiny blobs, an 8,000 px wide figure."""

from __future__ import annotations

import io
import math
import random

import numpy as np
from PIL import Image, ImageDraw, ImageFont

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def _png(im: Image.Image | np.ndarray) -> bytes:
    if isinstance(im, np.ndarray):
        im = Image.fromarray(im)
    buf = io.BytesIO()
    im.save(buf, format="PNG")
    return buf.getvalue()


def scribbles(seed: int = 0, size=(1400, 900), strokes: int = 400) -> bytes:
    """Free-hand pencil strokes crossing each other everywhere (a sketch page with no boxes)."""
    rng = random.Random(seed)
    im = Image.new("RGB", size, "white")
    d = ImageDraw.Draw(im)
    for _ in range(strokes):
        x, y = rng.uniform(0, size[0]), rng.uniform(0, size[1])
        a = rng.uniform(0, 2 * math.pi)
        pts = []
        for _ in range(rng.randint(5, 30)):
            a += rng.uniform(-0.6, 0.6)
            x, y = x + 12 * math.cos(a), y + 12 * math.sin(a)
            pts.append((x, y))
        d.line(pts, fill=(rng.randint(40, 120),) * 3, width=rng.randint(1, 4))
    return _png(im)


def noise(seed: int = 0, size=(1200, 900)) -> bytes:
    """Every pixel a random colour: no paint, no shape, no text."""
    return _png(np.random.default_rng(seed).integers(0, 256, (size[1], size[0], 3), dtype=np.uint8))


def tiny_blobs(seed: int = 0, n: int = 10_000, size=(2000, 1500)) -> bytes:
    """``n`` dots and specks of a few pixels in many colours (a scatter of dust)."""
    rng = np.random.default_rng(seed)
    a = np.full((size[1], size[0], 3), 255, np.uint8)
    xs, ys = rng.integers(2, size[0] - 4, n), rng.integers(2, size[1] - 4, n)
    colors = rng.integers(0, 200, (n, 3), dtype=np.uint8)
    r = rng.integers(1, 3, n)
    for x, y, c, k in zip(xs, ys, colors, r):
        a[y:y + k + 1, x:x + k + 1] = c
    return _png(a)


def wide_diagram(width: int = 8000, height: int = 700, boxes: int = 40) -> bytes:
    """A pipeline of labelled boxes and arrows ``width`` px wide (a poster's banner figure)."""
    im = Image.new("RGB", (width, height), "white")
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype(FONT, 22)
    step = width / boxes
    for k in range(boxes):
        x0 = int(k * step + 20)
        y0 = 200 + (k % 3) * 120
        d.rectangle((x0, y0, x0 + int(step) - 70, y0 + 80), fill=(214, 230, 244), outline=(30, 60, 120), width=3)
        d.text((x0 + 14, y0 + 28), f"stage {k}", fill=(20, 20, 20), font=font)
        if k + 1 < boxes:
            y1 = 200 + ((k + 1) % 3) * 120 + 40
            d.line((x0 + int(step) - 66, y0 + 40, x0 + int(step) + 12, y1), fill=(40, 40, 40), width=3)
    return _png(im)


if __name__ == "__main__":  # python tests/crafteditor/adversarial.py [SECONDS]: each figure within a budget of SECONDS
    import sys
    import time

    import crafteditor.config as ce_config
    from crafteditor.config import Config
    from crafteditor.convert import convert

    budget = float(sys.argv[1]) if len(sys.argv) > 1 else None
    if budget is not None:
        ce_config.TIME_BUDGET_MIN_S = budget  # every figure gets exactly this budget (0.0 s per megapixel over it)
    config = Config(quality=False, timeout=1e-6 if budget is not None else Config().timeout)
    for make in (scribbles, noise, tiny_blobs, wide_diagram):
        png = make()
        t = time.perf_counter()
        conv = convert(png, config)
        r = conv.report
        print(f"{make.__name__:<13} {r['size']}: {time.perf_counter() - t:5.1f} s, "
              f"{r['cpu_seconds_vectorize']:5.1f} CPU-s (budget "
              f"{config.time_budget(*r['size']):.1f} s), {len(conv.figure.components)} components, "
              f"over_budget={r.get('over_budget')}", flush=True)
