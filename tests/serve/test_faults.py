"""Overload and faults on a real server: key, storm past the queue, deadline, disconnects, kill and restart."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from crafter.llm import ModelError
from crafter.llm.backends import ServerBackend
from crafter.serve import ServerThread, build, free_port

BRIEF = "The camera sends frames to the detector, the detector to the tracker, and the tracker to a dashboard."
SLOW = {"speculative": "none"}  # one token per forward: a request of many rounds


def _wait(pred, seconds=5.0):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.05)
    return False


def test_api_key_is_required_on_v1_but_not_for_health(make_server, monkeypatch):
    server = make_server(api_key="s3cret")
    body = {"model": "craftlm", "prompt": "A feeds B."}
    r = httpx.post(server.url + "/v1/completions", json=body)
    assert r.status_code == 401 and "Authorization: Bearer" in r.json()["error"]["message"]
    assert r.headers["www-authenticate"] == "Bearer"
    r = httpx.get(server.url + "/v1/models", headers={"Authorization": "Bearer wrong"})
    assert r.status_code == 401 and "wrong API key" in r.json()["error"]["message"]
    assert httpx.get(server.url + "/health").status_code == 200
    assert httpx.post(server.url + "/v1/completions", json=body, headers={"Authorization": "Bearer s3cret"}).status_code == 200
    with pytest.raises(ModelError, match="HTTP 401"):
        ServerBackend(server.url).complete("plan", "A feeds B.")
    assert ServerBackend(server.url, api_key="s3cret").complete("plan", "A feeds B.").text


def test_a_storm_past_the_queue_gets_429_with_retry_after(make_server, backend):
    server = make_server(max_batch=1, max_queue=1, round_pause=0.02)
    body = {"model": "craftlm", "prompt": BRIEF, "crafter": SLOW}
    with ThreadPoolExecutor(max_workers=8) as pool:
        answers = list(pool.map(lambda _: httpx.post(server.url + "/v1/completions", json=body, timeout=60), range(8)))
    ok = [r for r in answers if r.status_code == 200]
    busy = [r for r in answers if r.status_code == 429]
    assert len(ok) + len(busy) == 8 and 1 <= len(ok) <= 3 and len(busy) >= 5
    for r in busy:
        assert int(r.headers["retry-after"]) >= 1 and "busy" in r.json()["error"]["message"]
    want = backend.complete("plan", BRIEF, **SLOW).text
    assert all(r.json()["choices"][0]["text"] == want for r in ok)
    # Crafter's client waits as Retry-After says, so in a storm nothing it sends is lost
    client, short = ServerBackend(server.url), "A feeds B, and B feeds C."
    with ThreadPoolExecutor(max_workers=4) as pool:
        texts = list(pool.map(lambda _: client.complete("plan", short, **SLOW).text, range(4)))
    assert texts == [backend.complete("plan", short, **SLOW).text] * 4
    assert httpx.get(server.url + "/health").json()["rejected"] >= len(busy)


def test_a_request_past_its_deadline_is_cancelled(make_server, backend):
    server = make_server(max_batch=2, round_pause=0.05)
    r = httpx.post(server.url + "/v1/completions", timeout=30,
                   json={"model": "craftlm", "prompt": BRIEF, "crafter": {**SLOW, "timeout": 0.5}})
    assert r.status_code == 504 and "deadline of 0.5 s" in r.json()["error"]["message"]
    h = httpx.get(server.url + "/health").json()
    assert h["timed_out"] == 1 and h["active"] == 0 and h["free_slots"] == 2
    with pytest.raises(ModelError, match="HTTP 504.*deadline"):
        ServerBackend(server.url).complete("plan", BRIEF, timeout=0.5, **SLOW)
    assert ServerBackend(server.url).complete("plan", "A feeds B.").text == backend.complete("plan", "A feeds B.").text


def test_a_client_that_disconnects_frees_its_slot(make_server, backend):
    """round_pause 0.5 s: the answer takes many rounds, so the client leaves while it is being decoded."""
    server = make_server(max_batch=1, round_pause=0.5)
    health = lambda: httpx.get(server.url + "/health").json()  # noqa: E731
    body = {"model": "craftlm", "messages": [{"role": "user", "content": BRIEF}], "stream": True, "crafter": SLOW}
    with httpx.stream("POST", server.url + "/v1/chat/completions", json=body, timeout=30) as r:
        # keep the line iterator referenced: dropping it would close the connection at once (httpx closes the
        # stream when its generators are finalised) and race the health check below against the cancellation
        lines = r.iter_lines()
        for line in lines:
            if line.startswith("data: "):
                break  # the first event (the assistant's role): then the client goes away mid-stream
        h = health()
        assert h["waiting"] + h["preparing"] + h["active"] == 1, h
        del lines
    assert _wait(lambda: health()["cancelled"] == 1 and health()["active"] == 0 and health()["free_slots"] == 1)
    # a client that stops waiting for a whole answer too
    with pytest.raises(httpx.ReadTimeout):
        httpx.post(server.url + "/v1/chat/completions", json={**body, "stream": False}, timeout=0.4)
    assert _wait(lambda: health()["cancelled"] == 2 and health()["free_slots"] == 1)
    assert ServerBackend(server.url).complete("plan", "A feeds B.").text == backend.complete("plan", "A feeds B.").text


def test_a_server_killed_and_restarted_under_the_client(backend):
    """kill -9 of a real `crafter serve`: a clear error, then the same client works with the restarted server."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "crafter.cli", "serve", "--port", str(port), "--threads", "1"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "CRAFTER_MODEL_URL": ""})
    url = f"http://127.0.0.1:{port}"
    try:
        def up():
            assert proc.poll() is None, proc.stderr.read()
            try:
                return httpx.get(url + "/health", timeout=1).status_code == 200
            except httpx.HTTPError:
                return False

        assert _wait(up, 90)
        client = ServerBackend(url)
        want = backend.complete("plan", BRIEF).text
        assert client.complete("plan", BRIEF).text == want
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    with pytest.raises(ModelError, match="cannot reach .*is `crafter serve` running"):
        client.complete("plan", BRIEF)
    app, _ = build(backend=backend)
    with ServerThread(app, port=port):  # restarted on the same port
        assert client.complete("plan", BRIEF).text == want
