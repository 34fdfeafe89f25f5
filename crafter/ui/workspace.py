"""The figure the user is working on: its laid-out FigureSpec, its SVG, undo and redo.

Every change goes through :meth:`Workspace.commit`, which renders first and only then
replaces the figure, so an edit that cannot be drawn (a bad colour, a broken DSL line)
leaves the figure as it was. ``version`` grows with every change; the app keys its
editors by it so they show the new figure after an edit, an undo or a generation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from crafter.spec import Figure

HISTORY_LIMIT = 50

Renderer = Callable[..., tuple[Figure, str]]


@dataclass
class Snapshot:
    figure: Figure
    svg: str
    note: str  # what produced this state ("generated", "table: edited enc"...)


@dataclass
class Workspace:
    current: Snapshot | None = None
    undo_stack: list[Snapshot] = field(default_factory=list)
    redo_stack: list[Snapshot] = field(default_factory=list)
    version: int = 0
    # from the pipeline run that made the figure, when there was one
    issues: list[Any] = field(default_factory=list)
    report: dict[str, Any] = field(default_factory=dict)
    run_id: str | None = None
    notes: list[str] = field(default_factory=list)  # what the pipeline said (e.g. rules stood in for the model)

    @property
    def figure(self) -> Figure | None:
        return self.current.figure if self.current else None

    @property
    def svg(self) -> str | None:
        return self.current.svg if self.current else None

    @property
    def title(self) -> str:
        fig = self.figure
        return (fig.title if fig and fig.title else "") or "Untitled figure"

    def commit(self, figure: Figure, note: str, *, render: Renderer, relayout: bool = False,
               svg: str | None = None) -> None:
        """Make ``figure`` current (rendered with ``render`` unless ``svg`` is given)."""
        if svg is None:
            figure, svg = render(figure, relayout=relayout)
        if self.current is not None:
            self.undo_stack.append(self.current)
            del self.undo_stack[:-HISTORY_LIMIT]
        self.redo_stack.clear()
        self.current = Snapshot(figure, svg, note)
        self.version += 1

    def replace(self, figure: Figure, svg: str, note: str, *, issues: list[Any] | None = None,
                report: dict[str, Any] | None = None, run_id: str | None = None,
                notes: list[str] | None = None) -> None:
        """A new figure from outside (generated, opened, reopened run); the old one stays undoable."""
        self.commit(figure, note, render=_no_render, svg=svg)
        self.issues = list(issues or [])
        self.report = dict(report or {})
        self.run_id = run_id
        self.notes = list(notes or [])

    def undo(self) -> bool:
        if not self.undo_stack or self.current is None:
            return False
        self.redo_stack.append(self.current)
        self.current = self.undo_stack.pop()
        self.version += 1
        return True

    def redo(self) -> bool:
        if not self.redo_stack:
            return False
        if self.current is not None:
            self.undo_stack.append(self.current)
        self.current = self.redo_stack.pop()
        self.version += 1
        return True

    def history(self) -> list[str]:
        """Notes of the states, oldest first, the current one last."""
        notes = [s.note for s in self.undo_stack]
        return notes + ([self.current.note] if self.current else [])


def _no_render(figure: Figure, **_: Any) -> tuple[Figure, str]:  # pragma: no cover - svg is always given
    raise AssertionError("replace() is always given the SVG")
