"""Export: the suffix picks the format; PNG honours --dpi; PDF embeds its fonts; errors are clear."""

from __future__ import annotations

import io
import re
import zlib
from pathlib import Path

import pytest
from PIL import Image
from render_helpers import hand_layout, small_figure

from crafter.base.text import text_width
from crafter.errors import InputError, RenderError
from crafter.formats import export_figure, figure_to_pdf_bytes, figure_to_png_bytes, load_figure, load_svg
from crafter.formats.registry import exporter_for, register_exporter, supported_suffixes
from crafter.render import figure_to_svg
from crafter.spec import Box, Figure, Node, parse_dsl


def svg_size(fig: Figure) -> tuple[float, float]:
    head = figure_to_svg(fig)[:1000]
    w = float(re.search(r'<svg[^>]*\swidth="([0-9.]+)"', head).group(1))
    h = float(re.search(r'<svg[^>]*\sheight="([0-9.]+)"', head).group(1))
    return w, h


@pytest.mark.parametrize("dpi", [96, 150, 300])
def test_png_pixel_size_follows_dpi(dpi: int) -> None:
    fig = small_figure(title="Autoencoder")
    png = figure_to_png_bytes(fig, dpi=dpi)
    im = Image.open(io.BytesIO(png))
    w, h = svg_size(fig)
    assert im.size == (round(w * dpi / 96), round(h * dpi / 96))
    assert im.info["dpi"] == pytest.approx((dpi, dpi), abs=0.5)  # print size recorded in the file
    im.load()  # decodes: a valid PNG


def test_png_background_reaches_every_edge_pixel() -> None:
    """The pixel grid is the figure's size rounded, its aspect a fraction of a pixel off the
    viewBox's: the examples' PNGs had transparent edge columns (rag_pipeline at 150 dpi: two each
    side), which viewers that flatten show as black lines and a JPEG export keeps as black."""
    import numpy as np

    fig = parse_dsl((Path(__file__).resolve().parents[2] / "examples" / "rag_pipeline.dsl").read_text())
    for dpi in (150, 300):
        a = np.asarray(Image.open(io.BytesIO(figure_to_png_bytes(fig, dpi=dpi))).convert("RGBA"))
        edges = np.concatenate([a[0], a[-1], a[:, 0], a[:, -1]])
        assert edges[:, 3].min() == 255 and edges[:, :3].min() >= 250


def test_png_text_uses_the_measured_font() -> None:
    # If cairo picked another font, the drawn label width would not match DejaVu's metrics.
    label = "WWWWWWWWWWWW"
    fig = Figure(components=[Node(kind="node", id="n", label=label, width=300, fill="#FFFFFF", stroke="#FFFFFF",
                                  box=Box(x=10, y=10, w=300, h=40))], canvas={"w": 320, "h": 60})
    im = Image.open(io.BytesIO(figure_to_png_bytes(fig, dpi=96 * 4))).convert("L")
    cols = [x for x in range(im.width) if min(im.getpixel((x, y)) for y in range(0, im.height, 2)) < 128]
    ink = (max(cols) - min(cols)) / 4
    assert ink == pytest.approx(text_width(label, 12), rel=0.04)


def test_pdf_is_vector_with_embedded_fonts(tmp_path: Path) -> None:
    pdf = figure_to_pdf_bytes(small_figure())
    assert pdf.startswith(b"%PDF-") and b"%%EOF" in pdf[-1024:]
    # cairo may pack font dictionaries into compressed object streams: inflate them all
    text = pdf
    for m in re.finditer(rb"stream\r?\n(.*?)\r?\nendstream", pdf, re.S):
        try:
            text += zlib.decompress(m.group(1))
        except zlib.error:
            pass
    assert re.search(rb"/FontFile[23]?\b", text), "fonts must be embedded"
    assert b"DejaVuSans" in text


def test_export_each_builtin_format(tmp_path: Path) -> None:
    fig = small_figure()
    for suffix in (".svg", ".png", ".pdf", ".json", ".dsl"):
        out = tmp_path / f"fig{suffix}"
        export_figure(fig, out, dpi=100)
        assert out.stat().st_size > 0
    assert load_svg(tmp_path / "fig.svg") == fig
    assert load_figure(tmp_path / "fig.json") == fig
    assert load_figure(tmp_path / "fig.dsl") == fig
    assert Image.open(tmp_path / "fig.png").format == "PNG"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")], "no temporary files left behind"


def test_suffix_is_case_insensitive(tmp_path: Path) -> None:
    export_figure(small_figure(), tmp_path / "FIG.SVG")
    assert (tmp_path / "FIG.SVG").read_text(encoding="utf-8").lstrip().startswith("<?xml")


def test_unknown_suffix_lists_the_supported_ones(tmp_path: Path) -> None:
    with pytest.raises(InputError) as e:
        export_figure(small_figure(), tmp_path / "fig.bmp")
    msg = str(e.value)
    assert ".bmp" in msg and all(s in msg for s in (".svg", ".png", ".pdf", ".json", ".dsl"))
    with pytest.raises(InputError, match="none"):
        exporter_for(tmp_path / "fig")


def test_register_exporter_and_longest_suffix_wins(tmp_path: Path) -> None:
    seen = []

    def vega(fig: Figure, opts) -> bytes:  # noqa: ANN001
        seen.append(opts.dpi)
        return b'{"mark": "bar"}'

    from crafter.formats import registry as export

    supported_suffixes()  # let the optional exporters register first, so the real one can be restored
    previous = export._EXPORTERS.get(".vl.json")
    register_exporter(".vl.json", vega, description="Vega-Lite")
    try:
        assert ".vl.json" in supported_suffixes()
        export_figure(small_figure(), tmp_path / "chart.vl.json", dpi=144)
        assert (tmp_path / "chart.vl.json").read_bytes() == b'{"mark": "bar"}'
        assert seen == [144]
        export_figure(small_figure(), tmp_path / "plain.json")
        assert load_figure(tmp_path / "plain.json") == small_figure()
    finally:
        if previous is None:
            export._EXPORTERS.pop(".vl.json")
        else:
            export._EXPORTERS[".vl.json"] = previous


def test_empty_figure_is_a_clear_error(tmp_path: Path) -> None:
    for suffix in (".svg", ".png", ".json"):
        with pytest.raises(RenderError, match="the figure has no components"):
            export_figure(Figure(), tmp_path / f"empty{suffix}")
    with pytest.raises(RenderError, match="no components"):
        figure_to_svg(Figure())
    assert not list(tmp_path.iterdir())


def test_dpi_out_of_range(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="dpi"):
        export_figure(small_figure(), tmp_path / "f.png", dpi=0)


def test_enormous_png_is_refused_not_allocated() -> None:
    fig = parse_dsl('a node "A" box=0,0,60,30\nb node "B" box=20000,20000,60,30\n')
    with pytest.raises(RenderError, match="lower --dpi"):
        figure_to_png_bytes(fig, dpi=600)


def test_layout_is_called_only_when_geometry_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []

    def layout_figure(fig: Figure, engine: str = "auto") -> Figure:
        calls.append(fig)
        return hand_layout(fig)

    monkeypatch.setattr("crafter.render.svg.layout_figure", layout_figure)
    laid = small_figure()
    figure_to_svg(laid)
    assert calls == []
    figure_to_svg(laid, relayout=True)
    assert len(calls) == 1
    bare = parse_dsl('a node "A"\nb node "B"\ne edge a -> b\n')
    assert load_svg(figure_to_svg(bare)) == hand_layout(bare)
    assert len(calls) == 2


_PNG_AFTER = """
import hashlib, sys
from crafter.formats import figure_to_pdf_bytes, figure_to_png_bytes
from crafter.spec import parse_dsl
fig = parse_dsl('a node "Embedding layer"\\nb node "Task head (rank 8)"\\ne edge a -> b "update"')
if sys.argv[1] == "pdf-first":
    figure_to_pdf_bytes(parse_dsl('x node "Tokenizer loss"'))
if sys.argv[1] == "thumbnail-first":  # 30 dpi: its text under 8 px, where DejaVu is drawn unhinted
    figure_to_png_bytes(fig, 30)
print(hashlib.sha256(figure_to_png_bytes(fig, 150)).hexdigest())
"""


def test_a_png_is_the_same_whatever_the_process_drew_before_it() -> None:
    """cairo settles a font face's hinting on the first surface that uses it, for the whole
    process: a PNG exported after a PDF (the app's downloads) or after a thumbnail must be the
    one a fresh process makes (each order in its own process)."""
    import subprocess
    import sys

    def run(order: str) -> str:
        done = subprocess.run([sys.executable, "-c", _PNG_AFTER, order], capture_output=True, text=True,
                              timeout=300, check=True)
        return done.stdout.strip()

    fresh = run("png-only")
    assert run("pdf-first") == fresh
    assert run("thumbnail-first") == fresh
