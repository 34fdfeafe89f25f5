"""The engines: same input gives the same bytes; ELK trouble falls back to Python; bad engine names fail clearly."""

from __future__ import annotations

import logging

import pytest
from layout_cases import case_figure, random_figure

from crafter.benchmarks.render import bench_layout
from crafter.layout import LayoutError, elk, layout_figure, layout_problems
from crafter.layout.problem import EngineError
from crafter.spec import parse_dsl


def test_deterministic(engine: str) -> None:
    for fig in (case_figure("nested_groups"), random_figure(3), case_figure("cycles")):
        assert layout_figure(fig, engine=engine).to_json() == layout_figure(fig, engine=engine).to_json()


def test_fresh_elk_process_gives_the_same_layout() -> None:
    if not elk.elk_available():
        pytest.skip("Node.js or elkjs is not installed")
    fig = random_figure(5)
    warm = layout_figure(fig, engine="elk").to_json()
    elk.shutdown()
    assert layout_figure(fig, engine="elk").to_json() == warm


def test_dead_elk_process_is_restarted() -> None:
    if not elk.elk_available():
        pytest.skip("Node.js or elkjs is not installed")
    srv = elk.server()
    layout_figure(case_figure("chain"), engine="elk")
    starts = srv.starts
    assert srv._proc is not None
    srv._proc.kill()
    srv._proc.wait()
    laid = layout_figure(case_figure("chain"), engine="elk")
    assert layout_problems(laid) == []
    assert srv.starts == starts + 1


def test_elk_failure_falls_back_to_python(monkeypatch, caplog) -> None:
    def broken(self, graph, timeout=30.0):
        raise EngineError("ELK failed: simulated")

    monkeypatch.setattr(elk.ElkServer, "layout", broken)
    monkeypatch.setattr(elk, "_UNAVAILABLE", None)
    monkeypatch.setattr(elk, "elk_available", lambda: True)
    with caplog.at_level(logging.WARNING, logger="crafter.layout.figure"):
        laid = layout_figure(case_figure("nested_groups"), engine="elk")
    assert layout_problems(laid) == []
    assert "using the Python engine" in caplog.text


def test_without_node_auto_uses_python(monkeypatch) -> None:
    monkeypatch.setattr(elk, "_UNAVAILABLE", "Node.js is not installed (no 'node' on the PATH)")
    laid = layout_figure(case_figure("edges_between_groups"))
    assert layout_problems(laid) == []
    assert not elk.elk_available()


def test_missing_node_is_reported(monkeypatch) -> None:
    monkeypatch.setattr(elk, "find_node", lambda: None)
    with pytest.raises(EngineError, match="Node.js is not installed"):
        elk.ElkServer().start()


def test_unknown_engine() -> None:
    with pytest.raises(LayoutError, match="unknown layout engine 'graphviz'"):
        layout_figure(case_figure("chain"), engine="graphviz")


def test_bench_layout_reports_timings() -> None:
    r = bench_layout(10, engine="python", repeats=1)
    assert r["nodes"] == 10 and r["engine"] == "python"
    assert r["median_ms"] > 0 and r["first_ms"] > 0 and r["startup_ms"] == 0


def test_warm_up_finishes_and_layouts_still_match() -> None:
    if not elk.elk_available():
        pytest.skip("Node.js or elkjs is not installed")
    fig = case_figure("nested_groups")
    before = layout_figure(fig, engine="elk").to_json()
    waited = elk.server().warm_up(timeout=120)
    assert waited >= 0
    assert layout_figure(fig, engine="elk").to_json() == before


def test_nested_group_with_edges_out_and_back_is_laid_out_by_elk(caplog) -> None:
    """An edge out of a nested group to a member of the group around it, and one back in: elkjs 0.12's model-order
    cycle breaking crashes on it; the figure is still laid out by ELK (no Python fallback), every node in its group."""
    if not elk.elk_available():
        pytest.skip("elkjs not installed")
    fig = parse_dsl('figure "t" direction=LR\nform node "Web form"\neng node "Engine"\nstore node "Store"\n'
                    'audit node "Audit logger"\nsite node "Site"\ne1 edge form -> eng\ne2 edge store -> audit\n'
                    'e3 edge audit -> eng\ne4 edge eng -> site\ng_core group "Core" [eng, store]\n'
                    'g_svc group "Service" [g_core, audit]')
    with caplog.at_level(logging.WARNING, logger="crafter.layout"):
        out = layout_figure(fig, engine="elk")
    assert not [r for r in caplog.records if "using the Python engine" in r.getMessage()]
    boxes = {c.id: c.box for c in out.components if getattr(c, "box", None) is not None}
    for inner, outer in (("eng", "g_core"), ("store", "g_core"), ("g_core", "g_svc"), ("audit", "g_svc")):
        a, b = boxes[inner], boxes[outer]
        assert b.x <= a.x and b.y <= a.y and a.x + a.w <= b.x + b.w and a.y + a.h <= b.y + b.h, (inner, outer)
