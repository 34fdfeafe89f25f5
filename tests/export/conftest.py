"""Shared fixtures for the export tests: laid-out example figures (helpers in export_helpers.py)."""

from __future__ import annotations

import shutil

import pytest
from export_helpers import EXAMPLES, ROOT, laid_out

from crafter.formats import load_figure
from crafter.spec import Box, Figure, Size


@pytest.fixture(params=[p.stem for p in EXAMPLES])
def example(request) -> Figure:
    """Each example figure, laid out."""
    return laid_out(load_figure(ROOT / "examples" / f"{request.param}.dsl"))


@pytest.fixture(scope="session")
def pdflatex() -> str:
    exe = shutil.which("pdflatex")
    if exe is None:
        pytest.skip("pdflatex is not installed (`make tex` installs Debian's TeX Live packages)")
    return exe


def chart_spec(mark: str = "bar", **extra) -> dict:
    """Accuracy per model and dataset: the chart researchers put in every paper."""
    rows = [{"model": m, "dataset": d, "accuracy": a} for m, d, a in (
        ("ResNet-50", "CIFAR-10", 93.1), ("ResNet-50", "ImageNet", 76.2), ("ViT-B/16", "CIFAR-10", 98.1),
        ("ViT-B/16", "ImageNet", 81.8), ("ConvNeXt_T", "CIFAR-10", 97.0), ("ConvNeXt_T", "ImageNet", 82.1))]
    spec = {"mark": mark, "data": {"values": rows},
            "encoding": {"x": {"field": "model", "type": "nominal", "title": "Model"},
                         "y": {"field": "accuracy", "type": "quantitative", "title": "Top-1 accuracy (%)"},
                         "color": {"field": "dataset", "type": "nominal"},
                         "xOffset": {"field": "dataset"}}}
    spec.update(extra)
    return spec


@pytest.fixture
def chart_figure() -> Figure:
    """A diagram node next to two charts (grouped bars; a loss curve on a log axis), boxes set by hand."""
    from crafter.spec import Chart, Node

    steps = [{"step": s, "loss": round(2.5 * 0.8 ** (s / 100), 4), "run": r}
             for r in ("baseline", "ours") for s in range(0, 1001, 100)]
    loss = {"mark": {"type": "line", "point": True}, "data": {"values": steps},
            "encoding": {"x": {"field": "step", "type": "quantitative", "title": "Training step"},
                         "y": {"field": "loss", "type": "quantitative", "scale": {"type": "log"}},
                         "color": {"field": "run", "type": "nominal"}}}
    return Figure(title="Results & ablations: 100% of runs", canvas=Size(w=900, h=320), components=[
        Node(kind="node", id="data", label="Benchmark_suite #1", box=Box(x=10, y=130, w=120, h=40)),
        Chart(kind="chart", id="acc", title="Accuracy by model", spec=chart_spec(), box=Box(x=150, y=10, w=360, h=300)),
        Chart(kind="chart", id="loss", title="Loss curves", spec=loss, box=Box(x=530, y=10, w=360, h=300)),
    ])
