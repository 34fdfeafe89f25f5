"""Two codes of CraftEditor converting the same figures in turn (A, B, A, B ...): whether every SVG is
byte-identical, and the CPU seconds of each, per stage and per costly part (issue 31's speed lanes).

    git archive BASE | tar -x -C /tmp/base          # code A: a commit's tree
    PYTHONPATH=$PWD python scripts/ab_convert.py /tmp/base . shared/realfigs --split dev --out /tmp/ab
    PYTHONPATH=$PWD python scripts/ab_convert.py /tmp/base . shared/realfigs --only A_vit_mixer_figure,G_*

Each code converts in its own long-lived process (its imports and engine loaded once, as in a
bench), figure by figure in turn, so the machine's load falls on both alike. The SVGs go to
OUT/a and OUT/b; the figures whose SVGs differ are named. Prints per stage A -> B, summed.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path


def _worker(out: Path) -> None:
    """Convert each path read from stdin; one JSON line per figure on stdout."""
    from crafteditor.config import Config
    from crafteditor.convert import convert

    config = Config(quality=False)
    out.mkdir(parents=True, exist_ok=True)
    for line in sys.stdin:
        name, path = line.rstrip("\n").split("\t")
        c0 = time.process_time()
        conv = convert(Path(path), config, name=name)
        cpu = time.process_time() - c0
        (out / f"{name}.svg").write_text(conv.svg, encoding="utf-8")
        print(json.dumps({"name": name, "cpu": cpu, "stages": conv.report["cpu_stages"],
                          "parts": conv.report["cpu_parts"]}), flush=True)


def _start(code: Path, out: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(code.resolve())}
    return subprocess.Popen([sys.executable, __file__, "--worker", str(out)], cwd=str(code), env=env, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=1)


def _ask(proc: subprocess.Popen[str], name: str, path: Path) -> dict:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(f"{name}\t{path.resolve()}\n")
    proc.stdin.flush()
    return json.loads(proc.stdout.readline())


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        _worker(Path(sys.argv[2]))
        return
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("code_a", type=Path)
    ap.add_argument("code_b", type=Path)
    ap.add_argument("real", type=Path, help="a real-set folder (manifest.json and its figures)")
    ap.add_argument("--split", default="dev")
    ap.add_argument("--only", default="", help="comma-separated ids or globs")
    ap.add_argument("--out", type=Path, default=Path("/tmp/ab_convert"))
    args = ap.parse_args()
    from crafteditor.realset import load_real

    figures = load_real(args.real, args.split)
    if args.only:
        pats = args.only.split(",")
        figures = [f for f in figures if any(fnmatch.fnmatch(f.id, p) for p in pats)]
    a, b = _start(args.code_a, args.out / "a"), _start(args.code_b, args.out / "b")
    sums = {"a": Counter(), "b": Counter()}
    parts = {"a": Counter(), "b": Counter()}
    total = Counter()
    differ = []
    for i, f in enumerate(figures):
        ra, rb = _ask(a, f.id, f.path), _ask(b, f.id, f.path)
        for key, r in (("a", ra), ("b", rb)):
            sums[key].update(r["stages"])
            parts[key].update(r["parts"])
            total[key] += r["cpu"]
        same = (args.out / "a" / f"{f.id}.svg").read_bytes() == (args.out / "b" / f"{f.id}.svg").read_bytes()
        if not same:
            differ.append(f.id)
        print(f"{i + 1:3d} {f.id:50s} {ra['cpu']:7.2f} -> {rb['cpu']:7.2f}{'' if same else '  DIFFERS'}",
              flush=True)
    for proc in (a, b):
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait()
    print(f"\n{len(figures) - len(differ)} of {len(figures)} SVGs byte-identical; differ: {differ}")
    print(f"CPU-s all: {total['a']:.1f} -> {total['b']:.1f}")
    for stage in sorted(set(sums["a"]) | set(sums["b"]), key=lambda s: -sums["a"][s]):
        print(f"  stage {stage:20s} {sums['a'][stage]:7.1f} -> {sums['b'][stage]:7.1f}")
    for part in sorted(set(parts["a"]) | set(parts["b"]), key=lambda s: -parts["a"][s]):
        print(f"  part  {part:20s} {parts['a'][part]:7.1f} -> {parts['b'][part]:7.1f}")


if __name__ == "__main__":
    main()
