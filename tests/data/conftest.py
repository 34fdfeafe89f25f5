"""Fixtures for the table readers: write bytes to a temp file and read them back."""

from __future__ import annotations

from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "data"


@pytest.fixture
def write(tmp_path):
    def _write(name: str, content: bytes | str, encoding: str = "utf-8") -> Path:
        p = tmp_path / name
        p.write_bytes(content.encode(encoding) if isinstance(content, str) else content)
        return p

    return _write


@pytest.fixture
def examples() -> Path:
    return EXAMPLES
