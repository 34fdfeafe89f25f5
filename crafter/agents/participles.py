"""Steps a methods paragraph says as a chain of passive verbs: "brains are dehydrated through a methanol series,
delipidated in dichloromethane and matched in dibenzyl ether", "the other is dissociated, labelled with MULTI-seq
barcodes and pooled with all other wells". Each verb of the chain is a step of the figure, named as the figure names a
step, by its process noun ("Dehydration", "Delipidation", "Matching": :func:`crafter.agents.phrases.participle_noun`), each
step feeding the next, and the thing they are done to (a box already, said just before the chain) feeding the first.

Only a chain of two verbs or more, each a regular past participle that the connective ("," / "and" / ", then")
puts after the one before and its words, with no new clause between, and each followed by a preposition, an adverb,
"and" or the clause's end ("matched in", "washed, resuspended and counted"; not "and matched pairs are kept"); one
passive ("is used for", "are stored in S3") is a remark, not a protocol, and verbs that say how a thing is, not what
is done to it ("based", "needed", "compared"), or that name no step ("added", "placed"), are never steps; nor is a
verb that hands the thing to a box or names the box doing it ("appended to the node's write-ahead log", "assembled by
the event builder"): that box's work, drawn as the box.

The same chain said in the first person: "we spin-coat a SnO2 layer and anneal it at 150 °C", "we translate the
training set into 40 languages, project the entity spans onto each translation and fine-tune XLM-R" (steps
"SnO2 spin-coating", "Annealing"; "Translation", "Projection", "Fine-tuning"): after "we", a verb in its plain form,
then each verb that a connective puts straight after the one before's words, with its object after it (a
determiner, a pronoun, a number or a name: "anneal it", "merge them with …", "deposit Spiro-OMeTAD"). What the
writers did, not what the method does ("we present", "we chose", "we did not") is no step.
"""

from __future__ import annotations

import re

from crafter.agents.labels import normalise_label
from crafter.agents.phrases import _VAGUE_VERBS, nominal, participle_noun
from crafter.agents.prose_words import _FUNCTION_WORDS, _PREPS, IRREGULAR_PAST
from crafter.agents.reading import SENTENCE_SPLIT, BriefReading, box_key, name_pattern

_MIN_STEPS = 2
# participles that say how a thing is or what it is for, never a step done to it (regular ones only: "kept", "shown"
# are no _PARTICIPLE), and those of the verbs that name no step (phrases._VAGUE_VERBS: "added", "placed", "repeated")
_STATIVE = {"based", "needed", "required", "used", "called", "named", "related", "expected", "designed", "intended",
            "supposed", "considered", "assumed", "compared", "reported", "described", "defined", "fixed", "limited",
            "dropped", "discarded", "ignored", "rejected", "stored", "saved", "included", "excluded", "provided",
            "passed", "shared", "located", "connected", "linked", "attached", "followed", "preceded", "replaced",
            "returned", "exposed", "published", "released", "accepted", "received", "looked", "pulled"} \
    | {v + ("d" if v.endswith("e") else "ed") for v in _VAGUE_VERBS}
_PARTICIPLE = r"(?:re-)?[a-z]{3,}(?<!e)ed|[a-z]{2,}(?<=[^aeiou])ied"  # "dehydrated", "re-plated", "purified"
_ADVERB = r"(?:[a-z]{3,}ly|then|also|first|again|each|individually|separately)"
_FIRST = re.compile(rf"\b(?:is|are|was|were)\s+(?:{_ADVERB}\s+)?(?P<verb>{_PARTICIPLE})\b")
_NEXT = re.compile(rf"(?:,\s*(?:and\s+|then\s+|and\s+then\s+)?|\s+and\s+(?:then\s+)?)(?:{_ADVERB}\s+)?"
                   rf"(?P<verb>{_PARTICIPLE})(?=\s+(?:{'|'.join(sorted(_PREPS))}|{_ADVERB})\b|\s+[a-z]+-[a-z]+\s*[,;.]|\s*[,;.()]|\s+and\b|\s*$)")
_OBJECT = r"(?:(?:the|a|an|its|their|each|every|it|them|these|those|all)\b|\d|[A-Z])"
_NAME_WORD = r"(?:(?:the|a|an)\s+)?(?P<obj>[A-Za-z]*(?:[A-Z][a-z]*[A-Z0-9]|\d[A-Za-z])[\w-]*)?"  # "SnO2", "FAPbI3"
_WE = re.compile(rf"\b[Ww]e\s+(?:{_ADVERB}\s+)?(?P<verb>[a-z]{{3,}}(?:-[a-z]+)?)\s+(?={_OBJECT}){_NAME_WORD}")
_OUR_NEXT = re.compile(rf"(?:,\s*(?:and\s+)?|\s+and\s+)(?:then\s+)?(?P<verb>[a-z]{{3,}}(?:-[a-z]+)?)\s+(?={_OBJECT})"
                       rf"{_NAME_WORD}")
# what the writers did, not a step of the method ("we present", "we chose", "we did not")
_NOT_OURS = {"present", "describe", "propose", "introduce", "build", "implement", "deploy", "run", "use", "chose",
             "choose", "did", "do", "does", "have", "has", "had", "can", "cannot", "will", "would", "may", "might",
             "must", "should", "could", "are", "were", "was", "find", "found", "show", "observe", "call", "name",
             "define", "assume", "consider", "want", "need", "avoid", "split", "train", "distil", "distill", "compare",
             "report", "study", "evaluate", "test", "design", "ask", "take", "make", "get", "go", "instead", "then",
             "also", "not", "never", "apply"} | _VAGUE_VERBS  # ("we add", "we let", "we note": no step either)
_TO_OR_BY = re.compile(r"\s+(?:[a-z]+ly\s+)?(?:by|to|into|onto)\s+(?:(?:the|a|an|its|their|each)\s+)?", re.I)
_MODIFIER = re.compile(r"[\w-]+(?:'s)?\s+")  # ("to the replica's change log", "to the same image x")
_NEW_CLAUSE = re.compile(r"\b(?:is|are|was|were|we|it|they)\b")
_CLAUSE_END = re.compile(r";|:\s|,\s*(?:which|where|while|whereas|whose|so|but)\b|\s(?:while|whereas|"
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
            nxt = _NEXT.search(window)
            if nxt is None or _NEW_CLAUSE.search(window[:nxt.start()]):
                break  # (a new clause before the verb: another subject's)
            verbs.append((nxt.group("verb"), at + nxt.end()))
            at += nxt.end()
        verbs = [(v, end) for v, end in verbs if v.lower() not in _STATIVE]
        if len(verbs) >= _MIN_STEPS:
            return m.start(), verbs
    return -1, []


# the verbs that open no first-person chain, and those that continue none (the sets joined once, not per verb)
_NO_LEAD = _NOT_OURS | IRREGULAR_PAST
_NO_NEXT = _NO_LEAD | _FUNCTION_WORDS


def _our_chain(sentence: str) -> list[tuple[str, str]]:
    """The verbs of a first-person chain in ``sentence`` (see the module docstring), each with the name-like word
    that opens its object ("SnO2" in "spin-coat a SnO2 layer", else ""), or []."""
    m = _WE.search(sentence)
    if m is None or m.group("verb").lower() in _NO_LEAD or m.group("verb").lower().endswith("ed"):
        return []  # (a past form, "we built a prototype and ran it": what the writers did)
    stop = _CLAUSE_END.search(sentence, m.end())
    window = sentence[m.start(): stop.start() if stop else len(sentence)]
    verbs = [(m.group("verb"), m.group("obj") or "")]
    verbs += [(n.group("verb"), n.group("obj") or "") for n in _OUR_NEXT.finditer(window, m.end() - m.start())
              if n.group("verb").lower() not in _NO_NEXT
              and not n.group("verb").lower().endswith(("ing", "ed"))]  # ("following Kleppmann": no verb of ours)
    return verbs if len(verbs) >= _MIN_STEPS else []


def read_verb_steps(reading: BriefReading, text: str) -> None:
    """Adds to ``reading`` the steps of every passive or first-person chain (see the module docstring), linked in
    their order, the box said just before a passive chain (its subject) linked to the first."""
    for sentence in SENTENCE_SPLIT.split(text):
        start, verbs = _chain(sentence)
        if start >= 0:
            done_by = [v for v, end in verbs if _by_a_box(reading, sentence[end:])]
            if len(verbs) - len(done_by) >= _MIN_STEPS:
                _add_steps(reading, [(participle_noun(v), "") for v, _ in verbs if v not in done_by],
                           _subject(reading, sentence[:start]))
        ours = _our_chain(sentence)
        if ours:
            _add_steps(reading, [(nominal(v), obj) for v, obj in ours], None)


def _add_steps(reading: BriefReading, steps: list[tuple[str, str]], subject: str | None) -> None:
    """Each step (its process noun and a name its object opens with) a box, one after another from ``subject``: a step
    said before under the same noun is named by its object too ("FAPbI3 spin-coating" after "Spin-coating"), or
    is that step where its object names none."""
    keys = {box_key(e): e for e in reading.entities}
    names: list[str] = []
    for noun, obj in steps:
        label = noun[:1].upper() + noun[1:]
        if box_key(label) in keys and obj:
            label = f"{obj} {noun}"
        name = keys.get(box_key(label))
        if name is None:
            reading.entities.append(label)
            keys[box_key(label)] = name = label
        if name not in names:
            names.append(name)
    for a, b in zip([subject, *names], names):
        if a is not None and a != b and (a, b) not in reading.relations:
            reading.relations.append((a, b))


def _by_a_box(reading: BriefReading, after: str) -> bool:
    """Whether the words after a participle send the thing to a box or name the box that does it ("appended to the
    write-ahead log", "assembled by the event builder"): that box's work, drawn as the box, no step."""
    after = re.sub(r"(?<=\w)'s\b|\$", "", after)  # ("to the replica's change log", "to the image $x$")
    m = _TO_OR_BY.match(after)
    if m is None:
        return False
    starts = [m.end()]
    for _ in range(2):  # a box name after up to two words that qualify it
        w = _MODIFIER.match(after, starts[-1])
        if w is None or w.group().split("'")[0].strip().lower() in _FUNCTION_WORDS:
            break
        starts.append(w.end())
    return any(name_pattern(e).match(after, at) for e in reading.entities for at in starts)


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
