"""JPEG figures: the auto preset reads them as lossy (the ``jpeg`` preset), so pale fills that
compression noise breaks up are still node faces and the ringing around strokes is not ink."""

import io
from pathlib import Path

import pytest
from PIL import Image

from crafteditor import Config, convert
from crafteditor.bench import render_truth
from crafteditor.scoring import score_diagram

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _jpeg(png: bytes, quality: int = 75) -> bytes:
    buf = io.BytesIO()
    Image.open(io.BytesIO(png)).convert("RGB").save(buf, "JPEG", quality=quality, dpi=(150, 150))
    return buf.getvalue()


def test_auto_reads_a_jpeg_with_the_jpeg_preset_where_options_are_defaults():
    cfg = Config().for_image("JPEG")
    assert cfg.preset_name == "jpeg" and cfg.lossy and cfg.denoise
    assert Config().for_image("PNG") == Config()
    assert Config.preset("diagram").for_image("JPEG") == Config.preset("diagram")  # a chosen preset stays
    assert Config(color_merge=10.0).for_image("JPEG").color_merge == 10.0  # an option the user set stays


def test_a_q75_jpeg_of_a_diagram_keeps_its_nodes_and_words():
    truth, png = render_truth(EXAMPLES / "transformer_block.dsl", 150)
    conv = convert(_jpeg(png))
    assert conv.report["preset"] == "jpeg"
    sc = score_diagram(conv.figure, truth)
    # read with the PNG settings, every pale fill broke into noise: no node at all, 250+ paths
    assert sc["nodes_found"] >= sc["nodes"] - 1 and sc["boxes"] >= 0.85
    assert sc["words"] >= 0.9
    assert conv.report["components"].get("path", 0) <= 10


@pytest.mark.parametrize("index,kind", [(0, "scatter"), (2, "line")])
def test_a_q75_jpeg_chart_keeps_its_series(index, kind):
    """Compression spreads a marker colour over dozens of exact colours, none common enough to
    seed a paint (no series had been found), and splits a thin line into its colour and a
    washed-out copy (two series of a few points each): both are read back."""
    from crafteditor.bench import as_jpeg, generated_figures
    from crafteditor.scoring import score_chart

    f = generated_figures(3, kinds=("chart",))[index]
    assert f.truth.kind == kind
    conv = convert(as_jpeg(f, 75, 150).png)
    sc = score_chart(conv.figure, f.truth)
    assert sc["charts"] == 1 and sc["within_2pct"] >= 0.9
    assert len(list(conv.figure.of_kind("chart"))[0].spec["data"]["values"]) == sum(
        len(v) for v in f.truth.series.values())


def test_a_jpeg_keeps_a_pale_group_fill_apart_from_white_and_its_members_as_nodes():
    """A group's grey (247) lies within the jpeg preset's colour merge (16) of white, but a flat
    fill survives compression as solid areas of one exact colour: it stays a paint, so the frame
    is a group around its members (it had merged into white, and in the encoder-decoder example
    each dashed group came back as one cylinder node over its members)."""
    from crafter.spec.model import Group

    truth, png = render_truth(EXAMPLES / "encoder_decoder.dsl", 150)
    conv = convert(_jpeg(png))
    sc = score_diagram(conv.figure, truth)
    groups = [c for c in conv.figure.components if isinstance(c, Group)]
    assert sorted(g.label for g in groups) == ["Decoder", "Encoder"]
    assert all(len(g.members) == 3 for g in groups)
    assert sc["boxes"] == 1.0 and sc["arrows"] >= 0.8
    assert not [c for c in conv.figure.of_kind("node") if c.shape == "cylinder"]


def test_jpeg_chroma_noise_on_a_pale_fill_does_not_split_it_into_two_paints():
    """Specks of a shifted colour (EFF6FF beside Crafter's F2F5FA) are solid over ~100 px: not a
    fill of their own. The two-panel example's pale nodes had lost their faces to such a split."""
    truth, png = render_truth(EXAMPLES / "two_panel_overview.dsl", 150)
    conv = convert(_jpeg(png))
    sc = score_diagram(conv.figure, truth)
    assert sc["boxes"] == 1.0 and sc["arrows"] == 1.0


def test_a_q75_jpeg_keeps_thin_dashed_routes_whole():
    """Lines are traced on the pixels as decoded, not the median-filtered copy the paints are
    read from: a 3×3 median takes a 1 px line's core from 60 to 180 and breaks its dashes (the
    rag pipeline's dashed 'prompt' route and its k-NN edge had come back as scraps and paths).
    Its dashed bend, where the corner fell in a gap, is one route."""
    from crafter.spec.model import Edge

    truth, png = render_truth(EXAMPLES / "rag_pipeline.dsl", 150)
    conv = convert(_jpeg(png))
    sc = score_diagram(conv.figure, truth)
    assert sc["arrows"] == 1.0 and sc["heads"] >= 0.85  # one head, just past a group's border, comes and goes
    prompt = [e for e in conv.figure.components if isinstance(e, Edge) and e.style == "dashed"]
    assert len(prompt) == 1 and prompt[0].target == "llm_generator"


def test_a_jpeg_line_through_a_group_title_is_one_edge():
    """A JPEG's wider erasure ring cuts a line where it crosses a group's title: the two halves
    are rejoined as across a loose label (distributed_training's Data shard 0 -> GPU 0)."""
    from crafter.spec.model import Edge

    truth, png = render_truth(EXAMPLES / "distributed_training.dsl", 150)
    conv = convert(_jpeg(png))
    pairs = {(e.source, e.target) for e in conv.figure.components if isinstance(e, Edge)}
    assert ("data_shard_0", "gpu_0_stages_1_2") in pairs and ("data_shard_1", "gpu_2_stages_1_2") in pairs


@pytest.mark.parametrize("index", [2, 5])
def test_a_q50_jpeg_line_chart_is_one_series(index):
    """At q50 chroma subsampling washes a thin line out at constant brightness ((31, 119, 183)
    came back partly (65, 118, 153), 45 apart) and rings a pale tint ((213, 250, 255)) around
    it: both had been read as second series, and the chart's values scored 10% and 12%."""
    from crafteditor.bench import as_jpeg, generated_figures
    from crafteditor.scoring import score_chart

    f = generated_figures(index + 1, kinds=("chart",))[index]
    assert f.truth.kind == "line" and len(f.truth.series) == 1
    conv = convert(as_jpeg(f, 50, 150).png)
    spec = list(conv.figure.of_kind("chart"))[0].spec
    assert len({row.get("series") for row in spec["data"]["values"]}) == 1
    assert score_chart(conv.figure, f.truth)["within_2pct"] >= 0.9


def test_a_jpeg_dotted_group_frame_sits_on_its_border():
    """A pale group fill (250) lies within JPEG noise of white: around a dotted border the canvas
    took the fill's label and the frame's face spread 7 px past it, leaving the border's dots as
    scraps of dotted line and the edges crossing it unbridged. The frame snaps to its border."""
    from crafter.spec.model import Group

    truth, png = render_truth(EXAMPLES / "distributed_training.dsl", 150)
    conv = convert(_jpeg(png))
    outer = next(g for g in conv.figure.components if isinstance(g, Group) and g.label.startswith("Data"))
    want = next(g for g in truth.components if isinstance(g, Group) and g.label.startswith("Data"))
    for a, b in ((outer.box.x, want.box.x), (outer.box.y, want.box.y), (outer.box.w, want.box.w),
                 (outer.box.h, want.box.h)):
        assert abs(a - b) <= 2.0
    assert outer.style == "dotted"
    # the dots had come back as ~20 scraps of dotted line; a scrap or two where an edge crosses a
    # title stays (how many shifts with the renderer's anti-aliasing, which differs a shade
    # between processes: 3 alone, 4 once in a full suite run)
    assert conv.report["components"].get("path", 0) <= 5


def test_an_x_axis_running_past_the_corner_still_meets_its_y_axis():
    """The outward tick at the y axis's 0 runs the x axis 7 px left of the corner; in a q50 JPEG
    the two then failed the meeting test (6 px): the plot lost its top, and the two tallest
    bars were read cut off at the highest tick label (83 for 85.4 and 94.3)."""
    from crafteditor.bench import as_jpeg, generated_figures
    from crafteditor.scoring import score_chart

    f = generated_figures(8, kinds=("chart",))[7]
    assert f.truth.kind == "bar"
    conv = convert(as_jpeg(f, 50, 150).png)
    assert score_chart(conv.figure, f.truth)["within_2pct"] == 1.0
