"""Every change the app makes to the figure being edited, and the figures that replace it.

Each edit takes the :class:`~crafter.ui.workspace.Workspace` and commits a new
:class:`~crafter.spec.Figure` through it: the workspace renders first and only then makes the
figure current, so an edit that cannot be drawn raises and leaves the figure (and the undo
history) as it was. The figure is never changed in place: the transforms below return a
validated copy, and the old figure stays on the undo stack as it was.

The tabs call these functions and show what they raise; they hold no figure logic.
"""

from __future__ import annotations

from crafter.spec import Edge, Figure
from crafter.ui import services
from crafter.ui.settings import Settings
from crafter.ui.table import TableEdit
from crafter.ui.workspace import Workspace

# --------------------------------------------------------------------------------------
# Figure transforms (a new Figure; the input is unchanged)
# --------------------------------------------------------------------------------------


def with_title(fig: Figure, title: str | None) -> Figure:
    """The figure with another title (None: no title)."""
    titled = fig.model_copy(deep=True)
    titled.title = title
    return titled


def with_look(fig: Figure, theme: str, width_in: float | None, style: dict | None = None) -> Figure:
    """The figure with another theme, print width and house style layer (validated: an unknown theme raises)."""
    restyled = fig.model_copy(deep=True)
    restyled.theme = theme
    restyled.width_in = width_in
    restyled.style = style
    return restyled


def figure_without_geometry(fig: Figure) -> Figure:
    """The figure without layout results (boxes, routes, canvas); pinned boxes are kept.

    What the DSL editor shows by default: the text people write, not coordinates.
    """
    bare = fig.model_copy(deep=True)
    bare.canvas = None
    for c in bare.components:
        if not c.pinned:
            c.box = None
        if isinstance(c, Edge):
            c.route = None
            c.label_box = None
    return bare


def has_geometry(fig: Figure) -> bool:
    return fig.canvas is not None or any(getattr(c, "box", None) is not None for c in fig.components)


def look_differs(fig: Figure | None, settings: Settings) -> bool:
    """Whether the figure has another theme or print width than Settings."""
    return fig is not None and (fig.theme != settings.theme or fig.width_in != settings.width_in
                                or (fig.style.name if fig.style else "") != settings.style)


# --------------------------------------------------------------------------------------
# Edits of the figure being edited (each one undoable step)
# --------------------------------------------------------------------------------------


def set_title(ws: Workspace, title: str | None) -> None:
    """Another title (None: no title); it also names the exported files."""
    # the title is drawn above the figure, so the layout makes room for it
    ws.commit(with_title(ws.figure, title), f"title: {title or '(none)'}", render=services.render, relayout=True)


def apply_look(ws: Workspace, settings: Settings) -> None:
    """Settings' theme and width applied to the figure."""
    # both change sizes (fonts, panel arrangement), so the layout runs again
    layer = services.style_layer_data(settings.style)
    ws.commit(with_look(ws.figure, settings.theme, settings.width_in, layer),
              f"settings: {settings.theme} theme, {settings.column} column"
              + (f", {settings.style} style" if settings.style else ""), render=services.render, relayout=True)


def apply_table_edit(ws: Workspace, edit: TableEdit) -> None:
    """The components table's edit (:func:`crafter.ui.table.apply_table_edits` made it)."""
    ws.commit(edit.figure, "table: " + edit.summary, render=services.render, relayout=edit.needs_layout)


def apply_dsl(ws: Workspace, fig: Figure, *, keep_geometry: bool) -> None:
    """The figure the DSL editor's text describes.

    Laid out again unless the text was shown with its coordinates (``keep_geometry``) or
    the user wrote some.
    """
    ws.commit(fig, "DSL edit", render=services.render, relayout=not keep_geometry and not has_geometry(fig))


def take_instruction_result(ws: Workspace, instruction: str, result: services.PipelineResult) -> bool:
    """The figure an instruction's run made (:func:`services.edit`); False when it changed nothing."""
    if not result.applied and result.figure == ws.figure:
        return False
    take_result(ws, result, f"instruction: {instruction}")
    return True


# --------------------------------------------------------------------------------------
# A new figure from outside (the old one stays undoable)
# --------------------------------------------------------------------------------------


def take_result(ws: Workspace, result: services.PipelineResult, note: str, *, run_id: str | None = None) -> None:
    """The figure a pipeline run made (generated, edited, reopened, resumed), with its issues and report.

    ``run_id``: the run asked for, when the figure comes from a past run.
    """
    ws.replace(result.figure, result.svg, note, issues=result.issues, report=result.report,
               run_id=result.run_id if run_id is None else run_id, notes=result.warnings)


def take_opened(ws: Workspace, opened: services.Opened, note: str) -> Figure:
    """An opened file's figure, laid out where it has no geometry; returns the laid-out figure."""
    laid, svg = services.render(opened.figure)
    ws.replace(laid, svg, note, notes=opened.notes)
    return laid


def take_vectorized(ws: Workspace, vectorized: services.Vectorized, note: str) -> None:
    """A figure CraftEditor made from a PNG, with its quality scores as the report."""
    ws.replace(vectorized.figure, vectorized.svg, note, report=vectorized.scores)
