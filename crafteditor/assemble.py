"""The vectorizer: one raster figure → one FigureSpec, every detected position pinned.

Order matters, and each stage removes what it explained so the next sees less:

    paints → text (OCR, then erased) → charts → shapes (nodes, groups) → lines/arrows → leftovers

Then the pieces are tied together: text inside a shape becomes its label, text beside a
line its edge label, text in a frame's top band the group's label; line ends are attached
to the shapes they touch (source/target ids, so edges re-route when a box moves); lines
that touch nothing stay free paths. Coordinates are converted from image pixels to SVG
user units (96 per inch) with the image's dpi, so re-rendering at that dpi gives back an
image of the input's size.
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np

from crafteditor.charts import detect_charts
from crafteditor.config import THEME, Config
from crafteditor.lines.detect import detect_lines
from crafteditor.lines.paths import LinePath
from crafteditor.loading import ImageSource, RasterImage, load_image
from crafteditor.ocr.erase import erase_text
from crafteditor.ocr.read import read_text
from crafteditor.ocr.runs import TextRun
from crafteditor.paint import Paints, color_distance, distances, find_paints, prepare, to_hex
from crafteditor.shapes import DetectedShape, detect_shapes
from crafteditor.trace import TracedObject, trace_leftovers
from crafter.base.text import text_width
from crafter.spec.model import Box, Edge, Figure, Group, Image, Node, Path, Point, Size, Text

# lossy images: residual ink must differ from the canvas by this much (RGB distance); Crafter's
# lightest strokes are ~110 from white, a q75 JPEG's ringing mostly under 60
LOSSY_INK_CONTRAST = 80.0
_RECT_LIKE = {"box", "round", "stack", "document", "cylinder"}


@dataclass
class Vectorized:
    """The result of reading one raster figure."""

    figure: Figure
    image: RasterImage
    stats: dict[str, Any] = field(default_factory=dict)  # counts, timings, ink coverage
    texts: list[TextRun] = field(default_factory=list, repr=False)
    shapes: list[DetectedShape] = field(default_factory=list, repr=False)
    lines: list[LinePath] = field(default_factory=list, repr=False)


def vectorize(source: ImageSource | RasterImage, config: Config | None = None, *, name: str | None = None) -> Vectorized:
    """Read a figure (path, bytes, array, PIL image or loaded image) into a FigureSpec."""
    config = config or Config()
    image = source if isinstance(source, RasterImage) else load_image(source, config, name=name)
    config = config.for_image(image.source_format)
    timings: dict[str, float] = {}
    t0 = time.perf_counter()
    rgb = prepare(image.rgb, config).copy()
    paints = find_paints(rgb, config)
    # a lossy image's ringing around every stroke and glyph is faint ink: content is drawn in
    # contrast (it is not a line, and not ink an editability share should count)
    strong = _in_contrast(rgb, paints) if config.lossy else None
    ink_total = int((paints.ink_mask() if strong is None else paints.ink_mask() & strong).sum())
    timings["paints"] = time.perf_counter() - t0

    t = time.perf_counter()
    # glyphs are read from the pixels as decoded: a median filter (scans, JPEG) thins strokes
    # and fills counters, and the recogniser was trained on unfiltered text
    runs = read_text(image.rgb if config.denoise else rgb, paints, config) if config.ocr else []
    text_ink = _glyph_mask(runs, rgb.shape[:2])
    line_rgb = rgb
    if config.denoise:
        # lines are traced on the pixels as decoded: a 3×3 median takes a 1 px line's core to
        # the median of its neighbours (60 -> 180 on a q75 JPEG) and breaks its dashes
        line_rgb = image.rgb.copy()
        erase_text(line_rgb, replace(paints, labels=paints.labels.copy()), runs, ring=2 if config.lossy else 1)
    erase_text(rgb, paints, runs, ring=2 if config.lossy else 1)
    timings["text"] = time.perf_counter() - t

    t = time.perf_counter()
    charts: list[Any] = []
    chart_mask = np.zeros(rgb.shape[:2], bool)
    if config.charts and config.mode != "diagram":
        charts = detect_charts(rgb, paints, runs, config, image)
        for ch in charts:
            chart_mask |= ch.mask
    timings["charts"] = time.perf_counter() - t

    t = time.perf_counter()
    shapes: list[DetectedShape] = []
    if config.shapes and config.mode != "chart" or (config.shapes and config.mode == "chart" and not charts):
        shapes = detect_shapes(rgb, paints, config, image.scale, exclude=chart_mask, raw=line_rgb)
    shape_mask = _shape_mask(shapes, rgb.shape[:2])
    timings["shapes"] = time.perf_counter() - t

    t = time.perf_counter()
    ink = paints.ink_mask()
    if strong is not None:
        ink = ink & strong
    # a lossy image's lines: what is drawn in contrast in the decoded pixels (see line_rgb)
    line_ink = _in_contrast(line_rgb, paints) if line_rgb is not rgb and strong is not None else ink
    residual = line_ink & ~shape_mask & ~chart_mask
    lines: list[LinePath] = []
    line_mask = np.zeros_like(residual)
    if config.edges and residual.any():
        lines, line_mask = detect_lines(line_rgb, residual, paints.background_rgb)
        near_shape = cv2.dilate(shape_mask.astype(np.uint8), np.ones((9, 9), np.uint8)).astype(bool)
        lines = [ln for ln in lines if _line_is_real(ln, image.scale) and (ln.pieces > 0 or _between_shapes(ln, near_shape))]
        line_mask = _redraw_line_mask(lines, residual)
    timings["lines"] = time.perf_counter() - t

    t = time.perf_counter()
    leftover = residual & ~line_mask
    traced = trace_leftovers(image.rgb, leftover, paints.background_rgb, config, image.scale)
    timings["trace"] = time.perf_counter() - t

    t = time.perf_counter()
    builder = _Builder(image, config, paints)
    fig = builder.build(runs, shapes, lines, charts, traced)
    timings["assemble"] = time.perf_counter() - t

    primitive_ink = int((ink & (shape_mask | line_mask | chart_mask)).sum()) + int(text_ink.sum())
    traced_ink = sum(o.ink for o in traced)
    stats = {
        "width": image.width, "height": image.height, "dpi": image.dpi,
        "paints": int(len(paints.colors)),
        "ink_pixels": ink_total,
        "ink_primitive": primitive_ink,
        "ink_traced": traced_ink,
        "text_runs": len(runs),
        "text_chars": sum(len(r.text.replace(" ", "")) for r in runs),
        "text_chars_kept": builder.chars_kept,
        "timings": {k: round(v, 4) for k, v in timings.items()},
        "preset": config.preset_name,
    }
    return Vectorized(figure=fig, image=image, stats=stats, texts=runs, shapes=shapes, lines=lines)


# -- masks ----------------------------------------------------------------------------------

def _glyph_mask(runs: list[TextRun], shape: tuple[int, int]) -> np.ndarray:
    m = np.zeros(shape, bool)
    for r in runs:
        x0, y0 = int(r.x), int(r.y)
        hh, ww = r.glyphs.shape
        m[y0:y0 + hh, x0:x0 + ww] |= r.glyphs
    return m


def _shape_mask(shapes: list[DetectedShape], shape: tuple[int, int]) -> np.ndarray:
    """Pixels a shape explains: its face, its stroke ring, and for nodes everything inside."""
    H, W = shape
    m = np.zeros(shape, bool)
    for s in shapes:
        f = s.face
        ring = int(math.ceil(s.stroke_px + 2.5))
        x0, y0 = max(0, f.x - ring), max(0, f.y - ring)
        x1, y1 = min(W, f.x + f.w + ring), min(H, f.y + f.h + ring)
        local = np.zeros((y1 - y0, x1 - x0), np.uint8)
        local[f.y - y0:f.y - y0 + f.h, f.x - x0:f.x - x0 + f.w] = f.filled
        grown = cv2.dilate(local, np.ones((2 * ring + 1, 2 * ring + 1), np.uint8)).astype(bool)
        if s.is_group:
            own = np.zeros_like(grown)
            own[f.y - y0:f.y - y0 + f.h, f.x - x0:f.x - x0 + f.w] = f.mask
            inside = cv2.erode(local, np.ones((3, 3), np.uint8)).astype(bool)
            m[y0:y1, x0:x1] |= (grown & ~inside) | own
        else:
            m[y0:y1, x0:x1] |= grown
    return m


def _line_is_real(ln: LinePath, scale: float) -> bool:
    """Drop specks: a line shorter than ~6 user units with no arrowhead is noise."""
    return ln.length * scale >= 6 or ln.head_start is not None or ln.head_end is not None


def _in_contrast(rgb: np.ndarray, paints: Paints) -> np.ndarray:
    """Pixels drawn in contrast with the canvas (a lossy image's ringing is not)."""
    return distances(rgb, paints.background_rgb) > LOSSY_INK_CONTRAST


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


# -- building the FigureSpec ------------------------------------------------------------------

class _Builder:
    def __init__(self, image: RasterImage, config: Config, paints: Paints) -> None:
        self.image = image
        self.config = config
        self.paints = paints
        self.s = image.scale
        self.ids: set[str] = set()
        self.chars_kept = 0

    def new_id(self, prefix: str, label: str | None = None) -> str:
        """A fresh id; from the label when there is one, so the DSL reads well ('encoder', 'n3')."""
        base = prefix
        if label:
            slug = re.sub(r"[^a-z0-9]+", "_", label.lower()).strip("_")[:24].strip("_")
            if slug and slug[0].isalpha():
                base = slug
        if base != prefix and base not in self.ids:
            self.ids.add(base)
            return base
        k = 1 if base == prefix else 2
        while f"{base}{k}" in self.ids:
            k += 1
        self.ids.add(f"{base}{k}")
        return f"{base}{k}"

    def box(self, x: float, y: float, w: float, h: float) -> Box:
        s = self.s
        return Box(x=round(x * s, 2), y=round(y * s, 2), w=round(max(0.0, w) * s, 2), h=round(max(0.0, h) * s, 2))

    def pt(self, p: tuple[float, float]) -> Point:
        return Point(x=round(p[0] * self.s, 2), y=round(p[1] * self.s, 2))

    def build(self, runs: list[TextRun], shapes: list[DetectedShape], lines: list[LinePath], charts: list[Any],
              traced: list[TracedObject]) -> Figure:
        comps: list[Any] = []
        used_runs: set[int] = set()
        # charts own their tick labels, titles and legends
        for ch in charts:
            used_runs |= set(ch.run_indices)
            comps.append(ch.component(self))
            self.chars_kept += sum(len(runs[i].text.replace(" ", "")) for i in ch.run_indices)
        node_ids: dict[int, str] = {}
        labels = self._labels_for_shapes(runs, shapes, used_runs)
        for i, s in enumerate(shapes):
            if s.is_group:
                continue
            lab = labels.get(i, [])
            text = "\n".join(runs[k].text for k in lab) if lab else None
            cid = self.new_id("n", text)
            node_ids[i] = cid
            comps.append(self._node(cid, s, [runs[k] for k in lab]))
            self.chars_kept += sum(len(runs[k].text.replace(" ", "")) for k in lab)
        group_comps = []
        for i, s in enumerate(shapes):
            if not s.is_group:
                continue
            lab = labels.get(i, [])
            text = " ".join(runs[k].text for k in lab) if lab else None
            cid = self.new_id("g", text)
            node_ids[i] = cid
            self.chars_kept += sum(len(runs[k].text.replace(" ", "")) for k in lab)
            group_comps.append((i, cid, s, text))
        # direct containment: each member belongs to the smallest group around it
        parent: dict[int, int] = {}
        for gi, _, g, _ in sorted(group_comps, key=lambda t: -(t[2].w * t[2].h)):
            for m in g.members:
                if m not in parent or shapes[parent[m]].w * shapes[parent[m]].h > g.w * g.h:
                    parent[m] = gi
        for gi, cid, g, text in group_comps:
            members = [node_ids[m] for m in sorted(node_ids) if parent.get(m) == gi]
            comps.append(Group(
                kind="group", id=cid, label=text, members=members, box=self.box(g.x, g.y, g.w, g.h), pinned=True,
                fill=self._color_or_none(g.fill, THEME.group_fill), stroke=self._color_or_none(g.stroke, THEME.group_stroke, thin=True),
                style=g.dashed,  # type: ignore[arg-type]
            ))
        # free text first gets a chance to label an edge
        free = [k for k in range(len(runs)) if k not in used_runs]
        titles = [runs[k] for i, s in enumerate(shapes) if s.is_group for k in labels.get(i, [])]
        edge_comps, text_targets = self._edges(lines, shapes, node_ids, runs, free, used_runs, comps, titles)
        comps.extend(edge_comps)
        comps.extend(self._free_texts(runs, used_runs, text_targets))
        for obj in traced:
            comps.extend(self._traced(obj))
        # texts referenced by edges must exist before validation: order is free in the IR
        canvas = Size(w=round(self.image.width * self.s, 2), h=round(self.image.height * self.s, 2))
        return Figure(canvas=canvas, background=self.page_color(), components=_ordered(comps))

    def page_color(self) -> str | None:
        """The figure's background where the page is not the theme's white: fivethirtyeight's
        grey, Solarize's cream, a slide's dark page. Within one paint merge of white (a JPEG's
        254s) it is white; a scan's page is always white, its paper's yellow is no design."""
        page = self.paints.background_rgb
        if self.config.preset_name == "scan" or color_distance(page, _rgb(THEME.background)) <= max(
                self.config.color_merge, 6.0):
            return None
        return to_hex(page)

    # -- nodes and labels ---------------------------------------------------------------------
    def _labels_for_shapes(self, runs: list[TextRun], shapes: list[DetectedShape], used: set[int]) -> dict[int, list[int]]:
        """Text runs whose centre lies in a node (the smallest), or in a group's top band."""
        out: dict[int, list[int]] = {}
        order = sorted(range(len(shapes)), key=lambda i: shapes[i].w * shapes[i].h)
        for k, r in enumerate(runs):
            if k in used:
                continue
            for i in order:
                s = shapes[i]
                if not s.contains_point(r.cx, r.cy):
                    continue
                if s.is_group:
                    # a group's label sits in its top band, clear of its members
                    band = max(3.0 * r.h, 0.25 * s.h) if s.h < 6 * r.h else 2.5 * r.h
                    if r.cy - s.y <= band and r.angle == 0 and not any(
                            shapes[m].contains_point(r.cx, r.cy, margin=2) for m in s.members):
                        out.setdefault(i, []).append(k)
                        used.add(k)
                    break
                inside_w = min(r.right, s.x + s.w) - max(r.x, s.x)
                if inside_w >= 0.85 * r.w and r.y >= s.y - 2 and r.bottom <= s.y + s.h + 2:
                    out.setdefault(i, []).append(k)
                    used.add(k)
                break
        for i in out:
            out[i].sort(key=lambda k: (runs[k].y, runs[k].x))
        return out

    def _node(self, cid: str, s: DetectedShape, lab: list[TextRun]) -> Node:
        kw: dict[str, Any] = {}
        b = self.box(s.x, s.y, s.w, s.h)
        if lab:
            kw["label"] = "\n".join(r.text for r in lab)
            fs = float(np.median([r.font_px for r in lab])) * self.s
            # the theme's size stands in for one within 0.4 px of it; either way the renderer
            # must not re-wrap a line the original fitted on one line (it breaks at the box's
            # width less the padding), so a size that would not fit is written down, fitted
            shown = round(fs, 1) if abs(fs - THEME.font_size) > 0.4 else THEME.font_size
            widest = max(text_width(r.text, 1.0, bold=all(q.bold for q in lab)) for r in lab)
            room = b.w - 2 * THEME.node_pad_x
            if widest > 0 and widest * shown > room:
                shown = max(6.0, math.floor((room / widest - 0.01) * 10) / 10)
            if shown != THEME.font_size:
                kw["font_size"] = shown
            if all(r.bold for r in lab):
                kw["bold"] = True
            col = lab[0].color
            if color_distance(col, _rgb(THEME.text_color)) > 40:
                kw["text_color"] = to_hex(col)
        else:
            kw["label"] = ""
        fill = self._color_or_none(s.fill, THEME.node_fill)
        if fill:
            kw["fill"] = fill
        if s.stroke is None:
            kw["stroke"] = "none"
        else:
            st = self._color_or_none(s.stroke, THEME.node_stroke, thin=True)
            if st:
                kw["stroke"] = st
            sw = s.stroke_px * self.s
            if abs(sw - THEME.stroke_width) > 0.3:
                kw["stroke_width"] = round(sw, 1)
        # a requested width stops the renderer re-wrapping the label at 150 px
        return Node(kind="node", id=cid, shape=s.shape, box=b, pinned=True, width=b.w or None, height=b.h or None,
                    **kw)

    def _color_or_none(self, rgb, default: str, tol: float = 6.0, *, thin: bool = False) -> str | None:
        """The colour as hex, or None where it is the theme's ``default`` (``thin``: also a
        thin stroke's anti-aliased tint of it, see :func:`_is_tint_of`)."""
        if rgb is None:
            return None
        if color_distance(rgb, _rgb(default)) <= tol:
            return None
        if thin and _is_tint_of(rgb, _rgb(default), self.paints.background_rgb):
            return None
        return to_hex(rgb)

    # -- edges -----------------------------------------------------------------------------------
    def _edges(self, lines: list[LinePath], shapes: list[DetectedShape], node_ids: dict[int, str],
               runs: list[TextRun], free: list[int], used: set[int], comps: list[Any],
               titles: list[TextRun] = ()):  # type: ignore[assignment]
        out: list[Any] = []
        text_targets: dict[int, str] = {}
        edges: list[tuple[Edge, LinePath]] = []
        loose = [runs[k] for k in free if k not in used]  # text no node or group has taken
        # a line crossing a group's title is cut by the title's erasure as by a loose label's
        # (a JPEG's wider erasure ring cut distributed_training's 'Data shard 0' edge there)
        lines = _bridge_gaps(lines, [s for s in shapes if s.is_group],
                             [r for r in (*loose, *titles) if r.angle == 0])
        lines = _extend_at_junctions(lines, shapes)
        for ln in lines:
            tol = 3 * ln.width + 6
            ends = [self._attach(ln.start, shapes, tol, ln, True), self._attach(ln.end, shapes, tol, ln, False)]
            pts = list(ln.points)
            erased_head = [False, False]
            for j in (0, 1):
                if ends[j] is not None and shapes[ends[j]].is_group:
                    hit = self._node_across_frame(pts, j, shapes, ends[j], tol)
                    if hit is not None:
                        ends[j], q = hit
                        pts = [q] + pts if j == 0 else pts + [q]
                elif ends[j] is None and len(pts) >= 2:
                    # a line crossing a group's title stops where the title's glyphs were erased
                    # (training_loop's Tokenizer → Embedding layer through 'Frozen (no gradients)');
                    # one under its own label, where the stub beyond the label was too short to
                    # be found (a JPEG's GPU 2 –activations→ GPU 3 had read as 'activations' → GPU 3)
                    p, q = (pts[0], pts[1]) if j == 0 else (pts[-1], pts[-2])
                    over = [r for r in (*titles, *loose) if r.contains_point(*p, margin=tol)]
                    if over:
                        # the course: from the line's body (its last pixels, by the erased glyphs,
                        # drift: training_loop's arrow came in slanted by 2.5 px)
                        body = pts[1:] if j == 0 else pts[-2::-1]
                        q = next((pt for pt in body if math.dist(pt, p) >= 12), q)
                        straight = abs(p[0] - q[0]) <= 0.04 * abs(p[1] - q[1]) or abs(p[1] - q[1]) <= 0.04 * abs(
                            p[0] - q[0])
                        # the course crosses the text first: as far again as it is long
                        hit = self._node_ahead(p, q, shapes, extra=max(r.h if r.angle == 0 else r.w for r in over))
                        if hit is not None:
                            ends[j], tip = hit
                            if straight:  # on the body's axis, the drifted end dropped
                                vertical = abs(p[0] - q[0]) <= abs(p[1] - q[1])
                                tip = (q[0], tip[1]) if vertical else (tip[0], q[1])
                                pts = [tip] + pts[1:] if j == 0 else pts[:-1] + [tip]
                            else:
                                pts = [tip] + pts if j == 0 else pts + [tip]
                            # its arrowhead was in the title's box and went with the glyphs
                            erased_head[j] = self._head_before(tip, p, ln.width)
            head_start = ln.head_start is not None or erased_head[0]
            head_end = ln.head_end is not None or erased_head[1]
            kinds = [_head_kind(ln.head_start, runs) if ln.head_start is not None else "arrow" if head_start else "none",
                     _head_kind(ln.head_end, runs) if ln.head_end is not None else "arrow" if head_end else "none"]
            # an arrowhead only at the start: flip so the head is at the target end
            if head_start and not head_end:
                pts.reverse()
                ends.reverse()
                kinds.reverse()
                head_start, head_end = False, True
            src = ends[0]
            tgt = ends[1]
            ids = [node_ids.get(e) if e is not None else None for e in (src, tgt)]
            for j in (0, 1):
                if ids[j] is None:
                    # a line ending at a free label points at that label
                    k = self._near_text(pts[0] if j == 0 else pts[-1], runs, free, used, tol * 1.5)
                    if k is not None:
                        cid = text_targets.get(k) or self.new_id("t", runs[k].text)
                        text_targets[k] = cid
                        ids[j] = cid
            pts = self._snap_ends(pts, [shapes[e] if e is not None else None for e in (src, tgt)])
            pts = _straighten(pts, 1.6)
            if ids[0] is None or ids[1] is None or ids[0] == ids[1]:
                out.extend(self._free_line(ln, pts))
                continue
            route = [self.pt(p) for p in pts]
            kw: dict[str, Any] = {}
            if kinds[1] != "arrow":
                kw["head"] = kinds[1]
            if kinds[0] != "none":
                kw["tail"] = kinds[0]
            if ln.style != "solid":
                kw["style"] = ln.style
            color = self._color_or_none(ln.color, THEME.edge_color, 40, thin=True)
            if color:
                kw["color"] = color
            sw = ln.width * self.s
            if abs(sw - THEME.edge_width) > 0.6:
                kw["stroke_width"] = round(sw, 1)
            if not _axis_aligned(pts):
                kw["routing"] = "straight"
            e = Edge(kind="edge", id=self.new_id("e"), source=ids[0], target=ids[1], route=route, **kw)
            edges.append((e, ln))
        # edge labels: free text hugging a line
        for k in free:
            if k in used or k in text_targets:
                continue
            r = runs[k]
            if r.angle != 0:
                continue
            best = None
            for idx, (e, ln) in enumerate(edges):
                d = _dist_to_polyline((r.cx, r.cy), ln.points)
                if d <= 1.6 * r.font_px + 0.5 * r.h and (best is None or d < best[0]) and e.label is None:
                    best = (d, idx)
            if best is not None:
                e, ln = edges[best[1]]
                fs = THEME.small_font_size
                w = text_width(r.text, fs) + 6
                h = fs * THEME.line_height + 2
                # the renderer centres the label's line on label_box: baseline 0.35 em below the centre
                cx, cy = r.cx * self.s, r.baseline * self.s - 0.35 * fs
                e.label = r.text
                e.label_box = Box(x=round(cx - w / 2, 2), y=round(cy - h / 2, 2), w=round(w, 2), h=round(h, 2))
                used.add(k)
                self.chars_kept += len(r.text.replace(" ", ""))
        out.extend(e for e, _ in edges)
        return out, text_targets

    def _attach(self, p: tuple[float, float], shapes: list[DetectedShape], tol: float, ln: LinePath,
                at_start: bool) -> int | None:
        """The shape whose outline the line end touches (nodes before groups, nearest first)."""
        best = None
        for i, s in enumerate(shapes):
            d = _dist_to_shape(p, s)
            if d > tol:
                continue
            # a line inside a group ends at the frame only when it comes from outside
            rank = (1 if s.is_group else 0, d)
            if best is None or rank < best[0]:
                best = (rank, i)
        return None if best is None else best[1]

    def _node_across_frame(self, pts: list[tuple[float, float]], j: int, shapes: list[DetectedShape],
                           gi: int, tol: float) -> tuple[int, tuple[float, float]] | None:
        """A line end stopped at a group's frame, with a node just beyond it on the line's course:
        (that node, where the course meets it). The stub between frame and node is a dash or two
        of a dashed line, too short to be found on its own (examples/encoder_decoder's skip
        connections ended on the Encoder and Decoder frames, not their conv and up blocks)."""
        if len(pts) < 2:
            return None
        p, q = (pts[0], pts[1]) if j == 0 else (pts[-1], pts[-2])
        if gi >= 0 and _frame_distance(p, shapes[gi]) > tol:  # as near as _attach took it to be
            return None
        return self._node_ahead(p, q, shapes, gi)

    def _node_ahead(self, p: tuple[float, float], q: tuple[float, float], shapes: list[DetectedShape],
                    gi: int = -1, extra: float = 0.0) -> tuple[int, tuple[float, float]] | None:
        """The node (not group ``gi``) a line's course from q through its end p meets within a
        frame's padding (and ``extra`` px): (that node, where the course meets it)."""
        reach = 24 / self.s + extra  # user units: a frame's padding around its members
        best = None
        for i, s in enumerate(shapes):
            if s.is_group or i == gi:
                continue
            hit = _ray_box(q, p, (s.x, s.y, s.x + s.w, s.y + s.h))
            if hit is None:
                continue
            d = math.dist(p, hit)
            # the course goes on from p (not back through the line) to the node's edge
            ahead = (hit[0] - p[0]) * (p[0] - q[0]) + (hit[1] - p[1]) * (p[1] - q[1]) > 0
            if ahead and d <= reach and (best is None or d < best[0]):
                best = (d, i, hit)
        if best is None:
            return None
        # an axis-parallel course stays axis-parallel (the last segment's pixel jitter aside)
        x, y = best[2]
        if abs(p[0] - q[0]) <= 1.5 < abs(p[1] - q[1]):
            x = p[0]
        elif abs(p[1] - q[1]) <= 1.5 < abs(p[0] - q[0]):
            y = p[1]
        return best[1], (x, y)

    def _head_before(self, tip: tuple[float, float], p: tuple[float, float], width: float) -> bool:
        """Whether the original image has an arrowhead just before ``tip`` on the course from p:
        across the course, the ink run through it is ≥ 2.5 line widths wide there, and a line's
        width further back."""
        L = math.dist(p, tip)
        if L < 1:
            return False
        rgb, bg = self.image.rgb, np.asarray(self.paints.background_rgb, np.float32)
        ux, uy = (tip[0] - p[0]) / L, (tip[1] - p[1]) / L
        H, W = rgb.shape[:2]

        def across(t: float) -> int:
            cx, cy = tip[0] - ux * t, tip[1] - uy * t
            run = 0
            for side in (1, -1):
                for k in range(0 if side == 1 else 1, 16):
                    x, y = int(round(cx - uy * k * side)), int(round(cy + ux * k * side))
                    if not (0 <= x < W and 0 <= y < H) or np.linalg.norm(rgb[y, x].astype(np.float32) - bg) < 60:
                        break
                    run += 1
            return run

        widest = max(across(t) for t in np.arange(1.5, min(L, 10.0), 1.0)) if L > 2.5 else 0
        return widest >= 2.5 * width + 1 and across(min(L, 16.0)) <= width + 2

    def _snap_ends(self, pts: list[tuple[float, float]], ends: list[DetectedShape | None]) -> list[tuple[float, float]]:
        """Move a line end that stops short of its shape onto the shape's box edge."""
        pts = list(pts)
        for j, s in enumerate(ends):
            if s is None or len(pts) < 2:
                continue
            idx, nb = (0, 1) if j == 0 else (-1, -2)
            p, q = pts[idx], pts[nb]
            if s.contains_point(*p, margin=-0.5):
                continue
            hit = _ray_box(q, p, (s.x, s.y, s.x + s.w, s.y + s.h))
            if hit is not None and math.dist(hit, p) < 4 * 3 + 12:
                pts[idx] = hit
        return pts

    def _near_text(self, p, runs, free, used, tol) -> int | None:
        best = None
        for k in free:
            if k in used:
                continue
            r = runs[k]
            dx = max(r.x - p[0], 0, p[0] - r.right)
            dy = max(r.y - p[1], 0, p[1] - r.bottom)
            d = math.hypot(dx, dy)
            if d <= tol and (best is None or d < best[0]):
                best = (d, k)
        return None if best is None else best[1]

    def _free_line(self, ln: LinePath, pts) -> list[Path]:
        """A line that joins nothing: one path, its arrowheads closed subpaths of it.

        One element an editor selects and moves whole (it was a stroked line plus a filled
        triangle per head). The path is filled and stroked in the line's colour: the line is
        traced out and back, so it encloses no area and only the heads are filled, and each
        head is inset by half the stroke, so with its mitred stroke it is as large as drawn.
        """
        w = round(max(0.3, ln.width * self.s), 2)
        line = [(x * self.s, y * self.s) for x, y in pts]
        heads = []
        for h in (ln.head_start, ln.head_end):
            if h is None:
                continue
            tip = np.array(h.tip)
            base = np.array(h.base)
            axis = tip - base
            n = np.linalg.norm(axis)
            if n < 1e-6:
                continue
            perp = np.array([-axis[1], axis[0]]) / n * h.width / 2
            heads.append(_inset_triangle([tuple(v * self.s) for v in (tip, base + perp, base - perp)], w / 2))

        def poly(points) -> str:
            return "M" + " L".join(f"{x:.2f},{y:.2f}" for x, y in points)

        color = to_hex(ln.color)
        if not heads:
            return [Path(kind="path", id=self.new_id("p"), d=poly(line), fill="none", stroke=color, stroke_width=w)]
        d = " ".join([poly(line + line[-2::-1])] + [poly(t) + " Z" for t in heads])
        return [Path(kind="path", id=self.new_id("p"), d=d, fill=color, stroke=color, stroke_width=w)]

    # -- free text --------------------------------------------------------------------------------
    def _free_texts(self, runs: list[TextRun], used: set[int], targets: dict[int, str]) -> list[Text]:
        out = []
        for k, r in enumerate(runs):
            if k in used:
                continue
            fs = r.font_px * self.s
            # 'at' is the centre of the text block; the renderer puts the baseline 0.35 em below it
            if r.angle == 0:
                cx, cy = r.cx * self.s, r.baseline * self.s - 0.35 * fs
            elif r.angle == -90:
                cx, cy = r.baseline * self.s - 0.35 * fs, r.cy * self.s
            else:
                cx, cy = r.baseline * self.s + 0.35 * fs, r.cy * self.s
            kw: dict[str, Any] = {"font_size": round(fs, 1)}
            if r.bold:
                kw["bold"] = True
            if color_distance(r.color, _rgb(THEME.annotation_color)) > 12:
                kw["color"] = to_hex(r.color)
            if r.angle:
                kw["rotate"] = r.angle
            cid = targets.get(k) or self.new_id("t", r.text)
            out.append(Text(kind="text", id=cid, text=r.text, at=Point(x=round(cx, 2), y=round(cy, 2)), **kw))
            self.chars_kept += len(r.text.replace(" ", ""))
        return out

    def _traced(self, obj: TracedObject) -> list[Any]:
        x, y, w, h = obj.box
        if obj.href is not None:
            return [Image(kind="image", id=self.new_id("img"), href=obj.href,
                          box=Box(x=round(x, 2), y=round(y, 2), w=round(w, 2), h=round(h, 2)), pinned=True)]
        return [Path(kind="path", id=self.new_id("p"), d=p.d, fill=p.fill) for p in obj.paths]


# -- geometry helpers --------------------------------------------------------------------------

def _inset_triangle(tri: list[tuple[float, float]], d: float) -> list[tuple[float, float]]:
    """The triangle whose sides lie ``d`` inside ``tri``'s (scaled about the incentre); ``tri``
    itself when it is too small to shrink."""
    (ax, ay), (bx, by), (cx, cy) = tri
    a, b, c = math.dist(tri[1], tri[2]), math.dist(tri[2], tri[0]), math.dist(tri[0], tri[1])
    per = a + b + c
    area = abs((bx - ax) * (cy - ay) - (cx - ax) * (by - ay)) / 2
    if per <= 0 or area <= 0:
        return tri
    r = 2 * area / per  # inradius
    if r <= 2 * d:
        return tri
    ix, iy = (a * ax + b * bx + c * cx) / per, (a * ay + b * by + c * cy) / per
    k = (r - d) / r
    return [(ix + (x - ix) * k, iy + (y - iy) * k) for x, y in tri]


def _head_kind(head, runs: list[TextRun]) -> str:
    """A head's kind, or 'arrow' where text was erased over the head: a glyph touching it took
    part of it along (a wing of training_loop's arrow under 'Frozen (no gradients)' went with
    the 'd', and the rest read as a diamond); the filled arrow is what is usually drawn."""
    if head.kind == "arrow" or not len(head.pixels):
        return head.kind
    x0, y0, x1, y1 = head.mask_box
    for r in runs:
        if not (x0 <= r.right + 2 and r.x - 2 <= x1 and y0 <= r.bottom + 2 and r.y - 2 <= y1):
            continue
        # a glyph pixel within 2 px of the head's (not only a label beside it)
        g = cv2.dilate(r.glyphs.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
        gx = np.floor(head.pixels[:, 0] - r.x).astype(int)
        gy = np.floor(head.pixels[:, 1] - r.y).astype(int)
        ok = (gx >= 0) & (gy >= 0) & (gx < g.shape[1]) & (gy < g.shape[0])
        if ok.any() and g[gy[ok], gx[ok]].any():
            return "arrow"
    return head.kind


def _reversed(ln: LinePath) -> LinePath:
    return replace(ln, points=ln.points[::-1], head_start=ln.head_end, head_end=ln.head_start)


def _frame_distance(p: tuple[float, float], g: DetectedShape) -> float:
    """Distance from a point to the outline of a group's frame rectangle."""
    x, y = p
    inside = g.contains_point(x, y)
    if inside:
        return min(x - g.x, g.x + g.w - x, y - g.y, g.y + g.h - y)
    return math.hypot(max(g.x - x, 0, x - g.x - g.w), max(g.y - y, 0, y - g.y - g.h))


def _label_gap(p: tuple[float, float], q: tuple[float, float], width: float, labels: list[TextRun]) -> bool:
    """A line's gap from p to q runs through a text label drawn over the line (with a halo)."""
    for r in labels:
        pad = 0.5 * r.h + width + 3
        if not (r.contains_point(*p, margin=pad) and r.contains_point(*q, margin=pad)):
            continue
        # the gap crosses the label's box (not only skirts it): its middle lies inside
        if r.contains_point((p[0] + q[0]) / 2, (p[1] + q[1]) / 2, margin=width + 1) \
                and math.dist(p, q) <= max(r.w, r.h) + 2 * pad:
            return True
    return False


def _bridge_gaps(lines: list[LinePath], groups: list[DetectedShape],
                   labels: list[TextRun] = ()) -> list[LinePath]:  # type: ignore[assignment]
    """Rejoin lines cut in two where they cross a group's frame (erasing the frame's stroke
    cut them) or a label drawn over the line (the label's halo interrupts the stroke:
    training_loop's '∇ loss' had split its edge into two lines ending at the label, each read
    as an edge to a text)."""
    lines = list(lines)
    changed = True
    while changed and (groups or labels):
        changed = False
        for i in range(len(lines)):
            for j in range(len(lines)):
                if i == j:
                    continue
                a, b = lines[i], lines[j]
                # a's end meets b's start across a frame
                for ra in (False, True):
                    for rb in (False, True):
                        aa = _reversed(a) if ra else a
                        bb = _reversed(b) if rb else b
                        if aa.head_end is not None or bb.head_start is not None:
                            continue
                        p, q = aa.points[-1], bb.points[0]
                        gap = math.dist(p, q)
                        if gap < 0.5:
                            continue
                        near = [g for g in groups if _frame_distance(p, g) <= g.stroke_px + 6 + a.width
                                and _frame_distance(q, g) <= g.stroke_px + 6 + b.width]
                        across_frame = bool(near) and gap <= 2 * (near[0].stroke_px + 3) + a.width + 8
                        if not across_frame and not (
                                color_distance(aa.color, bb.color) <= 40 and abs(aa.width - bb.width) <= 1.5
                                and _label_gap(p, q, a.width, labels)):
                            continue
                        da = _unit(aa.points[-2], p) if len(aa.points) >= 2 else None
                        db = _unit(q, bb.points[1]) if len(bb.points) >= 2 else None
                        u = ((q[0] - p[0]) / gap, (q[1] - p[1]) / gap)
                        if da is None or db is None or da[0] * u[0] + da[1] * u[1] < 0.9 \
                                or db[0] * u[0] + db[1] * u[1] < 0.9:
                            continue
                        style = aa.style if aa.style != "solid" else bb.style
                        lines[i] = replace(aa, points=aa.points + bb.points, head_end=bb.head_end, style=style,
                                           pieces=aa.pieces + bb.pieces)
                        del lines[j]
                        changed = True
                        break
                    if changed:
                        break
                if changed:
                    break
            if changed:
                break
    return lines


def _split_at(pts, q) -> tuple[list, list, float] | None:
    """Split a polyline at the point nearest q: (points before, points after, distance)."""
    best = None
    for i, (a, b) in enumerate(zip(pts, pts[1:])):
        dx, dy = b[0] - a[0], b[1] - a[1]
        L2 = dx * dx + dy * dy
        t = 0.0 if L2 == 0 else max(0.0, min(1.0, ((q[0] - a[0]) * dx + (q[1] - a[1]) * dy) / L2))
        p = (a[0] + t * dx, a[1] + t * dy)
        d = math.dist(p, q)
        if best is None or d < best[0]:
            best = (d, i, p)
    if best is None:
        return None
    d, i, p = best
    return list(pts[:i + 1]) + [p], [p] + list(pts[i + 1:]), d


def _extend_at_junctions(lines: list[LinePath], shapes: list[DetectedShape]) -> list[LinePath]:
    """Fan-out and fan-in: a branch that ends on another line's trunk shares that trunk.

    Layouts merge edges that leave (or enter) one node into a shared trunk. The branch's
    free end lies on the trunk; its edge really starts at the trunk's source (fan-out: the
    branch ends in a head) or ends at the trunk's target (fan-in: the branch has no head
    and the trunk does). The branch's route is extended along the trunk accordingly.
    """
    out = list(lines)
    # bounding boxes first: a noisy scan has thousands of line pieces, and splitting every
    # other line at every free end was quadratic in lines times points (minutes per sketch)
    bounds = [(min(x for x, _ in ln.points), min(y for _, y in ln.points),
               max(x for x, _ in ln.points), max(y for _, y in ln.points)) for ln in lines]
    for i, a in enumerate(lines):
        for at_start in (True, False):
            if (a.head_start if at_start else a.head_end) is not None:
                continue
            q = a.points[0] if at_start else a.points[-1]
            tol = 3 * a.width + 6
            if any(_dist_to_shape(q, s) <= tol for s in shapes if not s.is_group):
                continue
            best = None
            for j, b in enumerate(lines):
                if j == i:
                    continue
                reach = 2 * max(a.width, b.width) + 3
                x0, y0, x1, y1 = bounds[j]
                if q[0] < x0 - reach or q[0] > x1 + reach or q[1] < y0 - reach or q[1] > y1 + reach:
                    continue  # too far from b to be on it
                split = _split_at(b.points, q)
                if split is None:
                    continue
                before, after, d = split
                if d > 2 * max(a.width, b.width) + 3:
                    continue
                if math.dist(before[-1], b.points[0]) < 3 or math.dist(before[-1], b.points[-1]) < 3:
                    continue  # at the trunk's end, not on it
                if best is None or d < best[0]:
                    best = (d, j, before, after)
            if best is None:
                continue
            _, j, before, after = best
            b = lines[j]
            cur = out[i] if not at_start else _reversed(out[i])  # now the free end is a's last point
            other_head = cur.head_start is not None  # a head at the branch's far end
            if other_head and (b.head_end is not None) != (b.head_start is not None):
                # fan-out: route = trunk from its tail to the junction, then the branch to its head
                trunk = before if b.head_end is not None else after[::-1]
                merged = replace(_reversed(cur), points=trunk[:-1] + _reversed(cur).points, head_start=None)
            elif not other_head and cur.head_end is None and (b.head_end is not None) != (b.head_start is not None):
                # fan-in: the branch, then the trunk on to its head
                trunk = after if b.head_end is not None else before[::-1]
                merged = replace(cur, points=cur.points[:-1] + trunk, head_end=b.head_end or b.head_start)
            else:
                continue
            out[i] = merged
            break
    return out


def _unit(a, b) -> tuple[float, float] | None:
    d = math.dist(a, b)
    if d < 1e-6:
        return None
    return ((b[0] - a[0]) / d, (b[1] - a[1]) / d)


def _is_tint_of(rgb, color, background, least: float = 0.6, tol: float = 10.0) -> bool:
    """Whether ``rgb`` is ``color`` thinned with the background: a stroke thinner than two pixels
    that falls between pixel rows never reaches its own colour (a 1 px edge at 150 dpi covers
    two rows ~65% each), so its darkest pixels are ``background + a·(color − background)``."""
    bg = np.asarray(background, np.float64)
    full = np.asarray(color, np.float64) - bg
    seen = np.asarray(rgb, np.float64) - bg
    span = float(full @ full)
    if span < 1.0:
        return False
    a = float(seen @ full) / span
    return least <= a <= 1.0 and float(np.linalg.norm(seen - a * full)) <= tol


def _rgb(hexstr: str) -> tuple[int, int, int]:
    h = hexstr.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def _ordered(comps: list[Any]) -> list[Any]:
    """Reading order in the DSL: groups after their members, edges after nodes."""
    rank = {"node": 0, "text": 1, "chart": 1, "edge": 2, "group": 3, "path": 4, "image": 4}
    return sorted(comps, key=lambda c: rank.get(c.kind, 5))


def _dist_to_shape(p: tuple[float, float], s: DetectedShape) -> float:
    """Distance from a point to a shape's outline (its box for rectangles, its face contour otherwise)."""
    x, y = p
    if s.shape in _RECT_LIKE or s.is_group:
        inside = s.contains_point(x, y)
        dx = max(s.x - x, 0, x - (s.x + s.w))
        dy = max(s.y - y, 0, y - (s.y + s.h))
        if inside:
            return min(x - s.x, s.x + s.w - x, y - s.y, s.y + s.h - y)
        return math.hypot(dx, dy)
    f = s.face
    contours, _ = cv2.findContours(f.filled.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return math.inf
    c = max(contours, key=len)
    d = cv2.pointPolygonTest(c, (float(x - f.x), float(y - f.y)), True)
    return abs(float(d)) - s.stroke_px / 2


def _dist_to_polyline(p, pts) -> float:
    best = math.inf
    for a, b in zip(pts, pts[1:]):
        ax, ay = a
        bx, by = b
        dx, dy = bx - ax, by - ay
        L2 = dx * dx + dy * dy
        t = 0.0 if L2 == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / L2))
        best = min(best, math.hypot(p[0] - (ax + t * dx), p[1] - (ay + t * dy)))
    return best


def _ray_box(q, p, box) -> tuple[float, float] | None:
    """Where the ray q→p, continued past p, enters the box (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = box
    dx, dy = p[0] - q[0], p[1] - q[1]
    best = None
    for t_num, t_den, axis, lo, hi, fixed in (
        (x0 - q[0], dx, 1, y0, y1, x0), (x1 - q[0], dx, 1, y0, y1, x1),
        (y0 - q[1], dy, 0, x0, x1, y0), (y1 - q[1], dy, 0, x0, x1, y1),
    ):
        if abs(t_den) < 1e-9:
            continue
        t = t_num / t_den
        if t < 0:
            continue
        if axis == 1:
            yy = q[1] + t * dy
            if lo - 0.5 <= yy <= hi + 0.5 and (best is None or t < best[0]):
                best = (t, (fixed, yy))
        else:
            xx = q[0] + t * dx
            if lo - 0.5 <= xx <= hi + 0.5 and (best is None or t < best[0]):
                best = (t, (xx, fixed))
    return None if best is None else best[1]


def _straighten(pts: list[tuple[float, float]], tol: float) -> list[tuple[float, float]]:
    """Make nearly horizontal or vertical segments exact (a rendered straight line is straight).

    A whole route within a few pixels of one vertical (horizontal) line is that line, at its
    longest segment's place: where a head lost a wing to an erased glyph, the line's end drifted
    3-4 px and the arrow came back slanted (training_loop's Tokenizer → Embedding layer).
    """
    pts = [(float(p[0]), float(p[1])) for p in pts]
    if len(pts) >= 2:
        seg = max(range(len(pts) - 1), key=lambda i: math.dist(pts[i], pts[i + 1]))
        for axis in (0, 1):
            other = 1 - axis
            extent = max(p[other] for p in pts) - min(p[other] for p in pts)
            at = (pts[seg][axis] + pts[seg + 1][axis]) / 2
            if extent > 8 * tol and max(abs(p[axis] - at) for p in pts) <= max(tol, min(5.0, 0.06 * extent)):
                return [(at, p[1]) if axis == 0 else (p[0], at) for p in pts]
    for i in range(len(pts) - 1):
        (ax, ay), (bx, by) = pts[i], pts[i + 1]
        if abs(ay - by) <= tol and abs(bx - ax) > 2 * tol:
            y = (ay + by) / 2
            pts[i], pts[i + 1] = (ax, y), (bx, y)
        elif abs(ax - bx) <= tol and abs(by - ay) > 2 * tol:
            x = (ax + bx) / 2
            pts[i], pts[i + 1] = (x, ay), (x, by)
    return pts


def _axis_aligned(pts) -> bool:
    return all(abs(a[0] - b[0]) < 0.01 or abs(a[1] - b[1]) < 0.01 for a, b in zip(pts, pts[1:]))
