"""Shapes: closed regions of one paint ("faces") classified into node shapes and group frames.

A node is drawn as a filled outline, so once text is erased its inside is one connected
region of its fill paint (white inside a white-filled box is still enclosed by the stroke).
Each face is compared with the ideal mask of every shape Crafter draws, built with the
renderer's own proportions (:mod:`crafter.render.shapes`): rectangles, rounded rectangles,
ellipses, circles, diamonds, parallelograms, hexagons, documents and cylinders (whose rim
splits them into a cap and a body). The best match above ``Config.shape_min_iou`` becomes a
:class:`DetectedShape`; its fill is the face's paint and its stroke the colour and width of
the ring around it. A rectangular face that holds other shapes is a group frame.

- :mod:`~crafteditor.shapes.faces`: the one-paint regions
- :mod:`~crafteditor.shapes.outlines`: the outlines Crafter draws, and which one a face is
- :mod:`~crafteditor.shapes.detect`: the stage: nodes (strokes, stacks, cylinders) and group frames
"""
