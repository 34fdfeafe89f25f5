"""Small print's words weighed against the lexicon on the recogniser's own probabilities: a word of a
line a few pixels tall that the lexicon does not know is replaced by a known word near it in spelling
where the recogniser finds that word about as likely as its own reading.

At 4-5 px of ink (a Mermaid flowchart shrunk into a README's column at 1×) the recogniser's best
path confuses glyphs that differ by a pixel: 'i' read 'l' once its dot touches the stem ('emall',
'valld', 'sesslon'), 'a' read 's' ('parss', 'uplosd'), 'n' read 'm' ('metwork'), a letter dropped
('profle'). Its CTC output still holds the right word: the likelihood of the whole line with the known
word in place (summed over every alignment, :func:`ctc_log_likelihood`) is close to that of the line as
read, where a wrong known word (a name the lexicon lacks: 'upload' as 'upland') is far less likely.
The likelihood is the mean over the line's crops at 1× and at the working sizes the small-print re-read
cuts (:mod:`crafteditor.ocr.small_print`), so no one resampling decides.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

import numpy as np

from crafteditor.config import past
from crafteditor.ocr.lexicon import glyph_slip, known_word, lexicon
from crafteditor.ocr.small_print import WORKING_SCALES, Cut, Reading, small_lines, working_size_crop
from crafter.base.text import levenshtein

# px: lines whose ink is at most this tall are weighed. Every word mended on the drawn column figures stood in a
# line of 4-5 px; the Mermaid sequence diagrams at 1× (7-8 px, ``seq19`` mmcol) read no word otherwise and
# paid a tenth more CPU for their lines' recogniser calls
MEND_LINE = 6
MIN_WORD = 4  # letters: shorter words are too often another word by one glyph
# a known word is taken this much less likely at most than the reading (mean natural-log likelihood over
# the crops); a glyph pair the recogniser confuses in figures' faces (lexicon._SLIPS: l/i, c/e, rn/m...)
# more: at 4 px the recogniser is sure of 'l' for a dotted 'i' ('emall' for 'email': 5 nats)
MEND_MARGIN = 2.0
SLIP_MARGIN = 6.0
# a known word two edits from the reading is taken only this much likelier than it: on the drawn column
# figures such a word within MEND_MARGIN was as often a wrong one ('parse', which the lexicon lacks, read
# 'pere') as the right one
TWO_EDITS_GAIN = 1.0
# nats: a neighbour this much further below its margin on the line's first crop (2×) is not weighed on the
# others (each a recogniser call). A right word fell at most 4.4 below the reading at 2× on the drawn
# column figures (its mean over the three crops within its margin)
SCREEN_MARGIN = 4.0
# recogniser calls the weighing makes on one page at most (each crop its own call, ~20 ms): the drawn column
# figure of the tests made 21; a page of 200 small lines had made 446 (9 CPU-s, 43 % of its conversion)
MEND_CALLS = 64
_WORD = re.compile(r"[A-Za-z]+")


@functools.lru_cache(maxsize=1)
def _deletion_index() -> dict[str, tuple[str, ...]]:
    """Each lexicon word of :data:`MIN_WORD` letters or more, and each with one letter deleted: the
    words it comes from (a symmetric-deletion index: words two edits apart share a key)."""
    index: dict[str, set[str]] = {}
    for w in lexicon():
        if len(w) >= MIN_WORD:
            for key in {w} | {w[:i] + w[i + 1:] for i in range(len(w))}:
                index.setdefault(key, set()).add(w)
    return {k: tuple(sorted(v)) for k, v in index.items()}


def lexicon_neighbours(word: str) -> list[str]:
    """The lexicon's words (:data:`MIN_WORD` letters or more) near ``word`` (lower case) in spelling:
    a deletion key shared, ``word`` with up to two letters deleted against a word with up to one."""
    index = _deletion_index()
    keys = {word} | {word[:i] + word[i + 1:] for i in range(len(word))}
    keys |= {k[:i] + k[i + 1:] for k in list(keys) for i in range(len(k))}
    return sorted({w for k in keys for w in index.get(k, ())} - {word})


def ctc_log_likelihood(probs: np.ndarray, labels: list[int]) -> float:
    """log p(labels | probs) under CTC, blank class 0: the forward algorithm over every alignment.
    ``probs``: T×C class probabilities (rows summing to 1)."""
    return float(ctc_log_likelihoods(probs, [labels])[0])


def ctc_log_likelihoods(probs: np.ndarray, texts: list[list[int]]) -> np.ndarray:
    """:func:`ctc_log_likelihood` of each label sequence in ``texts`` on one T×C ``probs``, the forward
    algorithm run for all at once (each padded with blanks it never reaches: a loop over the steps, not
    over the steps of every candidate)."""
    n, size = len(texts), 2 * max(len(t) for t in texts) + 1
    ext = np.zeros((n, size), dtype=np.int64)  # blank, label, blank, label, ... blank
    for i, t in enumerate(texts):
        ext[i, 1:2 * len(t):2] = t
    logp = np.log(np.maximum(probs, 1e-12))[:, ext]  # T×N×S
    # a label may skip the blank before it unless it repeats the label before that
    skip = np.zeros((n, size), dtype=bool)
    skip[:, 2:] = (ext[:, 2:] != 0) & (ext[:, 2:] != ext[:, :-2])
    alpha = np.full((n, size), -np.inf)
    alpha[:, :2] = logp[0, :, :2]
    for t in range(1, len(logp)):
        step = alpha.copy()
        step[:, 1:] = np.logaddexp(step[:, 1:], alpha[:, :-1])
        step[:, 2:] = np.where(skip[:, 2:], np.logaddexp(step[:, 2:], alpha[:, :-2]), step[:, 2:])
        alpha = step + logp[t]
    last = np.array([2 * len(t) for t in texts])  # each text's final blank, and its last label before it
    rows = np.arange(n)
    return np.logaddexp(alpha[rows, last], np.where(last > 0, alpha[rows, np.maximum(last - 1, 0)], -np.inf))


def _unknown_words(text: str, words: frozenset[str]) -> list[re.Match]:
    """The words of ``text`` (runs of letters, :data:`MIN_WORD` or more, lower case or capitalised: no
    acronym, no camelCase) the lexicon does not know (:func:`~crafteditor.ocr.lexicon.known_word`)."""
    return [m for m in _WORD.finditer(text) if len(m.group(0)) >= MIN_WORD and m.group(0)[1:].islower()
            and not known_word(m.group(0).lower(), words)]


def mend_line(text: str, crop_probs: list[Callable[[], np.ndarray | None]],
              labels_of: Callable[[str], list[int] | None]) -> str:
    """``text`` with each word the lexicon does not know replaced by the likeliest known neighbour
    (:func:`lexicon_neighbours`) where it is at most :data:`MEND_MARGIN` (a glyph-pair slip:
    :data:`SLIP_MARGIN`; two edits away: :data:`TWO_EDITS_GAIN` likelier) less likely than the word as read,
    on the mean over the line's crops. ``crop_probs``: for each crop of the line, what gives its T×C
    probabilities, None where there is no such crop (a recogniser call: each asked for once; the first alone
    until a neighbour comes within :data:`SCREEN_MARGIN` more than its margin of the reading on it).
    ``labels_of``: a text → its class indices (None where a character has no class)."""
    words = lexicon()
    if not words or not crop_probs:
        return text
    probs: list[np.ndarray] = []
    asked = 0

    def likelihoods(lines: list[str], crops: int) -> np.ndarray:
        """Each line's mean log-likelihood over the first ``crops`` crops that hold the line."""
        nonlocal asked
        while len(probs) < crops and asked < len(crop_probs):
            p = crop_probs[asked]()
            asked += 1
            if p is not None:
                probs.append(p)
        labels = [labels_of(line) for line in lines]
        ok = [i for i, lab in enumerate(labels) if lab]
        out = np.full(len(lines), -np.inf)
        if ok and probs:
            out[ok] = np.mean([ctc_log_likelihoods(p, [labels[i] for i in ok]) for p in probs[:crops]], axis=0)
        return out

    for m in reversed(_unknown_words(text, words)):  # from the right: earlier words keep their offsets
        word = m.group(0).lower()
        # the margin each neighbour may fall short of the reading by: a glyph pair confused, one edit, or
        # two edits (a gain, not a margin)
        margins = {near: SLIP_MARGIN if glyph_slip(word, near) else MEND_MARGIN if d <= 1 else -TWO_EDITS_GAIN
                   for near in lexicon_neighbours(word) for d in [levenshtein(word, near)] if d <= 2}
        fits = [(0.0, near.capitalize() if m.group(0)[0].isupper() else near, margin) for near, margin in margins.items()]
        for crops, slack in ((1, SCREEN_MARGIN), (len(crop_probs), 0.0)):  # the first crop screens them
            if not fits:
                break
            lls = likelihoods([text] + [text[:m.start()] + c + text[m.end():] for _, c, _ in fits], crops)
            fits = [(ll, c, margin) for ll, (_, c, margin) in zip(lls[1:], fits)
                    if np.isfinite(lls[0]) and ll >= lls[0] - margin - slack]
        if fits:
            best = max(fits)[1]
            text = text[:m.start()] + best + text[m.end():]
    return text


def mend_small_print(jobs: list[tuple], readings: list[Reading], probs_of: Callable[[np.ndarray], np.ndarray],
                     labels_of: Callable[[str], list[int] | None], deadline: float | None = None,
                     cuts: dict[tuple[int, int], Cut | None] | None = None) -> list[Reading]:
    """``readings`` (each job's upright reading, :func:`~crafteditor.ocr.small_print.reread_small_print`'s)
    with the unknown words of lines at most :data:`MEND_LINE` px tall mended (:func:`mend_line`) on the line's
    crops at 1× and at the working sizes, until :data:`MEND_CALLS` recogniser calls are spent (the lines past
    that keep their reading). A mended word's characters take even centres over the span the word as read had.
    ``probs_of``: a BGR crop → its T×C class probabilities (the recogniser's, :meth:`OcrEngine.class_probs`).
    ``cuts``: the crops at working sizes the re-read cut already, by (job, size)
    (:func:`~crafteditor.ocr.small_print.reread_small_print`); the others are cut here."""
    out = list(readings)
    words = lexicon()
    calls = 0

    def counted(probs: Callable[[], np.ndarray | None]) -> Callable[[], np.ndarray | None]:
        def call() -> np.ndarray | None:
            nonlocal calls
            calls += 1
            return probs()
        return call

    for j in small_lines(jobs, MEND_LINE):
        text, conf, centres = out[j]
        if past(deadline) or calls >= MEND_CALLS:
            break
        if not words or not _unknown_words(text, words) or len(centres) != len(text):
            continue
        bg, crops, _, line, region = jobs[j]
        # 2× first (it screens), 1×, 3×: on the drawn column figures (mermaid-wild seed 19), misread words 64
        # weighed on all three, 66 on 2× and 1×, 68 on 2× alone
        first, *more = (functools.partial(_working_probs, region, line, bg, k, probs_of,
                                          (cuts or {}).get((j, k), False)) for k in WORKING_SCALES)
        weighed = [counted(c) for c in (first, functools.partial(probs_of, crops[0][0]), *more)]
        mended = mend_line(text, weighed, labels_of)
        if mended != text:
            out[j] = (mended, conf, _respaced(text, mended, centres))
    return out


def _working_probs(region: np.ndarray, line, bg: np.ndarray, k: int,
                   probs_of: Callable[[np.ndarray], np.ndarray], cut: Cut | None | bool = False) -> np.ndarray | None:
    """The class probabilities of the line's crop at working size ``k``
    (:func:`~crafteditor.ocr.small_print.working_size_crop`, or ``cut`` where it was cut already: False where
    not); None where the upscaled box holds no line."""
    if cut is False:
        cut = working_size_crop(region, line, bg, k)
    return None if cut is None else probs_of(cut[0])


def _respaced(text: str, mended: str, centres: list[float]) -> list[float]:
    """Character centres for ``mended`` (``text`` with words changed, its spaces where they were): those of
    ``text``'s characters where the words agree, a changed word's spread evenly over the span it had as read."""
    out: list[float] = []
    k = 0
    for a, b in zip(text.split(" "), mended.split(" ")):
        span = centres[k:k + len(a)]
        if a == b or not span:
            out += span if a == b else [centres[min(k, len(centres) - 1)]] * len(b)
        else:
            step = (span[-1] - span[0]) / max(1, len(b) - 1)
            out += [span[0] + i * step for i in range(len(b))]
        k += len(a)
        if k < len(centres):
            out.append(centres[k])  # the space after the word
            k += 1
    return out
