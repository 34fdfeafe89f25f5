"""The name head on written briefs: gold tags through the scoring's rules (aliases, close spans), links
between the components two mentions stand for, groups in the reading, and a head's weights checked
against the sha256 its JSON names."""

import json

import pytest

from crafter.llm.names import TAGS, NamesConfig, NameTagger, decode_tags, words
from crafter.llm.names_briefs import brief_links, brief_tags, reading_dsl
from crafter.llm.prompts import plan_prompt
from crafter.spec import parse_dsl

BRIEF = plan_prompt("Every sample passes through the QC subworkflow, which bundles fastp trimming with host-read "
                    "removal. Clean reads go to Kraken2 classifiers. The MultiQC report is fed by Kraken2.")
GOLD = parse_dsl('figure "pipeline"\nfastp node "fastp trimming"\nhost node "Host read removal"\n'
                 'k2 node "Kraken2 classifier"\nmqc node "MultiQC"\ng_qc group "QC subworkflow" [fastp, host]\n'
                 'e1 edge fastp -> host\ne2 edge host -> k2\ne3 edge mqc <- k2\n')
ALIASES = {"mqc": ["MultiQC report"], "g_qc": ["QC"]}


def test_gold_tags_read_labels_through_normal_forms_aliases_and_close_spans():
    spans = words(BRIEF)
    tags, node_of = brief_tags(BRIEF, spans, GOLD, ALIASES)
    names = decode_tags(BRIEF, spans, tags)
    # "host-read removal" is "Host read removal" in normal form; "MultiQC report" an alias;
    # (no article in a name); "Kraken2 classifiers" is "Kraken2 classifier" (a plural); a component
    # takes one form: "Kraken2" alone is not tagged
    assert names["node"] == ["fastp trimming", "host-read removal", "Kraken2 classifiers", "MultiQC report"]
    assert names["group"] == ["QC subworkflow"]
    assert sorted(set(node_of.values())) == ["fastp", "host", "k2", "mqc"]


def test_links_follow_the_gold_arrows_between_the_mentions_components():
    spans = words(BRIEF)
    tags, node_of = brief_tags(BRIEF, spans, GOLD, ALIASES)
    lk = brief_links(BRIEF, spans, GOLD, tags, node_of, max_gap=5)
    said = {(lk["ments"][a], lk["ments"][b]): c for (a, b), c in zip(lk["pairs"], lk["cls"].tolist()) if c}
    name = lambda m: " ".join(BRIEF[spans[m[0]][0]:spans[m[1] - 1][1]].split())  # noqa: E731
    got = sorted((name(a), name(b), c) for (a, b), c in said.items())
    # "mqc <- k2" is an arrow from Kraken2 to MultiQC, across two sentences (no sentence says both)
    assert got == [("Kraken2 classifiers", "MultiQC report", 1), ("fastp trimming", "host-read removal", 1),
                   ("host-read removal", "Kraken2 classifiers", 1)]


def test_the_reading_draws_groups_of_two_or_more_of_its_names():
    reading = {"node": ["fastp trimming", "Host removal", "Kraken2"], "links": [("fastp trimming", "host removal")],
               "members": [("QC subworkflow", ["fastp trimming", "host removal"]), ("Lone", ["kraken2"])]}
    fig = parse_dsl(reading_dsl(reading))
    assert [(g.label, g.members) for g in fig.of_kind("group")] == [("QC subworkflow", ["n1", "n2"])]
    assert [(e.source, e.target) for e in fig.of_kind("edge")] == [("n1", "n2")]


def test_a_head_whose_weights_are_not_the_ones_its_json_names_is_refused(tmp_path):
    NameTagger(NamesConfig(hidden=16, max_gap=5)).save(tmp_path)
    cfg = json.loads((tmp_path / "names.json").read_text())
    assert len(cfg["sha256"]) == 64 and cfg["max_gap"] == 5 and cfg["tags"] == list(TAGS)
    assert NameTagger.load(tmp_path).cfg.max_gap == 5
    data = bytearray((tmp_path / "names.safetensors").read_bytes())
    data[-1] ^= 1
    (tmp_path / "names.safetensors").write_bytes(bytes(data))
    with pytest.raises(ValueError, match="sha256"):
        NameTagger.load(tmp_path)


def test_a_name_never_starts_with_an_article():
    from crafter.llm.names import _no_article

    p = plan_prompt("The Whisker Sorter feeds a Dashboard")
    spans = words(p)
    b, i = TAGS.index("B-node"), TAGS.index("I-node")
    tags = _no_article(p, spans, [b, i, i, 0, b, i])
    assert decode_tags(p, spans, tags)["node"] == ["Whisker Sorter", "Dashboard"]
