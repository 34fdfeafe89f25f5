"""Constrained decoding: CraftLM may only write answers that are valid DSL for its task.

A small model's free-running errors compound: one wrong token ("n4fnode") and the rest
of the answer is garbage; a label copied twice and it keeps copying it. Here the verifier
picks, at every position, the highest-scoring token that keeps the answer a *valid
prefix* (the approach of grammar-constrained decoding in llama.cpp, Outlines, XGrammar),
with the rules of the task on top of the DSL's grammar:

* every line is one statement of the kinds the task writes (plan: ``figure``, ``node``,
  ``edge``, ``group``; chart: one ``chart``; repair: the components it was asked for,
  each once, of the kind it has in the figure);
* ids are numbered in order (``n1 n2 …``, ``e1 …``, ``g1 …``: CraftLM's conventions) or, under
  the written corpus' conventions (``conventions="corpus"``, the SmolLM2 adapter's), any new
  identifier, with the figure's direction, any node shape and panels as the corpus writes them
  (:class:`~crafter.llm.constrain.grammar.TaskGrammar`); edges and groups name nodes that exist;
  no self-loops, no repeated edge, no repeated node label;
* every label, title and edge label is a span of the prompt's own words (case-free,
  whole words): the model copies names, it never invents them;
* attribute values come from the spec's vocabularies (shapes, dash styles, colours);
* the answer ends (``<|eos|>``) only after a finished line.

A chart spec is compact JSON as the corpus writes it: a mark, then ``x``, ``y`` and an optional
``color``, each a column of the prompt's table with the type its schema gives, no column twice;
where the request names two columns or more, exactly those; a title it quotes, whole.

The constraint is a pure function of the tokens so far (:meth:`DSLConstraint.advance`
returns a new state or ``None``), so the verifier's constrained choice is the same in
plain and in speculative decoding: greedy output stays identical across drafters.

Where things live: :mod:`~crafter.llm.constrain.labels` (label copying),
:mod:`~crafter.llm.constrain.grammar` (the task grammars, line by line),
:mod:`~crafter.llm.constrain.forced` (jump-forward text), :mod:`~crafter.llm.constrain.scanner`
(scanning one line), :mod:`~crafter.llm.constrain.state`, :mod:`~crafter.llm.constrain.tokens`
(token bytes); this module is the automaton the engine drives, token by token.
"""

from __future__ import annotations

import re
from dataclasses import replace

from crafter.charts.compile.chart import SUPPORTED_MARKS
from crafter.llm.constrain.forced import ForcedText
from crafter.llm.constrain.grammar import TaskGrammar
from crafter.llm.constrain.labels import Names, Spans
from crafter.llm.constrain.scanner import Statement
from crafter.llm.constrain.state import Committed, State
from crafter.llm.constrain.tokens import ByteVocab
from crafter.llm.prompts import repair_parts

_MARKER = re.compile(r"<\|[a-z]+\|>")
_ATTR = re.compile(r' ([a-z_]+)=("(?:[^"\\]|\\.)*"|\[[^\]]*\]|\{.*?\}(?= [a-z_]+=|$)|[^\s"\[\]{}]+)')
_TYPES = frozenset({"quantitative", "nominal", "ordinal", "temporal"})
_COLUMN = re.compile(r"([^\s,:]+) \((" + "|".join(sorted(_TYPES)) + r")\)")  # "loss (quantitative)" in a schema
_QUOTE = re.compile(r'"([^"\n]+)"')
_DASH_WORDS = re.compile(r"\b(?:dash(?:es|ed)?|dotted|optional(?:ly)?)\b", re.I)

_FUNCTION_WORDS = frozenset("a an the of by per on in to and or for with as at".split())


_VOCABS: dict[int, tuple[list[bytes], ByteVocab]] = {}


def _vocab(token_bytes: list[bytes]) -> ByteVocab:
    """The sorted vocabulary of a backend's token bytes, built once per list (a backend keeps its list)."""
    hit = _VOCABS.get(id(token_bytes))
    if hit is None or hit[0] is not token_bytes:
        hit = _VOCABS[id(token_bytes)] = (token_bytes, ByteVocab(token_bytes))
    return hit[1]


def _said_columns(request: str, columns) -> list[str]:
    """Columns a chart request names: as written, spoken with spaces ("batch size" for batch_size) or
    with other punctuation ("top-1 accuracy" for top1_accuracy) — a run of the request's words that
    spells the column's letters and digits. A column named like a function word ("a", "by") is not
    read as named."""
    words = re.findall(r"[a-z0-9]+", request.lower())
    runs = {"".join(words[i:j]) for i in range(len(words)) for j in range(i + 1, min(len(words), i + 6) + 1)}
    out = []
    for c in columns:
        key = re.sub(r"[^a-z0-9]", "", c.lower())
        if key and key in runs and c.lower() not in _FUNCTION_WORDS:
            out.append(c)
    return out


class DSLConstraint(ForcedText, TaskGrammar):
    """The valid answers for one task and prompt. ``tokenizer`` supplies the token bytes."""

    def __init__(self, task: str, prompt: str, token_bytes: list[bytes], eos_id: int,
                 names: dict[str, list[str]] | None = None, encode=None, lines: list[str] | None = None,
                 force_tokenization: bool = True, conventions: str = "craftlm", cover: bool = True) -> None:
        """names (plan): the name head's reading of the brief (:mod:`crafter.llm.names`). Where it
        found at least two node names, labels must be its names of their kind (no group or edge label
        where it read none), an edge must join two names it linked, and the answer ends only once
        every name is a node and every link between two nodes an edge; else any span of the brief.
        encode (text -> token ids): lets :meth:`forced` give jump-forward drafts.
        lines (repair of one component): the edit head's reading of the instruction
        (:mod:`crafter.llm.edits`) — the answer must be one of these lines.
        force_tokenization: where text is forced, allow only the first token of ``encode``'s
        tokenization of it (:meth:`forced`; CraftLM's). Off, forced text is only drafted: a
        byte-level BPE such as SmolLM2's merges across the forced text's edges (" spec" is one token
        where the forced text is " "), and forcing its tokenization alone would make the model read
        pieces it never saw.
        conventions (plan): ``"craftlm"`` (ids ``n1 n2 …`` in order, the shape a label implies: the
        synthetic corpus') or ``"corpus"`` (any new identifier, the figure's direction, any shape,
        panels: the written brief corpus' gold figures, a superset).
        cover (plan with a name head): the answer covers the head's reading — every name a node,
        every link an edge, edges only between linked names. Off, the head's names are only what
        labels may be: which of them become nodes, and which nodes are joined, the model decides
        (SmolLM2's adapter: the head's links, mostly mentions in reading order, had made its edges)."""
        if conventions not in ("craftlm", "corpus"):
            raise ValueError(f"unknown plan conventions '{conventions}' (use craftlm or corpus)")
        self.free_ids = conventions == "corpus"
        self.cover = cover
        self.task = task
        self.force_tokenization = force_tokenization
        self.encode = encode  # text -> token ids (the model's tokenizer): for :meth:`forced` drafts
        self.token_bytes = token_bytes
        self.eos_id = eos_id
        text = _MARKER.sub("\n", prompt)
        self.spans = Spans(text)
        # plan with a name head: what labels may be, by kind (else any span of the brief)
        self.node_names = self.group_names = self.edge_labels = self.titles = self.spans
        self.links: frozenset | None = None  # plan: the name head's links (lower-case label pairs), if any
        if task == "plan" and names and len(names.get("node", ())) >= 2:
            self.node_names = Names(names["node"])
            self.group_names = Names(names.get("group") or ())  # none read: no group
            self.edge_labels = Names(names.get("label") or ())  # none read: edges without labels
            # a title the head read is the first line, as the corpus writes it; none read: no title line
            self.titles = Names(names.get("title") or ())
            self.links = (frozenset(map(tuple, names.get("links") or ())) or None) if cover else None
        self.wide_chars = sorted({c for c in text + "".join(v for vs in (names or {}).values() for v in vs
                                                             if isinstance(v, str)) if ord(c) > 127})
        self.dash_said = bool(_DASH_WORDS.search(text))
        self._memo: dict[tuple[State, int], State | None] = {}
        self._forced_memo: dict[State, list[int]] = {}
        self._cands_memo: dict[State, list[int]] = {}
        self._links_memo: dict[Committed, dict[str, list[str]]] = {}
        self.figure_kinds: dict[str, str] = {}  # repair: the figure's ids -> kinds
        self.kept_attrs: dict[str, dict[str, tuple[str, ...]]] = {}  # repair: id -> its attributes' values
        self.other_labels: dict[str, frozenset] = {}  # repair: requested node id -> the other nodes' labels
        self.requested: tuple[str, ...] = ()
        self.lines = tuple(lines or ()) if task == "repair" else ()
        self.columns: set[str] = set()
        if task == "repair":
            self._read_repair_prompt(prompt)
            if self.lines:  # a line the rules below refuse is no answer: dropped (none left: no constraint)
                self.lines = tuple(o for o in self.lines if isinstance(self.scan(o, Committed(), True), Statement))
        elif task == "chart":
            self._read_chart_prompt(prompt)

    def _read_chart_prompt(self, prompt: str) -> None:
        """The table's columns and their types (the schema line), the columns the request names and
        the titles it quotes."""
        body = prompt.split("<|chart|>", 1)[-1].split("<|out|>", 1)[0]
        schema, _, request = body.partition("\n")
        self.column_types = dict(_COLUMN.findall(schema))
        self.columns = set(self.column_types)
        self.marks = tuple(SUPPORTED_MARKS)
        said = _said_columns(request, self.column_types)
        types, every = self.column_types, tuple(self.column_types)
        # where the request names two columns or more, the chart encodes those, each once, and all it can;
        # y is a quantitative column (the corpus' charts: a missed mention, "top-1 accuracy" for
        # top1_accuracy, had left the dataset column as y), a colour a nominal one
        named = tuple(said) if len(said) >= 2 else every
        quant = [c for c in every if types[c] == "quantitative"]
        self.chart_options = {"x": named, "y": tuple([c for c in said if c in quant] or quant or every),
                              "color": tuple(c for c in named if types[c] == "nominal")}
        self.chart_required = frozenset(said) if len(said) >= 2 else frozenset()
        self.quoted = tuple(q for q in dict.fromkeys(_QUOTE.findall(request)) if q.strip() and q not in self.columns)

    def _read_repair_prompt(self, prompt: str) -> None:
        fig, _, ids = repair_parts(prompt)
        node_labels: dict[str, str] = {}
        for line in fig.splitlines():
            parts = line.split()
            if len(parts) >= 2:
                self.figure_kinds[parts[0]] = parts[1]
                m = re.match(r'\S+ node "([^"]*)"', line)
                if m:
                    node_labels[parts[0]] = m.group(1).lower()
                # attributes the component already has (a pinned box, a stroke…) may be kept as they are
                self.kept_attrs[parts[0]] = {k: (v,) for k, v in _ATTR.findall(line)}
        self.requested = tuple(i for i in ids if i in self.figure_kinds) or tuple(ids)
        # each requested node's label may not become another node's
        self.other_labels = {i: frozenset(v for k, v in node_labels.items() if k != i) for i in self.requested}

    # ---- the interface the engine uses ------------------------------------------

    def start(self) -> State:
        return State()

    def forced(self, st: State) -> list[int]:
        """Tokens every valid continuation of ``st`` starts with (plan with a name head; repair with the
        edit head's lines): a line's id once its letter is typed and the keyword after it, the rest of
        a label whose prefix leaves one name it can become, an edge's arrow and its one possible source
        or target, the rest of the one line the edit head allows — drafts that need no guessing
        (jump-forward decoding). ``[]`` where more than one continuation is open or no ``encode`` was
        given.

        Forced text is also written in its own tokenization (``encode``'s): :meth:`advance` allows
        only its first token. The text is the same either way, but the decoder spelled unseen names a
        character a token ("R es id u a l", where training wrote "R es id ual"), so a draft of the
        canonical tokens was cut at every other token and plain decoding left the tokenization the
        model was trained on."""
        out, cur = [], st
        for t in self._forced_ids(st):
            cur = self.advance(cur, t)
            if cur is None:
                break
            out.append(t)
        return out

    def _forced_ids(self, st: State) -> list[int]:
        """:meth:`forced`'s tokens, checked with the unforced rules (memoised per state)."""
        hit = self._forced_memo.get(st)
        if hit is not None:
            return hit
        out: list[int] = []
        if self.encode is not None and (self.lines or self.task == "chart" or isinstance(self.node_names, Names)):
            try:
                line = st.line.decode()
            except UnicodeDecodeError:
                line = None
            rest = "" if line is None else self.forced_rest(line, st.done)
            cur = st
            for t in self.encode(rest) if rest else ():
                cur = self._advance_memo(cur, t)
                if cur is None:
                    break
                out.append(t)
        self._forced_memo[st] = out
        return out

    def must_end(self, st: State) -> bool:
        """Only ``<|eos|>`` can follow (chart: its one statement written; repair: every requested
        component written): the engine then stops without a forward to be told so."""
        return self.can_end(st) and not self.more_lines(st.done)

    def advance(self, st: State, token: int) -> State | None:
        """The state after ``token``, or None if no valid answer starts this way (where text is forced,
        only its first token in ``encode``'s tokenization: :meth:`forced`).

        Memoised on (state, token): a round asks the same question up to three times (cutting
        the drafts, verifying them, drafting the next round from the mask block)."""
        if self.force_tokenization:
            f = self._forced_ids(st)
            if f and token != f[0]:
                return None
        return self._advance_memo(st, token)

    def _advance_memo(self, st: State, token: int) -> State | None:
        key = (st, token)
        if key not in self._memo:
            self._memo[key] = self._advance(st, token)
        return self._memo[key]

    def candidates(self, st: State) -> list[int]:
        """A superset of the tokens :meth:`advance` allows after ``st``, found without trying the
        whole vocabulary: the tokens whose bytes keep the line a valid prefix, read off the
        vocabulary sorted by bytes (:class:`~crafter.llm.constrain.tokens.ByteVocab`), plus the end
        token. The engine asks for it only where none of the best-scoring tokens is allowed
        (memoised per state)."""
        hit = self._cands_memo.get(st)
        if hit is None:
            f = self._forced_ids(st) if self.force_tokenization else None
            if f:
                hit = [f[0]]
            else:
                hit = _vocab(self.token_bytes).walk(lambda b: self._feed(st, b) is not None) + [self.eos_id]
            self._cands_memo[st] = hit
        return hit

    def _advance(self, st: State, token: int) -> State | None:
        if token == self.eos_id:
            return st if self.can_end(st) else None
        tb = self.token_bytes[token] if 0 <= token < len(self.token_bytes) else b""
        if not tb:
            return None  # special tokens
        return self._feed(st, tb)

    def _feed(self, st: State, tb: bytes) -> State | None:
        """The state after the bytes ``tb`` (a token's, or a prefix of one), or None."""
        buf = st.line + tb
        done = st.done
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            try:
                text = line.decode("utf-8")
            except UnicodeDecodeError:
                return None
            stmt = self.scan(text, done, final=True)
            if stmt is None:
                return None
            done = self._commit(done, stmt)
        try:
            text = buf.decode("utf-8")
        except UnicodeDecodeError as exc:
            if exc.end != len(buf) or len(buf) - exc.start > 3:
                return None  # not just a character cut short by the token boundary
            # a character cut short by the token boundary: some character of the prompt must
            # start with these bytes and be allowed here
            head, tail = buf[: exc.start].decode("utf-8"), buf[exc.start:]
            if not any(ch.encode().startswith(tail) and self.scan(head + ch, done, final=False) is not None
                       for ch in self.wide_chars):
                return None
            return State(done, buf)
        if text and self.scan(text, done, final=False) is None:
            return None
        return State(done, buf)

    def _commit(self, done: Committed, stmt: Statement) -> Committed:
        n, e, g = done.counts
        if stmt.kind == "node":
            return replace(done, lines=done.lines + 1, nodes=done.nodes + (stmt.id,),
                           node_labels=done.node_labels + (stmt.label.lower(),),
                           labels=done.labels | {stmt.label.lower()}, counts=(n + 1, e, g),
                           written=done.written | {stmt.id})
        if stmt.kind == "edge":
            return replace(done, lines=done.lines + 1, edges=done.edges | {(stmt.source, stmt.target)},
                           counts=(n, e + 1, g), written=done.written | {stmt.id})
        if stmt.kind in ("group", "panel"):
            return replace(done, lines=done.lines + 1, counts=(n, e, g + 1), written=done.written | {stmt.id},
                           grouped=done.grouped | set(stmt.members), panels=done.panels + (stmt.kind == "panel"),
                           groups=done.groups + (stmt.id,),
                           group_labels=done.group_labels | {(stmt.label or "").lower()})
        return replace(done, lines=done.lines + 1, written=done.written | {stmt.id})
