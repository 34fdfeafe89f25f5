"""Continuous batching: concurrent requests share decode forwards and get the answers they get alone."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import httpx

from crafter.llm.backends import ServerBackend
from crafter.llm.corpus import held_out_set


def test_concurrent_requests_are_batched_and_answered_as_alone(server, backend):
    examples = held_out_set(4, seed=3)  # 4 plan, 4 chart, 4 repair
    prompts = [(e.task, e.prompt) for e in examples]
    want = [backend.complete(t, p).text for t, p in prompts]
    client = ServerBackend(server.url)
    before = httpx.get(server.url + "/health").json()
    for order in (list(range(len(prompts))), list(reversed(range(len(prompts))))):  # two different mixes of rows
        with ThreadPoolExecutor(max_workers=6) as pool:
            got = dict(pool.map(lambda i: (i, client.complete(*prompts[i]).text), order))
        assert [got[i] for i in range(len(prompts))] == want
    after = httpx.get(server.url + "/health").json()
    assert after["completed"] - before["completed"] == 2 * len(prompts)
    assert after["batched_rounds"] > before["batched_rounds"]  # rounds of several requests in one forward
    assert after["batch_rows"] - before["batch_rows"] > after["rounds"] - before["rounds"]
    assert after["active"] == 0 and after["free_slots"] == 4


def test_a_request_joins_a_running_batch(make_server, backend):
    """A short request sent while a long one decodes joins the running batch and is answered first."""
    server = make_server(max_batch=2, round_pause=0.02)
    brief = "The camera sends frames to the detector, the detector to the tracker, and the tracker to a dashboard."
    client = ServerBackend(server.url)
    with ThreadPoolExecutor(max_workers=2) as pool:
        t0 = time.monotonic()
        slow = pool.submit(lambda: (client.complete("plan", brief, speculative="none"), time.monotonic() - t0))
        assert _wait(lambda: httpx.get(server.url + "/health").json()["active"] == 1)
        fast = pool.submit(lambda: (client.complete("plan", "A feeds B."), time.monotonic() - t0))
        (slow_out, slow_t), (fast_out, fast_t) = slow.result(), fast.result()
    assert fast_t < slow_t
    assert slow_out.text == backend.complete("plan", brief, speculative="none").text
    assert fast_out.text == backend.complete("plan", "A feeds B.").text
    assert httpx.get(server.url + "/health").json()["batched_rounds"] > 0


def _wait(pred, seconds=10.0):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.02)
    return False
