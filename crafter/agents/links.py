"""Links read between names already known: once the boxes are chosen (the rules' names, or a name head's that replaced
them), each sentence is read as the names it says, in order, and the words between two of them. Names joined by
"," / "and" / "or" are one list; a flow verb, an arrow or "from … to" between two lists links every name of the
first to every name of the second ("A and B are passed to C"); a verb that reads backward ("C receives … from A",
"B is produced by A") links them the other way. A sentence that opens on a name that acts ("SQANTI3 then
classifies each isoform") continues from the last name the sentence before said, where neither is linked that way
yet ("… collapsed into unique isoforms by isoseq collapse; SQANTI3 then classifies …").

Measured on the dev briefs' plans alone (nodes / edges / groups F1): rules 0.5923 / 0.2446 / 0.4273 -> 0.5923 /
0.2464 / 0.4273; rules with the name head's names 0.6363 / 0.2366 / 0.4315 -> 0.6363 / 0.2410 / 0.4315. (Any line
opening on a list mark continuing from the line before as well: 0.2406 with the head, parallel items chained.)

A sentence that opens on words pointing back to the sentence before ("Its output feeds the decoder", "Annotated
variants go to the classifier", "Both feature sets feed …") links what they point at to the first name it says
(:mod:`crafter.agents.references`).

A send or a store said in the passive ("are written to", "is archived in") or with a pronoun object ("writes them to")
is a forward flow, with the verbs :mod:`crafter.agents.targets` reads a flow's end by (round 17, with those ends as
boxes: rules on dev edges 0.2476 -> 0.2495 at that step; round 17's passes together 0.2472 -> 0.2482).

Round 18: a sentence's clauses said one after another, each opening on a name that acts ("a camera images each line,
a CNN estimates its width, and a PI controller corrects the extruder"), link subject to subject
(:mod:`crafter.agents.clauses`), with the guards of the sentence continuation above (the next subject no target yet,
the one before no source yet). Dev plans alone, rules edges 0.2482 -> 0.2491 (one brief), rules with the head's
names unchanged (0.2402); train rules 0.1803 -> 0.1803 (two briefs down by 0.007 and 0.010).

", after which" hands on like "then" ("bins them with MetaBAT2, after which CheckM2 scores each bin"; round 21, dev
plans alone edges 0.2714 -> 0.2729, two briefs, no false link).

Round 24: a sentence opening on a name of data said nowhere else, a plural of two or three plain words ("… after
which bids-validator checks the dataset. Invalid datasets are reported to the data manager"), that hands it on
(:func:`crafter.agents.references.pointing_back`) is the arrow's words, not a box: the name the sentence before hands
on feeds the next name, the phrase its label, and the phrase's box and links go (:func:`_data_reference`). Not where
a branch for the others follows ("Confirmed events are submitted to NHSN; rejected ones are only logged": a decision's
branch, which a box of that name stands for). Dev plans alone nodes / edges / groups 0.6437 / 0.2807 / 0.4745 ->
0.6442 / 0.2811 / 0.4745 (2 briefs, false boxes and links gone); train 0.5317 / 0.2007 / 0.2627 -> 0.5325 / 0.2016 /
0.2627 (24 briefs). Not a single word ("The embeddings pass through …") nor a thing from outside ("Incoming jobs are
queued by the scheduler").

A link the reading already has, either way round, stays as it is; a link said negated ("A never writes to B") is
not drawn.
"""

from __future__ import annotations

import re

from crafter.agents.clauses import OPENS, acts, clause_steps
from crafter.agents.labels import labels_match
from crafter.agents.reading import SENTENCE_SPLIT, BriefReading, name_pattern, plain_plural, rename_names
from crafter.agents.references import made_by, pointed_to, pointing_back, possessive, referents
from crafter.agents.targets import ACTIVE_SEND, SEND, STORE

_ARROW = re.compile(r"->|→|⟶|⇒|=>|➔|➜|⟹")

# Flow verbs: "left <verb> right" means an edge left -> right (forward) or right -> left (backward).
_FORWARD = [  # ("followed by": :func:`crafter.agents.reading.read_followed_by`, which knows an amount is no step)
    r"(?:is|are)\s+(?:then\s+)?(?:connected|linked)\s+to",
    r"feeds?\s+(?:in)?to", r"feeds", r"feed",
    r"pass(?:es)?\s+(?:[\w-]+\s+){0,2}?(?:on\s+)?(?:in)?to", r"sends?\s+(?:[\w-]+\s+){0,2}?to",
    r"returns?\s+(?:[\w-]+\s+){0,2}?to", r"provides?\s+(?:[\w-]+\s+){0,2}?to",
    r"goes\s+(?:in)?to", r"go\s+(?:in)?to", r"flows?\s+(?:in)?to", r"leads?\s+to", r"connects?\s+to",
    r"outputs?\s+(?:in)?to", r"writes?\s+(?:in)?to", r"forwards?\s+(?:it\s+|them\s+)?to",
    rf"(?:is|are)\s+(?:then\s+)?{SEND}\s+(?:back\s+|on\s+)?(?:in)?to",  # (the verbs of :mod:`crafter.agents.targets`)
    rf"(?:is|are)\s+(?:then\s+)?(?:{STORE}|written|indexed|loaded)\s+in(?:to)?",
    rf"{ACTIVE_SEND}\s+(?:it|them)\s+(?:back\s+)?(?:in)?to",
    r"produces?", r"generates?", r"yields?", r"emits?", r"then", r"after\s+which", r"enters?", r"updates?", r"calls?",
    r"triggers?", r"informs?", r"drives?", r"supervises?", r"controls?",
]
_BACKWARD = [
    r"receives?\s+(?:\w+\s+)?from", r"reads?\s+from", r"takes?\s+(?:\w+\s+)?from", r"comes?\s+from",
    r"(?:is|are)\s+(?:then\s+)?(?:produced|generated|computed|derived|built)\s+(?:by|from)", r"depends?\s+on",
]
_CONNECTOR = re.compile("|".join([f"(?P<f{i}>\\b{p}\\b)" for i, p in enumerate(_FORWARD)]
                                 + [f"(?P<b{i}>\\b{p}\\b)" for i, p in enumerate(_BACKWARD)]), re.I)
_JOIN = re.compile(r"\s*(?:,|\band\b|\bor\b|&|\+|/)?\s*(?:\b(?:the|a|an|both)\s+)?", re.I)
_FROM = re.compile(r"\bfrom\s+(?:the\s+|a\s+|an\s+)?$", re.I)
_TO = re.compile(r"^\s*(?:to|into|towards)\s+(?:the\s+|a\s+|an\s+)?$", re.I)
_CLAUSE_BREAK = re.compile(r"\b(?:while|whereas|but|although|unless|if|when|whose)\b|[:()]", re.I)
_MAX_BETWEEN_WORDS = 8
_OTHERS = r"[^.;]*[;,]\s*(?:the\s+)?(?:[a-z-]+\s+ones|others|rest)\b"  # "…; rejected ones …"
_NEW = {"incoming", "new", "raw", "input", "external", "initial", "user", "fresh"}  # things from outside, no referent
_NEXT_VERB = re.compile(r"\s*,?\s*(?:and|or|but)\b", re.I)


def _patterns(names: list[str]) -> list[tuple[re.Pattern, str]]:
    """Each name's pattern (:func:`~crafter.agents.reading.name_pattern`: whole words, a plural allowed but for a
    name of one or two letters, "A" never said in "As"), compiled once for all the sentences of a brief."""
    return [(name_pattern(n, hyphen_ends=False), n) for n in names if n.strip()]


def _mentions(sentence: str, names: list[tuple[re.Pattern, str]]) -> list[tuple[int, int, str]]:
    """Where the names (:func:`_patterns`) are said in a sentence, the longest first, none overlapping."""
    spots = sorted(((m.start(), m.end(), n) for pat, n in names for m in pat.finditer(sentence)),
                   key=lambda s: (s[0], s[0] - s[1]))
    out: list[tuple[int, int, str]] = []
    for s in spots:
        if not out or s[0] >= out[-1][1]:
            out.append(s)
    return out


def _direction(before: str, between: str) -> int:
    """1 where the words between two lists say the first feeds the second, -1 the other way, 0 neither."""
    if len(between.split()) > _MAX_BETWEEN_WORDS or _CLAUSE_BREAK.search(between):
        return 0
    if _NEXT_VERB.match(between):
        return 0  # "the reader takes the passages and produces an answer": the subject's second verb, not theirs
    if len(_ARROW.findall(between)) > 1:
        return 0  # "app.o + libfoo.a → ld → executable": a step between, whether or not it is a name
    if _ARROW.search(between) or _FROM.search(before) and _TO.match(between):
        return 1
    m = _CONNECTOR.search(between)
    if m is None:
        return 0
    return -1 if (m.lastgroup or "").startswith("b") else 1


def sentence_links(sentence: str, names: list[str]) -> list[tuple[str, str]]:
    """The links one sentence says between ``names`` (source first)."""
    return _links_between(sentence, _mentions(sentence, _patterns(names)))


def _links_between(sentence: str, spots: list[tuple[int, int, str]]) -> list[tuple[str, str]]:
    lists: list[tuple[int, int, list[str]]] = []  # (start, end, names) of names joined by "," / "and" / "or"
    for start, end, n in spots:
        if lists and _JOIN.fullmatch(sentence[lists[-1][1]:start]):
            lists[-1] = (lists[-1][0], end, lists[-1][2] + [n])
        else:
            lists.append((start, end, [n]))
    out: list[tuple[str, str]] = []
    prev_end = 0
    for (s1, e1, xs), (s2, _, ys) in zip(lists, lists[1:]):
        way = _direction(sentence[prev_end:s1], sentence[e1:s2])
        prev_end = e1
        if way:
            out += [(a, b) if way > 0 else (b, a) for a in xs for b in ys if a != b]
    return out


def read_links(text: str, reading: BriefReading) -> None:
    """Adds to ``reading`` the links its names' sentences say (see the module docstring)."""
    linked = {frozenset(p) for p in reading.relations}

    def add(a: str, b: str) -> None:
        if frozenset((a, b)) in linked or any(labels_match(a, x) and labels_match(b, y) or labels_match(a, y)
                                              and labels_match(b, x) for x, y in reading.negated):
            return
        linked.add(frozenset((a, b)))
        reading.relations.append((a, b))

    def continue_to(a: str, b: str) -> None:
        """A step going on from ``a`` to ``b``, where ``a`` feeds nothing yet (``b`` may be fed already: "The config
        service feeds the worker pool. Jobs are queued by the scheduler. The worker pool then writes …"; round 21,
        dev plans alone edges 0.2709 -> 0.2714, train 0.1858 -> 0.1867, 2 and 9 right of 11 and 45 new)."""
        if not any(s == a for s, _ in reading.relations):
            add(a, b)

    names = _patterns(reading.entities)
    dropped: set[str] = set()
    last: str | None = None
    before: tuple[str, list[tuple[int, int, str]]] = ("", [])  # the sentence before, and where it says its names
    for sentence in SENTENCE_SPLIT.split(_ARROW.sub(" -> ", text)):
        spots = _mentions(sentence, names)
        for a, b in _links_between(sentence, spots):
            add(a, b)
        target, count = pointed_to(sentence, spots) if "->" not in sentence else (None, None)
        data = _data_reference(sentence, spots, text, before)
        if data is not None:
            said, target, sources = data
            dropped.add(said)
            for a in sources:
                if a != target:
                    add(a, target)
                    reading.edge_labels.setdefault((a, target), said)
        for a in referents(*before, count, made_by(sentence), possessive(sentence)) if target and count else []:
            if a != target:
                add(a, target)
        if last and spots and OPENS.fullmatch(sentence[:spots[0][0]]) and spots[0][2] != last \
                and acts(sentence[spots[0][1]:]):
            continue_to(last, spots[0][2])  # "… collapsed by isoseq collapse; SQANTI3 then classifies …"
        for a, b in clause_steps(sentence, spots):  # "a camera images each line, a CNN estimates its width, …"
            continue_to(a, b)
        said = {n for _, _, n in spots}
        negated = any(any(labels_match(n, x) for n in said) and any(labels_match(n, y) for n in said)
                      for x, y in reading.negated)
        # (a sentence saying a link is not there continues nothing: "A never writes to B. C calls A" is no B -> C)
        last = spots[-1][2] if spots and not negated else None
        before = (sentence, spots if not negated else [])
    if dropped:  # (the data's name is the arrow's words, no box)
        rename_names(reading, dict.fromkeys(dropped))


def _data_reference(sentence: str, spots: list[tuple[int, int, str]], text: str,
                    before: tuple[str, list[tuple[int, int, str]]]) -> tuple[str, str, list[str]] | None:
    """A sentence opening on a name of the data the sentence before made, said nowhere else, that hands it on to
    the next name ("… after which bids-validator checks the dataset. Invalid datasets are reported to the data
    manager"): (that name, the next name, what made it), the name no box but the arrow's words."""
    if len(spots) < 2 or not OPENS.fullmatch(sentence[:spots[0][0]]):
        return None
    name = spots[0][2]
    words = name.split()
    if not (2 <= len(words) <= 3) or words[0].lower() in _NEW or not plain_plural(words[-1]) \
            or any(re.search(r"[\d_$]|[A-Z].*[A-Z]", w) for w in words):
        return None  # "Invalid datasets", "Clean reads"; not "Kafka brokers", "CNN scores", "The resulting analysis"
    if len(name_pattern(name[:-1]).findall(text)) != 1:
        return None  # a thing said again is a box ("the new run folder. Run folders are archived by …")
    if re.search(re.escape(name) + _OTHERS, text, re.I):
        return None  # "Confirmed events are submitted to NHSN; rejected ones are only logged": a decision's branch
    if pointing_back(sentence[:spots[1][0]]) != 1:
        return None
    sources = referents(*before, 1)
    return (name, spots[1][2], sources) if sources else None
