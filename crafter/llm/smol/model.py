"""SmolLM2 (any transformers Llama) behind CraftLM's forward, so one decode loop serves both.

:func:`crafter.llm.engine.generate_ids` — the verify/accept loop, its drafters and the
draft attention layout of :mod:`kernels` — calls ``model(x, attn_mask=…, cache=…)`` and
``model.new_cache(capacity)`` and reads ``model.cfg.{max_len, eos_token_id, mask_token_id}``.
:class:`SmolLM` offers exactly that over a ``LlamaForCausalLM`` (plain, or wrapped by PEFT
with LoRA layers): its own forward runs the model's modules (norms, projections, MLPs,
rotary embedding, LM head) with

* explicit **positions** (the training layout's noised copy reuses the clean copy's),
* a boolean **attention mask** ``[B, 1, T, S]`` (True = attend) for the draft and
  training layouts of :mod:`kernels.masks`, and
* the rollback cache :class:`kernels.KVCache` (``num_key_value_heads`` heads: GQA is
  passed to SDPA, never expanded in memory).

transformers' own forward would need its cache classes and mask conventions, which
change between releases; this one relies only on the Llama module names.

**The mask token** is ``<empty_output>`` (id 16), reused rather than added: it is one of
eleven StarCoder-era special tokens of SmolLM2's vocabulary (ids 5, 7-16) whose embeddings
are byte-identical — never trained, so it means nothing the model would have to unlearn —
and reusing it keeps the vocabulary (49,152), the tokenizer files and the exported
checkpoint's shapes exactly the base's. Its embedding row is trained (PEFT
``trainable_token_indices``); user text never carries it (special-token strings are
stripped from prompts, :mod:`crafter.llm.smol.engine`).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.checkpoint import checkpoint

from kernels import KVCache, draft_attention_mask

# SDPA takes grouped-query attention itself from torch 2.5; before, keys and values are repeated per head
SDPA_GQA = tuple(int(x) for x in torch.__version__.split(".")[:2]) >= (2, 5)

MASK_TOKEN = "<empty_output>"
MASK_TOKEN_ID = 16


@dataclass
class SmolConfig:
    max_len: int = 2048  # longest prompt + response this engine serves (bounds the KV cache; the base has 8192)
    eos_token_id: int = 2  # <|im_end|>: the end of an assistant turn
    mask_token_id: int = MASK_TOKEN_ID  # what a draft block is filled with (see the module doc)
    pad_token_id: int = 2


def unwrap(lm) -> nn.Module:
    """The ``LlamaForCausalLM`` inside a PEFT wrapper (LoRA layers stay injected), or ``lm`` itself."""
    base = getattr(lm, "get_base_model", None)
    return base() if callable(base) else lm


class SmolLM(nn.Module):
    """CraftLM's ``forward`` / ``new_cache`` / ``cfg`` over a transformers Llama."""

    def __init__(self, lm: nn.Module, cfg: SmolConfig | None = None) -> None:
        super().__init__()
        self.lm = lm  # registered: .parameters(), .train(), .to() reach LoRA layers too
        core = unwrap(lm)
        c = core.config
        self.cfg = cfg or SmolConfig(max_len=min(2048, c.max_position_embeddings),
                                     eos_token_id=_first(c.eos_token_id, 2), pad_token_id=_first(c.pad_token_id, 2))
        self.n_kv_heads = c.num_key_value_heads
        self.head_dim = getattr(c, "head_dim", None) or c.hidden_size // c.num_attention_heads
        self.n_layers = c.num_hidden_layers
        # training: keep only each layer's input and recompute the rest in backward. Measured on the
        # 2-core CPU, LoRA, one thread, 4 pairs (2,267 positions a step): peak memory 9.6 -> 4.7 GB,
        # 84 -> 64 positions per CPU-second
        self.checkpointing = False

    @property
    def core(self) -> nn.Module:
        return unwrap(self.lm)

    def num_params(self) -> int:
        return sum(p.numel() for p in self.parameters())

    def new_cache(self, capacity: int | None = None, batch: int = 1) -> KVCache:
        p = next(self.parameters())
        return KVCache(self.n_layers, batch, self.n_kv_heads, self.head_dim, capacity or self.cfg.max_len,
                       dtype=p.dtype, device=p.device)

    def hidden(self, input_ids: torch.Tensor, positions: torch.Tensor | None = None,
               attn_mask: torch.Tensor | None = None, cache: KVCache | None = None) -> torch.Tensor:
        """Final hidden states ``[B, T, d]`` (after the last norm) for ``input_ids`` ``[B, T]``.

        positions: ``[B, T]`` (default: continue after the cache). attn_mask: boolean,
        broadcastable to ``[B, 1, T, S]``, ``S`` = cached + T keys, True = attend (default:
        causal). cache: appended to; roll back with ``cache.crop``.
        """
        model = self.core.model
        b, t = input_ids.shape
        start = cache.length if cache is not None else 0
        assert start + t <= self.cfg.max_len, f"sequence of {start + t} exceeds max_len {self.cfg.max_len}"
        if positions is None:
            positions = torch.arange(start, start + t, device=input_ids.device).expand(b, t)
        causal = False
        if attn_mask is None:
            if start and t > 1:
                attn_mask = draft_attention_mask(start, t, 0, device=input_ids.device)
            else:
                causal = t > 1  # SDPA's own causal path: no mask tensor
        if attn_mask is not None and attn_mask.dim() == 2:
            attn_mask = attn_mask[None, None]
        x = model.embed_tokens(input_ids)
        cos, sin = model.rotary_emb(x, positions)  # [B, T, hd] each
        if cache is not None:
            cache.begin(t)
        for i, layer in enumerate(model.layers):
            if self.checkpointing and self.training and torch.is_grad_enabled():
                x = checkpoint(self._layer, layer, i, x, cos, sin, attn_mask, causal, cache, use_reentrant=False)
            else:
                x = self._layer(layer, i, x, cos, sin, attn_mask, causal, cache)
        if cache is not None:
            cache.commit()
        return model.norm(x)

    def _layer(self, layer: nn.Module, i: int, x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor,
               attn_mask: torch.Tensor | None, causal: bool, cache: KVCache | None) -> torch.Tensor:
        b, t, _ = x.shape
        attn = layer.self_attn
        h = layer.input_layernorm(x)
        q = attn.q_proj(h).view(b, t, -1, self.head_dim).transpose(1, 2)  # [B, H, T, hd]
        k = attn.k_proj(h).view(b, t, -1, self.head_dim).transpose(1, 2)  # [B, Hkv, T, hd]
        v = attn.v_proj(h).view(b, t, -1, self.head_dim).transpose(1, 2)
        q, k = apply_rotary_pos_emb(q, k, cos, sin)
        if cache is not None:
            k, v = cache.update(i, k, v)  # [B, Hkv, S, hd]
        if q.shape[1] == k.shape[1]:
            y = F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask, is_causal=causal)
        elif SDPA_GQA:
            y = F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask, is_causal=causal, enable_gqa=True)
        else:
            g = q.shape[1] // k.shape[1]
            y = F.scaled_dot_product_attention(q, k.repeat_interleave(g, 1), v.repeat_interleave(g, 1),
                                               attn_mask=attn_mask, is_causal=causal)
        x = x + attn.o_proj(y.transpose(1, 2).reshape(b, t, -1))
        return x + layer.mlp(layer.post_attention_layernorm(x))

    def logits(self, h: torch.Tensor) -> torch.Tensor:
        return self.core.lm_head(h)

    def forward(self, input_ids: torch.Tensor, positions: torch.Tensor | None = None,
                attn_mask: torch.Tensor | None = None, cache: KVCache | None = None,
                **_: object) -> torch.Tensor:
        """Logits ``[B, T, V]``. Extra CraftLM arguments (``copy_len``, ``enc``, ``clean``) have no
        meaning here and are ignored: the engine passes them to every model."""
        return self.logits(self.hidden(input_ids, positions, attn_mask, cache))


def _rotate_half(x: torch.Tensor) -> torch.Tensor:
    a, b = x.chunk(2, dim=-1)
    return torch.cat((-b, a), dim=-1)


def apply_rotary_pos_emb(q: torch.Tensor, k: torch.Tensor, cos: torch.Tensor,
                         sin: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Llama's rotary embedding (``cos``/``sin`` ``[B, T, hd]``, q/k ``[B, H, T, hd]``), as transformers applies it."""
    cos, sin = cos.unsqueeze(1), sin.unsqueeze(1)
    return q * cos + _rotate_half(q) * sin, k * cos + _rotate_half(k) * sin


def _first(x, default: int) -> int:
    if isinstance(x, (list, tuple)):
        return int(x[0]) if x else default
    return default if x is None else int(x)


def tiny_llama(vocab_size: int = 320, seed: int = 0, layers: int = 2, hidden: int = 64, heads: int = 4,
               kv_heads: int = 2, max_len: int = 512, embed_std: float = 1.0) -> nn.Module:
    """A small random ``LlamaForCausalLM`` (the backbone's architecture, tied embeddings) for fast tests."""
    from transformers import LlamaConfig, LlamaForCausalLM  # heavy: seconds to import; tests and tools only

    torch.manual_seed(seed)
    cfg = LlamaConfig(vocab_size=vocab_size, hidden_size=hidden, intermediate_size=2 * hidden,
                      num_hidden_layers=layers, num_attention_heads=heads, num_key_value_heads=kv_heads,
                      max_position_embeddings=max_len, tie_word_embeddings=True, bos_token_id=1,
                      eos_token_id=2, pad_token_id=2, rms_norm_eps=1e-5)
    model = LlamaForCausalLM(cfg).float().eval()
    with torch.no_grad():  # std 1 (decoding tests): sharper logits than the 0.02 init, fewer near-ties
        model.model.embed_tokens.weight.normal_(0, embed_std)
    return model
