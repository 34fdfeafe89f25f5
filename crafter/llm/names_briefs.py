"""The name head trained on written briefs (:mod:`crafter.corpora.briefs`), not only on synthetic ones.

The synthetic plan corpus copies every gold label verbatim into its brief, so its gold tags are
exact; a written brief says "host-read removal against the human genome using Bowtie2" where the
hand-made gold has ``Host read removal`` (aliases ``Bowtie2 host removal``, ``Host decontamination``).
So the gold tags of a written brief are read through the scoring's own rules
(:mod:`crafter.corpora.scoring`): a span of the brief names a component where its normal form is
the label's or an alias's, failing that where it is *close* to one (the match the benchmark
counts); each component takes its best span form and every occurrence of it, best matches first,
a word tagged once. A mention then stands for a component, and a candidate pair of mentions is
linked where the gold draws an edge between their two components.

The brief encoder is frozen, so each brief is encoded once and cached (``features-<split>-<sha>.pt``
under the output folder, named by the split file's sha256, so an edited corpus is encoded again);
training the head is then seconds an epoch.

    crafter train-names --corpus written --briefs 1500 --epochs 6 --install   (the shipped head)
"""

from __future__ import annotations

import time
from pathlib import Path

import torch

from crafter.corpora import load_briefs, score_figure, split_sha256, total
from crafter.corpora.scoring import ARTICLES, closeness, normal_form
from crafter.errors import SpecError
from crafter.llm.corpus import make_corpus
from crafter.llm.encoder import shared_encoder
from crafter.llm.names import TAGS, NameReader, build_set, candidate_pairs, fit, mentions, sentence_ids, shape_features, words
from crafter.llm.prompts import plan_prompt
from crafter.spec import Figure, parse_dsl

MAX_SPAN = 8  # words in a name
CLOSE_MIN = 0.9  # a close span: the words of one among the other's (0.925+), or spelt nearly alike (0.9+)


def _span_forms(prompt: str, spans: list[tuple[int, int]]) -> dict[str, list[tuple[int, int]]]:
    """Normal form -> word ranges ``[i, j)`` of the brief that say it (only spaces between the words)."""
    forms: dict[str, list[tuple[int, int]]] = {}
    for i in range(len(spans)):
        for j in range(i + 1, min(i + 1 + MAX_SPAN, len(spans) + 1)):
            if j - i > 1 and prompt[spans[j - 2][1]:spans[j - 1][0]].strip(" "):
                break
            if prompt[spans[i][0]:spans[i][1]].lower() in ARTICLES or prompt[spans[j - 1][0]:spans[j - 1][1]].lower() in ARTICLES:
                continue  # the normal form drops articles; a name does not start or end with one
            form = normal_form(prompt[spans[i][0]:spans[j - 1][1]])
            if form:
                forms.setdefault(form, []).append((i, j))
    return forms


def _named(fig: Figure, aliases: dict[str, list[str]]) -> list[tuple[str, str, list[str]]]:
    """``(kind, component id, normal forms it may be written as)``: the title, nodes, groups, edge labels."""
    out = [("title", "", [normal_form(fig.title)])] if fig.title else []
    for c in fig.components:
        kind = {"node": "node", "group": "group", "edge": "label"}.get(c.kind)
        if kind and getattr(c, "label", None):
            said = [c.label] + (aliases.get(c.id, []) if kind != "label" else [])
            out.append((kind, c.id, [f for f in dict.fromkeys(normal_form(s) for s in said) if f]))
    return out


def brief_tags(prompt: str, spans: list[tuple[int, int]], fig: Figure,
               aliases: dict[str, list[str]]) -> tuple[list[int], dict[tuple[int, int], str]]:
    """Gold tags of a written brief and, per tagged node range, the gold node it names."""
    forms = _span_forms(prompt, spans)
    picks = []
    for kind, cid, said in _named(fig, aliases):
        best = (0.0, "")
        for f in said:
            if f in forms:
                best = max(best, (2.0, f), key=lambda q: (q[0], len(q[1])))
        if best[0] == 0.0 and kind in ("node", "group"):
            best = max(((closeness(s, f), f) for s in said for f in forms), default=best, key=lambda q: (q[0], len(q[1])))
        if best[0] >= CLOSE_MIN:
            picks.append((kind != "title", -best[0], -len(best[1].split()), kind, cid, best[1]))
    tags = [0] * len(spans)
    node_of: dict[tuple[int, int], str] = {}
    for *_, kind, cid, form in sorted(picks):
        for i, j in forms[form]:
            if not any(tags[i:j]):
                tags[i] = TAGS.index(f"B-{kind}")
                tags[i + 1:j] = [TAGS.index(f"I-{kind}")] * (j - i - 1)
                if kind == "node":
                    node_of[(i, j)] = cid
    return tags, node_of


def _arrows(fig: Figure) -> set[tuple[str, str]]:
    """The arrows the gold draws, as (from, to) node ids (an undirected link: as written)."""
    out = set()
    for c in fig.components:
        if c.kind == "edge":
            if c.head != "none" or c.tail == "none":
                out.add((c.source, c.target))
            if c.tail != "none":
                out.add((c.target, c.source))
    return out


def brief_links(prompt: str, spans: list[tuple[int, int]], fig: Figure, tags: list[int],
                node_of: dict[tuple[int, int], str], max_gap: int) -> dict:
    """The tagged mentions' candidate pairs and their classes (0 none, 1 first -> second, 2 back); a
    link between two components said in one sentence is not also taught across sentences."""
    arrows = _arrows(fig)
    ments = mentions(tags)
    comp = [node_of.get(m) for m in ments]
    pairs = candidate_pairs(ments, max_gap)
    sent = sentence_ids(prompt, spans)
    cls = [1 if (comp[a], comp[b]) in arrows else 2 if (comp[b], comp[a]) in arrows else 0 for a, b in pairs]
    inside = {frozenset((comp[a], comp[b])) for (a, b), c in zip(pairs, cls) if c and sent[ments[a][0]] == sent[ments[b][0]]}
    cls = [0 if c and sent[ments[a][0]] != sent[ments[b][0]] and frozenset((comp[a], comp[b])) in inside else c
           for (a, b), c in zip(pairs, cls)]
    return {"ments": ments, "pairs": pairs, "cls": torch.tensor(cls, dtype=torch.long), "sent": sent}


def cached_features(encoder, split: str, cache: Path) -> dict[str, torch.Tensor]:
    """Brief id -> the frozen encoder's word features of its plan prompt, encoded once per split."""
    path = cache / f"features-{split}-{split_sha256(split)[:12]}.pt"
    if path.is_file():
        return torch.load(path)
    briefs = load_briefs(split)
    prompts = [plan_prompt(b.text) for b in briefs]
    feats = encoder.features(prompts, [words(p) for p in prompts])
    out = {b.id: f.to(torch.float16) for b, f in zip(briefs, feats)}
    cache.mkdir(parents=True, exist_ok=True)
    torch.save(out, path)
    return out


def brief_set(split: str, feats: dict[str, torch.Tensor], max_gap: int) -> list[tuple[torch.Tensor, torch.Tensor, dict]]:
    """Training items ``(input [W, E+8], tags [W], links)`` of a split's written briefs."""
    out = []
    for b in load_briefs(split):
        prompt = plan_prompt(b.text)
        spans = words(prompt)
        if not spans:
            continue
        tags, node_of = brief_tags(prompt, spans, b.gold, b.aliases)
        x = torch.cat([feats[b.id].float(), shape_features(prompt, spans)], 1)
        out.append((x, torch.tensor(tags), brief_links(prompt, spans, b.gold, tags, node_of, max_gap)))
    return out


def reading_dsl(names: dict, groups: bool = True) -> str:
    """The head's reading as a plan: its names as nodes, its links (between two of them) as edges, and
    (``groups``) its groups of two or more of them."""
    ids: dict[str, str] = {}
    lines = []
    for name in names["node"]:
        if name.lower() not in ids:
            ids[name.lower()] = f"n{len(ids) + 1}"
            lines.append(f'{ids[name.lower()]} node "{name}"')
    edges = {(ids[a], ids[b]) for a, b in names["links"] if a in ids and b in ids and a != b}
    lines += [f"e{k} edge {a} -> {b}" for k, (a, b) in enumerate(sorted(edges), 1)]
    if groups:
        for k, (name, members) in enumerate(names.get("members", []), 1):
            inside = list(dict.fromkeys(ids[m] for m in members if m in ids))
            if len(inside) >= 2:
                lines.append(f'g{k} group "{name}" [{", ".join(inside)}]')
    return "\n".join(lines)


def score_reading(reader: NameReader, split: str, feats: dict[str, torch.Tensor], limit: int | None = None):
    """The micro-averaged score of the head's readings (every name a node, every link an edge) of a split."""
    scores = []
    for b in load_briefs(split)[:limit]:
        text = reading_dsl(reader.names(plan_prompt(b.text), feats[b.id].float()))
        try:
            fig = parse_dsl(text)
        except SpecError:
            fig = Figure(components=[])
        scores.append(score_figure(b.gold, fig, b.aliases))
    return total(scores)


def train_names_briefs(out_dir: Path, synthetic: int = 0, epochs: int = 12, seed: int = 0, lr: float = 3e-3,
                       max_gap: int = 5, log=print) -> dict:
    """Train the name head on the written corpus's train split (plus ``synthetic`` plan briefs); report
    the head's reading of the dev split, scored as a figure."""
    t0 = time.perf_counter()
    enc = shared_encoder()
    cache = out_dir / "cache"
    train_set = brief_set("train", cached_features(enc, "train", cache), max_gap)
    dev_feats = cached_features(enc, "dev", cache)
    held_set = brief_set("dev", dev_feats, max_gap)
    if synthetic:
        syn = build_set(enc, make_corpus(synthetic, "train", seed + 101, task="plan"), max_gap=max_gap)
        train_set = train_set + syn
    log(f"{len(train_set)} training briefs ready in {time.perf_counter() - t0:.0f} s")
    tagger, m = fit(train_set, held_set, epochs=epochs, seed=seed, lr=lr, enc_dim=enc.dim, max_gap=max_gap, log=log)
    tagger.save(out_dir)
    reader = NameReader(out_dir, enc)
    s = score_reading(reader, "dev", dev_feats)
    m.update({f"dev_{k}_f1": round(getattr(s, k).f1, 4) for k in ("nodes", "edges", "groups")})
    return {**m, "seconds": round(time.perf_counter() - t0, 1)}
