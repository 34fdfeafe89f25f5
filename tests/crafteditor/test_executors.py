"""A worker that dies under a task (killed, out of memory, a native crash) costs that task, never the batch."""

from ce_helpers import die_on

from crafteditor.executors import ProcessExecutor


def test_a_task_that_kills_its_worker_is_reported_lost_and_the_rest_complete():
    ex = ProcessExecutor(2, ocr=False)
    lost = []
    try:
        out = list(ex.run(die_on, [(x,) for x in ["a", "b", "die", "c", "d", "e"]],
                          lost=lambda a, e: lost.append(a) or f"lost:{a[0]}"))
    finally:
        ex.close()
    # every input answered exactly once; only the culprit is lost, though the pool broke under its neighbours too
    assert sorted(out) == ["a", "b", "c", "d", "e", "lost:die"]
    assert lost == [("die",)]
