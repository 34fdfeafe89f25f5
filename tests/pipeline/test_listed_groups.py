"""Structure a brief states outright: "launches three modules: `vision`, `mapping` and `motion`" names three
groups, not three boxes linked in a row; a brief that lists its panels before describing them ("Figure 3
shows (a) the acquisition and (b) the analysis. (a) The laser …") draws two panels, and never fails."""

from __future__ import annotations

from crafter.agents.extract import figure_from_brief, panel_segments

MODULES = ("The robot software launches three modules: `vision`, `mapping` and `motion`. Vision starts the stereo "
           "camera driver and the depth estimator. In `mapping`, the occupancy mapper reads the depth estimator and "
           "feeds the path planner. Motion runs the path follower, which reads the path planner, and the wheel "
           "controller.")
PANELS = ("Figure 3 shows (a) the acquisition and (b) the analysis. (a) The laser excites the sample and the "
          "detector counts photons. (b) The histogram is fitted by the reconvolution fit, which gives the lifetimes.")


def _groups(fig) -> dict[str, set[str]]:
    lab = {c.id: c.label for c in fig.components}
    return {c.label: {lab.get(m, m) for m in c.members} for c in fig.components if c.kind in ("group", "panel")}


def test_groups_listed_by_number_are_groups_of_what_their_sentences_say() -> None:
    fig = figure_from_brief(MODULES)
    labels = {n.label.lower() for n in fig.of_kind("node")}
    assert not labels & {"vision", "mapping", "motion"}
    groups = _groups(fig)
    assert {"vision", "mapping", "motion"} <= set(groups)
    assert "Depth estimator" in groups["vision"]
    assert "Occupancy mapper" in groups["mapping"]
    assert "Depth estimator" not in groups["mapping"]  # a thing two groups' sentences say is the first's


def test_the_head_names_of_listed_groups_are_no_linked_boxes() -> None:
    names = {"node": ["Vision", "Mapping", "Motion", "Depth estimator", "Occupancy mapper", "Path planner",
                      "Wheel controller"],
             "links": [("vision", "mapping"), ("mapping", "motion"), ("depth estimator", "occupancy mapper")]}
    fig = figure_from_brief(MODULES, names=names)
    assert not {n.label.lower() for n in fig.of_kind("node")} & {"vision", "mapping", "motion"}
    assert {"vision", "mapping", "motion"} <= set(_groups(fig))


def test_parts_and_layers_listed_by_number_stay_boxes() -> None:
    """"two parts: an encoder and a decoder", "three layers: input, hidden and output" list boxes the next
    sentences link, not groups (only container nouns: groups, modules, subsystems, packages…)."""
    for text, linked in (("The autoencoder has two parts: an encoder and a decoder. The encoder maps the image to a "
                          "latent code. The decoder maps the latent code to the reconstruction.", ("Encoder", "Latent code")),
                         ("The network has three layers: input, hidden and output. The input layer feeds the hidden "
                          "layer, which feeds the output layer.", ("Input layer", "Hidden layer"))):
        fig = figure_from_brief(text)
        lab = {c.id: c.label for c in fig.components}
        assert not fig.of_kind("group")
        assert linked in {(lab[e.source], lab[e.target]) for e in fig.of_kind("edge")}


def test_panels_listed_before_they_are_described_start_over() -> None:
    preamble, panels = panel_segments(PANELS)
    assert preamble.startswith("Figure 3 shows")
    assert [p[0] for p in panels] == ["a", "b"]
    assert "laser" in panels[0][2] and "histogram" in panels[1][2]
    groups = _groups(figure_from_brief(PANELS))
    assert {"Laser", "Sample"} <= groups["(a)"] and "Histogram" in groups["(b)"]


def test_a_panel_named_again_in_a_later_sentence_does_not_start_the_panels_over() -> None:
    """"unlike (a), (b) needs no calibration" refers back: the panels are the two described, not ',' and a clause."""
    text = ("(a) The laser excites the sample and the detector counts photons. (b) The histogram is fitted by the "
            "reconvolution fit; unlike (a), (b) needs no calibration.")
    preamble, panels = panel_segments(text)
    assert preamble == "" and [p[0] for p in panels] == ["a", "b"]
    assert "laser" in panels[0][2] and "histogram" in panels[1][2]


def test_panel_markers_that_repeat_never_break_the_figure() -> None:
    for text in ("(a) one (b) two (a) three (b) four (a) five",
                 "(a) the laser feeds the detector; see (a) and (b). (b) the detector feeds (a) the histogram (b).",
                 "Shown: (a) setup, (b) analysis, (c) results. (a) A feeds B. (b) B feeds C. (a) again."):
        assert figure_from_brief(text).components
