"""A block diagram drawn with matplotlib patches and arrows, as researchers draw them without a
diagram tool: arrows shorter than a node's outline ring, a feedback loop that turns just before
its head, and a label drawn on the line."""

import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from matplotlib.patches import FancyBboxPatch  # noqa: E402

from crafteditor import convert  # noqa: E402


@pytest.fixture(scope="module")
def converted():
    fig, ax = plt.subplots(figsize=(6, 2.4))
    ax.set_xlim(0, 12)
    ax.set_ylim(0, 4.8)
    ax.axis("off")
    boxes = {"Input": (0.4, 1.8), "Encoder": (3.2, 1.8), "Latent z": (6.0, 1.8), "Decoder": (8.8, 1.8)}
    for name, (x, y) in boxes.items():
        ax.add_patch(FancyBboxPatch((x, y), 2.2, 1.2, boxstyle="round,pad=0.05,rounding_size=0.2",
                                    fc="#DCE9F5", ec="#2F4B7C", lw=1.2))
        ax.text(x + 1.1, y + 0.6, name, ha="center", va="center", fontsize=11)
    names = list(boxes)
    for a, b in zip(names, names[1:]):
        (xa, ya), (xb, yb) = boxes[a], boxes[b]
        ax.annotate("", xy=(xb - 0.05, yb + 0.6), xytext=(xa + 2.25, ya + 0.6),
                    arrowprops=dict(arrowstyle="-|>", color="#333333", lw=1.2))
    ax.annotate("", xy=(1.5, 1.75), xytext=(9.9, 1.75),
                arrowprops=dict(arrowstyle="-|>", color="#B22222", lw=1.0, linestyle="--",
                                connectionstyle="bar,fraction=-0.12"))
    ax.text(5.7, 0.45, "reconstruction loss", ha="center", fontsize=10, color="#B22222")
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=150, bbox_inches="tight")
    plt.close(fig)
    return convert(buf.getvalue())


def test_every_box_is_a_node_and_every_arrow_an_edge(converted):
    fig = converted.figure
    assert sorted(n.label for n in fig.of_kind("node")) == ["Decoder", "Encoder", "Input", "Latent z"]
    pairs = {(e.source, e.target): e for e in fig.of_kind("edge")}
    # 25 px arrows: their line is under the boxes' outline rings, only the head is left
    for pair in (("input", "encoder"), ("encoder", "latent_z"), ("latent_z", "decoder")):
        assert pair in pairs and pairs[pair].head == "arrow"
    loop = pairs.get(("decoder", "input"))
    assert loop is not None and loop.style == "dashed" and loop.head == "arrow"
    assert converted.report["components"].get("path", 0) == 0


def test_the_loop_turns_into_its_head(converted):
    """The head points up into Input: its route's last leg is vertical, not a diagonal."""
    loop = next(e for e in converted.figure.of_kind("edge") if e.source == "decoder")
    a, b = loop.route[-2], loop.route[-1]
    assert abs(a.x - b.x) <= 1.0 and b.y < a.y
