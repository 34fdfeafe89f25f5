"""Decisions said without arrows: the question box a condition clause asks.

A brief rarely names its decision boxes; it says the test in a clause: "if the overshoot exceeds 20 %,
the gains are halved", "if the straight segment to the waypoint is blocked, it generates a detour".
The rules build the box's question from the clause, only for three narrow shapes:

* a measure against a bound: "<the subject> exceeds / is above / is below <bound>", "<the subject>
  deviates / differs / drops / drifts by more than <bound>" -> "Overshoot > 20 %?", "Deviation > 1%?";
  a bound without a number is said in words: "it exceeds the state's threshold" -> "Above state's
  threshold?";
* a state: "<the subject> is / are <one word>" -> "Segment blocked?", "Pixels saturated?";
* after "if" only, a subject of one or two words and its one verb: "if invariance holds" -> "Invariance
  holds?"; a test said by its failing side is asked by its passing one ("if validation fails" ->
  "Validation passed?", "if the physicians disagree" -> "Physicians agree?"). ("when a run finishes" is
  an event that starts a step: no box.)

A clause whose subject is a pronoun ("if it is frozen", "if one exists") builds nothing: the thing it
tests is said elsewhere. The question box is added to the names (its "?" draws it as a diamond); its
branches are the names the consequence and the "otherwise" part say (see :func:`read_decisions`).
"""

from __future__ import annotations

import re
from bisect import bisect_right

from crafter.agents.labels import normalise_label, noun_by_ending
from crafter.agents.reading import BriefReading, find_word, rename_names

_BE = r"(?:is|are|was|were|has been|have been|becomes|become)"
_DET = r"(?:the|a|an|its|their|this|that|each|every|any|all|no|his|her)\s+"
# "if <condition>, <consequence>": the clause opens a sentence, follows a colon/semicolon or a comma
_COND = re.compile(r"(?:^|[.;:]\s+|,\s+|\(\w\)\s+)([Ii]f|[Ww]hen(?:ever)?)\s+([^,;.]{3,90}?),\s")
# the verb of a measure said as its noun: "deviates by more than 1%" -> "Deviation > 1%?"
_MEASURE_NOUNS = {"deviates": "Deviation", "differs": "Difference", "drops": "Drop", "falls": "Drop",
                  "rises": "Rise", "changes": "Change", "drifts": "Drift", "has drifted": "Drift"}
_COMPARE = ((r"(?:by\s+)?more than|above|over|exceeds|greater than|larger than", ">"),
            (r"(?:by\s+)?less than|below|under|smaller than", "<"))
# a test said by its failing side is asked by its passing one ("if validation fails" -> "Validation passed?")
_POSITIVE = {"fails": "passed", "failed": "passed", "fail": "pass", "disagree": "agree", "disagrees": "agrees"}
# a name that says the clause's test, not only its subject: its verb, its comparison or its bound ("Overshoot exceeds
# 20", "Above 30 cm"; not "Recomputed n", the subject of "if the recomputed n exceeds the plan", a box of its own)
_SAYS_TEST = re.compile(rf"(?i)\b(?:{_BE}|{'|'.join(_MEASURE_NOUNS)}|{_COMPARE[0][0]}|{_COMPARE[1][0]})\b|\d")
_PRONOUNS = frozenset({"it", "they", "one", "this", "that", "these", "those", "he", "she", "we", "you", "there"})
_PREPOSITION = re.compile(r"\s+(?:to|of|for|in|on|at|from|with|by)\s+")
# where the other branch starts: "…; otherwise …", "…; if not, …", "…, else …", "… . Otherwise …"
_OTHERWISE = re.compile(r"[;,]\s*(?:and\s+)?(?:otherwise|if not|else)\b|\.\s+Otherwise\b")
_SENTENCE_END = re.compile(r"\.(?:\s|$)")
_VALUE_TAIL = re.compile(r"\s+(?:anywhere|overall|at all|in total|versus\b.*|compared\b.*|relative to\b.*|than\b.*)$")


def decision_label(condition: str, opener: str = "if") -> tuple[str, str | None] | None:
    """The question a condition clause asks and the thing it tests, as the question opens on it ("the overshoot
    exceeds 20 %" -> ("Overshoot > 20 %?", "Overshoot"); "it exceeds the quota" -> ("Above quota?", None): the
    thing is said elsewhere), or None where the clause has none of the narrow shapes (see the module docstring)."""
    c = re.sub(r"\s+", " ", condition).strip()
    for words, op in _COMPARE:
        m = re.match(rf"(?:{_DET})?([\w\- ]+?)\s+(?:(has drifted|(?!(?:is|was|has)\b)\w+s)\s+)?"
                     rf"(?:{_BE}\s+)?(?:{words})\s+(?:{_DET})?(.+)$", c)
        if not m:
            continue
        subject, verb, bound = m.group(1), m.group(2), _VALUE_TAIL.sub("", m.group(3))
        subject = _PREPOSITION.split(subject)[0]
        if len(bound.split()) > 4 or len(subject.split()) > 3:
            return None  # a clause that runs on ("its pT is below 24 GeV the event is rejected …")
        pronoun = subject.split()[0].lower() in _PRONOUNS
        if pronoun and len(subject.split()) > 1:
            return None  # "they disagree by more than the tolerance": what is measured is not said
        if verb in _MEASURE_NOUNS:
            head = _MEASURE_NOUNS[verb]
        elif verb and verb != "exceeds":
            return None
        else:  # "the overlay is misaligned by more than 2 px": the word said of the subject is the measure
            said = re.search(rf"\s{_BE}\s+(\w+)$", subject)
            head = said.group(1).capitalize() if said else _head(subject)
        if not re.search(r"\d", bound):  # a bound in words: "the share is below the tolerance threshold"
            side = "above" if op == ">" else "below"
            if pronoun:
                return f"{side.capitalize()} {bound}?", None
            return f"{_head(subject)} {side} {bound}?", _head(subject)
        if pronoun:
            return None
        return f"{head} {op} {bound}?", head
    m = re.match(rf"(?:{_DET})?(.+?)\s+{_BE}\s+(?:not\s+)?(\w+)$", c)
    if not m:  # "if invariance holds", "if the physicians disagree": the subject and its one verb (not
        # "when a run finishes": an event that starts a step, no test)
        m = re.match(rf"(?:{_DET})?([\w\-]+(?: [\w\-]+)?)\s+((?!(?:is|are|was|were|has|have|does|do|did|can|not)\b)\w+)$", c)
        if not m or opener.lower() != "if":
            return None
    subject = _PREPOSITION.split(m.group(1))[0]
    if subject.split()[0].lower() in _PRONOUNS or len(subject.split()) > 3:
        return None
    return f"{_head(subject)} {_POSITIVE.get(m.group(2).lower(), m.group(2))}?", _head(subject)


def _head(subject: str) -> str:
    """The subject's last two words as the question's opening ("the fringe spacing" -> "Fringe spacing"); a
    word said as a modifier before them drops ("the estimated drift" -> "Drift", "the offspring's cell" -> "Cell"; not a
    noun ending like a participle: "the feed rate" -> "Feed rate")."""
    words = subject.split()[-2:]
    first = words[0].lower()
    if len(words) == 2 and (first.endswith(("'s", "’s")) or first in _PRONOUNS
                            or first.endswith("ed") and not noun_by_ending(first)):
        words = words[1:]
    head = " ".join(words)
    return head[0].upper() + head[1:]


def read_decisions(reading: BriefReading, text: str) -> None:
    """Add the question box of each condition clause with a narrow shape (see the module docstring),
    unless a name of that label is there already, and its branches: the first name the consequence
    says ("…, it generates a detour setpoint") and the first name after "otherwise" / "if not", each
    an arrow out of the question ("yes", "no"); an arrow that went into a branch ("the local planner
    -> detour setpoint") now goes into the question."""
    have = {normalise_label(n) for n in reading.entities}
    ends = [e.end() for e in _SENTENCE_END.finditer(text)]  # where the brief's sentences end
    for m in _COND.finditer(text):
        asked = decision_label(m.group(2), m.group(1))
        if not asked or (key := normalise_label(asked[0])) in have:
            continue
        label, subject = asked
        have.add(key)
        names = [n for n in reading.entities if normalise_label(n) != key]
        reading.entities.append(label)
        # the tested thing's own bare box ("Battery" beside "Battery < 20 %?"), linked to nothing and in no group, is
        # the question's: it goes; a bare box the clause itself made ("Overshoot exceeds 20") is the question
        held = {x for pair in reading.relations for x in pair} | {x for _, ms in reading.groups for x in ms}
        tested = normalise_label(subject) if subject is not None else None
        bare = [n for n in names if n not in held and normalise_label(n) == tested]
        clause = re.findall(r"\w+", m.group(2).lower())  # (by words: "250 °C" is read "250 C")
        inside = [n for n in names if n not in held and n not in bare and _SAYS_TEST.search(n)
                  and _runs_in(re.findall(r"\w+", n.lower()), clause)]
        if bare or inside:
            rename_names(reading, {**dict.fromkeys(bare), **dict.fromkeys(inside, label)})
            names = [n for n in names if n not in bare and n not in inside]
        said = bisect_right(ends, m.start())  # the sentence ends before the clause
        opened = ends[said - 1] if said else 0
        before = {n for n in names if 0 <= find_word(text, n, max(0, opened - 400), m.start())}
        end = _SENTENCE_END.search(text, m.end())
        stop = end.start() if end else len(text)
        other = _OTHERWISE.search(text, m.end(), stop + 12)
        yes = _first_said(names, text, m.end(), other.start() if other else stop)
        no = None
        if other:
            tail = _SENTENCE_END.search(text, other.end())
            no = _first_said(names, text, other.end(), tail.start() if tail else len(text))
        if no == yes:  # (one name on both sides is the consequence's)
            no = None
        for branch, word in ((yes, "yes"), (no, "no")):
            if branch is None:
                continue
            # (a branch said before the test is a loop back to it: its arrows in stay)
            into = [pair for pair in reading.relations if pair[1] == branch and pair[0] in before
                    and branch not in before]
            for pair in into:
                reading.relations.remove(pair)
                if (pair[0], label) not in reading.relations:
                    reading.relations.append((pair[0], label))
            reading.relations.append((label, branch))
            reading.edge_labels[(label, branch)] = word


def _runs_in(words: list[str], within: list[str]) -> bool:
    """``words`` said one after another somewhere in ``within``."""
    return bool(words) and any(within[i:i + len(words)] == words for i in range(len(within) - len(words) + 1))


def _first_said(names: list[str], text: str, start: int, stop: int) -> str | None:
    """The first name said in text[start:stop] that is not the clause's subject (what the branch does or
    reaches, not who does it: "the night is flagged for manual review"; the subject where nothing else
    is said), or None."""
    found = sorted((at, -len(n), n) for n in names if 0 <= (at := find_word(text, n, start, stop)))
    if len(found) > 1 and re.fullmatch(rf"\s*(?:{_DET})?", text[start:found[0][0]], re.I):
        found = found[1:]
    return found[0][2] if found else None
