"""Names as the agents compare them: one normalised form, a fuzzy match, and ids made from labels.

Shared by the brief reader, the critic, the planner and the instruction interpreter.
"""

from __future__ import annotations

import difflib
import re

_ARTICLES = {"the", "a", "an", "its", "their", "our", "this", "that", "these", "those"}

# Adverbs that open a sentence: the prose reader skips one before a comma ("Downstream, the postprocessing
# layer contains …"). A name that is one of them alone is a remark ("Otherwise") unless it can also name a
# thing: a service called "Upstream", a panel "Overall" stay boxes.
OPENERS = frozenset({"downstream", "upstream", "internally", "meanwhile", "afterwards", "overall", "otherwise",
                     "then", "once"})
REMARK_WORDS = OPENERS - {"downstream", "upstream", "internally", "overall"}
# Words before a noun that say which one, never what it is ("its own adaLN modulation", "a fresh microVM"): a
# label drops them (dev nodes / edges / groups 0.5882 / 0.2396 / 0.4214 -> 0.5908 / 0.2425 / 0.4273; "new" as
# well: dev edges 0.2416, "the new prompt" is a name; "single" as well: nodes 0.5900, "single cells" are a name).
# Not "independent", "simple", "extra", "whole": they start names ("Independent Component Analysis", "Whole slide
# images", "Extra Trees regressor", "independent statistician"); "further" is an adverb the prose reader skips.
WHICH_ONE = frozenset({"own", "same", "separate", "fresh", "entire", "respective", "corresponding", "dedicated",
                       "additional"})
_WHICH_DETERMINERS = _ARTICLES | {"each", "every", "all", "both", "some", "any", "his", "her", "my", "your", "another",
                                  "either", "such"}


def drop_which_one(words: list[str]) -> list[str]:
    """A name's words without the lower-case words that say which one (:data:`WHICH_ONE`) at its start or right after
    a determiner or a possessive ("its own adaLN modulation" -> "its adaLN modulation", "fresh Matrigel" ->
    "Matrigel", "the gateway's own addresses" -> "the gateway's addresses"). Capitalised ones are part of the name
    ("Separate Chaining"); words that only say which one name nothing ("the same" -> []). (Only after a determiner,
    not at the start: dev nodes 0.5908 -> 0.5900, "re-plated in fresh Matrigel"; train 0.5048 -> 0.5044.)"""
    out: list[str] = []
    dropped, after = False, True
    for w in words:
        if after and w in WHICH_ONE:
            dropped = True
            continue
        out.append(w)
        after = w.lower() in _WHICH_DETERMINERS or bool(re.search(r"\w(?:['’]s|s['’])$", w))
    if (dropped or any(w in WHICH_ONE for w in out)) and all(w.lower() in _WHICH_DETERMINERS | WHICH_ONE for w in out):
        return []
    return out


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


def singular(word: str) -> str:
    """An English noun in the singular, by its ending alone: "flasks" -> "flask", "salinities" -> "salinity",
    "analyses" -> "analysis", "boxes" -> "box", "classes" -> "class"; a word that only looks plural ("bias",
    "status", "basis", "glass"), a short word and an acronym ("GPUS") stay as they are."""
    w = word.lower()
    if len(word) <= 3 or word.isupper():
        return word
    if w.endswith("yses"):
        return word[:-2] + "is"
    if re.search(r"[^aeiou]ies$", w) and len(word) > 4:
        return word[:-3] + "y"
    if re.search(r"(?:ss|x|ch|sh|z)es$", w):
        return word[:-2]
    if re.search(r"[^siua]s$", w):
        return word[:-1]
    return word


# Nouns (and verbs) that end like a participle or an adverb, tested as a word's end: "watershed", "testbed",
# "airspeed", "subassembly", "multiply". A participle has a vowel or the ending's doubled letter before "shed" or
# "bed" ("finished", "robbed"), and "-rbed", "-mbed" are verbs' ("absorbed", "climbed"); "reed", "red", "sled",
# "rally", "fly" end participles and adverbs too ("agreed", "scored", "tussled", "generally", "briefly"): whole words.
_NOUN_ENDS = ("speed", "seed", "feed", "need", "weed", "breed", "embed", "shed", "bed",
              "assembly", "family", "supply", "anomaly", "monopoly", "butterfly", "iply", "pply")
_NOUN_WORDS = {"red", "hundred", "reed", "sled", "reply", "rally", "jelly", "belly", "fly"}


def noun_by_ending(word: str) -> bool:
    """A word that ends like a participle ("-ed") or an adverb ("-ly") but names a thing or says a verb."""
    low = word.lower().rsplit("-", 1)[-1]
    end = next((e for e in _NOUN_ENDS if low.endswith(e)), None)
    if low in _NOUN_WORDS or end is None:
        return low in _NOUN_WORDS
    before = low[:-len(end)]
    if not before or end not in ("shed", "bed"):
        return True
    return before[-1] not in "aeiou" + end[0] and not (end == "bed" and before[-1] in "rm")
