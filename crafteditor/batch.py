"""Batch conversion: many images in, one SVG each, a JSONL manifest, resumable after a kill.

* every input gets exactly one manifest record: ``{"input", "output", "status": "ok" |
  "error", "error", "metrics", "seconds"}``; a bad file is recorded and skipped, the batch
  goes on;
* SVGs are written atomically (temp file + rename), then the record is appended and
  flushed, so after a kill every recorded "ok" has its complete SVG;
* ``resume=True`` reads the manifest (a line cut short by the kill is ignored) and skips
  every input already recorded, ok or error: nothing is converted twice.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from crafteditor.config import Config
from crafteditor.convert import convert_file
from crafteditor.executors import make_executor
from crafter.errors import CrafterError, InputError

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".gif", ".bmp", ".tif", ".tiff")
MANIFEST = "manifest.jsonl"


@dataclass
class BatchSummary:
    total: int
    converted: int = 0
    failed: int = 0
    skipped: int = 0  # already in the manifest (resume)
    seconds: float = 0.0
    manifest: Path | None = None
    failures: list[tuple[str, str]] = field(default_factory=list)


def expand_inputs(inputs: Iterable[str | Path]) -> list[Path]:
    """Files as given, folders expanded to the images inside them (sorted, recursive)."""
    out: list[Path] = []
    seen: set[str] = set()
    for item in inputs:
        p = Path(item)
        if p.is_dir():
            found = sorted(q for q in p.rglob("*") if q.is_file() and q.suffix.lower() in IMAGE_SUFFIXES)
        elif p.exists():
            found = [p]
        else:
            raise InputError("no such file or folder", file=str(p))
        for q in found:
            key = str(q.resolve())
            if key not in seen:
                seen.add(key)
                out.append(q)
    return out


def plan_outputs(inputs: list[Path], out_dir: Path) -> list[tuple[Path, Path]]:
    """Each input's SVG path in ``out_dir``: its stem, made unique when two inputs share one."""
    used: dict[str, int] = {}
    plan = []
    for p in inputs:
        stem = p.stem
        n = used.get(stem, 0)
        used[stem] = n + 1
        name = f"{stem}.svg" if n == 0 else f"{stem}-{n + 1}.svg"
        plan.append((p, out_dir / name))
    # a later input could collide with an earlier numbered name: resolve deterministically
    names = [o.name for _, o in plan]
    if len(set(names)) != len(names):
        plan = [(p, out_dir / f"{i:05d}-{p.stem}.svg") for i, (p, _) in enumerate(plan)]
    return plan


def read_manifest(path: Path) -> dict[str, dict[str, Any]]:
    """Records by input path; a truncated last line (a kill mid-write) is ignored."""
    records: dict[str, dict[str, Any]] = {}
    if not path.exists():
        return records
    with path.open("r", encoding="utf-8") as fh:
        for line in fh:
            line = line.strip()
            if not line:
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(rec, dict) and "input" in rec:
                records[rec["input"]] = rec
    return records


def convert_one(src: str, dst: str, options: dict[str, Any], style: dict[str, Any] | None = None) -> dict[str, Any]:
    """Convert one file (runs in a worker); never raises: errors become the record."""
    t0 = time.perf_counter()
    rec: dict[str, Any] = {"input": src, "output": None, "status": "error", "error": None}
    try:
        config = Config.from_options(options)
        metrics = convert_file(src, dst, config, style=style)
        rec.update(output=dst, status="ok", metrics=metrics)
        if metrics.get("over_budget"):  # converted, but the stages named were skipped past the time budget
            rec["over_budget"] = metrics["over_budget"]
    except CrafterError as e:
        rec["error"] = str(e)
    except MemoryError:
        rec["error"] = f"{src}: out of memory"
    except Exception as e:  # a bug must not stop a batch of thousands: record it, go on
        rec["error"] = f"{src}: internal error: {type(e).__name__}: {e}"
    rec["seconds"] = round(time.perf_counter() - t0, 3)
    return rec


def _lost_record(args: tuple, error: BaseException) -> dict[str, Any]:
    """The record of a file whose worker died under it twice (killed, out of memory, a native crash)."""
    name = type(error).__name__
    return {"input": args[0], "output": None, "status": "error", "seconds": None,
            "error": f"{args[0]}: the worker converting it died twice ({name}); the batch went on without it"}


def convert_batch(inputs: Iterable[str | Path], out_dir: str | Path, config: Config | None = None, *,
                  workers: int = 1, executor: str = "local", resume: bool = False, progress: bool = True,
                  on_record: Callable[[dict[str, Any]], None] | None = None,
                  style: dict[str, Any] | None = None) -> BatchSummary:
    """Convert every input image to ``out_dir/<stem>.svg`` and record each in ``out_dir/manifest.jsonl``.

    ``style``: a house style (``crafter.style.resolve_style``) every figure is redrawn in."""
    config = config or Config()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    files = expand_inputs(inputs)
    plan = plan_outputs(files, out)
    manifest = out / MANIFEST
    done = read_manifest(manifest) if resume else {}
    if not resume and manifest.exists():
        manifest.unlink()  # a fresh run starts a fresh manifest
    todo = [(src, dst) for src, dst in plan if str(src) not in done]
    summary = BatchSummary(total=len(plan), skipped=len(plan) - len(todo), manifest=manifest)
    options = config.to_dict()
    if workers > 1 and config.ocr_threads == 0:
        options["ocr_threads"] = 1  # N workers × 1 thread each, not N × all cores
    t0 = time.perf_counter()
    ex = make_executor(executor, workers, ocr=config.ocr)
    bar = _Progress(len(todo), enabled=progress)
    fd = os.open(manifest, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        for rec in ex.run(convert_one, ((str(s), str(d), options, style) for s, d in todo), lost=_lost_record):
            line = (json.dumps(rec, ensure_ascii=False) + "\n").encode("utf-8")
            os.write(fd, line)  # one write per record: whole lines, appended
            os.fsync(fd)
            if rec["status"] == "ok":
                summary.converted += 1
            else:
                summary.failed += 1
                summary.failures.append((rec["input"], rec.get("error") or ""))
            bar.advance(rec)
            if on_record is not None:
                on_record(rec)
    finally:
        os.close(fd)
        ex.close()
        bar.close()
    summary.seconds = time.perf_counter() - t0
    return summary


class _Progress:
    """A rich progress bar (files, rate, time left) that disappears when disabled."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.p = None
        if not enabled or total == 0:
            return
        self.p = Progress(TextColumn("converting"), BarColumn(), MofNCompleteColumn(),
                          TextColumn("{task.fields[failed]} failed"), TimeRemainingColumn(), transient=False)
        self.p.start()
        self.task = self.p.add_task("convert", total=total, failed=0)
        self.failed = 0

    def advance(self, rec: dict[str, Any]) -> None:
        if self.p is None:
            return
        if rec["status"] != "ok":
            self.failed += 1
        self.p.update(self.task, advance=1, failed=self.failed)

    def close(self) -> None:
        if self.p is not None:
            self.p.stop()
