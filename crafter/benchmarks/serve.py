"""The model-server load benchmark: ``crafter serve`` under concurrent clients vs decoding in-process.

One run: the same held-out prompts (plan, chart and repair in turn) are decoded

* in this process, one after the other (:class:`CraftLMBackend`, the reference answers), then
* by a real ``crafter serve`` started on 127.0.0.1 (a subprocess on a free port, the same torch
  thread count), at each concurrency level: ``c`` client threads, each sending its next
  request as soon as its last one is answered (:class:`ServerBackend`, as the app would).

Every served answer is compared with the in-process one (identical, or counted as a
mismatch) and every request is accounted for (answered, or counted as lost). The rows report
throughput (requests/s), p50/p95 latency and generated tokens/s, plus the server's mean batch
(rows per decode forward, from ``/health``). Numbers are printed, never asserted.
"""

from __future__ import annotations

import os
import socket
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import httpx

from crafter.errors import CrafterError
from crafter.llm.backends import CraftLMBackend, ServerBackend
from crafter.llm.corpus import held_out_set


@dataclass
class LoadRow:
    mode: str  # "in-process" or "server"
    concurrency: int
    requests: int
    answered: int
    identical: int
    seconds: float
    latencies: list[float]
    tokens: int
    mean_batch: float | None = None

    @property
    def lost(self) -> int:
        return self.requests - self.answered


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def stop_process(proc: subprocess.Popen, grace_s: float = 15.0) -> None:
    """Stop a child process: SIGTERM, then SIGKILL if it has not exited within ``grace_s``; reaped either way."""
    proc.terminate()
    try:
        proc.wait(timeout=grace_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def start_server(threads: int, max_batch: int, max_queue: int, device: str = "cpu",
                 timeout: float = 120.0) -> tuple[subprocess.Popen, str]:
    """``crafter serve`` in a subprocess on a free loopback port; returns it once ``/health`` answers."""
    port = _free_port()
    cmd = [sys.executable, "-m", "crafter.cli", "serve", "--port", str(port), "--threads", str(threads),
           "--device", device, "--max-batch", str(max_batch), "--max-queue", str(max_queue)]
    env = {k: v for k, v in os.environ.items() if k not in ("CRAFTER_MODEL_URL", "CRAFTER_API_KEY")}
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise CrafterError(f"crafter serve exited with {proc.returncode}: {proc.stderr.read()[-800:]}")
        try:
            if httpx.get(url + "/health", timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    proc.kill()
    raise CrafterError(f"crafter serve did not answer on {url} within {timeout:.0f} s")


def run_serve_bench(requests: int = 64, concurrency: tuple[int, ...] = (1, 4, 8), threads: int = 1,
                    max_new_tokens: int = 400, max_batch: int = 8, device: str = "cpu", progress=None) -> list[LoadRow]:
    """The rows of the table: in-process first, then the server at each concurrency."""
    per_task = -(-requests // 3)
    examples = held_out_set(per_task, seed=0)
    # plan, chart, repair, plan, ...: every stretch of the run mixes the three tasks
    mixed = [examples[t * per_task + i] for i in range(per_task) for t in range(3)]
    prompts = [(e.task, e.prompt) for e in mixed][:requests]
    local = CraftLMBackend(threads=threads, device=device)
    local.complete(*prompts[0], max_new_tokens=max_new_tokens)  # warm: lazy tables, first-call costs
    ref, lat, tokens = [], [], 0
    t0 = time.perf_counter()
    for task, prompt in prompts:
        t = time.perf_counter()
        out = local.complete(task, prompt, max_new_tokens=max_new_tokens)
        lat.append(time.perf_counter() - t)
        ref.append(out.text)
        tokens += out.stats["tokens"]
        if progress:
            progress(f"in-process {len(ref)}/{len(prompts)}")
    rows = [LoadRow("in-process", 1, len(prompts), len(prompts), len(prompts), time.perf_counter() - t0, lat, tokens)]
    proc, url = start_server(threads, max_batch, max_queue=max(32, 2 * max(concurrency)), device=local.device)
    try:
        client = ServerBackend(url)
        client.complete(*prompts[0], max_new_tokens=max_new_tokens)  # warm
        for c in concurrency:
            rows.append(_load(client, url, prompts, ref, c, max_new_tokens))
            if progress:
                progress(f"server, concurrency {c}: done")
    finally:
        stop_process(proc)
    return rows


def _load(client: ServerBackend, url: str, prompts, ref: list[str], c: int, max_new_tokens: int) -> LoadRow:
    before = httpx.get(url + "/health", timeout=5).json()

    def one(i: int):
        t = time.perf_counter()
        try:
            out = client.complete(*prompts[i], max_new_tokens=max_new_tokens)
        except CrafterError:
            return i, None, 0.0, 0
        return i, out.text, time.perf_counter() - t, int(out.stats.get("tokens", 0))

    t0 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=c) as pool:
        results = list(pool.map(one, range(len(prompts))))
    seconds = time.perf_counter() - t0
    after = httpx.get(url + "/health", timeout=5).json()
    rounds = after["rounds"] - before["rounds"]
    rows_decoded = after["batch_rows"] - before["batch_rows"]
    answered = [r for r in results if r[1] is not None]
    return LoadRow("server", c, len(prompts), len(answered), sum(r[1] == ref[r[0]] for r in answered), seconds,
                   [r[2] for r in answered], sum(r[3] for r in answered), rows_decoded / rounds if rounds else None)


def format_table(rows: list[LoadRow]) -> str:
    head = (f"{'mode':<11}{'conc':>5}{'reqs':>6}{'lost':>6}{'identical':>11}{'req/s':>8}{'p50 ms':>9}{'p95 ms':>9}"
            f"{'tokens/s':>10}{'batch':>7}")
    lines = [head, "-" * len(head)]
    for r in rows:
        batch = f"{r.mean_batch:.2f}" if r.mean_batch else "-"
        lines.append(f"{r.mode:<11}{r.concurrency:>5}{r.requests:>6}{r.lost:>6}{f'{r.identical}/{r.answered}':>11}"
                     f"{r.answered / r.seconds:>8.1f}{1000 * statistics.median(r.latencies or [0]):>9.0f}"
                     f"{1000 * _percentile(r.latencies, 0.95):>9.0f}{r.tokens / r.seconds:>10.0f}{batch:>7}")
    return "\n".join(lines)
