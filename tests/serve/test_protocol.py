"""The OpenAI-compatible protocol on a real server: every endpoint, streaming, answers identical to in-process."""

from __future__ import annotations

import json

import httpx
import pytest

from crafter.llm import ModelError, chart_prompt, get_backend, plan_prompt, repair_prompt
from crafter.llm.backends import ServerBackend

PROMPTS = [
    ("plan", plan_prompt("The encoder feeds the decoder, which writes to a cache.")),
    ("chart", chart_prompt("year (temporal), revenue (quantitative), region (nominal)", "revenue over the years by region")),
    ("repair", repair_prompt('n1 node "A"\nn2 node "B"\ne1 edge n1 -> n2', 'rename n1 to "Alpha"', ["n1"])),
]


def _sse(lines) -> tuple[list[dict], bool]:
    events, done = [], False
    for line in lines:
        if line.startswith("data: "):
            if line == "data: [DONE]":
                done = True
            else:
                events.append(json.loads(line[6:]))
    return events, done


def test_health_and_models(server):
    h = httpx.get(server.url + "/health").json()
    assert h["status"] == "ok" and h["model"] == "craftlm" and h["device"] == "cpu" and h["max_batch"] == 4
    ids = [m["id"] for m in httpx.get(server.url + "/v1/models").json()["data"]]
    assert ids == ["craftlm", "craftlm-plan", "craftlm-chart", "craftlm-repair"]


@pytest.mark.parametrize("task,prompt", PROMPTS)
def test_completions_answer_as_in_process(server, backend, task, prompt):
    want = backend.complete(task, prompt)
    r = httpx.post(server.url + "/v1/completions", json={"model": "craftlm", "prompt": prompt}, timeout=30)
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["object"] == "text_completion" and data["choices"][0]["finish_reason"] == "stop"
    assert data["choices"][0]["text"] == want.text
    assert data["usage"]["completion_tokens"] == want.stats["tokens"] and data["crafter_stats"]["task"] == task


def test_chat_completions_and_the_openai_backend(server, backend):
    """A general OpenAI client (Crafter's own openai: backend sends chat messages) gets the in-process answer."""
    client = get_backend(f"openai:{server.url}/v1#model=craftlm")
    for task, prompt in PROMPTS:
        assert client.complete(task, prompt).text == backend.complete(task, prompt).text
    brief = "Sensors send readings to a hub."
    r = httpx.post(server.url + "/v1/chat/completions", timeout=30,
                   json={"model": "craftlm-plan", "messages": [{"role": "user", "content": brief}]})
    assert r.status_code == 200 and r.json()["object"] == "chat.completion"
    assert r.json()["choices"][0]["message"]["content"] == backend.complete("plan", brief).text


@pytest.mark.parametrize("chat", [False, True])
def test_streaming_adds_up_to_the_answer(server, backend, chat):
    task, prompt = PROMPTS[0]
    body = {"model": "craftlm", "stream": True}
    body.update({"messages": [{"role": "user", "content": prompt}]} if chat else {"prompt": prompt})
    with httpx.stream("POST", server.url + ("/v1/chat/completions" if chat else "/v1/completions"), json=body,
                      timeout=30) as r:
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
        events, done = _sse(r.iter_lines())
    assert done
    pieces = [(e["choices"][0]["delta"].get("content") if chat else e["choices"][0]["text"]) or "" for e in events]
    assert "".join(pieces) == backend.complete(task, prompt).text
    assert sum(1 for p in pieces if p) >= 2  # it did stream: lines came before the end
    assert events[-1]["choices"][0]["finish_reason"] == "stop" and events[-1]["crafter_stats"]["tokens"] > 0


def test_crafter_model_url_makes_craftlm_the_server(server, backend, monkeypatch):
    monkeypatch.setenv("CRAFTER_MODEL_URL", server.url)
    b = get_backend("craftlm")
    assert isinstance(b, ServerBackend) and get_backend("server") is b
    for task, prompt in PROMPTS:
        for kw in ({}, {"speculative": "none"}, {"constrain": False, "max_new_tokens": 40}):
            assert b.complete(task, prompt, **kw).text == backend.complete(task, prompt, **kw).text
    out = b.complete("plan", "The encoder feeds the decoder.")
    assert out.stats["backend"] == "server" and out.stats["server"] == server.url and out.stats["forward_passes"] > 0
    assert not isinstance(get_backend("craftlm", use_server=False), ServerBackend)


@pytest.mark.parametrize("body,status,words", [
    (b"{not json", 400, "not valid JSON"),
    (b"[1, 2]", 400, "JSON object"),
    (b'{"model": "gpt-4", "prompt": "a"}', 404, "model 'gpt-4' is not served"),
    (b'{"model": "craftlm", "prompt": "a", "max_tokens": -5}', 400, "field 'max_tokens'"),
    (b'{"model": "craftlm"}', 400, "field 'prompt'"),
    (b'{"model": "craftlm", "prompt": "   "}', 400, "empty"),
    (b'{"model": "craftlm", "prompt": "a", "n": 3}', 400, "field 'n'"),
    (b'{"model": "craftlm", "prompt": "a", "crafter": {"speculative": "magic"}}', 400, "crafter.speculative"),
    (b'{"model": "craftlm-chart", "prompt": "<|plan|>a<|out|>"}', 400, "plan prompt but the task asked for is chart"),
])
def test_bad_requests_get_clear_errors(server, body, status, words):
    r = httpx.post(server.url + "/v1/completions", content=body, headers={"content-type": "application/json"})
    assert r.status_code == status, r.text
    assert words in r.json()["error"]["message"]


def test_prompt_past_the_context_and_oversized_bodies(server):
    r = httpx.post(server.url + "/v1/completions", json={"model": "craftlm", "prompt": "word " * 3000}, timeout=30)
    assert r.status_code == 400 and "does not fit the model's context of 1536" in r.json()["error"]["message"]
    r = httpx.post(server.url + "/v1/completions", json={"model": "craftlm", "prompt": "x" * 300_000})
    assert r.status_code == 413 and "over the limit" in r.json()["error"]["message"]
    assert httpx.get(server.url + "/health").json()["status"] == "ok"  # and it keeps serving


def test_client_errors_name_the_server_and_the_fix(server, monkeypatch):
    with pytest.raises(ModelError, match="cannot reach .*is `crafter serve` running"):
        ServerBackend("http://127.0.0.1:9").complete("plan", "a b")
    with pytest.raises(ModelError, match="HTTP 400.*context"):
        ServerBackend(server.url).complete("plan", "word " * 3000)
    monkeypatch.delenv("CRAFTER_MODEL_URL", raising=False)
    with pytest.raises(ModelError, match="set CRAFTER_MODEL_URL"):
        get_backend("server")


def test_sharing_beyond_loopback_needs_a_key(capsys):
    from crafter.cli import main

    assert main(["serve", "--host", "0.0.0.0", "--port", "1"]) == 1
    err = capsys.readouterr().err
    assert "--host 0.0.0.0 shares the model beyond this machine: give --api-key" in err
