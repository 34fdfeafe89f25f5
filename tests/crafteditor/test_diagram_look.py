"""A converted diagram looks like its original: type sizes read from the ink, labels kept on
the lines the original drew (golden Crafter example, so the true sizes are the theme's)."""

import re

import pytest

from crafteditor import Config, convert
from crafteditor.ocr.font_metrics import ink_width_em, size_and_weight_from_width
from crafter.base.theme import get_theme
from crafter.spec import Figure

THEME = get_theme("paper")


@pytest.fixture(scope="module")
def multi_agent(golden):
    png, truth = golden["example_multi_agent"]
    return convert(png, Config.preset("diagram")), Figure.from_dict(truth)


def test_title_and_label_sizes_are_the_drawn_ones(multi_agent):
    conv, truth = multi_agent
    title = next(t for t in conv.figure.of_kind("text") if t.text == truth.title)
    assert title.bold and title.font_size == pytest.approx(THEME.title_font_size, rel=0.03)
    for n in conv.figure.of_kind("node"):
        size = n.font_size or THEME.font_size
        assert size == pytest.approx(THEME.font_size, rel=0.04), n.id


def test_node_labels_keep_their_lines(multi_agent):
    """The renderer must not re-wrap a label the original fitted on one line."""
    conv, _ = multi_agent
    for n in conv.figure.of_kind("node"):
        g = re.search(rf'<g id="{re.escape(n.id)}" data-crafter-kind="node">(.*?)</g>', conv.svg, re.S)
        assert g, n.id
        assert g.group(1).count("<tspan") == len((n.label or "").split("\n")), n.id


def test_font_size_and_weight_from_ink_width():
    em = ink_width_em("Retrieval", bold=False)
    em_bold = ink_width_em("Retrieval", bold=True)
    assert em is not None and em_bold is not None and 3.0 < em < em_bold < 5.0
    assert size_and_weight_from_width("Retrieval", 12.0 * em, 11.4, False) == (pytest.approx(12.0), False)
    assert size_and_weight_from_width("Retrieval", 14.0 * em_bold, 13.0, True) == (pytest.approx(14.0), True)
    # called bold by its strokes, but as wide as the regular face at the height's size: regular
    assert size_and_weight_from_width("Retrieval", 12.0 * em, 12.2, True) == (pytest.approx(12.0), False)
    # a width far from the height's estimate (a glyph missed, a box edge in the crop) is not trusted
    assert size_and_weight_from_width("Retrieval", 16.0 * em, 11.4, False) == (11.4, False)
    assert size_and_weight_from_width("ab", 30.0, 11.4, False) == (11.4, False)  # too short to measure


def _render(fig: Figure, dpi: int = 200) -> bytes:
    from crafter.formats import figure_to_png_bytes

    return figure_to_png_bytes(fig, dpi)


def test_group_frame_dash_styles_and_labelled_solid_edges_survive():
    """A dashed or dotted frame comes back dashed or dotted; a solid edge whose label plate
    interrupts it stays solid; a 1 px edge's anti-aliased tint is the theme's colour."""
    from crafter.spec import parse_dsl

    fig = parse_dsl(
        'figure direction=TB\n'
        'a node "Encoder"\nb node "Decoder"\nc node "Head"\nd node "Loss"\n'
        'e1 edge a -> b "activations"\ne2 edge c -> d\n'
        'g1 group "Dashed stage" [a, b] style=dashed\ng2 group "Dotted stage" [c, d] style=dotted\n')
    conv = convert(_render(fig), Config.preset("diagram"))
    groups = {g.label: g for g in conv.figure.of_kind("group")}
    assert groups["Dashed stage"].style == "dashed"
    assert groups["Dotted stage"].style == "dotted"
    edges = {e.label: e for e in conv.figure.of_kind("edge")}
    assert edges["activations"].style == "solid"
    assert all(e.color is None for e in conv.figure.of_kind("edge"))


def test_a_cylinder_node_is_one_outline_element():
    """Elements per component count what an editor selects: a cylinder's lid rim is part of its one path."""
    from crafteditor.quality import svg_element_count
    from crafter.render import figure_to_svg
    from crafter.spec import parse_dsl

    svg = figure_to_svg(parse_dsl('db node "Vector store" shape=cylinder'))
    g = re.search(r'<g id="db" data-crafter-kind="node">(.*?)</g>', svg, re.S).group(1)
    assert svg_element_count(g) == 2  # the outline and the label
    d = re.search(r"<path d=\"([^\"]*)\"", g).group(1)
    assert g.count("<path") == 1 and d.count("A") == 3  # body (two arcs) and the lid's front rim


def test_a_frames_width_and_its_plain_grey_title_are_drawn_as_read():
    """A 6 px light-grey frame titled in plain grey (cloud 'environment' diagrams) was drawn at the
    theme's 0.9 px with a bold dark title: the frame and its title line were the wrong ink."""
    import io
    import os

    import matplotlib
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.truetype(os.path.join(os.path.dirname(matplotlib.__file__), "mpl-data/fonts/ttf/DejaVuSans.ttf"),
                              22)
    im = Image.new("RGB", (760, 360), "white")
    d = ImageDraw.Draw(im)
    d.rounded_rectangle((20, 20, 740, 340), 10, outline=(190, 190, 190), width=6)
    d.text((40, 32), "CLUSTER", fill=(140, 140, 140), font=font)
    for x, label in ((70, "Alpha"), (420, "Beta")):
        d.rectangle((x, 140, x + 250, 240), outline=(40, 40, 40), width=3)
        d.text((x + 95, 178), label, fill=(0, 0, 0), font=font)
    buf = io.BytesIO()
    im.save(buf, "PNG")
    conv = convert(buf.getvalue())
    (group,) = conv.figure.of_kind("group")
    assert group.label == "CLUSTER" and set(group.members) == {"alpha", "beta"}
    assert group.stroke_width == pytest.approx(6.0, abs=1.0)
    assert group.bold is False and group.text_color is not None
    assert abs(int(group.text_color[1:3], 16) - 140) < 25
    svg = conv.svg
    frame = re.search(r'<g id="cluster" data-crafter-kind="group"><rect [^>]*stroke-width="([\d.]+)"', svg)
    assert frame and float(frame.group(1)) == pytest.approx(6.0, abs=1.0)
    title = re.search(r'<text [^>]*>CLUSTER</text>', svg)
    assert title and 'font-weight="bold"' not in title.group(0)


def test_a_thick_outline_is_drawn_as_thick_as_read():
    """A 10 px box outline (a figure drawn at 2x) was read in 8 rings and drawn 8.2 px thick."""
    import io
    import os

    import matplotlib
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.truetype(os.path.join(os.path.dirname(matplotlib.__file__), "mpl-data/fonts/ttf/DejaVuSans.ttf"),
                              40)
    im = Image.new("RGB", (900, 300), "white")
    d = ImageDraw.Draw(im)
    for x, label in ((40, "store"), (500, "clean")):
        d.rectangle((x, 80, x + 340, 240), outline=(0, 0, 0), width=10)
        d.text((x + 120, 135), label, fill=(0, 0, 0), font=font)
    buf = io.BytesIO()
    im.save(buf, "PNG")
    nodes = convert(buf.getvalue()).figure.of_kind("node")
    assert sorted(n.label for n in nodes) == ["clean", "store"]
    for n in nodes:
        assert n.stroke_width == pytest.approx(10.0, abs=0.8)
        assert n.box.x + n.box.w / 2 == pytest.approx(210 if n.label == "store" else 670, abs=1.5)

