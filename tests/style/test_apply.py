"""A style is a layer over the theme: what it knows replaces the theme's, the rest stays; it travels
in the figure, so every export (SVG, PNG, PDF, TikZ, draw.io, PPTX) draws in it; named styles live in
the user's config folder."""

from __future__ import annotations

import zipfile

import pytest
from PIL import Image

from crafter.base.theme import THEMES, figure_theme
from crafter.benchmarks.style import LAB
from crafter.cli import main
from crafter.formats import export_figure, load_figure
from crafter.spec import Figure, parse_dsl, print_dsl
from crafter.style import apply_style, install_style, learn_from_files, resolve_style, style_layer

DSL = 'figure "Two steps"\na node "Encoder"\nb node "Decoder" shape=round\ne edge a -> b "code"\ng group "Model" [a, b]\n'


@pytest.fixture(scope="module")
def lab_style(svg_sets) -> dict:
    return learn_from_files(svg_sets["lab"], "lab")


def test_the_style_replaces_what_it_knows_and_keeps_the_rest() -> None:
    partial = {"format": "crafter-style", "version": 1, "name": "reds",
               "palette": {"node_fill": {"value": "#FFDDDD", "confidence": 1.0, "count": 3}}}
    t = figure_theme(apply_style(Figure(theme="slides"), partial))
    assert t.node_fill == "#FFDDDD" and t.style_name == "reds"
    slides = THEMES["slides"]
    assert (t.font_size, t.node_stroke, t.corner_radius) == (slides.font_size, slides.node_stroke, slides.corner_radius)


def test_the_style_travels_in_the_figure(lab_style, tmp_path) -> None:
    fig = apply_style(parse_dsl(DSL), lab_style)
    assert parse_dsl(print_dsl(fig)) == fig
    assert Figure.from_dict(fig.to_dict()) == fig
    export_figure(fig, tmp_path / "f.svg")
    assert load_figure(tmp_path / "f.svg").style == fig.style


def _png_pixel(path, fig, x, y) -> tuple[int, int, int]:
    im = Image.open(path).convert("RGB")
    s = im.width / fig.canvas.w
    return im.getpixel((round(x * s), round(y * s)))


def test_every_export_draws_in_the_style(lab_style, tmp_path) -> None:
    from crafter.render.svg import ensure_layout

    fig = ensure_layout(apply_style(parse_dsl(DSL), lab_style))
    fill, stroke = LAB.node_fill, LAB.node_stroke
    for suffix in ("svg", "tex", "drawio", "pptx", "png", "pdf"):
        export_figure(fig, tmp_path / f"f.{suffix}")
    svg = (tmp_path / "f.svg").read_text(encoding="utf-8")
    assert f'fill="{fill}"' in svg and "DejaVu Serif" in svg and "crafter--open-head" in svg  # open arrowheads
    assert "crafter--arrow-head" not in svg
    tex = (tmp_path / "f.tex").read_text(encoding="utf-8")
    assert fill[1:].upper() in tex.upper() and "Straight Barb" in tex and "\\rmfamily" in tex
    drawio = (tmp_path / "f.drawio").read_text(encoding="utf-8")
    assert f"fillColor={fill}" in drawio and "endArrow=open" in drawio
    with zipfile.ZipFile(tmp_path / "f.pptx") as z:
        slide = z.read("ppt/slides/slide1.xml").decode()
    assert fill[1:].upper() in slide and stroke[1:].upper() in slide
    a = fig.get("a").box
    r, g, b = _png_pixel(tmp_path / "f.png", fig, a.x + 4, a.y + 4)
    assert (r, g, b) == tuple(int(fill[i:i + 2], 16) for i in (1, 3, 5))
    assert (tmp_path / "f.pdf").read_bytes()[:4] == b"%PDF" and b"DejaVuSerif" in (tmp_path / "f.pdf").read_bytes()


def test_named_styles_live_in_the_config_folder(lab_style, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    path = install_style(lab_style)
    assert path == tmp_path / "cfg" / "crafter" / "styles" / "lab.style.json"
    assert resolve_style("lab") == lab_style


def test_cli_learn_then_render_and_chart_in_the_style(svg_sets, tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    out = tmp_path / "mylab.style.json"
    assert main(["style", "learn", *map(str, svg_sets["lab"][:4]), "-o", str(out), "--install"]) == 0
    text = capsys.readouterr().out
    assert "palette.node_fill" in text and "#FFF4E0" in text and f"wrote {out}" in text
    dsl = tmp_path / "f.dsl"
    dsl.write_text(DSL, encoding="utf-8")
    assert main(["render", str(dsl), "-o", str(tmp_path / "f.svg"), "--style", "mylab"]) == 0
    assert load_figure(tmp_path / "f.svg").style == style_layer(resolve_style("mylab"))
    data = tmp_path / "acc.csv"
    data.write_text("model,acc,set\nA,0.7,x\nB,0.8,x\nA,0.6,y\nB,0.75,y\n", encoding="utf-8")
    assert main(["chart", str(data), "--x", "model", "--y", "acc", "--color", "set", "-o", str(tmp_path / "c.svg"),
                 "--style", str(out)]) == 0
    chart_svg = (tmp_path / "c.svg").read_text(encoding="utf-8")
    assert LAB.palette[0] in chart_svg and "DejaVu Serif" in chart_svg
    assert main(["render", str(dsl), "-o", str(tmp_path / "g.svg"), "--style", "nolab"]) == 1
    assert "no style 'nolab'" in capsys.readouterr().err


def test_a_pdf_figure_is_read(svg_sets, vectorizer, tmp_path) -> None:
    fig = load_figure(svg_sets["lab"][1])
    export_figure(fig, tmp_path / "f.pdf")
    style = learn_from_files([tmp_path / "f.pdf"], "pdf", vectorizer=vectorizer)
    assert style["learned_from"][0]["reader"] == "pdf"
    assert style["font"]["class"]["value"] == "serif"  # pdffonts names DejaVuSerif
    assert style["palette"]["node_stroke"]["value"] == LAB.node_stroke


def test_crafteditor_convert_redraws_in_the_style(png_sets, lab_style) -> None:
    from crafteditor.convert import convert

    conv = convert(png_sets["paper"][0], style=lab_style)
    assert conv.figure.style is not None and conv.figure.style.name == "lab"
    assert f'fill="{LAB.node_fill}"' in conv.svg and conv.report["style"] == "lab"
    assert _no_theme_colour(conv.svg)


def _no_theme_colour(svg: str) -> bool:
    return 'stroke="#4A5568"' not in svg  # paper's node outline gave way to the lab's


def test_generate_draws_a_new_figure_in_the_style(lab_style, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("CRAFTER_RUNS_DB", str(tmp_path / "runs.sqlite"))
    path = tmp_path / "lab.style.json"
    from crafter.style import save_style

    save_style(lab_style, path)
    out = tmp_path / "g.svg"
    assert main(["generate", "An encoder feeds a decoder.", "-o", str(out), "--backend", "none", "--rounds", "0",
                 "-q", "--style", str(path)]) == 0
    fig = load_figure(out)
    assert fig.style == style_layer(lab_style) and f'fill="{LAB.node_fill}"' in out.read_text(encoding="utf-8")


def test_charts_in_every_export_take_the_style(lab_style, tmp_path) -> None:
    from crafter.benchmarks.style import examples_dir

    fig = apply_style(load_figure(examples_dir() / "method_and_results.dsl"), lab_style)
    for suffix in ("svg", "pptx", "tex", "vl.json"):
        export_figure(fig, tmp_path / f"f.{suffix}")
    first = LAB.palette[0]
    assert first in (tmp_path / "f.svg").read_text(encoding="utf-8")
    with zipfile.ZipFile(tmp_path / "f.pptx") as z:
        charts = [z.read(n).decode() for n in z.namelist() if n.startswith("ppt/charts/chart")]
    assert charts and first[1:] in charts[0]  # the native chart's first series
    assert first[1:].upper() in (tmp_path / "f.tex").read_text(encoding="utf-8").upper()
    assert first in (tmp_path / "f.vl.json").read_text(encoding="utf-8")
