"""The OpenAI-compatible wire format: request bodies (validated, with clear errors) and answers.

Crafter's own field ``crafter`` carries what CraftLM's in-process ``complete`` takes, so the
served answer is the in-process one::

    {"model": "craftlm", "prompt": "<|plan|>The encoder feeds the decoder.<|out|>", "max_tokens": 512,
     "crafter": {"task": "plan", "speculative": "diffusion", "constrain": true, "guard": true,
                 "block_size": null, "seed": null, "timeout": 60}}

The task is, in order: ``crafter.task``; the model name (``craftlm-plan``, ``craftlm-chart``,
``craftlm-repair``); the prompt's task marker (``<|chart|>…``) or the wording of
:func:`crafter.llm.prompts.chat_messages` (what the ``openai:`` backend sends); else ``plan``.
Plain user text is wrapped for the task as ``crafter complete`` wraps it.
"""

from __future__ import annotations

import json
import time
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from crafter.llm.prompts import TASKS, prompt_from_chat
from crafter.serve.scheduler import Job, ServeError

MODEL = "craftlm"
MODELS = (MODEL, *(f"{MODEL}-{t}" for t in TASKS))


class CrafterOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    task: Literal["plan", "chart", "repair"] | None = None
    speculative: Literal["diffusion", "ngram", "none"] = "diffusion"
    block_size: int | None = Field(None, ge=1, le=32)
    seed: int | None = None
    guard: bool = True
    constrain: bool = True
    timeout: float | None = Field(None, gt=0, description="seconds until the request is cancelled")


class _Body(BaseModel):
    model_config = ConfigDict(extra="allow")  # OpenAI clients send more (top_p, user, ...): ignored

    model: str
    max_tokens: int | None = Field(None, ge=1)
    temperature: float = Field(0.0, ge=0.0, le=2.0)
    stream: bool = False
    seed: int | None = None
    n: int = Field(1, ge=1, le=1, description="one answer per request")
    crafter: CrafterOptions | None = None


class CompletionBody(_Body):
    prompt: str | list[str]


class Message(BaseModel):
    model_config = ConfigDict(extra="allow")

    role: str
    content: str | list[dict] | None = None


class ChatBody(_Body):
    messages: list[Message] = Field(min_length=1)
    max_completion_tokens: int | None = Field(None, ge=1)


def parse_body(raw: bytes, kind: type[_Body]) -> _Body:
    """A request body, or :class:`ServeError` 400 naming what is wrong (malformed JSON, a field)."""
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ServeError(400, f"the request body is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ServeError(400, "the request body must be a JSON object")
    try:
        return kind.model_validate(data)
    except ValidationError as exc:
        errs = "; ".join(f"field '{'.'.join(str(p) for p in e['loc']) or 'body'}': {e['msg']}" for e in exc.errors())
        raise ServeError(400, f"invalid request: {errs}") from None


def _task_of_model(model: str) -> str | None:
    if model not in MODELS:
        raise ServeError(404, f"model '{model}' is not served here (models: {', '.join(MODELS)})", code="model_not_found")
    return model.split("-", 1)[1] if "-" in model else None


def _chat_text(messages: list[Message]) -> str:
    users = [m for m in messages if m.role == "user"]
    if not users:
        raise ServeError(400, "invalid request: field 'messages': no message with role 'user'")
    content = users[-1].content
    if isinstance(content, list):  # content parts: the text ones
        content = "".join(str(p.get("text", "")) for p in content if p.get("type") == "text")
    if not content or not content.strip():
        raise ServeError(400, "invalid request: field 'messages': the last user message is empty")
    return content


def make_job(body: _Body, default_timeout: float, max_tokens_default: int = 512) -> Job:
    """The scheduler's job for a validated body (:class:`ServeError` for an unknown model, an empty prompt)."""
    opts = body.crafter or CrafterOptions()
    model_task = _task_of_model(body.model)
    if isinstance(body, ChatBody):
        found, prompt = prompt_from_chat(_chat_text(body.messages))
        max_tokens = body.max_completion_tokens or body.max_tokens
    else:
        if isinstance(body.prompt, list):
            if len(body.prompt) != 1:
                raise ServeError(400, "invalid request: field 'prompt': send one prompt per request")
            body.prompt = body.prompt[0]
        found, prompt = prompt_from_chat(body.prompt)
        max_tokens = body.max_tokens
    if not prompt.strip():
        raise ServeError(400, "invalid request: field 'prompt': empty")
    task = opts.task or model_task or found or "plan"
    if found and found != task:
        raise ServeError(400, f"invalid request: the prompt is a {found} prompt but the task asked for is {task}")
    seed = opts.seed if opts.seed is not None else body.seed
    return Job(task=task, prompt=prompt, max_tokens=max_tokens or max_tokens_default, temperature=body.temperature,
               options={"speculative": opts.speculative, "block_size": opts.block_size, "seed": seed,
                        "guard": opts.guard, "constrain": opts.constrain},
               timeout=min(opts.timeout or default_timeout, default_timeout), stream=body.stream)


def finish_reason(stats: dict) -> str:
    return "length" if stats.get("stopped") == "length" else "stop"


def usage(stats: dict) -> dict:
    p, c = int(stats.get("prompt_tokens", 0)), int(stats.get("tokens", 0))
    return {"prompt_tokens": p, "completion_tokens": c, "total_tokens": p + c}


def answer(job: Job, model: str, chat: bool, text: str, stats: dict) -> dict:
    """The whole answer (no streaming), with Crafter's statistics in ``crafter_stats``."""
    choice = ({"index": 0, "message": {"role": "assistant", "content": text}} if chat
              else {"index": 0, "text": text, "logprobs": None})
    choice["finish_reason"] = finish_reason(stats)
    return {"id": job.id, "object": "chat.completion" if chat else "text_completion", "created": int(time.time()),
            "model": model, "choices": [choice], "usage": usage(stats), "crafter_stats": stats}


def chunk(job: Job, model: str, chat: bool, text: str | None, stats: dict | None = None) -> str:
    """One server-sent event of a streamed answer (``stats``: the last one, with the finish reason)."""
    if chat:
        choice = {"index": 0, "delta": {"content": text} if text is not None else {}}
    else:
        choice = {"index": 0, "text": text or "", "logprobs": None}
    choice["finish_reason"] = finish_reason(stats) if stats is not None else None
    data = {"id": job.id, "object": "chat.completion.chunk" if chat else "text_completion", "created": int(time.time()),
            "model": model, "choices": [choice]}
    if stats is not None:
        data["usage"], data["crafter_stats"] = usage(stats), stats
    return f"data: {json.dumps(data)}\n\n"


def error_body(err: ServeError) -> dict:
    return {"error": {"message": err.message, "type": err.kind, "code": err.code}}
