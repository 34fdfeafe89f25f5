"""The ``crafteditor`` command: raster figures (PNG/JPEG/WebP) to editable Crafter SVGs.

A thin shell over :mod:`crafteditor.batch` and :mod:`crafteditor.bench`. Errors a user can
act on become one line and exit code 1, never a traceback.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
from dataclasses import asdict
from pathlib import Path
from typing import List, Optional

import typer

from crafteditor.batch import convert_batch, expand_inputs
from crafteditor.bench import (
    as_jpeg,
    example_figures,
    file_figures,
    format_rows,
    gallery_figures,
    generated_figures,
    real_figures,
    run_bench,
    style_sheets,
    under_condition,
)
from crafteditor.conditions import ConditionError
from crafteditor.config import PRESETS, TIME_BUDGET_MIN_S, Config, ConfigError
from crafteditor.realfetch import rebuild
from crafteditor.realhtml import write_report
from crafteditor.realreport import format_real, real_track
from crafter.cli.support import run_app
from crafter.style import resolve_style

app = typer.Typer(
    name="crafteditor",
    help="CraftEditor: PNG/JPEG/WebP figures to editable SVG (text as <text>, boxes as nodes, arrows as edges).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _config(preset: str, options: list[str] | None):
    values = {}
    for item in options or []:
        if "=" not in item:
            raise ConfigError(f"--set expects key=value, not {item!r}")
        k, v = item.split("=", 1)
        values[k.strip()] = v.strip()
    return Config.preset(preset, **values)


@app.command()
def convert(
    inputs: List[Path] = typer.Argument(..., help="Image files or folders (PNG, JPEG, WebP…)"),
    output: Path = typer.Option(..., "-o", "--output", help="Output folder: one .svg per image plus manifest.jsonl"),
    workers: int = typer.Option(1, "--workers", "-w", help="Parallel workers (processes, or Ray tasks)"),
    executor: str = typer.Option("local", "--executor", help="local (process pool) or ray"),
    resume: bool = typer.Option(False, "--resume", help="Skip inputs already recorded in the manifest"),
    preset: str = typer.Option("auto", "--preset", help="auto, diagram, chart, scan or sketch"),
    option: Optional[List[str]] = typer.Option(None, "--set", help="Override an option, e.g. --set dpi=150"),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Show a progress bar"),
    style: Optional[str] = typer.Option(None, "--style", help="Redraw every figure in a house style: a .style.json "
                                        "file or a name from `crafter style list`"),
    timeout: Optional[float] = typer.Option(None, "--timeout", help="Time budget, CPU seconds per megapixel (at least "
                                            f"{TIME_BUDGET_MIN_S:g} s a figure; 0: none; default {Config().timeout:g}). "
                                            "Past it a figure keeps what was read, the rest traced, and is marked "
                                            "over_budget in the manifest"),
) -> None:
    """Convert images to editable SVG figures, with a JSONL manifest of status and metrics.

    Example: crafteditor convert figures/ -o svg/ --workers 2 --preset diagram --timeout 5
    In a house style: crafteditor convert figures/ -o svg/ --style mylab.style.json
    """
    config = _config(preset, option)
    if timeout is not None:
        config = config.replace(timeout=timeout)
    house = resolve_style(style) if style is not None else None
    summary = convert_batch(inputs, output, config, workers=workers, executor=executor, resume=resume,
                            progress=progress and sys.stderr.isatty(), style=house)
    msg = f"{summary.converted} converted, {summary.failed} failed"
    if summary.skipped:
        msg += f", {summary.skipped} already done"
    typer.echo(f"{msg} in {summary.seconds:.1f} s; manifest: {summary.manifest}")
    for name, err in summary.failures[:10]:
        typer.echo(f"  failed: {err or name}", err=True)
    if len(summary.failures) > 10:
        typer.echo(f"  … and {len(summary.failures) - 10} more (see the manifest)", err=True)


@app.command()
def presets() -> None:
    """List the presets and every option with its default.

    Example: crafteditor presets
    """
    for name, values in PRESETS.items():
        shown = ", ".join(f"{k}={v}" for k, v in values.items()) or "(defaults; a JPEG file is read with jpeg)"
        typer.echo(f"{name:<8} {shown}")
    typer.echo("")
    for k, v in Config().to_dict().items():
        if k != "preset_name":
            typer.echo(f"  {k} = {v!r}")


@app.command()
def bench(
    files: Optional[List[Path]] = typer.Argument(None,
                                                 help="Images to run on (default: generated diagrams and charts)"),
    n: int = typer.Option(4, "-n", help="Generated figures of each kind"),
    dpi: int = typer.Option(150, help="Resolution of the generated figures"),
    kind: str = typer.Option("both", help="diagram, chart or both (generated figures); gallery: matplotlib "
                             "chart styles (grouped, stacked, horizontal bars, error bars, value labels, "
                             "marker shapes)"),
    heads: str = typer.Option("arrow", "--heads", help="Arrowhead kinds generated diagrams draw from, "
                              "comma-separated (e.g. arrow,open,diamond)"),
    examples: Optional[Path] = typer.Option(None, "--examples", help="Also run on a folder of .dsl figures "
                                            "(e.g. examples/), laid out and rendered by Crafter"),
    preset: str = typer.Option("auto", "--preset", help="CraftEditor preset"),
    option: Optional[List[str]] = typer.Option(None, "--set", help="Override a CraftEditor option, e.g. "
                                               "--set ocr_reader=false (rapidocr reads every line)"),
    per_figure: bool = typer.Option(False, "--per-figure", help="Also print one line per figure"),
    jpeg: int = typer.Option(0, "--jpeg", help="Give both systems the figures as JPEGs of this quality "
                             "(1-95; 0: PNG)"),
    json_out: Optional[Path] = typer.Option(None, "--json", help="Also write the rows as JSON"),
    sheet: Optional[str] = typer.Option(None, "--sheet", help="matplotlib style sheets to draw the generated "
                                        "charts under, comma-separated "
                                        "(e.g. ggplot,seaborn-v0_8-darkgrid,bmh,classic)"),
    real: Optional[Path] = typer.Option(None, "--real", help="Also run on a real-figure set: a folder with "
                                        "manifest.json and hand-made ground truth (see crafteditor.realset)"),
    split: str = typer.Option("all", "--split", help="With --real: dev, test or all"),
    only: Optional[str] = typer.Option(None, "--only", help="With --real: only these figure ids, comma-separated "
                                       "(shell patterns such as 'G_*' too)"),
    manifest: Optional[Path] = typer.Option(None, "--manifest", help="With --real: the ground truth (default "
                                            "DIR/manifest.json, then ./realset/manifest.json); files are "
                                            "relative to DIR"),
    condition: Optional[str] = typer.Option(None, "--condition", help="With --real: deliver each figure as "
                                            "repositories do: half, third (Lanczos downscale), jpeg60, blur1, "
                                            "offwhite, margin, or several joined with '+' (half+jpeg60)"),
    report: Optional[Path] = typer.Option(None, "--report", help="With --real: write report.html, report.json "
                                          "and the side-by-side pictures to this folder"),
    side_by_side: Optional[Path] = typer.Option(None, "--side-by-side", help="Write original | CraftEditor | vtracer "
                                          "PNGs, one per figure, to this folder"),
) -> None:
    """CraftEditor vs vtracer alone on the same figures: seconds, SSIM, elements, text kept as text.

    Example: crafteditor bench -n 6 --examples examples/   (--jpeg 75: the same figures as JPEGs;
    --kind gallery --sheet ggplot,bmh: matplotlib's chart styles drawn in other style sheets)
    """
    try:
        sheets = style_sheets(sheet)
    except ValueError as e:
        raise typer.BadParameter(str(e), param_hint="--sheet") from None
    if files:
        figs = file_figures(expand_inputs(files))
    else:
        if kind == "gallery":
            figs = gallery_figures(n, dpi, sheets) if n > 0 else []
        else:
            kinds = ("diagram", "chart") if kind == "both" else (kind,)
            figs = generated_figures(n, dpi, kinds, tuple(h.strip() for h in heads.split(",") if h.strip()),
                                     sheets) if n > 0 else []
    if examples is not None:
        figs += example_figures(examples, dpi)
    if real is not None:
        figs += real_figures(real, split, manifest, only)
        if condition:
            try:
                figs = under_condition(figs, condition)
            except ConditionError as e:
                raise typer.BadParameter(str(e), param_hint="--condition") from None
    elif manifest is not None or report is not None or only is not None:
        raise typer.BadParameter("--manifest, --only and --report go with --real DIR", param_hint="--real")
    elif condition:
        raise typer.BadParameter("--condition goes with --real DIR (the real figures' truth holds under it)",
                                 param_hint="--real")
    if jpeg:
        if not 1 <= jpeg <= 95:
            raise typer.BadParameter("a JPEG quality from 1 to 95", param_hint="--jpeg")
        figs = [as_jpeg(f, jpeg, dpi) for f in figs]
    if report is not None and side_by_side is None:
        side_by_side = report / "sheets"
    rows = run_bench(figs, _config(preset, option), sheets=side_by_side)
    for r in rows:
        r.condition = condition if condition and r.kind.startswith("real-") else ""
    typer.echo(format_rows(rows, per_figure=per_figure))
    if real is not None:
        typer.echo("")
        typer.echo(format_real(real_track(rows)))
    if report is not None:
        sheets_rel = os.path.relpath(side_by_side, report)
        page = write_report(rows, report, command=_command_line(), sheets=Path(sheets_rel).as_posix())
        typer.echo(f"report: {page}")
    if json_out:
        json_out.write_text(json.dumps([asdict(r) for r in rows], indent=2) + "\n", encoding="utf-8")


@app.command("realset-rebuild")
def realset_rebuild(
    mirrors: Path = typer.Option(..., "--mirrors", help="Folder of git directories of the manifest's repositories: "
                                 "owner+name[/repo] snapshots or owner/name clones"),
    folder: Path = typer.Option(Path("shared/realfigs"), "--into", help="The real-figure folder to write"),
    manifest: Optional[Path] = typer.Option(None, "--manifest", help="The ground truth (default: FOLDER/manifest.json, "
                                            "then ./realset/manifest.json)"),
) -> None:
    """Write the real set's figures from their repositories at the recorded commits, each checked by sha256.

    Example: crafteditor realset-rebuild --mirrors ~/mirrors   (git directories as owner/name clones or
    owner+name snapshots; writes shared/realfigs/figs/*.png)
    """
    done = rebuild(folder, mirrors, manifest)
    for r in done:
        if r.status == "failed":
            typer.echo(f"{r.id}: {r.reason}", err=True)
    counts = {s: sum(r.status == s for r in done) for s in ("written", "present", "failed")}
    typer.echo(f"{counts['written']} written, {counts['present']} already there, {counts['failed']} failed "
               f"(of {len(done)}) in {folder}")
    if counts["failed"]:
        raise typer.Exit(1)


def _command_line() -> str:
    """The bench command as typed, for the report (empty when not run from a shell, as in tests)."""
    args = sys.argv[1:]
    return "crafteditor " + shlex.join(args) if args[:1] == ["bench"] else ""


def main(argv: list[str] | None = None) -> int:
    """Console-script entry point: user errors become one line and exit code 1."""
    return run_app(app, argv)


if __name__ == "__main__":
    sys.exit(main())
