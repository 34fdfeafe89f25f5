"""The constraint's state: what the finished lines defined and the unfinished line."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Committed:
    """What the finished lines have defined."""

    lines: int = 0
    nodes: tuple[str, ...] = ()  # node ids defined by the answer, in order
    node_labels: tuple[str, ...] = ()  # their lower-case labels, in the same order
    labels: frozenset = frozenset()  # lower-case node labels used
    edges: frozenset = frozenset()  # (source, target) pairs
    counts: tuple[int, int, int] = (0, 0, 0)  # nodes, edges, groups written
    written: frozenset = frozenset()  # ids written (repair: each requested id once)
    grouped: frozenset = frozenset()  # plan: nodes already in a group (a node sits in one group)
    group_labels: frozenset = frozenset()  # plan: lower-case group labels used
    groups: tuple[str, ...] = ()  # plan (corpus conventions): group and panel ids, which a group may hold
    panels: int = 0  # plan (corpus conventions): panels written, lettered (a), (b)… in order


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: the constraint's memo is keyed on it
class State:
    """Where an answer stands: its finished lines and the unfinished one."""

    done: Committed = field(default_factory=Committed)
    line: bytes = b""  # the unfinished line (raw bytes: a token may end inside a character)

