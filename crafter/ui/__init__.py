"""The Streamlit app as a package; ``app.py`` is its entry point and wires the tabs.

Services (plain Python, no Streamlit widgets, unit-tested without a browser in tests/app/):

* :mod:`crafter.ui.services` — the one place the app calls into the pipeline, renderer,
  exporters, tables and CraftEditor (handed in by ``app.py``); a part that is missing
  becomes a readable error.
* :mod:`crafter.ui.edits` — every change the app makes to the figure being edited (title,
  theme and width, table, DSL, instruction, a new figure from outside), on Figure objects.
* :mod:`crafter.ui.workspace` — the figure being edited, its rendered SVG, undo/redo.
* :mod:`crafter.ui.table` — the Edit tab's components table ↔ :class:`~crafter.spec.Figure`.
* :mod:`crafter.ui.settings` — the Settings tab's choices and the backend string they make.
* :mod:`crafter.ui.uploads` — upload checks (type, size, content) with messages for the page.
* :mod:`crafter.ui.progress` — pipeline progress events → the lines the app shows.
* :mod:`crafter.ui.sanitize` — make an SVG safe to show in the page (nothing in it executes).
* :mod:`crafter.ui.examples` — the example briefs and example figures.

The page (Streamlit), over the services:

* :mod:`crafter.ui.tabs` — one module per tab, each with a ``render()``.
* :mod:`crafter.ui.state` — the session state: the workspace, the settings, the open tab.
* :mod:`crafter.ui.messages` — flash messages for the next run, errors in the page.
* :mod:`crafter.ui.header`, :mod:`crafter.ui.preview`, :mod:`crafter.ui.downloads`,
  :mod:`crafter.ui.run_status` — the header and step titles, the figure preview, the
  download buttons, a pipeline run's status box.
"""
