"""The headless Chromium the browser makers (Mermaid, Excalidraw) draw in: the system's
``/usr/bin/chromium`` through Playwright (never ``playwright install``), one local page per
device scale, nothing fetched from the network."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from crafteditor.browser import browser_missing, chromium, local_only
from crafter.errors import CrafterError


@contextmanager
def scaled_pages(error: type[CrafterError], maker: str) -> Iterator[Callable[[int], object]]:
    """In one headless Chromium, a function giving the page (2400×1600, local only) for a device
    scale, made on first use; ``error`` names what is missing (Playwright, Chromium) for ``maker``."""
    why = browser_missing()
    if why:
        raise error(f"the {maker} maker cannot draw: {why}")
    with chromium() as browser:
        pages = {}

        def page(scale: int):
            if scale not in pages:
                ctx = browser.new_context(device_scale_factor=scale, viewport={"width": 2400, "height": 1600})
                # a local page: nothing is fetched
                ctx.route("**/*", local_only)
                pages[scale] = ctx.new_page()
            return pages[scale]

        yield page
