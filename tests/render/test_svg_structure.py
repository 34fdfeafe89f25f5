"""What an Inkscape/Illustrator user relies on: one named <g> per component, text as <text>."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from render_helpers import SHOWCASE_DSL, hand_layout, small_figure

from crafter.base.text import wrap
from crafter.base.theme import get_theme
from crafter.render import draw_svg, figure_to_svg
from crafter.spec import Figure, parse_dsl

NS = {"svg": "http://www.w3.org/2000/svg"}
SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg.encode("utf-8"))


def component_groups(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if g.get("data-crafter-kind")]


def test_one_top_level_group_per_component(showcase: Figure) -> None:
    root = parse(figure_to_svg(showcase))
    groups = component_groups(root)
    assert sorted(g.get("id") for g in groups) == sorted(c.id for c in showcase.components)
    kinds = {c.id: c.kind for c in showcase.components}
    for g in groups:
        assert g.get("data-crafter-kind") == kinds[g.get("id")]
    # never nested: every component <g> is a direct child of <svg>
    top = {id(el) for el in root}
    assert all(id(g) in top for g in groups)
    ids = [el.get("id") for el in root.iter() if el.get("id")]
    assert len(ids) == len(set(ids)), "ids must be unique in the document"


def test_drawing_order_frames_behind_members() -> None:
    fig = hand_layout(parse_dsl(
        'a node "A"\nb node "B"\nc node "C"\ne edge a -> b\n'
        'inner group "Inner" [a, b]\nouter group "Outer" [inner, c]\n'
        'p panel [outer]\nt text "note" near=a\n'
    ))
    order = [g.get("id") for g in component_groups(parse(figure_to_svg(fig)))]
    assert order == ["p", "outer", "inner", "e", "a", "b", "c", "t"]


def test_labels_are_text_with_one_tspan_per_wrapped_line(showcase: Figure) -> None:
    root = parse(figure_to_svg(showcase))
    t = get_theme(showcase.theme)
    node = next(g for g in component_groups(root) if g.get("id") == "b")
    texts = node.findall("svg:text", NS)
    assert len(texts) == 1
    spans = [s.text for s in texts[0].findall("svg:tspan", NS)]
    label = showcase.get("b").label
    assert spans == wrap(label, t.font_size, t.node_max_text_w)
    assert len(spans) >= 2
    assert texts[0].get("font-family") == t.font_family
    # no glyph outlines anywhere: the only <path>s are shapes, edges and markers
    assert "glyph" not in figure_to_svg(showcase)


def test_node_label_defaults_to_id_and_is_centred() -> None:
    fig = hand_layout(parse_dsl("encoder node\n"))
    root = parse(figure_to_svg(fig))
    text = root.find(".//svg:g[@id='encoder']/svg:text", NS)
    assert text.get("text-anchor") == "middle"
    span = text.find("svg:tspan", NS)
    assert span.text == "encoder"
    box = fig.get("encoder").box
    assert float(span.get("x")) == pytest.approx(box.cx, abs=0.01)
    assert box.y < float(span.get("y")) < box.bottom


def test_every_shape_draws_an_outline() -> None:
    shapes = ["box", "round", "ellipse", "circle", "diamond", "cylinder", "parallelogram", "hexagon", "document",
              "stack"]
    fig = hand_layout(parse_dsl("\n".join(f'n{i} node "{s}" shape={s}' for i, s in enumerate(shapes))))
    root = parse(figure_to_svg(fig))
    for i, s in enumerate(shapes):
        g = root.find(f".//svg:g[@id='n{i}']", NS)
        outline = [el for el in g if el.tag != f"{SVG}text"]
        assert outline, s
        assert {el.tag.split("}")[1] for el in outline} <= {"rect", "ellipse", "circle", "polygon", "path"}
    stack = root.find(".//svg:g[@id='n9']", NS)
    # one element for the outline, as every other shape: the front sheet and what shows of the
    # two behind it are subpaths of one path
    (outline,) = [el for el in stack if el.tag != f"{SVG}text"]
    assert outline.tag == f"{SVG}path"
    assert outline.get("d").count("M") == 3


def test_a_stack_without_fill_draws_each_sheet_whole() -> None:
    fig = hand_layout(parse_dsl('s node "Batches" shape=stack fill=none'))
    g = parse(figure_to_svg(fig)).find(".//svg:g[@id='s']", NS)
    assert len(g.findall("svg:rect", NS)) == 3  # nothing hides the sheets behind


def test_size_viewbox_background_and_title() -> None:
    fig = small_figure(title="Autoencoder")
    root = parse(figure_to_svg(fig))
    vb = [float(v) for v in root.get("viewBox").split()]
    assert float(root.get("width")) == pytest.approx(vb[2])
    assert float(root.get("height")) == pytest.approx(vb[3])
    assert vb[2] >= fig.canvas.w and vb[3] >= fig.canvas.h
    assert root.find("svg:rect[@id='crafter--background']", NS) is not None
    title = root.find("svg:text[@id='crafter--title']", NS)
    assert "".join(title.itertext()) == "Autoencoder"
    assert root.find("svg:title", NS).text == "Autoencoder"
    top = min(c.box.y for c in fig.components if c.box is not None)
    assert vb[1] < float(title.find("svg:tspan", NS).get("y")) < top  # between the top edge and the components


def test_title_without_reserved_room_grows_the_drawing_upwards() -> None:
    fig = parse_dsl('figure "A rather long title for a narrow figure"\na node "A" box=0,0,60,30\n')
    root = parse(draw_svg(fig))
    vb = [float(v) for v in root.get("viewBox").split()]
    title = root.find("svg:text[@id='crafter--title']", NS)
    spans = title.findall("svg:tspan", NS)
    assert len(spans) == 1  # widened, not wrapped
    assert vb[1] < 0 and float(spans[0].get("y")) < 0
    assert vb[2] > 250


def test_groups_and_panels() -> None:
    fig = hand_layout(parse_dsl(
        'a node "A"\nb node "B"\nc node "C"\n'
        'g group "Frozen" [a] style=dashed\n'
        'p1 panel [b] title="Training"\np2 panel [c]\np3 panel "(z)" \n'
    ))
    root = parse(figure_to_svg(fig))
    g = root.find(".//svg:g[@id='g']", NS)
    frame = g.find("svg:rect", NS)
    assert frame.get("stroke-dasharray") and float(frame.get("rx")) > 0
    assert g.find("svg:text", NS).text == "Frozen"

    def panel_text(pid: str) -> list[str]:
        return [t.text for t in root.find(f".//svg:g[@id='{pid}']", NS).findall("svg:text", NS)]

    assert panel_text("p1") == ["(a)", "Training"]
    assert panel_text("p2") == ["(b)"]
    assert panel_text("p3") == ["(z)"]


def test_edge_path_label_and_dash_styles() -> None:
    fig = hand_layout(parse_dsl(
        'a node "A"\nb node "B"\nc node "C"\n'
        'e1 edge a -> b "q, k, v" style=dashed\ne2 edge b -> c style=dotted\n'
    ))
    root = parse(figure_to_svg(fig))
    e1 = root.find(".//svg:g[@id='e1']", NS)
    assert e1.get("data-crafter-source") == "a" and e1.get("data-crafter-target") == "b"
    path = e1.find("svg:path", NS)
    assert path.get("d").startswith("M") and path.get("fill") == "none"
    assert path.get("stroke-dasharray")
    assert e1.find("svg:rect", NS) is not None  # label background
    assert "".join(e1.find("svg:text", NS).itertext()) == "q, k, v"
    e2 = root.find(".//svg:g[@id='e2']/svg:path", NS)
    assert e2.get("stroke-linecap") == "round" and e2.get("stroke-dasharray")


def test_routes_orthogonal_rounded_and_spline() -> None:
    base = 'a node "A"\nb node "B" box=200,200,60,30\n'
    route = "route=60,15;120,15;120,215;200,215"
    fig = parse_dsl(f'figure routing=orthogonal\na node "A" box=0,0,60,30\n{base.splitlines()[1]}\n'
                    f"e edge a -> b {route}\n")
    d = parse(draw_svg(fig)).find(".//svg:g[@id='e']/svg:path", NS).get("d")
    assert "Q" in d  # rounded corners
    fig = parse_dsl(f'figure routing=spline\na node "A" box=0,0,60,30\n{base.splitlines()[1]}\n'
                    f"e edge a -> b {route}\n")
    d = parse(draw_svg(fig)).find(".//svg:g[@id='e']/svg:path", NS).get("d")
    assert "C" in d and "Q" not in d
    fig = parse_dsl(f'a node "A" box=0,0,60,30\n{base.splitlines()[1]}\ne edge a -> b routing=straight {route}\n')
    d = parse(draw_svg(fig)).find(".//svg:g[@id='e']/svg:path", NS).get("d")
    assert "Q" not in d and "C" not in d


def test_edges_end_on_round_and_slanted_outlines() -> None:
    # the route stops at the bounding box; the drawn line must reach the ellipse itself
    fig = parse_dsl('a node "A" box=0,0,60,30\nb node "B" shape=diamond box=100,0,60,60\n'
                    'e edge a -> b head=none route=60,15;100,15\n')
    d = parse(draw_svg(fig)).find(".//svg:g[@id='e']/svg:path", NS).get("d")
    end_x = float(d.split("L")[-1].split(",")[0])
    assert end_x == pytest.approx(115, abs=0.5)  # the diamond's edge at y=15 is 15 px inside the box


def test_text_image_path_and_chart(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("crafter.render.svg.chart_svg_fragment",  # a chart's drawing, as the charts renderer's
                        lambda chart, box, theme: f"<text>{chart.title}</text>")
    png = "data:image/png;base64,iVBORw0KGgo="
    fig = parse_dsl(
        f'a node "A" box=0,0,60,30\nt text "n = 3" at=30,50\nim image "{png}" box=0,60,20,20\n'
        'p path "M0,0 L10,10 Z" fill=#D55E00\nc chart "Accuracy" box=100,0,120,80\n'
    )
    root = parse(draw_svg(fig))
    t = root.find(".//svg:g[@id='t']/svg:text", NS)
    assert "".join(t.itertext()) == "n = 3"
    image = root.find(".//svg:g[@id='im']/svg:image", NS)
    assert image.get("href") == png
    assert image.get("{http://www.w3.org/1999/xlink}href") == png
    path = root.find(".//svg:g[@id='p']/svg:path", NS)
    assert path.get("d") == "M0,0 L10,10 Z" and path.get("fill") == "#D55E00"
    chart = root.find(".//svg:g[@id='c']", NS)
    assert "Accuracy" in "".join(chart.itertext())


def test_chart_is_drawn_by_the_charts_renderer(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []

    def fragment(chart, box, theme):  # noqa: ANN001
        calls.append((chart.id, box.w, theme.name))
        return '<rect x="0" y="0" width="1" height="1" class="from-charts"/>'

    monkeypatch.setattr("crafter.render.svg.chart_svg_fragment", fragment)
    fig = parse_dsl('c chart "Accuracy" box=0,0,120,80\n')
    root = parse(draw_svg(fig))
    assert calls == [("c", 120, "paper")]
    assert root.find(".//svg:g[@id='c']/svg:rect[@class='from-charts']", NS) is not None


def test_themes_differ() -> None:
    svgs = {name: figure_to_svg(small_figure(theme=name)) for name in ("paper", "slides", "mono")}
    assert 'font-size="20"' in svgs["slides"] and 'font-size="12"' in svgs["paper"]
    assert "#0072B2".lower() not in svgs["mono"].lower()
    assert len(set(svgs.values())) == 3


def test_showcase_dsl_is_valid() -> None:
    assert len(parse_dsl(SHOWCASE_DSL).components) > 10


def _labelled_edges(label_y: float, second_route_y: float | None = None) -> Figure:
    """Two nodes side by side and an edge between them at y=50 whose label box sits at label_y;
    optionally a second, earlier edge running under the label at second_route_y."""
    comps = [
        {"id": "a", "kind": "node", "label": "A", "box": {"x": 0, "y": 30, "w": 60, "h": 40}},
        {"id": "b", "kind": "node", "label": "B", "box": {"x": 240, "y": 30, "w": 60, "h": 40}},
    ]
    if second_route_y is not None:
        comps.append({"id": "under", "kind": "edge", "source": "a", "target": "b",
                      "route": [{"x": 60, "y": second_route_y}, {"x": 240, "y": second_route_y}]})
    comps.append({"id": "e", "kind": "edge", "source": "a", "target": "b", "label": "tokens",
                  "route": [{"x": 60, "y": 50}, {"x": 240, "y": 50}],
                  "label_box": {"x": 130, "y": label_y, "w": 40, "h": 15}})
    return Figure.from_dict({"canvas": {"w": 300, "h": 100}, "components": comps})


def test_an_edge_label_plate_is_drawn_only_where_it_hides_a_line() -> None:
    def plates(fig: Figure) -> int:
        g = parse(figure_to_svg(fig)).find(".//svg:g[@id='e']", NS)
        assert g.find("svg:text", NS) is not None  # the label itself is always there
        return len(g.findall("svg:rect", NS))

    assert plates(_labelled_edges(label_y=43)) == 1  # on its own line
    assert plates(_labelled_edges(label_y=30)) == 0  # beside it, on bare canvas: it would hide nothing
    assert plates(_labelled_edges(label_y=30, second_route_y=38)) == 1  # over an edge drawn before it
