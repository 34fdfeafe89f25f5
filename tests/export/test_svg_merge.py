"""A Crafter SVG edited in Inkscape comes back: the edits merge into the embedded FigureSpec."""

from __future__ import annotations

from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from export_helpers import ROOT, laid_out

from crafter.formats import ImportReport, import_svg, load_figure
from crafter.render import figure_to_svg
from crafter.spec import Figure

SVG = "http://www.w3.org/2000/svg"
SODIPODI = "http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd"
INKSCAPE = "http://www.inkscape.org/namespaces/inkscape"
XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"


class Inkscape:
    """Edits a Crafter SVG the way Inkscape 1.x saves it.

    Inkscape adds its namespaces and a ``sodipodi:namedview``, keeps unknown attributes
    (``data-crafter-kind``), writes retyped text as ``<tspan sodipodi:role="line">`` with
    ``xml:space="preserve"`` and a ``style``, recolours through ``style="fill:…"`` (the
    presentation attribute stays, overridden), moves a group with ``transform`` and a
    single rectangle by rewriting ``x``/``y``, and groups objects (Ctrl+G) into a new
    ``<g>`` that may carry a transform.
    """

    def __init__(self, svg: str) -> None:
        for prefix, uri in (("", SVG), ("xlink", "http://www.w3.org/1999/xlink"), ("sodipodi", SODIPODI),
                            ("inkscape", INKSCAPE), ("crafter", "https://crafter.dev/ns")):
            ET.register_namespace(prefix, uri)
        self.root = ET.fromstring(svg)
        self.root.set(f"{{{SODIPODI}}}docname", "figure.svg")
        self.root.set(f"{{{INKSCAPE}}}version", "1.3.2 (091e20e, 2023-11-25)")
        self.root.insert(0, ET.Element(f"{{{SODIPODI}}}namedview", {
            "id": "namedview1", "pagecolor": "#ffffff", f"{{{INKSCAPE}}}zoom": "1.4", f"{{{INKSCAPE}}}cx": "300"}))
        n = 0
        for el in self.root.iter():  # Inkscape gives every element an id
            if el.get("id") is None and isinstance(el.tag, str):
                n += 1
                el.set("id", f"{el.tag.rsplit('}', 1)[-1]}{n}")

    def group(self, cid: str) -> ET.Element:
        return next(el for el in self.root.iter() if el.get("data-crafter-kind") and el.get("id") == cid)

    def parent(self, el: ET.Element) -> ET.Element:
        return next(p for p in self.root.iter() if el in list(p))

    def retype(self, cid: str, lines: list[str], index: int = 0) -> None:
        text = list(self.group(cid).iter(f"{{{SVG}}}text"))[index]
        first = text.find(f"{{{SVG}}}tspan")
        x = text.get("x") or first.get("x")
        y = float(text.get("y") or first.get("y"))
        for child in list(text):
            text.remove(child)
        text.text = None
        text.set(XML_SPACE, "preserve")
        text.set("style", "font-size:12px;line-height:1.25;font-family:'DejaVu Sans';fill:#1a1a1a")
        for i, line in enumerate(lines):
            span = ET.SubElement(text, f"{{{SVG}}}tspan", {f"{{{SODIPODI}}}role": "line", "id": f"tspan-{cid}-{i}",
                                                           "x": x, "y": str(y + 15 * i)})
            span.text = line

    def recolour(self, cid: str, *, fill: str | None = None, stroke: str | None = None, index: int = 0) -> None:
        shapes = [el for el in self.group(cid)
                  if el.tag.rsplit("}", 1)[-1] in ("rect", "path", "polygon", "ellipse", "circle")]
        decl = [f"fill:{fill}" if fill else "", f"stroke:{stroke}" if stroke else "", "fill-opacity:1"]
        shapes[index].set("style", ";".join(d for d in decl if d))

    def move_group(self, cid: str, dx: float, dy: float) -> None:
        self.group(cid).set("transform", f"translate({dx},{dy})")

    def move_rect(self, cid: str, dx: float, dy: float) -> None:
        rect = self.group(cid).find(f"{{{SVG}}}rect")
        rect.set("x", str(float(rect.get("x")) + dx))
        rect.set("y", str(float(rect.get("y")) + dy))
        # Inkscape moves the label with it when both are selected
        for span in self.group(cid).iter(f"{{{SVG}}}tspan"):
            span.set("x", str(float(span.get("x")) + dx))
            span.set("y", str(float(span.get("y")) + dy))

    def wrap(self, cids: list[str], transform: str) -> None:
        """Ctrl+G on components, then a move of the new group."""
        els = [self.group(c) for c in cids]
        parent = self.parent(els[0])
        at = list(parent).index(els[0])
        wrapper = ET.Element(f"{{{SVG}}}g", {"id": "g-user", "transform": transform})
        for el in els:
            self.parent(el).remove(el)
            wrapper.append(el)
        parent.insert(at, wrapper)

    def delete(self, cid: str) -> None:
        el = self.group(cid)
        self.parent(el).remove(el)

    def layer(self, transform: str | None = None) -> None:
        """Everything drawn moved into an Inkscape layer."""
        layer = ET.Element(f"{{{SVG}}}g", {f"{{{INKSCAPE}}}groupmode": "layer", f"{{{INKSCAPE}}}label": "Layer 1",
                                            "id": "layer1"})
        if transform:
            layer.set("transform", transform)
        for el in list(self.root):
            if el.tag.rsplit("}", 1)[-1] not in ("metadata", "defs", "namedview", "title", "desc"):
                self.root.remove(el)
                layer.append(el)
        self.root.append(layer)

    def add(self, xml: str) -> None:
        self.root.append(ET.fromstring(f'<g xmlns="{SVG}" xmlns:sodipodi="{SODIPODI}">{xml}</g>')[0])

    def text(self) -> str:
        return ET.tostring(self.root, encoding="unicode")


@pytest.fixture
def rag() -> Figure:
    return laid_out(load_figure(ROOT / "examples" / "rag_pipeline.dsl"))


def test_unedited_svg_gives_back_the_exact_figure(example: Figure, tmp_path: Path) -> None:
    svg = figure_to_svg(example)
    assert import_svg(svg) == example
    # opened and saved by Inkscape without changes: namespaces, ids, a namedview
    assert import_svg(Inkscape(svg).text()) == example
    path = tmp_path / "figure.svg"
    path.write_text(Inkscape(svg).text(), encoding="utf-8")
    assert load_figure(path) == example  # crafter.spec.load_figure goes through the importer


def test_retyped_labels_merge(rag: Figure) -> None:
    ink = Inkscape(figure_to_svg(rag))
    ink.retype("emb", ["Query embedder"])
    ink.retype("index", ["Vector store", "(FAISS)"])  # two lines, the author's break kept
    ink.retype("e5", ["top-5 passages"])  # an edge label
    ink.retype("online", ["Online path"])  # a group label
    report = ImportReport()
    back = import_svg(ink.text(), report=report)
    assert back.get("emb").label == "Query embedder"
    assert back.get("index").label == "Vector store\n(FAISS)"
    assert back.get("e5").label == "top-5 passages"
    assert back.get("online").label == "Online path"
    assert any("'emb'" in m for m in report.merged)
    assert back.get("rerank") == rag.get("rerank")


def test_recoloured_shapes_merge(rag: Figure) -> None:
    ink = Inkscape(figure_to_svg(rag))
    ink.recolour("chunk", fill="#ff0000", stroke="rgb(0, 128, 0)")
    ink.recolour("e1", stroke="#d55e00")
    ink.recolour("offline", fill="lightyellow")
    back = import_svg(ink.text())
    assert (back.get("chunk").fill, back.get("chunk").stroke) == ("#FF0000", "#008000")
    assert back.get("e1").color == "#D55E00"
    assert back.get("offline").fill == "#FFFFE0"
    assert back.get("chunk").box == rag.get("chunk").box and not back.get("chunk").pinned


def test_moved_node_is_pinned_where_it_was_dropped_and_edges_follow(rag: Figure) -> None:
    ink = Inkscape(figure_to_svg(rag))
    ink.move_group("rerank", 30, 40)
    back = import_svg(ink.text())
    old, new = rag.get("rerank").box, back.get("rerank").box
    assert (round(new.x - old.x, 2), round(new.y - old.y, 2), new.w, new.h) == (30, 40, old.w, old.h)
    assert back.get("rerank").pinned
    for eid in ("e5", "e6"):  # index -> rerank, rerank -> llm
        route = back.get(eid).route
        end = route[-1] if eid == "e5" else route[0]
        assert new.x - 0.01 <= end.x <= new.right + 0.01 and new.y - 0.01 <= end.y <= new.bottom + 0.01
        assert all(a.x == b.x or a.y == b.y for a, b in zip(route, route[1:]))  # still orthogonal
    # its group frame grew to keep holding it
    assert back.get("online").box.bottom >= new.bottom
    assert back.get("e1") == rag.get("e1")


def test_moving_a_rectangle_by_its_coordinates_counts_too(rag: Figure) -> None:
    ink = Inkscape(figure_to_svg(rag))
    ink.move_rect("llm", 20, -6.5)  # no transform to adjust: Inkscape rewrites x/y
    back = import_svg(ink.text())
    old, new = rag.get("llm").box, back.get("llm").box
    assert (round(new.x - old.x, 2), round(new.y - old.y, 2)) == (20, -6.5) and back.get("llm").pinned


def test_resizing_in_the_editor_resizes_the_box(rag: Figure) -> None:
    ink = Inkscape(figure_to_svg(rag))
    rect = ink.group("llm").find(f"{{{SVG}}}rect")
    rect.set("width", str(float(rect.get("width")) * 2))
    back = import_svg(ink.text())
    assert round(back.get("llm").box.w / rag.get("llm").box.w, 3) == 2


def test_transforms_on_enclosing_groups_and_layers_are_applied(rag: Figure) -> None:
    ink = Inkscape(figure_to_svg(rag))
    ink.wrap(["docs", "chunk"], "matrix(1,0,0,1,-5,30)")
    ink.layer()  # everything into a layer without a transform: no move
    back = import_svg(ink.text())
    for nid in ("docs", "chunk"):
        assert (round(back.get(nid).box.x - rag.get(nid).box.x, 2), round(back.get(nid).box.y - rag.get(nid).box.y, 2)) \
            == (-5, 30)
    e3_old, e3_new = rag.get("e3").route, back.get("e3").route  # both ends moved alike: carried along
    assert [(round(b.x - a.x, 2), round(b.y - a.y, 2)) for a, b in zip(e3_old, e3_new)] == [(-5, 30)] * len(e3_old)
    assert back.get("emb") == rag.get("emb")


def test_a_page_resize_that_shifts_everything_is_not_an_edit(rag: Figure) -> None:
    ink = Inkscape(figure_to_svg(rag))
    ink.layer("translate(12,-7)")
    report = ImportReport()
    assert import_svg(ink.text(), report=report) == rag
    assert any("page resize" in s for s in report.skipped)


def test_deleted_components_go_with_what_hangs_on_them(rag: Figure) -> None:
    ink = Inkscape(figure_to_svg(rag))
    ink.delete("e3")  # an arrow
    ink.delete("rerank")  # a node: its edges go too
    ink.delete("offline")  # a group frame: its members stay
    back = import_svg(ink.text())
    ids = {c.id for c in back.components}
    assert not {"e3", "rerank", "e5", "e6", "offline"} & ids
    assert {"docs", "chunk", "index", "llm"} <= ids
    assert back.get("online").members == ["emb", "index"]


def test_shapes_and_text_drawn_in_the_editor_become_components(rag: Figure) -> None:
    ink = Inkscape(figure_to_svg(rag))
    ink.add('<text xml:space="preserve" x="100" y="30" style="font-size:14px;fill:#d55e00" id="text900">'
            '<tspan sodipodi:role="line" x="100" y="30">Added in</tspan>'
            '<tspan sodipodi:role="line" x="100" y="47.5">Inkscape</tspan></text>')
    ink.add('<rect id="rect901" x="10" y="160" width="40" height="20" style="fill:#009e73;stroke:none"/>')
    back = import_svg(ink.text())
    note = back.get("text900")
    assert note.kind == "text" and note.text == "Added in\nInkscape" and note.color == "#D55E00"
    assert note.font_size == 14
    box = back.get("rect901")
    assert box.kind == "path" and box.fill == "#009E73" and box.d.startswith("M10,160")
    assert len(back.components) == len(rag.components) + 2


def test_retitled_figure(rag: Figure) -> None:
    ink = Inkscape(figure_to_svg(rag))
    title = next(el for el in ink.root.iter() if el.get("id") == "crafter--title")
    for span in title:
        title.remove(span)
    title.text = "RAG, revised"
    assert import_svg(ink.text()).title == "RAG, revised"


def test_merged_figure_renders_again_with_its_edits(rag: Figure) -> None:
    """The figure stays editable in Crafter: the merged spec renders, and reads back as itself."""
    ink = Inkscape(figure_to_svg(rag))
    ink.retype("llm", ["GPT-style", "generator"])
    ink.recolour("ans", fill="#F3E0EC")
    ink.move_group("ans", 10, 5)
    ink.delete("e7")
    back = import_svg(ink.text())
    svg = figure_to_svg(back)  # no layout needed: every component still has its geometry
    assert import_svg(svg) == back
    assert "GPT-style" in svg and "#F3E0EC" in svg


def test_a_duplicated_component_comes_in_as_new_drawing(rag: Figure) -> None:
    import copy

    ink = Inkscape(figure_to_svg(rag))
    original = ink.group("llm")
    dup = copy.deepcopy(original)
    dup.set("id", "g4242")  # Inkscape's Ctrl+D: same content, a fresh id
    dup.set("transform", "translate(0,60)")
    ink.parent(original).append(dup)
    back = import_svg(ink.text())
    added = [c for c in back.components if c.id not in rag.by_id()]
    assert {c.kind for c in added} == {"path", "text"}
    assert any(c.kind == "text" and c.text == "LLM generator" for c in added)
    assert back.get("llm") == rag.get("llm")
