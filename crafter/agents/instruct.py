"""Edits by instruction: "make the encoder blue and rename Decoder to Generator".

:func:`interpret` splits an instruction into clauses and carries out the common verbs
by rule — reliably, without a model:

=================  ====================================================================
rename / relabel   ``rename Decoder to Generator``, ``call enc "Image encoder"``
colour             ``make the encoder blue``, ``colour the arrow from A to B red``,
                   ``make the decoder's text white``, ``fill X with #ffcc00``
shape              ``make the index a cylinder``, ``turn X into a diamond``
delete             ``delete the critic``, ``remove the arrow from A to B``
add                ``add an arrow from X to Y labelled "skip"``, ``connect X to Y``,
                   ``add a node "Cache" between X and Y`` (or after/before/connected to X)
style              ``make the edge from A to B dashed``, ``make all arrows dotted``,
                   ``make X bold`` / ``italic``
move / size        ``move X left`` (``by 40 px``), ``move X below Y``, ``make X wider``
figure             ``make the layout vertical``, ``set the title to "…"``, ``use the slides theme``
=================  ====================================================================

Components are found by id or label, case-insensitively and fuzzily ("the decoder" finds
node ``dec`` labelled "Decoder"; "the arrow from encoder to decoder" finds that edge).
Clauses the rules cannot carry out become ``instruction`` issues for the model's repair
task, aimed at the components the clause mentions. Only what a clause names changes;
the consequences a verb implies are included and reported (deleting a node deletes its
edges and leaves its group).
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass, field
from typing import Any

from crafter.agents.issues import FIGURE, make_issue
from crafter.agents.labels import normalise_label, slug_id
from crafter.agents.repair import merge
from crafter.errors import SpecError
from crafter.spec.colors import CSS_COLOR_NAMES, contrast_ratio
from crafter.spec.model import Chart, Component, Edge, Figure, Group, Node, Panel, Text

MOVE_STEP = 40.0  # px a bare "move X left" moves
SIZE_STEP = 1.3  # factor of "bigger" / "smaller"

_VERBS = (r"make|rename|relabel|call|change|set|colou?r|fill|paint|turn|delete|remove|drop|add|insert|create|"
          r"connect|link|draw|move|shift|nudge|put|bold|italici[sz]e|dash|use|give|label|enlarge|shrink|title|"
          r"increase|decrease|place|swap|replace|recolou?r")
_SPLIT = re.compile(rf"\s*(?:;|\n|(?<=[.!?])\s+|,?\s+and\s+(?=(?:then\s+)?(?:{_VERBS})\b)|,\s*(?=(?:{_VERBS})\b)|"
                    rf"\s+then\s+(?=(?:{_VERBS})\b))\s*", re.I)

SHAPE_WORDS = {
    "rectangle": "box", "box": "box", "square": "box", "rect": "box",
    "rounded box": "round", "rounded rectangle": "round", "rounded": "round", "round box": "round", "round": "round",
    "ellipse": "ellipse", "oval": "ellipse", "circle": "circle", "diamond": "diamond", "rhombus": "diamond",
    "decision": "diamond", "cylinder": "cylinder", "database": "cylinder", "db": "cylinder", "drum": "cylinder",
    "parallelogram": "parallelogram", "hexagon": "hexagon", "document": "document", "page": "document",
    "stack": "stack",
}
_SHAPE_RE = "|".join(sorted((re.escape(s) for s in SHAPE_WORDS), key=len, reverse=True))
_COLOR_RE = r"#[0-9a-fA-F]{3}(?:[0-9a-fA-F]{3})?(?:[0-9a-fA-F]{2})?\b|(?:(?:light|dark|pale|medium|deep)[ -]?)?[a-z]+"
_KIND_WORDS = {
    "node": "node", "box": "node", "block": "node", "module": "node", "layer": "node", "component": "node",
    "stage": "node", "step": "node", "shape": "node", "unit": "node",
    "edge": "edge", "arrow": "edge", "connection": "edge", "link": "edge", "line": "edge",
    "group": "group", "frame": "group", "cluster": "group", "panel": "panel", "chart": "chart", "plot": "chart",
    "text": "text", "annotation": "text", "note": "text",
}


@dataclass
class EditOutcome:
    """What an instruction did: the edited figure and a log a person can read."""

    figure: Figure
    applied: list[str] = field(default_factory=list)  # one line per change made by rule
    model_issues: list[dict[str, Any]] = field(default_factory=list)  # clauses left to the model
    unresolved: list[str] = field(default_factory=list)  # clauses nothing could be done with
    changed: set[str] = field(default_factory=set)  # ids changed (added, removed) by rule; FIGURE for the header
    tidy: bool = False  # "tidy the layout": the run may repair geometry anywhere, not only what was named


class _Unresolved(Exception):
    """A clause the rules recognised but could not carry out (unknown component, bad colour...)."""


# ---------------------------------------------------------------------------------
# Finding components
# ---------------------------------------------------------------------------------


def _strip_ref(phrase: str) -> tuple[str, str | None]:
    """'the Decoder node' -> ('Decoder', 'node'); quotes and possessives removed."""
    p = phrase.strip().strip(".,;:!").strip()
    p = re.sub(r"(?:'s|’s)$", "", p)
    p = re.sub(r"^(?:the|a|an|this|that)\s+", "", p, flags=re.I)
    m = re.match(r"^[\"“'](.+)[\"”']$", p)
    if m:
        return m.group(1), None
    kind = None
    words = p.split()
    if len(words) > 1 and words[-1].lower() in _KIND_WORDS:
        kind = _KIND_WORDS[words[-1].lower()]
        p = " ".join(words[:-1])
    elif len(words) > 1 and words[0].lower() in _KIND_WORDS:
        kind = _KIND_WORDS[words[0].lower()]
        p = " ".join(words[1:])
    p = re.sub(r"^(?:the|a|an)\s+", "", p, flags=re.I)
    m = re.match(r"^[\"“'](.+)[\"”']$", p.strip())
    return (m.group(1) if m else p.strip()), kind


def _label_of(c: Component) -> str:
    for attr in ("label", "title", "text"):
        v = getattr(c, attr, None)
        if isinstance(v, str) and v:
            return v.replace("\n", " ")
    return c.id


def _score(c: Component, name: str) -> float:
    if c.id == name:
        return 100
    if c.id.lower() == name.lower():
        return 95
    label = _label_of(c)
    nl, nn = normalise_label(label), normalise_label(name)
    if not nn:
        return 0
    if nl == nn or normalise_label(c.id.replace("_", " ")) == nn:
        return 90
    wl, wn = set(nl.split()), set(nn.split())
    if wn and wn <= wl:
        return 70 + 10 * len(wn) / max(len(wl), 1)
    if wl and wl <= wn:
        return 55
    ratio = difflib.SequenceMatcher(None, nl, nn).ratio()
    return 50 * ratio if ratio >= 0.75 else 0


def find_components(fig: Figure, phrase: str, kind: str | None = None) -> list[Component]:
    """Components a phrase refers to: all equally best matches (two nodes named "Encoder" are both meant)."""
    name, hinted = _strip_ref(phrase)
    kind = kind or hinted
    low = name.lower()
    if re.fullmatch(r"(?:all|every|each)\s+(?:the\s+)?(?:edges?|arrows?|connections?|lines?|links?)", low) or \
            (hinted == "edge" and low in ("all", "every", "each")):
        return list(fig.of_kind("edge"))
    if re.fullmatch(r"(?:all|every|each)\s+(?:the\s+)?(?:nodes?|boxes?|blocks?|modules?|shapes?)", low) or \
            (hinted == "node" and low in ("all", "every", "each")):
        return list(fig.of_kind("node"))
    if low in ("everything", "all components"):
        return [c for c in fig.components if c.kind in ("node", "edge", "group", "text")]
    m = re.match(r"^(?:(?:arrow|edge|connection|link|line)\s+)?(?:from\s+)?(?P<a>.+?)\s*(?:\s(?:to|into)\s|->|→)\s*(?P<b>.+)$",
                 name, re.I)
    if (kind == "edge" or "->" in name or "→" in name) and m:
        return _edges_between(fig, m.group("a"), m.group("b"), directed=True)
    m = re.match(r"^(?:(?:arrow|edge|connection|link|line)\s+)?between\s+(?P<a>.+?)\s+and\s+(?P<b>.+)$", name, re.I)
    if m:
        return _edges_between(fig, m.group("a"), m.group("b"), directed=False)
    cands = [c for c in fig.components if kind is None or c.kind == kind]
    scored = [(s, c) for c in cands if (s := _score(c, name)) > 0]
    if not scored:
        return []
    best = max(s for s, _ in scored)
    return [c for s, c in scored if s == best]


def _one(fig: Figure, phrase: str, kind: str | None = None) -> Component:
    found = find_components(fig, phrase, kind)
    if not found:
        raise _Unresolved(f"no component matches '{phrase.strip()}'")
    return found[0]


def _edges_between(fig: Figure, a: str, b: str, *, directed: bool) -> list[Component]:
    sa = {c.id for c in find_components(fig, a) if c.kind != "edge"}
    sb = {c.id for c in find_components(fig, b) if c.kind != "edge"}
    out = []
    for e in fig.of_kind("edge"):
        if (e.source in sa and e.target in sb) or (not directed and e.source in sb and e.target in sa):
            out.append(e)
    if directed and not out:  # "the arrow from B to A" for an arrow drawn A -> B <- still the one meant
        out = [e for e in fig.of_kind("edge") if e.source in sb and e.target in sa]
    return out


def mentioned(fig: Figure, clause: str) -> list[Component]:
    """Components whose id or label appears (as whole words) in a clause."""
    text = f" {normalise_label(clause)} "
    raw = clause.lower()
    out = []
    for c in fig.components:
        label = normalise_label(_label_of(c))
        if (label and f" {label} " in text) or re.search(rf"(?<![\w-]){re.escape(c.id.lower())}(?![\w-])", raw):
            out.append(c)
    return out


# ---------------------------------------------------------------------------------
# Values
# ---------------------------------------------------------------------------------


def parse_color(text: str) -> str | None:
    t = text.strip().lower().strip(".")
    if re.fullmatch(r"#[0-9a-f]{3}(?:[0-9a-f]{3})?(?:[0-9a-f]{2})?", t):
        return t
    t = t.replace("grey", "gray") if t.replace("grey", "gray") in CSS_COLOR_NAMES else t
    joined = re.sub(r"[\s-]+", "", t)
    if joined in CSS_COLOR_NAMES:
        return joined
    return None


def _quoted_or_text(s: str) -> str:
    s = s.strip().rstrip(".")
    m = re.match(r"^[\"“'](.+)[\"”']$", s)
    return m.group(1) if m else s


# ---------------------------------------------------------------------------------
# The interpreter
# ---------------------------------------------------------------------------------


def split_clauses(instruction: str) -> list[str]:
    """Clauses of an instruction; quoted text is never split."""
    quoted: list[str] = []

    def hide(m: re.Match) -> str:
        quoted.append(m.group(0))
        return f"\x00{len(quoted) - 1}\x00"

    hidden = re.sub(r"\"[^\"]*\"|“[^”]*”", hide, instruction)
    parts = [p for p in _SPLIT.split(hidden) if p and p.strip(" .,")]
    return [re.sub(r"\x00(\d+)\x00", lambda m: quoted[int(m.group(1))], p).strip().rstrip(".") for p in parts]


class _Editor:
    def __init__(self, fig: Figure) -> None:
        self.fig = fig
        self.out = EditOutcome(figure=fig)

    # -- changes -------------------------------------------------------------------
    def set(self, c: Component, what: str, **changes: Any) -> None:
        data = c.model_dump()
        data.update(changes)
        new = type(c).model_validate(data)
        self.fig = merge(self.fig, [new], [], {})
        self.out.changed.add(c.id)
        self.out.applied.append(f"{what} ({c.id})")

    def add(self, c: Component, what: str) -> None:
        self.fig = merge(self.fig, [c], [], {})
        self.out.changed.add(c.id)
        self.out.applied.append(f"{what} ({c.id})")

    def delete(self, c: Component) -> None:
        doomed = {c.id}
        if not isinstance(c, Edge):
            doomed |= {e.id for e in self.fig.of_kind("edge") if c.id in (e.source, e.target)}
            doomed |= {t.id for t in self.fig.of_kind("text") if t.near == c.id}
        updates = []
        for g in self.fig.components:
            if isinstance(g, (Group, Panel)) and g.id not in doomed and set(g.members) & doomed:
                updates.append(g.model_copy(update={"members": [m for m in g.members if m not in doomed]}))
        self.fig = merge(self.fig, updates, sorted(doomed), {})
        self.out.changed |= doomed | {g.id for g in updates}
        extra = sorted(doomed - {c.id})
        self.out.applied.append(f"deleted {c.kind} '{_label_of(c)}' ({c.id})" +
                                (f" and what hung on it: {', '.join(extra)}" if extra else ""))

    def header(self, what: str, **changes: Any) -> None:
        data = self.fig.model_dump()
        data.update(changes)
        self.fig = Figure.from_dict(data)
        self.out.changed.add(FIGURE)
        self.out.applied.append(what)

    def new_id(self, label: str) -> str:
        return slug_id(label, {c.id for c in self.fig.components})

    # -- verbs ---------------------------------------------------------------------
    def clause(self, clause: str) -> bool:
        """Carry out one clause by rule; False when no rule recognises it."""
        for handler in (self.filler, self.tidy, self.report_typo, self.report_missing_arrow, self.restore_step,
                        self.chart_value, self.chart_point, self.figure_level, self.rename, self.add_edge,
                        self.add_node, self.delete_clause, self.reverse, self.shape, self.style, self.color,
                        self.move, self.size):
            if handler(clause):
                return True
        return False

    # -- bug reports ("The box reading “Encodr” has a typo…") and the words around them -----
    def filler(self, s: str) -> bool:
        """Clauses that only point back ("restore it and its arrows", "leave everything else as it is")."""
        return bool(re.match(r"^(?:and\s+)?(?:please\s+)?(?:(?:add|put|bring|restore|fix|correct|undo)\s+"
                             r"(?:it|them|this|that)(?:\s+(?:back|again))?(?:\s+(?:and|with)\s+(?:its|their)\s+\w+)?|"
                             r"(?:leave|keep)\s+(?:everything|all|the\s+rest)(?:\s+else)?\s+(?:as\s+(?:it\s+is|they\s+are)|"
                             r"unchanged|alone|untouched)|thanks?(?:\s+you)?|please)$", s.strip(" ,.!"), re.I))

    def tidy(self, s: str) -> bool:
        m = re.match(r"^(?:.*\b(?:overlap|overlapping|cluttered|messy)\b.*|(?:please\s+)?(?:tidy|fix|clean)\s+(?:up\s+)?"
                     r"(?:the\s+)?(?:layout|overlaps?|positions?|spacing)(?:\s.*)?)$", s, re.I)
        if not m or re.search(r"\b(?:rename|colou?r|delete|add)\b", s, re.I):
            return False
        if not self.out.tidy:
            self.out.tidy = True
            self.out.applied.append("layout problems anywhere in the figure will be repaired")
        return True

    def report_typo(self, s: str) -> bool:
        quoted = re.findall(r"[\"“]([^\"”]+)[\"”]", s)
        if len(quoted) < 2 or not re.search(r"\b(?:should\s+(?:read|be|say)|typo|misspel\w*|instead\s+of)\b", s, re.I):
            return False
        old, new = (quoted[-1], quoted[0]) if re.search(r"instead\s+of", s, re.I) else (quoted[0], quoted[-1])
        c = _one(self.fig, f'"{old}"')
        if not hasattr(c, "label") and not isinstance(c, Text):
            raise _Unresolved(f"a {c.kind} has no label to correct")
        field_name = "text" if isinstance(c, Text) else "label"
        self.set(c, f"corrected '{old}' to \"{new}\"", **{field_name: new})
        return True

    def report_missing_arrow(self, s: str) -> bool:
        m = re.match(r"^(?:the\s+)?(?:arrow|edge|connection|link|line)\s+from\s+(?P<a>.+?)\s+to\s+(?P<b>.+?)\s+"
                     r"(?:is|was|went)\s+(?:missing|lost|deleted|removed|gone)(?:\s.*)?$", s, re.I)
        return bool(m) and self.add_edge(f"add an arrow from {m.group('a')} to {m.group('b')}")

    def restore_step(self, s: str) -> bool:
        m = re.search(r"(?:hid|hides|hidden|missing|masked|lost|removed)\s+(?:the\s+)?(?:step|node|box|stage|component)\s+"
                      r"[\"“](?P<y>[^\"”]+)[\"”](?:,?\s*fed\s+by\s+(?P<ins>.+?))?(?:,?\s*and\s+feeding\s+(?P<outs>.+?))?$",
                      s, re.I)
        if not m:
            return False
        label = m.group("y")
        node = Node(kind="node", id=self.new_id(label), label=label, shape="round")
        self.add(node, f"restored node \"{label}\"")
        for group, incoming in (("ins", True), ("outs", False)):
            names = [n.strip() for n in re.split(r",\s*|\s+and\s+", m.group(group) or "") if n.strip()]
            for name in names:
                other = _one(self.fig, f'"{name}"')
                src, dst = (other.id, node.id) if incoming else (node.id, other.id)
                self.add(Edge(kind="edge", id=self.new_id(f"{src}_{dst}"), source=src, target=dst),
                         f"restored the arrow from '{src}' to '{dst}'")
        return True

    def _chart(self, title: str) -> Chart:
        charts = [c for c in find_components(self.fig, f'"{title}"', "chart") if isinstance(c, Chart)]
        if not charts:
            charts = [c for c in self.fig.of_kind("chart") if len(self.fig.of_kind("chart")) == 1]
        if not charts:
            raise _Unresolved(f"no chart matches '{title}'")
        return charts[0]

    def chart_value(self, s: str) -> bool:
        m = re.match(r"^in\s+(?:the\s+chart\s+)?[\"“]?(?P<t>[^\"”,]+?)[\"”]?,?\s+the\s+value\s+(?:for|of)\s+(?P<x>.+?)\s+"
                     r"should\s+be\s+(?P<v>-?[\d.]+(?:[eE][-+]?\d+)?)", s, re.I)
        if not m:
            return False
        chart = self._chart(m.group("t"))
        spec = json.loads(json.dumps(chart.spec))
        enc = spec.get("encoding", {})
        xf, yf = (enc.get("x") or {}).get("field"), (enc.get("y") or {}).get("field")
        rows = (spec.get("data") or {}).get("values") or []
        hits = [r for r in rows if xf and str(r.get(xf)) == m.group("x").strip()]
        if not hits or not yf:
            raise _Unresolved(f"chart '{chart.id}' has no mark for {m.group('x').strip()}")
        for r in hits:
            r[yf] = _number(m.group("v"))
        self.set(chart, f"set {yf} for {m.group('x').strip()} to {m.group('v')} in chart '{chart.id}'", spec=spec)
        return True

    def chart_point(self, s: str) -> bool:
        m = re.search(r"(?:mark|point|bar|value)\s+of\s+[\"“](?P<t>[^\"”]+)[\"”].*?\((?P<kv>[^()]*=[^()]*)\)", s, re.I) \
            or re.search(r"^(?:add|restore)\s+(?:the\s+)?(?:data\s+)?point\s+\((?P<kv>[^()]*=[^()]*)\)"
                         r"(?:\s+(?:to|in)\s+[\"“]?(?P<t>[^\"”]+)[\"”]?)?", s, re.I)
        if not m:
            return False
        chart = self._chart(m.group("t") or "")
        record = {}
        for pair in m.group("kv").split(","):
            if "=" not in pair:
                continue
            k, v = (x.strip() for x in pair.split("=", 1))
            record[k] = _number(v) if re.fullmatch(r"-?[\d.]+(?:[eE][-+]?\d+)?", v) else v
        spec = json.loads(json.dumps(chart.spec))
        spec.setdefault("data", {}).setdefault("values", []).append(record)
        self.set(chart, f"added the data point ({m.group('kv').strip()}) to chart '{chart.id}'", spec=spec)
        return True

    def figure_level(self, s: str) -> bool:
        m = re.match(r"^(?:make|set|change|switch|turn)\s+(?:the\s+)?(?:layout|direction|figure|diagram)\s+(?:to\s+|into\s+)?"
                     r"(?P<d>vertical|horizontal|top[- ]to[- ]bottom|left[- ]to[- ]right|top[- ]down)$", s, re.I)
        if m:
            d = "TB" if m.group("d").lower().startswith(("vert", "top")) else "LR"
            self.header(f"direction set to {d}", direction=d)
            return True
        m = re.match(r"^(?:set|change|make)\s+(?:the\s+)?(?:figure\s+)?title\s+(?:to\s+)?(?P<t>.+)$"
                     r"|^title\s+(?:it|the figure)\s+(?P<t2>.+)$", s, re.I)
        if m:
            t = _quoted_or_text(m.group("t") or m.group("t2"))
            self.header(f"title set to \"{t}\"", title=t)
            return True
        m = re.match(r"^(?:use|switch to|apply)\s+(?:the\s+)?(?P<th>paper|slides|mono)\s+theme$", s, re.I)
        if m:
            self.header(f"theme set to {m.group('th').lower()}", theme=m.group("th").lower())
            return True
        return False

    def rename(self, s: str) -> bool:
        pats = [
            r"^(?:rename|relabel)\s+(?P<x>.+?)\s+(?:to|as|into)\s+(?P<y>.+)$",
            r"^(?:change|set)\s+(?:the\s+)?(?:label|name|text|caption)\s+of\s+(?P<x>.+?)\s+to\s+(?P<y>.+)$",
            r"^(?:call|label)\s+(?P<x>.+?)\s+(?P<y>[\"“].+[\"”])$",
            r"^(?P<x>.+?)\s+should\s+(?:be\s+)?(?:called|named|labell?ed|read|say)\s+(?P<y>.+)$",
            r"^(?:replace|change)\s+(?P<x>.+?)\s+(?:with|to)\s+(?P<y>[\"“].+[\"”])$",
        ]
        for p in pats:
            m = re.match(p, s, re.I)
            if m:
                c = _one(self.fig, m.group("x"))
                new = _quoted_or_text(m.group("y"))
                if isinstance(c, Text):
                    self.set(c, f"text of '{_label_of(c)}' set to \"{new}\"", text=new)
                elif isinstance(c, Panel):
                    self.set(c, f"renamed panel '{_label_of(c)}' to \"{new}\"", title=new)
                elif hasattr(c, "label"):
                    self.set(c, f"renamed '{_label_of(c)}' to \"{new}\"", label=new)
                elif hasattr(c, "title"):
                    self.set(c, f"renamed '{_label_of(c)}' to \"{new}\"", title=new)
                else:
                    raise _Unresolved(f"a {c.kind} has no label to rename")
                return True
        return False

    def add_edge(self, s: str) -> bool:
        m = re.match(r"^(?:add|draw|insert|create)\s+(?:an?\s+)?(?:new\s+)?(?P<st>dashed\s+|dotted\s+)?"
                     r"(?:arrow|edge|connection|link|line)\s+from\s+(?P<a>.+?)\s+(?:to|into)\s+(?P<b>.+?)"
                     r"(?:\s+(?:labell?ed|called|saying|with\s+(?:the\s+)?label|reading)\s+(?P<l>.+))?$", s, re.I)
        if not m:
            m = re.match(r"^(?:connect|link)\s+(?P<a>.+?)\s+(?:to|with|and)\s+(?P<b>.+?)"
                         r"(?:\s+(?:labell?ed|called|with\s+(?:the\s+)?label)\s+(?P<l>.+))?(?P<st>)$", s, re.I)
        if not m:
            return False
        a, b = _one(self.fig, m.group("a")), _one(self.fig, m.group("b"))
        if isinstance(a, Edge) or isinstance(b, Edge):
            raise _Unresolved("an arrow joins nodes, groups or panels, not other arrows")
        label = _quoted_or_text(m.group("l")) if m.group("l") else None
        style = (m.group("st") or "").strip().lower() or "solid"
        e = Edge(kind="edge", id=self.new_id(f"{a.id}_{b.id}"), source=a.id, target=b.id, label=label, style=style)
        self.add(e, f"added an arrow from '{_label_of(a)}' to '{_label_of(b)}'")
        return True

    def add_node(self, s: str) -> bool:
        m = re.match(r"^(?:add|insert|create|put)\s+(?:an?\s+)?(?:new\s+)?(?:node|box|block|step|component|module|stage|layer)"
                     r"\s+(?:called\s+|named\s+|labell?ed\s+)?(?P<y>\"[^\"]+\"|“[^”]+”|.+?)"
                     r"(?:\s+(?P<rel>after|before|between|connected\s+to|next\s+to|feeding(?:\s+into)?|fed\s+by|from|into)"
                     r"\s+(?P<x>.+))?$", s, re.I)
        if not m:
            return False
        label = _quoted_or_text(m.group("y"))
        node = Node(kind="node", id=self.new_id(label), label=label, shape="round")
        rel = (m.group("rel") or "").lower()
        self.add(node, f"added node \"{label}\"")
        if not rel:
            return True
        if rel == "between":
            mm = re.match(r"^(?P<a>.+?)\s+and\s+(?P<b>.+)$", m.group("x"), re.I)
            if not mm:
                raise _Unresolved("'between' needs two components: between X and Y")
            a, b = _one(self.fig, mm.group("a")), _one(self.fig, mm.group("b"))
            direct = [e for e in self.fig.of_kind("edge") if e.source == a.id and e.target == b.id]
            if direct:  # X -> Y becomes X -> new -> Y: the old arrow now ends at the new node
                self.set(direct[0], f"arrow '{direct[0].id}' now ends at \"{label}\"", target=node.id)
            else:
                self.add(Edge(kind="edge", id=self.new_id(f"{a.id}_{node.id}"), source=a.id, target=node.id),
                         f"added an arrow from '{_label_of(a)}' to \"{label}\"")
            self.add(Edge(kind="edge", id=self.new_id(f"{node.id}_{b.id}"), source=node.id, target=b.id),
                     f"added an arrow from \"{label}\" to '{_label_of(b)}'")
            return True
        x = _one(self.fig, m.group("x"))
        if rel in ("before", "feeding", "feeding into", "into"):
            src, dst = node.id, x.id
        else:
            src, dst = x.id, node.id
        self.add(Edge(kind="edge", id=self.new_id(f"{src}_{dst}"), source=src, target=dst),
                 f"added an arrow from '{src}' to '{dst}'")
        return True

    def delete_clause(self, s: str) -> bool:
        m = re.match(r"^(?:delete|remove|drop|erase|get\s+rid\s+of)\s+(?P<x>.+)$", s, re.I)
        if not m:
            return False
        found = find_components(self.fig, m.group("x"))
        if not found:
            raise _Unresolved(f"no component matches '{m.group('x').strip()}'")
        for c in found:
            if c.id in self.fig.by_id():
                self.delete(self.fig.get(c.id))
        return True

    def shape(self, s: str) -> bool:
        m = (re.match(rf"^(?:make|turn|draw|change|set)\s+(?P<x>.+?)\s+(?:into\s+|as\s+|to\s+)?"
                      rf"(?:an?\s+)?(?P<s>{_SHAPE_RE})(?:\s+shape)?$", s, re.I)
             or re.match(rf"^(?:change|set)\s+(?:the\s+)?shape\s+of\s+(?P<x>.+?)\s+to\s+(?:an?\s+)?(?P<s>{_SHAPE_RE})$", s, re.I))
        if not m:
            return False
        shape = SHAPE_WORDS[m.group("s").lower()]
        targets = [c for c in find_components(self.fig, m.group("x")) if isinstance(c, Node)]
        if not targets:
            raise _Unresolved(f"no node matches '{m.group('x').strip()}'")
        for c in targets:
            self.set(c, f"'{_label_of(c)}' drawn as a {shape}", shape=shape)
        return True

    _REVERSE = (
        re.compile(r"^(?:reverse|flip|invert|swap)\s+(?:the\s+)?(?:direction\s+of\s+|ends\s+of\s+)?(?P<x>.+?)$", re.I),
        re.compile(r"^turn\s+(?P<x>.+?)\s+around$", re.I),
        re.compile(r"^(?:make\s+)?(?P<x>.+?)\s+(?:should\s+)?(?:go|goes|point|points|run|runs)\s+"
                   r"(?:the\s+other\s+way(?:\s+round)?|the\s+wrong\s+way|backwards)$", re.I),
    )

    def reverse(self, s: str) -> bool:
        """'reverse the arrow from A to B', 'turn the edge from the decoder around', 'e3 should point
        the other way': the arrow's ends swap (and its drawn route with them)."""
        m = next((m for r in self._REVERSE if (m := r.match(s))), None)
        if not m:
            return False
        phrase = m.group("x")
        one_end = re.match(r"^(?:the\s+)?(?:arrow|edge|connection|link|line)\s+(?P<dir>from|out\s+of|leaving|into|to)\s+"
                           r"(?P<n>.+)$", phrase, re.I)
        if one_end and not re.search(r"\s(?:to|into)\s|->|→", one_end.group("n")):
            ends = {c.id for c in find_components(self.fig, one_end.group("n")) if c.kind != "edge"}
            out = one_end.group("dir").lower() not in ("into", "to")
            found = [e for e in self.fig.of_kind("edge") if (e.source if out else e.target) in ends]
            if len(found) > 1:
                raise _Unresolved(f"{len(found)} arrows {'leave' if out else 'enter'} '{one_end.group('n').strip()}': "
                                  "say which (from … to …)")
        else:
            found = find_components(self.fig, phrase, "edge")
        found = [e for e in found if isinstance(e, Edge)]
        if not found:
            raise _Unresolved(f"no arrow matches '{phrase.strip()}'")
        by_id = self.fig.by_id()
        for e in found:
            route = [p.model_dump() for p in reversed(e.route)] if e.route else None
            a, b = (_label_of(by_id[i]) if i in by_id else i for i in (e.target, e.source))
            self.set(e, f"reversed the arrow: now from '{a}' to '{b}'", source=e.target, target=e.source,
                     route=route, head=e.tail if e.tail != "none" else e.head, tail=e.head if e.tail != "none" else "none")
        return True

    def style(self, s: str) -> bool:
        m = (re.match(r"^(?:make|set|draw|turn)\s+(?P<x>.+?)\s+(?:as\s+|to\s+)?(?P<st>dashed|dotted|solid|bold|italic|not\s+bold|"
                      r"unbold|normal\s+weight|regular)(?:\s+lines?)?$", s, re.I)
             or re.match(r"^(?P<st>bold|italici[sz]e|dash|dot)\s+(?P<x>.+)$", s, re.I))
        if not m:
            return False
        st = m.group("st").lower()
        st = {"dash": "dashed", "dot": "dotted", "italicize": "italic", "italicise": "italic"}.get(st, st)
        found = find_components(self.fig, m.group("x"))
        if not found:
            raise _Unresolved(f"no component matches '{m.group('x').strip()}'")
        for c in found:
            if st in ("dashed", "dotted", "solid"):
                if not isinstance(c, (Edge, Group)):
                    raise _Unresolved(f"a {c.kind} has no line style; only arrows and groups are dashed or dotted")
                self.set(c, f"'{_label_of(c)}' drawn {st}", style=st)
            elif st == "italic":
                if not isinstance(c, (Node, Text)):
                    raise _Unresolved(f"a {c.kind}'s text cannot be made italic")
                self.set(c, f"'{_label_of(c)}' in italics", italic=True)
            else:
                if not isinstance(c, (Node, Text)):
                    raise _Unresolved(f"a {c.kind}'s text cannot be made bold")
                self.set(c, f"'{_label_of(c)}' {'in bold' if st == 'bold' else 'not bold'}", bold=st == "bold")
        return True

    def color(self, s: str) -> bool:
        what = r"(?P<w>fill|background|text|label|font|border|outline|stroke|line|colou?r)"
        pats = [
            rf"^(?:make|set|change|turn)\s+(?:the\s+)?{what}(?:\s+colou?r)?\s+of\s+(?P<x>.+?)\s+(?:to\s+|into\s+)?(?P<c>{_COLOR_RE}(?:\s[a-z]+)?)$",
            rf"^(?:make|set|turn|change)\s+(?P<x>.+?)(?:'s|’s)\s+{what}(?:\s+colou?r)?\s+(?:to\s+)?(?P<c>{_COLOR_RE}(?:\s[a-z]+)?)$",
            rf"^(?:make|colou?r|recolou?r|paint|turn|fill|set|change)\s+(?P<x>.+?)\s+(?:in\s+|with\s+|to\s+|into\s+)?(?P<c>{_COLOR_RE}(?:\s[a-z]+)?)$",
        ]
        for p in pats:
            m = re.match(p, s, re.I)
            if not m:
                continue
            col = parse_color(m.group("c"))
            target_words = m.group("x")
            w = (m.groupdict().get("w") or "").lower()
            if col is None:
                # "make X light blue": the colour may have taken two words; try the last one alone
                parts = m.group("c").split()
                if len(parts) == 2 and parse_color(parts[1]) and not parse_color(m.group("c")):
                    col = parse_color(parts[1])
                    target_words = f"{target_words} {parts[0]}"
                if col is None:
                    continue
            found = find_components(self.fig, target_words)
            if not found:
                raise _Unresolved(f"no component matches '{target_words.strip()}'")
            for c in found:
                self._paint(c, col, w)
            return True
        return False

    def _paint(self, c: Component, col: str, what: str) -> None:
        text_part = what in ("text", "label", "font")
        stroke_part = what in ("border", "outline", "stroke", "line")
        if isinstance(c, Node):
            if text_part:
                self.set(c, f"text of '{_label_of(c)}' coloured {col}", text_color=col)
            elif stroke_part:
                self.set(c, f"outline of '{_label_of(c)}' coloured {col}", stroke=col)
            else:
                changes: dict[str, Any] = {"fill": col}
                # an explicit text colour that no longer reads on the new fill goes back to automatic
                if c.text_color and col != "none" and contrast_ratio(c.text_color, col) < 4.5:
                    changes["text_color"] = None
                self.set(c, f"'{_label_of(c)}' filled {col}", **changes)
        elif isinstance(c, Edge):
            self.set(c, f"arrow '{c.id}' coloured {col}", color=col)
        elif isinstance(c, Group):
            if text_part:
                self.set(c, f"label of group '{_label_of(c)}' coloured {col}", text_color=col)
            elif stroke_part:
                self.set(c, f"frame of group '{_label_of(c)}' coloured {col}", stroke=col)
            else:
                self.set(c, f"group '{_label_of(c)}' filled {col}", fill=col)
        elif isinstance(c, Text):
            self.set(c, f"text '{_label_of(c)}' coloured {col}", color=col)
        else:
            raise _Unresolved(f"a {c.kind} cannot be coloured by instruction yet")

    def move(self, s: str) -> bool:
        m = re.match(r"^(?:move|shift|nudge|put|place)\s+(?P<x>.+?)\s+"
                     r"(?:(?:by\s+)?(?P<n>\d+(?:\.\d+)?)\s*(?:px|pixels?|points?|pt)?\s+)?"
                     r"(?:to\s+the\s+|further\s+)?(?P<d>left|right|up|down|above|below|under|over)"
                     r"(?:\s+(?:by\s+)?(?P<n2>\d+(?:\.\d+)?)\s*(?:px|pixels?)?)?(?:\s+(?:of\s+)?(?P<ref>.+))?$", s, re.I)
        if not m:
            return False
        c = _one(self.fig, m.group("x"))
        if c.box is None:
            raise _Unresolved(f"'{c.id}' has no position yet; lay the figure out first")
        d = m.group("d").lower()
        d = {"above": "up", "over": "up", "below": "down", "under": "down"}.get(d, d)
        b = c.box
        if m.group("ref"):
            ref = _one(self.fig, m.group("ref"))
            if ref.box is None:
                raise _Unresolved(f"'{ref.id}' has no position yet")
            r, gap = ref.box, 24.0
            x, y = {"left": (r.x - gap - b.w, r.cy - b.h / 2), "right": (r.right + gap, r.cy - b.h / 2),
                    "up": (r.cx - b.w / 2, r.y - gap - b.h), "down": (r.cx - b.w / 2, r.bottom + gap)}[d]
        else:
            n = float(m.group("n") or m.group("n2") or MOVE_STEP)
            dx, dy = {"left": (-n, 0), "right": (n, 0), "up": (0, -n), "down": (0, n)}[d]
            x, y = b.x + dx, b.y + dy
        self.set(c, f"moved '{_label_of(c)}' {d}", box={"x": max(x, 0.0), "y": max(y, 0.0), "w": b.w, "h": b.h},
                 pinned=True)
        return True

    def size(self, s: str) -> bool:
        m = re.match(r"^(?:make|set)\s+(?P<x>.+?)\s+(?P<s>bigger|larger|wider|taller|smaller|narrower|shorter)$", s, re.I) \
            or re.match(r"^(?P<s>enlarge|shrink)\s+(?P<x>.+)$", s, re.I)
        if not m:
            return False
        c = _one(self.fig, m.group("x"), "node")
        if not isinstance(c, Node):
            raise _Unresolved(f"only nodes can be resized by instruction, not a {c.kind}")
        word = m.group("s").lower()
        grow = word in ("bigger", "larger", "wider", "taller", "enlarge")
        f = SIZE_STEP if grow else 1 / SIZE_STEP
        w0 = c.width or (c.box.w if c.box else 80.0)
        h0 = c.height or (c.box.h if c.box else 36.0)
        changes: dict[str, Any] = {}
        if word not in ("taller", "shorter"):
            changes["width"] = round(w0 * f, 1)
        if word not in ("wider", "narrower"):
            changes["height"] = round(h0 * f, 1)
        if c.box is not None:
            w, h = changes.get("width", c.box.w), changes.get("height", c.box.h)
            changes["box"] = {"x": max(c.box.cx - w / 2, 0), "y": max(c.box.cy - h / 2, 0), "w": w, "h": h}
        self.set(c, f"'{_label_of(c)}' made {word}", **changes)
        return True


def _number(text: str) -> int | float:
    v = float(text)
    return int(v) if v.is_integer() and "." not in text and "e" not in text.lower() else v


def interpret(fig: Figure, instruction: str) -> EditOutcome:
    """Carry out an instruction by rule where possible; the rest becomes model issues.

    Never raises on an odd instruction: what it cannot do lands in ``unresolved`` (no
    component to aim at) or ``model_issues`` (for the repair model), with the reason.
    """
    ed = _Editor(fig)
    for clause in split_clauses(instruction):
        try:
            if ed.clause(clause):
                continue
            reason = "no rule for this wording"
        except _Unresolved as e:
            reason = str(e)
        except SpecError as e:
            reason = f"the change would make the figure invalid: {e}"
        targets = mentioned(ed.fig, clause)
        if targets:
            ids = [c.id for c in targets]
            ed.out.model_issues.append(make_issue(
                "instruction", ids, f"instruction: {clause}", target=ids[0], instruction=clause, reason=reason,
            ))
        else:
            ed.out.unresolved.append(f"{clause!r}: {reason}")
    ed.out.figure = ed.fig
    return ed.out
