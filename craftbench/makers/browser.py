"""The headless Chromium the browser makers (Mermaid, Excalidraw) draw in: the system's
``/usr/bin/chromium`` through Playwright (never ``playwright install``), one local page per
device scale, nothing fetched from the network."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from crafter.errors import CrafterError

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


@contextmanager
def scaled_pages(error: type[CrafterError], maker: str) -> Iterator[Callable[[int], object]]:
    """In one headless Chromium, a function giving the page (2400×1600, local only) for a device
    scale, made on first use; ``error`` names what is missing (Playwright, Chromium) for ``maker``."""
    try:
        from playwright.sync_api import sync_playwright  # heavy: a browser driver, needed only to draw
    except ImportError as e:
        raise error(f"the {maker} maker needs Playwright's Python package ({e})") from None
    if not Path(CHROMIUM).is_file():
        raise error(f"{CHROMIUM}: no Chromium to draw {maker} figures in")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        pages = {}

        def page(scale: int):
            if scale not in pages:
                ctx = browser.new_context(device_scale_factor=scale, viewport={"width": 2400, "height": 1600})
                # a local page: nothing is fetched
                ctx.route("**/*", lambda route: route.abort() if route.request.url.startswith("http")
                          else route.continue_())
                pages[scale] = ctx.new_page()
            return pages[scale]

        try:
            yield page
        finally:
            browser.close()
