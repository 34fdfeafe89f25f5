"""Helpers for the PowerPoint tests: examples, python-pptx walks, chart figures, hostile files."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Any, Iterator

from pptx import Presentation
from pptx.enum.shapes import MSO_SHAPE_TYPE
from pptx.oxml.ns import qn

from crafter.charts import make_chart
from crafter.formats import load_figure
from crafter.layout import layout_figure
from crafter.spec import Box, Figure, Node

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.dsl"))
EMU = 9525  # per px


def laid_out(name: str) -> Figure:
    return layout_figure(load_figure(ROOT / "examples" / f"{name}.dsl"))


def presentation(data: bytes) -> Any:
    return Presentation(io.BytesIO(data))


def saved(prs: Any) -> bytes:
    out = io.BytesIO()
    prs.save(out)
    return out.getvalue()


def all_shapes(shapes: Any) -> Iterator[Any]:
    """Every shape, those inside group shapes included."""
    for s in shapes:
        yield s
        if s.shape_type == MSO_SHAPE_TYPE.GROUP:
            yield from all_shapes(s.shapes)


def by_name(prs: Any, name: str, slide: int = 0) -> Any:
    for s in all_shapes(prs.slides[slide].shapes):
        if s.name == name:
            return s
    raise KeyError(name)


def slide_text(prs: Any) -> str:
    out = []
    for slide in prs.slides:
        for s in all_shapes(slide.shapes):
            if s.has_text_frame:
                out.append("\n".join(" ".join(p.text.split("\v")) for p in s.text_frame.paragraphs))
    return "\n".join(out)


def xy_points(chart: Any) -> dict[str, list[tuple[float, float]]]:
    """An XY chart's points per series, from the chart's XML (python-pptx reads y values only)."""
    out = {}
    for ser in chart.element.iter(qn("c:ser")):
        name = ser.find(f"{qn('c:tx')}//{qn('c:v')}").text
        xs = [float(v.text) for v in ser.findall(f"{qn('c:xVal')}//{qn('c:v')}")]
        ys = [float(v.text) for v in ser.findall(f"{qn('c:yVal')}//{qn('c:v')}")]
        out[name] = list(zip(xs, ys))
    return out


def delete(shape: Any) -> None:
    el = shape.element
    el.getparent().remove(el)


def chart_rows() -> dict[str, list[dict[str, Any]]]:
    bars = [{"model": m, "dataset": d, "acc": a} for m, d, a in (
        ("ResNet", "CIFAR", 93.1), ("ResNet", "ImageNet", 76.2), ("ViT", "CIFAR", 98.1), ("ViT", "ImageNet", 81.8),
        ("ConvNeXt", "CIFAR", 97.0), ("ConvNeXt", "ImageNet", 82.1))]
    curve = [{"epoch": e, "loss": round(2 / (e + 1), 3), "run": r} for r in ("base", "ours") for e in range(1, 8)]
    points = [{"x": i * 1.5, "y": (i * 7) % 11, "group": "ab"[i % 2]} for i in range(12)]
    return {"bars": bars, "curve": curve, "points": points}


def chart_cases() -> dict[str, tuple[Any, str, bool, str]]:
    """name → (chart component, DrawingML plot element, horizontal?, grouping) for each native kind."""
    r = chart_rows()
    return {
        "grouped bar": (make_chart(r["bars"], x="model", y="acc", color="dataset", mark="bar", id="c"),
                        "barChart", False, "clustered"),
        "stacked bar": (make_chart(r["bars"], x="model", y="acc", color="dataset", mark="bar", stack=True, id="c"),
                        "barChart", False, "stacked"),
        "horizontal bar": (make_chart(r["bars"], x="model", y="acc", color="dataset", mark="bar", horizontal=True,
                                      id="c"), "barChart", True, "clustered"),
        "single bar": (make_chart([x for x in r["bars"] if x["dataset"] == "CIFAR"], x="model", y="acc", mark="bar",
                                  id="c"), "barChart", False, "clustered"),
        "line": (make_chart(r["curve"], x="epoch", y="loss", color="run", mark="line", id="c"),
                 "scatterChart", False, ""),
        "scatter": (make_chart(r["points"], x="x", y="y", color="group", mark="point", id="c"),
                    "scatterChart", False, ""),
        "area": (make_chart(r["curve"], x="epoch", y="loss", color="run", mark="area", id="c"),
                 "areaChart", False, "stacked"),
    }


def chart_figure(chart: Any) -> Figure:
    """A node beside a chart, as a researcher's results slide has them."""
    chart = chart.model_copy(update={"title": "Results"})
    return layout_figure(Figure(title="Results", components=[
        Node(kind="node", id="data", label="Benchmark"), chart]))


def rewrite_part(data: bytes, name: str, blob: bytes) -> bytes:
    """The package with one part replaced (or added)."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for info in src.infolist():
            z.writestr(info.filename, blob if info.filename == name else src.read(info))
        if name not in src.namelist():
            z.writestr(name, blob)
    return out.getvalue()


def read_part(data: bytes, name: str) -> bytes:
    return zipfile.ZipFile(io.BytesIO(data)).read(name)


def node_box(fig: Figure, cid: str) -> Box:
    b = fig.get(cid).box
    assert b is not None
    return b
