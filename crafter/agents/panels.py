"""Panels of a brief: "(a) …, (b) …" split into the text before them and each panel's letter, title and text;
a panel's own boxes where its text reads to none."""
from __future__ import annotations

import re

from crafter.agents.headed import piped_names
from crafter.agents.prose import first_noun_phrase

PANEL_RE = re.compile(r"(?:^|(?<=[\s(:.;,\-–—•*]))\(([a-h])\)(?=[\s:,.])"
                       r"|(?:^|(?<=[.|]\s))([a-h]),\s(?=[A-Z][^:.;\n]{0,40}:)")  # "(a) …"; a journal's "a, Binding: …"
_PANEL_TITLE_RE = re.compile(r"\s*([^:.;,\n()]{1,40}?)\s*(?::|\n)")


def panel_segments(text: str) -> tuple[str, list[tuple[str, str | None, str]]]:
    """A brief of panels (a), (b)…: the text before the first panel, and per panel its letter, title and
    text (from its marker's sentence to the next panel's); no panels: ``(text, [])``. A later remark on a
    panel already opened ("(b) costs 20 ms more") stays with the panel it follows."""
    marks = list(PANEL_RE.finditer(text))
    letters = [m.group(1) or m.group(2) for m in marks]
    again = [k for k in range(1, len(letters)) if letters[k] == "a" and "b" in letters[:k] and "b" in letters[k:]
             and not re.search(r"[.;\n]", text[marks[0].end():marks[k - 1].start()])]  # the list: one sentence
    if again:  # "Figure 3 shows (a) the measurement and (b) the analysis. (a) We excite …": the panels start over
        marks, letters = marks[again[-1]:], letters[again[-1]:]
    if len(set(letters)) < 2 or letters[0] != "a" or "b" not in letters:
        return text, []
    starts: list[tuple[int, int, str, str | None]] = []  # (segment start, marker end, letter, title)
    for k, m in enumerate(marks):
        if any(letter == letters[k] for *_, letter, _ in starts):
            continue
        cut = max(text.rfind(".", 0, m.start()), text.rfind("\n", 0, m.start()), text.rfind(";", 0, m.start()))
        head = text[cut + 1:m.start()]
        # "… as follows: (a) the teachers score …": the panel starts at its marker; "In (a) we …": at its sentence
        start = m.start() if re.search(r"\w", head) and not re.search(r"\b(?:in|panel)\s*$", head, re.I) else cut + 1
        t = _PANEL_TITLE_RE.match(text, m.end())
        title = t.group(1).strip() if t and len(t.group(1).split()) <= 5 else None
        starts.append((start, m.end() if title is None else t.end(), letters[k], title))
    out = []
    for k, (start, body, letter, title) in enumerate(starts):
        end = starts[k + 1][0] if k + 1 < len(starts) else len(text)
        out.append((letter, title[:1].upper() + title[1:] if title else None, text[body:end]))
    return text[: starts[0][0]], out


def panel_names(text: str) -> list[str]:
    """The boxes of a panel whose text reads to none: the names it sets between bars ("(b) characterisation of the
    capped wafer: low-T PL | HRXRD ω–2θ | AFM"), else the noun phrase it opens on. (Its short clauses between
    semicolons, "daily diary entries via the app; weekly usage logs pulled automatically", as boxes too: dev groups
    F1 0.4588 -> 0.4633 but nodes 0.6427 -> 0.6422 and edges 0.2803 -> 0.2785, the panel's boxes taking the gold
    names from a later panel's that carried the edges; left out.)"""
    return piped_names(text.strip()) or [n for n in [first_noun_phrase(text)] if n]
