"""Sub- and superscripts in labels and texts: a brace markup, ``T_{1}``, ``10^{-3}``, ``W_{q}``.

Only the braced form is markup (``a_b``, ``x^2`` and ``snake_case`` stay as they are): a
``_{`` or ``^{`` opens a shifted span that the next ``}`` closes, and spans do not nest. Every
writer draws it its own way (SVG a ``baseline-shift`` tspan, TikZ ``$_{…}$``, PowerPoint a run
with a baseline offset, draw.io ``<sub>``/``<sup>``); JSON and the DSL keep the text as written.
"""

from __future__ import annotations

import re

SCRIPT_SCALE = 0.7  # a sub- or superscript's size, of its line's font size
_SPAN = re.compile(r"([_^])\{([^{}\n]*)\}")


def segments(text: str) -> list[tuple[str, str]]:
    """``text`` cut into (piece, shift) in order, shift '' (on the baseline), 'sub' or 'super';
    empty pieces left out. ``segments('T_{1} in')`` → ``[('T', ''), ('1', 'sub'), (' in', '')]``."""
    out: list[tuple[str, str]] = []
    pos = 0
    for m in _SPAN.finditer(text):
        if m.start() > pos:
            out.append((text[pos:m.start()], ""))
        if m.group(2):
            out.append((m.group(2), "sub" if m.group(1) == "_" else "super"))
        pos = m.end()
    if pos < len(text):
        out.append((text[pos:], ""))
    return out


def has_markup(text: str | None) -> bool:
    return bool(text) and _SPAN.search(text) is not None  # type: ignore[arg-type]


def plain(text: str) -> str:
    """The text as read aloud, markup dropped: ``T_{1}`` → ``T1``."""
    return _SPAN.sub(lambda m: m.group(2), text) if "{" in text else text


def mark(piece: str, shift: str) -> str:
    """One piece written in the markup (``mark('1', 'sub')`` → ``_{1}``)."""
    if not shift or not piece:
        return piece
    return ("_{" if shift == "sub" else "^{") + piece + "}"
