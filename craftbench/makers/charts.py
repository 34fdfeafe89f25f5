"""Charts drawn by the makers' own tools: Vega-Lite (Altair + vl-convert), ggplot2's grammar (plotnine),
matplotlib across its styles, and a plotly look (matplotlib with plotly's #E5ECF6 panel and white grid;
plotly + kaleido need a browser download this machine cannot make).

Each figure's data is random (series names, values, categories, sizes, themes, 1x / 2x pixel density),
so a fix that reads them reads a class of charts, not one figure. The truth is the data itself, in the
real-figure set's schema (``crafteditor.realset``): a dozen ``[series, x, y]`` values, the value axis's
range as the tool drew it (matplotlib's and plotnine's limits; Vega-Lite's "nice" zero-based domain
recomputed), ``value_scale`` "log" on log axes, and the words we wrote (titles, axis titles, legend
entries, categories; the tools' own tick labels are not listed). Series of a faceted chart are named by
panel, '(a) name', in reading order, as the real set names them.
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image

KINDS = ("line", "line-markers", "scatter", "bar-grouped", "bar-stacked", "bar-h", "log", "pow2", "errorbar",
         "hist-step", "area", "heatmap", "facets", "pie", "histogram", "box")
MAKER_KINDS = ("vega-altair", "ggplot2", "matplotlib", "plotly")
_WORDS = ("alpha", "beta", "gamma", "delta", "baseline", "ours", "control", "treated", "north", "south", "east",
          "west", "Adam", "SGD", "LAMB", "small", "medium", "large", "ResNet", "ViT", "GPT", "BERT", "train", "valid",
          "river", "forest", "desert", "urban", "rural", "apple", "pear", "plum", "cherry", "Lyon", "Oslo", "Kyoto",
          "Lima", "Cairo", "Perth", "Quebec")
_TITLES = ("Throughput by model", "Loss over training", "Yield per site", "Latency (ms)", "Energy use",
           "Accuracy vs. size", "Monthly sales", "Error rate", "Speed-up", "Memory footprint")
_XLABELS = ("Step", "Epoch", "Batch size", "Sequence length", "Year", "Temperature (°C)", "Iterations", "Dose")
_YLABELS = ("Loss", "Accuracy (%)", "Time (s)", "Count", "Throughput", "Value", "Score", "Memory (GB)")
_PLOTLY_COLOURS = ("#636EFA", "#EF553B", "#00CC96", "#AB63FA", "#FFA15A", "#19D3F3")
_MPL_STYLES = ("default", "ggplot", "bmh", "fivethirtyeight", "seaborn-v0_8-whitegrid", "seaborn-v0_8-darkgrid",
               "seaborn-v0_8-ticks", "seaborn-v0_8-paper", "grayscale", "dark_background", "Solarize_Light2",
               "classic", "tableau-colorblind10")
_ALTAIR_THEMES = ("default", "default", "default", "ggplot2", "fivethirtyeight", "dark", "quartz", "vox", "latimes",
                  "googlecharts", "powerbi", "excel")
_FONTLESS_THEMES = ("powerbi",)  # its fonts vl-convert lacks: drawn with a sans-serif fallback (_fonts_fall_back)
_GG_THEMES = ("theme_grey", "theme_grey", "theme_bw", "theme_minimal", "theme_classic", "theme_light", "theme_linedraw")


@dataclass
class Plot:
    """One chart's data, drawn the same by every maker: long rows ``(series, x, y, err)``."""

    kind: str
    title: str
    xlabel: str
    ylabel: str
    rows: list[tuple[str, Any, float, float]] = field(default_factory=list)
    categorical: bool = False  # x is a category (bars, powers of two, heatmap columns)
    log: bool = False
    legend: bool = True
    panels: int = 1  # facets: series '(a) name' ... one panel each
    samples: dict[str, list[float]] = field(default_factory=dict)  # histogram ('' -> data), box (category -> data)
    edges: list[float] = field(default_factory=list)  # a histogram's bin edges
    donut: bool = False  # a pie with a hole

    @property
    def series(self) -> list[str]:
        return list(dict.fromkeys(r[0] for r in self.rows))

    @property
    def xs(self) -> list[Any]:
        return list(dict.fromkeys(r[1] for r in self.rows))


def _names(rng: random.Random, k: int) -> list[str]:
    return rng.sample(_WORDS, k)


def _magnitude(rng: random.Random) -> float:
    return 10 ** rng.choice((-1, 0, 0, 1, 1, 2, 3))


def _round(v: float, scale: float) -> float:
    """A value rounded to three significant digits of its axis's scale (the truth stays exact)."""
    return round(v, max(0, 3 - int(math.floor(math.log10(scale)))))


def make_plot(rng: random.Random, kind: str) -> Plot:  # long: one branch per kind, each a few lines
    """Random data for one chart of ``kind``."""
    title = rng.choice(_TITLES) if rng.random() < 0.7 else ""
    p = Plot(kind, title, rng.choice(_XLABELS), rng.choice(_YLABELS))
    mag = _magnitude(rng)
    if kind in ("line", "line-markers", "area", "log", "errorbar", "hist-step"):
        n_series = 1 if kind in ("area", "hist-step") else rng.randint(1, 4)
        n = rng.randint(5, 14)
        x0, step = rng.choice((0, 1, 10, 100, 2000)), rng.choice((1, 2, 5, 10, 0.5))
        for name in _names(rng, n_series):
            y = rng.uniform(0.3, 1.0) * mag
            for i in range(n):
                if kind == "log":
                    y = 10 ** rng.uniform(-1, 4) if i == 0 else max(1e-2, y * 10 ** rng.uniform(-0.6, 0.6))
                elif kind == "hist-step":
                    y = float(rng.randint(0, 60)) * max(1, int(mag))
                else:
                    y = max(0.02 * mag, y + rng.uniform(-0.25, 0.25) * mag)
                err = rng.uniform(0.03, 0.12) * mag if kind == "errorbar" else 0.0
                p.rows.append((name, x0 + i * step, _round(y, mag) if kind != "log" else round(y, 3), err))
        p.log = kind == "log"
        p.legend = n_series > 1
    elif kind == "scatter":
        k = rng.randint(1, 3)
        for name in _names(rng, k):
            cx, cy = rng.uniform(0, 10), rng.uniform(0.2, 1.0) * mag
            for _ in range(rng.randint(6, 18)):
                p.rows.append((name, round(cx + rng.gauss(0, 2.5), 2), _round(abs(cy + rng.gauss(0, 0.3 * mag)), mag), 0.0))
        p.legend = k > 1
    elif kind in ("bar-grouped", "bar-stacked", "bar-h", "pow2"):
        cats = ([str(2 ** e) for e in range(rng.randint(4, 7), rng.randint(9, 13))] if kind == "pow2"
                else _names(rng, rng.randint(3, 6)))
        k = 1 if kind == "bar-h" and rng.random() < 0.5 else rng.randint(2, 3)
        for name in _names(rng, k):
            for c in cats:
                p.rows.append((name, c, _round(rng.uniform(0.1, 1.0) * mag, mag), 0.0))
        p.categorical = True
        p.legend = k > 1
    elif kind == "heatmap":
        cols, rows_ = _names(rng, rng.randint(3, 6)), _names(rng, rng.randint(3, 5))
        for r in rows_:
            for c in cols:
                p.rows.append((r, c, float(rng.randint(0, 99)), 0.0))
        p.categorical, p.legend = True, False
    elif kind == "facets":
        p.panels = rng.randint(2, 4)
        n, x0 = rng.randint(5, 10), rng.choice((0, 1, 10))
        # in the order ggplot2's facet_wrap and Vega-Lite's facet lay the panels out (by name), so
        # that '(a)' is the first panel read, as the real set names panels
        for k, name in enumerate(sorted(_names(rng, p.panels))):
            y = rng.uniform(0.3, 1.0) * mag
            for i in range(n):
                y = max(0.02 * mag, y + rng.uniform(-0.25, 0.25) * mag)
                p.rows.append((f"({chr(97 + k)}) {name}", x0 + i, _round(y, mag), 0.0))
        p.legend = False
    elif kind in ("pie", "histogram", "box"):
        _distribution(rng, p, mag)
    else:
        raise ValueError(f"unknown chart kind {kind!r}")
    return p


def _quartiles(data: list[float]) -> tuple[float, float, float]:
    """Q1, median, Q3 by linear interpolation (numpy's default, R's type 7, Vega's and ggplot2's)."""
    d = sorted(data)

    def q(f: float) -> float:
        at = f * (len(d) - 1)
        lo = int(math.floor(at))
        return d[lo] + (d[min(lo + 1, len(d) - 1)] - d[lo]) * (at - lo)

    return q(0.25), q(0.5), q(0.75)


def _distribution(rng: random.Random, p: Plot, mag: float) -> None:
    """A pie's slices (truth: each slice's share in %, series 'share'), a histogram's bins (truth: each
    bin's count at its centre, series 'count'), a box plot's boxes (truth: 'box median', 'box Q1',
    'box Q3' per category, as the real set records boxes)."""
    if p.kind == "pie":
        cats = _names(rng, rng.randint(3, 6))
        weights = [rng.uniform(1, 10) for _ in cats]
        total = sum(weights)
        for c, w in zip(cats, weights):
            p.rows.append(("share", c, round(100 * w / total, 2), 0.0))
        p.categorical, p.legend, p.donut = True, True, rng.random() < 0.4
        p.xlabel = p.ylabel = ""
    elif p.kind == "histogram":
        n_bins = rng.randint(6, 16)
        width = rng.choice((0.5, 1, 2, 5, 10)) * max(1.0, mag / 10)
        start = rng.choice((0, 0, 10, 100)) * max(1.0, mag / 10)
        p.edges = [start + i * width for i in range(n_bins + 1)]
        centre, sd = start + width * n_bins * rng.uniform(0.35, 0.65), width * n_bins * rng.uniform(0.12, 0.25)
        data = [x for x in (rng.gauss(centre, sd) for _ in range(rng.randint(80, 600))) if p.edges[0] < x < p.edges[-1]]
        # off the edges, so every tool bins a value alike
        data = [x if abs((x - start) / width - round((x - start) / width)) > 1e-3 else x + width / 100 for x in data]
        p.samples = {"": data}
        for i in range(n_bins):
            count = sum(p.edges[i] <= x < p.edges[i + 1] for x in data)
            p.rows.append(("count", round((p.edges[i] + p.edges[i + 1]) / 2, 6), float(count), 0.0))
        p.ylabel, p.legend = "Count", False
    else:
        cats = _names(rng, rng.randint(3, 5))
        for c in cats:
            mu, sd = rng.uniform(0.3, 1.0) * mag, rng.uniform(0.05, 0.2) * mag
            data = [round(rng.gauss(mu, sd), 4) for _ in range(rng.randint(15, 60))]
            p.samples[c] = data
            q1, med, q3 = _quartiles(data)
            p.rows += [("box median", c, round(med, 6), 0.0), ("box Q1", c, round(q1, 6), 0.0),
                       ("box Q3", c, round(q3, 6), 0.0)]
        p.categorical, p.legend = True, False


def _nice_domain(lo: float, hi: float, zero: bool = True) -> tuple[float, float]:
    """Vega-Lite's default quantitative domain: zero included (bars, lines), rounded out to a nice step."""
    if zero:
        lo, hi = min(lo, 0.0), max(hi, 0.0)
    span = (hi - lo) or 1.0
    raw = span / 5
    base = 10 ** math.floor(math.log10(raw))
    step = next(base * m for m in (1, 2, 5, 10) if base * m >= raw)
    return math.floor(lo / step) * step, math.ceil(hi / step) * step


def _truth_values(rng: random.Random, p: Plot, k: int = 12) -> list[list[Any]]:
    rows = list(p.rows)
    if p.kind == "bar-stacked":  # the segments' own values, and the stacks' totals
        totals: dict[Any, float] = {}
        for _, x, y, _e in rows:
            totals[x] = totals.get(x, 0.0) + y
        rows += [("total", x, round(t, 6), 0.0) for x, t in totals.items()]
    picked = rng.sample(rows, min(k, len(rows)))
    return [[s, x, y] for s, x, y, _ in picked]


def _words(p: Plot) -> str:
    words = [p.title, p.xlabel if p.kind != "heatmap" else "", p.ylabel if p.kind != "heatmap" else ""]
    if p.kind in ("pie", "box"):
        words += [str(x) for x in p.xs]
        return " ".join(w for w in words if w)
    if (p.legend or p.kind == "heatmap") and p.kind != "histogram":
        words += p.series
    if p.panels > 1:
        words += [s.split(") ", 1)[1] for s in p.series]
    if p.categorical:
        words += [str(x) for x in p.xs]
    return " ".join(w for w in words if w)


# ---------------------------------------------------------------- Vega-Lite (Altair + vl-convert)


def _fonts_fall_back(spec: str, vlc: Any) -> str:
    """The spec with its theme's fonts given a sans-serif fallback: powerbi names 'Segoe UI' (and 'wf_standard-font')
    alone, which vl-convert does not have, and drew no text at all here (found by round 24's vega24 lane), where a
    browser falls back to sans-serif. The theme goes into the spec's own config; other themes pass unchanged."""
    data = json.loads(spec)
    theme = data.get("usermeta", {}).get("embedOptions", {}).get("theme")
    if theme not in _FONTLESS_THEMES:
        return spec

    def fall_back(o: Any) -> Any:
        if isinstance(o, dict):
            return {k: (f"{v}, sans-serif" if isinstance(v, str) and k.lower().endswith("font") else fall_back(v))
                    for k, v in o.items()}
        return [fall_back(v) for v in o] if isinstance(o, list) else o

    def merged(a: dict, b: dict) -> dict:
        out = dict(a)
        for k, v in b.items():
            out[k] = merged(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
        return out

    data["config"] = merged(fall_back(vlc.get_themes()[theme]), data.get("config", {}))
    data["usermeta"]["embedOptions"].pop("theme")
    return json.dumps(data)


def _altair(p: Plot, path: Path, rng: random.Random, scale: int) -> tuple[float, float] | None:  # long: one chart per kind
    import altair as alt  # heavy: Altair and pandas load only when charts are drawn
    import pandas as pd  # heavy: see above
    import vl_convert as vlc  # heavy: the Vega-Lite renderer (Deno)

    theme = rng.choice(_ALTAIR_THEMES)
    df = pd.DataFrame(p.rows, columns=["series", "x", "y", "err"])
    df["lo"], df["hi"] = df.y - df.err, df.y + df.err
    w, h = rng.randint(260, 520), rng.randint(180, 340)
    xt = "x:O" if p.categorical else "x:Q"
    ytitle, xtitle = p.ylabel, p.xlabel
    colour = alt.Color("series:N", title=None) if p.legend else alt.Undefined
    yscale = alt.Scale(type="log") if p.log else alt.Undefined
    base = alt.Chart(df)
    zero = True
    if p.kind in ("line", "line-markers", "log", "hist-step"):
        mark = base.mark_line(point=p.kind == "line-markers", interpolate="step" if p.kind == "hist-step" else "linear")
        chart = mark.encode(x=alt.X(xt, title=xtitle), y=alt.Y("y:Q", title=ytitle, scale=yscale), color=colour)
    elif p.kind == "area":
        chart = base.mark_area(opacity=0.7, line=True).encode(x=alt.X(xt, title=xtitle), y=alt.Y("y:Q", title=ytitle))
    elif p.kind == "scatter":
        chart = base.mark_point(filled=rng.random() < 0.5, size=50).encode(
            x=alt.X(xt, title=xtitle), y=alt.Y("y:Q", title=ytitle), color=colour)
        zero = True
    elif p.kind == "errorbar":
        enc = {"x": alt.X(xt, title=xtitle), "color": colour}
        chart = (base.mark_line(point=True).encode(y=alt.Y("y:Q", title=ytitle), **enc)
                 + base.mark_errorbar().encode(y=alt.Y("lo:Q", title=ytitle), y2="hi:Q", **enc))
    elif p.kind in ("bar-grouped", "pow2"):
        chart = base.mark_bar().encode(x=alt.X("x:N", title=xtitle, sort=None), xOffset="series:N",
                                       y=alt.Y("y:Q", title=ytitle), color=colour)
    elif p.kind == "bar-stacked":
        chart = base.mark_bar().encode(x=alt.X("x:N", title=xtitle, sort=None), y=alt.Y("y:Q", title=ytitle),
                                       color=colour)
    elif p.kind == "bar-h":
        enc = {"yOffset": "series:N"} if p.legend else {}
        chart = base.mark_bar().encode(y=alt.Y("x:N", title=xtitle, sort=None), x=alt.X("y:Q", title=ytitle),
                                       color=colour, **enc)
    elif p.kind == "heatmap":
        cells = base.encode(x=alt.X("x:N", title=None, sort=None), y=alt.Y("series:N", title=None, sort=None))
        chart = (cells.mark_rect().encode(color=alt.Color("y:Q", title=None))
                 + cells.mark_text(baseline="middle").encode(text="y:Q"))
    elif p.kind == "facets":
        chart = base.mark_line(point=rng.random() < 0.5).encode(
            x=alt.X(xt, title=xtitle), y=alt.Y("y:Q", title=ytitle)).properties(width=w // 2, height=h // 2).facet(
            facet=alt.Facet("series:N", title=None), columns=2)
    elif p.kind in ("pie", "histogram", "box"):
        chart, zero = _altair_distribution(alt, pd, p, rng), p.kind == "histogram"
    else:
        raise ValueError(p.kind)
    if p.kind != "facets":
        chart = chart.properties(width=w, height=h)
    if p.title:
        chart = chart.properties(title=p.title)
    with alt.theme.enable(theme):
        spec = chart.to_json()
    path.write_bytes(vlc.vegalite_to_png(_fonts_fall_back(spec, vlc), scale=scale))
    ys = [r[2] - r[3] for r in p.rows] + [r[2] + r[3] for r in p.rows]
    if p.kind == "pie":
        return 0.0, 100.0
    if p.kind == "box":  # the whiskers and outliers too
        ys = [v for d in p.samples.values() for v in d]
    if p.kind == "bar-stacked":
        ys += [sum(r[2] for r in p.rows if r[1] == x) for x in p.xs]
    if p.log or p.kind == "heatmap":
        return None
    return _nice_domain(min(ys), max(ys), zero)


def _altair_distribution(alt: Any, pd: Any, p: Plot, rng: random.Random) -> Any:
    """A pie or donut (arc marks), a binned histogram (count of a binned field), a box plot."""
    if p.kind == "pie":
        df = pd.DataFrame([(r[1], r[2]) for r in p.rows], columns=["cat", "v"])
        arc = alt.Chart(df).mark_arc(innerRadius=rng.choice((40, 60)) if p.donut else 0)
        return arc.encode(theta="v:Q", color=alt.Color("cat:N", title=None, sort=None))
    if p.kind == "histogram":
        df = pd.DataFrame({"v": p.samples[""]})
        step = p.edges[1] - p.edges[0]
        binned = alt.Bin(extent=[p.edges[0], p.edges[-1]], step=step)
        return alt.Chart(df).mark_bar().encode(x=alt.X("v:Q", bin=binned, title=p.xlabel),
                                               y=alt.Y("count():Q", title=p.ylabel))
    df = pd.DataFrame([(c, v) for c, d in p.samples.items() for v in d], columns=["cat", "v"])
    return alt.Chart(df).mark_boxplot(extent=1.5).encode(x=alt.X("cat:N", title=p.xlabel, sort=None),
                                                         y=alt.Y("v:Q", title=p.ylabel))


# ---------------------------------------------------------------- matplotlib (its styles, and the plotly look)


def _mpl_draw(ax: Any, p: Plot, rows: list[tuple[str, Any, float, float]], colours: list[str] | None,
              rng: random.Random) -> None:  # long: one drawing per kind
    names = list(dict.fromkeys(r[0] for r in rows))
    kw = (lambda i: {"color": colours[i % len(colours)]}) if colours else (lambda i: {})
    if p.kind in ("line", "line-markers", "log", "area", "errorbar", "hist-step", "facets", "scatter"):
        for i, s in enumerate(names):
            xs = [r[1] for r in rows if r[0] == s]
            ys = [r[2] for r in rows if r[0] == s]
            label = s.split(") ", 1)[-1]
            if p.kind == "scatter":
                ax.scatter(xs, ys, label=label, s=rng.choice((12, 25, 40)), **kw(i))
            elif p.kind == "errorbar":
                ax.errorbar(xs, ys, yerr=[r[3] for r in rows if r[0] == s], label=label, capsize=3, marker="o", **kw(i))
            elif p.kind == "hist-step":
                ax.step(xs, ys, where="mid", label=label, **kw(i))
            else:
                ax.plot(xs, ys, label=label, marker="o" if p.kind == "line-markers" else None, **kw(i))
                if p.kind == "area":
                    ax.fill_between(xs, ys, alpha=0.35, **kw(i))
        if p.log:
            ax.set_yscale("log")
    elif p.kind in ("bar-grouped", "pow2", "bar-h", "bar-stacked"):
        cats = list(dict.fromkeys(r[1] for r in rows))
        width = 0.8 / (1 if p.kind == "bar-stacked" else len(names))
        bottom = [0.0] * len(cats)
        for i, s in enumerate(names):
            vals = [next(r[2] for r in rows if r[0] == s and r[1] == c) for c in cats]
            if p.kind == "bar-stacked":
                ax.bar(range(len(cats)), vals, width, bottom=bottom, label=s, **kw(i))
                bottom = [b + v for b, v in zip(bottom, vals)]
                continue
            pos = [j - 0.4 + width * (i + 0.5) for j in range(len(cats))]
            (ax.barh if p.kind == "bar-h" else ax.bar)(pos, vals, width, label=s, **kw(i))
        (ax.set_yticks if p.kind == "bar-h" else ax.set_xticks)(range(len(cats)), cats)
        if p.kind == "bar-h":
            ax.invert_yaxis()
    elif p.kind == "heatmap":
        cols = list(dict.fromkeys(r[1] for r in rows))
        m = [[next(r[2] for r in rows if r[0] == s and r[1] == c) for c in cols] for s in names]
        ax.imshow(m, cmap=rng.choice(("viridis", "Blues", "magma", "YlGnBu")), aspect="auto")
        ax.set_xticks(range(len(cols)), cols)
        ax.set_yticks(range(len(names)), names)
        for a, row in enumerate(m):
            for b, v in enumerate(row):
                ax.text(b, a, f"{v:g}", ha="center", va="center", color="w" if v < 50 else "k", fontsize=8)
        ax.grid(False)
    elif p.kind in ("pie", "histogram", "box"):
        _mpl_distribution(ax, p, colours, rng)


def _mpl_distribution(ax: Any, p: Plot, colours: list[str] | None, rng: random.Random) -> None:
    """A pie or donut (labels on the slices or a legend, shares printed or not), a histogram (filled,
    step-filled or a step outline), a box plot."""
    if p.kind == "pie":
        cats, vals = [r[1] for r in p.rows], [r[2] for r in p.rows]
        labelled = rng.random() < 0.5
        wedge = {"width": 0.45, "edgecolor": "white"} if p.donut else {"edgecolor": "white"}
        ax.pie(vals, labels=cats if labelled else None, colors=colours[:len(vals)] if colours else None,
               autopct="%1.1f%%" if rng.random() < 0.5 else None, startangle=rng.choice((0, 90)),
               counterclock=rng.random() < 0.5, wedgeprops=wedge)
        ax.set_aspect("equal")
        p.legend = not labelled  # (read by _matplotlib: a legend names the slices)
    elif p.kind == "histogram":
        histtype = rng.choice(("bar", "stepfilled", "step"))
        ax.hist(p.samples[""], bins=p.edges, histtype=histtype, color=colours[0] if colours else None,
                edgecolor="white" if histtype == "bar" and rng.random() < 0.5 else None, linewidth=1)
    else:
        ax.boxplot(list(p.samples.values()), tick_labels=list(p.samples), whis=1.5)


def _matplotlib(p: Plot, path: Path, rng: random.Random, scale: int, plotly: bool) -> tuple[float, float] | None:
    import matplotlib  # heavy: matplotlib loads only when charts are drawn

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # heavy: see above

    style = "default" if plotly else rng.choice(_MPL_STYLES)
    with plt.style.context(style):
        size = (rng.uniform(5, 8), rng.uniform(3.5, 5))
        if p.panels > 1:
            cols = 2 if p.panels > 2 else rng.choice((1, 2))
            fig, axes = plt.subplots((p.panels + cols - 1) // cols, cols, figsize=size, squeeze=False, sharex=True)
            axes = [a for row in axes for a in row]
            for a in axes[p.panels:]:
                a.set_visible(False)
        else:
            fig, ax = plt.subplots(figsize=size)
            axes = [ax]
        colours = list(_PLOTLY_COLOURS) if plotly else None
        groups = [[r for r in p.rows if r[0] == s] for s in p.series] if p.panels > 1 else [p.rows]
        for ax, rows in zip(axes, groups):
            _mpl_draw(ax, p, rows, colours, rng)
            if plotly:
                _plotly_look(ax, grid=p.kind != "heatmap")
            if p.panels > 1:
                ax.set_title(rows[0][0].split(") ", 1)[1], fontsize=10)
            elif p.kind not in ("heatmap", "pie"):
                ax.set_xlabel(p.ylabel if p.kind == "bar-h" else p.xlabel)
                ax.set_ylabel(p.xlabel if p.kind == "bar-h" else p.ylabel)
        if p.legend and p.kind == "pie":
            axes[0].legend([r[1] for r in p.rows], loc="center left", bbox_to_anchor=(1.0, 0.5), frameon=not plotly)
        elif p.legend:
            kw = {"loc": "upper left", "bbox_to_anchor": (1.01, 1.0), "frameon": False} if plotly else {}
            axes[0].legend(**kw)
        if p.title:
            fig.suptitle(p.title) if p.panels > 1 else axes[0].set_title(p.title)
        if p.panels > 1:  # the axis titles the truth lists, once for the grid
            fig.supxlabel(p.xlabel, fontsize=10)
            fig.supylabel(p.ylabel, fontsize=10)
        fig.tight_layout()
        fig.savefig(path, dpi=100 * scale, facecolor="white" if plotly else fig.get_facecolor())
        lim = axes[0].get_xlim() if p.kind == "bar-h" else axes[0].get_ylim()
        plt.close(fig)
    if p.kind == "pie":
        return 0.0, 100.0
    return None if p.kind == "heatmap" else (min(lim), max(lim))


def _plotly_look(ax: Any, grid: bool = True) -> None:
    """Plotly's default template: a #E5ECF6 panel, white gridlines, no frame, no ticks."""
    ax.set_facecolor("#E5ECF6")
    if grid:  # (grid(False, color=…) turns it on: keywords set it visible)
        ax.grid(True, color="white", linewidth=1.2)
    ax.set_axisbelow(True)
    for side in ax.spines.values():
        side.set_visible(False)
    ax.tick_params(length=0, colors="#2a3f5f")


# ---------------------------------------------------------------- ggplot2's grammar (plotnine)


def _plotnine(p: Plot, path: Path, rng: random.Random, scale: int) -> tuple[float, float] | None:  # long: one geom per kind
    import pandas as pd  # heavy: pandas loads only when charts are drawn
    import plotnine as gg  # heavy: plotnine (matplotlib underneath)

    df = pd.DataFrame(p.rows, columns=["series", "x", "y", "err"])
    df["lo"], df["hi"] = df.y - df.err, df.y + df.err
    if p.categorical:
        df["x"] = pd.Categorical(df.x.astype(str), categories=[str(x) for x in p.xs])
        df["series"] = pd.Categorical(df.series, categories=p.series)
    colour = "series" if p.legend else None
    aes = gg.aes(x="x", y="y", colour=colour) if colour else gg.aes(x="x", y="y")
    fill = gg.aes(x="x", y="y", fill="series")
    g = gg.ggplot(df)
    if p.kind in ("line", "line-markers", "log", "facets"):
        g += gg.geom_line(aes, size=0.8)
        if p.kind == "line-markers" or (p.kind == "facets" and rng.random() < 0.5):
            g += gg.geom_point(aes)
    elif p.kind == "hist-step":
        g += gg.geom_step(aes, direction="mid")
    elif p.kind == "area":
        g += gg.geom_area(gg.aes(x="x", y="y"), alpha=0.6, fill="steelblue")
    elif p.kind == "scatter":
        g += gg.geom_point(aes, size=rng.choice((1.5, 2.5, 3.5)))
    elif p.kind == "errorbar":
        g += gg.geom_line(aes)
        g += gg.geom_point(aes)
        g += gg.geom_errorbar(gg.aes(x="x", ymin="lo", ymax="hi", colour=colour) if colour
                              else gg.aes(x="x", ymin="lo", ymax="hi"), width=0.3)
    elif p.kind in ("bar-grouped", "pow2", "bar-h"):
        g += gg.geom_col(fill if p.legend else gg.aes(x="x", y="y"), position="dodge")
        if p.kind == "bar-h":
            g += gg.coord_flip()
    elif p.kind == "bar-stacked":
        g += gg.geom_col(fill, position=gg.position_stack(reverse=True))
    elif p.kind == "heatmap":
        df["label"] = df.y.map(lambda v: f"{v:g}")
        g = gg.ggplot(df, gg.aes(x="x", y="series", fill="y")) + gg.geom_tile() + gg.geom_text(gg.aes(label="label"))
    elif p.kind == "histogram":
        g = gg.ggplot(pd.DataFrame({"v": p.samples[""]})) + gg.geom_histogram(
            gg.aes(x="v"), breaks=p.edges, fill=rng.choice(("#595959", "steelblue", "#F8766D")),  # #595959: R's grey35
            colour=rng.choice(("white", "black", None)))
    elif p.kind == "box":
        box = pd.DataFrame([(c, v) for c, d in p.samples.items() for v in d], columns=["cat", "v"])
        box["cat"] = pd.Categorical(box.cat, categories=list(p.samples))
        g = gg.ggplot(box) + gg.geom_boxplot(gg.aes(x="cat", y="v"))
    if p.log:
        g += gg.scale_y_log10()
    if p.kind == "facets":
        g += gg.facet_wrap("series", ncol=2)
    g += getattr(gg, rng.choice(_GG_THEMES))()
    g += gg.labs(title=p.title or None, x=p.xlabel if p.kind != "heatmap" else "",
                 y=p.ylabel if p.kind != "heatmap" else "", colour="", fill="")
    if p.kind == "facets":  # strips read 'name', not '(a) name'
        df["series"] = pd.Categorical(df.series.str.split(") ", n=1, regex=False).str[1])
        g.data = df
    g += gg.theme(figure_size=(rng.uniform(5, 7.5), rng.uniform(3.5, 5)), dpi=100 * scale)
    fig = g.draw()
    fig.savefig(path, dpi=100 * scale)
    ax = fig.axes[0]
    lim = ax.get_xlim() if p.kind == "bar-h" else ax.get_ylim()
    import matplotlib.pyplot as plt  # heavy: to close the figure plotnine drew

    plt.close(fig)
    if p.kind == "heatmap":
        return None
    return (10 ** min(lim), 10 ** max(lim)) if p.log else (min(lim), max(lim))


def draw(figs: Path, n: int, seed: int, kinds: tuple[str, ...] = KINDS) -> list[dict[str, Any]]:
    """Draw ``n`` charts under ``figs`` (makers and ``kinds`` taken in turn, everything else random) and
    return their truth records. plotnine has no polar coordinates: its pies are matplotlib's in the
    'ggplot' style."""
    rng = random.Random(seed)
    records = []
    for i in range(n):
        maker = MAKER_KINDS[i % len(MAKER_KINDS)]
        kind = kinds[(i // len(MAKER_KINDS)) % len(kinds)]
        p = make_plot(rng, kind)
        scale = rng.choice((1, 2))
        if maker == "ggplot2" and kind == "pie":
            maker = "matplotlib"
        fid = f"D_{maker}_{kind}_{i:03d}"
        path = Path(figs) / f"{fid}.png"
        if maker == "vega-altair":
            axis = _altair(p, path, rng, scale)
        elif maker == "ggplot2":
            axis = _plotnine(p, path, rng, scale)
        else:
            axis = _matplotlib(p, path, rng, scale, plotly=maker == "plotly")
        with Image.open(path) as im:
            width, height = im.size
        rec: dict[str, Any] = {"id": fid, "file": f"figs/{path.name}", "kind": "chart", "style": kind,
                               "maker": maker, "group": maker, "width": width, "height": height, "text": _words(p),
                               "nodes": [], "edges": [], "images": 0, "values": _truth_values(rng, p)}
        if axis is not None:
            rec["value_axis"] = [round(axis[0], 6), round(axis[1], 6)]
        if p.log:
            rec["value_scale"] = "log"
        records.append(rec)
    return records
