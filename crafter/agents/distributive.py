"""Two things said with one head noun: "the lidar and camera drivers", "the top and bottom PMT arrays", "ablating HfO2
and ZrO2 targets". Two one-word modifiers joined by "and" / "or" before a plural head are two boxes, each modifier with
the head ("Lidar drivers", "Camera drivers"); a box the reader made of the second alone with the head ("Camera
drivers") is the second of them, and the first takes its links and groups too; a box of a modifier alone ("Top") that
the brief says only in such a pair is that pair's box.
"""

from __future__ import annotations

import re

from crafter.agents.prose_words import _FUNCTION_WORDS, _NOUNISH_VERBS, verb_lemma
from crafter.agents.reading import BriefReading, box_key, name_pattern, rename_names

_SHARED_HEAD = re.compile(
    r"\b(?P<before>the|its|their|both|all|[a-z]+ing|[a-z]+s)\s+(?P<a>[\w+-]+)\s+(?:and|or)\s+(?P<b>[\w+-]+)\s+"
    r"(?P<head>(?:[\w+-]+\s+)?[a-z][a-z-]{2,}[^su\W]s)\b(?=\s*(?:[,.;:)]|$|\s+(?:[a-z]+s|are|were|is|run|record|"
    r"share|feed|write|send|read|with|from|to|into|in|on|of|for|at|behind|and)\b))", re.I)


def _modifier(word: str) -> bool:
    """A word that can qualify a head ("lidar", "top", "HfO2"): no function word, no verb, no "-ly" adverb."""
    low = word.lower()
    if low in _FUNCTION_WORDS or low.endswith(("ly", "ed")) or not re.search(r"[^\W\d_]", word) \
            or re.fullmatch(r"[a-z-]{3,}[^su]s", low):
        return False  # "negated and hypothetical mentions", "on demand and pre-boots sandboxes": no pair of names
    return re.search(r"[A-Z0-9]", word) is not None or not verb_lemma(low) or low in _NOUNISH_VERBS


def read_shared_heads(reading: BriefReading, text: str) -> None:
    """Adds to ``reading`` the two boxes every "A and B heads" says (see the module docstring)."""
    known = {box_key(e): e for e in reading.entities}
    bare: dict[str, str] = {}  # a modifier read as a box of its own ("Top") -> the pair's box it opens
    for m in _SHARED_HEAD.finditer(text):
        a, b, head = m.group("a"), m.group("b"), m.group("head")
        last = head.split()[-1].lower()
        if not (_modifier(a) and _modifier(b)) or m.group("before").lower() in ("is", "was", "has", "this") \
                or verb_lemma(last) and last not in _NOUNISH_VERBS:
            continue  # ("workers and computation proceeds": a verb, no head)
        names = [f"{w[:1].upper()}{w[1:]} {head}" if not re.search(r"[A-Z]", w[1:]) else f"{w} {head}" for w in (a, b)]
        second = known.get(box_key(f"{b} {head}"))
        for word, name in zip((a, b), names):
            if box_key(name) not in known:
                known[box_key(name)] = name
                reading.entities.append(name)
            alone = known.get(box_key(word))
            if alone is not None and all(any(p.start() <= w.start() < p.end() for p in _SHARED_HEAD.finditer(text))
                                         for w in name_pattern(word).finditer(text)):
                bare[alone] = known[box_key(name)]  # "Top", said only in "the top and bottom PMT arrays"
        if second is not None:  # the first takes the second's links and groups
            first = known[box_key(names[0])]
            reading.relations += [(first if x == second else x, first if y == second else y)
                                  for x, y in reading.relations if second in (x, y)]
            reading.groups = [(g, ms + [first] if second in ms and first not in ms else ms) for g, ms in reading.groups]
    if bare:
        rename_names(reading, bare)
