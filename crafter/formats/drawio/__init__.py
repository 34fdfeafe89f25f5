"""draw.io (diagrams.net): export and import of mxGraph XML, uncompressed.

A figure goes out as one cell per component, each carrying its component as JSON, and
comes back with what someone changed in diagrams.net merged into those components.

| module | owns |
|---|---|
| :mod:`crafter.formats.drawio.writer` | :func:`figure_to_drawio`: cells, shapes, containers, edge waypoints |
| :mod:`crafter.formats.drawio.reader` | :func:`drawio_to_figure`: cells read back, edits merged, new cells imported |
| :mod:`crafter.formats.drawio.style` | the ``key=value;…`` style strings and their vocabulary, both ways |
"""
