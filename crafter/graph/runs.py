"""The run store: one SQLite file holding LangGraph's checkpoints and a table of runs.

Every pipeline run (``crafter generate``, ``crafter edit``) is a LangGraph thread whose
checkpoints live in the file (``langgraph-checkpoint-sqlite``), so a run killed half-way
resumes from its last finished step. Next to them, the ``crafter_runs`` table records
what people ask about a run: its brief, settings (backend, table, image, rounds…),
status, message and summary.

The file is, in order of precedence: the ``db_path`` argument (``--db``), the
``CRAFTER_RUNS_DB`` environment variable, or ``runs.sqlite`` in the user's data
directory (``$XDG_DATA_HOME/crafter``, ``~/.local/share/crafter`` on Linux,
``~/Library/Application Support/crafter`` on macOS, ``%LOCALAPPDATA%\\crafter`` on Windows).

Status: ``running`` → ``done`` | ``failed`` | ``interrupted``. A run whose process died
without saying so (SIGKILL, power cut) still reads ``running`` in the table; readers
show it as ``interrupted`` when its process is gone.
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from langgraph.checkpoint.sqlite import SqliteSaver

from crafter.errors import CrafterError

ENV_VAR = "CRAFTER_RUNS_DB"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS crafter_runs (
    run_id   TEXT PRIMARY KEY,
    kind     TEXT NOT NULL,            -- generate | edit
    brief    TEXT NOT NULL,            -- the brief, or the edit instruction
    settings TEXT NOT NULL,            -- JSON: backend, data, image, rounds, output...
    status   TEXT NOT NULL,            -- running | done | failed | interrupted
    message  TEXT,                     -- why it failed, or warnings
    summary  TEXT,                     -- JSON: components, issues found/fixed, rounds, seconds...
    created  REAL NOT NULL,
    updated  REAL NOT NULL,
    pid      INTEGER,
    host     TEXT
)
"""


class RunNotFound(CrafterError):
    """No run with that id (or prefix) in the store."""


def default_db_path() -> Path:
    """Where runs are stored when nobody says otherwise (see the module docstring)."""
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).expanduser()
    home = Path.home()
    if sys.platform == "darwin":
        base = home / "Library" / "Application Support"
    elif os.name == "nt":
        base = Path(os.environ.get("LOCALAPPDATA", home / "AppData" / "Local"))
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share")
    return base / "crafter" / "runs.sqlite"


def resolve_db_path(db_path: str | os.PathLike | None) -> Path:
    return Path(db_path).expanduser() if db_path else default_db_path()


@dataclass
class RunInfo:
    """One row of the run table."""

    run_id: str
    kind: str
    brief: str
    settings: dict[str, Any]
    status: str
    message: str | None
    summary: dict[str, Any] = field(default_factory=dict)
    created: float = 0.0
    updated: float = 0.0
    pid: int | None = None
    host: str | None = None

    @property
    def shown_status(self) -> str:
        """``running`` only while its process is alive (on this host); else ``interrupted``."""
        if self.status == "running" and not _alive(self.pid, self.host):
            return "interrupted"
        return self.status

    @property
    def resumable(self) -> bool:
        return self.shown_status in ("interrupted", "failed")


def _alive(pid: int | None, host: str | None) -> bool:
    if pid is None:
        return False
    if host and host != socket.gethostname():
        return True  # cannot tell for another machine: believe the table
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # a zombie (killed, not yet reaped by its parent) is not running
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            return f.read().split(") ", 1)[1][:1] != "Z"
    except (OSError, IndexError):
        return True


_SHARED: dict[str, "RunStore"] = {}
_SHARED_LOCK = threading.Lock()


def new_run_id() -> str:
    return uuid.uuid4().hex[:10]


class RunStore:
    """The run table and the checkpointer of one SQLite file (thread-safe connections)."""

    def __init__(self, db_path: str | os.PathLike | None = None) -> None:
        self.path = resolve_db_path(db_path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.conn = sqlite3.connect(self.path, check_same_thread=False, timeout=30.0)
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute(_SCHEMA)
            self.conn.commit()
        except (OSError, sqlite3.Error) as e:
            raise CrafterError(f"cannot open the run store: {e}", file=str(self.path)) from None
        self._saver = None
        self._lock = threading.Lock()  # one connection shared by the app's threads: one statement at a time

    def checkpointer(self):
        """LangGraph's SqliteSaver on the same file (its own connection, usable from any thread)."""
        if self._saver is None:
            conn = sqlite3.connect(self.path, check_same_thread=False, timeout=30.0)
            self._saver = SqliteSaver(conn)
        return self._saver

    # -- rows ----------------------------------------------------------------------
    def create(self, run_id: str, kind: str, brief: str, settings: dict[str, Any]) -> RunInfo:
        now = time.time()
        try:
            with self._lock:
                self.conn.execute(
                    "INSERT INTO crafter_runs (run_id, kind, brief, settings, status, created, updated, pid, host) "
                    "VALUES (?, ?, ?, ?, 'running', ?, ?, ?, ?)",
                    (run_id, kind, brief, json.dumps(settings), now, now, os.getpid(), socket.gethostname()),
                )
                self.conn.commit()
        except sqlite3.IntegrityError:
            raise CrafterError(f"a run with id '{run_id}' already exists; resume it with "
                               f"`crafter resume {run_id}` or choose another id") from None
        return self.get(run_id)

    def update(self, run_id: str, *, status: str | None = None, message: str | None = None,
               summary: dict[str, Any] | None = None, settings: dict[str, Any] | None = None,
               claim: bool = False) -> None:
        """Change a run's row; ``claim`` marks this process as the one running it."""
        sets, args = ["updated = ?"], [time.time()]
        if status is not None:
            sets.append("status = ?")
            args.append(status)
        if message is not None:
            sets.append("message = ?")
            args.append(message)
        if summary is not None:
            sets.append("summary = ?")
            args.append(json.dumps(summary))
        if settings is not None:
            sets.append("settings = ?")
            args.append(json.dumps(settings))
        if claim:
            sets += ["pid = ?", "host = ?"]
            args += [os.getpid(), socket.gethostname()]
        args.append(run_id)
        with self._lock:
            self.conn.execute(f"UPDATE crafter_runs SET {', '.join(sets)} WHERE run_id = ?", args)
            self.conn.commit()

    def get(self, run_id: str) -> RunInfo:
        """A run by id or unique id prefix."""
        with self._lock:
            rows = self.conn.execute("SELECT * FROM crafter_runs WHERE run_id = ?", (run_id,)).fetchall()
            if not rows:
                rows = self.conn.execute("SELECT * FROM crafter_runs WHERE substr(run_id, 1, ?) = ? "
                                         "ORDER BY created DESC", (len(run_id), run_id)).fetchall()
        if not rows:
            raise RunNotFound(f"no run '{run_id}' in {self.path} (list them with `crafter runs`)")
        if len(rows) > 1:
            raise RunNotFound(f"'{run_id}' matches {len(rows)} runs; give more of the id")
        return self._info(rows[0])

    def list(self, limit: int = 50) -> list[RunInfo]:
        with self._lock:
            rows = self.conn.execute("SELECT * FROM crafter_runs ORDER BY created DESC LIMIT ?", (limit,)).fetchall()
        return [self._info(r) for r in rows]

    _COLUMNS = ("run_id", "kind", "brief", "settings", "status", "message", "summary", "created", "updated", "pid",
                "host")

    def _info(self, row: tuple) -> RunInfo:
        d = dict(zip(self._COLUMNS, row))
        return RunInfo(
            run_id=d["run_id"], kind=d["kind"], brief=d["brief"], settings=json.loads(d["settings"] or "{}"),
            status=d["status"], message=d["message"], summary=json.loads(d["summary"] or "{}"),
            created=d["created"], updated=d["updated"], pid=d["pid"], host=d["host"],
        )

    def compact(self, run_id: str) -> None:
        """Keep only a finished run's last checkpoint (its figure, issues and report); drop the steps before it.

        A 10-node run leaves ~15 checkpoints (~270 kB); compacted, one. The kept
        checkpoint holds every channel's full value, so the run still reopens and lists.
        """
        with self._lock:
            tables = {r[0] for r in self.conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if "checkpoints" not in tables:
                return
            row = self.conn.execute("SELECT checkpoint_id FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = '' "
                                    "ORDER BY checkpoint_id DESC LIMIT 1", (run_id,)).fetchone()
            if row is None:
                return
            latest = row[0]
            self.conn.execute("DELETE FROM checkpoints WHERE thread_id = ? AND checkpoint_id != ?", (run_id, latest))
            if "writes" in tables:
                self.conn.execute("DELETE FROM writes WHERE thread_id = ? AND checkpoint_id != ?", (run_id, latest))
            self.conn.execute("UPDATE checkpoints SET parent_checkpoint_id = NULL WHERE thread_id = ?", (run_id,))
            self.conn.commit()

    @classmethod
    def shared(cls, db_path: str | os.PathLike | None = None) -> "RunStore":
        """One store per file per process (the app calls the pipeline from many threads)."""
        path = resolve_db_path(db_path)
        key = str(path.expanduser().absolute())
        with _SHARED_LOCK:
            store = _SHARED.get(key)
            if store is None:
                store = _SHARED[key] = cls(path)
            return store

    def close(self) -> None:
        self.conn.close()
        if self._saver is not None:
            self._saver.conn.close()
            self._saver = None
