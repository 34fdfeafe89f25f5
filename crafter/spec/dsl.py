"""The FigureSpec DSL: one statement per component, ids first, quoted labels, key=value.

```
# An encoder-decoder (comments start with '#')
figure "Autoencoder" direction=LR theme=paper
enc  node "Encoder" shape=round fill=#dbe9f6
z    node "Latent z" shape=circle
dec  node "Decoder" shape=round
e1   edge enc -> z "compress"
e2   edge z -> dec
skip edge enc -> dec style=dashed
g    group "Autoencoder" [enc, z, dec] style=dashed
n1   text "frozen" near=enc side=above
```

Grammar (a statement ends at a newline outside brackets)::

    statement := 'figure' STRING? attr*
               | ID KIND positional* attr*
               | ID ARROW ID STRING? attr*          # edge shorthand, id given
    node      := STRING?                              # label
    edge      := ID ARROW ID STRING?                  # ARROW: -> <- <-> --
    group     := STRING? LIST?                        # label, members
    panel     := STRING? LIST?
    text      := STRING
    path      := STRING                               # SVG path data
    image     := STRING                               # data: URI
    chart     := STRING?                              # title; the rest are attributes
    attr      := KEY '=' value
    value     := STRING | LIST | JSON | BARE          # BARE: no spaces, quotes or brackets

Geometry values are comma-separated numbers: ``box=10,20,120,40``, ``at=5,5``,
``route=0,0;40,0;40,30``. ``print_dsl`` is deterministic and ``parse_dsl(print_dsl(f)) == f``.
"""

from __future__ import annotations

import json
import re
import types
import typing
from dataclasses import dataclass
from typing import Any, Literal, get_args, get_origin

from pydantic import BaseModel, ValidationError

from crafter.errors import DSLSyntaxError, InputError, SpecError
from crafter.spec.chart_shorthand import (
    KEYS,
    ShorthandError,
    join_data,
    shorthand_from_spec,
    spec_from_shorthand,
    split_data,
)
from crafter.spec.model import (
    COMPONENT_TYPES,
    ID_PATTERN,
    KINDS,
    Box,
    Component,
    Edge,
    Figure,
    Point,
    Size,
    check_references,
    figure_from_data,
    spec_error_from_validation,
)

# ---------------------------------------------------------------------------------
# Lexer
# ---------------------------------------------------------------------------------

ARROWS = {"->": ("none", "arrow"), "<-": ("arrow", "none"), "<->": ("arrow", "arrow"), "--": ("none", "none")}
# (tail, head) -> arrow token, for the printer
_ARROW_FOR = {v: k for k, v in ARROWS.items()}


@dataclass(frozen=True)
class Token:
    type: str  # STRING, WORD, ARROW, EQ, LIST, JSON, NEWLINE, EOF
    value: Any
    line: int
    column: int
    text: str  # the source text, for error messages


_WORD = re.compile(r"[^\s\"\[\]{}=]+")
_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "r": "\r"}


class _Lexer:
    def __init__(self, text: str, file: str | None) -> None:
        self.text = text
        self.file = file
        self.pos = 0
        self.line = 1
        self.col = 1

    def error(self, msg: str, line: int | None = None, col: int | None = None) -> DSLSyntaxError:
        return DSLSyntaxError(msg, line=line or self.line, column=col or self.col, file=self.file)

    def _advance(self, n: int) -> str:
        s = self.text[self.pos:self.pos + n]
        for ch in s:
            if ch == "\n":
                self.line += 1
                self.col = 1
            else:
                self.col += 1
        self.pos += n
        return s

    def tokens(self) -> list[Token]:
        out: list[Token] = []
        text = self.text
        after_eq = False
        while self.pos < len(text):
            ch = text[self.pos]
            line, col = self.line, self.col
            if ch == "\n":
                self._advance(1)
                out.append(Token("NEWLINE", "\n", line, col, "end of line"))
                after_eq = False
                continue
            if ch in " \t\r\ufeff":
                self._advance(1)
                continue
            if ch == "#" and not after_eq:
                # a comment runs to the end of the line; '#' right after '=' is a colour
                end = text.find("\n", self.pos)
                self._advance((len(text) if end < 0 else end) - self.pos)
                continue
            if ch == '"':
                out.append(Token("STRING", self._string(), line, col, text[self.pos - 1:self.pos] and "string"))
                after_eq = False
                continue
            if ch == "[":
                out.append(self._list(line, col))
                after_eq = False
                continue
            if ch == "{":
                out.append(self._json(line, col))
                after_eq = False
                continue
            if ch == "=":
                self._advance(1)
                out.append(Token("EQ", "=", line, col, "'='"))
                after_eq = True
                continue
            for arrow in ("<->", "->", "<-", "--"):
                if text.startswith(arrow, self.pos) and not after_eq:
                    self._advance(len(arrow))
                    out.append(Token("ARROW", arrow, line, col, f"'{arrow}'"))
                    break
            else:
                m = _WORD.match(text, self.pos)
                if not m:
                    raise self.error(f"unexpected character {ch!r}")
                word = m.group(0)
                if not after_eq:
                    # an arrow glued to a word: 'a->b'
                    cut = min((i for i in (word.find("->"), word.find("<-"), word.find("--")) if i > 0), default=-1)
                    if cut > 0:
                        word = word[:cut]
                self._advance(len(word))
                out.append(Token("WORD", word, line, col, f"'{word}'"))
                after_eq = False
        out.append(Token("NEWLINE", "\n", self.line, self.col, "end of file"))
        out.append(Token("EOF", None, self.line, self.col, "end of file"))
        return out

    def _string(self) -> str:
        start_line, start_col = self.line, self.col
        self._advance(1)
        buf: list[str] = []
        text = self.text
        while True:
            if self.pos >= len(text) or text[self.pos] == "\n":
                raise self.error("unterminated string: expected a closing '\"'", start_line, start_col)
            ch = text[self.pos]
            if ch == '"':
                self._advance(1)
                return "".join(buf)
            if ch == "\\":
                nxt = text[self.pos + 1:self.pos + 2]
                if nxt in _ESCAPES:
                    buf.append(_ESCAPES[nxt])
                    self._advance(2)
                    continue
                if nxt == "u" and re.match(r"[0-9a-fA-F]{4}", text[self.pos + 2:self.pos + 6]):
                    buf.append(chr(int(text[self.pos + 2:self.pos + 6], 16)))
                    self._advance(6)
                    continue
                raise self.error(f"unknown escape '\\{nxt}' in string (use \\n, \\t, \\\", \\\\ or \\uXXXX)")
            buf.append(ch)
            self._advance(1)

    def _list(self, line: int, col: int) -> Token:
        end = self.text.find("]", self.pos)
        if end < 0:
            raise self.error("unterminated list: expected ']'", line, col)
        inner = self.text[self.pos + 1:end]
        items = [s.strip() for s in inner.replace("\n", " ").split(",")]
        if items == [""]:
            items = []
        for item in items:
            if not item:
                raise self.error("empty item in list: expected an id between commas", line, col)
            if not re.fullmatch(ID_PATTERN, item):
                raise self.error(f"found {item!r} in a list, expected a component id", line, col)
        raw = self.text[self.pos:end + 1]
        self._advance(end + 1 - self.pos)
        return Token("LIST", items, line, col, raw)

    def _json(self, line: int, col: int) -> Token:
        decoder = json.JSONDecoder()
        try:
            value, end = decoder.raw_decode(self.text, self.pos)
        except json.JSONDecodeError as e:
            # report the JSON error at its own line/column
            prefix = self.text[:e.pos]
            eline = prefix.count("\n") + 1
            ecol = e.pos - (prefix.rfind("\n") + 1) + 1
            raise DSLSyntaxError(f"invalid JSON value: {e.msg}", line=eline, column=ecol, file=self.file) from None
        self._advance(end - self.pos)
        return Token("JSON", value, line, col, "a JSON object")


# ---------------------------------------------------------------------------------
# Value codecs: DSL text <-> field values, chosen by the model's field annotation
# ---------------------------------------------------------------------------------


def _numbers(text: str, n: int | None, what: str) -> list[float]:
    try:
        vals = [float(p) for p in text.split(",")]
    except ValueError:
        raise ValueError(f"expected {what} as comma-separated numbers, found '{text}'") from None
    if n is not None and len(vals) != n:
        raise ValueError(f"expected {n} numbers for {what}, found {len(vals)}")
    return vals


def _fmt_num(v: float) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int) or (isinstance(v, float) and v.is_integer() and abs(v) < 1e15):
        return str(int(v))
    return repr(float(v))


def _strip_optional(annotation: Any) -> Any:
    if get_origin(annotation) in (typing.Union, types.UnionType):
        args = [a for a in get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return annotation


def _decode(annotation: Any, tok: Token) -> Any:
    """Turn a value token into the python value the field expects."""
    ann = _strip_optional(annotation)
    origin = get_origin(ann)
    if tok.type == "JSON":
        return tok.value
    if tok.type == "LIST":
        return list(tok.value)
    text = tok.value
    if tok.type == "STRING":
        if ann in (str, Any) or origin is Literal:
            return text
        # numbers and geometry may be quoted too
    if ann is Box:
        x, y, w, h = _numbers(text, 4, "a box (x,y,w,h)")
        return Box(x=x, y=y, w=w, h=h)
    if ann is Point:
        x, y = _numbers(text, 2, "a point (x,y)")
        return Point(x=x, y=y)
    if ann is Size:
        w, h = _numbers(text, 2, "a size (w,h)")
        return Size(w=w, h=h)
    if origin is list and get_args(ann) and get_args(ann)[0] is Point:
        pts = []
        for part in text.split(";"):
            x, y = _numbers(part, 2, "route points (x,y;x,y;...)")
            pts.append(Point(x=x, y=y))
        return pts
    if ann is bool:
        if text in ("true", "yes", "on"):
            return True
        if text in ("false", "no", "off"):
            return False
        raise ValueError(f"expected true or false, found '{text}'")
    if ann in (float, int):
        try:
            return ann(float(text)) if ann is int else float(text)
        except ValueError:
            raise ValueError(f"expected a number, found '{text}'") from None
    return text


def _encode(value: Any) -> str:
    """A field value as DSL text (the inverse of :func:`_decode`)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return _fmt_num(value)
    if isinstance(value, Box):
        return ",".join(_fmt_num(v) for v in (value.x, value.y, value.w, value.h))
    if isinstance(value, Point):
        return f"{_fmt_num(value.x)},{_fmt_num(value.y)}"
    if isinstance(value, Size):
        return f"{_fmt_num(value.w)},{_fmt_num(value.h)}"
    if isinstance(value, list) and value and isinstance(value[0], Point):
        return ";".join(f"{_fmt_num(p.x)},{_fmt_num(p.y)}" for p in value)
    if isinstance(value, list):
        return "[" + ", ".join(value) + "]"
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=False)
    if isinstance(value, BaseModel):  # a nested model (the figure's style layer): its set fields as JSON
        return _encode(value.model_dump(mode="json", exclude_none=True))
    if isinstance(value, str):
        return quote_if_needed(value)
    raise TypeError(f"cannot print {value!r}")


_BARE_OK = re.compile(r"^[A-Za-z0-9_#.,;+%/:()\-]+$")


def quote(text: str) -> str:
    out = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t").replace("\r", "\\r")
    return f'"{out}"'


def quote_if_needed(text: str) -> str:
    if _BARE_OK.fullmatch(text) and not any(text.startswith(a) for a in ARROWS) and not text.startswith("#"):
        return text
    if _BARE_OK.fullmatch(text) and text.startswith("#"):
        return text  # colours: '#' right after '=' is not a comment
    return quote(text)


# ---------------------------------------------------------------------------------
# Statement shapes: which positional arguments each kind takes
# ---------------------------------------------------------------------------------

# kind -> ordered positional fields. A STRING positional fills the first string slot,
# a LIST fills 'members'.
_POSITIONAL: dict[str, tuple[str, ...]] = {
    "node": ("label",),
    "group": ("label", "members"),
    "panel": ("label", "members"),
    "text": ("text",),
    "path": ("d",),
    "image": ("href",),
    "chart": ("title",),
    "edge": ("label",),
}
_FIGURE_FIELDS = {name for name in Figure.model_fields if name != "components"}


class _Parser:
    def __init__(self, tokens: list[Token], file: str | None) -> None:
        self.toks = tokens
        self.i = 0
        self.file = file

    def peek(self, k: int = 0) -> Token:
        return self.toks[min(self.i + k, len(self.toks) - 1)]

    def next(self) -> Token:
        t = self.toks[self.i]
        self.i += 1
        return t

    def error(self, tok: Token, expected: str, **kw: Any) -> DSLSyntaxError:
        return DSLSyntaxError(f"found {tok.text}, expected {expected}", line=tok.line, column=tok.column,
                              file=self.file, **kw)

    def parse(self) -> Figure:
        header: dict[str, Any] = {}
        header_seen = False
        comps: list[tuple[dict[str, Any], Token]] = []
        while self.peek().type != "EOF":
            tok = self.peek()
            if tok.type == "NEWLINE":
                self.next()
                continue
            if tok.type == "WORD" and tok.value == "figure" and (
                self.peek(1).type in ("STRING", "NEWLINE")
                or (self.peek(1).type == "WORD" and self.peek(2).type == "EQ")
            ):
                if header_seen:
                    raise DSLSyntaxError("a second 'figure' statement; put every figure attribute on one line",
                                         line=tok.line, column=tok.column, file=self.file)
                if comps:
                    raise DSLSyntaxError("the 'figure' statement must come before any component",
                                         line=tok.line, column=tok.column, file=self.file)
                header_seen = True
                header = self.figure_statement()
            else:
                comps.append((self.component_statement(), tok))
        components = [self.build_component(fields, tok) for fields, tok in comps]
        try:
            fig = Figure(**header, components=components)
        except SpecError as e:
            raise e.located(file=self.file, line=_line_of(e.component, comps, last=e.field == "id")) from None
        except ValidationError as e:
            raise spec_error_from_validation(e, {}, file=self.file) from None
        return fig

    # -- statements ----------------------------------------------------------------
    def figure_statement(self) -> dict[str, Any]:
        self.next()  # 'figure'
        out: dict[str, Any] = {}
        if self.peek().type == "STRING":
            out["title"] = self.next().value
        for key, val_tok in self.attributes():
            if key not in _FIGURE_FIELDS:
                raise DSLSyntaxError(
                    f"unknown figure attribute '{key}'; expected one of {', '.join(sorted(_FIGURE_FIELDS))}",
                    line=val_tok.line, column=val_tok.column, file=self.file, field=key,
                )
            try:
                out[key] = _decode(Figure.model_fields[key].annotation, val_tok)
            except ValueError as e:
                raise DSLSyntaxError(str(e), line=val_tok.line, column=val_tok.column, file=self.file,
                                     field=key) from None
        return out

    def component_statement(self) -> dict[str, Any]:
        id_tok = self.next()
        if id_tok.type != "WORD":
            raise self.error(id_tok, "a component id at the start of a statement")
        fields: dict[str, Any] = {"id": id_tok.value, "_tok": id_tok}
        kind_tok = self.peek()
        if kind_tok.type == "ARROW":
            kind = "edge"  # 'e1 a -> b' is not allowed: the edge form is 'e1 edge a -> b'
            raise self.error(kind_tok, f"a kind after the id '{id_tok.value}' "
                             f"(write '{id_tok.value}_edge edge {id_tok.value} {kind_tok.value} ...')")
        if kind_tok.type != "WORD":
            raise self.error(kind_tok, f"a kind after the id ({', '.join(KINDS)})", component=id_tok.value)
        if kind_tok.value not in COMPONENT_TYPES:
            raise DSLSyntaxError(
                f"unknown kind '{kind_tok.value}'; expected one of {', '.join(KINDS)}",
                line=kind_tok.line, column=kind_tok.column, file=self.file, component=id_tok.value, field="kind",
            )
        self.next()
        kind = kind_tok.value
        fields["kind"] = kind
        if kind == "edge":
            src = self.next()
            if src.type != "WORD":
                raise self.error(src, "the source id of the edge", component=id_tok.value)
            arrow = self.next()
            if arrow.type != "ARROW":
                raise self.error(arrow, "an arrow (->, <-, <-> or --) between source and target",
                                 component=id_tok.value)
            tgt = self.next()
            if tgt.type != "WORD":
                raise self.error(tgt, "the target id of the edge", component=id_tok.value)
            fields["source"], fields["target"] = src.value, tgt.value
            fields["tail"], fields["head"] = ARROWS[arrow.value]
        positional = _POSITIONAL[kind]
        # positional order is fixed: the quoted string (label/text/d...) then the member list
        if positional[0] != "members" and self.peek().type == "STRING":
            fields[positional[0]] = self.next().value
        if "members" in positional and self.peek().type == "LIST":
            fields["members"] = self.next().value
        model = COMPONENT_TYPES[kind]
        for key, val_tok in self.attributes(component=id_tok.value):
            if kind == "chart" and key in _chart_keys() and key not in model.model_fields:
                # the readable chart statement: mark=bar x=model y=accuracy data={...} (crafter.spec.chart_shorthand)
                shorthand = fields.setdefault("_chart", {})
                if key in shorthand:
                    raise DSLSyntaxError(f"attribute '{key}' given twice", line=val_tok.line, column=val_tok.column,
                                         file=self.file, component=id_tok.value, field=key)
                if val_tok.type == "LIST":
                    raise DSLSyntaxError(f"'{key}' takes a word, a quoted string or a JSON object, not an id list",
                                         line=val_tok.line, column=val_tok.column, file=self.file,
                                         component=id_tok.value, field=key)
                shorthand[key] = val_tok.value
                fields.setdefault("_chart_tok", val_tok)
                continue
            if key in ("id", "kind") or key not in model.model_fields:
                allowed = sorted(k for k in model.model_fields if k not in ("id", "kind"))
                raise DSLSyntaxError(
                    f"unknown attribute '{key}' for a {kind}; expected one of {', '.join(allowed)}",
                    line=val_tok.line, column=val_tok.column, file=self.file, component=id_tok.value, field=key,
                )
            if key in fields and key not in ("head", "tail"):
                raise DSLSyntaxError(f"attribute '{key}' given twice", line=val_tok.line, column=val_tok.column,
                                     file=self.file, component=id_tok.value, field=key)
            try:
                fields[key] = _decode(model.model_fields[key].annotation, val_tok)
            except ValueError as e:
                raise DSLSyntaxError(str(e), line=val_tok.line, column=val_tok.column, file=self.file,
                                     component=id_tok.value, field=key) from None
            fields.setdefault("_pos", {})[key] = val_tok
        return fields

    def attributes(self, component: str | None = None) -> list[tuple[str, Token]]:
        out = []
        while True:
            t = self.peek()
            if t.type == "NEWLINE":
                self.next()
                return out
            if t.type != "WORD":
                raise self.error(t, "an attribute (key=value) or the end of the line", component=component)
            self.next()
            eq = self.peek()
            if eq.type != "EQ":
                raise self.error(eq, f"'=' after attribute name '{t.value}'", component=component, field=t.value)
            self.next()
            val = self.next()
            if val.type not in ("WORD", "STRING", "LIST", "JSON"):
                raise self.error(val, f"a value for '{t.value}'", component=component, field=t.value)
            out.append((t.value, Token(val.type, val.value, val.line, val.column, val.text)))

    def build_component(self, fields: dict[str, Any], tok: Token) -> Component:
        fields = dict(fields)
        id_tok = fields.pop("_tok")
        pos = fields.pop("_pos", {})
        shorthand, short_tok = fields.pop("_chart", None), fields.pop("_chart_tok", None)
        if shorthand is not None:
            if "spec" in fields and set(shorthand) != {"data"}:
                raise DSLSyntaxError("give either spec={...} (with data= if you like) or the chart attributes "
                                     "(mark=, x=, y=, data=...), not both", line=short_tok.line,
                                     column=short_tok.column, file=self.file, component=fields["id"], field="spec")
            try:
                if "spec" in fields:  # spec={...} data={"col": [...]}: the data kept apart, as columns
                    fields["spec"] = join_data(fields["spec"], shorthand["data"])
                else:
                    fields["spec"] = spec_from_shorthand(shorthand)
            except ShorthandError as e:
                raise DSLSyntaxError(str(e), line=short_tok.line, column=short_tok.column, file=self.file,
                                     component=fields["id"], field="spec") from None
        model = COMPONENT_TYPES[fields["kind"]]
        try:
            return model.model_validate(fields)
        except ValidationError as e:
            err = e.errors()[0]
            field = ".".join(str(p) for p in err["loc"] if not isinstance(p, int)) or None
            where = pos.get(field.split(".")[0]) if field else None
            msg = err["msg"]
            if msg.startswith("Value error, "):
                msg = msg[len("Value error, "):]
            if err["type"] == "missing":
                msg = f"a {fields['kind']} needs '{field}'"
            raise DSLSyntaxError(msg, line=(where or id_tok).line, column=(where or id_tok).column,
                                 file=self.file, component=fields["id"], field=field) from None


def _chart_keys() -> tuple[str, ...]:
    return KEYS


def _line_of(component: str | None, comps: list[tuple[dict[str, Any], Token]], last: bool = False) -> int | None:
    lines = [tok.line for fields, tok in comps if fields.get("id") == component]
    if not lines:
        return None
    return lines[-1] if last else lines[0]


# ---------------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------------


def parse_dsl(text: str, *, file: str | None = None) -> Figure:
    """Parse DSL text into a validated :class:`Figure`.

    Raises :class:`DSLSyntaxError` with line, column, what was found and what was
    expected, or :class:`SpecError` naming the component and field.
    """
    tokens = _Lexer(text, file).tokens()
    return _Parser(tokens, file).parse()


def print_dsl(fig: Figure) -> str:
    """The canonical DSL text of a figure (deterministic; ``parse_dsl`` inverts it)."""
    lines: list[str] = []
    head = ["figure"]
    if fig.title is not None:
        head.append(quote(fig.title))
    for name, field in Figure.model_fields.items():
        if name in ("components", "title"):
            continue
        value = getattr(fig, name)
        if value != field.get_default(call_default_factory=True):
            head.append(f"{name}={_encode(value)}")
    if len(head) > 1:
        lines.append(" ".join(head))
    for c in fig.components:
        lines.append(print_component(c))
    return "\n".join(lines) + "\n"


def print_component(c: Component) -> str:
    """One component as one DSL statement."""
    parts = [c.id, c.kind]
    skip = {"id", "kind"}
    if isinstance(c, Edge):
        parts += [c.source, _ARROW_FOR.get((c.tail, c.head), "--"), c.target]
        skip |= {"source", "target"}
        if (c.tail, c.head) in _ARROW_FOR:
            skip |= {"head", "tail"}
    positional = _POSITIONAL[c.kind]
    first = getattr(c, positional[0])
    if first is not None:
        parts.append(quote(first))
        skip.add(positional[0])
    if "members" in positional and c.members:
        parts.append(_encode(c.members))
        skip.add("members")
    model = type(c)
    if c.kind == "chart" and c.spec:
        shorthand = shorthand_from_spec(c.spec)
        split = split_data(c.spec) if shorthand is None else None
        if shorthand is not None:
            skip.add("spec")
            chart_attrs = [f"{k}={_encode(v)}" for k, v in shorthand.items()]
        elif split is not None:
            skip.add("spec")
            chart_attrs = [f"spec={_encode(split[0])}", f"data={_encode(split[1])}"]
    for name, field in model.model_fields.items():
        if name in skip:
            continue
        value = getattr(c, name)
        default = field.get_default(call_default_factory=True)
        if name in ("head", "tail") and isinstance(c, Edge) and (c.tail, c.head) not in _ARROW_FOR:
            # '--' was printed: head/tail must both be explicit unless 'none'
            if value != "none":
                parts.append(f"{name}={_encode(value)}")
            continue
        if value != default:
            parts.append(f"{name}={_encode(value)}")
    if c.kind == "chart" and "spec" in skip:
        parts += chart_attrs  # data last: the long part at the end of the line
    return " ".join(parts)


def figure_from_text(text: str, *, fmt: str, file: str | None = None) -> Figure:
    """Parse figure text in ``fmt`` ('dsl' or 'json')."""
    if fmt == "json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise SpecError(f"invalid JSON: {e.msg}", line=e.lineno, column=e.colno, file=file) from None
        return figure_from_data(data, file=file)
    if fmt == "dsl":
        return parse_dsl(text, file=file)
    raise InputError(f"unknown figure format '{fmt}' (expected dsl or json)", file=file)


def parse_component(line: str) -> Component:
    """Parse one component statement without figure-wide reference checks (for repair output)."""
    tokens = _Lexer(line, None).tokens()
    p = _Parser(tokens, None)
    while p.peek().type == "NEWLINE":
        p.next()
    fields = p.component_statement()
    while p.peek().type == "NEWLINE":
        p.next()
    if p.peek().type != "EOF":
        raise p.error(p.peek(), "one statement only")
    return p.build_component(fields, fields["_tok"])


__all__ = ["figure_from_text", "parse_dsl", "print_dsl", "print_component", "parse_component", "check_references",
           "quote"]
