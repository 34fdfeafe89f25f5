"""``crafteditor bench``: CraftEditor against vtracer alone, side by side on the same figures.

For each figure both systems turn the PNG into SVG; the benchmark prints seconds per
figure (image → SVG, models already loaded and both systems warmed up on the first figure;
wall time, and CPU time, which a shared machine disturbs less), SSIM of the SVG rendered back
at the input's size, drawing elements per figure, and the share of text kept as ``<text>``.
On generated figures (the default) it also scores CraftEditor against the ground truth: boxes
with the right label, arrows with the right endpoints (and heads of the right kinds), words
exactly recognised, chart values within 2% of the axis range.
"""

from __future__ import annotations

import contextlib
import fnmatch
import importlib
import io
import re
import statistics
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import vtracer
from PIL import Image

from crafteditor.conditions import apply_condition
from crafteditor.config import Config
from crafteditor.convert import convert
from crafteditor.loading import load_image
from crafteditor.ocr.engine import get_engine
from crafteditor.perceptual import gmsd
from crafteditor.quality import render_aligned, ssim, svg_element_count
from crafteditor.realset import RealSetError, figure_group, load_real, score_real
from crafteditor.scoring import score_chart, score_diagram
from crafteditor.synthetic import GALLERY_STYLES, diagram_png, gallery_chart, random_chart, random_diagram
from crafter.errors import CrafterError
from crafter.formats import figure_to_png_bytes, load_figure, svg_to_png
from crafter.render import figure_to_svg
from crafter.render.svg import ensure_layout
from crafter.spec import Figure

SHEET_MAX_W = 2400  # pixels across a side-by-side picture (original | CraftEditor | vtracer)


@dataclass
class BenchFigure:
    name: str
    kind: str  # diagram, chart, file
    png: bytes
    truth: Any = None


@dataclass
class BenchRow:
    name: str
    kind: str
    ce_seconds: float
    ce_cpu: float  # CPU seconds (all threads): steadier than wall time on a shared machine
    ce_ssim: float
    ce_elements: int
    ce_text: float
    vt_seconds: float
    vt_cpu: float
    vt_ssim: float
    vt_elements: int
    scores: dict[str, float] = field(default_factory=dict)
    # drawing elements of the figure's own SVG, where the source is a FigureSpec (generated
    # diagrams, the examples): the fewest a faithful editable copy can have
    source_elements: int | None = None
    # the perceptual score of each system's SVG drawn back (GMSD: 0 the same, higher is worse)
    ce_gmsd: float = float("nan")
    vt_gmsd: float = float("nan")
    budget_s: float | None = None  # the figure's time budget, CPU seconds (Config.time_budget); None: no budget
    over_budget: list[str] = field(default_factory=list)  # stages skipped past the budget
    split: str = ""  # real figures: dev or test
    group: str = ""  # real figures: the style or chart maker
    # share of words the reader read above its gate (report text_confidence; NaN where not reported)
    text_confidence: float = float("nan")
    error: str = ""  # why CraftEditor could not convert the figure (scored as nothing recovered)
    # CPU seconds per stage of the reading (report cpu_stages: they sum to ce_cpu), and in costly
    # parts whichever stage ran them (report cpu_parts: OCR detection, recognition, thinning)
    cpu_stages: dict[str, float] = field(default_factory=dict)
    cpu_parts: dict[str, float] = field(default_factory=dict)
    condition: str = ""  # real figures: the delivery condition they were read under (bench --condition), '' clean


def style_sheets(names: str | None) -> list[str | None]:
    """matplotlib style sheets to draw the generated charts under ('ggplot,bmh'); [None]: the
    default. An unknown name is an error that lists the known ones."""
    if not names:
        return [None]
    import matplotlib.pyplot as plt  # heavy: 1.5 s to import; only --sheet needs it

    out: list[str | None] = []
    for name in (n.strip() for n in names.split(",")):
        if not name:
            continue
        if name != "default" and name not in plt.style.available:
            raise ValueError(f"unknown matplotlib style sheet '{name}'; known: default, "
                             + ", ".join(sorted(plt.style.available)))
        out.append(None if name == "default" else name)
    return out or [None]


def _drawn_under(sheet: str | None):
    import matplotlib  # heavy: 1.5 s to import with pyplot; only the generated charts need it

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # heavy: see above; after use("Agg")

    return plt.style.context(sheet) if sheet else contextlib.nullcontext()


def generated_figures(n: int, dpi: int = 150, kinds: tuple[str, ...] = ("diagram", "chart"),
                      heads: tuple[str, ...] = ("arrow",), sheets: list[str | None] | None = None) -> list[BenchFigure]:
    """``n`` diagrams and/or charts; the charts once per matplotlib style sheet in ``sheets``."""
    figs: list[BenchFigure] = []
    for i in range(n):
        if "diagram" in kinds:
            truth = random_diagram(1000 + i, heads=heads)
            figs.append(BenchFigure(f"diagram-{i + 1}", "diagram", diagram_png(truth, dpi), truth))
        if "chart" in kinds:
            for sheet in sheets or [None]:
                with _drawn_under(sheet):
                    png, ct = random_chart(2000 + i, dpi)
                figs.append(BenchFigure(f"chart-{i + 1}-{ct.kind}" + (f"-{sheet}" if sheet else ""), "chart", png, ct))
    return figs


def gallery_figures(n: int, dpi: int = 150, sheets: list[str | None] | None = None) -> list[BenchFigure]:
    """``n`` charts of each :data:`crafteditor.synthetic.GALLERY_STYLES` style, once per
    matplotlib style sheet in ``sheets``."""
    figs = []
    for sheet in sheets or [None]:
        for style in GALLERY_STYLES:
            for i in range(n):
                with _drawn_under(sheet):
                    png, truth = gallery_chart(style, i, dpi)
                name = f"gallery-{style}-{i + 1}" + (f"-{sheet}" if sheet else "")
                figs.append(BenchFigure(name, "chart", png, truth))
    return figs


def example_figures(folder: Path, dpi: int = 150) -> list[BenchFigure]:
    """Crafter's own example DSL files, laid out and rendered; the laid-out spec is the truth."""
    out = []
    for path in sorted(Path(folder).glob("*.dsl")):
        truth, png = render_truth(path, dpi)
        out.append(BenchFigure(f"example-{path.stem}", "diagram", png, truth))
    return out


def render_truth(path: Path, dpi: int = 150):
    """(laid-out figure in the rendered image's coordinates, PNG bytes) for a .dsl/.json figure."""
    fig = ensure_layout(load_figure(path))
    png = figure_to_png_bytes(fig, dpi)
    # the renderer may grow the canvas (title band, margins): shift the truth to the image's origin
    m = re.search(r'viewBox="(-?[\d.]+) (-?[\d.]+)', figure_to_svg(fig))
    ox, oy = (float(m.group(1)), float(m.group(2))) if m else (0.0, 0.0)
    data = fig.to_dict()
    for c in data["components"]:
        if "box" in c:
            c["box"]["x"] -= ox
            c["box"]["y"] -= oy
        for key in ("route",):
            for pt in c.get(key) or []:
                pt["x"] -= ox
                pt["y"] -= oy
    return Figure.from_dict(data), png


def as_jpeg(f: BenchFigure, quality: int, dpi: int) -> BenchFigure:
    """The figure JPEG-compressed (its dpi kept, so the truth's coordinates still hold)."""
    im = Image.open(io.BytesIO(f.png))
    keep = im.info.get("dpi", (dpi, dpi))
    buf = io.BytesIO()
    # flattened onto white as a viewer would (convert('RGB') makes transparent pixels black)
    rgba = im.convert("RGBA")
    flat = Image.alpha_composite(Image.new("RGBA", rgba.size, (255, 255, 255, 255)), rgba).convert("RGB")
    flat.save(buf, "JPEG", quality=quality, dpi=tuple(round(float(v)) for v in keep))
    return replace(f, png=buf.getvalue())


def real_figures(folder: Path, split: str = "all", manifest: Path | None = None,
                 only: str | None = None) -> list[BenchFigure]:
    """The real-figure set's figures (:mod:`crafteditor.realset`), kind ``real-diagram`` or ``real-chart``;
    ``only``: comma-separated ids or shell-style patterns (``G_*,H_pie*``), the others left out. A pattern
    that matches no figure of the split is an error naming it (a typo would otherwise run nothing)."""
    figs = load_real(folder, split, manifest)
    if only is not None:
        pats = [p.strip() for p in only.split(",") if p.strip()]
        missing = [p for p in pats if not any(fnmatch.fnmatchcase(f.id, p) for f in figs)]
        if missing or not pats:
            raise RealSetError(f"--only: no {split} figure matches {', '.join(missing) or repr(only)}")
        figs = [f for f in figs if any(fnmatch.fnmatchcase(f.id, p) for p in pats)]
    return [BenchFigure(f.id, f"real-{f.kind}", f.path.read_bytes(), f.truth) for f in figs]


def under_condition(figs: list[BenchFigure], condition: str) -> list[BenchFigure]:
    """The real figures delivered under ``condition`` (:mod:`crafteditor.conditions`: ``half``, ``jpeg60``,
    ``half+jpeg60``…); their truth (words, labels, values: no coordinates) holds as it is. Other figures are
    left as they are (their truth has coordinates the bench's scores read in the rendered image's units)."""
    return [replace(f, png=apply_condition(f.png, condition)[0]) if f.kind.startswith("real-") else f for f in figs]


def file_figures(paths: list[Path]) -> list[BenchFigure]:
    return [BenchFigure(p.name, "file", p.read_bytes()) for p in paths]


def vtracer_svg(png: bytes) -> str:
    fmt = "jpg" if png[:3] == b"\xff\xd8\xff" else "png"
    return vtracer.convert_raw_image_to_svg(png, img_format=fmt, colormode="color")


def svg_to_rgb(svg: str, size: tuple[int, int]) -> np.ndarray:
    """Rasterise an SVG at exactly (h, w) pixels with cairosvg."""
    h, w = size
    png = svg_to_png(svg, width=w, height=h)
    im = Image.open(io.BytesIO(png)).convert("RGBA")
    bg = Image.new("RGBA", im.size, (255, 255, 255, 255))
    return np.asarray(Image.alpha_composite(bg, im).convert("RGB"))


# the libraries conversions import on first use (see the '# heavy:' imports), loaded before timing
LAZY_MODULES = ("matplotlib", "matplotlib.colors", "matplotlib.ticker", "matplotlib.dates", "scipy.ndimage",
                "scipy.spatial", "scipy.stats", "skimage.measure", "skimage.morphology", "skimage.metrics")


def run_bench(figures: list[BenchFigure], config: Config | None = None, sheets: Path | None = None) -> list[BenchRow]:
    """One row per figure; ``sheets``: a folder for an original | CraftEditor | vtracer PNG of each."""
    config = config or Config()
    if config.ocr:
        get_engine(config.ocr_threads)  # model loading is not per-figure work
    if figures:
        # nor are imports and first-call allocations (skimage, cairosvg, onnxruntime's first
        # run at a size, vtracer's module): both systems convert the first figure once untimed.
        # Without this the first figure took 2.6 s of CPU and the next of its size 1.1 s
        with contextlib.suppress(CrafterError):  # its failure is reported in its row below
            convert(figures[0].png, config, name=figures[0].name)
        vtracer_svg(figures[0].png)
        # nor is importing what a later figure is the first to need (a diagram loads no
        # matplotlib): the dev split's first heatmap took 0.29 of its 0.74 CPU-s importing it
        for module in LAZY_MODULES:
            with contextlib.suppress(ImportError):
                importlib.import_module(module)
    rows: list[BenchRow] = []
    for f in figures:
        try:
            conv = convert(f.png, config, name=f.name)
        except CrafterError as exc:  # one figure's failure is its row (nothing recovered), not the bench's end
            rows.append(_failed_row(f, config, exc))
            continue
        rep = conv.report
        image = load_image(f.png, config, name=f.name)
        vsvg, vt_s, vt_cpu, vt_rgb = _vtracer_run(f, image)
        ours_rgb = render_aligned(conv.figure, image.dpi, (image.height, image.width), conv.svg)
        if sheets is not None:
            _side_by_side(Path(sheets) / f"{file_safe(f.name)}.png", image.rgb, ours_rgb, vt_rgb)
        scores: dict[str, float] = {}
        source_elements = svg_element_count(figure_to_svg(f.truth)) if isinstance(f.truth, Figure) else None
        if f.kind == "diagram":
            sc = score_diagram(conv.figure, f.truth)
            scores = {"boxes": sc["boxes"], "arrows": sc["arrows"], "heads": sc["heads"], "words": sc["words"]}
        elif f.kind == "chart":
            sc = score_chart(conv.figure, f.truth)
            scores = {"chart_values": sc["within_2pct"]}
        elif f.kind.startswith("real-"):
            scores = score_real(conv.figure, conv.svg, f.truth)
        real = f.truth if f.kind.startswith("real-") else {}
        rows.append(BenchRow(
            name=f.name, kind=f.kind, ce_seconds=rep["seconds"], ce_cpu=rep["cpu_seconds"],
            ce_ssim=rep.get("ssim", float("nan")), ce_elements=rep["elements"], ce_text=rep["text_as_text"],
            vt_seconds=vt_s, vt_cpu=vt_cpu,
            vt_ssim=ssim(image.rgb, vt_rgb), vt_elements=svg_element_count(vsvg), scores=scores,
            source_elements=source_elements, ce_gmsd=gmsd(image.rgb, ours_rgb), vt_gmsd=gmsd(image.rgb, vt_rgb),
            budget_s=config.time_budget(image.width, image.height), over_budget=list(rep.get("over_budget") or []),
            split=real.get("split", "dev") if real else "", group=figure_group(real) if real else "",
            text_confidence=float(rep.get("text_confidence", float("nan"))),
            cpu_stages=dict(rep.get("cpu_stages") or {}), cpu_parts=dict(rep.get("cpu_parts") or {}),
        ))
    return rows


def _vtracer_run(f: BenchFigure, image) -> tuple[str, float, float, np.ndarray]:
    """vtracer on the figure: its SVG, wall and CPU seconds, and the SVG drawn back at the figure's size."""
    t0, c0 = time.perf_counter(), time.process_time()
    vsvg = vtracer_svg(f.png)
    vt_s, vt_cpu = time.perf_counter() - t0, time.process_time() - c0
    return vsvg, vt_s, vt_cpu, svg_to_rgb(vsvg, (image.height, image.width))


def _failed_row(f: BenchFigure, config: Config, exc: Exception) -> BenchRow:
    """A figure CraftEditor could not convert: scored as nothing recovered (an empty figure), vtracer as usual."""
    image = load_image(f.png, config, name=f.name)
    vsvg, vt_s, vt_cpu, vt_rgb = _vtracer_run(f, image)
    real = f.truth if f.kind.startswith("real-") else {}
    scores = score_real(Figure(components=[]), "<svg xmlns='http://www.w3.org/2000/svg'/>", real) if real else {}
    return BenchRow(name=f.name, kind=f.kind, ce_seconds=0.0, ce_cpu=0.0, ce_ssim=0.0, ce_elements=0, ce_text=0.0,
                    vt_seconds=vt_s, vt_cpu=vt_cpu, vt_ssim=ssim(image.rgb, vt_rgb), vt_elements=svg_element_count(vsvg),
                    scores=scores, ce_gmsd=1.0, vt_gmsd=gmsd(image.rgb, vt_rgb),
                    budget_s=config.time_budget(image.width, image.height),
                    split=real.get("split", "dev") if real else "", group=figure_group(real) if real else "",
                    error=str(exc))


def file_safe(name: str) -> str:
    """A figure's name as a file name (ids of the real set may hold '/' or spaces)."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._") or "figure"


def _side_by_side(path: Path, *panels: np.ndarray) -> None:
    """original | ours | vtracer, one PNG, 4 px grey between."""
    h = max(p.shape[0] for p in panels)
    gap = np.full((h, 4, 3), 128, np.uint8)
    cols = []
    for p in panels:
        pad = np.full((h, p.shape[1], 3), 255, np.uint8)
        pad[:p.shape[0]] = p
        cols += [pad, gap]
    path.parent.mkdir(parents=True, exist_ok=True)
    sheet = Image.fromarray(np.concatenate(cols[:-1], axis=1))
    if sheet.width > SHEET_MAX_W:  # a 2,000 px figure thrice: smaller files, still readable in report.html
        sheet = sheet.resize((SHEET_MAX_W, max(1, round(sheet.height * SHEET_MAX_W / sheet.width))), Image.LANCZOS)
    sheet.save(path)


def format_rows(rows: list[BenchRow], per_figure: bool = False) -> str:
    """A side-by-side table per figure kind, then the totals."""
    lines = []
    kinds = sorted({r.kind for r in rows})
    header = (f"{'figures':<14}{'n':>4}  {'system':<12}{'s/figure':>9}{'SSIM':>8}{'elements':>10}"
              f"{'text as text':>14}")
    lines.append(header)
    lines.append("-" * len(header))
    for kind in kinds + (["all"] if len(kinds) > 1 else []):
        rs = [r for r in rows if kind == "all" or r.kind == kind]
        n = len(rs)
        ce = (_mean(r.ce_seconds for r in rs), _mean(r.ce_ssim for r in rs), _mean(r.ce_elements for r in rs),
              _mean(r.ce_text for r in rs))
        vt = (_mean(r.vt_seconds for r in rs), _mean(r.vt_ssim for r in rs), _mean(r.vt_elements for r in rs), 0.0)
        lines.append(f"{kind:<14}{n:>4}  {'CraftEditor':<12}{ce[0]:>9.3f}{ce[1]:>8.3f}{ce[2]:>10.1f}{ce[3]:>13.0%}")
        lines.append(f"{'':<14}{'':>4}  {'vtracer':<12}{vt[0]:>9.3f}{vt[1]:>8.3f}{vt[2]:>10.1f}{vt[3]:>13.0%}")
        ratio_t = ce[0] / vt[0] if vt[0] else float("inf")
        ratio_e = vt[2] / ce[2] if ce[2] else float("inf")
        cpu_ce, cpu_vt = _mean(r.ce_cpu for r in rs), _mean(r.vt_cpu for r in rs)
        ratio_c = cpu_ce / cpu_vt if cpu_vt else float("inf")
        lines.append(f"{'':<14}{'':>4}  {'ratio':<12}{ratio_t:>8.1f}×{'':>8}{ratio_e:>9.1f}× fewer elements"
                     f"   (CPU time: {cpu_ce:.3f} s vs {cpu_vt:.3f} s, {ratio_c:.1f}×)")
        known = [r for r in rs if r.source_elements is not None]
        if known:
            src, ce_k = _mean(r.source_elements for r in known), _mean(r.ce_elements for r in known)
            vt_k = _mean(r.vt_elements for r in known)
            lines.append(f"{'':<14}{'':>4}  {'source SVG':<12}{'':>17}{src:>10.1f}   the original's own SVG "
                         f"({len(known)} of {n}): {vt_k / src:.1f}× fewer than vtracer; "
                         f"CraftEditor {ce_k / src:.2f}× it")
    score_keys = sorted({k for r in rows for k in r.scores})
    if score_keys:
        lines.append("")
        lines.append("CraftEditor against the ground truth (share of true items recovered):")
        for k in score_keys:
            vals = [r.scores[k] for r in rows if k in r.scores]
            lines.append(f"  {k:<14}{_mean(vals):>7.1%}  over {len(vals)} figures")
    if per_figure:
        lines.append("")
        for r in rows:
            extra = " ".join(f"{k}={v:.2f}" for k, v in r.scores.items())
            src = f" (source {r.source_elements})" if r.source_elements is not None else ""
            lines.append(f"  {r.name:<22} CE {r.ce_seconds:6.2f}s ssim {r.ce_ssim:.3f} el {r.ce_elements:4d}{src} | "
                         f"vtracer {r.vt_seconds:6.3f}s ssim {r.vt_ssim:.3f} el {r.vt_elements:4d} | {extra}")
    return "\n".join(lines)


def _mean(values) -> float:
    vals = [float(v) for v in values if v == v]
    return statistics.fmean(vals) if vals else float("nan")
