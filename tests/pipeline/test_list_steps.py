"""A bulleted list that reads as steps (:mod:`crafter.agents.steps`) is chained like a numbered one; a list of
parts is not."""

from __future__ import annotations

from figure_labels import edge_labels

from crafter.agents.extract import figure_from_brief
from crafter.agents.steps import reads_as_steps


def test_a_bulleted_protocol_is_drawn_as_a_chain_of_steps() -> None:
    brief = ("Tissue clearing protocol\n- tissue perfusion\n- post-fixation, 12 h at 4 °C\n- delipidation, 3 d at 37 °C"
             "\n- index matching, 1 d\n- light-sheet imaging")
    assert edge_labels(figure_from_brief(brief), lower=True) == {
        ("tissue perfusion", "post-fixation"), ("post-fixation", "delipidation"), ("delipidation", "index matching"),
        ("index matching", "light-sheet imaging")}


def test_a_bulleted_list_of_parts_is_not_chained() -> None:
    brief = "Bench kit we share\n- a confocal microscope\n- a cryostat\n- a plate reader\n- a laminar hood"
    assert edge_labels(figure_from_brief(brief), lower=True) == set()


def test_a_list_reads_as_steps_only_with_step_names_and_a_procedure() -> None:
    assert reads_as_steps(["droplet generation: 20 µL mix", "PCR: 40 cycles", "droplet reading on the reader"],
                          "Copy-number assay:")
    assert reads_as_steps(["Thaw the cells", "Lyse them in RIPA buffer", "Freeze the supernatant"], "Lysates")
    # things, not steps, whatever the heading says
    assert not reads_as_steps(["a confocal microscope", "a cryostat", "a plate reader"], "Imaging protocol")
    # steps without a procedure's heading or times: a remark list
    assert not reads_as_steps(["data cleaning", "the raw table", "the codebook"], "Notes")
    assert not reads_as_steps(["perfusion"], "Protocol")


def test_a_list_of_parts_named_after_processes_is_not_chained() -> None:
    # a process noun that only qualifies a thing ("Authentication service") names no step; the heading's
    # "following" is no procedure either
    brief = ("The platform has the following services:\n- Authentication service\n- Notification service"
             "\n- Recommendation service\n- Payment gateway")
    assert edge_labels(figure_from_brief(brief), lower=True) == set()
    assert not reads_as_steps(["Logging service", "Monitoring dashboard", "Routing layer"], "Our stack")
    assert reads_as_steps(["droplet reading on the reader", "index matching, 1 d", "light-sheet imaging"], "Imaging")


def test_a_model_name_is_no_time_or_setting() -> None:
    # "3D", "4K": no days, no kelvin; a toolkit's modules are not a procedure's steps
    assert not reads_as_steps(["image segmentation", "mesh generation", "3D viewer", "2D slice viewer"], "Our toolkit")
    assert not reads_as_steps(["video decoding", "frame upscaling", "4K display", "8K display"], "Player")
    assert reads_as_steps(["cell seeding", "drug treatment, 3 d", "viability readout", "cooling to 300 K"], "Screen")


def test_only_the_lists_own_heading_says_it_is_a_procedure() -> None:
    # half the items name steps: the heading decides; a word in -ing in the prose before it is no procedure
    items = ["sample tracking", "a Postgres store", "image annotation", "an S3 bucket"]
    assert not reads_as_steps(items, "We are building a lab notebook for the group.\nIt has")
    assert not reads_as_steps(items, "Lab notebook (following FAIR)")
    assert reads_as_steps(items, "Some words first.\n\nRNA extraction protocol\n")
    assert reads_as_steps(items, "CUBIC clearing – mouse kidney")


def test_a_list_headed_as_parts_is_not_chained() -> None:
    """A diagram's list headed "Components of …:" names parts side by side; none feeds the next (the brief's
    "pipeline" cue is no order)."""
    brief = ("Components of our ingestion pipeline:\n"
             "- gateway: the entry point for the field tablets\n"
             "- validator service: one schema check per record\n"
             "- archive: the raw files of the last year\n")
    fig = figure_from_brief(brief)
    labels = {n.label for n in fig.of_kind("node")}
    assert {"Gateway", "Validator service", "Archive"} <= labels
    assert fig.of_kind("edge") == []
