"""One figure in, one editable SVG out: vectorize, render through Crafter, report quality.

CraftEditor never draws SVG itself: the FigureSpec goes to ``crafter.render.figure_to_svg``
(which embeds the spec in ``<metadata>``, so the file reopens as an editable figure) and,
for the SSIM, to ``crafter.render.figure_to_png_bytes`` at the input's dpi.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from crafteditor.config import Config
from crafteditor.cpu_parts import cpu_parts, parts_since
from crafteditor.loading import ImageSource
from crafteditor.ocr.sureness import mark_unsure, reading_confidence, unsure_components
from crafteditor.quality import quality_report, render_aligned
from crafteditor.vectorizer import Vectorized, vectorize
from crafter.errors import CrafterError, RenderError
from crafter.formats.files import write_bytes_atomic
from crafter.render import figure_to_svg
from crafter.spec.model import Figure, Point, Text
from crafter.style import apply_style


@dataclass
class Conversion:
    figure: Figure
    svg: str
    report: dict[str, Any]
    vectorized: Vectorized


def convert(source: ImageSource, config: Config | None = None, *, name: str | None = None,
            style: dict[str, Any] | None = None) -> Conversion:
    """Vectorize a path, bytes or array and render it; ``report`` holds the quality metrics.

    ``style``: a house style (``crafter.style``) the figure is redrawn in; the quality metrics
    still compare what was read (unstyled) with the input.
    """
    config = config or Config()
    t0 = time.perf_counter()
    c0 = time.process_time()
    parts = cpu_parts()
    vec = vectorize(source, config, name=name)
    parts = parts_since(parts)
    t1, c1 = time.perf_counter(), time.process_time()
    fig = vec.figure
    if not fig.components:
        # a blank image: one invisible text keeps the figure renderable and honest

        fig = Figure(canvas=fig.canvas, components=[Text(kind="text", id="blank", text=" ", at=Point(x=0, y=0))])
        vec.figure = fig
    read_fig = fig
    if style is not None:
        fig = apply_style(fig, style, restyle=True)
    try:
        svg = figure_to_svg(fig)
    except CrafterError:
        raise
    except Exception as e:  # a renderer bug must name the file, not crash a batch
        raise RenderError(f"rendering the recovered figure failed: {type(e).__name__}: {e}",
                          file=vec.image.name) from e
    t2 = time.perf_counter()
    cpu = time.process_time() - c0
    rendered = None
    if config.quality:
        plain_svg = svg if read_fig is fig else figure_to_svg(read_fig)
        rendered = render_aligned(read_fig, vec.image.dpi, (vec.image.height, vec.image.width), plain_svg)
    unsure = unsure_components(fig, vec.texts, vec.read_scale or vec.image.scale)
    if unsure:  # the words the user should check, marked for an editor and the app
        svg = mark_unsure(svg, unsure)
    report = quality_report(vec, svg, rendered)
    report.update(reading_confidence(vec.texts))
    if style is not None:
        report["style"] = style["name"]
    t3 = time.perf_counter()
    report["seconds"] = round(t2 - t0, 3)  # image → SVG
    report["cpu_seconds"] = round(cpu, 3)  # the same, in CPU time of all the process's threads
    report["seconds_vectorize"] = round(t1 - t0, 3)
    report["cpu_seconds_vectorize"] = round(c1 - c0, 3)  # what the time budget counts
    report["seconds_quality"] = round(t3 - t2, 3)  # the re-render and SSIM of the report
    report["timings"] = vec.stats.get("timings", {})
    # CPU seconds per stage; they sum to cpu_seconds (rendering the SVG is the last)
    report["cpu_stages"] = {**vec.stats.get("cpu", {}), "render": round(cpu - (c1 - c0), 4)}
    report["cpu_parts"] = parts  # costly parts whichever stage ran them (crafteditor.cpu_parts)
    if vec.stats.get("over_budget"):  # stages skipped past the figure's time budget (their ink is traced)
        report["over_budget"] = vec.stats["over_budget"]
    report["size"] = [vec.image.width, vec.image.height]
    report["dpi"] = vec.image.dpi
    report["preset"] = vec.stats.get("preset", config.preset_name)  # 'jpeg' where auto read a JPEG as lossy
    return Conversion(figure=fig, svg=svg, report=report, vectorized=vec)


def convert_file(path: str | Path, output: str | Path, config: Config | None = None, *,
                 style: dict[str, Any] | None = None) -> dict[str, Any]:
    """Convert one image file and write the SVG atomically; returns the quality report."""
    conv = convert(Path(path), config, name=str(path), style=style)
    write_bytes_atomic(Path(output), conv.svg.encode("utf-8"))
    return conv.report
