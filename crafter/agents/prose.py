"""The prose grammar of the rule-based brief reader: clauses, noun and verb phrases, relations.

A sentence is cut into tokens; noun phrases name entities, verb phrases relate them ("A
feeds B", "B is fed by A", "A sends gradients to B"), pronouns resolve to what was named
last, "X consists of A and B" makes a group. :func:`read_prose` adds what one sentence says
to a :class:`ProseState`; :mod:`crafter.agents.extract` reads a whole brief with it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from crafter.agents.labels import OPENERS, WHICH_ONE, drop_which_one, normalise_label
from crafter.agents.prose_words import (  # noqa: F401  (GENERIC_WHOLES, verb_lemma and the word sets are read through here too)
    _ADVERBS,
    _ALONG,
    _AUX,
    _BACK_REFERENCES,
    _BE,
    _BOUNDARY,
    _BWD_SET,
    _CHANGE,
    _CONTAINER_VERBS,
    _DEFINITE,
    _DETERMINERS,
    _DEVICES,
    _FUNCTION_WORDS,
    _GROUP_HEADS,
    _GROUP_PREPS,
    _GROUP_VERBS,
    _INTRANSITIVE_TO,
    _IRREGULAR,
    _LEARN_ON,
    _NEG,
    _NEG_AUX,
    _NOUNISH_VERBS,
    _PARTICLES,
    _PREPS,
    _PRODUCER,
    _PRONOUNS,
    _QUANTIFIERS,
    _SEEK,
    _STAGE_HEADS,
    _STEP_WORDS,
    _TARGET_PREPS,
    _TOKEN_RE,
    _TOOL_NAME,
    _TOOL_PREPS,
    _XFORM,
    GENERIC_WHOLES,
    verb_lemma,
)
from crafter.agents.verb_flows import verb_relations


@dataclass
class _Tok:
    text: str
    low: str
    lemma: str | None  # the verb it may be
    poss: bool = False  # "the vehicle's": a determiner to the word after it


def _tokens(text: str) -> list[_Tok]:
    out = []
    for t in _TOKEN_RE.findall(text):
        poss = t.endswith("'s") and not t.startswith(('"', "“"))
        t = t[:-2] if poss else t
        t = t.rstrip(".") if not re.fullmatch(r"(?:[A-Za-z]\.){2,}", t) else t
        if t:
            out.append(_Tok(t, t.lower(), verb_lemma(t), poss))
    return out


class _Clause:
    """A tiny cursor over one sentence's tokens."""

    def __init__(self, toks: list[_Tok]) -> None:
        self.toks, self.i = toks, 0

    def peek(self, k: int = 0) -> _Tok | None:
        j = self.i + k
        return self.toks[j] if 0 <= j < len(self.toks) else None

    def is_verb(self, k: int = 0, *, need_verb: bool = True) -> bool:
        """Is the token at offset k a verb here (not a noun such as "the decoder output")?"""
        t = self.peek(k)
        if t is None or t.lemma is None:
            return False
        prev, nxt = self.peek(k - 1), self.peek(k + 1)
        if prev is not None and k + self.i > 0 and (prev.low in _DETERMINERS or prev.low in _PREPS - {"then"}
                                                    and prev.low not in ("to",)):
            return False
        if _adjectival(self, k) or nxt is not None and nxt.low in _BE and re.search(r"[^su]s$", t.low):
            return False  # "forwards triggered data": a participle before its noun; "the bin reports are": a noun
        if t.low in _NOUNISH_VERBS:
            if nxt is not None and nxt.low in _BE and prev is not None and prev.low not in _PRONOUNS:
                return False  # "the final score is produced by a linear head": the subject's noun
            mod = self.i + k < 2 or prev.poss or re.fullmatch(r"[a-z-]{2,}(?:ed|al|ic|ive|ous|ful|less|[ai]ble)", prev.low)
            if not need_verb or mod and nxt is not None and nxt.low in _ADVERBS and (n2 := self.peek(k + 2)) is not None \
                    and n2.lemma and n2.low not in _NOUNISH_VERBS:  # "clean reads then take two routes": a noun
                return False
            if nxt is None or nxt.text in ",;:)" or (nxt.lemma and nxt.low not in _NOUNISH_VERBS
                                                     and not _adjectival(self, k + 1)):
                return prev is not None and prev.low in _AUX | _PRONOUNS | _ADVERBS | {"and", "then"} \
                    or (nxt is None and need_verb)
        return True


def _adjectival(c: _Clause, k: int) -> bool:
    """A past participle in "-ed" right before a plain noun, opening a clause or after a determiner (or "X's"), a
    preposition or a verb (a lexicon word not right after a determiner): an adjective ("forwards triggered data",
    "the filtered reads"; not "is triggered by", nor a past tense after its subject's head noun, "the scheduler
    assigned tasks", "the store forwarded packets"). A plain noun: a word the lexicon lacks, no function word."""
    t, n, prev = c.peek(k), c.peek(k + 1), c.peek(k - 1)
    if t is None or n is None or not re.fullmatch(r"[a-z][a-z-]{2,}ed", t.low) or t.low in _IRREGULAR:
        return False
    if c.i + k > 0 and prev is not None and not (prev.low in _DETERMINERS | _PREPS | _BOUNDARY | WHICH_ONE or prev.poss
                                                 or prev.text in ",;:()"):
        before = c.peek(k - 2) if c.i + k > 1 else None
        if prev.lemma is None or prev.low in _AUX or before is not None and before.low in _DETERMINERS:
            return False
    return _noun_ahead(_Clause(c.toks[c.i + k:]))


def np_label(words: list[str]) -> str:
    """A short noun phrase label: no determiners, the user's casing, at most five words."""
    words = drop_which_one([w for w in words if w])  # "its own adaLN modulation": "adaLN modulation"
    while words and words[0].lower() in _DETERMINERS | _ADVERBS | {"and", "or", "of"}:
        words = words[1:]
    while words and words[-1].lower() in _DETERMINERS | {"and", "or", "of"} | _PREPS:
        words = words[:-1]
    low = [w.lower() for w in words]  # "the outputs of the encoder" is the encoder
    if "of" in low:
        k = low.index("of")
        if low[:k] and low[k - 1] in ("output", "outputs", "result", "results", "prediction", "predictions", "end"):
            words = [w for w in words[k + 1:] if w.lower() not in _DETERMINERS]
        else:
            words = [w for j, w in enumerate(words) if j <= k or w.lower() not in _DETERMINERS]
    words = words[-5:] if len(words) > 5 else words
    phrase = " ".join(words).strip(" .,;:!?-–—'\"()")
    if phrase.startswith(('"', "“")):
        phrase = phrase.strip("\"“”")
    if not phrase or re.match(r"\S*[A-Z]", phrase):  # "mRNA", "iPSC": the user's casing is the name
        return phrase
    return phrase[:1].upper() + phrase[1:]


def _unknown_verb(c: _Clause) -> bool:
    """A word the lexicon lacks that can only be a verb here: "-s" / "-es" right after a subject and before
    an article or an object pronoun ("enriches each event", "digitises the signal", "archives them")."""
    t, n, after = c.peek(), c.peek(1), c.peek(2)
    if t is None or n is None or t.lemma is not None or not re.fullmatch(r"[a-z][a-z-]{2,}[^su]s", t.low) \
            or t.low in _NOUNISH_VERBS or t.low.endswith("ics"):  # "graphics", "genomics", "metrics": nouns
        return False
    if n.low in ("the", "a", "an", "each", "every", "its", "their", "all", "it", "them", "both") \
            or (p := c.peek(-1)) is not None and p.low == "then":  # "NegEx then removes negated mentions"
        return True
    return bool(re.fullmatch(r"[a-z][a-z-]{2,}[^su']s", n.low)) and n.low not in _FUNCTION_WORDS \
        and (after is None or after.text in ",;:(" or after.low in _PREPS | {"and", "or"})


def _noun_before_verb(c: _Clause, words: list[str]) -> bool:
    """A verb's bare form inside a noun phrase, its verb right after it: "the global trigger combines them", "a
    software trigger searches for …" (not after a plural: "the workers update weights")."""
    t, n, after = c.peek(), c.peek(1), c.peek(2)
    if t is None or n is None or after is None or t.lemma is None or t.low != t.lemma or n.lemma == n.low:
        return False
    if re.search(r"[^s]s$", words[-1].lower()) or not re.fullmatch(r"[a-z][a-z-]{2,}[^s']s", n.low):
        return False
    return (n.lemma is not None or n.low not in _NOUNISH_VERBS) and (
        after.low in _DETERMINERS | _PREPS | {"it", "them"})


def _noun_ahead(c: _Clause) -> bool:
    """The token after the cursor is a plain noun: a word the verb lexicon lacks and no function word."""
    n = c.peek(1)
    return n is not None and n.lemma is None and bool(re.fullmatch(r"[\w-]+", n.text)) \
        and n.low not in _FUNCTION_WORDS and not re.fullmatch(r"[a-z][a-z-]+(?:ed|ing|ly)", n.low)


def _noun_modifier(c: _Clause, words: list[str]) -> bool:
    """A verb's bare form inside a noun phrase, before its head noun: "the central trigger processor", "a
    dense search engine" (not after a plural, "the workers update weights"; not before an article or a
    preposition, "the data feed the model"; the caller leaves out a phrase after "and": "X and Y feed Z")."""
    t, n = c.peek(), c.peek(1)
    if t is None or n is None or t.lemma != t.low or re.search(r"[^s]s$", words[-1].lower()):
        return False
    return _noun_ahead(c)


def _read_np(c: _Clause, *, need_verb: bool = False) -> str | None:
    """The noun phrase at the cursor (determiners included), or None; "both paths" is "both:Paths" (the two
    things said before, :func:`_resolve`)."""
    words: list[str] = []
    both = False
    coordinated = (p := c.peek(-1)) is not None and c.i > 0 and p.low in ("and", "or", "plus", "nor", ",")
    while (t := c.peek()) is not None:
        if t.text.startswith(('"', "“")):  # a quoted name is the name, whatever words surround it
            words = [t.text.strip("\"“”")]
            c.i += 1
            continue
        if words and t.low in ("that", "which", "who"):
            break
        if t.text in ",;:()" or t.low in _AUX or t.low in _BOUNDARY or t.low in ("and", "or", "but", "then", "both", "plus"):
            if t.low == "both" and not words:
                c.i += 1
                both = True
                continue
            break
        if _neg_ahead(c):  # "the watcher never writes", "the cache does not call"
            break
        if t.low in _DETERMINERS and not words:
            c.i += 1
            continue
        if t.low in _DETERMINERS and words:
            break
        if t.low == "of" and words and (n := c.peek(1)) is not None and n.low not in _PRONOUNS:
            words.append(t.text)
            c.i += 1
            continue
        if t.low in _PREPS or t.low in _ADVERBS and t.low not in ("second", "third", "first", "back"):
            break
        if t.low in ("that", "this", "these", "those") and not words and _noun_ahead(c):
            c.i += 1  # "reads from that database", "consumes that pose": a determiner
            continue
        if t.low in _PRONOUNS and not words:
            c.i += 1
            return t.low  # resolved by the caller
        if words and (c.is_verb(need_verb=need_verb) or _unknown_verb(c)) and not _noun_before_verb(c, words) \
                and not (not coordinated and _noun_modifier(c, words)):
            break
        if not words and t.lemma and c.is_verb(need_verb=need_verb) and t.low not in _NOUNISH_VERBS:
            break
        words.append(t.text)
        c.i += 1
    label = np_label(words)
    if both and len(words) == 1 and re.search(r"[^s]s$", label):
        return "both:" + label
    return label or None


def _read_np_list(c: _Clause, *, need_verb: bool = False) -> list[str]:
    """ "X", "X and Y", "X, Y and Z", "both X and Y" -> names (pronouns kept as lower-case words)."""
    names = []
    while True:
        np = _read_np(c, need_verb=need_verb)
        if np:
            names.append(np)
        if np and (t := c.peek()) is not None and t.text == "(" and (k := _remark_end(c)) is not None \
                and (n := c.peek(k - c.i + 1)) is not None and n.low in ("and", "or", "plus", ","):
            c.i = k + 1  # "a waveforms unit (extraction and templates) and a metrics unit": the list goes on
        t, n = c.peek(), c.peek(1)
        if t is not None and (t.low in ("and", "or", "plus") or t.text == ",") and n is not None:
            # ", and X" / "and X" continue the list unless a verb follows (then it is a new clause)
            j = 1
            if n.low in ("and", "or"):
                j = 2
            save = c.i
            c.i += j
            if c.peek() is None or c.is_verb(need_verb=True) or c.peek().low in _AUX | _ADVERBS | _BOUNDARY or _neg_ahead(c):
                c.i = save
                break
            probe = c.i
            nxt = _read_np(c, need_verb=True)
            after = c.peek()
            c.i = probe
            if nxt and after is not None and (after.low in _AUX or c.is_verb(c_offset(c, after), need_verb=True)) \
                    and not need_verb:
                c.i = save  # "A feeds B, and C reads D": a new clause starts at C
                break
            continue
        break
    return names


def _remark_end(c: _Clause) -> int | None:
    """Where the bracketed remark opening at the cursor closes (its last token), or None."""
    k = next((j for j in range(c.i + 1, len(c.toks)) if c.toks[j].text == "(" or c.toks[j].text.endswith(")")), None)
    return k if k is not None and "(" not in c.toks[k].text else None


def c_offset(c: _Clause, tok: _Tok) -> int:
    return c.toks.index(tok, c.i) - c.i


@dataclass
class ProseState:
    """What carries from clause to clause: the last names (for "which", "it") and the results."""

    relations: list[tuple[str, str, str | None]] = field(default_factory=list)  # (source, target, label)
    groups: list[tuple[str, list[str]]] = field(default_factory=list)  # (group label, member labels)
    last: list[str] = field(default_factory=list)  # names the previous clause ended on
    subject: list[str] = field(default_factory=list)  # the previous clause's subject
    mentioned: list[str] = field(default_factory=list)  # every name in this sentence
    negated: list[tuple[str, str]] = field(default_factory=list)  # (source, target) a negated clause names
    actors: list[str] = field(default_factory=list)  # boxes no flow names: a subject of a verb the lexicon lacks
    # ("a SPAN port mirrors …"), a list after a preposition ("stacked with graphite anodes and separator")


def _skip(c: _Clause, words: set[str]) -> None:
    while (t := c.peek()) is not None and (t.low in words or _LY_ADVERB.fullmatch(t.low)):
        c.i += 1


# "is read independently by", "are automatically merged": an adverb in -ly is skipped wherever adverbs are
# ("assembly", "family", "supply" end in -ly too, but not after these endings)
_LY_ADVERB = re.compile(r"[a-z]{2,}(?:al|ent|ant|ate|ive|ous|ed|ar|ic|ful|less|ing|ible|able|ual|ial|ise|ete|ct)ly")


def _neg_ahead(c: _Clause) -> bool:
    """Does a negation start at the cursor ("never", "not", "does not", "has no")?"""
    t, n = c.peek(), c.peek(1)
    return t is not None and (t.low in _NEG - {"no"} or t.low in _NEG_AUX | _AUX and n is not None and n.low in _NEG)


def _drop_negation(c: _Clause) -> bool:
    """Whether the verb phrase at the cursor is negated; its negation words are taken out of the clause
    ("is not fed" reads as "is fed", "does not call" as "call", "has no route to" as "route to")."""
    j, neg = c.i, False
    while (t := c.peek(j - c.i)) is not None and (t.low in _ADVERBS | _AUX | _NEG | _NEG_AUX):
        n = c.peek(j - c.i + 1)
        if t.low in _NEG or t.low in _NEG_AUX and n is not None and n.low in _NEG:
            neg = True
        elif t.low in _NEG_AUX:
            break
        j += 1
    if neg:
        c.toks[c.i:j] = [t for t in c.toks[c.i:j] if t.low not in _NEG | _NEG_AUX]
    return neg


def _says_nothing(c: _Clause) -> bool:
    """A verb whose object is "nothing" / "none" ("the camera sends nothing back to the state machine"): no flow."""
    j = c.i
    while (t := c.peek(j - c.i)) is not None and t.low in _AUX | _ADVERBS:
        j += 1
    v, o = c.peek(j - c.i), c.peek(j - c.i + 1)
    return v is not None and v.lemma is not None and o is not None and o.low in ("nothing", "none")


def _read_vp(c: _Clause, subj: list[str], st: ProseState, *, passive: bool = False,
             fixed_obj: list[str] | None = None) -> None:
    """One verb phrase with its object and prepositional targets; coordinated ones follow ("and given to"). A
    negated one ("never writes to X", "does not call X", "is not fed into X") draws nothing: ``st.negated``."""
    neg = _drop_negation(c) or _says_nothing(c)
    n_rel, n_grp, last = len(st.relations), len(st.groups), list(st.last)
    start = c.i
    _read_vp_body(c, subj, st, passive=passive, fixed_obj=fixed_obj, more=not neg)
    if neg and c.i == start and c.peek() is not None:  # "never talks to X": a verb the lexicon lacks
        c.i += 1
        _skip(c, _PREPS | _ADVERBS)
        st.negated += [(s, o) for s in subj for o in _read_np_list(c) if o not in _PRONOUNS]
    if neg:
        st.negated += [(a, b) for a, b, _ in st.relations[n_rel:]]
        del st.relations[n_rel:], st.groups[n_grp:]
        st.last = last
        _more_vp(c, subj, st, passive)  # "sends nothing to X and passes tokens to Y": the second one stands


# verbs whose one object is no part: "a pyramid is built from all pixel pairs" (its input), "isoforge wraps the PacBio
# Iso-Seq tools" (a tool around one thing); the thing stays a box (round 24: dev plans alone groups 0.4759 -> 0.4802,
# nodes and edges unchanged; train groups 0.2647 -> 0.2668, nodes 0.5325 -> 0.5328, edges unchanged)
_AROUND_ONE = frozenset({"build", "wrap"})


def _hold(st: ProseState, subj: list[str], lemma: str, parts: list[str]) -> None:
    """The subjects, groups holding ``parts`` ("the encoder contains X and Y", "a service made of A and B"); the one
    thing a verb of :data:`_AROUND_ONE` says is a box of its own instead."""
    if lemma in _AROUND_ONE and len(parts) <= 1:
        st.actors += [p for p in parts if p not in _PRONOUNS]
    else:
        st.groups += [(s, parts) for s in subj]


def _read_vp_body(c: _Clause, subj: list[str], st: ProseState, *, passive: bool = False,
                  fixed_obj: list[str] | None = None, more: bool = True) -> None:
    _skip(c, _ADVERBS)
    if (t := c.peek()) is not None and t.low == "with" and c.peek(-1) is not None and c.peek(-1).low == "together":
        c.i += 1  # "which together with the allocation store forms the core": both are the subject
        subj = subj + [n for n in _read_np_list(c) if n not in _PRONOUNS]
        _skip(c, _ADVERBS | {","})
    while (t := c.peek()) is not None and t.low in _AUX:
        passive = True
        c.i += 1
        _skip(c, _ADVERBS | {"all", "both", "each"})  # "are all collected by MultiQC"
    t = c.peek()
    if t is None:
        return
    lemma = t.lemma or (t.low[:-2] if passive and re.search(r"[a-z](?:ed|en)$", t.low) else None)
    if lemma is None:
        return
    c.i += 1
    made_up = lemma == "make" and c.peek() is not None and c.peek().low == "up"  # "A and B make up the service"
    _skip(c, _PARTICLES - ({"in"} if passive else set()) - ({"on"} if lemma in _LEARN_ON else set()))  # ("trained on X")
    _skip_shared_verb(c)
    nxt = c.peek()
    if lemma == "use" and passive and nxt is not None and nxt.low in ("to", "for") and c.peek(1) is not None:
        c.i += 1  # "X is used to search Y": the subject does the searching; "used for fine-tuning": X goes there
        if (v := c.peek()) is not None and v.lemma and not v.low.endswith("ing") and c.is_verb():
            _read_vp(c, subj, st)
        elif ends := [n for n in _read_np_list(c) if n not in _PRONOUNS]:
            st.relations += [(s, e, None) for s in subj for e in ends]
            st.last = ends
        return
    if lemma == "follow" and nxt is not None and nxt.low == "by":
        c.i += 1
        objs = _read_np_list(c)
        st.relations += [(s, o, None) for s in subj for o in objs]
        st.last = objs or st.last
        (_more_vp if more else _no_more)(c, subj, st, passive)
        return
    if lemma in ("consist", "make", "compose", "build") and nxt is not None and nxt.low in ("of", "from") \
            and (passive or lemma == "consist"):
        c.i += 1
        _hold(st, subj, lemma, _read_np_list(c))
        return
    objs: list[str] = list(fixed_obj or [])
    if not passive and not fixed_obj and nxt is not None and (nxt.low not in _PREPS or nxt.low in ("up", "out")):
        objs = _read_np_list(c)
    if (lemma in _GROUP_VERBS or made_up) and objs and not passive:
        st.groups.append((objs[0], subj))
        return
    if lemma in _CONTAINER_VERBS and objs and not passive:
        _hold(st, subj, lemma, objs)
        return
    if lemma == "run":  # "the refine stage runs lima": lima is inside the stage; "X runs on a GPU": nothing
        if objs and not passive and subj and all(_STAGE_HEADS.search(s) for s in subj):
            st.groups += [(s, objs) for s in subj]
            st.last = objs
            (_more_vp if more else _no_more)(c, objs, st, passive)
        return
    preps: list[tuple[str, list[str]]] = []
    label: str | None = None
    benefit: list[str] = []  # "A fetches passages for the reader": the reader gets them (a definite "for" only)
    purpose: list[str] = []
    while (t := c.peek()) is not None and (along := _at_prep(c)) is not None:
        if t.text == "(" or along:  # "(as …)", "together with …" (never at the end): the preposition is the
            c.i += 1  # second word; a bare "along" is one ("passes frames along.", "along Kafka to X")
            t = c.peek() or t
        c.i += 1
        det = c.peek()
        names = _read_np_list(c)
        if t.low == "for" and det is not None and det.low in _DEFINITE:
            benefit += names
        if t.low == "for" and passive and det is not None and det.low not in _QUANTIFIERS \
                and not any(re.search(r"\d", n) for n in names):  # "flagged for manual review": where X goes
            purpose += names
        if c.peek() is not None and c.peek().text == ")":
            c.i += 1
        if t.low in ("via", "as") and names:
            label = names[0]
        elif along and objs and not passive:  # "queries a VEP cache together with gnomAD and ClinVar": more objects
            objs += [n for n in names if n not in _PRONOUNS]  # (any "with": dev edges 0.2062 -> 0.2044)
        else:
            _take_prep(st, preps, t.low, names)
    objs = [n for o in objs for n in (_resolve(o, st) if o in ("it", "them", "these", "those", "this")
                                      or o.startswith("both:") else [o])]
    preps = [(p, [n for x in ns for n in (_resolve(x, st) if x.startswith("both:") else [x])]) for p, ns in preps]
    objs = [o for o in objs if o not in _PRONOUNS and o not in subj]
    subj = [s for s in subj if s not in _PRONOUNS]
    targets = [n for p, ns in preps if p in _TARGET_PREPS or p in ("in", "on") and lemma in ("store", "save", "write",
               "keep", "cache", "index", "load", "deposit", "inject", "enter", "gather", "pool", "insert", "record",
               "render") for n in ns if n not in _PRONOUNS]
    if not targets and not any(p == "by" for p, _ in preps) and lemma not in _SEEK:  # ("read by Pangolin for
        targets = [n for n in purpose if n not in _PRONOUNS]  # lineage assignment": the agent's task; "screened for")
    sources = [n for p, ns in preps if p == "from" or p == "on" and lemma in _LEARN_ON for n in ns if n not in _PRONOUNS
               and not (p == "on" and _DEVICES.search(n))]  # "trained on 8 A100 GPUs": hardware, no data
    agents = [n for p, ns in preps if p == "by" for n in ns if n not in _PRONOUNS]
    through = next(([n for n in ns if n not in _PRONOUNS] for p, ns in preps if p == "through"
                    and len([n for n in ns if n not in _PRONOUNS]) >= 2), None)
    if through and not sources:  # "points pass through A, B and C into D": a sequence, in the order said
        heads = objs or subj
        rest = [n for p, ns in preps if p in _TARGET_PREPS - {"through"} for n in ns if n not in _PRONOUNS]
        st.relations += [(h, through[0], None) for h in heads] + [(a, b, None) for a, b in zip(through, through[1:])]
        st.relations += [(through[-1], t, None) for t in rest]
        st.last = rest or through[-1:]
        (_more_vp if more else _no_more)(c, subj, st, passive)
        return
    lab = label or (objs[0] if len(objs) == 1 else None)  # "A sends features to B": the one object labels the edge
    new, ends = verb_relations(lemma, passive, subj, objs, targets, sources, agents, benefit, label, lab)
    st.relations += new
    if (objs or passive) and not targets:  # "classifies X against GENCODE": GENCODE is read
        st.relations += [(a, s, None) for p, ns in preps if p == "against" for a in ns for s in subj if a not in _PRONOUNS]
    if ends:
        st.last = ends
    # "features are warped by homographies, aggregated by variance, …": each step's agent hands on to the next
    chained = passive and agents and ends == agents and _steps_on(c)
    (_more_vp if more else _no_more)(c, agents if chained else subj, st, passive)


def _steps_on(c: _Clause) -> bool:
    """After a passive step and its agent, the next step takes what the agent made: a step word says so ("trimmed by
    fastp, then aligned by BWA", "and finally sorted by samtools"), a comma lists the steps ("warped by homographies,
    aggregated by variance"), a step after "and" has no agent of its own ("decrypted by the server and checked
    against its cache"); not two agents after "and" ("consumed by the dashboard and read by the archiver": both read
    the subject)."""
    if any((w := c.peek(k)) is not None and w.low in _STEP_WORDS for k in (0, 1, 2)):
        return True
    t, n = c.peek(), c.peek(1)
    if t is None or n is None:
        return False
    if t.text == ",":
        return n.low != "and"
    if t.low != "and":
        return False
    k = 1
    while (w := c.peek(k)) is not None and w.text not in ",;" and w.low != "and":
        if w.low == "by":
            return False
        k += 1
    return True


def _take_prep(st: ProseState, preps: list[tuple[str, list[str]]], prep: str, names: list[str]) -> None:
    """A prepositional phrase of a verb phrase kept; a list of two or more after a preposition that names no flow
    ("stacked with graphite anodes and separator") is boxes (one thing: as often a remark, "in a buffer"; dev
    nodes 0.5459 against 0.5461, edges 0.2161 against 0.2111)."""
    preps.append((prep, names))
    if prep not in _TARGET_PREPS | {"from", "by"} and (len(names) >= 2 or prep in _TOOL_PREPS
                                                        and any(map(_TOOL_NAME.search, names))):
        st.actors += [n for n in names if n not in _PRONOUNS and n not in st.actors]



def _at_prep(c: _Clause) -> bool | None:
    """A prepositional phrase at the cursor (None: none): True for one that adds objects ("together with",
    "along with", "alongside"), False for any other ("to", "(as …)")."""
    t, n = c.peek(), c.peek(1)
    if t is None:
        return None
    if t.low == "alongside" or t.low in _ALONG and n is not None and n.low == "with":
        return True
    return False if t.low in _PREPS or t.text == "(" and n is not None and n.low == "as" else None


def _no_more(c: _Clause, subj: list[str], st: ProseState, passive: bool) -> None:
    """No coordinated verb phrase read here (a negated one's is read after its negation is out: :func:`_read_vp`)."""


def _skip_shared_verb(c: _Clause) -> None:
    """ "normalises and left-aligns the VCF": the second verb shares the first one's object (skipped)."""
    while (a := c.peek()) is not None and a.low in ("and", "or") and (v := c.peek(1)) is not None \
            and (v.lemma is not None and c.is_verb(1) or v.lemma is None and re.fullmatch(r"[a-z][a-z-]{2,}[^s]s", v.low)) \
            and (n := c.peek(2)) is not None and n.low in _DETERMINERS | {"it", "them"}:
        c.i += 2


def _more_vp(c: _Clause, subj: list[str], st: ProseState, passive: bool) -> None:
    """A coordinated verb phrase with the same subject: "is re-ranked and given to the LLM"."""
    t = c.peek()
    if t is None or not (t.low in ("and", "then") or t.text == ","):
        return
    save = c.i
    c.i += 1
    _skip(c, {"and", "then"} | _ADVERBS)
    t = c.peek()
    if t is not None and (t.low in _AUX or c.is_verb() or _neg_ahead(c) or passive and re.search(r"[a-z](?:ed|en)$", t.low)):
        _read_vp(c, subj, st, passive=passive and t.low not in _AUX)
    else:
        c.i = save


def read_prose(sentence: str, st: ProseState) -> None:
    """Relations and groups one prose sentence states (appended to ``st``)."""
    c = _Clause(_tokens(sentence))
    group: str | None = None
    rel = then = False
    first = len(st.relations)
    remark: tuple[int, list[str], int] | None = None
    if (t := c.peek()) is not None and t.low in OPENERS and c.peek(1) is not None and c.peek(1).text == ",":
        c.i = 2  # "Downstream, the postprocessing layer contains …": no thing called "Downstream"
    while (t := c.peek()) is not None:
        start = c.i
        if t.text == "(" and st.last and (k := _remark_end(c)) is not None:
            remark = (k, list(st.last), len(st.relations))  # "the allocation engine (minimisation with …),
        if remark is not None and c.i > remark[0]:  # which …": the remark's names are read, "which" is the engine
            if len(st.relations) == remark[2]:  # (unless a verb phrase went on from the remark's names)
                st.last = remark[1]
            remark = None
        if t.text in ",;:()" or t.low in ("and", "or", "but", "so", "also"):
            c.i += 1
            continue
        if t.low == "then":
            then, c.i = True, c.i + 1
            continue
        if t.low in ("which", "who", "that") and st.last:
            rel, c.i = True, c.i + 1
            continue
        if t.low in _BOUNDARY:
            c.i += 1
            continue
        if t.low in _GROUP_PREPS and group is None:
            c.i += 1
            np = _read_np(c)
            if np and _GROUP_HEADS.search(np) and c.peek() is not None and c.peek().text == ",":
                group = np
            continue
        if t.low in _PREPS and t.low != "from":
            c.i += 1
            _read_np(c)
            continue
        if t.low == "from":
            c.i += 1
            a = _read_np_list(c)
            if c.peek() is not None and c.peek().low in ("to", "into", "towards"):
                c.i += 1
                b = _read_np_list(c)
                st.relations += [(x, y, None) for x in a for y in b]
                st.last = b or st.last
            elif a and st.last and c.i - len(a) > 1 and c.peek() is not None and (c.peek().low in _AUX or c.is_verb()):
                _read_vp(c, a, st)  # "numbers from the RDD sample are dialled by the CATI system": the source goes on
            continue
        if rel and (c.is_verb() or t.low in _AUX | _ADVERBS or _neg_ahead(c)):
            subj = st.last
            _read_vp(c, subj, st)
        else:
            said = _read_np_list(c, need_verb=True)
            names = [n for n in (_resolve(n, st) for n in said) for n in n]
            said = [said[0].removeprefix("both:")] if said and t.low in _BACK_REFERENCES else []  # "these paths"
            _skip(c, _ADVERBS)
            if rel and names and c.peek() is not None and c.is_verb():
                _read_vp(c, names, st, fixed_obj=st.last)  # "which the decoder reads": the object is the antecedent
            elif names and c.peek() is not None and (c.peek().low in _AUX or c.is_verb() or _neg_ahead(c)):
                st.subject, n_rel = names, len(st.relations)
                _read_vp(c, names, st)
                if len(st.relations) == n_rel:  # "the images are resized; then a ViT encodes them": the images
                    st.last = names
                if not any(lab in names for _, _, lab in st.relations[n_rel:]):  # ("data flows from A to B":
                    _subject_box(st, [n for n in names if n not in said])  # the data is the link's label)
            elif names and _unknown_verb(c):  # "the stream job enriches each event … and writes it to X"
                st.subject = names
                c.i += 1
                objs = [n for n in _read_np_list(c) if n not in _PRONOUNS]
                st.last = objs or st.last
                st.actors += [n for n in names if n not in st.actors]  # (its objects as boxes too, or linked
                # to it: dev nodes 0.5332 -> 0.5328, edges 0.2109 -> 0.2066)
                while (t := c.peek()) is not None and t.low in _PREPS and t.low not in _TARGET_PREPS:
                    c.i += 1
                    _read_np_list(c)  # ("from X" read X -> the subject: dev edges 0.2186 -> 0.2182)
                if (t := c.peek()) is not None and t.low in _TARGET_PREPS and (n := c.peek(1)) is not None \
                        and n.low not in _PRONOUNS and not n.lemma:  # "mirrors the core switch into the NIC"
                    c.i += 1
                    ends = [x for x in _read_np_list(c) if x not in _PRONOUNS]
                    st.relations += [(a, b, objs[0] if len(objs) == 1 else None) for a in names for b in ends]
                    st.last = ends or st.last
                _more_vp(c, names, st, False)
            elif names:
                if then and st.last:  # "First A, then B"
                    st.relations += [(a, b, None) for a in st.last for b in names]
                st.last = names
        rel = then = False
        if c.i == start:
            c.i += 1
    for a, b, _ in st.relations[first:]:
        for n in (a, b):
            if n not in st.mentioned:
                st.mentioned.append(n)
    if group:
        members = [n for n in st.mentioned if normalise_label(n) != normalise_label(group)]
        if members:
            st.groups.append((group, members))


def _subject_box(st: ProseState, names: list[str]) -> None:
    """A clause's subject of one plain word is a box where no flow is read from its clause ("the watcher is
    restarted weekly": Watcher): dev nodes/edges/groups 0.5576/0.2248/0.3742 -> 0.5710/0.2252/0.3976.
    (Subjects of more words, or with capitals or digits inside, too: 0.5712/0.2185/0.4179, more false boxes
    and true links lost where a new box takes a name's place; they alone: 0.5609/0.2198/0.3964.)"""
    st.actors += [n for n in names if n not in _PRONOUNS and n not in st.actors and len(n.split()) == 1
                  and not re.search(r"[A-Z0-9]", n[1:])]


def first_noun_phrase(text: str) -> str | None:
    """The noun phrase a text opens on, up to its verb ("a PixelCNN prior is fitted over …" -> "PixelCNN
    prior"); None where it opens on a pronoun ("we apply …"), a preposition or a verb, or where nothing follows
    the verb ("System build", "Section merging": a name)."""
    c = _Clause(_tokens(re.split(r"[.;:\n]", text.strip(), maxsplit=1)[0]))
    np = _read_np(c, need_verb=True)
    if not np or np in _PRONOUNS or len(np.split()) > 4 or c.peek() is None or c.peek(1) is None \
            or c.peek().low.endswith("ing") \
            or not (c.peek().low in _AUX or c.is_verb() or _unknown_verb(c) or _neg_ahead(c)):
        return None
    return np


def _resolve(name: str, st: ProseState) -> list[str]:
    if name.startswith("both:"):  # "both paths write into PostgreSQL": the two things the flow reached last
        two = next((x for x in (st.last, st.subject) if len(x) == 2), None)
        return two or [name[5:]]
    if name in ("it", "this", "that", "itself"):
        return st.subject[:1] or st.last[:1]
    if name in ("they", "these", "those", "them"):
        return st.last or st.subject
    return [] if name in _PRONOUNS else [name]


def reads_backward(between: str) -> bool:
    """Whether the words between two names say the second feeds the first: "vs" / "against" before any word
    that sends forward ("Beagle vs the TOPMed panel", "the detection stage matches the streams against the
    ruleset"). (Backward verbs and "from" tried as well: links found by the name head, dev edges 0.2008 ->
    0.1971 and 0.2023; "vs" / "against" alone 0.2032.)"""
    for w in re.findall(r"[a-z][\w-]*", between.lower()):
        if w in _TARGET_PREPS:
            return False
        if w in ("vs", "versus", "against"):
            return True
    return False
