"""The name head: which words of a brief name a component (node, group, edge label, title).

CraftLM copies every label from the brief (:mod:`crafter.llm.constrain`), but where a
name starts and stops is the small decoder's weakest call on unseen words: "FRET Magnet
hands" (a verb it never saw taken into the name), "code token" for "code token
chromatograph", "It was" as a component. Reading a span's boundaries is a tagging
problem, and the pretrained brief encoder (:mod:`crafter.llm.encoder`) has read real
English: a verb in "X hands off to Y" looks like a verb to it whatever X and Y are.

So CraftLM has a second, small head over the encoder's states: each word of the brief is
tagged ``O`` / ``B-`` / ``I-`` × {node, group, label, title} (a BiGRU over the mean
WordPiece state of each word, plus its casing and punctuation — the encoder is uncased).
The tagged spans become the *names* the constraint lets the decoder write as node and
group labels; the decoder still decides which components there are, in what order, and
how they connect. The names are a pure function of the prompt, computed once before
decoding, so plain and speculative decoding see the same constraint and stay identical.

When the head finds fewer than two node names the constraint falls back to any span of
the brief (a brief it cannot read loses nothing it had before).

Trained by ``crafter train-names`` on the plan corpus's briefs (gold tags come from the
target's labels, longest first); weights ``names.safetensors`` beside the decoder's.
"""

from __future__ import annotations

import re
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import torch
from torch import nn

from crafter.llm.corpus import make_corpus
from crafter.llm.encoder import shared_encoder
from crafter.llm.heads import load_head, save_head
from crafter.llm.prompts import english_span
from crafter.llm.quality import parse_output

KINDS = ("node", "group", "label", "title")
TAGS = ("O",) + tuple(f"{p}-{k}" for k in KINDS for p in ("B", "I"))
WORD = re.compile(r"\w+(?:-\w+)*\??")  # a word ("Open-domain" one word), a decision may end in "?"
N_SHAPE = 8  # casing / punctuation features per word
FILE = "names.safetensors"
CONFIG = "names.json"


@dataclass
class NamesConfig:
    enc_dim: int = 384
    hidden: int = 128
    dropout: float = 0.25  # on the encoder features and the states (training only): held-out briefs differ
    max_gap: int = 3  # a link joins a mention and one of the next ``max_gap`` mentions


def words(prompt: str) -> list[tuple[int, int]]:
    """Character spans of the words of a prompt's natural-language part."""
    a, b = english_span(prompt)
    return [(m.start() + a, m.end() + a) for m in WORD.finditer(prompt[a:b])]


def shape_features(prompt: str, spans: list[tuple[int, int]]) -> torch.Tensor:
    """``[W, 8]``: first letter upper, all upper, digit, "?", sentence start, quoted, comma or stop after,
    line start."""
    rows = []
    for s, e in spans:
        w = prompt[s:e]
        before = prompt[:s].rstrip(" \t")
        after = prompt[e:e + 2]
        rows.append([w[:1].isupper(), len(w) > 1 and w.rstrip("?").isupper(), any(c.isdigit() for c in w),
                     w.endswith("?"), not before or before[-1] in ".!?:\n>•-*", before[-1:] in "\"“'",
                     after[:1] in ",.;:", not before or before[-1] in "\n>"])
    return torch.tensor(rows, dtype=torch.float32).reshape(-1, N_SHAPE)


def sentence_ids(prompt: str, spans: list[tuple[int, int]]) -> list[int]:
    """Per word, the number of its sentence (a full stop, ";", "!" or a line break between two words
    starts a new one)."""
    out, k = [], 0
    for i, (s, _) in enumerate(spans):
        if i and _SENTENCE_BREAK.search(prompt[spans[i - 1][1]:s] + " "):
            k += 1
        out.append(k)
    return out


_SENTENCE_BREAK = re.compile(r"[.;!]\s|\n")


def mentions(tags: list[int], kind: str = "node") -> list[tuple[int, int]]:
    """Word ranges ``[i, j)`` tagged as names of ``kind``."""
    b, i_ = TAGS.index(f"B-{kind}"), TAGS.index(f"I-{kind}")
    out, start = [], None
    for w, t in enumerate(tags + [0]):
        if start is not None and t != i_:
            out.append((start, w))
            start = None
        if t == b or (t == i_ and start is None):
            start = w
    return out


def candidate_pairs(ments: list[tuple[int, int]], max_gap: int = 3) -> list[tuple[int, int]]:
    """Mention pairs a link may join: each mention with the next ``max_gap`` in text order (synthetic
    briefs: 93% of links join two names of one sentence, at most 8 words apart; the rest are consecutive
    items; written briefs: 88% of links within 3 mentions, 94% within 5)."""
    return [(a, b) for a in range(len(ments)) for b in range(a + 1, min(a + 1 + max_gap, len(ments)))]


def n_pair(max_gap: int) -> int:
    """Pair features: same sentence, adjacent, mention gap one-hot, word gap one-hot."""
    return 2 + max_gap + 16


class NameTagger(nn.Module):
    """Tags (names by kind) and links (which two node names an edge joins, in which direction)."""

    def __init__(self, cfg: NamesConfig) -> None:
        super().__init__()
        self.cfg = cfg
        h = cfg.hidden
        self.norm = nn.LayerNorm(cfg.enc_dim + N_SHAPE)
        self.inp = nn.Linear(cfg.enc_dim + N_SHAPE, h)
        self.rnn = nn.GRU(h, h // 2, batch_first=True, bidirectional=True)
        self.out = nn.Linear(h, len(TAGS))
        # link classifier over a mention pair: none / first -> second / second -> first
        self.link = nn.Sequential(nn.Linear(5 * h + n_pair(cfg.max_gap), h), nn.GELU(), nn.Linear(h, 3))
        self.drop = nn.Dropout(cfg.dropout)

    def states(self, x: torch.Tensor) -> torch.Tensor:  # [B, W, E+8] -> [B, W, H]
        h = torch.nn.functional.gelu(self.inp(self.drop(self.norm(x))))
        return self.drop(self.rnn(h)[0] + h)

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # [B, W, E+8] -> [B, W, tags]
        return self.out(self.states(x))

    def link_logits(self, h: torch.Tensor, ments: list[tuple[int, int]], pairs: list[tuple[int, int]],
                    sent: list[int]) -> torch.Tensor:
        """``[P, 3]`` for one brief's word states ``h`` ``[W, H]``."""
        if not pairs:
            return torch.zeros(0, 3)
        a, b = torch.tensor(pairs).T
        m = torch.tensor(ments)
        (i0, i1), (j0, j1) = m[a].T, m[b].T
        cs = torch.cat([torch.zeros_like(h[:1]), h.cumsum(0)])  # the words between: a difference of sums
        gap = j0 - i1
        between = (cs[j0.clamp_min(i1)] - cs[i1]) / gap.clamp_min(1)[:, None]
        sent_t = torch.tensor(sent)
        extra = torch.zeros(len(pairs), n_pair(self.cfg.max_gap))
        rows = torch.arange(len(pairs))
        extra[:, 0] = (sent_t[i0] == sent_t[j0]).float()
        extra[:, 1] = (b == a + 1).float()
        extra[rows, 2 + b - a - 1] = 1.0
        extra[rows, 2 + self.cfg.max_gap + gap.clamp(0, 15)] = 1.0
        return self.link(torch.cat([h[i0], h[i1 - 1], h[j0], h[j1 - 1], between, extra], 1))

    def save(self, directory: Path) -> None:
        save_head(self, directory, FILE, CONFIG, {"tags": list(TAGS), **asdict(self.cfg)})

    @classmethod
    def load(cls, directory: Path) -> "NameTagger":
        def build(raw: dict) -> "NameTagger":
            if raw.pop("tags") != list(TAGS):
                raise ValueError("its tags are not this version's")
            return cls(NamesConfig(**raw))

        return load_head(directory, FILE, CONFIG, build, "name head")


def inputs(encoder, prompts: list[str]) -> list[tuple[list[tuple[int, int]], torch.Tensor]]:
    """Per prompt: its word spans and the head's input ``[W, E+8]``."""
    spans = [words(p) for p in prompts]
    feats = encoder.features(prompts, spans)
    return [(s, torch.cat([f, shape_features(p, s)], 1)) for p, s, f in zip(prompts, spans, feats)]


def decode_tags(prompt: str, spans: list[tuple[int, int]], tags: list[int]) -> dict[str, list[str]]:
    """Tagged spans as names by kind (as written, spaces collapsed). A span stops at anything but
    spaces between two words (a comma, a line break), and an ``I-`` tag after another kind opens one."""
    names: dict[str, list[str]] = {k: [] for k in KINDS}
    cur: list[int] = []
    kind = None

    def flush() -> None:
        if cur:
            name = " ".join(prompt[spans[cur[0]][0]:spans[cur[-1]][1]].split())
            if name not in names[kind]:
                names[kind].append(name)
        cur.clear()

    for i, t in enumerate(tags):
        tag = TAGS[t]
        if tag == "O":
            flush()
            kind = None
            continue
        p, k = tag.split("-")
        joined = cur and k == kind and prompt[spans[i - 1][1]:spans[i][0]].strip(" ") == ""
        if p == "B" or not joined:
            flush()
            kind = k
        cur.append(i)
    flush()
    return names


class RecentReadings:
    """The name head's readings of a backend's last few plan prompts, so the rules planner's
    ``read_names`` reuses the reading a plan request just made under the constraint."""

    def __init__(self, keep: int = 8) -> None:
        self.keep = keep
        self._by_prompt: dict[str, dict] = {}

    def remember(self, prompt: str, reading: dict) -> None:
        self._by_prompt = {**dict(list(self._by_prompt.items())[-(self.keep - 1):]), prompt: reading}

    def get(self, prompt: str) -> dict | None:
        return self._by_prompt.get(prompt)


class NameReader:
    """The trained head with the shared encoder: prompt -> names by kind, and links."""

    def __init__(self, directory: Path, encoder=None) -> None:
        self.tagger = NameTagger.load(directory)
        self.encoder = encoder

    @torch.inference_mode()
    def names(self, prompt: str, word_states: torch.Tensor | None = None) -> dict[str, list]:
        """``{"node": [...], "group": [...], "label": [...], "title": [...], "links": [(a, b), ...],
        "members": [(group, [a, ...]), ...]}``: names as written; links as pairs of lower-case node names,
        source first; a group's members as lower-case node names. ``word_states``: the
        encoder's features of :func:`words` (``[W, E]``) where the caller encoded the prompt already."""
        spans = words(prompt)
        if word_states is None:
            word_states = (self.encoder or shared_encoder()).features([prompt], [spans])[0]
        x = torch.cat([word_states, shape_features(prompt, spans)], 1)
        if not spans:
            return {**{k: [] for k in KINDS}, "links": [], "members": []}
        h = self.tagger.states(x[None])[0]
        tags = _no_article(prompt, spans, _run_on(prompt, spans, self.tagger.out(h).argmax(-1).tolist()))
        out: dict[str, list] = dict(decode_tags(prompt, spans, tags))
        out["node"] = _only_said_alone(prompt, out["node"])
        ments = [m for m in mentions(tags) if _joined(prompt, spans, m)]
        pairs = candidate_pairs(ments, self.tagger.cfg.max_gap)
        links: list[tuple[str, str]] = []
        for (a, b), c in zip(pairs, self.tagger.link_logits(h, ments, pairs, sentence_ids(prompt, spans))
                             .argmax(-1).tolist()):
            if c:
                src, tgt = (ments[a], ments[b]) if c == 1 else (ments[b], ments[a])
                link = (_name(prompt, spans, src).lower(), _name(prompt, spans, tgt).lower())
                if link[0] != link[1] and link not in links:
                    links.append(link)
        out["links"] = links
        out["members"] = _members(prompt, spans, tags, ments)
        return out


def _members(prompt: str, spans: list[tuple[int, int]], tags: list[int],
             ments: list[tuple[int, int]]) -> list[tuple[str, list[str]]]:
    """Groups as ``(group name, lower-case node names)``: the node names said in the sentence of a
    group's name ("The QC subworkflow bundles fastp trimming with host-read removal"), where there are
    two or more; a group said twice keeps its first such sentence."""
    sent = sentence_ids(prompt, spans)
    out: dict[str, list[str]] = {}
    for g in mentions(tags, "group"):
        name = _name(prompt, spans, g)
        inside = list(dict.fromkeys(_name(prompt, spans, m).lower() for m in ments if sent[m[0]] == sent[g[0]]))
        if len(inside) >= 2 and name.lower() not in out:
            out[name.lower()] = (name, inside)
    return list(out.values())


def _run_on(prompt: str, spans: list[tuple[int, int]], tags: list[int]) -> list[int]:
    """Two node names with nothing but a space between are one name: English does not set two noun
    phrases side by side without a word or a mark between them, and where the head split a long
    name of unseen words ("Thermal Ionic" + "Cortex") the plan got a node and an edge too many."""
    b, i_ = TAGS.index("B-node"), TAGS.index("I-node")
    out = list(tags)

    def said(a: int, z: int) -> str:
        return " ".join(prompt[spans[a][0]:spans[z][1]].split()).lower()

    start = 0
    for k in range(1, len(out)):
        if out[k - 1] == b:
            start = k - 1
        if out[k] == b and out[k - 1] in (b, i_) and prompt[spans[k - 1][1]:spans[k][0]] == " ":
            end = k  # the second name's last word
            while end + 1 < len(out) and out[end + 1] == i_ and prompt[spans[end][1]:spans[end + 1][0]] == " ":
                end += 1
            if said(start, k - 1) != said(k, end):  # a name said twice ("… ⟶ X X transmits …") stays two
                out[k] = i_
    return out


def _no_article(prompt: str, spans: list[tuple[int, int]], tags: list[int]) -> list[int]:
    """A name does not start with "the", "a" or "an" ("The Spectrogram Cropper" is "Spectrogram Cropper"):
    the article's word is untagged and the next word starts the name."""
    out = list(tags)
    for k in range(len(out) - 1):
        tag, word = TAGS[out[k]], prompt[spans[k][0]:spans[k][1]].lower()
        if tag.startswith("B-") and TAGS[out[k + 1]] == "I-" + tag[2:] and word in ("the", "a", "an"):
            out[k], out[k + 1] = 0, out[k]
    return out


def _only_said_alone(prompt: str, names: list[str]) -> list[str]:
    """Names the brief also says on their own: a name whose every occurrence sits inside a longer name
    ("offline" where the brief only ever says "offline caller") is a mention tagged short, not a
    component of its own ("classifier" beside "pixel classifier" stays where "the classifier" is said)."""
    low = prompt.lower()

    def places(name: str) -> set[tuple[int, int]]:
        found = re.finditer(r"(?<!\w)" + re.escape(name.lower()) + r"(?!\w)", low)
        return {(m.start(), m.end()) for m in found}

    spots = {n: places(n) for n in names}
    keep = []
    for n in names:
        inside = {(a, b) for (a, b) in spots[n] for m in names if len(m) > len(n)
                  for (c, d) in spots[m] if c <= a and b <= d}
        if spots[n] - inside or not spots[n]:
            keep.append(n)
    return keep


def _joined(prompt: str, spans: list[tuple[int, int]], m: tuple[int, int]) -> bool:
    """Only spaces between the words of mention ``m`` (as :func:`decode_tags` requires of a name)."""
    return all(prompt[spans[j][1]:spans[j + 1][0]].strip(" ") == "" for j in range(m[0], m[1] - 1))


# ---------------------------------------------------------------------------------
# Gold tags and training
# ---------------------------------------------------------------------------------


def gold_tags(prompt: str, target: str, spans: list[tuple[int, int]]) -> list[int]:
    """Tags from the target's labels: each label's occurrences as whole words (first letter case-free),
    longest labels first, a word tagged once; the title before the others (a node named inside
    the title is the title there)."""
    fig = parse_output("plan", target)
    labelled: list[tuple[str, str]] = []
    if fig.title:
        labelled.append(("title", fig.title))
    for c in fig.components:
        kind = {"node": "node", "group": "group", "edge": "label"}.get(c.kind)
        if kind and getattr(c, "label", None):
            labelled.append((kind, c.label))
    low = [prompt[s:e].lower() for s, e in spans]
    tags = [0] * len(spans)
    order = sorted(labelled, key=lambda kl: (kl[0] != "title", -len(kl[1].split())))
    for kind, label in order:
        ws = [m.group().lower() for m in WORD.finditer(label)]
        n = len(ws)
        for i in range(len(spans) - n + 1):
            if low[i:i + n] == ws and not any(tags[i:i + n]) and all(
                    prompt[spans[j][1]:spans[j + 1][0]].strip(" ") == "" for j in range(i, i + n - 1)):
                tags[i] = TAGS.index(f"B-{kind}")
                for j in range(i + 1, i + n):
                    tags[j] = TAGS.index(f"I-{kind}")
    return tags


def link_targets(prompt: str, target: str, spans: list[tuple[int, int]], tags: list[int], max_gap: int = 3) -> dict:
    """The gold mentions' candidate pairs and their classes (0 none, 1 first -> second, 2 back)."""
    fig = parse_output("plan", target)
    label = {c.id: c.label.lower() for c in fig.components if c.kind == "node"}
    edges = {(label[c.source], label[c.target]) for c in fig.components if c.kind == "edge"}
    ments = mentions(tags)
    names = [_name(prompt, spans, m).lower() for m in ments]
    pairs = candidate_pairs(ments, max_gap)
    sent = sentence_ids(prompt, spans)
    cls = [1 if (names[a], names[b]) in edges else 2 if (names[b], names[a]) in edges else 0 for a, b in pairs]
    # a link is said once: where the two names share a sentence, only that pair says it ("A feeds B.
    # B is watched by C" does not link A's mention to C's); a list's items share none, so all do
    said_in_sentence = {frozenset((names[a], names[b])) for (a, b), c in zip(pairs, cls)
                        if c and sent[ments[a][0]] == sent[ments[b][0]]}
    cls = [0 if c and sent[ments[a][0]] != sent[ments[b][0]] and frozenset((names[a], names[b])) in said_in_sentence
           else c for (a, b), c in zip(pairs, cls)]
    return {"ments": ments, "pairs": pairs, "cls": torch.tensor(cls, dtype=torch.long), "sent": sent}


def _name(prompt: str, spans: list[tuple[int, int]], m: tuple[int, int]) -> str:
    return " ".join(prompt[spans[m[0]][0]:spans[m[1] - 1][1]].split())


def build_set(encoder, examples, batch: int = 64, max_gap: int = 3) -> list[tuple[torch.Tensor, torch.Tensor, dict]]:
    out = []
    for k in range(0, len(examples), batch):
        chunk = examples[k:k + batch]
        for ex, (spans, x) in zip(chunk, inputs(encoder, [e.prompt for e in chunk])):
            if spans:
                tags = gold_tags(ex.prompt, ex.target, spans)
                out.append((x, torch.tensor(tags), link_targets(ex.prompt, ex.target, spans, tags, max_gap)))
    return out


def _batches(data, size: int, gen: torch.Generator | None):
    order = torch.randperm(len(data), generator=gen).tolist() if gen is not None else list(range(len(data)))
    for k in range(0, len(order), size):
        items = [data[i] for i in order[k:k + size]]
        w = max(len(it[0]) for it in items)
        xs = torch.zeros(len(items), w, items[0][0].shape[1])
        ys = torch.full((len(items), w), -100, dtype=torch.long)
        for r, it in enumerate(items):
            xs[r, :len(it[0])], ys[r, :len(it[1])] = it[0], it[1]
        yield xs, ys, [it[2] for it in items]


def _link_loss(tagger: NameTagger, h: torch.Tensor, links: list[dict]) -> tuple[torch.Tensor, torch.Tensor] | None:
    logits = [tagger.link_logits(h[r], lk["ments"], lk["pairs"], lk["sent"]) for r, lk in enumerate(links)]
    gold = [lk["cls"] for lk in links]
    if not any(len(g) for g in gold):
        return None
    return torch.cat(logits), torch.cat(gold)


def evaluate(tagger: NameTagger, data) -> dict:
    """Word tag accuracy, exact-span F1 (kind and both ends right) and link accuracy on gold mentions."""
    tagger.eval()
    right = total = 0
    tp = n_pred = n_gold = 0
    l_tp = l_pred = l_gold = 0
    with torch.inference_mode():
        for xs, ys, links in _batches(data, 64, None):
            h = tagger.states(xs)
            pred = tagger.out(h).argmax(-1)
            m = ys != -100
            right += int(((pred == ys) & m).sum())
            total += int(m.sum())
            for p_row, g_row, mm in zip(pred.tolist(), ys.tolist(), m.tolist()):
                n = sum(mm)
                p, g = _spans(p_row[:n]), _spans(g_row[:n])
                tp, n_pred, n_gold = tp + len(p & g), n_pred + len(p), n_gold + len(g)
            ll = _link_loss(tagger, h, links)
            if ll is not None:
                lp, lg = ll[0].argmax(-1), ll[1]
                l_tp += int(((lp == lg) & (lg > 0)).sum())
                l_pred, l_gold = l_pred + int((lp > 0).sum()), l_gold + int((lg > 0).sum())
    f1 = 2 * tp / (n_pred + n_gold) if n_pred + n_gold else 1.0
    lf1 = 2 * l_tp / (l_pred + l_gold) if l_pred + l_gold else 1.0
    return {"tag_acc": round(right / max(total, 1), 4), "span_f1": round(f1, 4), "link_f1": round(lf1, 4)}


def _spans(tags: list[int]) -> set[tuple[int, int, str]]:
    return {(i, j, k) for k in KINDS for i, j in mentions(tags, k)}


def fit(train_set, held_set, epochs: int = 8, seed: int = 0, lr: float = 3e-3, hidden: int = 128,
        enc_dim: int = 384, max_gap: int = 3, log=print) -> tuple[NameTagger, dict]:
    torch.manual_seed(seed)
    tagger = NameTagger(NamesConfig(enc_dim=enc_dim, hidden=hidden, max_gap=max_gap))
    opt = torch.optim.AdamW(tagger.parameters(), lr=lr, weight_decay=0.01)
    steps = epochs * ((len(train_set) + 31) // 32)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.1)
    gen = torch.Generator().manual_seed(seed)
    m: dict = {}
    for epoch in range(epochs):
        tagger.train()
        for xs, ys, links in _batches(train_set, 32, gen):
            h = tagger.states(xs)
            loss = nn.functional.cross_entropy(tagger.out(h).flatten(0, 1), ys.flatten(), ignore_index=-100)
            ll = _link_loss(tagger, h, links)
            if ll is not None:
                loss = loss + nn.functional.cross_entropy(*ll)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
        m = evaluate(tagger, held_set)
        log(f"epoch {epoch + 1}: loss {loss.item():.4f}  held-out {m}")
    return tagger, m


def train_names(out_dir: Path, n_train: int = 10000, n_held: int = 600, epochs: int = 4, seed: int = 0,
                lr: float = 3e-3, log=print) -> dict:
    """Train the name head on ``n_train`` plan briefs; report tag accuracy, span F1 and link F1 on
    held-out briefs (phrasings and vocabulary never seen in training)."""
    t0 = time.perf_counter()
    enc = shared_encoder()
    train_set = build_set(enc, make_corpus(n_train, "train", seed + 101, task="plan"))
    held_set = build_set(enc, make_corpus(n_held, "heldout", seed + 202, task="plan"))
    log(f"encoded {len(train_set)} + {len(held_set)} briefs in {time.perf_counter() - t0:.0f} s")
    tagger, m = fit(train_set, held_set, epochs=epochs, seed=seed, lr=lr, enc_dim=enc.dim, log=log)
    tagger.save(out_dir)
    return {**m, "seconds": round(time.perf_counter() - t0, 1)}
