"""Numbers read as names: a quantity is no box ("in 0.4 s", "at 100 fps", "from 7 MHz to 1 Hz", "an 11x speed-up",
"~15 min per vertebrate genome"), a reference mark is no part of a name ("ChemDataExtractor [5]", "OQMD [22]": the
tool), and a thousands group cut off a number is no part of it ("3,000 computed values": "Computed values"). A
number that counts things ("12 months", "40 normal BAMs") or names a version ("HoloLens 2", "REGENIE step 1") stays.
"""

from __future__ import annotations

import re

from crafter.agents.reading import BriefReading, rename_names

_UNIT = (r"(?:[kMGT]?Hz|[kMGT]?B|[kMG]?bps|[mµn]?s|min|h|fps|FPS|x|×|%|k|M|°C|K|[mµ]?V|[nµmck]?m|[mµk]?g|[mµ]?L|"
         r"[mµn]?M)")
# the units as written (case-sensitive: "5G", "2FA" are names, no 5 grams); the words after them in any case
_QUANTITY = re.compile(r"[~≈<>≤≥]?\s*\d[\d.,]*\s*" + _UNIT + r"?(?:\s+(?i:speed-?ups?|faster|slower|per\s+.+))?")
_MARKED = re.compile(r"(?P<name>.*[^\W\d_].*?)\s*\[?(?P<ref>\d{1,3})\]?")
_THOUSANDS = re.compile(r"(?P<group>\d{3})\s+(?P<rest>[^\W\d_].*)")


def is_quantity(name: str) -> bool:
    """A number with a unit and nothing else but a rate's "per …" or a speed-up: "0.4 s", "100 fps", "4k",
    "11x speed-up", "~15 min per vertebrate genome"; not "12 months", "2 s timeout", "HoloLens 2"."""
    return _QUANTITY.fullmatch(name.strip()) is not None


def tidy_numbers(reading: BriefReading, text: str) -> None:
    """Drops the quantities among ``reading``'s names and cuts reference marks and cut-off thousands groups from
    the others (see the module docstring); a name renamed to one already read is that box."""
    rename: dict[str, str | None] = {}
    for e in reading.entities:
        if is_quantity(e):
            rename[e] = None
        elif (m := _MARKED.fullmatch(e)) and re.search(re.escape(m.group("name")) + r"\s*\[" + m.group("ref") + r"\b",
                                                        text, re.I):
            rename[e] = m.group("name")
        elif (m := _THOUSANDS.fullmatch(e)) and re.search(r"\d," + m.group("group") + r"\s+" + re.escape(m.group("rest")),
                                                           text, re.I):
            rest = m.group("rest")
            rename[e] = rest if re.match(r"\S*[A-Z]", rest[1:2] or "") else rest[:1].upper() + rest[1:]
    if rename:
        rename_names(reading, rename)
