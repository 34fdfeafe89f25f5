"""The rule-based brief reader: entities and relations a brief names, without a model.

Two jobs:

* the **fallback planner** — when the model is absent, dead or writes nonsense, the
  user still gets a sensible figure: :func:`figure_from_brief` turns the brief's lists,
  arrow chains ("A → B → C"), quoted names and flow verbs ("A feeds B", "B is passed
  to C", "from X to Y") into nodes and edges;
* the **entity list** for the critic's "named in the brief but missing from the
  figure" check — :func:`brief_entities` returns only the names it is sure of (quoted
  strings, list items, arrow-chain members), because a false alarm makes the repairer
  add things nobody asked for.

Labels keep the user's spelling and case (they are spans of the brief).
"""

from __future__ import annotations

import re

from crafter.agents.coordination import read_coordinated_names
from crafter.agents.decisions import read_decisions
from crafter.agents.distributive import read_shared_heads
from crafter.agents.headed import PIECE_SPLIT, PIPE_SPLIT, as_said, headed_names, listed_names, piped_names, side_by_side_heading
from crafter.agents.labels import labels_match, normalise_label, slug_id
from crafter.agents.links import read_links
from crafter.agents.panels import PANEL_RE, panel_names, panel_segments
from crafter.agents.participles import read_verb_steps
from crafter.agents.phrases import ITEM_RE, MAX_LABEL_WORDS, QUOTED_RE, clean_phrase, is_order, item_label, step_name
from crafter.agents.prose import GENERIC_WHOLES, ProseState, first_noun_phrase, np_label, read_prose, reads_backward, verb_lemma
from crafter.agents.quantities import tidy_numbers
from crafter.agents.reading import (
    SENTENCE_SPLIT,
    BriefReading,
    box_key,
    drop_collective_groups,
    drop_heading_names,
    drop_remarks,
    find_word,
    group_titles,
    groups_named,
    head_group_name,
    made_by,
    merge_abbreviations,
    prefer_fuller_names,
    read_followed_by,
    read_listed_groups,
    read_searched_against,
    said_again_as,
    split_joined_names,
    spread_collectives,
)
from crafter.agents.steps import filed_in, heads_parts, reads_as_steps
from crafter.agents.subject import drop_generic_names, drop_system_name
from crafter.agents.targets import read_flow_ends
from crafter.agents.wrapped import ARROW_RE, prepared_brief, unwrap_lines
from crafter.spec import Edge, Figure, Group, Node, Panel

_BOXED_RE = re.compile(  # members, a verb of place, a container, its name: one group
    r"^(?P<members>.+?)\s+(?:(?:are|is)\s+)?(?:sit|sits|live|lives|stay|stays|reside|resides|are|is|belong|belongs|"
    r"go|goes|placed|drawn|kept|put)(?:\s+together)?\s+(?:inside|in|within|under|into)\s+(?:a|one|the|a single)\s+"
    r"(?:box|frame|group|panel|container|region|block|cluster)\s+(?:labelled|labeled|called|named|titled|marked)\s+"
    r"[\"“']?(?P<group>[^\"”'.]+?)[\"”']?\s*\.?$", re.I)
_LIST_INTRO_RE = re.compile(
    r"\b(?:consist(?:s|ing)?\s+of|compris(?:es|ing)|contains?|containing|with|has|have|made\s+of|"
    r"stages?(?:\s+are)?|steps?(?:\s+are)?|components?(?:\s+are)?)\s*:?\s+(?P<rest>.+)$",
    re.I,
)

_DIAGRAM_CUES = re.compile(
    r"\b(?:diagram|pipeline|architecture|flow|workflow|flowchart|stages?|steps?|modules?|blocks?|layers?|"
    r"encoder|decoder|feeds?|fed|passes|passed|connects?|components?|system|framework|overview|network|"
    r"processing|inputs?|outputs?)\b|->|→",
    re.I,
)
_CHART_CUES = re.compile(
    r"\b(?:plot|chart|graph|bars?|histogram|scatter|lines?|curve|axis|axes|versus|vs\.?|per\s+epoch|trend|"
    r"heatmap|box\s*plot|compare|comparison|accuracy|loss|results?|table|data|values?)\b",
    re.I,
)

_NAMES_A_CHART = re.compile(r"\b(?:charts?|plots?|graphs?|histograms?|heatmaps?|scatter|curves?)\b", re.I)

_SHAPE_WORDS = [
    (re.compile(r"\b(?:database|db|index|store|storage|cache|memory|corpus|warehouse|repository|buffer|lake)\b", re.I),
     "cylinder"),
    (re.compile(r"\b(?:document|report|paper|pdf|answer|transcript|summary)\b", re.I), "document"),
    (re.compile(r"\?\s*$|\b(?:decision|check|converged|condition)\b", re.I), "diamond"),
    (re.compile(r"\b(?:user|query|request|prompt|input)\b", re.I), "parallelogram"),
]


# ---------------------------------------------------------------------------------
# Prose: clauses read as subject / verb / object / prepositional targets
# ---------------------------------------------------------------------------------

def read_brief(brief: str) -> BriefReading:
    """Entities and relations a brief names (rules only; see the module docstring). Prose wrapped at a fixed width
    is read unwrapped (:func:`unwrap_lines`), here too, so the critic and the router read what the planner reads."""
    reading = BriefReading()
    text = _read_title_and_direction(prepared_brief(brief), reading)
    names = _Names(reading)
    for q in QUOTED_RE.finditer(text):
        names.add((q.group(1) or q.group(2)).strip(), strong=True)
    prose = _read_items(text, names)
    st = ProseState()
    _read_sentences(re.sub(r"\b(e\.g|i\.e|vs|cf|etc)\.", r"\1", "\n".join(prose)), names, st)
    _read_bracket_groups("\n".join(prose), names)
    _read_groups(st, names)
    reading.negated = list(st.negated)
    _read_headed_lines(text, reading)
    _chain_flow_lines(text, names)
    return reading


def _line_names(line: str, reading: BriefReading) -> list[str]:
    """The names said in a line, in the order said."""
    found = sorted((at, -len(e), e) for e in reading.entities if (at := find_word(line, e)) >= 0)
    return [e for *_, e in found]


def _chain_flow_lines(text: str, names: _Names) -> None:
    """A list whose lines draw arrows ("- reads → QC", "- phasing: SHAPEIT5") continues from line to line:
    the last thing one line names feeds the first the next one names."""
    lines = [ln for ln in text.split("\n") if ln.strip()]
    items = [ln for ln in lines if ITEM_RE.match(ln) or _ITEM_MARK_RE.match(ln)]
    if len(items) < 2 or not any("->" in ln for ln in items):
        return
    prev: list[str] = []
    for ln in lines:
        if not (ITEM_RE.match(ln) or _ITEM_MARK_RE.match(ln)):
            prev = []
            continue
        here = _line_names(ln, names.reading)
        if prev and here and here[0] not in prev:  # (a line opening on a name the line before said goes on from it)
            names.relate(prev[-1], here[0])
        prev = here or prev


# a heading that says the role its names play in the figure, not a part that holds them: no group drawn (dev plans
# alone: 9 groups so named, none in the gold; train: 6, one)
_ROLE_HEADINGS = {"input", "inputs", "in", "output", "outputs", "out", "analysis", "analyses", "model", "loss", "losses",
                  "training", "evaluation", "inference", "data", "results"}
_HEADED_RE = re.compile(r"^\s*(?:(?:[-*•·–]|\(?\d+[.)])\s+)?(?P<head>[^:\n]{1,40}?)\s*:\s+(?P<rest>\S.*)$")


def _read_headed_lines(text: str, reading: BriefReading, *, lists_only: bool = False) -> None:
    """A list line "delivery: the substrate pump and the H2 generator" whose text after the heading names two
    or more things: a group of them named by the heading. ``lists_only``: only a line whose text is a list
    of names and nothing else ("qualitative: interviews, observation notes"; not "embed: 3D embedding
    followed by GFN2-xTB", a step)."""
    for line in text.split("\n"):
        m = _HEADED_RE.match(line)
        if not m or len(m.group("head").split()) > 4 or not re.search(r"[^\W\d_]", m.group("head")) \
                or is_order(m.group("head")):  # "2. Filter: reads and adapters": a step, no group
            continue
        label = clean_phrase(m.group("head"), side="right")
        rest = m.group("rest").lower()
        found = sorted((at, e) for e in reading.entities
                       if (at := find_word(rest, e)) >= 0 and normalise_label(e) != normalise_label(label))
        members = list(dict.fromkeys(e for _, e in found))
        if lists_only and not _names_only(rest, members):
            continue
        if label and len(members) >= 2 and not any(normalise_label(g) == normalise_label(label) for g, _ in reading.groups):
            reading.groups.append((label, members))


def _names_only(rest: str, members: list[str]) -> bool:
    """``rest`` (lower case) is a list of two or more short pieces, each naming one of ``members``."""
    pieces = [p for p in PIECE_SPLIT.split(re.sub(r"\([^()]*\)", " ", rest)) if p.strip()]
    return len(pieces) >= 2 and all(len(p.split()) <= 5 and any(find_word(p, e) >= 0 for e in members) for p in pieces)


def _brief_title(brief: str) -> str | None:
    """The title :func:`read_brief` finds, without reading the rest of the brief."""
    reading = BriefReading()
    _read_title_and_direction(prepared_brief(brief), reading)
    return reading.title


def _read_title_and_direction(text: str, reading: BriefReading) -> str:
    """The title (quoted, 'Title: X', or a caption's first phrase) and the flow direction; the text without the title."""
    m = re.search(r"\b(?:titled|entitled|title[d]?:?|caption(?:ed)?:?)\s+[\"“]([^\"”]{1,80})[\"”]", text, re.I)
    if m:
        reading.title = m.group(1).strip()
        text = text[: m.start()] + text[m.end():]
    if not reading.title:  # an unquoted "Title: X" / "Figure title: X" / "Caption: X" sentence
        m = re.search(r"(?:^|(?<=[.!?\n]))\s*(?:Figure\s+|Fig\.\s*)?(?:title|caption)\s*:\s*([^\n.]{1,80})\.?",
                      text, re.I)
        if m and m.group(1).strip():
            reading.title = m.group(1).strip()
            text = text[: m.start()] + "\n" + text[m.end():]
    cap = re.match(r"\s*(?:Figure|Fig\.?)\s*\d+[a-z]?\s*[:.|]\s*", text, re.I)
    if cap:  # "Figure 2: Our retrieval pipeline. The query ..." -> title, then the description
        text = text[cap.end():]
        head = re.match(r"([^.;\n]{1,80})[.\n]\s*", text)
        if head and not any(verb_lemma(w) for w in head.group(1).split()[1:]):
            reading.title = reading.title or np_label(head.group(1).split())
            text = text[head.end():]
    if re.search(r"\b(?:top[- ]to[- ]bottom|top[- ]down|vertical(?:ly)?|from top)\b", text, re.I):
        reading.direction = "TB"
    elif re.search(r"\b(?:left[- ]to[- ]right|horizontal(?:ly)?)\b", text, re.I):
        reading.direction = "LR"
    return text


class _Names:
    """The entities and relations found so far: a name said twice is one entity."""

    def __init__(self, reading: BriefReading) -> None:
        self.reading = reading
        self.question: str | None = None  # the last name said as a question in an arrow chain ("overlap > 50%?")

    def add(self, name: str, strong: bool) -> str | None:
        reading = self.reading
        name = name.strip()
        if not name or len(name) > 60 or not re.search(r"[^\W\d_]", name):
            return None
        # "the decoder output" after "a decoder" is the decoder's arrow, not a new box
        name = re.sub(r"(?i)(?:'s)?\s+(?:outputs?|results?|predictions?|signals?)$", "", name).strip() or name
        new_words = set(normalise_label(name).split())
        for known in reading.entities:
            # "the backbone" after "a ResNet-50 backbone" is the same thing: keep the first, fuller name
            if (normalise_label(known) == normalise_label(name)
                    or (new_words and new_words <= set(normalise_label(known).split()))):
                if strong and known not in reading.strong:
                    reading.strong.append(known)
                return known
        reading.entities.append(name)
        if strong:
            reading.strong.append(name)
        return name

    def relate(self, a: str | None, b: str | None) -> None:
        if a and b and a != b and (a, b) not in self.reading.relations:
            self.reading.relations.append((a, b))

    def relate_all(self, sources: list[str], targets: list[str]) -> None:
        for a in sources:
            for b in targets:
                self.relate(a, b)

    def chain(self, names: list[str | None]) -> None:
        for a, b in zip(names, names[1:]):
            self.relate(a, b)


def _read_items(text: str, names: _Names) -> list[str]:
    """Bulleted and numbered items become entities (numbered ones, a diagram's, or a list that reads as steps
    (:mod:`crafter.agents.steps`), chained in
    order); returns the lines left for the prose reader (an item's own sentence included)."""
    items: list[tuple[str | list[str], bool]] = []  # (label, or the names one line lists side by side; numbered)
    prose: list[str] = []
    said: list[str] = []  # each item's text
    heading: list[str] = []  # the lines before the first item
    filed: list[tuple[str, list[str]]] = []  # a step said as an order, and the stores it files its results in
    side_groups: list[tuple[str, list[str]]] = []  # a heading saying its names run side by side, and those names
    for line in text.split("\n"):
        im = ITEM_RE.match(line)
        if im:
            said.append(im.group(1))
        elif not said:
            heading.append(line)
        arrowless = bool(im) and "->" not in im.group(1)
        # "- inputs: the receptor PDB and a ligand SDF" (a group "inputs") or "- QUAST | BUSCO | Merqury – independent
        # runs": boxes side by side
        side = ((listed := headed_names(im.group(1))) and listed[1]) or piped_names(im.group(1)) if arrowless else None
        if side:
            items.append((side, False))
            prose.append("")
            if group := side_by_side_heading(im.group(1)):  # "crop models side by side: A | B": the crop models
                side_groups.append((group, side))
        elif arrowless:
            label = item_label(im.group(1))
            subject = first_noun_phrase(im.group(1))
            if subject and len(subject) < len(label) and normalise_label(label).startswith(normalise_label(subject)):
                label = subject  # "decoder reconstructs the waveform": the item names the decoder
            stores, step = filed_in(im.group(1)), step_name(im.group(1))
            if stores and not step and verb_lemma(im.group(1).split()[0].lower()):  # "7. Enter the results in the
                label, stores = stores[0], stores[1:]  # catchment database": an order naming no step; the store is the item
            if label:
                items.append((label, bool(re.match(r"\s*\(?\d|\s*(?:step|stage|phase)", line, re.I))))
                filed.append((label, stores))
            # the item's own sentence may still name relations; a protocol's order is its step ("Take a grab
            # sample from the thalweg in a bottle filled to the brim": no "Thalweg -> Brim")
            prose.append("" if step else im.group(1))
        else:
            prose.append(line)
    slots = [[n for n in (names.add(x, strong=True) for x in ([label] if isinstance(label, str) else label)) if n]
             for label, _ in items]
    slots = [s for s in slots if s]
    for group, side in side_groups:
        if normalise_label(group) not in {normalise_label(g) for g, _ in names.reading.groups}:
            names.reading.groups.append((group, [n for x in side if (n := names.add(x, strong=True))]))
    if sum(map(len, slots)) >= 2 and (any(num for _, num in items) or reads_as_steps(said, "\n".join(heading))
                                      or _DIAGRAM_CUES.search(text) and not heads_parts("\n".join(heading))):
        for a, b in zip(slots, slots[1:]):  # the names of one line side by side: each from or into a lone step
            if (len(a) == 1 or len(b) == 1) and not set(b) <= set(a):  # (a line on one of the names before: no
                names.relate_all(a, b)  # step after them, "- CLIP-L and CLIP-G each give pooled outputs")
    for label, stores in filed:  # "3. Split every core; store one half in the core repository"
        names.relate_all([names.add(label, strong=True) or label], [n for x in stores if (n := names.add(x, False))])
    return prose


def _read_sentences(prose_text: str, names: _Names, st: ProseState) -> None:
    """Each sentence: an arrow chain, a 'boxed' group, relations read from prose, or a plain list."""
    reading = names.reading
    prev_sink: str | None = None
    for sentence in SENTENCE_SPLIT.split(prose_text):
        st.mentioned = []
        sentence = sentence.strip()
        if not sentence:
            continue
        if "->" in sentence:
            _read_arrow_chain(sentence, names)
            continue
        if not sentence.endswith("?"):  # (a question said again, "eligible? -> yes -> …", is split off at its "?")
            names.question = None  # a sentence in between: a later "yes -> X" answers no question said before it
        bm = _BOXED_RE.match(sentence)
        if bm:  # "A and B sit inside a box labelled G"
            parts = [clean_phrase(m, side="right") for m in re.split(r",|\band\b", bm.group("members"))]
            st.groups.append((bm.group("group"), [m for m in parts if m]))
            continue
        before, known, acting = len(st.relations), set(reading.entities), len(st.actors)
        read_prose(sentence, st)
        for a in st.actors[acting:]:  # "a SPAN port mirrors the core switch", "stacked with anodes and separator"
            names.add(a, False)  # (added after the sentence's flow's names: dev nodes 0.5459 -> 0.5451)
        if len(st.relations) > before:
            prev_sink = _relate_prose(st.relations[before:], names, known, prev_sink)
            continue
        goes_on = re.match(r"(.{1,60}?)\s+then\s+[a-z]", sentence)  # "NegEx then removes negated mentions": after
        said = normalise_label(goes_on.group(1)) if goes_on else ""  # the last sentence's end feeds it
        if said and prev_sink and (a := next((names.add(x, False) for x in st.actors[acting:]
                                              if normalise_label(x) == said), None)):
            names.relate(prev_sink, a)
            prev_sink = a
        lm = _LIST_INTRO_RE.search(sentence)
        if lm and not reading.relations:
            listed = [names.add(clean_phrase(p, side="right"), False)
                      for p in re.split(r",|\band\b|\bor\b|;", lm.group("rest"))]
            listed = [n for n in listed if n]
            if len(listed) >= 2:
                names.chain(listed)


def _read_arrow_chain(sentence: str, names: _Names) -> None:
    """ "A → B → C": a chain; "A + B → C" joins two things into C; a remark in brackets is no name."""
    parts = re.sub(r"\s*\([^()]*\)", " ", _ITEM_MARK_RE.sub("", sentence)).split("->")
    if m := _HEAD_SAYS_RE.match(parts[0]):  # "borrow check: conflicting accesses to borrowed places -> errors"
        parts[0] = m.group(1)  # the step the item is about, its words after the colon what it does
    prev: list[str] = []
    label: str | None = None  # the answer a branch of a question goes on ("yes")
    for i, part in enumerate(parts):
        side = "left" if i == 0 else "right"
        pieces = re.split(r"\s+[+&]\s+", part) if i < len(parts) - 1 or len(parts) == 2 else [part]
        pieces = [x for p in pieces for x in PIPE_SPLIT.split(p)]  # "mouse block | touchpad block": side by side
        if i == len(parts) - 1 and len(pieces) == 1 and (listed := listed_names(part)):
            pieces = listed  # "→ nanoindentation, scratch test, XRD texture": each fed
        here = []
        answer = _ANSWER_RE.match(pieces[0].strip())  # a bare "yes" is its part's one piece
        if answer:  # "overlap > 50%? yes → drop; no → panoptic fusion": the question's branch, no box "Yes"
            if names.question and (i == 0 or not prev):
                prev, label = [names.question], answer.group(1).lower()
            if answer.end() == len(part.strip()):
                continue
            pieces[0] = pieces[0].strip()[answer.end():]  # "yes: load the bytecode …": the branch goes on to it
        for piece in pieces:
            phrase = clean_phrase(piece, side=side if i in (0, len(parts) - 1) else "right")
            phrase = re.sub(r"(?i)^(?:back\s+)?(?:in)?to\s+", "", phrase)
            name = names.add(as_said(phrase), strong=len(phrase.split()) <= 4)
            if name:
                here.append(name)
                if piece.rstrip().endswith("?"):
                    names.question = name
        for a in prev:
            for b in here:
                names.relate(a, b)
                if label and a != b:  # a is the question (the branch target may be a question itself)
                    names.reading.edge_labels.setdefault((a, b), label)
        prev, label = here, None


_ANSWER_RE = re.compile(r"(?i)(yes|no)(?:\s*:\s+(?=\S)|\s*[:,]?\s*$)")  # an answer opening its branch: "yes → drop",
# "yes: keep the stratum"
# a step named before a colon, what it does said after in four words or more, no list of inputs ("diary + interviews")
_HEAD_SAYS_RE = re.compile(r"^\s*([A-Za-z][\w/-]*(?:\s+[\w/-]+){0,2})\s*:\s+[^\s:+&,]+(?:\s+[^\s:+&,]+){3,}\s*$")
_ITEM_MARK_RE = re.compile(r"^\s*(?:[-*•·–]|\(?\d{1,2}[.)])\s+")


def _relate_prose(relations: list, names: _Names, known: set[str], prev_sink: str | None) -> str | None:
    """Relations the prose reader found in one sentence, added; returns where the sentence ended."""
    reading = names.reading
    pairs, first_rel = [], len(reading.relations)
    for a, b, lab in relations:
        ca, cb = made_by(a, reading.entities) or names.add(a, False), names.add(b, False)
        names.relate(ca, cb)
        if ca and cb and ca != cb:
            pairs.append((ca, cb))
            if lab and normalise_label(lab) not in (normalise_label(ca), normalise_label(cb)):
                reading.edge_labels.setdefault((ca, cb), lab)
    # prose describes a pipeline in order: a sentence that starts on something new continues
    # from where the previous one ended ("... a vector index; the top-k passages are re-ranked")
    fresh = [a for a, _ in pairs if a not in known and not any(t == a for _, t in reading.relations)]
    if fresh and prev_sink and prev_sink != fresh[0] and not any(f == prev_sink for f, _ in reading.relations):
        reading.relations.insert(first_rel, (prev_sink, fresh[0]))
    return pairs[-1][1] if pairs else prev_sink


_BRACKET_GROUP_RE = re.compile(
    r"(?P<name>\b[\w-]+(?:\s+[\w-]+){0,2}?\s+(?:chain|unit|block|subgroup|group|stage|layer|module|subworkflow|"
    r"branch|tower|stack|section|tier|subsystem|loop|service|upsamplers|encoders|decoders|heads|sensors))\s*"
    r"\((?P<list>[^()]{3,160})\)", re.I)
# ", then" / "; and" one separator: "(medaka variant calling, then bcftools consensus)" has two parts, no empty one
_BRACKET_SPLIT_RE = re.compile(r"[,;]?\s*(?:\band\b|\bthen\b|\bfollowed\s+by\b|\bplus\b|→|->)|,|;", re.I)


# a group whose parts run one after another: its name says so, or its list joins them by "then", an arrow
_SEQUENTIAL_NAMES = {"chain", "stage", "stages", "steps", "loop", "pipeline", "procedure", "sequence"}
_IN_ORDER_RE = re.compile(r"\bthen\b|→|->|\bfollowed\s+by\b", re.I)
_GROUP_NAME_STARTS = {"the", "a", "an", "our", "its", "their", "this", "these", "each", "one", "two", "three", "and",
                      "or", "of", "in", "into", "with", "contains", "holds", "has", "runs", "wraps", "from", "to"}


def _read_bracket_groups(text: str, names: _Names) -> None:
    """A group's name and its members in brackets: "the preprocessing chain (bandpass filter, common median
    reference, bad-channel removal)", "a mechanical block (the elastic tensor)"; the members of a sequence
    ("chain", "stages", a list joined by "then" or arrows) flow from one to the next where no flow among them was read,
    parallel parts ("three sensors (camera, lidar, radar)") do not."""
    reading = names.reading
    for m in _BRACKET_GROUP_RE.finditer(text):
        words = m.group("name").split()
        cut = [i for i, w in enumerate(words) if w.lower() in _GROUP_NAME_STARTS]
        label = np_label(words[cut[-1] + 1:] if cut else words)  # "contains a waveforms unit": "Waveforms unit"
        parts = [clean_phrase(p, side="right") for p in _BRACKET_SPLIT_RE.split(m.group("list"))]
        if not label or any(not p or len(p.split()) > 4 or re.search(r"\d", p[:1]) for p in parts) \
                or len(parts) == 1 and re.fullmatch(r"[A-Z][A-Z0-9-]{1,7}", parts[0]):
            continue  # "(10 Hz)", "(see Methods for the full protocol)": a remark; "(IWRS)": the group's abbreviation
        prefer_fuller_names(reading, parts)  # "medaka variant" read before: "medaka variant calling"
        members = [x for x in dict.fromkeys(names.add(p, False) for p in parts) if x]
        if members and not any(normalise_label(g) == normalise_label(label) for g, _ in reading.groups):
            reading.groups.append((label, members))
            if (words[-1].lower() in _SEQUENTIAL_NAMES or _IN_ORDER_RE.search(m.group("list"))) \
                    and not any(a in members and b in members for a, b in reading.relations):
                names.chain(members)


def _read_groups(st: ProseState, names: _Names) -> None:
    """'X consists of A, B and C': a group X of A, B, C (a generic whole, 'the pipeline', chains them)."""
    reading = names.reading
    for whole, parts in st.groups:
        members = [m for m in dict.fromkeys(names.add(p, False) for p in parts) if m]
        if set(normalise_label(whole).split()) & GENERIC_WHOLES:  # "the pipeline consists of A, B and C"
            if len(members) >= 2 and not reading.relations:
                names.chain(members)
            continue
        label = np_label(whole.split())
        members = [m for m in members if normalise_label(m) != normalise_label(label)]
        if label and members:
            reading.groups.append((label, members))


def brief_entities(brief: str) -> list[str]:
    """The names a brief certainly gives (quoted, listed, or in an arrow chain)."""
    return read_brief(brief).strong


def describes_diagram(brief: str) -> bool:
    """Does the brief describe a diagram (boxes and arrows), not only a chart?"""
    reading = read_brief(brief)
    if reading.relations:
        return True
    diagram = len(_DIAGRAM_CUES.findall(brief))
    chart = len(_CHART_CUES.findall(brief))
    return diagram >= 2 and diagram > chart


def _shape_for(label: str) -> str:
    for pattern, shape in _SHAPE_WORDS:
        if pattern.search(label):
            return shape
    return "round"


ARROWS_FOR_RULES = 4  # dev briefs with 4+ arrows: rules alone 0.596/0.188/0.319 against 0.591/0.180/0.312 with the head


def draws_arrows(brief: str) -> bool:
    """Does the brief draw its own arrows ("A → B → C", four or more)? Its arrow chains then name the boxes
    and links exactly, and a name head's reading is left out (:func:`with_head`)."""
    return len(ARROW_RE.findall(brief)) >= ARROWS_FOR_RULES


def with_head(reading: BriefReading, head: dict, text: str = "") -> BriefReading:
    """The rules' reading with a trained name head's (:meth:`crafter.llm.names.NameReader.names`; left out of
    :func:`figure_from_brief` for a brief that :func:`draws_arrows`): the head's
    names are the boxes (it finds more of them, and fewer wrong ones); a name of the rules' that one of the
    head's covers becomes that name; of the names only the rules found, the sure ones
    stay (quoted, listed, in an arrow chain; a list item of four words or more only when numbered or
    quoted: an unnumbered one is mostly a remark, "~15 min per vertebrate genome"); edges are the head's
    links and the rules' relations between the names kept; groups the rules' and the head's."""
    heads = list(dict.fromkeys(n for n in head.get("node", []) if n.strip()))
    if not heads:
        return reading
    first_said: dict[str, str] = {}  # "revision" and "revisions", "level-1" and "level 1": one box
    heads_all, heads = heads, [h for h in heads if first_said.setdefault(box_key(h), h) == h]
    again = said_again_as(heads, text)  # "the sealed allocation store … the allocation store": one box
    heads = [h for h in heads if h not in again]
    strong = [e for e in reading.entities if e in set(reading.strong)]
    steps = {item_label(m.group(1)) for m in map(ITEM_RE.match, text.split("\n"))
             if m and re.match(r"\s*\(?\d|\s*(?:step|stage|phase)", m.group(0), re.I)}
    steps |= {(q.group(1) or q.group(2)).strip() for q in QUOTED_RE.finditer(text)}

    def same(a: str, b: str) -> bool:
        return a.lower() == b.lower() or normalise_label(a) == normalise_label(b)

    # a name the rules are sure of (an arrow chain's, a list item's, a quoted one) keeps the rules' spelling:
    # the head's name for it becomes it, where it is the only head name that covers it
    covers = {e: [h for h in heads if labels_match(e, h)] for e in strong}
    to_final: dict[str, str] = {}
    for h in heads:
        hit = next((e for e in strong if same(e, h)), None)
        if hit is None:
            hit = next((e for e in strong if covers[e] == [h]), None)
        to_final[h.lower()] = hit or as_said(h)  # "deduplicator"
    for h in heads_all:
        first = first_said[box_key(h)]
        while first in again:
            first = again[first]
        to_final.setdefault(h.lower(), to_final[first.lower()])
    out = BriefReading(title=reading.title, direction=reading.direction, negated=reading.negated,
                       entities=list(dict.fromkeys(to_final[h.lower()] for h in heads)))
    alias: dict[str, str | None] = {}
    for e in reading.entities:
        hit = e if e in out.entities else next((to_final[h.lower()] for h in heads if same(e, h)), None) \
            or next((to_final[h.lower()] for h in heads if labels_match(e, h)), None)
        if hit is None and e in strong and (len(e.split()) < 4 or e in steps):
            out.entities.append(e)
            hit = e
        alias[e] = hit
    out.strong = [e for e in out.entities if e in strong or any(alias.get(x) == e for x in strong)]
    by_low = {h.lower(): to_final[h.lower()] for h in heads_all}
    seen: set[tuple[str, str]] = set()

    def relate(a: str | None, b: str | None) -> None:
        if a and b and a != b and (a, b) not in seen:
            seen.add((a, b))
            out.relations.append((a, b))

    ruled = {(alias.get(a), alias.get(b)) for a, b in reading.relations}
    for a, b in reading.relations:
        relate(alias.get(a), alias.get(b))
    for a, b in head.get("links", []):
        if any(labels_match(a, x) and labels_match(b, y) or labels_match(a, y) and labels_match(b, x)
               for x, y in reading.negated):
            continue  # "the front end never talks to the annotator"
        if (by_low.get(b), by_low.get(a)) not in ruled:  # the rules read the verb: their direction stands
            if _said_backward(a, b, text):  # "X, which queries Y": Y -> X
                a, b = b, a
            relate(by_low.get(a), by_low.get(b))
    out.edge_labels = {(alias.get(a), alias.get(b)): lab for (a, b), lab in reading.edge_labels.items()}
    for label, members in reading.groups:
        inside = [m for m in dict.fromkeys(alias.get(m) for m in members) if m]
        if inside:
            out.groups.append((label, inside))
    for label, members in head.get("members", []):
        inside = [m for m in dict.fromkeys(by_low.get(m) for m in members) if m]
        named, inside = head_group_name(label, inside, text)
        if not any(normalise_label(g) == normalise_label(named) for g, _ in out.groups):
            label = named  # (the rules' group of that name stays the one of that name)
        if len(inside) >= 2 and not any(normalise_label(g) == normalise_label(label) for g, _ in out.groups):
            out.groups.append((label, inside))
    return out


def _said_backward(a: str, b: str, text: str) -> bool:
    """A head's link a -> b that the words between a and b, in one sentence, read the other way."""
    i, j = find_word(text, a), find_word(text, b)
    if i < 0 or j < 0 or j < i + len(a):
        return False
    between = text[i + len(a):j]
    return not re.search(r"[.;!?\n]", between) and reads_backward(between)


def _head_part(head: dict | None, text: str) -> dict | None:
    """The head's reading restricted to the names a part of the brief says (a panel's text)."""
    if not head:
        return head
    nodes = [n for n in head.get("node", []) if find_word(text, n) >= 0]
    keep = {n.lower() for n in nodes}
    return {**head, "node": nodes, "links": [(a, b) for a, b in head.get("links", []) if a in keep and b in keep],
            "members": [(g, ms) for g, ms in head.get("members", []) if find_word(text, g) >= 0]}


def figure_from_brief(brief: str, *, title: str | None = None, names: dict | None = None,
                      fallback: bool = True) -> Figure:
    """A sensible figure from the brief alone: its names as nodes, its flows as edges.

    Never fails on text: a brief with nothing recognisable gives one node holding its
    first words, so the user sees something to edit (``fallback=False``, a panel's text: the noun phrase
    it opens on, "PixelCNN prior" for "a PixelCNN prior is fitted over …", the first words of a chart's
    description, or nothing). A brief of panels
    (a), (b)… is read panel by panel: each panel draws its own boxes (the same step in two panels is two
    boxes).
    """
    brief = unwrap_lines(brief)
    if names and draws_arrows(brief):
        names = None
    if names:
        names = split_joined_names(names)
    preamble, panels = panel_segments(brief)
    if panels:
        return _panels_figure(brief, preamble, panels, title, names)
    reading = read_brief(brief)
    if names:  # "both analyses inform the typology": spread over the head's names too, before the merge drops it
        reading.entities += [n for n in names.get("node", []) if n.strip() and n not in reading.entities]
        spread_collectives(reading, brief)
        reading = with_head(reading, names, brief)
        arrowed = ARROW_RE.sub(" -> ", brief)
        _chain_flow_lines(arrowed, _Names(reading))  # over the head's names too
        _read_headed_lines(arrowed, reading, lists_only=True)  # "qualitative: interviews, notes"
    merge_abbreviations(reading, brief)
    read_searched_against(brief, reading)
    read_followed_by(brief, reading)
    spread_collectives(reading, brief)
    drop_heading_names(reading, brief)
    drop_system_name(reading, brief)
    drop_generic_names(reading, brief)
    drop_remarks(reading, keep=(names or {}).get("node", []), text=brief)  # the model's own names are names
    tidy_numbers(reading, brief)
    read_coordinated_names(reading, brief)
    read_shared_heads(reading, brief)
    read_flow_ends(reading, brief)
    read_listed_groups(reading, brief)
    read_verb_steps(reading, brief)
    read_links(brief, reading)  # over the final names, the head's included
    read_decisions(reading, brief)  # "if the overshoot exceeds 20 %, …": the question box
    drop_collective_groups(reading, brief)
    names = list(reading.entities)
    if not names and not fallback:
        names = panel_names(brief)
    if not names and (fallback or _NAMES_A_CHART.search(brief)):  # (a chart's panel: the composer's place for it)
        words = re.sub(r"\s+", " ", brief).strip().split(" ")
        names = [" ".join(words[:MAX_LABEL_WORDS]) or "Figure"]
    used: set[str] = set()
    ids = {name: slug_id(name, used) for name in names}
    # a group named like a node ("the encoder feeds the decoder"; "X and Y form the encoder") is that
    # node opened up: its edges go in at its first member and out of its last
    ends: dict[str, tuple[str, str]] = {}
    groups: list[tuple[str, str, list[str]]] = []  # (label, id, member ids)
    leaves: dict[str, list[str]] = {}  # a group's label -> its boxes, nested groups' included
    owned: set[str] = set()
    nested: set[str] = set()
    as_group: dict[str, list[str]] = {}  # a box's name that means groups -> those groups
    for label, members in reading.groups:
        inner: list[str] = []  # the group's boxes and the groups it holds
        for m in members:
            if normalise_label(m) == normalise_label(label):
                continue  # the group's own name among its members (a head's reading): the group, opened up below
            subs = as_group.get(m) or groups_named(m, [g for g, _, _ in groups if g != label])
            # (a box an earlier group holds stays that box: opened up, that group's edges would end nowhere)
            subs = [g for g in subs if g not in nested and g != label and m not in owned]
            if subs:  # "the core plus the audit logger make up the service": the core group inside
                nested.update(subs)
                inner += subs
                if m in ids:
                    ends.setdefault(m, (leaves[subs[0]][0], leaves[subs[-1]][-1]))
                    as_group.setdefault(m, subs)
            elif m not in owned and m in ids and m not in ends:
                owned.add(m)
                inner.append(m)
        inner = list(dict.fromkeys(inner))
        if not inner:
            continue
        leaves[label] = [x for m in inner for x in leaves.get(m, [m])]
        node = next((n for n in names if normalise_label(n) == normalise_label(label) and n not in owned), None)
        if node is not None:
            ends[node] = (leaves[label][0], leaves[label][-1])
            as_group[node] = [label]
        groups.append((label, slug_id(label, used), inner))
    titled = group_titles(reading, names, [label for label, _, _ in groups], owned | set(ends))
    names = [n for n in names if n not in ends and n not in titled.values()]
    comps: list = [Node(kind="node", id=ids[n], label=n, shape=_shape_for(n)) for n in names]
    seen: set[tuple[str, str]] = set()
    for a, b in reading.relations:
        src, dst = ends.get(a, (a, a))[1], ends.get(b, (b, b))[0]
        if src == dst or (src, dst) in seen:
            continue
        seen.add((src, dst))
        comps.append(Edge(kind="edge", id=slug_id(f"e{len(seen)}", used), source=ids[src], target=ids[dst],
                          label=reading.edge_labels.get((a, b))))
    comps += _group_components(groups, ids, titled)
    return Figure(title=title or reading.title, direction=reading.direction or "LR", components=comps)


def _group_components(groups: list[tuple[str, str, list[str]]], ids: dict[str, str],
                      titled: dict[str, str]) -> list[Group]:
    """The groups' frames, by their fuller titles; a group headed by a role its names play ("- inputs: the
    receptor PDB and a ligand SDF") gets no frame round them unless another group holds it."""
    gids = {label: gid for label, gid, _ in groups}
    inside = {m for _, _, members in groups for m in members}
    return [Group(kind="group", id=gid, label=titled.get(label, label), members=[gids.get(m) or ids[m] for m in members])
            for label, gid, members in groups
            if not (label.strip().lower() in _ROLE_HEADINGS and gid not in inside and label not in inside)]


def _panels_figure(brief: str, preamble: str, panels: list[tuple[str, str | None, str]], title: str | None,
                   names: dict | None = None) -> Figure:
    """Each panel's text read as a brief of its own, its components inside a panel; the text before the
    panels adds what it links (a bare heading adds nothing)."""
    comps: list = []
    parts = [(None, None, preamble)] + panels
    for letter, ptitle, text in parts:
        if not text.strip():
            continue
        if panel_segments(text)[1]:  # panels inside a panel: drawn as one panel (panels never nest)
            text = PANEL_RE.sub(" ", text)
        fig = figure_from_brief(text, names=_head_part(names, text), fallback=False)
        if letter is None and not fig.of_kind("edge"):
            continue
        tag = f"{letter or 'p'}_"
        members = []
        for c in fig.components:
            d = c.model_dump(mode="json", exclude_defaults=True) | {"id": tag + c.id, "kind": c.kind}
            for key in ("source", "target"):
                if key in d:
                    d[key] = tag + d[key]
            if "members" in d:
                d["members"] = [tag + m for m in d["members"]]
            comps.append(d)
            if c.kind in ("node", "group") and not any(c.id in (getattr(g, "members", None) or [])
                                                     for g in fig.components if g.kind == "group"):
                members.append(tag + c.id)
        if letter is not None and members:
            comps.append(Panel(kind="panel", id=f"panel_{letter}", label=f"({letter})", title=ptitle,
                               members=members).model_dump(mode="json", exclude_defaults=True)
                         | {"id": f"panel_{letter}", "kind": "panel"})
    if not comps:
        return figure_from_brief(re.sub(PANEL_RE, " ", brief), title=title, names=names)
    return Figure.from_dict({"title": title or _brief_title(brief), "direction": "LR", "components": comps})
