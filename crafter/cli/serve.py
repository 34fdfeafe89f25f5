"""CLI commands of the model server: ``crafter serve``, ``crafter bench serve``, ``crafter export-model``."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

import typer

from crafter.cli.app import app
from crafter.serve import check_host, serve


@app.command("serve")
def serve_cmd(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to bind (loopback by default; any other needs --api-key)"),
    port: int = typer.Option(8700, "--port", min=1, max=65535),
    device: str = typer.Option("auto", "--device", help="auto (a CUDA GPU when present) | cpu | cuda"),
    api_key: Optional[str] = typer.Option(None, "--api-key", help="Require 'Authorization: Bearer KEY' on /v1/* "
                                          "(default: CRAFTER_API_KEY, if set)"),
    no_key: bool = typer.Option(False, "--no-key", help="Allow a non-loopback --host without an API key"),
    weights: Optional[Path] = typer.Option(None, "--weights", help="A CraftLM directory (default: the shipped model)"),
    threads: Optional[int] = typer.Option(None, "--threads", min=1, help="torch threads (CPU)"),
    max_batch: int = typer.Option(8, "--max-batch", min=1, max=64, help="Requests decoded together in one forward"),
    max_queue: int = typer.Option(32, "--max-queue", min=0, help="Requests waiting beyond the batch; more get 429"),
    request_timeout: float = typer.Option(120.0, "--request-timeout", min=0.1,
                                          help="Seconds before a request is cancelled (504); a request may ask for less"),
) -> None:
    """Serve CraftLM over an OpenAI-compatible HTTP API, loaded once, requests batched.

    Example: crafter serve --port 8700   then   CRAFTER_MODEL_URL=http://127.0.0.1:8700 crafter generate "…"
    """
    api_key = api_key or os.environ.get("CRAFTER_API_KEY") or None
    check_host(host, api_key, no_key)
    typer.echo(f"loading CraftLM on {device} ...", err=True)
    serve(host, port, weights=str(weights) if weights else None, device=device, threads=threads, max_batch=max_batch,
          max_queue=max_queue, request_timeout=request_timeout, api_key=api_key)
