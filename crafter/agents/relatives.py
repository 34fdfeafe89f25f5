"""A thing handed on in an object relative clause: "… writes a plate map, which the dispensing robot reads" (the
plate map feeds the robot), "… extracts pose landmarks, which a transformer classifier maps to a sign label" (the
landmarks feed the classifier). The name right after "which" is the clause's subject and acts on the name before
it: the link runs from the name before to it, or the other way for a verb that makes the thing ("…, which the
compiler emits": the compiler feeds it).

Guards: only ", which" right between the two names (an article allowed), and the word after the second name is a verb
of the reader's lexicon, said of it ("reads", "maps", "validates"), not a copula nor a word that also names a thing
("outputs", "feeds": "the scores, which the decoder outputs are cached" reads no clause).
"""

from __future__ import annotations

import re

from crafter.agents.prose import verb_lemma
from crafter.agents.prose_words import _PRODUCER

_WHICH = re.compile(r"\s*,\s*which\s+(?:the\s+|a\s+|an\s+)?", re.I)
_VERB = re.compile(r"\s*(?:then\s+|also\s+|in\s+turn\s+|[a-z]+ly\s+)?([a-z]+)\b(?!\s+(?:is|are|was|were)\b)", re.I)


def object_relative(between: str, after: str) -> int:
    """1 where the words ``between`` two names and ``after`` the second say the first is handed on to it (", which the
    robot reads …"), -1 where the second makes the first (", which the compiler emits"), 0 neither."""
    if not _WHICH.fullmatch(between):
        return 0
    m = _VERB.match(after)
    word = m.group(1).lower() if m else ""
    lemma = verb_lemma(word)
    if not lemma or not word.endswith("s") or word in ("is", "was", "has"):
        return 0
    return -1 if lemma in _PRODUCER else 1
