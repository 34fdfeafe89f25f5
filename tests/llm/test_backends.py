"""Backends behind one interface: craftlm (tiny random weights), hf (tiny random model), openai (real HTTP server)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from crafter.llm import ModelError, get_backend, plan_prompt, repair_prompt


def test_unknown_backend_is_a_clear_error():
    with pytest.raises(ModelError, match="unknown backend 'gpt5'"):
        get_backend("gpt5")
    with pytest.raises(ModelError, match="needs a path"):
        get_backend("hf:")


def test_craftlm_backend_completes_with_stats(weights_dir):
    b = get_backend(f"craftlm:{weights_dir}")
    plain = b.complete("plan", plan_prompt("The encoder feeds the decoder."), max_new_tokens=24, speculative="none")
    spec = b.complete("plan", plan_prompt("The encoder feeds the decoder."), max_new_tokens=24, speculative="diffusion")
    assert spec.text == plain.text
    for key in ("forward_passes", "tokens", "tokens_per_forward", "acceptance_histogram", "seconds", "tokens_per_second"):
        assert key in spec.stats
    # plain user text is wrapped for the task
    assert b.complete("plan", "The encoder feeds the decoder.", max_new_tokens=24, speculative="none").text == plain.text


def test_craftlm_bad_input(weights_dir):
    b = get_backend(f"craftlm:{weights_dir}")
    with pytest.raises(ModelError, match="empty"):
        b.complete("plan", "   ")
    with pytest.raises(ModelError, match="context"):
        b.complete("plan", "word " * 2000)
    with pytest.raises(ModelError, match="unknown task"):
        b.complete("poem", "roses")
    with pytest.raises(ModelError, match="ISSUE"):
        b.complete("repair", 'n1 node "A"')
    out = b.complete("repair", 'n1 node "A"\nISSUE: rename n1 to "B"', max_new_tokens=8)
    assert isinstance(out.text, str)


@pytest.fixture(scope="module")
def hf_model_dir(tmp_path_factory, tokenizer):
    from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast

    d = tmp_path_factory.mktemp("hf")
    fast = PreTrainedTokenizerFast(tokenizer_object=tokenizer.tok, eos_token="<|eos|>", pad_token="<|pad|>")
    fast.save_pretrained(d)
    cfg = GPT2Config(vocab_size=tokenizer.vocab_size, n_positions=512, n_embd=32, n_layer=2, n_head=2,
                     eos_token_id=tokenizer.eos_id, bos_token_id=tokenizer.eos_id)
    GPT2LMHeadModel(cfg).save_pretrained(d)
    return d


def test_hf_backend_on_a_tiny_random_model(hf_model_dir):
    b = get_backend(f"hf:{hf_model_dir}")
    plain = b.complete("plan", plan_prompt("A feeds B."), max_new_tokens=12, speculative="none")
    lookup = b.complete("plan", plan_prompt("A feeds B."), max_new_tokens=12, speculative="ngram")
    assert plain.text == lookup.text
    assert plain.stats["tokens"] <= 12 and plain.stats["forward_passes"] >= 1
    assert lookup.stats["drafter"] == "ngram"


def test_hf_backend_missing_dir(tmp_path):
    with pytest.raises(ModelError, match="no model directory"):
        get_backend(f"hf:{tmp_path / 'nope'}")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ModelError, match="cannot load"):
        get_backend(f"hf:{tmp_path / 'empty'}")


# ---- a real OpenAI-compatible server on 127.0.0.1 ----

class _Handler(BaseHTTPRequestHandler):
    mode = "chat"  # chat | completions-only | garbage | no-choices
    seen: list = []

    def log_message(self, *a):  # keep pytest output clean
        pass

    def _send(self, code, body, ctype="application/json"):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path == "/v1/models":
            return self._send(200, {"object": "list", "data": [{"id": "tiny-test-model", "object": "model"}]})
        self._send(404, {"error": "not found"})

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).seen.append((self.path, body))
        mode = type(self).mode
        if mode == "garbage":
            return self._send(200, b"<html>502 bad gateway</html>", "text/html")
        if mode == "no-choices":
            return self._send(200, {"id": "x", "choices": []})
        if self.path == "/v1/chat/completions" and mode == "chat":
            return self._send(200, {"choices": [{"message": {"role": "assistant",
                                   "content": "```\nn1 node \"A\"\nn2 node \"B\"\ne1 edge n1 -> n2\n```"}}],
                                   "usage": {"completion_tokens": 17}})
        if self.path == "/v1/completions" and mode == "completions-only":
            return self._send(200, {"choices": [{"text": "n1 node \"A\"\n"}], "usage": {"completion_tokens": 5}})
        self._send(404, {"error": "not found"})


@pytest.fixture
def server():
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    t = threading.Thread(target=httpd.serve_forever, daemon=True)
    t.start()
    _Handler.seen = []
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    httpd.shutdown()
    httpd.server_close()


def _fresh(spec):
    from crafter.llm.backends import _CACHE

    _CACHE.pop(spec, None)
    return get_backend(spec)


def test_openai_chat_completions(server):
    _Handler.mode = "chat"
    out = _fresh(f"openai:{server}").complete("plan", plan_prompt("A feeds B."), max_new_tokens=50)
    assert out.text == 'n1 node "A"\nn2 node "B"\ne1 edge n1 -> n2\n'  # code fences stripped
    path, body = _Handler.seen[-1]
    assert path == "/v1/chat/completions" and body["model"] == "tiny-test-model" and body["max_tokens"] == 50
    assert body["messages"][0]["role"] == "system" and "A feeds B." in body["messages"][1]["content"]
    assert out.stats["tokens"] == 17


def test_openai_falls_back_to_completions(server):
    _Handler.mode = "completions-only"
    b = _fresh(f"openai:{server}#model=m1")
    out = b.complete("repair", repair_prompt('n1 node "A"', "rename n1", ["n1"]))
    assert out.text == 'n1 node "A"\n' and _Handler.seen[-1][0] == "/v1/completions"


@pytest.mark.parametrize("mode,match", [("garbage", "not JSON"), ("no-choices", "without a completion")])
def test_openai_garbage_is_a_clear_error(server, mode, match):
    _Handler.mode = mode
    with pytest.raises(ModelError, match=match):
        _fresh(f"openai:{server}").complete("plan", "A feeds B.")


def test_openai_unreachable_server():
    import socket

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens there now
    with pytest.raises(ModelError, match="cannot reach"):
        _fresh(f"openai:http://127.0.0.1:{port}/v1#model=x").complete("plan", "A feeds B.")


def test_openai_bad_url():
    with pytest.raises(ModelError, match="not an http"):
        _fresh("openai:ftp//nowhere")


def test_the_dsl_line_guard_stops_at_the_first_line_that_does_not_parse(tokenizer):
    from crafter.llm.backends import DSLLineGuard

    good = 'figure "T"\nn1 node "A"\ne1 edge n1 -> n2\n'
    bad = '" node "Vi "\n'
    ids = tokenizer.encode(good + bad + 'n3 node "C"\n')
    guard = DSLLineGuard(tokenizer.decode)
    assert guard(tokenizer.encode(good)) is None
    keep = guard(ids)
    assert tokenizer.decode(ids[:keep]) == good + bad
    assert DSLLineGuard(tokenizer.decode)(tokenizer.encode(good + 'n3 node "unfinished')) is None
