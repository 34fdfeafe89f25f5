"""Backends over HTTP: ``openai:http://host:port/v1`` (any OpenAI-compatible server) and ``server``
(Crafter's own model server, ``crafter serve``, at ``CRAFTER_MODEL_URL``)."""

from __future__ import annotations

import json
import re
import time

import httpx

from crafter.llm.backends.base import Completion, ModelError, as_prompt, strip_fences
from crafter.llm.prompts import chat_messages


class OpenAIBackend:
    """Any OpenAI-compatible HTTP server."""

    name = "openai"
    hint = ""  # what to do when the server does not answer

    def __init__(self, base_url: str, model: str | None = None, timeout: float = 60.0,
                 api_key: str | None = None) -> None:
        if not re.match(r"^https?://[^\s/]+", base_url):
            raise ModelError(f"openai backend: '{base_url}' is not an http(s) URL (e.g. openai:http://127.0.0.1:8000/v1)")
        self.base_url = base_url.rstrip("/")
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self.client = httpx.Client(timeout=timeout, headers=headers)
        self._model = model

    retry_for = 30.0  # seconds a busy server (429/503 with Retry-After) is waited for, in all

    def _request(self, method: str, path: str, body: dict | None = None) -> dict:
        url = f"{self.base_url}{path}"
        waited = 0.0
        while True:
            try:
                r = self.client.request(method, url, json=body)
            except httpx.TimeoutException as exc:
                raise ModelError(f"{self.name} backend: {url} timed out ({exc})") from exc
            except httpx.ConnectError as exc:
                raise ModelError(f"{self.name} backend: cannot reach {url}: nothing answers ({exc}){self.hint}") from exc
            except httpx.HTTPError as exc:  # the server went away mid-request (killed, restarted)
                raise ModelError(f"{self.name} backend: {url} dropped the request ({type(exc).__name__}: {exc})"
                                 f"{self.hint}") from exc
            wait = _retry_after(r)
            if wait is None or waited + wait > self.retry_for:
                break
            time.sleep(wait)
            waited += wait
        if r.status_code == 404 and not _error_message(r):
            raise FileNotFoundError(url)
        if r.status_code >= 400:
            busy = " (busy: it kept answering 'retry later')" if r.status_code in (429, 503) else ""
            raise ModelError(f"{self.name} backend: {url} answered HTTP {r.status_code}{busy}: "
                             f"{_error_message(r) or r.text[:200]}")
        try:
            data = r.json()
        except ValueError as exc:
            raise ModelError(f"openai backend: {url} returned something that is not JSON: {r.text[:120]!r}") from exc
        if not isinstance(data, dict):
            raise ModelError(f"openai backend: {url} returned JSON that is not an object")
        return data

    @property
    def model(self) -> str:
        if self._model is None:
            try:
                data = self._request("GET", "/models")
                self._model = str(data["data"][0]["id"])
            except (FileNotFoundError, KeyError, IndexError, TypeError):
                self._model = "default"
        return self._model

    def complete(self, task: str, prompt: str, *, max_new_tokens: int = 512, temperature: float = 0.0,
                 **_: object) -> Completion:
        messages = chat_messages(as_prompt(task, prompt))
        t0 = time.perf_counter()
        try:
            data = self._request("POST", "/chat/completions",
                                 {"model": self.model, "messages": messages, "max_tokens": max_new_tokens,
                                  "temperature": temperature})
            choice_text = lambda c: c["message"]["content"]  # noqa: E731
        except FileNotFoundError:
            text_prompt = "\n\n".join(m["content"] for m in messages) + "\n\n"
            try:
                data = self._request("POST", "/completions", {"model": self.model, "prompt": text_prompt,
                                                              "max_tokens": max_new_tokens, "temperature": temperature})
            except FileNotFoundError as exc:
                raise ModelError(f"openai backend: {self.base_url} has neither /chat/completions nor "
                                 "/completions") from exc
            choice_text = lambda c: c["text"]  # noqa: E731
        seconds = time.perf_counter() - t0
        try:
            text = choice_text(data["choices"][0])
            if not isinstance(text, str):
                raise TypeError("content is not a string")
        except (KeyError, IndexError, TypeError) as exc:
            raise ModelError(f"openai backend: {self.base_url} returned a response without a completion: "
                             f"{json.dumps(data)[:160]}") from exc
        usage = data.get("usage") or {}
        n = int(usage.get("completion_tokens") or 0)
        stats = {"backend": self.name, "task": task, "model": self.model, "tokens": n, "seconds": round(seconds, 4),
                 "tokens_per_second": round(n / seconds, 1) if seconds > 0 and n else 0.0,
                 "forward_passes": None, "tokens_per_forward": None, "acceptance_histogram": {}}
        return Completion(strip_fences(text), stats)



def _retry_after(r: httpx.Response) -> float | None:
    """Seconds to wait before asking again, for a busy answer (429/503) that says; else None."""
    if r.status_code not in (429, 503):
        return None
    try:
        return max(0.0, float(r.headers.get("retry-after", "")))
    except ValueError:
        return None


def _error_message(r: httpx.Response) -> str:
    """The message of an OpenAI-style error body (``{"error": {"message": ...}}``), else ""."""
    try:
        err = r.json().get("error")
        return str(err.get("message", "")) if isinstance(err, dict) else ""
    except (ValueError, AttributeError):
        return ""


class ServerBackend(OpenAIBackend):
    """Crafter's own model server (``crafter serve``): CraftLM decoded there, shared by every process.

    The request carries what the in-process backend takes (the task prompt, ``speculative``,
    ``constrain``, ``guard``, ``block_size``, ``seed``) in the ``crafter`` field of an OpenAI
    ``/v1/completions`` body, so the answer is the one :class:`CraftLMBackend` would give here.
    """

    name = "server"

    def __init__(self, url: str, api_key: str | None = None, timeout: float = 300.0) -> None:
        base = url.strip().rstrip("/")
        base = base[: -len("/v1")] if base.endswith("/v1") else base
        super().__init__(base + "/v1", model="craftlm", timeout=timeout, api_key=api_key)
        self.url = base
        self.hint = (f"; is `crafter serve` running there? (CRAFTER_MODEL_URL={url}; unset it to load the model "
                     "in this process)")

    def complete(self, task: str, prompt: str, *, max_new_tokens: int = 512, temperature: float = 0.0,
                 speculative: str | None = "diffusion", block_size: int | None = None, seed: int | None = None,
                 guard: bool = True, constrain: bool = True, timeout: float | None = None) -> Completion:
        body = {"model": "craftlm", "prompt": as_prompt(task, prompt), "max_tokens": max_new_tokens,
                "temperature": temperature,
                "crafter": {"task": task, "speculative": speculative or "none", "block_size": block_size, "seed": seed,
                            "guard": guard, "constrain": constrain, "timeout": timeout}}
        t0 = time.perf_counter()
        try:
            data = self._request("POST", "/completions", body)
        except FileNotFoundError as exc:
            raise ModelError(f"server backend: {self.base_url} is not a Crafter model server (no /completions)") from exc
        try:
            text = data["choices"][0]["text"]
            stats = dict(data.get("crafter_stats") or {})
            if not isinstance(text, str):
                raise TypeError("text is not a string")
        except (KeyError, IndexError, TypeError) as exc:
            raise ModelError(f"server backend: {self.base_url} returned a response without a completion: "
                             f"{json.dumps(data)[:160]}") from exc
        stats.update({"backend": self.name, "server": self.url, "round_trip_seconds": round(time.perf_counter() - t0, 4)})
        return Completion(text, stats)
