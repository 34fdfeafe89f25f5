"""Phrasing families of the corpus's prompts, each with a training and a held-out half.

Every way the corpus says something (connective verbs, sentence frames, bullet and step
styles, group and caption wordings, chart requests, repair instructions) has a training and
a held-out half; the held-out split uses only held-out phrasings, so it measures phrasing
never seen in training.
"""

from __future__ import annotations

import re

# ---------------------------------------------------------------------------------
# Phrasing families: each is (train variants, held-out variants)
# ---------------------------------------------------------------------------------


def _split(train: list[str], held: list[str]) -> dict[str, list[str]]:
    return {"train": train, "heldout": held}


# active "A <verb> B"
ACTIVE = _split(
    ["{a} feeds {b}", "{a} feeds into {b}", "{a} passes its output to {b}", "{a} sends its results to {b}",
     "{a} is followed by {b}", "{a} flows into {b}", "{a} provides input to {b}", "{a} connects to {b}",
     "{a} writes to {b}", "{a} forwards everything to {b}", "{a} outputs to {b}", "{a} triggers {b}",
     "{a} is piped into {b}", "{a} produces the input of {b}", "{a} updates {b}", "{a} calls {b}",
     "{a} leads to {b}", "{a} goes to {b}", "{a} is connected to {b}", "{a} hands its output over to {b}"],
    ["{a} streams into {b}", "{a} drives {b}", "{a} supplies {b}", "{a} hands off to {b}",
     "{a} relays its output to {b}", "{a} then reaches {b}", "{a} pushes data to {b}", "{a} activates {b}",
     "{a} is wired to {b}", "{a} delivers to {b}"])
# passive "B <verb> A" (mentions B first)
PASSIVE = _split(
    ["{b} is fed by {a}", "{b} receives the output of {a}", "{b} is driven by {a}", "{b} takes input from {a}",
     "{b} reads from {a}", "{b} is populated by {a}", "{b} gets its input from {a}"],
    ["{b} is consumed from {a}", "{b} is supplied by {a}", "{b} draws on {a}", "{b} is triggered by {a}"])
WHICH = _split([", which feeds {b}", ", which in turn passes it to {b}", ", whose output goes to {b}",
                ", which then sends it to {b}"],
               [", which hands off to {b}", ", and from there to {b}"])
LABELLED = _split(
    ["{a} sends {l} to {b}", "{a} passes {l} to {b}", "{a} -> {b} ({l})",
     "an arrow labelled \"{l}\" goes from {a} to {b}"],
    ["{a} ships {l} over to {b}", "{a} transmits {l} to {b}"])
DASHED = _split(["{a} optionally feeds {b} (dashed)", "a dashed arrow goes from {a} to {b}"],
                ["{a} may also reach {b} (draw it dashed)"])
GROUPS = _split(
    ["{m} are grouped as {g}", "{m} sit inside a box labelled {g}", "{g} contains {m}", "put {m} in a group called {g}",
     "{m} form the {g}"],
    ["{m} belong together under {g}", "frame {m} and title the frame {g}"])
CAPTIONS = _split(["Figure 1: {t}.", "Title: {t}", "Caption: {t}."], ["Fig. 3 — {t}.", "Figure title: {t}"])
OPENERS = _split(
    ["Please draw a diagram of our system.", "We want a figure for the methods section.",
     "Here is the pipeline we use.", "Draw the following architecture.", "", "", ""],
    ["Could you sketch this for the paper?", "The setup is as follows.", ""])
FILLERS = _split(
    ["This design keeps latency low.", "Everything runs on a single machine.", "We tuned this carefully.",
     "This is standard practice in the field.", "The whole thing runs nightly."],
    ["It was validated on three cohorts.", "This saves a lot of compute."])
STEP_STYLES = _split(["{i}. {x}", "Step {i}: {x}", "({i}) {x}"], ["{i}) {x}", "Stage {i} - {x}"])
BULLETS = _split(["- ", "* "], ["• "])
ARROWS = _split([" -> ", " → "], [" => ", " ⟶ "])
THE = ["the ", "", "", "our ", "a "]

# chart requests (crafter.llm.corpus.chart), by mark
MARKS = _split(
    {"bar": ["bar chart of {y} by {x}", "compare {y} across {x} with bars", "bar plot: {y} per {x}"],
     "line": ["line chart of {y} over {x}", "plot {y} against {x} as a line", "{y} vs {x}, lines"],
     "point": ["scatter plot of {y} against {x}", "scatter {y} vs {x}", "dots for {y} over {x}"],
     "area": ["area chart of {y} over {x}"],
     "boxplot": ["box plot of {y} for each {x}", "distribution of {y} per {x} as box plots"]},
    {"bar": ["show {y} for every {x} as bars", "a bar graph with {x} on the x axis and {y} on y"],
     "line": ["trend of {y} along {x}", "draw how {y} changes with {x}"],
     "point": ["{y} plotted as points against {x}"],
     "area": ["filled area of {y} across {x}"],
     "boxplot": ["spread of {y} in each {x} (box and whiskers)"]})
COLOR_BY = _split([", coloured by {c}", ", one colour per {c}", ", split by {c}"],
                  [", hue = {c}", ", grouped by {c}"])
CHART_TITLES = _split([" titled \"{t}\"", ". Title: {t}"], [", caption \"{t}\""])
# repair instructions (crafter.llm.corpus.repair), by kind of edit
REPAIR_FRAMES = _split({
    "rename": ["Rename {id} to \"{v}\".", "Change the label of {id} to \"{v}\".", "{id} should read \"{v}\"."],
    "shape": ["Make {id} a {v}.", "Draw {id} as a {v}.", "Use shape {v} for {id}."],
    "dash": ["Make edge {id} dashed.", "Draw {id} with a dashed line.", "{id} is optional: dash it."],
    "fill": ["Fill {id} with {v}.", "Colour {id} {v}.", "Set the fill of {id} to {v}."],
    "elabel": ["Label edge {id} \"{v}\".", "Put the text \"{v}\" on edge {id}."],
    "reverse": ["Reverse the direction of {id}.", "Edge {id} points the wrong way; flip it."],
    "bold": ["Make the text of {id} bold.", "Emphasise {id} with bold text."],
    "overflow": ["[text-overflow] {id}: the label does not fit; shorten it to \"{v}\"."],
    "contrast": ["[low-contrast] {id}: text is hard to read on its fill; use fill {v}."],
}, {
    "rename": ["Call {id} \"{v}\" instead.", "Relabel {id} as \"{v}\"."],
    "shape": ["{id} ought to be a {v}.", "Switch {id} to the {v} shape."],
    "dash": ["Use a broken line for {id}.", "Render {id} dashed please."],
    "fill": ["Give {id} a {v} background.", "Paint {id} {v}."],
    "elabel": ["Annotate {id} with \"{v}\".", "Edge {id} needs the caption \"{v}\"."],
    "reverse": ["Turn {id} around.", "{id} should go the other way."],
    "bold": ["Put {id} in bold.", "{id} needs heavier type."],
    "overflow": ["[label-too-long] {id} overflows its box; use \"{v}\"."],
    "contrast": ["[contrast] {id} is unreadable; change its fill to {v}."],
})

FAMILIES = (ACTIVE, PASSIVE, WHICH, LABELLED, DASHED, GROUPS, CAPTIONS, OPENERS, FILLERS, STEP_STYLES,
            BULLETS, ARROWS, MARKS, COLOR_BY, CHART_TITLES, REPAIR_FRAMES)


def words_in(x) -> set[str]:
    """The lower-case words of a phrasing, or of every phrasing in a list or dict of them."""
    if isinstance(x, dict):
        return set().union(*(words_in(v) for v in x.values())) if x else set()
    if isinstance(x, (list, tuple)):
        return set().union(*(words_in(v) for v in x)) if x else set()
    return set(re.findall(r"[a-z]+", str(x).lower()))


# words only the held-out phrasings use (chart field names and types are shared on purpose)
HELD_OUT_ONLY_WORDS = (set().union(*(words_in(f["heldout"]) for f in FAMILIES))
                       - set().union(*(words_in(f["train"]) for f in FAMILIES))
                       - {"model", "sample", "temporal"})


def sentence_case(s: str) -> str:
    """``s`` with its first letter capitalised (a sentence's start)."""
    return s[:1].upper() + s[1:] if s else s
