"""A protocol's numbered steps said as orders ("Split every core lengthwise") are boxes named as a figure
names a step ("Core splitting"), chained in order; an item that is no order keeps its own name."""

from __future__ import annotations

from crafter.agents.extract import figure_from_brief
from crafter.agents.phrases import item_label, step_name

PROTOCOL = ("Stream chemistry sampling\n"
            "1. Take a grab sample from the thalweg in a 30 mL HDPE bottle.\n"
            "2. Filter it through a 0.45 µm membrane on the bank.\n"
            "3. On the upcast, close Niskin bottles at the 12 standard depths.\n"
            "4. Use the bottle salinities to calibrate the CTD conductivity sensor.\n"
            "5. Drill a 20 m borehole and install PVC casing.\n")


def test_orders_are_named_by_what_is_done_to_what() -> None:
    assert step_name("Split every core lengthwise; store one half in the repository.") == "Core splitting"
    assert step_name("Refrigerate the isotope aliquot; acidify the ion aliquot.") == "Isotope aliquot refrigeration"
    assert step_name("Ship the filled flasks to the central laboratory.") == "Filled flask shipping"
    assert step_name("Air-dry the composites and sieve them to 2 mm.") == "Composite air-drying"
    # a lab verb needs no article after it; a measurement made by a method is named by the method
    assert step_name("Weigh dried rings on a balance.") == "Dried ring weighing"
    assert step_name("Map the reads to the reference.") == "Read mapping"
    assert step_name("Measure major ions by ion chromatography.") == "Ion chromatography"
    assert step_name("Analyse the sieved fraction for total C by dry combustion.") == "Dry combustion"


def test_items_that_are_no_orders_keep_their_names() -> None:
    for item in ("Tokenizer: splits text into tokens", "Raw reads from the sequencer", "QC the reads",
                 "Add each accepted gauging to the table", "Multiply C concentration by bulk density",
                 "ESS too low → extend chains", "BWA-MEM alignment",
                 "Image encoder: ViT-L/14", "Label propagation: spreads labels", "Map reads to the reference"):
        assert step_name(item) is None
    assert item_label("Tokenizer: splits text into tokens") == "Tokenizer"


def test_a_protocol_draws_its_steps_in_order() -> None:
    fig = figure_from_brief(PROTOCOL)
    labels = {n.id: n.label for n in fig.of_kind("node")}
    steps = ["Grab sample", "Membrane filtration", "Niskin bottle closing", "Conductivity sensor calibration",
             "Borehole drilling"]
    assert set(steps) <= set(labels.values())
    edges = {(labels[e.source], labels[e.target]) for e in fig.of_kind("edge")}
    assert set(zip(steps, steps[1:])) <= edges


def test_an_orders_own_words_are_its_step_not_more_boxes() -> None:
    fig = figure_from_brief("1. Take a grab sample from the thalweg in a 30 mL bottle filled to the brim.\n"
                            "2. Filter it through a 0.45 µm membrane on the bank.\n")
    assert {n.label for n in fig.of_kind("node")} == {"Grab sample", "Membrane filtration"}
