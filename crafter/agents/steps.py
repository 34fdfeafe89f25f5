"""A bulleted list that reads as steps, one after another: a protocol ("CUBIC clearing – mouse kidney" over "-
transcardial perfusion", "- post-fix 24 h, 4 °C", "- CUBIC-L delipidation, 5 d at 37 °C", "- light-sheet imaging"),
each item feeding the next, as a numbered list does (:func:`crafter.agents.extract._read_items`).

It reads as steps where most of its items (half or more) name a step: an order ("Fix the samples",
:func:`crafter.agents.phrases.step_name`) or a process noun ("delipidation", "imaging", "PCR" after an order), and
the list says it is a procedure: its heading names one ("… assay:", "… protocol", "Sample preparation") or half its
items or more give a step's time or setting ("24 h", "4 °C", "3000 rpm"), or every item is a step.
Never a list of parts ("- image encoder: ViT-L/14", "- a Postgres store"): their names are things.
"""

from __future__ import annotations

import re

from crafter.agents.phrases import item_label, step_name

_PROCESS_NOUN = re.compile(r"[a-z]{3,}(?:tion|sion|ment|ysis)|[a-z]{4,}ing", re.I)  # ("string", "ring": no step)
_PROCEDURE = re.compile(r"\b(?:protocols?|procedures?|assays?|workflows?|routines?|process|preparation|prep|"
                        r"methods?|recipes?|steps?|campaign|treatment|screens?|study|experiments?|trials?)\b|\b[a-z]{3,}tion\b|"
                        r"\b[a-z]{4,}ing\b", re.I)
_SETTING = re.compile(r"\b\d+(?:[.,]\d+)?\s*(?:h|hrs?|hours?|min|mins|minutes?|s|sec|d|days?|weeks?|°C|K|rpm|×\s*g|"
                      r"x\s*g|cycles?)\b|°C", re.I)


def _names_a_step(item: str) -> bool:
    if step_name(item):
        return True
    return any(_PROCESS_NOUN.fullmatch(w) for w in re.findall(r"[A-Za-z]+", item_label(item)))


def reads_as_steps(items: list[str], heading: str) -> bool:
    """Whether a list's ``items`` (each item's text, its mark left out), under ``heading`` (the text before the
    list), read as steps one after another (see the module docstring)."""
    if len(items) < 2:
        return False
    steps = sum(map(_names_a_step, items))
    if 2 * steps < len(items):
        return False
    timed = sum(1 for x in items if _SETTING.search(x))
    return steps == len(items) or 2 * timed >= len(items) or _PROCEDURE.search(heading) is not None
