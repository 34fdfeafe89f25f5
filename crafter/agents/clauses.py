"""Steps said as clauses of one sentence, each opening on a name that acts: "a camera images each line, a CNN
estimates its width, and a PI controller corrects the extruder" (the camera feeds the CNN, the CNN the PI
controller). A clause after ", " / ", and" / ", then" / "and then" whose first words are its subject, a name followed
by a verb, continues from the subject of the clause before, where that one opened its clause and acted too.

Guards: a clause after "while" / "whereas" / "but" / "which" runs beside the one before, not after it, and so does
one whose verb is the verb before ("worker 1 reads shard 1, worker 2 reads shard 2", "model A scores 0.91, model B
scores 0.87": actors side by side, each doing the same, not a step handed on); a subject
whose next word is a verb that also names a thing ("the decoder outputs", "the encoder feeds") does not open a clause
after a bare "and" ("the encoder and the decoder outputs are cached"), only after a comma or "then"; a clause opening
on a scene ("In the inner loop (a), a camera …") has no subject to continue from.
"""

from __future__ import annotations

import re

from crafter.agents.prose import verb_lemma
from crafter.agents.prose_words import _CONTAINER_VERBS, _GROUP_VERBS, _NOUNISH_VERBS

# a sentence's opening words before its subject: a list mark, an article, a step word
OPENS = re.compile(r"\s*(?:[-*•·–]\s+|\(?\d{1,2}[.)]\s+)?(?:(?:the|a|an|then|next|finally)\s+)?", re.I)
# the words right before a clause's subject: a comma (", and", ", then") or a colon, or "and" / "and then" alone
_BOUNDARY = re.compile(r"(?:(?P<comma>[,:])\s*(?:and\s+)?|\band\s+)(?:(?P<then>then)\s+)?(?:(?:the|a|an)\s+)?$", re.I)
# a word in -s the lexicon does not know, before its object's determiner: a verb ("a CNN estimates its width")
_SAYS_VERB = re.compile(r"\s*(?:then\s+)?[a-z]{2,}(?<![su])s\s+(?:the|a|an|its|their|each|every|all|it|them|this|these)\b",
                        re.I)
# a verb that says what a thing is made of or holds, not what it hands on ("… form the build stage", "… hosts the API")
_STRUCTURE = _GROUP_VERBS | _CONTAINER_VERBS | {"host", "consist", "sit", "stack", "make"}
_OBJECT_NEXT = re.compile(r"\s*(?:then\s+)?[a-z]+\s+(?:the|a|an|its|their|each|every|all|it|them|this|these)\b", re.I)
_OWN_TARGET = re.compile(r"\b(?:to|into|onto)\b", re.I)  # "the arm goes back to the site, …": its step ends there
_BESIDE = re.compile(r"\b(?:while|whereas|but|which|who|whose|where|when|if|unless|until|or)\b|:", re.I)


def acts(after: str, *, strict: bool = False) -> bool:
    """The words after a clause's opening name make it act: a verb ("SQANTI3 then classifies each isoform").
    ``strict``: not a verb that also names a thing ("outputs", "feeds")."""
    words = re.findall(r"[a-z]+", after.lower())[:2]
    if words[:1] == ["then"]:
        words = words[1:]
    copula = ("is", "are", "was", "were")
    if words[1:2] and words[1] in copula:
        return False  # "the encoder outputs are cached": a noun between the name and its verb, the name acts not
    if not words or words[0] in copula or strict and words[0] in _NOUNISH_VERBS:
        return False
    return bool(verb_lemma(words[0]))


def clause_steps(sentence: str, spots: list[tuple[int, int, str]]) -> list[tuple[str, str]]:
    """The (subject, next subject) pairs of a sentence's clauses said one after another (``spots``: where the sentence
    says its names, in order)."""
    out: list[tuple[str, str]] = []
    subject: tuple[int, str, str] | None = None  # the acting subject of the clause read last: (its end, its name,
    # its verb)
    for k, (start, end, name) in enumerate(spots):
        if k == 0 and OPENS.fullmatch(sentence[:start]):
            opens, strict = True, False
        else:  # ("In the inner loop (a), a camera images …": a scene, then the first clause's subject)
            b = _BOUNDARY.search(sentence[spots[k - 1][1] if k else 0:start])
            opens, strict = b is not None, b is not None and not (b.group("comma") or b.group("then"))
        verb = _hands_on(sentence[end:], strict) if opens else None
        if verb is None or name.lower() in ("latter", "former"):
            continue
        between = sentence[subject[0]:start] if subject else ""
        if subject is not None and subject[1] != name and subject[2] != verb and not _BESIDE.search(between) \
                and between.count(",") <= 1 and not _OWN_TARGET.search(between):
            out.append((subject[1], name))
        subject = (end, name, verb)
    return out


def _hands_on(after: str, strict: bool) -> str | None:
    """The verb (its lemma) a clause's subject acts by (:func:`acts`, or a word in -s before an object: "a CNN
    estimates its width"), a verb of its own (not "During training", "TF-IDF normalised data": a participle) that is
    no verb of structure ("form", "host"); None where it does not act."""
    if not (acts(after, strict=strict) or _SAYS_VERB.match(after)):
        return None
    word = [w for w in re.findall(r"[a-z]+", after.lower())[:2] if w != "then"][0]
    if word.endswith("ing") or word.endswith("ed") and not _OBJECT_NEXT.match(after):
        return None
    lemma = verb_lemma(word) or word.rstrip("s")
    return None if lemma in _STRUCTURE else lemma
