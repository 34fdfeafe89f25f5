"""The flow one verb phrase states, from its verb, its voice and the roles its phrases fill (read by
:mod:`crafter.agents.prose`): "B is fed by A", "the encoder maps the image to a grid", "A reads from B"."""

from __future__ import annotations

import re

from crafter.agents.prose_words import _BWD_SET, _CHANGE, _INTRANSITIVE_TO, _PRODUCER, _PRONOUNS, _XFORM

# what is queried and answers back: a store ("the planner queries the results database": database -> planner; "the
# prompt builder queries the LLM" stays forward)
_STORE_HEAD = re.compile(r"\b(?:database|db|cache|index|store|storage|table|memory|memories|bank|registry|catalog(?:ue)?|"
                         r"repository|warehouse|lake|collection|views?|archive|ledger)s?$", re.I)


# verbs outside the lexicon whose passive agent makes its subject ("the mesh is extracted … by marching cubes", "a
# Merkle tree is built by each replica"; not "reads are assembled by hifiasm": the reads go in). A passive's lemma is
# its participle less "-ed" where the lexicon lacks the verb ("deriv" of "derived": :func:`_made`).
_MADE = {"derive", "extract", "build", "construct", "synthesise", "synthesize", "render", "make"}


def _made(lemma: str) -> bool:
    """A passive's lemma names a verb of :data:`_MADE`, the lexicon's or a participle less "-ed" ("deriv")."""
    return lemma in _MADE or lemma + "e" in _MADE


def _reads_back(lemma: str, objs: list[str]) -> bool:
    """A verb whose object hands the data back to the subject: one the lexicon reads backward, or "query" of a
    store."""
    return lemma in _BWD_SET or lemma == "query" and any(_STORE_HEAD.search(o.strip()) for o in objs)


def verb_relations(lemma: str, passive: bool, subj: list[str], objs: list[str], targets: list[str],
                   sources: list[str], agents: list[str], benefit: list[str], label: str | None,
                   lab: str | None) -> tuple[list[tuple[str, str, str | None]], list[str]]:
    """The relations one verb phrase states, and where its flow ends (what "it" may refer to next)."""
    new: list[tuple[str, str, str | None]] = []
    ends: list[str] = []
    if passive:
        if agents and not targets:
            if lemma in _PRODUCER or _made(lemma):  # "B is fed by A", "the key is derived by a KDF step"
                new += [(a, s, label) for a in agents for s in subj]
                ends = subj
            else:  # "patches are embedded by a linear projection"
                new += [(s, a, label) for s in subj for a in agents]
                ends = agents
        if targets:  # "X is collected by A into B": X -> A -> B (not "transcribed into mRNA by an enzyme")
            via = [] if lemma in _PRODUCER | _XFORM | _CHANGE else agents
            new += [(s, v, label) for s in subj for v in via or targets] + [(a, t, label) for a in via for t in targets]
            ends = targets
        if sources:
            new += [(so, s, label) for so in sources for s in subj]
            ends = ends or subj
    else:
        if lemma in _INTRANSITIVE_TO and targets and not objs:
            new += [(tg, s, label) for tg in targets for s in subj]
            ends = subj
        elif targets and sources:  # "data flows from the sensor to the microcontroller"
            new += [(so, tg, label or (subj[0] if len(subj) == 1 else None)) for so in sources for tg in targets]
            ends = targets
        elif targets and objs and lemma in _XFORM:  # "the encoder maps the image to a grid": image -> encoder -> grid
            new += [(o, s, label) for o in objs for s in subj] + [(s, tg, label) for s in subj for tg in targets]
            new += [] if subj else [(o, tg, label) for o in objs for tg in targets]
            ends = targets
        elif targets:  # "A sends features to B", "A writes to B", "embeddings pass through the encoder"
            new += [(s, tg, lab) for s in subj for tg in targets]
            ends = targets
        elif sources:  # "A reads from B", "A receives X from B"
            new += [(so, s, lab) for so in sources for s in subj]
            ends = subj
        elif benefit and objs:  # "A fetches passages for the reader": A -> reader, the passages its label
            new += [(s, b, lab) for s in subj for b in benefit if b not in _PRONOUNS]
            ends = benefit
        elif objs:
            if _reads_back(lemma, objs):  # "the decoder reads the latent code", "… queries a local VEP cache"
                new += [(o, s, label) for o in objs for s in subj]
                ends = subj
            else:
                new += [(s, o, label) for s in subj for o in objs]
                ends = objs
    return new, ends
