"""Task quality of generated DSL: does it parse, and component F1 against the target.

Components are compared by what a reader sees, not by ids (ids are the model's
choice): nodes by label, edges by the labels of their two ends, groups by label;
chart statements by mark, each encoding channel (field, type) and title; repair
output line by line (the canonical print of each replacement component).
"""

from __future__ import annotations

import json

from crafter.errors import SpecError
from crafter.spec import Figure, parse_component, parse_dsl, print_component


def _norm(s: str | None) -> str:
    return " ".join((s or "").lower().split())


def figure_items(fig: Figure) -> set[tuple]:
    labels = {c.id: _norm(getattr(c, "label", None) or c.id) for c in fig.components}
    items: set[tuple] = set()
    for c in fig.components:
        if c.kind == "node":
            items.add(("node", labels[c.id]))
        elif c.kind == "edge":
            items.add(("edge", labels.get(c.source, c.source), labels.get(c.target, c.target)))
        elif c.kind == "group":
            items.add(("group", labels[c.id]))
        elif c.kind == "chart":
            spec = c.spec or {}
            mark = spec.get("mark")
            items.add(("mark", json.dumps(mark, sort_keys=True)))
            for ch, enc in (spec.get("encoding") or {}).items():
                items.add(("encoding", ch, json.dumps(enc, sort_keys=True)))
            if c.title:
                items.add(("title", _norm(c.title)))
        else:
            items.add((c.kind, print_component(c)))
    return items


def parse_output(task: str, text: str) -> Figure | list:
    """Parse model output for ``task``; raises :class:`SpecError` if it does not parse."""
    if task == "repair":
        return [parse_component(line) for line in text.splitlines() if line.strip()]
    return parse_dsl(text)


def f1(pred: set, gold: set) -> float:
    if not pred and not gold:
        return 1.0
    tp = len(pred & gold)
    if tp == 0:
        return 0.0
    p, r = tp / len(pred), tp / len(gold)
    return 2 * p * r / (p + r)


def score(task: str, output: str, target: str) -> dict:
    """``{"parses": bool, "f1": float, "exact": bool}`` for one output."""
    gold = parse_output(task, target)
    try:
        pred = parse_output(task, output)
    except SpecError:
        return {"parses": False, "f1": 0.0, "exact": False}
    if task == "repair":
        p_items = {print_component(c) for c in pred}
        g_items = {print_component(c) for c in gold}
    else:
        p_items, g_items = figure_items(pred), figure_items(gold)
    return {"parses": True, "f1": f1(p_items, g_items), "exact": output.strip() == target.strip()}
