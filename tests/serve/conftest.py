"""A real model server on 127.0.0.1 (uvicorn in a thread, a free port) over the shipped CraftLM."""

from __future__ import annotations

import pytest

from crafter.llm.backends import WEIGHTS_DIR, CraftLMBackend
from crafter.serve import ServerThread, build

if not (WEIGHTS_DIR / "model.safetensors").is_file():
    pytest.skip("no shipped weights", allow_module_level=True)


@pytest.fixture(scope="session")
def backend():
    """The shipped model, loaded once: the in-process reference and what the test servers host."""
    return CraftLMBackend(device="cpu", threads=1)  # one thread: steadier on a shared CPU


@pytest.fixture(scope="session")
def server(backend):
    """A server with room for 4 requests in the running batch."""
    app, scheduler = build(backend=backend, max_batch=4, max_queue=16)
    with ServerThread(app) as s:
        s.scheduler = scheduler
        yield s


@pytest.fixture
def make_server(backend):
    """``make_server(**build_kwargs)``: a fresh server (its own queue and batch) for one test."""
    started = []

    def make(**kw):
        app, scheduler = build(backend=backend, **kw)
        s = ServerThread(app).__enter__()
        s.scheduler = scheduler
        started.append(s)
        return s

    yield make
    for s in started:
        s.__exit__(None, None, None)
