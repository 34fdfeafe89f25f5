"""The Vectorize tab in a real browser: upload a figure, convert it, see original and SVG side by
side with the scores and the words the reader was unsure of, download the SVG.

Starts ``streamlit run`` on a free port and drives Debian's Chromium through Playwright (as
``test_browser.py`` does; no browser download). The figure is one we draw with PIL: two boxes,
an arrow, a serif label. The reader's confidence (``text_confidence``, ``unsure_words``) comes
from CraftEditor's report; :mod:`reader_report_app` puts known values in the report of that
figure (the reader's own would change with the reader). With ``CRAFTEDITOR_REAL_SET`` (or the default
folder) present, a second test converts a figure of the real set too; it skips without it.
Screenshots land in ``test-artifacts/browser/``.
"""

from __future__ import annotations

import base64
import io
import json
import os
from pathlib import Path

import pytest
from app_helpers import ROOT
from browser_helpers import browser_page, download, need_browser, no_errors, settle, shot, streamlit_app
from PIL import Image, ImageDraw, ImageFont

pytestmark = pytest.mark.browser

APP = Path(__file__).with_name("reader_report_app.py")
FONTS = Path("/usr/share/fonts/truetype/dejavu")
ACTION_TIMEOUT_MS = 180_000  # the first conversion loads the text reader's models
REAL_SET = Path(os.environ.get("CRAFTEDITOR_REAL_SET", ROOT / "shared" / "realfigs"))


def drawn_figure() -> tuple[bytes, tuple[int, int, int, int]]:
    """Encoder → Decoder with a serif caption 'Embedded'; (PNG, the caption's box x, y, w, h)."""
    im = Image.new("RGB", (640, 300), "white")
    d = ImageDraw.Draw(im)
    sans = ImageFont.truetype(str(FONTS / "DejaVuSans.ttf"), 22)
    serif = ImageFont.truetype(str(FONTS / "DejaVuSerif.ttf"), 22)
    for x, label in ((40, "Encoder"), (400, "Decoder")):
        d.rectangle([x, 60, x + 200, 140], outline=(31, 95, 168), width=3, fill=(222, 235, 250))
        d.text((x + 100, 100), label, fill="black", font=sans, anchor="mm")
    d.line([245, 100, 390, 100], fill="black", width=3)
    d.polygon([(398, 100), (384, 92), (384, 108)], fill="black")
    left, top, right, bottom = d.textbbox((320, 220), "Embedded", font=serif, anchor="mm")
    d.text((320, 220), "Embedded", fill="black", font=serif, anchor="mm")
    buf = io.BytesIO()
    im.save(buf, "PNG")
    return buf.getvalue(), (left, top, right - left, bottom - top)


FIGURE, EMBEDDED_BOX = drawn_figure()
READER_REPORT = {"text_confidence": 0.67, "unsure_words": [
    {"text": "Embcddcd", "score": 0.41, "box": list(EMBEDDED_BOX)}]}


@pytest.fixture(scope="module")
def app_url(tmp_path_factory):
    need_browser()
    with streamlit_app(APP, tmp_path_factory.mktemp("browser-vectorize"),
                       CRAFTER_TEST_READER_REPORT=json.dumps({"encoder.png": READER_REPORT})) as url:
        yield url


@pytest.fixture
def page(app_url):
    with browser_page(app_url, ACTION_TIMEOUT_MS, height=1100) as pg:
        yield pg


def convert_in_tab(pg, name: str, data: bytes, mime: str = "image/png") -> None:
    """Open the Vectorize tab, upload one file, press Convert, wait for the SVG."""
    pg.wait_for_selector("text=Describe the figure")
    settle(pg)
    pg.get_by_role("tab", name="Vectorize").click()
    settle(pg)
    uploader = pg.locator('[data-testid="stFileUploader"]', has_text="PNG or JPG figures")
    uploader.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(
        files=[{"name": name, "mimeType": mime, "buffer": data}])
    settle(pg)
    pg.get_by_role("button", name="Convert to SVG").click()
    pg.get_by_alt_text(f"Vectorised {name}").wait_for(state="visible")
    pg.locator('[data-testid="stMetric"]').first.wait_for(state="visible")  # the scores under the pair
    settle(pg)
    no_errors(pg)


def metrics(pg) -> dict[str, str]:
    out = {}
    for m in pg.locator('[data-testid="stMetric"]:visible').all():
        label = m.locator('[data-testid="stMetricLabel"]').inner_text().strip()
        out[label] = m.locator('[data-testid="stMetricValue"]').inner_text().strip()
    return out


def test_upload_convert_side_by_side_scores_unsure_words_download(page, tmp_path):
    pg = page
    convert_in_tab(pg, "encoder.png", FIGURE)
    original = pg.get_by_alt_text("Original encoder.png")
    svg_img = pg.get_by_alt_text("Vectorised encoder.png")
    for img in (original, svg_img):
        assert img.evaluate("i => i.complete && i.naturalWidth > 0"), "an image did not load"
    a, b = original.bounding_box(), svg_img.bounding_box()
    assert a["x"] + a["width"] <= b["x"] and abs(a["y"] - b["y"]) < 80  # side by side, original on the left
    shown = metrics(pg)
    assert {"Similarity (SSIM)", "Text kept as text", "SVG elements"} <= set(shown), shown
    assert shown["Words read surely"] == "67%"
    warning = pg.locator('[data-testid="stAlertContentWarning"]').first
    assert "unsure of 1 word" in warning.inner_text() and "Embcddcd" in warning.inner_text()
    assert pg.get_by_text("words read unsurely are boxed in orange").count() == 1
    # the box is drawn on the original: orange pixels around where we drew 'Embedded'
    src = original.get_attribute("src")
    im = Image.open(io.BytesIO(base64.b64decode(src.split(",", 1)[1]))).convert("RGB")
    x, y, w, h = EMBEDDED_BOX
    edge = [im.getpixel((x + w // 2, y - k)) for k in range(1, 5)]
    assert any(r > 200 and 90 < g < 150 and bl < 40 for r, g, bl in edge), edge
    svg_img.scroll_into_view_if_needed()
    shot(pg, "21-vectorize-side-by-side", full_page=True)
    path = download(pg, "Download SVG", tmp_path)
    assert path.name == "encoder.svg"
    svg = path.read_text(encoding="utf-8")
    assert svg.lstrip().startswith(("<svg", "<?xml")) and ">Encoder<" in svg and ">Decoder<" in svg


def test_a_figure_of_the_real_set_when_present(page, tmp_path):
    manifest = next((m for m in (REAL_SET / "manifest.json", ROOT / "realset" / "manifest.json") if m.is_file()), None)
    if manifest is None or not REAL_SET.is_dir():
        pytest.skip(f"no real-figure set at {REAL_SET} (set CRAFTEDITOR_REAL_SET)")
    figures = json.loads(manifest.read_text(encoding="utf-8"))["figures"]
    # a dev figure: the frozen test split is never converted outside the bench's held-out run
    small = min((f for f in figures if f.get("kind") == "diagram" and f.get("split", "dev") == "dev"
                 and (REAL_SET / f["file"]).is_file()),
                key=lambda f: (REAL_SET / f["file"]).stat().st_size, default=None)
    if small is None:
        pytest.skip("the real-figure set has no diagram file")
    path = REAL_SET / small["file"]
    mime = "image/jpeg" if path.suffix.lower() in (".jpg", ".jpeg") else "image/png"
    convert_in_tab(page, path.name, path.read_bytes(), mime)
    shot(page, "22-vectorize-real-figure", full_page=True)
    assert "Similarity (SSIM)" in metrics(page)
    assert download(page, "Download SVG", tmp_path).suffix == ".svg"
