"""The real-figure set: figures taken from public repositories, with hand-made ground truth.

The set is never part of this repository (the figures are other people's work, kept with
their licences in a folder of their own): ``crafteditor bench --real DIR`` reads
``DIR/manifest.json``, a list of figures, each::

    {"id": "dask_static", "file": "figs/dask_static.png", "repo": "dask/dask", "path": "...",
     "commit": "...", "licence": "BSD-3-Clause", "split": "dev" | "test", "kind": "diagram" | "chart",
     "style": "graphviz, serif", "maker": "matplotlib",   # the report groups by maker, else style
     "text": "z add 10 y inc x=1",                 # every visible word, in any order
     "nodes": ["z", "add", ...],                    # labels of the boxes (optional)
     "edges": [["z", "add"], ...],                  # label pairs, source first (optional)
     "images": 2,                                   # photos / screenshots in the figure (optional)
     "values": [["series", "x", 1.5], ...],         # a few chart values where legible (optional)
     "value_axis": [0, 100],                        # the value axis's range, for "values" (optional)
     "value_scale": "log"}                          # the value axis is a log axis (optional)

An entry without ``split`` goes to ``test`` by a hash of its id (:func:`frozen_split`: about one
in three, the same on every run). The manifest is ``DIR/manifest.json``, or one given with
``--manifest``, or the one committed at ``./realset/manifest.json``; ``file`` is relative to DIR.

Scores: words kept as ``<text>`` in the SVG drawn back (multiset recall of the true words,
compared on their letters and digits only, so ``I₁·T₁`` and ``I1·T1`` are one word and
``…`` none); nodes and edges as F1 over label multisets; photos kept as ``image`` components;
chart values as the share of true ``[series, x, y]`` read within 2 % of the value axis's range
(:func:`score_values`).
"""

from __future__ import annotations

import functools
import hashlib
import html
import json
import math
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from crafteditor.charts.numbers import parse_dates, parse_number
from crafter.errors import CrafterError
from crafter.spec.model import Chart, Edge, Figure, Group, Node

SPLITS = ("dev", "test", "all")
COMMITTED_MANIFEST = Path("realset") / "manifest.json"  # the truth, in git at the repository root


class RealSetError(CrafterError):
    """A real-figure folder without a readable manifest, or a manifest entry without its file."""


@dataclass
class RealFigure:
    id: str
    path: Path
    split: str
    kind: str
    truth: dict[str, Any]


def find_manifest(folder: Path, manifest: Path | None = None) -> Path:
    """The manifest to read: ``manifest`` if given, else ``folder/manifest.json``, else the one
    committed at ``./realset/manifest.json`` (the truth is in git; the figures stay outside)."""
    if manifest is not None:
        if not Path(manifest).is_file():
            raise RealSetError(f"{manifest}: no such manifest file")
        return Path(manifest)
    for candidate in (Path(folder) / "manifest.json", COMMITTED_MANIFEST):
        if candidate.is_file():
            return candidate
    raise RealSetError(f"{Path(folder) / 'manifest.json'}: no manifest.json in the real-figure folder "
                       f"(nor {COMMITTED_MANIFEST}; give one with --manifest)")


def frozen_split(figure_id: str) -> str:
    """The split of a figure whose entry names none: ``test`` for about one in three, chosen by a
    hash of its id, so it never changes as figures are added or the set is reordered."""
    return "test" if hashlib.sha256(figure_id.encode("utf-8")).digest()[0] % 3 == 0 else "dev"


def figure_group(truth: dict[str, Any]) -> str:
    """What a figure is reported under: its ``maker`` (matplotlib, Graphviz…) where the manifest
    names one, else the first word group of its ``style`` ('graphviz, serif' → 'graphviz')."""
    maker = str(truth.get("maker") or "").strip()
    maker = "" if maker.lower() == "unknown" else maker
    style = str(truth.get("style") or "").split(",")[0].strip()
    return (maker or style or "unknown").lower()


def load_real(folder: Path, split: str = "all", manifest: Path | None = None) -> list[RealFigure]:
    """The figures of the manifest (:func:`find_manifest`) in ``split`` (dev, test or all); each
    entry's ``file`` is relative to ``folder``."""
    if split not in SPLITS:
        raise RealSetError(f"split must be one of {', '.join(SPLITS)}, not {split!r}")
    manifest = find_manifest(folder, manifest)
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise RealSetError(f"{manifest}: not readable JSON ({e})") from None
    out = []
    for i, rec in enumerate(data.get("figures", [])):
        for key in ("id", "file", "text"):
            if key not in rec:
                raise RealSetError(f"{manifest}: figure {i} has no '{key}'")
        path = Path(folder) / rec["file"]
        if not path.is_file():
            where = f" (from {rec['repo']}, {rec.get('path')} at {rec.get('commit', '?')[:12]})" if rec.get("repo") else ""
            raise RealSetError(f"{manifest}: figure '{rec['id']}': file {path} is missing{where}")
        if rec.get("sha256") and hashlib.sha256(path.read_bytes()).hexdigest() != rec["sha256"]:
            raise RealSetError(f"{manifest}: figure '{rec['id']}': {path} is not the file the truth was made for "
                               f"(sha256 differs from the manifest's)")
        rec = {**rec, "split": rec.get("split") or frozen_split(rec["id"])}
        if split != "all" and rec["split"] != split:
            continue
        out.append(RealFigure(rec["id"], path, rec["split"], rec.get("kind", "diagram"), rec))
    return out


def norm_word(w: str) -> str:
    """A word compared on its letters and digits (NFKC: subscript ₁ is 1, ℓ is l), lower case."""
    w = unicodedata.normalize("NFKC", w).lower()
    return "".join(ch for ch in w if ch.isalnum())


def words_of(text: str) -> Counter:
    return Counter(w for w in (norm_word(t) for t in text.split()) if w)


_TEXT_RE = re.compile(r"<text\b[^>]*>(.*?)</text>", re.S)
_TAG_RE = re.compile(r"<[^>]+>")
_PLACED_RE = re.compile(r'\s[xy]="')


def _tag_gap(m: re.Match[str]) -> str:
    tag = m.group(0)
    if tag.startswith("</tspan") or (tag.startswith("<tspan") and not _PLACED_RE.search(tag)):
        return ""
    return " "


def svg_word_list(svg: str) -> list[str]:
    """The words an SVG draws as text, in drawing order (tspans joined: a sub- or superscript stays in its
    word; a tspan placed with x or y starts a line)."""
    return [w for body in _TEXT_RE.findall(svg)
            for w in (norm_word(t) for t in html.unescape(_TAG_RE.sub(_tag_gap, body)).split()) if w]


def svg_words(svg: str) -> Counter:
    """The words an SVG draws as text, counted (:func:`svg_word_list`)."""
    return Counter(svg_word_list(svg))


def _f1(truth: Counter, pred: Counter) -> float:
    hit = sum(min(n, pred[k]) for k, n in truth.items())
    t, p = sum(truth.values()), sum(pred.values())
    if t == 0:
        return float("nan")
    if hit == 0:
        return 0.0
    prec, rec = hit / p, hit / t
    return 2 * prec * rec / (prec + rec)


def _label(s: str | None) -> str:
    return " ".join(norm_word(w) for w in (s or "").split() if norm_word(w))


def _node_label(s: str | None) -> str:
    """A node's (or frame's, or text's) label as compared: its words (:func:`_label`); a label with no letter
    or digit at all (a circled '+', '×', '⊙' in a network diagram, a UML '...') on its symbols, so a node the
    truth names by a symbol can be matched (it had been '' on both sides: never a hit) and a drawn one counts."""
    return _label(s) or "".join(unicodedata.normalize("NFKC", s or "").split())


def _edge_key(e: Edge, ends: dict[str, str], truth: Counter) -> tuple[str, str]:
    """An edge's (source, target) labels; a line alike at both ends (a head at each, or none) has no direction of its
    own, so it matches the truth's pair whichever order the truth lists it in."""
    key = (ends.get(e.source, ""), ends.get(e.target, ""))
    alike = (e.head == "none") == (e.tail == "none")
    if alike and key not in truth and key[::-1] in truth:
        return key[::-1]
    return key


def end_labels(fig: Figure) -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """Each node's, text's and labelled frame's label by id, as an edge's ends are named when scored
    (:func:`_node_label`): ``(labels, texts, frames)``."""
    labels = {c.id: _node_label(c.label) for c in fig.components if isinstance(c, Node)}
    texts = {c.id: _node_label(getattr(c, "text", None)) for c in fig.components if c.kind == "text"}
    frames = {c.id: _node_label(c.label) for c in fig.components if isinstance(c, Group) and c.label}
    return labels, texts, frames


def truth_edges(truth: dict[str, Any]) -> Counter:
    """The truth's edges as (source, target) labels named as :func:`end_labels` names a figure's ends."""
    return Counter((_node_label(a), _node_label(b)) for a, b in truth.get("edges") or [])


def score_real(fig: Figure, svg: str, truth: dict[str, Any]) -> dict[str, float]:
    """Words kept as text, node and edge F1 against labels, photos kept as images."""
    t_words = words_of(truth["text"])
    p_words = svg_words(svg)
    hit = sum(min(n, p_words[w]) for w, n in t_words.items())
    scores = {"words": hit / sum(t_words.values()) if t_words else 1.0}
    labels, texts, frames = end_labels(fig)
    edges = [e for e in fig.components if isinstance(e, Edge)]
    if truth.get("nodes"):
        t_nodes = Counter(_node_label(n) for n in truth["nodes"])
        scores["nodes"] = _f1(t_nodes, Counter(v for v in labels.values() if v))
        # Some truth lists a container's title as a node: read as a labelled group, it counts here (not an aim).
        scores["components"] = _f1(t_nodes, Counter(v for v in (*labels.values(), *frames.values()) if v))
    if truth.get("edges"):
        t_edges = truth_edges(truth)
        for key, ends in (("edges", {**texts, **labels}), ("component_edges", {**texts, **labels, **frames})):
            scores[key] = _f1(t_edges, Counter(_edge_key(e, ends, t_edges) for e in edges))
    if truth.get("images"):
        n_img = sum(c.kind == "image" for c in fig.components)
        scores["images"] = min(1.0, n_img / truth["images"])
    if truth.get("values"):
        scores["values"] = score_values(fig, truth)
    return scores


def chart_rows(spec: dict[str, Any]) -> list[tuple[str | None, Any, float]]:
    """A chart spec's inline rows as (series, category or x, value): the value is on the
    quantitative axis (x for horizontal bars, whose categories are on y); a heatmap's, (its row's
    y label, its column's x label, the cell's value)."""
    enc = spec.get("encoding") or {}
    if _is_heatmap(spec):
        color = next(ly["encoding"]["color"] for ly in spec["layer"] if "color" in (ly.get("encoding") or {}))
        return [(str(row.get(enc["y"]["field"])), row.get(enc["x"]["field"]), v)
                for row in (spec.get("data") or {}).get("values") or []
                if (v := _number(row.get(color.get("field")))) is not None]
    xf = (enc.get("x") or {}).get("field", "x")
    yf = (enc.get("y") or {}).get("field", "y")
    cf = (enc.get("color") or {}).get("field", "series")
    if (enc.get("y") or {}).get("type") == "nominal" and (enc.get("x") or {}).get("type") == "quantitative":
        xf, yf = yf, xf
    out = []
    for row in (spec.get("data") or {}).get("values") or []:
        v = _number(row.get(yf))
        if v is not None and xf in row:
            out.append((row.get(cf), row[xf], v))
    return out


def score_values(fig: Figure, truth: dict[str, Any]) -> float:
    """The share of the true values ``[series, x, y]`` read within 2 % of the value axis's range
    (``value_axis``, else the true values' own range; in log10 units where ``value_scale`` is
    "log"). Series match by name, letters and digits only (a panel of one true series ignores
    names, as do a true value without one and a chart read as one series without a name); a
    name led by a panel letter, '(b) ours', or side, 'right: ours', is looked for in that panel,
    the charts counted in reading order; x by the nearest number ('1k' is 1000; on a line,
    also the line between the vertices either side), else by category name (spaces aside), in each chart
    and series read. A true series 'total' on stacked bars is the stack's total at its x. A heatmap's
    series are its rows, named by their y label ('-5', or 'y=-5'), x by its column's label."""
    values = [v for v in truth["values"] if len(v) == 3 and _number(v[2]) is not None]
    if not values:
        return float("nan")
    log = truth.get("value_scale") == "log"

    def scale(v: float) -> float | None:
        return (math.log10(v) if v > 0 else None) if log else v

    lo, hi = truth.get("value_axis") or (min(_number(v[2]) for v in values), max(_number(v[2]) for v in values))
    lo_s, hi_s = scale(float(lo)), scale(float(hi))
    span = abs(hi_s - lo_s) if lo_s is not None and hi_s is not None and hi_s != lo_s else 1.0
    names: dict[int | None, set[str]] = {}
    for v in values:
        panel, name = _panel_name(v[0])
        names.setdefault(panel, set()).add(name)
    # the rows read, grouped by chart and series: a nearest x is looked for in each group
    groups: dict[tuple[int, str], list[tuple[Any, float]]] = {}
    lines: set[int] = set()  # charts drawn as lines: a value between two vertices is on the line between them
    anonymous: set[int] = set()  # charts read as one series without a name (no legend): any name is theirs
    for i, c in enumerate(_reading_order([c for c in fig.components if isinstance(c, Chart)])):
        rows = chart_rows(c.spec)
        heatmap = _is_heatmap(c.spec)
        for s, x, y in rows:
            groups.setdefault((i, _label(str(s or ""))), []).append((x, y))
            if heatmap:  # a row of cells, which the truth may name 'y=-5'
                groups.setdefault((i, _label(f"y={s}")), []).append((x, y))
        if _is_stacked(c.spec) and not any(_label(str(s or "")) == "total" for s, _, _ in rows):
            # a stack's total: its series' values summed at each x
            totals: dict[Any, float] = {}
            for _, x, y in rows:
                totals[x] = totals.get(x, 0.0) + y
            groups.setdefault((i, "total"), []).extend(totals.items())
        if _is_line(c.spec):
            lines.add(i)
        if {_label(str(s or "")) for s, _, _ in rows} == {""}:
            anonymous.add(i)
    hit = 0
    for s, x, y in values:
        want = scale(float(_number(y)))
        panel, name = _panel_name(s)
        anyone = not name or len(names[panel] - {""}) <= 1
        found = [scale(float(v)) for (i, sname), rows in groups.items()
                 if (panel is None or i == panel) and (anyone or sname == name or i in anonymous)
                 for v in _at_x(rows, x, i in lines)]
        if want is not None and any(f is not None and abs(f - want) <= 0.02 * span for f in found):
            hit += 1
    return hit / len(values)


_PANEL_RE = re.compile(r"(?:\(([a-z])\)|(left|top|right|bottom):)\s*(.*)", re.S)


def _panel_name(series: Any) -> tuple[int | None, str]:
    """A true series name as (panel index or None, name): '(b) ours' is panel 1's 'ours'; of
    two panels, 'left: ours' (or top) the first's, 'right: ours' (or bottom) the second's."""
    text = str(series or "").strip()
    m = _PANEL_RE.fullmatch(text)
    if m is None:
        return None, _label(text)
    if m.group(1):
        return ord(m.group(1)) - ord("a"), _label(m.group(3))
    return int(m.group(2) in ("right", "bottom")), _label(m.group(3))


def _reading_order(charts: list[Chart]) -> list[Chart]:
    """Charts in rows, top to bottom, each row left to right (a chart whose centre is below the
    row's first chart's bottom starts a new row); charts without a box keep their order, last."""
    placed = sorted((c for c in charts if c.box is not None), key=lambda c: c.box.y + c.box.h / 2)
    rows: list[list[Chart]] = []
    for c in placed:
        if rows and c.box.y + c.box.h / 2 <= rows[-1][0].box.y + rows[-1][0].box.h:
            rows[-1].append(c)
        else:
            rows.append([c])
    return [c for row in rows for c in sorted(row, key=lambda c: c.box.x)] + [c for c in charts if c.box is None]


def _at_x(rows: list[tuple[Any, float]], x: Any, line: bool = False) -> list[float]:
    """The values of ``rows`` at ``x``: those at the nearest number where both are numbers
    ('7' is 7.0), and on a ``line`` the value between the vertices either side of it; else
    those of its category. Dates ('2020-03-01', 'Mar 1 2020') are numbers too: days where both are
    dates, years where the x read is a number (a date axis labelled with years alone: 1956.5)."""
    read = _number if _number(x) is not None else _day
    xv = read(x)
    nums = sorted((rv, y) for rx, y in rows if (rv := read(rx)) is not None) if xv is not None else []
    if read is _day and xv is not None and not nums:
        xv = 1970 + xv / 365.2425
        nums = sorted((rv, y) for rx, y in rows if (rv := _number(rx)) is not None and 1600 <= rv <= 2300)
    if nums:
        best = min(abs(rv - xv) for rv, _ in nums)
        out = [y for rv, y in nums if abs(rv - xv) == best]
        for (xa, ya), (xb, yb) in zip(nums, nums[1:]):
            if line and xa < xv < xb:
                out.append(ya + (yb - ya) * (xv - xa) / (xb - xa))
        return out
    # a category by its letters and digits, spaces aside (OCR's 'GM 1 2878_R1'; the words score
    # counts the reading of the label itself)
    key = _label(str(x)).replace(" ", "")
    return [y for rx, y in rows if key and _label(str(rx)).replace(" ", "") == key]


def _is_stacked(spec: dict[str, Any]) -> bool:
    """Bars of several series on one category each, stacked (Vega-Lite's default: no offset
    channel, no ``stack: null``)."""
    enc = spec.get("encoding") or {}
    value = next((enc[k] for k in ("x", "y") if (enc.get(k) or {}).get("type") == "quantitative"), {})
    return (_mark_type(spec) == "bar" and "color" in enc
            and not {"xOffset", "yOffset"} & set(enc) and value.get("stack", "zero") not in (None, False))


def _is_heatmap(spec: dict[str, Any]) -> bool:
    """Cells (a rect layer) on nominal x and y, their colour the quantity."""
    enc = spec.get("encoding") or {}
    if (enc.get("x") or {}).get("type") != "nominal" or (enc.get("y") or {}).get("type") != "nominal":
        return False
    return any(ly["mark"].get("type") == "rect"
               and ((ly.get("encoding") or {}).get("color") or {}).get("type") == "quantitative"
               for ly in spec.get("layer") or [] if isinstance(ly.get("mark"), dict))


def _is_line(spec: dict[str, Any]) -> bool:
    """The chart's mark (or its layers' first) is a line."""
    return _mark_type(spec) == "line"


def _mark_type(spec: dict[str, Any]) -> str | None:
    """The chart's mark type (or its layers' first)."""
    mark = spec.get("mark") or next((ly.get("mark") for ly in spec.get("layer") or [] if ly.get("mark")), None)
    return mark.get("type") if isinstance(mark, dict) else mark


def _day(v: Any) -> float | None:
    """A date or time as days since 1970-01-01 (:func:`~crafteditor.charts.numbers.parse_dates`), else None."""
    return _day_of_text(v) if isinstance(v, str) else None


@functools.lru_cache(maxsize=4096)
def _day_of_text(v: str) -> float | None:
    """:func:`_day` of a string, kept: the scorer asks each row's x again for every true value it places
    (a dateutil parse each, ~18 µs)."""
    return parse_dates([v])[0]


def _number(v: Any) -> float | None:
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, float)):
        return float(v) if math.isfinite(v) else None
    f = parse_number(str(v))
    return f if f is not None and math.isfinite(f) else None
