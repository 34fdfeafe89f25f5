"""craftbench.makers.mirrors: one folder of repository snapshots for every maker."""

from __future__ import annotations

from pathlib import Path

from craftbench.makers import mirrors


def test_mirror_root_reads_the_env_then_the_defaults(tmp_path, monkeypatch):
    monkeypatch.setenv("CRAFTBENCH_MIRRORS", str(tmp_path))
    assert mirrors.mirror_root() == tmp_path
    monkeypatch.delenv("CRAFTBENCH_MIRRORS")
    first, home = tmp_path / "first", tmp_path / "home"
    monkeypatch.setattr(mirrors, "DEFAULTS", (str(first), str(home)))
    assert mirrors.mirror_root() == home  # none exists: the last
    first.mkdir()
    assert mirrors.mirror_root() == first
    monkeypatch.setattr(mirrors, "DEFAULTS", ("/work/.mirror", "~/mirrors"))
    assert mirrors.mirror_root() in (Path("/work/.mirror"), Path("~/mirrors").expanduser())
