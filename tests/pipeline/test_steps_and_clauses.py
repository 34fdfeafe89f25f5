"""Links read from a list that reads as steps (:mod:`crafter.agents.steps`), from clauses of one sentence said one
after another (:mod:`crafter.agents.clauses`) and from an object relative clause (:mod:`crafter.agents.relatives`)."""

from __future__ import annotations

from crafter.agents.clauses import clause_steps
from crafter.agents.extract import figure_from_brief
from crafter.agents.links import _mentions, _patterns, sentence_links
from crafter.agents.steps import reads_as_steps


def _edges(fig) -> set[tuple[str, str]]:
    labels = {n.id: n.label for n in fig.of_kind("node")}
    return {(labels[e.source].lower(), labels[e.target].lower()) for e in fig.of_kind("edge")}


def _steps(sentence: str, names: list[str]) -> list[tuple[str, str]]:
    return clause_steps(sentence, _mentions(sentence, _patterns(names)))


def test_a_bulleted_protocol_is_drawn_as_a_chain_of_steps() -> None:
    brief = ("Tissue clearing protocol\n- tissue perfusion\n- post-fixation, 12 h at 4 °C\n- delipidation, 3 d at 37 °C"
             "\n- index matching, 1 d\n- light-sheet imaging")
    assert _edges(figure_from_brief(brief)) == {
        ("tissue perfusion", "post-fixation"), ("post-fixation", "delipidation"), ("delipidation", "index matching"),
        ("index matching", "light-sheet imaging")}


def test_a_bulleted_list_of_parts_is_not_chained() -> None:
    brief = "Bench kit we share\n- a confocal microscope\n- a cryostat\n- a plate reader\n- a laminar hood"
    assert _edges(figure_from_brief(brief)) == set()


def test_a_list_reads_as_steps_only_with_step_names_and_a_procedure() -> None:
    assert reads_as_steps(["droplet generation: 20 µL mix", "PCR: 40 cycles", "droplet reading on the reader"],
                          "Copy-number assay:")
    assert reads_as_steps(["Thaw the cells", "Lyse them in RIPA buffer", "Freeze the supernatant"], "Lysates")
    # things, not steps, whatever the heading says
    assert not reads_as_steps(["a confocal microscope", "a cryostat", "a plate reader"], "Imaging protocol")
    # steps without a procedure's heading or times: a remark list
    assert not reads_as_steps(["data cleaning", "the raw table", "the codebook"], "Notes")
    assert not reads_as_steps(["perfusion"], "Protocol")


def test_clauses_each_opening_on_an_acting_name_chain_their_subjects() -> None:
    sentence = ("In the inner loop, a camera images each deposited line, a CNN estimates its width, and a PI "
                "controller corrects the extruder's flow.")
    assert _steps(sentence, ["camera", "CNN", "PI controller", "extruder"]) == [
        ("camera", "CNN"), ("CNN", "PI controller")]


def test_clauses_beside_each_other_or_about_structure_are_not_steps() -> None:
    names = ["loader", "augmenter", "exporter", "quantiser", "build stage", "site", "pharmacy"]
    assert _steps("The loader reads images, while the augmenter crops them.", names) == []
    assert _steps("The exporter forms the build stage, and the quantiser forms it too.", names) == []
    # a clause whose step ends at its own target hands nothing to the next subject
    assert _steps("The loader goes back to the site, and the pharmacy receives a kit.", names) == []
    # "During training, …": a participle after the name, no step
    assert _steps("During training, the loader reads images.", ["During", "loader"]) == []


def test_a_thing_handed_on_in_an_object_relative_clause() -> None:
    names = ["planner", "plate map", "dispensing robot", "compiler", "object file", "scores", "decoder"]
    assert ("plate map", "dispensing robot") in sentence_links(
        "The planner writes a plate map, which the dispensing robot reads.", names)
    assert sentence_links("It links an object file, which the compiler emits.", names) == [
        ("compiler", "object file")]
    assert sentence_links("The scores, which the decoder outputs are cached, stay.", names) == []
