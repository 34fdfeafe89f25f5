"""The browser tests' shared pieces: a real ``streamlit run`` on a free port, Debian's Chromium
through Playwright (never ``playwright install``: no browser download), and the small steps
every test takes (wait for a rerun, screenshot, no error in the page)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest
from app_helpers import ROOT

from crafter.benchmarks.serve import stop_process

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = ROOT / "test-artifacts" / "browser"
STARTUP_S = 90


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def need_browser() -> None:
    """Skip, with the reason, where Chromium or the playwright package is missing."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"Debian chromium is not installed at {CHROMIUM} (`make system` installs it)")
    pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")


@contextmanager
def streamlit_app(script: Path, tmp: Path, **env: str):
    """``streamlit run script`` on 127.0.0.1 until it answers its health check; yields its URL.
    The runs database lives in ``tmp``; the rule-based pipeline (``CRAFTER_BACKEND=none``) keeps
    figures the same on every machine."""
    port = _free_port()
    env = {**os.environ, "CRAFTER_RUNS_DB": str(tmp / "runs.sqlite"), "CRAFTER_BACKEND": "none", **env}
    log = open(tmp / "streamlit.log", "wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(script), "--server.port", str(port),
         "--server.address", "127.0.0.1", "--server.headless", "true", "--server.fileWatcherType", "none",
         "--browser.gatherUsageStats", "false"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + STARTUP_S
        while True:
            if proc.poll() is not None:
                pytest.fail(f"streamlit exited with {proc.returncode}:\n{(tmp / 'streamlit.log').read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
                    if r.read().strip() == b"ok":
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"streamlit did not answer /_stcore/health within {STARTUP_S} s")
            time.sleep(0.5)
        yield url
    finally:
        stop_process(proc)
        log.close()


@contextmanager
def browser_page(url: str, timeout_ms: int, height: int = 1000):
    """A Chromium page (1400 px wide) on ``url`` that accepts downloads."""
    from playwright.sync_api import sync_playwright  # heavy: a browser driver; only browser tests need it

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        context = browser.new_context(viewport={"width": 1400, "height": height}, accept_downloads=True)
        pg = context.new_page()
        pg.set_default_timeout(timeout_ms)
        pg.goto(url)
        try:
            yield pg
        finally:
            context.close()
            browser.close()


def settle(pg) -> None:
    """Wait until the app has finished its rerun (the 'running' indicator is gone)."""
    pg.wait_for_timeout(400)
    pg.wait_for_selector('[data-testid="stStatusWidget"]', state="detached")
    pg.wait_for_timeout(300)


def shot(pg, name: str, full_page: bool = False) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    pg.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)


def no_errors(pg) -> None:
    exceptions = pg.locator('[data-testid="stException"]')
    assert exceptions.count() == 0, exceptions.first.inner_text()
    alerts = pg.locator('[data-testid="stAlertContentError"]')
    assert alerts.count() == 0, alerts.first.inner_text()


def download(pg, button: str, folder: Path) -> Path:
    """Click a download button; the file, saved under ``folder`` with the name the app gave it."""
    with pg.expect_download() as dl:
        pg.get_by_role("button", name=button).first.click()
    path = folder / dl.value.suggested_filename
    dl.value.save_as(path)
    return path
