"""CraftLM on SmolLM2: prompts in the backbone's chat format, self-speculative decoding, a backend.

* :class:`SmolFormat` — a task prompt (:mod:`crafter.llm.prompts`) as the backbone's chat
  turn, the very text the ``hf:`` backend sends (:func:`crafter.llm.prompts.chat_messages`
  under the tokenizer's chat template), so the exported checkpoint answers the same
  prompts there; an answer is DSL followed by ``<|im_end|>``.
* :class:`SmolBackend` — ``complete(task, prompt) -> Completion`` like every backend, decoded
  by :func:`crafter.llm.engine.generate_ids` (the verify/accept loop, written once) over
  :class:`crafter.llm.smol.model.SmolLM`, with the engine's drafters:

  - ``diffusion``: the model's own block of mask tokens drafts the next ``B`` tokens in the
    same forward that verifies the current drafts (one forward per round; a rejection drops
    the block's drafts); ``B`` adapts per request to the accepted lengths (4-16), and prompt
    lookup stands in when it has nothing or does better (repair copies lines);
  - ``ngram``: prompt lookup alone (transformers' ``prompt_lookup_num_tokens``);
  - ``none``: plain cached greedy decoding, one token a forward;
  - ``diff-only``: the mask block without the lookup fallback (to tell the two drafters apart).

  **Guarantee** (the engine's): with ``temperature=0`` every committed token is the
  verifier's argmax after the committed prefix, so every mode writes exactly what plain
  greedy decoding writes; only the number of forwards differs (tested in fp32).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import torch

from crafter.llm.completion import Completion, ModelError, as_prompt
from crafter.llm.constrain import DSLConstraint
from crafter.llm.constrain.tokens import token_bytes
from crafter.llm.edits import FILE as EDITS_FILE
from crafter.llm.edits import EditReader
from crafter.llm.encoder import EncoderError, shared_encoder
from crafter.llm.engine import SPECULATIVE, generate_ids, make_drafter
from crafter.llm.names import FILE as NAMES_FILE
from crafter.llm.names import NameReader, RecentReadings
from crafter.llm.prompts import chat_messages, requested_lines
from crafter.llm.smol.backbone import BackboneError, load_backbone, verify_manifest
from crafter.llm.smol.model import SmolLM

MODES = (*SPECULATIVE, "diff-only")


class SmolFormat:
    """Task prompts and answers as the backbone's token ids."""

    def __init__(self, tokenizer) -> None:
        self.tok = tokenizer
        specials = set(tokenizer.all_special_tokens)
        specials |= {str(t) for t in getattr(tokenizer, "added_tokens_decoder", {}).values()}
        # longest first, so a special token that contains another is removed whole
        self._specials = sorted((s for s in specials if s), key=len, reverse=True)
        self.eos_id = tokenizer.convert_tokens_to_ids("<|im_end|>")

    def clean(self, text: str) -> str:
        """User text without any special-token string (a brief cannot forge a turn or a mask)."""
        for s in self._specials:
            text = text.replace(s, "")
        return text

    def prompt_text(self, prompt: str) -> str:
        messages = [{**m, "content": self.clean(m["content"])} for m in chat_messages(prompt)]
        return self.tok.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)

    def prompt_ids(self, prompt: str) -> list[int]:
        return self.tok(self.prompt_text(prompt), add_special_tokens=False)["input_ids"]

    def text_ids(self, text: str) -> list[int]:
        return self.tok(self.clean(text), add_special_tokens=False)["input_ids"]

    def response_ids(self, dsl: str) -> list[int]:
        """The answer the model is trained to write: the DSL, then ``<|im_end|>``."""
        return self.text_ids(dsl.strip() + "\n") + [self.eos_id]

    def decode(self, ids: list[int]) -> str:
        return self.tok.decode(ids, skip_special_tokens=True)


class SmolBackend:
    """CraftLM on SmolLM2 (base + fine-tuned delta), decoded self-speculatively under the DSL constraint."""

    name = "smollm"

    def __init__(self, model: SmolLM, tokenizer, threads: int | None = None, trusted_plan: bool = False,
                 constrained: bool = True, heads: str | Path | None = None, cover: bool = True) -> None:
        """constrained: decode under :class:`~crafter.llm.constrain.DSLConstraint` by default (every
        answer valid DSL of its task, labels copied from the brief; ``complete(constrain=False)`` or
        the ``#free`` backend spec turn it off). heads: a folder with CraftLM's name and edit heads
        (:mod:`crafter.llm.names`, :mod:`crafter.llm.edits`; the built-in weights'), which read the
        brief with the shared encoder, whatever decoder writes the answer: under the constraint, plan
        labels are then the names the head read, and a one-component repair one of the edit head's lines.
        cover: a plan also draws every name the head read and every link it read, and only those links
        (CraftLM's use of the head; the default while the adapter is undertrained: left to itself, the
        0.43-epoch adapter writes two nodes and then loops on edges); off, the adapter picks its nodes
        among the names and joins them as it reads the brief."""
        self.model = model.eval()
        # the pipeline takes this model's plan as it is, without the check against the rule-based reading
        # (crafter.agents.plan); set for a fine-tuned adapter that reads the dev briefs better than the rules
        self.trusted_plan = trusted_plan
        self.constrained = constrained
        self.cover = cover
        self.fmt = SmolFormat(tokenizer)
        if threads:  # the caller's choice, once for the process (torch's setting is global)
            torch.set_num_threads(threads)
        self._token_bytes: list[bytes] | None = None
        self._readings = RecentReadings()  # the name head's last readings, by cleaned plan prompt
        self.names = self.edits = None
        if constrained and heads is not None:
            self._load_heads(Path(heads))

    def _load_heads(self, heads: Path) -> None:
        try:
            if (heads / NAMES_FILE).exists():
                self.names = NameReader(heads, shared_encoder())
            if (heads / EDITS_FILE).exists():
                self.edits = EditReader(heads, shared_encoder())
        except (EncoderError, ValueError, FileNotFoundError) as exc:
            raise ModelError(f"cannot load the name and edit heads from {heads}: {exc}") from exc

    @classmethod
    def load(cls, adapter: str | Path | None = None, threads: int | None = None, trusted_plan: bool = False,
             constrained: bool = True, heads: str | Path | None = None, cover: bool = True) -> SmolBackend:
        """The cached backbone (:mod:`crafter.llm.smol.backbone`), with a fine-tuned adapter merged in when given."""
        lm, tokenizer = load_model(adapter)
        return cls(SmolLM(lm), tokenizer, threads, trusted_plan, constrained, heads, cover)

    def complete(self, task: str, prompt: str, *, max_new_tokens: int = 512, temperature: float = 0.0,
                 speculative: str | None = "diffusion", block_size: int | None = None, seed: int = 0,
                 constrain: bool | None = None, **_: object) -> Completion:
        """Generate for ``task``; ``constrain`` (default: the backend's): under the DSL constraint, the
        answer always parses (a statement cut short by the length limit is dropped)."""
        prompt = as_prompt(task, prompt)
        constrain = self.constrained if constrain is None else constrain
        speculative = speculative or "diffusion"
        if speculative not in MODES:
            raise ModelError(f"unknown speculative mode '{speculative}' (use one of: {', '.join(MODES)})")
        ids = self.fmt.prompt_ids(prompt)
        limit = self.model.cfg.max_len
        if len(ids) >= limit - 1:
            raise ModelError(f"prompt of {len(ids)} tokens does not fit the model's context of {limit}")
        prime = self.fmt.text_ids(requested_lines(prompt)) if task == "repair" else None
        mode = "diffusion" if speculative == "diff-only" else speculative
        drafter = make_drafter(mode, task, block_size, prime=prime)
        if speculative == "diff-only":
            drafter.ngram = None
        stats: dict = {"backend": self.name, "task": task, "prompt_tokens": len(ids), "constrained": constrain}
        t0 = time.perf_counter()
        constraint = self.constraint(task, prompt, stats) if constrain else None
        if constraint is not None:
            stats["constraint_setup_seconds"] = round(time.perf_counter() - t0, 4)
        gen = torch.Generator().manual_seed(seed) if temperature > 0 else None
        res = generate_ids(self.model, ids, max_new_tokens=max_new_tokens, temperature=temperature,
                           drafter=drafter, generator=gen, constraint=constraint)
        text = self.fmt.decode(res.ids)
        if constraint is not None and res.stopped in ("constraint", "length"):
            text = text[: text.rfind("\n") + 1]  # drop a statement cut short
        return Completion(text.strip(), {**stats, **res.stats()})

    def read_names(self, prompt: str) -> dict | None:
        """The name head's reading of a plan prompt (:meth:`NameReader.names`; what the rules planner merges,
        :func:`crafter.agents.extract.with_head`), None without a head; the reading a plan request just made
        under the constraint is reused, not read again (as :meth:`CraftLM.read_names`)."""
        if self.names is None:
            return None
        prompt = self.fmt.clean(as_prompt("plan", prompt))
        cached = self._readings.get(prompt)
        return cached if cached is not None else self.names.names(prompt)

    def constraint(self, task: str, prompt: str, stats: dict | None = None) -> DSLConstraint:
        """The decoding constraint for ``task`` and the full task ``prompt`` (special-token strings
        removed, as the model reads it), with the heads' readings where this backend has them. Plans
        follow the written corpus' conventions (its ids, the figure's direction, shapes, panels: what
        ``crafter train --backbone smol`` trains on), so a gold-like plan is never refused partway."""
        if self._token_bytes is None:
            self._token_bytes = token_bytes(self.fmt.tok, size=self.model.core.config.vocab_size)
        prompt = self.fmt.clean(prompt)
        names = lines = None
        if task == "plan" and self.names is not None:
            names = self.names.names(prompt)
            self._readings.remember(prompt, names)
        elif task == "repair" and self.edits is not None:
            edit = self.edits.read(prompt)
            lines = edit["lines"] if edit else None
            if stats is not None:
                stats["edit"] = {"edit": edit["edit"], "p": edit["p"]} if edit else None
        return DSLConstraint(task, prompt, self._token_bytes, self.fmt.eos_id, names,
                             encode=self.fmt.text_ids, lines=lines, force_tokenization=False, conventions="corpus",
                             cover=self.cover)


def load_model(adapter: str | Path | None = None):
    """``(LlamaForCausalLM, tokenizer)``: the verified backbone, plus a LoRA adapter merged into it.

    The adapter folder (``adapter_config.json`` + ``adapter_model.safetensors``, PEFT's format)
    must carry the manifest :func:`crafter.llm.smol.backbone.write_manifest` writes; its digests are
    checked before anything is read.
    """
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    bb = load_backbone()
    if adapter is None:
        return bb.model, bb.tokenizer
    return merge_adapter(bb.model, adapter), bb.tokenizer


def merge_adapter(lm, adapter: str | Path):
    """``lm`` with the verified LoRA adapter at ``adapter`` merged into its weights (a plain Llama again)."""
    from peft import PeftModel  # heavy: seconds to import; only merging an adapter needs it

    problem = verify_manifest(adapter, required=("adapter_model.safetensors", "adapter_config.json"))
    if problem:
        raise BackboneError(f"the fine-tuned adapter cannot be used: {problem}")
    return PeftModel.from_pretrained(lm, str(adapter), is_trainable=False).merge_and_unload().eval()

