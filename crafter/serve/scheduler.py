"""Continuous batching: one decode thread steps every running request together, a round at a time.

**What is batched.** Each running request owns a row of one :class:`kernels.KVPool` (its KV
cache, on the model's device). Every iteration of the decode thread:

1. *admits* waiting requests into free rows (up to ``max_batch``): the request's preparation
   (prompt, brief encoder, name/edit heads, DSL constraint, drafter —
   :meth:`CraftLMBackend.prepare`) and its prefill run here, one request at a time;
2. runs **one decode round of every running request in one forward**
   (:func:`crafter.llm.engine.decode_round`): each request's ``[a0, drafts, masks]`` padded
   to the widest, each row at its own cache length under its own attention mask. Drafting,
   the accept rule, the constraint and the commits stay per request, so each commits exactly
   what it would commit decoding alone (greedy output is identical whatever the batch);
3. *retires* the finished (their answer goes back), the cancelled (client gone) and those
   past their deadline (HTTP 504); their rows are free for the next admission.

Requests therefore join and leave the running batch between rounds, never waiting for each
other to finish. The queue of waiting requests is bounded: past ``max_queue`` a request is
refused at once (HTTP 429 with ``Retry-After``); a stopping server refuses with 503.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import math
import threading
import time
from collections import deque
from dataclasses import dataclass, field

from crafter.llm.backends import CraftLMBackend, ModelError
from crafter.llm.engine import decode_round, start_decoding
from kernels import KVPool

log = logging.getLogger("crafter.serve")
_IDS = itertools.count(1)


class ServeError(Exception):
    """An error the HTTP layer answers with ``status`` (and ``Retry-After`` where given)."""

    def __init__(self, status: int, message: str, kind: str = "invalid_request_error",
                 retry_after: int | None = None, code: str | None = None) -> None:
        super().__init__(message)
        self.status, self.message, self.kind, self.retry_after, self.code = status, message, kind, retry_after, code


@dataclass
class Job:
    """One request, between the HTTP handler (an asyncio task) and the decode thread."""

    task: str
    prompt: str  # the full model prompt
    max_tokens: int
    temperature: float
    options: dict  # speculative, block_size, seed, guard, constrain (CraftLMBackend.prepare's keywords)
    timeout: float  # seconds from submission to the answer
    stream: bool = False
    id: str = field(default_factory=lambda: f"cmpl-{next(_IDS)}")
    submitted: float = field(default_factory=time.monotonic)
    cancelled: str | None = None  # why the client gave up (set from the HTTP side)
    loop: asyncio.AbstractEventLoop | None = None
    events: asyncio.Queue | None = None
    # decode-thread side
    req: object = None
    run: object = None
    slot: int | None = None
    sent: str = ""  # text already streamed

    @property
    def deadline(self) -> float:
        return self.submitted + self.timeout

    def bind(self) -> "Job":
        """Attach the running event loop (call from the handler): events arrive on ``self.events``."""
        self.loop, self.events = asyncio.get_running_loop(), asyncio.Queue()
        return self

    def emit(self, kind: str, payload: object) -> None:
        """Hand an event to the handler: ``("delta", str)``, ``("done", Completion)``, ``("error", ServeError)``."""
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self.events.put_nowait, (kind, payload))


def settled_text(raw: str) -> str:
    """The part of an unfinished answer that the final answer is sure to start with: the text
    before its last complete non-blank line (the answer is stripped and a statement cut short is
    dropped at the end, which can only touch what follows that line)."""
    text = raw.lstrip()
    lines = text.split("\n")[:-1]  # the last piece is unfinished
    last = max((i for i, ln in enumerate(lines) if ln.strip()), default=0)
    return "".join(ln + "\n" for ln in lines[:last])


class Scheduler:
    """The decode thread, its bounded queue and its running batch (see the module doc)."""

    def __init__(self, backend: CraftLMBackend, max_batch: int = 8, max_queue: int = 32,
                 default_timeout: float = 120.0, round_pause: float = 0.0) -> None:
        cfg = backend.model.cfg
        weight = backend.model.embed.weight
        self.backend, self.max_batch, self.max_queue = backend, max_batch, max_queue
        self.default_timeout = default_timeout
        self.round_pause = round_pause  # seconds between rounds: tests use it to keep requests running
        layers = cfg.n_layers + (1 if cfg.copy_head else 0)
        # room for a whole context plus one round's drafts and mask slots past it
        self.pool = KVPool(layers, max_batch, cfg.n_heads, cfg.head_dim, cfg.max_len + 64,
                           dtype=weight.dtype, device=weight.device)
        self.waiting: deque[Job] = deque()
        self.active: list[Job] = []
        self.preparing = 0  # requests between the queue and the batch (prompt, encoder, heads, prefill)
        self.cond = threading.Condition()
        self.stopping = False
        self.counts = {"completed": 0, "failed": 0, "cancelled": 0, "timed_out": 0, "rejected": 0, "rounds": 0,
                       "batched_rounds": 0, "batch_rows": 0, "tokens": 0}
        self.job_seconds = 1.0  # running average of a request's time in the server (for Retry-After)
        self.thread = threading.Thread(target=self._loop, name="crafter-serve-decode", daemon=True)

    # -- the HTTP side ----------------------------------------------------------------
    def start(self) -> None:
        self.thread.start()

    def submit(self, job: Job) -> None:
        """Queue a request, or raise :class:`ServeError` (503 while stopping, 429 when the queue is full)."""
        with self.cond:
            if self.stopping:
                raise ServeError(503, "the model server is shutting down; retry on its restart", "server_error",
                                 retry_after=5)
            if len(self.waiting) >= self.max_queue:
                self.counts["rejected"] += 1
                ahead = len(self.waiting) + len(self.active)
                wait = max(1, math.ceil(self.job_seconds * ahead / self.max_batch))
                raise ServeError(429, f"the model server is busy: {len(self.active)} requests decoding and "
                                      f"{len(self.waiting)} waiting (queue limit {self.max_queue}); retry in {wait} s",
                                 "rate_limit_exceeded", retry_after=wait)
            self.waiting.append(job)
            self.cond.notify()

    def cancel(self, job: Job, reason: str) -> None:
        """The client is gone: the decode thread drops the request at its next round and frees its row."""
        job.cancelled = reason
        with self.cond:
            self.cond.notify()

    def stop(self) -> None:
        """Refuse new requests, fail the queued and running ones with 503, end the thread."""
        with self.cond:
            self.stopping = True
            self.cond.notify()
        if self.thread.is_alive():
            self.thread.join(timeout=10)

    def health(self) -> dict:
        with self.cond:
            return {"status": "stopping" if self.stopping else "ok", "active": len(self.active),
                    "preparing": self.preparing, "waiting": len(self.waiting), "max_batch": self.max_batch,
                    "max_queue": self.max_queue, "free_slots": len(self.pool.free), **self.counts}

    # -- the decode thread --------------------------------------------------------------
    def _loop(self) -> None:
        while True:
            with self.cond:
                while not self.stopping and not self.waiting and not self.active:
                    self.cond.wait(timeout=0.5)
                if self.stopping:
                    break
            self._expire_waiting()
            self._admit()
            if self.active:
                self._round()
                if self.round_pause:
                    time.sleep(self.round_pause)
        stop = ServeError(503, "the model server is shutting down; retry on its restart", "server_error", retry_after=5)
        with self.cond:
            jobs, self.waiting = list(self.waiting) + self.active, deque()
        for job in jobs:
            self._retire(job, "error", stop)

    def _expire_waiting(self) -> None:
        now = time.monotonic()
        with self.cond:
            gone = [j for j in self.waiting if j.cancelled or now > j.deadline]
            for j in gone:
                self.waiting.remove(j)
        for j in gone:
            self._retire(j, *self._why_dropped(j))

    def _admit(self) -> None:
        while len(self.active) < self.max_batch:
            with self.cond:
                if not self.waiting:
                    return
                job = self.waiting.popleft()
                self.preparing = 1
            try:
                self._start(job)
            finally:
                with self.cond:
                    self.preparing = 0

    def _start(self, job: Job) -> None:
        """Prepare and prefill a request into a free row of the batch (or answer why it cannot be)."""
        if job.cancelled or time.monotonic() > job.deadline:
            self._retire(job, *self._why_dropped(job))
            return
        try:
            job.req = r = self.backend.prepare(job.task, job.prompt, max_new_tokens=job.max_tokens,
                                               temperature=job.temperature, **job.options)
            job.slot, cache = self.pool.acquire()
            job.run = start_decoding(self.backend.model, r.ids, r.max_new_tokens, r.temperature, r.drafter,
                                     r.generator, r.guard, r.constraint, r.enc, cache=cache)
        except (ModelError, ValueError) as exc:
            self._retire(job, "error", ServeError(400, str(exc)))
            return
        with self.cond:
            self.active.append(job)
            self.preparing = 0  # in the same breath: /health never counts the request twice

    def _round(self) -> None:
        jobs = list(self.active)
        try:
            decode_round([j.run for j in jobs], self.pool, [j.slot for j in jobs])
        except Exception as exc:  # a bug must not take the server down: these requests fail, others go on
            log.exception("decode round failed")
            for job in jobs:
                self._retire(job, "error", ServeError(500, f"decoding failed: {type(exc).__name__}: {exc}",
                                                      "server_error"))
            return
        self.counts["rounds"] += 1
        self.counts["batched_rounds"] += len(jobs) > 1
        self.counts["batch_rows"] += len(jobs)
        now = time.monotonic()
        for job in jobs:
            if job.run.stopped:
                self._retire(job, "done", self.backend.finish(job.req, job.run.result))
            elif job.cancelled or now > job.deadline:
                self._retire(job, *self._why_dropped(job))
            elif job.stream:
                text = settled_text(self.backend.tokenizer.decode(job.run.out))
                if len(text) > len(job.sent):
                    job.emit("delta", text[len(job.sent):])
                    job.sent = text

    def _why_dropped(self, job: Job) -> tuple[str, object]:
        if job.cancelled:
            return "cancelled", None
        return "error", ServeError(504, f"request cancelled: no answer within its deadline of {job.timeout:g} s "
                                        f"(crafter.timeout or the server's --request-timeout)", "timeout")

    def _retire(self, job: Job, kind: str, payload: object) -> None:
        """Answer a request (or drop a cancelled one) and free its row."""
        with self.cond:
            if job in self.active:
                self.active.remove(job)
        if job.slot is not None:
            self.pool.release(job.slot)
            job.slot = None
        if kind == "done":
            self.counts["completed"] += 1
            self.counts["tokens"] += int(payload.stats.get("tokens", 0))
            self.job_seconds = 0.8 * self.job_seconds + 0.2 * (time.monotonic() - job.submitted)
        elif kind == "cancelled":
            self.counts["cancelled"] += 1
            return
        elif isinstance(payload, ServeError) and payload.status == 504:
            self.counts["timed_out"] += 1
        else:
            self.counts["failed"] += 1
        job.emit(kind, payload)
