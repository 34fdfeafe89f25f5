"""The rule-based reader's links and groups as written briefs say them: panels, headed list lines, arrow
chains with joins and remarks, list lines that continue each other, and a name head's reading merged in."""

from __future__ import annotations

from figure_labels import edge_labels, edge_texts

from crafter.agents.extract import figure_from_brief, panel_segments, read_brief, with_head


def _members(fig, kind):
    labels = {c.id: (c.label or c.id) for c in fig.components}
    return {c.label: sorted(labels[m] for m in c.members) for c in fig.components if c.kind == kind}


PANELS = ("Exome CNVs\n"
          "(a) reference build: normal BAMs → coverage → pooled reference\n"
          "(b) per tumour: tumour BAM → coverage → log2 ratios → segmentation\n")


def test_panels_are_read_panel_by_panel() -> None:
    preamble, panels = panel_segments(PANELS)
    assert preamble.strip() == "Exome CNVs"
    assert [(letter, title) for letter, title, _ in panels] == [("a", "Reference build"), ("b", "Per tumour")]
    fig = figure_from_brief(PANELS)
    panels = _members(fig, "panel")
    assert panels["(a)"] == ["Coverage", "Normal BAMs", "Pooled reference"]
    assert panels["(b)"] == ["Coverage", "Log2 ratios", "Segmentation", "Tumour BAM"]
    # the same step in two panels is two boxes, each in its own flow
    assert ("Normal BAMs", "Coverage") in edge_labels(fig) and ("Tumour BAM", "Coverage") in edge_labels(fig)
    assert len([n for n in fig.of_kind("node") if n.label == "Coverage"]) == 2


def test_panel_markers_in_a_caption() -> None:
    fig = figure_from_brief("Figure 2: Two stages. (a) Training: the encoder feeds the decoder. "
                            "(b) Inference: the decoder sends tokens to the ranker.")
    assert set(_members(fig, "panel")) == {"(a)", "(b)"}
    assert ("Decoder", "Ranker") in edge_labels(fig)


def test_one_marker_is_no_panel() -> None:
    assert panel_segments("The encoder (a) feeds the decoder.")[1] == []


def test_a_headed_list_line_naming_several_things_is_a_group() -> None:
    r = read_brief("Rig:\n- delivery: the \"substrate pump\" and the \"H2 generator\"\n- outlet: separator -> UV cell\n")
    assert ("Delivery", ["substrate pump", "H2 generator"]) in r.groups
    assert ("Outlet", ["Separator", "UV cell"]) in r.groups


def test_arrow_chain_joins_and_remarks() -> None:
    fig = figure_from_brief("coordinates + tract polygons → spatial join (PostGIS) → tract IDs")
    assert edge_labels(fig) == {("Coordinates", "Spatial join"), ("Tract polygons", "Spatial join"),
                           ("Spatial join", "Tract IDs")}
    assert ("First stage", "Second stage") in edge_labels(figure_from_brief("first stage → second stage"))


def test_list_lines_with_arrows_continue_each_other() -> None:
    fig = figure_from_brief("Pipeline\n- reads → QC\n- alignment → variant calling\n- report")
    assert {("Reads", "QC"), ("QC", "Alignment"), ("Alignment", "Variant calling"),
            ("Variant calling", "Report")} <= edge_labels(fig)


def test_through_a_list_is_a_sequence() -> None:
    r = read_brief("The points pass through a sampler, a grouping layer and a pooling layer into a global feature.")
    assert [("Points", "Sampler"), ("Sampler", "Grouping layer"), ("Grouping layer", "Pooling layer"),
            ("Pooling layer", "Global feature")] == r.relations[:4]


def test_with_head_takes_the_heads_names_and_keeps_the_rules_links() -> None:
    brief = "The ResNet encoder feeds the decoder. A 'safety filter' checks the output."
    head = {"node": ["ResNet encoder", "decoder", "captions"], "links": [("decoder", "captions")],
            "members": []}
    fig = figure_from_brief(brief, names=head)
    labels = [n.label for n in fig.of_kind("node")]
    assert labels[:3] == ["ResNet encoder", "Decoder", "Captions"]  # a box's name starts with a capital
    assert "safety filter" in labels  # a quoted name only the rules found stays as written
    assert {("ResNet encoder", "Decoder"), ("Decoder", "Captions")} <= edge_labels(fig)
    assert with_head(read_brief(brief), {"node": []}).entities == read_brief(brief).entities


class _HeadOnly:
    """A backend whose plan is unusable but whose name head reads the brief."""

    def __init__(self, reading: dict | None, fail: bool = False) -> None:
        self.reading, self.fail = reading, fail

    def complete(self, task, prompt, *, max_new_tokens=512, temperature=0.0):
        return "this is not DSL"

    def read_names(self, prompt: str) -> dict | None:
        if self.fail:
            raise RuntimeError("head crashed")
        return self.reading


def test_plan_falls_back_to_the_rules_with_the_backends_name_head() -> None:
    from crafter.agents.plan import plan

    brief = "The ResNet encoder feeds the decoder, which writes captions."
    head = {"node": ["ResNet encoder", "decoder", "captions", "beam search"], "links": [("captions", "beam search")],
            "members": []}
    out = plan(brief, _HeadOnly(head))
    assert out["source"] == "rules"
    labels = [c["label"] for c in out["figure"]["components"] if c["kind"] == "node"]
    assert "Beam search" in labels  # a name only the head read
    # a head that fails leaves the rules alone, and the plan still comes back
    alone = plan(brief, _HeadOnly(head, fail=True))
    assert "Beam search" not in [c.get("label") for c in alone["figure"]["components"]]


def test_a_brief_that_draws_its_arrows_is_read_by_the_rules_alone() -> None:
    brief = "reads → trimming → alignment → calling → report"
    head = {"node": ["reads", "trimming alignment"], "links": [], "members": []}
    assert figure_from_brief(brief, names=head) == figure_from_brief(brief)


def test_a_negated_link_draws_no_edge() -> None:
    fig = figure_from_brief("The ingest worker writes to PostgreSQL. The web front end reads from the cache "
                            "and never talks to the annotator. The scheduler does not call the ingest worker. "
                            "Archived runs are not fed back into the annotator.")
    edges = edge_labels(fig)
    assert ("Ingest worker", "PostgreSQL") in edges
    assert not {e for e in edges if "Annotator" in e or ("Scheduler", "Ingest worker") == e}
    assert not any("never" in n.label or "does" in n.label for n in fig.of_kind("node"))  # not read into a name
    # the name head's link between two names a negated clause joins is left out too
    head = {"node": ["web front end", "annotator", "cache"], "links": [("web front end", "annotator")], "members": []}
    fig = figure_from_brief("The web front end reads from the cache and never talks to the annotator.", names=head)
    assert ("Web front end", "Annotator") not in edge_labels(fig)


def test_with_head_names_a_group_the_head_called_by_a_common_word() -> None:
    brief = ("The alignment stage maps reads with STAR and HISAT2; whichever BAM is produced enters Qualimap. "
             "The dashboard reads the counts and the dashboards of each site are mirrored.")
    head = {"node": ["alignment", "STAR", "HISAT2", "Qualimap", "dashboard", "dashboards", "counts"],
            "links": [("dashboards", "counts")], "members": [("stage", ["alignment", "star", "hisat2"]),
                                                           ("layer", ["star", "qualimap"])]}
    reading = with_head(read_brief(brief), head, text=brief)
    # "stage" alone is the brief's "alignment stage"; "layer" with no fuller name said keeps its word
    assert [g for g, _ in reading.groups] == ["Alignment stage", "layer"]
    assert reading.groups[0][1] == ["Alignment", "STAR", "HISAT2"]
    # one box for "dashboard" and "dashboards", its links kept
    assert [e for e in reading.entities if e.lower().startswith("dashboard")] == ["Dashboard"]
    assert ("Dashboard", "Counts") in reading.relations or ("Counts", "Dashboard") in reading.relations


def test_a_question_in_an_arrow_chain_branches_on_its_answers_without_boxes_for_them() -> None:
    from crafter.agents.extract import figure_from_brief
    brief = ("Peak picking loop:\n"
             "raw spectra → baseline removal → peak detection → signal-to-noise > 10? yes → peak table; "
             "no → smoothing\n"
             "smoothing → peak detection\n"
             "peak table → annotation against HMDB\n")
    fig = figure_from_brief(brief)
    labels = {n.label.lower() for n in fig.of_kind("node")}
    assert not labels & {"yes", "no"}
    edges = edge_texts(fig)
    question = next(n.label for n in fig.of_kind("node") if n.label.lower().startswith("signal-to-noise"))
    assert edges.get((question, "Peak table")) == "yes"
    assert edges.get((question, "Smoothing")) == "no"
    assert ("Peak detection", question) in edges


def test_an_answer_said_with_a_colon_opens_its_branch_without_a_box_for_it() -> None:
    from crafter.agents.extract import figure_from_brief
    brief = ("Cache check on import:\n"
             "module source → cache lookup → entry still valid?\n"
             "→ yes: cached module; no: recompile\n")
    labels = {n.label.lower() for n in figure_from_brief(brief).of_kind("node")}
    assert not labels & {"yes", "no"}


def test_an_answer_leading_to_another_question_keeps_its_label() -> None:
    from crafter.agents.extract import figure_from_brief
    brief = ("Triage:\n"
             "sample received → contaminated? yes → retest possible? no → discard\n")
    fig = figure_from_brief(brief)
    edges = edge_texts(fig)
    assert edges.get(("Contaminated", "Retest possible")) == "yes"  # the branch target is itself a question
    assert edges.get(("Retest possible", "Discard")) == "no"


def test_an_answer_after_a_sentence_in_between_answers_no_earlier_question() -> None:
    from crafter.agents.extract import figure_from_brief
    brief = ("Screening:\n"
             "raw reads → quality ok? yes → assembly; no → resequencing\n"
             "The assembly is annotated with Prokka.\n"
             "yes → summary table\n")
    fig = figure_from_brief(brief)
    edges = edge_texts(fig)
    assert edges.get(("Quality ok", "Assembly")) == "yes"
    assert ("Quality ok", "Summary table") not in edges
    assert "Summary table" in {n.label for n in fig.of_kind("node")}
