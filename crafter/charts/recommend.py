"""Choosing a chart without a model: column types and cardinalities → a sensible chart.

Deterministic (ties go to the earlier column) and explainable: every choice carries a
one-line ``reason``. The rules follow what research figures use:

* a step/epoch/time column plus a metric → line chart (loss curves; log y when the
  metric spans two decades), one line per category, mean ± sd band over seeds;
* categories plus a metric → bar chart (grouped by a second category, faceted by a
  third), error bars from a ``*_std`` column or mean ± sd over replicate rows;
  many rows per category and no seed column → box plot; two many-valued categories
  with one value per pair → heatmap;
* two metrics → scatter (cost-like metric — latency, params, FLOPs — on x, log x when
  it spans two decades), coloured by a category;
* one metric alone → histogram.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from crafter.data.table import Column, Table
from crafter.errors import InputError

STEP_WORDS = frozenset({"step", "steps", "epoch", "epochs", "iter", "iters", "iteration", "iterations", "update",
                        "updates", "round", "rounds", "timestep", "timesteps", "walltime", "wall", "hours", "tokens"})
ERROR_NAMES = re.compile(r"(^|[_\s\-(])(std|sd|stdev|stddev|stderr|se|sem|err|error|ci|ci95|conf|pm|±)"
                         r"($|[_\s\-)])", re.I)
REPLICATE_NAMES = re.compile(r"^(seed|seeds|run|runs|trial|trials|rep|replicate|fold|repeat|run_id|seed_id)$", re.I)
COST_NAMES = re.compile(r"(latency|time|ms|sec|seconds|params|parameters|flops|macs|memory|mem|cost|size|energy|"
                        r"gpu[_ ]?hours|throughput)", re.I)
ID_NAMES = re.compile(r"(^|[_\s\-])(id|idx|index|request|req|sample|example|row|no|num|item|query)($|[_\s\-])", re.I)
QUALITY_NAMES = re.compile(r"(acc|accuracy|score|f1|bleu|rouge|auc|map|precision|recall|win|pass|exact|em|top)", re.I)
LOSS_NAMES = re.compile(r"(loss|perplexity|ppl|mse|rmse|nll|error|lr|learning[_ ]rate|grad)", re.I)

MAX_BAR_CATEGORIES = 40
MAX_COLOR_CATEGORIES = 10
MAX_FACETS = 8


@dataclass
class ChartChoice:
    mark: str
    x: str | None = None
    y: str | None = None
    color: str | None = None
    column: str | None = None  # facet
    size: str | None = None
    shape: str | None = None
    error: str | None = None  # an error column, or an extent: stdev, stderr, ci, iqr
    aggregate: str | None = None  # "mean" when replicate rows are averaged
    xscale: str | None = None
    yscale: str | None = None
    horizontal: bool = False
    stack: bool = False
    reasons: list[str] = field(default_factory=list)

    @property
    def reason(self) -> str:
        return "; ".join(self.reasons)


def _is_error(name: str) -> bool:
    return bool(ERROR_NAMES.search(name))


def _words(name: str) -> list[str]:
    return [w for w in re.split(r"[^a-z0-9]+", name.lower()) if w]


def _is_step(c: Column) -> bool:
    """step, epoch, global_step, tokens_seen, wall time... (not rates like tokens_per_s)."""
    words = _words(c.name)
    return (c.type == "quantitative" and c.cardinality > 2 and "per" not in words
            and (bool(STEP_WORDS.intersection(words)) or c.name.lower() in ("t", "time")))


def _is_index(c: Column) -> bool:
    """A counter (request, sample_id...): integers named like an index."""
    return c.type == "quantitative" and bool(ID_NAMES.search(c.name)) and all(
        isinstance(v, int) or float(v).is_integer() for v in c.present)


def _is_sweep(table: Table, c: Column, dims: list[Column]) -> Column | None:
    """A swept setting (batch size, model size...): the same values for every category of a dim."""
    if c.type != "quantitative" or not 3 <= c.cardinality <= 20:
        return None
    for d in dims:
        sets: dict[Any, set[Any]] = {}
        for dv, cv in zip(d.values, c.values):
            sets.setdefault(dv, set()).add(cv)
        if len(sets) >= 2 and all(s == next(iter(sets.values())) for s in sets.values()) \
                and len(next(iter(sets.values()))) >= 3:
            return d
    return None


def _positive_span(c: Column) -> float:
    vals = [v for v in c.present if isinstance(v, (int, float))]
    if not vals or min(vals) <= 0:
        return 0.0
    return max(vals) / min(vals)


def _error_column_for(table: Table, measure: str) -> str | None:
    errs = [c.name for c in table.columns if c.type == "quantitative" and _is_error(c.name)]
    if not errs:
        return None
    stem = re.sub(r"[^a-z0-9]", "", measure.lower())
    for e in errs:  # acc_std belongs to acc
        if re.sub(r"[^a-z0-9]", "", ERROR_NAMES.sub(" ", e).lower()) == stem:
            return e
    for e in errs:
        if stem and stem in re.sub(r"[^a-z0-9]", "", e.lower()):
            return e
    return errs[0] if len(errs) == 1 else None


def _rows_per_group(table: Table, names: list[str]) -> float:
    if not names:
        return float(table.n_rows)
    keys = set(zip(*(table.column(n).values for n in names)))
    return table.n_rows / max(1, len(keys))


@dataclass
class _Roles:
    """The columns left open, by the part they can play (the user's own choices taken out)."""

    replicate: str | None  # a seed/run column: its rows are repeats, averaged with an error
    temporal: list[Column]
    steps: list[Column]  # step/epoch-like columns, or a swept setting standing in for one
    measures: list[Column]  # metrics, quality metrics first
    dims: list[Column]  # categories (and integer columns with few values)


def _take(ch: ChartChoice, pool: list[Column]) -> str | None:
    """The first column of ``pool`` the choice does not use yet."""
    for c in pool:
        if c.name not in {base_field(n) for n in (ch.x, ch.y, ch.color, ch.column, ch.size) if n}:
            return c.name
    return None


def _type_of(table: Table, name: str | None) -> str | None:
    if name is None:
        return None
    b = base_field(name)
    return "quantitative" if b == "count" or b not in table else table.column(b).type


def recommend(table: Table, *, x: str | None = None, y: str | None = None, color: str | None = None,
              mark: str | None = None, column: str | None = None) -> ChartChoice:
    """Fill in whatever the user left open (mark, x, y, colour) from the table alone."""
    for name in (x, y, color, column):
        if name is not None and base_field(name) not in table and base_field(name) != "count":
            raise InputError(f"no column '{base_field(name)}' in the table (columns: {', '.join(table.names)})",
                             file=table.source)
    roles = _column_roles(table, {base_field(n) for n in (x, y, color, column) if n})
    ch = ChartChoice(mark=mark or "")
    ch.x, ch.y, ch.color, ch.column = x, y, color, column
    if not ch.mark and _choose_mark(table, ch, roles):
        return ch  # a histogram or category counts: nothing more to choose
    if ch.mark in ("line", "area"):
        _line_fields(table, ch, roles)
    elif ch.mark in ("bar", "boxplot"):
        _bar_fields(table, ch, roles)
    elif ch.mark in ("point", "circle", "square"):
        _scatter_fields(table, ch, roles)
    elif ch.mark == "rect":
        _heatmap_fields(ch, roles)
    return ch


def _column_roles(table: Table, used: set[str]) -> _Roles:
    cols = [c for c in table.columns if c.name not in used]
    replicate = next((c.name for c in table.columns if REPLICATE_NAMES.match(c.name)), None)
    temporal = [c for c in cols if c.type == "temporal"]
    steps = [c for c in cols if _is_step(c)]
    measures = [c for c in cols if c.type == "quantitative" and not _is_error(c.name) and c not in steps
                and c.name != replicate and not _is_index(c)]
    # quality metrics first (accuracy, score...), so they go on y
    measures.sort(key=lambda c: 0 if QUALITY_NAMES.search(c.name) else 1)
    identifiers = [c for c in cols if c.type == "nominal" and c.cardinality == table.n_rows and table.n_rows > 8]
    dims = [c for c in cols if c.type in ("nominal", "ordinal") and c.name != replicate
            and 1 < c.cardinality <= MAX_BAR_CATEGORIES and c not in identifiers]
    if not steps and not temporal:
        for c in measures:
            if len(measures) > 1 and _is_sweep(table, c, dims) is not None:
                steps = [c]
                measures = [m for m in measures if m is not c]
                break
    # integer columns with few values (layers, heads, k) can act as categories too
    dims += [c for c in measures if c.cardinality <= 6 and all(float(v).is_integer() for v in c.present)
             and c.name != replicate and len(measures) > 1 and c.cardinality < table.n_rows]
    measures = [c for c in measures if c not in dims]
    return _Roles(replicate, temporal, steps, measures, dims)


def _choose_mark(table: Table, ch: ChartChoice, roles: _Roles) -> bool:
    """Set ``ch.mark`` from the columns; True when that already settles every field (a histogram,
    category counts)."""
    replicate, temporal, steps = roles.replicate, roles.temporal, roles.steps
    measures, dims = roles.measures, roles.dims
    tx, ty = _type_of(table, ch.x), _type_of(table, ch.y)
    if tx and ty:
        disc = ("nominal", "ordinal")
        if tx in disc and ty in disc:
            ch.mark = "rect"
        elif tx in disc or ty in disc:
            ch.mark = "bar"
        elif tx == "temporal" or (ch.x and _is_step(table.column(base_field(ch.x)))):
            ch.mark = "line"
        else:
            ch.mark = "point"
        ch.reasons.append(f"{tx} x and {ty} y")
    elif (temporal or steps) and (measures or ch.y) and not (ch.x and _type_of(table, ch.x) in ("nominal", "ordinal")):
        ch.mark = "line"
        ch.reasons.append(f"'{(temporal or steps)[0].name}' is a step/time column or a swept setting")
    elif (dims or (ch.x and _type_of(table, ch.x) in ("nominal", "ordinal"))) and (measures or ch.y):
        d0 = table.column(base_field(ch.x)) if ch.x and _type_of(table, ch.x) in ("nominal", "ordinal") else dims[0]
        m0 = ch.y or measures[0].name
        others = [d for d in dims if d.name != d0.name]
        if len(measures) >= 2 and not replicate and ch.y is None and _rows_per_group(table, [d0.name]) > 1 \
                and not (ch.x and _type_of(table, ch.x) in ("nominal", "ordinal")):
            ch.mark = "point"
            ch.reasons.append(f"several metrics per row and several rows per '{d0.name}' (entities, not seeds): "
                              "a scatter coloured by it")
        elif others and d0.cardinality > 6 and others[0].cardinality > 6 \
                and _rows_per_group(table, [d0.name, others[0].name]) <= 1.0:
            ch.mark = "rect"
            ch.reasons.append(f"two many-valued categories ('{d0.name}', '{others[0].name}') with one value each")
        elif not replicate and _rows_per_group(table, [d0.name]) >= 5 and not _error_column_for(table, m0) \
                and not (others and _rows_per_group(table, [d0.name, others[0].name]) < 2):
            ch.mark = "boxplot"
            ch.reasons.append(f"many '{base_field(m0)}' values per '{d0.name}' (a distribution)")
        else:
            ch.mark = "bar"
            ch.reasons.append(f"categories ('{d0.name}') and a metric ('{base_field(m0)}')")
    elif len(measures) >= 2 or (ch.x and ch.y):
        ch.mark = "point"
        ch.reasons.append("two metrics")
    elif measures or dims:  # one column to count: a histogram of a metric, else counts of a category
        col = (measures or dims)[0].name
        ch.mark, ch.x, ch.y = "bar", ch.x or col, ch.y or "count()"
        ch.reasons.append(f"one metric ('{col}'): a histogram" if measures else f"only categories: counts of '{col}'")
        return True
    else:
        raise InputError("found no column to chart (need a number column or a category column)", file=table.source)
    return False


def _line_fields(table: Table, ch: ChartChoice, roles: _Roles) -> None:
    """Lines: the step or time column on x, a metric on y, a line per category, mean ± sd over repeats, log axes."""
    replicate, temporal, steps = roles.replicate, roles.temporal, roles.steps
    measures, dims = roles.measures, roles.dims
    ch.x = ch.x or ((temporal or steps)[0].name if (temporal or steps) else _take(ch, measures) or _take(ch, dims))
    ch.y = ch.y or _take(ch, measures)
    if ch.color is None:
        small = [d for d in dims if d.cardinality <= MAX_COLOR_CATEGORIES]
        ch.color = _take(ch, small)
    if ch.column is None:
        ch.column = _take(ch, [d for d in dims if d.cardinality <= MAX_FACETS])
    group = [n for n in (ch.x, ch.color, ch.column) if n]
    if _rows_per_group(table, [base_field(g) for g in group]) > 1.0:
        ch.aggregate = "mean"
        ch.error = ch.error or "stdev"
        ch.reasons.append(f"{'seeds' if replicate else 'several rows'} per point: mean ± sd band")
    else:
        err = _error_column_for(table, base_field(ch.y)) if ch.y else None
        if err:
            ch.error = err
            ch.reasons.append(f"band from '{err}'")
    ycol = table.column(base_field(ch.y)) if ch.y and base_field(ch.y) in table else None
    if ycol is not None and ch.yscale is None and _positive_span(ycol) >= (20 if LOSS_NAMES.search(ycol.name) else 100):
        ch.yscale = "log"
        ch.reasons.append(f"'{ycol.name}' spans {_positive_span(ycol):.0f}×: log y")
    xcol = table.column(base_field(ch.x)) if ch.x and base_field(ch.x) in table else None
    if xcol is not None and xcol.type == "quantitative" and ch.xscale is None and not _is_step(xcol) \
            and _positive_span(xcol) >= (16 if xcol.cardinality <= 20 else 1000):
        ch.xscale = "log"
        ch.reasons.append(f"'{xcol.name}' spans {_positive_span(xcol):.0f}×: log x")


def _bar_fields(table: Table, ch: ChartChoice, roles: _Roles) -> None:
    """Bars and boxes: a category on x, a metric (or counts) on y, colour and facets, error bars."""
    replicate, measures, dims = roles.replicate, roles.measures, roles.dims
    if ch.x is None or ch.y is None:
        cat = ch.x if ch.x and _type_of(table, ch.x) in ("nominal", "ordinal") else None
        cat = cat or _take(ch, dims)
        val = ch.y or (ch.x if ch.x and ch.x != cat else None) or _take(ch, measures)
        ch.x, ch.y = cat, val
    if ch.x is None:
        raise InputError("a bar chart needs a category column", file=table.source)
    if ch.y is None:
        ch.y = "count()"
    if ch.color is None:
        ch.color = _take(ch, [d for d in dims if d.cardinality <= MAX_COLOR_CATEGORIES])
    if ch.column is None and ch.color is not None:
        ch.column = _take(ch, [d for d in dims if d.cardinality <= MAX_FACETS])
    xcol = table.column(base_field(ch.x)) if base_field(ch.x) in table else None
    if xcol is not None and xcol.type in ("nominal", "ordinal"):
        long_labels = sum(len(str(v)) for v in xcol.distinct()) / max(1, xcol.cardinality) > 14
        if xcol.cardinality > 12 or (long_labels and xcol.cardinality >= 3):
            ch.horizontal = True
            ch.reasons.append("many or long category labels: horizontal bars")
    if ch.mark == "bar" and ch.y != "count()":
        group = [n for n in (ch.x, ch.color, ch.column) if n]
        err = _error_column_for(table, base_field(ch.y))
        if _rows_per_group(table, [base_field(g) for g in group]) > 1.0:
            ch.aggregate = "mean"
            ch.error = ch.error or "stdev"
            ch.reasons.append(f"{'seeds' if replicate else 'several rows'} per bar: mean ± sd")
        elif err:
            ch.error = ch.error or err
            ch.reasons.append(f"error bars from '{err}'")


def _scatter_fields(table: Table, ch: ChartChoice, roles: _Roles) -> None:
    """Scatters: a cost-like metric on x, a quality metric on y, coloured by a category, log axes."""
    measures, dims = roles.measures, roles.dims
    if ch.x is None or ch.y is None:
        pool = [c for c in measures if c.name not in (ch.x, ch.y)]
        cost = sorted((c for c in pool if COST_NAMES.search(c.name)),
                      key=lambda c: _cost_rank(c.name))
        if ch.x is None:
            pick = (cost or pool)
            ch.x = pick[0].name if pick else None
            pool = [c for c in pool if c.name != ch.x]
        if ch.y is None:
            ch.y = pool[0].name if pool else None
    if ch.x is None or ch.y is None:
        raise InputError("a scatter plot needs two number columns", file=table.source)
    if ch.color is None:
        ch.color = _take(ch, [d for d in dims if d.cardinality <= MAX_COLOR_CATEGORIES])
    for axis in ("x", "y"):
        col = table.column(base_field(getattr(ch, axis)))
        if _positive_span(col) >= 300 and getattr(ch, f"{axis}scale") is None:
            setattr(ch, f"{axis}scale", "log")
            ch.reasons.append(f"'{col.name}' spans {_positive_span(col):.0f}×: log {axis}")


def _heatmap_fields(ch: ChartChoice, roles: _Roles) -> None:
    """Heatmaps: two categories, coloured by a metric (or counts)."""
    measures, dims = roles.measures, roles.dims
    if ch.x is None:
        ch.x = _take(ch, dims)
    if ch.y is None:
        ch.y = _take(ch, dims)
    if ch.color is None:
        ch.color = _take(ch, measures) or "count()"




def _cost_rank(name: str) -> int:
    """Latency before time before size: the usual x of a cost/quality trade-off plot."""
    order = ("latency", "time", "ms", "sec", "seconds", "flops", "macs", "params", "parameters", "memory", "mem",
             "cost", "size", "energy", "gpu", "throughput")
    low = name.lower()
    return min((i for i, w in enumerate(order) if w in low), default=len(order))


def base_field(name: str) -> str:
    """'mean(accuracy)' → 'accuracy'; 'accuracy:Q' → 'accuracy'; 'count()' → 'count'."""
    m = re.match(r"^\s*(\w+)\((.*)\)\s*$", name)
    if m:
        return m.group(2).strip() or m.group(1)
    return name.rsplit(":", 1)[0] if re.search(r":[QNOTqnot]$", name) else name


__all__ = ["ChartChoice", "recommend"]
