"""SVGs Crafter did not write: sanitised, then imported as path/text/image components."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from crafter.errors import InputError
from crafter.formats import ImportReport, import_svg, load_figure, sanitize_svg
from crafter.spec import Figure

PNG_1PX = ("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")
LOL = "".join(f'<!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">' for i in range(1, 10))
MALICIOUS = f"""<?xml version="1.0"?>
<!DOCTYPE svg [<!ENTITY lol0 "lol">{LOL}<!ENTITY xxe SYSTEM "file:///etc/passwd">
  <!ENTITY remote SYSTEM "https://evil.example/dtd">]>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="200" height="100"
     viewBox="0 0 200 100" onload="alert('svg')">
  <script type="text/javascript">alert('script')</script>
  <script xlink:href="https://evil.example/x.js"/>
  <style>@import url(https://evil.example/x.css); rect {{ fill: url(https://evil.example/p.svg#g) }}</style>
  <rect id="box" x="10" y="10" width="50" height="30" fill="red" onclick="steal()"
        style="stroke:url(https://evil.example/s.svg#p);stroke-width:2"/>
  <text x="10" y="80" onmouseover="x()">Hello &lol9;</text>
  <text x="100" y="80">&xxe;&remote;visible</text>
  <image href="https://evil.example/track.png" x="0" y="0" width="10" height="10"/>
  <image xlink:href="file:///etc/passwd" x="0" y="0" width="10" height="10"/>
  <image href="data:image/png;base64,{PNG_1PX}" x="150" y="10" width="20" height="20"/>
  <image href="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9ImFsZXJ0KDEpIi8+" x="0" y="0" width="5" height="5"/>
  <foreignObject width="100" height="100"><iframe xmlns="http://www.w3.org/1999/xhtml" src="https://evil.example/"/>
  </foreignObject>
  <a xlink:href="javascript:alert(1)"><circle cx="120" cy="30" r="10" fill="blue"/></a>
  <use href="https://evil.example/sprite.svg#icon"/>
  <set attributeName="onclick" to="alert(1)"/>
  <animate attributeName="href" to="javascript:alert(1)"/>
  <g filter="url(https://evil.example/f.svg#blur)"><path d="M0,90 L20,90" stroke="black"/></g>
</svg>"""
BAD_WORDS = ("evil", "javascript", "alert", "passwd", "lol", "steal", "onload", "onclick", "script", "iframe",
             "foreignObject", "svg+xml")


@pytest.mark.timeout(60)
def test_malicious_svg_imports_with_none_of_it_left(tmp_path: Path) -> None:
    report = ImportReport()
    fig = import_svg(MALICIOUS, report=report)
    data = fig.to_json()
    for word in BAD_WORDS:
        assert word not in data, word
    kinds = sorted(c.kind for c in fig.components)
    assert kinds == ["image", "path", "path", "path", "text", "text"]
    texts = sorted(c.text for c in fig.of_kind("text"))
    assert texts == ["Hello", "visible"]  # entities gone, nothing expanded
    assert fig.get("box").fill == "#FF0000"  # the rect keeps its own fill; the external stroke is dropped
    removed = "\n".join(report.removed)
    for what in ("DOCTYPE", "<script>", "<foreignObject>", "onload", "onclick", "external reference on <image>",
                 "<set>", "<animate>", "entity reference"):
        assert what in removed, what
    path = tmp_path / "evil.svg"
    path.write_text(MALICIOUS, encoding="utf-8")
    assert load_figure(path) == fig


@pytest.mark.timeout(60)
def test_sanitised_svg_keeps_the_drawing_and_drops_the_rest() -> None:
    text, report = sanitize_svg(MALICIOUS)
    for word in ("evil", "javascript", "alert", "passwd", "lol", "<script", "foreignObject", "onload", "onclick",
                 "DOCTYPE", "ENTITY"):
        assert word not in text, word
    assert "<rect" in text and "data:image/png;base64," in text and ">visible<" in text
    import_svg(text)  # still an SVG


@pytest.mark.timeout(60)
def test_a_use_bomb_is_refused_not_expanded() -> None:
    levels = "".join(f'<g id="l{i}">' + f'<use href="#l{i - 1}"/>' * 10 + "</g>" for i in range(1, 10))
    bomb = (f'<svg xmlns="http://www.w3.org/2000/svg"><defs><g id="l0"><path d="M0,0 L1,1" stroke="red"/></g>'
            f'{levels}</defs><use href="#l9"/></svg>')
    with pytest.raises(InputError, match="more than"):
        import_svg(bomb)


def test_deep_nesting_does_not_crash() -> None:
    deep = ('<svg xmlns="http://www.w3.org/2000/svg">' + "<g>" * 5000 + '<rect width="1" height="1"/>'
            + "</g>" * 5000 + '<rect x="5" width="2" height="2"/></svg>')
    report = ImportReport()
    fig = import_svg(deep, report=report)
    assert [c.kind for c in fig.components] == ["path"]
    assert any("nested deeper" in s for s in report.skipped + report.removed)


def test_transforms_uses_and_gradients_are_resolved() -> None:
    svg = """<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
                  viewBox="-10 -20 300 200" width="600" height="400">
      <defs>
        <linearGradient id="grad"><stop offset="0" stop-color="#0072b2"/><stop offset="1" stop-color="white"/></linearGradient>
        <symbol id="dot"><circle cx="0" cy="0" r="2" fill="black"/></symbol>
      </defs>
      <g transform="translate(10,20) scale(2)">
        <rect id="r" x="0" y="0" width="10" height="5" fill="url(#grad)" stroke="rgb(255, 0, 0)" stroke-width="1"/>
        <use xlink:href="#dot" x="20" y="0"/>
        <g style="display:none"><rect width="100" height="100"/></g>
        <text id="t" x="50" y="10" text-anchor="middle" font-size="6" fill="#333">Mid</text>
        <text id="tr" x="0" y="40" transform="rotate(-90 0 40)" font-size="5px" font-weight="bold">Axis</text>
        <polygon id="half" points="0,50 10,50 5,60" fill="green" fill-opacity="0.5"/>
      </g>
    </svg>"""
    fig = import_svg(svg)
    assert fig.canvas.w == 300 and fig.canvas.h == 200
    r = fig.get("r")
    # (0,0)-(10,5) scaled by 2, shifted by (10,20), then the viewBox origin (-10,-20) moved to 0,0
    assert r.d.startswith("M20,40 L40,40 L40,50 L20,50") and r.fill == "#0072B2" and r.stroke == "#FF0000"
    assert r.stroke_width == 2
    dot = next(c for c in fig.of_kind("path") if c.id not in ("r", "half"))
    assert "M64,40" in dot.d  # circle at (20,0) → (50,20) + (10,20) after the viewBox shift, radius 4
    t = fig.get("t")
    assert abs(t.at.x - 120) < 0.01 and t.font_size == 12 and t.color == "#333333"
    tr = fig.get("tr")
    assert tr.rotate == -90 and tr.bold and tr.font_size == 10
    assert fig.get("half").fill == "#00800080"
    assert len(fig.components) == 5  # the hidden group is not imported


def test_a_matplotlib_figure_imports() -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.fonttype"] = "none"  # text stays text
    fig, ax = plt.subplots(figsize=(3, 2))
    ax.plot([0, 1, 2, 3], [1, 3, 2, 4], label="loss")
    ax.set_title("Training")
    ax.set_xlabel("epoch")
    buf = io.StringIO()
    fig.savefig(buf, format="svg")
    plt.close(fig)
    report = ImportReport()
    imported = import_svg(buf.getvalue(), report=report)
    # matplotlib's white page rectangle would cover the text the renderer draws under paths
    assert any("page background" in s for s in report.skipped)
    texts = [c.text for c in imported.of_kind("text")]
    assert "Training" in texts and "epoch" in texts
    assert len(imported.of_kind("path")) > 5
    json.dumps(imported.to_dict())


@pytest.mark.parametrize("svg, message", [
    ("<html><body/></html>", "not an SVG"),
    ("<svg", "not a well-formed"),
    ('<svg xmlns="http://www.w3.org/2000/svg"><title>empty</title></svg>', "draws nothing"),
])
def test_bad_svgs_get_clear_errors(svg: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        import_svg(svg)


def test_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        import_svg(tmp_path / "nope.svg")


def test_a_foreign_import_renders_as_a_crafter_figure() -> None:
    from crafter.render import figure_to_svg

    fig = import_svg(MALICIOUS)
    out = figure_to_svg(fig)
    assert isinstance(import_svg(out), Figure) and import_svg(out) == fig
