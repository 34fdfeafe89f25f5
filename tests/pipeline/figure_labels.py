"""What a planned figure says, by label, for the pipeline tests: its boxes' labels and its links as
(source label, target label)."""

from __future__ import annotations


def node_labels(fig) -> set[str]:
    return {n.label for n in fig.of_kind("node")}


def edge_labels(fig, *, lower: bool = False) -> set[tuple[str, str]]:
    """The figure's edges as label pairs; ``lower``: compared without case."""
    labels = {n.id: n.label.lower() if lower else n.label for n in fig.of_kind("node")}
    return {(labels[e.source], labels[e.target]) for e in fig.of_kind("edge")}


def edge_texts(fig) -> dict[tuple[str, str], str | None]:
    """The figure's edges as label pairs, each with the edge's own label ("yes", "no") or None."""
    labels = {c.id: c.label for c in fig.components}
    return {(labels[e.source], labels[e.target]): e.label for e in fig.of_kind("edge")}


def member_labels(fig, kind: str = "group", *, lower: bool = False) -> dict[str, set[str]]:
    """Each group's (or panel's) label, lower-cased if ``lower``, with its members' labels."""
    labels = {c.id: c.label for c in fig.components}
    return {(g.label.lower() if lower else g.label): {labels[m] for m in g.members} for g in fig.of_kind(kind)}
