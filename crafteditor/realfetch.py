"""Rebuild the real-figure folder from the repositories the manifest names.

The figures of the real set are the authors' work and stay out of git (``realset/README.md``);
the manifest records, per figure, the repository, the path and the commit it came from and the
sha256 of the PNG the truth was made for. Given local git directories of those repositories
(clones or snapshots), :func:`rebuild` writes every figure back: a PNG or JPEG as committed, an
SVG rasterised with cairosvg at the manifest's width on white, a PDF with poppler's ``pdftoppm``
at 150 dpi (how the set's notes say they were made), each checked against its sha256. A figure
that cannot be rebuilt is reported by id with the reason, and the others go on.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

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
    if rec.get("rasteriser") not in (None, "cairosvg", "pdftoppm"):
        # Mermaid SVGs with their labels in HTML (foreignObject), which cairosvg drops: drawn in a browser
        return Rebuilt(rec["id"], "failed", f"rasterised with {rec['rasteriser']} (see its notes): not rebuilt here")
    git_dir = find(rec["repo"]) if rec.get("repo") else None
    if git_dir is None:
        return Rebuilt(rec["id"], "failed", f"no git directory for {rec.get('repo')!r}")
    try:
        data = rasterise(_git_show(git_dir, rec["commit"], rec["path"]), rec["path"], int(rec.get("width") or 1400))
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
