"""Names said beside a known name in a list: "each worker runs Suricata's decode, stream reassembly and detection
stages", "nose pokes, a speaker and a solenoid", "CLIP-L, CLIP-G and T5-XXL". Where one item of a list of three or
more ("A, B and C", "A, B, or C") is already a box, the list names parts of one kind, and every other short noun
phrase in it is a box too. A list none of whose items is a box ("in detergent, water, acetone and isopropanol") adds
nothing: a list of materials or remarks, not of parts; unless every item is a name in code ("executes `OpenGate`,
`ScanBadge` and `CloseGate`") or the list closes its sentence after a plural noun and a colon ("the devices on its
ports: a buzzer, a lamp and a valve"; a paper's own labels, "Keywords: …", aside). A list said in order ("…, one after
the other", "in turn") chains its items, each feeding the next.
"""

from __future__ import annotations

import re

from crafter.agents.prose import np_label
from crafter.agents.prose_words import _DETERMINERS, _FUNCTION_WORDS, _NOUNISH_VERBS, _PREPS, _PRONOUNS, verb_lemma
from crafter.agents.reading import SENTENCE_SPLIT, BriefReading, box_key
from crafter.agents.subject import GENERIC_NOUNS

_MIN_ITEMS = 3
_MAX_ITEM_WORDS = 4
_LAST = re.compile(r"^\s*(?:and|or)\s+|\s+(?:and|or)\s+", re.I)
_COUNT = re.compile(r"(?i)[\d.,]+|two|three|four|five|six|seven|eight|nine|ten|several|many")  # "two modules, A and B"
_WORD = re.compile(r"[^\s,;:]+")
_STOP = _FUNCTION_WORDS | _PREPS | _PRONOUNS | {"which", "that", "who", "whose", "where", "while", "when", "so",
                                                "then", "is", "are", "was", "were", "be", "one", "by",
                                                "including", "following", "during", "being"}


def _item_words(chunk: str, *, first: bool, last: bool) -> list[str]:
    """The noun phrase of one list item: for the first item the words after its last function word or verb ("each
    worker runs Suricata's decode" -> "Suricata's decode"), for the last the words before its first ("detection
    stages on its own" -> "detection stages"); a middle item whole, or nothing where a word of it is no noun's."""
    words = _WORD.findall(chunk)
    while not first and words and words[0].lower() in _DETERMINERS:
        words = words[1:]
    nouns = [_noun_at(words, i, inside=not first) for i in range(len(words))]
    if first:
        k = len(words)
        while k > 0 and nouns[k - 1]:
            k -= 1
        if k and words[0].lower() in _PREPS and all(w.lower() in _DETERMINERS for w in words[1:k]):
            return []  # "for every non-adopting state, the determinants and …": an opener, no item
        words, nouns = words[k:], nouns[k:]
    if last:
        k = 0
        while k < len(words) and nouns[k] and not (k and words[k].lower() == "is"):
            k += 1
        words, nouns = words[:k], nouns[:k]
    if not all(nouns):
        return []
    return [w for w in words if w.lower() not in _DETERMINERS]


def _noun_at(words: list[str], i: int, *, inside: bool) -> bool:
    """The word at i is a noun phrase's: no function word; no verb but after a determiner or a possessive ("Suricata's
    decode"), or a plural "-s" after a noun that ends its item ("nose pokes, a speaker", "detection stages on its
    own"; not "each worker runs Suricata's decode", "the task sequence executes A, B and C"); inside a list (not its
    first item) a verb's plain form before a noun modifies it ("flow assembly", "search results")."""
    w, low = words[i], words[i].lower().strip("`'\"")
    nxt = words[i + 1].lower() if i + 1 < len(words) else None
    if low in _STOP or low.endswith("'s") and low[:-2] in _STOP:
        return False
    ends = nxt is None or nxt in _STOP
    if not ends and re.fullmatch(r"[a-z][a-z-]{2,}[^su']s", w):
        return False  # a verb the lexicon may lack, its object after it
    if not verb_lemma(low) or low in _NOUNISH_VERBS or re.search(r"[A-Z0-9]", w) or low.endswith(("ion", "ing")):
        return True
    prev = words[i - 1].lower() if i else ""
    if inside and not ends and low == verb_lemma(low):
        return True
    # (the first word has no noun before it: "…, queues and runs, and …" is no list of parts)
    return prev in _DETERMINERS or prev.endswith("'s") or ends and low.endswith("s") and i > 0 \
        and _noun_at(words, i - 1, inside=inside)


def _lists(sentence: str) -> list[list[str]]:
    """The lists a sentence says, each as its items' labels: a piece with "and" / "or" in it ends a list, and the
    pieces before it, joined by commas, are its items back to the first that is no short noun phrase (whose last
    words open the list: "each with its own adaLN modulation, QKV projection and MLP")."""
    pieces = re.split(r"(\s*[,;:()]\s*)", re.sub(r"(?<=\d),(?=\d{3})", "", sentence))  # ("1,024 tokens": one number)
    out = []
    for j in range(0, len(pieces), 2):
        split = _LAST.split(" " + pieces[j], maxsplit=1)
        if len(split) < 2:
            continue
        texts = [split[0]] if split[0].strip() else []
        k = j - 2
        while k >= 0 and pieces[k + 1].strip() == ",":
            texts.insert(0, pieces[k])
            k -= 2
        items = [_item_words(split[1], first=False, last=True)]
        for text in reversed(texts):
            whole = _item_words(text, first=False, last=False)
            opening = whole or _item_words(text, first=True, last=False)
            if opening:
                items.insert(0, opening)
            if not whole:
                break
        items = [[w for w in i if not w.endswith("'s")] for i in items]  # "Suricata's decode": the decode
        if all(items) and all(len(i) <= _MAX_ITEM_WORDS and not _COUNT.fullmatch(i[0]) for i in items):
            out.append([np_label([w.rstrip(".").strip("`") if "`" in w else w for w in i]) for i in items])
    return out


def read_coordinated_names(reading: BriefReading, text: str) -> None:
    """Adds to ``reading`` the other items of every list of three or more that says one of its names (see the module
    docstring). An item that is one generic noun ("data", "outputs") or a number stays no box."""
    known = {box_key(e) for e in reading.entities}
    groups = {box_key(g) for g, _ in reading.groups}  # "four groups: sensing, perception, planning and control"
    for sentence in SENTENCE_SPLIT.split(text):
        for items in _lists(sentence):
            if len(items) < _MIN_ITEMS or any(box_key(i) in groups for i in items) \
                    or not any(box_key(i) in known for i in items) and not _names_parts(items, sentence):
                continue
            for item in items:
                if box_key(item) in known or item.lower() in GENERIC_NOUNS or re.fullmatch(r"[\d\W]+", item) \
                        or any(box_key(item).endswith(" " + k) for k in known):
                    continue  # ("a shared MLP" where "MLP" is a box: read by its head, its links on that box)
                known.add(box_key(item))
                reading.entities.append(item)
            if _in_order(items, sentence):
                _chain_items(reading, items)


# the labels of a paper's or a grant's front and back matter, whose lists name no part of the figure
_BACK_MATTER = re.compile(r"\W*(?:key\s?words|index terms|funding(?: sources)?|sources of funding|grants|"
                          r"acknowledge?ments|(?:authors?\W*)?contributions|affiliations|abbreviations|references|"
                          r"(?:conflicts of|competing) interests?|disclosures|data availability|ethics)\b", re.I)


def _names_parts(items: list[str], sentence: str) -> bool:
    """A list none of whose items is a box yet that still names parts: every item a name in code ("executes
    `NavigateToShelf`, `DetectTote` and `PickTote`"), or the list closes its sentence after a plural noun and a colon
    ("the devices on its behaviour ports: nose pokes, a speaker and a solenoid"), a paper's or a grant's own
    labels aside ("Keywords: …", "Funding sources: …": no parts of the figure's)."""
    if all(f"`{i}`" in sentence for i in items):
        return True
    after = re.search(r"[a-z]{3,}s:\s+([^:]*)$", sentence)  # (the last colon, after a plural)
    return after is not None and _BACK_MATTER.match(sentence) is None \
        and all(re.search(re.escape(i), after.group(1), re.I) for i in items) \
        and re.search(re.escape(items[-1]) + r"\W*$", after.group(1), re.I) is not None


_ORDER = re.compile(r"[`'\"]?,?\s*(?:one after (?:the )?other|in (?:that )?order|in sequence|in turn|sequentially)\b", re.I)


def _chain_items(reading: BriefReading, items: list[str]) -> None:
    """Each item of a list said in order linked to the next, by the boxes' own spellings (an item that is no box
    breaks the chain there)."""
    boxes = {box_key(e): e for e in reading.entities}
    for a, b in zip(items, items[1:]):
        pair = (boxes.get(box_key(a)), boxes.get(box_key(b)))
        if None not in pair and pair not in reading.relations:
            reading.relations.append(pair)


def _in_order(items: list[str], sentence: str) -> bool:
    """Whether the list says its items run in order ("executes A, B and C, one after the other")."""
    m = re.search(re.escape(items[-1]), sentence, re.I)
    return m is not None and _ORDER.match(sentence, m.end()) is not None
