"""Batch conversion: manifest, bad files recorded and skipped, atomic writes, resume after a kill."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from ce_helpers import box_image, png_bytes

from crafteditor import Config, convert_batch
from crafteditor.batch import plan_outputs, read_manifest

FAST = Config(ocr=False, quality=False)


def _make_inputs(folder: Path, n: int, corrupt: set[int]) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    good = png_bytes(box_image(120, 80))
    paths = []
    for i in range(n):
        p = folder / f"fig{i:03d}.png"
        p.write_bytes(b"\x89PNG\r\n\x1a\n broken" if i in corrupt else good)
        paths.append(p)
    return paths


def test_bad_files_are_recorded_and_skipped(tmp_path):
    _make_inputs(tmp_path / "in", 6, {1, 4})
    s = convert_batch([tmp_path / "in"], tmp_path / "out", FAST, progress=False)
    assert (s.total, s.converted, s.failed) == (6, 4, 2)
    recs = [json.loads(line) for line in (tmp_path / "out" / "manifest.jsonl").read_text().splitlines()]
    assert len(recs) == 6
    bad = [r for r in recs if r["status"] == "error"]
    assert {Path(r["input"]).name for r in bad} == {"fig001.png", "fig004.png"}
    assert all("fig00" in r["error"] and "not a readable image" in r["error"] for r in bad)
    ok = [r for r in recs if r["status"] == "ok"]
    assert all(Path(r["output"]).exists() and "elements" in r["metrics"] for r in ok)
    assert sorted(p.name for p in (tmp_path / "out").glob("*.svg")) == ["fig000.svg", "fig002.svg", "fig003.svg",
                                                                       "fig005.svg"]
    assert not list((tmp_path / "out").glob(".*tmp"))  # no temp files left behind


def test_resume_skips_recorded_files(tmp_path):
    _make_inputs(tmp_path / "in", 4, {2})
    convert_batch([tmp_path / "in"], tmp_path / "out", FAST, progress=False)
    again = convert_batch([tmp_path / "in"], tmp_path / "out", FAST, progress=False, resume=True)
    assert (again.skipped, again.converted, again.failed) == (4, 0, 0)
    assert len((tmp_path / "out" / "manifest.jsonl").read_text().splitlines()) == 4


def test_same_stem_in_two_folders_gets_two_outputs(tmp_path):
    plan = plan_outputs([tmp_path / "a" / "x.png", tmp_path / "b" / "x.png"], tmp_path / "out")
    assert [o.name for _, o in plan] == ["x.svg", "x-2.svg"]


def test_truncated_manifest_line_is_ignored(tmp_path):
    m = tmp_path / "manifest.jsonl"
    m.write_text('{"input": "a.png", "status": "ok"}\n{"input": "b.png", "sta')
    assert list(read_manifest(m)) == ["a.png"]


def test_process_pool_gives_the_same_records(tmp_path):
    _make_inputs(tmp_path / "in", 4, {0})
    s = convert_batch([tmp_path / "in"], tmp_path / "out", FAST, workers=2, progress=False)
    assert (s.converted, s.failed) == (3, 1)


def test_kill_half_way_then_resume(tmp_path):
    """200 files, 5 corrupt, SIGKILL half-way, resume: 195 SVGs, 5 failures, nothing twice."""
    inputs = _make_inputs(tmp_path / "in", 200, {7, 50, 101, 150, 199})
    out = tmp_path / "out"
    manifest = out / "manifest.jsonl"
    cmd = [sys.executable, "-m", "crafteditor.cli", "convert", str(tmp_path / "in"), "-o", str(out),
           "--set", "ocr=false", "--set", "quality=false", "--no-progress"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 240
    while time.time() < deadline:
        if manifest.exists() and len(manifest.read_bytes().splitlines()) >= 100:
            break
        if proc.poll() is not None:
            pytest.fail("the batch finished before it could be killed")
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    first = read_manifest(manifest)
    assert 100 <= len(first) < 200
    first_mtimes = {r["output"]: os.stat(r["output"]).st_mtime_ns for r in first.values() if r["status"] == "ok"}
    done = subprocess.run(cmd + ["--resume"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    lines = [json.loads(x) for x in manifest.read_text().splitlines() if x.strip()]
    names = [r["input"] for r in lines]
    assert len(names) == len(set(names)) == 200  # every input recorded exactly once
    assert sum(r["status"] == "ok" for r in lines) == 195
    failed = sorted(Path(r["input"]).name for r in lines if r["status"] == "error")
    assert failed == ["fig007.png", "fig050.png", "fig101.png", "fig150.png", "fig199.png"]
    assert len(list(out.glob("*.svg"))) == 195
    # files finished before the kill were not converted again
    assert all(os.stat(p).st_mtime_ns == t for p, t in first_mtimes.items())
    assert len(inputs) == 200
