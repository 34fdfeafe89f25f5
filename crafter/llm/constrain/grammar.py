"""The task grammars: which lines a plan, a chart or a repair answer may hold.

A line is scanned against the rules of the task on top of the DSL's grammar (what the
module docstring of :mod:`crafter.llm.constrain` lists): the ids a line may start with,
the kinds they must be, the labels they may carry (:mod:`crafter.llm.constrain.labels`),
the edges that may join them, a chart spec's columns, the attributes and their values.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import get_args

from crafter.errors import SpecError
from crafter.llm.constrain.labels import Names
from crafter.llm.constrain.scanner import Incomplete, Invalid, LineScanner, Statement
from crafter.llm.constrain.state import Committed, State
from crafter.llm.corpus.vocabulary import shape_for
from crafter.spec import parse_component
from crafter.spec.colors import CSS_COLOR_NAMES, is_color
from crafter.spec.model import SHAPES, Direction

ARROWS = ("->", "<-", "<->", "--")

DASH_STYLES = ("solid", "dashed", "dotted")
_CHANNELS = ("x", "y", "color")  # what the corpus' charts encode, in the order it writes them
_COLOUR_WORDS = CSS_COLOR_NAMES | {"none"}
DIRECTIONS: tuple[str, ...] = get_args(Direction)
_PLAN_ID = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")  # a plan's ids under the corpus' conventions (the DSL allows more)
MAX_ID_CHARS = 40


def plan_shape(label: str) -> str | None:
    """The shape a plan writes for a node of this label (the corpus' convention: a decision ending in
    "?" is a diamond, a storage noun a cylinder), None for the default box."""
    shape = shape_for(label)
    return None if shape == "box" else shape


class TaskGrammar:
    """The line rules of :class:`crafter.llm.constrain.DSLConstraint` (a part of it): what the
    constraint read from the prompt (``task``, ``spans``, ``node_names``, ``group_names``,
    ``edge_labels``, ``titles``, ``links``, ``lines``, ``figure_kinds``, ``kept_attrs``,
    ``other_labels``, ``requested``, ``dash_said``, the chart's ``column_types``, ``marks``,
    ``chart_options``, ``chart_required``, ``quoted``) decides which lines may come next.

    A plan speaks one of two conventions (``free_ids``):

    * CraftLM's (the synthetic corpus it is trained on): ids numbered in order (``n1 n2 … e1 … g1``),
      no figure options, a node's shape exactly the one its label implies (:func:`plan_shape`);
    * the written corpus' (:mod:`crafter.corpora.briefs`' gold figures, what the SmolLM2 adapter is
      trained on): any identifier not used before (``reads``, ``fastp``, ``g_qc``), defined before
      an edge or a group names it; ``figure ["title"] [direction=LR|TB|RL|BT]``; a node's shape any
      of the spec's, or none; panels ``pa panel "(a)" [members] title="…"``, lettered in order.
      A superset of CraftLM's: its plans pass too."""

    def can_end(self, st: State) -> bool:
        """May the answer end after ``st`` (a finished line, and all the task asks for written)?"""
        d = st.done
        if st.line or d.lines == 0:
            return False
        if self.task == "repair":
            return set(self.requested) <= d.written
        if self.task == "plan":
            # where the name head read the brief: every name it read is a node, every link it read
            # between two nodes an edge, before the answer may end
            if self.cover and isinstance(self.node_names, Names) and self.node_names.has_unused(d.labels):
                return False
            return d.counts[0] > 0 and (self.links is None or not self._links_left(d))
        return True

    # ---- one line --------------------------------------------------------------

    def next_ids(self, done: Committed) -> dict[str, str]:
        """Ids a new line may start with -> the kind they must be."""
        if self.task == "plan":  # (CraftLM's numbered ids; under the corpus' conventions any new id)
            n, e, g = done.counts
            number = {"node": f"n{n + 1}", "group": f"g{g + 1}", "edge": f"e{e + 1}"}
            return {number[k]: k for k in self.plan_kinds(done) if k in number}
        if self.task == "chart":
            return {} if done.written else {"c1": "chart"}
        return {i: self.figure_kinds.get(i, "") for i in self.requested if i not in done.written}

    def plan_kinds(self, done: Committed) -> list[str]:
        """The kinds a plan's next line may define: a node while a name is left, a group (a panel,
        under the corpus' conventions) while a node is in none, an edge while two nodes may be joined."""
        n = done.counts[0]
        out = ["node"] if self.node_names.has_unused(self.taken_labels(done)) else []
        nodes_free = sum(x not in done.grouped for x in done.nodes)
        groups_free = sum(x not in done.grouped for x in done.groups) if self.free_ids else 0
        if n >= 1 and (nodes_free or groups_free >= 2) and self.group_names.has_unused(done.group_labels):
            out += ["group", "panel"] if self.free_ids else ["group"]
        if n >= 2 and self.link_options(done):
            out.append("edge")
        return out

    def taken_labels(self, done: Committed) -> frozenset:
        """Node labels no new node may take (lower case): every one used, or, under the corpus'
        conventions where the plan need not cover a name head's reading, every one used twice (a
        figure's two panels draw the same part twice: "Residual add" in a ResNet and a ConvNeXt block;
        20 of the 156 dev figures), never a third time (a copying loop). Covering the head's names, each
        once: the 0.43-epoch adapter, made to go on writing nodes, wrote every name twice."""
        if not self.free_ids or (self.cover and isinstance(self.node_names, Names)):
            return done.labels
        return frozenset(x for x, n in Counter(done.node_labels).items() if n >= 2)

    def more_lines(self, done: Committed) -> bool:
        """May a line follow the finished ones?"""
        return bool(self.plan_kinds(done) if self.task == "plan" else self.next_ids(done))

    def link_options(self, done: Committed) -> dict[str, list[str]]:
        """Edge sources -> the targets an edge from them may name: any other node not yet joined,
        or, where the name head read links, the nodes it links to (by label). Asked at every line
        start of every token tried, so kept per committed state."""
        hit = self._links_memo.get(done)
        if hit is None:
            hit = self._links_memo[done] = self._link_options_of(done)
        return hit

    def _link_options_of(self, done: Committed) -> dict[str, list[str]]:
        nodes = self._node_ids(done)
        repair = self.task == "repair"
        out: dict[str, list[str]] = {}
        for i, src in enumerate(nodes):
            tgts = [n for j, n in enumerate(nodes) if n != src and (repair or (src, n) not in done.edges)
                    and (self.links is None or (done.node_labels[i], done.node_labels[j]) in self.links)]
            if tgts:
                out[src] = tgts
        return out

    def _links_left(self, done: Committed) -> bool:
        """Is a link the name head read between two nodes' labels not drawn yet? (Once per pair of
        labels: a label drawn twice, in two panels, needs its link once.)"""
        label = dict(zip(done.nodes, done.node_labels))
        drawn = {(label[s], label[t]) for s, t in done.edges}
        return any((label[s], label[t]) not in drawn for s, tgts in self.link_options(done).items() for t in tgts)

    def _node_ids(self, done: Committed) -> tuple[str, ...]:
        if self.task == "repair":
            return tuple(i for i, k in self.figure_kinds.items() if k == "node")
        return done.nodes

    def scan(self, text: str, done: Committed, final: bool) -> Statement | str | None:
        """A finished statement (final) / "prefix" for a valid unfinished line / None if invalid."""
        if self.lines and not (text in self.lines if final else any(o.startswith(text) for o in self.lines)):
            return None
        ln = LineScanner(text, final)
        try:
            stmt = self.statement(ln, done)
        except Incomplete:
            return None if final else "prefix"
        except Invalid:
            return None
        return stmt

    def statement(self, ln: LineScanner, done: Committed):
        """Scan one line under the task's rules: the :class:`Statement` it finishes, else
        :class:`Incomplete` (it may still become one) or :class:`Invalid` (it never will)."""
        if self.task == "plan" and self.free_ids:
            return self._corpus_line(ln, done)
        ids = self.next_ids(done)
        starts = list(ids) + (["figure"] if self.task == "plan" and done.lines == 0 else [])
        if self.task == "plan" and done.lines == 0 and isinstance(self.titles, Names):
            starts = ["figure"] if self.titles.names else list(ids)
        if not starts:
            raise Invalid
        head = ln.choice(starts)
        if head == "figure":
            ln.lit(" ")
            title = ln.string(self.titles.prefix_ok, self.titles.full_ok)
            return self._close(ln, Statement("figure", "figure", title), {})
        kind = ids[head]
        ln.lit(" ")
        ln.choice([kind] if kind else ["node", "edge", "group", "text", "chart", "panel", "path", "image"])
        return self._defined(ln, kind or ln.s.split()[1], head, done)

    def _defined(self, ln: LineScanner, kind: str, cid: str, done: Committed):
        """The rest of a line that defines ``cid`` as a ``kind``."""
        if kind == "node":
            return self._node(ln, cid, done)
        if kind == "edge":
            return self._edge(ln, cid, done)
        if kind == "group":
            return self._group(ln, cid, done)
        if kind == "panel" and self.task == "plan" and self.free_ids:  # else a panel line is free text
            return self._panel(ln, cid, done)
        if kind == "chart":
            return self._chart(ln, cid)
        return self._free(ln, cid, kind)

    def _corpus_line(self, ln: LineScanner, done: Committed):
        """A plan's line under the written corpus' conventions: ``figure`` first (where the name
        head read a title, it must come first), then lines that each define a new id."""
        kinds, first = self.plan_kinds(done), done.lines == 0
        if first and isinstance(self.titles, Names) and self.titles.names:
            ln.lit("figure")
            return self._figure(ln)
        m = _PLAN_ID.match(ln.s)
        word = m.group(0) if m else ""
        if len(word) > MAX_ID_CHARS:
            raise Invalid
        if ln.s == word:  # the id (or "figure") is still being written
            if kinds or (first and "figure".startswith(word)):
                raise Incomplete
            raise Invalid
        if first and word == "figure":
            ln.i = len(word)
            return self._figure(ln)
        if not word or not kinds or word == "figure" or word in done.written:
            raise Invalid
        ln.i = len(word)
        ln.lit(" ")
        return self._defined(ln, ln.choice(kinds), word, done)

    def _figure(self, ln: LineScanner) -> Statement:
        """The rest of a corpus-style ``figure`` line (after the keyword): a title, a direction, either
        optional. The corpus titles every figure: where the head read no title, a span of the brief
        (refused a title, the adapter had written ``figure_metaflow_pipeline node "Metaflow"``)."""
        titles = self.titles if not isinstance(self.titles, Names) or self.titles.names else self.spans
        title = ln.optional_string(titles.prefix_ok, titles.full_ok, more=True)
        return self._close(ln, Statement("figure", "figure", title), {"direction": DIRECTIONS})

    @staticmethod
    def _free(ln: LineScanner, cid: str, kind: str) -> Statement:
        """A kind the model is not trained to write (a repair of a text, panel, path or image):
        any line that parses as that component once it is finished."""
        try:
            c = parse_component(ln.s)
        except SpecError:
            raise Incomplete from None  # the line ending checks it (a finished line must parse)
        if c.id != cid or c.kind != kind:
            raise Invalid
        ln.i = len(ln.s)
        return Statement(cid, kind)

    def _node(self, ln: LineScanner, nid: str, done: Committed):
        ln.lit(" ")
        # repair: not another node's label (the decoder renamed "Decoder" to the next node's "Output head")
        used = self.taken_labels(done) if self.task != "repair" else self.other_labels.get(nid, frozenset())

        spans = self.node_names

        def full(s: str) -> bool:
            return spans.full_ok(s) and s.lower() not in used

        label = ln.string(lambda p: spans.prefix_ok(p, used), full)
        stmt = Statement(nid, "node", label)
        if self.task == "plan" and self.free_ids:  # the written corpus: a shape the writer chose, or none
            return self._close(ln, stmt, {"shape": SHAPES})
        if self.task == "plan":  # the synthetic corpus' one node attribute: a shape its label implies, always written
            shape = plan_shape(label)
            if shape:
                ln.lit(f" shape={shape}")
            if not ln.at_end():
                raise Invalid
            return stmt
        return self._close(ln, stmt, {**self.kept_attrs.get(nid, {}), "shape": SHAPES, "fill": "colour",
                                      "bold": ("true", "false")})

    def _edge(self, ln: LineScanner, eid: str, done: Committed):
        ln.lit(" ")
        options = self.link_options(done)
        src = ln.choice(list(options))
        ln.lit(" ")
        ln.choice(ARROWS if self.task == "repair" else ("->",))
        ln.lit(" ")
        tgt = ln.choice(options[src])
        stmt = Statement(eid, "edge", None, src, tgt)
        if self.task == "plan":  # dashed where the brief asks for a dashed or optional link, nothing else
            attrs = {"style": ("dashed",)} if self.dash_said else {}
        else:
            attrs = {**self.kept_attrs.get(eid, {}), "style": DASH_STYLES}
        if not isinstance(self.edge_labels, Names) or self.edge_labels.names:  # a label may come
            stmt.label = ln.optional_string(self.edge_labels.prefix_ok, self.edge_labels.full_ok, more=bool(attrs))
        return self._close(ln, stmt, attrs)

    def _group(self, ln: LineScanner, gid: str, done: Committed):
        ln.lit(" ")
        used = done.group_labels

        def full(s: str) -> bool:
            return self.group_names.full_ok(s) and s.lower() not in used

        label = ln.string(lambda p: self.group_names.prefix_ok(p, used), full)
        members = self._members(ln, done)
        return self._close(ln, Statement(gid, "group", label, members=members), {})

    def _panel(self, ln: LineScanner, pid: str, done: Committed):
        """``pa panel "(a)" [members] title="…"`` (the written corpus' panels): lettered in order, the
        title optional, a group's name (one not used yet)."""
        if done.panels >= 26:
            raise Invalid
        ln.lit(f' "({chr(ord("a") + done.panels)})"')
        members = self._members(ln, done)
        stmt = Statement(pid, "panel", None, members=members)
        if not ln.at_end():
            ln.lit(" title=")
            used = done.group_labels
            stmt.label = ln.string(lambda p: self.group_names.prefix_ok(p, used),
                                   lambda s: self.group_names.full_ok(s) and s.lower() not in used)
        if not ln.at_end():
            raise Invalid
        return stmt

    def _members(self, ln: LineScanner, done: Committed) -> tuple[str, ...]:
        """`` [a, b]``: nodes in no group yet, each once; under the corpus' conventions groups too (a
        group in a group), and a list of groups alone holds two at least."""
        ln.lit(" [")
        members: list[str] = []
        free = [x for x in self._node_ids(done) if x not in done.grouped]
        groups = [x for x in done.groups if x not in done.grouped] if self.free_ids else []
        free += groups
        while True:
            members.append(ln.choice([x for x in free if x not in members]))
            closes = ln.rest().startswith("]") or len(members) == len(free)  # no node left: the list closes
            if closes and len(members) == 1 and members[0] in groups:
                raise Invalid  # a group of one group draws nothing new
            if closes:
                ln.lit("]")
                return tuple(members)
            ln.lit(", ")

    def _chart(self, ln: LineScanner, cid: str):
        """``c1 chart ["title"] spec={...}``: the spec as the corpus writes it (compact JSON: a mark,
        then x, y and an optional color, each a column of the table with the type the schema gives
        it, no column twice; where the request names two columns or more, exactly those). A title
        the request quotes is the title, whole."""
        r = ln.rest()
        if self.quoted:
            ln.lit(' "')
            ln.choice([q + '"' for q in self.quoted])
        elif not r:  # a title or the spec: a space either way
            raise Incomplete(" ")
        else:
            ln.optional_string(self.spans.prefix_ok, self.spans.full_ok, more=True)
        ln.lit(' spec={"mark":"')
        ln.choice(self.marks)
        ln.lit('","encoding":{')
        used: list[str] = []
        for ch in _CHANNELS:
            left = [f for f in self.chart_options[ch] if f not in used]
            if ch == "x":  # never the one column y could take
                left = [f for f in left if any(y != f for y in self.chart_options["y"])]
            if ch == "color":
                need = [f for f in left if f in self.chart_required]
                if ln.at_end():  # a color, or the spec's end: known where no column is left or one must come
                    raise Incomplete("}}" if not left else "," if need else "")
                if not left or not ln.rest().startswith(","):
                    if need:
                        raise Invalid  # a column the request names is not encoded
                    break
                ln.lit(",")
                left = need or left
            ln.lit(f'"{ch}":{{"field":"')
            field = ln.choice(left)
            used.append(field)
            ln.lit('","type":"')
            ln.choice([self.column_types[field]])
            ln.lit('"}' + ("," if ch == "x" else ""))
        ln.lit("}}")
        if not ln.at_end():
            raise Invalid
        return Statement(cid, "chart")

    def _close(self, ln: LineScanner, stmt: Statement, attrs: dict):
        """Optional ``key=value`` attributes (each once), then the end of the line."""
        seen: set[str] = set()
        while True:
            if ln.at_end():
                return stmt  # attributes are optional: the line may end here
            ln.lit(" ")
            key = ln.choice([k for k in attrs if k not in seen])
            seen.add(key)
            ln.lit("=")
            allowed = attrs[key]
            if allowed == "colour":
                self._colour(ln, self.kept_attrs.get(stmt.id, {}).get(key, ()))
            else:
                ln.choice(allowed)

    @staticmethod
    def _colour(ln: LineScanner, kept: tuple[str, ...] = ()) -> None:
        """A colour the spec accepts (:func:`crafter.spec.colors.is_color`), or the start of one. Names
        in lower case, as CSS writes them (the spec reads any case, and the model wrote "tomAto"),
        unless the component already has that value (``kept``)."""
        v = re.match(r"[#A-Za-z0-9]*", ln.rest()).group(0)
        ln.i += len(v)
        if v in kept or (is_color(v) and (v.startswith("#") or v.islower())):
            return
        if ln.at_end() and (re.fullmatch(r"#[0-9a-fA-F]{0,7}", v) or any(c.startswith(v) for c in _COLOUR_WORDS)
                            or any(c.startswith(v) for c in kept)):
            raise Incomplete
        raise Invalid
