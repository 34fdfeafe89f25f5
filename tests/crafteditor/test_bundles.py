"""Several arrows side by side from one box into the same other box are one link (issue 31): MLP-Mixer's
nine token arrows, SAM's three prompt arrows, a multi-head stack whose back copies send fainter arrows
beside the front one. Each had been an edge of its own (8-17 duplicate links per such figure); now one
edge stays (the darkest strand: the stack's front copy) and the other strands are drawn as free paths.
Labelled arrows, arrows coming in from other sides and self-loops stay edges each."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw, ImageFont

from crafteditor.assemble.bundles import one_per_bundle
from crafteditor.config import Config
from crafteditor.convert import convert
from crafteditor.lines.paths import LinePath
from crafter.spec.model import Edge, Node, Point

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"


def _stack() -> bytes:
    """'Linear' with two fainter copies behind it, each sending an arrow up into 'Attention'."""
    img = Image.new("RGB", (600, 420), "white")
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 28)
    d.rounded_rectangle([120, 50, 480, 120], radius=12, outline="black", width=3, fill="white")
    d.text((300, 85), "Attention", fill="black", font=font, anchor="mm")
    for k, grey in ((2, 190), (1, 110)):  # the copies behind, lighter the further back
        d.rounded_rectangle([150 + 30 * k, 270 - 18 * k, 400 + 30 * k, 350 - 18 * k], radius=12,
                            outline=(grey,) * 3, width=3, fill="white")
    d.rounded_rectangle([150, 270, 400, 350], radius=12, outline="black", width=3, fill="white")
    d.text((275, 310), "Linear", fill="black", font=font, anchor="mm")
    for k, grey in ((0, 0), (1, 110), (2, 190)):
        x = 220 + 30 * k
        top = 268 - 18 * k
        d.line([x, top, x, 140], fill=(grey,) * 3, width=3)
        d.polygon([(x - 8, 142), (x + 8, 142), (x, 122)], fill=(grey,) * 3)
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


def test_a_stacks_arrows_into_one_box_are_one_link_drawn_as_they_are():
    fig = convert(_stack(), Config()).figure
    labels = {c.id: c.label for c in fig.components if isinstance(c, Node)}
    links = [e for e in fig.components if isinstance(e, Edge)
             and (labels.get(e.source), labels.get(e.target)) == ("Linear", "Attention")]
    assert len(links) == 1, [(labels.get(e.source), labels.get(e.target)) for e in fig.components
                             if isinstance(e, Edge)]
    # the front (black) arrow is the link: the leftmost of the three
    assert links[0].route[-1].x / fig.canvas.w < 0.40, links[0].route
    # the copies' arrows are still drawn, heads and all
    assert sum(c.kind == "path" and " Z" in c.d for c in fig.components) >= 2


def _edge(i: int, route: list[tuple[float, float]], label: str | None = None, src: str = "a",
          dst: str = "b") -> tuple[Edge, LinePath]:
    e = Edge(kind="edge", id=f"e{i}", source=src, target=dst, label=label,
             route=[Point(x=x, y=y) for x, y in route])
    return e, LinePath(list(route), 2.0, (0, 0, 0))


def test_labelled_arrows_other_sides_and_loops_stay_links_each():
    side_by_side = [_edge(0, [(10, 100), (10, 0)]), _edge(1, [(30, 100), (30, 0)]), _edge(2, [(50, 100), (50, 0)])]
    kept, strands = one_per_bundle(side_by_side)
    assert len(kept) == 1 and len(strands) == 2
    assert kept[0][0].id == "e1"  # strands alike: the middle one stays
    labelled = [_edge(0, [(10, 100), (10, 0)], "query"), _edge(1, [(30, 100), (30, 0)], "key")]
    assert len(one_per_bundle(labelled)[0]) == 2
    # one comes straight up, the other round and in from the side
    sides = [_edge(0, [(10, 100), (10, 0)]), _edge(1, [(30, 100), (80, 100), (80, 20), (40, 20)])]
    assert len(one_per_bundle(sides)[0]) == 2
    loops = [_edge(0, [(10, 100), (-20, 80), (10, 60)], src="a", dst="a"),
             _edge(1, [(10, 100), (-30, 80), (10, 60)], src="a", dst="a")]
    assert len(one_per_bundle(loops)[0]) == 2


def test_a_straight_arrow_and_a_detour_into_the_far_side_of_one_box_stay_two_links():
    # both come up into the box's foot, but 590 px apart (the detour round by the right)
    straight = _edge(0, [(10, 100), (10, 0)])
    detour = _edge(1, [(40, 120), (600, 120), (600, 0)])
    assert len(one_per_bundle([straight, detour])[0]) == 2
    # far apart but alike, both straight up (MLP-Mixer's token arrows): one link
    alike = _edge(1, [(140, 100), (140, 0)])
    assert len(one_per_bundle([straight, alike])[0]) == 1


def test_on_a_dark_page_the_lightest_strand_stays_the_edge():
    strands = [_edge(k, [(10 + 20 * k, 100), (10 + 20 * k, 0)]) for k in range(3)]
    for (_, ln), grey in zip(strands, (240, 90, 60)):  # the front copy light on a dark page
        ln.color = (grey,) * 3
    kept, _ = one_per_bundle(strands, background=(20, 20, 20))
    assert [e.id for e, _ in kept] == ["e0"]
    kept, _ = one_per_bundle(strands, background=(255, 255, 255))  # the same strands on white: the darkest
    assert [e.id for e, _ in kept] == ["e2"]
