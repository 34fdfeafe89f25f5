"""The real-figure set: figures taken from public repositories, with hand-made ground truth.

The set is never part of this repository (the figures are other people's work, kept with
their licences in a folder of their own): ``crafteditor bench --real DIR`` reads
``DIR/manifest.json``, a list of figures, each::

    {"id": "dask_static", "file": "figs/dask_static.png", "repo": "dask/dask", "path": "...",
     "commit": "...", "licence": "BSD-3-Clause", "split": "dev" | "test", "kind": "diagram" | "chart",
     "style": "graphviz, serif", "maker": "matplotlib",   # the report groups by maker, else style
     "text": "z add 10 y inc x=1",                 # every visible word, in any order
     "nodes": ["z", "add", ...],                    # labels of the boxes (optional)
     "edges": [["z", "add"], ...],                  # label pairs, source first (optional)
     "images": 2,                                   # photos / screenshots in the figure (optional)
     "values": [["series", "x", 1.5], ...]}         # a few chart values where legible (optional)

An entry without ``split`` goes to ``test`` by a hash of its id (:func:`frozen_split`: about one
in three, the same on every run). The manifest is ``DIR/manifest.json``, or one given with
``--manifest``, or the one committed at ``./realset/manifest.json``; ``file`` is relative to DIR.

Scores: words kept as ``<text>`` in the SVG drawn back (multiset recall of the true words,
compared on their letters and digits only, so ``I₁·T₁`` and ``I1·T1`` are one word and
``…`` none); nodes and edges as F1 over label multisets; photos kept as ``image`` components.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from crafter.errors import CrafterError
from crafter.spec.model import Edge, Figure, Node

SPLITS = ("dev", "test", "all")
COMMITTED_MANIFEST = Path("realset") / "manifest.json"  # the truth, in git at the repository root


class RealSetError(CrafterError):
    """A real-figure folder without a readable manifest, or a manifest entry without its file."""


@dataclass
class RealFigure:
    id: str
    path: Path
    split: str
    kind: str
    truth: dict[str, Any]


def find_manifest(folder: Path, manifest: Path | None = None) -> Path:
    """The manifest to read: ``manifest`` if given, else ``folder/manifest.json``, else the one
    committed at ``./realset/manifest.json`` (the truth is in git; the figures stay outside)."""
    if manifest is not None:
        if not Path(manifest).is_file():
            raise RealSetError(f"{manifest}: no such manifest file")
        return Path(manifest)
    for candidate in (Path(folder) / "manifest.json", COMMITTED_MANIFEST):
        if candidate.is_file():
            return candidate
    raise RealSetError(f"{Path(folder) / 'manifest.json'}: no manifest.json in the real-figure folder "
                       f"(nor {COMMITTED_MANIFEST}; give one with --manifest)")


def frozen_split(figure_id: str) -> str:
    """The split of a figure whose entry names none: ``test`` for about one in three, chosen by a
    hash of its id, so it never changes as figures are added or the set is reordered."""
    return "test" if hashlib.sha256(figure_id.encode("utf-8")).digest()[0] % 3 == 0 else "dev"


def figure_group(truth: dict[str, Any]) -> str:
    """What a figure is reported under: its ``maker`` (matplotlib, Graphviz…) where the manifest
    names one, else the first word group of its ``style`` ('graphviz, serif' → 'graphviz')."""
    maker = str(truth.get("maker") or "").strip()
    maker = "" if maker.lower() == "unknown" else maker
    style = str(truth.get("style") or "").split(",")[0].strip()
    return (maker or style or "unknown").lower()


def load_real(folder: Path, split: str = "all", manifest: Path | None = None) -> list[RealFigure]:
    """The figures of the manifest (:func:`find_manifest`) in ``split`` (dev, test or all); each
    entry's ``file`` is relative to ``folder``."""
    if split not in SPLITS:
        raise RealSetError(f"split must be one of {', '.join(SPLITS)}, not {split!r}")
    manifest = find_manifest(folder, manifest)
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise RealSetError(f"{manifest}: not readable JSON ({e})") from None
    out = []
    for i, rec in enumerate(data.get("figures", [])):
        for key in ("id", "file", "text"):
            if key not in rec:
                raise RealSetError(f"{manifest}: figure {i} has no '{key}'")
        path = Path(folder) / rec["file"]
        if not path.is_file():
            where = f" (from {rec['repo']}, {rec.get('path')} at {rec.get('commit', '?')[:12]})" if rec.get("repo") else ""
            raise RealSetError(f"{manifest}: figure '{rec['id']}': file {path} is missing{where}")
        if rec.get("sha256") and hashlib.sha256(path.read_bytes()).hexdigest() != rec["sha256"]:
            raise RealSetError(f"{manifest}: figure '{rec['id']}': {path} is not the file the truth was made for "
                               f"(sha256 differs from the manifest's)")
        rec = {**rec, "split": rec.get("split") or frozen_split(rec["id"])}
        if split != "all" and rec["split"] != split:
            continue
        out.append(RealFigure(rec["id"], path, rec["split"], rec.get("kind", "diagram"), rec))
    return out


def norm_word(w: str) -> str:
    """A word compared on its letters and digits (NFKC: subscript ₁ is 1, ℓ is l), lower case."""
    w = unicodedata.normalize("NFKC", w).lower()
    return "".join(ch for ch in w if ch.isalnum())


def words_of(text: str) -> Counter:
    return Counter(w for w in (norm_word(t) for t in text.split()) if w)


_TEXT_RE = re.compile(r"<text\b[^>]*>(.*?)</text>", re.S)
_TAG_RE = re.compile(r"<[^>]+>")
_SHIFT_RE = re.compile(r"<tspan\b[^>]*baseline-shift[^>]*>(.*?)</tspan>", re.S)


def svg_words(svg: str) -> Counter:
    """The words an SVG draws as text (tspans joined: a sub- or superscript stays in its word)."""
    words: Counter = Counter()
    for body in _TEXT_RE.findall(svg):
        # a shifted tspan (sub- or superscript) belongs to its word; other tspans are lines
        body = _SHIFT_RE.sub(lambda m: m.group(1), body)
        words += words_of(html.unescape(_TAG_RE.sub(" ", body)))
    return words


def _f1(truth: Counter, pred: Counter) -> float:
    hit = sum(min(n, pred[k]) for k, n in truth.items())
    t, p = sum(truth.values()), sum(pred.values())
    if t == 0:
        return float("nan")
    if hit == 0:
        return 0.0
    prec, rec = hit / p, hit / t
    return 2 * prec * rec / (prec + rec)


def _label(s: str | None) -> str:
    return " ".join(norm_word(w) for w in (s or "").split() if norm_word(w))


def score_real(fig: Figure, svg: str, truth: dict[str, Any]) -> dict[str, float]:
    """Words kept as text, node and edge F1 against labels, photos kept as images."""
    t_words = words_of(truth["text"])
    p_words = svg_words(svg)
    hit = sum(min(n, p_words[w]) for w, n in t_words.items())
    scores = {"words": hit / sum(t_words.values()) if t_words else 1.0}
    labels = {c.id: _label(c.label) for c in fig.components if isinstance(c, Node)}
    texts = {c.id: _label(getattr(c, "text", None)) for c in fig.components if c.kind == "text"}
    if truth.get("nodes"):
        scores["nodes"] = _f1(Counter(_label(n) for n in truth["nodes"]), Counter(v for v in labels.values() if v))
    if truth.get("edges"):
        ends = {**texts, **labels}
        pred = Counter((ends.get(e.source, ""), ends.get(e.target, "")) for e in fig.components if isinstance(e, Edge))
        scores["edges"] = _f1(Counter((_label(a), _label(b)) for a, b in truth["edges"]), pred)
    if truth.get("images"):
        n_img = sum(c.kind == "image" for c in fig.components)
        scores["images"] = min(1.0, n_img / truth["images"])
    return scores
