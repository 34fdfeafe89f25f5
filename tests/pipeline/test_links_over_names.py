"""Links read over the names the figure keeps (:mod:`crafter.agents.links`): the rules' names or a name head's."""

from __future__ import annotations

from crafter.agents.extract import figure_from_brief
from crafter.agents.links import read_links, sentence_links
from crafter.agents.reading import BriefReading


def _edges(fig):
    labels = {n.id: n.label for n in fig.of_kind("node")}
    return {(labels[e.source], labels[e.target]) for e in fig.of_kind("edge")}


def test_a_list_passed_to_one_name_links_every_member() -> None:
    names = ["reads", "index", "BWA-MEM aligner"]
    assert sentence_links("The reads and the index are passed to the BWA-MEM aligner.", names) == [
        ("reads", "BWA-MEM aligner"), ("index", "BWA-MEM aligner")]


def test_a_verb_that_reads_backward_links_the_other_way() -> None:
    assert sentence_links("The gateway receives requests from the client.", ["gateway", "client"]) == [
        ("client", "gateway")]
    assert sentence_links("From the sensor to the hub.", ["sensor", "hub"]) == [("sensor", "hub")]


def test_names_side_by_side_or_in_another_clause_are_not_linked() -> None:
    assert sentence_links("The sensor and the hub sit on one board.", ["sensor", "hub"]) == []
    assert sentence_links("The hub is fast, but the sensor feeds nothing.", ["hub", "sensor"]) == []
    # a step between, named or not, is no link that skips it
    assert sentence_links("app.o + libfoo.a -> ld -> executable", ["app.o", "libfoo.a", "executable"]) == []


def test_links_are_read_between_the_name_heads_names() -> None:
    brief = ("Raw scans are cleaned by a denoiser. The Noise2Void denoiser output is passed to the U-Net "
             "segmenter, and the segmenter writes masks to the archive.")
    head = {"node": ["Raw scans", "Noise2Void denoiser", "U-Net segmenter", "archive"], "links": [],
            "members": []}
    edges = _edges(figure_from_brief(brief, names=head))
    assert ("Noise2Void denoiser", "U-Net segmenter") in edges
    assert ("U-Net segmenter", "Noise2Void denoiser") not in edges


def test_a_sentence_opening_on_an_acting_name_continues_from_the_last_one() -> None:
    reading = BriefReading(entities=["Transcripts", "isoseq collapse", "SQANTI3", "GENCODE"],
                           relations=[("Transcripts", "isoseq collapse")])
    read_links("Transcripts are collapsed by isoseq collapse; SQANTI3 then classifies each isoform against GENCODE.",
               reading)
    assert ("isoseq collapse", "SQANTI3") in reading.relations
    # a sentence opening on a name that does not act ("GENCODE is a reference") continues nothing
    reading = BriefReading(entities=["isoseq collapse", "GENCODE"])
    read_links("Transcripts are collapsed by isoseq collapse. GENCODE is the reference.", reading)
    assert reading.relations == []


def test_a_negated_link_is_not_drawn() -> None:
    edges = _edges(figure_from_brief("The front end never talks to the annotator. The front end calls the API.",
                                     names={"node": ["front end", "annotator", "API"], "links": [], "members": []}))
    assert not any({"annotator"} & {a.lower(), b.lower()} and {"front end"} & {a.lower(), b.lower()}
                   for a, b in edges)
