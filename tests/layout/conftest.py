"""Shared fixtures for the layout tests: both engines."""

from __future__ import annotations

import pytest


def _elk_ok() -> bool:
    from crafter.layout.elk import elk_available

    return elk_available()


@pytest.fixture(params=["elk", "python"])
def engine(request: pytest.FixtureRequest) -> str:
    if request.param == "elk" and not _elk_ok():
        pytest.skip("Node.js or elkjs is not installed")
    return request.param
