"""Plan examples: a random figure (nodes, links, groups, a title), a brief written for it, its DSL.

The brief is prose, bullets, numbered steps or arrows, in the split's phrasings; node ids
follow the order of first mention in the brief, edges the order they are stated, groups come
last. Labels are copied verbatim from the brief; storage nouns give ``shape=cylinder``, a
label ending in ``?`` gives ``shape=diamond``, "dashed"/"optional" links ``style=dashed``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from crafter.llm.corpus.invented import (
    BULLET_GLYPHS,
    english_name_words,
    invent,
    invented_caption,
    invented_group,
    invented_link,
    invented_sentence,
    invented_step,
)
from crafter.llm.corpus.phrasings import (
    ACTIVE,
    ARROWS,
    BULLETS,
    CAPTIONS,
    DASHED,
    FILLERS,
    GROUPS,
    LABELLED,
    OPENERS,
    PASSIVE,
    STEP_STYLES,
    THE,
    WHICH,
    sentence_case,
)
from crafter.llm.corpus.vocabulary import EDGE_WORDS, Vocab, pseudo_word, shape_for, vocab_for
from crafter.spec import Edge, Figure, Group, Node, print_dsl


def make_label(rng: random.Random, vocab: Vocab, used: set[str]) -> str:
    english = english_name_words() if vocab.pseudo else ()

    def modifier() -> str:
        return rng.choice(english) if english and rng.random() < 0.25 else rng.choice(vocab.modifiers)

    for _ in range(50):
        r = rng.random() if vocab.pseudo else 1.0  # (the held-out split draws as it always did)
        if vocab.pseudo and r < 0.3:
            head = pseudo_word(rng)
        elif english and r < 0.5:
            head = rng.choice(english)
        else:
            head = rng.choice(vocab.heads)
        words = [head]
        r = rng.random()
        if r < 0.45:
            words.insert(0, modifier())
        elif r < 0.6:
            words.insert(0, rng.choice(vocab.acronyms))
        elif r < 0.7:
            words = [modifier(), modifier(), head]
        elif r < 0.75:
            words.append(str(rng.randint(1, 12)))
        case = rng.random()
        if case < 0.55:
            words = [w if w.isupper() or w[0].isupper() else w.capitalize() for w in words]
        elif case < 0.65:
            words[0] = words[0] if words[0].isupper() else words[0].capitalize()
        label = " ".join(words)
        if rng.random() < 0.05:
            label += "?"
        if label.lower() not in used:
            used.add(label.lower())
            return label
    raise RuntimeError("vocabulary too small for a figure this size")


# ---------------------------------------------------------------------------------
# Figure structures
# ---------------------------------------------------------------------------------


@dataclass
class Link:
    src: int
    dst: int
    label: str | None = None
    dashed: bool = False


@dataclass
class Plan:
    labels: list[str]  # in order of first mention (= node ids n1, n2…)
    links: list[Link]  # in stated order
    groups: list[tuple[str, list[int]]] = field(default_factory=list)
    title: str | None = None

    def figure(self) -> Figure:
        comps: list = []
        for i, lab in enumerate(self.labels):
            comps.append(Node(kind="node", id=f"n{i + 1}", label=lab, shape=shape_for(lab)))
        for j, l in enumerate(self.links):
            comps.append(Edge(kind="edge", id=f"e{j + 1}", source=f"n{l.src + 1}", target=f"n{l.dst + 1}",
                              label=l.label, style="dashed" if l.dashed else "solid"))
        for k, (glabel, members) in enumerate(self.groups):
            comps.append(Group(kind="group", id=f"g{k + 1}", label=glabel, members=[f"n{m + 1}" for m in members]))
        return Figure(title=self.title, components=comps)


TITLE_FRAMES = ["Overview of the {x} pipeline", "The {x} architecture", "{x} workflow", "How {x} works",
                "Schematic of the {x} setup", "{x} system design", "Data flow in {x}"]


# ---------------------------------------------------------------------------------
# Plan briefs
# ---------------------------------------------------------------------------------


def _np(rng: random.Random, label: str) -> str:
    """A noun phrase for a label: an optional determiner plus the label verbatim."""
    return rng.choice(THE) + label


def random_plan(rng: random.Random, vocab: Vocab) -> Plan:
    n = rng.choice([2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 8])
    used: set[str] = set()
    labels = [make_label(rng, vocab, used) for _ in range(n)]
    links = [Link(i, i + 1) for i in range(n - 1)]
    if n >= 4 and rng.random() < 0.4:  # a skip or feedback link
        a, b = sorted(rng.sample(range(n), 2))
        if b - a > 1:
            links.append(Link(b, a) if rng.random() < 0.5 else Link(a, b))
    for l in links:
        r = rng.random()
        if r < 0.2:
            l.label = rng.choice(EDGE_WORDS) if not vocab.pseudo or rng.random() < 0.7 else pseudo_word(rng)
        elif r < 0.27:
            l.dashed = True
    plan = Plan(labels, links)
    if n >= 3 and rng.random() < 0.35:
        s = rng.randrange(0, n - 1)
        e = rng.randrange(s + 2, n + 1)
        plan.groups.append((make_label(rng, vocab, used), list(range(s, e))))
    if rng.random() < 0.3:
        plan.title = rng.choice(TITLE_FRAMES).format(x=labels[0])
    return plan


def _link_sentence(rng: random.Random, split: str, l: Link, names: list[str]) -> tuple[str, tuple[int, int]]:
    """A clause stating a link; returns it with the order the two nodes are mentioned in."""
    a, b = names[l.src], names[l.dst]
    inv = invent(rng, split)
    if l.label is not None:
        frame = invented_link(rng, "labelled") if inv else rng.choice(LABELLED[split])
        return frame.format(a=a, b=b, l=l.label), (l.src, l.dst)
    if l.dashed:
        frame = invented_link(rng, "dashed") if inv else rng.choice(DASHED[split])
        return frame.format(a=a, b=b), (l.src, l.dst)
    if rng.random() < 0.25:
        frame = invented_link(rng, "passive") if inv else rng.choice(PASSIVE[split])
        return frame.format(a=a, b=b), (l.dst, l.src)
    frame = invented_link(rng, "active") if inv else rng.choice(ACTIVE[split])
    return frame.format(a=a, b=b), (l.src, l.dst)


def render_brief(rng: random.Random, plan: Plan, split: str) -> Plan:
    """Write a brief for ``plan``; returns (brief, plan renumbered in order of first mention)."""
    style = rng.choice(["prose", "prose", "bullets", "steps", "arrows"])
    names = [_np(rng, lab) for lab in plan.labels]
    bare = list(plan.labels)
    mentioned: list[int] = []

    def mention(*idx: int) -> None:
        for i in idx:
            if i not in mentioned:
                mentioned.append(i)

    parts: list[str] = []
    opener = invented_sentence(rng) if invent(rng, split) else rng.choice(OPENERS[split])
    if opener:
        parts.append(opener)
    body: list[str] = []
    links = list(plan.links)
    chain = [l for l in links if l.label is None and not l.dashed and l.dst == l.src + 1]
    extra = [l for l in links if l not in chain]
    if style == "arrows" and chain:
        path = [chain[0].src] + [l.dst for l in chain]
        contiguous = all(chain[k].dst == chain[k + 1].src for k in range(len(chain) - 1))
        if contiguous:
            arrow = rng.choice(ARROWS[split])
            body.append(arrow.join(bare[i] for i in path))
            mention(*path)
            chain = []
    if style == "steps" and chain:
        path = [chain[0].src] + [l.dst for l in chain]
        if all(chain[k].dst == chain[k + 1].src for k in range(len(chain) - 1)):
            fmt = invented_step(rng) if invent(rng, split) else rng.choice(STEP_STYLES[split])
            body.append("The steps, in order:" if split == "train" else "In sequence:")
            for i, node in enumerate(path):
                body.append(fmt.format(i=i + 1, x=sentence_case(names[node])))
            mention(*path)
            chain = []
    sentences: list[str] = []
    k = 0
    while k < len(chain):  # prose: "A feeds B, which feeds C" runs
        l = chain[k]
        s, order = _link_sentence(rng, split, l, names)
        mention(*order)
        while k + 1 < len(chain) and chain[k + 1].src == l.dst and order == (l.src, l.dst) and rng.random() < 0.4:
            k += 1
            l = chain[k]
            which = invented_link(rng, "which") if invent(rng, split) else rng.choice(WHICH[split])
            s += which.format(b=names[l.dst])
            mention(l.dst)
        sentences.append(sentence_case(s) + ".")
        k += 1
    for l in extra:
        s, order = _link_sentence(rng, split, l, names)
        mention(*order)
        sentences.append(sentence_case(s) + ".")
    if style == "bullets" and sentences:
        b = rng.choice(BULLET_GLYPHS) if invent(rng, split) else rng.choice(BULLETS[split])
        body.extend(b + s for s in sentences)
    elif sentences:
        if rng.random() < 0.3:
            filler = invented_sentence(rng) if invent(rng, split) else rng.choice(FILLERS[split])
            sentences.insert(rng.randrange(len(sentences) + 1), filler)
        body.append(" ".join(sentences))
    for i in range(len(plan.labels)):  # isolated nodes still need a mention
        if i not in mentioned:
            body.append(f"There is also {names[i]}." if split == "train" else f"Add {names[i]} on its own.")
            mention(i)
    groups_text = []
    for glabel, members in plan.groups:
        m = [names[i] for i in members]
        ms = ", ".join(m[:-1]) + " and " + m[-1] if len(m) > 1 else m[0]
        frame = invented_group(rng) if invent(rng, split) else rng.choice(GROUPS[split])
        groups_text.append(sentence_case(frame.format(m=ms, g=glabel)) + ".")
    parts += body + groups_text
    if plan.title:
        cap = (invented_caption(rng) if invent(rng, split) else rng.choice(CAPTIONS[split])).format(t=plan.title)
        if rng.random() < 0.5:
            parts.insert(0, cap)
        else:
            parts.append(cap)
    sep = "\n" if style in ("bullets", "steps") or rng.random() < 0.3 else " "
    brief = sep.join(p for p in parts if p)
    # renumber nodes in order of first mention
    order = {old: new for new, old in enumerate(mentioned)}
    renum = Plan([plan.labels[i] for i in mentioned],
                 [Link(order[l.src], order[l.dst], l.label, l.dashed) for l in plan.links],
                 [(g, [order[i] for i in ms]) for g, ms in plan.groups], plan.title)
    renum.brief = brief  # type: ignore[attr-defined]
    return renum


def plan_example(rng: random.Random, split: str) -> tuple[str, str]:
    """(brief, target DSL)."""
    plan = render_brief(rng, random_plan(rng, vocab_for(split)), split)
    return plan.brief, print_dsl(plan.figure())  # type: ignore[attr-defined]
