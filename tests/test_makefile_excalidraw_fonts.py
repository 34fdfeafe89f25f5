"""`make excalidraw-fonts`: the fonts' folder appears whole or not at all (an unpacking that fails half-way leaves
nothing behind, nor the previous install's leftovers), with a stand-in ``npm pack`` (no network)."""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest

MAKEFILE = Path(__file__).resolve().parents[1] / "Makefile"
FONTS = "node_modules/@excalidraw/excalidraw/dist/prod/fonts"

pytestmark = pytest.mark.skipif(not all(shutil.which(t) for t in ("make", "tar", "sha256sum")),
                                reason="needs make, tar and sha256sum")


def _tgz(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz", compresslevel=0) as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(f"package/dist/prod/fonts/{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def _make(tmp: Path, tgz: bytes) -> subprocess.CompletedProcess:
    """Run the target in ``tmp`` with ``npm pack`` handing over ``tgz`` (its sha256 the one checked)."""
    (tmp / "pack.tgz").write_bytes(tgz)
    bin_ = tmp / "bin"
    bin_.mkdir(exist_ok=True)
    npm = bin_ / "npm"  # `npm pack PKG --pack-destination DIR --silent`: copies the tarball there, prints its name
    npm.write_text(f'#!/bin/sh\ncp "{tmp}/pack.tgz" "$4/pkg.tgz" && echo pkg.tgz\n')
    npm.chmod(0o755)
    (tmp / "package.json").write_text("{}")
    (tmp / "node_modules").mkdir(exist_ok=True)
    stamp = tmp / "node_modules/.installed"
    stamp.touch()
    os.utime(stamp, (os.path.getmtime(tmp / "package.json") + 10,) * 2)
    (tmp / FONTS / ".installed").unlink(missing_ok=True)  # the target redone
    return subprocess.run(["make", "-s", "-C", str(tmp), "-f", str(MAKEFILE), "excalidraw-fonts",
                           f"EXCALIDRAW_SHA256={hashlib.sha256(tgz).hexdigest()}"],
                          env={**os.environ, "PATH": f"{bin_}:{os.environ['PATH']}"}, capture_output=True, text=True,
                          timeout=60)


def test_the_fonts_are_unpacked_whole_and_a_failed_unpacking_leaves_no_half_filled_folder(tmp_path):
    good = _tgz({"a.woff2": b"A" * 1000, "b.woff2": b"B" * 1000})
    r = _make(tmp_path, good)
    fonts = tmp_path / FONTS
    assert r.returncode == 0 and "warning" not in r.stdout, r.stdout + r.stderr
    assert sorted(p.name for p in fonts.iterdir()) == [".installed", "a.woff2", "b.woff2"]
    (fonts / "stale.woff2").write_bytes(b"old")
    r = _make(tmp_path, _tgz({"a.woff2": b"a" * 1000, "b.woff2": b"b" * 1000}))  # redone: nothing stale kept
    assert sorted(p.name for p in fonts.iterdir()) == [".installed", "a.woff2", "b.woff2"]
    assert (fonts / "a.woff2").read_bytes() == b"a" * 1000
    big = _tgz({"a.woff2": b"A" * 1000, "b.woff2": os.urandom(200_000)})
    cut = big[:len(big) // 2]  # cut off in the second font: tar fails after writing the first
    r = _make(tmp_path, cut)  # the previous install stays as it was
    assert "warning: could not install" in r.stdout
    assert sorted(p.name for p in fonts.iterdir()) == ["a.woff2", "b.woff2"] and (fonts / "b.woff2").read_bytes() == b"b" * 1000
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    r = _make(fresh, cut)  # a clean clone: no folder at all
    assert "warning: could not install" in r.stdout
    assert not (fresh / FONTS).exists()
    assert [p.name for p in (fresh / FONTS).parent.iterdir()] == []  # no temporary folder left either
