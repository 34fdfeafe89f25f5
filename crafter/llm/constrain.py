"""Constrained decoding: CraftLM may only write answers that are valid DSL for its task.

A small model's free-running errors compound: one wrong token ("n4fnode") and the rest
of the answer is garbage; a label copied twice and it keeps copying it. Here the verifier
picks, at every position, the highest-scoring token that keeps the answer a *valid
prefix* (the approach of grammar-constrained decoding in llama.cpp, Outlines, XGrammar),
with the rules of the task on top of the DSL's grammar:

* every line is one statement of the kinds the task writes (plan: ``figure``, ``node``,
  ``edge``, ``group``; chart: one ``chart``; repair: the components it was asked for,
  each once, of the kind it has in the figure);
* ids are numbered in order (``n1 n2 …``, ``e1 …``, ``g1 …``) and edges and groups name
  nodes that exist; no self-loops, no repeated edge, no repeated node label;
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
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, replace

from crafter.charts.compile.chart import SUPPORTED_MARKS
from crafter.errors import SpecError
from crafter.llm.corpus import shape_for
from crafter.llm.prompts import SPECIAL_TOKENS, repair_parts
from crafter.spec import parse_component
from crafter.spec.colors import CSS_COLOR_NAMES, is_color
from crafter.spec.model import SHAPES

ARROWS = ("->", "<-", "<->", "--")
DASH_STYLES = ("solid", "dashed", "dotted")
_MARKER = re.compile(r"<\|[a-z]+\|>")
_IDCHARS = re.compile(r"[A-Za-z0-9_]")


_ATTR = re.compile(r' ([a-z_]+)=("(?:[^"\\]|\\.)*"|\[[^\]]*\]|\{.*?\}(?= [a-z_]+=|$)|[^\s"\[\]{}]+)')
# capitalised words that start a new sentence part rather than continue a name
_NAME_BREAKS = frozenset(("the a an our its their this that these those we it is are then and or "
                          "step stage phase part move item task level figure fig caption title diagram panel "
                          "scheme chart plate heading").split())
_TYPES = frozenset({"quantitative", "nominal", "ordinal", "temporal"})
_COLUMN = re.compile(r"([^\s,:]+) \((" + "|".join(sorted(_TYPES)) + r")\)")  # "loss (quantitative)" in a schema
_QUOTE = re.compile(r'"([^"\n]+)"')
_DASH_WORDS = re.compile(r"\b(?:dash(?:es|ed)?|dotted|optional(?:ly)?)\b", re.I)
_CHANNELS = ("x", "y", "color")  # what the corpus' charts encode, in the order it writes them
_COLOUR_WORDS = CSS_COLOR_NAMES | {"none"}


_FUNCTION_WORDS = frozenset("a an the of by per on in to and or for with as at".split())


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


def plan_shape(label: str) -> str | None:
    """The shape a plan writes for a node of this label (the corpus' convention: a decision ending in
    "?" is a diamond, a storage noun a cylinder), None for the default box."""
    shape = shape_for(label)
    return None if shape == "box" else shape


class _End(Exception):
    """The input ended inside a statement that can still be completed (``expect``: the text every
    completion goes on with, where the scanner knows it)."""

    def __init__(self, expect: str = "") -> None:
        super().__init__(expect)
        self.expect = expect


class _Bad(Exception):
    """No completion of the input is a valid statement."""


# ---------------------------------------------------------------------------------
# Prompt words: what labels may be
# ---------------------------------------------------------------------------------


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


def token_bytes(tokenizer) -> list[bytes]:
    """The bytes each token id stands for (byte-level BPE); special tokens map to ``b""``."""
    byte_of = {c: b for b, c in _bytes_to_unicode().items()}
    tok = tokenizer.tok
    out = []
    for i in range(tok.get_vocab_size()):
        piece = tok.id_to_token(i)
        if piece is None or piece in SPECIAL_TOKENS:
            out.append(b"")
        else:
            out.append(bytes(byte_of[c] for c in piece))
    return out


def _bytes_to_unicode() -> dict[int, str]:
    """GPT-2's byte -> printable character table, which byte-level BPE pieces are written in."""
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return dict(zip(bs, map(chr, cs)))


# ---------------------------------------------------------------------------------
# State
# ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Committed:
    """What the finished lines have defined."""

    lines: int = 0
    nodes: tuple[str, ...] = ()  # node ids defined by the answer, in order
    node_labels: tuple[str, ...] = ()  # their lower-case labels, in the same order
    labels: frozenset = frozenset()  # lower-case node labels used
    edges: frozenset = frozenset()  # (source, target) pairs
    counts: tuple[int, int, int] = (0, 0, 0)  # nodes, edges, groups written
    written: frozenset = frozenset()  # ids written (repair: each requested id once)
    grouped: frozenset = frozenset()  # plan: nodes already in a group (a node sits in one group)
    group_labels: frozenset = frozenset()  # plan: lower-case group labels used


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: the memo below is keyed on it
class State:
    done: Committed = field(default_factory=Committed)
    line: bytes = b""  # the unfinished line (raw bytes: a token may end inside a character)


# ---------------------------------------------------------------------------------
# Scanning one line
# ---------------------------------------------------------------------------------


class _Line:
    def __init__(self, s: str) -> None:
        self.s, self.i = s, 0

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
            raise _End(t[len(r):])
        raise _Bad

    def choice(self, options) -> str:
        """One of ``options`` (longest match first), followed by a non-id character or the end."""
        r = self.rest()
        for o in sorted(options, key=len, reverse=True):
            if r.startswith(o) and (len(r) == len(o) or not _IDCHARS.match(r[len(o)])):
                if len(r) == len(o) and any(p != o and p.startswith(o) for p in options):
                    raise _End  # "n1" could still become "n12"
                self.i += len(o)
                return o
        going = [o for o in options if o.startswith(r)]
        if going:
            raise _End(os.path.commonprefix(going)[len(r):])
        raise _Bad

    def optional_string(self, check_prefix, check_full, *, more: bool) -> str | None:
        """An optional `` "…"`` here (an edge's label, a chart's title), else None; ``more``: what may
        follow instead starts with a space too (so a lone space leaves both open)."""
        r = self.rest()
        if r == " ":
            raise _End("" if more else '"')
        if r.startswith(' "'):
            self.i += 1
            return self.string(check_prefix, check_full)
        return None

    def string(self, check_prefix, check_full) -> str:
        self.lit('"')
        j = self.s.find('"', self.i)
        body = self.s[self.i:] if j < 0 else self.s[self.i:j]
        if "\\" in body:
            raise _Bad
        if j < 0:
            if not check_prefix(body):
                raise _Bad
            raise _End
        if not check_full(body):
            raise _Bad
        self.i = j + 1
        return body


@dataclass
class Statement:
    id: str
    kind: str
    label: str | None = None
    source: str | None = None
    target: str | None = None
    members: tuple[str, ...] = ()


class DSLConstraint:
    """The valid answers for one task and prompt. ``tokenizer`` supplies the token bytes."""

    def __init__(self, task: str, prompt: str, token_bytes: list[bytes], eos_id: int,
                 names: dict[str, list[str]] | None = None, encode=None, lines: list[str] | None = None) -> None:
        """names (plan): the name head's reading of the brief (:mod:`crafter.llm.names`). Where it
        found at least two node names, labels must be its names of their kind (no group or edge label
        where it read none), an edge must join two names it linked, and the answer ends only once
        every name is a node and every link between two nodes an edge; else any span of the brief.
        encode (text -> token ids): lets :meth:`forced` give jump-forward drafts.
        lines (repair of one component): the edit head's reading of the instruction
        (:mod:`crafter.llm.edits`) — the answer must be one of these lines."""
        self.task = task
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
            self.links = frozenset(map(tuple, names.get("links") or ())) or None
        self.wide_chars = sorted({c for c in text if ord(c) > 127})
        self.dash_said = bool(_DASH_WORDS.search(text))
        self._memo: dict[tuple[State, int], State | None] = {}
        self._forced_memo: dict[State, list[int]] = {}
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
                self.lines = tuple(o for o in self.lines if isinstance(self._scan(o, Committed(), True), Statement))
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

    def can_end(self, st: State) -> bool:
        d = st.done
        if st.line or d.lines == 0:
            return False
        if self.task == "repair":
            return set(self.requested) <= d.written
        if self.task == "plan":
            # where the name head read the brief: every name it read is a node, every link it read
            # between two nodes an edge, before the answer may end
            if isinstance(self.node_names, Names) and self.node_names.has_unused(d.labels):
                return False
            return d.counts[0] > 0 and (self.links is None or not self._link_options(d))
        return True

    _LABEL_OPEN = re.compile(r'(n|g)\d+ (?:node|group) "([^"]*)')
    _EDGE_OPEN = re.compile(r"e\d+ edge (?:(n\d+)(?: (?:-(?:> ?)?)?)?)?")
    _KIND_TEXT = {"node": ' node "', "edge": " edge ", "group": ' group "'}
    _TITLE_OPEN = re.compile(r'figure "([^"]*)')

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
            rest = ("" if line is None else self._forced_line(line, st.done) if self.lines
                    else self._forced_scan(line, st.done) if self.task == "chart"
                    else self._forced_text(line, st.done))
            cur = st
            for t in self.encode(rest) if rest else ():
                cur = self._advance_memo(cur, t)
                if cur is None:
                    break
                out.append(t)
        self._forced_memo[st] = out
        return out

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
        if not line:  # a new line: forced where one id may start it and the answer may not end here
            ids = self._ids(done)
            if len(ids) != 1 or self.can_end(State(done)):
                return ""
            (i, kind), = ids.items()
            head = i + self._KIND_TEXT[kind]
            return head + self._forced_text(head, done)
        if line and line[0] in "neg" and line[1:].isdigit() or line in ("n", "e", "g"):
            ids = [(i, k) for i, k in self._ids(done).items() if i.startswith(line)]
            if len(ids) != 1:
                return ""
            i, kind = ids[0]
            head = i[len(line):] + self._KIND_TEXT[kind]
            return head + self._forced_text(line + head, done)
        m = self._LABEL_OPEN.fullmatch(line)
        if m:
            names, used = ((self.node_names, done.labels) if m.group(1) == "n"
                           else (self.group_names, done.group_labels))
            options = {n for n in names.names if n.startswith(m.group(2)) and n.lower() not in used}
            return options.pop()[len(m.group(2)):] + '"' if len(options) == 1 else ""
        m = self._EDGE_OPEN.fullmatch(line)
        if m:
            links = self._link_options(done)
            if m.group(1) is None:  # "e3 edge ": no source yet
                return next(iter(links)) + " -> " + self._one(links[next(iter(links))]) if len(links) == 1 else ""
            src = m.group(1)
            if src not in links or any(o != src and o.startswith(src) for o in links):
                return ""
            typed = line[line.index(src) + len(src):]
            return " -> "[len(typed):] + self._one(links[src]) if " -> ".startswith(typed) else ""
        return self._forced_scan(line, done)

    @staticmethod
    def _one(options: list[str]) -> str:
        return options[0] if len(options) == 1 else ""

    def must_end(self, st: State) -> bool:
        """Only ``<|eos|>`` can follow (chart: its one statement written; repair: every requested
        component written): the engine then stops without a forward to be told so."""
        return self.can_end(st) and not self._ids(st.done)

    def advance(self, st: State, token: int) -> State | None:
        """The state after ``token``, or None if no valid answer starts this way (where text is forced,
        only its first token in ``encode``'s tokenization: :meth:`forced`).

        Memoised on (state, token): a round asks the same question up to three times (cutting
        the drafts, verifying them, drafting the next round from the mask block)."""
        f = self._forced_ids(st)
        if f and token != f[0]:
            return None
        return self._advance_memo(st, token)

    def _advance_memo(self, st: State, token: int) -> State | None:
        key = (st, token)
        if key not in self._memo:
            self._memo[key] = self._advance(st, token)
        return self._memo[key]

    def _advance(self, st: State, token: int) -> State | None:
        if token == self.eos_id:
            return st if self.can_end(st) else None
        tb = self.token_bytes[token]
        if not tb:
            return None  # special tokens
        buf = st.line + tb
        done = st.done
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            try:
                text = line.decode("utf-8")
            except UnicodeDecodeError:
                return None
            stmt = self._scan(text, done, final=True)
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
            if not any(ch.encode().startswith(tail) and self._scan(head + ch, done, final=False) is not None
                       for ch in self.wide_chars):
                return None
            return State(done, buf)
        if text and self._scan(text, done, final=False) is None:
            return None
        return State(done, buf)

    # ---- one line --------------------------------------------------------------

    def _ids(self, done: Committed) -> dict[str, str]:
        """Ids a new line may start with -> the kind they must be."""
        if self.task == "plan":
            n, e, g = done.counts
            out = {f"n{n + 1}": "node"} if self.node_names.has_unused(done.labels) else {}
            if n >= 1 and len(done.grouped) < n and self.group_names.has_unused(done.group_labels):
                out[f"g{g + 1}"] = "group"
            if n >= 2 and self._link_options(done):
                out[f"e{e + 1}"] = "edge"
            return out
        if self.task == "chart":
            return {} if done.written else {"c1": "chart"}
        return {i: self.figure_kinds.get(i, "") for i in self.requested if i not in done.written}

    def _link_options(self, done: Committed) -> dict[str, list[str]]:
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

    def _node_ids(self, done: Committed) -> tuple[str, ...]:
        if self.task == "repair":
            return tuple(i for i, k in self.figure_kinds.items() if k == "node")
        return done.nodes

    def _scan(self, text: str, done: Committed, final: bool) -> Statement | str | None:
        """A finished statement (final) / "prefix" for a valid unfinished line / None if invalid."""
        if self.lines and not (text in self.lines if final else any(o.startswith(text) for o in self.lines)):
            return None
        ln = _Line(text)
        try:
            stmt = self._statement(ln, done)
        except _End:
            return None if final else "prefix"
        except _Bad:
            return None
        return stmt

    def _statement(self, ln: _Line, done: Committed):
        ids = self._ids(done)
        starts = list(ids) + (["figure"] if self.task == "plan" and done.lines == 0 else [])
        if self.task == "plan" and done.lines == 0 and isinstance(self.titles, Names):
            starts = ["figure"] if self.titles.names else list(ids)
        if not starts:
            raise _Bad
        head = ln.choice(starts)
        if head == "figure":
            ln.lit(" ")
            title = ln.string(self.titles.prefix_ok, self.titles.full_ok)
            return self._close(ln, Statement("figure", "figure", title), {})
        kind = ids[head]
        ln.lit(" ")
        ln.choice([kind] if kind else ["node", "edge", "group", "text", "chart", "panel", "path", "image"])
        kind = kind or ln.s.split()[1]
        if kind == "node":
            return self._node(ln, head, done)
        if kind == "edge":
            return self._edge(ln, head, done)
        if kind == "group":
            return self._group(ln, head, done)
        if kind == "chart":
            return self._chart(ln, head)
        return self._free(ln, head, kind)

    @staticmethod
    def _free(ln: _Line, cid: str, kind: str) -> Statement:
        """A kind the model is not trained to write (a repair of a text, panel, path or image):
        any line that parses as that component once it is finished."""
        try:
            c = parse_component(ln.s)
        except SpecError:
            raise _End from None  # the line ending checks it (a finished line must parse)
        if c.id != cid or c.kind != kind:
            raise _Bad
        ln.i = len(ln.s)
        return Statement(cid, kind)

    def _node(self, ln: _Line, nid: str, done: Committed):
        ln.lit(" ")
        # repair: not another node's label (the decoder renamed "Decoder" to the next node's "Output head")
        used = done.labels if self.task != "repair" else self.other_labels.get(nid, frozenset())

        spans = self.node_names

        def full(s: str) -> bool:
            return spans.full_ok(s) and s.lower() not in used

        label = ln.string(lambda p: spans.prefix_ok(p, used), full)
        stmt = Statement(nid, "node", label)
        if self.task == "plan":  # the corpus' one node attribute: a shape its label implies, always written
            shape = plan_shape(label)
            if shape:
                ln.lit(f" shape={shape}")
            if not ln.at_end():
                raise _Bad
            return stmt
        return self._close(ln, stmt, {**self.kept_attrs.get(nid, {}), "shape": SHAPES, "fill": "colour",
                                      "bold": ("true", "false")})

    def _edge(self, ln: _Line, eid: str, done: Committed):
        ln.lit(" ")
        options = self._link_options(done)
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

    def _group(self, ln: _Line, gid: str, done: Committed):
        ln.lit(" ")
        used = done.group_labels

        def full(s: str) -> bool:
            return self.group_names.full_ok(s) and s.lower() not in used

        label = ln.string(lambda p: self.group_names.prefix_ok(p, used), full)
        ln.lit(" [")
        nodes = self._node_ids(done)
        members: list[str] = []
        free = [x for x in nodes if x not in done.grouped]
        while True:
            members.append(ln.choice([x for x in free if x not in members]))
            if ln.rest().startswith("]") or len(members) == len(free):  # no node left: the list closes
                ln.lit("]")
                return self._close(ln, Statement(gid, "group", label, members=tuple(members)), {})
            ln.lit(", ")

    def _chart(self, ln: _Line, cid: str):
        """``c1 chart ["title"] spec={...}``: the spec as the corpus writes it (compact JSON: a mark,
        then x, y and an optional color, each a column of the table with the type the schema gives
        it, no column twice; where the request names two columns or more, exactly those). A title
        the request quotes is the title, whole."""
        r = ln.rest()
        if self.quoted:
            ln.lit(' "')
            ln.choice([q + '"' for q in self.quoted])
        elif not r:  # a title or the spec: a space either way
            raise _End(" ")
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
                    raise _End("}}" if not left else "," if need else "")
                if not left or not ln.rest().startswith(","):
                    if need:
                        raise _Bad  # a column the request names is not encoded
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
            raise _Bad
        return Statement(cid, "chart")

    def _forced_scan(self, line: str, done: Committed) -> str:
        """The text every valid continuation of a line goes on with, as the scanner knows it (a chart's
        JSON between its choices, a field's type, a plan node's one shape), and the line's end where
        nothing else may follow on it."""
        text = ""
        for _ in range(16):
            try:
                self._statement(_Line(line + text), done)
            except _End as e:
                if not e.expect:
                    return text
                text += e.expect
                continue
            except _Bad:
                return text
            try:  # finished: may anything follow on the line?
                self._statement(_Line(line + text + " "), done)
            except _Bad:
                return text + "\n"
            except _End:
                pass
            return text
        return text

    def _close(self, ln: _Line, stmt: Statement, attrs: dict):
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
    def _colour(ln: _Line, kept: tuple[str, ...] = ()) -> None:
        """A colour the spec accepts (:func:`crafter.spec.colors.is_color`), or the start of one. Names
        in lower case, as CSS writes them (the spec reads any case, and the model wrote "tomAto"),
        unless the component already has that value (``kept``)."""
        v = re.match(r"[#A-Za-z0-9]*", ln.rest()).group(0)
        ln.i += len(v)
        if v in kept or (is_color(v) and (v.startswith("#") or v.islower())):
            return
        if ln.at_end() and (re.fullmatch(r"#[0-9a-fA-F]{0,7}", v) or any(c.startswith(v) for c in _COLOUR_WORDS)
                            or any(c.startswith(v) for c in kept)):
            raise _End
        raise _Bad

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
        if stmt.kind == "group":
            return replace(done, lines=done.lines + 1, counts=(n, e, g + 1), written=done.written | {stmt.id},
                           grouped=done.grouped | set(stmt.members),
                           group_labels=done.group_labels | {(stmt.label or "").lower()})
        return replace(done, lines=done.lines + 1, written=done.written | {stmt.id})
