"""The system a brief describes titles its figure and is no box in it: a README opening on its tool's name in
code case, a method paragraph's "We present X, which …"."""

from __future__ import annotations

from crafter.agents.extract import figure_from_brief
from crafter.agents.subject import system_name

README = ("`cohortkit` builds study cohorts on a CDM database. The spec parser reads the cohort spec and passes "
          "the concept sets to the cohort builder, which writes the cohort table.")
PAPER = ("Federated training needs many rounds. We present FedLite, in which the server sends the global model to "
         "the clients and the aggregator averages their updates.")


def test_a_readme_tool_name_titles_the_figure_and_draws_no_box() -> None:
    fig = figure_from_brief(README)
    labels = {n.label.lower() for n in fig.of_kind("node")}
    assert "cohortkit" not in labels
    assert {"spec parser", "cohort builder"} <= labels
    assert fig.title == "cohortkit"


def test_a_presented_system_draws_no_box() -> None:
    labels = {n.label.lower() for n in figure_from_brief(PAPER).of_kind("node")}
    assert not any("fedlite" in x for x in labels)
    assert "server" in labels


def test_an_opening_common_noun_or_plural_subject_is_no_system() -> None:
    assert system_name("metaflow is a Nextflow pipeline.") == ("metaflow", None)
    assert system_name("Reads are trimmed and aligned.") is None
    assert system_name("respondent addresses are geocoded.") is None


def test_a_count_of_parts_is_no_box() -> None:
    fig = figure_from_brief("The ETL tier has two layers. The ingestion layer consists of an HL7 listener and a FHIR "
                            "poller; these two steps repeat.")
    labels = {n.label.lower() for n in fig.of_kind("node")}
    assert not labels & {"layers", "two layers", "steps"}
    assert {"hl7 listener", "fhir poller"} <= labels


def test_a_generic_noun_alone_is_no_box() -> None:
    labels = {n.label.lower() for n in figure_from_brief("The coordinator sends the scripts to the analyst. The data "
                                                         "never leave the sites.").of_kind("node")}
    assert "data" not in labels and {"coordinator", "analyst"} <= labels
    labels = {n.label.lower() for n in figure_from_brief("The input goes to the encoder.").of_kind("node")}
    assert {"input", "encoder"} <= labels  # a generic noun with an arrow is a box


def test_a_lowercase_common_noun_opening_is_a_box_not_the_system() -> None:
    for brief, first in (("client sends a request to the server, which queries the database.", "Client"),
                         ("user uploads a photo to the web app, which stores it in the bucket.", "User"),
                         ("frontend calls the API gateway, which forwards to the auth service.", "Frontend")):
        assert system_name(brief) is None
        fig = figure_from_brief(brief)
        lab = {c.id: c.label for c in fig.components}
        assert first in {n.label for n in fig.of_kind("node")} and fig.title != first.lower()
        assert any(lab[e.source] == first for e in fig.of_kind("edge"))
    assert system_name("bwa-mem2 maps the reads.") == ("bwa-mem2", None)  # a name as code writes it
    assert system_name("client is a thin browser app.") == ("client", None)


def test_an_unquoted_system_name_with_links_stays_a_box() -> None:
    fig = figure_from_brief("bwa-mem2 maps the reads to the index, which the caller reads.")
    assert "Bwa-mem2" in {n.label for n in fig.of_kind("node")}
