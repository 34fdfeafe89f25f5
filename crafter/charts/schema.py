"""Validation against the official Vega-Lite JSON Schema (the copy the ``altair`` package ships).

A chart spec that passes opens in the Vega editor. Errors become one
:class:`VegaLiteSchemaError` carrying the path to the bad field, like Altair's own.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

import jsonschema

from crafter.errors import SpecError


class VegaLiteSchemaError(SpecError):
    """A chart spec that the Vega-Lite schema rejects."""


@lru_cache(maxsize=1)
def vegalite_schema() -> dict[str, Any]:
    """The Vega-Lite JSON Schema shipped by altair (the newest major version it carries)."""
    import altair  # heavy: 1.3 s to import; only schema validation needs it

    base = resources.files("altair") / "vegalite"
    versions = sorted((p.name for p in base.iterdir() if p.name.startswith("v") and p.name[1:].isdigit()),
                      key=lambda n: int(n[1:]))
    path = base / versions[-1] / "schema" / "vega-lite-schema.json"
    schema = json.loads(path.read_text(encoding="utf-8"))
    schema["$id"] = getattr(altair, "SCHEMA_URL", "")
    return schema


def schema_url() -> str:
    import altair  # heavy: 1.3 s to import; only Vega-Lite export needs it

    major = altair.SCHEMA_VERSION.lstrip("v").split(".")[0]
    return f"https://vega.github.io/schema/vega-lite/v{major}.json"


@lru_cache(maxsize=1)
def _validator():
    return jsonschema.Draft7Validator(vegalite_schema())


def schema_errors(spec: dict[str, Any]) -> list[str]:
    """Every schema violation, each as 'path: message' (empty when the spec is valid)."""
    out = []
    for top in _validator().iter_errors(spec):
        e = jsonschema.exceptions.best_match([top])  # the most relevant error inside an anyOf
        path = ".".join(str(p) for p in e.absolute_path) or "(top level)"
        out.append(f"{path}: {e.message}")
    return out


def validate_vegalite(spec: dict[str, Any], *, chart: str | None = None) -> None:
    """Raise :class:`VegaLiteSchemaError` (with the path of the most relevant error) unless ``spec`` is valid."""
    error = jsonschema.exceptions.best_match(_validator().iter_errors(spec))
    if error is None:
        return
    path = "spec." + ".".join(str(p) for p in error.absolute_path) if error.absolute_path else "spec"
    msg = error.message
    if len(msg) > 240:
        msg = msg[:237] + "..."
    raise VegaLiteSchemaError(f"not valid Vega-Lite: {msg}", component=chart, field=path)
