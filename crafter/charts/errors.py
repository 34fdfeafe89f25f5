"""The chart package's error: a spec Crafter cannot draw, naming the chart and the spec path."""

from __future__ import annotations

from crafter.errors import RenderError


class ChartSpecError(RenderError):
    """A chart spec Crafter cannot draw: names the chart id and the spec path."""

    def __init__(self, message: str, *, chart: str | None = None, path: str | None = None) -> None:
        where = " ".join(x for x in (f"chart '{chart}'" if chart else "", f"at {path}" if path else "") if x)
        super().__init__(f"{where}: {message}" if where else message)
        self.chart = chart
        self.path = path
