"""Charts from real example code: the Vega-Lite project's own example specs, drawn by vl-convert, with
the truth read off the live figure's scene graph rather than from data we wrote.

The source is a snapshot of ``vega/vega-lite`` (BSD-3-Clause; a bare git directory under
:func:`craftbench.makers.mirrors.mirror_root`, ``$CRAFTBENCH_MIRRORS`` where set): every
``examples/specs/*.vl.json`` whose data is inline (the repo's ``data/`` folder is an npm package, not in
the snapshot). Each spec is rendered to PNG and to
its scene graph (``vl_convert.vegalite_to_scenegraph``), which holds every mark as drawn: the truth is

- ``text``: every text item drawn (titles, axis titles, tick labels, legend entries, mark labels), as
  the real set lists every visible word;
- ``values``: each data mark read back through its axis's tick labels (a straight-line fit of label
  value to label position, or log10 where the labels are powers; three labels at least): a bar's far end
  from zero (a stacked segment's own length, negative below zero; along x where the y axis names the
  categories), a point's or line vertex's position, an area vertex's height above its own baseline (a
  stacked layer's, not the running total), a slice's share of the circle in %; the
  series is the legend entry whose symbol has the mark's colour, the category the band axis's label
  nearest the mark's centre;
- ``value_axis``: the value axis's range as drawn ([0, 100] for pies), ``value_scale`` "log" on log axes.

Only figures whose truth is unambiguous are kept: one view (no facets, concatenation or repeat), data
marks of one kind (rect, line, symbol or arc), numeric labels on the value axis that fit a scale, every
colour of a multi-colour chart named by a legend, three values at least.
"""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from PIL import Image

from craftbench.makers import mirrors
from craftbench.makers.mirrors import mirror_root

REPO = "vega/vega-lite"
ALTAIR = "vega/altair"
LICENCE = "BSD-3-Clause"  # both repositories
_DATA_MARKS = ("rect", "line", "symbol", "arc", "area")
_SKIP_KEYS = ("facet", "hconcat", "vconcat", "concat", "repeat")


def _stem(path: str) -> str:
    return Path(path).name.split(".")[0].lower().replace("-", "_")


def _in_realset(repo: str) -> set[str]:
    """The example names (``arc_pie``) of ``repo`` the real-figure set already holds, in any split: drawing
    them again would put a frozen test figure's source into a drawn set, so they are left out unseen."""
    manifest = Path(__file__).resolve().parents[2] / "realset" / "manifest.json"
    if not manifest.exists():
        return set()
    figures = json.loads(manifest.read_text(encoding="utf-8")).get("figures", [])
    return {_stem(f.get("path", "")) for f in figures if f.get("repo") == repo}


def _inline_specs(git_dir: Path) -> list[tuple[str, dict[str, Any]]]:
    """(path, spec) of every example spec with inline data and one view, the real set's own left out."""
    out = []
    taken = _in_realset(REPO)
    for path in mirrors.git(git_dir, "ls-tree", "-r", "--name-only", "HEAD", "examples/specs").split():
        if not path.endswith(".vl.json") or _stem(path) in taken:
            continue
        text = mirrors.git(git_dir, "show", f"HEAD:{path}")
        if '"url"' in text or '"values"' not in text or any(f'"{k}"' in text for k in _SKIP_KEYS):
            continue
        try:
            out.append((path, json.loads(text)))
        except json.JSONDecodeError:
            continue
    return out


def _altair_specs(git_dir: Path) -> list[tuple[str, dict[str, Any]]]:
    """(path, spec) of every Altair gallery example (``tests/examples_arguments_syntax``) whose data is
    made in the script (no vega_datasets download, no URL): the script is run and its last expression,
    the chart, compiled to Vega-Lite. Faceted, concatenated and repeated charts are left out."""
    taken = _in_realset(ALTAIR)
    out = []
    for path in mirrors.git(git_dir, "ls-tree", "-r", "--name-only", "HEAD", "tests/examples_arguments_syntax").split():
        if not path.endswith(".py") or _stem(path) in taken or _stem(path).startswith("__"):
            continue
        code = mirrors.git(git_dir, "show", f"HEAD:{path}")
        if "vega_datasets" in code or "url" in code or "import altair" not in code:
            continue
        spec = _run_altair(code)
        if spec is not None and not any(k in spec for k in _SKIP_KEYS):
            out.append((path, spec))
    return out


_ALTAIR_RUNNER = """
import ast, sys
tree = ast.parse(sys.stdin.read())
if not tree.body or not isinstance(tree.body[-1], ast.Expr):
    sys.exit(3)
tree.body[-1] = ast.Assign(targets=[ast.Name("_chart", ast.Store())], value=tree.body[-1].value)
ast.fix_missing_locations(tree)
scope = {"__name__": "gallery_example"}
exec(compile(tree, "<altair example>", "exec"), scope)
sys.stdout.write(scope["_chart"].to_json())
"""


def _run_altair(code: str, timeout: float = 120.0) -> dict[str, Any] | None:
    """The Vega-Lite spec of the chart an Altair example script ends with, or None. The script runs in a
    fresh interpreter in a scratch folder under a time limit, so no theme, data transformer or file it
    makes carries over; a spec that points at data by ``url`` (``data_transformers.enable('json')``) is
    left out, as its data is not in the spec."""
    with tempfile.TemporaryDirectory() as scratch:
        try:
            run = subprocess.run([sys.executable, "-c", _ALTAIR_RUNNER], input=code, capture_output=True,
                                 text=True, timeout=timeout, cwd=scratch)
        except subprocess.TimeoutExpired:
            return None
    if run.returncode != 0 or '"url"' in run.stdout:
        return None
    try:
        spec = json.loads(run.stdout)
    except json.JSONDecodeError:
        return None
    return spec if isinstance(spec, dict) else None


# ---------------------------------------------------------------- the scene graph, flattened


def flatten(scene: dict[str, Any]) -> list[dict[str, Any]]:
    """Every scene item with its mark's type and role and its absolute position (group offsets added)."""
    out: list[dict[str, Any]] = []

    def walk(mark: dict[str, Any], ox: float, oy: float, orient: str | None) -> None:
        crisp = 0.5 if mark.get("role") == "axis" else 0.0  # Vega's axis translate, for crisp lines
        for item in mark.get("items", []):
            x, y = ox + float(item.get("x", 0) or 0) - crisp, oy + float(item.get("y", 0) or 0) - crisp
            flat = {**item, "marktype": mark.get("marktype"), "role": mark.get("role"), "ax": x, "ay": y,
                    "orient": item.get("orient", orient)}
            flat.pop("items", None)
            out.append(flat)
            for child in item.get("items", []):
                walk(child, x, y, item.get("orient", orient))

    walk(scene, 0.0, 0.0, None)
    return out


def _number(text: str) -> float | None:
    t = str(text).replace("\u2212", "-").replace(",", "").strip()
    scale = 1.0
    for suffix, mult in (("k", 1e3), ("M", 1e6), ("G", 1e9), ("%", 1.0)):
        if t.endswith(suffix):
            t, scale = t[:-1], mult
            break
    try:
        return float(t) * scale
    except ValueError:
        return None


def _fit(pairs: list[tuple[float, float]]) -> tuple[float, float, bool] | None:
    """(a, b, log) with value = a + b * position (log10 value where ``log``), fitted through the
    labels; None when they do not fit a straight or log line. Three labels at least: any two fit a
    straight line, so two could not tell a log axis from a linear one."""
    if len(pairs) < 3 or len({p for p, _ in pairs}) < 3:
        return None
    for log in (False, True):
        pts = [(p, math.log10(v) if log else v) for p, v in pairs if not log or v > 0]
        if len(pts) < 3:
            continue
        n = len(pts)
        mp, mv = sum(p for p, _ in pts) / n, sum(v for _, v in pts) / n
        var = sum((p - mp) ** 2 for p, _ in pts)
        if var == 0:
            continue
        b = sum((p - mp) * (v - mv) for p, v in pts) / var
        a = mv - b * mp
        span = max(v for _, v in pts) - min(v for _, v in pts) or 1.0
        if b != 0 and all(abs(a + b * p - v) <= 0.005 * span for p, v in pts):
            return a, b, log
    return None


class Axis:
    """One axis read from its labels: numeric (a fit) or a band (labels by position)."""

    def __init__(self, labels: list[dict[str, Any]], vertical: bool) -> None:
        self.vertical = vertical
        pos = [(it["ay"] if vertical else it["ax"], str(it.get("text", ""))) for it in labels]
        nums = [(p, v) for p, t in pos if (v := _number(t)) is not None]
        self.fit = _fit(nums) if len(nums) == len(pos) else None
        self.bands = pos

    def value(self, at: float) -> float:
        a, b, log = self.fit  # type: ignore[misc]
        v = a + b * at
        return 10 ** v if log else v

    def category(self, at: float) -> str | None:
        """The label nearest ``at``, where ``at`` is on it (within 0.45 of the labels' spacing): a
        mark between two labels (a time axis's ticks) has no category."""
        if not self.bands:
            return None
        near = min(self.bands, key=lambda pt: abs(pt[0] - at))
        places = sorted(p for p, _ in self.bands)
        gap = min((b - a for a, b in zip(places, places[1:]) if b > a), default=math.inf)
        return near[1] if abs(near[0] - at) <= 0.45 * gap else None


def _axes(items: list[dict[str, Any]]) -> dict[str, tuple[Axis, tuple[float, float] | None]]:
    """orient -> (axis, its drawn extent in pixels along it) for the first axis of each side: its domain
    line's, or the view's where a theme draws no domain (ggplot2, googlecharts, powerbi)."""
    out: dict[str, tuple[Axis, tuple[float, float] | None]] = {}
    frame = next((it for it in items if it["role"] == "frame" and it.get("width") is not None), None)
    for orient in ("left", "right", "bottom", "top"):
        labels = [it for it in items if it["role"] == "axis-label" and it["orient"] == orient and it.get("text")]
        if not labels:
            continue
        vertical = orient in ("left", "right")
        ticks = [it for it in items if it["role"] == "axis-tick" and it["orient"] == orient]
        if len(ticks) == len(labels):  # the ticks sit where the values are; labels may be nudged off them
            labels = [{**lab, "ax": t["ax"], "ay": t["ay"]} for lab, t in zip(labels, ticks)]
        domain = next((it for it in items if it["role"] == "axis-domain" and it["orient"] == orient), None)
        extent = None
        if domain is not None:
            if vertical:
                extent = (domain["ay"], domain["ay"] + float(domain.get("y2", 0)) - float(domain.get("y", 0)))
            else:
                extent = (domain["ax"], domain["ax"] + float(domain.get("x2", 0)) - float(domain.get("x", 0)))
        elif frame is not None:
            extent = (frame["ay"], frame["ay"] + float(frame.get("height") or 0)) if vertical else \
                (frame["ax"], frame["ax"] + float(frame.get("width") or 0))
        out[orient] = (Axis(labels, vertical), extent)
    return out


def _legend(items: list[dict[str, Any]]) -> dict[str, str]:
    """A legend's colours (fill or stroke of its symbols) -> their labels, in order."""
    symbols = [it for it in items if it["role"] == "legend-symbol"]
    labels = [it for it in items if it["role"] == "legend-label"]
    out: dict[str, str] = {}
    for s, lab in zip(symbols, labels):
        colour = s.get("fill") if s.get("fill") not in (None, "transparent") else s.get("stroke")
        if colour:
            out.setdefault(str(colour).lower(), str(lab.get("text", "")))
    return out


def _colour(it: dict[str, Any]) -> str:
    c = it.get("fill") if it.get("fill") not in (None, "transparent") else it.get("stroke")
    return str(c or "").lower()


def _text_of(t: Any) -> str:
    return " ".join(str(x) for x in t) if isinstance(t, list) else str(t)


def _stacked_from_zero(bars: list[tuple[str, float, float]], tol: float) -> bool:
    """Every bar starts at zero or where another bar of its category ends (a stack); ticks, ranged bars
    and Gantt bars do not, and their 'value' is not a bar's length."""
    for cat, a, b in bars:
        ends = [e for c, x, y in bars if c == cat and (x, y) != (a, b) for e in (x, y)]
        for base in (a, b):
            if abs(base) <= tol or any(abs(base - e) <= tol for e in ends):
                break
        else:
            return False
    return True


def _value_axes(axes: dict[str, tuple[Axis, tuple[float, float] | None]], kind: str) -> tuple[Any, Any, bool] | None:
    """((y axis, extent), (x axis, extent), horizontal bars) where one axis reads values: the first side
    whose labels fit a scale, the other carrying category labels or a scale of its own. Bars go along the
    axis that fits while the other names their categories (a category y axis: horizontal bars); rects on
    two numeric axes (a histogram, a heatmap) and points or lines over a category y axis are read by
    neither rule here."""
    sides = []
    for orients in (("left", "right"), ("bottom", "top")):
        found = [a for o, a in axes.items() if o in orients]
        sides.append(next((a for a in found if a[0].fit), found[0] if found else None))
    vert, horiz = sides
    if vert is None or horiz is None:
        return None
    if kind == "rect" and vert[0].fit is not None and horiz[0].fit is not None:
        return None
    horizontal_bars = kind == "rect" and vert[0].fit is None and horiz[0].fit is not None
    if vert[0].fit is None and not horizontal_bars:
        return None
    return vert, horiz, horizontal_bars


def _bar_values(marks: list[dict[str, Any]], xaxis: Axis, yaxis: Axis, horizontal: bool, tol: float,
                series: Any) -> list[list[Any]] | None:
    """[series, category, value] of each bar: its far end from zero, a stacked segment's own length
    (negative where the segment lies below zero); None unless the bars stack from zero."""
    values: list[list[Any]] = []
    bases: list[tuple[str, float, float]] = []  # (category, base, far end) of each bar, to check stacking
    for it in marks:
        x0, y0 = it["ax"], it["ay"]
        w, h = float(it.get("width", 0) or 0), float(it.get("height", 0) or 0)
        if horizontal:
            ends, cat = (xaxis.value(x0), xaxis.value(x0 + w)), yaxis.category(y0 + h / 2)
        else:
            ends, cat = (yaxis.value(y0 + h), yaxis.value(y0)), xaxis.category(x0 + w / 2)
        if cat is None:
            return None
        if (w if horizontal else h) < 0.5:  # not drawn
            continue
        bases.append((cat, *ends))
        near0 = [abs(e) <= tol for e in ends]
        if near0[0] or near0[1]:
            v = ends[1] if near0[0] else ends[0]
        else:  # a stacked segment off zero: below zero on a diverging stack's negative side
            v = abs(ends[1] - ends[0]) * (-1 if max(ends) < 0 else 1)
        values.append([series(it), cat, round(v, 6)])
    return values if _stacked_from_zero(bases, tol) else None


def _vertex_values(marks: list[dict[str, Any]], xaxis: Axis, yaxis: Axis, tol: float,
                   series: Any) -> list[list[Any]] | None:
    """[series, x, y] of each point or line/area vertex. An area's y is its own height, top (``y``) less
    baseline (``y2``) in data units, so a stacked area's layer is not read as the running total; areas
    off a zero baseline on a log axis, and areas along y, are left out."""
    values: list[list[Any]] = []
    for it in marks:
        x = xaxis.value(it["ax"]) if xaxis.fit else xaxis.category(it["ax"])
        if x is None:
            return None
        y = yaxis.value(it["ay"])
        if it["marktype"] == "area":
            if "y2" not in it or it.get("orient") == "horizontal":
                return None
            base = yaxis.value(it["ay"] + float(it["y2"]) - float(it.get("y", 0) or 0))
            if abs(base) > tol:
                if yaxis.fit[2]:  # type: ignore[index]
                    return None
                y -= base
        values.append([series(it), round(x, 6) if isinstance(x, float) else x, round(y, 6)])
    return values


def truth_of(scene: dict[str, Any]) -> dict[str, Any] | None:
    """The truth record's words, values and value axis read off one scene graph, or None where the
    figure's truth is not unambiguous."""
    items = flatten(scene)
    words = " ".join(_text_of(it["text"]) for it in items if it["marktype"] == "text" and it.get("text")
                     and float(it.get("opacity", 1) or 0) > 0 and float(it.get("fillOpacity", 1) or 0) > 0)
    marks = [it for it in items if it["role"] == "mark" and it["marktype"] in _DATA_MARKS]
    kinds = {it["marktype"] for it in marks}
    if len(kinds) != 1 or len([it for it in items if it["role"] == "axis"]) > 4:
        return None
    kind = kinds.pop()
    legend = _legend(items)
    colours = {_colour(it) for it in marks}
    if len(colours) > 1 and not colours <= set(legend):
        return None

    def series(it: dict[str, Any]) -> str:
        return legend.get(_colour(it), "") if len(colours) > 1 else (next(iter(legend.values()), "")
                                                                     if len(legend) == 1 else "")

    values: list[list[Any]] = []
    if kind == "arc":
        total = sum(abs(float(it.get("endAngle", 0)) - float(it.get("startAngle", 0))) for it in marks)
        if abs(total - 2 * math.pi) > 1e-3 or len(colours) != len(marks) or not colours <= set(legend):
            return None
        for it in marks:
            share = 100 * abs(float(it["endAngle"]) - float(it["startAngle"])) / (2 * math.pi)
            values.append(["share", legend[_colour(it)], round(share, 3)])
        return {"text": words, "values": values, "value_axis": [0.0, 100.0], "style": "pie"}
    picked = _value_axes(_axes(items), kind)
    if picked is None:
        return None
    (yaxis, yext), (xaxis, xext), horizontal_bars = picked
    value_axis, ext = (xaxis, xext) if horizontal_bars else (yaxis, yext)
    if ext is None:
        return None
    tol = 0.005 * abs(value_axis.value(ext[1]) - value_axis.value(ext[0]))
    read = _bar_values(marks, xaxis, yaxis, horizontal_bars, tol, series) if kind == "rect" else \
        _vertex_values(marks, xaxis, yaxis, tol, series)
    if read is None:
        return None
    values = read
    if len(values) < 3:
        return None
    lo, hi = sorted((value_axis.value(ext[0]), value_axis.value(ext[1])))
    if any(not lo - 0.01 * (hi - lo) <= v[2] <= hi + 0.01 * (hi - lo) for v in values):
        return None  # marks outside the axis (clipped, or folded as a horizon chart's bands are)
    rec = {"text": words, "values": values, "value_axis": [round(lo, 6), round(hi, 6)],
           "style": {"rect": "bar-h" if horizontal_bars else "bar", "symbol": "scatter"}.get(kind, kind)}
    if value_axis.fit[2]:  # type: ignore[index]
        rec["value_scale"] = "log"
    return rec


def _sources() -> list[tuple[str, str, str, str, dict[str, Any]]]:
    """(repo, commit, path, maker, spec) of every example of the snapshots found here."""
    out = []
    for repo, maker, read in ((REPO, "vega-lite", _inline_specs), (ALTAIR, "vega-altair", _altair_specs)):
        git_dir = mirrors.git_dir(repo)
        if git_dir is None:
            continue
        commit = mirrors.git(git_dir, "rev-parse", "HEAD").strip()
        out += [(repo, commit, path, maker, spec) for path, spec in read(git_dir)]
    if not out:
        raise FileNotFoundError(f"no vega/vega-lite or vega/altair snapshot under {mirror_root()} (CRAFTBENCH_MIRRORS)")
    return out


# vega-themes as vl-convert carries them (the dark and Carbon ones on their own dark or light page), and no theme;
# urbaninstitute and powerbi are left out: vl-convert lacks their fonts (Lato; Segoe UI, wf_standard-font) and
# draws no text at all, or no tick labels, though the scene graph holds them
THEMES = ("default", "dark", "excel", "fivethirtyeight", "ggplot2", "googlecharts", "latimes", "quartz",
          "vox", "carbonwhite", "carbong10", "carbong90", "carbong100")


def draw(figs: Path, n: int, seed: int, themes: tuple[str, ...] = ("default",)) -> list[dict[str, Any]]:
    """Up to ``n`` figures: a seeded sample of the examples whose truth is unambiguous, each drawn under every
    theme of ``themes`` (vega-themes; "default" for none) at 1x or 2x, its truth read off the scene graph of
    the same theme; their truth records. Under several themes a record's group names its theme, so a bench
    reads per theme on the same examples."""
    import vl_convert as vlc  # heavy: the Vega-Lite renderer (Deno)

    rng = random.Random(seed)
    specs = _sources()
    rng.shuffle(specs)
    records: list[dict[str, Any]] = []
    for repo, commit, path, maker, spec in specs:
        text = json.dumps(spec)
        for theme in themes:
            if len(records) >= n:
                return records
            drawn = {"theme": None if theme == "default" else theme}
            try:
                scene = vlc.vegalite_to_scenegraph(text, **drawn)
            except Exception:  # noqa: BLE001 — a spec the renderer refuses is left out, like any unclear one
                continue
            truth = truth_of(scene["scenegraph"])
            if truth is None:
                continue
            scale = rng.choice((1, 2))
            fid = f"D_{maker.replace('-', '')}_{_stem(path)}" + (f"_{theme}" if len(themes) > 1 else "")
            out = Path(figs) / f"{fid}.png"
            out.write_bytes(vlc.vegalite_to_png(text, scale=scale, **drawn))
            with Image.open(out) as im:
                width, height = im.size
            style = truth.pop("style")
            group = f"{maker}-{theme}" if len(themes) > 1 else f"{maker}-examples"
            records.append({"id": fid, "file": f"figs/{out.name}", "kind": "chart", "style": style,
                            "maker": maker, "group": group, "width": width, "height": height,
                            "nodes": [], "edges": [], "images": 0, **truth,
                            "provenance": {"repo": repo, "path": path, "commit": commit, "licence": LICENCE}})
    return records
