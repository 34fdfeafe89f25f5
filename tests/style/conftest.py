"""Shared fixtures for house styles: the examples drawn in known looks (crafter.benchmarks.style)."""

from __future__ import annotations

from pathlib import Path

import pytest

from crafter.benchmarks.style import draw, example_files
from crafter.graph.state import installed_vectorizer


@pytest.fixture(scope="session")
def svg_sets(tmp_path_factory) -> dict[str, list[Path]]:
    """Every example drawn as SVG in the paper theme, the mono theme and the custom "lab" style."""
    out = tmp_path_factory.mktemp("looks")
    return {look: draw(look, example_files(), out / look, ".svg") for look in ("paper", "mono", "lab")}


@pytest.fixture(scope="session")
def png_sets(tmp_path_factory) -> dict[str, list[Path]]:
    """Three examples drawn as 150 dpi PNGs in the paper theme and the "lab" style."""
    out = tmp_path_factory.mktemp("pngs")
    return {look: draw(look, example_files(3), out / look, ".png") for look in ("paper", "lab")}


@pytest.fixture(scope="session")
def vectorizer():
    vec = installed_vectorizer()
    assert vec is not None, "CraftEditor's crafter.vectorizers entry point is not installed"
    return vec
