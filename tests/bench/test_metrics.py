"""Each metric on hand-made cases where the right answer is known."""

from __future__ import annotations

import pytest

from craftbench import metrics
from crafter.spec import Figure, parse_dsl

TRUTH_DSL = """
figure "t"
a node "Encoder"
b node "Latent"
c node "Decoder"
e1 edge a -> b
e2 edge b -> c
g group "AE" [a, b]
"""
TRUTH = parse_dsl(TRUTH_DSL)


def test_identical_figure_scores_perfectly() -> None:
    s = metrics.component_scores(TRUTH, TRUTH)
    assert s["component_f1"] == 1.0 and s["node_f1"] == 1.0 and s["edge_f1"] == 1.0 and s["group_f1"] == 1.0
    assert metrics.text_cer(TRUTH, TRUTH) == 0.0


def test_empty_figure_scores_zero() -> None:
    s = metrics.component_scores(TRUTH, Figure())
    assert s["component_f1"] == 0.0 and s["component_recall"] == 0.0
    assert metrics.text_cer(TRUTH, Figure()) == 1.0


def test_ids_do_not_matter_labels_do() -> None:
    pred = parse_dsl('x node "encoder"\ny node "Latent"\nz node "Decoder"\nf1 edge x -> y\nf2 edge y -> z\nh group [x, y]')
    assert metrics.component_scores(TRUTH, pred)["component_f1"] == 1.0


def test_reversed_edge_is_wrong_and_extra_node_costs_precision() -> None:
    pred = parse_dsl('a node "Encoder"\nb node "Latent"\nc node "Decoder"\nd node "Extra"\ne1 edge b -> a\ne2 edge b -> c')
    s = metrics.component_scores(TRUTH, pred)
    assert s["node_precision"] == 0.75 and s["node_recall"] == 1.0
    assert s["edge_precision"] == 0.5 and s["edge_recall"] == 0.5
    assert s["group_f1"] == 0.0


def test_cer_counts_character_edits() -> None:
    pred = parse_dsl('a node "Encodr"\nb node "Latent"\nc node "Decoder"')
    # one deletion over 7 + 6 + 7 = 20 characters
    assert metrics.text_cer(TRUTH, pred) == pytest.approx(1 / 20)


def test_layout_quality_counts_overlaps_and_crossings() -> None:
    fig = parse_dsl("""
a node "A" box=0,0,50,30
b node "B" box=40,10,50,30
c node "C" box=200,0,50,30
d node "D" box=200,100,50,30
e1 edge a -> d route=25,30;25,200
e2 edge c -> b route=0,100;300,100
""")
    q = metrics.layout_quality(fig)
    assert q["overlaps"] == 1.0 and q["crossings"] == 1.0


def test_chart_error_is_fraction_of_range() -> None:
    spec = {"mark": "bar", "data": {"values": [{"m": "A", "acc": 50}, {"m": "B", "acc": 100}]},
            "encoding": {"x": {"field": "m", "type": "nominal"}, "y": {"field": "acc", "type": "quantitative"}}}
    truth = Figure.from_dict({"components": [{"id": "c", "kind": "chart", "spec": spec}]})
    wrong = {**spec, "data": {"values": [{"m": "A", "acc": 55}, {"m": "B", "acc": 100}]}}
    pred = Figure.from_dict({"components": [{"id": "c", "kind": "chart", "spec": wrong}]})
    assert metrics.chart_error(truth, truth) == 0.0
    assert metrics.chart_error(truth, pred) == pytest.approx(0.1)
    assert metrics.chart_error(truth, Figure()) == 1.0
    assert metrics.chart_error(TRUTH, TRUTH) is None


def test_repair_fix_rate_and_locality() -> None:
    faulty = parse_dsl(TRUTH_DSL.replace('"Latent"', '"Latnt"'))
    fixed = TRUTH
    s = metrics.repair_scores(TRUTH, faulty, fixed, ["b"], "wrong_label")
    assert s == {"fix_rate": 1.0, "locality": 1.0}
    # fixed nothing, broke a neighbour
    clumsy = parse_dsl(TRUTH_DSL.replace('"Latent"', '"Latnt"').replace('"Encoder"', '"Encoder v2"'))
    s = metrics.repair_scores(TRUTH, faulty, clumsy, ["b"], "wrong_label")
    assert s["fix_rate"] == 0.0 and s["locality"] < 1.0


def test_editability_from_svg() -> None:
    svg = ('<svg xmlns="http://www.w3.org/2000/svg"><rect/><rect/><path d="M0 0"/>'
           '<text>Encoder</text><text>Latent</text><text>Decoder</text></svg>')
    e = metrics.editability(svg, TRUTH)
    assert e["text_as_text"] == 1.0 and e["primitive_share"] == pytest.approx(2 / 3) and e["elements"] == 6
    traced = '<svg xmlns="http://www.w3.org/2000/svg">' + '<path d="M0 0"/>' * 50 + "</svg>"
    e = metrics.editability(traced, TRUTH)
    assert e["text_as_text"] == 0.0 and e["primitive_share"] == 0.0


def test_ssim_identical_is_one() -> None:
    import io

    from PIL import Image

    img = Image.new("L", (64, 48), 255)
    img.paste(0, (10, 10, 40, 30))
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    assert metrics.ssim(buf.getvalue(), candidate_png=buf.getvalue()) == pytest.approx(1.0)
