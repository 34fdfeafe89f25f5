"""A sentence that opens on no name but on words pointing back to the sentence before: "The encoder maps each
image to a grid of latents. Its output feeds the decoder" (the encoder feeds the decoder), "… by the annotator,
which queries a VEP cache. Annotated variants go to the classifier" (the annotator feeds the classifier), "… a
flow-statistics extractor and a payload tokenizer. Both feature sets feed a classifier" (both feed it).

What the opening words point at (:func:`pointing_back`): "both …" / "the two …" / "all three …" the names the
sentence before lists, that many; "it" / "its output" / "this" / "the latter" / "the resulting …" or a noun phrase
naming no box ("annotated variants", "clean forms") the one name the sentence before hands on (:func:`referents`):
its last name outside a clause about it (", which queries a VEP cache together with gnomAD": the annotator, not
gnomAD). The words after must hand the thing on to the sentence's first name: a flow verb ("feeds", "go to",
"enters", "are reported to", "are processed by", "inform", "conditions").

Guards: an opening word that sets a scene is no reference ("If …", "On each trial …", "In (b) …", "Each …"); a
noun phrase of more than four words, one that says a verb, and a list line are not read; the sentence before must
be prose (a heading's names are no thing handed on: "## Randomisation service\nSubmissions go to the engine") and
say the names.

Measured on the dev briefs' plans alone (nodes / edges / groups F1): rules 0.5923 / 0.2464 / 0.4273 -> 0.5923 /
0.2472 / 0.4273; rules with the name head's names 0.6363 / 0.2410 / 0.4315 -> 0.6363 / 0.2417 / 0.4315. (The form
is rare in the dev briefs: it fires in 5 rules plans and 8 plans over the head's names. Where the sentence before
says too few names for "both", the last names said before it that lead nowhere yet: 0.2410 -> 0.2408 with the
head, dropped.)
"""

from __future__ import annotations

import re

from crafter.agents.prose import verb_lemma

_OPENER = re.compile(r"^\s*(?:(?:then|next|finally|downstream|afterwards|in\s+turn)\s*,?\s+)?", re.I)
_MARK = re.compile(r"^\s*(?:[-*•·–]|\(?\d{1,2}[.)]|\(?[a-z][.)])\s", re.I)  # a list or panel line's mark
_COLLECTIVE = re.compile(r"^(?:both|the\s+two|all\s+(?:the\s+)?(?P<n>two|three|four|[2-4]))(?:\s+|$)", re.I)
_NUMBERS = {"two": 2, "three": 3, "four": 4}
_POINTER = re.compile(r"^(?:it|they|its|their|this|these|the\s+latter|the\s+resulting|the\s+results?|"
                      r"the\s+outputs?)(?:\s+|$)", re.I)
# a noun phrase said of the data, not of a box: its words are nouns or participles ("annotated variants")
_SCENE_WORDS = {"if", "when", "while", "once", "on", "in", "at", "for", "with", "after", "before", "during", "each",
                "every", "per", "from", "to", "by", "as", "here", "there", "we", "i", "you", "a", "an", "one", "no",
                "only", "some", "any", "otherwise", "also", "but", "and", "or", "so", "because", "since", "where", "either"}
# handing the thing on to the first name said next
_HANDS_ON = re.compile(
    r"^(?:then\s+|also\s+|now\s+)?(?:"
    r"(?:is|are)\s+(?:then\s+|also\s+)?(?:[a-z]+ed|read|built|sent|fed|given|written|run|split|kept|held|taken|"
    r"made|drawn|shown|seen)\s+(?:[a-z]+ly\s+)?(?:on\s+|back\s+)?(?:to|into|by|through)|"
    r"(?:is|are)\s+(?:then\s+)?(?:stored|saved|kept|loaded|indexed|cached|archived|deposited)\s+in|"
    r"(?:go|goes|pass|passes|flow|flows|move|moves)\s+(?:on\s+)?(?:to|into|through)|"
    r"(?:enter|enters|feed|feeds|reach|reaches|undergo|undergoes|inform|informs|condition|conditions|drive|drives)|"
    r"(?:land|lands|end\s+up|ends\s+up)\s+in|(?:feed|feeds)\s+(?:in)?to|"
    r"(?:write|writes)\s+(?:\w+\s+){0,2}?(?:to|into)|(?:is|are)\s+(?:then\s+)?(?:fed|sent|given|written|read)\s+"
    r"(?:in)?to"
    r")\s+(?:(?:the|a|an|each|every)\s+(?:(?!(?:of|for|in|on|with|at|by)\s)[\w-]+\s+){0,2}?)?$", re.I)
# ("… conditions a small local Transformer"; not "… inform the typology of transitions": a name of the word after)
_OBJECT_OF = re.compile(r"\b(?:over|with|against|from|on|in|across|using|via|by|of)\s+(?:the\s+|a\s+|an\s+)?$",
                        re.I)
_ASIDE = re.compile(r",\s*(?:which|who|whose|where|together\s+with|with)\b", re.I)
_PROSE_END = re.compile(r"[.;!?][\W_]*$")  # a sentence of prose, not a heading ("## Randomisation service")
_MAX_OPENING_WORDS = 4  # (six after "its", "this", "the resulting": "its output for every patch")


def possessive(opening: str) -> bool:
    """The reference opens on "its" / "their": the output of a thing that acts."""
    return re.match(r"(?:its|their)\s", _OPENER.sub("", opening, count=1), re.I) is not None


def made_by(opening: str) -> str:
    """The stem of the participle a reference opens on, the step that made the thing ("annotat" for "Annotated
    variants go to …", "cluster" for "Clustered transcripts are mapped …"); "" for none."""
    m = re.match(r"\s*([a-z]{4,}?)e?d\b", _OPENER.sub("", opening, count=1), re.I)
    return m.group(1).lower() if m else ""


def pointing_back(opening: str) -> int | None:
    """How many names of the sentence before a sentence's opening words (all before its first name) point at and
    hand on to that name: n for "Both feature sets feed" / "The two learners write to", 1 for "Its output feeds",
    "Annotated variants go to"; None where they point at nothing."""
    if _MARK.match(opening):
        return None  # a list line or a panel's: its order, not a reference (:mod:`crafter.agents.extract`)
    opening = _OPENER.sub("", opening, count=1)
    for m in re.finditer(r"\s+", opening):
        np, rest = opening[:m.start()].strip(), opening[m.start():].strip()
        if np and _HANDS_ON.match(rest + " "):
            return _referent_count(np)
    return None


def pointed_to(sentence: str, spots: list[tuple[int, int, str]]) -> tuple[str | None, int | None]:
    """The name a sentence hands a reference on to and how many names it points back at (:func:`pointing_back`):
    its first name, or, for a reference opening on "its" / "their" / "this", a later one where the names before sit
    in the reference's own words ("its output for every patch conditions the local Transformer")."""
    for k, (start, _, name) in enumerate(spots):
        opening = sentence[:start]
        if k and not _POINTER.match(_OPENER.sub("", opening, count=1)):
            break
        count = pointing_back(opening)
        if count:
            return name, count
    return None, None


def _referent_count(np: str) -> int | None:
    words = re.findall(r"[\w'$-]+", np.lower())
    pointer = _POINTER.match(np) is not None
    if not words or len(words) > _MAX_OPENING_WORDS + 2 * pointer or words[0] in _SCENE_WORDS or np.lower() != np and \
            any(w[:1].isupper() for w in np.split()[1:]):
        return None  # "If …", "On each trial …", "A PI controller …": a scene or a name the reading does not know
    c = _COLLECTIVE.match(np)
    if c:
        return _NUMBERS.get((c.group("n") or "").lower()) or (int(c.group("n")) if (c.group("n") or "").isdigit()
                                                             else 2)
    if pointer:
        return 1
    if any(verb_lemma(w) and not w.endswith("ed") and not w.endswith("s") for w in words[:-1]):
        return None  # "the classifier scores flows": a clause
    return 1


def referents(sentence: str, spots: list[tuple[int, int, str]], n: int, stem: str = "",
              possessive: bool = False) -> list[str]:
    """The names of the sentence before (``spots``: where it says them) that a reference to n things points at: the
    one whose word the participle's ``stem`` opens (:func:`made_by`: "the cluster stage" for "Clustered …"), else the
    last n said outside an aside (", which …") where that many are, else the last n; for a ``possessive`` ("its
    output"), none said as a preposition's object where another is."""
    if not spots or not _PROSE_END.search(sentence):
        return []  # a heading or a list line before: no sentence the reference goes on from
    maker = [name for *_, name in spots if stem and any(w.startswith(stem) for w in re.findall(r"\w+", name.lower()))]
    if n == 1 and maker:
        return maker[-1:]
    if n == 1 and possessive:  # "its": the thing that acts, not a preposition's ("… a global Transformer over the
        spots = [s for s in spots if not _OBJECT_OF.search(sentence[:s[0]])] or spots  # patch sequence; its …")
    aside = _ASIDE.search(sentence)
    main = [s for s in spots if aside is None or s[1] <= aside.start()]
    pool = main if len(main) >= n else spots
    names = list(dict.fromkeys(name for *_, name in pool))
    return names[-n:] if len(names) >= n else []
