"""The one folder of repository snapshots the makers read (git directories ``owner+name/repo``).

``$CRAFTBENCH_MIRRORS`` where it is set; else ``/work/.mirror`` (where the ``fetch`` tool puts them) where it
exists; else ``~/mirrors``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
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


def source_blocks(repos: dict[str, str], grep: list[str], blocks_of: Callable[[str, str], list[str]], real=None,
                  root: Path | None = None, paths: tuple[str, ...] = ()) -> Iterator[tuple[str, str, str, str]]:
    """``(repo, licence, path, block)`` for every block ``blocks_of(path, text)`` finds in the files of
    ``repos`` (``owner/name`` -> licence) that ``git grep -l *grep HEAD -- *paths`` lists, in a stable order, each block
    once (blocks equal but for white space are one); files a real-set figure may have been drawn from are left
    out (``real``: a :class:`~craftbench.makers.mermaid_versions.RealSet`, one of its repository beside them or
    of the same name). The sequence makers' harvests walk their mirrors with it."""
    seen: set[str] = set()
    for repo, licence in repos.items():
        gd = git_dir(repo, root)
        if gd is None:
            continue
        for ref in sorted(git(gd, "grep", "-l", *grep, "HEAD", "--", *paths, check=False).split()):
            path = ref.split(":", 1)[1]
            if real is not None and (real.beside(repo, path) or real.named(repo, path)):
                continue
            for block in blocks_of(path, git(gd, "show", ref, check=False)):
                key = re.sub(r"\s+", " ", block)
                if key not in seen:
                    seen.add(key)
                    yield repo, licence, path, block
