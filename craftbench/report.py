"""Reports: Markdown and one self-contained HTML page from a run's results.jsonl.

The page opens with one table per headline metric (systems × figure type × condition),
then the per-track tables (vectorize, repair), plots (matplotlib PNGs), and the worst
cases with thumbnails of output beside reference. A run over a prose suite adds the prose
track: node / edge / group precision, recall and F1 summed over the briefs, per system and
per writing style, and the worst briefs shown as brief | gold figure | our figure.
"""

from __future__ import annotations

import base64
import html
import io
import json
import statistics
from collections import defaultdict
from pathlib import Path
from typing import Any

from PIL import Image

from craftbench.cases import CONDITIONS, FIGURE_TYPES, load_cases
from craftbench.runner import read_results
from crafter.formats import svg_to_png

HEADLINE = ("component_f1", "text_cer", "ssim", "chart_error", "seconds")
TRACK_METRICS = {
    "vectorize": ("ssim", "component_f1", "text_as_text", "primitive_share", "elements", "seconds"),
    "repair": ("fix_rate", "locality", "component_f1", "seconds"),
}
LOWER_IS_BETTER = {"text_cer", "chart_error", "seconds", "overlaps", "crossings", "overflows", "elements"}


def _mean(values: list[float]) -> float | None:
    vals = [v for v in values if isinstance(v, (int, float))]
    return statistics.fmean(vals) if vals else None


def _fmt(v: float | None, metric: str = "") -> str:
    if v is None:
        return "n/a"
    if metric == "elements":
        return f"{v:.0f}"
    if metric == "seconds":
        return f"{v:.2f}s"
    return f"{v:.3f}"


def aggregate(rows: list[dict[str, Any]]) -> dict[tuple[str, str, str], dict[str, float | None]]:
    """(system, figure_type, condition) → metric means."""
    cells: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        cells[(r["system"], r["figure_type"], r["condition"])].append(r)
    out = {}
    for key, rs in cells.items():
        metrics = sorted({k for r in rs for k, v in r.items()
                          if isinstance(v, (int, float)) and not isinstance(v, bool)})
        out[key] = {m: _mean([r.get(m) for r in rs]) for m in metrics}
        out[key]["n"] = float(len(rs))
        out[key]["errors"] = float(sum(1 for r in rs if r.get("error")))
    return out


def headline_tables(rows: list[dict[str, Any]]) -> list[tuple[str, list[str], list[list[str]]]]:
    """One table per headline metric: rows = systems, columns = type/condition cells."""
    agg = aggregate(rows)
    systems = sorted({r["system"] for r in rows})
    cols = [(t, c) for t in FIGURE_TYPES for c in CONDITIONS]
    tables = []
    for metric in HEADLINE:
        header = ["system"] + [f"{t}/{c}" for t, c in cols]
        body = []
        for s in systems:
            body.append([s] + [_fmt(agg.get((s, t, c), {}).get(metric), metric) for t, c in cols])
        if any(cell != "n/a" for row in body for cell in row[1:]):
            tables.append((metric, header, body))
    return tables


def track_tables(rows: list[dict[str, Any]]) -> list[tuple[str, list[str], list[list[str]]]]:
    tables = []
    systems = sorted({r["system"] for r in rows})
    for track, metrics in TRACK_METRICS.items():
        rs = [r for r in rows if r["condition"] == track]
        if not rs:
            continue
        header = ["system", "cases"] + list(metrics)
        body = []
        for s in systems:
            mine = [r for r in rs if r["system"] == s]
            if not mine:
                continue
            body.append([s, str(len(mine))] + [_fmt(_mean([r.get(m) for r in mine]), m) for m in metrics])
        tables.append((track, header, body))
    return tables


def _markdown_table(header: list[str], body: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in body]
    return "\n".join(lines)


def _plot_png(rows: list[dict[str, Any]]) -> bytes:
    import matplotlib  # heavy: 1.5 s to import with pyplot; only the report's plot needs it

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # heavy: see above; after use("Agg")

    systems = sorted({r["system"] for r in rows})
    conds = [c for c in (*CONDITIONS, "vectorize", "repair") if any(r["condition"] == c for r in rows)]
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.2), dpi=120)
    width = 0.8 / max(len(systems), 1)
    palette = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"]
    for ax, metric, title in ((axes[0], "component_f1", "Component F1 (higher is better)"),
                              (axes[1], "seconds", "Seconds per case (lower is better)")):
        for i, s in enumerate(systems):
            vals = [_mean([r.get(metric) for r in rows if r["system"] == s and r["condition"] == c]) for c in conds]
            xs = [j + i * width for j in range(len(conds))]
            ax.bar(xs, [v if v is not None else 0 for v in vals], width=width, label=s, color=palette[i % len(palette)])
        ax.set_xticks([j + width * (len(systems) - 1) / 2 for j in range(len(conds))], conds, rotation=20, fontsize=8)
        ax.set_title(title, fontsize=9)
        ax.tick_params(labelsize=8)
        ax.spines[["top", "right"]].set_visible(False)
    axes[0].legend(fontsize=7, frameon=False)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    return buf.getvalue()


def _thumb(svg_path: Path | None, png_path: Path | None, width: int = 260) -> bytes | None:
    try:
        if svg_path is not None and svg_path.exists():
            return svg_to_png(svg_path.read_text(encoding="utf-8"), width=width, background="white")
        if png_path is not None and png_path.exists():
            img = Image.open(png_path)
            img.thumbnail((width, width * 2))
            buf = io.BytesIO()
            img.convert("RGB").save(buf, format="PNG")
            return buf.getvalue()
    except Exception:
        return None
    return None


def worst_cases(rows: list[dict[str, Any]], k: int = 5) -> list[dict[str, Any]]:
    scored = [r for r in rows if r["system"] not in ("reference", "empty")]

    def badness(r: dict[str, Any]) -> float:
        if r.get("error"):
            return -1.0
        if r["condition"] == "repair":
            return (r.get("fix_rate", 0) + r.get("locality", 0)) / 2
        return r.get("component_f1", 0.0) if r["condition"] != "vectorize" else r.get("ssim", 0.0)

    return sorted(scored, key=badness)[:k]


def _counted(rows: list[dict[str, Any]], name: str) -> tuple[float, float, float]:
    """(precision, recall, F1) of one kind from the counts summed over rows (micro-average)."""
    tp = sum(r.get(f"{name}_tp", 0) for r in rows)
    pred = sum(r.get(f"{name}_pred", 0) for r in rows)
    gold = sum(r.get(f"{name}_gold", 0) for r in rows)
    p = tp / pred if pred else (1.0 if gold == 0 else 0.0)
    rec = tp / gold if gold else 1.0
    return p, rec, (2 * p * rec / (p + rec) if p + rec else 0.0)


def prose_tables(rows: list[dict[str, Any]]) -> list[tuple[str, list[str], list[list[str]]]]:
    """The prose track: each system overall, then node and edge F1 per writing style."""
    rs = [r for r in rows if r["condition"] == "prose"]
    if not rs:
        return []
    systems = sorted({r["system"] for r in rs})
    header = ["system", "briefs", "node P/R/F1", "edge P/R/F1", "group P/R/F1", "seconds"]
    body = []
    for s in systems:
        mine = [r for r in rs if r["system"] == s]
        cells = ["/".join(f"{v:.2f}" for v in _counted(mine, k)) for k in ("node", "edge", "group")]
        body.append([s, str(len(mine)), *cells, _fmt(_mean([r.get("seconds") for r in mine]), "seconds")])
    styles = sorted({r["features"].get("style", "") for r in rs})
    by_style = []
    for s in systems:
        row = [s]
        for st in styles:
            mine = [r for r in rs if r["system"] == s and r["features"].get("style") == st]
            row.append(f"{_counted(mine, 'node')[2]:.2f} / {_counted(mine, 'edge')[2]:.2f}" if mine else "n/a")
        by_style.append(row)
    return [("prose: the written briefs, summed over briefs", header, body),
            ("prose: node F1 / edge F1 per writing style", ["system", *styles], by_style)]


def _prose_worst(rows: list[dict[str, Any]], k: int = 5) -> list[dict[str, Any]]:
    rs = [r for r in rows if r["condition"] == "prose" and r["system"] not in ("reference", "empty")]
    return sorted(rs, key=lambda r: (-1.0 if r.get("error") else r.get("component_f1", 0.0), r["case"]))[:k]


def _prose_case_html(r: dict[str, Any], run_dir: Path, suite_dir: Path, brief: str) -> tuple[str, str]:
    """(markdown line, HTML block) of one prose case: brief | gold figure | our figure."""
    gold = _thumb(suite_dir / r["case"] / "reference.svg", suite_dir / r["case"] / "reference.png", width=400)
    ours = _thumb(run_dir / "outputs" / _safe(r["system"]) / f"{r['case']}.svg", None, width=400)
    summary = (f"{r['system']} on {r['case']} ({r['features'].get('style')}, {r['features'].get('field')}): "
               f"nodes F1 {r.get('node_f1', 0):.2f}, edges F1 {r.get('edge_f1', 0):.2f}"
               + (f", error: {r['error']}" if r.get("error") else ""))
    cells = [f"<div style='max-width:300px'><b>brief</b><br>{html.escape(brief)}</div>"]
    for name, img in (("gold figure", gold), ("our figure", ours)):
        cells.append(f"<div><b>{name}</b><br><img src='data:image/png;base64,{base64.b64encode(img).decode()}'>"
                     "</div>" if img is not None else f"<div><b>{name}</b><br>(none)</div>")
    return f"- {summary}", f"<p>{html.escape(summary)}</p><div class='pair'>{''.join(cells)}</div>"


def write_report(run_dir: Path) -> tuple[Path, Path]:
    """Write report.md (with PNGs beside it) and report.html (self-contained)."""
    rows = read_results(run_dir)
    run_info = json.loads((run_dir / "run.json").read_text()) if (run_dir / "run.json").exists() else {}
    suite_dir = Path(run_info.get("suite_dir", ""))
    assets = run_dir / "report_assets"
    assets.mkdir(exist_ok=True)
    plot = _plot_png(rows)
    (assets / "summary.png").write_bytes(plot)

    systems = ", ".join(sorted({r["system"] for r in rows}))
    md = ["# CraftBench report", "",
          f"{len(rows)} results, {len({r['case'] for r in rows})} cases, systems: {systems}.",
          "Cells are means over the cases of a figure type × input condition; "
          "n/a: the system does not take that input.", ""]
    h = ["<!doctype html><html><head><meta charset='utf-8'><title>CraftBench report</title><style>",
         "body{font-family:DejaVu Sans,Arial,sans-serif;margin:2em;color:#1a1a1a;max-width:1200px}",
         "table{border-collapse:collapse;margin:0.5em 0 1.5em;font-size:13px}"
         "td,th{border:1px solid #ccc;padding:3px 7px;text-align:right}",
         "th{background:#f2f5fa}td:first-child,th:first-child{text-align:left}img{border:1px solid #ddd}",
         ".pair{display:flex;gap:1em;align-items:flex-start;margin-bottom:1.5em}.pair div{font-size:12px}"
         "</style></head><body>",
         "<h1>CraftBench report</h1>", f"<p>{html.escape(md[2])}<br>{html.escape(md[3])}</p>"]
    for metric, header, body in headline_tables(rows):
        note = " (lower is better)" if metric in LOWER_IS_BETTER else " (higher is better)"
        md += [f"## {metric}{note}", "", _markdown_table(header, body), ""]
        h.append(f"<h2>{html.escape(metric + note)}</h2>" + _html_table(header, body))
    for track, header, body in track_tables(rows) + prose_tables(rows):
        md += [f"## Track: {track}", "", _markdown_table(header, body), ""]
        h.append(f"<h2>Track: {html.escape(track)}</h2>" + _html_table(header, body))
    worst_prose = _prose_worst(rows)
    if worst_prose:
        briefs = {c.id: c.brief for c in load_cases(suite_dir)} if (suite_dir / "cases.jsonl").exists() else {}
        md += ["## Worst briefs (prose track): brief | gold figure | our figure", ""]
        h.append("<h2>Worst briefs (prose track): brief | gold figure | our figure</h2>")
        for r in worst_prose:
            line, block = _prose_case_html(r, run_dir, suite_dir, briefs.get(r["case"], ""))
            md.append(line)
            h.append(block)
        md.append("")
    md += ["## Plots", "", "![summary](report_assets/summary.png)", ""]
    h.append("<h2>Plots</h2><img src='data:image/png;base64," + base64.b64encode(plot).decode() + "'>")
    md += ["## Worst cases", ""]
    h.append("<h2>Worst cases</h2>")
    for r in worst_cases(rows):
        out_svg = run_dir / "outputs" / _safe(r["system"]) / f"{r['case']}.svg"
        ref_png = suite_dir / r["case"] / "reference.png"
        t_out, t_ref = _thumb(out_svg, None), _thumb(None, ref_png)
        summary = (f"{r['system']} on {r['case']} ({r['figure_type']}/{r['condition']}): "
                   f"F1 {r.get('component_f1', 0):.2f}" + (f", error: {r['error']}" if r.get("error") else ""))
        md.append(f"- {summary}")
        cells = []
        for name, img in (("output", t_out), ("reference", t_ref)):
            if img is not None:
                fname = f"{_safe(r['system'])}-{r['case']}-{name}.png"
                (assets / fname).write_bytes(img)
                md.append(f"  ![{name}](report_assets/{fname})")
                data = base64.b64encode(img).decode()
                cells.append(f"<div><b>{name}</b><br><img src='data:image/png;base64,{data}'></div>")
            else:
                cells.append(f"<div><b>{name}</b><br>(none)</div>")
        h.append(f"<p>{html.escape(summary)}</p><div class='pair'>{''.join(cells)}</div>")
    h.append("</body></html>")
    md_path, html_path = run_dir / "report.md", run_dir / "report.html"
    md_path.write_text("\n".join(md) + "\n", encoding="utf-8")
    html_path.write_text("\n".join(h), encoding="utf-8")
    return md_path, html_path


def _html_table(header: list[str], body: list[list[str]]) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in header)
    rows = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in body)
    return f"<table><tr>{head}</tr>{rows}</table>"


def _safe(name: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in name)
