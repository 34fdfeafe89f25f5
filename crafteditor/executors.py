"""Where batch conversions run: in this process, a local process pool, or a Ray cluster.

One small interface: :meth:`Executor.run` takes a picklable function and its argument
tuples and yields results as they finish (any order). The batch driver never knows which
executor it has. Workers load the OCR models once (an initializer warms them), with one
onnxruntime thread each so N workers use N cores.
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Any, Callable, Iterable, Iterator

import cv2

from crafteditor.ocr.engine import get_engine
from crafter.errors import CrafterError

EXECUTORS = ("local", "ray")


def warm_worker(ocr: bool = True) -> None:
    """Per-worker start-up: one thread per library, models loaded before the first file."""
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    cv2.setNumThreads(1)
    if ocr:
        get_engine(1)


class Executor:
    def run(self, fn: Callable[..., Any], args: Iterable[tuple]) -> Iterator[Any]:  # pragma: no cover
        raise NotImplementedError

    def close(self) -> None:
        pass


class InlineExecutor(Executor):
    """One worker: convert in this process (no pickling, models shared with the caller)."""

    def run(self, fn, args):
        for a in args:
            yield fn(*a)


class ProcessExecutor(Executor):
    """A local process pool; keeps at most 2×workers tasks in flight so a huge batch streams."""

    def __init__(self, workers: int, ocr: bool = True) -> None:
        # spawn, not fork: a parent holding OpenMP / onnxruntime thread pools can deadlock a forked child
        ctx = multiprocessing.get_context("spawn")
        self.pool = ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=warm_worker, initargs=(ocr,))
        self.workers = workers

    def run(self, fn, args):
        pending = set()
        it = iter(args)
        exhausted = False
        while True:
            while not exhausted and len(pending) < 2 * self.workers:
                try:
                    a = next(it)
                except StopIteration:
                    exhausted = True
                    break
                pending.add(self.pool.submit(fn, *a))
            if not pending:
                return
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in done:
                yield f.result()

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)


class RayExecutor(Executor):
    """Ray tasks (``pip install 'crafter[ray]'``); joins a running cluster or starts a local one."""

    def __init__(self, workers: int, ocr: bool = True) -> None:
        try:
            import ray  # heavy: an optional extra (crafter[ray]); only this executor needs it
        except ImportError:
            raise CrafterError("the ray executor needs Ray: pip install 'crafter[ray]'") from None
        self.ray = ray
        if not ray.is_initialized():
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        self.ocr = ocr
        self.workers = workers

    def run(self, fn, args):
        ray = self.ray
        ocr = self.ocr

        def task(*a):
            warm_worker(ocr)
            return fn(*a)

        remote = ray.remote(num_cpus=1)(task)
        pending = []
        it = iter(args)
        exhausted = False
        while True:
            while not exhausted and len(pending) < 2 * self.workers:
                try:
                    pending.append(remote.remote(*next(it)))
                except StopIteration:
                    exhausted = True
            if not pending:
                return
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield ray.get(ref)


def make_executor(kind: str, workers: int, *, ocr: bool = True) -> Executor:
    if kind not in EXECUTORS:
        raise CrafterError(f"unknown executor '{kind}'; expected one of {', '.join(EXECUTORS)}")
    if workers < 1:
        raise CrafterError("workers must be at least 1")
    if kind == "ray":
        return RayExecutor(workers, ocr)
    if workers == 1:
        return InlineExecutor()
    return ProcessExecutor(workers, ocr)
