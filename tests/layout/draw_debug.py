"""Debug drawing of a laid-out figure (boxes, routes, label boxes) with matplotlib.

Not a test: ``python tests/layout/draw_debug.py FILE.dsl OUT.png [engine]`` to look at a layout
before (or without) the renderer.
"""

from __future__ import annotations

import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Polygon, Rectangle  # noqa: E402

from crafter.formats import load_figure
from crafter.layout import layout_figure  # noqa: E402
from crafter.layout.shapes import outline  # noqa: E402
from crafter.spec import Figure


def draw(fig: Figure, out: str, scale: float = 1.5) -> None:
    W, H = fig.canvas.w, fig.canvas.h
    f = plt.figure(figsize=(W / 72 * scale / 1.33, H / 72 * scale / 1.33), dpi=100)
    ax = f.add_axes([0, 0, 1, 1])
    ax.set_xlim(0, W)
    ax.set_ylim(H, 0)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.add_patch(Rectangle((0, 0), W, H, fill=False, ec="#ccc", lw=0.5))
    for c in fig.components:
        b = c.box
        if c.kind in ("group", "panel") and b is not None:
            ax.add_patch(Rectangle((b.x, b.y), b.w, b.h, fill=True, fc="#f4f4f4" if c.kind == "group" else "none",
                                   ec="#888", lw=0.8, ls="--" if c.kind == "panel" else "-"))
            ax.text(b.x + 4, b.y + 3, (getattr(c, "label", None) or c.id), fontsize=6, va="top")
    for c in fig.components:
        if c.kind == "edge" and c.route:
            xs = [p.x for p in c.route]
            ys = [p.y for p in c.route]
            ax.plot(xs, ys, "-", color="#345", lw=0.8)
            ax.plot(xs[-1:], ys[-1:], "o", ms=2, color="#c00")
            if c.label_box is not None:
                lb = c.label_box
                ax.add_patch(Rectangle((lb.x, lb.y), lb.w, lb.h, fill=False, ec="#e90", lw=0.5))
                ax.text(lb.x + lb.w / 2, lb.y + lb.h / 2, c.label, fontsize=5, ha="center", va="center")
    for c in fig.components:
        b = c.box
        if b is None:
            continue
        if c.kind == "node":
            ax.add_patch(Polygon(outline(c.shape, b), closed=True, fc="#dde8f5", ec="#245", lw=0.8))
            ax.add_patch(Rectangle((b.x, b.y), b.w, b.h, fill=False, ec="#bbb", lw=0.3))
            ax.text(b.cx, b.cy, c.text, fontsize=6, ha="center", va="center", wrap=True)
        elif c.kind in ("text",):
            ax.add_patch(Rectangle((b.x, b.y), b.w, b.h, fill=False, ec="#0a0", lw=0.4))
            ax.text(b.cx, b.cy, c.text, fontsize=5, ha="center", va="center", color="#060")
        elif c.kind in ("chart", "image", "path"):
            ax.add_patch(Rectangle((b.x, b.y), b.w, b.h, fill=False, ec="#a0a", lw=0.8, hatch="//"))
            ax.text(b.cx, b.cy, c.id, fontsize=6, ha="center")
    f.savefig(out)
    plt.close(f)


if __name__ == "__main__":
    engine = sys.argv[3] if len(sys.argv) > 3 else "auto"
    draw(layout_figure(load_figure(sys.argv[1]), engine=engine), sys.argv[2])
