"""CLI commands of the model server: ``crafter serve``, ``crafter bench serve``."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

import typer

from crafter.benchmarks.serve import format_table, run_serve_bench
from crafter.cli.app import app, bench
from crafter.errors import CrafterError
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


@bench.command("serve")
def bench_serve(
    requests: int = typer.Option(64, "--requests", min=1, help="Held-out prompts (plan, chart, repair in turn)"),
    concurrency: str = typer.Option("1,4,8", "--concurrency", help="Client counts, comma-separated"),
    threads: int = typer.Option(1, "--threads", min=1, help="torch threads, in-process and in the server alike"),
    max_batch: int = typer.Option(8, "--max-batch", min=1, max=64, help="The server's running batch"),
    max_new_tokens: int = typer.Option(400, "--max-new-tokens", min=1),
    device: str = typer.Option("cpu", "--device", help="cpu | cuda | auto: in-process and in the server alike"),
) -> None:
    """Load-test `crafter serve` on 127.0.0.1 against in-process decoding of the same prompts:
    throughput, p50/p95 latency, tokens/s; every answer checked identical to in-process greedy, none lost.

    Example: crafter bench serve --requests 64 --concurrency 1,4,8
    """
    import torch  # heavy: 2.5 s to import; only the commands that run the model need it

    try:
        levels = tuple(int(c) for c in concurrency.split(",") if c.strip())
    except ValueError:
        raise CrafterError(f"--concurrency: '{concurrency}' is not a comma-separated list of numbers") from None
    if not levels or min(levels) < 1:
        raise CrafterError("--concurrency: give at least one client count of 1 or more")
    torch.set_num_threads(threads)
    rows = run_serve_bench(requests, levels, threads=threads, max_new_tokens=max_new_tokens, max_batch=max_batch,
                           device=device, progress=lambda s: typer.echo(f"\r{s:<40}", nl=False, err=True))
    typer.echo("", err=True)
    load = os.getloadavg()
    typer.echo(f"crafter serve vs in-process CraftLM: {rows[0].requests} held-out prompts, greedy, constrained, "
               f"diffusion drafts, {device}, {threads} torch thread(s) each, server batch <= {max_batch}; "
               f"load average {load[0]:.1f} on {os.cpu_count()} CPUs")
    typer.echo(format_table(rows))
