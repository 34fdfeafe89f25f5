"""The system a brief describes is what its figure is about, not a box in it: a README opens on its tool's name
("`cohortkit` builds study cohorts …", "metaflow is a Nextflow pipeline …"), a paper's method paragraph says
"We present FedLite, in which the server …". The boxes are the system's parts; its name titles the figure.
"""

from __future__ import annotations

import re

from crafter.agents.prose import verb_lemma
from crafter.agents.reading import BriefReading, box_key

# a name as code writes it, lower case or in backticks, opening the brief as the subject of its first verb
_OPENING = re.compile(r"\s*(?:`(?P<code>[^`\s]{2,40})`|(?P<low>[a-z][a-z0-9]*(?:[-_.][a-z0-9]+)*))\s+(?P<verb>[a-z]+)\b")
_PRESENTED = re.compile(r"\b[Ww]e\s+(?P<verb>present|propose|introduce|describe|build|design)\s+"
                        r"(?P<name>[A-Z][\w-]*[A-Z][\w-]*)(?=\s*[,:(]|\s+(?:which|that|a|an)\b)")


def system_name(text: str) -> tuple[str, str | None] | None:
    """(the system's name, the verb it is presented by: "present", or None for a README's opening)."""
    m = _OPENING.match(text)
    if m and (m.group("verb") == "is" or m.group("verb").endswith("s") and verb_lemma(m.group("verb"))):
        return m.group("code") or m.group("low"), None
    p = _PRESENTED.search(text)
    return (p.group("name"), p.group("verb")) if p else None


def drop_system_name(reading: BriefReading, text: str) -> None:
    """The system's own name is no box (nor are its links): it titles the figure when nothing else does."""
    found = system_name(text)
    if not found:
        return
    name, verb = found
    keys = {box_key(name)} | ({box_key(f"{verb} {name}")} if verb else set())
    gone = {e for e in reading.entities if box_key(e) in keys}
    if not gone:
        return
    reading.title = reading.title or name
    reading.entities = [e for e in reading.entities if e not in gone]
    reading.strong = [e for e in reading.strong if e not in gone]
    reading.relations = [(a, b) for a, b in reading.relations if a not in gone and b not in gone]
    reading.groups = [(g, [m for m in ms if m not in gone]) for g, ms in reading.groups]
