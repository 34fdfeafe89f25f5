"""The vectorizer: one raster figure → one FigureSpec, every detected position pinned.

Order matters, and each stage removes what it explained so the next sees less:

    paints → text (OCR, then erased) → charts → shapes (nodes, groups) → lines/arrows → leftovers

Then the pieces are tied together (:mod:`crafteditor.assemble`): text inside a shape becomes
its label, text beside a line its edge label, text in a frame's top band the group's label;
line ends are attached to the shapes they touch (source/target ids, so edges re-route when a
box moves); lines that touch nothing stay free paths. Coordinates are converted from image
pixels to SVG user units (96 per inch) with the image's dpi, so re-rendering at that dpi gives
back an image of the input's size.
"""

from __future__ import annotations

import contextlib
import math
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np

from crafteditor.assemble.block_arrows import block_arrows
from crafteditor.assemble.builder import FigureBuilder
from crafteditor.assemble.circled import operator_glyph
from crafteditor.assemble.figure import build_figure
from crafteditor.assemble.leftovers import free_line
from crafteditor.assemble.seq_reread import first_messages, lost_sequence
from crafteditor.blobs import find_blobs, hull_mask
from crafteditor.charts import detect_charts
from crafteditor.config import PRESETS, Config, budget_clock, past
from crafteditor.hand_text import fit_hand_lettering, trim_stray_strokes
from crafteditor.hatching import dehatched
from crafteditor.jpeg_marks import has_jpeg_marks
from crafteditor.lighting import evened_photo, on_paper
from crafteditor.lines.paths import LinePath
from crafteditor.lines.stubs import stub_between
from crafteditor.lines.widths import detect_lines_by_width
from crafteditor.loading import ImageSource, RasterImage, load_image
from crafteditor.ocr.engine import get_engine
from crafteditor.ocr.erase import erase_text
from crafteditor.ocr.read import read_text
from crafteditor.ocr.runs import TextRun
from crafteditor.paint import Paints, blend_position, distances, farther_than, find_paints, flattened_gradients, prepare
from crafteditor.photos import PhotoRegion, find_photos, photo_mask
from crafteditor.shapes.badges import read_badges
from crafteditor.shapes.detect import DetectedShape, between_nodes, detect_shapes, keep_shapes
from crafteditor.shapes.polygons import polygon_paths
from crafteditor.shapes.sketch import add_sketch_shapes, hand_drawn_outlines
from crafteditor.sketch_lines import mend_sketch_lines
from crafteditor.trace import image_object, node_pictograms, trace_leftovers
from crafter.spec.model import Figure

FOREIGN_INK = 60.0  # RGB distance: ink this far off every blend of a group's paints is no part of its ring
ALONG_SIDE = 0.25  # a line along a group's rim runs at least this share of the group's shorter side
DRAWN_ROUND = 0.5  # a group's stroke draws at least this share of each side's middle: its outline (else a line's)
# lossy images: residual ink must differ from the canvas by this much (RGB distance); Crafter's
# lightest strokes are ~110 from white, a q75 JPEG's ringing mostly under 60
LOSSY_INK_CONTRAST = 80.0


@dataclass
class Vectorized:
    """The result of reading one raster figure."""

    figure: Figure
    image: RasterImage
    stats: dict[str, Any] = field(default_factory=dict)  # counts, timings, ink coverage
    texts: list[TextRun] = field(default_factory=list, repr=False)
    shapes: list[DetectedShape] = field(default_factory=list, repr=False)
    lines: list[LinePath] = field(default_factory=list, repr=False)
    read_scale: float | None = None  # user units per pixel of the image read (texts, shapes, lines), if not image's


def vectorize(source: ImageSource | RasterImage, config: Config | None = None, *,
              name: str | None = None, started: float | None = None, text: list[TextRun] | None = None,
              reread: bool = True) -> Vectorized:
    """Read a figure (path, bytes, array, PIL image or loaded image) into a FigureSpec.

    ``started``: when the figure's reading began (:func:`~crafteditor.config.budget_clock`), where
    this is a second reading of it (its time budget runs from the first); ``text``: the first reading's text, read from the same
    pixels (the runs under this config's confidence gate are dropped, none is read again); ``reread``: False where
    the auto preset's second reading as a sketch is ruled out (it lost a sequence diagram). OpenCV
    runs on ``config.cv_threads`` threads meanwhile (:func:`cv_threads`)."""
    config = config or Config()
    with cv_threads(config.cv_threads):
        return _read(source, config, name=name, started=started, text=text, reread=reread)


_CV_LOCK = threading.Lock()
_cv_held = {"readings": 0, "caller": 0}  # readings in flight on cv_threads, and the count before the first


@contextlib.contextmanager
def cv_threads(count: int) -> Iterator[None]:
    """OpenCV's worker threads set to ``count`` while the block runs, and back to what they were
    after (0: left as they are). A figure's arrays are small for OpenCV's thread pool: handing
    each call's rows to a second thread and waiting for it cost more CPU than it saved. With the
    text detector on one onnxruntime thread too (``Config.ocr_threads``), the dev real set's 127
    figures took 171.3 -> 163.9 CPU-s (each read both ways in turn in one process, a loaded 2-core
    machine; text 56.7 -> 53.8, shapes 28.8 -> 26.7, load 11.8 -> 10.3), every SVG byte-identical.
    vtracer, which the CPU aim is measured against, runs on one thread. The count is the process's
    and readings overlap in threads (the app reads each session in its own): the first reading in
    saves the caller's count, the last one out puts it back."""
    if count <= 0:
        yield
        return
    with _CV_LOCK:
        if _cv_held["readings"] == 0:
            _cv_held["caller"] = cv2.getNumThreads()
        _cv_held["readings"] += 1
        cv2.setNumThreads(count)
    try:
        yield
    finally:
        with _CV_LOCK:
            _cv_held["readings"] -= 1
            if _cv_held["readings"] == 0:
                cv2.setNumThreads(_cv_held["caller"])


def _read(source: ImageSource | RasterImage, config: Config, *, name: str | None,
          started: float | None, text: list[TextRun] | None, reread: bool = True) -> Vectorized:
    """:func:`vectorize`'s reading, on the threads it set."""
    # long: the stages in their order, each timed and asked of the time budget, read top to bottom
    c0 = budget_clock()  # the budget counts all of the reading: loading, evening a photo's lighting, dehatching
    image = source if isinstance(source, RasterImage) else load_image(source, config, name=name)
    shown = image  # what the figure drawn back is compared with
    photo = evened_photo(image) if text is None else None  # a photographed board: its lighting divided out
    image = photo.image if photo is not None else image
    if text is None and photo is None:  # hachure fills read as the flat fills they stand for
        image = dehatched(image) or image
    # a PNG that was once a JPEG (a page's screenshot) is read as one
    lossy_png = config.preset_name == "auto" and (image.source_format or "").upper() not in ("JPEG", "MPO") \
        and has_jpeg_marks(image.rgb)
    config = config.for_image(image.source_format, jpeg_marks=lossy_png)
    if photo is not None:  # the whole image is the photo read: no photos in it (its marker letters looked like some)
        config = config.replace(photos=False)
    watch = Stopwatch(budget_clock() - c0)
    budget = Budget(config.time_budget(shown.width, shown.height), c0 if started is None else started)
    budget.rereads = reread
    # a gradient fill reads as one flat paint (its mean): banded, it was a stack of faces
    rgb = flattened_gradients(prepare(image.rgb, config)).copy()
    paints = find_paints(rgb, config, image.page)
    # a lossy image's ringing around every stroke and glyph is faint ink: content is drawn in
    # contrast (it is not a line, and not ink an editability share should count)
    strong = _in_contrast(rgb, paints) if config.lossy else None
    ink_total = int((paints.ink_mask() if strong is None else paints.ink_mask() & strong).sum())
    watch.lap("paints")

    # glyphs are read from the pixels as decoded: a median filter (scans, JPEG) thins strokes
    # and fills counters, and the recogniser was trained on unfiltered text
    if text is not None:
        runs = [r for r in text if r.confidence >= config.ocr_min_confidence] if config.ocr else []
    else:
        runs = read_text(image.rgb if config.denoise else rgb, paints, config, deadline=budget.deadline) \
            if config.ocr and not budget.over("text") else []
    read = list(runs)
    text_ink = _glyph_mask(runs, rgb.shape[:2])
    line_rgb = rgb
    if config.denoise:
        # lines are traced on the pixels as decoded: a 3×3 median takes a 1 px line's core to
        # the median of its neighbours (60 -> 180 on a q75 JPEG) and breaks its dashes
        line_rgb = image.rgb.copy()
        erase_text(line_rgb, replace(paints, labels=paints.labels.copy()), runs, ring=2 if config.lossy else 1)
    erase_text(rgb, paints, runs, ring=2 if config.lossy else 1)
    watch.lap("text")
    budget.ran("text")

    charts: list[Any] = []
    chart_mask = np.zeros(rgb.shape[:2], bool)
    if config.charts and config.mode != "diagram" and not budget.over("charts"):
        charts = detect_charts(rgb, paints, runs, config, image)
        for ch in charts:
            chart_mask |= ch.mask
    # photos and screenshots are kept whole: no text, shapes or lines in them
    photos, runs = _photos(image, paints, runs, chart_mask, config, keep_runs=bool(charts))
    photo_px = photo_mask(photos, rgb.shape[:2])
    watch.lap("charts")
    budget.ran("charts")

    shapes, sketched, rereads = _shapes(rgb, line_rgb, paints, config, image.scale, chart_mask | photo_px, runs, charts,
                                        budget)
    # hand-drawn: read again as a sketch (see _shapes), where the budget leaves time for it; else
    # the first reading stands, its sketch shapes with it (kept only where their outlines wobble)
    if sketched and rereads:
        # its text is this reading's (both read the pixels as decoded): OCR was half a re-read's cost
        first = first_messages(image.rgb, paints.background_rgb, shapes, runs)
        # the third reading's decision, like the second's, by the work judged (taken before the re-read)
        work = 5 * reading_work(rgb.shape, runs, shapes)  # this reading, the re-read and the third, 2 each
        c1 = budget_clock()
        again = vectorize(image, config.replace(**PRESETS["sketch"], preset_name="sketch"), name=name,
                          started=budget.start, text=read)
        discarded = budget_clock() - c1
        # a typeset sequence diagram: the first reading, finished (seq12), where the budget affords a
        # third reading as dear as the second, and the second was not cut short (it lost its messages to that)
        if lost_sequence(first, again.stats) and not again.stats["over_budget"] and budget.fits(work):
            again = vectorize(image, config, name=name, started=budget.start, text=read, reread=False)
        else:
            discarded = 0.0
        again.image = shown
        again.stats["cpu"] = _with_first_reading(again.stats["cpu"], watch.cpu, budget_clock() - c0, discarded)
        if photo is not None:
            again.figure = on_paper(again.figure, photo.paper)
        return again
    if config.ocr and shapes and not budget.over("badges"):
        runs += read_badges(image.rgb, shapes, runs, get_engine(config.ocr_threads), config, image.scale)
    # hand-drawn: an Excalidraw export's boxes (or ellipses) read as typeset; hand lettering only where the boxes
    # bow as a hand's do, three sides or more wobbling or no two mirroring (a typeset pill's round ends stray too)
    wobbly, lettered = hand_drawn_outlines(shapes)
    shape_mask = _shape_mask(shapes, rgb.shape[:2], hulled=not (sketched or wobbly),
                             line_rgb=line_rgb, background=paints.background_rgb)
    watch.lap("shapes")
    budget.ran("shapes")

    ink = paints.ink_mask()
    if strong is not None:
        ink = ink & strong
    # a lossy image's lines: what is drawn in contrast in the decoded pixels (see line_rgb)
    line_ink = _in_contrast(line_rgb, paints) if line_rgb is not rgb and strong is not None else ink
    residual = line_ink & ~shape_mask & ~chart_mask & ~photo_px
    # logos in tiles and discs: kept as pictures (no lines, no tracing in them)
    # (an operator's circle, its glyph unread, is labelled by that glyph: crafteditor.assemble.circled)
    pictos = [] if charts or sketched else node_pictograms(
        image.rgb, rgb, [s for s in shapes if operator_glyph(image.rgb, s) is None], image.scale,
        [(r.cx, r.cy) for r in runs])
    for o in pictos:
        px0, py0 = int(o.box[0] / image.scale), int(o.box[1] / image.scale)
        residual[py0:py0 + int(round(o.box[3] / image.scale)), px0:px0 + int(round(o.box[2] / image.scale))] = False
    lines: list[LinePath] = []
    pencil: list[LinePath] = []  # a sketch's shapes' own pencil traced as lines: drawn, joined to nothing
    line_mask = np.zeros_like(residual)
    if config.edges and residual.any() and not budget.over("lines"):
        head_ink = line_ink & ~_face_mask(shapes, rgb.shape[:2]) & ~chart_mask & ~photo_px
        # a block arrow between two nodes is a blob no stroke width fits: read first, its pixels set aside
        blocks, block_px = block_arrows(residual, rgb, shapes) if not sketched else ([], None)
        if blocks:
            residual = residual & ~block_px
        lines, line_mask = detect_lines_by_width(line_rgb, residual, paints.background_rgb, paints.labels, head_ink)
        near_shape = cv2.dilate(shape_mask.astype(np.uint8), np.ones((9, 9), np.uint8)).astype(bool)
        lines = [ln for ln in lines
                 if (_line_is_real(ln, image.scale) or stub_between(ln, shape_mask, lines))
                 and (ln.pieces > 0 or _between_shapes(ln, near_shape))]
        line_mask = _redraw_line_mask(lines, residual)
        if sketched or wobbly:
            lines, pencil = mend_sketch_lines(lines, shapes, line_rgb, paints)
        lines += blocks
    watch.lap("lines")
    budget.ran("lines")

    leftover = residual & ~line_mask
    traced = trace_leftovers(_trace_source(image.rgb, rgb, text_ink), leftover, paints.background_rgb, config,
                             image.scale, deadline=budget.deadline)
    traced += [image_object(image.rgb, ph.box, image.scale) for ph in photos] + pictos
    watch.lap("trace")
    budget.ran("trace")

    by_hand = sketched or photo is not None  # read as a sketch or a photographed page
    if by_hand or lettered:  # hand lettering: strokes beside it read as letters
        runs = trim_stray_strokes(runs)
    if by_hand or wobbly:  # sized by its width, as round 23 did on every page whose boxes stray
        runs = fit_hand_lettering(runs)  # (a PlantUML or draw.io page's pills: its SSIM fell 0.78 -> 0.75 without)
    builder = FigureBuilder(image, config, paints)
    polygons = [s for s in shapes if s.shape == "polygon"]  # last in the list: no group holds them
    fig = build_figure(builder, runs, [s for s in shapes if s.shape != "polygon"], lines, charts, traced,
                       deadline=budget.deadline)
    if polygons or pencil:
        drawn = [*polygon_paths(builder, polygons), *(p for ln in pencil for p in free_line(builder, ln, ln.points))]
        fig = fig.model_copy(update={"components": [*fig.components, *drawn]})
    if photo is not None:
        fig = on_paper(fig, photo.paper)
    watch.lap("assemble")
    budget.ran("assemble")

    primitive_ink = int((ink & (shape_mask | line_mask | chart_mask)).sum()) + int(text_ink.sum())
    traced_ink = sum(o.ink for o in traced)
    stats = {
        "width": image.width, "height": image.height, "dpi": image.dpi,
        "paints": int(len(paints.colors)),
        "ink_pixels": ink_total,
        "ink_primitive": primitive_ink,
        "ink_traced": traced_ink,
        "text_runs": len(runs),
        "photos": len(photos),
        "text_chars": sum(len(r.text.replace(" ", "")) for r in runs),
        "text_chars_kept": builder.chars_kept,
        "sequence_messages": builder.sequence_messages,
        "timings": {k: round(v, 4) for k, v in watch.wall.items()},
        "cpu": {k: round(v, 4) for k, v in watch.cpu.items()},
        "preset": config.preset_name,
        "time_budget_s": budget.seconds,
        "over_budget": budget.skipped,
    }
    return Vectorized(figure=fig, image=shown, stats=stats, texts=runs, shapes=shapes, lines=lines,
                      read_scale=image.scale)


class Stopwatch:
    """Each stage's seconds, lap by lap: ``wall`` (the report's ``timings``) and ``cpu`` (all threads, the
    budget's clock: the report's ``cpu_stages``); ``load``: the CPU seconds spent before the first stage."""

    def __init__(self, load: float) -> None:
        self.wall: dict[str, float] = {}
        self.cpu = {"load": load}
        self._wall, self._cpu = time.perf_counter(), budget_clock()

    def lap(self, stage: str) -> None:
        """Record ``stage`` as the time since the last lap (or the start)."""
        wall, cpu = time.perf_counter(), budget_clock()
        self.wall[stage], self.cpu[stage] = wall - self._wall, cpu - self._cpu
        self._wall, self._cpu = wall, cpu


def _with_first_reading(again: dict[str, float], first: dict[str, float], spent: float,
                        discarded: float = 0.0) -> dict[str, float]:
    """A re-read figure's CPU seconds per stage (``again``: the reading kept's; ``first``: the first
    reading's stages lapped before its shapes; ``spent``: all the reading's CPU so far; ``discarded``: a
    second reading thrown away for a third, the first finished: the stage ``discarded re-read``). The first
    reading's loading (with its evening of a photo's lighting and its dehatching) and its text are the
    second's too, and count under ``load`` and ``text``; what it spent on paints, charts and shapes
    was thrown away: that is the stage ``first reading`` (it had held all of the first reading: on the dev
    split's six re-read figures 4.2 CPU-s, of which 1.4 s was thrown away and the rest was OCR and loading)."""
    first_total = spent - sum(again.values()) - discarded
    kept = {"load": first.get("load", 0.0), "text": first.get("text", 0.0)}
    out = {"first reading": round(first_total - sum(kept.values()), 4), **again}
    if discarded:
        out["discarded re-read"] = round(discarded, 4)
    for stage, seconds in kept.items():
        out[stage] = round(out.get(stage, 0.0) + seconds, 4)
    return out


# a first reading's CPU seconds up to its shapes, judged from its work: at least what such readings spent on the
# shared 2-core machine under a load of ~20 (dev, judged against spent: C_autumn_architecture 4.1 against 4.1,
# C_gamification-engine_erm-2015 5.7 against 3.2, A_mamba_mamba3 6.6 against 3.6, G_clem_sleep-cycle 17.0 against
# 9.4; of 20 dev figures measured, the largest and the re-read, three times the work judged takes at most 0.74 of the
# budget, B_flash-attention_fa2-a100)
WORK_PER_MP = 1.0  # per megapixel read (paints, charts, faces: a page's worth of array passes)
WORK_PER_RUN = 0.02  # per text line read (the recogniser, the run's glyph mask and corrections)
WORK_PER_SHAPE = 0.01  # per shape found (each face classified, its outline measured)


def reading_work(shape: tuple[int, ...], runs: list[Any], shapes: list[Any]) -> float:
    """The CPU seconds a first reading spends up to its shapes, judged from what it read: the pixels
    (``shape``: the image read's), its text lines and its shapes (:data:`WORK_PER_MP`, ...). What a
    second reading's decision weighs instead of the clock: a figure's output does not depend on the
    machine's load."""
    return WORK_PER_MP * shape[0] * shape[1] / 1e6 + WORK_PER_RUN * len(runs) + WORK_PER_SHAPE * len(shapes)


class Budget:
    """A figure's time budget, in CPU seconds (:func:`~crafteditor.config.budget_clock`; ``start``
    and ``deadline`` are that clock's readings): stages asked after it is spent are skipped, and named; so are the
    stages it ran out during (each stops early where it can: OCR after its first reading,
    shapes at the next face, tracing by keeping the rest as image patches, joins at the next
    line), so a figure marked over budget is one whose reading was cut short."""

    def __init__(self, seconds: float | None, start: float) -> None:
        self.seconds = seconds
        self.start = start
        self.deadline = None if seconds is None else start + seconds
        self.skipped: list[str] = []
        self.rereads = True  # whether the auto preset may read the figure again as a sketch

    def affords(self, work: float) -> bool:
        """Whether a second reading fits: it costs about twice what the first spent up to the
        shapes (it reads everything again, then goes on to lines, tracing and assembly), so three
        times that (``work``: :func:`reading_work`, judged from the figure, not timed) within the budget.
        Timed, the choice had depended on the machine's load (a drawn Excalidraw scene was read again
        at a load of ~16 and not at ~23, round 23): the output of one figure was not one output."""
        return self.seconds is None or 3 * work <= self.seconds

    def fits(self, work: float) -> bool:
        """Whether readings judged to cost ``work`` CPU seconds in all (:func:`reading_work`) fit the
        budget, and it is not spent yet (a reading cut short past it is marked over budget)."""
        # start + seconds: the deadline, the same sum (typed by the test on seconds), on this module's clock
        return self.seconds is None or (work <= self.seconds and budget_clock() <= self.start + self.seconds)

    def over(self, stage: str) -> bool:
        """Whether ``stage`` must be skipped (recorded if so)."""
        if not past(self.deadline):
            return False
        self.skipped.append(stage)
        return True

    def ran(self, stage: str) -> None:
        """Record ``stage`` if the budget ran out while it ran."""
        if past(self.deadline) and stage not in self.skipped:
            self.skipped.append(stage)


def _shapes(rgb: np.ndarray, raw: np.ndarray, paints: Paints, config: Config, scale: float, exclude: np.ndarray,
            runs: list[TextRun], charts: list[Any], budget: Budget) -> tuple[list[DetectedShape], bool, bool]:
    """(nodes and group frames, whether hand-drawn outlines were among them, whether a second
    reading as a sketch follows: the auto preset's, where the budget affords it; else rough outlines
    are kept only where they wobble: :func:`crafteditor.shapes.sketch.looks_hand_drawn`). ``raw``: the
    pixels as decoded, text erased. Read with the default settings, a hand-drawn figure's paper
    grain and uneven pencil came back as ~800 traced specks (a 1100×520 pencil sketch): the
    caller reads it again with the sketch preset."""
    if not (config.shapes and (config.mode != "chart" or not charts)) or budget.over("shapes"):
        return [], False, False
    shapes = detect_shapes(rgb, paints, config, scale, exclude=exclude, raw=raw, deadline=budget.deadline, runs=runs)
    # a sequence diagram whose second reading lost it: this reading, finished, as a plain first reading
    # would be (its rough outlines kept only where they wobble)
    rereads = config.preset_name == "auto" and budget.rereads and budget.affords(reading_work(rgb.shape, runs, shapes))
    shapes, sketched = add_sketch_shapes(raw, paints, config, scale, shapes, exclude=exclude,
                                         runs=runs if config.ocr else None, rereads=rereads)
    keep = between_nodes(shapes)  # two arrows between two stacked nodes wall off no box
    return (shapes if len(keep) == len(shapes) else keep_shapes(shapes, keep)), sketched, rereads


def _photos(image: RasterImage, paints: Paints, runs: list[TextRun], chart_mask: np.ndarray, config: Config,
            keep_runs: bool) -> tuple[list[PhotoRegion], list[TextRun]]:
    """(the photo regions, the text runs outside them). A region inside a chart, or holding
    a line of text read with confidence (a label in colour-fringed type looks like a photo's
    texture), is no photo. ``keep_runs``: charts hold their runs by index, none is dropped."""
    if not config.photos:
        return [], runs

    def inside(r: TextRun, ph: PhotoRegion) -> bool:
        # or the region mostly inside the line: a snug region of a line's own colour-fringed
        # glyphs (white on a saturated header, 60×10 px in a 65×22 line) is that line
        ow = min(r.right, ph.x + ph.w) - max(r.x, ph.x)
        oh = min(r.bottom, ph.y + ph.h) - max(r.y, ph.y)
        return (ph.x <= r.x and ph.y <= r.y and r.right <= ph.x + ph.w and r.bottom <= ph.y + ph.h) or (
            ow > 0 and oh > 0 and ow * oh >= 0.5 * ph.w * ph.h)

    photos = [ph for ph in find_photos(image.rgb, config.lossy, paints.background_rgb)
              if chart_mask[ph.y:ph.y + ph.h, ph.x:ph.x + ph.w].mean() < 0.3
              and not any(inside(r, ph) and r.confidence >= 0.8 and sum(ch.isalnum() for ch in r.text) >= 3
                          for r in runs)]
    if photos and not keep_runs:
        runs = [r for r in runs if not any(ph.x <= r.cx <= ph.x + ph.w and ph.y <= r.cy <= ph.y + ph.h
                                           for ph in photos)]
    return photos, runs


def _trace_source(decoded: np.ndarray, erased: np.ndarray, text_ink: np.ndarray) -> np.ndarray:
    """The pixels leftovers are traced from: as decoded, but where text was erased as erased.
    A leftover's mask, grown by a pixel, took thin glyph strokes back and drew each label
    twice (CLIP's trapezoid 'Text Encoder' traced with its letters under the <text>)."""
    if not text_ink.any():
        return decoded
    near = cv2.dilate(text_ink.astype(np.uint8), np.ones((5, 5), np.uint8))
    if decoded.dtype == erased.dtype == np.uint8 and decoded.shape == erased.shape and decoded.ndim == 3:
        # OpenCV's masked copy: the same pixels as np.where's, in a third of the time (90 -> 35 ms at 15 MP)
        return cv2.copyTo(erased, near, np.array(decoded, copy=True, order="C"))
    return np.where(near.astype(bool)[..., None], erased, decoded)


# -- masks ----------------------------------------------------------------------------------

def _glyph_mask(runs: list[TextRun], shape: tuple[int, int]) -> np.ndarray:
    m = np.zeros(shape, bool)
    for r in runs:
        x0, y0 = int(r.x), int(r.y)
        hh, ww = r.glyphs.shape
        m[y0:y0 + hh, x0:x0 + ww] |= r.glyphs
    return m


def _paste(into: np.ndarray, part: np.ndarray, x: int, y: int, *, union: bool = False) -> None:
    """``part`` pasted into ``into`` at (x, y) (or'ed in, where ``union``), clipped on every side: a
    face's masks may reach past the image's edge (a hand-drawn outline redrawn half a pencil stroke
    out starts left of 0)."""
    H, W = into.shape
    sx, sy = max(0, -x), max(0, -y)
    ex, ey = min(part.shape[1], W - x), min(part.shape[0], H - y)
    if ex > sx and ey > sy:
        if union:
            into[y + sy:y + ey, x + sx:x + ex] |= part[sy:ey, sx:ex]
        else:
            into[y + sy:y + ey, x + sx:x + ex] = part[sy:ey, sx:ex]


def _shape_mask(shapes: list[DetectedShape], shape: tuple[int, int], hulled: bool = True,
                line_rgb: np.ndarray | None = None, background: Any = None) -> np.ndarray:
    """Pixels a shape explains: its face, its stroke ring, and for nodes everything inside; ``hulled``: a
    group's ring follows its face's hull (a pencilled frame's wobbling stroke strays from its hull: not there).
    ``line_rgb`` and ``background``: a group's ring leaves out the ink in no colour of the group's
    (:func:`_foreign_ink`)."""
    H, W = shape
    m = np.zeros(shape, bool)
    for s in shapes:
        f = s.face
        ring = int(math.ceil(s.stroke_px + 2.5))
        x0, y0 = max(0, f.x - ring), max(0, f.y - ring)
        x1, y1 = min(W, f.x + f.w + ring), min(H, f.y + f.h + ring)
        local = np.zeros((y1 - y0, x1 - x0), np.uint8)
        _paste(local, f.filled, f.x - x0, f.y - y0)
        if hulled and s.is_group and local.any():
            # a frame's outline is its hull: links crossing its border wall off notches of its face
            # (a basis curve from a node inside up through the top border), whose sides are those links
            local = hull_mask(local).astype(np.uint8)
        grown = cv2.dilate(local, np.ones((2 * ring + 1, 2 * ring + 1), np.uint8)).astype(bool)
        if s.is_group:
            own = np.zeros_like(grown)
            _paste(own, f.mask, f.x - x0, f.y - y0)
            inside = cv2.erode(local, np.ones((3, 3), np.uint8)).astype(bool)
            rim = grown & ~inside
            if line_rgb is not None and background is not None:
                crop = line_rgb[y0:y1, x0:x1]
                stroke = s.stroke if s.stroke is not None and _drawn_round(crop, s.stroke, (
                    f.x - x0, f.y - y0, f.w, f.h), ring) else None
                foreign = np.zeros_like(rim)
                foreign[rim] = _foreign_ink(crop[rim], (background, s.fill, stroke))
                rim &= ~_along_rim(foreign, 2 * ring + 1, ALONG_SIDE * min(f.w, f.h))
            m[y0:y1, x0:x1] |= rim | own
            if s.sides is not None:
                _side_bands(m, s)
        else:
            m[y0:y1, x0:x1] |= grown
    return m


def _foreign_ink(pixels: np.ndarray, colors: tuple[Any, ...]) -> np.ndarray:
    """Which ``pixels`` (N×3) of a group's ring are in no colour of the group's: off every blend of
    ``colors`` (the canvas, its fill, its stroke where it draws the outline all round; None: none) by
    over FOREIGN_INK. A line drawn over a borderless band (draw.io's org charts and
    swimlanes: a tree's trunk down over a tinted row) walls the band's face off there, and the faces
    either side are frames whose rings are that line: erased with them, the trunk was gone for the band's
    height, and each child under it lost its parent (its pieces 'one end only'). A stroke in the
    frame's own colour stays erased (the line cut there is bridged: :func:`~crafteditor.assemble.joins.bridge_gaps`)."""
    paints = [c for c in colors if c is not None]
    near = np.full(len(pixels), np.inf, np.float32)
    for i, a in enumerate(paints):
        for b in paints[i + 1:]:
            near = np.minimum(near, blend_position(pixels, a, b)[1])
    return near > FOREIGN_INK


def _along_rim(foreign: np.ndarray, rim_width: int, longer: float) -> np.ndarray:
    """The pieces of ``foreign`` that run along one side of a group's rim: no wider than the rim across,
    ``longer`` along it and over twice the rim's width (an outline all round, in a stroke the group's
    was not read as, is none). A line crossing the border stays erased there, as it was: it is bridged
    (:func:`~crafteditor.assemble.joins.bridge_gaps`); kept, a PowerPoint class diagram's dotted links had
    their dots chained across the figure to another line's, and a Mermaid link leaving nested subgraphs
    at a slant was cut elsewhere."""
    n, labels, stats, _ = find_blobs(foreign)
    long = np.zeros(n, bool)
    w, h = stats[1:, cv2.CC_STAT_WIDTH], stats[1:, cv2.CC_STAT_HEIGHT]
    long[1:] = (np.minimum(w, h) <= rim_width + 2) & (np.maximum(w, h) > max(longer, 2 * rim_width))
    return long[labels]


def _drawn_round(crop: np.ndarray, stroke: tuple[int, int, int], box: tuple[int, int, int, int], reach: int) -> bool:
    """Whether ``stroke`` draws each of the four sides of ``box`` (x, y, w, h in ``crop``) along most of its
    middle, within ``reach`` px across: an outline. The faces either side of a line over a borderless band
    read that line as their stroke, on their two sides along it only."""
    x, y, w, h = box
    H, W = crop.shape[:2]
    bands = [crop[max(0, v - reach):min(H, v + reach + 1), x + w // 10:x + w - w // 10] for v in (y, y + h)]
    bands += [crop[y + h // 10:y + h - h // 10, max(0, v - reach):min(W, v + reach + 1)].transpose(1, 0, 2)
              for v in (x, x + w)]
    return all(b.size > 0 and float((distances(b, stroke) <= FOREIGN_INK).any(axis=0).mean()) >= DRAWN_ROUND
               for b in bands)


def _side_bands(m: np.ndarray, s: DetectedShape) -> None:
    """A dashed frame's four sides, as drawn (:attr:`DetectedShape.sides`), set in ``m``: its face runs into
    the gaps, up to the stroke's centre or past it, so the stroke's inner half and rim lay inside the face's
    edge, left over (training_loop's 'Frozen' frame: its left side a loose path, or an image patch)."""
    H, W = m.shape
    left, top, right, bottom = (int(round(v)) for v in s.sides)  # type: ignore[union-attr]
    # the stroke's half and a pixel of rim: a wider band cut the lines crossing the side further than
    # joins.bridge_gaps bridges (distributed_training's dashed edge out of its dotted frame ended at the frame)
    h = int(math.ceil(s.stroke_px / 2 + 0.5))
    ya, yb, xa, xb = max(0, top - h), min(H, bottom + h + 1), max(0, left - h), min(W, right + h + 1)
    for x in (left, right):
        m[ya:yb, max(0, x - h):min(W, x + h + 1)] = True
    for y in (top, bottom):
        m[max(0, y - h):min(H, y + h + 1), xa:xb] = True


def _face_mask(shapes: list[DetectedShape], shape: tuple[int, int]) -> np.ndarray:
    """The nodes' insides, their outlines left out (the ink heads touching a node are looked for in)."""
    m = np.zeros(shape, bool)
    for s in shapes:
        if not s.is_group:
            _paste(m, s.face.filled.astype(bool), s.face.x, s.face.y, union=True)
    return m


def _line_is_real(ln: LinePath, scale: float) -> bool:
    """Drop specks: a line shorter than ~6 user units with no arrowhead is noise."""
    return ln.length * scale >= 6 or ln.head_start is not None or ln.head_end is not None


def _in_contrast(rgb: np.ndarray, paints: Paints) -> np.ndarray:
    """Pixels drawn in contrast with the canvas (a lossy image's ringing is not)."""
    return farther_than(rgb, paints.background_rgb, LOSSY_INK_CONTRAST)


def _between_shapes(ln: LinePath, near: np.ndarray) -> bool:
    """Both ends of a line by a shape (a lone arrowhead is kept only as a short arrow between two)."""
    H, W = near.shape
    for x, y in (ln.start, ln.end):
        xi, yi = int(round(x)), int(round(y))
        if not (0 <= xi < W and 0 <= yi < H and near[yi, xi]):
            return False
    return True


def _redraw_line_mask(lines: list[LinePath], residual: np.ndarray) -> np.ndarray:
    m = np.zeros(residual.shape, np.uint8)
    for ln in lines:
        pts = np.round(np.asarray(ln.points)).astype(np.int32)
        cv2.polylines(m, [pts], False, 1, thickness=max(2, int(math.ceil(ln.width + 3))))
        for h in (ln.head_start, ln.head_end):
            if h is not None:
                x0, y0, x1, y1 = h.mask_box
                m[y0:y1, x0:x1] = 1
    return m.astype(bool) & residual
