"""The app in a real browser: brief → Generate → figure → rename in the table → download.

Starts ``streamlit run app.py`` on a free port and drives Debian's Chromium through
Playwright's Python API (never ``playwright install``: no browser download). Each step
leaves a screenshot in ``test-artifacts/browser/`` for people to look at.

The app runs with ``CRAFTER_BACKEND=none`` (the rule-based pipeline) so the figure, and
therefore the component the test renames, is the same on every machine.
"""

from __future__ import annotations

import re

import pytest
from app_helpers import APP
from browser_helpers import browser_page, download, need_browser, no_errors, settle, shot, streamlit_app

pytestmark = pytest.mark.browser

BRIEF = "A pipeline: Input → Encoder → Decoder → Output."
NEW_LABEL = "Vision Encoder"
ACTION_TIMEOUT_MS = 90_000  # a first Generate loads the layout engine and the pipeline


@pytest.fixture(scope="module")
def app_url(tmp_path_factory):
    need_browser()
    with streamlit_app(APP, tmp_path_factory.mktemp("browser-app")) as url:
        yield url


@pytest.fixture
def page(app_url):
    with browser_page(app_url, ACTION_TIMEOUT_MS) as pg:
        yield pg


def open_label_editor(pg, grid, row: int, attempts: int = 4):
    """Open the cell editor on the Label column of ``row`` (the grid is a canvas: keyboard it there).

    Select the row's ID cell, step right twice, press Enter. A busy machine can swallow the
    first click while the grid is still settling, so try again a few times.
    """
    header_h, row_h, marker_w = 36, 35, 30  # glide-data-grid: header, rows, row-selection column
    editor = pg.locator("#portal textarea").first  # glide-data-grid's overlay editor
    for attempt in range(attempts):
        canvas = grid.locator('[data-testid="data-grid-canvas"]').bounding_box()
        pg.mouse.click(canvas["x"] + marker_w + 30, canvas["y"] + header_h + row_h * row + row_h / 2)
        pg.keyboard.press("ArrowRight")  # Kind
        pg.keyboard.press("ArrowRight")  # Label / text
        pg.keyboard.press("Enter")  # open the cell editor
        try:
            editor.wait_for(state="visible", timeout=5_000)
            return editor
        except Exception:  # noqa: BLE001 - retried below; the last attempt raises
            if attempt == attempts - 1:
                raise
            pg.keyboard.press("Escape")
            settle(pg)
    return editor


def generate(pg):
    """Press Generate and wait for the figure (no error in the page); returns its image."""
    pg.get_by_role("button", name="Generate", exact=True).click()
    figure = pg.locator('[data-testid="crafter-figure"] img').first
    figure.wait_for(state="visible")
    settle(pg)
    no_errors(pg)
    return figure


def test_brief_generate_rename_download(page, tmp_path):
    from playwright.sync_api import expect

    pg = page
    pg.wait_for_selector("text=Describe the figure")
    settle(pg)
    shot(pg, "01-start")

    brief = pg.get_by_role("textbox", name="Brief", exact=True)
    brief.fill(BRIEF)
    brief.press("Control+Enter")  # commit the text area's value
    settle(pg)
    shot(pg, "02-brief")

    figure = generate(pg)
    assert figure.evaluate("img => img.complete && img.naturalWidth > 0"), "the figure image did not load"
    figure.scroll_into_view_if_needed()
    shot(pg, "03-generated")

    # the first-time user's download: PDF straight from under the figure
    pdf = download(pg, "Download PDF", tmp_path)
    assert pdf.suffix == ".pdf" and pdf.read_bytes().startswith(b"%PDF")

    # rename the encoder in the components table: select its ID cell, move to Label, type
    pg.get_by_role("tab", name="Edit").click()
    settle(pg)
    grid = pg.locator('[data-testid="stDataFrame"]:visible').first
    grid.scroll_into_view_if_needed()
    # the grid is a canvas; its accessible copy (a hidden table) tells which row holds what
    id_cell = grid.locator('td[aria-colindex="1"]', has_text=re.compile(r"^encoder$"))
    expect(id_cell).to_have_count(1)
    row = int(id_cell.get_attribute("id").rsplit("-", 1)[1])  # glide-cell-<col>-<row>
    editor = open_label_editor(pg, grid, row)
    editor.fill(NEW_LABEL)
    shot(pg, "04-typing-in-table")
    editor.press("Enter")
    settle(pg)
    no_errors(pg)
    expect(pg.get_by_text("Last change: table: edited encoder")).to_be_visible()
    label_cell = pg.locator('[data-testid="stDataFrame"]:visible').first.locator(f"#glide-cell-3-{row}")
    expect(label_cell).to_have_text(NEW_LABEL)
    pg.locator('[data-testid="crafter-figure"]:visible').first.scroll_into_view_if_needed()
    shot(pg, "05-renamed")

    # download the SVG from the Export tab: it holds the new label, as text and in the IR
    pg.get_by_role("tab", name="Export").click()
    settle(pg)
    shot(pg, "06-export")
    svg_path = download(pg, "SVG (editable)", tmp_path)
    assert svg_path.suffix == ".svg"
    svg = svg_path.read_text(encoding="utf-8")
    assert f">{NEW_LABEL}<" in svg
    from crafter.formats import load_figure

    fig = load_figure(svg_path)
    assert fig.get("encoder").label == NEW_LABEL
    assert [c.label for c in fig.of_kind("node")] == ["Input", NEW_LABEL, "Decoder", "Output"]


def test_first_time_user_two_panel_figure_to_pdf(page, tmp_path):
    """Without reading anything: the example button, Generate, Download PDF."""
    pg = page
    pg.wait_for_selector("text=Describe the figure")
    settle(pg)
    pg.get_by_role("button", name="Two panels: diagram + chart").click()
    settle(pg)
    assert "bar chart" in pg.get_by_role("textbox", name="Brief", exact=True).input_value()
    assert pg.get_by_text("Using the example table").count() == 1
    shot(pg, "11-example-loaded")
    figure = generate(pg)
    figure.scroll_into_view_if_needed()
    shot(pg, "12-two-panel-figure")
    pdf = download(pg, "Download PDF", tmp_path)
    data = pdf.read_bytes()
    assert pdf.suffix == ".pdf" and data.startswith(b"%PDF") and b"/Font" in data  # text kept, fonts embedded
