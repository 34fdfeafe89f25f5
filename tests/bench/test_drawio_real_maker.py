"""The drawio-real maker: real draw.io files from mirrored repositories (plain, compressed, SVG and PNG exports),
licences recorded, each page its own figure; truth read off the page's cells."""

from __future__ import annotations

import base64
import struct
import zlib
from html import escape
from pathlib import Path
from urllib.parse import quote

import numpy as np
import pytest
from mirror_helpers import bare_mirror
from PIL import Image

from craftbench.makers.drawio_real import ROOT, VIEWER, DrawioMakerError, harvest, pages, render, truth, viewer_js
from crafteditor.browser import browser_missing

# A box and an ellipse joined by a labelled edge (its label a child vertex), a diamond reached by a dangling end
# 5 px off its outline, a container holding a box, an edge drawn backwards (its only head at the start), HTML
# labels, free text no edge reaches, and an edge whose target is an unlabelled icon.
MODEL = """<mxGraphModel><root><mxCell id="0"/><mxCell id="1" parent="0"/>
<mxCell id="a" value="&lt;b&gt;Web&lt;/b&gt;&lt;br&gt;client" style="rounded=1;html=1;" vertex="1" parent="1">
  <mxGeometry x="0" y="0" width="120" height="60" as="geometry"/></mxCell>
<mxCell id="b" value="API" style="ellipse;whiteSpace=wrap;gradientColor=#7ea6e0;" vertex="1" parent="1">
  <mxGeometry x="300" y="0" width="80" height="80" as="geometry"/></mxCell>
<mxCell id="ab" style="edgeStyle=orthogonalEdgeStyle;" edge="1" parent="1" source="a" target="b">
  <mxGeometry relative="1" as="geometry"/></mxCell>
<mxCell id="lab" value="HTTPS" style="edgeLabel;html=1;" vertex="1" connectable="0" parent="ab">
  <mxGeometry x="-0.1" relative="1" as="geometry"><mxPoint as="offset"/></mxGeometry></mxCell>
<mxCell id="d" value="ok?" style="rhombus;" vertex="1" parent="1">
  <mxGeometry x="300" y="200" width="80" height="80" as="geometry"/></mxCell>
<mxCell id="bd" edge="1" parent="1" source="b"><mxGeometry relative="1" as="geometry">
  <mxPoint x="340" y="195" as="targetPoint"/></mxGeometry></mxCell>
<mxCell id="g" value="Cluster" style="swimlane;" vertex="1" parent="1">
  <mxGeometry x="0" y="300" width="260" height="160" as="geometry"/></mxCell>
<mxCell id="w" value="Worker" style="" vertex="1" parent="g">
  <mxGeometry x="20" y="40" width="100" height="40" as="geometry"/></mxCell>
<mxCell id="wd" style="startArrow=classic;endArrow=none;" edge="1" parent="1" source="w" target="d">
  <mxGeometry relative="1" as="geometry"/></mxCell>
<mxCell id="t" value="Figure 1" style="text;html=1;" vertex="1" parent="1">
  <mxGeometry x="0" y="500" width="80" height="20" as="geometry"/></mxCell>
<mxCell id="icon" value="" style="shape=mxgraph.aws4.lambda;verticalLabelPosition=bottom;" vertex="1" parent="1">
  <mxGeometry x="500" y="0" width="40" height="40" as="geometry"/></mxCell>
<mxCell id="bi" edge="1" parent="1" source="b" target="icon"><mxGeometry relative="1" as="geometry"/></mxCell>
</root></mxGraphModel>"""
MXFILE = f'<mxfile host="app.diagrams.net"><diagram name="One" id="p1">{MODEL}</diagram></mxfile>'
LICENCE = "MIT License\n\nPermission is hereby granted, free of charge, to any person"


def _compressed(model: str) -> str:
    """A page as draw.io stores it compressed: URL-encoded, raw-deflated, base64."""
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    raw = c.compress(quote(model, safe="").encode("ascii")) + c.flush()
    return base64.b64encode(raw).decode("ascii")


def _png_with(key: bytes, value: bytes) -> bytes:
    chunk = key + b"\0" + value
    body = struct.pack(">I", len(chunk)) + b"tEXt" + chunk + b"\0\0\0\0"
    return b"\x89PNG\r\n\x1a\n" + body + struct.pack(">I", 0) + b"IEND\xaeB`\x82"


def test_truth_reads_labels_edges_dangling_ends_and_directions():
    t = truth(pages(MXFILE.encode(), "x.drawio")[0][1])
    assert sorted(t["nodes"]) == ["API", "Cluster", "Web client", "Worker", "ok?"]  # no free text, no icon
    assert t["edges"] == [["Web client", "API"], ["API", "ok?"], ["ok?", "Worker"]]
    assert "HTTPS" in t["text"] and "Figure 1" in t["text"] and "<b>" not in t["text"]


def test_a_dangling_end_beside_free_text_does_not_reach_it():
    beside = MODEL.replace('<mxPoint x="340" y="195" as="targetPoint"/>', '<mxPoint x="40" y="495" as="targetPoint"/>')
    t = truth(pages(beside.encode(), "x.drawio")[0][1])
    assert "Figure 1" not in t["nodes"] and all("Figure 1" not in e for e in t["edges"])


def test_cells_hidden_or_inside_a_collapsed_container_are_not_drawn():
    hidden = MODEL.replace('<mxCell id="g" value="Cluster" style="swimlane;"',
                           '<mxCell id="g" value="Cluster" style="swimlane;" collapsed="1"')
    hidden = hidden.replace('<mxCell id="t" value="Figure 1"', '<mxCell id="t" value="Figure 1" visible="0"')
    t = truth(pages(hidden.encode(), "x.drawio")[0][1])
    assert "Worker" not in t["nodes"] and "Worker" not in t["text"] and "Figure 1" not in t["text"]
    assert "Cluster" in t["nodes"]


def test_a_dangling_end_inside_a_container_does_not_reach_it():
    inside = MODEL.replace('<mxPoint x="340" y="195" as="targetPoint"/>', '<mxPoint x="200" y="420" as="targetPoint"/>')
    t = truth(pages(inside.encode(), "x.drawio")[0][1])
    assert ["API", "Cluster"] not in t["edges"] and ["API", "ok?"] not in t["edges"]


def test_compressed_pages_svg_and_png_exports_read_the_same():
    two = (f'<mxfile><diagram name="One" id="p1">{_compressed(MODEL)}</diagram>'
           f'<diagram name="Two" id="p2">{MODEL}</diagram></mxfile>')
    got = pages(two.encode(), "a.drawio")
    assert [name for name, _ in got] == ["One", "Two"]
    assert truth(got[0][1]) == truth(got[1][1])
    svg = f'<svg xmlns="http://www.w3.org/2000/svg" content="{escape(MXFILE)}"><g/></svg>'
    assert truth(pages(svg.encode(), "a.drawio.svg")[0][1]) == truth(got[1][1])
    png = _png_with(b"mxfile", quote(MXFILE, safe="").encode("ascii"))
    assert truth(pages(png, "a.drawio.png")[0][1]) == truth(got[1][1])
    assert pages(b"<svg/>", "b.drawio.svg") is None and pages(b"not xml", "c.drawio") is None


def test_harvest_keeps_licensed_pages_once_and_counts_the_rest(tmp_path):
    work, mirror = tmp_path / "w", tmp_path / "m"
    (work / "docs").mkdir(parents=True)
    (work / "LICENSE").write_text(LICENCE)
    (work / "docs/arch.drawio").write_text(MXFILE)
    (work / "docs/copy.drawio").write_text(MXFILE)  # the same page again: drawn once
    (work / "docs/broken.drawio").write_text("<mxfile><diagram>!!notbase64</diagram></mxfile>")
    (work / "docs/pom.xml").write_text("<project/>")  # XML that is no draw.io document: not counted
    (work / "docs/units.drawio").write_text(MXFILE.replace('x="300" y="0"', 'x="300px" y="0"'))  # no number: malformed
    bare_mirror(work, mirror, "o+licensed")
    other = tmp_path / "w2"
    other.mkdir()
    (other / "x.drawio").write_text(MXFILE.replace("API", "Queue"))
    bare_mirror(other, mirror, "o+nolicence")
    found, unlicensed, malformed = harvest(mirror)
    assert [(f["repo"], f["path"], f["page"]) for f in found] == [("o/licensed", "docs/arch.drawio", 0)]
    assert found[0]["licence"] == "MIT" and len(found[0]["commit"]) == 40
    assert unlicensed == 1 and malformed == 2
    cl = found[0]["classes"]
    assert cl["orthogonal"] == 1 and cl["dangling_ends"] == 1 and cl["gradients"] == 1 and cl["stencils"] == 1
    assert cl["captions_outside"] == 0  # the icon's label would be set under it, but it has none


def test_without_the_viewer_the_maker_says_what_to_install(tmp_path):
    with pytest.raises(DrawioMakerError, match="npm install"):
        viewer_js(tmp_path)


def test_the_viewer_draws_a_page_with_its_labels_and_lines(tmp_path):
    if browser_missing() or not (ROOT / VIEWER).is_file():
        pytest.skip("no Chromium/Playwright or no draw.io viewer (npm install)")
    png = tmp_path / "p.png"
    render([(MODEL, "#ffffff", 1, png)])
    ink = np.asarray(Image.open(png).convert("L")) < 128
    h, w = ink.shape
    assert 500 <= w <= 600 and 500 <= h <= 560  # the drawing's bounds (0..540 by 0..520) and a 10 px margin
    assert ink[10:70, 10:130].any() and ink[10:90, 310:390].any()  # 'Web client' and 'API' with their outlines
    assert not ink[300:460, 300:380].any()  # paper under the diamond: nothing drawn there


def test_a_compressed_page_or_png_chunk_inflating_past_the_cap_is_malformed_not_inflated(monkeypatch):
    import crafter.formats.drawio.reader as reader
    from craftbench.makers import excalidraw_real

    monkeypatch.setattr(reader, "MAX_INFLATED_BYTES", 10_000)
    monkeypatch.setattr(excalidraw_real, "MAX_INFLATED", 10_000)
    padded = MODEL.replace("</root>", " " * 50_000 + "</root>")  # a few hundred bytes deflated
    assert pages(f"<mxfile><diagram>{_compressed(MODEL)}</diagram></mxfile>".encode(), "a.drawio") is not None
    assert pages(f"<mxfile><diagram>{_compressed(padded)}</diagram></mxfile>".encode(), "a.drawio") is None
    ztxt = b"mxfile\0\0" + zlib.compress(quote(MXFILE.replace("</root>", " " * 50_000 + "</root>"), safe="").encode())
    png = b"\x89PNG\r\n\x1a\n" + struct.pack(">I", len(ztxt)) + b"zTXt" + ztxt + b"\0\0\0\0"
    assert pages(png, "a.drawio.png") is None


def test_a_page_the_viewer_chokes_on_is_skipped_and_the_batch_goes_on(tmp_path, monkeypatch):
    pw = pytest.importorskip("playwright.sync_api")
    from contextlib import contextmanager

    from craftbench.makers import drawio_real

    class Page:
        def set_content(self, html): pass
        def add_script_tag(self, **kw): pass
        def evaluate(self, js, args):
            self.xml = args[0]
            if "boom" in args[0]:
                raise pw.Error("TypeError: cannot read properties of null")
        def locator(self, sel): return self
        def screenshot(self, path): Path(path).write_bytes(b"png")

    @contextmanager
    def fake_pages(error, maker):
        yield lambda scale: Page()

    monkeypatch.setattr(drawio_real, "scaled_pages", fake_pages)
    monkeypatch.setattr(drawio_real, "viewer_js", lambda: tmp_path / "v.js")
    (tmp_path / "v.js").write_text("")
    found = [{"repo": "o/r", "path": f"{name}.drawio", "commit": "c" * 40, "licence": "MIT", "page": 0,
              "page_name": "P", "model": model, "truth": {"text": "", "nodes": [], "edges": []}, "classes": {}}
             for name, model in (("a", MODEL), ("b", MODEL.replace("API", "boom")), ("c", MODEL))]
    monkeypatch.setattr(drawio_real, "harvest", lambda real=None: (found, 0, 0))
    monkeypatch.setattr(drawio_real, "RealSet", lambda: type("R", (), {"left_out": 0})())
    records = drawio_real.draw(tmp_path, n=3)
    assert [r["path"] for r in records] == ["a.drawio", "c.drawio"]
    assert sorted(p.name for p in tmp_path.glob("dio_*")) == sorted(
        f"{r['id']}.{ext}" for r in records for ext in ("png", "xml"))
