"""The one folder of repository snapshots the makers read (git directories ``owner+name/repo``).

``$CRAFTBENCH_MIRRORS`` where it is set; else ``/work/.mirror`` (where the ``fetch`` tool puts them) where it
exists; else ``~/mirrors``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ENV = "CRAFTBENCH_MIRRORS"
DEFAULTS = ("/work/.mirror", "~/mirrors")


def mirror_root() -> Path:
    """The mirror folder: ``$CRAFTBENCH_MIRRORS``, else the first of :data:`DEFAULTS` that exists, else the last."""
    env = os.environ.get(ENV)
    if env:
        return Path(env).expanduser()
    for folder in DEFAULTS:
        if Path(folder).expanduser().is_dir():
            return Path(folder).expanduser()
    return Path(DEFAULTS[-1]).expanduser()


def git_dir(repo: str, root: Path | None = None) -> Path | None:
    """The snapshot of ``repo`` (``owner/name``) under ``root`` (default :func:`mirror_root`), as
    ``owner+name/repo`` or a bare ``owner+name``; None where there is none."""
    base = (mirror_root() if root is None else Path(root)) / repo.replace("/", "+")
    return next((d for d in (base / "repo", base) if (d / "HEAD").exists()), None)


def git(git_dir: Path | str, *args: str, check: bool = True) -> str:
    """A git command's output (text) run on the git directory ``git_dir``; raises where it fails (with
    ``check=False``: whatever it printed, empty where it failed)."""
    return subprocess.run(["git", "--git-dir", str(git_dir), *args], capture_output=True, text=True,
                          check=check).stdout


def git_bytes(git_dir: Path | str, *args: str, check: bool = True) -> bytes:
    """As :func:`git`, the output as bytes (a blob as it is stored)."""
    return subprocess.run(["git", "--git-dir", str(git_dir), *args], capture_output=True, check=check).stdout


def harvested(maker: str, what: str, harvest, real, error: type[Exception]) -> list:
    """``harvest(real=real)``'s usable sources (it returns them, then the counts of files left for want of a
    licence and of malformed ones), what was left out told on stderr; ``error`` where there is none."""
    found, unlicensed, malformed = harvest(real=real)
    print(f"{maker}: {len(found)} {what}; {real.left_out} left out as maybe a real-set figure's, "
          f"{unlicensed} for want of a licence, {malformed} malformed", file=sys.stderr)
    if not found:
        raise error(f"no usable {what} under {mirror_root()}")
    return found
