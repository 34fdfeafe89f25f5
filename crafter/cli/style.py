"""`crafter style learn / show / list / schema`: house styles learned from a lab's figures; and the
``--style`` option other commands share (a style file, or a name kept in the config folder)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

import typer

from crafter.benchmarks.style import prediction, run_style_bench
from crafter.cli.app import app, bench
from crafter.cli.style_option import STYLE_HELP, layer_data
from crafter.graph.state import installed_vectorizer
from crafter.style import (
    MIN_CONFIDENCE,
    READABLE,
    SUFFIX,
    install_style,
    installed_styles,
    learn_from_files,
    resolve_style,
    save_style,
    style_schema,
    styles_dir,
    valid_name,
)

style_app = typer.Typer(help="House styles: learn a lab's look from its figures, apply it with --style.\n\n"
                             "Example: crafter style learn fig1.png fig2.svg paper.pdf -o mylab.style.json",
                        no_args_is_help=True)
app.add_typer(style_app, name="style")

def _fmt(v: Any) -> str:
    if isinstance(v, list):
        return " ".join(str(x) for x in v)
    return str(v)


def summary(style: dict[str, Any]) -> list[str]:
    """The style as lines a person reads: each field, its value and how sure; mixed and skipped figures."""
    lines = [f"style '{style['name']}' from {len(style.get('learned_from', []))} figure(s)"]
    for section in ("palette", "font", "sizes", "strokes", "shapes", "group_frame", "chart", "layout"):
        for key, entry in style.get(section, {}).items():
            unsure = "  not applied (under 0.5)" if entry["confidence"] < MIN_CONFIDENCE else ""
            lines.append(f"  {section + '.' + key:<26} {_fmt(entry['value']):<32} confidence {entry['confidence']:.2f}"
                         f"  ({entry['count']} seen in {entry.get('figures', '?')} figure(s)){unsure}")
    for m in style.get("mixed", []):
        others = "; ".join(f"{_fmt(o['value'])} in {', '.join(o['files'])}" for o in m["others"])
        lines.append(f"  mixed: {m['field']}: took {_fmt(m['majority'])} (majority); also {others}")
    for u in style.get("unreadable", []):
        lines.append(f"  skipped {u['file']}: {u['reason']}")
    return lines


@style_app.command("learn")
def learn(
    figures: list[Path] = typer.Argument(None, help="The lab's figures: PNG, JPG, SVG or PDF"),
    output: Optional[Path] = typer.Option(None, "-o", "--output", help=f"Write the style here ({SUFFIX})"),
    name: Optional[str] = typer.Option(None, "--name", help="The style's name (default: from the output file)"),
    install: bool = typer.Option(False, "--install", help="Also keep it in the config folder, usable as --style NAME"),
    json_out: bool = typer.Option(False, "--json", help="Print the style as JSON"),
) -> None:
    """Learn a house style from figures.

    Example: crafter style learn fig1.png fig2.svg fig3.pdf -o mylab.style.json --install
    """
    if not output and not install and not json_out:
        raise typer.BadParameter("say where the style goes: -o FILE, --install or --json")
    if name is None:
        name = output.name[: -len(SUFFIX)] if output and output.name.endswith(SUFFIX) else (output.stem if output else "")
    valid_name(name or "style")
    style = learn_from_files(list(figures or []), name or "style", vectorizer=installed_vectorizer(),
                             progress=lambda m: typer.echo(m, err=True))
    if output:
        save_style(style, output)
    if install:
        typer.echo(f"installed {install_style(style)}", err=True)
    if json_out:
        typer.echo(json.dumps(style, indent=2, ensure_ascii=False))
    else:
        typer.echo("\n".join(summary(style)))
        if output:
            typer.echo(f"wrote {output}")


@style_app.command("show")
def show(style: str = typer.Argument(..., help=STYLE_HELP),
         layer: bool = typer.Option(False, "--layer", help="Print what figures carry (the theme overrides)")) -> None:
    """Show a style's values and how sure each is (or, with --layer, what it sets on a theme).

    Example: crafter style show mylab
    """
    data = resolve_style(style)
    if layer:
        typer.echo(json.dumps(layer_data(data), indent=2, ensure_ascii=False))
    else:
        typer.echo("\n".join(summary(data)))


@style_app.command("list")
def list_styles() -> None:
    """List the styles kept in the config folder.

    Example: crafter style list
    """
    names = installed_styles()
    typer.echo(f"{styles_dir()}: " + (", ".join(names) if names else "no styles yet (crafter style learn --install)"))


@style_app.command("schema")
def schema(output: Optional[Path] = typer.Option(None, "-o", "--output", help="Write to a file")) -> None:
    """Print the JSON Schema every style file is checked against.

    Example: crafter style schema -o style.schema.json
    """
    text = json.dumps(style_schema(), indent=2) + "\n"
    if output:
        output.write_text(text, encoding="utf-8")
        typer.echo(f"wrote {output}")
    else:
        typer.echo(text, nl=False)


@bench.command("style")
def bench_style(
    out: Path = typer.Option(Path("style-bench"), "-o", "--out", help="Folder for the drawn figures and the chart"),
    examples: Optional[int] = typer.Option(None, "--examples", help="Use only the first N examples"),
    png: bool = typer.Option(True, "--png/--svg-only", help="Also draw PNGs and read them with CraftEditor"),
    json_out: bool = typer.Option(False, "--json", help="Print the result as JSON"),
    figures: Optional[Path] = typer.Option(None, "--figures", help="Instead: a folder of one paper's figures "
                                           "(SVG, PNG, JPG, PDF); learn from the first half (by name), test on the rest"),
) -> None:
    """Learn styles back from the examples drawn in known looks; print the distances.

    Example: crafter bench style -o /tmp/style-bench
    On real figures: crafter bench style --figures paper-figures/
    """
    if figures is not None:
        files = sorted(p for p in figures.iterdir() if p.suffix.lower() in READABLE)
        p = prediction(files, installed_vectorizer())
        typer.echo(json.dumps(p, indent=2) if json_out else
                   f"learned from {len(p['learned_from'])}, tested on {len(p['tested_on'])}: learned style "
                   f"{p['learned']}  vs paper theme {p['paper_theme']}")
        return
    result = run_style_bench(out, examples=examples, png=png, vectorizer=installed_vectorizer(),
                             progress=lambda m: typer.echo(m, err=True))
    if json_out:
        typer.echo(json.dumps(result, indent=2))
        return
    typer.echo(f"{'set':<12} {'max ΔE':>7} {'mean ΔE':>8} {'max size pt':>12}  font  arrow  not learned")
    for r in result["round_trip"]:
        typer.echo(f"{r['set']:<12} {_fmt(r['max_dE']):>7} {_fmt(r['mean_dE']):>8} {_fmt(r['max_size_pt']):>12}  "
                   f"{_fmt(r['font_class']):<5} {_fmt(r['arrowhead']):<6} {', '.join(r['unlearned']) or '-'}")
    p = result["prediction"]
    typer.echo(f"prediction ({p['from']}): learned from {len(p['learned_from'])}, tested on {len(p['tested_on'])}: "
               f"learned style {p['learned']}  vs paper theme {p['paper_theme']}")
    c = result["chart_read_back"]
    typer.echo(f"chart in the learned style: {c['marks']} marks read back, largest error {c['max_error']:.4%} of the "
               f"axis range, {c['problems']} problem(s); {result['seconds']} s")
