"""A list item that is a heading over a list of names: "- inputs: the receptor PDB and a docked ligand SDF",
"- qualitative: semi-structured interviews, observation notes", "- instruction media: paper manual / tablet /
HoloLens 2". The names after the colon are the boxes; the heading names the group that holds them (read by
:func:`crafter.agents.extract._read_headed_lines`), not a box of its own.

A heading over a step ("- embed: 3D embedding followed by GFN2-xTB"), over settings ("- production: 500 ns
unrestrained, 2 fs step"), over a sentence ("- generators: G maps horse → zebra") or said as an order ("2. Filter:
low-quality reads and adapters") is no list of names: the item keeps its heading as its name.
"""

from __future__ import annotations

import re

from crafter.agents.phrases import is_order
from crafter.agents.prose_words import _FUNCTION_WORDS, verb_lemma

_HEADED = re.compile(r"^(?P<head>[^:\n]{1,80}?)\s*:\s+(?P<rest>\S.*)$")
PIECE_SPLIT = re.compile(r"\s*(?:,|/|;|\+|\band\b|\bor\b|&)\s*|\s+\|\s+")  # ("low-T PL | HRXRD | AFM")
_NOT_A_NAME = re.compile(r"[$\\=<>≈→|]|\b(?:then|via|with|from|of|at|per|every|each|all|until|for|w)\b", re.I)
_DETERMINER = re.compile(r"^(?:the|a|an|its|their|our|each|both)\s+", re.I)
_MAX_NAME_WORDS = 4


def _is_name(piece: str) -> bool:
    """A short noun phrase: no verb but a last word that is also a noun ("nucleotide search", "Illumina reads"),
    no participle, no setting opened by a number, no formula, no preposition."""
    words = piece.split()
    if len(words) == 1 and piece.islower() and verb_lemma(piece):
        return False  # "filter", "embed": an order
    if not words or len(words) > _MAX_NAME_WORDS or not re.match(r"[^\W\d_]", piece) or _NOT_A_NAME.search(piece):
        return False
    return not any(w.islower() and not w.endswith("ed") and verb_lemma(w) for w in words[:-1]) \
        and not (len(words) > 1 and words[-1].lower().endswith("ed"))


PIPE_SPLIT = re.compile(r"\s+\|\s+")  # things side by side, "Raman | PL | AFM" (not "$q(x_t | x_{t-1})$": spaced)
_REMARK_AFTER = re.compile(r"\s+[–—-]\s+.*$|\s*[,;]\s+.*$")
# a heading before the bars, of any length: "crop models side by side: DSSAT-CERES-Maize | APSIM"
_PIPE_HEADING = re.compile(r"^[^:|]{1,80}:\s+(?=[^:]*\s\|\s)")


def as_said(name: str) -> str:
    """A box's name with its first letter raised, unless its first word is written as code or a brand: a dot, an
    underscore or a capital in it ("libm.a", "bt_runner", "tRNAscan", "mzIdentML", "n-BuLi" stay as said)."""
    return name if re.match(r"\S*[._A-Z]", name) else name[:1].upper() + name[1:]


def piped_names(item: str) -> list[str] | None:
    """The names of an item that sets them side by side between bars, "QUAST (contiguity) | BUSCO (completeness) |
    Merqury – independent runs" (a remark after the last one cut off), or None where it does not."""
    rest = _PIPE_HEADING.sub("", re.sub(r"\s*\([^()]*\)", " ", item).strip().rstrip("."), count=1)
    pieces = [p.strip() for p in PIPE_SPLIT.split(rest)]
    if len(pieces) < 2:
        return None
    pieces[-1] = _REMARK_AFTER.sub("", pieces[-1]).strip()
    if not all(p and _is_name(p) for p in pieces):
        return None
    names = [_DETERMINER.sub("", p) for p in pieces]  # "libm.a", "tRNAscan" as said
    return [as_said(n) for n in names]


def listed_names(text: str) -> list[str] | None:
    """The names of a list said as nothing else, "nanoindentation, scratch test, XRD texture", "teacher and student"
    (two at least, each a short noun phrase: :func:`_is_name`), or None."""
    rest = re.sub(r"\s*\([^()]*\)", " ", text).strip().rstrip(".")
    if re.search(r"[:;\[\]]", rest):
        return None  # "yes: keep, CEM weights; no: prune", "dict[Block, set[Var]]"
    pieces = [_DETERMINER.sub("", p.strip()) for p in re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", rest)]
    if len(pieces) < 2 or not all(p and _is_name(p) for p in pieces):
        return None
    if any(w.lower() in _FUNCTION_WORDS or w.lower() in ("else", "alike", "alongside") or w.endswith("ed") and " " in p
           for p in pieces for w in p.split()):
        return None  # a remark: "walk the chain, newest first", "pre-commit, transaction left open"
    if len(pieces) == 2 and any(" " not in p and p.islower() for p in pieces):
        return None  # "extend chains, recheck": an order and its repeat, not two names
    return pieces


# a long heading that sets its names side by side names their group in its first words: "three text encoders run
# side by side on the prompt: CLIP-L, CLIP-G and T5-XXL" (the text encoders), "crop models side by side: A | B"
_SIDE_BY_SIDE = re.compile(r"^(?:(?:two|three|four|five|six|both|all|the|\d+)\s+)*(?P<name>[^\W\d_][\w-]*(?:\s+[\w-]+){0,2}?)"
                           r"\s+(?:(?:run|runs|are|is|used|work|working|applied|trained|compared|tested)\s+)?"
                           r"(?:side\s+by\s+side|in\s+parallel)\b", re.I)


def side_by_side_heading(item: str) -> str | None:
    """The group an item's long heading names where it says its names run side by side ("crop models side by side:
    DSSAT-CERES-Maize | APSIM": the crop models), or None."""
    m = _HEADED.match(item.strip())
    side = _SIDE_BY_SIDE.match(m.group("head")) if m else None
    return as_said(side.group("name")) if side else None


def headed_names(item: str) -> tuple[str, list[str]] | None:
    """(heading, names) for an item "heading: A, B and C" whose text after the colon is two or more short
    names and nothing else (a heading of three words at most, or one saying the names run side by side); None
    otherwise."""
    m = _HEADED.match(item.strip())
    if not m or len(m.group("head").split()) > 3 and _SIDE_BY_SIDE.match(m.group("head")) is None \
            or not re.search(r"[^\W\d_]", m.group("head")) or is_order(m.group("head")):
        return None
    rest = re.sub(r"\s*\([^()]*\)", " ", m.group("rest")).strip().rstrip(".")
    pieces = [p.strip() for p in PIECE_SPLIT.split(rest) if p.strip()]
    if len(pieces) < 2 or not all(_is_name(p) for p in pieces) \
            or all(re.fullmatch(r"[a-z-]+", p) for p in pieces):  # "solvate and neutralise": orders
        return None
    names = [_DETERMINER.sub("", p) for p in pieces]
    names = [as_said(n) for n in names if n]
    return (m.group("head").strip(), names) if len(names) == len(pieces) else None
