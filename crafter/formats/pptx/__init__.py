"""PowerPoint out and back: native, editable slides, and edits made in PowerPoint merged by component id.

:func:`~crafter.formats.pptx.write.figure_to_pptx` draws a figure as native AutoShapes,
connectors glued to their shapes, group shapes, text boxes, pictures, freeforms and native
charts holding their data, with the FigureSpec stored as a custom XML part;
:func:`~crafter.formats.pptx.read.import_pptx` reads a ``.pptx`` back (see its module).

| module | owns |
|---|---|
| ``package`` | the package: custom XML part, shape tags, safe opening (zip and XML bombs) |
| ``geometry`` | Crafter's shapes as PowerPoint presets, connection sites, elbow routes |
| ``shapes``, ``write`` | drawing a figure's components as slide shapes |
| ``chart``, ``chart_data`` | native charts and their data tables |
| ``drawn``, ``merge``, ``follow``, ``convert``, ``read`` | reading slides back, merging edits, best-effort import |
"""
