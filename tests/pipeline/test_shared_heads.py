"""Two things said with one head noun (:mod:`crafter.agents.distributive`): "the radar and sonar drivers" are two
boxes; a verb after the pair, a participle or a verb as a modifier make none."""

from __future__ import annotations

from crafter.agents.distributive import read_shared_heads
from crafter.agents.extract import figure_from_brief
from crafter.agents.reading import BriefReading


def _added(text: str, names: list[str] | None = None) -> BriefReading:
    reading = BriefReading(entities=list(names or []))
    read_shared_heads(reading, text)
    return reading


def test_two_modifiers_before_one_plural_head_are_two_boxes() -> None:
    assert _added("Sensing starts the radar and sonar drivers.").entities == ["Radar drivers", "Sonar drivers"]
    assert _added("The chamber sputters TiO2 and SnO2 targets in turn.").entities == ["TiO2 targets", "SnO2 targets"]


def test_the_first_takes_the_links_of_a_box_read_for_the_second() -> None:
    reading = BriefReading(entities=["Fusion node", "Sonar drivers"], relations=[("Sonar drivers", "Fusion node")])
    read_shared_heads(reading, "Sensing starts the radar and sonar drivers, which feed the fusion node.")
    assert ("Radar drivers", "Fusion node") in reading.relations
    assert ("Sonar drivers", "Fusion node") in reading.relations


def test_verbs_participles_and_plural_modifiers_make_no_pair() -> None:
    assert _added("The filter removes negated and hypothetical mentions.").entities == []
    assert _added("Once the workers and the computation proceeds, nothing changes.").entities == []
    assert _added("It scales on demand and pre-boots sandboxes.").entities == []


def test_the_whole_reader_draws_both() -> None:
    fig = figure_from_brief("Photons hit the top and bottom PMT arrays, which feed the digitiser.")
    labels = {n.label for n in fig.of_kind("node")}
    assert {"Top PMT arrays", "Bottom PMT arrays"} <= labels


def test_a_modifier_read_alone_and_said_only_in_the_pair_is_the_pair_box() -> None:
    reading = BriefReading(entities=["Top", "Digitiser"], relations=[("Top", "Digitiser")])
    read_shared_heads(reading, "Photons hit the top and bottom PMT arrays, which feed the digitiser.")
    assert "Top" not in reading.entities
    assert ("Top PMT arrays", "Digitiser") in reading.relations
    # said on its own elsewhere, it stays a box
    reading = BriefReading(entities=["Top"])
    read_shared_heads(reading, "The top lid closes. Photons hit the top and bottom PMT arrays.")
    assert "Top" in reading.entities
