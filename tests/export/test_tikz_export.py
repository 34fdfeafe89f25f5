"""TikZ/pgfplots export: structure of the LaTeX, and that pdflatex compiles it."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from crafter.formats import figure_to_latex, figure_to_tikz, write_tikz
from crafter.formats.tikz import TIKZ_LIBRARIES
from crafter.spec import Box, Edge, Figure, Group, Image, Node, Point, Size, Text
from crafter.spec import Path as PathComponent

PNG_1PX = ("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQ"
           "AAAABJRU5ErkJggg==")


def compile_tex(pdflatex: str, tex: Path) -> Path:
    """Run pdflatex; on failure show the first error from the log."""
    proc = subprocess.run([pdflatex, "-interaction=nonstopmode", "-halt-on-error", tex.name], cwd=tex.parent,
                          capture_output=True, text=True, timeout=120)
    log = tex.with_suffix(".log").read_text(errors="replace") if tex.with_suffix(".log").exists() else proc.stdout
    errors = [line for line in log.splitlines() if line.startswith("!")]
    assert proc.returncode == 0, f"pdflatex failed on {tex.name}: {errors[:3]}\n{log[-1500:]}"
    pdf = tex.with_suffix(".pdf")
    assert pdf.exists() and pdf.stat().st_size > 1000
    return pdf


def every_shape_figure() -> Figure:
    """One node per shape, edges with every head and dash, a nested group, text, a path and an image."""
    shapes = ["box", "round", "ellipse", "circle", "diamond", "cylinder", "parallelogram", "hexagon", "document",
              "stack"]
    comps: list = []
    for i, shape in enumerate(shapes):
        comps.append(Node(kind="node", id=f"n{i}", label=f"{shape}\nnode", shape=shape, fill="#D6E6F4",
                          box=Box(x=20 + (i % 5) * 130, y=40 + (i // 5) * 110, w=100, h=56)))
    heads = ["arrow", "open", "diamond", "circle", "bar", "none"]
    for i, head in enumerate(heads):
        a, b = comps[i].box, comps[i + 1].box
        comps.append(Edge(kind="edge", id=f"e{i}", source=f"n{i}", target=f"n{i + 1}", head=head, tail=heads[-1 - i],
                          style=["solid", "dashed", "dotted"][i % 3], label="a & b" if i == 0 else None,
                          route=[Point(x=a.right, y=a.cy), Point(x=b.x, y=b.cy)],
                          label_box=Box(x=a.right - 10, y=a.cy - 20, w=50, h=14) if i == 0 else None))
    comps.append(Group(kind="group", id="inner", label="Inner", members=["n0", "n1"], style="dashed",
                       box=Box(x=10, y=12, w=250, h=96)))
    comps.append(Group(kind="group", id="outer", label="Outer_group", members=["inner", "n2"], fill="#FBEBCB",
                       box=Box(x=4, y=4, w=392, h=110)))
    comps.append(Text(kind="text", id="note", text="rotated axis title", rotate=-90, box=Box(x=660, y=60, w=20, h=140)))
    comps.append(Text(kind="text", id="free", text="at a point", at=Point(x=600, y=260), italic=True))
    comps.append(PathComponent(kind="path", id="icon", d="M600,20 l20,0 a10 10 0 0 1 -20 0 z", fill="#E69F00"))
    comps.append(Image(kind="image", id="photo", href=PNG_1PX, box=Box(x=560, y=200, w=30, h=30)))
    return Figure(title="Every shape", canvas=Size(w=700, h=280), components=comps)


def test_standalone_document_has_preamble_and_one_picture() -> None:
    tex = figure_to_latex(every_shape_figure())
    assert tex.startswith("% Crafter figure")
    assert "\\documentclass[border=4pt]{standalone}" in tex
    assert "\\usepackage{pgfplots}" in tex and "\\usepackage{tikz}" in tex
    assert f"\\usetikzlibrary{{{','.join(TIKZ_LIBRARIES)}}}" in tex
    assert tex.count("\\begin{tikzpicture}") == 1 and tex.rstrip().endswith("\\end{document}")


def test_body_is_only_the_picture() -> None:
    body = figure_to_tikz(every_shape_figure())
    assert "\\documentclass" not in body and "\\usepackage" not in body.replace("%   \\usepackage", "")
    assert body.lstrip().startswith("%") and body.rstrip().endswith("\\end{tikzpicture}")


def test_nodes_are_named_tikz_nodes_with_matching_shapes() -> None:
    tex = figure_to_tikz(every_shape_figure())
    expected = {"n0": "rectangle", "n1": "rounded corners", "n2": "ellipse", "n3": "circle", "n4": "diamond",
                "n6": None, "n7": "signal", "n8": "tape", "n9": "double copy shadow"}
    for nid, style in expected.items():
        line = next(ln for ln in tex.splitlines() if f"({nid}) at" in ln)
        if style:
            assert style in line, line
    # cylinder and parallelogram: drawn outlines plus an invisible named node
    assert re.search(r"\\path\[crafter node, fill=crD6E6F4.*arc\[", tex)
    assert "(n5) at" in tex and "(n6) at" in tex
    # every node has its label as a separate node, centred in it
    for i in range(10):
        assert f"(n{i}-label) at" in tex


def test_colours_are_defined_once_and_used() -> None:
    tex = figure_to_tikz(every_shape_figure())
    defs = re.findall(r"\\definecolor\{(\w+)\}\{HTML\}\{([0-9A-F]{6})\}", tex)
    names = [n for n, _ in defs]
    assert len(names) == len(set(names))
    assert ("crD6E6F4", "D6E6F4") in defs and ("crFBEBCB", "FBEBCB") in defs
    for name in names:
        assert tex.count(name) >= 2, f"{name} defined but unused"


def test_edges_follow_route_with_arrow_tips_dashes_and_labels() -> None:
    tex = figure_to_tikz(every_shape_figure())
    e0 = next(ln for ln in tex.splitlines() if ln.startswith("\\draw[crafter edge") and "Stealth" in ln)
    assert "(120,68) -- (150,68)" in e0
    assert "Straight Barb" in tex and "{Diamond[" in tex and "{Circle[" in tex and "{Bar[" in tex
    assert "dash pattern=on" in tex
    assert "(e0-label) at" in tex and "a \\& b" in tex


def test_groups_are_fit_frames_behind_their_members() -> None:
    tex = figure_to_tikz(every_shape_figure())
    assert "\\begin{scope}[on background layer]" in tex
    assert "fit={(4,4) (396,114)}] (outer)" in tex
    assert tex.index("(outer) {}") < tex.index("(inner) {}") < tex.index("(n0) at")
    assert "Outer\\_group" in tex


def test_text_rotation_turns_the_other_way_in_tikz() -> None:
    tex = figure_to_tikz(every_shape_figure())
    line = next(ln for ln in tex.splitlines() if "(note) at" in ln)
    assert "rotate=90" in line  # SVG's -90 (counter-clockwise on screen) is TikZ's +90


def test_charts_are_pgfplots_axes_with_inline_data(chart_figure: Figure) -> None:
    tex = figure_to_tikz(chart_figure)
    assert tex.count("\\begin{axis}") == 2
    assert "ybar" in tex and "bar shift auto" in tex  # grouped bars (xOffset)
    assert "xticklabels={{ConvNeXt\\_T},{ResNet-50},{ViT-B/16}}" in tex  # Vega-Lite's ascending order
    assert "(0,97) (1,93.1) (2,98.1)" in tex  # CIFAR-10 bars, data inline
    assert "ymode=log" in tex and "\\addlegendentry{baseline}" in tex
    assert "Results \\& ablations: 100\\% of runs" in tex


def test_unsupported_chart_becomes_a_labelled_placeholder(chart_figure: Figure) -> None:
    from crafter.formats.tikz import figure_to_tikz
    from crafter.spec import Chart

    heat = Chart(kind="chart", id="heat", title="Confusion", spec={"mark": "rect", "data": {"values": []}},
                 box=Box(x=0, y=0, w=100, h=100))
    tex = figure_to_tikz(Figure(components=[heat]))
    assert "% chart heat: mark 'rect' are not translated to pgfplots" in tex
    assert "{Confusion}" in tex


def test_images_become_side_files(tmp_path: Path) -> None:
    written = write_tikz(every_shape_figure(), tmp_path / "fig.tex")
    assert [p.name for p in written] == ["fig.tex", "fig-photo.png"]
    assert (tmp_path / "fig-photo.png").read_bytes().startswith(b"\x89PNG")
    assert "\\includegraphics[width=22.5pt, height=22.5pt]{fig-photo.png}" in (tmp_path / "fig.tex").read_text()


def test_images_without_a_file_are_framed_placeholders() -> None:
    tex = figure_to_tikz(every_shape_figure())
    assert "not inlined in LaTeX" in tex and "\\includegraphics" not in tex


# -- compiling --------------------------------------------------------------------------------


def test_every_example_compiles(pdflatex: str, example: Figure, tmp_path: Path) -> None:
    tex = tmp_path / "figure.tex"
    tex.write_text(figure_to_latex(example), encoding="utf-8")
    compile_tex(pdflatex, tex)


def test_every_shape_head_and_kind_compiles(pdflatex: str, tmp_path: Path) -> None:
    written = write_tikz(every_shape_figure(), tmp_path / "shapes.tex")
    compile_tex(pdflatex, written[0])


def test_charts_compile(pdflatex: str, chart_figure: Figure, tmp_path: Path) -> None:
    tex = tmp_path / "charts.tex"
    tex.write_text(figure_to_latex(chart_figure), encoding="utf-8")
    compile_tex(pdflatex, tex)


def test_body_inputs_into_a_users_document(pdflatex: str, tmp_path: Path) -> None:
    """The .tikz body inside an article, twice (colour definitions must not clash)."""
    (tmp_path / "fig.tikz").write_text(figure_to_tikz(every_shape_figure()), encoding="utf-8")
    doc = tmp_path / "paper.tex"
    doc.write_text(
        "\\documentclass{article}\n\\usepackage{graphicx,tikz,pgfplots}\n\\pgfplotsset{compat=1.16}\n"
        f"\\usetikzlibrary{{{','.join(TIKZ_LIBRARIES)}}}\n\\begin{{document}}\n"
        "\\begin{figure}\\resizebox{\\linewidth}{!}{\\input{fig.tikz}}\\caption{Once.}\\end{figure}\n"
        "\\begin{figure}\\resizebox{\\linewidth}{!}{\\input{fig.tikz}}\\caption{Twice.}\\end{figure}\n"
        "\\end{document}\n", encoding="utf-8")
    compile_tex(pdflatex, doc)


def test_hostile_labels_compile(pdflatex: str, tmp_path: Path) -> None:
    labels = ["100% & $5 #1 _x {y} ~z ^w \\cmd", "κ ≥ 0.7, ∇ loss, ΔW = BA × 2", "Ünïcödé naïve café ½",
              "emoji 🚀 and 中文", "quotes \"double\" 'single' <angle> |bar|", "\\end{document}", "line\nbreak"]
    comps = [Node(kind="node", id=f"n{i}", label=s, box=Box(x=10, y=10 + 60 * i, w=300, h=50))
             for i, s in enumerate(labels)]
    tex = tmp_path / "labels.tex"
    tex.write_text(figure_to_latex(Figure(title="50% off & more", components=comps)), encoding="utf-8")
    assert "U+1F680" in tex.read_text()  # the dropped emoji is named in a comment
    compile_tex(pdflatex, tex)
