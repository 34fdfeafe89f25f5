"""Chart examples: a table schema and a one-line request -> one chart statement."""

from __future__ import annotations

import random

from crafter.llm.corpus.phrasings import CHART_TITLES, COLOR_BY, MARKS, sentence_case
from crafter.llm.corpus.vocabulary import pseudo_word
from crafter.spec import Chart, Figure, print_dsl

MEASURES = """accuracy loss latency throughput f1 recall precision perplexity energy temperature
pressure yield concentration absorbance expression fluorescence voltage current frequency
wavelength intensity runtime memory cost error speedup reward count density viscosity""".split()
DIMENSIONS = """model method dataset epoch step batch_size layer species strain sample condition
treatment gene protein material solvent catalyst site device node region cohort day year
seed optimizer backbone task split""".split()
TEMPORAL = ["epoch", "step", "day", "year", "time", "iteration"]


def _field_name(rng: random.Random, pool: list[str], split: str) -> str:
    name = rng.choice(pool)
    if rng.random() < 0.3:
        name = name + "_" + rng.choice(["mean", "avg", "score", "ms", "pct", "total"])
    if split == "train" and rng.random() < 0.3:
        name = pseudo_word(random.Random(rng.random())) + ("_" + name if rng.random() < 0.5 else "")
    if split != "train":
        name = name + "_" + rng.choice(["val", "obs", "run"])
    return name


def chart_example(rng: random.Random, split: str) -> tuple[str, str, str]:
    """(schema text, brief, target DSL of one chart component)."""
    mark = rng.choice(list(MARKS[split]))
    y = _field_name(rng, MEASURES, split)
    x = rng.choice(TEMPORAL) if mark in ("line", "area") and rng.random() < 0.6 else _field_name(rng, DIMENSIONS, split)
    if mark == "point" and rng.random() < 0.5:
        x = _field_name(rng, MEASURES, split)
    xtype = "temporal" if x in TEMPORAL and rng.random() < 0.3 else (
        "quantitative" if mark in ("point", "line", "area") and (x in TEMPORAL or x.split("_")[0] in MEASURES)
        else "nominal")
    cols = {x: xtype, y: "quantitative"}
    color = None
    if rng.random() < 0.4:
        color = _field_name(rng, DIMENSIONS, split)
        if color in cols:
            color = None
        else:
            cols[color] = "nominal"
    for _ in range(rng.randint(0, 2)):  # distractor columns
        extra = _field_name(rng, rng.choice([MEASURES, DIMENSIONS]), split)
        cols.setdefault(extra, "quantitative" if extra.split("_")[0] in MEASURES else "nominal")
    items = list(cols.items())
    rng.shuffle(items)
    table = rng.choice(["results", "runs", "measurements", "data", "table"]) + rng.choice([".csv", ".xlsx", ""])
    schema = f"table {table}: " + ", ".join(f"{c} ({t})" for c, t in items)
    brief = rng.choice(MARKS[split][mark]).format(x=x, y=y)
    if color:
        brief += rng.choice(COLOR_BY[split]).format(c=color)
    title = None
    if rng.random() < 0.4:
        title = f"{sentence_case(y.replace('_', ' '))} by {x.replace('_', ' ')}"
        brief += rng.choice(CHART_TITLES[split]).format(t=title)
    brief = sentence_case(brief)
    enc = {"x": {"field": x, "type": xtype}, "y": {"field": y, "type": "quantitative"}}
    if mark == "bar" and rng.random() < 0.0:
        pass
    if color:
        enc["color"] = {"field": color, "type": "nominal"}
    chart = Chart(kind="chart", id="c1", title=title, spec={"mark": mark, "encoding": enc})
    return schema, brief, print_dsl(Figure(components=[chart]))
