"""Assembly: the parts the vectorizer detected, tied together into one FigureSpec.

Text inside a shape becomes its label, text beside a line its edge label, text in a frame's
top band the group's label; line ends are attached to the shapes they touch (source/target
ids, so edges re-route when a box moves); lines that touch nothing stay free paths.

- :mod:`~crafteditor.assemble.builder`: what every part shares (fresh ids, pixels → user
  units, colours written only where they differ from the theme)
- :mod:`~crafteditor.assemble.figure`: the whole figure: the parts in order, on the page
- :mod:`~crafteditor.assemble.nodes`, :mod:`~crafteditor.assemble.groups`,
  :mod:`~crafteditor.assemble.edges`, :mod:`~crafteditor.assemble.texts`,
  :mod:`~crafteditor.assemble.leftovers`: one kind of part each
- :mod:`~crafteditor.assemble.joins`: lines put back together before they become edges
- :mod:`~crafteditor.assemble.geometry`: distances and rays between points, lines and shapes
"""
