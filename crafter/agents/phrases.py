"""The names at the edges of a brief's clauses and list items, as the rule-based reader
(:mod:`crafter.agents.extract`) cuts them: the noun phrase that ends a left side ("At query time the
retriever" -> "Retriever") or starts a right side ("the vector index, which ..." -> "Vector index"), and
the name a list item gives ("Tokenizer: splits text" -> "Tokenizer").
"""

from __future__ import annotations

import re

MAX_LABEL_WORDS = 6

QUOTED_RE = re.compile(r"[\"“”]([^\"“”\n]{1,60})[\"“”]|(?<![A-Za-z0-9])'([^'\n]{1,40})'(?![A-Za-z0-9])")
ITEM_RE = re.compile(r"^\s*(?:[-*•·–]|\(?\d{1,2}[.)]|\(?[a-z][.)]|(?:step|stage|phase)\s+\d+\s*[:.)-])\s+(.*\S)\s*$", re.I)

_LEADING_WORDS = {
    "first", "firstly", "then", "next", "finally", "afterwards", "after", "that", "subsequently", "lastly",
    "the", "a", "an", "its", "their", "our", "this", "these", "those", "each", "every", "it", "they", "we",
    "and", "which", "also", "second", "third", "secondly", "thirdly", "here", "there", "now",
}
_ORDINALS = {"first", "second", "third", "final", "next"}
_ORDINAL_HEADS = {"stage", "step", "phase", "pass", "layer", "round", "level", "order", "half", "block", "wave"}
_TRAILING_WORDS = {"is", "are", "was", "were", "be", "then", "it", "which", "that", "directly", "also",
                   "and", "finally", "first", "next", "in", "turn", "itself", "both", "all"}
_CUT_TAIL = {"the", "a", "an", "from", "to", "into", "in", "on", "onto", "at", "of", "with", "for", "by", "over",
             "through", "and", "or", "each", "every", "its", "their", "both", "all"}
_RIGHT_CUT = re.compile(
    r",|;|:|\(|\.|\s(?:and|which|that|where|while|to\s+(?:produce|get|obtain|make|form|compute|yield|create)|"
    r"for|with|using|via|by|before|after|so|then|in\s+order)\s",
    re.I,
)
_LEFT_CUT = re.compile(r".*(?:,|;|:|\(|\)|\s(?:and|which|that|where|while|when|then)\s)", re.I | re.S)


def clean_phrase(text: str, *, side: str) -> str:
    """The noun phrase at the edge of a clause: the end of a left side, the start of a right side."""
    quoted = [q.group(1) or q.group(2) for q in QUOTED_RE.finditer(text)]
    if quoted:  # a quoted name is the name, whatever words surround it
        return quoted[-1 if side == "left" else 0].strip()
    text = text.strip()
    whole = text
    if side == "left":
        m = _LEFT_CUT.match(text)
        if m:
            text = text[m.end():]
        # "At query time the retriever" -> "retriever": a left side's noun phrase starts at its last article
        arts = list(re.finditer(r"\b(?:the|a|an)\s", text, re.I))
        if arts and text[arts[-1].end():].strip():
            text = text[arts[-1].end():]
    else:
        m = _RIGHT_CUT.search(" " + text + " ")
        if m:
            text = (" " + text + " ")[: m.start()]
    words = text.strip(" \t.,;:!?-–—'\"").split()
    while words and words[0].lower().strip(",") in _LEADING_WORDS and not (
            len(words) > 1 and words[0].lower() in _ORDINALS and words[1].lower().rstrip("s") in _ORDINAL_HEADS):
        words = words[1:]
    while words and words[-1].lower().strip(",") in _TRAILING_WORDS:
        words = words[:-1]
    if not words and len(whole.split()) == 1 and re.search(r"[^\W\d_]", whole):
        words = [whole.strip(" .,;:!?")]  # a one-word name such as "A" is a name, not an article
    if side == "left":
        words = words[-MAX_LABEL_WORDS:]
    else:
        words = words[:MAX_LABEL_WORDS]
        while len(words) > 1 and words[-1].lower() in _CUT_TAIL:  # "Core the lake sediment from a": cut mid-phrase
            words = words[:-1]
    phrase = " ".join(words).strip(" .,;:!?-–—'\"")
    if phrase.endswith(")") and "(" not in phrase:  # "template computation)": the end of a bracket, not the name's
        phrase = phrase.rstrip(") .,;:")
    return phrase[:1].upper() + phrase[1:] if phrase else ""


def item_label(item: str) -> str:
    """The name a list item gives: 'Tokenizer: splits text' -> 'Tokenizer'."""
    item = QUOTED_RE.sub(lambda m: m.group(1) or m.group(2), item)
    for sep in (":", " - ", " — ", " – ", "("):
        head = item.split(sep, 1)[0].strip()
        if head and head != item.strip() and len(head.split()) <= MAX_LABEL_WORDS:
            return clean_phrase(head, side="right") or head
    return clean_phrase(item, side="right")
