"""Hypothesis strategies that generate valid FigureSpecs, for property tests.

Shared by every package's tests (DSL round trip, rendering, exports), so the
generated figures cover every component kind and field the IR has.
"""

from __future__ import annotations

from hypothesis import strategies as st

from crafter.spec.model import SHAPES, Box, Chart, Edge, Figure, Group, Image, Node, Panel, Path, Point, Size, Text

_ID_START = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_"
_ID_REST = _ID_START + "0123456789"
ids = st.builds(lambda a, b, c: a + b + (("-" + c) if c else ""),
                st.sampled_from(_ID_START), st.text(_ID_REST, max_size=6), st.text(_ID_REST, max_size=3))
# Labels: anything printable a researcher might type, markup characters, emoji and RTL included.
labels = st.text(
    st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\x00") | st.sampled_from('<>&"\'\\\n\t#='),
    max_size=30,
)
colors = st.sampled_from(["#fff", "#0072B2", "#e69f00aa", "red", "none", "darkslategray"])
coords = st.floats(min_value=-1000, max_value=5000, allow_nan=False, allow_infinity=False, width=32)
sizes = st.floats(min_value=0, max_value=2000, allow_nan=False, allow_infinity=False, width=32)
boxes = st.builds(Box, x=coords, y=coords, w=sizes, h=sizes)
points = st.builds(Point, x=coords, y=coords)
json_scalars = (st.none() | st.booleans() | st.integers(-10**6, 10**6)
                | st.floats(allow_nan=False, allow_infinity=False) | labels)


@st.composite
def figures(draw, max_nodes: int = 8) -> Figure:
    """A valid figure using every kind; references always resolve, groups form a tree."""
    node_ids = draw(st.lists(ids, min_size=1, max_size=max_nodes, unique=True))
    used = set(node_ids)

    def fresh(prefix: str) -> str:
        i = 0
        while f"{prefix}{i}" in used:
            i += 1
        used.add(f"{prefix}{i}")
        return f"{prefix}{i}"

    comps: list = []
    for nid in node_ids:
        comps.append(Node(
            kind="node", id=nid,
            label=draw(st.none() | labels),
            shape=draw(st.sampled_from(SHAPES)),
            fill=draw(st.none() | colors),
            stroke_width=draw(st.none() | st.floats(0, 10, allow_nan=False)),
            bold=draw(st.booleans()),
            width=draw(st.none() | st.floats(1, 500, allow_nan=False)),
            box=draw(st.none() | boxes),
            pinned=draw(st.booleans()),
        ))
    for _ in range(draw(st.integers(0, 6))):
        comps.append(Edge(
            kind="edge", id=fresh("e"),
            source=draw(st.sampled_from(node_ids)), target=draw(st.sampled_from(node_ids)),
            label=draw(st.none() | labels),
            style=draw(st.sampled_from(["solid", "dashed", "dotted"])),
            head=draw(st.sampled_from(["none", "arrow", "open", "diamond", "circle", "bar", "triangle_open"])),
            tail=draw(st.sampled_from(["none", "arrow", "open", "diamond", "circle", "bar", "triangle_open"])),
            font_size=draw(st.none() | st.floats(4, 40, allow_nan=False)),
            head_size=draw(st.none() | st.floats(2, 40, allow_nan=False)),
            color=draw(st.none() | colors),
            routing=draw(st.none() | st.sampled_from(["orthogonal", "spline", "straight"])),
            route=draw(st.none() | st.lists(points, min_size=2, max_size=5)),
            label_box=draw(st.none() | boxes),
        ))
    # nested groups over disjoint slices of the nodes
    free = list(node_ids)
    if len(free) >= 2 and draw(st.booleans()):
        inner = fresh("g")
        comps.append(Group(kind="group", id=inner, label=draw(st.none() | labels), members=free[:2],
                           style=draw(st.sampled_from(["solid", "dashed", "dotted"])),
                           font_size=draw(st.none() | st.floats(4, 40, allow_nan=False))))
        free = free[2:]
        if draw(st.booleans()):
            outer = fresh("g")
            comps.append(Group(kind="group", id=outer, label=draw(labels), members=[inner] + free[:1]))
            free = free[1:]
    if free and draw(st.booleans()):
        comps.append(Panel(kind="panel", id=fresh("p"), label=draw(st.none() | labels), title=draw(st.none() | labels),
                           members=free[:2], direction=draw(st.none() | st.sampled_from(["LR", "TB"]))))
    if draw(st.booleans()):
        comps.append(Text(kind="text", id=fresh("t"), text=draw(labels),
                          near=draw(st.none() | st.sampled_from(node_ids)),
                          side=draw(st.sampled_from(["above", "below", "left", "right", "center"])),
                          at=draw(st.none() | points), rotate=draw(st.sampled_from([0.0, -90.0]))))
    if draw(st.booleans()):
        comps.append(Path(kind="path", id=fresh("path"), d="M0,0 L10,10 C 1 2 3 4 5 6 Z",
                          fill=draw(st.none() | colors)))
    if draw(st.booleans()):
        comps.append(Image(kind="image", id=fresh("img"), href="data:image/png;base64,iVBORw0KGgo=", box=draw(boxes)))
    if draw(st.booleans()):
        values = draw(st.lists(st.dictionaries(st.sampled_from(["model", "acc", "split"]), json_scalars, max_size=3),
                               max_size=4))
        comps.append(Chart(kind="chart", id=fresh("c"), title=draw(st.none() | labels),
                           spec={"mark": "bar", "data": {"values": values},
                                 "encoding": {"x": {"field": "model", "type": "nominal"}}}))
    return Figure(
        title=draw(st.none() | labels),
        caption=draw(st.none() | labels),
        theme=draw(st.sampled_from(["paper", "slides", "mono"])),
        direction=draw(st.sampled_from(["LR", "TB", "RL", "BT"])),
        width_in=draw(st.none() | st.sampled_from([3.3, 7.0])),
        background=draw(st.none() | st.sampled_from(["#F0F0F0", "#fdf6e3", "ivory", "#1E1E1E"])),
        canvas=draw(st.none() | st.builds(Size, w=sizes, h=sizes)),
        components=comps,
    )
