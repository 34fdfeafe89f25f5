"""Label copying: the labels, titles and edge labels a constrained answer may write.

Every label is a span of the prompt's own words (:class:`Spans`), or, where the name head
read the brief (:mod:`crafter.llm.names`), one of the names it tagged (:class:`Names`).
Both answer the same two questions: can this text still become a label, and is it one.
"""

from __future__ import annotations

import re

# capitalised words that start a new sentence part rather than continue a name
_NAME_BREAKS = frozenset(("the a an our its their this that these those we it is are then and or "
                          "step stage phase part move item task level figure fig caption title diagram panel "
                          "scheme chart plate heading").split())


class Spans:
    """Labels must be whole-word spans of ``text`` as written (spaces collapsed); only the first
    letter's case may differ ("The encoder…" gives "encoder", "…to the decoder" gives "Decoder").
    Case-free matching let a small model spell a name "CliniCiAn"."""

    # a name never runs past a full stop, through an arrow ("Projector. Target is", "Mesh =>") or a
    # double quote (a DSL string ends there: a repair prompt's 'n4 node "Output head" box=…' had let
    # "Output head" look like the start of a longer label); "?" may sit inside one ("Converged? step")
    _BREAK = re.compile(r"[.;] |=>|->|\"|[\u2190-\u21ff\u27f0-\u27ff\u2900-\u297f]")

    def __init__(self, text: str) -> None:
        # spaces collapsed within a line; a line break stays, so no name runs across two lines
        self.text = t = " " + "\n".join(" ".join(ln.split()) for ln in text.splitlines()) + " "
        # a prefix is allowed only where it can still become a label: some end after it, before the
        # next break, where a label may stop (else the model walks into a dead end: "classifier." at
        # a line's end can neither go on nor close). next_end[k]: first such end >= k; next_break[k]:
        # first break (line end, full stop, arrow) at or after k.
        n = len(t)
        stops = {m.start() for m in self._BREAK.finditer(t)} | {i for i, c in enumerate(t) if c == "\n"}
        self.next_break, self.next_end = [n] * (n + 1), [n + 1] * (n + 2)
        for k in range(n - 1, -1, -1):
            self.next_break[k] = k if k in stops else self.next_break[k + 1]
        for j in range(n, 0, -1):
            self.next_end[j] = j if j < n and self._end_ok(j) else self.next_end[j + 1]

    def _end_ok(self, j: int) -> bool:
        """May a label whose last character is ``text[j - 1]`` stop there (as :meth:`full_ok` asks)?"""
        t, c = self.text, self.text[j - 1]
        if c.isspace() or c in "([{,:;.=-" or (self._word(t[j]) and self._word(c)):
            return False
        return not self._name_goes_on(t[t.rfind(" ", 0, j) + 1 : j], j)

    @staticmethod
    def _word(c: str) -> bool:
        return c.isalnum() or c == "_"

    def _starts(self, s: str):
        """Start offsets where ``s`` occurs at a word start."""
        t, i = self.text, self.text.find(s)
        while i >= 0:
            if not (self._word(t[i - 1]) and self._word(s[0])):
                yield i
            i = t.find(s, i + 1)

    def prefix_ok(self, s: str, used: frozenset = frozenset()) -> bool:
        """Can ``s`` still become a label (one not in ``used``, lower-case labels already taken)?"""
        if s == "":
            return True
        if s != s.lstrip() or "  " in s or "\n" in s or self._BREAK.search(s):
            return False
        t = self.text
        for v in self._variants(s):
            for i in self._starts(v):
                k, limit = i + len(v), self.next_break[i]
                j = self.next_end[k]
                while j <= limit:
                    if not used or (s + t[k:j]).lower() not in used:
                        return True
                    j = self.next_end[j + 1]
        return False

    def has_unused(self, used: frozenset) -> bool:
        return True  # (a brief's spans are never all taken)

    @staticmethod
    def _variants(s: str) -> tuple[str, ...]:
        """``s`` and ``s`` with its first letter's case flipped — not an acronym's ("VCF file" never
        becomes "vCF file", as the decoder wrote it)."""
        if len(s) > 1 and s[1].isupper():  # "VCF", "mRNA": as written
            return (s,)
        flipped = s[0].swapcase() + s[1:]
        return (s, flipped) if flipped != s else (s,)

    def full_ok(self, s: str) -> bool:
        if not s.strip() or s != s.strip() or "  " in s or s[-1] in "([{,:;.=-" or s[0] in ")]},:;.=-":
            return False
        t = self.text
        return any(not (self._word(t[i + len(v)]) and self._word(v[-1])) and not self._name_goes_on(v, i + len(v))
                   for v in self._variants(s) for i in self._starts(v))

    _NEXT_WORD = re.compile(r" ([^\W\d_][\w-]*)")

    def _name_goes_on(self, label: str, end: int) -> bool:
        """A capitalised name does not stop before another capitalised word ("Noisy" in "Noisy
        Projector feeds…"): a Title Case run is one name, as the rule reader chunks it."""
        last = label.split()[-1]
        if not last[:1].isupper():
            return False
        m = self._NEXT_WORD.match(self.text, end)
        return bool(m) and m.group(1)[:1].isupper() and m.group(1).lower() not in _NAME_BREAKS


class Names:
    """Labels must be one of ``names`` (spans of the brief the name head tagged, as written), the
    first letter's case free as in :class:`Spans`: the same two questions, a smaller answer set."""

    def __init__(self, names) -> None:
        self.names = tuple(dict.fromkeys(v for n in names for v in Spans._variants(n)))

    def prefix_ok(self, s: str, used: frozenset = frozenset()) -> bool:
        return any(n.startswith(s) and n.lower() not in used for n in self.names)

    def full_ok(self, s: str) -> bool:
        return s in self.names

    def has_unused(self, used: frozenset) -> bool:
        return any(n.lower() not in used for n in self.names)

