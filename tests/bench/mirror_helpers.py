"""A fake mirrored repository for the makers' harvest tests: a work folder committed into a bare git
directory laid out as the mirror folder holds one (``<mirror>/<owner>+<name>/repo``)."""

from __future__ import annotations

import subprocess
from pathlib import Path


def bare_mirror(work: Path, mirror: Path, slug: str = "o+r") -> Path:
    """``work``'s files committed into ``mirror/slug/repo``; the git directory."""
    git = mirror / slug / "repo"
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t",
           "PATH": "/usr/bin:/bin"}
    subprocess.run(["git", "init", "-q", "--bare", str(git)], check=True)
    for cmd in (["add", "-A"], ["commit", "-qm", "x"]):
        subprocess.run(["git", "--git-dir", str(git), "--work-tree", str(work), *cmd], check=True, env=env)
    return git
