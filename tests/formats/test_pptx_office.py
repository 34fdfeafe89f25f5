"""Every example's PPTX as a user would see it: opened by LibreOffice Impress (Debian's
``libreoffice-impress``; ``make office`` installs it) and converted to PDF and PNG. Every label
must be text in the PDF, and the picture must look like Crafter's own PNG. Saved again by
LibreOffice as PPTX, the file must still be a Crafter source giving back the same figure.

LibreOffice 7.4 (Debian 12) routes glued connectors itself, between the glued sites, ignoring
the elbows PowerPoint shows, so edges with long routes differ from ours; boxes, text, frames
and charts are where Crafter puts them. SSIM against Crafter's PNG, measured on the nine
examples: 0.74–0.86 (LibreOffice's antialiasing and its connector routes account for most of
the difference); the floor leaves room for font rasterising on other machines.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from pptx_helpers import EXAMPLES, all_shapes, presentation

from crafter.formats import figure_to_png_bytes
from crafter.formats.pptx.read import ImportReport, import_pptx
from crafter.formats.pptx.write import figure_to_pptx

SSIM_FLOOR = 0.70  # measured: 0.74 (distributed_training) to 0.86 (dataset_construction)


@pytest.fixture(scope="module")
def converted(tmp_path_factory, examples_laid_out) -> Path:
    """Each example's PPTX, PDF (LibreOffice), PNG (LibreOffice) and PNG (Crafter) in one folder."""
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if soffice is None:
        pytest.skip("LibreOffice is not installed (`make office` installs Debian's libreoffice-impress)")
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext is not installed (poppler-utils; `make tex` installs it)")
    folder = tmp_path_factory.mktemp("office")
    for name, fig in examples_laid_out.items():
        (folder / f"{name}.pptx").write_bytes(figure_to_pptx(fig))
        (folder / f"{name}.crafter.png").write_bytes(figure_to_png_bytes(fig, dpi=96))
    profile = folder / "profile"  # a profile of its own: no clash with a LibreOffice already running
    files = sorted(str(p) for p in folder.glob("*.pptx"))
    env = {**os.environ, "HOME": str(folder)}
    for fmt, target in (("pdf", "pdf"), ("png", "png"), ("pptx", "pptx:Impress MS PowerPoint 2007 XML")):
        subprocess.run([soffice, f"-env:UserInstallation=file://{profile}", "--headless", "--norestore",
                        "--convert-to", target, "--outdir", str(folder / fmt), *files],
                       check=True, capture_output=True, timeout=600, env=env)
    return folder


def shown_lines(data: bytes) -> list[str]:
    """Every line of text the PPTX shows (labels as broken into lines), charts aside."""
    prs = presentation(data)
    out = []
    for s in all_shapes(prs.slides[0].shapes):
        if s.has_text_frame:
            for p in s.text_frame.paragraphs:
                out += [line for line in p.text.split("\v") if line.strip()]
    return out


@pytest.mark.parametrize("name", [p.stem for p in EXAMPLES])
def test_every_label_is_text_in_libreoffice_pdf(converted, name) -> None:
    pdf = converted / "pdf" / f"{name}.pdf"
    assert pdf.exists(), f"LibreOffice did not convert {name}.pptx"
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], check=True, capture_output=True,
                          text=True).stdout
    flat = " ".join(text.split())
    lines = shown_lines((converted / f"{name}.pptx").read_bytes())
    assert lines
    missing = [line for line in lines if " ".join(line.split()) not in flat]
    assert not missing, f"not text in the PDF: {missing}"


def ssim(a_path: Path, b_path: Path) -> float:
    from PIL import Image
    from skimage.metrics import structural_similarity

    a = Image.open(a_path).convert("L")
    b = Image.open(b_path).convert("L")
    if b.size != a.size:
        b = b.resize(a.size, Image.LANCZOS)
    return float(structural_similarity(np.asarray(a), np.asarray(b), data_range=255))


@pytest.mark.parametrize("name", [p.stem for p in EXAMPLES])
def test_libreoffice_picture_looks_like_crafters(converted, name) -> None:
    png = converted / "png" / f"{name}.png"
    assert png.exists(), f"LibreOffice did not convert {name}.pptx"
    score = ssim(converted / f"{name}.crafter.png", png)
    print(f"SSIM {name}: {score:.3f}")
    assert score >= SSIM_FLOOR, f"{name}: SSIM {score:.3f} against Crafter's PNG"


@pytest.mark.parametrize("name", [p.stem for p in EXAMPLES])
def test_saved_by_libreoffice_it_is_still_the_figure(converted, examples_laid_out, name) -> None:
    report = ImportReport()
    back = import_pptx(converted / "pptx" / f"{name}.pptx", report=report)
    assert report.crafter, "the FigureSpec survives LibreOffice's save"
    assert back == examples_laid_out[name], report.lines()
