"""`crafter bench style`: does `style learn` give back the look figures were drawn in?

1. **Round trip.** The examples are drawn in known looks (the paper and mono themes, and a
   custom "lab" style laid over paper: a serif face, warm colours, open arrowheads, square
   corners), to SVG and to PNG; a style is learned from each set and its values are compared
   with the look's own: colours as ΔE (CIE76), sizes in pt, font class and arrowhead kind.
2. **Prediction.** The lab's figures are split in two halves; the style learned from one half
   is compared with what the other half shows, next to the default paper theme compared the same
   way. (No set of real figures of one paper is committed to this repository: the "lab" is our
   own examples drawn in a custom style, and the README says so.)
3. **Charts.** A chart drawn in the learned style reads back its data (crafter.charts.fidelity).

Rasters are read by the vectoriser an installed package offers (CraftEditor's).
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path
from typing import Any, Callable

from crafter.base.theme import PX_PER_PT, Theme, figure_theme
from crafter.charts.build import make_chart
from crafter.charts.fidelity import read_back
from crafter.data.readers import read_table
from crafter.formats import export_figure, load_figure
from crafter.render import figure_to_svg
from crafter.spec.model import Figure
from crafter.spec.style_layer import ChartLook, StyleLayer
from crafter.style import apply_style, delta_e, learn_from_files, value
from crafter.style.fonts import font_class

LAB = StyleLayer(
    name="lab", font_family="DejaVu Serif, Times New Roman, serif", font_size=13.0, title_font_size=17.0,
    small_font_size=10.0, group_font_size=11.0, stroke_width=1.5, edge_width=1.4, group_stroke_width=1.0,
    corner_radius=0.0, text_color="#222222", node_fill="#FFF4E0", node_stroke="#8C2D04", edge_color="#5A3A22",
    edge_label_color="#5A3A22", group_fill="#FAFAF5", group_stroke="#8C8C8C", arrow_head="open",
    palette=("#B2182B", "#2166AC", "#1B7837", "#762A83"),
    chart=ChartLook(grid=False, frame=True, tick_direction="in", legend_orient="bottom"),
)
LOOKS: dict[str, tuple[str, StyleLayer | None]] = {"paper": ("paper", None), "mono": ("mono", None),
                                                   "lab": ("paper", LAB)}
COLOURS = ("node_fill", "node_stroke", "edge_color", "text_color", "group_fill", "group_stroke")
SIZES = ("label", "title", "edge_label")


def examples_dir() -> Path:
    return Path(__file__).resolve().parents[2] / "examples"


def example_files(limit: int | None = None) -> list[Path]:
    files = sorted(examples_dir().glob("*.dsl"))
    return files[:limit] if limit else files


def look_theme(look: str) -> Theme:
    theme, layer = LOOKS[look]
    return figure_theme(Figure(theme=theme, style=layer))  # type: ignore[arg-type]


def draw(look: str, examples: list[Path], out: Path, suffix: str, dpi: int = 150) -> list[Path]:
    """The examples drawn in a look, as files of ``suffix``."""
    theme, layer = LOOKS[look]
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for ex in examples:
        fig = load_figure(ex).model_copy(update={"theme": theme, "style": layer})
        p = out / f"{ex.stem}-{look}{suffix}"
        export_figure(fig, p, dpi=dpi, relayout=True)
        paths.append(p)
    return paths


def truth(look: str) -> dict[str, Any]:
    t = look_theme(look)
    return {**{c: getattr(t, c) for c in COLOURS}, "label": t.font_size, "title": t.title_font_size,
            "edge_label": t.small_font_size, "node_width": t.stroke_width, "edge_width": t.edge_width,
            "corner_radius": t.corner_radius, "font_class": font_class(t.font_family), "arrowhead": t.arrow_head}


def learned(style: dict[str, Any]) -> dict[str, Any]:
    label = value(style, "sizes.label")
    rel = lambda k: None if label is None or value(style, k) is None else label * value(style, k)  # noqa: E731
    return {**{c: value(style, f"palette.{c}") for c in COLOURS}, "label": label, "title": rel("sizes.title_ratio"),
            "edge_label": rel("sizes.edge_label_ratio"), "node_width": value(style, "strokes.node"),
            "edge_width": value(style, "strokes.edge"), "corner_radius": value(style, "shapes.corner_radius"),
            "font_class": value(style, "font.class"),
            "arrowhead": value(style, "shapes.arrowhead")}


def distances(got: dict[str, Any], want: dict[str, Any]) -> dict[str, Any]:
    """Per field: ΔE for colours, |difference| in pt for sizes and widths, match for the rest (None: not learned)."""
    out: dict[str, Any] = {}
    for k, w in want.items():
        g = got.get(k)
        if g is None or w is None:
            out[k] = None
        elif k in COLOURS:
            out[k] = round(delta_e(g, w), 2)
        elif isinstance(w, float):
            out[k] = round(abs(g - w) / PX_PER_PT, 2)
        else:
            out[k] = g == w
    return out


def summary_row(name: str, d: dict[str, Any]) -> dict[str, Any]:
    colours = [d[c] for c in COLOURS if d.get(c) is not None]
    sizes = [d[s] for s in (*SIZES, "node_width", "edge_width", "corner_radius") if d.get(s) is not None]
    return {"set": name, "max_dE": max(colours, default=None), "mean_dE": round(statistics.mean(colours), 2)
            if colours else None, "max_size_pt": max(sizes, default=None), "font_class": d.get("font_class"),
            "arrowhead": d.get("arrowhead"), "unlearned": [k for k, v in d.items() if v is None]}


def learn_paths(paths: list[Path], name: str, vectorizer: Callable[[str], Figure] | None) -> dict[str, Any]:
    return learn_from_files(list(paths), name, vectorizer=vectorizer)


def prediction(paths: list[Path], vectorizer: Callable[[str], Figure] | None) -> dict[str, Any]:
    """Learn from the first half; how far is it from each figure of the second half, against the paper theme?"""
    half = len(paths) // 2
    style = learn_paths(paths[:half], "half", vectorizer)
    pred = learned(style)
    paper = truth("paper")
    rows = []
    for p in paths[half:]:
        seen = learned(learn_paths([p], "one", vectorizer))
        rows.append((_score(distances(pred, seen)), _score(distances(paper, seen))))
    return {"learned_from": [p.name for p in paths[:half]], "tested_on": [p.name for p in paths[half:]],
            "learned": _mean_scores([r[0] for r in rows]), "paper_theme": _mean_scores([r[1] for r in rows])}


def _score(d: dict[str, Any]) -> dict[str, float]:
    colours = [d[c] for c in COLOURS if d.get(c) is not None]
    sizes = [d[s] for s in (*SIZES, "node_width", "edge_width", "corner_radius") if d.get(s) is not None]
    cats = [d[k] for k in ("font_class", "arrowhead") if d.get(k) is not None]
    return {"mean_dE": statistics.mean(colours) if colours else 0.0, "mean_size_pt": statistics.mean(sizes) if sizes
            else 0.0, "mismatches": float(sum(1 for c in cats if c is False))}


def _mean_scores(scores: list[dict[str, float]]) -> dict[str, float]:
    return {k: round(statistics.mean(s[k] for s in scores), 2) for k in scores[0]} if scores else {}


def chart_read_back(style: dict[str, Any], out: Path) -> dict[str, Any]:
    """A chart of example data drawn in ``style``: its marks' largest read-back error."""
    table = read_table(examples_dir() / "data" / "accuracy.csv")
    base = apply_style(Figure(), style)
    c = make_chart(table, x="model", y="top1_accuracy", color="dataset", id="acc", theme=figure_theme(base),
                   legend=value(style, "chart.legend_orient"))
    fig = Figure(style=base.style, components=[c])
    svg = figure_to_svg(fig)
    (out / "chart-in-learned-style.svg").write_text(svg, encoding="utf-8")
    export_figure(fig, out / "chart-in-learned-style.png", dpi=150)
    rb = read_back(svg, "acc")
    return {"marks": len(rb.marks), "max_error": rb.max_error, "problems": len(rb.problems)}


def run_style_bench(out: Path, *, examples: int | None = None, png: bool = True,
                    vectorizer: Callable[[str], Figure] | None = None,
                    progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    say = progress or (lambda m: None)
    files = example_files(examples)
    rows, t0 = [], time.perf_counter()
    styles: dict[str, dict[str, Any]] = {}
    for look in LOOKS:
        for suffix in (".svg", ".png") if png and vectorizer is not None else (".svg",):
            paths = draw(look, files, out / look, suffix)
            say(f"learning {look} from {len(paths)} {suffix} files")
            style = learn_paths(paths, f"{look}-{suffix[1:]}", vectorizer)
            styles[f"{look}{suffix}"] = style
            rows.append(summary_row(f"{look} {suffix[1:]}", distances(learned(style), truth(look))))
    result: dict[str, Any] = {"examples": [f.name for f in files], "round_trip": rows}
    lab_pngs = sorted((out / "lab").glob("*.png")) if png and vectorizer is not None else []
    result["prediction"] = prediction(lab_pngs or sorted((out / "lab").glob("*.svg")), vectorizer)
    result["prediction"]["from"] = "png" if lab_pngs else "svg"
    result["chart_read_back"] = chart_read_back(styles["lab.svg"], out)
    result["seconds"] = round(time.perf_counter() - t0, 1)
    return result

