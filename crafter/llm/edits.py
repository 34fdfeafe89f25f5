"""CraftLM's edit head: which edit a repair instruction asks for.

The decoder was taught repair on a handful of phrasings per edit and does not understand new
ones: "Turn e2 around" came back as the same edge, "n1 needs heavier type" as ``shape=hexagon``
(the copy head took "he" from "heavier"). Its held-out repairs were right 48 % of the time.

The brief encoder (all-MiniLM-L6-v2, :mod:`crafter.llm.encoder`) has read real English, so the
edit head reads the instruction there: the mean encoder state over the instruction, a linear
layer, one of six edits — ``label`` (rename a node, shorten an overflowing label, label an
edge), ``shape``, ``fill``, ``bold``, ``dash``, ``reverse`` — among those the requested
component's kind admits (a node is not reversed, an edge has no fill), or ``other``: a request
outside them ("delete e1", "make e1 thicker", "move n2 to the right"). Without that class the
head read every edge request it did not know as ``reverse`` (p ≥ 0.9) and forced a wrong answer.
The state is read in the same encoder pass as the decoder's prompt tokens (:meth:`CraftLMBackend.encode`).

The value comes from the instruction itself, never from the head: the quoted text (label), the
shape or colour it names, ``dotted`` where it says so (dash). :func:`edited_lines` applies the
edit to the component's current line; the decoding constraint then admits only those lines
(:class:`crafter.llm.constrain.DSLConstraint`'s ``lines``), and jump-forward drafts them. Where
the head reads ``other`` or is unsure (top probability below ``MIN_PROB``), the request names
several components, or the instruction names no value the edit needs, nothing is constrained and
the decoder answers alone, as before.

Trained by ``crafter train-edits`` on the training split's repair instructions plus
:data:`crafter.llm.corpus.repair.EDIT_PARAPHRASES` (more ways to ask, none of them held out);
weights ``edits.safetensors`` + ``edits.json`` beside the decoder's (12 KB).
"""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

import torch
from torch import nn

from crafter.errors import SpecError
from crafter.llm.corpus.phrasings import REPAIR_FRAMES
from crafter.llm.corpus.repair import EDIT_OTHER, EDIT_PARAPHRASES, repair_case
from crafter.llm.encoder import shared_encoder
from crafter.llm.heads import load_head, save_head
from crafter.llm.prompts import REPAIR, english_span, repair_parts, repair_prompt
from crafter.spec import SHAPES, parse_component
from crafter.spec.colors import CSS_COLOR_NAMES
from crafter.spec.dsl import print_component

FILE = "edits.safetensors"
CONFIG = "edits.json"
EDITS = ("label", "shape", "fill", "bold", "dash", "reverse", "other")
# the corpus's edit kinds -> the head's classes
CORPUS_EDIT = {"rename": "label", "overflow": "label", "elabel": "label", "shape": "shape", "fill": "fill",
               "contrast": "fill", "bold": "bold", "dash": "dash", "reverse": "reverse"}
ALLOWED = {"node": ("label", "shape", "fill", "bold", "other"), "edge": ("label", "dash", "reverse", "other")}
OTHER_SHARE = 0.25  # of the training instructions: requests outside the six edits
MIN_PROB = 0.6  # below it the head says nothing (the decoder answers alone)

_QUOTED = re.compile(r'"([^"\n]+)"|\u201c([^\u201d\n]+)\u201d')
_HEX = re.compile(r"#[0-9a-fA-F]{6}\b|#[0-9a-fA-F]{3}\b")
_WORD = re.compile(r"[A-Za-z]+")


class EditHead(nn.Module):
    """Mean encoder state of the instruction -> one logit per edit."""

    def __init__(self, enc_dim: int = 384) -> None:
        super().__init__()
        self.enc_dim = enc_dim
        self.out = nn.Linear(enc_dim, len(EDITS))

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # [B, E] -> [B, edits]
        return self.out(x)

    def save(self, directory: Path) -> None:
        save_head(self, directory, FILE, CONFIG, {"edits": list(EDITS), "enc_dim": self.enc_dim})

    @classmethod
    def load(cls, directory: Path) -> "EditHead":
        def build(raw: dict) -> "EditHead":
            if raw.get("edits") != list(EDITS):
                raise ValueError("its edits are not this version's")
            return cls(int(raw["enc_dim"]))

        return load_head(directory, FILE, CONFIG, build, "edit head")


def instruction_span(prompt: str) -> tuple[int, int] | None:
    """Character span of a repair prompt's instruction (None for other prompts or an empty one)."""
    if not prompt.startswith(REPAIR):
        return None
    a, b = english_span(prompt)
    return (a, b) if b > a and prompt[a:b].strip() else None


def _current(prompt: str):
    """(the one requested component as the figure has it now, the instruction) or None."""
    figure, instruction, ids = repair_parts(prompt)
    if len(ids) != 1:
        return None
    for line in figure.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0] == ids[0]:
            try:
                return parse_component(line), instruction
            except SpecError:
                return None
    return None


class EditReader:
    """The shipped edit head with the brief encoder it reads."""

    def __init__(self, directory: Path, encoder=None) -> None:
        self.head = EditHead.load(Path(directory))
        self.encoder = encoder or shared_encoder()

    def read(self, prompt: str, state: torch.Tensor | None = None) -> dict | None:
        """``{"edit", "p", "lines"}`` for a repair prompt naming one node or edge, where the head is
        sure and the instruction names the value the edit needs; else None. ``state``: the mean
        encoder state over :func:`instruction_span` (computed here if not given)."""
        found = _current(prompt)
        span = instruction_span(prompt)
        if found is None or span is None or found[0].kind not in ALLOWED:
            return None
        comp, instruction = found
        if state is None:
            state = self.encoder.features([prompt], [[span]])[0][0]
        with torch.no_grad():
            logits = self.head(state[None].float())[0]
        allowed = torch.tensor([e in ALLOWED[comp.kind] for e in EDITS])
        probs = torch.softmax(logits.masked_fill(~allowed, float("-inf")), -1)
        p, k = probs.max(0)
        edit = EDITS[int(k)]
        lines = edited_lines(comp, edit, instruction)
        if edit == "other" or float(p) < MIN_PROB or not lines:
            return None
        return {"edit": edit, "p": round(float(p), 3), "lines": lines}


def edited_lines(comp, edit: str, instruction: str) -> list[str]:
    """The component's DSL line after ``edit`` with each value the instruction names ([] where it
    names none the edit can use, or every one it names is what the component has already)."""
    updates: list[dict] = []
    words = [w.lower() for w in _WORD.findall(instruction)]
    if edit == "label":
        quoted = [a or b for a, b in _QUOTED.findall(instruction)]
        refit = {"letter_spacing": None} if getattr(comp, "letter_spacing", None) is not None else {}
        updates = [{"label": q.strip(), **refit} for q in quoted if q.strip() and q.strip() != comp.label]
    elif edit == "shape":
        updates = [{"shape": w} for w in dict.fromkeys(words) if w in SHAPES and w != comp.shape]
    elif edit == "fill":
        colours = _HEX.findall(instruction) + [w for w in words if w in CSS_COLOR_NAMES]
        updates = [{"fill": c} for c in dict.fromkeys(colours) if c != comp.fill]
    elif edit == "bold" and not comp.bold:
        updates = [{"bold": True}]
    elif edit == "dash":
        style = "dotted" if "dotted" in words else "dashed"
        updates = [{"style": style}] if comp.style != style else []
    elif edit == "reverse" and comp.kind == "edge" and comp.source != comp.target:
        updates = [{"source": comp.target, "target": comp.source}]
    return [print_component(comp.model_copy(update=u)) for u in updates]


# -- training ----------------------------------------------------------------------------

def edit_frames() -> dict[str, list[str]]:
    """The training split's repair phrasings and the paraphrases, per corpus edit kind."""
    return {k: REPAIR_FRAMES["train"][k] + EDIT_PARAPHRASES.get(k, []) for k in REPAIR_FRAMES["train"]}


def build_set(encoder, n: int, split: str, seed: int) -> tuple[torch.Tensor, torch.Tensor, list[str]]:
    """(mean instruction states [n, E], edit classes [n], prompts) of ``n`` repair examples."""
    rng = random.Random(seed)
    frames = edit_frames() if split == "train" else None
    prompts, ys = [], []
    for _ in range(n):
        dsl, instruction, ids, _target, kind = repair_case(rng, split, frames)
        edit = CORPUS_EDIT[kind]
        if split == "train" and rng.random() < OTHER_SHARE:  # the same figure and id, a request outside the edits
            kind_of = "edge" if ids[0].startswith("e") else "node"
            instruction = rng.choice(EDIT_OTHER["any"] + EDIT_OTHER[kind_of]).format(id=ids[0])
            edit = "other"
        prompts.append(repair_prompt(dsl, instruction, ids))
        ys.append(EDITS.index(edit))
    states = []
    for i in range(0, n, 64):
        chunk = prompts[i:i + 64]
        states += [f[0] for f in encoder.features(chunk, [[instruction_span(p)] for p in chunk])]
    return torch.stack(states), torch.tensor(ys), prompts


def fit(x: torch.Tensor, y: torch.Tensor, epochs: int = 1000, lr: float = 0.02, weight_decay: float = 0.0,
        seed: int = 0) -> EditHead:
    """Full-batch Adam on the cross-entropy (a linear layer: a few seconds)."""
    torch.manual_seed(seed)
    head = EditHead(x.shape[1])
    opt = torch.optim.Adam(head.parameters(), lr=lr, weight_decay=weight_decay)
    for _ in range(epochs):
        opt.zero_grad()
        nn.functional.cross_entropy(head(x), y).backward()
        opt.step()
    return head.eval()


def evaluate(head: EditHead, x: torch.Tensor, y: torch.Tensor, prompts: list[str]) -> dict:
    """Accuracy over the classes the component's kind admits, and the share of prompts whose
    answer :class:`EditReader` would fix (sure, with a value) and fixes right."""
    with torch.no_grad():
        logits = head(x)
    right = sure = 0
    for i, p in enumerate(prompts):
        kind = "edge" if repair_parts(p)[2][0].startswith("e") else "node"
        allowed = torch.tensor([e in ALLOWED[kind] for e in EDITS])
        probs = torch.softmax(logits[i].masked_fill(~allowed, float("-inf")), -1)
        right += int(probs.argmax()) == int(y[i])
        sure += float(probs.max()) >= MIN_PROB
    return {"accuracy": round(right / max(1, len(prompts)), 4), "sure": round(sure / max(1, len(prompts)), 4)}


def train_edits(out_dir: Path, n_train: int = 4000, n_held: int = 600, seed: int = 0, log=print) -> dict:
    """Train the edit head; report its accuracy on held-out instructions (phrasings never seen)."""
    t0 = time.perf_counter()
    enc = shared_encoder()
    x, y, _ = build_set(enc, n_train, "train", seed + 303)
    hx, hy, hp = build_set(enc, n_held, "heldout", seed + 404)
    log(f"encoded {n_train} + {n_held} instructions in {time.perf_counter() - t0:.0f} s")
    head = fit(x, y, seed=seed)
    m = evaluate(head, hx, hy, hp)
    log(f"held-out edit accuracy {m['accuracy']:.3f}, sure {m['sure']:.3f}")
    head.save(Path(out_dir))
    return {**m, "seconds": round(time.perf_counter() - t0, 1)}
