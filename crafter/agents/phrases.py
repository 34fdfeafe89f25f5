"""The names at the edges of a brief's clauses and list items, as the rule-based reader
(:mod:`crafter.agents.extract`) cuts them: the noun phrase that ends a left side ("At query time the
retriever" -> "Retriever") or starts a right side ("the vector index, which ..." -> "Vector index"), and
the name a list item gives ("Tokenizer: splits text" -> "Tokenizer").
"""

from __future__ import annotations

import re

from crafter.agents.labels import drop_which_one, noun_by_ending, singular
from crafter.agents.prose_words import _NOUNISH_VERBS, verb_lemma
from crafter.agents.subject import GENERIC_NOUNS

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
# a right side's name ends before a place or a measure said after it ("function pointer at query time", "weighted
# DiD on crime rates", "upsert into Cassandra"); not in a quantity ("about 15 min per sample": a remark), nor in
# an idiom's name (:func:`_idiom`)
_PLACE_CUT = re.compile(r"\s(?:against|under|at|on|between|into|from|per|in|over|during|across|through|without)\s",
                        re.I)
_LEFT_CUT = re.compile(r".*(?:,|;|:|\(|\)|\s(?:and|which|that|where|while|when|then)\s)", re.I | re.S)


def _idiom(text: str) -> bool:
    """A name a preposition is part of: title-cased ("Man In The Middle", "Human in the Loop") or one word, the
    preposition and "the" with one word ("human in the loop", "man in the middle"; "TGA under nitrogen",
    "Dry in a convection oven", "rendered in the browser" are cut)."""
    long = [w for w in text.split() if len(w) > 3]  # ("RNA in DNA": no title)
    return len(text.split()) > 2 and bool(long) and all(w[0].isupper() for w in long) \
        or bool(re.fullmatch(r"(?![A-Za-z]+ed\s)\S+ [a-z]+ the [a-z]+", text.strip()))


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
        m = _PLACE_CUT.search(" " + text + " ")
        if m and not re.search(r"\d", text[: m.start()]) and not _idiom(text):
            text = (" " + text + " ")[: m.start()]
    # "A separate encoder reads the image": the encoder (as the prose reader names it, :func:`first_noun_phrase`)
    words = drop_which_one(text.strip(" \t.,;:!?-–—'\"").split())
    while words and words[0].lower().strip(",") in _LEADING_WORDS and not (
            len(words) > 1 and words[0].lower() in _ORDINALS and words[1].lower().rstrip("s") in _ORDINAL_HEADS):
        words = words[1:]
    words = _before_participle(words)
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


_AFTER_PARTICIPLE = {"at", "on", "in", "into", "onto", "to", "with", "by", "from", "back", "for", "over", "under",
                     "as", "via", "through", "against", "before", "after", "during", "per"}


def _before_participle(words: list[str]) -> list[str]:
    """A name's words up to a past participle that says what was done to it ("shared library loaded at
    startup", "references patched with final addresses", "GOT entry patched"): the name is what comes before.
    A participle that opens the name ("Merged analysis file") or follows an article stays, and so does a
    noun that ends like one, at the end or before the end ("hardware testbed at the lab", "marker-controlled
    watershed")."""
    for i in range(1, len(words)):
        w = words[i].strip(",;:")
        nxt = words[i + 1].lower() if i + 1 < len(words) else None
        if re.fullmatch(r"[a-z][a-z-]{2,}ed", w) and not noun_by_ending(w) and (nxt is None or nxt in _AFTER_PARTICIPLE) \
                and words[i - 1].lower() not in _LEADING_WORDS | _CUT_TAIL:
            return words[:i]
    return words


def item_label(item: str) -> str:
    """The name a list item gives: 'Tokenizer: splits text' -> 'Tokenizer'; a protocol's order 'Split every
    core lengthwise' -> 'Core splitting' (:func:`step_name`)."""
    step = step_name(item)
    if step:
        return step
    item = QUOTED_RE.sub(lambda m: m.group(1) or m.group(2), item)
    for sep in (":", " - ", " — ", " – ", "("):
        head = item.split(sep, 1)[0].strip()
        if head and head != item.strip() and len(head.split()) <= MAX_LABEL_WORDS:
            if sep == ":" and re.fullmatch(r"[a-z]+(?:-[a-z]+)?", head) and _orders_a_step(head):
                noun = nominal(head)  # "- embed: 3D embedding …" is the step "Embedding", not the order "Embed"
                return noun[:1].upper() + noun[1:]
            return clean_phrase(head, side="right") or head
    return clean_phrase(item, side="right")


# a decision's verdicts, named as said ("accept: the packet is forwarded", "drop: …"): outcomes, not processes
_VERDICTS = {"accept", "reject", "drop", "allow", "deny", "block", "pass", "retry", "stop", "skip", "keep", "abort"}


def is_order(head: str) -> bool:
    """A heading or an item's first word said as an order: a verb in its plain form, of the lexicon or one no
    suffix rule makes a noun of, or an "-ise" / "-ify" verb ("2. Filter: low-quality reads and adapters", "accept:
    the packet is forwarded", "minimise"); not a generic noun ("Output: a VCF and a report"). A heading said so names
    no group (:func:`crafter.agents.headed.headed_names`)."""
    word = head.strip().lower()
    return word not in GENERIC_NOUNS and (verb_lemma(word) == word or word in _NOUN_OF
                                          or bool(re.fullmatch(r"[a-z]{4,}(?:[iy][sz]e|ify)", word)))


def _orders_a_step(word: str) -> bool:
    """An order (:func:`is_order`) that is no noun as well nor a verdict: the item names the step it orders ("embed:
    3D embedding …" is "Embedding"; not "model", "loop", "accept")."""
    return is_order(word) and word not in _VERDICTS and (word not in _NOUNISH_VERBS or word in _NOUN_OF)


# A protocol's numbered steps are orders ("Split every core lengthwise", "On the upcast, close Niskin bottles
# at the 12 standard depths"); the figure names each step by what is done to what ("Core splitting",
# "Niskin bottle closing").
_OPENER_RE = re.compile(r"^(?:at|on|in|once|after|before|during|from|for|meanwhile|then|next|finally|afterwards|"
                        r"within|upon|back)\b[^,;:.]{0,40},\s+", re.I)
_STEP_DETS = {"the", "a", "an", "each", "every", "all", "both", "its", "their", "this", "these", "those", "one", "two",
              "three", "four", "five", "six", "it", "them"}
_STEP_STOPS = {"from", "with", "to", "into", "at", "on", "in", "for", "by", "through", "under", "within", "during",
               "and", "or", "as", "onto", "per", "using", "via", "across", "over", "of", "so", "that", "which", "while",
               "if", "until", "before", "after", "then", "once", "again", "twice", "together", "separately", "overnight"}
_LIGHT_VERBS = {"take", "draw", "make", "collect", "prepare", "perform", "run", "do", "obtain", "record", "get", "carry"}
_NOUN_OF = {"filter": "filtration", "apply": "application", "analyse": "analysis", "analyze": "analysis",
            "measure": "measurement", "install": "installation", "fit": "fit", "survey": "survey",
            "download": "download", "merge": "merge", "combine": "combination", "extract": "extraction",
            "digest": "digestion", "centrifuge": "centrifugation", "compare": "comparison", "derive": "derivation",
            "deploy": "deployment", "assess": "assessment", "inject": "injection", "select": "selection",
            "collect": "collection", "transfer": "transfer", "dilute": "dilution", "resuspend": "resuspension",
            "expand": "expansion", "transform": "transformation", "assign": "assignment", "align": "alignment",
            "segment": "segmentation", "execute": "execution", "compute": "computation",
            # nouns no suffix rule makes ("stored" -> "storage", not "storing"; "repeated" -> "repetition")
            "store": "storage", "remove": "removal", "retrieve": "retrieval", "approve": "approval",
            "reduce": "reduction", "produce": "production", "introduce": "introduction", "insert": "insertion",
            "compress": "compression", "submit": "submission", "omit": "omission", "emit": "emission",
            "transmit": "transmission", "admit": "admission", "prepare": "preparation", "exclude": "exclusion",
            "include": "inclusion", "register": "registration", "deliver": "delivery", "reconstruct": "reconstruction",
            "construct": "construction", "deposit": "deposition", "compile": "compilation", "impute": "imputation",
            "refine": "refinement", "replace": "replacement", "create": "creation", "divide": "division",
            "repeat": "repetition", "examine": "examination", "present": "presentation", "represent": "representation",
            "disperse": "dispersion", "acquire": "acquisition", "distribute": "distribution", "predict": "prediction",
            "ingest": "ingestion", "infer": "inference", "explore": "exploration", "excite": "excitation",
            "synthesise": "synthesis", "synthesize": "synthesis", "hypothesise": "hypothesis",
            "supervise": "supervision", "revise": "revision", "dissolve": "dissolution", "embed": "embedding",
            "upload": "upload"}
_UNITS = {"m", "cm", "mm", "km", "µm", "um", "nm", "ml", "µl", "ul", "l", "g", "mg", "µg", "kg", "h", "min", "s", "°c",
          "k", "kda", "x", "×", "%", "days", "weeks", "hours"}


# a Latinate participle's process noun: "dehydrated" -> "dehydration", "featurised" -> "featurisation"; (the
# shortest stem before the ending that takes it: "updated", "raised", "focused" keep the plain "-ing")
_LATINATE = (("ated", "ation", 4), ("ised", "isation", 5), ("ized", "ization", 5), ("ified", "ification", 2),
             ("ected", "ection", 3), ("upted", "uption", 3), ("fused", "fusion", 0), ("verted", "version", 2),
             ("ysed", "ysis", 4), ("yzed", "ysis", 4))
_NOT_LATINATE = {"supervised", "advertised", "compromised", "surprised", "comprised", "exercised", "affected",
                 "expected", "refused", "confused", "rated", "stated", "dated", "located", "related", "dedicated"}


def nominal(verb: str) -> str:
    """ "split" -> "splitting", "filter" -> "filtration", "calibrate" -> "calibration", "air-dry" -> "air-drying"."""
    head, _, last = verb.rpartition("-")
    w = last.lower()
    if w in _NOUN_OF:
        out = _NOUN_OF[w]
    elif w.endswith("ate") and len(w) > 5:
        out = w[:-1] + "ion"
    elif w.endswith("ify"):
        out = w[:-1] + "ication"
    elif re.search(r"[a-z]{4}[iy][sz]e$", w) and w + "d" not in _NOT_LATINATE:
        out = w[:-1] + "ation"  # "featurise" -> "featurisation", "crystallize" -> "crystallization"
    elif w.endswith(("ject", "sert")):
        out = w + "ion"  # "project" -> "projection", "insert" -> "insertion"
    elif w.endswith("e") and not w.endswith(("ee", "ye", "oe")):
        out = w[:-1] + "ing"
    elif (re.search(r"[^aeiou][aeiou][^aeiouwxy]$", w) or re.fullmatch(r"[aeiou][^aeiouwxy]", w)) \
            and len(re.findall(r"[aeiouy]+", w)) == 1:
        out = w + w[-1] + "ing"  # "split" -> "splitting", "ship" -> "shipping"
    else:
        out = w + "ing"
    return f"{head}-{out}" if head else out


def participle_noun(participle: str) -> str:
    """The process noun a regular past participle's step is named by: "dissociated" -> "dissociation", "purified"
    -> "purification", "measured" -> "measurement", "expanded" -> "expansion", else its "-ing" form ("pooled" ->
    "pooling", "re-plated" -> "re-plating", "mapped" -> "mapping")."""
    head, _, w = participle.lower().rpartition("-")
    head = head + "-" if head else ""
    for lemma in (w[:-1], w[:-2], w[:-3]):
        if lemma in _NOUN_OF:
            return head + _NOUN_OF[lemma]
    if w not in _NOT_LATINATE:
        for end, noun, stem in _LATINATE:
            if w.endswith(end) and len(w) - len(end) >= stem:
                return head + w[: -len(end)] + noun
    return head + (w[:-3] + "ying" if w.endswith("ied") else w[:-2] + "ing")


def _step_object(words: list[str]) -> list[str]:
    """The noun phrase a step's verb acts on: its words up to a preposition, a clause's end or an adverb,
    measures ("a 20 m borehole") left out."""
    out: list[str] = []
    for w in words:
        bare = w.strip("()[]")
        low = bare.lower().rstrip(",;.:")
        if low in _STEP_STOPS or re.search(r"(?:ly|wise)$", low) and len(low) > 4 or not bare:
            break
        if re.search(r"\d", low) or (low in _UNITS and (not out or re.search(r"\d", out[-1]))):
            out = []  # a measure before the name: "a 0.45 µm membrane"
            continue
        out.append(bare.rstrip(",;.:"))
        if re.search(r"[,;.:)]$", w):
            break
    return [w for w in out if not re.search(r"\d", w)]


_LAB_VERBS = {"measure", "analyse", "analyze", "quantify", "determine", "weigh", "sieve", "centrifuge", "incubate",
              "titrate", "calibrate", "compute", "calculate", "estimate", "align", "annotate", "normalise", "normalize",
              "amplify", "purify"}  # orders without an article after them; verbs that name no thing ("Image", "Map")
_MEASURING = {"measure", "analyse", "analyze", "quantify", "determine", "assess", "assay", "detect", "characterise",
              "characterize", "crystallise", "crystallize", "separate", "image"}
_VAGUE_VERBS = {"add", "enter", "place", "put", "keep", "let", "allow", "give", "set", "leave", "repeat", "note", "see"}


def step_name(item: str) -> str | None:
    """A protocol step said as an order, named as the figure names it: "Split every core lengthwise;
    store one half" -> "Core splitting", "Take a grab sample from the thalweg" -> "Grab sample", "Filter it
    through a 0.45 µm membrane" -> "Membrane filtration", "On the upcast, close Niskin bottles" -> "Niskin
    bottle closing", "Use the salinities to calibrate the CTD sensor" -> "CTD sensor calibration". None for
    an item that is not an order (a name, "Tokenizer: splits text", a remark) or whose verb names no step
    ("Add each gauging to the table")."""
    text = item.strip()
    if ":" in " ".join(text.split()[:5]):  # "Image encoder: ViT-L/14", "Label propagation: …": a name and its remark
        return None
    opened = _OPENER_RE.sub("", text, count=1)
    words = opened.split()
    if len(words) < 2:
        return None
    if opened != text:  # "On the upcast, close Niskin bottles": after an opener, a verb in lower case
        if not re.fullmatch(r"[a-z]+(?:-[a-z]+)?", words[0]) or words[1].lower() in _STEP_STOPS:
            return None
    elif len(words) < 3 or not re.fullmatch(r"[A-Z][a-z]+(?:-[a-z]+)?", words[0]) \
            or words[1].lower() not in _STEP_DETS and words[0].lower() not in _LAB_VERBS:
        return None
    verb, rest = words[0].lower(), words[1:]
    if verb in _STEP_DETS | _STEP_STOPS | _LEADING_WORDS | _VAGUE_VERBS or verb_like_noun(verb):
        return None
    if verb == "use":  # "Use the bottle salinities to calibrate the CTD sensor": the step is the calibration
        m = re.search(r"\bto\s+([a-z]+\s+.+)$", " ".join(rest))
        return step_name(m.group(1)[:1].upper() + m.group(1)[1:]) if m else None
    by = re.search(r"\bby\s+((?:[^\W\d_][\w-]*\s*){1,4})", " ".join(rest))
    if verb in _MEASURING and by:  # "Measure major ions by ion chromatography": the step is the method
        method = _step_object(by.group(1).split())
        if method:
            return " ".join(method)[:1].upper() + " ".join(method)[1:]
    if rest[0].lower() in ("it", "them"):  # "Filter it through a membrane": the thing it goes through
        rest = rest[1:]
        while rest and rest[0].lower() not in {"through", "with", "on", "onto", "into", "in", "by"}:
            rest = rest[1:]
        rest = rest[1:]
    while rest and rest[0].lower() in _STEP_DETS | {"separate", "same", "new", "fresh"}:
        rest = rest[1:]
    obj = _step_object(rest)[-2:]
    if not obj:
        return None
    obj[-1] = singular(obj[-1]) if verb not in _LIGHT_VERBS else obj[-1]
    phrase = " ".join(obj) if verb in _LIGHT_VERBS else f"{' '.join(obj)} {nominal(words[0]).lower()}"
    return phrase[:1].upper() + phrase[1:]


def verb_like_noun(word: str) -> bool:
    """A first word that is a name's, not an order's: "Raw", "Input", "Output", "Final" ..."""
    return word in {"raw", "input", "output", "final", "new", "main", "first", "last", "second", "third", "top",
                    "bottom", "left", "right", "data", "model", "user", "client", "server"}
