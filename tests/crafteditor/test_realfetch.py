"""Rebuilding the real-figure folder from the repositories the manifest names (crafteditor.realfetch)."""

import hashlib
import io
import json
import subprocess

import pytest
from PIL import Image
from typer.testing import CliRunner

from crafteditor.cli import app
from crafteditor.realfetch import rasterise, rebuild

SVG = b'<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect x="2" y="2" width="30" height="10"/></svg>'


def _png() -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (8, 6), (200, 10, 10)).save(buf, "PNG")
    return buf.getvalue()


def _repo(tmp_path):
    work = tmp_path / "mirrors" / "someone" / "figs"
    work.mkdir(parents=True)
    (work / "a.png").write_bytes(_png())
    (work / "b.svg").write_bytes(SVG)
    (work / "broken.svg").write_bytes(b"<svg xmlns='http://www.w3.org/2000/svg'><rect")
    git = ["git", "-C", str(work), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(git[:3] + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "."], check=True)
    subprocess.run(git + ["commit", "-qm", "figs"], check=True)
    return subprocess.run(git[:3] + ["rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()


def _manifest(tmp_path, commit):
    sha = lambda b: hashlib.sha256(b).hexdigest()  # noqa: E731
    rec = dict(repo="someone/figs", commit=commit, text="")
    figures = [
        {**rec, "id": "png", "file": "figs/png.png", "path": "a.png", "sha256": sha(_png())},
        {**rec, "id": "svg", "file": "figs/svg.png", "path": "b.svg", "width": 80, "sha256": sha(rasterise(SVG, "b.svg", 80))},
        {**rec, "id": "changed", "file": "figs/changed.png", "path": "a.png", "sha256": "0" * 64},
        {**rec, "id": "elsewhere", "file": "figs/elsewhere.png", "path": "a.png", "repo": "other/repo"},
        {**rec, "id": "broken", "file": "figs/broken.png", "path": "broken.svg", "width": 80},
        {**rec, "id": "browser", "file": "figs/browser.png", "path": "b.svg", "rasteriser": "inkscape"},
        {**rec, "id": "nopath", "file": "figs/nopath.png"},
        {**rec, "id": "outside", "file": "../../outside.png", "path": "a.png"},
    ]
    path = tmp_path / "manifest.json"
    path.write_text(json.dumps({"figures": figures}))
    return path


def test_rebuild_writes_checked_figures_and_reports_the_rest(tmp_path):
    manifest = _manifest(tmp_path, _repo(tmp_path))
    out = tmp_path / "realfigs"
    done = {r.id: r for r in rebuild(out, tmp_path / "mirrors", manifest)}
    assert done["png"].status == done["svg"].status == "written"
    assert (out / "figs" / "png.png").read_bytes() == _png()
    assert Image.open(out / "figs" / "svg.png").size == (80, 40)  # the SVG at the manifest's width, on white
    assert done["changed"].status == "failed" and "sha256" in done["changed"].reason
    assert not (out / "figs" / "changed.png").exists()  # a file the truth was not made for is never written
    assert done["elsewhere"].status == "failed" and "other/repo" in done["elsewhere"].reason
    # a damaged original, one drawn by a tool the rebuild does not drive, an entry without its path, a file outside the folder:
    # each fails alone, with its reason
    assert done["broken"].status == "failed" and "ParseError" in done["broken"].reason
    assert done["browser"].status == "failed" and "inkscape" in done["browser"].reason
    assert done["nopath"].status == "failed" and "path" in done["nopath"].reason
    assert done["outside"].status == "failed" and "outside" in done["outside"].reason
    assert not (tmp_path / "outside.png").exists()
    again = {r.id: r.status for r in rebuild(out, tmp_path / "mirrors", manifest)}
    assert again["png"] == again["svg"] == "present"


def test_the_command_says_what_failed_and_exits_1(tmp_path):
    manifest = _manifest(tmp_path, _repo(tmp_path))
    res = CliRunner().invoke(app, ["realset-rebuild", "--mirrors", str(tmp_path / "mirrors"),
                                   "--into", str(tmp_path / "out"), "--manifest", str(manifest)])
    assert res.exit_code == 1
    assert "2 written, 0 already there, 6 failed (of 8)" in res.output


HTML_LABEL = (b'<svg xmlns="http://www.w3.org/2000/svg" width="100%" style="max-width: 60px" viewBox="0 0 60 30">'
              b'<rect x="1" y="1" width="58" height="28" fill="none" stroke="#000"/>'
              b'<foreignObject x="4" y="4" width="10" height="10"><div xmlns="http://www.w3.org/1999/xhtml" '
              b'style="font-size:8px;color:#000">Wide label</div></foreignObject></svg>')


@pytest.mark.browser
def test_an_html_labelled_svg_is_drawn_in_chromium_with_its_recorded_css(tmp_path):
    """Mermaid SVGs keep their labels in HTML (foreignObject), which cairosvg drops: such an entry
    (``rasteriser: chromium``) is drawn in the headless Chromium at the manifest's width, on white, with
    the entry's CSS (here: overflow visible, so the label spills out of its too-small box as in the set)."""
    from crafteditor.browser import browser_missing
    if browser_missing():
        pytest.skip(browser_missing())
    work = tmp_path / "mirrors" / "someone" / "figs"
    work.mkdir(parents=True)
    (work / "m.svg").write_bytes(HTML_LABEL)
    git = ["git", "-C", str(work), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(git[:3] + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "."], check=True)
    subprocess.run(git + ["commit", "-qm", "m"], check=True)
    commit = subprocess.run(git[:3] + ["rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    rec = dict(repo="someone/figs", commit=commit, text="", path="m.svg", rasteriser="chromium", width=240)
    figures = [{**rec, "id": "clipped", "file": "figs/clipped.png"},
               {**rec, "id": "spilled", "file": "figs/spilled.png", "rasteriser_css": "foreignObject{overflow:visible}"},
               {**rec, "id": "markup", "file": "figs/markup.png", "rasteriser_css": "</style><script>"}]
    (tmp_path / "manifest.json").write_text(json.dumps({"figures": figures}))
    done = {r.id: r for r in rebuild(tmp_path / "out", tmp_path / "mirrors", tmp_path / "manifest.json")}
    assert done["clipped"].status == done["spilled"].status == "written"
    assert done["markup"].status == "failed" and "markup" in done["markup"].reason
    ink = {}
    for name in ("clipped", "spilled"):
        im = Image.open(tmp_path / "out" / "figs" / f"{name}.png").convert("L")
        assert im.size == (240, 120)  # the manifest's width, the viewBox's aspect; the author's max-width dropped
        assert im.getpixel((120, 60)) > 250  # white page inside the frame
        ink[name] = sum(1 for v in im.crop((60, 12, 230, 60)).getdata() if v < 128)  # right of the label's box
    assert ink["spilled"] > 20 and ink["clipped"] < ink["spilled"]  # the label's words drawn past its box
