"""The real-figure set: figures taken from public repositories, with hand-made ground truth.

The set is never part of this repository (the figures are other people's work, kept with
their licences in a folder of their own): ``crafteditor bench --real DIR`` reads
``DIR/manifest.json``, a list of figures, each::

    {"id": "dask_static", "file": "figs/dask_static.png", "repo": "dask/dask", "path": "...",
     "commit": "...", "licence": "BSD-3-Clause", "split": "dev" | "test", "kind": "diagram" | "chart",
     "style": "graphviz, serif",
     "text": "z add 10 y inc x=1",                 # every visible word, in any order
     "nodes": ["z", "add", ...],                    # labels of the boxes (optional)
     "edges": [["z", "add"], ...],                  # label pairs, source first (optional)
     "images": 2,                                   # photos / screenshots in the figure (optional)
     "values": [["series", "x", 1.5], ...]}         # a few chart values where legible (optional)

Scores: words kept as ``<text>`` in the SVG drawn back (multiset recall of the true words,
compared on their letters and digits only, so ``I₁·T₁`` and ``I1·T1`` are one word and
``…`` none); nodes and edges as F1 over label multisets; photos kept as ``image`` components.
"""

from __future__ import annotations

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


class RealSetError(CrafterError):
    """A real-figure folder without a readable manifest, or a manifest entry without its file."""


@dataclass
class RealFigure:
    id: str
    path: Path
    split: str
    kind: str
    truth: dict[str, Any]


def load_real(folder: Path, split: str = "all") -> list[RealFigure]:
    """The figures of ``folder/manifest.json`` in ``split`` (dev, test or all)."""
    if split not in SPLITS:
        raise RealSetError(f"split must be one of {', '.join(SPLITS)}, not {split!r}")
    manifest = Path(folder) / "manifest.json"
    if not manifest.is_file():
        raise RealSetError(f"{manifest}: no manifest.json in the real-figure folder")
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
            raise RealSetError(f"{manifest}: figure '{rec['id']}': file {path} is missing")
        if split != "all" and rec.get("split", "dev") != split:
            continue
        out.append(RealFigure(rec["id"], path, rec.get("split", "dev"), rec.get("kind", "diagram"), rec))
    return out


def norm_word(w: str) -> str:
    """A word compared on its letters and digits (NFKC: subscript ₁ is 1, ℓ is l), lower case."""
    w = unicodedata.normalize("NFKC", w).lower()
    return "".join(ch for ch in w if ch.isalnum())


def words_of(text: str) -> Counter:
    return Counter(w for w in (norm_word(t) for t in text.split()) if w)


_TEXT_RE = re.compile(r"<text\b[^>]*>(.*?)</text>", re.S)
_TAG_RE = re.compile(r"<[^>]+>")
_PLACED_RE = re.compile(r'\s[xy]="')


def _tag_gap(m: re.Match[str]) -> str:
    tag = m.group(0)
    if tag.startswith("</tspan") or (tag.startswith("<tspan") and not _PLACED_RE.search(tag)):
        return ""
    return " "


def svg_words(svg: str) -> Counter:
    """The words an SVG draws as text (tspans joined: a sub- or superscript stays in its word)."""
    words: Counter = Counter()
    for body in _TEXT_RE.findall(svg):
        # a shifted tspan (sub- or superscript) and the bare tspan that goes on after it belong to
        # their word; a tspan placed with x or y starts a line
        words += words_of(html.unescape(_TAG_RE.sub(_tag_gap, body)))
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
