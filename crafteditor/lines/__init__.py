"""Lines and arrows: the ink left after text and shapes, traced into polylines with arrowheads.

The stage is :func:`crafteditor.lines.detect.detect_lines`; its steps, each a module:

* :mod:`~crafteditor.lines.paths` — a traced line (:class:`~crafteditor.lines.paths.LinePath`),
  an arrowhead, and the index of line ends every step searches through;
* :mod:`~crafteditor.lines.skeleton` — the residual ink's skeleton, split into pixel paths at
  end points and junctions;
* :mod:`~crafteditor.lines.heads` — filled heads (what survives an opening wider than the line)
  and open 'V' heads (two short arms in the skeleton), and each head's kind;
* :mod:`~crafteditor.lines.chains` — pieces joined through junctions and across dash gaps;
* :mod:`~crafteditor.lines.routes` — routes simplified, refined onto the ink, squared off;
* :mod:`~crafteditor.lines.arrows` — heads given to the line ends they sit on.

Attaching ends to nodes happens in :mod:`crafteditor.assemble`, which knows the shapes.
"""
