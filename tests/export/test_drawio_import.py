"""draw.io import: edits made in diagrams.net merge into the FigureSpec; diagrams drawn there come in."""

from __future__ import annotations

import base64
import zlib
from pathlib import Path
from urllib.parse import quote
from xml.etree import ElementTree as ET

import pytest
from export_helpers import ROOT, laid_out

from crafter.errors import InputError
from crafter.formats import drawio_to_figure, figure_to_drawio, load_drawio, load_figure
from crafter.formats.drawio.style import parse_style
from crafter.spec import Figure


@pytest.fixture
def encdec() -> Figure:
    return laid_out(load_figure(ROOT / "examples" / "encoder_decoder.dsl"))


class Diagram:
    """A .drawio document being edited the way diagrams.net rewrites it."""

    def __init__(self, xml: str) -> None:
        self.root = ET.fromstring(xml)
        self.cells = self.root.find("diagram/mxGraphModel/root")

    def wrapper(self, cid: str) -> ET.Element:
        return next(el for el in self.cells if el.get("id") == cid)

    def cell(self, cid: str) -> ET.Element:
        el = self.wrapper(cid)
        return el if el.tag == "mxCell" else el.find("mxCell")

    def set_style(self, cid: str, **changes: str) -> None:
        style = parse_style(self.cell(cid).get("style"))
        style.update(changes)
        self.cell(cid).set("style", "".join(f"{k};" if v is None else f"{k}={v};" for k, v in style.items()))

    def geometry(self, cid: str) -> ET.Element:
        return self.cell(cid).find("mxGeometry")

    def move(self, cid: str, dx: float, dy: float) -> None:
        g = self.geometry(cid)
        g.set("x", str(float(g.get("x")) + dx))
        g.set("y", str(float(g.get("y")) + dy))

    def delete(self, cid: str) -> None:
        self.cells.remove(self.wrapper(cid))

    def add(self, xml: str) -> None:
        self.cells.append(ET.fromstring(xml))

    def text(self) -> str:
        return ET.tostring(self.root, encoding="unicode")


def test_unedited_file_gives_back_the_figure(encdec: Figure, tmp_path: Path) -> None:
    path = tmp_path / "fig.drawio"
    path.write_text(figure_to_drawio(encdec), encoding="utf-8")
    assert load_drawio(path) == encdec


def test_label_colour_and_shape_edits_merge(encdec: Figure) -> None:
    d = Diagram(figure_to_drawio(encdec))
    d.wrapper("enc1").set("label", "Conv block 1\n32 ch")
    d.set_style("enc2", fillColor="#ff0000", fontColor="#ffffff")
    d.set_style("neck", shape="cylinder3")
    d.wrapper("genc").set("label", "Contracting path")
    back = drawio_to_figure(d.text())
    assert back.get("enc1").label == "Conv block 1\n32 ch"
    assert back.get("enc2").fill == "#FF0000" and back.get("enc2").text_color == "#FFFFFF"
    assert back.get("neck").shape == "cylinder"
    assert back.get("genc").label == "Contracting path"
    # nothing else changed
    untouched = [c for c in encdec.components if c.id not in ("enc1", "enc2", "neck", "genc")]
    assert all(back.get(c.id) == c for c in untouched)


def test_soft_wrapped_label_edit_keeps_spaces() -> None:
    from crafter.spec import Box, Node

    fig = Figure(components=[Node(kind="node", id="a", label="a long label that the renderer wraps",
                                  box=Box(x=0, y=0, w=120, h=60))])
    d = Diagram(figure_to_drawio(fig))
    shown = d.wrapper("a").get("label")
    assert "\n" in shown  # wrapped for display
    d.wrapper("a").set("label", shown.replace("long", "short"))
    assert drawio_to_figure(d.text()).get("a").label == "a short label that the renderer wraps"


def test_moved_box_is_pinned_and_its_edges_follow(encdec: Figure) -> None:
    d = Diagram(figure_to_drawio(encdec))
    d.move("neck", 40, 120)
    back = drawio_to_figure(d.text())
    old, new = encdec.get("neck").box, back.get("neck").box
    assert (round(new.x - old.x, 2), round(new.y - old.y, 2)) == (40, 120)
    assert back.get("neck").pinned
    for eid in ("e4", "e5"):  # enc3 -> neck, neck -> dec3
        route = back.get(eid).route
        assert route != encdec.get(eid).route
        end = route[-1] if eid == "e4" else route[0]
        assert new.x - 0.01 <= end.x <= new.right + 0.01 and new.y - 0.01 <= end.y <= new.bottom + 0.01
    assert back.get("e1") == encdec.get("e1")


def test_moving_a_container_moves_its_members(encdec: Figure) -> None:
    d = Diagram(figure_to_drawio(encdec))
    d.move("genc", 0, 50)
    back = drawio_to_figure(d.text())
    for nid in ("genc", "enc1", "enc2", "enc3"):
        assert round(back.get(nid).box.y - encdec.get(nid).box.y, 2) == 50
    # the edge between two members moved alike keeps its shape
    e2_old, e2_new = encdec.get("e2").route, back.get("e2").route
    assert len(e2_new) >= 2 and all(round(b.y - a.y, 2) == 50 for a, b in zip(e2_old, e2_new)) or e2_new != e2_old


def test_deleting_a_node_takes_its_edges_and_membership(encdec: Figure) -> None:
    d = Diagram(figure_to_drawio(encdec))
    d.delete("enc2")
    back = drawio_to_figure(d.text())
    ids = {c.id for c in back.components}
    assert "enc2" not in ids
    assert not {"e2", "e3", "s2"} & ids  # every edge that touched enc2
    assert back.get("genc").members == ["enc1", "enc3"]


def test_dragging_a_node_into_another_container_changes_membership(encdec: Figure) -> None:
    d = Diagram(figure_to_drawio(encdec))
    cell = d.cell("enc3")
    gdec = encdec.get("gdec").box
    enc3 = encdec.get("enc3").box
    cell.set("parent", "gdec")
    geo = cell.find("mxGeometry")
    geo.set("x", str(enc3.x - gdec.x))
    geo.set("y", str(enc3.y - gdec.y))
    back = drawio_to_figure(d.text())
    assert "enc3" not in back.get("genc").members and "enc3" in back.get("gdec").members
    assert back.get("enc3").box == enc3  # same place on the page


def test_edge_style_arrow_and_reconnection_merge(encdec: Figure) -> None:
    d = Diagram(figure_to_drawio(encdec))
    d.set_style("e1", dashed="1", dashPattern="1 3", endArrow="open", startArrow="oval", strokeColor="#D55E00")
    d.cell("e8").set("target", "neck")
    d.wrapper("e2").set("label", "max-pool")
    back = drawio_to_figure(d.text())
    e1 = back.get("e1")
    assert (e1.style, e1.head, e1.tail, e1.color) == ("dotted", "open", "circle", "#D55E00")
    assert back.get("e8").target == "neck" and back.get("e8").route != encdec.get("e8").route
    assert back.get("e2").label == "max-pool" and back.get("e2").label_box is not None


def test_cells_added_in_drawio_become_components(encdec: Figure) -> None:
    d = Diagram(figure_to_drawio(encdec))
    d.add('<mxCell id="Xq3-kz-1" value="New &lt;b&gt;step&lt;/b&gt;&lt;br&gt;two" '
          'style="ellipse;whiteSpace=wrap;html=1;fillColor=#dae8fc;" vertex="1" parent="1">'
          '<mxGeometry x="40" y="400" width="120" height="60" as="geometry"/></mxCell>')
    d.add('<mxCell id="Xq3-kz-2" value="" style="edgeStyle=orthogonalEdgeStyle;html=1;" edge="1" parent="1" '
          'source="Xq3-kz-1" target="img"><mxGeometry relative="1" as="geometry"/></mxCell>')
    d.add('<mxCell id="Xq3-kz-3" value="feeds" style="edgeLabel;html=1;" vertex="1" connectable="0" '
          'parent="Xq3-kz-2"><mxGeometry relative="1" as="geometry"/></mxCell>')
    back = drawio_to_figure(d.text())
    node = back.get("Xq3-kz-1")
    assert node.kind == "node" and node.label == "New step\ntwo" and node.shape == "ellipse"
    assert node.fill == "#DAE8FC" and node.pinned
    edge = back.get("Xq3-kz-2")
    assert (edge.source, edge.target, edge.label, edge.head) == ("Xq3-kz-1", "img", "feeds", "arrow")
    assert edge.route and edge.label_box is not None


FOREIGN = """<mxfile host="app.diagrams.net"><diagram name="Pipeline" id="p1"><mxGraphModel><root>
<mxCell id="0"/><mxCell id="1" parent="0"/>
<mxCell id="2" value="Stage&lt;div&gt;one&lt;/div&gt;" style="rounded=1;whiteSpace=wrap;html=1;" vertex="1" parent="1">
  <mxGeometry x="20" y="20" width="120" height="60" as="geometry"/></mxCell>
<mxCell id="3" value="Ok?" style="rhombus;whiteSpace=wrap;html=1;fillColor=#fff2cc;strokeColor=#d6b656;" vertex="1" parent="1">
  <mxGeometry x="200" y="10" width="80" height="80" as="geometry"/></mxCell>
<mxCell id="4" value="Box" style="swimlane;whiteSpace=wrap;html=1;" vertex="1" parent="1">
  <mxGeometry x="320" y="0" width="200" height="140" as="geometry"/></mxCell>
<mxCell id="5" value="DB" style="shape=cylinder3;whiteSpace=wrap;html=1;" vertex="1" parent="4">
  <mxGeometry x="40" y="40" width="60" height="80" as="geometry"/></mxCell>
<mxCell id="6" value="a note" style="text;html=1;strokeColor=none;fillColor=none;" vertex="1" parent="1">
  <mxGeometry x="20" y="120" width="80" height="30" as="geometry"/></mxCell>
<mxCell id="7" style="edgeStyle=orthogonalEdgeStyle;html=1;dashed=1;endArrow=open;" edge="1" parent="1" source="2" target="3">
  <mxGeometry relative="1" as="geometry"/></mxCell>
<mxCell id="8" value="store" style="html=1;" edge="1" parent="1" source="3" target="5">
  <mxGeometry relative="1" as="geometry"><Array as="points"><mxPoint x="300" y="120"/></Array></mxGeometry></mxCell>
<mxCell id="9" value="" style="shape=image;image=https://example.org/logo.png;" vertex="1" parent="1">
  <mxGeometry x="0" y="200" width="10" height="10" as="geometry"/></mxCell>
</root></mxGraphModel></diagram></mxfile>"""


def check_foreign(fig: Figure) -> None:
    assert fig.title == "Pipeline"
    kinds = {c.id: c.kind for c in fig.components}
    assert kinds == {"c_2": "node", "c_3": "node", "c_4": "group", "c_5": "node", "c_6": "text", "c_7": "edge",
                     "c_8": "edge"}  # the external image is not imported
    assert fig.get("c_2").label == "Stage\none" and fig.get("c_2").shape == "round"
    assert fig.get("c_3").shape == "diamond" and fig.get("c_3").fill == "#FFF2CC"
    assert fig.get("c_4").members == ["c_5"] and fig.get("c_5").shape == "cylinder"
    assert fig.get("c_5").box.x == 360 and fig.get("c_5").box.y == 40  # absolute: container + relative
    e7, e8 = fig.get("c_7"), fig.get("c_8")
    assert (e7.style, e7.head, e8.head, e8.label) == ("dashed", "open", "arrow", "store")
    assert (300, 120) in [(p.x, p.y) for p in e8.route]


def test_a_diagram_drawn_in_drawio_imports() -> None:
    check_foreign(drawio_to_figure(FOREIGN))


def test_compressed_diagrams_are_read() -> None:
    inner = FOREIGN.split("<diagram name=\"Pipeline\" id=\"p1\">")[1].split("</diagram>")[0]
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = base64.b64encode(deflate.compress(quote(inner, safe="").encode()) + deflate.flush()).decode()
    xml = f'<mxfile host="app.diagrams.net"><diagram name="Pipeline" id="p1">{packed}</diagram></mxfile>'
    check_foreign(drawio_to_figure(xml))


def test_a_compressed_bomb_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    import crafter.formats.drawio.reader as drawio

    monkeypatch.setattr(drawio, "MAX_INFLATED_BYTES", 10_000)
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = base64.b64encode(deflate.compress(b"A" * 1_000_000) + deflate.flush()).decode()
    with pytest.raises(InputError, match="inflates beyond"):
        drawio_to_figure(f"<mxfile><diagram>{packed}</diagram></mxfile>")


def test_entities_are_not_expanded() -> None:
    evil = ('<?xml version="1.0"?><!DOCTYPE mxfile [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">'
            '<!ENTITY x SYSTEM "file:///etc/passwd">]>' + FOREIGN.replace(">a note<", ">&b;&x;note<")
            .replace('value="a note"', 'value="&b;&x;a note"'))
    fig = drawio_to_figure(evil)
    assert fig.get("c_6").text == "a note"


@pytest.mark.parametrize("text, message", [
    ("not xml at all", "not a well-formed"),
    ("<html/>", "not a draw.io file"),
    ("<mxfile/>", "has no diagram"),
    ("<mxfile><diagram>@@@</diagram></mxfile>", "decompress"),
])
def test_bad_files_get_clear_errors(text: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        drawio_to_figure(text)
