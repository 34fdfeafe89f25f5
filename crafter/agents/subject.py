"""Names that say what a figure is about, not a box in it. The system a brief describes: a README opens on its
tool's name ("`cohortkit` builds study cohorts …", "metaflow is a Nextflow pipeline …"), a paper's method
paragraph says "We present FedLite, in which the server …"; the boxes are the system's parts, its name titles the
figure. A count of its parts: "the ETL tier has two layers", "Preprocessing holds two modules", "these two steps",
"both paths": a plural said only after a number or "both" gathers boxes the brief names one by one. A generic
noun alone and linked to nothing: "brings the code to the data", "its output does not gate trimming". An opening
common noun is no system: "client sends a request to the server" draws the client.
"""

from __future__ import annotations

import re

from crafter.agents.prose import verb_lemma
from crafter.agents.reading import BriefReading, box_key

# a name as code writes it, lower case or in backticks, opening the brief as the subject of its first verb
_OPENING = re.compile(r"\s*(?:`(?P<code>[^`\s]{2,40})`|(?P<low>[a-z][a-z0-9]*(?:[-_.][a-z0-9]+)*))\s+(?P<verb>[a-z]+)\b")
_COUNT_WORD = r"(?<![\w-])(?:two|three|four|five|six|seven|eight|nine|ten|both|these|those|all|several|\d+)\s+"
_COUNT = re.compile(r"(?i)" + _COUNT_WORD + r"(?:[\w-]+\s+)?$")  # "two layers", "these two steps", "two separate"
_HAS_COUNT = re.compile(r"(?i)\b(?:has|have|holds?|contains?|comprises?|into|through)\s+" + _COUNT_WORD
                        + r"(?:[\w-]+\s+)?$")
_COUNTED = re.compile(r"(?i)^(?:two|three|four|five|six|seven|eight|nine|ten|both|all|several)\s+(?=\S)")
# a word said only as what something is: "while violations are still found", "if one is found, …"
_PREDICATE = re.compile(r"(?i)\b(?:is|are|was|were|be|been|being)\s+(?:(?:still|then|also|not|never|only|now|"
                        r"already|again|finally|first|[a-z]+ly)\s+)?$")
_ADVERB = re.compile(r"(?i)^(?:still|then|also|not|never|only|now|already|again|finally|first|[a-z]+ly)$")
_PARTICIPLE = re.compile(r"(?i)^(?:[a-z][a-z-]*(?:ed|en|wn)|found|done|run|set|put|kept|held|sent|made|built)$")
GENERIC_NOUNS = {"data", "input", "inputs", "output", "outputs", "result", "results", "pipeline", "sample", "samples"}
# one word a reader may take for a name that names nothing drawn: a pronoun-like "rest", an adverb, a count, a modal,
# a bare order ("the rest are discarded", "measured in parallel", "during training", "-> None", "can be answered")
_NO_THING = {"rest", "parallel", "there", "here", "during", "none", "obtain", "two", "three", "four", "can", "must",
             "may", "still", "straight", "yes", "no"}
_PRESENTED = re.compile(r"\b[Ww]e\s+(?P<verb>present|propose|introduce|describe|build|design)\s+"
                        r"(?P<name>[A-Z][\w-]*[A-Z][\w-]*)(?=\s*[,:(]|\s+(?:which|that|a|an)\b)")


def system_name(text: str) -> tuple[str, str | None] | None:
    """(the system's name, the verb it is presented by: "present", or None for a README's opening)."""
    m = _OPENING.match(text)
    if m:  # "client sends a request …": a common noun; "bwa-mem2 maps …", "metaflow is a …": a tool
        verb, name = m.group("verb"), m.group("code") or m.group("low")
        is_a = verb == "is" and re.match(r"\s+an?\b", text[m.end():])
        if (verb == "is" or verb.endswith("s") and verb_lemma(verb)) \
                and (m.group("code") or is_a or re.search(r"[-_.\d]", name)):
            return name, None
    p = _PRESENTED.search(text)
    return (p.group("name"), p.group("verb")) if p else None


def drop_system_name(reading: BriefReading, text: str) -> None:
    """The system's own name is no box (nor are its links): it titles the figure when nothing else does. A name
    neither in backticks nor presented ("bwa-mem2 maps the reads to the index") stays a box when it has links."""
    found = system_name(text)
    if not found:
        return
    name, verb = found
    keys = {box_key(name)} | ({box_key(f"{verb} {name}")} if verb else set())
    gone = {e for e in reading.entities if box_key(e) in keys}
    if not (verb or text.lstrip().startswith("`")):  # a name unquoted: a box when it has links
        gone -= {x for r in reading.relations for x in r}
    if not gone:
        return
    reading.title = reading.title or name
    _drop(reading, gone)


def drop_generic_names(reading: BriefReading, text: str) -> None:
    """No box: a generic noun alone and linked to nothing, no arrow nor group ("brings the code to the data"; "the
    input goes to the encoder" is a box); a plural of one to three words said only right after a count ("these two
    steps"), or, when it has links, only after a verb of having ("has two layers", "holds two modules")."""
    linked = {x for r in reading.relations for x in r} | {x for g, ms in reading.groups for x in [g, *ms]}
    gone = {e for e in reading.entities if e.lower() in GENERIC_NOUNS and e not in linked}  # "the input goes to …": a box
    gone |= {e for e in reading.entities if e.strip().lower() in _NO_THING}  # "the rest go on to …", "in parallel"
    for e in reading.entities:
        bare = _COUNTED.sub("", e)  # "Two layers": the reader kept its count
        if len(bare.split()) > 3 or not re.search(r"[^\Wsu]s$", bare):
            continue
        count = _HAS_COUNT if e in linked else _COUNT  # "two linear heads feed the sampler": boxes
        said = list(re.finditer(r"(?i)(?<![\w-])" + re.escape(bare) + r"(?![\w-])", text))
        if said and all(count.search(text[max(0, m.start() - 40):m.start()]) for m in said):
            gone.add(e)
    for e in reading.entities:  # a participle said only after "is" / "are": what something is, no box
        *lead, last = e.split() or [""]
        if not _PARTICIPLE.match(last) or any(not _ADVERB.match(w) for w in lead):  # ("Still found")
            continue
        said = list(re.finditer(r"(?i)(?<![\w-])" + re.escape(e.strip()) + r"(?![\w-])", text))
        if said and all(_PREDICATE.search(text[max(0, m.start() - 40):m.start()]) for m in said):
            gone.add(e)
    if gone:
        _drop(reading, gone)
    drop_said_verbs(reading, text)  # "whose maps feed the head": no box Feed


def _drop(reading: BriefReading, gone: set[str]) -> None:
    reading.entities = [e for e in reading.entities if e not in gone]
    reading.strong = [e for e in reading.strong if e not in gone]
    reading.relations = [(a, b) for a, b in reading.relations if a not in gone and b not in gone]
    reading.groups = [(g, [m for m in ms if m not in gone]) for g, ms in reading.groups]


# the word before a verb said as a verb: "each give", "to assign", "whose maps feed", "they run"
_FINITE_BEFORE = re.compile(r"(?i)(?:\b(?:to|each|both|they|which|that|who|will|can|must|should)|"
                            r"(?<!')\b[a-z]*[a-rt-z]s)\s+$")


def drop_said_verbs(reading: BriefReading, text: str) -> None:
    """No box: a one-word name that is a verb said only as the verb of its sentence ("the CLIP encoders each give
    pooled outputs", "whose maps feed the head", "to assign each patient a label"), never after an article, an
    arrow or a bullet ("a query is raised", "→ parse →", "- link (lld)" stay boxes). Its links go with it (tried:
    bridging them, "maps → Feed → head" read maps → head; dev edge F1 fell 0.2764 → 0.2759; and a verb after a
    determiner ending in "s" kept as a noun, "its store": the words so said are "its output", "its sample", the
    output of a box said before, no box of its own: dev nodes / edges F1 0.6392 / 0.2764 → 0.6389 / 0.2761, train
    0.5247 / 0.1884 → 0.5246 / 0.1883)."""
    gone = set()
    for e in reading.entities:
        word = e.strip()
        if " " in word or not verb_lemma(word.lower()):
            continue
        said = list(re.finditer(r"(?i)(?<![\w-])" + re.escape(word) + r"(?![\w-])", text))
        if said and all(_FINITE_BEFORE.search(text[max(0, m.start() - 30):m.start()]) for m in said):
            gone.add(e)
    if gone:
        _drop(reading, gone)
