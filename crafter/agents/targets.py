"""Where a flow ends is a thing: "accepted events are written to Tier-0 storage", "the GUI writes them to a data file",
"a fraction is cryopreserved in the biobank", "exports it to a collector". The noun phrase after a verb of sending or
storing and its "to" / "into" (or, for storing, "in") is a box even where the reader could not tell what was sent
(a pronoun, a subject behind an aside); the links between names (:mod:`crafter.agents.links`) then find its
source where the sentence says one. A place, a manner or a language is no flow's end ("written in Rust", "sent in
parallel", "stored in memory for 24 h"): only a determiner's noun phrase, or a name written with a capital or a
digit, of at most four words.
"""

from __future__ import annotations

import re

from crafter.agents.prose import np_label
from crafter.agents.prose_words import _FUNCTION_WORDS, _NOUNISH_VERBS, verb_lemma
from crafter.agents.quantities import is_quantity
from crafter.agents.reading import BriefReading, box_key
from crafter.agents.subject import GENERIC_NOUNS

# the participles and "-s" forms of sending and storing (read by :mod:`crafter.agents.links` too)
SEND = (r"(?:written|sent|exported|shipped|streamed|uploaded|pushed|forwarded|submitted|delivered|published|"
         r"transferred|copied|returned|handed|piped|routed|posted|reported|fed|passed|given)")
STORE = r"(?:stored|saved|archived|cryopreserved|deposited|kept|logged|cached|persisted|recorded)"
ACTIVE_SEND = (r"(?:writes|sends|exports|ships|streams|uploads|pushes|forwards|submits|delivers|publishes|"
                r"transfers|copies|returns|posts|reports|hands|pipes|routes)")
_ACTIVE_STORE = r"(?:stores|saves|archives|deposits|logs|caches|persists)"
_FLOW_END = re.compile(
    r"\b(?:(?:is|are|was|were|get|gets|be)\s+(?:then\s+|also\s+|finally\s+)?(?:" + SEND + r"\s+(?:back\s+|on\s+)?"
    r"(?:to|into)|" + STORE + r"\s+(?:in|into|to))"
    r"|" + ACTIVE_SEND + r"\s+(?:it|them|(?:the\s+|its\s+|their\s+|each\s+|a\s+)?[\w-]+(?:\s+[\w-]+)?)\s+"
    r"(?:back\s+)?(?:to|into)"
    r"|" + _ACTIVE_STORE + r"\s+(?:it|them|(?:the\s+|its\s+|their\s+|each\s+|a\s+)?[\w-]+(?:\s+[\w-]+)?)\s+(?:in|into)"
    r"|(?:go|goes|went|flow|flows|land|lands|end\s+up|ends\s+up)\s+(?:on\s+)?(?:to|into|in))"
    r"\s+(?P<np>[^\s,.;:()]+(?:\s+[^\s,.;:()]+){0,5})", re.I)
_DETERMINED = re.compile(r"(?i)(?:the|a|an|its|their|one|our|each)\s+")
_MAX_WORDS = 4


def _end_phrase(np: str) -> list[str]:
    """The noun phrase a flow ends in: after a determiner, up to the first function word or verb ("a data file for
    post-flight analysis" -> "data file"); or a name with a capital or a digit said bare ("Tier-0 storage"); [] for
    neither."""
    determined = _DETERMINED.match(np)
    words = np[determined.end():].split() if determined else np.split()
    if not determined and not (words and re.search(r"[A-Z0-9]", words[0])):
        return []  # "written in parallel", "sent to disk"
    out: list[str] = []
    for w in words:
        low = w.lower()
        if low in _FUNCTION_WORDS or out and verb_lemma(low) and low not in _NOUNISH_VERBS \
                and not low.endswith(("ion", "ing", "er", "or")) and not re.search(r"[A-Z0-9]", w):
            break
        out.append(w)
    return out if 0 < len(out) <= _MAX_WORDS else []


def read_flow_ends(reading: BriefReading, text: str) -> None:
    """Adds to ``reading`` every flow's end the brief says (see the module docstring) that is not a name already, nor
    a generic noun ("the output") nor a quantity."""
    known = {box_key(e) for e in reading.entities}
    for m in _FLOW_END.finditer(text):
        words = _end_phrase(m.group("np"))
        if not words:
            continue
        name = np_label(words)
        if not name or box_key(name) in known or name.lower() in GENERIC_NOUNS or is_quantity(name):
            continue
        known.add(box_key(name))
        reading.entities.append(name)
