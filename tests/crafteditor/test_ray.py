"""The Ray executor on a real local Ray runtime: a batch converts, a killed worker costs nothing,
a killed batch resumes, and nothing is converted twice or lost."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
from ce_helpers import box_image, png_bytes
from PIL import Image, ImageDraw, ImageFont

from crafteditor import Config, convert_batch
from crafteditor.executors import RayExecutor

ray = pytest.importorskip("ray")
CLI = [sys.executable, "-m", "crafteditor.cli"]


@pytest.fixture
def local_ray():
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


def test_ray_executor_converts_and_records(tmp_path, local_ray):
    src = tmp_path / "in"
    src.mkdir()
    for i in range(3):
        (src / f"f{i}.png").write_bytes(png_bytes(box_image()))
    (src / "bad.png").write_bytes(b"nope")
    s = convert_batch([src], tmp_path / "out", Config(ocr=False, quality=False), executor="ray", progress=False)
    assert (s.converted, s.failed) == (3, 1)


def test_a_task_that_kills_its_ray_worker_twice_is_reported_lost(local_ray):
    def die_on(x):  # defined here, so Ray ships it by value (the workers cannot import the tests' helpers)
        if x == "die":
            os._exit(3)
        return x

    ex = RayExecutor(1, ocr=False)
    out = list(ex.run(die_on, [("a",), ("die",), ("b",)], lost=lambda a, e: f"lost:{a[0]}:{type(e).__name__}"))
    assert sorted(out) == ["a", "b", "lost:die:WorkerCrashedError"]


def _diagram(path: Path, i: int) -> None:
    """A figure that takes the reader a second or two: six labelled boxes joined by arrows."""
    im = Image.new("RGB", (900, 600), "white")
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype("DejaVuSans.ttf", 22)
    for j in range(6):
        x, y = 40 + (j % 3) * 280, 60 + (j // 3) * 260
        d.rectangle([x, y, x + 200, y + 90], outline="black", width=3)
        d.text((x + 20, y + 30), f"Stage {i}.{j} encoder", font=font, fill="black")
        if j % 3 < 2:
            d.line([x + 200, y + 45, x + 280, y + 45], fill="black", width=3)
    im.save(path)


def _records(manifest: Path) -> list[dict]:
    out = []
    for line in manifest.read_text().splitlines():
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            pass  # a line cut short by the kill
    return out


def _ray_task_pids() -> list[int]:
    """Ray workers running a conversion (their process title is ray::task while they do)."""
    pids = []
    for p in psutil.process_iter(["pid", "name", "cmdline"]):
        title = " ".join(p.info["cmdline"] or []) or (p.info["name"] or "")
        if title.startswith("ray::task"):
            pids.append(p.info["pid"])
    return pids


def _wait_for(cond, proc, limit=240.0):
    t0 = time.monotonic()
    while time.monotonic() - t0 < limit:
        found = cond()
        if found:
            return found
        if proc.poll() is not None:
            return None
        time.sleep(0.1)
    return None


@pytest.mark.slow
def test_a_killed_worker_and_a_killed_batch_lose_nothing_and_convert_nothing_twice(tmp_path):
    src, out = tmp_path / "in", tmp_path / "out"
    src.mkdir()
    for i in range(8):
        _diagram(src / f"fig{i}.png", i)
    cmd = CLI + ["convert", str(src), "-o", str(out), "--executor", "ray", "--workers", "1", "--no-progress"]
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
    batch = subprocess.Popen(cmd, start_new_session=True, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        # a worker is killed in the middle of a figure: Ray runs that figure again
        pids = _wait_for(_ray_task_pids, batch)
        assert pids, "no Ray worker ever ran a conversion"
        os.kill(pids[0], signal.SIGKILL)
        # then the whole batch is killed (driver, Ray and all) once a few figures are recorded
        manifest = out / "manifest.jsonl"
        assert _wait_for(lambda: manifest.exists() and len(_records(manifest)) >= 3, batch)
        os.killpg(batch.pid, signal.SIGKILL)
    finally:
        if batch.poll() is None:
            os.killpg(batch.pid, signal.SIGKILL)
        batch.wait()
    first = _records(manifest)
    assert 3 <= len(first) < 8
    assert all(r["status"] == "ok" for r in first)

    resumed = subprocess.run(cmd + ["--resume"], env=env, capture_output=True, text=True, timeout=600)
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    records = _records(manifest)
    inputs = [r["input"] for r in records]
    assert sorted(inputs) == sorted(str(p) for p in src.glob("*.png"))  # each once: none lost, none twice
    assert all(r["status"] == "ok" for r in records)
    for r in records:
        svg = Path(r["output"]).read_text()
        assert svg.rstrip().endswith("</svg>") and "encoder" in svg
