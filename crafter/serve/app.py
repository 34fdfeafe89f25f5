"""The HTTP side: FastAPI routes over one :class:`~crafter.serve.scheduler.Scheduler`.

``GET /health`` (no key needed), ``GET /v1/models``, ``POST /v1/completions``,
``POST /v1/chat/completions`` (``"stream": true``: server-sent events, ``data: [DONE]`` last).
Errors are OpenAI-shaped (``{"error": {"message", "type", "code"}}``): 400 bad body or field,
401 missing/wrong key, 404 unknown model, 413 body too large, 429 queue full and 503 shutting
down (both with ``Retry-After``), 504 past the deadline. A client that goes away (disconnects
mid-stream, or stops waiting for a whole answer) has its request cancelled and its batch row freed.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, StreamingResponse

from crafter.serve.protocol import MODELS, ChatBody, CompletionBody, answer, chunk, error_body, make_job, parse_body
from crafter.serve.scheduler import Job, Scheduler, ServeError

MAX_BODY_BYTES = 256 * 1024  # a figure's DSL plus an instruction is a few KB; the context is 1536 tokens
POLL_SECONDS = 0.25  # how often a waiting handler checks that its client is still there


def error_response(err: ServeError) -> JSONResponse:
    headers = {"Retry-After": str(err.retry_after)} if err.retry_after is not None else {}
    if err.status == 401:
        headers["WWW-Authenticate"] = "Bearer"
    return JSONResponse(error_body(err), status_code=err.status, headers=headers)


def create_app(scheduler: Scheduler, *, api_key: str | None = None, device: str = "cpu",
               max_body_bytes: int = MAX_BODY_BYTES) -> FastAPI:
    """The app for a scheduler (started and stopped with the app's lifespan)."""

    @asynccontextmanager
    async def lifespan(_app):
        if not scheduler.thread.is_alive():
            scheduler.start()
        yield
        await asyncio.to_thread(scheduler.stop)

    app = FastAPI(title="Crafter model server", lifespan=lifespan, docs_url=None, redoc_url=None)

    @app.get("/health")
    async def health():
        return {"model": "craftlm", "device": device, **scheduler.health()}

    # checks in the handlers, not an HTTP middleware: Starlette's BaseHTTPMiddleware wraps `receive`,
    # and a handler behind it no longer sees its client disconnect
    @app.get("/v1/models")
    async def models(request: Request):
        if (err := _refuse(request, api_key, max_body_bytes)) is not None:
            return error_response(err)
        return {"object": "list", "data": [{"id": m, "object": "model", "owned_by": "crafter"} for m in MODELS]}

    @app.post("/v1/completions")
    async def completions(request: Request):
        if (err := _refuse(request, api_key, max_body_bytes)) is not None:
            return error_response(err)
        return await _serve(scheduler, request, CompletionBody, False, max_body_bytes)

    @app.post("/v1/chat/completions")
    async def chat_completions(request: Request):
        if (err := _refuse(request, api_key, max_body_bytes)) is not None:
            return error_response(err)
        return await _serve(scheduler, request, ChatBody, True, max_body_bytes)

    return app


def _refuse(request: Request, api_key: str | None, max_body_bytes: int) -> ServeError | None:
    """401 without the right key (where the server has one), 413 for a body announced too large; else None."""
    given = request.headers.get("authorization", "")
    if api_key and not hmac.compare_digest(given.encode(), f"Bearer {api_key}".encode()):
        why = "no Authorization header" if not given else "wrong API key"
        return ServeError(401, f"{why}: send 'Authorization: Bearer <key>' (the key `crafter serve --api-key` was "
                               "started with)", "authentication_error", code="invalid_api_key")
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > max_body_bytes:
        return ServeError(413, f"request body of {length} bytes is over the limit of {max_body_bytes} bytes")
    return None


async def _serve(scheduler: Scheduler, request: Request, kind, chat: bool, max_body_bytes: int):
    """One completion request: parsed, queued, answered whole or streamed."""
    try:
        raw = await _read_body(request, max_body_bytes)
        body = parse_body(raw, kind)
        job = make_job(body, scheduler.default_timeout).bind()
        scheduler.submit(job)
    except ServeError as err:
        return error_response(err)
    if job.stream:
        return StreamingResponse(_stream(scheduler, request, job, body.model, chat), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache"})
    event = await _next_final(scheduler, request, job)
    if event is None:  # the client left; nobody reads this
        return JSONResponse({}, status_code=499)
    kind_, payload = event
    if kind_ == "error":
        return error_response(payload)
    return JSONResponse(answer(job, body.model, chat, payload.text, payload.stats))


async def _next_final(scheduler: Scheduler, request: Request, job: Job):
    """The job's answer or error; None (and the job cancelled) when the client disconnects."""
    while True:
        try:
            kind_, payload = await asyncio.wait_for(job.events.get(), timeout=POLL_SECONDS)
        except asyncio.TimeoutError:
            if await request.is_disconnected():
                scheduler.cancel(job, "client disconnected")
                return None
            continue
        if kind_ != "delta":
            return kind_, payload


async def _stream(scheduler: Scheduler, request: Request, job: Job, model: str, chat: bool):
    done = False
    try:
        if chat:
            yield f"data: {_role_chunk(job, model)}\n\n"
        while True:
            try:
                kind_, payload = await asyncio.wait_for(job.events.get(), timeout=POLL_SECONDS)
            except asyncio.TimeoutError:
                if await request.is_disconnected():
                    return
                continue
            if kind_ == "delta":
                yield chunk(job, model, chat, payload)
                continue
            if kind_ == "error":
                yield f"data: {_json(error_body(payload))}\n\n"
            else:
                if not payload.text.startswith(job.sent):  # settled_text promises this never happens
                    logging.getLogger("crafter.serve").error("%s: streamed text is not a prefix of the answer", job.id)
                rest = payload.text[len(job.sent):] if payload.text.startswith(job.sent) else ""
                if rest:
                    yield chunk(job, model, chat, rest)
                yield chunk(job, model, chat, None, payload.stats)
            yield "data: [DONE]\n\n"
            done = True
            return
    finally:
        if not done:
            scheduler.cancel(job, "client disconnected")


async def _read_body(request: Request, limit: int) -> bytes:
    """The body, at most ``limit`` bytes (413 past it, whatever Content-Length said)."""
    data = bytearray()
    async for part in request.stream():
        data += part
        if len(data) > limit:
            raise ServeError(413, f"request body is over the limit of {limit} bytes")
    return bytes(data)


def _json(data: dict) -> str:
    return json.dumps(data)


def _role_chunk(job: Job, model: str) -> str:
    return _json({"id": job.id, "object": "chat.completion.chunk", "model": model,
                  "choices": [{"index": 0, "delta": {"role": "assistant"}, "finish_reason": None}]})
