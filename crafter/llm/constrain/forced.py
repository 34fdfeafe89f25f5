"""Forced text: what every valid continuation of an answer goes on with (jump-forward drafts).

Where the rules leave one way to go on — a line's id once its letter is typed and the keyword
after it, the rest of a label whose prefix leaves one name it can become, an edge's arrow and
its one possible source or target, a chart's JSON between its choices, the one line the edit
head allows — the engine drafts that text whole instead of guessing it
(:meth:`crafter.llm.constrain.DSLConstraint.forced`).
"""

from __future__ import annotations

import os
import re

from crafter.llm.constrain.labels import Names
from crafter.llm.constrain.scanner import Incomplete, Invalid, LineScanner
from crafter.llm.constrain.state import Committed, State


class ForcedText:
    """The forced text of :class:`crafter.llm.constrain.DSLConstraint` (a part of it), from the
    line rules (:class:`crafter.llm.constrain.grammar.TaskGrammar`) and what the name and edit
    heads read."""

    _LABEL_OPEN = re.compile(r'[A-Za-z_]\w* (node|group) "([^"]*)')
    _EDGE_OPEN = re.compile(r"[A-Za-z_]\w* edge (?:([A-Za-z_]\w*)(?: (?:-(?:> ?)?)?)?)?")
    _KIND_TEXT = {"node": ' node "', "edge": " edge ", "group": ' group "'}
    _TITLE_OPEN = re.compile(r'figure "([^"]*)')

    def forced_rest(self, line: str, done: Committed) -> str:
        """The text every valid continuation of the unfinished ``line`` goes on with (``""`` where
        none is known): from the edit head's lines (repair), from the scanner (chart), from the name
        head's names and the scanner (plan)."""
        if self.lines:
            return self._forced_line(line, done)
        if self.task == "chart":
            return self._forced_scan(line, done)
        return self._forced_text(line, done)

    def _forced_line(self, line: str, done: Committed) -> str:
        """Repair with the edit head's lines: the rest of the line they agree on (and its newline,
        where one line is left)."""
        if done.lines:
            return ""
        options = [o for o in self.lines if o.startswith(line)]
        if len(options) == 1:
            return options[0][len(line):] + "\n"
        return os.path.commonprefix(options)[len(line):] if options else ""

    def _forced_text(self, line: str, done: Committed) -> str:
        titled = isinstance(self.titles, Names) and bool(self.titles.names)
        if done.lines == 0 and titled and len(line) < 8 and 'figure "'.startswith(line):  # the title line comes first
            head = 'figure "'[len(line):]
            return head + self._forced_text(line + head, done)
        m = self._TITLE_OPEN.fullmatch(line)
        if m and done.lines == 0:
            options = [n for n in self.titles.names if n.startswith(m.group(1))]
            return options[0][len(m.group(1)):] + '"\n' if len(options) == 1 else ""
        if not line and not self.free_ids:  # a new line: forced where one id may start it and the answer may not end here
            ids = self.next_ids(done)
            if len(ids) != 1 or self.can_end(State(done)):
                return ""
            (i, kind), = ids.items()
            head = i + self._KIND_TEXT[kind]
            return head + self._forced_text(head, done)
        if not self.free_ids and (line and line[0] in "neg" and line[1:].isdigit() or line in ("n", "e", "g")):
            ids = [(i, k) for i, k in self.next_ids(done).items() if i.startswith(line)]
            if len(ids) != 1:
                return ""
            i, kind = ids[0]
            head = i[len(line):] + self._KIND_TEXT[kind]
            return head + self._forced_text(line + head, done)
        m = self._LABEL_OPEN.fullmatch(line)
        if m:
            names, used = ((self.node_names, done.labels) if m.group(1) == "node"
                           else (self.group_names, done.group_labels))
            options = {n for n in names.names if n.startswith(m.group(2)) and n.lower() not in used}
            return options.pop()[len(m.group(2)):] + '"' if len(options) == 1 else ""
        m = self._EDGE_OPEN.fullmatch(line)
        links = self.link_options(done) if m else {}
        if m and (m.group(1) is None or m.group(1) in links):  # (any other source: scanned below)
            if m.group(1) is None:  # "e3 edge ": no source yet
                return next(iter(links)) + " -> " + self._one(links[next(iter(links))]) if len(links) == 1 else ""
            src = m.group(1)
            if any(o != src and o.startswith(src) for o in links):
                return ""
            typed = line[line.index(src) + len(src):]
            return " -> "[len(typed):] + self._one(links[src]) if " -> ".startswith(typed) else ""
        return self._forced_scan(line, done)

    @staticmethod
    def _one(options: list[str]) -> str:
        return options[0] if len(options) == 1 else ""

    def _forced_scan(self, line: str, done: Committed) -> str:
        """The text every valid continuation of a line goes on with, as the scanner knows it (a chart's
        JSON between its choices, a field's type, a plan node's one shape), and the line's end where
        nothing else may follow on it."""
        text = ""
        for _ in range(16):
            try:
                self.statement(LineScanner(line + text), done)
            except Incomplete as e:
                if not e.expect:
                    return text
                text += e.expect
                continue
            except Invalid:
                return text
            try:  # finished: may anything follow on the line?
                self.statement(LineScanner(line + text + " "), done)
            except Invalid:
                return text + "\n"
            except Incomplete:
                pass
            return text
        return text
