"""``craftlm``: the built-in CraftLM, weights shipped in ``crafter/llm/weights`` (or
``craftlm:/path/to/dir``), self-speculative decoding, DSL-constrained output."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from crafter.errors import CrafterError
from crafter.llm.backends.base import WEIGHTS_DIR, Completion, ModelError, as_prompt, default_threads, resolve_device
from crafter.llm.constrain import DSLConstraint
from crafter.llm.constrain.tokens import token_bytes
from crafter.llm.edits import FILE as EDITS_FILE
from crafter.llm.edits import EditReader, instruction_span
from crafter.llm.encoder import EncoderError, shared_encoder
from crafter.llm.engine import GenerationResult, generate_ids, make_drafter
from crafter.llm.model import CraftLM
from crafter.llm.names import FILE as NAMES_FILE
from crafter.llm.names import NameReader, RecentReadings, words
from crafter.llm.prompts import requested_lines
from crafter.llm.tokenizer import CraftTokenizer
from crafter.spec import parse_component, parse_dsl


def dsl_line_ok(line: str) -> bool:
    """Whether one line of model output is a DSL statement on its own (references unchecked)."""
    if not line.strip():
        return True
    try:
        parse_component(line)
        return True
    except CrafterError:
        pass
    try:
        parse_dsl(line)
        return True
    except CrafterError:
        return False


class DSLLineGuard:
    """Decoding guard: the token count that ends the first finished line that does not parse.

    Called by the engine after every round with all generated tokens; lines already found
    valid are not parsed again. Returns ``None`` while every finished line parses.
    """

    def __init__(self, decode) -> None:
        self.decode = decode
        self.checked = 0  # finished lines known to be valid

    def __call__(self, out: list[int]) -> int | None:
        lines = self.decode(out).split("\n")[:-1]  # the last piece is unfinished
        for i in range(self.checked, len(lines)):
            if not dsl_line_ok(lines[i]):
                lo, hi = 1, len(out)  # fewest tokens whose text holds line i's newline
                while lo < hi:
                    mid = (lo + hi) // 2
                    if self.decode(out[:mid]).count("\n") >= i + 1:
                        hi = mid
                    else:
                        lo = mid + 1
                return lo
            self.checked = i + 1
        return None


@dataclass
class Request:
    """A prepared request (:meth:`CraftLMBackend.prepare`): what :func:`~crafter.llm.engine.generate_ids` takes."""

    task: str
    prompt: str  # the full model prompt
    ids: list[int]
    enc: object  # the brief encoder's states of the prompt tokens (a tensor), or None
    drafter: object
    constraint: object
    guard: object
    generator: object
    max_new_tokens: int
    temperature: float
    constrain: bool
    stats: dict  # what is known before decoding (task, prompt tokens, encoder and head seconds)


class CraftLMBackend:
    """The built-in model with self-speculative decoding (default ``speculative="diffusion"``).

    device: ``auto`` | ``cpu`` | ``cuda`` (None: ``CRAFTER_DEVICE``, else the CPU). On a GPU the
    decoder runs in bfloat16 with its KV cache on the GPU; on the CPU in float32. A request is
    :meth:`prepare` (prompt, encoder, heads, constraint, drafter), :func:`generate_ids` and
    :meth:`finish` (text and statistics): ``complete`` runs the three, and the model server
    (:mod:`crafter.serve`) runs the same three with the decoding batched among requests.
    """

    name = "craftlm"

    def __init__(self, weights: str | Path | None = None, threads: int | None = None,
                 device: str | None = None) -> None:
        import torch  # heavy: seconds to import; only a loaded model needs it

        self.weights = Path(weights) if weights else WEIGHTS_DIR
        self.device = resolve_device(device)
        # one thread by default on the CPU: CraftLM's matrices are small, and two threads that wait
        # on each other ran a brief 4x slower on this shared 2-core machine (2.6 s against 9.9 s a
        # brief, `crafter bench briefs --limit 8` with OMP_NUM_THREADS=1 and without, load 4-6)
        threads = threads or default_threads(self.device)
        if threads:
            torch.set_num_threads(threads)
        try:
            self.model = CraftLM.load(self.weights)
            self.tokenizer = CraftTokenizer.load(self.weights)
        except (FileNotFoundError, ValueError) as exc:
            raise ModelError(f"cannot load CraftLM: {exc}") from exc
        if self.device != "cpu":
            self.model = self.model.to(self.device, torch.bfloat16)
        if self.model.cfg.encoder_dim:
            self._brief_encoder()  # loaded now: a broken install fails here, not mid-request
        self.names = None  # the name head (crafter.llm.names), where these weights have one
        self.edits = None  # the edit head (crafter.llm.edits), likewise
        self._readings = RecentReadings()  # plan prompt -> the name head's reading, of the last requests
        try:
            if (self.weights / NAMES_FILE).exists():
                self.names = NameReader(self.weights, self._brief_encoder())
            if (self.weights / EDITS_FILE).exists():
                self.edits = EditReader(self.weights, self._brief_encoder())
        except ValueError as exc:
            raise ModelError(f"cannot load CraftLM: {exc}") from exc
        if self.tokenizer.vocab_size != self.model.cfg.vocab_size:
            raise ModelError(f"{self.weights}: tokenizer ({self.tokenizer.vocab_size}) and model "
                             f"({self.model.cfg.vocab_size}) vocabularies differ")

    def complete(self, task: str, prompt: str, *, max_new_tokens: int = 512, temperature: float = 0.0,
                 speculative: str | None = "diffusion", block_size: int | None = None, seed: int | None = None,
                 guard: bool = True, constrain: bool = True) -> Completion:
        """Generate for ``task``.

        constrain: decode under :class:`~crafter.llm.constrain.DSLConstraint` (valid DSL of
        the task, labels copied from the prompt); the answer always parses.
        guard (without ``constrain``): stop at the first finished line that is not a DSL
        statement (the caller falls back at once instead of waiting for garbage to end)."""
        req = self.prepare(task, prompt, max_new_tokens=max_new_tokens, temperature=temperature,
                           speculative=speculative, block_size=block_size, seed=seed, guard=guard, constrain=constrain)
        try:
            res = generate_ids(self.model, req.ids, req.max_new_tokens, req.temperature, req.drafter, req.generator,
                               guard=req.guard, constraint=req.constraint, prompt_enc=req.enc)
        except ValueError as exc:
            raise ModelError(str(exc)) from exc
        return self.finish(req, res)

    def prepare(self, task: str, prompt: str, *, max_new_tokens: int = 512, temperature: float = 0.0,
                speculative: str | None = "diffusion", block_size: int | None = None, seed: int | None = None,
                guard: bool = True, constrain: bool = True) -> "Request":
        """Everything a request needs before decoding: the prompt's tokens and encoder states, the
        heads' readings, the constraint, the drafter. Raises :class:`ModelError` on bad input."""
        import torch  # heavy: seconds to import; only a loaded model needs it

        prompt = as_prompt(task, prompt)
        if max_new_tokens < 1:
            raise ModelError(f"max_new_tokens must be at least 1 (got {max_new_tokens})")
        ids, offsets = self.tokenizer.encode_offsets(prompt)
        if len(ids) >= self.model.cfg.max_len:
            raise ModelError(f"prompt of {len(ids)} tokens does not fit the model's context of {self.model.cfg.max_len}")
        read_names = constrain and task == "plan" and self.names is not None
        edit_span = instruction_span(prompt) if constrain and task == "repair" and self.edits is not None else None
        word_spans = words(prompt) if read_names else [edit_span] if edit_span else []
        stats: dict = {"backend": self.name, "task": task, "prompt_tokens": len(ids), "constrained": constrain}
        t_enc = time.perf_counter()
        # one encoder pass: the decoder's prompt tokens and the name head's words read the same states
        enc, word_states = self.encode(prompt, offsets, word_spans)
        if enc is not None:
            stats["encode_seconds"] = round(time.perf_counter() - t_enc, 4)
        try:
            # repair: the lines it will rewrite, less the last newline — most edits add to a line's
            # end, and a draft the verifier takes whole lets the mask block draft the edit
            prime = self.tokenizer.encode(requested_lines(prompt).rstrip("\n"))
            drafter = make_drafter(speculative or "none", task, block_size, prime=prime)
        except ValueError as exc:
            raise ModelError(str(exc)) from exc
        t_names = time.perf_counter()
        names = self.names.names(prompt, word_states) if read_names else None
        if names is not None:
            self._readings.remember(prompt, names)
        edit = self.edits.read(prompt, word_states[0]) if edit_span else None
        t_names = round(time.perf_counter() - t_names, 4)
        if names is not None:
            stats["names_seconds"] = t_names
        if edit_span:
            stats["edit"] = {"edit": edit["edit"], "p": edit["p"]} if edit else None
            stats["edits_seconds"] = t_names
        constraint = self.constraint(task, prompt, names, edit["lines"] if edit else None) if constrain else None
        return Request(task, prompt, ids, enc, drafter, constraint,
                       DSLLineGuard(self.tokenizer.decode) if guard and not constrain else None,
                       torch.Generator().manual_seed(seed) if seed is not None else None,
                       max_new_tokens, temperature, constrain, stats)

    def read_names(self, prompt: str) -> dict | None:
        """The name head's reading of a plan prompt (:meth:`NameReader.names`), None without a head; the
        reading a plan request just made is reused, not read again."""
        if self.names is None:
            return None
        prompt = as_prompt("plan", prompt)
        cached = self._readings.get(prompt)
        return cached if cached is not None else self.names.names(prompt)

    def finish(self, req: "Request", res: GenerationResult) -> Completion:
        """The answer's text (a statement cut short by the length limit or a dead end dropped) and statistics."""
        text = self.tokenizer.decode(res.ids)
        if res.stopped in ("constraint", "length") and req.constrain:
            text = text[: text.rfind("\n") + 1]  # drop a statement cut short
        return Completion(text.strip() + "\n", {**req.stats, **res.stats()})

    def encode(self, prompt: str, offsets: list[tuple[int, int]], word_spans: list[tuple[int, int]] = ()):
        """The brief encoder's states of the prompt tokens, for a model trained with them (else None),
        and of ``word_spans`` (the name head's words; None where none are asked), from one pass."""
        if not self.model.cfg.encoder_dim and not word_spans:
            return None, None
        feats = self._brief_encoder().features([prompt], [list(offsets) + list(word_spans)])[0]
        tokens, word_states = feats[: len(offsets)], feats[len(offsets):]
        return (tokens if self.model.cfg.encoder_dim else None), (word_states if word_spans else None)

    @staticmethod
    def _brief_encoder():
        try:
            return shared_encoder()
        except EncoderError as exc:
            raise ModelError(f"cannot load CraftLM's brief encoder: {exc}") from exc

    def constraint(self, task: str, prompt: str, names: dict | None = None, lines: list[str] | None = None):
        """The decoding constraint for ``task`` and the full model ``prompt`` (``names``: the name
        head's reading of a plan brief; ``lines``: the edit head's answers to a repair)."""
        if getattr(self, "_token_bytes", None) is None:
            self._token_bytes = token_bytes(self.tokenizer)
        return DSLConstraint(task, prompt, self._token_bytes, self.tokenizer.eos_id, names,
                             encode=self.tokenizer.encode, lines=lines)
