"""Text runs: a recognised line in image pixels (:class:`TextRun`).

A run is made from a reading and its line's glyphs (:func:`make_run`): the reading corrected from
the ink (:mod:`crafteditor.ocr.corrections`), the font size from the ink height and the glyph
extents of the string in the renderer's font (DejaVu Sans), the weight from stroke thickness, the
colour from the most contrasting glyph pixels. Duplicate boxes of one word are dropped
(:func:`dedupe`), and a run holding two labels set close together is cut (:func:`split_wide_gaps`).
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from crafteditor.blobs import find_blobs
from crafteditor.ocr.corrections import (
    drop_stray_quote,
    restore_case,
    restore_dashes,
    restore_e,
    restore_middle_dots,
    restore_script_minus,
    restore_spaces,
    restore_symbols,
    restore_zeros,
    split_case_joins,
    trim_to_text,
)
from crafteditor.ocr.font_class import font_class
from crafteditor.ocr.font_metrics import fitted_spacing, ink_extent_em, ink_width_em, size_and_weight_from_width
from crafteditor.ocr.lexicon import capital_i
from crafteditor.ocr.ones import restore_ones
from crafteditor.ocr.scripts import find_shifts, with_markup
from crafteditor.ocr.text_lines import TextLine, line_mask_level
from crafteditor.paint import darkest_color, distances
from crafter.spec.markup import plain, segments
from crafter.spec.model import RectGeometry

MATH_LABEL_CHARS = 5  # a math label's characters, scripts with them, at most (H_{t−1}: 4)


@dataclass
class TextRun(RectGeometry):
    """One line of recognised text, in image pixels."""

    text: str
    x: float  # ink box (axis-aligned, in the image)
    y: float
    w: float
    h: float
    angle: float  # 0: horizontal; -90: reads bottom-to-top (y-axis titles); 90: top-to-bottom; else slanted (SVG's rotate)
    font_px: float  # font size in image pixels
    bold: bool
    color: tuple[int, int, int]
    confidence: float
    baseline: float  # horizontal: the baseline's y; rotated: the baseline's x; slanted: the box's centre y
    glyphs: np.ndarray = field(repr=False)  # bool mask of the glyph pixels over the ink box
    source: str = "det"  # 'det' (detector box) or 'glyph' (second pass over lone glyphs)
    font: str | None = None  # font class: 'sans', 'serif' or 'mono'; None: too little to tell (ocr.font_class)
    marked: str | None = None  # the reading with its sub- and superscripts in Crafter's markup ('T_{1}')

    @property
    def shown(self) -> str:
        """The text a figure shows for this run: the marked reading where it is this run's
        (``text`` stays plain for the charts' number parsing: '10^{2}' is the tick 10²)."""
        return self.marked if self.marked and plain(self.marked) == self.text else self.text

    def spacing_at(self, font_px: float) -> float | None:
        """The letter spacing (image px) that sets this run at ``font_px`` as wide as its ink
        (:func:`~crafteditor.ocr.font_metrics.fitted_spacing`); None for a line set in serif or mono (measured
        in DejaVu Sans), with scripts (drawn smaller) or slanted, and where no spacing is needed."""
        if self.slanted or self.font in ("serif", "mono") or self.shown != self.text or not self.glyphs.size:
            return None
        along = self.glyphs.any(axis=0 if self.angle == 0 else 1)
        inked = np.nonzero(along)[0]
        if not len(inked):
            return None
        # the outermost columns are only partly inked (anti-aliasing): they add ~half a pixel (make_run)
        return fitted_spacing(self.text, float(inked[-1] - inked[0] + 1) - 0.45, font_px, self.bold)

    @property
    def slanted(self) -> bool:
        """Whether the run is set at a slant (neither level nor sideways): read from a deskewed crop."""
        return self.angle not in (0.0, 90.0, -90.0)

    @property
    def math_label(self) -> bool:
        """Whether this is a variable's name set level (A, X, C_t, x1, H_{t−1}): one or two characters,
        a letter first, before its scripts, and no space. Beside a line it names the wire, as an edge's
        label or free text: the pocket of paper it stands in is no node, and a line ending at it no edge
        unless a chain runs through it (round 14's lone labels had made both: mamba3's A and X
        wrapped in tall boxes between its lines, d2l's LSTM C_t an edge end)."""
        body = next((piece for piece, _ in segments(self.shown)), "")  # none: the text is empty scripts, '_{}'
        return (self.angle == 0 and " " not in self.text and len(self.text) <= MATH_LABEL_CHARS
                and 0 < len(body) <= 2 and body[0].isalpha())


def joined_glyphs(runs: tuple[TextRun, ...], x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    """The glyph masks of ``runs`` pasted into one over the box (x0, y0)-(x1, y1): two runs read as one."""
    glyphs = np.zeros((int(math.ceil(y1 - y0)), int(math.ceil(x1 - x0))), bool)
    for r in runs:
        gy, gx = int(round(r.y - y0)), int(round(r.x - x0))
        # a run starting above or left of the box (a rounded corner: x0 a half pixel past r.x) is cut at
        # the box's edge; a negative offset as a slice start would count from the far end instead
        sy, sx = max(0, -gy), max(0, -gx)
        ty, tx = gy + sy, gx + sx
        part = r.glyphs[sy:sy + glyphs.shape[0] - ty, sx:sx + glyphs.shape[1] - tx]
        if part.size:
            glyphs[ty:ty + part.shape[0], tx:tx + part.shape[1]] |= part
    return glyphs


_SPACED_DASH = re.compile(r"(?<=\w) ?([-–−]) ?(?=\w)")
_JOINED_DASH = re.compile(r"\w[-–−]\w")
_SPACED_READ = re.compile(r"\w (?:[-–−]) ?\w|\w[-–−] \w")


def make_run(text: str, conf: float, centres: list[float], crop: np.ndarray, line: TextLine, angle: float,
              region: np.ndarray, bg: np.ndarray, origin: tuple[int, int], source: str) -> TextRun | None:
    if angle == 0 and centres:
        text, centres, line = drop_stray_quote(text, centres, crop, line)
        line = trim_to_text(line, centres, crop, text)
        if line is None or not text.strip():
            return None
    mask = line.mask
    if line.slant:  # the mask turned level as the crop was (line_crops)
        upright = line_mask_level(line)
    else:
        upright = np.rot90(mask, k=0 if angle == 0 else (-1 if angle == -90 else 1))
    pad = (crop.shape[0] - upright.shape[0]) // 2
    ys = np.nonzero(upright.any(axis=1))[0]
    # the outermost rows are only partly inked (anti-aliasing): they add ~half a pixel to the height
    ink_h = max(1.0, float(ys[-1] - ys[0] + 1) - 0.45)
    lo, hi = ink_extent_em(text.replace(" ", ""))
    font_px = ink_h / max(0.3, hi - lo)
    # the passes below read the same components of the mask: labelled once, by the first pass that asks
    blobs = functools.cache(lambda: find_blobs(upright))
    text = restore_symbols(text, centres, upright, pad, font_px, blobs)
    text = restore_e(text, centres, upright, pad, font_px, blobs)
    text = restore_middle_dots(text, centres, upright, pad, font_px, blobs)
    text = restore_zeros(text, centres, upright, pad, font_px, blobs)
    text = restore_ones(text, centres, upright, pad, blobs)
    if angle == 0:  # a minus the recogniser dropped inside a script ('ht 1' for h_{t-1}) put back
        text, centres = restore_script_minus(text, centres, upright, pad, font_px, blobs)
    text = restore_dashes(text, centres, upright, pad, font_px, blobs)
    text = restore_case(text, centres, upright, pad, blobs)
    scripts = find_shifts(text, centres, upright, pad, blobs) if angle == 0 else None
    if scripts is not None:
        text = scripts[0]
    read = text
    ink = None
    if angle == 0:  # (a decimal point is no glyph of the mask: the gap that holds it keeps its space)
        patch = region[line.y0:line.y0 + mask.shape[0], line.x0:line.x0 + mask.shape[1]]
        dist = distances(patch, bg)
        ink = dist > 0.5 * float(dist.max())  # the glyphs' cores, not their anti-aliased rims
    text = restore_spaces(text, centres, upright, pad, font_px, ink).strip()
    if _JOINED_DASH.search(read) and not _SPACED_READ.search(read):
        # a dash read between two characters stays between them: the space put in beside it was the
        # dash's own side bearings ('Ct− 1' for c_{t−1}, 'St – 1')
        text = _SPACED_DASH.sub(r"\1", text)
    if scripts is None:
        text = capital_i(split_case_joins(text))
    if not text:
        return None
    marked = None
    if scripts is not None:  # T1 read from 'T₁': the small lowered 1 is a subscript
        marked = with_markup(read, text, scripts[1]).replace("...", "…")
        text = plain(marked)  # the minus signs it put right, for the charts too
    text = text.replace("...", "…")  # three dots read from an ellipsis (the same glyphs in DejaVu)
    lh, lw = mask.shape
    patch = region[line.y0:line.y0 + lh, line.x0:line.x0 + lw]
    color = darkest_color(patch, mask, bg.astype(np.float32))
    color = np.asarray(color if color is not None else (0, 0, 0), dtype=np.float32)
    bold = _is_bold(mask, _coverage(patch, mask, bg.astype(np.float32), color), font_px)
    xs = np.nonzero(upright.any(axis=0))[0]
    font_px, bold = size_and_weight_from_width(text, max(1.0, float(xs[-1] - xs[0] + 1) - 0.45), font_px, bold)
    baseline_up = ys[0] + hi * font_px  # baseline in upright line coordinates
    if scripts is not None:  # the size and baseline of the full-size characters
        font_px, baseline_up = scripts[2], scripts[3]
    oy, ox = origin
    gx, gy = ox + line.x0, oy + line.y0
    if angle == 0:
        baseline = gy + baseline_up
    elif angle == -90:
        # upright = mask turned clockwise: upright row r is mask column r
        baseline = gx + baseline_up
    elif line.slant:  # no row or column is the baseline of a slanted line: the box's centre row stands for it
        baseline = gy + lh / 2
    else:
        baseline = gx + (lw - baseline_up)
    return TextRun(
        text=text, x=float(gx), y=float(gy), w=float(lw), h=float(lh), angle=angle,
        font_px=float(font_px), bold=bold,
        color=tuple(int(round(float(v))) for v in color),  # type: ignore[arg-type]
        confidence=float(conf), baseline=float(baseline), glyphs=mask.copy(), source=source,
        font=font_class(text, upright), marked=marked,
    )


def _coverage(patch: np.ndarray, mask: np.ndarray, bg: np.ndarray, color: np.ndarray) -> np.ndarray:
    """How much of each pixel the glyphs cover (0..1), from its place between background and text colour."""
    span = float(np.linalg.norm(color - bg))
    if span < 1:
        return mask.astype(np.float32)
    dist = distances(patch, bg)
    near = cv2.dilate(mask.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    return np.where(near, np.clip(dist / span, 0.0, 1.0), 0.0).astype(np.float32)


def _is_bold(mask: np.ndarray, coverage: np.ndarray, font_px: float) -> bool:
    """Stroke width (ink coverage per skeleton pixel) over font size: DejaVu regular 0.09 em, bold 0.15 em."""
    if font_px < 7:
        return False
    from skimage.morphology import skeletonize  # heavy: 1.3 s to import; loaded with the first text run

    length = int(skeletonize(mask).sum())
    if length == 0:
        return False
    stroke = float(coverage.sum()) / length
    return stroke / font_px > 0.118


def dedupe(runs: list[TextRun]) -> list[TextRun]:
    """The detector sometimes boxes one word twice: keep the more confident reading; but a reading
    that begins or ends a longer one of the same line, in a box within the longer's, is that line cut
    short by a box (a table's column boxed as one with its widest row cut at the box's side: 'githu',
    surer than 'github_login')."""
    near = _crossing(runs)
    runs = [r for r, js in zip(runs, near) if not any(_piece_of(r, runs[j]) for j in js)]
    near = _crossing(runs)
    kept: list[int] = []  # surest first (the order ties in place keep), a slanted reading after every
    taken: set[int] = set()  # other: it never replaces an upright or sideways reading of the same ink
    for i in sorted(range(len(runs)), key=lambda i: (runs[i].slanted, -runs[i].confidence)):
        if any(j in taken and _overlap(runs[i], runs[j]) > 0.5 for j in near[i]):
            continue
        kept.append(i)
        taken.add(i)
    return sorted((runs[i] for i in kept), key=lambda r: (r.y, r.x))


def _crossing(runs: list[TextRun]) -> list[np.ndarray]:
    """For each run, the other runs whose boxes share some area with its box (the only ones
    :func:`_overlap` or :func:`_piece_of` can hold): each against every run in Python had taken
    6 s for a page of 2,000 runs."""
    if not runs:
        return []
    x, y = np.array([r.x for r in runs]), np.array([r.y for r in runs])
    right, bottom = np.array([r.right for r in runs]), np.array([r.bottom for r in runs])
    out = []
    for i in range(len(runs)):
        hit = (np.minimum(right, right[i]) > np.maximum(x, x[i])) & (np.minimum(bottom, bottom[i]) > np.maximum(y, y[i]))
        hit[i] = False
        out.append(np.flatnonzero(hit))
    return out


def _piece_of(piece: TextRun, whole: TextRun) -> bool:
    """Whether ``piece`` reads the start or end of ``whole``'s line, inside its box (±2 px)."""
    short, long = piece.text.strip(), whole.text.strip()
    return (piece.angle == whole.angle == 0 and len(long) > len(short) > 0
            and (long.startswith(short) or long.endswith(short))
            and whole.x - 2 <= piece.x and piece.right <= whole.right + 2 and _overlap(piece, whole) > 0.5)


def _overlap(a: TextRun, b: TextRun) -> float:
    """The share of the smaller run's box the other's covers; of its glyph pixels where one run is
    slanted and the other not (a slanted line's upright box holds much page that is none of its ink)."""
    if a.slanted != b.slanted:
        return _shared_ink(a, b)
    ix = max(0.0, min(a.right, b.right) - max(a.x, b.x))
    iy = max(0.0, min(a.bottom, b.bottom) - max(a.y, b.y))
    small = min(a.w * a.h, b.w * b.h)
    return ix * iy / small if small > 0 else 0.0


def _shared_ink(a: TextRun, b: TextRun) -> float:
    """The share of the fewer-pixelled run's glyph pixels that are glyph pixels of the other too."""
    x0, y0 = int(round(max(a.x, b.x))), int(round(max(a.y, b.y)))
    x1, y1 = int(round(min(a.right, b.right))), int(round(min(a.bottom, b.bottom)))
    small = min(int(a.glyphs.sum()), int(b.glyphs.sum()))
    if x1 <= x0 or y1 <= y0 or small == 0:
        return 0.0

    def part(r: TextRun) -> np.ndarray:
        ox, oy = int(round(r.x)), int(round(r.y))
        g = np.zeros((y1 - y0, x1 - x0), bool)
        piece = r.glyphs[y0 - oy:y1 - oy, x0 - ox:x1 - ox]
        g[:piece.shape[0], :piece.shape[1]] = piece
        return g
    return float((part(a) & part(b)).sum()) / small


def ink_gaps(run: TextRun) -> tuple[np.ndarray, list[tuple[int, int]]] | None:
    """The run's inked glyph-mask columns and the (start, end) columns of each gap between its first and last
    inked column; None where its mask holds no ink."""
    cols = run.glyphs.any(axis=0)
    ink = np.flatnonzero(cols)
    if ink.size == 0:
        return None
    edges = np.flatnonzero(np.diff(cols[ink[0]:ink[-1] + 1].astype(np.int8)))
    return ink, [(int(ink[0] + a + 1), int(ink[0] + b + 1)) for a, b in zip(edges[0::2], edges[1::2])]


def split_wide_gaps(run: TextRun, min_gap_em: float = 0.6) -> list[TextRun]:
    """A horizontal run cut where its ink has a gap of ``min_gap_em`` or more between words,
    each piece with the words whose ink width fits it: two category labels set close together
    ('Mamba ResNet') that the detector read as one line. ``[run]`` where there is no such gap or
    the words cannot be shared out between the pieces."""
    words = run.text.split(" ")
    if run.angle != 0 or not 2 <= len(words) <= 12:  # (the word cuts are tried exhaustively)
        return [run]
    found = ink_gaps(run)
    if found is None:
        return [run]
    ink, gaps = found
    wide = [g for g in gaps if g[1] - g[0] >= min_gap_em * run.font_px]
    if not wide or len(wide) >= len(words):
        return [run]
    bounds = [int(ink[0])] + [c for g in wide for c in g] + [int(ink[-1]) + 1]
    pieces = list(zip(bounds[0::2], bounds[1::2]))  # ink columns of each piece
    # share the words out in order so each piece's text is as wide as its ink
    widths = [ink_width_em(w, run.bold) for w in words]
    if any(w is None for w in widths):
        return [run]
    space = (ink_width_em("a a", run.bold) or 0.0) - 2 * (ink_width_em("a", run.bold) or 0.0)
    best: tuple[float, list[int]] | None = None
    for cut in itertools.combinations(range(1, len(words)), len(pieces) - 1):
        parts = [list(range(a, b)) for a, b in zip((0,) + cut, cut + (len(words),))]
        cost = 0.0
        for ws, (c0, c1) in zip(parts, pieces):
            em = sum(widths[i] for i in ws) + space * (len(ws) - 1)  # type: ignore[misc]
            cost += abs(em * run.font_px - (c1 - c0)) / max(1, c1 - c0)
        if best is None or cost < best[0]:
            best = (cost, list(cut))
    if best is None or best[0] / len(pieces) > 0.25:
        return [run]
    cut = best[1]
    marks = run.marked.split(" ") if run.marked and len(run.marked.split(" ")) == len(words) else None
    out = []
    for (a, b), (c0, c1) in zip(zip([0] + cut, cut + [len(words)]), pieces):
        rows = np.flatnonzero(run.glyphs[:, c0:c1].any(axis=1))
        r0, r1 = int(rows[0]), int(rows[-1]) + 1
        marked = " ".join(marks[a:b]) if marks else None
        out.append(replace(run, text=" ".join(words[a:b]), marked=marked, x=run.x + c0, y=run.y + r0, w=float(c1 - c0),
                           h=float(r1 - r0), glyphs=run.glyphs[r0:r1, c0:c1].copy()))
    return out
