"""Round 20's names said in a brief and skipped by the reader: a named tool after "with" / "using", a subject
before "then" and a verb the lexicon lacks, what a passive step is used or flagged for, a subject's source said
before its verb, and the store a protocol step files its results in; each with the guard that keeps a false box
out."""

from __future__ import annotations

from figure_labels import edge_labels, node_labels

from crafter.agents.extract import figure_from_brief


def test_a_named_tool_after_with_or_using_is_a_box() -> None:
    fig = figure_from_brief("The ingest service receives uploaded images. Each image is segmented with CellPose3 and "
                            "the masks go to the tracker.")
    assert "CellPose3" in node_labels(fig)
    assert ("Masks", "Tracker") in edge_labels(fig)
    # a plain noun after "with" is a remark, not a box
    fig = figure_from_brief("The ingest service receives uploaded images. Each image is segmented with care and the "
                            "masks go to the tracker.")
    assert not any("care" in n.lower() for n in node_labels(fig))
    # nor is an amount with a unit in capitals
    fig = figure_from_brief("The ingest service receives uploaded images. Each image is rinsed with 150 mM NaCl and "
                            "the masks go to the tracker.")
    assert not any("NaCl" in n for n in node_labels(fig))


def test_a_subject_before_then_and_a_verb_the_lexicon_lacks_is_a_box() -> None:
    fig = figure_from_brief("Clinical notes go to the tagger, which marks drug mentions; DrugFilter then removes "
                            "duplicated and uncertain mentions.")
    assert "DrugFilter" in node_labels(fig)


def test_what_a_step_is_used_for_is_where_it_goes() -> None:
    fig = figure_from_brief("The distilled checkpoint is then used for batch inference.")
    assert ("Distilled checkpoint", "Batch inference") in edge_labels(fig)
    # "used to" before a verb: the subject does it
    fig = figure_from_brief("The encoder is used to embed the queries.")
    assert "Embed" not in " ".join(node_labels(fig))


def test_a_passive_step_flagged_for_a_review_goes_there_but_not_beside_an_agent_nor_when_sought() -> None:
    fig = figure_from_brief("Outlier frames are flagged for manual annotation.")
    assert ("Outlier frames", "Manual annotation") in edge_labels(fig)
    # beside an agent, "for X" is the agent's task: no box of its own
    fig = figure_from_brief("The assembled genome is read by Prokka for gene annotation.")
    assert ("Assembled genome", "Prokka") in edge_labels(fig)
    assert "Gene annotation" not in node_labels(fig)
    # a verb that seeks: what is sought is no place the subject goes
    fig = figure_from_brief("Full spectra are screened for known contaminant masses.")
    assert not any("contaminant" in n.lower() for n in node_labels(fig))
    # a count or a quantifier after "for" is a duration or a remark
    fig = figure_from_brief("The plates are incubated for 30 minutes.")
    assert not any("minute" in n.lower() for n in node_labels(fig))


def test_a_subject_s_source_said_before_its_verb_goes_on_to_the_agent() -> None:
    fig = figure_from_brief("Numbers from the random-digit sample are dialled by the call scheduler.")
    assert ("Random-digit sample", "Call scheduler") in edge_labels(fig)


def test_a_protocol_step_feeds_the_store_it_files_its_results_in() -> None:
    fig = figure_from_brief("1. Collect a water sample at each station.\n"
                            "2. Filter the sample through a glass-fibre membrane.\n"
                            "3. Weigh the membrane and enter the weights in the station database.\n"
                            "4. Freeze one half and keep it in the sample archive.")
    nodes, edges = node_labels(fig), edge_labels(fig)
    assert {"Station database", "Sample archive"} <= nodes
    assert any(b == "Station database" for _, b in edges) and any(b == "Sample archive" for _, b in edges)
    # the stores are no steps of the chain: nothing flows out of them
    assert not any(a in ("Station database", "Sample archive") for a, _ in edges)


def test_an_order_that_names_no_step_is_its_store() -> None:
    fig = figure_from_brief("1. Take a grab sample from the outlet.\n"
                            "2. Measure nitrate by ion chromatography.\n"
                            "3. Enter both results in the catchment database.")
    nodes = node_labels(fig)
    assert "Catchment database" in nodes
    assert not any(n.lower().startswith("enter") for n in nodes)


def test_an_item_s_step_named_before_its_colon_starts_its_arrow() -> None:
    fig = figure_from_brief("Front end of the toy compiler\n"
                            "- lexing → token stream\n"
                            "- name binding: identifiers resolved against the scope table → resolved module")
    nodes, edges = node_labels(fig), edge_labels(fig)
    assert "Name binding" in nodes and ("Name binding", "Resolved module") in edges
    assert not any(n.lower().startswith("identifiers") for n in nodes)
    # a list of inputs after the colon is no description: the chain starts on them
    fig = figure_from_brief("- analysis: diary + exit interviews → thematic analysis")
    assert ("Diary", "Thematic analysis") in edge_labels(fig)


def test_a_subject_before_then_takes_what_the_sentence_before_ended_on() -> None:
    fig = figure_from_brief("Raw logs go to the parser, which splits each line into fields. LogScrub then masks "
                            "personal and secret tokens.")
    assert ("Fields", "LogScrub") in edge_labels(fig)
    # without "then" a new sentence's subject is not chained on
    fig = figure_from_brief("Raw logs go to the parser, which splits each line into fields. LogScrub masks "
                            "personal and secret tokens.")
    assert ("Fields", "LogScrub") not in edge_labels(fig)


def test_a_participle_said_only_after_is_or_are_is_no_box() -> None:
    # "while errors are still found": what the errors are, not a step the summaries pass through
    fig = figure_from_brief("The drafter writes a summary and the checker compares it with the source. Drafting and "
                            "checking repeat while errors are still found, and the final summaries are sent to the "
                            "editor.")
    nodes = node_labels(fig)
    assert not any(n.lower().endswith("found") for n in nodes)
    assert ("Final summaries", "Editor") in edge_labels(fig)
    # a participle that names a state a flow reaches stays a box ("prepares → prepared")
    fig = figure_from_brief("- prepare phase: matching prepares → prepared\n- commit phase: commits → committed")
    assert "Prepared" in node_labels(fig)


def test_a_subject_already_fed_still_goes_on_from_the_sentence_before() -> None:
    # the worker pool is fed by the config service, and it goes on from the scheduler the sentence before ends on
    fig = figure_from_brief("The config service feeds the worker pool. Incoming jobs are queued by the scheduler. "
                            "The worker pool then writes each result to the archive.")
    edges = edge_labels(fig)
    assert ("Scheduler", "Worker pool") in edges and ("Config service", "Worker pool") in edges


def test_words_that_name_nothing_drawn_are_no_boxes() -> None:
    from crafter.agents.extract import figure_from_brief
    brief = ("Incoming variant calls are scored by a random-forest filter. Calls below 0.3 are sent to manual review, "
             "and the rest go straight into the annotation service. Annotation and QC plots are produced in parallel. "
             "During training, the filter's weights are refit on the reviewed calls, so that stale thresholds can be "
             "dropped.")
    labels = {n.label.lower() for n in figure_from_brief(brief).of_kind("node")}
    assert not labels & {"rest", "parallel", "during", "can", "straight"}
    assert {"random-forest filter", "manual review", "annotation service"} <= labels
