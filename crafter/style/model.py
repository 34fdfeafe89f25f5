"""A house-style file (``NAME.style.json``): reading it against its published JSON Schema, writing it,
finding it by name in the user's config folder, and turning it into the figure's :class:`StyleLayer`.

The schema ships with the package (``crafter/style/style.schema.json``, ``crafter style schema``).
A file that breaks it is refused with an error naming the field (``sizes.label.value``); a field
the schema does not know is refused too, never silently ignored.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema

from crafter.base.theme import OKABE_ITO
from crafter.errors import InputError, SpecError
from crafter.spec.model import Figure
from crafter.spec.style_layer import ChartLook, StyleLayer

SCHEMA_ID = "https://crafter.dev/schemas/style-1.schema.json"
SUFFIX = ".style.json"
MIN_CONFIDENCE = 0.5  # a value fewer than half the observations agree with is reported, not applied
MAX_STYLE_BYTES = 2 * 2**20
FONT_FALLBACKS = {"sans": "Arial, Helvetica, sans-serif", "serif": "Times New Roman, Times, serif",
                  "mono": "Courier New, monospace"}


@lru_cache(maxsize=1)
def style_schema() -> dict[str, Any]:
    """The published JSON Schema of a style file."""
    return json.loads(resources.files("crafter.style").joinpath("style.schema.json").read_text(encoding="utf-8"))


def validate_style(data: Any, *, file: str | None = None) -> dict[str, Any]:
    """``data`` checked against the schema; the first error names its field (``palette.node_fill.value``)."""
    validator = jsonschema.Draft202012Validator(style_schema())
    errors = sorted(validator.iter_errors(data), key=lambda e: (len(e.absolute_path), list(map(str, e.absolute_path))))
    if errors:
        e = jsonschema.exceptions.best_match(errors)
        where = ".".join(str(p) for p in e.absolute_path) or None
        msg = e.message
        if e.validator == "additionalProperties":
            msg = f"unknown field: {msg.split('(')[-1].rstrip(')')}" if "(" in msg else msg
        raise SpecError(f"not a valid Crafter style: {msg}", field=where, file=file)
    return data


def load_style(path: str | Path) -> dict[str, Any]:
    """A style file, validated."""
    p = Path(path)
    if not p.exists():
        raise InputError("no such style file", file=str(p))
    if p.stat().st_size > MAX_STYLE_BYTES:
        raise InputError(f"a style file is at most {MAX_STYLE_BYTES // 2**20} MB", file=str(p))
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise InputError(f"not a JSON style file ({e})", file=str(p)) from None
    return validate_style(data, file=str(p))


def save_style(style: dict[str, Any], path: str | Path) -> None:
    validate_style(style, file=str(path))
    Path(path).write_text(json.dumps(style, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def styles_dir() -> Path:
    """Where named styles live: ``$XDG_CONFIG_HOME/crafter/styles`` (``~/.config/crafter/styles``)."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "crafter" / "styles"


def installed_styles() -> list[str]:
    d = styles_dir()
    return sorted(p.name[: -len(SUFFIX)] for p in d.glob(f"*{SUFFIX}")) if d.is_dir() else []


def resolve_style(name_or_path: str | Path) -> dict[str, Any]:
    """A style by file path, or by name from :func:`styles_dir` (``mylab`` → ``mylab.style.json``)."""
    p = Path(name_or_path)
    if p.exists() or p.suffix == ".json" or os.sep in str(name_or_path):
        return load_style(p)
    named = styles_dir() / f"{name_or_path}{SUFFIX}"
    if named.exists():
        return load_style(named)
    have = installed_styles()
    raise InputError(f"no style '{name_or_path}': not a file, and not in {styles_dir()} "
                     f"({'styles there: ' + ', '.join(have) if have else 'no styles there yet'})")


def install_style(style: dict[str, Any], *, overwrite: bool = True) -> Path:
    """Keep a style in the config folder under its name; returns the file."""
    d = styles_dir()
    d.mkdir(parents=True, exist_ok=True)
    path = d / f"{style['name']}{SUFFIX}"
    if path.exists() and not overwrite:
        raise InputError("a style of that name exists", file=str(path))
    save_style(style, path)
    return path


def value(style: dict[str, Any], dotted: str, min_confidence: float = 0.0) -> Any:
    """A learned value by its path (``sizes.label``), or None when the style does not know it (or is
    less sure of it than ``min_confidence``)."""
    section, key = dotted.split(".")
    entry = style.get(section, {}).get(key)
    return None if entry is None or entry["confidence"] < min_confidence else entry["value"]


def font_family(style: dict[str, Any]) -> str | None:
    face, cls = value(style, "font.face"), value(style, "font.class")
    if face is None and cls is None:
        return None
    fallback = FONT_FALLBACKS[cls or "sans"]
    return f"{face}, {fallback}" if face else fallback


def _series_palette(series: list[str] | None) -> tuple[str, ...] | None:
    """The learned series colours, then Okabe–Ito's for charts with more series than were seen."""
    if not series:
        return None
    return tuple(series) + tuple(c for c in OKABE_ITO if c.upper() not in {s.upper() for s in series})


def style_layer(style: dict[str, Any]) -> StyleLayer:
    """The values of a style as the figure carries them (:class:`StyleLayer`): every value it knows
    with confidence at least :data:`MIN_CONFIDENCE` (``crafter style show`` marks the others)."""
    v = lambda k: value(style, k, MIN_CONFIDENCE)  # noqa: E731
    label = v("sizes.label")
    rel = lambda k: None if label is None or v(k) is None else round(label * v(k), 2)  # noqa: E731
    chart = {k: v(f"chart.{k}") for k in ("grid", "frame", "domain", "ticks", "tick_direction", "legend_orient",
                                           "plot_background", "grid_color", "axis_color", "axis_width")}
    layer = dict(
        name=style["name"], font_family=font_family(style), font_size=label,
        title_font_size=rel("sizes.title_ratio"), small_font_size=rel("sizes.edge_label_ratio"),
        group_font_size=rel("sizes.group_label_ratio"),
        stroke_width=v("strokes.node"), edge_width=v("strokes.edge"), group_stroke_width=v("strokes.group"),
        corner_radius=v("shapes.corner_radius"), arrow_head=v("shapes.arrowhead"), group_dash=v("group_frame.dash"),
        node_sep=v("layout.node_sep"), rank_sep=v("layout.rank_sep"),
        text_color=v("palette.text_color"), node_fill=v("palette.node_fill"), node_stroke=v("palette.node_stroke"),
        edge_color=v("palette.edge_color"), edge_label_color=v("palette.edge_label_color"),
        group_fill=v("palette.group_fill"), group_stroke=v("palette.group_stroke"),
        background=v("palette.background"), palette=_series_palette(v("palette.series")),
        light_palette=tuple(v("palette.role_fills")) if v("palette.role_fills") else None,
        chart=ChartLook(**chart) if any(x is not None for x in chart.values()) else None,
    )
    return StyleLayer(**{k: x for k, x in layer.items() if x is not None})


def apply_style(fig: Figure, style: dict[str, Any] | None, *, direction: bool = False,
                restyle: bool = False) -> Figure:
    """``fig`` drawn in ``style`` (every export honours it: it travels as ``fig.style``).

    ``direction``: also take the style's preferred layout direction (for a figure being made,
    not one whose author chose a direction). ``restyle``: a figure read from another look (a
    converted raster) drops the colours, sizes and strokes its components carry, so the style
    draws them; its fills keep their roles: the plain fill becomes the style's, the k-th most
    used other fill the style's k-th role fill.
    """
    if style is None:
        return fig
    layer = style_layer(style)
    if restyle:
        fig = _restyled(fig, layer)
    update: dict[str, Any] = {"style": layer}
    if direction and value(style, "layout.direction", MIN_CONFIDENCE):
        update["direction"] = value(style, "layout.direction", MIN_CONFIDENCE)
    return fig.model_copy(update=update)


_LOOK = {"node": ("stroke", "stroke_width", "font_size", "text_color"), "edge": ("color", "stroke_width"),
         "group": ("fill", "stroke", "text_color"), "text": ("color",)}


def _restyled(fig: Figure, layer: StyleLayer) -> Figure:
    fills = Counter(c.fill for c in fig.components if c.kind == "node" and c.fill not in (None, "none"))
    ranked = [f for f, _ in fills.most_common()]
    plain = ranked[0] if ranked and sum(c.kind == "node" and c.fill is None for c in fig.components) < fills[ranked[0]] \
        else None
    roles = {f: (layer.light_palette[i] if layer.light_palette and i < len(layer.light_palette) else f)
             for i, f in enumerate(r for r in ranked if r != plain)}
    data = fig.to_dict()
    for c in data["components"]:
        for key in _LOOK.get(c["kind"], ()):
            c.pop(key, None)
        if c["kind"] == "node" and c.get("fill") not in (None, "none"):
            if c["fill"] == plain:
                c.pop("fill")
            else:
                c["fill"] = roles.get(c["fill"], c["fill"])
    return Figure.from_dict(data)
