"""What every drawing stage shares: text metrics, themes, markup, path and shape geometry, drawing rules.

Layout, charts, rendering and every format import from here; nothing here imports them.

| module | owns |
|---|---|
| :mod:`crafter.base.text` | text measurement and wrapping with the shipped DejaVu fonts |
| :mod:`crafter.base.theme` | figure themes (fonts, sizes, spacing, colours) |
| :mod:`crafter.base.markup` | XML escaping, number formatting, right-to-left text, SVG namespaces |
| :mod:`crafter.base.svgpath` | SVG path data, transforms and bounding boxes |
| :mod:`crafter.base.geometry` | node shape proportions and outlines, box overlap |
| :mod:`crafter.base.rules` | drawing rules every renderer follows (SVG, TikZ, draw.io), drawing order included |
"""
