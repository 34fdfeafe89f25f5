"""The ``--style`` option `render`, `chart` and `generate` share: a house style by file or by name
(kept in the config folder), and the layer it puts on a figure. Light: no pipeline, no model."""

from __future__ import annotations

from typing import Any

import typer

from crafter.style import SUFFIX, resolve_style, style_layer

STYLE_HELP = (f"A house style: a {SUFFIX} file, or a name kept in the config folder "
              "($XDG_CONFIG_HOME/crafter/styles, see `crafter style list`)")


def style_option() -> Any:
    return typer.Option(None, "--style", help=STYLE_HELP)


def load_style_option(name_or_path: str | None) -> dict[str, Any] | None:
    """The style a ``--style`` value names (validated), or None."""
    return None if name_or_path is None else resolve_style(name_or_path)


def layer_data(style: dict[str, Any] | None) -> dict[str, Any] | None:
    """A style as the figure carries it (the JSON of its :class:`StyleLayer`)."""
    return None if style is None else style_layer(style).model_dump(mode="json", exclude_none=True)
