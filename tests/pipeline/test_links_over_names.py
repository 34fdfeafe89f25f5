"""Links read over the names the figure keeps (:mod:`crafter.agents.links`): the rules' names or a name head's."""

from __future__ import annotations

from figure_labels import edge_labels

from crafter.agents.extract import figure_from_brief
from crafter.agents.links import read_links, sentence_links
from crafter.agents.reading import BriefReading


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
    edges = edge_labels(figure_from_brief(brief, names=head))
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
    edges = edge_labels(figure_from_brief("The front end never talks to the annotator. The front end calls the API.",
                                     names={"node": ["front end", "annotator", "API"], "links": [], "members": []}))
    assert not any({"annotator"} & {a.lower(), b.lower()} and {"front end"} & {a.lower(), b.lower()}
                   for a, b in edges)


def test_a_backward_verb_after_then_still_reads_backward() -> None:
    # "then" is a forward word too: the passive "is then built from" must win, or the edge points the wrong way
    assert sentence_links("The BWT index is then built from the reference genome.",
                          ["BWT index", "reference genome"]) == [("reference genome", "BWT index")]


def test_a_negated_sentence_continues_nothing() -> None:
    # "the cache never writes to the database" says no link; the next sentence's acting name does not go on from it
    reading = BriefReading(entities=["cache", "database", "API"], negated=[("cache", "database")])
    read_links("The cache never writes to the database. The API calls the cache.", reading)
    assert ("database", "API") not in reading.relations
    assert ("cache", "database") not in reading.relations
    assert ("API", "cache") in reading.relations


def test_a_name_before_a_noun_and_its_verb_does_not_act() -> None:
    # "The encoder outputs are cached": "outputs" is the encoder's noun here, not a verb of the encoder
    reading = BriefReading(entities=["decoder", "encoder"])
    read_links("The decoder is trained first. The encoder outputs are cached.", reading)
    assert reading.relations == []


def test_many_names_over_many_sentences_read_in_reasonable_time() -> None:
    # a long brief: each name's pattern is compiled once, not once per sentence (600 names thrashed re's cache)
    import time

    names = [f"stage{i} module" for i in range(600)]
    text = " ".join(f"The stage{i} module feeds the stage{i + 1} module." for i in range(80))
    reading = BriefReading(entities=names)
    start = time.perf_counter()
    read_links(text, reading)
    assert time.perf_counter() - start < 8
    assert ("stage0 module", "stage1 module") in reading.relations and len(reading.relations) == 80
