"""Shared fixtures for CraftEditor tests: golden figures and small generated images."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from crafteditor.realset import RealFigure, load_real

GOLDEN = Path(__file__).parent / "golden"


@pytest.fixture(scope="session")
def golden() -> dict[str, tuple[Path, dict]]:
    out = {}
    for png in sorted(GOLDEN.glob("*.png")):
        out[png.stem] = (png, json.loads(png.with_suffix(".json").read_text(encoding="utf-8")))
    return out


ROOT = Path(__file__).resolve().parents[2]
REAL_SET = ROOT / "shared" / "realfigs"  # the figures (outside git); their truth is ROOT/realset/manifest.json
REAL_MANIFEST = ROOT / "realset" / "manifest.json"


@pytest.fixture(scope="session")
def real_set() -> Path:
    """The real-figure set (kept out of the repository: other people's figures); its tests skip without it."""
    folder = Path(os.environ.get("CRAFTEDITOR_REAL_SET", REAL_SET))
    if not (folder / "figs").is_dir():
        pytest.skip(f"no real-figure set at {folder} (set CRAFTEDITOR_REAL_SET; see crafteditor.realset)")
    return folder


def dev_figure(folder: Path, fid: str) -> RealFigure:
    """One figure of the real set's dev split (the test split stays unseen); skips where it is absent."""
    for f in load_real(folder, "dev", manifest=REAL_MANIFEST):
        if f.id == fid:
            return f
    pytest.skip(f"{fid} is not in the real set's dev split")
