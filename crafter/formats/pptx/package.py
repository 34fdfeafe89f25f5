"""What a Crafter PPTX holds besides its drawing, and opening untrusted PPTX files safely.

* **Units**: the slide is the figure's drawing (the SVG's viewBox) at 1:1, 1 px = 9,525 EMU
  (96 dpi); a figure too large for PowerPoint's 56-inch slide limit is scaled down, and the
  scale is stored. :class:`SlideFrame` converts both ways.
* **The FigureSpec** travels in a custom XML part (``/customXml/itemN.xml``, related from the
  presentation, with its ``itemProps`` part as Office expects): the figure's JSON plus the
  frame, so the file is a Crafter source and edits merge back by component id.
* **Shape identity**: each shape is named after its component id (what PowerPoint's Selection
  Pane shows) and carries PowerPoint tags (``p:custDataLst``, a tags part per shape, the
  mechanism add-ins use and PowerPoint keeps): ``CRAFTER_ID`` and ``CRAFTER_ROLE`` (the
  shape's part of the component: ``label`` of an edge, ``frame`` of a group…).
* **Opening** (:func:`open_pptx`): a file that is not a zip, a zip bomb (the declared sizes are
  checked before anything is inflated; Python's zip reader never inflates past them), an XML
  part declaring a DOCTYPE (entity-expansion attacks) are refused with an :class:`InputError`
  naming the file and the part. Nothing is ever fetched: linked (external) parts are only
  reported by the reader.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from lxml import etree
from pptx import Presentation
from pptx.opc.constants import CONTENT_TYPE as CT
from pptx.opc.constants import RELATIONSHIP_TYPE as RT
from pptx.opc.package import Part
from pptx.opc.packuri import PackURI
from pptx.oxml.ns import qn

from crafter.errors import InputError

EMU_PER_PX = 9525  # 914,400 EMU per inch / 96 px per inch
MAX_SLIDE_EMU = 51_206_400  # PowerPoint's largest slide side: 56 in
MIN_SLIDE_EMU = 914_400  # and its smallest: 1 in
SPEC_NS = "urn:crafter:figurespec:1"  # the root element's namespace in the custom XML part
TAG_ID = "CRAFTER_ID"
TAG_ROLE = "CRAFTER_ROLE"
TITLE_KEY = "crafter--title"  # the figure title's text box ('--' never occurs in a component id)

MAX_PPTX_BYTES = 200 * 1024 * 1024  # the file itself
MAX_UNPACKED_BYTES = 400 * 1024 * 1024  # all parts together, as declared in the zip directory
MAX_PART_BYTES = 200 * 1024 * 1024
MAX_PARTS = 100_000  # a tags part per shape makes a large figure's file hold thousands


@dataclass(frozen=True)
class SlideFrame:
    """Figure px ↔ slide EMU: the slide's top-left is figure point (x0, y0); ``scale`` < 1 only
    for figures larger than PowerPoint allows."""

    x0: float
    y0: float
    w: float  # figure px covered by the slide
    h: float
    scale: float = 1.0

    @classmethod
    def for_drawing(cls, x0: float, y0: float, w: float, h: float) -> "SlideFrame":
        largest = max(w, h) * EMU_PER_PX
        scale = min(1.0, MAX_SLIDE_EMU / largest) if largest > 0 else 1.0
        return cls(x0, y0, w, h, scale)

    def length(self, px: float) -> int:
        """A length in figure px as EMU."""
        return int(round(px * self.scale * EMU_PER_PX))

    def x(self, px: float) -> int:
        return self.length(px - self.x0)

    def y(self, px: float) -> int:
        return self.length(px - self.y0)

    def px(self, emu: float) -> float:
        """A length in EMU as figure px."""
        return emu / EMU_PER_PX / self.scale

    def point(self, ex: float, ey: float) -> tuple[float, float]:
        """A slide point (EMU) as a figure point (px)."""
        return self.x0 + self.px(ex), self.y0 + self.px(ey)

    @property
    def slide_size(self) -> tuple[int, int]:
        return (max(MIN_SLIDE_EMU, min(MAX_SLIDE_EMU, self.length(self.w))),
                max(MIN_SLIDE_EMU, min(MAX_SLIDE_EMU, self.length(self.h))))

    def to_dict(self) -> dict[str, float]:
        return {"x0": self.x0, "y0": self.y0, "w": self.w, "h": self.h, "scale": self.scale}

    @classmethod
    def from_dict(cls, d: Any) -> "SlideFrame":
        return cls(float(d["x0"]), float(d["y0"]), float(d["w"]), float(d["h"]), float(d.get("scale", 1.0)))


# =================================================================================
# The stored FigureSpec
# =================================================================================


def add_spec_part(prs: Any, payload: dict[str, Any]) -> None:
    """Store ``payload`` (the figure's JSON and the frames) as a custom XML part of ``prs``."""
    package = prs.part.package
    n = 1
    taken = {str(p.partname) for p in package.iter_parts()}
    while f"/customXml/item{n}.xml" in taken:
        n += 1
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    blob = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            f'<figure xmlns="{SPEC_NS}" format="json">{escape(text)}</figure>').encode("utf-8")
    item = Part(PackURI(f"/customXml/item{n}.xml"), CT.XML, package, blob)
    props_blob = ('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
                  '<ds:datastoreItem ds:itemID="{6C6E6F2A-43A1-4F7E-9A3C-6372616674E5}" '
                  'xmlns:ds="http://schemas.openxmlformats.org/officeDocument/2006/customXml">'
                  f'<ds:schemaRefs><ds:schemaRef ds:uri="{SPEC_NS}"/></ds:schemaRefs>'
                  '</ds:datastoreItem>').encode("utf-8")
    props = Part(PackURI(f"/customXml/itemProps{n}.xml"), CT.OFC_CUSTOM_XML_PROPERTIES, package, props_blob)
    item.relate_to(props, RT.CUSTOM_XML_PROPS)
    prs.part.relate_to(item, RT.CUSTOM_XML)


def read_spec_part(prs: Any, *, file: str | None = None) -> dict[str, Any] | None:
    """The payload :func:`add_spec_part` stored, or None when the file holds none.

    Any custom XML part of the package counts, whoever relates it: PowerPoint keeps it related
    from the presentation, LibreOffice moves the relationship to the package's root."""
    for part in prs.part.package.iter_parts():
        if not re.fullmatch(r"/customXml/item\d*\.xml", str(part.partname)):
            continue
        root = parse_part_xml(part.blob, str(part.partname), file=file)
        if root.tag != f"{{{SPEC_NS}}}figure":
            continue
        try:
            payload = json.loads(root.text or "")
        except json.JSONDecodeError as e:
            raise InputError(f"part '{part.partname}': the stored FigureSpec is not valid JSON "
                             f"({e.msg}, character {e.pos})", file=file) from None
        if isinstance(payload, dict) and isinstance(payload.get("figure"), dict):
            return payload
    return None


# =================================================================================
# Shape tags
# =================================================================================


class ShapeTagger:
    """Collects the CRAFTER_ID / CRAFTER_ROLE tags of each slide's shapes while they are drawn;
    :func:`add_shape_tags` writes them into the saved package (a tags part per shape, as
    PowerPoint does), in one pass rather than a relationship lookup per shape."""

    def __init__(self) -> None:
        self.slides: list[list[tuple[Any, str, str]]] = []  # per slide: (shape element, id, role)

    def new_slide(self) -> None:
        self.slides.append([])

    def tag(self, shape: Any, cid: str, role: str = "") -> None:
        self.slides[-1].append((shape.element, cid, role))

    def resolved(self) -> list[list[tuple[int, str, str]]]:
        """(shape id, component id, role) per slide, read once the shape ids are final."""
        return [[(int(el[0][0].get("id")), cid, role) for el, cid, role in slide] for slide in self.slides]


def add_shape_tags(data: bytes, slides: list[list[tuple[int, str, str]]]) -> bytes:
    """The package ``data`` with each listed shape tagged (slide ``i`` is ``ppt/slides/slide{i+1}.xml``,
    as python-pptx names them)."""
    p_ns = "http://schemas.openxmlformats.org/presentationml/2006/main"
    r_ns = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    rel_ns = "http://schemas.openxmlformats.org/package/2006/relationships"
    ct_ns = "http://schemas.openxmlformats.org/package/2006/content-types"
    zin = zipfile.ZipFile(io.BytesIO(data))
    changed: dict[str, bytes] = {}
    types = etree.fromstring(zin.read("[Content_Types].xml"))
    n = 0
    for i, shapes in enumerate(slides):
        slide_name, rels_name = f"ppt/slides/slide{i + 1}.xml", f"ppt/slides/_rels/slide{i + 1}.xml.rels"
        slide = etree.fromstring(zin.read(slide_name))
        rels = etree.fromstring(zin.read(rels_name))
        by_id = {el.get("id"): el for el in slide.iter(f"{{{p_ns}}}cNvPr")}
        for shape_id, cid, role in shapes:
            c_nv = by_id.get(str(shape_id))
            nvpr = c_nv.getparent().find(f"{{{p_ns}}}nvPr") if c_nv is not None else None
            if nvpr is None:
                continue
            n += 1
            rid = f"rIdCrafterTag{n}"
            etree.SubElement(rels, f"{{{rel_ns}}}Relationship", Id=rid, Type=RT.TAGS, Target=f"../tags/crafter{n}.xml")
            cust = etree.Element(f"{{{p_ns}}}custDataLst")
            etree.SubElement(cust, f"{{{p_ns}}}tags").set(f"{{{r_ns}}}id", rid)
            ext = nvpr.find(f"{{{p_ns}}}extLst")
            (ext.addprevious(cust) if ext is not None else nvpr.append(cust))
            tags = f'<p:tag name="{TAG_ID}" val={quoteattr(cid)}/>'
            if role:
                tags += f'<p:tag name="{TAG_ROLE}" val={quoteattr(role)}/>'
            changed[f"ppt/tags/crafter{n}.xml"] = (
                f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<p:tagLst xmlns:p="{p_ns}">{tags}'
                "</p:tagLst>").encode("utf-8")
            etree.SubElement(types, f"{{{ct_ns}}}Override", PartName=f"/ppt/tags/crafter{n}.xml",
                             ContentType=CT.PML_TAGS)
        changed[slide_name] = etree.tostring(slide, xml_declaration=True, encoding="UTF-8", standalone=True)
        changed[rels_name] = etree.tostring(rels, xml_declaration=True, encoding="UTF-8", standalone=True)
    changed["[Content_Types].xml"] = etree.tostring(types, xml_declaration=True, encoding="UTF-8", standalone=True)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            zout.writestr(info.filename, changed.pop(info.filename, None) or zin.read(info), zipfile.ZIP_DEFLATED)
        for name, blob in changed.items():
            zout.writestr(name, blob, zipfile.ZIP_DEFLATED)
    return out.getvalue()


def read_shape_tags(slide_part: Any, el: Any) -> dict[str, str]:
    """The tags of one shape element ({} for none); tags parts are parsed like any untrusted XML."""
    out: dict[str, str] = {}
    nv = el[0] if len(el) else None
    nvpr = nv.find(qn("p:nvPr")) if nv is not None else None
    if nvpr is None:
        return out
    for tags in nvpr.iterfind(f"{qn('p:custDataLst')}/{qn('p:tags')}"):
        rid = tags.get(qn("r:id"))
        rel = slide_part.rels.get(rid) if rid else None
        if rel is None or rel.is_external:
            continue
        root = parse_part_xml(rel.target_part.blob, str(rel.target_part.partname))
        for t in root.iter(qn("p:tag")):
            if t.get("name") in (TAG_ID, TAG_ROLE):
                out[t.get("name")] = t.get("val") or ""
    return out


# =================================================================================
# Opening untrusted files
# =================================================================================


def check_package(data: bytes, *, file: str | None = None) -> None:
    """Refuse what is not a PPTX or would cost unbounded memory or time to open."""
    if len(data) > MAX_PPTX_BYTES:
        raise InputError(f"the file is {len(data) // 2**20} MB; PowerPoint files are limited to "
                         f"{MAX_PPTX_BYTES // 2**20} MB", file=file)
    if not data.startswith(b"PK"):
        raise InputError("not a PowerPoint file: a .pptx is a zip archive, and this is not one", file=file)
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            infos = z.infolist()
            if len(infos) > MAX_PARTS:
                raise InputError(f"the archive holds {len(infos)} parts; the limit is {MAX_PARTS}", file=file)
            total = 0
            for info in infos:
                total += info.file_size
                if info.file_size > MAX_PART_BYTES:
                    raise InputError(f"part '{info.filename}' inflates to {info.file_size // 2**20} MB; the limit "
                                     f"is {MAX_PART_BYTES // 2**20} MB (a zip bomb?)", file=file)
                if total > MAX_UNPACKED_BYTES:
                    raise InputError(f"the parts inflate to more than {MAX_UNPACKED_BYTES // 2**20} MB "
                                     f"(at '{info.filename}'): refusing a possible zip bomb", file=file)
            names = {i.filename for i in infos}
            if "[Content_Types].xml" not in names or not any(n.startswith("ppt/") for n in names):
                raise InputError("not a PowerPoint file: the zip archive has no presentation in it", file=file)
            for info in infos:
                if info.filename.lower().endswith((".xml", ".rels", ".vml")):
                    check_part_xml(z.read(info), info.filename, file=file)
    except zipfile.BadZipFile as e:
        raise InputError(f"not a PowerPoint file: a damaged zip archive ({e})", file=file) from None


def check_part_xml(blob: bytes, partname: str, *, file: str | None = None) -> None:
    """An XML part may not declare a DOCTYPE: OOXML never does, and entities are how XML bombs work."""
    head = blob
    if blob[:2] in (b"\xff\xfe", b"\xfe\xff"):
        head = blob.decode("utf-16", "replace").encode("utf-8", "replace")
    if b"<!DOCTYPE" in head or b"<!ENTITY" in head:
        raise InputError(f"part '{partname.lstrip('/')}' declares a DOCTYPE or entities; refusing it "
                         "(PowerPoint never writes one: an XML entity-expansion attack?)", file=file)


def parse_part_xml(blob: bytes, partname: str, *, file: str | None = None) -> Any:
    """Parse a part's XML: no DTD, no entities, no network."""
    check_part_xml(blob, partname, file=file)
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False,
                             remove_blank_text=True)
    try:
        return etree.fromstring(blob, parser)
    except etree.XMLSyntaxError as e:
        raise InputError(f"part '{partname.lstrip('/')}' is not well-formed XML: {e}", file=file) from None


def open_pptx(data: bytes, *, file: str | None = None) -> Any:
    """A python-pptx Presentation of untrusted bytes, after :func:`check_package`."""
    check_package(data, file=file)
    try:
        return Presentation(io.BytesIO(data))
    except InputError:
        raise
    except Exception as e:  # noqa: BLE001 - python-pptx raises KeyError, ValueError… for broken packages
        raise InputError(f"not a readable PowerPoint presentation ({type(e).__name__}: {e})", file=file) from None
