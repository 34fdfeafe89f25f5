"""Figures for the layout tests: hand-made ones (one per situation) and a random generator."""

from __future__ import annotations

import random

from crafter.spec import Figure, parse_dsl
from crafter.spec.model import SHAPES, Edge, Group, Node, Text

# Hand-made figures, one per situation the layout must handle.
CASES: dict[str, str] = {
    "chain": """
a node "Input"
b node "Encoder"
c node "Decoder"
d node "Output"
e1 edge a -> b
e2 edge b -> c "latent"
e3 edge c -> d
""",
    "fan_out_fan_in": """
src node "Source"
a node "Branch A"
b node "Branch B"
c node "Branch C"
d node "Branch D"
sink node "Merge"
f1 edge src -> a
f2 edge src -> b "two"
f3 edge src -> c
f4 edge src -> d
g1 edge a -> sink
g2 edge b -> sink
g3 edge c -> sink "three"
g4 edge d -> sink
""",
    "nested_groups": """
x node "Outside"
a node "Alpha"
b node "Beta"
c node "Gamma"
y node "After"
e1 edge x -> a
e2 edge a -> b
e3 edge b -> c "inner"
e4 edge c -> y
e5 edge x -> c
inner group "Inner" [a, b]
outer group "Outer group with a long heading" [inner, c]
""",
    "panels": """
figure "Two panels"
a node "Corpus" shape=cylinder
b node "Encoder"
c node "Head"
a1 edge a -> b
a2 edge b -> c "predict"
d node "Labels" shape=document
e node "Classifier"
b1 edge d -> e
x edge c -> d "transfer" style=dashed
free node "Outside every panel"
pa panel [a, b, c] title="Pre-training" direction=TB
pb panel [d, e] title="Fine-tuning"
""",
    "pinned_node": """
a node "Fixed" box=200,80,90,40 pinned=true
b node "Free one"
c node "Free two"
d node "Free three"
e1 edge a -> b
e2 edge b -> c
e3 edge c -> d
e4 edge d -> a "back"
""",
    "long_labels": """
a node "A very long label that goes on and on about what this module does, in far too many words for one line"
b node "Supercalifragilisticexpialidocious_and_an_identifier_without_spaces_at_all"
c node "Short" shape=diamond
d node "Another rather long label inside a circle" shape=circle
e1 edge a -> b "an edge label that is itself quite long and must wrap"
e2 edge b -> c
e3 edge c -> d "yes"
""",
    "cycles": """
a node "Sample"
b node "Score"
c node "Update"
d node "Init"
e1 edge a -> b
e2 edge b -> c "reward"
e3 edge c -> a "next round"
e4 edge d -> a
e5 edge c -> b style=dashed
""",
    "self_loop": """
a node "Agent"
b node "Environment"
e1 edge a -> a "retry"
e2 edge a -> b "act"
e3 edge b -> a "observe"
e4 edge b -> b
""",
    "edges_between_groups": """
a node "A1"
b node "A2"
c node "B1"
d node "B2"
e1 edge a -> b
e2 edge c -> d
e3 edge g1 -> g2 "stage"
e4 edge a -> d
e5 edge g2 -> a style=dotted
e6 edge g1 -> c
g1 group "First" [a, b]
g2 group "Second" [c, d]
""",
    "group_to_member": """
a node "Member"
b node "Other"
e1 edge g -> a
e2 edge b -> g "in"
g group "Holder" [a]
""",
    "annotations": """
a node "Node"
b node "Next"
e1 edge a -> b "flow"
t1 text "above" near=a side=above
t2 text "below the node" near=a side=below
t3 text "left" near=b side=left
t4 text "right side note" near=b side=right
t5 text "centred" near=b side=center
t6 text "on the group" near=g side=above
t7 text "on the edge" near=e1 side=below
t8 text "placed at a point" at=60,300
t9 text "free text with no anchor"
g group "Group" [a]
""",
    "charts_and_images": """
a node "Data"
c chart "Accuracy" width=180 height=120
im image "data:image/png;base64,iVBORw0KGgo=" box=300,20,40,30
p path "M10,200 L60,200 L35,240 Z"
e1 edge a -> c
e2 edge c -> im
""",
    "all_shapes": "\n".join(
        [f'{s} node "{s.title()} shape" shape={s}' for s in SHAPES]
        + [f"e{i} edge {a} -> {b}" for i, (a, b) in enumerate(zip(SHAPES, SHAPES[1:]))]
    ),
    "unicode": """
a node "Données <brutes> & \\"citées\\""
b node "模型 🚀"
c node "שלום עולם"
e1 edge a -> b "→ ∑"
e2 edge b -> c
""",
    "empty_and_pinned_groups": """
a node "Pinned inside" box=40,200,90,40 pinned=true
b node "Free inside"
c node "Lone"
e1 edge c -> b
empty group "Empty group"
onlypinned group "Only pinned" [a]
frame group "Pinned frame" [b] box=400,40,240,160 pinned=true
""",
    "vectorised": """
a node "Input" box=20,40,80,32 pinned=true
b node "Encoder" box=160,40,90,32 pinned=true
c node "Decoder" box=310,40,90,32 pinned=true
d node "Loss" box=160,140,90,32 pinned=true shape=ellipse
x node "Blocker" box=160,90,90,30 pinned=true
n node "Added later"
e1 edge a -> b "tokens"
e2 edge b -> c
e3 edge c -> d "pred"
e4 edge a -> d
e5 edge d -> n
g group "Model" [b, c]
""",
    "spline_and_straight": """
figure routing=spline
a node "A" shape=ellipse
b node "B" shape=diamond
c node "C" shape=circle
d node "D"
e1 edge a -> b "curvy"
e2 edge b -> c
e3 edge c -> d "direct" routing=straight
e4 edge a -> d routing=orthogonal
e5 edge d -> a
""",
}


def case_figure(name: str, direction: str | None = None) -> Figure:
    fig = parse_dsl(CASES[name])
    if direction is not None:
        fig = fig.model_copy(update={"direction": direction})
    return fig


WORDS = ("Encoder", "Attention", "Retriever", "Loss", "Optimizer", "Dataset", "Tokenizer", "Head", "Memory",
         "Critic", "Planner", "Sampler")


def random_figure(seed: int, n: int = 18) -> Figure:
    """A random diagram: labels of varied length, every shape, groups (nested), cycles, labels, loops."""
    rng = random.Random(seed)
    comps: list = []
    ids = [f"n{i}" for i in range(n)]
    for i, nid in enumerate(ids):
        words = [rng.choice(WORDS) for _ in range(rng.choice((1, 1, 2, 3, 6)))]
        comps.append(Node(kind="node", id=nid, label=" ".join(words), shape=rng.choice(SHAPES)))
    k = 0
    for i in range(1, n):
        j = rng.randrange(i)
        comps.append(Edge(kind="edge", id=f"e{k}", source=ids[j], target=ids[i],
                          label=rng.choice((None, None, "data", "a longer edge label"))))
        k += 1
    for _ in range(n // 4):  # back edges, cross edges, a self-loop now and then
        a, b = rng.randrange(n), rng.randrange(n)
        comps.append(Edge(kind="edge", id=f"e{k}", source=ids[a], target=ids[b],
                          label=rng.choice((None, "loop"))))
        k += 1
    pool = list(ids)
    rng.shuffle(pool)
    g1 = pool[: n // 4]
    g2 = pool[n // 4: n // 4 + n // 6]
    inner = g1[: len(g1) // 2]
    comps.append(Group(kind="group", id="inner", label="Inner", members=inner))
    comps.append(Group(kind="group", id="outer", label="Outer group", members=["inner"] + g1[len(g1) // 2:]))
    comps.append(Group(kind="group", id="side", label="Side", members=g2))
    comps.append(Text(kind="text", id="note", text="a note", near=rng.choice(ids), side=rng.choice(
        ("above", "below", "left", "right"))))
    direction = rng.choice(("LR", "TB", "RL", "BT"))
    return Figure(components=comps, direction=direction, title=rng.choice((None, "Generated figure")))
