"""`crafter bench render`: the synthetic figures and the command's output (timings are printed, not asserted)."""

from __future__ import annotations

import pytest

from crafter.benchmarks.render import bench_figure


@pytest.mark.parametrize("n", [10, 30, 100])
def test_bench_figures_have_the_requested_size(n: int) -> None:
    fig = bench_figure(n)
    assert len(fig.of_kind("node")) == n
    assert len(fig.of_kind("edge")) == n - 1  # a tree: the chain plus one edge per branch node
    assert len(fig.of_kind("group")) == 2


def test_bench_render_command_prints_a_row_per_size(capsys: pytest.CaptureFixture[str]) -> None:
    layout = pytest.importorskip("crafter.layout")
    if not hasattr(layout, "layout_figure"):
        pytest.skip("crafter.layout.layout_figure is not there yet")
    from crafter.cli import main

    assert main(["bench", "render", "--sizes", "5,12", "--repeats", "1"]) == 0
    out = capsys.readouterr().out
    print(out)
    assert "layout ms" in out and "render ms" in out and "start-up" in out
    rows = [line.split() for line in out.splitlines() if line.strip()[:1].isdigit()]
    assert [r[0] for r in rows] == ["5", "12"]


def test_bench_render_rejects_bad_sizes(capsys: pytest.CaptureFixture[str]) -> None:
    from crafter.cli import main

    assert main(["bench", "render", "--sizes", "ten"]) == 1
    assert "--sizes" in capsys.readouterr().err
