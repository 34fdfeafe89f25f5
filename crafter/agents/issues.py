"""Critique issues: plain dicts that name the components they concern.

An issue is JSON data so it can live in the pipeline state and the run store::

    {"code": "overlap", "severity": "error",
     "message": "node 'enc' overlaps node 'dec'",
     "component_ids": ["dec", "enc"],   # every component involved
     "target": "dec",                   # the one a repair may change
     "fix": "rule"}                     # "rule" (geometry) or "model" (meaning)

``target`` is a component id, :data:`FIGURE` for figure-wide settings (direction,
title), or a new id for something to add (a missing entity). Repair may change the
target only; :func:`issue_key` identifies an issue across rounds.
"""

from __future__ import annotations

from typing import Any

FIGURE = "@figure"  # target of figure-level issues: not a valid component id, so it never collides

# code -> (severity, fix): what each check reports and who repairs it
CODES: dict[str, tuple[str, str]] = {
    "overlap": ("error", "rule"),  # two nodes (or a node and a chart/text) overlap
    "text_overflow": ("error", "rule"),  # a label does not fit its box
    "edge_crosses_node": ("warning", "rule"),  # an edge runs through a node that is not its endpoint
    "label_overlap": ("warning", "rule"),  # an edge label sits on a node
    "edge_detached": ("error", "rule"),  # an edge's drawn route no longer reaches its source or target
    "dangling_id": ("error", "rule"),  # a reference to an id that does not exist
    "off_canvas": ("error", "rule"),  # content outside the canvas
    "low_contrast": ("warning", "rule"),  # text contrast below WCAG AA (4.5:1)
    "tiny_font": ("warning", "rule"),  # text under 6 pt at the print width
    "chart_readback": ("error", "rule"),  # chart marks that do not read back to the data
    "chart_axis_title": ("warning", "rule"),  # a quantitative axis without a title
    "missing_entity": ("warning", "model"),  # a thing the brief names is not in the figure
    "instruction": ("info", "model"),  # a user instruction the rules could not carry out
}
SEVERITIES = ("error", "warning", "info")


def make_issue(
    code: str,
    component_ids: list[str],
    message: str,
    *,
    target: str | None = None,
    severity: str | None = None,
    fix: str | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """Build an issue dict; severity and fix default to the code's (see :data:`CODES`)."""
    default_sev, default_fix = CODES.get(code, ("warning", "model"))
    ids = list(dict.fromkeys(component_ids))
    issue = {
        "code": code,
        "severity": severity or default_sev,
        "message": message,
        "component_ids": ids,
        "target": target if target is not None else (ids[0] if ids else FIGURE),
        "fix": fix or default_fix,
    }
    issue.update(extra)
    return issue


def issue_key(issue: dict[str, Any]) -> str:
    """A stable identity for an issue across rounds (code + the components involved)."""
    return f"{issue['code']}:{','.join(sorted(issue['component_ids'])) or issue['target']}"


def describe(issue: dict[str, Any]) -> str:
    """One line for reports: ``[error] overlap (dec, enc): node 'enc' overlaps node 'dec'``."""
    ids = ", ".join(issue["component_ids"]) or issue["target"]
    return f"[{issue['severity']}] {issue['code']} ({ids}): {issue['message']}"
