"""Where batch conversions run: in this process, a local process pool, or a Ray cluster.

One small interface: :meth:`Executor.run` takes a picklable function and its argument
tuples and yields results as they finish (any order). The batch driver never knows which
executor it has. Workers load the OCR models once (an initializer warms them), with one
onnxruntime thread each so N workers use N cores.

A worker can die under a task (killed, out of memory, a crash in native code). Both pools
run such a task once more; when it dies again, ``run`` yields ``lost(args, error)`` in its
place, so the batch records the file and goes on instead of stopping with every task still
queued.
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable, Iterable, Iterator

import cv2

from crafteditor.ocr.engine import get_engine
from crafter.errors import CrafterError

EXECUTORS = ("local", "ray")
RAY_RETRIES = 1  # a Ray task whose worker died is run once more, then reported lost

Lost = Callable[[tuple, BaseException], Any]


def _raise(args: tuple, error: BaseException) -> Any:
    raise error


def warm_worker(ocr: bool = True) -> None:
    """Per-worker start-up: one thread per library, models loaded before the first file."""
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    cv2.setNumThreads(1)
    if ocr:
        get_engine(1)


class Executor:
    def run(self, fn: Callable[..., Any], args: Iterable[tuple], lost: Lost = _raise) -> Iterator[Any]:  # pragma: no cover
        raise NotImplementedError

    def close(self) -> None:
        pass


class InlineExecutor(Executor):
    """One worker: convert in this process (no pickling, models shared with the caller)."""

    def run(self, fn, args, lost=_raise):
        for a in args:
            yield fn(*a)


def _windowed(it: Iterator[tuple], pending: int, window: int) -> Iterator[tuple]:
    """Up to ``window - pending`` more argument tuples from ``it``."""
    for _ in range(max(0, window - pending)):
        try:
            yield next(it)
        except StopIteration:
            return


class ProcessExecutor(Executor):
    """A local process pool; keeps at most 2×workers tasks in flight so a huge batch streams.

    A worker that dies breaks a ``ProcessPoolExecutor`` for every task in it, so the culprit is
    unknown: the pool is started again and the tasks that were in flight run once more, one at
    a time. One that kills its worker again, alone, is the culprit and is reported lost."""

    def __init__(self, workers: int, ocr: bool = True) -> None:
        self.workers = workers
        self.ocr = ocr
        self.pool = self._start()

    def _start(self) -> ProcessPoolExecutor:
        # spawn, not fork: a parent holding OpenMP / onnxruntime thread pools can deadlock a forked child
        ctx = multiprocessing.get_context("spawn")
        return ProcessPoolExecutor(max_workers=self.workers, mp_context=ctx, initializer=warm_worker,
                                   initargs=(self.ocr,))

    def run(self, fn, args, lost=_raise):
        pending: dict[Any, tuple] = {}  # future -> args
        suspects: list[tuple] = []  # in flight when a worker died: run again alone
        it = iter(args)
        while True:
            alone = bool(suspects)
            if alone and not pending:
                a = suspects.pop(0)
                pending[self.pool.submit(fn, *a)] = a
            elif not alone:
                for a in _windowed(it, len(pending), 2 * self.workers):
                    pending[self.pool.submit(fn, *a)] = a
            if not pending:
                return
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            broken = False
            for f in done:
                a = pending.pop(f)
                try:
                    yield f.result()
                except BrokenProcessPool as e:
                    broken = True
                    if alone:
                        yield lost(a, e)  # it ran alone and killed its worker again
                    else:
                        suspects.append(a)
            if broken:
                suspects += pending.values()
                pending.clear()
                self.pool.shutdown(wait=False, cancel_futures=True)
                self.pool = self._start()

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)


class RayExecutor(Executor):
    """Ray tasks (``pip install 'crafter[ray]'``); joins a running cluster or starts a local one.

    Ray itself runs a task again when its worker dies (``max_retries``); past that, the task
    is reported lost."""

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

    def run(self, fn, args, lost=_raise):
        ray = self.ray
        ocr = self.ocr

        def task(*a):
            warm_worker(ocr)
            return fn(*a)

        remote = ray.remote(num_cpus=1, max_retries=RAY_RETRIES)(task)
        pending: dict[Any, tuple] = {}  # object ref -> args
        it = iter(args)
        while True:
            for a in _windowed(it, len(pending), 2 * self.workers):
                pending[remote.remote(*a)] = a
            if not pending:
                return
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                a = pending.pop(ref)
                try:
                    yield ray.get(ref)
                except (ray.exceptions.WorkerCrashedError, ray.exceptions.NodeDiedError) as e:
                    yield lost(a, e)


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
