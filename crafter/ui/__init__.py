"""Helpers behind the Streamlit app (``app.py``): no Streamlit widgets, no pipeline logic.

* :mod:`crafter.ui.sanitize` — make an SVG safe to show in the page (nothing in it executes).
* :mod:`crafter.ui.table` — the Edit tab's components table ↔ :class:`~crafter.spec.Figure`.
* :mod:`crafter.ui.workspace` — the figure being edited, its rendered SVG, undo/redo.
* :mod:`crafter.ui.settings` — the Settings tab's choices and the backend string they make.
* :mod:`crafter.ui.uploads` — upload checks (type, size, content) with messages for the page.
* :mod:`crafter.ui.services` — the one place the app calls into the pipeline, renderer,
  exporters, tables and CraftEditor; a part that is not installed becomes a readable error.
* :mod:`crafter.ui.progress` — pipeline progress events → the lines the app shows.

Everything here is plain Python, unit-tested without a browser (tests/app/).
"""
