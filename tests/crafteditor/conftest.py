"""Shared fixtures for CraftEditor tests: golden figures and small generated images."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

GOLDEN = Path(__file__).parent / "golden"


@pytest.fixture(scope="session")
def golden() -> dict[str, tuple[Path, dict]]:
    out = {}
    for png in sorted(GOLDEN.glob("*.png")):
        out[png.stem] = (png, json.loads(png.with_suffix(".json").read_text(encoding="utf-8")))
    return out


REAL_SET = Path("/work/shared/realfigs")


@pytest.fixture(scope="session")
def real_set() -> Path:
    """The real-figure set (kept out of the repository: other people's figures); its tests skip without it."""
    folder = Path(os.environ.get("CRAFTEDITOR_REAL_SET", REAL_SET))
    if not (folder / "manifest.json").is_file():
        pytest.skip(f"no real-figure set at {folder} (set CRAFTEDITOR_REAL_SET; see crafteditor.realset)")
    return folder
