"""Crafter's model server: CraftLM loaded once, shared over an OpenAI-compatible HTTP API.

``crafter serve [--host 127.0.0.1] [--port 8700] [--device auto|cpu|cuda] [--api-key KEY]``
(:func:`serve`) hosts the built-in model with self-speculative decoding; concurrent requests
are decoded in one running batch (:mod:`crafter.serve.scheduler`), the HTTP side is
:mod:`crafter.serve.app` (FastAPI on uvicorn), the wire format :mod:`crafter.serve.protocol`.
Clients: ``CRAFTER_MODEL_URL=http://127.0.0.1:8700`` makes every ``craftlm`` backend of the
app, the CLI and CraftBench this server (:class:`crafter.llm.backends.ServerBackend`).

Layer: above :mod:`crafter.benchmarks` and below :mod:`crafter.cli`; nothing below imports it.
"""

from __future__ import annotations

import ipaddress
import socket
import threading
import time

import uvicorn

from crafter.errors import CrafterError
from crafter.llm.backends import CraftLMBackend
from crafter.serve.app import MAX_BODY_BYTES, create_app
from crafter.serve.scheduler import Scheduler, ServeError

__all__ = ["MAX_BODY_BYTES", "Scheduler", "ServeError", "ServerThread", "build", "create_app", "free_port", "serve"]


def build(weights: str | None = None, device: str | None = "auto", threads: int | None = None, max_batch: int = 8,
          max_queue: int = 32, request_timeout: float = 120.0, api_key: str | None = None,
          round_pause: float = 0.0, backend: CraftLMBackend | None = None):
    """The app and its scheduler, the model loaded (``backend``: one already loaded)."""
    backend = backend or CraftLMBackend(weights, threads=threads, device=device)
    scheduler = Scheduler(backend, max_batch=max_batch, max_queue=max_queue, default_timeout=request_timeout,
                          round_pause=round_pause)
    return create_app(scheduler, api_key=api_key, device=backend.device), scheduler


def check_host(host: str, api_key: str | None, allow_no_key: bool = False) -> None:
    """Loopback binds need no key; any other address shares the model on a network and needs one."""
    try:
        loopback = ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = host == "localhost"
    if not loopback and not api_key and not allow_no_key:
        raise CrafterError(f"--host {host} shares the model beyond this machine: give --api-key KEY (clients send "
                           "'Authorization: Bearer KEY'; Crafter reads CRAFTER_API_KEY), or --no-key to share "
                           "without one")


def serve(host: str = "127.0.0.1", port: int = 8700, **kwargs) -> None:
    """Load the model and serve until interrupted (``kwargs``: :func:`build`'s)."""
    app, _ = build(**kwargs)
    uvicorn.run(app, host=host, port=port, log_level="info", timeout_graceful_shutdown=5)


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


class ServerThread:
    """A real uvicorn server on ``host:port`` in a thread of this process (tests, benchmarks)::

        with ServerThread(app) as server:
            httpx.get(server.url + "/health")
    """

    def __init__(self, app, host: str = "127.0.0.1", port: int | None = None) -> None:
        self.host, self.port = host, port or free_port(host)
        self.server = uvicorn.Server(uvicorn.Config(app, host=self.host, port=self.port, log_level="warning",
                                                    timeout_graceful_shutdown=2))
        self.thread = threading.Thread(target=self.server.run, daemon=True, name="crafter-serve-http")

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def __enter__(self) -> "ServerThread":
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise CrafterError(f"the model server did not start on {self.url}")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)
