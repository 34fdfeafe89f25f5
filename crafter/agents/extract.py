"""The rule-based brief reader: entities and relations a brief names, without a model.

Two jobs:

* the **fallback planner** — when the model is absent, dead or writes nonsense, the
  user still gets a sensible figure: :func:`figure_from_brief` turns the brief's lists,
  arrow chains ("A → B → C"), quoted names and flow verbs ("A feeds B", "B is passed
  to C", "from X to Y") into nodes and edges;
* the **entity list** for the critic's "named in the brief but missing from the
  figure" check — :func:`brief_entities` returns only the names it is sure of (quoted
  strings, list items, arrow-chain members), because a false alarm makes the repairer
  add things nobody asked for.

Labels keep the user's spelling and case (they are spans of the brief).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from crafter.spec import Edge, Figure, Node

MAX_LABEL_WORDS = 6

_ARROW_RE = re.compile(r"\s*(?:-{1,2}>|=>|→|⟶|⇒|➔|➜|⟹)\s*")
_QUOTED_RE = re.compile(r"[\"“”]([^\"“”\n]{1,60})[\"“”]|(?<![A-Za-z0-9])'([^'\n]{1,40})'(?![A-Za-z0-9])")
_ITEM_RE = re.compile(r"^\s*(?:[-*•·–]|\(?\d{1,2}[.)]|\(?[a-z][.)]|(?:step|stage|phase)\s+\d+\s*[:.)-])\s+(.*\S)\s*$", re.I)
_SENTENCE_SPLIT = re.compile(r"(?<=[.!?;])\s+|\n+")

# Flow verbs: "left <verb> right" means an edge left -> right (forward) or right -> left (backward).
_FORWARD = [
    r"(?:is|are)\s+(?:then\s+)?(?:fed|passed|sent|given|forwarded|piped|routed|handed)\s+(?:on\s+)?(?:in)?to",
    r"(?:is|are)\s+(?:then\s+)?(?:connected|linked)\s+to",
    r"(?:is|are)\s+followed\s+by", r"followed\s+by",
    r"feeds?\s+(?:in)?to", r"feeds", r"feed",
    r"pass(?:es)?\s+(?:[\w-]+\s+){0,2}?(?:on\s+)?(?:in)?to", r"sends?\s+(?:[\w-]+\s+){0,2}?to",
    r"returns?\s+(?:[\w-]+\s+){0,2}?to", r"provides?\s+(?:[\w-]+\s+){0,2}?to",
    r"goes\s+(?:in)?to", r"go\s+(?:in)?to", r"flows?\s+(?:in)?to", r"leads?\s+to", r"connects?\s+to",
    r"outputs?\s+(?:in)?to", r"writes?\s+(?:in)?to", r"forwards?\s+(?:it\s+|them\s+)?to",
    r"(?:is|are)\s+(?:then\s+)?(?:stored|saved|written|indexed|kept|cached|loaded)\s+in(?:to)?",
    r"produces?", r"generates?", r"yields?", r"emits?", r"then", r"enters?", r"updates?", r"calls?",
    r"triggers?", r"informs?", r"drives?", r"supervises?", r"controls?",
]
_BACKWARD = [
    r"receives?\s+(?:\w+\s+)?from", r"reads?\s+from", r"takes?\s+(?:\w+\s+)?from", r"comes?\s+from",
    r"(?:is|are)\s+(?:produced|generated|computed|derived|built)\s+(?:by|from)", r"depends?\s+on",
]
_CONNECTOR_RE = re.compile(
    "|".join([f"(?P<f{i}>\\b{p}\\b)" for i, p in enumerate(_FORWARD)]
             + [f"(?P<b{i}>\\b{p}\\b)" for i, p in enumerate(_BACKWARD)]),
    re.I,
)
_FROM_TO_RE = re.compile(r"\bfrom\s+(?P<a>[^,;:]+?)\s+(?:to|into|towards)\s+(?P<b>[^,;:.]+)", re.I)
_LIST_INTRO_RE = re.compile(
    r"\b(?:consist(?:s|ing)?\s+of|compris(?:es|ing)|contains?|containing|with|has|have|made\s+of|"
    r"stages?(?:\s+are)?|steps?(?:\s+are)?|components?(?:\s+are)?)\s*:?\s+(?P<rest>.+)$",
    re.I,
)

_LEADING_WORDS = {
    "first", "firstly", "then", "next", "finally", "afterwards", "after", "that", "subsequently", "lastly",
    "the", "a", "an", "its", "their", "our", "this", "these", "those", "each", "every", "it", "they", "we",
    "and", "which", "also", "second", "third", "secondly", "thirdly", "here", "there", "now",
}
_TRAILING_WORDS = {"is", "are", "was", "were", "be", "then", "it", "which", "that", "directly", "also",
                   "and", "finally", "first", "next", "in", "turn", "itself", "both", "all"}
_RIGHT_CUT = re.compile(
    r",|;|:|\(|\.|\s(?:and|which|that|where|while|to\s+(?:produce|get|obtain|make|form|compute|yield|create)|"
    r"for|with|using|via|by|before|after|so|then|in\s+order)\s",
    re.I,
)
_LEFT_CUT = re.compile(r".*(?:,|;|:|\(|\)|\s(?:and|which|that|where|while|when|then)\s)", re.I | re.S)
_DIAGRAM_CUES = re.compile(
    r"\b(?:diagram|pipeline|architecture|flow|workflow|flowchart|stages?|steps?|modules?|blocks?|layers?|"
    r"encoder|decoder|feeds?|fed|passes|passed|connects?|components?|system|framework|overview|network|"
    r"processing|inputs?|outputs?)\b|->|→",
    re.I,
)
_CHART_CUES = re.compile(
    r"\b(?:plot|chart|graph|bars?|histogram|scatter|lines?|curve|axis|axes|versus|vs\.?|per\s+epoch|trend|"
    r"heatmap|box\s*plot|compare|comparison|accuracy|loss|results?|table|data|values?)\b",
    re.I,
)

_SHAPE_WORDS = [
    (re.compile(r"\b(?:database|db|index|store|storage|cache|memory|corpus|warehouse|repository|buffer|lake)\b", re.I),
     "cylinder"),
    (re.compile(r"\b(?:document|report|paper|pdf|answer|transcript|summary)\b", re.I), "document"),
    (re.compile(r"\?\s*$|\b(?:decision|check|converged|condition)\b", re.I), "diamond"),
    (re.compile(r"\b(?:user|query|request|prompt|input)\b", re.I), "parallelogram"),
]


@dataclass
class BriefReading:
    """What the rules read in a brief."""

    title: str | None = None
    direction: str | None = None
    entities: list[str] = field(default_factory=list)  # every name, in order of appearance
    strong: list[str] = field(default_factory=list)  # names the reader is sure of
    relations: list[tuple[str, str]] = field(default_factory=list)  # (source label, target label)


# ---------------------------------------------------------------------------------
# Label helpers (shared with the critic and the instruction interpreter)
# ---------------------------------------------------------------------------------

_ARTICLES = {"the", "a", "an", "its", "their", "our", "this", "that", "these", "those"}


def normalise_label(text: str) -> str:
    """Lower-case words without articles, punctuation or plural 's' — for fuzzy matching."""
    words = re.findall(r"[^\W_]+", text.lower())
    out = []
    for w in words:
        if w in _ARTICLES and len(words) > 1:  # a node named "A" is not an article
            continue
        if len(w) > 3 and w.endswith("s") and not w.endswith("ss"):
            w = w[:-1]
        out.append(w)
    return " ".join(out)


def labels_match(a: str, b: str, *, cutoff: float = 0.88) -> bool:
    """Do two names denote the same thing? ("the Encoder" ~ "encoder", "CNN backbones" ~ "CNN backbone")."""
    na, nb = normalise_label(a), normalise_label(b)
    if not na or not nb:
        return False
    if na == nb:
        return True
    wa, wb = set(na.split()), set(nb.split())
    if wa <= wb or wb <= wa:
        return True
    # typos ("Decodr") match; different words that share a tail ("Encoder"/"Decoder") do not
    return na[0] == nb[0] and difflib.SequenceMatcher(None, na, nb).ratio() >= cutoff


def slug_id(label: str, used: set[str]) -> str:
    """A readable, unique component id for a label ("Vector index" -> "vector_index")."""
    words = re.findall(r"[A-Za-z0-9]+", label.lower())
    base = "_".join(words)[:24].strip("_") or "n"
    if not re.match(r"[A-Za-z_]", base):
        base = f"n_{base}"
    cid, i = base, 2
    while cid in used:
        cid = f"{base}_{i}"
        i += 1
    used.add(cid)
    return cid


# ---------------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------------


def _clean_phrase(text: str, *, side: str) -> str:
    """The noun phrase at the edge of a clause: the end of a left side, the start of a right side."""
    quoted = [q.group(1) or q.group(2) for q in _QUOTED_RE.finditer(text)]
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
    while words and words[0].lower().strip(",") in _LEADING_WORDS:
        words = words[1:]
    while words and words[-1].lower().strip(",") in _TRAILING_WORDS:
        words = words[:-1]
    if not words and len(whole.split()) == 1 and re.search(r"[^\W\d_]", whole):
        words = [whole.strip(" .,;:!?")]  # a one-word name such as "A" is a name, not an article
    if side == "left":
        words = words[-MAX_LABEL_WORDS:]
    else:
        words = words[:MAX_LABEL_WORDS]
    phrase = " ".join(words).strip(" .,;:!?-–—'\"")
    return phrase[:1].upper() + phrase[1:] if phrase else ""


def _item_label(item: str) -> str:
    """The name a list item gives: 'Tokenizer: splits text' -> 'Tokenizer'."""
    item = _QUOTED_RE.sub(lambda m: m.group(1) or m.group(2), item)
    for sep in (":", " - ", " — ", " – ", "("):
        head = item.split(sep, 1)[0].strip()
        if head and head != item.strip() and len(head.split()) <= MAX_LABEL_WORDS:
            return _clean_phrase(head, side="right") or head
    return _clean_phrase(item, side="right")


def read_brief(brief: str) -> BriefReading:
    """Entities and relations a brief names (rules only; see the module docstring)."""
    reading = BriefReading()
    text = _ARROW_RE.sub(" -> ", brief.replace("\r", ""))
    m = re.search(r"\b(?:titled|entitled|title[d]?:?|caption(?:ed)?:?)\s+[\"“]([^\"”]{1,80})[\"”]", text, re.I)
    if m:
        reading.title = m.group(1).strip()
        text = text[: m.start()] + text[m.end():]
    if re.search(r"\b(?:top[- ]to[- ]bottom|top[- ]down|vertical(?:ly)?|from top)\b", text, re.I):
        reading.direction = "TB"
    elif re.search(r"\b(?:left[- ]to[- ]right|horizontal(?:ly)?)\b", text, re.I):
        reading.direction = "LR"

    def add(name: str, strong: bool) -> str | None:
        name = name.strip()
        if not name or len(name) > 60 or not re.search(r"[^\W\d_]", name):
            return None
        # "the decoder output" after "a decoder" is the decoder's arrow, not a new box
        name = re.sub(r"(?i)(?:'s)?\s+(?:outputs?|results?|predictions?|signals?)$", "", name).strip() or name
        new_words = set(normalise_label(name).split())
        for known in reading.entities:
            # "the backbone" after "a ResNet-50 backbone" is the same thing: keep the first, fuller name
            if normalise_label(known) == normalise_label(name) or (new_words and new_words <= set(normalise_label(known).split())):
                if strong and known not in reading.strong:
                    reading.strong.append(known)
                return known
        reading.entities.append(name)
        if strong:
            reading.strong.append(name)
        return name

    def relate(a: str | None, b: str | None) -> None:
        if a and b and a != b and (a, b) not in reading.relations:
            reading.relations.append((a, b))

    for q in _QUOTED_RE.finditer(text):
        add((q.group(1) or q.group(2)).strip(), strong=True)

    items: list[tuple[str, bool]] = []  # (label, numbered)
    prose: list[str] = []
    for line in text.split("\n"):
        im = _ITEM_RE.match(line)
        if im and "->" not in im.group(1):
            label = _item_label(im.group(1))
            if label:
                items.append((label, bool(re.match(r"\s*\(?\d|\s*(?:step|stage|phase)", line, re.I))))
            # the item's own sentence may still name relations
            prose.append(im.group(1))
        else:
            prose.append(line)
    item_names = [add(label, strong=True) for label, _ in items]
    item_names = [n for n in item_names if n]
    if len(item_names) >= 2 and (any(num for _, num in items) or _DIAGRAM_CUES.search(text)):
        for a, b in zip(item_names, item_names[1:]):
            relate(a, b)

    for sentence in _SENTENCE_SPLIT.split("\n".join(prose)):
        sentence = sentence.strip()
        if not sentence:
            continue
        if "->" in sentence:
            parts = [p for p in sentence.split("->")]
            names = []
            for i, part in enumerate(parts):
                side = "left" if i == 0 else "right"
                phrase = _clean_phrase(part, side=side) if i in (0, len(parts) - 1) else _clean_phrase(part, side="right")
                names.append(add(phrase, strong=len(phrase.split()) <= 4))
            for a, b in zip(names, names[1:]):
                relate(a, b)
            continue
        for m in _FROM_TO_RE.finditer(sentence):
            relate(add(_clean_phrase(m.group("a"), side="right"), False),
                   add(_clean_phrase(m.group("b"), side="right"), False))
        matches = list(_CONNECTOR_RE.finditer(sentence))
        if matches:
            pieces, kinds, last = [], [], 0
            for m in matches:
                pieces.append(sentence[last:m.start()])
                kinds.append("b" if any(k.startswith("b") and v for k, v in m.groupdict().items()) else "f")
                last = m.end()
            pieces.append(sentence[last:])
            prev_right: str | None = None
            for i, kind in enumerate(kinds):
                left = _clean_phrase(pieces[i], side="left")
                right = _clean_phrase(pieces[i + 1], side="right")
                # "A feeds B, which is passed to C": the relative pronoun stands for B
                a = add(left, False) if left else prev_right
                b = add(right, False)
                prev_right = b
                if kind == "f":
                    relate(a, b)
                else:
                    relate(b, a)
            continue
        lm = _LIST_INTRO_RE.search(sentence)
        if lm and not reading.relations:
            names = [add(_clean_phrase(p, side="right"), False)
                     for p in re.split(r",|\band\b|\bor\b|;", lm.group("rest"))]
            names = [n for n in names if n]
            if len(names) >= 2:
                for a, b in zip(names, names[1:]):
                    relate(a, b)
    return reading


def brief_entities(brief: str) -> list[str]:
    """The names a brief certainly gives (quoted, listed, or in an arrow chain)."""
    return read_brief(brief).strong


def describes_diagram(brief: str) -> bool:
    """Does the brief describe a diagram (boxes and arrows), not only a chart?"""
    reading = read_brief(brief)
    if reading.relations:
        return True
    diagram = len(_DIAGRAM_CUES.findall(brief))
    chart = len(_CHART_CUES.findall(brief))
    return diagram >= 2 and diagram > chart


def _shape_for(label: str) -> str:
    for pattern, shape in _SHAPE_WORDS:
        if pattern.search(label):
            return shape
    return "round"


def figure_from_brief(brief: str, *, title: str | None = None) -> Figure:
    """A sensible figure from the brief alone: its names as nodes, its flows as edges.

    Never fails on text: a brief with nothing recognisable gives one node holding its
    first words, so the user sees something to edit.
    """
    reading = read_brief(brief)
    names = list(reading.entities)
    if not names:
        words = re.sub(r"\s+", " ", brief).strip().split(" ")
        names = [" ".join(words[:MAX_LABEL_WORDS]) or "Figure"]
    used: set[str] = set()
    ids = {name: slug_id(name, used) for name in names}
    comps: list = [Node(kind="node", id=ids[n], label=n, shape=_shape_for(n)) for n in names]
    for i, (a, b) in enumerate(reading.relations, start=1):
        comps.append(Edge(kind="edge", id=slug_id(f"e{i}", used), source=ids[a], target=ids[b]))
    return Figure(title=title or reading.title, direction=reading.direction or "LR", components=comps)
