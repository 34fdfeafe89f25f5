"""Repair examples: a figure's DSL and one instruction -> the replacement lines of the named component.

Also the edit head's extra phrasings (:data:`EDIT_PARAPHRASES`) and the requests outside its
edits (:data:`EDIT_OTHER`), which :mod:`crafter.llm.edits` trains on.
"""

from __future__ import annotations

import random

from crafter.llm.corpus.phrasings import REPAIR_FRAMES
from crafter.llm.corpus.plan import make_label, random_plan
from crafter.llm.corpus.vocabulary import EDGE_WORDS, pseudo_word, vocab_for
from crafter.spec import Figure, print_component, print_dsl

COLORS = ["#dbe9f6", "#fde0c5", "#e2f0d9", "#f4cccc", "#ead1dc", "#fff2cc", "#d9d2e9", "#cfe2f3",
          "lightblue", "lightgray", "orange", "gold", "salmon", "teal", "white"]
SHAPE_WORDS = ["round", "ellipse", "circle", "diamond", "cylinder", "hexagon", "document", "stack", "parallelogram"]


# More ways to ask for each edit, for the edit head only (crafter.llm.edits): the decoder's corpus
# keeps REPAIR_FRAMES, so the shipped decoder's recipe is unchanged. None of these is a held-out
# phrasing (tests/llm/test_edits.py checks), and none reuses a held-out frame's wording.
EDIT_PARAPHRASES = {
    "rename": ["Replace the label of {id} with \"{v}\".", "Name {id} \"{v}\".", "The text in {id} must be \"{v}\".",
               "{id}: write \"{v}\" instead.", "Retitle box {id} \"{v}\".", "Swap the text of {id} for \"{v}\"."],
    "shape": ["{id} should be drawn as a {v}.", "Change {id} into a {v}.", "Reshape {id} as a {v}.",
              "{id} needs to be a {v}.", "I want {id} drawn as a {v}.", "Can {id} be a {v}?",
              "Give {id} the {v} outline."],
    "dash": ["Dash the line of {id}.", "{id} should be a dashed arrow.", "Show {id} as a dashed connection.",
             "Draw edge {id} in dashes.", "Mark {id} as optional with a dashed stroke.",
             "Edge {id}: dashes, not a solid line."],
    "fill": ["Shade {id} {v}.", "Use {v} as the fill colour of {id}.", "Fill colour for {id}: {v}.",
             "{id} should have a {v} fill.", "Recolour {id} to {v}.", "Set the colour of {id} to {v}.",
             "Make the box {id} {v}."],
    "elabel": ["Write \"{v}\" on {id}.", "Add the label \"{v}\" to edge {id}.", "Edge {id} should say \"{v}\".",
               "Tag the arrow {id} with \"{v}\".", "Mark {id} \"{v}\"."],
    "reverse": ["Swap the ends of {id}.", "{id} runs backwards; invert it.", "Flip edge {id}.",
                "The arrow {id} points the wrong direction.", "Invert the direction of {id}.",
                "Make {id} point back to where it starts.", "{id} is drawn from the wrong end."],
    "bold": ["Use a bold font for {id}.", "The label of {id} should be bold.", "Bolden {id}.",
             "Set {id} in boldface.", "Make {id} stand out in a bold weight."],
    "overflow": ["[text-overflow] {id}: label too wide; use \"{v}\".",
                 "The label of {id} is too long for its box; shorten it to \"{v}\"."],
    "contrast": ["[low-contrast] {id}: pick a lighter fill such as {v}.",
                 "Text on {id} is hard to read; make the fill {v}."],
}


# Requests outside the six edits the edit head knows (move, delete, reroute, resize, other
# attributes…), for its "other" class: on them it must say nothing and leave the decoder to answer.
# Training only; tests/llm/test_edits.py holds unseen ones.
EDIT_OTHER = {
    "any": ["Shift {id} down a bit.", "Take {id} out of the figure.", "Drop {id}.", "Align {id} with its neighbours.",
            "{id} is too close to the title.", "Put {id} next to the legend.", "Duplicate {id}.", "Hide {id}.",
            "Add a new step after {id}.", "Connect {id} to the output as well.", "Place {id} in the top row.",
            "{id} sits on top of another component.", "Keep {id} but raise it.", "Give {id} more room.",
            "Nudge {id} to the left.", "Swap the positions of {id} and its neighbour."],
    "node": ["Make {id} wider.", "Shrink {id}.", "Enlarge the box {id}.", "Increase the font size of {id}.",
             "Give {id} a thicker outline.", "Round the corners of {id} less.", "Put {id} into the group.",
             "{id} overlaps its neighbour; move it.", "Add an icon to {id}.", "Split {id} into two boxes."],
    "edge": ["Widen the line of {id}.", "Send {id} along another path.", "Colour the line of {id} grey.",
             "{id} cuts through a box; route it elsewhere.", "Remove the text from {id}.",
             "Make the arrowhead of {id} open.", "Use a solid stroke for {id}.", "Attach {id} to the top side.",
             "{id} should leave from the right side.", "Curve {id} a little.", "Move the label of {id} up."],
}


def repair_example(rng: random.Random, split: str) -> tuple[str, str, list[str], str]:
    """(figure DSL, instruction, component ids, replacement DSL lines)."""
    return repair_case(rng, split)[:4]


def repair_case(rng: random.Random, split: str, frames: dict[str, list[str]] | None = None
                ) -> tuple[str, str, list[str], str, str]:
    """:func:`repair_example` and the kind of edit it asks for; ``frames`` (kind -> phrasings)
    replaces the split's phrasings (the same draws otherwise)."""
    vocab = vocab_for(split)
    plan = random_plan(rng, vocab)
    plan.title = None
    fig = plan.figure()
    if rng.random() < 0.5:  # some figures already carry styling
        comps = []
        for c in fig.components:
            if c.kind == "node" and rng.random() < 0.3:
                c = c.model_copy(update={"fill": rng.choice(COLORS)})
            comps.append(c)
        fig = Figure(title=fig.title, components=comps)
    nodes = fig.of_kind("node")
    edges = fig.of_kind("edge")
    kinds = (["rename", "shape", "fill", "bold", "overflow", "contrast"]
             + (["dash", "elabel", "reverse"] * 2 if edges else []))
    kind = rng.choice(kinds)
    frames = (frames or REPAIR_FRAMES[split])[kind]
    if kind in ("dash", "elabel", "reverse"):
        target = rng.choice(edges)
    else:
        target = rng.choice(nodes)
    v = ""
    if kind == "rename":
        v = make_label(rng, vocab, {c.label.lower() for c in nodes})
        new = target.model_copy(update={"label": v})
    elif kind == "overflow":
        v = target.label.split()[-1] if len(target.label.split()) > 1 else target.label[:4]
        new = target.model_copy(update={"label": v})
    elif kind == "shape":
        v = rng.choice([s for s in SHAPE_WORDS if s != target.shape])
        new = target.model_copy(update={"shape": v})
    elif kind in ("fill", "contrast"):
        v = rng.choice([c for c in COLORS if c != target.fill])
        new = target.model_copy(update={"fill": v})
    elif kind == "bold":
        new = target.model_copy(update={"bold": True})
    elif kind == "dash":
        new = target.model_copy(update={"style": "dashed"})
    elif kind == "elabel":
        v = rng.choice(EDGE_WORDS) if rng.random() < 0.7 or not vocab.pseudo else pseudo_word(rng)
        new = target.model_copy(update={"label": v})
    else:  # reverse
        new = target.model_copy(update={"source": target.target, "target": target.source})
    instruction = rng.choice(frames).format(id=target.id, v=v)
    return print_dsl(fig), instruction, [target.id], print_component(new) + "\n", kind
