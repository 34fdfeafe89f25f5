"""Shared fixtures for the renderer's tests (helpers live in render_helpers.py)."""

from __future__ import annotations

import pytest
from render_helpers import SHOWCASE_DSL, hand_layout

from crafter.spec import Figure, parse_dsl


@pytest.fixture
def showcase() -> Figure:
    return hand_layout(parse_dsl(SHOWCASE_DSL))
