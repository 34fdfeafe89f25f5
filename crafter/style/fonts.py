"""A font name → its family class (sans, serif, mono) and the closest face installed here (fontconfig).

Figures name fonts as CSS lists (``"DejaVu Sans, Arial, sans-serif"``), PDF font names
(``ABCDEF+TimesNewRomanPSMT``) or plain faces. The class comes from the name's words, or from
fontconfig's own match when the name says nothing; the installed face is what ``fc-match``
picks, the face cairosvg will draw with.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from functools import lru_cache

_MONO = re.compile(r"mono|courier|consol|menlo|typewriter|code|fixed|\btt\b|inconsolata", re.I)
_SERIF = re.compile(r"(?<!sans)(?<!sans-)(?<!sans )serif|times|roman|georgia|garamond|palatino|cambria|"
                    r"minion|charter|book|libertin|nimbus ?rom|cmr|lmroman|tex gyre (termes|pagella)", re.I)
_SANS = re.compile(r"sans|arial|helvet|verdana|calibri|segoe|roboto|lato|open ?sans|fira|inter\b|nimbus ?sans|"
                   r"source sans|noto sans|cmss", re.I)
GENERIC = {"sans": "sans-serif", "serif": "serif", "mono": "monospace"}


def font_class(name: str) -> str | None:
    """'sans', 'serif' or 'mono' from a font name's words; None when they do not say."""
    first = name.split(",")[0].split("+")[-1].strip().strip("'\"")
    for part in (first, name):
        if _MONO.search(part):
            return "mono"
        if _SANS.search(part):
            return "sans"
        if _SERIF.search(part):
            return "serif"
    return None


@lru_cache(maxsize=64)
def installed_face(name: str) -> str | None:
    """The installed family fontconfig draws ``name`` with (``fc-match``); None without fontconfig."""
    exe = shutil.which("fc-match")
    if exe is None:
        return None
    first = name.split(",")[0].split("+")[-1].strip().strip("'\"")
    # PDF names glue the style on: TimesNewRomanPS-BoldMT -> TimesNewRomanPS
    first = re.sub(r"[-,](Bold|Italic|Oblique|Regular|Medium|Light|Semibold|Black)\w*$", "", first)
    try:
        out = subprocess.run([exe, "-f", "%{family[0]}", first], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    face = out.stdout.strip()
    return face or None


def closest_face(name: str, cls: str) -> str | None:
    """The installed face for ``name``; if fontconfig falls back to a face of another class, the
    installed face of the class itself (a serif lab gets a serif face, not DejaVu Sans)."""
    face = installed_face(name)
    if face is not None and font_class(face) in (cls, None):
        return face
    return installed_face(GENERIC[cls])
