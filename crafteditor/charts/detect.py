"""Chart detection (stub until the full detector lands)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class ChartResult:
    pass


def detect_charts(rgb, paints, runs, config, image):
    return []
