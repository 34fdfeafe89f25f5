"""The one folder of repository snapshots the makers read (git directories ``owner+name/repo``).

``$CRAFTBENCH_MIRRORS`` where it is set; else ``/work/.mirror`` (where the ``fetch`` tool puts them) where it
exists; else ``~/mirrors``.
"""

from __future__ import annotations

import os
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
