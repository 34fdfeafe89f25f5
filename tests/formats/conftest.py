"""Fixtures for the format tests (helpers in pptx_helpers.py)."""

from __future__ import annotations

import pytest
from pptx_helpers import EXAMPLES, laid_out


@pytest.fixture(params=[p.stem for p in EXAMPLES])
def example_name(request) -> str:
    return request.param


@pytest.fixture(scope="module")
def examples_laid_out() -> dict:
    """Every example figure, laid out once per module."""
    return {p.stem: laid_out(p.stem) for p in EXAMPLES}
