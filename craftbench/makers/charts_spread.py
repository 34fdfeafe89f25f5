"""Charts of the kinds real sets hold, drawn over the spread real pages show: ggplot2 scatters (plotnine),
Vega-Lite histograms and pies (Altair + vl-convert), matplotlib scatters, from 72 to 300 dpi (3-10.5 inch
pages, at most 2000 px), across themes, legend places (right, bottom, none), titles with subtitles and captions, PNGs with
a transparent background (never a dark theme's: its white text on the page) and JPEGs. The truth holds only
what is drawn: a subtitle where the maker drew one, the series' names and the legend's title where a legend is.

:mod:`craftbench.makers.charts` draws each kind once per maker at 100 or 200 dpi in the maker's default
look; charts that read there may still be missed where a page draws them smaller, darker or squeezed
(plotnine at 72 dpi found no chart at all). Same truth schema and random data (``make_plot``)::

    craftbench makers charts-spread -o /tmp/makers/spread -n 48
"""

from __future__ import annotations

import io
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

from PIL import Image

from craftbench.makers.charts import Plot, _nice_domain, _truth_values, _words, make_plot

SPREAD_KINDS = ("gg-scatter", "vl-histogram", "vl-pie", "mpl-scatter")
_GG_THEMES = ("theme_grey", "theme_grey", "theme_bw", "theme_minimal", "theme_classic", "theme_dark", "theme_light")
_VL_THEMES = ("default", "default", "dark", "fivethirtyeight", "ggplot2", "quartz", "vox", "latimes")
_DPIS = (72, 72, 96, 100, 150, 200, 300)


def _save(img_bytes: bytes, path: Path, jpeg: bool) -> Path:
    """As drawn (PNG), or as a JPEG on white (a page's photo-compressed copy)."""
    if not jpeg:
        path.write_bytes(img_bytes)
        return path
    with Image.open(io.BytesIO(img_bytes)) as im:
        im = im.convert("RGBA")
        flat = Image.new("RGB", im.size, "white")
        flat.paste(im, mask=im.split()[3])
        out = path.with_suffix(".jpg")
        flat.save(out, quality=random.Random(str(path)).choice((70, 85, 95)))
    return out


def _gg_scatter(p: Plot, rng: random.Random, extras: dict[str, Any]) -> tuple[bytes, tuple[float, float]]:
    import pandas as pd  # heavy: pandas loads only when charts are drawn
    import plotnine as gg  # heavy: plotnine (matplotlib underneath)

    df = pd.DataFrame(p.rows, columns=["series", "x", "y", "err"])
    aes = gg.aes(x="x", y="y", colour="series") if p.legend else gg.aes(x="x", y="y")
    g = gg.ggplot(df) + gg.geom_point(aes, size=rng.choice((1.5, 1.5, 2, 3)), alpha=rng.choice((1, 1, 0.7)))
    theme = rng.choice(_GG_THEMES)
    g += getattr(gg, theme)(base_size=rng.choice((9, 11, 11, 14)))
    labs = {"x": p.xlabel, "y": p.ylabel, "colour": rng.choice(("", "group"))}
    if p.title:
        labs["title"] = p.title
        if rng.random() < 0.4:
            labs["subtitle"] = extras["subtitle"] = "Sampled at random"
    if rng.random() < 0.3:
        labs["caption"] = extras.setdefault("caption", "Source: drawn data")
    g += gg.labs(**labs)
    # a page's size in inches (R's 7 × 7 png(), knitr's 7 × 5, a paper's 3.5 column) at its dpi, at most 2000 px
    dpi = rng.choice(_DPIS)
    h = min(rng.uniform(3.0, 7.0), 2000 / dpi)
    w = min(h * rng.uniform(1.0, 1.5), 2000 / dpi)
    place = rng.choice(("right", "right", "bottom", "none"))
    extras["unnamed"] = place == "none"  # no legend: the series cannot be named, nor its title read
    g += gg.theme(figure_size=(w, h), dpi=dpi, legend_position=place)
    if labs.get("colour") == "group" and p.legend and place != "none":
        extras["legend_title"] = "group"
    fig = g.draw()
    buf = io.BytesIO()
    fig.savefig(buf, dpi=dpi, format="png", transparent=rng.random() < 0.15)
    lim = fig.axes[0].get_ylim()
    import matplotlib.pyplot as plt  # heavy: to close the figure plotnine drew

    plt.close(fig)
    return buf.getvalue(), (min(lim), max(lim))


def _mpl_scatter(p: Plot, rng: random.Random, extras: dict[str, Any]) -> tuple[bytes, tuple[float, float]]:
    import matplotlib  # heavy: matplotlib loads only when charts are drawn

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # heavy: see above

    style = rng.choice(("default", "default", "ggplot", "seaborn-v0_8-whitegrid", "seaborn-v0_8-darkgrid", "bmh",
                        "classic", "dark_background"))
    dpi = rng.choice(_DPIS)
    side = min(rng.uniform(3.0, 6.0), 1800 / dpi)
    with plt.style.context(style):
        fig, ax = plt.subplots(figsize=(min(side * rng.uniform(1.0, 1.5), 2000 / dpi), side), dpi=dpi)
        marker = rng.choice(("o", "o", "s", "^", "x", "."))
        for s in p.series:
            xs = [r[1] for r in p.rows if r[0] == s]
            ys = [r[2] for r in p.rows if r[0] == s]
            ax.scatter(xs, ys, label=s, marker=marker, s=rng.choice((10, 20, 36, 60)))
        ax.set_xlabel(p.xlabel)
        ax.set_ylabel(p.ylabel)
        if p.title:
            ax.set_title(p.title)
        if p.legend:
            ax.legend(loc=rng.choice(("best", "upper left", "lower right")))
        fig.tight_layout()
        buf = io.BytesIO()
        # a dark style's white text is drawn for its dark page: never left on a transparent one
        fig.savefig(buf, dpi=dpi, format="png", transparent=rng.random() < 0.15 and style != "dark_background")
        lim = ax.get_ylim()
        plt.close(fig)
    return buf.getvalue(), (min(lim), max(lim))


def _vl_chart(p: Plot, rng: random.Random, extras: dict[str, Any]) -> tuple[bytes, tuple[float, float]]:
    import altair as alt  # heavy: Altair and pandas load only when charts are drawn
    import pandas as pd  # heavy: see above
    import vl_convert as vlc  # heavy: the Vega-Lite renderer (Deno)

    if p.kind == "pie":
        df = pd.DataFrame([(r[1], r[2]) for r in p.rows], columns=["cat", "v"])
        inner = rng.choice((40, 60)) if p.donut else 0
        side = rng.randint(150, 400)
        outer = side // 2 - 10
        base = alt.Chart(df).encode(theta=alt.Theta("v:Q", stack=True),
                                    color=alt.Color("cat:N", title=None, sort=None,
                                                    legend=None if extras.get("labels_only") else alt.Legend(
                                                        orient=rng.choice(("right", "right", "bottom", "left")))))
        chart = base.mark_arc(innerRadius=inner, outerRadius=outer,
                              stroke=rng.choice((None, "#fff")))
        if rng.random() < 0.4 or extras.get("labels_only"):
            chart = chart + base.mark_text(radius=outer + 18, size=rng.choice((10, 12))).encode(text="cat:N")
        chart = chart.properties(width=side, height=side)
        axis = (0.0, 100.0)
    else:
        df = pd.DataFrame({"v": p.samples[""]})
        step = p.edges[1] - p.edges[0]
        binned = alt.Bin(extent=[p.edges[0], p.edges[-1]], step=step)
        horizontal = rng.random() < 0.15
        value = alt.X("count():Q", title=p.ylabel) if horizontal else alt.Y("count():Q", title=p.ylabel)
        bins = (alt.Y if horizontal else alt.X)("v:Q", bin=binned, title=p.xlabel)
        chart = alt.Chart(df).mark_bar(
            color=rng.choice(("#4c78a8", "#4c78a8", "steelblue", "orange", "#666"))).encode(
            **({"y": bins, "x": value} if horizontal else {"x": bins, "y": value}))
        chart = chart.properties(width=rng.randint(180, 600), height=rng.randint(150, 400))
        counts = [r[2] for r in p.rows]
        axis = _nice_domain(0.0, max(counts))
    if p.title:
        if rng.random() < 0.3:
            extras["subtitle"] = "Drawn at random"
        chart = chart.properties(title=alt.TitleParams(p.title, subtitle=extras.get("subtitle") or alt.Undefined))
    transparent = rng.random() < 0.15
    theme = rng.choice(_VL_THEMES)
    if transparent and theme != "dark":  # (the dark theme's white text is drawn for its dark page)
        chart = chart.configure(background="transparent")
    with alt.theme.enable(theme):
        spec = chart.to_json()
    scale = rng.choice((1, 1, 2, 3))
    return vlc.vegalite_to_png(spec, scale=scale), axis


def draw(figs: Path, n: int, seed: int, kinds: tuple[str, ...] = SPREAD_KINDS) -> list[dict[str, Any]]:
    """Draw ``n`` charts under ``figs``, ``kinds`` taken in turn, and return their truth records."""
    rng = random.Random(seed)
    records = []
    for i in range(n):
        kind = kinds[i % len(kinds)]
        base = {"gg-scatter": "scatter", "mpl-scatter": "scatter", "vl-histogram": "histogram", "vl-pie": "pie"}[kind]
        p = make_plot(rng, base)
        extras: dict[str, Any] = {}
        if kind == "vl-pie" and rng.random() < 0.3:
            extras["labels_only"] = True
        if kind == "gg-scatter":
            data, axis = _gg_scatter(p, rng, extras)
            maker = "ggplot2"
        elif kind == "mpl-scatter":
            data, axis = _mpl_scatter(p, rng, extras)
            maker = "matplotlib"
        else:
            data, axis = _vl_chart(p, rng, extras)
            maker = "vega-altair"
        fid = f"S_{kind}_{i:03d}"
        path = _save(data, Path(figs) / f"{fid}.png", jpeg=rng.random() < 0.15)
        with Image.open(path) as im:
            width, height = im.size
        shown = replace(p, legend=False) if extras.get("unnamed") else p  # no legend drawn: no names in it
        words = " ".join(w for w in (_words(shown), extras.get("subtitle", ""), extras.get("caption", ""),
                                     extras.get("legend_title", "")) if w)
        records.append({"id": fid, "file": f"figs/{path.name}", "kind": "chart", "style": base, "maker": maker,
                        "group": kind, "width": width, "height": height, "text": words, "nodes": [], "edges": [],
                        "images": 0, "values": [[("" if extras.get("unnamed") else v[0]), *v[1:]]
                                                for v in _truth_values(rng, p)],
                        "value_axis": [round(axis[0], 6), round(axis[1], 6)]})
    return records
