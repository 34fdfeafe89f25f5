"""Shared fixtures for CraftEditor tests: golden figures and small generated images."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

GOLDEN = Path(__file__).parent / "golden"


@pytest.fixture(scope="session")
def golden() -> dict[str, tuple[Path, dict]]:
    out = {}
    for png in sorted(GOLDEN.glob("*.png")):
        out[png.stem] = (png, json.loads(png.with_suffix(".json").read_text(encoding="utf-8")))
    return out
