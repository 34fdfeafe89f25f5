"""The headless Chromium that draws what cairosvg cannot (HTML labels in an SVG's foreignObject):
the system's ``/usr/bin/chromium`` through Playwright (never ``playwright install``), local pages
only, nothing fetched from the network. CraftBench's browser makers launch it through here too."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def browser_missing() -> str | None:
    """Why no headless Chromium can be started here (None when one can)."""
    try:
        import playwright.sync_api  # noqa: F401  heavy: a browser driver
    except ImportError as e:
        return f"Playwright's Python package is not installed ({e})"
    if not Path(CHROMIUM).is_file():
        return f"{CHROMIUM}: no Chromium (Debian: apt-get install chromium; `make system`)"
    return None


@contextmanager
def chromium() -> Iterator[object]:
    """A launched headless Chromium (Playwright's Browser), closed on leaving; call
    :func:`browser_missing` first for a clear message."""
    from playwright.sync_api import sync_playwright  # heavy: a browser driver, needed only to draw
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def local_only(route) -> None:
    """A Playwright route handler: requests to the network are aborted, local ones go on."""
    if route.request.url.startswith("http"):
        route.abort()
    else:
        route.continue_()
