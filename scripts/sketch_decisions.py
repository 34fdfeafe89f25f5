"""Where the first reading sees hand-drawn outlines, and why (issue 31, sketch11).

    PYTHONPATH=. python scripts/sketch_decisions.py OUT.json shared/realfigs/figs/C_*.png ...

Reads each figure up to its shape stage (the rest is skipped) and writes, per figure, the loose
outlines the sketch stage found (shape, box, roughness, side stray, side wobble, dashed), whether
they look rough (:func:`~crafteditor.shapes.sketch.looks_rough`: the auto preset reads the figure
again as a sketch) and hand-drawn (:func:`~crafteditor.shapes.sketch.looks_hand_drawn`: their
sides wobble), and whether its first reading kept them. Give it dev or drawn figures only.

Dev, session 46 (main 9125ff1): 8 of 127 figures rough (typeset: a PowerPoint UML diagram, a
PlantUML state machine, a sequencediagram.org ladder; hand-drawn: 4 Excalidraw, a whiteboard);
hand-drawn by wobble: 3 (Excalidraw at roughness 0 has straight sides). Drawn (16 Excalidraw,
30 Mermaid, 20 TikZ, 48 matplotlib ladders and boxes at 1-3x, PNG and q75 JPEG): rough 7 (6 typeset
ladders' pockets, 1 Excalidraw), hand-drawn by wobble 1 (the Excalidraw one).
"""

from __future__ import annotations

import json
import sys

import crafteditor.shapes.sketch as sk
import crafteditor.vectorizer as vz
from crafteditor.config import Config


class _Stop(Exception):
    pass


def main(out: str, paths: list[str]) -> None:
    rec: dict = {}
    rough, add = sk.looks_rough, vz.add_sketch_shapes

    def looks_rough(found):  # noqa: ANN001, ANN202 - the stage's own arguments, recorded
        rec["found"] = [{"shape": s.shape, "box": [round(s.x), round(s.y), round(s.w), round(s.h)],
                         "rough": round(r, 2), "stray": round(st, 2), "wobble": round(wb, 2), "dashed": s.dashed}
                        for s, r, st, wb in found]
        rec["rough"], rec["hand_drawn"] = rough(found), sk.looks_hand_drawn(found)
        return rec["rough"]

    def add_sketch_shapes(*args, **kw):  # noqa: ANN002, ANN003, ANN202
        rec["kept"] = add(*args, **kw)[1]
        raise _Stop

    sk.looks_rough, vz.add_sketch_shapes = looks_rough, add_sketch_shapes
    res = {}
    for p in paths:
        rec.clear()
        try:
            vz.vectorize(p, Config())
        except _Stop:
            pass
        res[p] = dict(rec)
        print(p, "rough" if rec.get("rough") else "-", "hand-drawn" if rec.get("hand_drawn") else "-",
              "kept" if rec.get("kept") else "-", flush=True)
    with open(out, "w", encoding="utf-8") as f:
        json.dump(res, f, indent=1)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
