"""PowerPoint export: every example as native shapes, glued connectors and native charts; the
stored FigureSpec; edits made with python-pptx (as PowerPoint would make them) merged back."""

from __future__ import annotations

import pytest
from pptx import Presentation
from pptx.chart.data import CategoryChartData, XyChartData
from pptx.dml.color import RGBColor
from pptx.enum.chart import XL_CHART_TYPE
from pptx.enum.shapes import MSO_CONNECTOR, MSO_SHAPE, MSO_SHAPE_TYPE
from pptx.oxml.ns import qn
from pptx.util import Emu
from pptx_helpers import (
    EMU,
    all_shapes,
    by_name,
    chart_cases,
    chart_figure,
    delete,
    presentation,
    saved,
    slide_text,
    xy_points,
)

from crafter.charts import compile_chart
from crafter.cli import main
from crafter.formats.pptx.read import ImportReport, pptx_to_figure
from crafter.formats.pptx.write import figure_to_pptx
from crafter.layout import layout_figure
from crafter.render import draw_svg, figure_to_svg
from crafter.spec import Box, Chart, Edge, Figure, Group, Node, Panel, Path, Point, Text, parse_dsl, print_dsl
from crafter.spec import Image as ImageComponent
from crafter.ui import services
from crafter.ui.uploads import FIGURE_SUFFIXES


def merged(data: bytes) -> tuple[Figure, ImportReport]:
    report = ImportReport()
    return pptx_to_figure(data, report=report), report


# =================================================================================
# Export
# =================================================================================


def test_every_example_exports_natively(example_name, examples_laid_out) -> None:
    fig = examples_laid_out[example_name]
    prs = presentation(figure_to_pptx(fig))
    assert len(prs.slides) == 1
    shapes = {s.name: s for s in all_shapes(prs.slides[0].shapes)}
    text = slide_text(prs)
    for c in fig.components:
        if isinstance(c, Node):
            assert " ".join(c.text.split()) in " ".join(text.split()), f"label of '{c.id}' missing"
            shape = shapes[c.id]
            if c.shape == "stack":
                assert shape.shape_type == MSO_SHAPE_TYPE.GROUP and len(shape.shapes) == 3
            else:
                assert shape.shape_type == MSO_SHAPE_TYPE.AUTO_SHAPE
                assert shape.text_frame.text.replace("\v", " ").split() == c.text.split()
        elif isinstance(c, (Group, Panel)):
            assert shapes[f"{c.id} container"].shape_type == MSO_SHAPE_TYPE.GROUP
            if c.label and isinstance(c, Group):
                assert shapes[f"{c.id} frame"].text_frame.text == c.label
        elif isinstance(c, Text):
            assert shapes[c.id].text_frame.text.replace("\v", " ").split() == c.text.split()
        elif isinstance(c, Edge) and c.label:
            assert shapes[f"{c.id} label"].text_frame.text.replace("\v", " ").split() == c.label.split()
    if fig.title:
        assert shapes["crafter--title"].text_frame.text.replace("\v", " ") == fig.title


def test_every_edge_is_a_connector_glued_at_both_ends(example_name, examples_laid_out) -> None:
    fig = examples_laid_out[example_name]
    prs = presentation(figure_to_pptx(fig))
    shapes = list(all_shapes(prs.slides[0].shapes))
    ids = {s.shape_id: s.name for s in shapes}
    assert len(ids) == len(shapes), "shape ids are unique"
    named = {s.name: s for s in shapes}
    for e in fig.of_kind("edge"):
        cxn = named[e.id]
        assert cxn.shape_type == MSO_SHAPE_TYPE.LINE and cxn.element.tag == qn("p:cxnSp")
        nv = cxn.element.find(f"{qn('p:nvCxnSpPr')}/{qn('p:cNvCxnSpPr')}")
        start, end = nv.find(qn("a:stCxn")), nv.find(qn("a:endCxn"))
        assert start is not None and end is not None, f"edge '{e.id}' is not glued at both ends"
        for ref, cid in ((start, e.source), (end, e.target)):
            glued_to = ids[int(ref.get("id"))]
            assert glued_to.split(" ")[0] == cid, f"edge '{e.id}' glued to {glued_to}, not {cid}"
        ln = cxn.element.spPr.find(qn("a:ln"))
        heads = {el.tag: el.get("type") for el in ln if el.tag in (qn("a:headEnd"), qn("a:tailEnd"))}
        assert (qn("a:tailEnd") in heads) == (e.head not in ("none", "bar"))
        assert (qn("a:headEnd") in heads) == (e.tail not in ("none", "bar"))


def test_shapes_match_the_node_kinds() -> None:
    shapes = ["box", "round", "ellipse", "circle", "diamond", "cylinder", "parallelogram", "hexagon", "document"]
    fig = parse_dsl("\n".join(f'{s} node "{s} label" shape={s}' for s in shapes) + '\nstack node "S" shape=stack\n'
                    'e edge box -> round "a label" style=dashed head=diamond tail=circle color=#D55E00')

    prs = presentation(figure_to_pptx(layout_figure(fig)))
    prst = {s.name: s.element.spPr.find(qn("a:prstGeom")).get("prst") for s in all_shapes(prs.slides[0].shapes)
            if s.element.tag == qn("p:sp") and s.name in shapes}
    assert prst == {"box": "rect", "round": "roundRect", "ellipse": "ellipse", "circle": "ellipse",
                    "diamond": "diamond", "cylinder": "can", "parallelogram": "parallelogram",
                    "hexagon": "hexagon", "document": "flowChartDocument"}
    circle = by_name(prs, "circle")
    assert circle.width == circle.height
    e = by_name(prs, "e")
    ln = e.element.spPr.find(qn("a:ln"))
    assert ln.find(qn("a:prstDash")).get("val") == "dash"
    assert ln.find(qn("a:tailEnd")).get("type") == "diamond" and ln.find(qn("a:headEnd")).get("type") == "oval"
    assert str(e.line.color.rgb) == "D55E00"


def test_labels_keep_font_colour_and_author_breaks() -> None:
    fig = layout_figure(parse_dsl('a node "Vector index\\n(FAISS)" fill=#0072B2 bold=true italic=true font_size=16'))
    shape = by_name(presentation(figure_to_pptx(fig)), "a")
    paras = shape.text_frame.paragraphs
    assert [p.text for p in paras] == ["Vector index", "(FAISS)"]
    font = paras[0].runs[0].font
    assert font.bold and font.italic and font.size.pt == 12 and font.name == "DejaVu Sans"
    assert str(font.color.rgb) == "FFFFFF"  # white on the dark fill, as the SVG draws it
    assert str(shape.fill.fore_color.rgb) == "0072B2"


def test_the_slide_is_the_drawing_at_print_size(examples_laid_out) -> None:
    import re

    fig = examples_laid_out["rag_pipeline"]
    prs = presentation(figure_to_pptx(fig))
    vb = re.search(r'viewBox="[-0-9.]+ [-0-9.]+ ([0-9.]+) ([0-9.]+)"', draw_svg(fig)).groups()
    assert abs(prs.slide_width - float(vb[0]) * EMU) <= 1 and abs(prs.slide_height - float(vb[1]) * EMU) <= 1


def test_figure_spec_is_stored_and_unedited_file_gives_it_back(example_name, examples_laid_out) -> None:
    fig = examples_laid_out[example_name]
    back, report = merged(figure_to_pptx(fig))
    assert report.crafter and not report.merged
    assert back == fig


def test_a_slide_per_panel_on_request(examples_laid_out) -> None:
    fig = examples_laid_out["two_panel_overview"]
    data = figure_to_pptx(fig, slides="panels")
    prs = presentation(data)
    assert len(prs.slides) == 2
    first = {s.name for s in all_shapes(prs.slides[0].shapes)}
    assert {"corpus", "mask", "a1"} <= first and "labels" not in first
    assert merged(data)[0] == fig
    # an edit on the second slide comes back too
    by_name(prs, "cls", slide=1).text_frame.paragraphs[0].runs[0].text = "Linear head"
    assert merged(saved(prs))[0].get("cls").label == "Linear head"


# =================================================================================
# Charts
# =================================================================================


@pytest.mark.parametrize("case", list(chart_cases()))
def test_charts_are_native_with_their_data(case) -> None:
    chart, plot_tag, horizontal, grouping = chart_cases()[case]
    fig = chart_figure(chart)
    prs = presentation(figure_to_pptx(fig))
    frame = by_name(prs, "c")
    assert frame.has_chart, "a native chart, not a picture"
    plot_area = frame.chart.element.find(f".//{qn('c:plotArea')}")
    plot = plot_area.find(qn(f"c:{plot_tag}"))
    assert plot is not None, f"expected a {plot_tag}"
    if plot_tag == "barChart":
        assert plot.find(qn("c:barDir")).get("val") == ("bar" if horizontal else "col")
        assert plot.find(qn("c:grouping")).get("val") == grouping
    rows = chart.spec["data"]["values"]
    p = frame.chart.plots[0]
    if plot_tag == "scatterChart":
        x_f, y_f = chart.spec["encoding"]["x"]["field"], chart.spec["encoding"]["y"]["field"]
        s_f = chart.spec["encoding"]["color"]["field"]
        points = xy_points(frame.chart)
        assert set(points) == {str(r[s_f]) for r in rows}
        for name, pts in points.items():
            mine = [r for r in rows if str(r[s_f]) == name]
            assert sorted(pts) == sorted((float(r[x_f]), float(r[y_f])) for r in mine)
    else:
        enc = chart.spec["encoding"]
        cat_f = enc["y" if horizontal else "x"]["field"]
        val_f = enc["x" if horizontal else "y"]["field"]
        s_f = enc.get("color", {}).get("field")
        cats = list(p.categories)
        for ser in p.series:
            for cat, v in zip(cats, ser.values):
                row = [r for r in rows if str(r[cat_f]) == str(cat) and (s_f is None or r[s_f] == ser.name)]
                assert len(row) == 1 and row[0][val_f] == v
    chart_xml = frame.chart.element
    assert frame.chart.has_title and frame.chart.chart_title.text_frame.text == "Results"
    assert len(chart_xml.findall(f".//{qn('c:title')}")) >= 2, "axis titles"
    if len(p.series) > 1:
        assert frame.chart.has_legend
        colors = [str(s.format.fill.fore_color.rgb) if plot_tag != "scatterChart" else
                  str(s.marker.format.fill.fore_color.rgb) for s in p.series]
        assert colors[:2] == ["0072B2", "E69F00"], "the series in the theme's palette"


def test_chart_data_edited_in_powerpoint_comes_back() -> None:
    chart, *_ = chart_cases()["grouped bar"]
    fig = chart_figure(chart)
    prs = presentation(figure_to_pptx(fig))
    ch = by_name(prs, "c").chart
    data = CategoryChartData()
    data.categories = list(ch.plots[0].categories) + ["Swin"]
    for s in ch.plots[0].series:
        values = list(s.values) + [90.5]
        if s.name == "ImageNet":
            values[0] = 50.0  # ResNet / ImageNet
        data.add_series(s.name, values)
    ch.replace_data(data)
    back, report = merged(saved(prs))
    rows = back.get("c").spec["data"]["values"]
    assert {"model": "ResNet", "dataset": "ImageNet", "acc": 50} in rows
    assert {"model": "Swin", "dataset": "CIFAR", "acc": 90.5} in rows
    assert len(rows) == 8
    assert any("chart 'c': data edited" in line for line in report.merged)


def test_scatter_points_edited_come_back() -> None:
    chart, *_ = chart_cases()["scatter"]
    prs = presentation(figure_to_pptx(chart_figure(chart)))
    ch = by_name(prs, "c").chart
    data = XyChartData()
    for name, pts in xy_points(ch).items():
        ser = data.add_series(name)
        for i, (x, y) in enumerate(pts):
            ser.add_data_point(x, 42.0 if (name == "a" and i == 0) else y)
    ch.replace_data(data)
    rows = merged(saved(prs))[0].get("c").spec["data"]["values"]
    assert {"x": 0, "y": 42, "group": "a"} in rows


def test_a_chart_powerpoint_cannot_draw_is_a_picture_that_still_moves() -> None:
    spec = {"data": {"values": [{"a": i, "b": i * i} for i in range(5)]},
            "layer": [{"mark": "line", "encoding": {"x": {"field": "a", "type": "quantitative"},
                                                     "y": {"field": "b", "type": "quantitative"}}},
                      {"mark": "rule", "encoding": {"y": {"datum": 8}}}]}
    fig = chart_figure(Chart(kind="chart", id="c", spec=spec))
    prs = presentation(figure_to_pptx(fig))
    pic = by_name(prs, "c")
    assert pic.shape_type == MSO_SHAPE_TYPE.PICTURE
    pic.left += Emu(20 * EMU)
    back, _ = merged(saved(prs))
    assert back.get("c").box.x == pytest.approx(fig.get("c").box.x + 20, abs=0.1) and back.get("c").pinned


# =================================================================================
# Edits made in PowerPoint (python-pptx stands in for it)
# =================================================================================


def test_move_rename_recolour_delete_come_back(examples_laid_out) -> None:
    fig = examples_laid_out["rag_pipeline"]
    prs = presentation(figure_to_pptx(fig))
    llm = by_name(prs, "llm")
    llm.left, llm.top = llm.left + Emu(40 * EMU), llm.top + Emu(25 * EMU)
    llm.width = llm.width + Emu(10 * EMU)
    by_name(prs, "q").text_frame.paragraphs[0].runs[0].text = "Search query"
    by_name(prs, "rerank").fill.fore_color.rgb = RGBColor(0xCC, 0x79, 0xA7)
    by_name(prs, "e1").line.color.rgb = RGBColor(0xD5, 0x5E, 0x00)
    by_name(prs, "e3").line.dash_style = None  # the dashed 'prompt' edge made solid
    delete(by_name(prs, "ans"))
    delete(by_name(prs, "e2"))
    delete(by_name(prs, "e2 label"))
    back, report = merged(saved(prs))
    old, new = fig.get("llm").box, back.get("llm").box
    assert (new.x, new.y, new.w) == pytest.approx((old.x + 40, old.y + 25, old.w + 10), abs=0.01)
    assert back.get("llm").pinned
    assert back.get("q").label == "Search query"
    assert back.get("rerank").fill == "#CC79A7"
    assert back.get("e1").color == "#D55E00"
    assert back.get("e3").style == "solid"
    ids = {c.id for c in back.components}
    assert "ans" not in ids and "e8" not in ids, "a deleted node takes its edges along"
    assert "e2" not in ids
    # edges on the moved node follow it
    e4_routes = [e for e in back.of_kind("edge") if e.target == "llm"]
    assert e4_routes and all(abs(e.route[-1].x - new.x) < 1 or abs(e.route[-1].y - new.y) < 1
                             or new.contains_point(e.route[-1].x, e.route[-1].y, 1) for e in e4_routes)
    # the rest is untouched
    assert back.get("index") == fig.get("index")
    assert any("moved" in line for line in report.merged)


def test_added_shape_and_connector_become_components(examples_laid_out) -> None:
    fig = examples_laid_out["two_panel_overview"]
    prs = presentation(figure_to_pptx(fig))
    slide = prs.slides[0]
    box = slide.shapes.add_shape(MSO_SHAPE.ROUNDED_RECTANGLE, Emu(10 * EMU), Emu(300 * EMU), Emu(80 * EMU),
                                 Emu(30 * EMU))
    box.name = "Rounded Rectangle 7"
    box.text = "Augment"
    box.fill.solid()
    box.fill.fore_color.rgb = RGBColor(0xF3, 0xE0, 0xEC)
    cxn = slide.shapes.add_connector(MSO_CONNECTOR.ELBOW, 0, 0, 1, 1)
    cxn.begin_connect(box, 3)
    cxn.end_connect(by_name(prs, "mlm"), 1)
    note = slide.shapes.add_textbox(Emu(200 * EMU), Emu(330 * EMU), Emu(100 * EMU), Emu(20 * EMU))
    note.text_frame.text = "ablation"
    back, report = merged(saved(prs))
    new = back.get("rounded-rectangle-7")
    assert isinstance(new, Node) and new.label == "Augment" and new.shape == "round" and new.fill == "#F3E0EC"
    assert new.pinned and new.box.x == pytest.approx(10) and new.box.y == pytest.approx(300)
    edge = next(e for e in back.of_kind("edge") if e.source == new.id)
    assert edge.target == "mlm"
    texts = [t for t in back.of_kind("text") if t.text == "ablation"]
    assert len(texts) == 1
    assert sum("new" in line for line in report.merged) == 3


def test_connector_glued_elsewhere_reconnects_the_edge(examples_laid_out) -> None:
    fig = examples_laid_out["two_panel_overview"]
    prs = presentation(figure_to_pptx(fig))
    by_name(prs, "a3").end_connect(by_name(prs, "mask"), 3)
    back, _ = merged(saved(prs))
    assert back.get("a3").target == "mask" and back.get("a3").source == "encA"


def test_group_moved_whole_moves_its_members(examples_laid_out) -> None:
    fig = examples_laid_out["distributed_training"]
    group = next(g for g in fig.of_kind("group") if g.members)
    prs = presentation(figure_to_pptx(fig))
    container = by_name(prs, f"{group.id} container")
    container.left += Emu(30 * EMU)
    back, _ = merged(saved(prs))
    assert back.get(group.id).box.x == pytest.approx(group.box.x + 30, abs=0.01)
    for m in group.members:
        if fig.get(m).box is not None:
            assert back.get(m).box.x == pytest.approx(fig.get(m).box.x + 30, abs=0.01)


def test_title_text_and_group_label_edits(examples_laid_out) -> None:
    fig = examples_laid_out["training_loop"]
    prs = presentation(figure_to_pptx(fig))
    by_name(prs, "crafter--title").text_frame.paragraphs[0].runs[0].text = "LoRA fine-tuning"
    by_name(prs, "frozen frame").text_frame.paragraphs[0].runs[0].text = "Frozen backbone"
    note = by_name(prs, "note")
    note.text_frame.paragraphs[0].runs[0].text = "only adapters learn"
    note.top += Emu(12 * EMU)
    back, _ = merged(saved(prs))
    assert back.title == "LoRA fine-tuning"
    assert back.get("frozen").label == "Frozen backbone"
    assert back.get("note").text == "only adapters learn"
    assert back.get("note").box.y == pytest.approx(fig.get("note").box.y + 12, abs=0.01)


def test_merged_figure_renders_and_prints(examples_laid_out) -> None:
    fig = examples_laid_out["method_and_results"]
    prs = presentation(figure_to_pptx(fig))
    by_name(prs, "vit").left += Emu(30 * EMU)
    back, _ = merged(saved(prs))
    assert "ViT encoder" in figure_to_svg(back)
    assert parse_dsl(print_dsl(back)) == back


# =================================================================================
# A PPTX Crafter did not write
# =================================================================================


def test_foreign_pptx_imports_best_effort(tmp_path) -> None:
    import io

    from PIL import Image

    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[5])  # title only
    slide.shapes.title.text = "Our pipeline"
    a = slide.shapes.add_shape(MSO_SHAPE.FLOWCHART_MAGNETIC_DISK, Emu(914400), Emu(1828800), Emu(1371600), Emu(685800))
    a.text = "Corpus"
    b = slide.shapes.add_shape(MSO_SHAPE.OVAL, Emu(4114800), Emu(1828800), Emu(1371600), Emu(685800))
    b.text = "Model"
    c = slide.shapes.add_connector(MSO_CONNECTOR.STRAIGHT, 0, 0, 1, 1)
    c.begin_connect(a, 3)
    c.end_connect(b, 1)
    tb = slide.shapes.add_textbox(Emu(914400), Emu(3000000), Emu(2000000), Emu(400000))
    tb.text_frame.text = "Figure 1: overview"
    png = io.BytesIO()
    Image.new("RGB", (8, 8), "red").save(png, format="PNG")
    slide.shapes.add_picture(io.BytesIO(png.getvalue()), Emu(6000000), Emu(1828800), Emu(600000), Emu(600000))
    data = CategoryChartData()
    data.categories = ["A", "B"]
    data.add_series("score", (1.0, 2.5))
    slide.shapes.add_chart(XL_CHART_TYPE.COLUMN_CLUSTERED, Emu(914400), Emu(3600000), Emu(3000000), Emu(2000000), data)
    fig, report = merged(saved(prs))
    assert not report.crafter
    assert fig.title == "Our pipeline"
    nodes = {n.label: n for n in fig.of_kind("node")}
    assert nodes["Corpus"].shape == "cylinder" and nodes["Model"].shape == "ellipse"
    assert nodes["Corpus"].pinned and nodes["Corpus"].box.x == pytest.approx(96)
    (edge,) = fig.of_kind("edge")
    assert (edge.source, edge.target) == (nodes["Corpus"].id, nodes["Model"].id)
    assert [t.text for t in fig.of_kind("text")] == ["Figure 1: overview"]
    (image,) = fig.of_kind("image")
    assert image.href.startswith("data:image/png;base64,")
    (chart,) = fig.of_kind("chart")
    assert chart.spec["mark"] == "bar"
    assert [r["value"] for r in chart.spec["data"]["values"]] == [1, 2.5]

    compile_chart(chart.spec)  # Crafter draws it


# =================================================================================
# Hooks: the CLI and the app
# =================================================================================


def test_cli_renders_pptx_and_imports_it_back(tmp_path) -> None:
    from pptx_helpers import ROOT

    out = tmp_path / "rag.pptx"
    assert main(["render", str(ROOT / "examples" / "rag_pipeline.dsl"), "-o", str(out)]) == 0
    prs = presentation(out.read_bytes())
    by_name(prs, "llm").text_frame.paragraphs[0].runs[0].text = "Generator"
    edited = tmp_path / "edited.pptx"
    edited.write_bytes(saved(prs))
    dsl = tmp_path / "fig.dsl"
    assert main(["import", str(edited), "-o", str(dsl)]) == 0
    assert 'llm    node "Generator"' in dsl.read_text() or 'node "Generator"' in dsl.read_text()


def test_app_offers_pptx_and_opens_it(examples_laid_out) -> None:
    formats = {f.suffix: f for f in services.export_formats()}
    assert formats[".pptx"].label == "PowerPoint"
    fig = examples_laid_out["two_panel_overview"]
    data = services.export_bytes(fig, ".pptx")
    assert "pptx" in FIGURE_SUFFIXES
    opened = services.open_figure_bytes(data, "fig.pptx")
    assert opened.figure == fig


def test_orthogonal_routes_become_elbow_connectors(examples_laid_out) -> None:
    prs = presentation(figure_to_pptx(examples_laid_out["rag_pipeline"]))
    prst = {s.name: s.element.spPr.find(qn("a:prstGeom")).get("prst") for s in all_shapes(prs.slides[0].shapes)
            if s.element.tag == qn("p:cxnSp")}
    assert set(prst.values()) <= {"straightConnector1", "bentConnector2", "bentConnector3", "bentConnector4",
                                  "bentConnector5"}
    assert sum(p.startswith("bentConnector") for p in prst.values()) >= 3


def test_images_paths_and_rotated_text_export_and_come_back() -> None:
    import base64
    import io

    from PIL import Image

    png = io.BytesIO()
    Image.new("RGB", (6, 4), "blue").save(png, format="PNG")
    href = "data:image/png;base64," + base64.b64encode(png.getvalue()).decode()
    fig = Figure(components=[
        ImageComponent(kind="image", id="logo", href=href, alt="lab logo", box=Box(x=10, y=10, w=60, h=40)),
        Path(kind="path", id="icon", d="M100,10 L140,10 C150,30 150,40 140,50 Z", fill="#E69F00"),
        Text(kind="text", id="axis", text="accuracy", rotate=-90, at=Point(x=200, y=40)),
    ])
    data = figure_to_pptx(fig)
    prs = presentation(data)
    pic = by_name(prs, "logo")
    assert pic.shape_type == MSO_SHAPE_TYPE.PICTURE and pic.element[0][0].get("descr") == "lab logo"
    icon = by_name(prs, "icon")
    path = icon.element.spPr.find(f"{qn('a:custGeom')}/{qn('a:pathLst')}/{qn('a:path')}")
    assert [el.tag.rsplit("}", 1)[-1] for el in path] == ["moveTo", "lnTo", "cubicBezTo", "close"]
    assert by_name(prs, "axis").rotation == pytest.approx(270)
    assert merged(data)[0] == fig
    pic.left += Emu(5 * EMU)
    icon.left += Emu(10 * EMU)
    back, _ = merged(saved(prs))
    assert back.get("logo").box.x == pytest.approx(15)
    assert back.get("icon").d.startswith("M110,10")
