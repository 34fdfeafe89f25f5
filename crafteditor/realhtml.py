"""``report.html`` and ``report.json`` of the real track (:mod:`crafteditor.realreport`).

One static page, no script, readable offline: what was run, the aims with pass or fail, a
table per split and per maker (CraftEditor beside vtracer), the worst figures drawn as
original | CraftEditor | vtracer, and one line per figure (scores under their aim in red).
Every string from the manifest or a file name is escaped.
"""

from __future__ import annotations

import html
import json
import math
from dataclasses import asdict
from pathlib import Path
from typing import Any, Callable

from crafteditor.bench import BenchRow, file_safe
from crafteditor.realreport import (
    AIMS,
    cpu_split,
    is_over_budget,
    real_track,
    score_value,
    shown_split_groups,
    worst_rows,
)

_CSS = """
body{font:14px/1.45 system-ui,-apple-system,'DejaVu Sans',sans-serif;margin:24px auto;max-width:1500px;color:#1d2433;
padding:0 16px}
h1{font-size:22px;margin:0 0 4px} h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #d8dde6;padding-bottom:4px}
code{background:#f2f4f7;padding:1px 4px;border-radius:3px;font-size:12.5px}
table{border-collapse:collapse;margin:6px 0 10px} th,td{padding:3px 9px;border-bottom:1px solid #e6e9ef;text-align:right}
th{background:#f5f7fa;font-weight:600} td.l,th.l{text-align:left}
.pass{color:#0a7d32;font-weight:700} .fail{color:#c0262d;font-weight:700} .na{color:#8a93a3}
td.bad{color:#c0262d} .muted{color:#5d6778;font-size:12.5px}
figure{margin:10px 0 26px} .sheet{display:inline-block;max-width:100%}
.sheet img{display:block;max-width:100%;max-height:620px;border:1px solid #d8dde6}
.cols{display:grid;grid-template-columns:1fr 1fr 1fr;font-weight:600;color:#5d6778;text-align:center;font-size:13px}
figcaption{font-size:13.5px;margin:2px 0 4px}
"""

# per-figure columns under their aims: (score key, aim key) for the red marks
_ROW_AIMS = {a[0]: (a[2], a[3]) for a in AIMS}


def _esc(v: Any) -> str:
    return html.escape(str(v), quote=True)


def _num(v: Any, fmt: str) -> str:
    return "—" if v is None or (isinstance(v, float) and v != v) else fmt.format(v)


def _below(key: str, v: float | None) -> bool:
    if v is None or v != v or key not in _ROW_AIMS:
        return False
    op, target = _ROW_AIMS[key]
    return v < target if op == ">=" else v > target


def _aims_table(track: dict[str, Any]) -> str:
    out = ["<table><tr><th class=l>aim</th><th>target</th><th>value</th><th>figures</th><th>result</th></tr>"]
    for a in track["aims"]:
        cls, word = ("na", "n/a") if a["pass"] is None else (("pass", "pass") if a["pass"] else ("fail", "FAIL"))
        out.append(f"<tr><td class=l>{_esc(a['what'])}</td><td>{_esc(a['target'])}</td><td>{_esc(a['shown'])}</td>"
                   f"<td>{a['figures']}</td><td class={cls}>{word}</td></tr>")
    out.append("</table>")
    return "".join(out)


def _summary_table(title: str, items: dict[str, dict[str, Any]]) -> str:
    head = ("<tr><th class=l>" + _esc(title) + "</th><th>n</th><th>words</th><th>read surely</th><th>node F1</th>"
            "<th>edge F1</th>"
            "<th>values</th><th>SSIM ours</th><th>SSIM vtracer</th><th>GMSD ours</th><th>GMSD vtracer</th>"
            "<th>elements ours</th><th>elements vtracer</th><th>fewer ×</th><th>CPU s ours</th><th>CPU s vtracer</th>"
            "<th>CPU ×</th><th>slowest s</th><th>over budget</th></tr>")
    rows = []
    for name, s in items.items():
        cells = [("words", "{:.1%}"), ("read_surely", "{:.0%}"), ("nodes", "{:.3f}"), ("edges", "{:.3f}"), ("values", "{:.1%}"),
                 ("ssim", "{:.3f}"), ("vt_ssim", "{:.3f}"), ("gmsd", "{:.3f}"), ("vt_gmsd", "{:.3f}"),
                 ("elements", "{:.0f}"), ("vt_elements", "{:.0f}"), ("fewer_elements", "{:.1f}×"),
                 ("cpu", "{:.2f}"), ("vt_cpu", "{:.2f}"), ("cpu_ratio", "{:.1f}×"), ("slowest", "{:.1f}"),
                 ("over_budget", "{:d}")]
        tds = "".join(f"<td{' class=bad' if _below(k, s[k]) else ''}>{_num(s[k], f)}</td>" for k, f in cells)
        rows.append(f"<tr><td class=l>{_esc(name)}</td><td>{s['n']}</td>{tds}</tr>")
    return "<table>" + head + "".join(rows) + "</table>"


def _cpu_table(splits: dict[str, dict[str, Any]]) -> str:
    """CPU seconds per stage summed over each split's figures (share of our total), then the costly parts."""
    out = []
    for name, s in splits.items():
        total, stages, parts = cpu_split(s)
        if not total:
            continue
        cells = "".join(f"<td>{_esc(k)}: {v:.1f} s ({v / total:.0%})</td>" for k, v in stages)
        part_cells = "".join(f"<td>{_esc(k)}: {v:.1f} s</td>" for k, v in parts)
        out.append(f"<tr><td class=l>{_esc(name)} ({s['n']} figures, {total:.1f} s)</td>{cells}</tr>")
        if part_cells:
            out.append(f"<tr><td class=l>&nbsp; parts, whichever stage ran them</td>{part_cells}</tr>")
    return "<table>" + "".join(out) + "</table>" if out else "<p class=muted>No stage timings.</p>"


def _figure_rows(rows: list[BenchRow], sheet: Callable[[BenchRow], str]) -> str:
    head = ("<tr><th class=l>figure</th><th class=l>split</th><th class=l>maker</th><th>words</th>"
            "<th>read surely</th><th>node F1</th>"
            "<th>edge F1</th><th>values</th><th>SSIM ours / vt</th><th>GMSD ours / vt</th><th>elements ours / vt</th>"
            "<th>CPU s ours / vt</th><th>budget s</th></tr>")
    out = []
    for r in sorted(rows, key=lambda r: (r.split != "test", r.name)):
        tds = []
        for k, fmt in (("words", "{:.0%}"), ("nodes", "{:.2f}"), ("edges", "{:.2f}"), ("values", "{:.0%}")):
            v = score_value(r.scores.get(k))
            tds.append(f"<td{' class=bad' if _below(k, v) else ''}>{_num(v, fmt)}</td>")
            if k == "words":
                tds.append(f"<td>{_num(r.text_confidence, '{:.0%}')}</td>")
        over = is_over_budget(r)
        budget = "none" if r.budget_s is None else f"{r.budget_s:.0f}"
        over_note = f" <span class=fail>over: {_esc(', '.join(r.over_budget) or 'time')}</span>" if over else ""
        out.append(
            f"<tr><td class=l><a href=\"{_esc(sheet(r))}\">{_esc(r.name)}</a></td><td class=l>{_esc(r.split)}</td>"
            f"<td class=l>{_esc(r.group)}</td>{''.join(tds)}"
            f"<td{' class=bad' if _below('ssim', r.ce_ssim) else ''}>{_num(r.ce_ssim, '{:.3f}')} / "
            f"{_num(r.vt_ssim, '{:.3f}')}</td><td>{_num(r.ce_gmsd, '{:.3f}')} / {_num(r.vt_gmsd, '{:.3f}')}</td>"
            f"<td>{r.ce_elements} / {r.vt_elements}</td><td>{r.ce_cpu:.2f} / {r.vt_cpu:.2f}</td>"
            f"<td>{budget}{over_note}</td></tr>")
    return "<table>" + head + "".join(out) + "</table>"


def _worst(worst: list[tuple[BenchRow, str]], sheet: Callable[[BenchRow], str]) -> str:
    out = []
    for r, why in worst:
        scores = ", ".join(f"{k} {_num(score_value(v), '{:.2f}')}" for k, v in r.scores.items())
        out.append(
            f"<figure id=\"{_esc(file_safe(r.name))}\"><figcaption><b>{_esc(r.name)}</b> "
            f"({_esc(r.split)}, {_esc(r.group)}): worst by {_esc(why)} · {_esc(scores)} · "
            f"{r.ce_elements} elements vs {r.vt_elements}</figcaption>"
            "<div class=sheet><div class=cols><span>original</span><span>CraftEditor</span><span>vtracer</span></div>"
            f"<img loading=lazy src=\"{_esc(sheet(r))}\" alt=\"original, CraftEditor and vtracer: {_esc(r.name)}\">"
            "</div></figure>")
    return "".join(out) or "<p class=muted>No real figures.</p>"


def report_html(track: dict[str, Any], rows: list[BenchRow], worst: list[tuple[BenchRow, str]], *,
                command: str = "", sheet: Callable[[BenchRow], str]) -> str:
    real = [r for r in rows if r.kind.startswith("real-")]
    n_test = sum(r.split == "test" for r in real)
    passed = sum(a["pass"] is True for a in track["aims"])
    judged = sum(a["pass"] is not None for a in track["aims"])
    parts = [
        "<!doctype html><html lang=en><head><meta charset=utf-8><title>CraftEditor real-figure bench</title>",
        f"<style>{_CSS}</style></head><body>",
        "<h1>CraftEditor on real figures</h1>",
        f"<p class=muted>{len(real)} figures ({n_test} in the frozen test split) from public repositories, against "
        "hand-made ground truth; vtracer (colour mode) on the same files."
        + (f" Command: <code>{_esc(command)}</code>" if command else "") + "</p>",
        f"<h2>Aims on the {_esc(track['aims_on'])} split: {passed} of {judged} met</h2>",
        _aims_table(track),
        "<p class=muted>Words: share of the true words kept as SVG text (letters and digits compared). Node and edge "
        "F1: against the labels of the truth. Read surely: share of words the reader read above its gate "
        "(where CraftEditor reports it). Values: chart values within 2 % of the axis range. SSIM: grey "
        f"structural similarity of the SVG drawn back at the input's size. Perceptual score: {_esc(track['perceptual'])}"
        ". Elements and CPU: ratios of the means (vtracer's elements over ours; our CPU seconds over "
        "vtracer's). Over budget: stages skipped past the figure's time budget, or slower than it.</p>",
        "<h2>Per split</h2>", _summary_table("split", track["splits"]),
        "<h2>Per style or chart maker</h2>", _summary_table("maker", track["groups"]),
        *(part for split, groups in shown_split_groups(track).items()
          for part in (f"<h2>The {_esc(split)} split by style or chart maker</h2>", _summary_table("maker", groups))),
        "<h2>Where the CPU went</h2>", _cpu_table(track["splits"]),
        "<h2>Worst figures: original | CraftEditor | vtracer</h2>", _worst(worst, sheet),
        "<h2>Every figure</h2><p class=muted>The name opens its side-by-side picture; red: under the aim.</p>",
        _figure_rows(real, sheet),
        "</body></html>",
    ]
    return "\n".join(parts)


def _jsonable(v: Any) -> Any:
    if isinstance(v, float) and not math.isfinite(v):
        return None
    if isinstance(v, dict):
        return {k: _jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    return v


def write_report(rows: list[BenchRow], folder: Path, *, command: str = "", sheets: str = "sheets") -> Path:
    """``folder/report.json`` and ``folder/report.html``; the pictures are looked for in ``folder/sheets``
    (``run_bench(..., sheets=folder / "sheets")`` draws them). Returns the HTML's path."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    track = real_track(rows)
    data = {"command": command, **track, "figures": [asdict(r) for r in rows if r.kind.startswith("real-")]}
    (folder / "report.json").write_text(json.dumps(_jsonable(data), indent=1, ensure_ascii=False) + "\n",
                                        encoding="utf-8")
    page = report_html(track, rows, worst_rows(rows), command=command,
                       sheet=lambda r: f"{sheets}/{file_safe(r.name)}.png")
    path = folder / "report.html"
    path.write_text(page, encoding="utf-8")
    return path
