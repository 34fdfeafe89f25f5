"""Where a flow ends is a box (:mod:`crafter.agents.targets`): "… are written to Tier-0 storage", "writes them to a
data file", "is cryopreserved in the biobank"; a manner, a language or a bare common noun is none; and the links
reader links the sender to it where the sentence names one."""

from __future__ import annotations

from crafter.agents.extract import figure_from_brief
from crafter.agents.reading import BriefReading
from crafter.agents.targets import read_flow_ends


def _ends(text: str, names: list[str] | None = None) -> list[str]:
    reading = BriefReading(entities=list(names or []))
    read_flow_ends(reading, text)
    return reading.entities[len(names or []):]


def test_the_end_of_a_send_or_a_store_is_a_box_even_behind_a_pronoun() -> None:
    assert _ends("Triggered frames, about 2 kHz, are written to Tier-1 storage.") == ["Tier-1 storage"]
    assert _ends("The viewer plots them live and writes them to a session file for later review.") == ["Session file"]
    assert _ends("Half of each clone is cryopreserved in the freezer bank.") == ["Freezer bank"]


def test_a_manner_a_language_or_a_name_already_read_is_no_new_end() -> None:
    assert _ends("The parser is written in Rust and results are sent in parallel.") == []
    assert _ends("Rows are written to disk.") == []
    assert _ends("The loader writes them to the archive.", ["Archive"]) == []


def test_the_sender_named_in_the_sentence_links_to_the_end() -> None:
    fig = figure_from_brief("The recorder samples the probe. The recorder writes them to a session file.")
    labels = {n.id: n.label for n in fig.of_kind("node")}
    edges = {(labels[e.source], labels[e.target]) for e in fig.of_kind("edge")}
    assert ("Recorder", "Session file") in edges
