"""Charts from real matplotlib example scripts: seaborn's gallery, SciencePlots' and mplhep's examples, each run
as its authors wrote it, with the truth read off the live Figure's artists after drawing.

The ``charts`` makers draw random data in our own layouts; these scripts are what people actually publish:
faceted grids, ratio panels under a histogram, joint plots with marginals, styles from other packages. Sources
(git directories under :func:`craftbench.makers.mirrors.mirror_root`):

- ``mwaskom/seaborn`` ``examples/*.py`` (BSD-3-Clause), their ``load_dataset`` data from a ``mwaskom/seaborn-data``
  snapshot (laid out as seaborn's cache, ``SEABORN_DATA``, so nothing is downloaded); a script whose data set
  the snapshot lacks fails and is counted;
- ``garrettj403/SciencePlots`` ``examples/plot-examples.py`` (MIT), one figure per ``savefig`` (its styles
  typeset with LaTeX: Debian's ``texlive-latex-extra`` and ``cm-super-minimal``);
- ``scikit-hep/mplhep`` ``examples/**/*.py`` (MIT): ratio, pull and model comparisons in two panels.

Each script runs in a fresh interpreter (Agg backend, a scratch folder, a time limit; its ``savefig`` calls
and the figures still open at the end are captured, not written where it says). The PNG is saved at 100 or
200 dpi (1x, 2x); the truth, from the same Figure:

- ``text``: the words of every text drawn into the PNG (titles, labels, tick labels, legends, annotations),
  math inline as the real set writes it (``$\\mu$A`` -> ``μA``; a text whose TeX cannot be read is left out);
- ``values``: per data axes, ``[series, x, y]`` of each bar (its length from its base: a stacked segment's
  own), each histogram step (bin centre, height above the step below; not a hatched band), each line vertex
  and each point of a scatter of 60 points or fewer (lines of more than 25 vertices thinned evenly: the
  scorer reads a line between vertices); x is the category's tick label on a categorical axis. The series
  is the artist's legend entry (by label, else by colour; a panel of several colours not all in a legend
  keeps no values). With two data
  axes or more, each series is named ``(a) name`` by its axes' place in reading order (rows top to bottom,
  left to right), as the real set names a faceted figure's series;
- ``value_axis``: one per figure in the schema: the view range of the panel with the most values; panels
  whose range spans more than 3x or less than a third of it, or on another scale (log/linear), keep no
  values, so the 2 % tolerance means the same on every value kept.

A figure whose source a real-set figure came from is never drawn: the same repository and the same figure name
as a manifest path (any split), and any figure of the same script that draws the same data (SciencePlots
draws one data set in many styles).

    craftbench makers mpl-gallery -o /tmp/makers/mplg -n 80
    crafteditor bench -n 0 --real /tmp/makers/mplg --split all --per-figure --json out.json
"""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from craftbench.makers.mermaid_versions import RealSet
from craftbench.makers.mirrors import mirror_root
from craftbench.makers.tikz_wild import tex_words

# repository -> (maker named in the records, licence, which scripts)
SOURCES = {
    "mwaskom/seaborn": ("seaborn", "BSD-3-Clause", "examples/"),
    "garrettj403/SciencePlots": ("SciencePlots", "MIT", "examples/plot-examples.py"),
    "scikit-hep/mplhep": ("mplhep", "MIT", "examples/"),
}
DATA_REPO = "mwaskom/seaborn-data"
ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 180.0
MAX_POINTS = 60  # a scatter of more points is not read point by point
MAX_VERTICES = 25  # a longer line is thinned to this many vertices
SPAN_RATIO = 3.0  # panels whose value range differs more than this from the figure's keep no values


# ---------------------------------------------------------------- truth of one live Figure


def _hex(colour: Any) -> str | None:
    from matplotlib.colors import to_hex  # heavy: matplotlib is imported only where a figure is read

    try:
        return to_hex(colour, keep_alpha=False)
    except (ValueError, TypeError):
        return None


def _artist_colour(artist: Any) -> str | None:
    """The colour that tells an artist's series: a line's colour (its marker's face when it has no line), a
    patch's face, a collection's first face."""
    from matplotlib.collections import Collection
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    if isinstance(artist, Line2D):
        if artist.get_linestyle() in ("None", "none", " ", ""):
            return _hex(artist.get_markerfacecolor())
        return _hex(artist.get_color())
    if isinstance(artist, Patch):
        fill = artist.get_facecolor()
        return _hex(fill) if artist.get_fill() and fill[3] > 0 else _hex(artist.get_edgecolor())
    if isinstance(artist, Collection):
        faces = artist.get_facecolor()
        return _hex(faces[0]) if len(faces) else (_hex(artist.get_edgecolor()[0]) if len(artist.get_edgecolor())
                                                  else None)
    return None


def _legend_names(fig: Any) -> tuple[set[str], dict[str, str]]:
    """Every legend's entry labels, and their handles' colours -> label (axes legends and figure legends)."""
    labels: set[str] = set()
    colours: dict[str, str] = {}
    legends = [ax.get_legend() for ax in fig.axes if ax.get_legend() is not None] + list(fig.legends)
    for legend in legends:
        for handle, text in zip(legend.legend_handles, legend.get_texts()):
            label = text.get_text().strip()
            if not label:
                continue
            labels.add(label)
            colour = _artist_colour(handle) if handle is not None else None
            if colour is not None:
                colours.setdefault(colour, label)
    return labels, colours


def _is_number(text: str) -> bool:
    try:
        float(text.replace("\u2212", "-").replace(",", ""))
    except ValueError:
        return False
    return True


def _categories(axis: Any, view: tuple[float, float]) -> list[tuple[float, str]] | None:
    """(position, label) of an axis's tick labels where they name categories (some are not numbers); None on a
    numeric axis."""
    lo, hi = sorted(view)
    ticks = [(float(loc), lab.get_text()) for loc, lab in zip(axis.get_majorticklocs(), axis.get_majorticklabels())
             if lo <= loc <= hi and lab.get_text().strip()]
    if not ticks or all(_is_number(t) for _, t in ticks):
        return None
    return ticks


def _x_of(at: float, cats: list[tuple[float, str]] | None) -> Any:
    """An x position as the truth writes it: a number, or the category label it sits on (None between)."""
    if cats is None:
        return round(float(at), 6)
    near = min(cats, key=lambda c: abs(c[0] - at))
    places = sorted(p for p, _ in cats)
    gap = min((b - a for a, b in zip(places, places[1:]) if b > a), default=1.0)
    return near[1] if abs(near[0] - at) <= 0.45 * gap else None


def _thin(points: list[tuple[float, float]], most: int) -> list[tuple[float, float]]:
    if len(points) <= most:
        return points
    step = (len(points) - 1) / (most - 1)
    return [points[round(i * step)] for i in range(most)]


@dataclass
class Panel:
    """One data axes' values as (series artist, x, y), its value range and scale, its place on the figure."""

    rows: list[tuple[Any, Any, float]]
    view: tuple[float, float]
    log: bool
    box: tuple[float, float, float, float]  # x0, y0, x1, y1 in figure fractions
    kinds: set[str]


def _panel(ax: Any) -> Panel:
    """The values one axes draws: bars, histogram steps, lines, small scatters (see the module's docstring)."""
    import numpy as np
    from matplotlib.collections import PathCollection
    from matplotlib.container import BarContainer
    from matplotlib.lines import Line2D
    from matplotlib.patches import StepPatch

    xview, yview = ax.get_xlim(), ax.get_ylim()
    xcats, ycats = _categories(ax.xaxis, xview), _categories(ax.yaxis, yview)
    horizontal = any(isinstance(c, BarContainer) and c.orientation == "horizontal" for c in ax.containers)
    rows: list[tuple[Any, Any, float]] = []
    kinds: set[str] = set()
    for c in ax.containers:
        if not isinstance(c, BarContainer):
            continue
        for bar in c.patches:
            if not bar.get_visible():
                continue
            x0, y0, w, h = bar.get_x(), bar.get_y(), bar.get_width(), bar.get_height()
            if c.orientation == "horizontal":
                cat, length = _x_of(y0 + h / 2, ycats), w
            else:
                cat, length = _x_of(x0 + w / 2, xcats), h
            if cat is None or not math.isfinite(length) or length == 0:
                continue
            rows.append((bar, cat, round(float(length), 6)))  # from its base: zero, or a stack's lower segment
            kinds.add("bar")
    if horizontal:  # values along x: lines and points over a category y axis are not read here
        return Panel(rows, xview, ax.get_xscale() == "log", tuple(ax.get_position().extents), kinds)
    for patch in ax.patches:
        if isinstance(patch, StepPatch) and patch.get_visible() and patch.orientation == "vertical" \
                and not patch.get_hatch():  # a hatched band is an uncertainty drawn round the values, not one
            values, edges, baseline = patch.get_data()
            bases = np.broadcast_to(np.asarray(0.0 if baseline is None else baseline, float), np.shape(values))
            for v, base, a, b in zip(values, bases, edges, edges[1:]):
                if math.isfinite(v) and math.isfinite(base):  # a stacked step's own height, above the one below
                    rows.append((patch, _x_of((a + b) / 2, xcats), round(float(v - base), 6)))
            kinds.add("histogram")
    for line in ax.lines:
        unmarked = str(line.get_marker()) in ("None", "none", "", " ")
        if not isinstance(line, Line2D) or not line.get_visible() or (unmarked and str(line.get_linestyle()) in (
                "None", "none", "", " ")):
            continue  # a line with neither stroke nor marker draws nothing (an error bar's data line)
        pts = [(float(x), float(y)) for x, y in line.get_xydata() if math.isfinite(x) and math.isfinite(y)]
        if len(pts) < 3 or len({x for x, _ in pts}) < 3:  # reference lines, error bars, vertical rules
            continue
        for x, y in _thin(pts, MAX_VERTICES):
            rows.append((line, _x_of(x, xcats), round(y, 6)))
        kinds.add("line")
    for coll in ax.collections:
        if isinstance(coll, PathCollection) and coll.get_visible() and coll.get_offset_transform() == ax.transData:
            offsets = [(float(x), float(y)) for x, y in coll.get_offsets() if math.isfinite(x) and math.isfinite(y)]
            if 3 <= len(offsets) <= MAX_POINTS:
                rows += [(coll, _x_of(x, xcats), round(y, 6)) for x, y in offsets]
                kinds.add("scatter")
            elif offsets:
                kinds.add("dense")
    rows = [r for r in rows if r[1] is not None]
    return Panel(rows, yview, ax.get_yscale() == "log", tuple(ax.get_position().extents), kinds)


def _data_axes(fig: Any) -> list[Any]:
    """The figure's visible axes that draw data (not colour bars, not hidden ones), in reading order: rows top to
    bottom (an axes whose centre lies below the row's first one's bottom starts a new row), each left to right."""
    axes = [ax for ax in fig.axes if ax.get_visible() and ax.axison and not hasattr(ax, "_colorbar")
            and (ax.lines or ax.patches or ax.collections or ax.containers)]
    placed = sorted(axes, key=lambda ax: -(ax.get_position().y0 + ax.get_position().height / 2))
    rows: list[list[Any]] = []
    for ax in placed:
        p = ax.get_position()
        if rows and p.y0 + p.height / 2 >= rows[-1][0].get_position().y0:
            rows[-1].append(ax)
        else:
            rows.append([ax])
    return [ax for row in rows for ax in sorted(row, key=lambda a: a.get_position().x0)]


def figure_values(fig: Any) -> dict[str, Any] | None:
    """``values``, ``value_axis`` (and ``value_scale``), ``style`` and ``panels`` of a drawn Figure, or None where
    no panel gives three values whose truth is clear."""
    axes = _data_axes(fig)
    if not axes or any(a.get_position().extents.tolist() == b.get_position().extents.tolist()
                       for i, a in enumerate(axes) for b in axes[i + 1:]):
        return None  # twin axes share one box: which scale a mark is read on is not clear from the picture
    legend_labels, legend_colours = _legend_names(fig)
    panels = [_panel(ax) for ax in axes]
    named: list[list[list[Any]]] = []
    for p in panels:
        def series(artist: Any) -> str | None:
            label = str(artist.get_label() or "")
            name = label if label in legend_labels else legend_colours.get(_artist_colour(artist) or "")
            return tex_words(name) or name if name and "$" in name else name

        names = [series(a) for a, _, _ in p.rows]
        colours = {_artist_colour(a) for a, _, _ in p.rows}
        if len(colours) > 1 and any(n is None for n in names):
            named.append([])  # several colours, not all named: whose series a mark is, is not clear
            continue
        lo, hi = sorted(p.view)
        named.append([[n or "", x, y] for n, (_, x, y) in zip(names, p.rows) if lo <= y <= hi])
    best = max(range(len(panels)), key=lambda i: len(named[i]))
    if len(named[best]) < 3:
        return None
    ref = panels[best]
    span = abs(ref.view[1] - ref.view[0]) if not ref.log else abs(math.log10(ref.view[1] / ref.view[0]))
    values: list[list[Any]] = []
    for i, (p, rows) in enumerate(zip(panels, named)):
        own = abs(p.view[1] - p.view[0]) if not p.log else abs(math.log10(p.view[1] / p.view[0]))
        if p.log != ref.log or not span / SPAN_RATIO <= own <= span * SPAN_RATIO:
            continue
        prefix = f"({chr(ord('a') + i)}) " if len(panels) > 1 and i < 26 else ""
        values += [[f"{prefix}{s}".strip() if prefix else s, x, y] for s, x, y in rows]
    kinds = set().union(*(p.kinds for p in panels))
    style = "multi-panel" if len(panels) > 1 else next((k for k in ("histogram", "bar", "line", "scatter")
                                                         if k in kinds), "line")
    rec: dict[str, Any] = {"values": values, "value_axis": [round(v, 6) for v in sorted(ref.view)],
                           "style": style, "panels": len(panels)}
    if ref.log:
        rec["value_scale"] = "log"
    return rec


def drawn_words(texts: list[Any], fig: Any) -> str:
    """The words of the texts drawn (``texts``: the Text artists the last draw drew), those whose box lies
    inside the figure, math inline; a text whose TeX cannot be read is left out."""
    renderer = fig.canvas.get_renderer()
    box = fig.bbox
    out = []
    for t in texts:
        raw = t.get_text().strip()
        if not raw:
            continue
        ext = t.get_window_extent(renderer)
        if ext.x1 < box.x0 or ext.x0 > box.x1 or ext.y1 < box.y0 or ext.y0 > box.y1:
            continue
        words = tex_words(raw) if "$" in raw or "\\" in raw else raw
        if words:
            out.append(words)
    return " ".join(out)


# ---------------------------------------------------------------- running one script


_RUNNER = """
import json, os, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.figure import Figure
from matplotlib.text import Text
from craftbench.makers.mpl_gallery import drawn_words, figure_values

script, out, dpi = sys.argv[1], sys.argv[2], float(sys.argv[3])
drawn, done, records = [], set(), []
text_draw, save = Text.draw, Figure.savefig

def draw(self, renderer):
    if self.get_visible() and self.get_text().strip() and self not in drawn:  # a layout pass draws twice
        drawn.append(self)
    return text_draw(self, renderer)

def capture(fig, name):
    if id(fig) in done:
        return
    done.add(id(fig))
    drawn.clear()
    png = os.path.join(out, f"{len(records)}.png")
    save(fig, png, dpi=dpi, facecolor="white")
    truth = figure_values(fig)
    if truth is not None:
        records.append({"name": name, "png": png, "text": drawn_words(drawn, fig), **truth})

def savefig(self, fname=None, *args, **kwargs):
    capture(self, os.path.basename(str(fname or "figure")))

Text.draw, Figure.savefig = draw, savefig
plt.show = lambda *a, **k: None
scope = {"__name__": "__main__", "__file__": script}
exec(compile(open(script, encoding="utf-8").read(), script, "exec"), scope)
for n in plt.get_fignums():
    capture(plt.figure(n), os.path.splitext(os.path.basename(script))[0])
json.dump(records, open(os.path.join(out, "truth.json"), "w"))
"""


def run_script(code: str, name: str, out: Path, dpi: float, env: dict[str, str] | None = None,
               timeout: float = TIMEOUT) -> list[dict[str, Any]] | None:
    """Run one example script (source ``code``, file name ``name``) in a fresh interpreter in a scratch folder;
    every figure it saves or leaves open is drawn to a PNG under ``out`` at ``dpi`` and read. Its records
    (name: the file name it saved to; png; text; values…), or None where the script failed or ran too long."""
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        script = Path(scratch) / name
        script.write_text(code, encoding="utf-8")
        path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
        run_env = {**os.environ, "PYTHONPATH": path, "MPLBACKEND": "Agg", **(env or {})}
        try:
            run = subprocess.run([sys.executable, "-c", _RUNNER, str(script), str(out), str(dpi)], cwd=scratch,
                                 capture_output=True, text=True, timeout=timeout, env=run_env)
        except subprocess.TimeoutExpired:
            return None
    truth = out / "truth.json"
    if run.returncode != 0 or not truth.exists():
        return None
    return json.loads(truth.read_text(encoding="utf-8"))


# ---------------------------------------------------------------- sources


@dataclass
class Script:
    repo: str
    path: str
    commit: str
    code: str


def _git(git_dir: Path, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", str(git_dir), *args], capture_output=True, text=True,
                          check=True).stdout


def _git_dir(mirrors: Path, repo: str) -> Path | None:
    git = mirrors / repo.replace("/", "+") / "repo"
    return git if git.is_dir() else None


def scripts(mirrors: Path, real: RealSet) -> list[Script]:
    """Every example script of :data:`SOURCES` under ``mirrors``, sorted; a script named as a real-set figure is
    left out (its figures' own names are checked after it runs)."""
    out = []
    for repo, (_, _, under) in sorted(SOURCES.items()):
        git = _git_dir(mirrors, repo)
        if git is None:
            continue
        commit = _git(git, "rev-parse", "HEAD").strip()
        for path in sorted(_git(git, "ls-tree", "-r", "--name-only", "HEAD", under).split("\n")):
            if path.endswith(".py") and not Path(path).name.startswith("_") and not real.named(repo, path):
                out.append(Script(repo, path, commit, _git(git, "show", f"HEAD:{path}")))
    return out


def seaborn_data(mirrors: Path, folder: Path) -> bool:
    """seaborn's example data sets (the ``*.csv`` of a seaborn-data snapshot) written into ``folder``, laid out as
    ``load_dataset``'s cache; False where there is no snapshot."""
    git = _git_dir(mirrors, DATA_REPO)
    if git is None:
        return False
    folder.mkdir(parents=True, exist_ok=True)
    for path in _git(git, "ls-tree", "--name-only", "HEAD").split("\n"):
        if path.endswith(".csv"):
            blob = subprocess.run(["git", "--git-dir", str(git), "show", f"HEAD:{path}"], capture_output=True,
                                  check=True).stdout
            (folder / path).write_bytes(blob)
    return True


def _left_out(records: list[dict[str, Any]], repo: str, real: RealSet) -> list[dict[str, Any]]:
    """``records`` less those named as a real-set figure of ``repo`` and those drawing the same data as one."""
    named = [r for r in records if real.named(repo, r["name"])]
    same = {json.dumps(r["values"]) for r in named}
    return [r for r in records if r not in named and json.dumps(r["values"]) not in same]


def draw(figs: Path, n: int, seed: int) -> list[dict[str, Any]]:
    """Up to ``n`` figures from the example scripts, the scripts taken in a seeded order, each script's figures
    at 1x or 2x; their truth records. Failed and timed-out scripts are counted in the last line printed."""
    from PIL import Image

    mirrors = mirror_root()
    real = RealSet()
    found = scripts(mirrors, real)
    if not found:
        raise FileNotFoundError(f"no example scripts of {', '.join(SOURCES)} under {mirrors} (CRAFTBENCH_MIRRORS)")
    rng = random.Random(seed)
    rng.shuffle(found)
    records: list[dict[str, Any]] = []
    failed = 0
    with tempfile.TemporaryDirectory() as scratch:
        data = Path(scratch) / "seaborn-data"
        env = {"SEABORN_DATA": str(data)} if seaborn_data(mirrors, data) else {}
        for k, src in enumerate(found):
            if len(records) >= n:
                break
            scale = rng.choice((1, 2))
            got = run_script(src.code, Path(src.path).name, Path(scratch) / f"run{k}", 100.0 * scale, env)
            if got is None:
                failed += 1
                continue
            maker, licence, _ = SOURCES[src.repo]
            for j, rec in enumerate(_left_out(got, src.repo, real)):
                if len(records) >= n:
                    break
                fid = f"D_mpl_{maker}_{Path(src.path).stem}" + (f"_{j}" if len(got) > 1 else "")
                out = Path(figs) / f"{fid}.png"
                out.write_bytes(Path(rec["png"]).read_bytes())
                with Image.open(out) as im:
                    width, height = im.size
                panels = rec["panels"]
                records.append({
                    "id": fid, "file": f"figs/{out.name}", "kind": "chart", "style": rec["style"], "maker": maker,
                    "group": f"{maker}-{'panels' if panels > 1 else 'single'}", "width": width, "height": height,
                    "text": rec["text"], "nodes": [], "edges": [], "images": 0, "values": rec["values"],
                    "value_axis": rec["value_axis"], **({"value_scale": "log"} if "value_scale" in rec else {}),
                    "phenomena": ["sub-panels"] if panels > 1 else [],
                    "notes": f"{panels} data axes; drawn at {scale}x from {src.path}",
                    "provenance": {"repo": src.repo, "path": src.path, "commit": src.commit, "licence": licence}})
    print(f"mpl-gallery: {len(records)} figures from {len(found)} scripts; {failed} scripts failed or timed out; "
          f"{real.left_out} real-set names left out", file=sys.stderr)
    return records
