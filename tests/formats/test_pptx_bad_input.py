"""Hostile and broken PowerPoint files: a clear error or a warning naming the problem, nothing
fetched, never a hang."""

from __future__ import annotations

import io
import socket
import struct
import zipfile

import pytest
from pptx import Presentation
from pptx_helpers import laid_out, read_part, rewrite_part, saved

from crafter.cli import main
from crafter.errors import InputError
from crafter.formats.pptx import drawn as pptx_drawn
from crafter.formats.pptx import package as pptx_package
from crafter.formats.pptx.read import ImportReport, import_pptx, pptx_to_figure
from crafter.formats.pptx.write import figure_to_pptx

pytestmark = pytest.mark.timeout(120)  # "never hang", checked


@pytest.fixture
def no_network(monkeypatch):
    """Any attempt to open a connection fails the test."""
    def refuse(*args, **kwargs):
        raise AssertionError("the import tried to reach the network")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


def blank_with_slide_xml(shapes_xml: str) -> bytes:
    prs = Presentation()
    prs.slides.add_slide(prs.slide_layouts[6])
    data = saved(prs)
    xml = read_part(data, "ppt/slides/slide1.xml").decode()
    return rewrite_part(data, "ppt/slides/slide1.xml", xml.replace("</p:spTree>", shapes_xml + "</p:spTree>").encode())


def rect_xml(i: int, x: int = 0, y: int = 0) -> str:
    return (f'<p:sp><p:nvSpPr><p:cNvPr id="{i + 2}" name="Box {i}"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr>'
            f'<a:xfrm><a:off x="{x}" y="{y}"/><a:ext cx="80000" cy="40000"/></a:xfrm><a:prstGeom prst="rect">'
            '<a:avLst/></a:prstGeom><a:solidFill><a:srgbClr val="D6E6F4"/></a:solidFill></p:spPr><p:txBody>'
            f'<a:bodyPr/><a:lstStyle/><a:p><a:r><a:t>n{i}</a:t></a:r></a:p></p:txBody></p:sp>')


def test_not_a_zip(tmp_path) -> None:
    f = tmp_path / "slides.pptx"
    f.write_bytes(b"%PDF-1.7 not a presentation")
    with pytest.raises(InputError) as e:
        import_pptx(f)
    assert "not a PowerPoint file" in str(e.value) and str(f) in str(e.value)


def test_a_zip_without_a_presentation() -> None:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("notes.txt", "hello")
    with pytest.raises(InputError, match="no presentation"):
        pptx_to_figure(out.getvalue(), file="notes.pptx")


def test_zip_bomb_is_refused_before_inflating(monkeypatch) -> None:
    monkeypatch.setattr(pptx_package, "MAX_PART_BYTES", 2 * 2**20)
    data = blank_with_slide_xml("")
    out = io.BytesIO(data)
    with zipfile.ZipFile(out, "a", zipfile.ZIP_DEFLATED) as z, z.open("ppt/media/bomb.xml", "w") as f:
        for _ in range(8):
            f.write(b"\0" * 2**20)  # 8 MB of zeros: a few KB compressed
    assert len(out.getvalue()) < len(data) + 100_000
    with pytest.raises(InputError) as e:
        pptx_to_figure(out.getvalue(), file="bomb.pptx")
    assert "ppt/media/bomb.xml" in str(e.value) and "zip bomb" in str(e.value) and "bomb.pptx" in str(e.value)


def test_declared_sizes_alone_are_enough_to_refuse() -> None:
    data = bytearray(blank_with_slide_xml(""))
    # the central directory says slide1.xml inflates to 3.9 GB: nothing is inflated to find out
    name = b"ppt/slides/slide1.xml"
    at = data.find(b"PK\x01\x02")
    while at >= 0:
        n = struct.unpack("<H", data[at + 28:at + 30])[0]
        if data[at + 46:at + 46 + n] == name:
            data[at + 24:at + 28] = struct.pack("<I", 3_900_000_000)
        at = data.find(b"PK\x01\x02", at + 4)
    with pytest.raises(InputError, match="slide1.xml.*zip bomb"):
        pptx_to_figure(bytes(data))


def test_xml_entity_bomb_in_a_slide_is_refused() -> None:
    data = figure_to_pptx(laid_out("two_panel_overview"))
    xml = read_part(data, "ppt/slides/slide1.xml")
    lol = "".join(f'<!ENTITY lol{i} "{"&lol%d;" % (i - 1) * 10}">' for i in range(1, 10))
    bomb = (b'<?xml version="1.0"?>\n<!DOCTYPE p:sld [<!ENTITY lol0 "lol">' + lol.encode() + b"]>\n"
            + xml.split(b"?>", 1)[1].replace(b"Masked tokens", b"&lol9;"))
    with pytest.raises(InputError) as e:
        pptx_to_figure(rewrite_part(data, "ppt/slides/slide1.xml", bomb), file="evil.pptx")
    assert "ppt/slides/slide1.xml" in str(e.value) and "DOCTYPE" in str(e.value) and "evil.pptx" in str(e.value)


def test_ten_thousand_shapes_stay_fast() -> None:
    data = blank_with_slide_xml("".join(rect_xml(i, (i % 100) * 91440, (i // 100) * 45720) for i in range(10_000)))
    fig = pptx_to_figure(data)
    assert len(fig.of_kind("node")) == 10_000


def test_more_shapes_than_any_figure_is_refused(monkeypatch) -> None:
    monkeypatch.setattr(pptx_drawn, "MAX_SHAPES", 500)
    data = blank_with_slide_xml("".join(rect_xml(i) for i in range(600)))
    with pytest.raises(InputError, match="more than 500 shapes"):
        pptx_to_figure(data, file="huge.pptx")


def test_linked_picture_is_named_and_never_fetched(no_network) -> None:
    data = blank_with_slide_xml(
        '<p:pic><p:nvPicPr><p:cNvPr id="40" name="Logo"/><p:cNvPicPr/><p:nvPr/></p:nvPicPr><p:blipFill>'
        '<a:blip r:link="rIdLinked"/><a:stretch><a:fillRect/></a:stretch></p:blipFill><p:spPr><a:xfrm>'
        '<a:off x="0" y="0"/><a:ext cx="914400" cy="914400"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/>'
        "</a:prstGeom></p:spPr></p:pic>" + rect_xml(1))
    rels = read_part(data, "ppt/slides/_rels/slide1.xml.rels").replace(
        b"</Relationships>", b'<Relationship Id="rIdLinked" Type="http://schemas.openxmlformats.org/officeDocument/'
        b'2006/relationships/image" Target="http://example.invalid/secret.png" TargetMode="External"/>'
        b"</Relationships>")
    data = rewrite_part(data, "ppt/slides/_rels/slide1.xml.rels", rels)
    report = ImportReport()
    fig = pptx_to_figure(data, report=report)
    assert any("Logo" in line and "http://example.invalid/secret.png" in line and "not fetched" in line
               for line in report.lines())
    assert not fig.of_kind("image") and len(fig.of_kind("node")) == 1


def test_broken_stored_spec_falls_back_to_the_slides() -> None:
    data = figure_to_pptx(laid_out("two_panel_overview"))
    item = read_part(data, "customXml/item1.xml").replace(b'"kind":"node"', b'"kind":"blob"', 1)
    report = ImportReport()
    fig = pptx_to_figure(rewrite_part(data, "customXml/item1.xml", item), report=report)
    assert not report.crafter and any("stored FigureSpec is invalid" in line for line in report.lines())
    assert "Unlabelled corpus" in {n.label for n in fig.of_kind("node")}


def test_empty_presentation_is_a_clear_error() -> None:
    with pytest.raises(InputError, match="no slides"):
        pptx_to_figure(saved(Presentation()), file="empty.pptx")


def test_cli_reports_a_bad_file_in_one_line(tmp_path, capsys) -> None:
    f = tmp_path / "x.pptx"
    f.write_bytes(b"not a zip")
    assert main(["import", str(f), "-o", str(tmp_path / "x.dsl")]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: ") and "not a PowerPoint file" in err and len(err.splitlines()) == 1
