"""Steps a methods paragraph says as a chain of passive verbs: "brains are dehydrated through a methanol series,
delipidated in dichloromethane and matched in dibenzyl ether", "the other is dissociated, labelled with MULTI-seq
barcodes and pooled with all other wells". Each verb of the chain is a step of the figure, named as the figure names a
step, by its process noun ("Dehydration", "Delipidation", "Matching": :func:`crafter.agents.phrases.participle_noun`), each
step feeding the next, and the thing they are done to (a box already, said just before the chain) feeding the first.

Only a chain of two verbs or more, each a regular past participle that the connective ("," / "and" / ", then")
puts straight after the one before, and each followed by a preposition, an adverb or the clause's end ("matched in",
not "and matched pairs are kept"); one passive ("is used for", "are stored in S3") is a remark, not a protocol, and
verbs that say how a thing is, not what is done to it ("based", "needed", "shown"), are never steps.
"""

from __future__ import annotations

import re

from crafter.agents.labels import normalise_label
from crafter.agents.phrases import participle_noun
from crafter.agents.prose_words import _PREPS
from crafter.agents.reading import SENTENCE_SPLIT, BriefReading, box_key, name_pattern

_MIN_STEPS = 2
# participles that say how a thing is or what it is for, never a step done to it
_STATIVE = {"based", "needed", "required", "used", "shown", "called", "named", "known", "related", "allowed",
            "expected", "designed", "intended", "supposed", "considered", "assumed", "compared", "reported",
            "described", "defined", "fixed", "tied", "limited", "kept", "left", "dropped", "discarded", "ignored",
            "rejected", "repeated", "stored", "saved", "added", "included", "excluded", "provided", "given", "passed",
            "sent", "fed", "shared", "placed", "located", "connected", "linked", "attached", "followed", "preceded",
            "replaced", "returned", "exposed", "needed", "published", "released", "accepted", "received"}
_PARTICIPLE = r"(?:re-)?[a-z]{3,}(?<!e)ed|[a-z]{2,}(?<=[^aeiou])ied"  # "dehydrated", "re-plated", "purified"
_ADVERB = r"(?:[a-z]{3,}ly|then|also|first|again|each|individually|separately)"
_FIRST = re.compile(rf"\b(?:is|are|was|were)\s+(?:{_ADVERB}\s+)?(?P<verb>{_PARTICIPLE})\b")
_NEXT = re.compile(rf"(?:,\s*(?:and\s+|then\s+|and\s+then\s+)?|\s+and\s+(?:then\s+)?)(?:{_ADVERB}\s+)?"
                   rf"(?P<verb>{_PARTICIPLE})(?=\s+(?:{'|'.join(sorted(_PREPS))}|{_ADVERB})\b|\s+[a-z]+-[a-z]+\s*[,;.]|\s*[,;.()]|\s*$)")
_TO_OR_BY = re.compile(r"\s+(?:[a-z]+ly\s+)?(?:by|to|into|onto)\s+(?:(?:the|a|an|its|their|each)\s+)?", re.I)
_CLAUSE_END = re.compile(r"[;:]|,\s*(?:which|where|while|whereas|whose|so|but)\b|\s(?:while|whereas|before|after|"
                         r"until|once|if|when)\s")


def _chain(sentence: str) -> tuple[int, list[tuple[str, int]]]:
    """Where a passive chain starts in ``sentence`` (its auxiliary) and its participles with where each ends, or
    (-1, [])."""
    for m in _FIRST.finditer(sentence):
        verbs, at = [(m.group("verb"), m.end())], m.end()
        while True:
            rest = sentence[at:]
            stop = _CLAUSE_END.search(rest)
            window = rest[: stop.start()] if stop else rest
            nxt = None
            for cand in _NEXT.finditer(window):
                between = window[:cand.start()]
                if re.search(r"\b(?:is|are|was|were|we|it|they)\b", between):
                    break  # a new clause before the verb: another subject's
                nxt = cand
                break
            if nxt is None:
                break
            verbs.append((nxt.group("verb"), at + nxt.end()))
            at += nxt.end()
        verbs = [(v, end) for v, end in verbs if v.lower() not in _STATIVE]
        if len(verbs) >= _MIN_STEPS:
            return m.start(), verbs
    return -1, []


def read_passive_steps(reading: BriefReading, text: str) -> None:
    """Adds to ``reading`` the steps of every passive chain (see the module docstring), linked in their order, the
    box said just before the chain (its subject) linked to the first."""
    for sentence in SENTENCE_SPLIT.split(text):
        start, verbs = _chain(sentence)
        if start < 0:
            continue
        keys = {box_key(e): e for e in reading.entities}
        done_by = [v for v, end in verbs if _by_a_box(reading, sentence[end:])]
        if len(verbs) - len(done_by) < _MIN_STEPS:
            continue
        steps: list[str] = []
        for v, _ in verbs:
            if v in done_by:
                continue
            label = participle_noun(v)
            label = label[:1].upper() + label[1:]
            name = keys.get(box_key(label))
            if name is None:
                reading.entities.append(label)
                keys[box_key(label)] = name = label
            if name not in steps:
                steps.append(name)
        subject = _subject(reading, sentence[:start])
        for a, b in zip([subject, *steps], steps):
            if a is not None and a != b and (a, b) not in reading.relations:
                reading.relations.append((a, b))


def _by_a_box(reading: BriefReading, after: str) -> bool:
    """Whether the words after a participle send the thing to a box or name the box that does it ("appended to the
    write-ahead log", "assembled by the event builder"): that box's work, drawn as the box, no step."""
    m = _TO_OR_BY.match(after)
    return m is not None and any(name_pattern(e).match(after, m.end()) for e in reading.entities)


def _subject(reading: BriefReading, before: str) -> str | None:
    """The box whose name ends the words before a chain's auxiliary ("the sieved composites are …")."""
    tail = before.rstrip()
    best = None
    for e in reading.entities:
        m = None
        for m in name_pattern(e).finditer(tail):
            pass
        if m is not None and not tail[m.end():].strip() and (best is None or len(normalise_label(e)) >
                                                               len(normalise_label(best))):
            best = e
    return best
