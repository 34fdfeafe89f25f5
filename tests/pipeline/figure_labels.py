"""What a planned figure says, by label, for the pipeline tests: its boxes' labels and its links as
(source label, target label)."""

from __future__ import annotations


def node_labels(fig) -> set[str]:
    return {n.label for n in fig.of_kind("node")}


def edge_labels(fig, *, lower: bool = False) -> set[tuple[str, str]]:
    """The figure's edges as label pairs; ``lower``: compared without case."""
    labels = {n.id: n.label.lower() if lower else n.label for n in fig.of_kind("node")}
    return {(labels[e.source], labels[e.target]) for e in fig.of_kind("edge")}
