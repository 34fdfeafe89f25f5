"""Names and links the rule-based reader takes from written briefs: a list item's name cut at a whole
phrase, links across sentences, ends named in other words, groups inside groups."""

from __future__ import annotations

from figure_labels import edge_labels

from crafter.agents.extract import figure_from_brief, read_brief


def test_a_long_item_name_ends_on_a_whole_phrase() -> None:
    r = read_brief("1. Core the lake sediment from a floating platform with a piston corer.\n"
                   "2. Replicate to the N-1 successors in the ring.\n")
    # a protocol's order is named by what it does to what (tests/pipeline/test_protocol_steps.py)
    assert r.strong[:2] == ["Lake sediment coring", "Replicate to the N-1 successors"]


def _groups(fig):
    labels = {c.id: (c.label or c.id) for c in fig.components}
    return {c.label: sorted(labels[m] for m in c.members) for c in fig.components if c.kind in ("group", "panel")}


def test_a_journal_caption_letters_its_panels_a_comma() -> None:
    fig = figure_from_brief("Figure 4 | Two steps. a, Binding: the nuclei feed the antibody. "
                            "b, Release: the enzyme sends fragments to the supernatant.")
    assert fig.title == "Two steps"
    groups = _groups(fig)
    assert groups["(a)"] == ["Antibody", "Nuclei"] and groups["(b)"] == ["Enzyme", "Supernatant"]
    assert [p.title for p in fig.of_kind("panel")] == ["Binding", "Release"]


def test_a_group_inside_a_group() -> None:
    brief = ("Submissions go to the allocation engine (minimisation with a random element), which together with "
             "the sealed allocation store forms the allocation core. The core plus the audit logger make up the "
             "service.")
    r = read_brief(brief)
    assert ("Allocation core", ["Allocation engine", "Sealed allocation store"]) in r.groups
    assert ("Service", ["Core", "Audit logger"]) in r.groups
    groups = _groups(figure_from_brief(brief))
    assert groups["Allocation core"] == ["Allocation engine", "Sealed allocation store"]
    assert groups["Service"] == ["Allocation core", "Audit logger"]  # the core's group, no box "Core"
    assert ("Submissions", "Allocation engine") in edge_labels(figure_from_brief(brief))


def test_both_groups_of_a_plural_name_nest() -> None:
    brief = ("The bottom-up pathway contains C3, C4 and C5. The top-down pathway contains P3, P4 and P5. "
             "Both pathways together make up the FPN neck.")
    groups = _groups(figure_from_brief(brief))
    assert groups["FPN neck"] == ["Bottom-up pathway", "Top-down pathway"]


def test_a_headed_list_line_groups_the_name_heads_names() -> None:
    brief = ("Study design\n- qualitative: semi-structured interviews, observation notes\n"
             "- alignment: short reads mapped against the genome\n")
    head = {"node": ["semi-structured interviews", "observation notes", "short reads", "genome"],
            "links": [], "members": []}
    groups = _groups(figure_from_brief(brief, names=head))
    assert groups == {"Qualitative": ["Observation notes", "Semi-structured interviews"]}  # a step's line is none


def test_a_group_named_with_its_members_in_brackets() -> None:
    brief = ("The preprocessing chain (bandpass filter, common median reference, bad-channel removal) feeds the "
             "sorter. Downstream, the postprocessing layer contains a waveforms unit (waveform extraction and "
             "template computation) and a metrics unit (quality metrics and unit locations). The allocation "
             "service (IWRS) is one box.")
    groups = _groups(figure_from_brief(brief))
    assert groups["Preprocessing chain"] == ["Bad-channel removal", "Bandpass filter", "Common median reference"]
    assert groups["Waveforms unit"] == ["Template computation", "Waveform extraction"]
    assert groups["Postprocessing layer"] == ["Metrics unit", "Waveforms unit"]  # both units inside the layer
    assert "Allocation service" not in groups  # "(IWRS)" names the service, it is no member


def test_wraps_and_bundles_make_groups() -> None:
    r = read_brief("The filter feeds the sorter layer, which wraps Kilosort4 and MountainSort5. "
                   "The QC subworkflow bundles fastp trimming and host removal.")
    assert ("Sorter layer", ["Kilosort4", "MountainSort5"]) in r.groups
    assert ("QC subworkflow", ["Fastp trimming", "Host removal"]) in r.groups


def test_an_abbreviation_in_brackets_is_the_name_it_abbreviates() -> None:
    brief = "The wrapper wraps the Real-Time Data Exchange (RTDE) client. The RTDE client talks to the robot."
    head = {"node": ["wrapper", "Real-Time Data Exchange", "RTDE client", "robot", "RTDE"],
            "links": [["rtde", "robot"]], "members": []}
    fig = figure_from_brief(brief, names=head)
    labels = [n.label for n in fig.of_kind("node")]
    assert "RTDE" not in labels and "Real-Time Data Exchange" in labels
    assert ("Real-Time Data Exchange", "Robot") in edge_labels(fig)  # the abbreviation's link, on the full name


def test_more_flow_verbs() -> None:
    r = read_brief("The warehouse serves the public dashboard. The curator reviews the flagged records. "
                   "The monitor alerts the on-call engineer.")
    assert ("Warehouse", "Public dashboard") in r.relations
    assert ("Flagged records", "Curator") in r.relations  # the reviewer reads what it reviews
    assert ("Monitor", "On-call engineer") in r.relations


def test_a_reference_searched_against_feeds_the_search() -> None:
    brief = "Genotypes are phased with SHAPEIT5. Imputation runs Beagle vs the TOPMed panel.\n"
    head = {"node": ["SHAPEIT5", "Beagle", "TOPMed panel"], "links": [], "members": []}
    assert ("TOPMed panel", "Beagle") in edge_labels(figure_from_brief(brief, names=head))


def test_both_things_said_last() -> None:
    r = read_brief("The ranker sends scores to the cache and the logger. Both services write to PostgreSQL.")
    assert {("Cache", "PostgreSQL"), ("Logger", "PostgreSQL")} <= set(r.relations)
    assert "Services" not in r.entities


def test_a_transform_takes_its_object_and_gives_its_target() -> None:
    r = read_brief("The encoder maps the image to a latent grid.")
    assert {("Image", "Encoder"), ("Encoder", "Latent grid")} <= set(r.relations)
    assert ("Image", "Latent grid") not in r.relations


def test_an_opening_adverb_is_no_name_but_a_name_may_start_with_it() -> None:
    assert "Downstream" not in read_brief("Downstream, the postprocessing layer contains the metrics unit.").entities
    assert "Downstream analysis" in read_brief("The sorter feeds the downstream analysis.").entities


def test_which_after_a_bracketed_list_means_what_the_verb_reached() -> None:
    r = read_brief("The preprocessing chain (bandpass filter, median reference) feeds the sorter layer, which wraps "
                   "Kilosort4 and MountainSort5.")
    assert ("Sorter layer", ["Kilosort4", "MountainSort5"]) in r.groups
    assert ("Preprocessing chain", ["Bandpass filter", "Median reference"]) in r.groups


def test_a_heading_that_ends_in_a_groups_name_titles_the_group_instead_of_standing_alone() -> None:
    brief = ("## Randomisation service\nSubmissions go to the allocation engine, which together with the sealed "
             "allocation store forms the allocation core. The core plus the audit logger make up the service. "
             "The engine sends the arm to the site.")
    head = {"node": ["Randomisation service", "allocation engine", "sealed allocation store", "audit logger", "site"],
            "links": [["allocation engine", "site"]], "members": []}
    fig = figure_from_brief(brief, names=head)
    nodes = {n.label for n in fig.of_kind("node")}
    groups = _groups(fig)
    assert "Randomisation service" in groups and "Service" not in groups
    assert "Randomisation service" not in nodes and "Audit logger" in nodes


def test_a_name_said_again_as_the_tail_of_a_fuller_name_is_one_box() -> None:
    brief = ("Each worker pushes updates to a parameter server. The server returns fresh weights to the worker. "
             "An intake interview and an exit interview each feed the coding step; each interview is transcribed.")
    head = {"node": ["worker", "parameter server", "server", "intake interview", "exit interview", "interview",
                     "coding step"],
            "links": [["worker", "parameter server"], ["server", "worker"]], "members": []}
    fig = figure_from_brief(brief, names=head)
    nodes = {n.label for n in fig.of_kind("node")}
    assert "Server" not in nodes and ("Parameter server", "Worker") in edge_labels(fig)
    assert "Interview" in nodes  # two fuller names: which one is meant is not said


def test_a_proper_name_said_again_as_the_head_of_a_fuller_name_is_one_box() -> None:
    # "a Bpod state machine … the Bpod triggers the sound card": one box; "the encoder" after "encoder block" is
    # a common word and keeps its own box
    brief = ("The rig is controlled by a Bpod state machine. On each trial the Bpod triggers the sound card. "
             "An encoder block feeds the decoder; the encoder is frozen.")
    head = {"node": ["Bpod state machine", "Bpod", "sound card", "encoder block", "encoder", "decoder"],
            "links": [["bpod", "sound card"], ["encoder block", "decoder"]], "members": []}
    fig = figure_from_brief(brief, names=head)
    nodes = {n.label for n in fig.of_kind("node")}
    assert "Bpod" not in nodes and ("Bpod state machine", "Sound card") in edge_labels(fig)
    assert "Encoder" in nodes


def test_all_three_and_both_are_the_things_said_before_not_a_box() -> None:
    fig = figure_from_brief("Contigs go to QUAST, BUSCO and Merqury.\nAll three → HTML dashboard\n")
    nodes = {n.label for n in fig.of_kind("node")}
    assert not any(n.lower().startswith("all") for n in nodes)
    assert {("QUAST", "HTML dashboard"), ("BUSCO", "HTML dashboard"), ("Merqury", "HTML dashboard")} <= edge_labels(fig)
    assert ("Contigs", "HTML dashboard") not in edge_labels(fig)
    fig = figure_from_brief("The amplifier feeds the eye tracker and the EEG recorder.\n"
                            "Stimulus PC → TTL triggers → both recorders\n")
    assert {("TTL triggers", "Eye tracker"), ("TTL triggers", "EEG recorder")} <= edge_labels(fig)
    assert ("TTL triggers", "Stimulus PC") not in edge_labels(fig)


def test_everything_gathers_what_leads_nowhere_yet() -> None:
    fig = figure_from_brief("The survey feeds the score sheet. Interviews are turned into transcripts.\n"
                            "Everything → mixed-methods integration\n")
    into = {a for a, b in edge_labels(fig) if b == "Mixed-methods integration"}
    assert "Transcripts" in into and not {"Interviews", "Survey"} & into
    assert "Everything" not in {n.label for n in fig.of_kind("node")}


def test_what_a_step_checks_against_is_read_by_the_step() -> None:
    r = read_brief("SQANTI3 classifies each isoform against GENCODE.")
    assert ("GENCODE", "SQANTI3") in r.relations
    r = read_brief("The rules engine scores the variant against the ACMG criteria.")
    assert {("Variant", "Rules engine"), ("ACMG criteria", "Rules engine")} <= set(r.relations)


def test_a_head_link_said_vs_or_against_runs_from_the_reference() -> None:
    brief = "Imputation runs Beagle vs the TOPMed panel. The detection stage matches streams against the ruleset.\n"
    head = {"node": ["Beagle", "TOPMed panel", "detection stage", "ruleset"],
            "links": [["Beagle", "TOPMed panel"], ["detection stage", "ruleset"]], "members": []}
    edges = edge_labels(figure_from_brief(brief, names=head))
    assert {("TOPMed panel", "Beagle"), ("Ruleset", "Detection stage")} <= edges
    assert not {("Beagle", "TOPMed panel"), ("Detection stage", "Ruleset")} & edges


def test_a_name_said_only_in_the_title_line_or_a_heading_is_no_box() -> None:
    brief = ("Honeynet telemetry\n## Sensors\nThe honeypots send every session to a local agent, which forwards "
             "the events to a Kafka topic.\n")
    head = {"node": ["Honeynet telemetry", "Sensors", "honeypots", "local agent", "Kafka topic"],
            "links": [["Honeynet telemetry", "honeypots"], ["honeypots", "local agent"]], "members": []}
    for fig in (figure_from_brief(brief), figure_from_brief(brief, names=head)):
        nodes = {n.label for n in fig.of_kind("node")}
        assert {"Honeypots", "Local agent", "Kafka topic"} <= nodes
        assert not {"Honeynet telemetry", "Sensors"} & nodes
        assert ("Local agent", "Kafka topic") in edge_labels(fig)


def test_a_head_group_listing_its_own_name_is_that_group_not_a_crash() -> None:
    brief = "Reads go to the alignment stage. STAR and HISAT2 align them."
    head = {"node": ["reads", "alignment stage", "STAR", "HISAT2"], "links": [["reads", "alignment stage"]],
            "members": [["Alignment stage", ["alignment stage", "star", "hisat2"]]]}
    fig = figure_from_brief(brief, names=head)  # was SpecError: a group cannot contain itself
    assert _groups(fig) == {"Alignment stage": ["HISAT2", "STAR"]}
    assert ("Reads", "STAR") in edge_labels(fig) and "Alignment stage" not in {n.label for n in fig.of_kind("node")}


def test_a_long_remark_in_a_bullet_list_is_no_box_beside_the_heads_names_but_a_numbered_step_is() -> None:
    brief = ("- reads → FastQC → MultiQC report\n- about 15 min per sample on 32 cores\n"
             "1. Split every core lengthwise in the lab.\n2. Scan the working half with the XRF scanner.\n")
    head = {"node": ["reads", "FastQC", "MultiQC report", "XRF scanner"],
            "links": [["reads", "FastQC"], ["FastQC", "MultiQC report"]], "members": []}
    nodes = {n.label for n in figure_from_brief(brief, names=head).of_kind("node")}
    assert {"Reads", "FastQC", "MultiQC report", "Core splitting"} <= nodes
    assert not any("15 min" in n for n in nodes)


def test_a_heading_linked_by_the_head_still_titles_its_group() -> None:
    brief = ("## Randomisation service\nSubmissions go to the allocation engine, which together with the sealed "
             "allocation store forms the allocation core. The core plus the audit logger make up the service.")
    head = {"node": ["Randomisation service", "allocation engine", "sealed allocation store", "audit logger"],
            "links": [["randomisation service", "allocation engine"], ["audit logger", "randomisation service"]],
            "members": []}
    fig = figure_from_brief(brief, names=head)
    assert "Randomisation service" in _groups(fig)
    assert "Randomisation service" not in {n.label for n in fig.of_kind("node")}


def test_an_adverb_in_ly_does_not_stop_the_verb() -> None:
    r = read_brief("The consensus FASTA is read independently by Pangolin for lineage assignment and by Nextclade.")
    assert {("Consensus FASTA", "Pangolin"), ("Consensus FASTA", "Nextclade")} <= set(r.relations)
    r = read_brief("Daily entries are automatically merged into the diary table.")
    assert ("Daily entries", "Diary table") in r.relations


def test_a_verb_the_lexicon_lacks_still_ends_the_subject() -> None:
    r = read_brief("The stream job enriches each event with ASN and geolocation and writes it to ClickHouse.")
    assert ("Stream job", "ClickHouse") in r.relations
    assert not any(e.lower().startswith(("writes", "enriches")) for e in r.entities)


def test_two_verbs_share_one_object() -> None:
    r = read_brief("The ingest worker normalises and left-aligns the VCF and then hands it to the annotator.")
    assert {("VCF", "Ingest worker"), ("Ingest worker", "Annotator")} <= set(r.relations)
    assert "Left-aligns" not in r.entities


def test_a_thing_named_by_the_step_that_made_it_is_drawn_from_that_step() -> None:
    r = read_brief("CenterPoint detects objects and a tracker follows them. The planner combines the tracked objects "
                   "with the signal state and hands a path to the controller.")
    assert ("Tracker", "Planner") in r.relations and "Tracked objects" not in r.entities


def test_a_brief_that_opens_with_a_list_item_keeps_that_items_name() -> None:
    """The title-line rule (a short first line names no box) leaves a list's first item alone."""
    for brief in ("- Encoder: reads the image\n- Decoder: writes the caption",
                  "1. Encoder: reads the image\n2. Decoder: writes the caption"):
        assert {"Encoder", "Decoder"} <= {n.label for n in figure_from_brief(brief).of_kind("node")}


def test_a_brief_written_a_statement_a_line_keeps_its_first_statement() -> None:
    """A short first line is a title only over a blank line, a heading, a list or panels (review: 'Camera
    sends frames to the detector' had lost Camera)."""
    fig = figure_from_brief("Camera sends frames to the detector\nThe detector sends boxes to the tracker\n")
    assert {("Camera", "Detector"), ("Detector", "Tracker")} <= edge_labels(fig)
    fig = figure_from_brief("GWAS pipeline\n- genotyping arrays → sample QC\n- sample QC → imputation\n")
    assert "GWAS pipeline" not in {n.label for n in fig.of_kind("node")}


def test_a_head_name_cut_at_plus_is_the_names_it_joins() -> None:
    # a name head read "STAR plus" and "HISAT2 plus featureCounts" out of "one made of STAR plus RSEM and one
    # made of HISAT2 plus featureCounts": boxes STAR, HISAT2 and featureCounts, none ending on "plus"
    brief = ("The alignment stage holds two interchangeable routes, one made of STAR plus RSEM and one made of "
             "HISAT2 plus featureCounts. Trim Galore feeds both routes.")
    names = {"node": ["Trim Galore", "STAR plus", "HISAT2 plus featureCounts"],
             "links": [("trim galore", "star plus"), ("trim galore", "hisat2 plus featurecounts")],
             "members": [("alignment stage", ["star plus", "hisat2 plus featurecounts"])]}
    fig = figure_from_brief(brief, names=names)
    labels = {n.id: n.label for n in fig.of_kind("node")}
    assert {"STAR", "HISAT2", "featureCounts"} <= set(labels.values())
    assert not any(x.lower().endswith(" plus") or " plus " in x for x in labels.values())
    drawn = {(labels[e.source], labels[e.target]) for e in fig.of_kind("edge")}
    assert {("Trim Galore", "STAR"), ("Trim Galore", "HISAT2")} <= drawn
