"""Charts from real matplotlib example scripts: seaborn's gallery, SciencePlots' and mplhep's examples, each run
as its authors wrote it, with the truth read off the live Figure's artists after drawing.

The ``charts`` makers draw random data in our own layouts; these scripts are what people actually publish:
faceted grids, ratio panels under a histogram, joint plots with marginals, styles from other packages. Sources
(git directories under :func:`craftbench.makers.mirrors.mirror_root`):

- ``mwaskom/seaborn`` ``examples/*.py`` (BSD-3-Clause), their ``load_dataset`` data from a ``mwaskom/seaborn-data``
  snapshot (laid out as seaborn's cache, ``SEABORN_DATA``, so nothing is downloaded); a script whose data set
  the snapshot lacks fails and is counted;
- ``garrettj403/SciencePlots`` ``examples/plot-examples.py`` (MIT), one figure per ``savefig`` (its styles
  typeset with LaTeX: Debian's ``texlive-latex-extra``, ``texlive-fonts-recommended`` (Times, ``ptmr7t``)
  and ``cm-super-minimal``);
- ``scikit-hep/mplhep`` ``examples/**/*.py`` (MIT): ratio, pull and model comparisons in two panels.

Each script runs in a fresh interpreter (Agg backend, a scratch folder as its home, a minimal environment, no
network: ``socket`` connects and name look-ups raise, a memory limit, a time limit that ends its whole process
group, LaTeX children too; its ``savefig`` calls and the figures still open at the end are captured, not written
where it says). Each figure's truth is written as soon as it is read, so a script failing later keeps the figures
it drew before. The PNG is saved at 100 or 200 dpi (1x, 2x) on the figure's own face colour (made opaque over
white: a dark style stays dark); the truth, from the same Figure:

- ``text``: the words of every text drawn into the PNG (titles, labels, tick labels, legends, annotations),
  math inline as the real set writes it (``$\\mu$A`` -> ``μA``; a text whose TeX cannot be read is left out);
- ``values``: per data axes, ``[series, x, y]`` of each bar (its length from its base: a stacked segment's
  own), each histogram step (bin centre, height above the step below; not a hatched band), each line vertex
  and each point of a scatter of 60 points or fewer (lines of more than 25 vertices thinned evenly: the
  scorer reads a line between vertices); x is the category's tick label on a categorical axis (one whose unit
  converter or tick formatter is matplotlib's category one, or whose fixed tick labels are not all numbers; a
  log or percent axis is numeric whatever its labels look like). The series
  is the artist's legend entry (by label, else by colour; a panel of several colours not all in a legend
  keeps no values). With two data
  axes or more, each series is named ``(a) name`` by its axes' place in reading order (rows top to bottom,
  left to right), as the real set names a faceted figure's series;
- ``value_axis``: one per figure in the schema: the view range of the panel with the most values; panels
  whose range spans more than 3x or less than a third of it, or on another scale (log/linear), keep no
  values, so the 2 % tolerance means the same on every value kept.

A figure with a non-rectilinear data axes (polar, 3-D) keeps no values. A figure whose source a real-set figure
came from is never drawn: the same repository and the same figure name as a manifest path (any split), and any
figure of the same script that draws the same data (SciencePlots draws one data set in many styles): every
figure a script draws is recorded by name and a fingerprint of its data, values or not.

    craftbench makers mpl-gallery -o /tmp/makers/mplg -n 80
    crafteditor bench -n 0 --real /tmp/makers/mplg --split all --per-figure --json out.json
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import random
import resource
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib.category import StrCategoryConverter, StrCategoryFormatter
from matplotlib.collections import Collection, PathCollection
from matplotlib.colors import to_hex, to_rgba
from matplotlib.container import BarContainer
from matplotlib.image import AxesImage
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, StepPatch
from matplotlib.ticker import FixedFormatter
from PIL import Image

from craftbench.makers.mermaid_versions import RealSet
from craftbench.makers.mirrors import git, git_bytes, git_dir, mirror_root
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
MEMORY = 6 << 30  # bytes of address space a script (and each LaTeX child) may map
MAX_POINTS = 60  # a scatter of more points is not read point by point
MAX_VERTICES = 25  # a longer line is thinned to this many vertices
SPAN_RATIO = 3.0  # panels whose value range differs more than this from the figure's keep no values


# ---------------------------------------------------------------- truth of one live Figure


def _hex(colour: Any) -> str | None:

    try:
        return to_hex(colour, keep_alpha=False)
    except (ValueError, TypeError):
        return None


def _artist_colour(artist: Any) -> str | None:
    """The colour that tells an artist's series: a line's colour (its marker's face when it has no line), a
    patch's face, a collection's first face."""

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
    """(position, label) of an axis's tick labels where they name categories; None on a numeric axis. An axis is
    categorical by how it turns data into positions and labels, not by how its labels look (a log axis writes
    ``$\\mathdefault{10^{1}}$``, a percent axis ``50%``): matplotlib's category converter or formatter, or fixed
    labels the author set that are not all numbers."""

    lo, hi = sorted(view)
    ticks = [(float(loc), lab.get_text()) for loc, lab in zip(axis.get_majorticklocs(), axis.get_majorticklabels())
             if lo <= loc <= hi and lab.get_text().strip()]
    formatter = axis.get_major_formatter()
    if isinstance(axis.get_converter(), StrCategoryConverter) or isinstance(formatter, StrCategoryFormatter):
        return ticks or None
    if isinstance(formatter, FixedFormatter) and ticks and not all(_is_number(t) for _, t in ticks):
        return ticks
    return None


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
    if ycats is not None:  # points over a category y axis (a horizontal strip plot): their y is a category's place
        return Panel(rows, yview, False, tuple(ax.get_position().extents), kinds)
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
    if any(ax.name != "rectilinear" for ax in axes):
        return None  # polar, 3-D: a value is not read off one straight axis
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


def fingerprint(fig: Any) -> str:
    """A digest of the data a Figure draws, whatever its style: every axes' lines (x, y), patches (their outline
    in data units), collections (offsets; a polygon's vertices), images (shape and pixels), to 6 significant
    digits. Two figures of one data set in two styles share it."""

    def digits(a: Any) -> list[Any]:
        arr = np.ma.filled(np.ma.asarray(a, dtype=float), np.nan).ravel()
        return [None if not math.isfinite(v) else float(f"{v:.6g}") for v in arr.tolist()]

    parts: list[Any] = []
    for ax in fig.axes:
        for artist in ax.get_children():
            if isinstance(artist, Line2D):
                parts.append(["line", digits(artist.get_xydata())])
            elif isinstance(artist, Patch) and artist is not ax.patch:
                path = artist.get_path()
                parts.append(["patch", digits(artist.get_patch_transform().transform(path.vertices))])
            elif isinstance(artist, Collection):
                item: list[Any] = ["coll", digits(artist.get_offsets())]
                if not isinstance(artist, PathCollection):
                    item.append([digits(p.vertices) for p in artist.get_paths()])
                parts.append(item)
            elif isinstance(artist, AxesImage) and artist.get_array() is not None:
                arr = np.ma.filled(np.ma.asarray(artist.get_array(), dtype=float), np.nan)
                parts.append(["image", list(arr.shape), hashlib.sha1(np.round(arr, 6).tobytes()).hexdigest()])
    return hashlib.sha1(json.dumps(parts).encode()).hexdigest()


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
import json, os, socket, sys

def no_network(*args, **kwargs):
    raise OSError("no network: example scripts run offline")

socket.socket.connect = socket.socket.connect_ex = no_network
socket.create_connection = socket.getaddrinfo = no_network

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.figure import Figure
from matplotlib.text import Text
from craftbench.makers.mpl_gallery import drawn_words, figure_values, fingerprint, opaque

script, out, dpi = sys.argv[1], sys.argv[2], float(sys.argv[3])
drawn, done, records = [], set(), []
text_draw, save = Text.draw, Figure.savefig

def write(finished):
    tmp = os.path.join(out, "truth.json.tmp")
    with open(tmp, "w") as f:
        json.dump({"records": records, "done": finished}, f)
    os.replace(tmp, os.path.join(out, "truth.json"))

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
    rec = {"name": name, "fingerprint": None, "values": None}
    records.append(rec)
    try:
        rec["fingerprint"] = fingerprint(fig)
        save(fig, png, dpi=dpi, facecolor=opaque(fig.get_facecolor()))
        truth = figure_values(fig)
        if truth is not None:
            rec.update({"png": png, "text": drawn_words(drawn, fig), **truth})
    except Exception as e:  # this figure is lost, not the script's others
        rec["values"], rec["error"] = None, repr(e)
        print(f"figure {name}: {e!r}", file=sys.stderr)
    write(False)

def savefig(self, fname=None, *args, **kwargs):
    capture(self, os.path.basename(str(fname or "figure")))

Text.draw, Figure.savefig = draw, savefig
plt.show = lambda *a, **k: None
write(False)
scope = {"__name__": "__main__", "__file__": script}
exec(compile(open(script, encoding="utf-8").read(), script, "exec"), scope)
for n in plt.get_fignums():
    capture(plt.figure(n), os.path.splitext(os.path.basename(script))[0])
write(True)
"""


def opaque(colour: Any) -> tuple[float, float, float, float]:
    """``colour`` laid over white: a figure's face as its PNG shows it (a dark style's stays dark, none is white)."""

    r, g, b, a = to_rgba(colour)
    return (r * a + 1 - a, g * a + 1 - a, b * a + 1 - a, 1.0)


def _limit_memory(size: int) -> Any:
    def limit() -> None:  # in the child, before it runs: the script and every process it starts

        resource.setrlimit(resource.RLIMIT_AS, (size, size))

    return limit


def run_script(code: str, name: str, out: Path, dpi: float, env: dict[str, str] | None = None,
               timeout: float = TIMEOUT, home: Path | None = None,
               memory: int = MEMORY) -> list[dict[str, Any]] | None:
    """Run one example script (source ``code``, file name ``name``) in a fresh interpreter in a scratch folder;
    every figure it saves or leaves open is drawn to a PNG under ``out`` at ``dpi`` and read. Its records (name:
    the file name it saved to; fingerprint; values, None where the figure gives none; png; text…), or None
    where the script failed or ran too long before any figure was read. A script that failed partway keeps the
    figures read before, each marked ``partial``.

    It runs offline (see :data:`_RUNNER`), in its own session (a time-out kills the whole group: LaTeX too), under
    ``memory`` bytes of address space, with only PATH, PYTHONPATH, HOME and MPLCONFIGDIR (under ``home``, a
    scratch folder by default: caches land there, never in the user's home), MPLBACKEND and ``env``."""
    out.mkdir(parents=True, exist_ok=True)
    truth = out / "truth.json"
    truth.unlink(missing_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        script = Path(scratch) / name
        script.write_text(code, encoding="utf-8")
        base = Path(home) if home is not None else Path(scratch) / "home"
        (base / "matplotlib").mkdir(parents=True, exist_ok=True)
        path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
        run_env = {"PATH": os.environ.get("PATH", os.defpath), "PYTHONPATH": path, "HOME": str(base),
                   "MPLCONFIGDIR": str(base / "matplotlib"), "MPLBACKEND": "Agg", "LANG": "C.UTF-8", **(env or {})}
        proc = subprocess.Popen([sys.executable, "-c", _RUNNER, str(script), str(out), str(dpi)], cwd=scratch,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=run_env,
                                start_new_session=True, preexec_fn=_limit_memory(memory))
        timed_out = False
        try:
            proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
        finally:
            try:  # the script's whole group: LaTeX and whatever else it started, still running or left behind
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            if timed_out:
                proc.communicate()
    if not truth.exists():
        return None
    got = json.loads(truth.read_text(encoding="utf-8"))
    records: list[dict[str, Any]] = got["records"]
    if timed_out or proc.returncode != 0 or not got["done"]:
        if not records:
            return None
        for rec in records:
            rec["partial"] = True
    return records


# ---------------------------------------------------------------- sources


@dataclass
class Script:
    repo: str
    path: str
    commit: str
    code: str


def scripts(mirrors: Path, real: RealSet) -> list[Script]:
    """Every example script of :data:`SOURCES` under ``mirrors``, sorted; a script named as a real-set figure is
    left out (its figures' own names are checked after it runs)."""
    out = []
    for repo, (_, _, under) in sorted(SOURCES.items()):
        repo_git = git_dir(repo, mirrors)
        if repo_git is None:
            continue
        commit = git(repo_git, "rev-parse", "HEAD").strip()
        for path in sorted(git(repo_git, "ls-tree", "-r", "--name-only", "HEAD", under).split("\n")):
            if path.endswith(".py") and not Path(path).name.startswith("_") and not real.named(repo, path):
                out.append(Script(repo, path, commit, git(repo_git, "show", f"HEAD:{path}")))
    return out


def seaborn_data(mirrors: Path, folder: Path) -> bool:
    """seaborn's example data sets (the ``*.csv`` of a seaborn-data snapshot) written into ``folder``, laid out as
    ``load_dataset``'s cache; False where there is no snapshot."""
    folder.mkdir(parents=True, exist_ok=True)
    data_git = git_dir(DATA_REPO, mirrors)
    if data_git is None:
        return False
    for path in git(data_git, "ls-tree", "--name-only", "HEAD").split("\n"):
        if path.endswith(".csv"):
            (folder / path).write_bytes(git_bytes(data_git, "show", f"HEAD:{path}"))
    return True


def _left_out(records: list[dict[str, Any]], repo: str, real: RealSet) -> list[dict[str, Any]]:
    """``records`` that give values, less those named as a real-set figure of ``repo`` and those drawing the same
    data as one (the same fingerprint or the same values): a real-set figure that gives no values of its own
    still takes its siblings out."""
    named = [r for r in records if real.named(repo, r["name"])]
    prints = {r.get("fingerprint") for r in named} - {None}
    same = {json.dumps(r["values"]) for r in named if r.get("values") is not None}
    return [r for r in records if r.get("values") is not None and r not in named
            and r.get("fingerprint") not in prints and json.dumps(r["values"]) not in same]


def figure_id(maker: str, path: str, j: int, many: bool) -> str:
    """A drawn figure's id: the maker and the script's path under its examples folder (``sub/plot.py`` ->
    ``sub_plot``: two same-named scripts in two folders differ), ``_j`` where its script draws several."""
    parts = Path(path).with_suffix("").parts
    slug = "_".join(parts[1:] if len(parts) > 1 else parts)
    return f"D_mpl_{maker}_{slug}" + (f"_{j}" if many else "")


def draw(figs: Path, n: int, seed: int) -> list[dict[str, Any]]:
    """Up to ``n`` figures from the example scripts, the scripts taken in a seeded order, each script's figures
    at 1x or 2x; their truth records. Failed and timed-out scripts are counted in the last line printed."""

    mirrors = mirror_root()
    real = RealSet()
    found = scripts(mirrors, real)
    if not found:
        raise FileNotFoundError(f"no example scripts of {', '.join(SOURCES)} under {mirrors} (CRAFTBENCH_MIRRORS)")
    rng = random.Random(seed)
    rng.shuffle(found)
    records: list[dict[str, Any]] = []
    failed = partial = refused = lost = 0
    with tempfile.TemporaryDirectory() as scratch:
        data = Path(scratch) / "seaborn-data"
        have_data = seaborn_data(mirrors, data)
        env = {"SEABORN_DATA": str(data)}  # always: without a snapshot, load_dataset finds nothing (and no network)
        home = Path(scratch) / "home"  # the scripts' HOME: matplotlib's and LaTeX's caches, shared by the runs
        for k, src in enumerate(found):
            if len(records) >= n:
                break
            scale = rng.choice((1, 2))
            if src.repo == "mwaskom/seaborn" and not have_data:
                refused += 1  # its data sets would be fetched from the network
                continue
            got = run_script(src.code, Path(src.path).name, Path(scratch) / f"run{k}", 100.0 * scale, env,
                             home=home)
            if got is None:
                failed += 1
                continue
            partial += any(r.get("partial") for r in got)
            lost += sum("error" in r for r in got)
            maker, licence, _ = SOURCES[src.repo]
            many = sum(r.get("values") is not None for r in got) > 1
            for j, rec in enumerate(_left_out(got, src.repo, real)):
                if len(records) >= n:
                    break
                fid = figure_id(maker, src.path, j, many)
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
          f"{partial} failed partway (their earlier figures kept); {lost} figures failed to draw; "
          f"{refused} seaborn scripts refused (no {DATA_REPO} snapshot); {real.left_out} real-set names left out",
          file=sys.stderr)
    return records
