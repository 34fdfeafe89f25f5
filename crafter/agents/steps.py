"""A bulleted list that reads as steps, one after another: a protocol ("CUBIC clearing – mouse kidney" over "-
transcardial perfusion", "- post-fix 24 h, 4 °C", "- CUBIC-L delipidation, 5 d at 37 °C", "- light-sheet imaging"),
each item feeding the next, as a numbered list does (:func:`crafter.agents.extract._read_items`).

It reads as steps where most of its items (half or more) name a step: an order ("Fix the samples",
:func:`crafter.agents.phrases.step_name`) or a name whose head is a process noun ("delipidation", "light-sheet
imaging"; not "Authentication service", whose head is a thing), and
the list says it is a procedure: its heading names one ("… assay:", "… protocol", "Sample preparation") or half its
items or more give a step's time or setting ("24 h", "4 °C", "3000 rpm"), or every item is a step.
Never a list of parts ("- image encoder: ViT-L/14", "- a Postgres store"): their names are things.
"""

from __future__ import annotations

import re

from crafter.agents.phrases import item_label, step_name

_PROCESS_NOUN = re.compile(r"[a-z]{3,}(?:tion|sion|ment|ysis)|[a-z]{4,}ing", re.I)  # ("string", "ring": no step)
_PROCEDURE = re.compile(r"\b(?:protocols?|procedures?|assays?|workflows?|routines?|process|preparation|prep|"
                        r"methods?|recipes?|steps?|campaign|treatment|screens?|study|experiments?|trials?)\b", re.I)
# a step's time or setting; a one-letter unit in its own case, kelvin after a space ("3D viewer", "4K display" say none)
_SETTING = re.compile(r"\b\d+(?:[.,]\d+)?(?:\s*(?:(?-i:h|s|d)|hrs?|hours?|min|mins|minutes?|sec|days?|weeks?|rpm|"
                      r"×\s*g|x\s*g|cycles?)|\s+(?-i:K))\b|°C", re.I)


# the words after a name's head: "droplet reading on the reader" is a reading
_AFTER_HEAD = re.compile(r"\s(?:on|of|in|at|for|with|by|from|to|into|onto|using|via|per|under|over|through)\s", re.I)


def _names_a_step(item: str) -> bool:
    """An order, or a name whose head (its last word before a preposition) is a process noun: "light-sheet
    imaging", "droplet reading on the reader"; not "Authentication service", "a rendering engine" (a thing that a
    process noun only qualifies)."""
    if step_name(item):
        return True
    words = re.findall(r"[A-Za-z]+", _AFTER_HEAD.split(item_label(item), 1)[0])
    return bool(words) and _PROCESS_NOUN.fullmatch(words[-1]) is not None


def reads_as_steps(items: list[str], heading: str) -> bool:
    """Whether a list's ``items`` (each item's text, its mark left out), under ``heading`` (the text before the
    list, its last line the list's heading), read as steps one after another (see the module docstring)."""
    if len(items) < 2:
        return False
    steps = sum(map(_names_a_step, items))
    if 2 * steps < len(items):
        return False
    timed = sum(1 for x in items if _SETTING.search(x))
    return steps == len(items) or 2 * timed >= len(items) or _names_a_procedure(heading)


def _names_a_procedure(heading: str) -> bool:
    """Whether the heading over a list (its last line before the list) names a procedure: a word for one ("…
    protocol", "… assay") or a step ("CUBIC clearing – mouse kidney", "Sample preparation"); not any word in -ing or
    -tion of the prose before it ("We are building a notebook", "Our application")."""
    lines = [ln.strip() for ln in heading.splitlines() if ln.strip()]
    if not lines:
        return False
    return _PROCEDURE.search(lines[-1]) is not None or _names_a_step(lines[-1].rstrip(":"))


# a heading that announces a list of parts: "Components of our training setup:", "…, components:", "The rig consists of:"
_PARTS = re.compile(r"\b(?:components?|parts|pieces|consists? of|made up of|compris(?:es|ing))\b[^\n]*:\s*$", re.I)


def heads_parts(heading: str) -> bool:
    """Whether the heading over a list (its last line before the list) announces the parts of a thing ("Components of
    our asynchronous training setup:"): its items sit side by side, none feeding the next."""
    lines = [ln.strip() for ln in heading.splitlines() if ln.strip()]
    return bool(lines) and _PARTS.search(lines[-1]) is not None


# where a step files what it made: "store one half in the core repository", "merge pairs into the network record"
_FILED_IN = re.compile(r"\b(?:in|into)\s+(?:the|a|an|its|their|our|one|that)\s+((?:[\w'-]+\s+){0,3}?(?:repository|"
                       r"database|record|archive|register|registry|catalogue|catalog|biobank|freezer))\b", re.I)


def filed_in(order: str) -> list[str]:
    """The stores an order of a protocol puts its results in ("Enter both sets of results in the catchment
    database": "Catchment database"); a thing said as kept, not a step, so a box beside the chain of steps."""
    return [m.group(1)[:1].upper() + m.group(1)[1:] for m in _FILED_IN.finditer(order)]
