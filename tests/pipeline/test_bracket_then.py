"""A group named beside its members in brackets holds them when they are joined by ", then" as well as by
"followed by": "a call subgroup (freebayes variant calling, then bcftools normalisation)"; a member the prose read
before by its first words ("Freebayes variant") is the one box with the fuller name."""

from __future__ import annotations

from crafter.agents.extract import figure_from_brief

TEXT = ("The QC stage splits in two: a trim subgroup (fastp followed by adapter clipping with cutadapt) and a call "
        "subgroup (freebayes variant calling, then bcftools normalisation). The normalised calls go to VEP.")


def test_members_joined_by_comma_then_form_the_group() -> None:
    fig = figure_from_brief(TEXT)
    labels = {n.id: n.label.lower() for n in fig.of_kind("node")}
    groups = {g.label.lower(): {labels.get(m, m) for m in g.members} for g in fig.components if g.kind == "group"}
    assert groups.get("call subgroup") == {"freebayes variant calling", "bcftools normalisation"}
    assert groups.get("trim subgroup") == {"fastp", "adapter clipping"}


def test_the_fuller_name_is_one_box() -> None:
    labels = {n.label.lower() for n in figure_from_brief(TEXT).of_kind("node")}
    assert "freebayes variant calling" in labels
    assert "freebayes variant" not in labels
