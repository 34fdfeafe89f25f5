"""What the rule-based reader read in a brief (:class:`BriefReading`), and the passes over a whole reading
that :func:`crafter.agents.extract.figure_from_brief` makes once the names are known (the rules' or a name
head's): an abbreviation in brackets merged into the name it abbreviates, a reference searched "vs" /
"against" linked to the step beside it, a member's name that means groups read before ("the core", "both
pathways"), a name said again as the tail of a fuller one ("the server" after "a parameter server"), "all
three" / "both" / "everything" spread over the things they gather, a head group's fuller name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache

from crafter.agents.labels import REMARK_WORDS, normalise_label, noun_by_ending, singular
from crafter.agents.prose import verb_lemma

SENTENCE_SPLIT = re.compile(r"(?<=[.!?;])\s+|\n+")  # a brief's sentences (and lines)


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


def find_word(text: str, name: str, start: int = 0, stop: int | None = None) -> int:
    """Where ``name`` is first said in ``text[start:stop]`` (``stop`` None: to the end), as whole words (case aside;
    a plural "s" / "es" allowed: "sample" in "samples", never "use" in "because" or "both" in "bothers"; a name of one
    or two letters in its own case); -1 where it is not."""
    if not name.strip():
        return -1
    m = name_pattern(name).search(text, start, len(text) if stop is None else stop)
    return m.start() if m else -1


def name_pattern(name: str, *, hyphen_ends: bool = True) -> re.Pattern:
    """The pattern of :func:`find_word` for a non-blank ``name``; ``hyphen_ends=False``: a hyphen after it joins it
    to the next word ("encoder" not said in "encoder-decoder")."""
    short = len(name.strip()) <= 2  # "A", "G", "F": a name, not the article "a"
    return re.compile(r"(?<![\w-])" + re.escape(name.strip()) + ("" if short else r"(?:e?s)?")
                      + (r"(?!\w)" if hyphen_ends else r"(?![\w-])"), 0 if short else re.I)


def box_key(name: str) -> str:
    """What two spellings of one box share: case, hyphens and a plural aside."""
    key = re.sub(r"[\s\-_]+", " ", normalise_label(name)).strip()
    return re.sub(r"(?<=[a-z]{3})s$", "", key)


_AGAINST_RE = re.compile(r"^\s*(?:vs\.?|versus|against)\s+(?:the\s+|a\s+|matched\s+)?$", re.I)


_FOLLOWED_RE = re.compile(r"\s*(?:\([^()]*\)\s*|\$[^$]*\$\s*)?,?\s*followed\s+by\s+(?:the\s+|a\s+|an\s+)?"
                          r"(?P<next>[^\s,;.()$][^,;.()$\n]*?)(?=\s*(?:[,;.()$\n]|$)|\s+(?:and|with|while|which|that|"
                          r"whose|to|for|on|in|of|at)\b)", re.I)


_AMOUNT_RE = re.compile(r"(?<![\w-])(?:\d[\d.,]*|one|two|three|four|five|six|seven|eight|nine|ten|dozens?|hundreds?|"
                        r"thousands?|millions?|several|few|many|couple|amounts?|percent|seconds?|minutes?|hours?|days?|"
                        r"weeks?|months?|years?)(?![\w-])", re.I)  # "followed by two hours of incubation": no step


def read_followed_by(text: str, reading: BriefReading) -> None:
    """ "runs Kraken2 followed by Bracken", "passes through a ResNet encoder $f$ followed by a projection head":
    a name with "followed by" after it is a step, and what follows (a name, or a new noun phrase with no number,
    time or amount: not "followed by two hours of incubation") the next. The longest name ending at a spot is
    the step ("ResNet encoder", not also "Encoder")."""
    ends: dict[int, tuple[int, str]] = {}
    for e in reading.entities:
        for m in re.finditer(r"(?<![\w-])" + re.escape(e) + r"(?![\w-])", text, re.I):
            if m.end() not in ends or m.start() < ends[m.end()][0]:
                ends[m.end()] = (m.start(), e)
    for end, (_, e) in sorted(ends.items()):
        f = _FOLLOWED_RE.match(text, end)
        if f is None or len(f.group("next").split()) > 5:
            continue
        nxt = f.group("next").strip()
        known = next((x for x in reading.entities if normalise_label(x) == normalise_label(nxt)), None)
        if known is None and _AMOUNT_RE.search(nxt):
            continue
        nxt = known or nxt[:1].upper() + nxt[1:]
        if nxt not in reading.entities:
            reading.entities.append(nxt)
        if nxt != e and (e, nxt) not in reading.relations:
            reading.relations = [r for r in reading.relations if r != (nxt, e)] + [(e, nxt)]


def read_searched_against(text: str, reading: BriefReading) -> None:
    """ "nucleotide search vs ChocoPhlAn", "imputation with Beagle against the TOPMed panel": the reference
    searched feeds the step that searches it (two names side by side, nothing else between)."""
    low = text.lower()
    spots = sorted((m.start(), m.end(), e) for e in reading.entities
                   for m in re.finditer(r"(?<![\w-])" + re.escape(e.lower()) + r"(?![\w-])", low))
    linked = {frozenset(p) for p in reading.relations}
    for (_, a_end, a), (b_start, _, b) in zip(spots, spots[1:]):
        if a == b or not _AGAINST_RE.match(text[a_end:b_start]):
            continue
        if (a, b) in reading.relations:  # read the other way round ("the search … ChocoPhlAn")
            reading.relations[reading.relations.index((a, b))] = (b, a)
        elif frozenset((a, b)) not in linked:
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
        rename_names(reading, {short: full})


def groups_named(name: str, groups: list[str]) -> list[str]:
    """The groups read before that a member's name means: "the core" the allocation core (the last one
    so named), "both pathways" the bottom-up and the top-down pathway (every one)."""
    key = box_key(name)
    hits = [g for g in groups if box_key(g) == key or box_key(g).endswith(" " + key)]
    plural = bool(re.search(r"[^s]s$", name.strip().lower()))
    return hits if plural else hits[-1:]


_DEFINITE = {"the", "this", "that", "its", "their"}


def _proper(name: str, text: str) -> bool:
    """A proper name: a capital inside it ("PX4", "mRNA"), or written with a capital where no sentence starts
    ("a Bpod state machine"); a common word capitalised only where it opens a sentence or a line
    ("Encoder outputs feed …") is none."""
    name = name.strip()
    if not name or re.search(r"[A-Z]", name[1:]):
        return bool(name)
    if not name[0].isupper():
        return False
    for m in re.finditer(r"(?<![\w-])" + re.escape(name) + r"(?![\w])", text):
        before = text[:m.start()].rstrip(" \t\"“'(*`#>-–•")
        if before and not re.search(r"[.!?:;\n]$", before):
            return True
    return False


def said_again_as(names: list[str], text: str) -> dict[str, str]:
    """A name that is the tail of one fuller name and is only ever said after it as "the <name>" ("the
    sealed allocation store … the allocation store", "a parameter server … the server"), or a proper name
    that opens it ("a Bpod state machine … the Bpod triggers"), means that name: short -> full. Two fuller
    names ("intake interview", "exit interview"), a bare mention ("a store", "each state") or a mention
    before the fuller name keep the short name a box of its own."""
    low = text.lower()
    keys = {n: box_key(n).split() for n in names}
    out: dict[str, str] = {}

    def proper(name: str) -> bool:  # "Bpod", "PX4": a name of its own, not a common word ("the encoder")
        return _proper(name, text)

    for short in names:
        k = keys[short]
        fuller = [n for n in names if len(keys[n]) > len(k) and (keys[n][-len(k):] == k or proper(short)
                                                                 and keys[n][:len(k)] == k)]
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


_NUMBERS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_COUNT = r"(?:two|three|four|five|six|[2-6])"  # how many things a collective gathers: "all three", "these 2 steps"
_COLLECTIVE_RE = re.compile(rf"(?i)^(?:all\s+(?P<n>{_COUNT})\b|(?P<both>both)\b|(?P<all>everything)$)")


def _names_in(segment: str, names: list[str]) -> list[str]:
    """The names a piece of text says, longest first where two overlap, in the order said."""
    low, taken, found = segment.lower(), [], []
    for n in sorted(names, key=len, reverse=True):
        for m in re.finditer(r"(?<![\w-])" + re.escape(n.lower()) + r"(?![\w])", low):
            if not any(s < m.end() and m.start() < e for s, e in taken):
                taken.append((m.start(), m.end()))
                found.append((m.start(), n))
                break
    return [n for _, n in sorted(found)]


_SAID_COLLECTIVE = rf"(?i)\b(?:both|all\s+(?:the\s+)?({_COUNT}))\s+"


def _collectives(reading: BriefReading, text: str) -> list[tuple[str, int | None, int, bool]]:
    """The names that gather others: (name, how many (None: everything), where said, named after a
    collective word). "All three" / "both" / "everything" as a name; a name said after "both" / "all N"
    ("both analyses", "All four values"): the rules cut those words off."""
    low = text.lower()
    out = []
    for e in reading.entities:
        m = _COLLECTIVE_RE.match(e.strip())
        if m:
            at = find_word(low, e)
            n = None if m.group("all") else 2 if m.group("both") else \
                _NUMBERS.get(m.group("n").lower()) or int(m.group("n"))
            if at >= 0:
                out.append((e, n, at, False))
            continue
        said = re.search(_SAID_COLLECTIVE + re.escape(e.strip()) + r"(?:e?s)?(?!\w)", text)
        if said is None and re.match(r"(?i)(two|three|four|five|six)\s", e.strip()):  # "All four values" -> "Four values"
            said = re.search(r"(?i)\ball\s+()" + re.escape(e.strip()) + r"(?!\w)", text)
        if said is not None:
            word = said.group(1) or e.split()[0]
            n = _NUMBERS.get(word.lower()) or (int(word) if word.isdigit() else 2)
            out.append((e, n, said.start(), True))
    return out


def plain_plural(word: str) -> bool:
    """A word in its plain plural, "s" on a singular ending in neither "s", "i" nor "u": "datasets", "Reads"; not
    "analysis", "status", "menus" nor "GPUs"."""
    return re.fullmatch(r"[A-Za-z][a-z-]*[a-z](?<![siu])s", word) is not None


def _head_word(name: str) -> str:
    """A name's last word, singular or plural alike ("analyses" and "analysis", "modules" and "module"; not
    "taxi" and "tax", "genie" and "gene")."""
    words = re.findall(r"[^\W_]+", name.lower())
    return singular(words[-1]) if words else ""


_BULLET_LINE_RE = re.compile(r"^\s*(?:[-*•·–]|\(?\d{1,2}[.)])\s+\S")


def _listed_just_before(text: str, at: int, n: int, names: list[str]) -> list[str]:
    """ "* GPC: …  * DSC: …  * TGA: …  * 1H NMR: …  All four values are entered into …": exactly n list items
    end just before the line that says the collective; the first name each item says (none if one says
    none)."""
    lines = text[:text.rfind("\n", 0, at) + 1].split("\n")[:-1]
    items: list[str] = []
    for line in reversed(lines):
        if not _BULLET_LINE_RE.match(line):
            break
        items.insert(0, line)
    if len(items) != n:
        return []
    firsts = [(_names_in(line, names) or [None])[0] for line in items]
    return [] if None in firsts or len(set(firsts)) < n else firsts  # type: ignore[return-value]


_OPENS_SENTENCE = re.compile(r"(?:^|[.!?;:]\s+|\n\s*(?:[-*•]\s+)?)$")


def _said_before(name: str, text: str) -> bool:
    """The name, or a name of two words or more in the singular, said in the text: a box of its own, not a
    collective's word ("a relay node … both relay nodes"; not "a trajectory analysis … both analyses")."""
    words = name.lower().split()
    one = " ".join(words[:-1] + [singular(words[-1])]) if len(words) > 1 else ""
    return any(w and find_word(text.lower(), w) >= 0 for w in (name.lower(), one))


def _sentence_before(coll: str, n: int, at: int, text: str, names: list[str]) -> list[str]:
    """A plural named after "Both" / "The two" / "All three" where a sentence opens ("… scores it against the ACMG
    criteria. Both paths write their results into PostgreSQL", "… fingerprinted with JA3. Both feature sets
    feed a classifier"): the last n names the sentence before says (none where it says fewer)."""
    if not _OPENS_SENTENCE.search(text[:at]) or not re.search(r"[^s]s$", coll.strip().lower()):
        return []
    before = text[:at].rstrip()
    sentences = [s for s in re.split(r"\n|(?<=[.!?])\s", before) if s.strip()]
    said = _names_in(sentences[-1], names) if sentences else []
    return said[-n:] if len(said) >= n else []


def spread_collectives(reading: BriefReading, text: str) -> None:
    """ "all three → HTML dashboard", "stimulus PC → TTL triggers → both recorders", "everything →
    integration", "Both analyses inform the typology": no box called "All three" or "Analyses"; its links go
    to the things it gathers: for "all N" / "both" the N things said before it of its kind ("the cross-
    sectional analysis and the trajectory analysis"), or the last line or sentence before it that names N
    things, or the last N said before it that lead nowhere yet; for "everything" every thing said before it
    that leads nowhere yet. A new plural after "both" / "all N" that opens a sentence ("Both paths write …")
    gathers the names of its kind said before, however few, else the last N the sentence before says (dev
    plans alone, round 21: nodes 0.6334 -> 0.6341, edges 0.2659 -> 0.2676, groups unchanged)."""
    for coll, n, at, named in _collectives(reading, text):
        if coll not in reading.entities:
            continue
        before = text[:max(text.rfind("\n", 0, at), text.rfind(". ", 0, at), 0)]  # not this line's own names
        others = [e for e in reading.entities if e != coll and not _COLLECTIVE_RE.match(e.strip())]
        leads = {a for a, b in reading.relations if b != coll}
        listed = False  # the members are list items said just before it
        if n is None:
            members = [e for e in _names_in(before, others) if e not in leads
                       and not any(g == e for g, _ in reading.groups)]
        else:  # of its kind; the names of the last line or sentence that says N, or N that lead nowhere yet
            head = _head_word(coll) if named else ""
            kind = [e for e in _names_in(before, others) if head and _head_word(e) == head]
            said = [_names_in(s, others) for s in reversed(re.split(r"\n|(?<=[.;])\s", before))]
            if named:  # "both analyses": two analyses said before it, or the list items just before it
                members = kind[-n:] if len(kind) >= n else _listed_just_before(text, at, n, others)
                listed = len(kind) < n
                if not members and not _said_before(coll, text[:at]) \
                        and not groups_named(coll, [g for g, _ in reading.groups]):  # (groups: "both pathways")
                    members, listed = kind or _sentence_before(coll, n, at, text, others), False
            else:
                members = next((x for ns in said for x in (ns, [e for e in ns if e not in leads]) if len(x) == n), [])
        if members:
            _spread(reading, coll, members, listed)
    for coll, target, members in _each_of_a_list(reading, text):
        if coll is not None:
            _spread(reading, coll, members, listed=True)
        elif any((m, target) in reading.relations for m in members):  # "each block → NASA-TLX" read as one block's
            reading.relations += [(m, target) for m in members if (m, target) not in reading.relations]  # link


def drop_collective_groups(reading: BriefReading, text: str) -> None:
    """A group whose one member is a word for several things of no kind read ("… and a refit on the full field of
    view; these two steps form the CNMF group", "these three operations make up the plate preparation") is no group
    of one: the things it gathers were not read, and the group goes. Where names of that kind were read ("these two
    encoders" after "a spatial encoder"; "by two labelers … The two labelers form …"), or where the group sits in
    another, or the word means groups ("these two layers form the platform"), it stays. Round 24, dev plans alone
    groups 0.4745 -> 0.4759 (one false group gone, nodes and edges unchanged); train 0.2627 -> 0.2647 (seven)."""
    def collective(name: str) -> bool:
        word = name.split()[-1].lower()
        if len(name.split()) > 2 or not plain_plural(word):
            return False
        if any(e != name and e.split()[-1].lower() == singular(word) for e in reading.entities):
            return False  # "these two encoders" after "a spatial encoder" ("analyses" after "an analysis"): of a kind read
        if re.search(rf"(?i)(?<!these )(?<!those )(?<!the )(?<!all )\b{_COUNT}\s+" + re.escape(name) + r"\b", text):
            return False  # "annotated independently by two labelers …": the things, brought in by their count
        return re.search(rf"(?i)\b(?:both|(?:these|those|the|all)\s+{_COUNT})\s+" + re.escape(name) + r"\b",
                         text) is not None

    labels = [g for g, _ in reading.groups]

    @cache
    def inner() -> set[str]:  # the groups a member's name means (only a one-member collective group asks)
        return {g for h, ms in reading.groups for m in ms for g in groups_named(m, [x for x in labels if x != h])}

    reading.groups = [(g, ms) for g, ms in reading.groups if len(ms) != 1 or not collective(ms[0]) or g in inner()
                      or groups_named(ms[0], [x for x in labels if x != g])]  # ("these two layers": groups)


def _spread(reading: BriefReading, coll: str, members: list[str], listed: bool) -> None:
    """The collective ``coll`` no box: its links go to each of ``members`` (``listed``: items side by side, not a
    chain)."""
    swap = {coll: members}
    if listed:  # list items gathered by a collective stand side by side, not in a chain
        chained = set(zip(members, members[1:]))
        reading.relations = [r for r in reading.relations if r not in chained]
    reading.entities.remove(coll)
    reading.strong = [e for e in reading.strong if e != coll]
    had, spread, seen = set(reading.relations), [], set()  # no link drawn back against one read before
    for a, b in reading.relations:  # ("the hub samples A and B. Both streams …") or against one spread before it
        for x in swap.get(a, [a]):
            for y in swap.get(b, [b]):
                if x != y and (x, y) not in seen and ((a, b) == (x, y) or (y, x) not in had and (y, x) not in seen):
                    spread.append((x, y))
                    seen.add((x, y))
    reading.relations = spread
    reading.groups = [(g, [x for e in ms for x in swap.get(e, [e])]) for g, ms in reading.groups]


_EACH_LINE = re.compile(r"(?im)^\s*(?:[-*•·–]\s+)?(?:each|every|all)\s+(?P<name>[\w+-]+(?:\s+[\w+-]+)?)\s*(?:->|→|⟶|=>)")


def _each_of_a_list(reading: BriefReading, text: str) -> list[tuple[str | None, str | None, list[str]]]:
    """ "mouse block | touchpad block | gaze+click block ⏎ all blocks → throughput", "three routes side by side: A | B |
    C ⏎ • every route → density": a line opening on "each" / "every" / "all" and a name before an arrow gathers the
    names of its kind said before it (two or more), else those of the last line before it that says two or more.
    Each as (the box of that name, or None where there is none; the first name after the arrow; the members)."""
    out: list[tuple[str | None, str | None, list[str]]] = []
    for m in _EACH_LINE.finditer(text):
        said = m.group("name").strip()
        if said.split()[0].lower() in _NUMBERS or said[:1].isdigit():
            continue  # "all three →": a collective of a count (:func:`_collectives`)
        forms = {normalise_label(x) for x in (said, singular(said), m.group(0).strip(" -*•·–>→⟶="))}
        coll = next((e for e in reading.entities if normalise_label(e) in forms), None)
        if coll is not None and any(c == coll for c, _, _ in out):
            continue
        others = [e for e in reading.entities if e != coll and not _COLLECTIVE_RE.match(e.strip())]
        end = text.find("\n", m.end())
        target = next(iter(_names_in(text[m.end():end if end >= 0 else len(text)], others)), None)
        before = text[:m.start()]
        head = _head_word(coll or said)
        members = [e for e in _names_in(before, others) if _head_word(e) == head]
        if len(members) < 2:
            lines = [ln for ln in before.split("\n") if ln.strip()]
            members = next((ns for ln in reversed(lines) if len(ns := _names_in(ln, others)) >= 2), [])
        if len(members) >= 2 and (coll is not None or target is not None):
            out.append((coll, target, members))
    return out


_COMMON_GROUP_WORDS = {"stage", "group", "layer", "level", "levels", "module", "block", "phase", "step", "tier",
                       "sector", "local", "cohort", "subgroup", "subworkflow", "workflow", "part", "unit", "site",
                       "branch", "loop", "section", "zone", "region", "service", "component", "system"}


def head_group_name(label: str, members: list[str], text: str) -> tuple[str, list[str]]:
    """A head group named by a common word alone ("stage", "layer"): the brief's fuller name for it ("the
    alignment stage"; one whose first word is a member's name first), its members as the head read them.
    (Tried and dropped: taking that member out of the group, dropping a group the brief gives no fuller
    name, merging it into the rules' group of that name — plans alone gained a group, the whole pipeline
    with CraftLM lost two: 0.3115 -> 0.3028.)"""
    if len(label.split()) > 1 or label.lower() not in _COMMON_GROUP_WORDS:
        return label, members
    said = [m.group(1) for m in re.finditer(rf"\b([^\W\d_][\w-]*)\s+{re.escape(label)}\b", text, re.I)
            if m.group(1).lower() not in _STOP_BEFORE_HEAD]
    word = next((w for w in said if any(normalise_label(x) == normalise_label(w) for x in members)), None) \
        or next(iter(said), None)
    if word is None:
        return label, members
    name = f"{word} {label.lower()}"
    return name[:1].upper() + name[1:], members


_STOP_BEFORE_HEAD = {"the", "a", "an", "each", "every", "this", "that", "one", "first", "second", "third", "last",
                     "final", "next", "same", "other", "per", "of", "in", "into", "to", "and", "or", "its", "their",
                     "both", "all", "these", "those", "two", "three", "four", "our", "whole", "entire"}


def _heading_lines(text: str) -> list[str]:
    """A brief's title line (its first, short, without a full stop, over more text) and its Markdown
    headings ("## Sensor pipeline")."""
    lines = [ln.strip() for ln in text.split("\n") if ln.strip()]
    out = [ln for ln in lines if re.match(r"#{1,6}\s", ln) and len(ln.split()) <= 9 and not ln.endswith(".")]
    first = lines[0] if len(lines) > 1 else ""
    if re.match(r"([-*+•]|\d+[.)])\s", first):  # a list's first item, not a title
        first = ""
    # a title stands over something else: a blank line, a heading, a list or lettered panels; a brief written a
    # statement a line ("Camera sends frames to the detector") opens with its first statement
    raw = text.strip().split("\n")
    after = raw[1].strip() if len(raw) > 1 else ""
    if first and after and not re.match(r"#{1,6}\s|[-*+•]\s|\d+[.)]\s|\(?[a-z]\)\s", after):
        first = ""
    if first and len(first.split()) <= 10 and not re.search(r"[.!?]$|->|→", first) and first not in out:
        out.append(first)
    return out


def drop_heading_names(reading: BriefReading, text: str) -> None:
    """A name said only in the brief's title or headings ("Pooled CRISPR KO screen – analysis": no box
    "KO"; "## Honeynet") is what the figure is about, not a box in it; one that ends in a group's label
    stays (it titles that group)."""
    heads = _heading_lines(text)
    if not heads:
        return
    body = text
    for h in heads:
        body = body.replace(h, " ", 1)
    low, keys = body.lower(), [box_key(g) for g, _ in reading.groups]
    def named(e: str, where: str) -> bool:  # as a word ("Model" is not said in "## Modelling")
        return re.search(r"(?<![\w-])" + re.escape(e.lower()) + r"(?![\w])", where) is not None

    said = {e for e in reading.entities if any(named(e, h.lower()) for h in heads) and not named(e, low)}
    titles = {e for e in said if any(box_key(e) == k or box_key(e).endswith(" " + k) for k in keys)}
    gone = said - titles
    # a title's links are no links either: unlinked, it can title its group (:func:`group_titles`)
    reading.relations = [(a, b) for a, b in reading.relations if a not in said and b not in said]
    if gone:
        reading.entities = [e for e in reading.entities if e not in gone]
        reading.strong = [e for e in reading.strong if e not in gone]
        reading.groups = [(g, [m for m in ms if m not in gone]) for g, ms in reading.groups]


def made_by(name: str, entities: list[str]) -> str | None:
    """ "Annotated variants" after "the annotator", "clustered transcripts" after "isoseq cluster2": a thing
    named by the step that made it (a past participle and a noun) is that step's output, drawn as the step
    (the one earlier name with a word on the participle's stem, of five letters or more)."""
    m = re.fullmatch(r"([A-Za-z]+?)e?d\s+[\w-]+", name.strip())
    if m is None or len(m.group(1)) < 5:
        return None
    stem = m.group(1).lower()[:6]
    hits = [e for e in entities if e != name and re.search(r"(?<![^\W\d_])" + re.escape(stem), e.lower())]
    return hits[-1] if len({box_key(h) for h in hits}) == 1 else None


# a preposition opening an adverbial: "At each site", "Per medium" (two words are enough)
_OPENER_PREPOSITIONS = {"at", "on", "in", "from", "per", "with", "without", "by", "via", "after", "before",
                        "during", "once", "meanwhile", "otherwise"}
# a conjunction or answer opening a clause: "If any transect differs" (three words at least: "For loop",
# "If statement", "Yes" and "No" are names)
_OPENER_CONJUNCTIONS = {"if", "when", "while", "for", "then", "yes", "no"}
_CLAUSE_WORDS = {"is", "are", "was", "were", "be", "been", "not", "no", "never", "needs", "costs", "needed", "asked",
                 "used", "write", "writes"}


def is_remark(name: str) -> bool:
    """A name that is no thing but a remark a list or a sentence cut out: an opener ("At each site",
    "Otherwise", "Per medium", "If any transect differs") or a clause ("Deployment results are not fed back",
    "Executors write shuffle files to local"); a question ("BIDS valid?") is a decision, not a remark, and a
    name that ends on a verb-like word ("Disk writes", "Tokens used", "Compute costs") or opens on a
    conjunction with one word after it ("For loop", "If statement") is a name."""
    words = name.split()
    if not words or name.rstrip().endswith("?"):
        return False
    first = words[0].lower()
    if len(words) == 1:
        return first in REMARK_WORDS
    if not re.match(r"[A-Z0-9]", words[1]) and (
            first in _OPENER_PREPOSITIONS or first in _OPENER_CONJUNCTIONS and len(words) >= 3):
        return True
    # a verb that says something of the name with more said after it, not a noun after an article ("holds
    # the write") nor the name's last word ("Disk writes")
    return any(w.lower() in _CLAUSE_WORDS and words[i].lower() not in {"the", "a", "an", "each", "its"}
               for i, w in enumerate(words[1:-1]))


_NO_THING = {"one", "two", "three", "four", "more", "most", "less", "other", "others", "both", "all", "each", "none",
             "nothing", "side"}  # quantifiers, determiners and a word never a box alone ("side by side")


def says_no_thing(name: str, text: str) -> bool:
    """A one-word name the brief only ever writes in lower case that names no thing: an adverb ("poorly",
    "randomly"), a participle ("replayed by the startup process", "each snapped to its nearest entry"), a
    number or a word that stands for things said elsewhere ("two or more review stars", "the others"); a noun
    that ends like them ("watershed", "testbed", "assembly") names a thing."""
    w = name.strip()
    low = w.lower()
    if not re.fullmatch(r"[A-Za-z]{3,}", w) or w[1:] != w[1:].lower():
        return False
    said = re.findall(r"(?<![\w-])" + re.escape(low) + r"(?![\w-])", text, re.I)
    if not said or any(s != low for s in said):
        return False
    return (len(low) > 5 and low.endswith(("ly", "ed")) and not noun_by_ending(low)) or low in _NO_THING \
        or _only_a_verb(low, text)


def _only_a_verb(low: str, text: str) -> bool:
    """A verb's "-s" form ("returns", "applies", "stops") the brief never writes after a determiner or a verb
    ("the reads", "its outputs", "collects alerts" name things): a word of the verb lexicon, or one the brief
    only writes after a subject's pronoun or a joining word ("it stops", "and then applies the rules")."""
    if not re.fullmatch(r"[a-z]{3,}[^su]s", low):
        return False
    before = [b.lower() for b in re.findall(r"([\w'-]+)\s+" + re.escape(low) + r"(?![\w-])", text, re.I)]
    if any(b in _DETERMINER_WORDS or verb_lemma(b) not in (None, b) for b in before):
        return False  # after a determiner, or a verb's object ("collects alerts", "serves queries")
    for b, after in re.findall(r"([\w'$-]+)\s+" + re.escape(low) + r"(?![\w-])(\s*[.;:,)]|\s+[a-z]+ing\b|\s*$)",
                               text, re.I):
        if b.lower() not in _SUBJECT_WORDS:  # "k class scores.", "Bloom filters summarising their logs": a noun
            return False  # after a modifier, where nothing (or a participle) follows, not a verb's object
    lemma = verb_lemma(low)
    return lemma is not None and lemma != low or bool(before) and all(b in _SUBJECT_WORDS or b.endswith("ly")
                                                                         for b in before)


_SUBJECT_WORDS = {"it", "which", "who", "then", "also", "only", "never", "first", "finally", "he", "she", "one"}
_DETERMINER_WORDS = {"the", "a", "an", "its", "their", "our", "this", "these", "those", "that", "each", "every", "all",
                     "both", "any", "some", "no", "his", "her", "my", "your", "of"}


_LY_ADVERB = re.compile(r"[a-z]{2,}(?:al|ent|ant|ate|ive|ous|ed|ar|ic|ful|less|ing|ible|able|ual|ial|ise|ete|ct|ly|"
                        r"ow|ick|ight|ong|ear|ain|ect|ull|ree|er|ew|ast|ere)ly")
_TAIL_ADVERBS = {"first", "together", "only", "again", "alone", "instead", "too", "also", "later", "once", "therefore",
                 "itself", "themselves", "except", "than", "thus", "however", "yet", "still"}  # ("Watcher itself")
_OPENING_ADVERBS = {"yet", "still", "however", "thus", "therefore", "hence"}  # "Yet patient records"
_MODALS = {"may", "can", "cannot", "will", "must", "should", "might", "could", "would", "have", "has", "had", "does",
           "do", "did"}
# an article, a determiner or a word shaped as an adjective: before "one" it makes "one" stand for a thing
_STANDS_BEFORE_ONE = re.compile(r"a|an|the|this|that|each|every|another|any|no|which|new|old|fresh|next|last|same|"
                                r"other|big|small|large|good|bad|right|wrong|first|second|previous|current|single|"
                                r"empty|full|final|original|correct|incorrect|[a-z]{2,}(?:ive|ous|ful|less|able|ible|"
                                r"est|ish|ed|ing)")
_NUMBER_WORDS = {"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"}


def tidy_name(name: str) -> str | None:
    """A name cut to the thing it names: an adverb after it gone ("Passages accurately", "Sample first"), a
    modal and what follows it gone ("Sites may review"), a count before it gone ("Two linear heads"); None
    for a verb phrase ("accumulates them") or "one" standing for a thing ("a fresh one", "an incorrect one")."""
    words = name.split()
    low = [w.lower() for w in words]
    if len(words) < 2:
        return name
    if low[-1] in ("them", "it", "ones") or low[-1] == "one" and (
            _STANDS_BEFORE_ONE.fullmatch(low[-2]) and not noun_by_ending(low[-2]) or singular(low[-2]) != low[-2]):
        return None  # "a fresh one", "the matching one", "bytes one at a time"; "Stage one", "Part one" are names
    cut = next((i for i, w in enumerate(words) if i and w in _MODALS), len(words))  # ("DiD" is no "did")
    words, low = words[:cut], low[:cut]
    # a name written in title case is a proper name: "Yet Another Resource Negotiator", "Pot Still" keep their words
    titled = all(w[:1].isupper() for w in words)
    while len(words) > 1 and (_LY_ADVERB.fullmatch(low[-1]) or low[-1] in _TAIL_ADVERBS) and not titled:
        words, low = words[:-1], low[:-1]
    while len(words) > 1 and low[0] in _OPENING_ADVERBS and not titled:
        words, low = words[1:], low[1:]
    if len(words) > 1 and low[0] in _NUMBER_WORDS:
        words = words[2:] if low[1] == "of" and len(words) > 2 else words[1:]  # "one of 42 labels"
    out = " ".join(words)
    return out[:1].upper() + out[1:] if out != name and not re.match(r"\S*[A-Z]", out[1:2] or "") else out


def rename_names(reading: BriefReading, rename: dict[str, str | None]) -> None:
    """Names renamed (to a name already read: the two are one box) or, to None, dropped with their links."""
    new: dict[str, str | None] = {}
    for e in reading.entities:
        to = rename.get(e, e)
        if to is not None and to != e:
            to = next((x for x in reading.entities if x != e and normalise_label(x) == normalise_label(to)), to)
        new[e] = to
    reading.entities = list(dict.fromkeys(t for e in reading.entities if (t := new[e]) is not None))
    reading.strong = list(dict.fromkeys(t for e in reading.strong if (t := new.get(e, e)) is not None))
    reading.relations = list(dict.fromkeys((x, y) for a, b in reading.relations
                                           if (x := new.get(a, a)) and (y := new.get(b, b)) and x != y))
    reading.edge_labels = {(x, y): v for (a, b), v in reading.edge_labels.items()
                           if (x := new.get(a, a)) and (y := new.get(b, b)) and x != y}
    reading.groups = [(g, list(dict.fromkeys(y for m in ms if (y := new.get(m, m))))) for g, ms in reading.groups]


def drop_remarks(reading: BriefReading, keep: Iterable[str] = (), text: str = "") -> None:
    """Remarks (:func:`is_remark`) and, in ``text``, words that name no thing (:func:`says_no_thing`; a name the
    reader is sure of, an arrow's end, stays: "→ prepared" is a state) are no boxes, and their links no links;
    a name in ``keep`` (the model's own names) stays whatever its words. (Tried: a flow through a remark going
    on past it, A -> remark -> B read A -> B: plans alone on dev drew 4 and 7 more edges, none right.)"""
    kept = set(keep) | (set(reading.strong) if text else set())
    gone = [e for e in reading.entities if e not in set(keep) and is_remark(e)
            or e not in kept and text and says_no_thing(e, text)]
    rename_names(reading, dict.fromkeys(gone))
    if text:
        rename_names(reading, {e: tidy_name(e) for e in reading.entities if e not in kept})


_JOIN_END_RE = re.compile(r"\s+(?:plus|and|or|with|&|\+)$", re.I)
_JOIN_RE = re.compile(r"\s+(?:plus|\+)\s+", re.I)


def split_joined_names(head: dict) -> dict:
    """A name head's names cut at a joining word: one that ends on it ("STAR plus", from "one route made of
    STAR plus RSEM") loses it; one that joins two names ("HISAT2 plus featureCounts") is the two, in the
    order said: a link into it goes to the first, a link out of it leaves the last, a group holds both.
    ("and" and "&" join only at the end: "Sample and variant QC", "Research & Development" are one name.)"""
    parts: dict[str, list[str]] = {}
    for n in head.get("node", []):
        cut = _JOIN_END_RE.sub("", n.strip()).strip()
        pieces = [p.strip() for p in _JOIN_RE.split(cut) if p.strip()]
        if cut and pieces != [n]:
            parts[n.lower()] = pieces
    if not parts:
        return head
    def of(name: str) -> list[str]:
        return [p.lower() for p in parts.get(name.lower(), [name])]
    nodes = list(dict.fromkeys(p for n in head.get("node", []) for p in parts.get(n.lower(), [n])))
    links = [(of(a)[-1], of(b)[0]) for a, b in head.get("links", [])]
    members = [(g, [p for m in ms for p in of(m)]) for g, ms in head.get("members", [])]
    return {**head, "node": nodes, "links": links, "members": members}



_LISTED_GROUPS_RE = re.compile(
    r"\b(?:two|three|four|five|six|seven|eight|[2-9])\s+(?:[\w-]+\s+)?(?:groups|modules|tiers|"
    r"subsystems|packages|subworkflows|zones)\s*:\s*(?P<list>[^.;:\n]+)", re.I)
# (container nouns only: "two parts: an encoder and a decoder", "three layers: input, hidden and output",
# "stages", "blocks", "phases" list boxes that the next sentences link, not groups)


def read_listed_groups(reading: BriefReading, text: str) -> None:
    """ "The driving stack launches four groups: `sensing`, `perception`, `planning` and `control`": each name
    of the list is a group, not a box; its members are the things the sentences that name it say (a thing
    two of them say goes to the first), and it draws no link of its own. A listed name no later sentence
    fills stays as it was."""
    for m in _LISTED_GROUPS_RE.finditer(text):
        listed = [re.sub(r"^(?:the|a|an)\s+", "", p.strip(" `'\"“”*_"), flags=re.I)
                  for p in re.split(r",|\band\b|\bor\b|&", m.group("list"))]
        listed = [p for p in listed if p and len(p.split()) <= 4]
        if len(listed) < 2:
            continue
        keys = {box_key(p) for p in listed}
        others = list(dict.fromkeys([e for e in reading.entities if box_key(e) not in keys]
                                    + [g for g, _ in reading.groups if box_key(g) not in keys]))  # a subgroup
        sentences = [s for s in re.split(r"(?<=[.;!?])\s+|\n+", text[m.end():]) if s.strip()]
        owned: set[str] = {x for _, ms in reading.groups for x in ms}
        for name in listed:
            said = [s for s in sentences if find_word(s.replace("`", ""), name) >= 0]
            members = [e for s in said for e in _names_in(s.replace("`", ""), others) if e not in owned]
            members = list(dict.fromkeys(members))
            if not members:
                continue
            owned.update(members)
            gone = {e for e in reading.entities if box_key(e) == box_key(name)}
            reading.entities = [e for e in reading.entities if e not in gone]
            reading.strong = [e for e in reading.strong if e not in gone]
            reading.relations = [(a, b) for a, b in reading.relations if a not in gone and b not in gone]
            had = [x for g, ms in reading.groups if box_key(g) == box_key(name) for x in ms]
            reading.groups = [(g, ms) for g, ms in reading.groups if box_key(g) != box_key(name)]
            reading.groups.append((name, list(dict.fromkeys(had + members))))


def prefer_fuller_names(reading: BriefReading, names: list[str]) -> None:
    """A name read before as its first words ("medaka variant", "calling" read as a verb) takes the fuller name a
    list says ("a call subgroup (medaka variant calling, then bcftools consensus)"): one box, not two."""
    for name in names:
        full = normalise_label(name)
        # the longest name read before it ("medaka variant" over "medaka"): one rename covers the shorter too
        short = max((e for e in reading.entities if full.startswith(normalise_label(e) + " ")),
                    key=lambda e: len(normalise_label(e)), default=None)
        if short and not any(normalise_label(e) == full for e in reading.entities):
            rename_names(reading, {short: name})


def group_titles(reading: BriefReading, names: list[str], labels: list[str], taken: set[str]) -> dict[str, str]:
    """A group's fuller title: the one name that ends in the group's label, is in no link and no group
    ("## Randomisation service" heading a brief whose "service" is made up of the core and the logger)
    names the group, not a box of its own."""
    linked = {x for pair in reading.relations for x in pair}
    out: dict[str, str] = {}
    for label in labels:
        key = normalise_label(label)
        fuller = [n for n in names if n not in taken and n not in linked and n not in out.values()
                  and normalise_label(n).endswith(" " + key)]
        if len(fuller) == 1:
            out[label] = fuller[0]
    return out
