"""What a raster figure's pixels say that its FigureSpec cannot: the font class (from the glyphs), edge
label sizes (from their ink), edge stroke widths (across their lines) and corner radii (from where
outlines cross the corners' diagonals).

Font class: each one-line node label the vectoriser read is cut out of the pixels and compared
with the same text set in sans, serif and monospaced faces.

Pixels name no font, but letter shapes do: serifs and stroke contrast, and a monospaced face's
even advance, change the ink of a word more than anti-aliasing does. The text is set at the
label's size and both inks are scaled to the same box, so only the shapes are compared
(their blurred inks correlated, best over one-pixel shifts). A label votes for the class whose
rendering fits best, weighted by how clearly it wins.
"""

from __future__ import annotations

import shutil
import subprocess
from functools import lru_cache
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from crafter.spec.model import Figure, Node
from crafter.style.fonts import GENERIC

MIN_CHARS = 4  # shorter labels hold too few letters to tell faces apart
MAX_LABELS = 40
INK = 0.45  # a pixel is ink when it is this far from the label's background towards the text


# faces each class is compared with (fontconfig patterns; those not installed are skipped): more than
# one shape of a class, so a Helvetica is found sans though only DejaVu and Latin Modern are installed
REFERENCE_FACES = {"sans": ("sans-serif", "DejaVu Sans:width=75", "Latin Modern Sans"),
                   "serif": ("serif", "DejaVu Serif:width=75", "Latin Modern Roman"),
                   "mono": ("monospace", "Latin Modern Mono")}


Gray = tuple[np.ndarray, float]  # grey levels (float32) and image pixels per figure px


@lru_cache(maxsize=16)
def face_file(pattern: str) -> str | None:
    """The installed font file fontconfig gives for a pattern (a class's generic family, a face)."""
    exe = shutil.which("fc-match")
    if exe is None:
        return None
    try:
        out = subprocess.run([exe, "-f", "%{file}", GENERIC.get(pattern, pattern)], capture_output=True, text=True,
                             timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    path = out.stdout.strip()
    return path if path and Path(path).exists() else None


def _ink(gray: np.ndarray) -> np.ndarray | None:
    """The tight ink mask of a label crop (text darker or lighter than its background)."""
    border = np.concatenate([gray[0], gray[-1], gray[:, 0], gray[:, -1]])
    bg = float(np.median(border))
    far = np.abs(gray - bg)
    if far.max() < 40:
        return None
    mask = far >= INK * far.max()
    mask[mask.mean(axis=1) > 0.7] = False  # a row of mostly ink is a line (an outline, an edge), not text
    mask[:, mask.mean(axis=0) > 0.9] = False  # and a full column a vertical one
    ys, xs = np.nonzero(mask)
    if len(xs) < 10:
        return None
    return mask[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


def _set(text: str, size_px: float, face: str) -> np.ndarray | None:
    """The ink of ``text`` set in a face (a class name: its generic family; or a fontconfig pattern)."""
    path = face_file(face)
    if path is None:
        return None
    font = ImageFont.truetype(path, max(6, round(size_px)))
    left, top, right, bottom = font.getbbox(text)
    im = Image.new("L", (right - left + 8, bottom - top + 8), 255)
    ImageDraw.Draw(im).text((4 - left, 4 - top), text, font=font, fill=0)
    return _ink(np.asarray(im, dtype=np.float32))


def _blur(a: np.ndarray) -> np.ndarray:
    """A [1 2 1] blur each way: a pixel of misalignment costs little."""
    p = np.pad(a, 1, mode="edge")
    a = (p[:-2, 1:-1] + 2 * p[1:-1, 1:-1] + p[2:, 1:-1]) / 4
    p = np.pad(a, ((0, 0), (1, 1)), mode="edge")
    return (p[:, :-2] + 2 * p[:, 1:-1] + p[:, 2:]) / 4


def _match(ink: np.ndarray, ref: np.ndarray) -> float:
    """Normalised cross-correlation of the two inks at the label's size, best over one-pixel shifts."""
    h, w = ink.shape
    a = _blur(ink.astype(np.float32))
    b = _blur(np.asarray(Image.fromarray(ref.astype(np.uint8) * 255).resize((w, h), Image.BILINEAR), np.float32) / 255)
    a = a - a.mean()
    best = -1.0
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            s = np.roll(np.roll(b, dy, 0), dx, 1)
            s = s - s.mean()
            den = float(np.sqrt((a * a).sum() * (s * s).sum()))
            if den > 0:
                best = max(best, float((a * s).sum()) / den)
    return best


def label_crops(read: Gray, fig: Figure) -> list[tuple[str, float, np.ndarray]]:
    """(text, size in image px, ink mask) of each plain one-line node label."""
    gray, scale = read
    out = []
    for n in fig.components:
        if not isinstance(n, Node) or n.box is None or n.bold or n.italic:
            continue
        text = n.text.strip()
        if "\n" in text or len(text) < MIN_CHARS:
            continue
        b, size = n.box, (n.font_size or 12.0) * scale
        # the label's line only: a band at the node's centre, as wide as the widest face sets the text
        half_w = 0.6 * max((m.shape[1] for m in (_set(text, size, c) for c in REFERENCE_FACES)
                            if m is not None), default=0)
        cx, cy = b.cx * scale, b.cy * scale
        x0, x1 = round(max(b.x * scale + 3, cx - half_w)), round(min(b.right * scale - 3, cx + half_w))
        y0, y1 = round(cy - 0.7 * size), round(cy + 0.7 * size)
        if x1 - x0 < 8 or y0 < 0 or y1 > gray.shape[0]:
            continue
        ink = _ink(gray[y0:y1, x0:x1])
        if ink is not None and ink.shape[1] > 2 * ink.shape[0]:
            out.append((text, size, ink))
        if len(out) >= MAX_LABELS:
            break
    return out


def font_votes(read: Gray, fig: Figure) -> list[tuple[str, float]]:
    """(class, weight) per label: the face whose setting of the text fits its pixels best."""
    votes = []
    for text, size, ink in label_crops(read, fig):
        scores = {}
        for cls, faces in REFERENCE_FACES.items():
            fits = [_match(ink, ref) for ref in (_set(text, size, f) for f in faces) if ref is not None]
            if fits:
                scores[cls] = max(fits)
        if len(scores) < 2:
            continue
        ranked = sorted(scores.items(), key=lambda kv: -kv[1])
        margin = ranked[0][1] - ranked[1][1]
        if margin > 0.02:
            votes.append((ranked[0][0], round(min(1.0, margin * 10), 3)))
    return votes


def read_gray(image_path: str | Path, fig: Figure) -> Gray | None:
    """The image as float32 grey levels, and its pixels per figure px (None where it cannot be read):
    read once, for every measure below."""
    try:
        with Image.open(image_path) as im:
            gray = np.asarray(im.convert("L"), dtype=np.float32)
    except (OSError, ValueError):
        return None
    w = fig.canvas.w if fig.canvas and fig.canvas.w else None
    return gray, (gray.shape[1] / w if w else 1.0)


def edge_label_sizes(read: Gray, fig: Figure, cls: str = "sans") -> list[float]:
    """The size (figure px) of each one-line edge label, from its ink height against the text set at 100 px.

    The vectoriser places an edge label but keeps no size for it; its letters still have one.
    """
    gray, scale = read
    sizes = []
    for e in fig.components:
        b = getattr(e, "label_box", None)
        text = (getattr(e, "label", None) or "").strip()
        if b is None or "\n" in text or len(text) < MIN_CHARS:
            continue
        ref = _set(text, 100.0, cls)
        x0, x1 = round((b.x - 4) * scale), round((b.right + 4) * scale)
        y0, y1 = round((b.y - 2) * scale), round((b.bottom + 2) * scale)
        if ref is None or x0 < 0 or y0 < 0 or x1 > gray.shape[1] or y1 > gray.shape[0]:
            continue
        ink = _ink(gray[y0:y1, x0:x1])
        if ink is None or ink.shape[1] < 2 * ink.shape[0]:
            continue
        # the width says the size better than the height (a few px of descender); both must agree
        by_w, by_h = 100.0 * ink.shape[1] / ref.shape[1], 100.0 * ink.shape[0] / ref.shape[0]
        if abs(by_w - by_h) <= 0.12 * by_w:
            sizes.append(round(by_w / scale, 2))
        if len(sizes) >= MAX_LABELS:
            break
    return sizes


def _first_ink(line: np.ndarray, bg: float, stroke: float) -> int | None:
    """Index of the first pixel past half-way from the background to the stroke's tone."""
    hits = np.nonzero(np.abs(line - bg) >= 0.5 * abs(stroke - bg))[0]
    return int(hits[0]) if len(hits) else None


def corner_radii(read: Gray, fig: Figure) -> list[float]:
    """The corner radius (figure px) of each box-like node, from where its outline crosses the corner's diagonal.

    A corner of outer radius R leaves the diagonal clear for R(1 - 1/√2) px; the radius at the
    stroke's centre (the one a theme sets) is R less half the stroke.
    """
    gray, scale = read
    out = []
    for n in fig.components:
        if not isinstance(n, Node) or n.shape not in ("box", "round") or n.box is None or n.stroke == "none":
            continue
        r = _node_radius(gray, n, scale)
        if r is not None:
            out.append(round(float(r), 2))
    return out


def _node_radius(gray: np.ndarray, n: Node, scale: float) -> float | None:
    b = n.box
    x0, y0, cx, cy = b.x * scale, b.y * scale, b.cx * scale, b.cy * scale
    pad = round(4 * scale)
    xa, ya = round(x0) - pad, round(y0) - pad
    if xa < 0 or ya < 0 or round(cx) >= gray.shape[1] or round(cy) >= gray.shape[0]:
        return None
    bg = float(gray[ya, xa])
    # off the centre lines, where edges come in: a third of the way along each side
    qx, qy = round(x0 + (cx - x0) * 0.66), round(y0 + (cy - y0) * 0.66)
    row, col = gray[qy, xa:round(cx)], gray[ya:round(cy), qx]
    stroke = float(min(row.min(), col.min()))
    if abs(bg - stroke) < 40:
        return None
    left, top = _first_ink(row, bg, stroke), _first_ink(col, bg, stroke)
    if left is None or top is None:
        return None
    sx, sy = xa + left, ya + top  # the outline's outer left and top edges
    steps = min(round(cx) - sx, round(cy) - sy)
    diag = np.array([gray[sy + t, sx + t] for t in range(max(steps, 0))], dtype=np.float32)
    t = _first_ink(diag, bg, stroke) if len(diag) else None
    if t is None:
        return None
    w = (n.stroke_width or 1.0) * scale
    outer = t / (1 - 1 / np.sqrt(2))
    return max(0.0, (outer - w / 2) / scale) if t > 0 else 0.0


def _profile_width(profile: np.ndarray) -> float | None:
    """A line's width across a profile: its ink's area over its peak (anti-aliasing included)."""
    bg = float(np.median(np.concatenate([profile[:2], profile[-2:]])))
    ink = np.abs(profile - bg)
    peak = float(ink.max())
    if peak < 40 or ink[:2].max() > 0.3 * peak or ink[-2:].max() > 0.3 * peak:
        return None  # too faint, or another line runs alongside
    return float(ink.sum() / peak)


def edge_widths(read: Gray, fig: Figure) -> list[float]:
    """The stroke width (figure px) of each edge, across the middle of its longest straight run.

    The vectoriser keeps an edge's width only when it is far from the paper theme's (0.6 px); the
    pixels say it to a tenth of a pixel.
    """
    gray, scale = read
    H, W = gray.shape
    out = []
    for e in fig.components:
        route = getattr(e, "route", None)
        if not route or len(route) < 2 or getattr(e, "style", "solid") != "solid":
            continue
        a, b = max(zip(route, route[1:]), key=lambda s: abs(s[1].x - s[0].x) + abs(s[1].y - s[0].y))
        horizontal = abs(b.y - a.y) < 0.5
        if not (horizontal or abs(b.x - a.x) < 0.5) or abs(b.x - a.x) + abs(b.y - a.y) < 24:
            continue
        widths = []
        for f in (0.4, 0.5, 0.6):
            x, y = round((a.x + (b.x - a.x) * f) * scale), round((a.y + (b.y - a.y) * f) * scale)
            r = round(6 * scale)
            if not (r <= x < W - r and r <= y < H - r):
                continue
            w = _profile_width(gray[y - r:y + r + 1, x] if horizontal else gray[y, x - r:x + r + 1])
            if w is not None:
                widths.append(w / scale)
        if widths:
            out.append(round(float(np.median(widths)), 2))
    return out
