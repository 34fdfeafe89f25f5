"""Scanning one line of an answer: literals, choices and strings, and how a scan ends.

A scan either finishes a :class:`Statement`, stops where the line can still be completed
(:class:`Incomplete`, with the text every completion goes on with where it is known), or
finds that no completion is valid (:class:`Invalid`).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

_IDCHARS = re.compile(r"[A-Za-z0-9_]")


class Incomplete(Exception):
    """The input ended inside a statement that can still be completed (``expect``: the text every
    completion goes on with, where the scanner knows it)."""

    def __init__(self, expect: str = "") -> None:
        super().__init__(expect)
        self.expect = expect


class Invalid(Exception):
    """No completion of the input is a valid statement."""


class LineScanner:
    """A cursor over one line (``s``, read up to ``i``) that the task grammars step through."""

    def __init__(self, s: str, final: bool = False) -> None:
        self.s, self.i = s, 0
        self.final = final  # the line is finished: a choice at its end is whole ("n1" cannot become "n12")

    def rest(self) -> str:
        return self.s[self.i:]

    def at_end(self) -> bool:
        return self.i >= len(self.s)

    def lit(self, t: str) -> None:
        r = self.rest()
        if r.startswith(t):
            self.i += len(t)
            return
        if t.startswith(r):
            raise Incomplete(t[len(r):])
        raise Invalid

    def choice(self, options) -> str:
        """One of ``options`` (longest match first), followed by a non-id character or the end."""
        r = self.rest()
        for o in sorted(options, key=len, reverse=True):
            if r.startswith(o) and (len(r) == len(o) or not _IDCHARS.match(r[len(o)])):
                if len(r) == len(o) and not self.final and any(p != o and p.startswith(o) for p in options):
                    raise Incomplete  # "n1" could still become "n12"
                self.i += len(o)
                return o
        going = [o for o in options if o.startswith(r)]
        if going:
            raise Incomplete(os.path.commonprefix(going)[len(r):])
        raise Invalid

    def optional_string(self, check_prefix, check_full, *, more: bool) -> str | None:
        """An optional `` "…"`` here (an edge's label, a chart's title), else None; ``more``: what may
        follow instead starts with a space too (so a lone space leaves both open)."""
        r = self.rest()
        if r == " ":
            raise Incomplete("" if more else '"')
        if r.startswith(' "'):
            self.i += 1
            return self.string(check_prefix, check_full)
        return None

    def string(self, check_prefix, check_full) -> str:
        self.lit('"')
        j = self.s.find('"', self.i)
        body = self.s[self.i:] if j < 0 else self.s[self.i:j]
        if "\\" in body:
            raise Invalid
        if j < 0:
            if not check_prefix(body):
                raise Invalid
            raise Incomplete
        if not check_full(body):
            raise Invalid
        self.i = j + 1
        return body


@dataclass
class Statement:
    """What a finished line defines."""

    id: str
    kind: str
    label: str | None = None
    source: str | None = None
    target: str | None = None
    members: tuple[str, ...] = ()

