"""Where the links and groups of written briefs are lost: an error analysis on the dev split.

For every gold edge of every dev brief (:mod:`crafter.corpora.briefs`): which surface form of the
brief carries it (an arrow "A → B", "from A to B", a list fanning in "A, B and C are passed to D",
"then" / "followed by", a flow verb read forward or backward, consecutive bullet items, a link across
sentences, or an end the brief never names by the gold's label or aliases), and, for the rule-based
reader (:func:`crafter.agents.extract.figure_from_brief`), the name head's reading
(:func:`crafter.llm.names_briefs.reading_dsl`) and the two together (the rules with the head's names, as
the pipeline plans with CraftLM: :func:`crafter.agents.extract.with_head`), whether both end nodes were found (the bound any link
reader has), whether the edge was found, and whether it was drawn the wrong way round. Then per gold
group: the cue that says it (a "consists of" / "contains" sentence, a panel "(a)", a heading line, a
group name said beside its members) and whether each reader found it.

Mentions are located by the scoring's own rules (:func:`crafter.llm.names_briefs.brief_tags`); a
gold edge's form is read from the text between the two closest mentions of its ends.

    python -m crafter.benchmarks.links_report [--no-head] [--limit N] [--show FORM [--ends]] [--nodes N] [--edges N]

``--nodes N`` prints instead every gold node the rules miss, classed (:func:`node_misses`), and every box they draw
that matches no gold node (:func:`false_nodes`), N examples each;
``--edges N`` every gold edge the rules miss and every false edge they draw, classed (:func:`edge_misses`).

It ends with the plans alone scored (rules; rules with the head's reading): node, edge and group F1.

Numbers are printed, never asserted. Dev split only: the test split is frozen.
"""

from __future__ import annotations

import argparse
import re
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from crafter.agents.extract import figure_from_brief
from crafter.agents.prose import _DETERMINERS, _NOUNISH_VERBS, _PREPS, verb_lemma  # the prose reader's words
from crafter.agents.subject import GENERIC_NOUNS  # the nouns the reader drops when alone
from crafter.corpora import Brief, FigureScore, load_briefs, score_figure
from crafter.corpora.scoring import GROUP_JACCARD, _leaves, arrows, normal_form
from crafter.errors import SpecError
from crafter.llm.backends.base import WEIGHTS_DIR
from crafter.llm.encoder import shared_encoder
from crafter.llm.names import NameReader, mentions, sentence_ids, words
from crafter.llm.names_briefs import brief_tags, reading_dsl
from crafter.llm.prompts import plan_prompt
from crafter.spec import Figure, parse_dsl

FORMS = ("end not named", "arrow", "from … to", "list fan-in/out", "then / followed by", "verb, text order",
         "verb, reversed order", "bullet sequence", "same sentence, no cue", "across sentences")
_ARROW = re.compile(r"->|→|⟶|⇒|=>|➔|➜|⟹|-->|>")
_VERB = re.compile(
    r"\b(?:feeds?|fed|sends?|sent|pass(?:es|ed)?|goes|go|flows?|enters?|returns?|writes?|written|outputs?|produces?|"
    r"produced|generates?|generated|yields?|emits?|forwards?|forwarded|routes?|routed|given|gives?|provides?|"
    r"provided|supplies|supplied|drives?|driven|triggers?|updates?|calls?|reads?|receives?|consumes?|takes?|uses?|"
    r"used|loads?|fetch(?:es)?|retrieves?|combines?|merges?|fuses?|stores?|stored|saves?|saved|maps?|mapped|"
    r"converts?|converted|transforms?|becomes?|into|to|by|through|via|onto)\b", re.I)
_BULLET = re.compile(r"^\s*(?:[-*•·–]|\(?\d{1,2}[.)]|\(?[a-z][.)]|(?:step|stage|phase)\s+\d+\s*[:.)-])\s+", re.I)
_GROUP_CUES = (
    ("consists of / contains", re.compile(r"\b(?:consist|compris|contain|includ|bundl|made up of|composed of|"
                                          r"groups?|wraps?|houses?|holds?)", re.I)),
    ("panels (a)/(b)", re.compile(r"\(\s*[a-d]\s*\)|\bpanel\b|\b(?:left|right|top|bottom)\b", re.I)),
    ("heading line", re.compile(r"(?m)^[^\n.]{1,60}:\s*$|^\s*#+\s")),
)


@dataclass
class Tally:
    gold: int = 0
    ends_rules: int = 0
    found_rules: int = 0
    reversed_rules: int = 0
    ends_head: int = 0
    found_head: int = 0
    reversed_head: int = 0
    ends_both: int = 0
    found_both: int = 0
    examples: list[str] = field(default_factory=list)


def _places(brief: Brief) -> tuple[str, list, list[int], dict[str, list[tuple[int, int]]]]:
    prompt = plan_prompt(brief.text)
    spans = words(prompt)
    tags, node_of = brief_tags(prompt, spans, brief.gold, brief.aliases)
    at: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for m in mentions(tags):
        if m in node_of:
            at[node_of[m]].append(m)
    return prompt, spans, sentence_ids(prompt, spans), at


def edge_form(prompt: str, spans: list, sent: list[int], at: dict, a: str, b: str) -> tuple[str, str]:
    """The surface form that carries the arrow a -> b, and the text that says it."""
    if not at.get(a) or not at.get(b):
        return "end not named", ""
    best = min(((abs(ma[0] - mb[0]), ma, mb) for ma in at[a] for mb in at[b]), key=lambda q: q[0])
    _, ma, mb = best
    first, second = (ma, mb) if ma[0] < mb[0] else (mb, ma)
    lo, hi = spans[first[1] - 1][1], spans[second[0]][0]
    between = prompt[lo:hi]
    said = prompt[spans[first[0]][0]:spans[second[1] - 1][1]]
    line_start = prompt.rfind("\n", 0, spans[first[0]][0]) + 1
    before = prompt[max(line_start, spans[first[0]][0] - 40):spans[first[0]][0]]
    if sent[first[0]] != sent[second[0]]:
        lines = prompt[line_start:spans[second[1] - 1][1]].split("\n")
        if "\n" in between and all(_BULLET.match(x) for x in lines if x.strip()):
            return "bullet sequence", said
        return "across sentences", said
    if _ARROW.search(between):
        return "arrow", said
    if re.search(r"\bfrom\b", before + " " + between, re.I) and re.search(r"\b(?:to|into|towards)\b", between, re.I):
        return "from … to", said
    if re.search(r",|\band\b|\bor\b|\bboth\b", between) and _VERB.search(between):
        return "list fan-in/out", said
    if re.search(r"\bthen\b|\bfollowed by\b|\bafter\b|\bbefore\b|\bnext\b", between, re.I):
        return "then / followed by", said
    if _VERB.search(between):
        return ("verb, text order" if first is ma else "verb, reversed order"), said
    return "same sentence, no cue", said


def _head_figure(names: dict) -> Figure:
    try:
        return parse_dsl(reading_dsl(names))
    except SpecError:
        return Figure(components=[])


def _figure_stats(brief: Brief, fig: Figure | None) -> tuple[tuple[set, set, set], set[str], FigureScore]:
    """:func:`_edge_stats`, :func:`_group_hits` and the score of one figure, matched to the gold once (nothing
    for no figure)."""
    if fig is None:
        return (set(), set(), set()), set(), FigureScore()
    score = score_figure(brief.gold, fig, brief.aliases)
    return _edge_stats(brief, fig, score.matched), _group_hits(brief, fig, score.matched), score


def _edge_stats(brief: Brief, fig: Figure, mapping: dict[str, str]) -> tuple[set, set, set]:
    """Gold arrows whose two ends the figure found (``mapping``: its nodes matched to the gold's), that it
    drew, and that it drew reversed."""
    found_nodes = set(mapping.values())
    drawn = {(mapping.get(s), mapping.get(t)) for e in fig.of_kind("edge") for s, t in arrows(e)}
    gold = {p for e in brief.gold.of_kind("edge") for p in arrows(e)}
    ends = {p for p in gold if p[0] in found_nodes and p[1] in found_nodes}
    return ends, gold & drawn, {p for p in gold if (p[1], p[0]) in drawn and p not in drawn}


def group_cue(brief: Brief, gid: str, members: list[str], at: dict) -> str:
    g = brief.gold.by_id()[gid]
    named = [m for m in members if at.get(m)]
    text = brief.text
    if g.kind == "panel" or re.search(r"\(\s*[a-d]\s*\)|\bpanel", text, re.I):
        return "panels (a)/(b)"
    label = (g.label or "").lower()
    head = next((h for h in [label, *(a.lower() for a in brief.aliases.get(gid, []))] if h and h in text.lower()), None)
    if head is None:
        return "group name not said"
    for line in text.split("\n"):
        if head in line.lower() and re.match(r"^[^\n.]{1,80}:\s*", line) and line.lower().find(head) < line.find(":"):
            return "heading line"
    if _GROUP_CUES[0][1].search(text):
        return "consists of / contains"
    return "name said, no cue" if len(named) >= 2 else "members not named"


def analyse(briefs: list[Brief], read=None, show: str | None = None, ends_only: bool = False):
    """Per surface form, the gold edges and what each reader found; per cue, the gold groups; the plans alone
    scored (:func:`plan_scores`). ``read``: brief text -> the name head's reading (None: the rules only);
    ``show``: the forms whose missed edges to list (``ends_only``: those whose both ends the rules found).
    Each brief's figures are built and matched to the gold once, for all three."""
    forms = {f: Tally() for f in FORMS}
    groups: dict[str, Counter] = defaultdict(Counter)
    scores: dict[str, FigureScore] = {"rules": FigureScore()} | ({"rules+head": FigureScore()} if read else {})
    for b in briefs:
        prompt, spans, sent, at = _places(b)
        rules = figure_from_brief(b.text)
        names = read(b.text) if read is not None else None
        head = _head_figure(names) if names is not None else None
        both = figure_from_brief(b.text, names=names) if names is not None else None
        (r_ends, r_found, r_rev), r_groups, r_score = _figure_stats(b, rules)
        (h_ends, h_found, h_rev), h_groups, _ = _figure_stats(b, head)
        (b_ends, b_found, _), b_groups, b_score = _figure_stats(b, both)
        scores["rules"] += r_score
        if both is not None:
            scores["rules+head"] += b_score
        for p in {p for e in b.gold.of_kind("edge") for p in arrows(e)}:
            form, said = edge_form(prompt, spans, sent, at, *p)
            t = forms[form]
            t.gold += 1
            t.ends_rules += p in r_ends
            t.found_rules += p in r_found
            t.reversed_rules += p in r_rev
            t.ends_head += p in h_ends
            t.found_head += p in h_found
            t.reversed_head += p in h_rev
            t.ends_both += p in b_ends
            t.found_both += p in b_found
            if show and form.startswith(show) and p not in r_found and (p in r_ends or not ends_only):
                t.examples.append(f"{b.id} {p[0]}->{p[1]}: {said[:140]!r}")
        for g in b.gold.components:
            if g.kind in ("group", "panel"):
                cue = group_cue(b, g.id, list(g.members or []), at)
                groups[cue].update({"gold": 1, "rules": g.id in r_groups, "head": g.id in h_groups,
                                    "both": g.id in b_groups})
    return forms, groups, scores


def plan_scores(briefs: list[Brief], read=None) -> dict[str, FigureScore]:
    """The plans alone scored against the gold (micro-averaged): the rules' figure and, with ``read``, the
    rules' figure with the name head's reading (what CraftLM's pipeline plans before critique and repair)."""
    return analyse(briefs, read)[2]


def _group_hits(brief: Brief, fig: Figure, mapping: dict[str, str]) -> set[str]:
    """Gold groups a predicted group matches (Jaccard ≥ 0.5 over leaf members matched by ``mapping``)."""
    gold = {c.id: _leaves(brief.gold, c.id) for c in brief.gold.components if c.kind in ("group", "panel")}
    hits = set()
    for c in fig.components:
        if c.kind in ("group", "panel"):
            pm = {mapping.get(m, f"?{m}") for m in _leaves(fig, c.id)}
            best = max(((len(pm & gm) / max(len(pm | gm), 1), gid) for gid, gm in gold.items() if gid not in hits),
                       default=(0.0, None))
            if best[1] is not None and best[0] >= GROUP_JACCARD:
                hits.add(best[1])
    return hits


def format_tables(forms: dict[str, Tally], groups: dict[str, Counter], head: bool) -> str:
    def pct(n: int, d: int) -> str:
        return f"{n:4d} {100 * n / d:3.0f}%" if d else f"{n:4d}   - "

    cols = ["ends(rules)", "found(rules)", "reversed(r)"] + (
        ["ends(head)", "found(head)", "reversed(h)", "ends(r+h)", "found(r+h)"] if head else [])
    lines = ["gold edges of dev briefs by the surface form that carries them",
             f"{'form':<24}{'gold':>6}" + "".join(f"{c:>14}" for c in cols)]
    tot = Tally()
    for name, t in forms.items():
        lines.append(f"{name:<24}{t.gold:>6}" + "".join(f"{pct(v, t.gold):>14}" for v in _row(t, head)))
        for k in ("gold", "ends_rules", "found_rules", "reversed_rules", "ends_head", "found_head", "reversed_head",
                  "ends_both", "found_both"):
            setattr(tot, k, getattr(tot, k) + getattr(t, k))
    vals = _row(tot, head)
    lines.append(f"{'all':<24}{tot.gold:>6}" + "".join(f"{pct(v, tot.gold):>14}" for v in vals))
    lines += ["", "gold groups by the cue that says them",
              f"{'cue':<26}{'gold':>6}{'found(rules)':>14}" + (f"{'found(head)':>14}{'found(r+h)':>14}" if head else "")]
    for cue, c in sorted(groups.items(), key=lambda kv: -kv[1]["gold"]):
        lines.append(f"{cue:<26}{c['gold']:>6}{pct(c['rules'], c['gold']):>14}"
                     + (f"{pct(c['head'], c['gold']):>14}{pct(c['both'], c['gold']):>14}" if head else ""))
    for t in forms.values():
        lines += t.examples[:40]
    return "\n".join(lines)


NODE_CLASSES = ("not said word for word", "a box with words too many", "a box with words too few",
                "a box sharing some words", "list item / heading", "after a heading's colon", "in brackets",
                "after called / named", "in a coordination", "object of a preposition", "subject before a verb",
                "other")


def node_misses(briefs: list[Brief]) -> dict[str, list[str]]:
    """Every gold node the rules' figure misses, classed: the brief never says it word for word (its label
    or an alias, in the scoring's normal form); a box of the figure that matched nothing shares its words
    (more, fewer, some); else by the grammar around its first mention (a list item or heading, after a
    heading's colon, in brackets, after "called"/"named", in a coordination "A, B and C", the object of a
    preposition, a subject before its verb)."""
    out: dict[str, list[str]] = {c: [] for c in NODE_CLASSES}
    for b in briefs:
        fig = figure_from_brief(b.text)
        score = score_figure(b.gold, fig, b.aliases)
        got = set(score.matched.values())
        unmatched = [set(normal_form(n.text).split()) for n in fig.of_kind("node") if n.id not in score.matched]
        toks = [(m.start(), m.end(), normal_form(m.group())) for m in re.finditer(r"[^\W_]+", b.text)]
        toks = [t for t in toks if t[2]]
        for g in b.gold.of_kind("node"):
            if g.id in got:
                continue
            forms = [f for f in [normal_form(g.text)] + [normal_form(a) for a in b.aliases.get(g.id, [])] if f]
            at = next(((toks[i][0], toks[i + len(f.split()) - 1][1], f) for f in forms
                       for i in range(len(toks) - len(f.split()) + 1)
                       if [t[2] for t in toks[i:i + len(f.split())]] == f.split()), None)
            if at is None:
                out[NODE_CLASSES[0]].append(f"{b.id} {g.text!r}")
                continue
            start, end, form = at
            cls = _node_miss_class(b.text, start, end, set(form.split()), unmatched)
            out[cls].append(f"{b.id} {g.text!r}: {b.text[max(0, start - 40):end + 40]!r}")
    return out


def _node_miss_class(text: str, start: int, end: int, gold: set[str], unmatched: list[set[str]]) -> str:
    if any(gold < p for p in unmatched):
        return "a box with words too many"
    if any(p and p < gold for p in unmatched):
        return "a box with words too few"
    if any(p & gold for p in unmatched):
        return "a box sharing some words"
    line_start = text.rfind("\n", 0, start) + 1
    line_end = len(text) if (k := text.find("\n", end)) < 0 else k
    before = re.findall(r"[\w'-]+|[,;:()]", text[max(line_start, start - 40):start])
    after = re.findall(r"[\w'-]+|[,;:.()]", text[end:min(line_end, end + 40)])
    while before and before[-1].lower() in _DETERMINERS | {"one"}:
        before = before[:-1]  # "against the human genome": the object of "against"
    prev, nxt = (before[-1].lower() if before else "^"), (after[0].lower() if after else "$")
    if _BULLET.match(text[line_start:line_end]) and len(text[line_start:start].split()) <= 2 \
            or re.match(r"\s*#+\s", text[line_start:line_end]):
        return "list item / heading"
    if prev == ":" or nxt == ":":
        return "after a heading's colon"
    if prev == "(" or nxt == ")":
        return "in brackets"
    if prev in ("called", "named", "termed", "dubbed", "labelled", "labeled"):
        return "after called / named"
    if nxt in (",", "and", "or") or prev in (",", "and", "or", "plus"):
        return "in a coordination"
    if prev in _PREPS:
        return "object of a preposition"
    if after and re.fullmatch(r"[a-z]+s|is|are|was|were", nxt):
        return "subject before a verb"
    return "other"


FALSE_CLASSES = ("near a gold node's words", "a number or unit", "a verb or adverb", "a generic noun",
                 "a clause (a verb inside)", "a name the gold leaves out")


def false_nodes(briefs: list[Brief]) -> dict[str, list[str]]:
    """Every box of the rules' figure that matches no gold node, classed: it shares words with a gold node the
    figure missed; a number or a unit ("0.4 s", "40 languages"); one word that is a verb of the reader's lexicon
    or an "-ly"/"-ed" word; a generic noun ("data", "the results"); a clause (a verb of the lexicon inside:
    "Sequencing run finishes"); else a name the gold leaves out (the system, a remark's thing)."""
    out: dict[str, list[str]] = {c: [] for c in FALSE_CLASSES}
    for b in briefs:
        fig = figure_from_brief(b.text)
        score = score_figure(b.gold, fig, b.aliases)
        got = set(score.matched.values())
        missed = [set(normal_form(g.text).split()) for g in b.gold.of_kind("node") if g.id not in got]
        for n in fig.of_kind("node"):
            if n.id in score.matched:
                continue
            out[_false_class(n.text, set(normal_form(n.text).split()), missed)].append(f"{b.id} {n.text!r}")
    return out


def _false_class(label: str, form: set[str], missed: list[set[str]]) -> str:
    words = label.lower().split()
    if any(form & m for m in missed):
        return FALSE_CLASSES[0]
    if re.match(r"[~\d$]", label) or re.search(r"\b\d", label) and len(words) <= 3:
        return FALSE_CLASSES[1]
    if len(words) == 1 and words[0] in GENERIC_NOUNS:
        return FALSE_CLASSES[3]
    if len(words) == 1 and (verb_lemma(words[0]) or re.fullmatch(r"[a-z]{3,}(?:ly|ed)", words[0])):
        return FALSE_CLASSES[2]
    if len(words) > 1 and any(verb_lemma(w) and w not in _NOUNISH_VERBS for w in words[1:]):
        return FALSE_CLASSES[4]
    return FALSE_CLASSES[5]


def format_false_nodes(false: dict[str, list[str]], show: int = 0) -> str:
    lines = [f"false boxes the rules draw, by class ({sum(len(v) for v in false.values())})"]
    lines += [f"{len(v):6d}  {cls}" for cls, v in false.items()]
    for cls, v in false.items():
        lines += [f"[{cls}] {x}" for x in v[:show]]
    return "\n".join(lines)


def format_node_misses(misses: dict[str, list[str]], show: int = 0) -> str:
    total = sum(len(v) for v in misses.values())
    lines = [f"gold nodes the rules miss, by class ({total})"]
    lines += [f"{len(v):6d}  {cls}" for cls, v in misses.items()]
    for cls, v in misses.items():
        lines += [f"[{cls}] {x}" for x in v[:show]]
    return "\n".join(lines)


def edge_misses(briefs: list[Brief]) -> dict[str, list[str]]:
    """Every gold arrow the rules' figure misses and every arrow it draws wrongly, classed. A missed arrow:
    drawn reversed; both ends found but no link (by the surface form that says it, :func:`edge_form`), or
    linked through one box between; one end missing (the source or the target) or both. A false arrow: a gold
    arrow reversed; both ends gold nodes and the gold joins them through one box (a skipped step); both ends
    share a gold source or target (list items chained); both gold, other; an end that is no gold node."""
    out: dict[str, list[str]] = defaultdict(list)
    for b in briefs:
        prompt, spans, sent, at = _places(b)
        fig = figure_from_brief(b.text)
        score = score_figure(b.gold, fig, b.aliases)
        mapping, found = score.matched, set(score.matched.values())
        labels = {n.id: n.text for n in fig.of_kind("node")}
        drawn = [(mapping.get(s), mapping.get(t), labels.get(s, s), labels.get(t, t))
                 for e in fig.of_kind("edge") for s, t in arrows(e)]
        pairs = {(s, t) for s, t, _, _ in drawn}
        gold = {p for e in b.gold.of_kind("edge") for p in arrows(e)}
        for a, c in sorted(gold - pairs):
            form, said = edge_form(prompt, spans, sent, at, a, c)
            if (c, a) in pairs:
                cls = "missed: drawn reversed"
            elif a in found and c in found:
                through = any((a, x) in pairs and (x, c) in pairs for x in found)
                cls = "missed: linked through a box between" if through else f"missed, both ends found: {form}"
            else:
                cls = "missed: both ends missing" if a not in found and c not in found else \
                    "missed: source missing" if a not in found else "missed: target missing"
            out[cls].append(f"{b.id} {a}->{c}: {said[:120]!r}")
        for s, t, ls, lt in drawn:
            if (s, t) in gold:
                continue
            if s is None or t is None:
                cls = "false: an end no gold node"
            elif (t, s) in gold:
                cls = "false: a gold arrow reversed"
            elif any((s, x) in gold and (x, t) in gold for x in found):
                cls = "false: a step skipped"
            elif any((x, s) in gold and (x, t) in gold or (s, x) in gold and (t, x) in gold for x in found):
                cls = "false: siblings chained"
            else:
                cls = "false: both gold, other"
            out[cls].append(f"{b.id} {ls!r}->{lt!r}")
    return dict(sorted(out.items(), key=lambda kv: -len(kv[1])))


def _row(t: Tally, head: bool) -> list[int]:
    return [t.ends_rules, t.found_rules, t.reversed_rules] + (
        [t.ends_head, t.found_head, t.reversed_head, t.ends_both, t.found_both] if head else [])


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--no-head", action="store_true", help="the rules reader only (no encoder needed)")
    ap.add_argument("--limit", type=int, default=0, help="the first N dev briefs (0: all)")
    ap.add_argument("--show", default=None, help="print the rules' missed edges of forms starting so ('arrow', 'verb')")
    ap.add_argument("--ends", action="store_true", help="with --show: only the missed edges whose both ends were found")
    ap.add_argument("--nodes", type=int, default=None, metavar="N",
                    help="only the rules' missed gold nodes, classed, with N examples of each")
    ap.add_argument("--edges", type=int, default=None, metavar="N",
                    help="only the rules' missed gold edges and false edges, classed, with N examples of each")
    a = ap.parse_args(argv)
    briefs = list(load_briefs("dev"))[: a.limit or None]
    if a.edges is not None:
        misses = edge_misses(briefs)
        print("\n".join(f"{len(v):6d}  {cls}" for cls, v in misses.items()))
        print("\n".join(f"[{cls}] {x}" for cls, v in misses.items() for x in v[:a.edges]))
        return
    if a.nodes is not None:
        print(format_node_misses(node_misses(briefs), a.nodes))
        print(format_false_nodes(false_nodes(briefs), a.nodes))
        return
    read = None
    if not a.no_head:
        reader = NameReader(WEIGHTS_DIR, shared_encoder())
        def read(text: str) -> dict:
            return reader.names(plan_prompt(text))
    t0 = time.perf_counter()
    forms, groups, scores = analyse(briefs, read, a.show, a.ends)
    print(format_tables(forms, groups, read is not None))
    for name, sc in scores.items():
        print(f"plans alone, {name}: nodes / edges / groups F1 "
              + " / ".join(f"{p.f1:.4f}" for p in (sc.nodes, sc.edges, sc.groups)))
    print(f"{len(briefs)} dev briefs in {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
