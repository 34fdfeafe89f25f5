"""Invented phrasing (training only).

Frames built from a broad verb list, from English's verbs and from made-up verbs, so the
model learns the *shape* of a link sentence ("A <verb phrase> B.", "B is <participle> by
A.", ", which <verb phrase> B") rather than a list of verbs. No word that only the
held-out phrasings use is ever generated (checked by a test), so the held-out split stays
unseen.
"""

from __future__ import annotations

import functools
import random

from crafter.llm.corpus.phrasings import FAMILIES, HELD_OUT_ONLY_WORDS, words_in
from crafter.llm.corpus.vocabulary import HEADS, MODIFIERS, SYLLABLES, vocab_for
from crafter.llm.encoder import EncoderError, model_path

# regular verbs: 3rd person = +s/+es, participle = +ed (spelling handled below)
VERBS = """pass route pipe channel forward transfer load signal notify inform call invoke query
request answer return report connect link attach couple bind map point direct steer guide
hand send emit export import post publish broadcast queue stage cache store save record log
convert transform filter refine process compute encode decode compress expand feed prime seed
inject insert attach append prepend propagate spread migrate shift move carry lift convey
dispatch submit commit deploy launch start spawn fork branch merge join sync mirror replicate
copy clone poll fetch pull collect gather harvest sample measure probe scan check verify test
validate score rank sort order schedule plan assign allocate budget power fuel charge heat cool
excite pump illuminate irradiate expose label tag mark stain wash rinse elute extract purify
crystallise precipitate titrate mix stir dilute concentrate separate sequence align assemble
annotate count tally summarise summarize visualise display show render plot inform educate
nourish sustain support enable boost prompt seed warm inspect monitor audit track follow trail""".split()
PARTICLES = ["to", "into", "onto", "toward", "towards", "through to", "along to", "on to", "across to",
             "", "", "", ""]
OBJECTS = ["", "", "", "its output ", "its results ", "results ", "everything ", "the output ",
           "its data ", "what it makes ", "a stream ", "each result ", "the result "]
ADVERBS = ["", "", "", "", "then ", "directly ", "also ", "in turn ", "always ", "usually ", "finally ",
           "next ", "later "]
GENERIC_NOUNS = """approach method system design work project idea plan study figure diagram sketch
picture layout structure model schema draft version paper section chapter appendix experiment
setup""".split()
GENERIC_SENTENCES = ["We describe the {n} below.", "Our {n} is shown here.", "This {n} was easy to build.",
                     "The {n} took a week.", "Below is the {n}.", "Here is the {n} in brief.",
                     "Please make a clean {n}.", "The {n} needs to fit one column.", "Keep the {n} simple.",
                     "This {n} is new.", "Our team drew the {n} by hand first.", "Make it look tidy.",
                     "Nothing else matters here.", "It runs every hour.", "All parts are open source."]
FILLER_NOUNS = """approach method system design work project idea plan study figure diagram sketch
picture layout draft version report poster talk slide thesis chapter appendix experiment trial run
batch dataset benchmark budget week month year hour minute team lab group reviewer student cost
memory speed accuracy quality hardware server cluster laptop code script notebook result number
time effort detail part piece page column space money power energy""".split()
FILLER_SUBJECTS = ["It", "This", "That", "Everything", "The whole thing", "Each part", "All of it", "Nothing",
                   "We", "Our team", "They", "Most of it"]
FILLER_COUNTS = ["two", "three", "four", "five", "six", "several", "many", "a few", "12", "40", "100"]
FILLER_FRAMES = ["{S} got {Ved} on {k} {ns}.", "{S} {Vs} plenty of {n}.", "{S} {Vs} the {n}.", "{S} {Vs} {k} {ns}.",
                 "{S} {Vs} our {n} each {m}.", "Can we {V} this for the {n}?", "Shall we {V} it for our {n}?",
                 "Might we {V} the {n} for the {m}?", "Please {V} this for a {n}.", "{S} took {k} {ns}.",
                 "{S} {Vs} well on the {n}.", "{S} got {Ved} by the {n}.", "{S} is {Ved} for the {m}.",
                 "We {V} it each {n}.", "{S} {Vs} less {n} than before.", "Is it possible to {V} the {n}?",
                 "Will it {V} the {m}?", "{S} were {Ved} with {k} {ns}."]
STEP_WORDS = ["Step", "Phase", "Part", "Level", "Item", "Task", "Move"]
STEP_SEPS = [": ", " - ", " – ", ". ", ") ", "] ", " = ", " | "]
BULLET_GLYPHS = ["- ", "* ", "+ ", "o ", "> ", "· ", "▪ ", "– ", "‣ ", "◦ ", "> ", "-- ", "# "]
CAPTION_WORDS = ["Figure", "Caption", "Title", "Diagram", "Panel", "Chart", "Plate", "Scheme", "Heading"]
CAPTION_SEPS = [": ", ". ", " - ", " – ", " | ", " = "]
GROUP_PREPS = ["in", "inside", "within", "as part of", "into", "as", "together as", "together in",
               "as a unit called", "in a box named", "in the frame"]
MODALS = ["may ", "can ", "might ", "could "]
OPTIONAL_ADVERBS = ["sometimes ", "optionally ", "occasionally ", "also "]
DASHED_NOTES = ["(dashed)", "(draw it dashed)", "(dashed line)", "(use a dashed arrow)", "(dashed arrow)"]
GROUP_IMPERATIVES = ["box", "frame", "wrap", "enclose", "gather", "cluster"]
GROUP_NAMINGS = ["as", "under the name", "and call it", "and label it", "in", "named"]
GROUP_VERBS = ["are", "sit", "live", "go", "stay", "reside", "are boxed", "are framed", "are placed",
               "are drawn", "are kept", "are put", "are clustered", "are bundled", "are packed"]


def third(v: str) -> str:
    """The third person singular of a regular verb ("pass" -> "passes", "copy" -> "copies")."""
    if v.endswith(("s", "sh", "ch", "x", "z")):
        return v + "es"
    if v.endswith("y") and v[-2:-1] not in "aeiou":
        return v[:-1] + "ies"
    return v + "s"


def participle(v: str) -> str:
    """The past participle of a regular verb ("store" -> "stored", "copy" -> "copied")."""
    if v.endswith("e"):
        return v + "d"
    if v.endswith("y") and v[-2:-1] not in "aeiou":
        return v[:-1] + "ied"
    return v + "ed"


def _invented_verb(rng: random.Random) -> str:
    """A verb stem: one of the list above, one of English's (mostly) or a made-up one ("zorb")."""
    r = rng.random()
    if r < 0.4:
        return rng.choice(_VERB_STEMS)
    if r < 0.75 and english_verbs():
        return rng.choice(english_verbs())
    while True:
        v = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(1, 2))) + rng.choice(["", "t", "n", "k"])
        if not {v, third(v), participle(v)} & FORBIDDEN:
            return v


def invented_link(rng: random.Random, kind: str) -> str:
    """A link frame with ``{a}``/``{b}`` (and ``{l}`` for labelled links) in a phrasing never listed."""
    v = _invented_verb(rng)
    part = rng.choice(PARTICLES)
    adv = rng.choice(ADVERBS)
    if kind == "passive":
        return "{b} is " + adv + participle(v) + " " + rng.choice(["by", "by", "from", "through", "via"]) + " {a}"
    if kind == "which":
        return ", which " + adv + third(v) + " " + (part + " " if part else "") + "{b}"
    if kind == "labelled":
        return "{a} " + adv + third(v) + " {l} " + (part or "to") + " {b}"
    if kind == "dashed":
        verb = rng.choice(_MODALS) + v if rng.random() < 0.5 else rng.choice(_OPTIONAL_ADVERBS) + third(v)
        return "{a} " + verb + " " + (part + " " if part else "") + "{b} " + rng.choice(_DASHED_NOTES)
    return "{a} " + adv + third(v) + " " + rng.choice(OBJECTS) + (part + " " if part else "") + "{b}"


def invented_sentence(rng: random.Random) -> str:
    """An opener or filler sentence that names no component: a listed one, or one built from a
    pronoun subject, an English verb and generic nouns ("It was rated on four batches.", "Could you
    draft this for the report?"), so that a sentence about the figure rather than in it reads as
    such whatever its words."""
    if rng.random() < 0.5:
        return rng.choice(GENERIC_SENTENCES).format(n=rng.choice(_GENERIC_NOUNS))
    v = _invented_verb(rng)
    n, m = rng.choice(_FILLER_NOUNS), rng.choice(_FILLER_NOUNS)
    plural = n + ("es" if n.endswith(("s", "sh", "ch", "x")) else "s")
    frame = rng.choice(FILLER_FRAMES)
    return frame.format(S=rng.choice(FILLER_SUBJECTS), V=v, Vs=third(v), Ved=participle(v), n=n, ns=plural, m=m,
                        k=rng.choice(FILLER_COUNTS))


def invented_step(rng: random.Random) -> str:
    r = rng.random()
    sep = rng.choice(STEP_SEPS)
    if r < 0.5:
        return rng.choice(STEP_WORDS) + " {i}" + sep + "{x}"
    return "{i}" + sep + "{x}"


def invented_caption(rng: random.Random) -> str:
    word = rng.choice(CAPTION_WORDS)
    if rng.random() < 0.4:
        word += f" {rng.randint(1, 9)}"
    return word + rng.choice(CAPTION_SEPS) + "{t}" + rng.choice(["", ".", ""])


def invented_group(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.3:
        return rng.choice(_GROUP_IMPERATIVES) + " {m} " + rng.choice(_GROUP_NAMINGS) + " {g}"
    if r < 0.5:  # any English verb as the imperative ("Ring A, B and C and label it G")
        return _invented_verb(rng) + " {m} " + rng.choice(_GROUP_NAMINGS + _VERB_GROUP_NAMINGS) + " {g}"
    return "{m} " + rng.choice(GROUP_VERBS) + " " + rng.choice(GROUP_PREPS) + " {g}"


P_INVENTED = 0.35  # share of training sentences/frames written in invented phrasing


def invent(rng: random.Random, split: str) -> bool:
    """Use an invented phrasing here? (training split only; the held-out draws are untouched)"""
    return split == "train" and rng.random() < P_INVENTED


# ---------------------------------------------------------------------------------
# Words the invented phrasings may use: none that only held-out phrasings or the
# held-out label vocabulary contain
# ---------------------------------------------------------------------------------

FORBIDDEN = HELD_OUT_ONLY_WORDS | {w.lower() for w in vocab_for("heldout").heads + vocab_for("heldout").modifiers}
FORBIDDEN.discard("and")  # every brief lists members as "A, B and C"; not a phrasing of its own


def _allowed(options: list[str]) -> list[str]:
    return [o for o in options if not words_in(o) & FORBIDDEN]


_VERB_STEMS = [v for v in VERBS if not {v, third(v), participle(v)} & FORBIDDEN]


@functools.lru_cache(maxsize=1)
def _encoder_words() -> frozenset[str]:
    """The lower-case ASCII whole words of the brief encoder's WordPiece vocabulary (empty without it)."""
    try:
        return frozenset(w for w in (model_path() / "vocab.txt").read_text(encoding="utf-8").split()
                         if w.isascii() and w.isalpha() and w.islower())
    except (EncoderError, OSError):
        return frozenset()


@functools.lru_cache(maxsize=1)
def english_verbs() -> tuple[str, ...]:
    """Verb stems of English at large: whole words of the brief encoder's WordPiece vocabulary whose
    "-ing" or "-ed" form is a word there too ("ship": "shipping"), minus every word of the held-out
    phrasings and labels (in all the forms the corpus writes). A small list of verbs lets the model
    learn them by heart, and then a verb it never saw reads as part of a name ("Compiler ships");
    thousands of them teach it to find the verb from the sentence, which the encoder can read."""
    words = _encoder_words()
    if not words:  # the encoder package is a dependency; without it, the corpus's own verbs
        return ()
    names = {w.lower() for w in HEADS + MODIFIERS} | FORBIDDEN
    out = []
    for w in sorted(words):
        if not 4 <= len(w) <= 10 or w in names:
            continue
        forms = {w + "ing", w + "ed"} | ({w[:-1] + "ing", w + "d"} if w.endswith("e") else set())
        if not forms & words or w.endswith("s") or {w, third(w), participle(w)} & names:
            continue
        out.append(w)
    return tuple(out)


_NAME_SUFFIXES = ("tion", "ment", "ity", "ness", "er", "or", "ist", "ism", "ure", "ance", "ence", "ogy", "graph",
                  "scope", "meter", "ase", "ide", "ine", "ium", "al", "ic", "ous", "ive", "ary", "ar", "on", "um", "us")
_NOT_NAME_WORDS = set("""hence outside inside various whether together never other either neither rather however
after over under ever upon within whose another further later earlier sooner whatever wherever moreover
thereafter therefore nevertheless otherwise anymore thus unless once""".split())


@functools.lru_cache(maxsize=1)
def english_name_words() -> tuple[str, ...]:
    """Nouns and adjectives of English at large for training names ("kinetic", "turbulence", "abolition"):
    whole words of the brief encoder's vocabulary with a noun or adjective ending, minus verbs, the
    corpus's own phrasing words and every held-out word. Names built only from a fixed vocabulary
    (and letter soup) taught the name head that an unseen real word ends a name ("Ionic" /
    "Resonator")."""
    words = {w for w in _encoder_words() if 4 <= len(w) <= 12}
    if not words:
        return ()
    verbs = set(english_verbs()) | set(VERBS)
    verb_forms = verbs | {third(v) for v in verbs} | {participle(v) for v in verbs}
    phrasing = set().union(*(words_in(f["train"]) | words_in(f["heldout"]) for f in FAMILIES))
    bad = FORBIDDEN | verb_forms | phrasing | _NOT_NAME_WORDS | {w.lower() for w in HEADS + MODIFIERS}
    return tuple(sorted(w for w in words if w.endswith(_NAME_SUFFIXES) and w not in bad))


_GENERIC_NOUNS = _allowed(GENERIC_NOUNS)
_FILLER_NOUNS = [n for n in FILLER_NOUNS if not {n, n + "s", n + "es"} & FORBIDDEN]
FILLER_SUBJECTS, FILLER_COUNTS, FILLER_FRAMES = (_allowed(FILLER_SUBJECTS), _allowed(FILLER_COUNTS),
                                                 _allowed(FILLER_FRAMES))
PARTICLES, OBJECTS, ADVERBS = _allowed(PARTICLES), _allowed(OBJECTS), _allowed(ADVERBS)
GENERIC_SENTENCES, STEP_WORDS, CAPTION_WORDS = (_allowed(GENERIC_SENTENCES), _allowed(STEP_WORDS),
                                                _allowed(CAPTION_WORDS))
GROUP_PREPS, GROUP_VERBS = _allowed(GROUP_PREPS), _allowed(GROUP_VERBS)
_MODALS, _OPTIONAL_ADVERBS, _DASHED_NOTES = _allowed(MODALS), _allowed(OPTIONAL_ADVERBS), _allowed(DASHED_NOTES)
_GROUP_IMPERATIVES, _GROUP_NAMINGS = _allowed(GROUP_IMPERATIVES), _allowed(GROUP_NAMINGS)
_VERB_GROUP_NAMINGS = _allowed(["and name it", "and title it", "and label the box", "with the heading",
                                "and name the box"])
