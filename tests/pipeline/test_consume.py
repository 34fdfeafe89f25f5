"""The CLI, the library and the app follow a run the same way (crafter.graph.consume): every event is
passed on as it comes, and the run's result is returned; a stream that stops without one is an error."""

from __future__ import annotations

import pytest

from crafter.errors import CrafterError
from crafter.graph import PipelineEvent, RunResult, consume


def test_every_event_is_passed_on_and_the_result_returned():
    done = RunResult(run_id="r1", status="done")
    events = [PipelineEvent("start", node="plan"), PipelineEvent("done", node="plan"),
              PipelineEvent("finished", run_id="r1", result=done)]
    seen: list[str] = []
    assert consume(iter(events), lambda ev: seen.append(ev.kind)) is done
    assert seen == ["start", "done", "finished"]
    assert consume(iter(events), None) is done


def test_a_run_that_stops_without_a_result_is_an_error():
    with pytest.raises(CrafterError, match="without a result"):
        consume(iter([PipelineEvent("start", node="plan")]), None)
