"""Rebuild the real-figure folder from the repositories the manifest names.

The figures of the real set are the authors' work and stay out of git (``realset/README.md``);
the manifest records, per figure, the repository, the path and the commit it came from and the
sha256 of the PNG the truth was made for. Given local git directories of those repositories
(clones or snapshots), :func:`rebuild` writes every figure back: a PNG or JPEG as committed, an
SVG rasterised with cairosvg at the manifest's width on white, a PDF with poppler's ``pdftoppm``
at 150 dpi, and an SVG whose labels are HTML (Mermaid's foreignObject, which cairosvg drops) in the
headless Chromium at the manifest's width with the entry's ``rasteriser_css`` (how the set's notes say
they were made), each checked against its sha256. A figure that cannot be rebuilt is reported by id
with the reason, and the others go on.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from crafteditor.browser import browser_missing, chromium, local_only
from crafteditor.realset import RealSetError, find_manifest


@dataclass
class Rebuilt:
    id: str
    status: str  # "written", "present" (already there, sha256 matches) or "failed"
    reason: str = ""


def git_dir_in(mirrors: Path) -> Callable[[str], Path | None]:
    """Where a repository's git directory is under ``mirrors``: ``owner+name/repo``, ``owner+name``
    (snapshots, bare or with ``.git``) or ``owner/name`` (ordinary clones)."""
    def find(repo: str) -> Path | None:
        owner, _, name = repo.partition("/")
        for d in (mirrors / f"{owner}+{name}" / "repo", mirrors / f"{owner}+{name}", mirrors / owner / name):
            for g in (d / ".git", d):
                if (g / "HEAD").is_file() and (g / "objects").is_dir():
                    return g
        return None
    return find


def _git_show(git_dir: Path, commit: str, path: str) -> bytes:
    r = subprocess.run(["git", "--git-dir", str(git_dir), "show", f"{commit}:{path}"], capture_output=True)
    if r.returncode:
        raise RealSetError(f"{path} at {commit[:12]}: {r.stderr.decode('utf-8', 'replace').strip()[:200]}")
    return r.stdout


def rasterise(data: bytes, path: str, width: int) -> bytes:
    """The PNG the set keeps for an original at ``path``: raster files as they are, SVG through
    cairosvg at ``width`` px on white, PDF (first page) through ``pdftoppm -r 150``."""
    suffix = Path(path).suffix.lower()
    if suffix == ".svg":
        import cairosvg  # heavy: cairo, only to rebuild from SVG originals

        return cairosvg.svg2png(bytestring=data, output_width=width, background_color="white")
    if suffix == ".pdf":
        if shutil.which("pdftoppm") is None:
            raise RealSetError("a PDF original needs poppler's pdftoppm (Debian: poppler-utils; `make tex`)")
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "in.pdf").write_bytes(data)
            subprocess.run(["pdftoppm", "-r", "150", "-png", "-singlefile", "in.pdf", "out"], cwd=tmp, check=True,
                           capture_output=True)
            return (Path(tmp) / "out.png").read_bytes()
    return data


def _svg_size(svg: str, width: int) -> tuple[str, int]:
    """The SVG sized to ``width`` px and the height its viewBox gives (its own width/max-width dropped)."""
    m = re.search(r'viewBox="([^"]+)"', svg)
    if not m:
        raise RealSetError("a browser-drawn original needs a viewBox")
    _, _, vw, vh = (float(v) for v in m.group(1).replace(",", " ").split())
    height = round(vh * width / vw)
    head, rest = svg.split(">", 1)
    head = re.sub(r'\s(width|height)="[^"]*"', "", head)
    head = head.replace("max-width:", "--crafter-max-width:")  # the author's cap on the drawn width
    return f'{head} width="{width}" height="{height}">{rest}', height


def browser_rasterise(svgs: list[tuple[bytes, int, str]]) -> list[bytes]:
    """PNGs of SVG originals drawn in one headless Chromium: each ``(svg, width, css)`` on a white
    page of that width, ``css`` added to the page (e.g. foreignObject overflow), local only."""
    why = browser_missing()
    if why:
        raise RealSetError(f"a Chromium-drawn figure cannot be rebuilt: {why}")
    from playwright.sync_api import Error as BrowserError  # heavy: the browser driver, only to rebuild these figures
    out = []
    with chromium() as browser:
        for data, width, css in svgs:
            if "<" in css:
                raise RealSetError("rasteriser_css holds markup ('<'): refused")
            svg, height = _svg_size(data.decode("utf-8"), width)
            try:
                page = browser.new_page(viewport={"width": width, "height": height})
                page.route("**/*", local_only)
                page.set_content(f"<html><head><style>html,body{{margin:0;padding:0;background:white}} {css}"
                                 f"</style></head><body>{svg}</body></html>")
                page.wait_for_timeout(300)  # web fonts and layout settle
                out.append(page.locator("svg").first.screenshot())
                page.close()
            except BrowserError as e:
                raise RealSetError(f"Chromium could not draw it: {str(e).splitlines()[0][:200]}") from None
    return out


def _one(rec: dict[str, Any], folder: Path, find: Callable[[str], Path | None]) -> Rebuilt:
    missing = [k for k in ("id", "file", "repo", "path", "commit") if not rec.get(k)]
    if missing:
        return Rebuilt(str(rec.get("id", "?")), "failed", f"the entry has no {', '.join(missing)}")
    dst = folder / rec["file"]
    if not dst.resolve().is_relative_to(Path(folder).resolve()):
        return Rebuilt(rec["id"], "failed", f"file {rec['file']!r} lies outside {folder}")
    want = rec.get("sha256")
    if dst.is_file() and want and hashlib.sha256(dst.read_bytes()).hexdigest() == want:
        return Rebuilt(rec["id"], "present")
    drawer = rec.get("rasteriser")
    if drawer not in (None, "cairosvg", "pdftoppm", "chromium"):
        return Rebuilt(rec["id"], "failed", f"rasterised with {drawer} (see its notes): not rebuilt here")
    git_dir = find(rec["repo"]) if rec.get("repo") else None
    if git_dir is None:
        return Rebuilt(rec["id"], "failed", f"no git directory for {rec.get('repo')!r}")
    try:
        original, width = _git_show(git_dir, rec["commit"], rec["path"]), int(rec.get("width") or 1400)
        if drawer == "chromium":
            # Mermaid SVGs with their labels in HTML (foreignObject), which cairosvg drops
            data = browser_rasterise([(original, width, rec.get("rasteriser_css", ""))])[0]
        else:
            data = rasterise(original, rec["path"], width)
    except (RealSetError, subprocess.CalledProcessError, OSError, ValueError, SyntaxError) as e:
        # git missing, a damaged original (cairosvg's XML ParseError is a SyntaxError): this figure only
        return Rebuilt(rec["id"], "failed", f"{type(e).__name__}: {e}")
    if want and hashlib.sha256(data).hexdigest() != want:
        return Rebuilt(rec["id"], "failed", "sha256 differs from the manifest's (another rasteriser version?)")
    dst.parent.mkdir(parents=True, exist_ok=True)
    dst.write_bytes(data)
    return Rebuilt(rec["id"], "written")


def rebuild(folder: Path, mirrors: Path, manifest: Path | None = None) -> list[Rebuilt]:
    """Write every figure of the manifest (:func:`~crafteditor.realset.find_manifest`) into
    ``folder`` from the git directories under ``mirrors`` (:func:`git_dir_in`)."""
    manifest = find_manifest(folder, manifest)
    try:
        figures = json.loads(manifest.read_text(encoding="utf-8")).get("figures", [])
    except (OSError, ValueError) as e:
        raise RealSetError(f"{manifest}: not readable JSON ({e})") from None
    find = git_dir_in(Path(mirrors))
    return [_one(rec, Path(folder), find) for rec in figures]
