"""The figure shown in the page cannot run code, load anything or navigate."""

import base64

import pytest

from crafter.errors import InputError
from crafter.ui.sanitize import figure_html, sanitize_svg

NASTY = """<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
  width="100" height="50" onload="alert(1)">
  <script>alert('script')</script>
  <style>@import url(https://evil.example/x.css); text {fill: red}</style>
  <style>.a {fill: url(#grad)} .b {fill: url(https://evil.example/p.svg#x)}</style>
  <metadata><figure xmlns="https://crafter.dev/ns">{}</figure></metadata>
  <a xlink:href="javascript:alert(2)"><text x="5" y="20">Encoder &amp; &lt;decoder&gt;</text></a>
  <foreignObject width="10" height="10"><div xmlns="http://www.w3.org/1999/xhtml">html</div></foreignObject>
  <image href="https://evil.example/track.png" width="1" height="1"/>
  <image xlink:href="data:image/png;base64,iVBORw0KGgo=" width="1" height="1"/>
  <image href="data:image/svg+xml;base64,PHN2Zy8+" width="1" height="1"/>
  <use href="#a"/>
  <rect id="r" fill="url(#grad)" style="fill: url(https://evil.example/y)" onclick="alert(3)"/>
  <animate attributeName="href" to="javascript:alert(4)"/>
  <set attributeName="onmouseover" to="alert(5)"/>
</svg>"""


def test_active_content_is_removed():
    out = sanitize_svg(NASTY)
    low = out.lower()
    for bad in ("<script", "onload", "onclick", "javascript:", "foreignobject", "@import", "evil.example",
                "<animate", "<set", "data:image/svg", "<metadata"):
        assert bad not in low, bad


def test_drawing_and_text_survive():
    out = sanitize_svg(NASTY)
    assert "Encoder &amp; &lt;decoder&gt;" in out  # text kept, still escaped
    assert 'fill="url(#grad)"' in out  # references inside the document are fine
    assert "data:image/png;base64" in out  # embedded raster patches stay
    assert '<use href="#a">' in out
    assert out.startswith('<svg xmlns="http://www.w3.org/2000/svg"')


def test_not_svg_and_entities_are_refused():
    with pytest.raises(InputError, match="not an SVG"):
        sanitize_svg("<html><body>hi</body></html>")
    with pytest.raises(InputError, match="not an SVG"):
        sanitize_svg("this is not XML")
    bomb = '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa">]><svg xmlns="http://www.w3.org/2000/svg">&a;</svg>'
    with pytest.raises(InputError, match="unsafe XML"):
        sanitize_svg(bomb)


def test_figure_html_embeds_the_clean_svg_as_an_image():
    html = figure_html(NASTY, alt='Figure "x" <y>', caption="A & B")
    assert "<script" not in html and "<svg" not in html  # the SVG only lives inside the data URI
    src = html.split('src="', 1)[1].split('"', 1)[0]
    assert src.startswith("data:image/svg+xml;base64,")
    svg = base64.b64decode(src.split(",", 1)[1]).decode()
    assert "alert" not in svg and "Encoder" in svg
    assert 'alt="Figure &quot;x&quot; &lt;y&gt;"' in html
    assert "A &amp; B" in html


def test_raster_html_only_takes_png_or_jpeg():
    import io

    from PIL import Image

    from crafter.ui.sanitize import raster_html

    buf = io.BytesIO()
    Image.new("RGB", (4, 4)).save(buf, "PNG")
    assert 'src="data:image/png;base64,' in raster_html(buf.getvalue(), alt="x")
    with pytest.raises(InputError):
        raster_html(b"<svg onload=alert(1)>", alt="x")


def test_markdown_escape_keeps_text_literal():
    from crafter.ui.sanitize import md

    assert md("user_query, llm_generator") == r"user\_query, llm\_generator"
    assert md("costs $5 and $10 <b>x</b> [a](b)") == r"costs \$5 and \$10 \<b\>x\</b\> \[a\](b)"
