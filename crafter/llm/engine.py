"""Decoding CraftLM: plain cached decoding and self-speculative decoding, one loop.

**Guarantee.** With ``temperature=0`` every committed token is the verifier's argmax
given the committed prefix, so speculative output is token-for-token the output of
plain greedy decoding (``speculative="none"``), whatever the drafter proposes.
With ``temperature>0`` drafts are accepted with min(1, p/q) and rejections are
resampled from the residual, so outputs are distributed exactly as plain sampling.

**One forward per round.** The KV cache holds every committed token but the last
(``a0``). A round feeds ``[a0, d1..dn, M1..Mm]``: the drafts ``d`` from the drafter,
then (diffusion drafter only) a block of ``m`` mask tokens that attends to the
prefix, ``a0`` and all drafts, as if every draft were accepted, and to itself
bidirectionally (:func:`kernels.draft_attention_mask`). The causal rows verify the
drafts; if all are accepted the mask block's predictions are the next round's
drafts, free ("Decoding on a CPU, one pass per round" in FIELD-NOTES; TiDAR's idea
restricted to the all-accepted branch). The cache is then cropped to the accepted
length, dropping rejected drafts and the mask slots.

Measured on the 2-core CPU (FIELD-NOTES): a forward of width 9 costs ≈ 1.6× a
width-1 forward for a 3-4M model, width 17 ≈ 1.9×, so blocks stay at 4-16 and the
block size adapts to the acceptance seen so far.

**Several requests, one forward** (the model server's running batch, :mod:`crafter.serve`).
:func:`start_decoding` prefills a request into a row of a :class:`kernels.KVPool`;
:func:`decode_round` then runs one round of every running request in a single forward —
each row's ``[a0, drafts, masks]`` padded to the widest, at its own cache length, under its
own mask — while drafting, acceptance and the constraint stay per request, so each commits
what it commits alone. :func:`generate_ids` is the same two calls for one request.

**Devices.** The model may sit on a GPU (bf16): inputs, masks and the KV cache are made on
its device, and each round's logits come back to the host in one copy (``[width, V]``) for the
accept rule, the constraint and the drafter — one round trip a round, none per drafted token.

Drafters share one small interface (:class:`Drafter`): ``propose`` drafts for the
next round, ``mask_slots`` asks for mask tokens in it, ``observe`` learns from what
was accepted. A drafter with nothing to offer proposes ``[]`` and the round is a
plain decoding step.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Protocol

import torch

from crafter.llm.model import CraftLM
from kernels import (
    KVCache,
    KVPool,
    batched_draft_attention_mask,
    constrained_greedy_accept,
    constrained_sample,
    draft_attention_mask,
    first_allowed,
    greedy_accept,
    speculative_sample_accept,
)

SPECULATIVE = ("diffusion", "ngram", "none")


# ---------------------------------------------------------------------------------
# Drafters
# ---------------------------------------------------------------------------------


class Drafter(Protocol):
    name: str

    def propose(self, ids: list[int], budget: int) -> tuple[list[int], torch.Tensor | None]:
        """Drafts (at most ``budget``) to follow ``ids``, and ``[n, V]`` proposal probabilities (None: point masses)."""

    def mask_slots(self) -> int:
        """Mask tokens to append to the next forward (0: none)."""

    def observe(self, proposed: int, accepted: int, mask_logits: torch.Tensor | None, temperature: float) -> None:
        """Learn from a round: drafts proposed, drafts accepted, the mask block's logits ``[m, V]``."""


class NoDrafter:
    """Plain decoding: one token per forward."""

    name = "none"

    def propose(self, ids, budget):
        return [], None

    def mask_slots(self) -> int:
        return 0

    def observe(self, proposed, accepted, mask_logits, temperature) -> None:
        pass


class NgramDrafter:
    """Prompt lookup: find the latest earlier occurrence of the last n tokens, propose what followed.

    Pays where the output copies the input (repair rewrites lines of the figure it
    is given; plan copies labels from the brief). ``max_draft`` adapts: doubled when
    a whole draft was accepted, shrunk to what was accepted (plus two) otherwise.
    """

    name = "ngram"

    def __init__(self, max_ngram: int = 4, min_ngram: int = 2, max_draft: int = 12, limit: int = 24,
                 prime: list[int] | None = None) -> None:
        self.max_ngram, self.min_ngram = max_ngram, min_ngram
        self.max_draft, self.limit = max_draft, limit
        # the first lookup's answer, before any output exists to look up from: for repair, the current
        # lines of the requested components (the answer starts by copying them, then edits them)
        self.prime = list(prime or [])
        # ... and, after the first lookup, the text an edited answer most likely resumes: a suffix of
        # the output is looked up in the prime first (down to one token), then in the whole context
        self.source = list(prime or [])

    def lookup(self, ids: list[int], budget: int) -> list[int]:
        k = min(self.max_draft, budget)
        if self.prime:
            first, self.prime = self.prime[: max(0, budget)], []
            return first
        if k <= 0:
            return []
        if self.source:
            follow = _follow(self.source, ids, k, self.max_ngram, 1)
            if follow:
                return follow
        return _follow(ids, ids, k, self.max_ngram, self.min_ngram, past_itself=True)

    def propose(self, ids, budget):
        return self.lookup(ids, budget), None

    def mask_slots(self) -> int:
        return 0

    def observe(self, proposed, accepted, mask_logits, temperature) -> None:
        if proposed:
            self.max_draft = min(self.limit, self.max_draft * 2) if accepted == proposed else max(2, accepted + 2)


def _follow(source: list[int], ids: list[int], k: int, max_n: int, min_n: int, *,
            past_itself: bool = False) -> list[int]:
    """What followed, in ``source``, the latest occurrence of the longest suffix of ``ids`` (``max_n``
    down to ``min_n`` tokens), at most ``k`` tokens. ``past_itself``: ``source`` is ``ids``, and the
    suffix's own place does not count."""
    n_ids, skip = len(ids), int(past_itself)
    for n in range(min(max_n, n_ids - skip), min_n - 1, -1):
        suffix = ids[n_ids - n:]
        for start in range(len(source) - n - skip, -1, -1):  # latest occurrence first
            if source[start:start + n] == suffix:
                follow = source[start + n:start + n + k]
                if follow:
                    return follow
    return []


class DiffusionDrafter:
    """Self-speculative block diffusion: the model's own mask block drafts the next tokens.

    After a fully accepted round the mask block's predictions (past the first slot,
    which sits where the bonus token goes and is known exactly) are the next drafts.
    After a rejection they were conditioned on wrong drafts, so they are dropped.
    Where the output copies the input (repair; labels in plan) the n-gram lookup is a
    second source: it is used when the diffusion drafter has nothing, or when its
    recent acceptance is higher. The block size follows an average of accepted
    lengths, within [min_block, max_block].
    """

    name = "diffusion"

    def __init__(self, block_size: int = 8, min_block: int = 4, max_block: int = 16,
                 ngram: NgramDrafter | None = None, adaptive: bool = True) -> None:
        self.block_size, self.min_block, self.max_block = block_size, min_block, max_block
        self.adaptive = adaptive
        self.ngram = ngram
        self._next: list[int] = []
        self._next_q: torch.Tensor | None = None
        self._accept_avg = float(block_size)
        self._source_avg = {"diffusion": 1.0, "ngram": 1.0}  # accepted drafts per round, by source
        self._source = "diffusion"
        # set by the engine under a constraint: mask-block rows -> drafts the constraint allows, and
        # how many tokens of a draft it allows
        self.pick: Callable[[torch.Tensor], list[int]] | None = None
        self.allowed: Callable[[list[int]], int] | None = None

    def propose(self, ids, budget):
        drafts, q = self._next[:budget], (None if self._next_q is None else self._next_q[:budget])
        if self.ngram is not None and (not drafts or self._source_avg["ngram"] > self._source_avg["diffusion"]):
            lookup = self.ngram.lookup(ids, budget)
            # a lookup the constraint cuts to nothing must not displace the mask block's drafts
            if self.allowed is not None:
                lookup = lookup[: self.allowed(lookup)]
            if lookup:
                self._source = "ngram"
                return lookup, None
        self._source = "diffusion"
        return drafts, q

    def mask_slots(self) -> int:
        return self.block_size + 1

    def observe(self, proposed, accepted, mask_logits, temperature) -> None:
        self._next, self._next_q = [], None
        if proposed:
            self._accept_avg = 0.7 * self._accept_avg + 0.3 * (accepted + (1 if accepted == proposed else 0))
            self._source_avg[self._source] = 0.7 * self._source_avg[self._source] + 0.3 * accepted
            if self._source == "ngram":
                self.ngram.observe(proposed, accepted, None, temperature)
        if self.adaptive:
            self.block_size = max(self.min_block, min(self.max_block, round(self._accept_avg * 1.5) + 2))
        if mask_logits is None or accepted < proposed:
            return
        rows = mask_logits[1:]  # slot 0 sits where the bonus token goes: that one is exact
        if temperature > 0:
            q = torch.softmax(rows.float() / temperature, dim=-1)
            self._next = torch.multinomial(q, 1).flatten().tolist()
            self._next_q = q
        elif self.pick is not None:
            self._next = self.pick(rows)
        else:
            self._next = rows.argmax(-1).tolist()


class Constraint(Protocol):
    """What the engine needs of a decoding constraint (:class:`crafter.llm.constrain.DSLConstraint`)."""

    def start(self): ...

    def advance(self, state, token: int): ...

    def must_end(self, state) -> bool: ...

    # optional: ``forced(state) -> list[int]``, tokens every valid continuation starts with;
    # ``candidates(state) -> list[int]``, a superset of the tokens allowed next (the exhaustive search's)


def make_drafter(speculative: str, task: str | None = None, block_size: int | None = None,
                 prime: list[int] | None = None) -> Drafter:
    """The drafter for a mode. Block size from the request, else from the task (repair copies more).
    prime: the n-gram drafter's first proposal (:class:`NgramDrafter`)."""
    if speculative == "none":
        return NoDrafter()
    if speculative == "ngram":
        return NgramDrafter(max_draft=block_size or 12, prime=prime)
    if speculative == "diffusion":
        start = block_size or {"repair": 12, "chart": 12}.get(task or "", 8)
        return DiffusionDrafter(block_size=start, ngram=NgramDrafter(prime=prime), adaptive=block_size is None)
    raise ValueError(f"unknown speculative mode '{speculative}' (use one of: {', '.join(SPECULATIVE)})")


# ---------------------------------------------------------------------------------
# The verify / accept loop (written once)
# ---------------------------------------------------------------------------------


@dataclass
class GenerationResult:
    ids: list[int]  # generated tokens (EOS excluded)
    forward_passes: int  # decode forwards (the prompt prefill not counted)
    accepted_per_round: list[int] = field(default_factory=list)  # drafts accepted in each round
    proposed_per_round: list[int] = field(default_factory=list)
    seconds: float = 0.0  # decode time
    prefill_seconds: float = 0.0
    stopped: str = "eos"  # eos | length | guard | constraint (nothing allowed could follow)
    drafter: str = "none"

    def stats(self) -> dict:
        n = len(self.ids)
        hist: dict[str, int] = {}
        for a in self.accepted_per_round:
            hist[str(a)] = hist.get(str(a), 0) + 1
        return {
            "drafter": self.drafter,
            "forward_passes": self.forward_passes,
            "tokens": n,
            "tokens_per_forward": round(n / max(1, self.forward_passes), 3),
            "acceptance_histogram": dict(sorted(hist.items(), key=lambda kv: int(kv[0]))),
            "drafts_proposed": sum(self.proposed_per_round),
            "drafts_accepted": sum(self.accepted_per_round),
            "seconds": round(self.seconds, 4),
            "prefill_seconds": round(self.prefill_seconds, 4),
            "tokens_per_second": round(n / self.seconds, 1) if self.seconds > 0 else 0.0,
            "stopped": self.stopped,
        }


@torch.inference_mode()
def generate_ids(model: CraftLM, prompt_ids: list[int], max_new_tokens: int = 512, temperature: float = 0.0,
                 drafter: Drafter | None = None, generator: torch.Generator | None = None,
                 guard: Callable[[list[int]], int | None] | None = None,
                 constraint: "Constraint | None" = None, prompt_enc: torch.Tensor | None = None) -> GenerationResult:
    """Decode after ``prompt_ids``; stops at EOS or ``max_new_tokens`` (always terminates).

    prompt_enc: ``[len(prompt_ids), encoder_dim]`` brief-encoder states of the prompt tokens
    (for a model with ``encoder_dim``; :mod:`crafter.llm.encoder`). They enter with the prefill;
    the prompt's last token (``<|out|>``, fed with the first round) never has one.

    guard: called with the tokens generated so far after every round; a number ``k``
    stops decoding with the first ``k`` tokens kept (``stopped="guard"``) — the caller's
    way to give up on output that can no longer be valid. It sees the same tokens in the
    same order whatever the drafter, so guarded output is identical across drafters too.

    constraint: every committed token is the best token the constraint allows
    (:mod:`crafter.llm.constrain`); drafts are cut at the first one it refuses. Greedy
    output stays identical across drafters. With ``temperature > 0`` a constrained
    request decodes one token per forward (exact renormalised sampling needs the
    allowed set, which a draft's acceptance ratio would need at every position).

    Each round: :func:`_draft` (the drafter's proposal, or forced text, cut where it cannot
    be right), :func:`_forward` (one forward verifies the drafts and runs the mask block),
    :func:`_verify` (the accept rule), :func:`_commit` (cache, drafter, output), then the
    stop checks (:func:`_stop_reason`).
    """
    run = start_decoding(model, prompt_ids, max_new_tokens, temperature, drafter, generator, guard, constraint,
                         prompt_enc)
    while run.stopped is None:
        decode_round([run])
    return run.result


@torch.inference_mode()
def start_decoding(model: CraftLM, prompt_ids: list[int], max_new_tokens: int = 512, temperature: float = 0.0,
                   drafter: Drafter | None = None, generator: torch.Generator | None = None,
                   guard: Callable[[list[int]], int | None] | None = None, constraint: "Constraint | None" = None,
                   prompt_enc: torch.Tensor | None = None, cache: KVCache | None = None) -> "DecodeRun":
    """A request's decoding, prefilled and ready for :func:`decode_round` (the arguments are
    :func:`generate_ids`'s; ``cache``: a row of a :class:`kernels.KVPool`, for decoding in a batch)."""
    run = _prepare(model, prompt_ids, max_new_tokens, temperature, drafter, constraint, prompt_enc, cache)
    run.guard, run.generator = guard, generator
    return run


@torch.inference_mode()
def decode_round(runs: list["DecodeRun"], pool: KVPool | None = None, slots: list[int] | None = None) -> None:
    """One round of every unfinished run, their verifications in one forward.

    One run: :func:`_forward`, exactly as :func:`generate_ids`. Several: their caches must be
    rows ``slots`` of ``pool`` (:meth:`kernels.KVPool.acquire`); each run's ``[a0, drafts, masks]``
    is padded to the widest and the forward reads every row's own prefix
    (:func:`_forward_batch`). Drafting, acceptance and commits stay per run, so every run
    commits what it would commit alone. A finished run has ``stopped`` set and ``result`` complete.
    """
    live = [(i, r) for i, r in enumerate(runs) if r.stopped is None]
    if not live:
        return
    t0 = time.perf_counter()
    rounds = [_draft(r) for _, r in live]
    if len(live) == 1:
        all_logits = [_forward(live[0][1], rounds[0])]
    else:
        assert pool is not None and slots is not None, "a batch of runs decodes in the rows of a KVPool"
        all_logits = _forward_batch([r for _, r in live], rounds, pool, [slots[i] for i, _ in live])
    share = (time.perf_counter() - t0) / len(live)  # the forward's time, split evenly
    for (_, run), rnd, logits in zip(live, rounds, all_logits):
        t1 = time.perf_counter()
        accepted, nxt = _verify(run, rnd, logits, run.generator)
        if nxt is None:  # nothing the constraint allows can follow: keep what is committed
            _commit_dead_end(run, rnd, accepted)
            run.stopped = "constraint"
        else:
            eos = _commit(run, rnd, logits, accepted, nxt)
            run.stopped = _stop_reason(run, eos, run.guard)
        run.result.seconds += share + time.perf_counter() - t1
        run.result.ids = run.out
        if run.stopped:
            run.result.stopped = run.stopped


@dataclass
class DecodeRun:
    """One request's decoding state: set up by :func:`start_decoding`, advanced by :func:`decode_round`."""

    model: CraftLM
    prompt_len: int
    max_new_tokens: int
    limit: int  # the cache's capacity: the answer plus one round's drafts and mask slots, never past the context
    temperature: float
    drafter: Drafter
    constraint: "Constraint | None"
    jump_forward: bool  # draft the constraint's forced text (see _prepare)
    cache: KVCache
    ids: list[int]  # the prompt and the committed tokens; the last one (a0) is not cached yet
    result: GenerationResult
    out: list[int] = field(default_factory=list)  # the committed tokens after the prompt
    state: object = None  # the constraint's state after the committed tokens
    guard: Callable[[list[int]], int | None] | None = None
    generator: torch.Generator | None = None
    stopped: str | None = None  # why it ended (GenerationResult.stopped); None while it goes on
    device: torch.device = torch.device("cpu")  # the model's, looked up once per request (not every round)


_Run = DecodeRun


@dataclass
class _Round:
    """One round's drafts, as the forward verifies them."""

    p: int  # cached tokens before the round (== len(ids) - 1)
    drafts: list[int]
    q: torch.Tensor | None  # [n, V] proposal probabilities (None: point masses)
    m: int  # mask slots after the drafts
    jumped: bool  # the drafts are the constraint's forced text, not the drafter's
    states: list | None = None  # constrained: the state after a0 and after each draft


def _prepare(model: CraftLM, prompt_ids: list[int], max_new_tokens: int, temperature: float,
             drafter: Drafter | None, constraint: "Constraint | None", prompt_enc: torch.Tensor | None,
             cache: KVCache | None = None) -> _Run:
    """The one prepare path: the drafter for the request, the checks, the cache and the prefill."""
    cfg = model.cfg
    device = next(model.parameters()).device
    drafter = drafter or NoDrafter()
    if constraint is not None and temperature > 0:
        drafter = NoDrafter()
    # a speculative drafter under a constraint that knows forced text drafts it (greedy: what plain
    # decoding would pick anyway, so output is unchanged; plain decoding stays one token a forward)
    jump_forward = (constraint is not None and hasattr(constraint, "forced") and temperature == 0
                    and not isinstance(drafter, NoDrafter))
    if not prompt_ids:
        raise ValueError("empty prompt")
    if len(prompt_ids) >= cfg.max_len:
        raise ValueError(f"prompt of {len(prompt_ids)} tokens does not fit the model's context of {cfg.max_len}")
    if max_new_tokens < 1:
        raise ValueError("max_new_tokens must be at least 1")
    max_new_tokens = min(max_new_tokens, cfg.max_len - len(prompt_ids))
    # room for the answer plus one round's drafts and mask slots; never past the context
    limit = min(cfg.max_len, len(prompt_ids) + max_new_tokens + 64)
    if cache is None:
        cache = model.new_cache(capacity=limit)
    elif cache.capacity < limit or cache.length:
        raise ValueError(f"the cache given holds {cache.length} of {cache.capacity} positions; the request needs "
                         f"{limit} free")
    t0 = time.perf_counter()
    if prompt_enc is not None:
        assert prompt_enc.shape[0] == len(prompt_ids), "one encoder row per prompt token"
        assert not prompt_enc[-1].any(), "the prompt's last token (fed after the prefill) cannot carry encoder states"
        prompt_enc = prompt_enc.to(device)
    if len(prompt_ids) > 1:
        model(torch.tensor([prompt_ids[:-1]], device=device), cache=cache, copy_len=len(prompt_ids),
              enc=None if prompt_enc is None else prompt_enc[None, :-1])
    prefill = time.perf_counter() - t0
    run = _Run(model, len(prompt_ids), max_new_tokens, limit, temperature, drafter, constraint, jump_forward, cache,
               list(prompt_ids), GenerationResult([], 0, drafter=drafter.name, prefill_seconds=prefill),
               state=constraint.start() if constraint is not None else None, device=device)
    if constraint is not None and hasattr(drafter, "pick"):
        _constrain_mask_drafts(run)
    return run


def _constrain_mask_drafts(run: _Run) -> None:
    """Let a mask-block drafter (:class:`DiffusionDrafter`) draft only what the constraint allows."""
    constraint = run.constraint

    def pick(rows: torch.Tensor) -> list[int]:
        """Per mask row, the best of its top 4 tokens the constraint allows after the drafts
        before it (the state is the one after this round's committed tokens)."""
        st, out = run.state, []
        for row in rows:
            t = first_allowed(row, lambda tok: constraint.advance(st, tok) is not None, top=4, exhaustive=False)
            if t is None:
                break
            out.append(t)
            st = constraint.advance(st, t)  # memoised: no second scan
        return out

    def allowed(drafts: list[int]) -> int:
        st = run.state
        for i, d in enumerate(drafts):
            st = constraint.advance(st, d)
            if st is None:
                return i
        return len(drafts)

    run.drafter.pick = pick
    run.drafter.allowed = allowed


def _draft(run: _Run) -> _Round:
    """The round's drafts: the drafter's proposal (or the constraint's forced text, where it is longer),
    cut after an EOS and at the first token the constraint refuses; and how many mask slots follow."""
    cfg, constraint = run.model.cfg, run.constraint
    budget = run.max_new_tokens - len(run.out)
    p = run.cache.length  # == len(ids) - 1: a0 = ids[-1] is not cached yet
    room = run.limit - p - 1  # positions left after a0
    drafts, q = run.drafter.propose(run.ids, min(budget - 1, room))
    forced = constraint.forced(run.state) if run.jump_forward else []
    jumped = len(forced) > len(drafts)
    if jumped:  # the only text that may follow: draft it outright (jump-forward)
        drafts, q = forced[: max(0, min(budget - 1, room))], None
    if cfg.eos_token_id in drafts:  # nothing follows an end: drafts past it are verified for nothing
        drafts = drafts[: drafts.index(cfg.eos_token_id) + 1]
        q = q[: len(drafts)] if q is not None else None
    states = None
    if constraint is not None:
        states = [run.state]
        for d in drafts:
            nxt_state = constraint.advance(states[-1], d)
            if nxt_state is None:
                break
            states.append(nxt_state)
        drafts = drafts[: len(states) - 1]
        q = q[: len(drafts)] if q is not None else None
    m = min(run.drafter.mask_slots(), max(0, room - len(drafts)))
    return _Round(p, drafts, q, m, jumped, states)


def _forward(run: _Run, rnd: _Round) -> torch.Tensor:
    """The one forward path of a round: verify ``[a0, d1..dn]`` causally, draft with ``M1..Mm``.
    Returns the logits ``[1 + n + m, V]``."""
    cfg, n = run.model.cfg, len(rnd.drafts)
    device = run.device
    x = torch.tensor([[run.ids[-1], *rnd.drafts] + [cfg.mask_token_id] * rnd.m], device=device)
    mask = draft_attention_mask(rnd.p, 1 + n, rnd.m, device=device) if n + rnd.m > 0 else None
    logits = run.model(x, attn_mask=mask, cache=run.cache, copy_len=run.prompt_len)[0]  # [1 + n + m, V]
    run.result.forward_passes += 1
    return _to_host(logits)


def _to_host(logits: torch.Tensor) -> torch.Tensor:
    """A round's logits, for the accept rule and the drafter: on a GPU one copy to the host per round
    (``[width, V]``, float32), so no drafted token costs a round trip of its own."""
    return logits if logits.device.type == "cpu" else logits.float().cpu()


def _forward_batch(runs: list[_Run], rounds: list[_Round], pool: KVPool, slots: list[int]) -> list[torch.Tensor]:
    """One forward for several runs' rounds (rows ``slots`` of ``pool``): inputs padded to the widest
    round, each row at its own cache length and under its own mask. Returns each run's logits
    ``[1 + n + m, V]``, the rows :func:`_forward` would give it alone."""
    model = runs[0].model
    cfg, device = model.cfg, runs[0].device
    rows = [[r.ids[-1], *rnd.drafts] + [cfg.mask_token_id] * rnd.m for r, rnd in zip(runs, rounds)]
    width = max(len(row) for row in rows)
    x = torch.tensor([row + [cfg.pad_token_id] * (width - len(row)) for row in rows], device=device)
    mask = batched_draft_attention_mask([rnd.p for rnd in rounds], [1 + len(rnd.drafts) for rnd in rounds],
                                        [rnd.m for rnd in rounds], device=device)
    copy_len = torch.tensor([r.prompt_len for r in runs], device=device)
    logits = _to_host(model(x, attn_mask=mask, cache=pool.batch(slots, [r.cache for r in runs]), copy_len=copy_len))
    for r in runs:
        r.result.forward_passes += 1
    return [logits[i, : len(row)] for i, row in enumerate(rows)]


def _verify(run: _Run, rnd: _Round, logits: torch.Tensor, generator: torch.Generator | None) -> tuple[int, int | None]:
    """The accept rule: how many drafts are kept, and the token that follows them (the correction or
    the bonus; None where the constraint allows nothing). Constrained, it also moves the constraint's
    state past them."""
    verify = logits[: 1 + len(rnd.drafts)]
    if run.constraint is not None:
        if run.temperature > 0:  # no drafts here (see _prepare)
            nxt, run.state = constrained_sample(torch.softmax(verify[0].float() / run.temperature, dim=-1), run.state,
                                                run.constraint.advance, generator)
            return 0, nxt
        accepted, nxt, run.state = constrained_greedy_accept(rnd.drafts, verify, rnd.states, run.constraint.advance,
                                                             getattr(run.constraint, "candidates", None))
        return accepted, nxt
    if run.temperature > 0:
        probs = torch.softmax(verify.float() / run.temperature, dim=-1)
        return speculative_sample_accept(torch.tensor(rnd.drafts, dtype=torch.long), rnd.q, probs, generator)
    return greedy_accept(torch.tensor(rnd.drafts, dtype=torch.long), verify)


def _commit_dead_end(run: _Run, rnd: _Round, accepted: int) -> None:
    """Nothing the constraint allows can follow the accepted drafts: commit them, and no more."""
    run.cache.crop(rnd.p + 1 + accepted)
    run.drafter.observe(len(rnd.drafts), accepted, None, run.temperature)
    run.out += rnd.drafts[:accepted]
    run.ids += rnd.drafts[:accepted]


def _commit(run: _Run, rnd: _Round, logits: torch.Tensor, accepted: int, nxt: int) -> bool:
    """Keep a0 and the accepted drafts in the cache (``nxt`` becomes the new a0), let the drafter learn
    from the round, commit the tokens; True where they end the answer."""
    cfg, n, m = run.model.cfg, len(rnd.drafts), rnd.m
    run.cache.crop(rnd.p + 1 + accepted)  # keep a0 and accepted drafts; nxt becomes the new a0
    if rnd.jumped:  # not the drafter's own drafts: its acceptance statistics stay as they are
        run.drafter.observe(0, 0, logits[1 + n :] if m and accepted == n else None, run.temperature)
    else:
        run.drafter.observe(n, accepted, logits[1 + n :] if m else None, run.temperature)
    if n:
        run.result.accepted_per_round.append(accepted)
        run.result.proposed_per_round.append(n)
    new = rnd.drafts[:accepted] + [nxt]
    eos = cfg.eos_token_id in new
    if eos:
        new = new[: new.index(cfg.eos_token_id)]
    elif run.constraint is not None and run.constraint.must_end(run.state):
        eos = True  # EOS is the only token allowed next: plain decoding would take it, without asking
    run.out += new
    run.ids += new
    return eos


def _stop_reason(run: _Run, eos: bool, guard: Callable[[list[int]], int | None] | None) -> str | None:
    """Why decoding stops after this round (``None``: it goes on); the guard and the length limit
    may cut the output. The order of these checks makes every stop land where plain decoding (one
    token a round) would have stopped, however many tokens this round committed."""
    keep = guard(run.out) if guard is not None else None
    if keep is not None and keep <= run.max_new_tokens:
        run.out = run.out[:keep]
        return "guard"
    if len(run.out) >= run.max_new_tokens:
        run.out = run.out[: run.max_new_tokens]
        return "length"
    if eos:
        return "eos"
    return None
