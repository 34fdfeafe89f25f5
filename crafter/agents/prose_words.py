"""The words the prose grammar (:mod:`crafter.agents.prose`) knows: verb classes that decide which way an edge
points, the function words that end or join phrases, the heads of stages and groups, and :func:`verb_lemma`, the
lexicon entry a word inflects. Kept apart from the grammar that reads with them."""

from __future__ import annotations

import re

# Verb classes decide which way an edge points. "fwd": subject -> object ("A feeds B");
# "bwd": object -> subject ("B reads A", "the discriminator judges X"); a verb followed by
# to/into/through sends the subject to that target whatever its class ("A writes to B").
_FWD_VERBS = (
    "feed fed send sent pass output produce generate forward write wrote written emit yield return provide give gave "
    "given drive call trigger update search query invoke activate control transmit route pipe supply deliver transfer "
    "push publish store save predict create supervise inform populate signal notify stimulate excite inhibit regulate "
    "phosphorylate bind catalyze catalyse connect link lead led go went flow enter travel move proceed propagate stream "
    "hand emit broadcast dispatch relay inject deposit release secrete express transcribe translate export upload "
    "serve submit assign alert report expose train compute estimate talk"
).split()
_BWD_VERBS = (
    "read consume receive take took taken judge process encode embed use ingest accept get pull fetch load classify "
    "score evaluate monitor observe inspect attend analyse analyze filter decode tokenize tokenise parse rank re-rank "
    "rerank critique check verify detect measure sense absorb capture digest sample compress normalise normalize "
    "aggregate pool combine merge fuse concatenate mix retrieve index summarise summarize refine denoise condition "
    "transform project split convert turn map divide chunk break discriminate compare recognise recognize uptake "
    "import collect gather query-encode attend review validate annotate assess screen quantify"
).split()
_PARTICLES = {"up", "out", "back", "on", "off", "in", "together"}
_INTRANSITIVE_TO = {"attend", "listen", "subscribe", "respond"}  # "B attends to A": A -> B
_XFORM = {"split", "convert", "turn", "transform", "map", "divide", "chunk", "break", "project", "tokenize", "tokenise"}
_PRODUCER = set(_FWD_VERBS) - {"connect", "link", "lead", "led", "go", "went", "flow", "enter", "travel", "move",
                               "proceed", "propagate", "stream", "transcribe", "translate", "express"}
_IRREGULAR = {"fed": "feed", "sent": "send", "wrote": "write", "written": "write", "gave": "give", "given": "give",
              "led": "lead", "went": "go", "took": "take", "taken": "take", "read": "read", "made": "make",
              "split": "split", "output": "output", "built": "build", "held": "hold", "kept": "keep", "fed-back": "feed"}
# irregular past forms, never a verb's plain form ("we built a prototype and ran it": what the writers did)
IRREGULAR_PAST = set(_IRREGULAR) - {"read", "split", "output", "fed-back"} | {
    "ran", "began", "brought", "bought", "caught", "chose", "drew", "drove", "froze", "grew", "knew", "sought", "spent",
    "spun", "taught", "thought", "told", "threw", "won", "found", "got", "saw", "said", "left", "lost", "paid", "laid",
    "meant", "met", "stood", "understood", "wrote", "ate", "fell", "felt", "fought", "hid", "rode", "rose", "sat",
    "slept", "sold", "shot", "struck", "swept", "swore", "tore", "woke", "wove", "bound", "dug", "lent", "overcame"}
_GROUP_VERBS = {"form", "constitute", "compose"}  # "X and Y form the encoder"
_CONTAINER_VERBS = {"contain", "comprise", "include", "hold", "wrap", "bundle", "house"}  # "the encoder contains X and Y"
GENERIC_WHOLES = {"pipeline", "system", "model", "framework", "architecture", "method", "approach", "workflow",
                   "figure", "diagram", "setup", "design", "process", "procedure", "algorithm", "overview"}
_DETERMINERS = {"the", "a", "an", "our", "its", "their", "this", "these", "those", "each", "every", "all", "both",
                "some", "any", "his", "her", "my", "your", "another", "either", "one's", "such"}
_PRONOUNS = {"it", "they", "them", "this", "these", "those", "which", "that", "itself", "themselves", "we", "you"}
_AUX = (_BE := {"is", "are", "was", "were"}) | {"be", "been", "being", "gets", "get", "got", "becomes", "become"}
_ADVERBS = {"then", "first", "firstly", "next", "finally", "also", "subsequently", "directly", "later", "again",
            "afterwards", "lastly", "second", "third", "secondly", "thirdly", "now", "simply", "only", "jointly",
            "together", "optionally", "iteratively", "repeatedly", "eventually", "immediately", "further", "often",
            "usually", "typically", "in", "turn", "back"}
_STEP_WORDS = {"then", "next", "finally", "subsequently", "lastly"}  # a step follows the one before
_PREPS = {"to", "into", "through", "onto", "towards", "toward", "by", "from", "via", "with", "as", "in", "on", "at",
          "for", "over", "across", "under", "inside", "within", "using", "between", "among", "per", "against",
          "along", "after", "before", "without", "of", "out", "up", "down", "off", "back"}
_NEG = {"not", "never", "no", "cannot", "doesn't", "don't", "didn't", "isn't", "aren't", "wasn't", "weren't", "can't",
        "won't", "shouldn't", "mustn't", "neither", "nor"}
_NEG_AUX = {"does", "do", "did", "can", "could", "will", "would", "should", "must", "may", "has", "have", "had"}
_TARGET_PREPS = {"to", "into", "through", "onto", "towards", "toward"}
_DEFINITE = {"the", "our", "its", "their", "his", "her", "this", "that", "these", "those"}
_BOUNDARY = {"where", "while", "whereas", "when", "once", "so", "because", "since", "although", "whose", "who",
             "which", "until", "unless", "if"}
_STAGE_HEADS = re.compile(r"\b(?:stage|subworkflow|workflow|group|subgroup|module|phase|step|tier|layer|service|"
                          r"block|branch|job|pipeline|component)s?$", re.I)
_GROUP_HEADS = re.compile(r"\b(?:block|module|stage|unit|component|subsystem|layer|stack|branch|tower|"
                          r"encoder|decoder|cell|loop|network|compartment|chamber|region|service|cluster|node)s?$", re.I)
_NOUNISH_VERBS = {"output", "outputs", "feed", "feeds", "reads", "uses", "use", "search", "searches", "index",
                  "query", "queries", "update", "updates", "return", "returns", "call", "calls", "store", "stores",
                  "score", "scores", "sample", "samples", "load", "loads", "signal", "signals", "process",
                  "transform", "map", "maps", "embed", "embeds", "check", "checks", "filter", "filters", "link",
                  "links", "control", "controls", "stream", "streams", "input", "inputs", "rank", "split", "release",
                  "measure", "measures", "projection", "capture", "mix", "pool", "break", "turn", "move", "go",
                  "check", "release", "express", "import", "export", "transfer", "supply", "forward", "record",
                  "alert", "alerts", "report", "reports", "review", "reviews", "screen", "screens", "assign"}
_ALONG, _GROUP_PREPS = {"together", "along"}, {"inside", "within", "in"}
_BACK_REFERENCES = _PRONOUNS | {"both", "these", "those", "such"}  # "both paths", "these stages": said before
_FUNCTION_WORDS = _DETERMINERS | _PRONOUNS | _AUX | _ADVERBS | _PREPS | _NEG | _NEG_AUX | _BOUNDARY | {
    "and", "or", "but", "then", "both", "plus", "nor"}
_TOKEN_RE = re.compile(r"[\"“”][^\"“”\n]{1,60}[\"“”]|\d{1,3}(?:,\d{3})+(?!\d|,\d)|\d+(?:\.\d+)?×\d+(?:\.\d+)?"  # 1,024; 64×64
                       r"|[^\W_][\w\-/+'.]*[\w+)]?|[(),:;]")


def verb_lemma(word: str) -> str | None:
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
        if c == "run" and w != "runs":  # "a sequencing run", "run folders": a noun; "the stage runs X": a verb
            continue
        if c in _FWD_SET or c in _BWD_SET or c in _GROUP_VERBS or c in _CONTAINER_VERBS \
                or c in ("make", "consist", "follow", "build", "keep", "hold", "run"):
            return c
    return None


_CHANGE = {"transcribe", "translate", "express", "compress", "encode", "decode", "digest"}  # "into B by an enzyme"
_FWD_SET, _BWD_SET, _LEARN_ON = set(_FWD_VERBS), set(_BWD_VERBS), {"train", "fit", "pretrain", "finetune", "learn"}
_DEVICES = re.compile(r"\b(?:[GTC]PU|core|machine|device|node|server)s?$", re.I)  # what one trains on, not data
_TOOL_PREPS = {"with", "using"}  # "bins them with MetaBAT2": a named tool is a box
_TOOL_NAME = re.compile(r"^(?!\d)(?:.*(?:[a-z0-9][A-Z]|[A-Za-z]\d)|[A-Z]{2,})")  # inner capitals, digits, an acronym; no amount
_SEEK = {"screen", "search", "scan", "test", "check", "probe", "query", "filter", "select", "keep", "retain", "tune",
         "optimise", "optimize", "train", "look", "monitor", "inspect"}  # "screened for X": X is sought, not a place
_QUANTIFIERS = {"each", "every", "a", "an", "all", "one", "any", "some", "several", "many", "most", "both"}
