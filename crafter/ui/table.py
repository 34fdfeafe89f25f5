"""The Edit tab's components table: a Figure as rows, and the user's cell edits back.

One row per component: ``id``, ``kind``, ``label``, ``shape``, ``fill``, ``stroke``,
``text_color``; a blank cell is "not set". The columns mean the visible thing whatever the kind: "label" is a
node's or edge's label, a panel's or chart's title, an annotation's text; "stroke" is an
edge's colour; "text_color" an annotation's colour. A cell that does not apply to a kind
(an edge's shape) is empty, and typing into it is an error naming the component.

Edits arrive in the shape ``st.data_editor`` keeps in session state::

    {"edited_rows": {row: {column: value}}, "added_rows": [{column: value}], "deleted_rows": [row]}

:func:`apply_table_edits` turns them into a new, validated Figure (the input is never
modified). Added rows become nodes (their id made from the label); deleting a row
removes the component, the edges that touch it, its membership in groups and panels,
and annotations anchored to it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from crafter.errors import SpecError
from crafter.spec import Figure

COLUMNS = ("id", "kind", "label", "shape", "fill", "stroke", "text_color")
EDITABLE = ("label", "shape", "fill", "stroke", "text_color")
COLUMN_TITLES = {
    "id": "ID", "kind": "Kind", "label": "Label / text", "shape": "Shape",
    "fill": "Fill", "stroke": "Line colour", "text_color": "Text colour",
}

# column -> {kind: IR field}; a kind missing from a column's map has no such cell.
FIELD_FOR: dict[str, dict[str, str]] = {
    "label": {"node": "label", "edge": "label", "group": "label", "panel": "title",
              "text": "text", "chart": "title", "image": "alt"},
    "shape": {"node": "shape"},
    "fill": {"node": "fill", "group": "fill", "path": "fill"},
    "stroke": {"node": "stroke", "edge": "color", "group": "stroke", "path": "stroke"},
    "text_color": {"node": "text_color", "group": "text_color", "text": "color"},
}
# Fields a figure cannot do without: an empty cell there is an error, not "unset".
REQUIRED = {("text", "text")}


@dataclass
class TableEdit:
    """What a table edit did, so the caller knows whether the layout must be redone."""

    figure: Figure
    changed: list[str] = field(default_factory=list)  # ids whose fields changed
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    text_changed: bool = False  # a label or shape changed: sizes may change

    @property
    def needs_layout(self) -> bool:
        return bool(self.added or self.removed or self.text_changed)

    @property
    def summary(self) -> str:
        parts = []
        if self.changed:
            parts.append("edited " + ", ".join(self.changed))
        if self.added:
            parts.append("added " + ", ".join(self.added))
        if self.removed:
            parts.append("removed " + ", ".join(self.removed))
        return "; ".join(parts) or "no change"


def _display(value: Any) -> str:
    """IR value → cell text: blank when not set, line breaks shown as the DSL writes them (\\n)."""
    if value is None:
        return ""
    return str(value).replace("\n", "\\n")


def _parse_cell(value: Any) -> Any:
    """Cell text → IR value: blank means "not set", \\n means a line break."""
    if value is None:
        return None
    if isinstance(value, float) and value != value:  # NaN from pandas
        return None
    text = str(value)
    if not text.strip():
        return None
    return text.replace("\\n", "\n")


def components_table(fig: Figure) -> list[dict[str, Any]]:
    """One row per component, in drawing order (the order of ``fig.components``)."""
    rows = []
    for c in fig.components:
        row: dict[str, Any] = {"id": c.id, "kind": c.kind}
        for col in EDITABLE:
            name = FIELD_FOR[col].get(c.kind)
            row[col] = _display(getattr(c, name)) if name else ""
        rows.append(row)
    return rows


def _new_id(label: str | None, taken: set[str]) -> str:
    base = re.sub(r"[^A-Za-z0-9_]+", "_", (label or "node").strip().lower()).strip("_") or "node"
    if not re.match(r"[A-Za-z_]", base):
        base = "n_" + base
    base = base[:32]
    candidate, i = base, 2
    while candidate in taken:
        candidate, i = f"{base}_{i}", i + 1
    return candidate


def _a(kind: str) -> str:
    return ("an " if kind[0] in "aeiou" else "a ") + kind


def _set(comp: dict[str, Any], kind: str, column: str, value: Any, cid: str) -> bool:
    """Apply one cell to a component's data; True if the value changed."""
    name = FIELD_FOR.get(column, {}).get(kind)
    if column not in EDITABLE:
        raise SpecError(f"the {COLUMN_TITLES.get(column, column)} column cannot be edited here "
                        "(use the DSL editor)", component=cid, field=column)
    new = _parse_cell(value)
    if name is None:
        if new is None:
            return False
        raise SpecError(f"{_a(kind)} has no {COLUMN_TITLES[column].lower()}", component=cid, field=column)
    if new is None and (kind, name) in REQUIRED:
        raise SpecError(f"{_a(kind)} needs its {COLUMN_TITLES[column].lower()}", component=cid, field=name)
    if comp.get(name) == new:
        return False
    if new is None:
        comp.pop(name, None)
    else:
        comp[name] = new
    return True


def remove_components(data: dict[str, Any], ids: set[str]) -> set[str]:
    """Remove components (and what depends on them) from figure data in place.

    Returns every id removed: the ones asked for, edges touching them, annotations
    anchored to them.
    """
    removed = set(ids)
    for c in data["components"]:
        if c["kind"] == "edge" and (c["source"] in removed or c["target"] in removed):
            removed.add(c["id"])
        elif c["kind"] == "text" and c.get("near") in removed:
            removed.add(c["id"])
    data["components"] = [c for c in data["components"] if c["id"] not in removed]
    for c in data["components"]:
        if "members" in c:
            c["members"] = [m for m in c["members"] if m not in removed]
    return removed


def apply_table_edits(fig: Figure, edits: dict[str, Any] | None) -> TableEdit:
    """A new Figure with the table's edits applied (``fig`` is unchanged).

    Raises :class:`SpecError` naming the component and field of the first bad cell.
    """
    edits = edits or {}
    data = fig.to_dict()
    comps: list[dict[str, Any]] = data.setdefault("components", [])
    ids = [c["id"] for c in comps]
    result = TableEdit(figure=fig)

    for row_key, cells in (edits.get("edited_rows") or {}).items():
        row = int(row_key)
        if not 0 <= row < len(comps):
            continue  # a row that vanished since the table was drawn
        comp = comps[row]
        touched = False
        for column, value in cells.items():
            if column in ("id", "kind"):
                raise SpecError(f"the {column} cannot be changed here (use the DSL editor)",
                                component=comp["id"], field=column)
            if _set(comp, comp["kind"], column, value, comp["id"]):
                touched = True
                result.text_changed |= column in ("label", "shape")
                if column == "label":  # spacing fitted to the old text's ink (CraftEditor) does not fit the new
                    comp.pop("letter_spacing", None)
        if touched:
            result.changed.append(comp["id"])

    deleted = {ids[int(r)] for r in (edits.get("deleted_rows") or []) if 0 <= int(r) < len(ids)}
    if deleted:
        gone = remove_components(data, deleted)
        result.removed = [i for i in ids if i in gone]
        result.changed = [i for i in result.changed if i not in gone]

    taken = {c["id"] for c in comps} | set(deleted)
    for cells in edits.get("added_rows") or []:
        cells = {k: v for k, v in cells.items() if k not in ("id", "kind")}
        if all(_parse_cell(v) is None for v in cells.values()):
            continue  # an empty row the user has not typed into yet
        new_id = _new_id(_parse_cell(cells.get("label")), taken)
        taken.add(new_id)
        comp = {"id": new_id, "kind": "node"}
        for column, value in cells.items():
            _set(comp, "node", column, value, new_id)
        data["components"].append(comp)
        result.added.append(new_id)

    if result.changed or result.added or result.removed:
        if not data["components"]:
            raise SpecError("a figure needs at least one component; undo, or add a row first")
        # geometry of removed/added parts is stale: let the layout place things again
        result.figure = Figure.from_dict(data)
    return result
