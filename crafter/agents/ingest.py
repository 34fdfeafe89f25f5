"""Ingest: check and normalise a request's inputs before any planning.

* the brief — stripped; an empty brief is an error unless a table or an image carries
  the request; a brief longer than the model's context is cut at a sentence boundary
  (with a warning naming how much was kept); a brief that does not look like English
  gets a warning (the built-in model was trained on English briefs);
* the table — read with :func:`crafter.data.read_table` into plain JSON (columns with
  their types and values), so the run state holds the data itself and a resumed run
  does not depend on the file still being there;
* the image — must exist and be a raster image Pillow can identify.

Errors are :class:`~crafter.errors.InputError` naming the file and what is wrong.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from PIL import Image, UnidentifiedImageError

from crafter.data import read_table
from crafter.errors import InputError

MAX_BRIEF_WORDS = 400  # what fits the built-in model's prompt with room for the answer
_EN_WORDS = frozenset("""the a an and of to in for with from is are that this by on as into then each which
be it its at or we our uses use using show shows draw figure diagram between after before""".split())


def ingest(brief: str | None, *, data_path: str | None = None, image_path: str | None = None,
           max_brief_words: int = MAX_BRIEF_WORDS) -> dict[str, Any]:
    """The normalised request: ``{"brief", "brief_words", "table", "image", "warnings"}``."""
    warnings: list[str] = []
    text = (brief or "").replace("\r\n", "\n").strip()
    text = "".join(ch for ch in text if ch in "\n\t" or ch.isprintable())
    if not text and not data_path and not image_path:
        raise InputError("the brief is empty: describe the figure (e.g. \"an encoder feeds a decoder\"), "
                         "or give a table (--data) or an image (--image)")
    words = text.split()
    if len(words) > max_brief_words:
        text = truncate_brief(text, max_brief_words)
        kept = len(text.split())
        warnings.append(f"the brief has {len(words):,} words; the model reads at most {max_brief_words}, "
                        f"so only the first {kept} (up to a sentence end) were used")
    if text and not looks_english(text):
        warnings.append("the brief does not look like English; the built-in model was trained on English "
                        "briefs, so names may come out wrong (the figure keeps your labels where it finds them)")
    table = read_table_json(data_path) if data_path else None
    image = check_image(image_path) if image_path else None
    return {"brief": text, "brief_words": len(words), "table": table, "image": image, "warnings": warnings}


def truncate_brief(text: str, max_words: int) -> str:
    """The first ``max_words`` words, cut back to the last sentence end if one is near."""
    words = re.finditer(r"\S+", text)
    end = len(text)
    for i, m in enumerate(words):
        if i == max_words:
            end = m.start()
            break
    head = text[:end].rstrip()
    cut = max(head.rfind(". "), head.rfind(".\n"), head.rfind("\n\n"))
    if cut > len(head) * 0.6:
        head = head[:cut + 1]
    return head.strip()


def looks_english(text: str) -> bool:
    """Most letters Latin and some common English words present (short briefs get the benefit of the doubt)."""
    letters = [ch for ch in text if ch.isalpha()]
    if not letters:
        return True
    latin = sum(1 for ch in letters if ch.isascii()) / len(letters)
    if latin < 0.7:
        return False
    words = re.findall(r"[a-z]+", text.lower())
    if len(words) < 8:
        return True
    return sum(1 for w in words if w in _EN_WORDS) / len(words) >= 0.06


def read_table_json(path: str) -> dict[str, Any]:
    """A table file as JSON data: ``{"name", "columns": [{"name", "type", "values", "order"}]}``."""
    p = Path(path)
    if not p.is_file():
        raise InputError("no such table file", file=str(p))
    table = read_table(p)
    if not table.columns or table.n_rows == 0:
        raise InputError("the table has no rows", file=str(p))
    return {
        "name": p.name,
        "columns": [{"name": c.name, "type": c.type, "values": list(c.values), "order": c.order}
                    for c in table.columns],
    }


def check_image(path: str) -> str:
    """The image path, after checking it is a raster image (not just a file with a .png name)."""
    p = Path(path)
    if not p.is_file():
        raise InputError("no such image file", file=str(p))
    try:
        with Image.open(p) as im:
            fmt = im.format
            im.verify()
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as e:
        raise InputError(f"not a readable image (PNG, JPEG or WebP expected): {e.__class__.__name__}",
                         file=str(p)) from None
    if fmt not in ("PNG", "JPEG", "WEBP", "GIF", "BMP", "TIFF"):
        raise InputError(f"unsupported image format {fmt}; use PNG, JPEG or WebP", file=str(p))
    return str(p.resolve())
