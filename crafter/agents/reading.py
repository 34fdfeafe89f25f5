"""What the rule-based reader read in a brief (:class:`BriefReading`), and the passes over a whole reading
that :func:`crafter.agents.extract.figure_from_brief` makes once the names are known (the rules' or a name
head's): an abbreviation in brackets merged into the name it abbreviates, a reference searched "vs" /
"against" linked to the step beside it, a member's name that means groups read before ("the core", "both
pathways").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from crafter.agents.labels import normalise_label


@dataclass
class BriefReading:
    """What the rules read in a brief."""

    title: str | None = None
    direction: str | None = None
    entities: list[str] = field(default_factory=list)  # every name, in order of appearance
    strong: list[str] = field(default_factory=list)  # names the reader is sure of
    relations: list[tuple[str, str]] = field(default_factory=list)  # (source label, target label)
    edge_labels: dict[tuple[str, str], str] = field(default_factory=dict)  # "A sends features to B"
    groups: list[tuple[str, list[str]]] = field(default_factory=list)  # (group label, member labels)
    negated: list[tuple[str, str]] = field(default_factory=list)  # "A never writes to B": no A -> B, either way


def box_key(name: str) -> str:
    """What two spellings of one box share: case, hyphens and a plural aside."""
    key = re.sub(r"[\s\-_]+", " ", normalise_label(name)).strip()
    return re.sub(r"(?<=[a-z]{3})s$", "", key)


_AGAINST_RE = re.compile(r"^\s*(?:vs\.?|versus|against)\s+(?:the\s+|a\s+|matched\s+)?$", re.I)


def read_searched_against(text: str, reading: BriefReading) -> None:
    """ "nucleotide search vs ChocoPhlAn", "imputation with Beagle against the TOPMed panel": the reference
    searched feeds the step that searches it (two names side by side, nothing else between)."""
    low = text.lower()
    spots = sorted((m.start(), m.end(), e) for e in reading.entities
                   for m in re.finditer(r"(?<![\w-])" + re.escape(e.lower()) + r"(?![\w-])", low))
    linked = {frozenset(p) for p in reading.relations}
    for (_, a_end, a), (b_start, _, b) in zip(spots, spots[1:]):
        if a != b and _AGAINST_RE.match(text[a_end:b_start]) and frozenset((a, b)) not in linked:
            reading.relations.append((b, a))
            linked.add(frozenset((a, b)))


_ABBREVIATION_RE = re.compile(r"\(\s*([A-Z][A-Za-z0-9-]{0,9}[A-Z0-9])\s*\)")


def merge_abbreviations(reading: BriefReading, text: str) -> None:
    """ "the residual vector quantiser (RVQ) … RVQ indices": one box, the name it abbreviates; what the
    abbreviation's box linked or held goes to that name's."""
    low = text.lower()
    for m in _ABBREVIATION_RE.finditer(text):
        short = next((e for e in reading.entities if e.lower() == m.group(1).lower()), None)
        before = low[:m.start()].rstrip()
        full = max((e for e in reading.entities if e != short and len(e) > len(m.group(1))
                    and before.endswith(e.lower())), key=len, default=None)
        if short is None or full is None:
            continue
        rename = {short: full}
        reading.entities = [e for e in reading.entities if e != short]
        reading.strong = list(dict.fromkeys(rename.get(e, e) for e in reading.strong))
        reading.relations = list(dict.fromkeys((rename.get(a, a), rename.get(b, b)) for a, b in reading.relations
                                               if rename.get(a, a) != rename.get(b, b)))
        reading.edge_labels = {(rename.get(a, a), rename.get(b, b)): v for (a, b), v in reading.edge_labels.items()}
        reading.groups = [(g, list(dict.fromkeys(rename.get(x, x) for x in ms))) for g, ms in reading.groups]


def groups_named(name: str, groups: list[str]) -> list[str]:
    """The groups read before that a member's name means: "the core" the allocation core (the last one
    so named), "both pathways" the bottom-up and the top-down pathway (every one)."""
    key = box_key(name)
    hits = [g for g in groups if box_key(g) == key or box_key(g).endswith(" " + key)]
    plural = bool(re.search(r"[^s]s$", name.strip().lower()))
    return hits if plural else hits[-1:]


_DEFINITE = {"the", "this", "that", "its", "their"}


def said_again_as(names: list[str], text: str) -> dict[str, str]:
    """A name that is the tail of one fuller name and is only ever said after it as "the <name>" ("the
    sealed allocation store … the allocation store", "a parameter server … the server") means that
    name: short -> full. Two fuller names ("intake interview", "exit interview"), a bare mention ("a
    store", "each state") or a mention before the fuller name keep the short name a box of its own."""
    low = text.lower()
    keys = {n: box_key(n).split() for n in names}
    out: dict[str, str] = {}
    for short in names:
        k = keys[short]
        fuller = [n for n in names if len(keys[n]) > len(k) and keys[n][-len(k):] == k]
        if len(fuller) != 1 or not k:
            continue
        full = fuller[0].lower()
        inside = [(m.start(), m.end()) for m in re.finditer(re.escape(full), low)]
        alone = [m.start() for m in re.finditer(r"(?<![\w-])" + re.escape(short.lower()) + r"(?![\w])", low)
                 if not any(s <= m.start() < e for s, e in inside)]
        if not alone or not inside or inside[0][0] > alone[0]:
            continue
        if all((low[max(0, o - 12):o].split() or [""])[-1] in _DEFINITE for o in alone):
            out[short] = fuller[0]
    return out
