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

from crafter.spec import Edge, Figure, Group, Node

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
_BOXED_RE = re.compile(  # members, a verb of place, a container, its name: one group
    r"^(?P<members>.+?)\s+(?:(?:are|is)\s+)?(?:sit|sits|live|lives|stay|stays|reside|resides|are|is|belong|belongs|"
    r"go|goes|placed|drawn|kept|put)(?:\s+together)?\s+(?:inside|in|within|under|into)\s+(?:a|one|the|a single)\s+"
    r"(?:box|frame|group|panel|container|region|block|cluster)\s+(?:labelled|labeled|called|named|titled|marked)\s+"
    r"[\"“']?(?P<group>[^\"”'.]+?)[\"”']?\s*\.?$", re.I)
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
    edge_labels: dict[tuple[str, str], str] = field(default_factory=dict)  # "A sends features to B"
    groups: list[tuple[str, list[str]]] = field(default_factory=list)  # (group label, member labels)


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


# ---------------------------------------------------------------------------------
# Prose: clauses read as subject / verb / object / prepositional targets
# ---------------------------------------------------------------------------------

# Verb classes decide which way an edge points. "fwd": subject -> object ("A feeds B");
# "bwd": object -> subject ("B reads A", "the discriminator judges X"); a verb followed by
# to/into/through sends the subject to that target whatever its class ("A writes to B").
_FWD_VERBS = (
    "feed fed send sent pass output produce generate forward write wrote written emit yield return provide give gave "
    "given drive call trigger update search query invoke activate control transmit route pipe supply deliver transfer "
    "push publish store save predict create supervise inform populate signal notify stimulate excite inhibit regulate "
    "phosphorylate bind catalyze catalyse connect link lead led go went flow enter travel move proceed propagate stream "
    "hand emit broadcast dispatch relay inject deposit release secrete express transcribe translate export upload"
).split()
_BWD_VERBS = (
    "read consume receive take took taken judge process encode embed use ingest accept get pull fetch load classify "
    "score evaluate monitor observe inspect attend analyse analyze filter decode tokenize tokenise parse rank re-rank "
    "rerank critique check verify detect measure sense absorb capture digest sample compress normalise normalize "
    "aggregate pool combine merge fuse concatenate mix retrieve index summarise summarize refine denoise condition "
    "transform project split convert turn map divide chunk break discriminate compare recognise recognize uptake "
    "import collect gather query-encode attend"
).split()
_INTRANSITIVE_TO = {"attend", "listen", "subscribe", "respond"}  # "B attends to A": A -> B
_XFORM = {"split", "convert", "turn", "transform", "map", "divide", "chunk", "break", "project", "tokenize", "tokenise"}
_PRODUCER = set(_FWD_VERBS) - {"connect", "link", "lead", "led", "go", "went", "flow", "enter", "travel", "move",
                               "proceed", "propagate", "stream", "transcribe", "translate", "express"}
_IRREGULAR = {"fed": "feed", "sent": "send", "wrote": "write", "written": "write", "gave": "give", "given": "give",
              "led": "lead", "went": "go", "took": "take", "taken": "take", "read": "read", "made": "make",
              "split": "split", "output": "output", "built": "build", "held": "hold", "kept": "keep", "fed-back": "feed"}
_GROUP_VERBS = {"form", "constitute", "compose"}  # "X and Y form the encoder"
_CONTAINER_VERBS = {"contain", "comprise", "include", "hold"}  # "the encoder contains X and Y"
_GENERIC_WHOLES = {"pipeline", "system", "model", "framework", "architecture", "method", "approach", "workflow",
                   "figure", "diagram", "setup", "design", "process", "procedure", "algorithm", "overview"}
_DETERMINERS = {"the", "a", "an", "our", "its", "their", "this", "these", "those", "each", "every", "all", "both",
                "some", "any", "his", "her", "my", "your", "another", "either", "one's", "such"}
_PRONOUNS = {"it", "they", "them", "this", "these", "those", "which", "that", "itself", "themselves", "we", "you"}
_AUX = {"is", "are", "was", "were", "be", "been", "being", "gets", "get", "got", "becomes", "become"}
_ADVERBS = {"then", "first", "firstly", "next", "finally", "also", "subsequently", "directly", "later", "again",
            "afterwards", "lastly", "second", "third", "secondly", "thirdly", "now", "simply", "only", "jointly",
            "together", "optionally", "iteratively", "repeatedly", "eventually", "immediately", "further", "often",
            "usually", "typically", "in", "turn", "back"}
_PREPS = {"to", "into", "through", "onto", "towards", "toward", "by", "from", "via", "with", "as", "in", "on", "at",
          "for", "over", "across", "under", "inside", "within", "using", "between", "among", "per", "against",
          "along", "after", "before", "without", "of", "out", "up", "down", "off", "back"}
_TARGET_PREPS = {"to", "into", "through", "onto", "towards", "toward"}
_DEFINITE = {"the", "our", "its", "their", "his", "her", "this", "that", "these", "those"}
_BOUNDARY = {"where", "while", "whereas", "when", "once", "so", "because", "since", "although", "whose", "who",
             "which", "until", "unless", "if"}
_GROUP_PREPS = {"inside", "within", "in"}
_GROUP_HEADS = re.compile(r"\b(?:block|module|stage|unit|component|subsystem|layer|stack|branch|tower|"
                          r"encoder|decoder|cell|loop|network|compartment|chamber|region|service|cluster|node)s?$", re.I)
_NOUNISH_VERBS = {"output", "outputs", "feed", "feeds", "reads", "uses", "use", "search", "searches", "index",
                  "query", "queries", "update", "updates", "return", "returns", "call", "calls", "store", "stores",
                  "score", "scores", "sample", "samples", "load", "loads", "signal", "signals", "process",
                  "transform", "map", "maps", "embed", "embeds", "check", "checks", "filter", "filters", "link",
                  "links", "control", "controls", "stream", "streams", "input", "inputs", "rank", "split", "release",
                  "measure", "measures", "projection", "capture", "mix", "pool", "break", "turn", "move", "go",
                  "check", "release", "express", "import", "export", "transfer", "supply", "forward", "record"}
_TOKEN_RE = re.compile(r"[\"“”][^\"“”\n]{1,60}[\"“”]|[^\W_][\w\-/+'.]*[\w+)]?|[(),:;]")


def _verb_lemma(word: str) -> str | None:
    """The lexicon entry a word inflects, or None ("feeds" -> "feed", "re-ranked" -> "re-rank")."""
    w = word.lower()
    if w in _IRREGULAR:
        return _IRREGULAR[w]
    cands = [w]
    for suf, rep in (("ies", "y"), ("es", ""), ("s", ""), ("ied", "y"), ("ed", ""), ("ed", "e"), ("d", ""),
                     ("ing", ""), ("ing", "e")):
        if w.endswith(suf) and len(w) > len(suf) + 1:
            cands.append(w[: -len(suf)] + rep)
    if len(w) > 4 and w.endswith("ed") and w[-3] == w[-4]:
        cands.append(w[:-3])  # "mapped" -> "map"
    for c in cands:
        if c in _FWD_SET or c in _BWD_SET or c in _GROUP_VERBS or c in _CONTAINER_VERBS or c in ("make", "consist",
                                                                                                   "follow", "build", "keep", "hold"):
            return c
    return None


_FWD_SET, _BWD_SET = set(_FWD_VERBS), set(_BWD_VERBS)


@dataclass
class _Tok:
    text: str
    low: str
    lemma: str | None  # the verb it may be


def _tokens(text: str) -> list[_Tok]:
    out = []
    for t in _TOKEN_RE.findall(text):
        t = re.sub(r"'s$", "", t) if not t.startswith(('"', "“")) else t
        t = t.rstrip(".") if not re.fullmatch(r"(?:[A-Za-z]\.){2,}", t) else t
        if t:
            out.append(_Tok(t, t.lower(), _verb_lemma(t)))
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
        if t.low in _NOUNISH_VERBS:
            if not need_verb:
                return False
            if nxt is None or nxt.text in ",;:)" or (nxt.lemma and nxt.low not in _NOUNISH_VERBS):
                return prev is not None and prev.low in _AUX | _PRONOUNS | _ADVERBS | {"and", "then"} \
                    or (nxt is None and need_verb)
        return True


def _np_label(words: list[str]) -> str:
    """A short noun phrase label: no determiners, the user's casing, at most five words."""
    words = [w for w in words if w]
    while words and words[0].lower() in _DETERMINERS | _ADVERBS | {"and", "or", "of"}:
        words = words[1:]
    while words and words[-1].lower() in _DETERMINERS | {"and", "or", "of"} | _PREPS:
        words = words[:-1]
    # "the outputs of the encoder" is the encoder
    low = [w.lower() for w in words]
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


def _read_np(c: _Clause, *, need_verb: bool = False) -> str | None:
    """The noun phrase at the cursor (determiners included), or None."""
    words: list[str] = []
    while (t := c.peek()) is not None:
        if t.text.startswith(('"', "“")):  # a quoted name is the name, whatever words surround it
            words = [t.text.strip("\"“”")]
            c.i += 1
            continue
        if words and t.low in ("that", "which", "who"):
            break
        if t.text in ",;:()" or t.low in _AUX or t.low in _BOUNDARY or t.low in ("and", "or", "but", "then", "both"):
            if t.low == "both" and not words:
                c.i += 1
                continue
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
        if t.low in _PRONOUNS and not words:
            c.i += 1
            return t.low  # resolved by the caller
        if words and c.is_verb(need_verb=need_verb):
            break
        if not words and t.lemma and c.is_verb(need_verb=need_verb) and t.low not in _NOUNISH_VERBS:
            break
        words.append(t.text)
        c.i += 1
    label = _np_label(words)
    return label or None


def _read_np_list(c: _Clause, *, need_verb: bool = False) -> list[str]:
    """ "X", "X and Y", "X, Y and Z", "both X and Y" -> names (pronouns kept as lower-case words)."""
    names = []
    while True:
        np = _read_np(c, need_verb=need_verb)
        if np:
            names.append(np)
        t, n = c.peek(), c.peek(1)
        if t is not None and (t.low in ("and", "or") or t.text == ",") and n is not None:
            # ", and X" / "and X" continue the list unless a verb follows (then it is a new clause)
            j = 1
            if n.low in ("and", "or"):
                j = 2
            save = c.i
            c.i += j
            if c.peek() is None or c.is_verb(need_verb=True) or c.peek().low in _AUX | _ADVERBS | _BOUNDARY:
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


def c_offset(c: _Clause, tok: _Tok) -> int:
    return c.toks.index(tok, c.i) - c.i


@dataclass
class _ProseState:
    """What carries from clause to clause: the last names (for "which", "it") and the results."""

    relations: list[tuple[str, str, str | None]] = field(default_factory=list)  # (source, target, label)
    groups: list[tuple[str, list[str]]] = field(default_factory=list)  # (group label, member labels)
    last: list[str] = field(default_factory=list)  # names the previous clause ended on
    subject: list[str] = field(default_factory=list)  # the previous clause's subject
    mentioned: list[str] = field(default_factory=list)  # every name in this sentence


def _skip(c: _Clause, words: set[str]) -> None:
    while (t := c.peek()) is not None and t.low in words:
        c.i += 1


def _read_vp(c: _Clause, subj: list[str], st: _ProseState, *, passive: bool = False,
             fixed_obj: list[str] | None = None) -> None:
    """One verb phrase with its object and prepositional targets; coordinated ones follow ("and given to")."""
    _skip(c, _ADVERBS)
    while (t := c.peek()) is not None and t.low in _AUX:
        passive = True
        c.i += 1
        _skip(c, _ADVERBS)
    t = c.peek()
    if t is None:
        return
    lemma = t.lemma or (t.low[:-2] if passive and re.search(r"[a-z](?:ed|en)$", t.low) else None)
    if lemma is None:
        return
    c.i += 1
    _skip(c, {"up", "out", "back", "on", "off", "in", "together"} - ({"in"} if passive else set()))
    nxt = c.peek()
    if lemma == "use" and passive and nxt is not None and nxt.low in ("to", "for") and c.peek(1) is not None:
        c.i += 1  # "X is used to search Y": the subject does the searching
        _read_vp(c, subj, st)
        return
    if lemma == "follow" and nxt is not None and nxt.low == "by":
        c.i += 1
        objs = _read_np_list(c)
        st.relations += [(s, o, None) for s in subj for o in objs]
        st.last = objs or st.last
        _more_vp(c, subj, st, passive)
        return
    if lemma in ("consist", "make", "compose", "build") and nxt is not None and nxt.low in ("of", "from") \
            and (passive or lemma == "consist"):
        c.i += 1
        st.groups += [(s, _read_np_list(c)) for s in subj]
        return
    objs: list[str] = list(fixed_obj or [])
    if not passive and not fixed_obj and nxt is not None and (nxt.low not in _PREPS or nxt.low in ("up", "out")):
        objs = _read_np_list(c)
    if lemma in _GROUP_VERBS and objs and not passive:
        st.groups.append((objs[0], subj))
        return
    if lemma in _CONTAINER_VERBS and objs and not passive:
        st.groups += [(s, objs) for s in subj]
        return
    preps: list[tuple[str, list[str]]] = []
    label: str | None = None
    benefit: list[str] = []  # "A fetches passages for the reader": the reader gets them (a definite "for" only)
    while (t := c.peek()) is not None and (t.low in _PREPS or t.text == "(" and (c.peek(1) and c.peek(1).low == "as")):
        if t.text == "(":
            c.i += 1
            t = c.peek()
        c.i += 1
        det = c.peek()
        names = _read_np_list(c)
        if t.low == "for" and det is not None and det.low in _DEFINITE:
            benefit += names
        if c.peek() is not None and c.peek().text == ")":
            c.i += 1
        if t.low in ("via", "as") and names and not preps and not objs and not passive:
            label = names[0]
        elif t.low in ("via", "as") and names:
            label = names[0]
        else:
            preps.append((t.low, names))
    objs = [n for o in objs for n in (_resolve(o, st) if o in ("it", "them", "these", "those", "this") else [o])]
    objs = [o for o in objs if o not in _PRONOUNS and o not in subj]
    subj = [s for s in subj if s not in _PRONOUNS]
    targets = [n for p, ns in preps if p in _TARGET_PREPS or p in ("in", "on") and lemma in ("store", "save", "write",
               "keep", "cache", "index", "load", "deposit", "inject") for n in ns if n not in _PRONOUNS]
    sources = [n for p, ns in preps if p == "from" for n in ns if n not in _PRONOUNS]
    agents = [n for p, ns in preps if p == "by" for n in ns if n not in _PRONOUNS]
    new: list[tuple[str, str, str | None]] = []
    ends: list[str] = []
    lab = label or (objs[0] if len(objs) == 1 else None)  # "A sends features to B": the one object labels the edge
    if passive:
        if agents and not targets:
            if lemma in _PRODUCER:  # "B is fed by A"
                new += [(a, s, label) for a in agents for s in subj]
                ends = subj
            else:  # "patches are embedded by a linear projection"
                new += [(s, a, label) for s in subj for a in agents]
                ends = agents
        if targets:
            new += [(s, tg, label) for s in subj for tg in targets]
            ends = targets
        if sources:
            new += [(so, s, label) for so in sources for s in subj]
            ends = ends or subj
    else:
        if lemma in _INTRANSITIVE_TO and targets and not objs:
            new += [(tg, s, label) for tg in targets for s in subj]
            ends = subj
        elif targets and sources:  # "data flows from the sensor to the microcontroller"
            new += [(so, tg, label or (subj[0] if len(subj) == 1 else None)) for so in sources for tg in targets]
            ends = targets
        elif targets and objs and lemma in _XFORM:  # "A splits the image into patches"
            new += [(o, tg, label) for o in objs for tg in targets]
            ends = targets
        elif targets:  # "A sends features to B", "A writes to B", "embeddings pass through the encoder"
            new += [(s, tg, lab) for s in subj for tg in targets]
            ends = targets
        elif sources:  # "A reads from B", "A receives X from B"
            new += [(so, s, lab) for so in sources for s in subj]
            ends = subj
        elif benefit and objs:  # "A fetches passages for the reader": A -> reader, the passages its label
            new += [(s, b, lab) for s in subj for b in benefit if b not in _PRONOUNS]
            ends = benefit
        elif objs:
            if lemma in _BWD_SET:  # "the decoder reads the latent code"
                new += [(o, s, label) for o in objs for s in subj]
                ends = subj
            else:
                new += [(s, o, label) for s in subj for o in objs]
                ends = objs
    st.relations += new
    if ends:
        st.last = ends
    _more_vp(c, subj, st, passive)


def _more_vp(c: _Clause, subj: list[str], st: _ProseState, passive: bool) -> None:
    """A coordinated verb phrase with the same subject: "is re-ranked and given to the LLM"."""
    t = c.peek()
    if t is None or not (t.low in ("and", "then") or t.text == ","):
        return
    save = c.i
    c.i += 1
    _skip(c, {"and", "then"} | _ADVERBS)
    t = c.peek()
    if t is not None and (t.low in _AUX or c.is_verb() or passive and re.search(r"[a-z](?:ed|en)$", t.low)):
        _read_vp(c, subj, st, passive=passive and t.low not in _AUX)
    else:
        c.i = save


def _read_prose(sentence: str, st: _ProseState) -> None:
    """Relations and groups one prose sentence states (appended to ``st``)."""
    c = _Clause(_tokens(sentence))
    group: str | None = None
    rel = then = False
    first = len(st.relations)
    while (t := c.peek()) is not None:
        start = c.i
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
            continue
        if rel and (c.is_verb() or t.low in _AUX | _ADVERBS):
            subj = st.last
            _read_vp(c, subj, st)
        else:
            names = _read_np_list(c, need_verb=True)
            names = [n for n in (_resolve(n, st) for n in names) for n in n]
            _skip(c, _ADVERBS)
            if rel and names and c.peek() is not None and c.is_verb():
                _read_vp(c, names, st, fixed_obj=st.last)  # "which the decoder reads": the object is the antecedent
            elif names and c.peek() is not None and (c.peek().low in _AUX or c.is_verb()):
                st.subject = names
                _read_vp(c, names, st)
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


def _resolve(name: str, st: _ProseState) -> list[str]:
    if name in ("it", "this", "that", "itself"):
        return st.subject[:1] or st.last[:1]
    if name in ("they", "these", "those", "them"):
        return st.last or st.subject
    return [] if name in _PRONOUNS else [name]


def read_brief(brief: str) -> BriefReading:
    """Entities and relations a brief names (rules only; see the module docstring)."""
    reading = BriefReading()
    text = _ARROW_RE.sub(" -> ", brief.replace("\r", ""))
    m = re.search(r"\b(?:titled|entitled|title[d]?:?|caption(?:ed)?:?)\s+[\"“]([^\"”]{1,80})[\"”]", text, re.I)
    if m:
        reading.title = m.group(1).strip()
        text = text[: m.start()] + text[m.end():]
    if not reading.title:  # an unquoted "Title: X" / "Figure title: X" / "Caption: X" sentence
        m = re.search(r"(?:^|(?<=[.!?\n]))\s*(?:Figure\s+|Fig\.\s*)?(?:title|caption)\s*:\s*([^\n.]{1,80})\.?",
                      text, re.I)
        if m and m.group(1).strip():
            reading.title = m.group(1).strip()
            text = text[: m.start()] + "\n" + text[m.end():]
    cap = re.match(r"\s*(?:Figure|Fig\.?)\s*\d+[a-z]?\s*[:.]\s*", text, re.I)
    if cap:  # "Figure 2: Our retrieval pipeline. The query ..." -> title, then the description
        text = text[cap.end():]
        head = re.match(r"([^.;\n]{1,80})[.\n]\s*", text)
        if head and not any(_verb_lemma(w) for w in head.group(1).split()[1:]):
            reading.title = reading.title or _np_label(head.group(1).split())
            text = text[head.end():]
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

    st = _ProseState()
    prev_sink: str | None = None
    prose_text = re.sub(r"\b(e\.g|i\.e|vs|cf|etc)\.", r"\1", "\n".join(prose))
    for sentence in _SENTENCE_SPLIT.split(prose_text):
        st.mentioned = []
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
        bm = _BOXED_RE.match(sentence)
        if bm:  # "A and B sit inside a box labelled G"
            parts = [_clean_phrase(m, side="right") for m in re.split(r",|\band\b", bm.group("members"))]
            st.groups.append((bm.group("group"), [m for m in parts if m]))
            continue
        before, known = len(st.relations), set(reading.entities)
        _read_prose(sentence, st)
        if len(st.relations) > before:
            pairs, first_rel = [], len(reading.relations)
            for a, b, lab in st.relations[before:]:
                ca, cb = add(a, False), add(b, False)
                relate(ca, cb)
                if ca and cb and ca != cb:
                    pairs.append((ca, cb))
                    if lab and normalise_label(lab) not in (normalise_label(ca), normalise_label(cb)):
                        reading.edge_labels.setdefault((ca, cb), lab)
            # prose describes a pipeline in order: a sentence that starts on something new continues
            # from where the previous one ended ("... a vector index; the top-k passages are re-ranked")
            fresh = [a for a, _ in pairs if a not in known and not any(t == a for _, t in reading.relations)]
            if fresh and prev_sink and prev_sink != fresh[0] and not any(f == prev_sink for f, _ in reading.relations):
                reading.relations.insert(first_rel, (prev_sink, fresh[0]))
            if pairs:
                prev_sink = pairs[-1][1]
            continue
        lm = _LIST_INTRO_RE.search(sentence)
        if lm and not reading.relations:
            names = [add(_clean_phrase(p, side="right"), False)
                     for p in re.split(r",|\band\b|\bor\b|;", lm.group("rest"))]
            names = [n for n in names if n]
            if len(names) >= 2:
                for a, b in zip(names, names[1:]):
                    relate(a, b)
    for whole, parts in st.groups:
        members = [m for m in dict.fromkeys(add(p, False) for p in parts) if m]
        if set(normalise_label(whole).split()) & _GENERIC_WHOLES:  # "the pipeline consists of A, B and C"
            if len(members) >= 2 and not reading.relations:
                for a, b in zip(members, members[1:]):
                    relate(a, b)
            continue
        label = _np_label(whole.split())
        members = [m for m in members if normalise_label(m) != normalise_label(label)]
        if label and members:
            reading.groups.append((label, members))
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
    # a group named like a node ("the encoder feeds the decoder"; "X and Y form the encoder") is that
    # node opened up: its edges go in at its first member and out of its last
    ends: dict[str, tuple[str, str]] = {}
    groups = []
    owned: set[str] = set()
    for label, members in reading.groups:
        members = [m for m in members if m not in owned and m in ids]
        if not members:
            continue
        owned.update(members)
        node = next((n for n in names if normalise_label(n) == normalise_label(label) and n not in owned), None)
        if node is not None:
            ends[node] = (members[0], members[-1])
        groups.append((label, members))
    names = [n for n in names if n not in ends]
    comps: list = [Node(kind="node", id=ids[n], label=n, shape=_shape_for(n)) for n in names]
    seen: set[tuple[str, str]] = set()
    for a, b in reading.relations:
        src, dst = ends.get(a, (a, a))[1], ends.get(b, (b, b))[0]
        if src == dst or (src, dst) in seen:
            continue
        seen.add((src, dst))
        comps.append(Edge(kind="edge", id=slug_id(f"e{len(seen)}", used), source=ids[src], target=ids[dst],
                          label=reading.edge_labels.get((a, b))))
    for label, members in groups:
        comps.append(Group(kind="group", id=slug_id(label, used), label=label, members=[ids[m] for m in members]))
    return Figure(title=title or reading.title, direction=reading.direction or "LR", components=comps)
