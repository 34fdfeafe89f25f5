"""Chart data by reference: ``spec.data.url`` naming a table file next to the figure.

A chart may say ``"data": {"url": "results.csv"}`` (Vega-Lite's own field); when the
figure is loaded, the table is read (with crafter.data's readers, types and size limit)
and inlined as ``{"values": [...], "name": "results.csv"}``, so everything downstream
sees inline data and the saved figure is self-contained. ``"results.xlsx#memory"``
picks a sheet.

Safety: only relative paths inside the figure's folder. Absolute paths, ``..``, ``~``,
URLs (``http:``, ``file:``, ``data:`` …) and symlinks leading outside are refused, so a
figure file cannot make Crafter read arbitrary files or reach the network.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Any

from crafter.data import read_table
from crafter.errors import InputError, SpecError

_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")


def safe_table_path(url: str, base_dir: str | Path, *, component: str | None = None) -> tuple[Path, str | None]:
    """The file a relative ``data.url`` names inside ``base_dir`` (and an optional sheet)."""
    def refuse(why: str) -> SpecError:
        return SpecError(f"data.url '{url}': {why}", component=component, field="spec.data.url")

    if not isinstance(url, str) or not url.strip():
        raise refuse("must be a relative file name")
    path, _, sheet = url.partition("#")
    if _SCHEME.match(path) and not re.match(r"^[A-Za-z]:[\\/]", path):
        raise refuse("URLs are not allowed; put the table file next to the figure and name it")
    if path.startswith(("/", "\\", "~")) or PureWindowsPath(path).is_absolute() or re.match(r"^[A-Za-z]:", path):
        raise refuse("absolute paths are not allowed; use a path relative to the figure file")
    parts = PurePosixPath(path.replace("\\", "/")).parts
    if ".." in parts:
        raise refuse("'..' is not allowed; keep tables in the figure's folder")
    base = Path(base_dir).resolve()
    target = (base / Path(*parts)).resolve()
    if not target.is_relative_to(base):
        raise refuse("points outside the figure's folder")
    if not target.is_file():
        raise refuse(f"no such file next to the figure (looked in {base})")
    return target, sheet or None


def resolve_spec_data(spec: dict[str, Any], base_dir: str | Path, *, component: str | None = None) -> dict[str, Any]:
    """A copy of a chart spec with ``data.url`` replaced by the table's rows (unchanged if inline)."""
    data = spec.get("data")
    if not isinstance(data, dict) or "url" not in data:
        return spec
    path, sheet = safe_table_path(data["url"], base_dir, component=component)
    try:
        table = read_table(path, sheet=sheet)
    except InputError as e:
        raise SpecError(f"data.url '{data['url']}': {e.message}", component=component, field="spec.data.url") from None
    out = copy.copy(spec)
    out["data"] = {"values": table.to_records(), "name": data["url"]}
    return out


def resolve_data_urls(obj: Any, base_dir: str | Path) -> Any:
    """Resolve every chart's ``data.url`` in a Figure, a Chart or a bare spec dict (returns a copy)."""
    if isinstance(obj, dict):
        return resolve_spec_data(obj, base_dir)
    kind = getattr(obj, "kind", None)
    if kind == "chart":
        spec = resolve_spec_data(obj.spec, base_dir, component=obj.id)
        return obj if spec is obj.spec else obj.model_copy(update={"spec": spec})
    comps = getattr(obj, "components", None)
    if comps is None:
        raise TypeError(f"cannot resolve chart data in a {type(obj).__name__}")
    changed = [resolve_data_urls(c, base_dir) if c.kind == "chart" else c for c in comps]
    if all(a is b for a, b in zip(changed, comps)):
        return obj
    return obj.model_copy(update={"components": changed})
