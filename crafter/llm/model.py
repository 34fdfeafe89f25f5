"""CraftLM: a small decoder-only transformer that writes FigureSpec DSL.

One file, top-down: config, RoPE, RMSNorm, attention (SDPA, optional KV cache),
SwiGLU MLP, block, model, save/load. The same weights serve two modes:

* **autoregressive** — causal attention, next-token logits (plain decoding and
  verification);
* **block diffusion** — a block of ``[MASK]`` tokens attends to the prefix and to
  itself bidirectionally and predicts, at each mask position, the token that belongs
  there (drafting). The mode is only a matter of the attention mask and the inputs
  (see :mod:`kernels.masks`), so one ``forward`` serves both.

Positions are explicit (``positions``), because in the training layout the noised
copy of the response reuses the positions of the clean copy.

**Copy head** (``copy_head``). Most of a figure's DSL is copied from its brief: the
labels are the researcher's words, many never seen in training. A 1.6 M-parameter
model that must route a rare word through its vocabulary softmax learns that slowly;
a pointer head learns it at once (pointer-generator networks, See et al. 2017). The
final hidden state of each position ``j`` is a pointer key whose *value is the token
that follows it*, ``x[j+1]`` — an induction head built in: "find where the context
was like here, output what came next". The output distribution mixes the vocabulary
softmax and the pointer's attention, scattered onto those tokens, with a learnt gate:
``p = (1 - g) · softmax(W h) + g · Σ_j a_j [x_{j+1} = ·]``, and ``forward`` returns
``log p``. The pointer's scores are a learnt bilinear form plus an *induction prior*:
learnt weights on "the key's token is the query's token" and "the tokens before them
are equal" (cosine of the embeddings), so copying works from the first step and the
learnt part only has to disambiguate repeated tokens. A key counts for a query only
where the attention mask lets the query see both ``j`` and ``j + 1`` and both hold clean
tokens (not ``[MASK]``, not the noised copy), so causal rows copy only from their prefix
(plain decoding and verification stay exact) and a mask block copies only from the clean
context it sees.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import asdict, dataclass, fields
from pathlib import Path

import torch
import torch.nn as nn
import torch.nn.functional as F
from safetensors import SafetensorError
from safetensors.torch import load_file, save_file

from kernels import KVCache, draft_attention_mask


@dataclass
class CraftLMConfig:
    vocab_size: int = 4096
    d_model: int = 160
    n_layers: int = 4
    n_heads: int = 4
    d_ff: int = 432  # SwiGLU hidden width (≈ 8/3 · d_model, a multiple of 16)
    max_len: int = 1536  # longest prompt + response (RoPE has no table, this bounds the cache)
    rope_theta: float = 10000.0
    norm_eps: float = 1e-5
    mask_token_id: int = 3  # the [MASK] the diffusion drafter fills in
    eos_token_id: int = 2
    pad_token_id: int = 0
    copy_head: bool = False  # a pointer head that copies context tokens (see CraftLM._copy_mix)
    # width of the brief encoder's states added to prompt tokens (0: none; see crafter.llm.encoder)
    encoder_dim: int = 0

    @property
    def head_dim(self) -> int:
        return self.d_model // self.n_heads

    def __post_init__(self) -> None:
        assert self.d_model % self.n_heads == 0, "d_model must be a multiple of n_heads"
        assert self.head_dim % 2 == 0, "RoPE needs an even head dimension"

    @classmethod
    def from_dict(cls, data: dict) -> "CraftLMConfig":
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known - {"model_type", "architectures"}
        if unknown:
            raise ValueError(f"unknown CraftLM config fields: {sorted(unknown)}")
        return cls(**{k: v for k, v in data.items() if k in known})


def rope_angles(positions: torch.Tensor, head_dim: int, theta: float) -> tuple[torch.Tensor, torch.Tensor]:
    """cos/sin for rotary embeddings: ``[B, T]`` positions -> two ``[B, 1, T, head_dim/2]``."""
    inv_freq = 1.0 / theta ** (torch.arange(0, head_dim, 2, dtype=torch.float32, device=positions.device) / head_dim)
    angles = positions.to(torch.float32)[..., None] * inv_freq  # [B, T, hd/2]
    return angles.cos()[:, None], angles.sin()[:, None]


def apply_rope(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    """Rotate pairs (first half, second half) of ``x``: ``[B, H, T, hd]``."""
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((x1 * cos - x2 * sin, x1 * sin + x2 * cos), dim=-1)


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float) -> None:
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


class Attention(nn.Module):
    def __init__(self, cfg: CraftLMConfig, layer: int) -> None:
        super().__init__()
        self.layer = layer
        self.n_heads, self.head_dim = cfg.n_heads, cfg.head_dim
        self.qkv = nn.Linear(cfg.d_model, 3 * cfg.d_model, bias=False)
        self.out = nn.Linear(cfg.d_model, cfg.d_model, bias=False)

    def forward(self, x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor,
                mask: torch.Tensor | None, cache: KVCache | None) -> torch.Tensor:
        b, t, d = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.n_heads, self.head_dim).permute(2, 0, 3, 1, 4)  # 3 × [B, H, T, hd]
        q, k = apply_rope(q, cos, sin), apply_rope(k, cos, sin)
        causal = False
        if cache is not None:
            k, v = cache.update(self.layer, k, v)  # [B, H, S, hd], S = cached + t
        if mask is None and cache is None:
            causal = t > 1
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=causal)
        return self.out(y.transpose(1, 2).reshape(b, t, d))


class SwiGLU(nn.Module):
    def __init__(self, cfg: CraftLMConfig) -> None:
        super().__init__()
        self.gate_up = nn.Linear(cfg.d_model, 2 * cfg.d_ff, bias=False)
        self.down = nn.Linear(cfg.d_ff, cfg.d_model, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        gate, up = self.gate_up(x).chunk(2, dim=-1)
        return self.down(F.silu(gate) * up)


class Block(nn.Module):
    def __init__(self, cfg: CraftLMConfig, layer: int) -> None:
        super().__init__()
        self.norm1 = RMSNorm(cfg.d_model, cfg.norm_eps)
        self.attn = Attention(cfg, layer)
        self.norm2 = RMSNorm(cfg.d_model, cfg.norm_eps)
        self.mlp = SwiGLU(cfg)

    def forward(self, x, cos, sin, mask, cache):
        x = x + self.attn(self.norm1(x), cos, sin, mask, cache)
        return x + self.mlp(self.norm2(x))


class CraftLM(nn.Module):
    """Decoder-only transformer with tied input/output embeddings."""

    def __init__(self, cfg: CraftLMConfig) -> None:
        super().__init__()
        self.cfg = cfg
        self.embed = nn.Embedding(cfg.vocab_size, cfg.d_model)
        self.blocks = nn.ModuleList(Block(cfg, i) for i in range(cfg.n_layers))
        self.norm = RMSNorm(cfg.d_model, cfg.norm_eps)
        if cfg.copy_head:
            self.ptr_q = nn.Linear(cfg.d_model, cfg.d_model, bias=False)
            self.ptr_k = nn.Linear(cfg.d_model, cfg.d_model, bias=False)
            self.ptr_gate = nn.Linear(cfg.d_model, 1)
            # the gate also sees what the pointer proposes (the embedding of the token it would copy):
            # "copy a word's next piece" and "copy a space or full stop at a label's end" need different gates
            self.ptr_gate_c = nn.Linear(cfg.d_model, 1, bias=False)
            # identity prior of the pointer: weights of "same token here" and "same token before"
            self.ptr_prior = nn.Parameter(torch.tensor([4.0, 2.0]))
        if cfg.encoder_dim:  # brief-encoder states -> embedding space
            self.enc_norm = nn.LayerNorm(cfg.encoder_dim)
            self.enc_proj = nn.Linear(cfg.encoder_dim, cfg.d_model, bias=False)
        self.apply(self._init)
        for name, p in self.named_parameters():  # GPT-2 style: scale residual projections by depth
            if name.endswith(("attn.out.weight", "mlp.down.weight")):
                nn.init.normal_(p, std=0.02 / math.sqrt(2 * cfg.n_layers))
        self._init_weights_after()

    @staticmethod
    def _init(m: nn.Module) -> None:
        if isinstance(m, (nn.Linear, nn.Embedding)):
            nn.init.normal_(m.weight, std=0.02)

    def _init_weights_after(self) -> None:
        if self.cfg.copy_head:
            nn.init.zeros_(self.ptr_gate_c.weight)  # starts as the plain gate (warm starts are undisturbed)
        if self.cfg.encoder_dim:
            nn.init.zeros_(self.enc_proj.weight)  # a warm-started decoder starts exactly as it was

    def num_params(self) -> int:
        return sum(p.numel() for p in self.parameters())

    def new_cache(self, capacity: int | None = None, batch: int = 1) -> KVCache:
        c = self.cfg
        p = self.embed.weight
        layers = c.n_layers + (1 if c.copy_head else 0)  # the pointer keys ride in one extra "layer"
        return KVCache(layers, batch, c.n_heads, c.head_dim, capacity or c.max_len, dtype=p.dtype, device=p.device)

    def forward(self, input_ids: torch.Tensor, positions: torch.Tensor | None = None,
                attn_mask: torch.Tensor | None = None, cache: KVCache | None = None,
                clean: torch.Tensor | None = None, copy_len: int | torch.Tensor | None = None,
                enc: torch.Tensor | None = None, embed_ids: torch.Tensor | None = None) -> torch.Tensor:
        """Logits ``[B, T, V]`` for ``input_ids`` ``[B, T]`` (log-probabilities with the copy head).

        positions: ``[B, T]`` (default: continue after the cache). attn_mask: boolean,
        broadcastable to ``[B, 1, T, S]`` with ``S`` = cached + T keys, True = attend
        (default: causal). cache: appended to (call ``cache.crop`` to roll back).
        clean: ``[B, T]`` bool, positions holding real tokens the copy head may copy
        (default: every position that is not ``[MASK]``; training passes False for the
        noised copy). copy_len: the copy head copies only tokens at positions below it (an
        int, or ``[B]``): the prompt's length, so the model copies from its source and never
        from its own output, which would let one slip repeat itself (default: anything seen).
        """
        b, t = input_ids.shape
        start = cache.length if cache is not None else 0
        starts = getattr(cache, "starts", None)  # several requests, each at its own length (kernels.BatchKVCache)
        if starts is not None:
            assert attn_mask is not None, "a batch of requests needs their attention masks"
            if positions is None:
                positions = starts[:, None] + torch.arange(t, device=input_ids.device)
        else:
            assert start + t <= self.cfg.max_len, f"sequence of {start + t} exceeds max_len {self.cfg.max_len}"
        if positions is None:
            positions = torch.arange(start, start + t, device=input_ids.device).expand(b, t)
        if attn_mask is None and cache is not None and t > 1:
            attn_mask = draft_attention_mask(start, t, 0, device=input_ids.device)
        if attn_mask is not None and attn_mask.dim() == 2:
            attn_mask = attn_mask[None, None]
        cos, sin = rope_angles(positions, self.cfg.head_dim, self.cfg.rope_theta)
        if cache is not None:
            cache.begin(t)
        x = self.embed(input_ids if embed_ids is None else embed_ids)
        if enc is not None and self.cfg.encoder_dim:
            assert enc.shape == (b, t, self.cfg.encoder_dim), f"enc must be [B, T, {self.cfg.encoder_dim}]"
            present = (enc != 0).any(-1, keepdim=True)  # tokens outside the encoded text have none
            x = x + self.enc_proj(self.enc_norm(enc.to(x.dtype))) * present
        for block in self.blocks:
            x = block(x, cos, sin, attn_mask, cache)
        h = self.norm(x)
        logits = F.linear(h, self.embed.weight)
        if self.cfg.copy_head:
            logits = self._copy_mix(h, logits, input_ids, attn_mask, clean, cache, copy_len)
        if cache is not None:
            cache.commit()
        return logits

    def _copy_mix(self, h: torch.Tensor, logits: torch.Tensor, input_ids: torch.Tensor,
                  attn_mask: torch.Tensor | None, clean: torch.Tensor | None, cache: KVCache | None,
                  copy_len: int | torch.Tensor | None = None) -> torch.Tensor:
        """Log of the gated mixture of the vocabulary softmax and the pointer (see the module doc)."""
        b, t, d = h.shape
        c = self.cfg
        start = cache.length if cache is not None else 0
        s = start + t
        if clean is None:
            clean = input_ids != c.mask_token_id
        keys = self.ptr_k(h)
        ids_all, clean_all = input_ids, clean
        starts = getattr(cache, "starts", None)  # a batch of requests at their own lengths (see forward)
        if cache is not None:  # pointer keys and token ids of the cached positions
            k4 = keys.view(b, t, c.n_heads, c.head_dim).transpose(1, 2)
            keys = cache.update(c.n_layers, k4, k4)[0].transpose(1, 2).reshape(b, s, d)
            ids_all = cache.update_ids(input_ids)
            if starts is None:
                clean_all = torch.cat([torch.ones(b, start, dtype=torch.bool, device=h.device), clean], 1)
            else:  # row i: its cache below starts[i], then its own positions (padding is hidden by the mask)
                col = torch.arange(s, device=h.device)[None]
                rel = (col - starts[:, None]).clamp(0, t - 1)
                clean_all = (col < starts[:, None]) | clean.gather(1, rel)
        if s < 2:
            return F.log_softmax(logits, -1)
        if attn_mask is None:  # causal, after the cache
            vis = torch.ones(t, s, dtype=torch.bool, device=h.device).tril(start)[None]
        else:
            vis = attn_mask.reshape(attn_mask.shape[0], *attn_mask.shape[-2:]).expand(-1, t, s)
        # key j (value: the token at j + 1) counts where the row sees j and j + 1, both clean
        valid = vis[:, :, :-1] & vis[:, :, 1:] & (clean_all[:, :-1] & clean_all[:, 1:])[:, None, :]
        if copy_len is not None:  # the copied token (at j + 1) must lie in the source
            limit = torch.as_tensor(copy_len, device=h.device).reshape(-1, 1, 1)
            valid = valid & (torch.arange(1, s, device=h.device).view(1, 1, -1) < limit)
        scores = self.ptr_q(h) @ keys[:, :-1].transpose(1, 2) / math.sqrt(d)  # [B, T, S-1]
        # induction prior: a key scores higher where its token (and the one before it) equals the query's
        emb = self.embed(ids_all).detach()  # looked up once: the prior and the gate's proposal both use it
        e = F.normalize(emb, dim=-1)
        e_prev = torch.cat([torch.zeros_like(e[:, :1]), e[:, :-1]], 1)
        if starts is None:
            e_q, e_prev_q = e[:, start:], e_prev[:, start:]
        else:  # each row's own query positions
            at = (starts[:, None] + torch.arange(t, device=h.device))[..., None].expand(b, t, d)
            e_q, e_prev_q = e.gather(1, at), e_prev.gather(1, at)
        scores = scores + self.ptr_prior[0] * (e_q @ e[:, :-1].transpose(1, 2)) \
            + self.ptr_prior[1] * (e_prev_q @ e_prev[:, :-1].transpose(1, 2))
        any_valid = valid.any(-1, keepdim=True)
        scores = scores.masked_fill(~valid, float("-inf")).masked_fill(~any_valid, 0.0)
        attn = torch.softmax(scores, -1) * valid
        src = ids_all[:, 1:].unsqueeze(1).expand(b, t, s - 1)
        p_copy = torch.zeros_like(logits).scatter_add_(2, src, attn)
        proposal = attn @ emb[:, 1:]  # [B, T, d]: the token the pointer would copy
        gate = torch.sigmoid(self.ptr_gate(h) + self.ptr_gate_c(proposal)) * any_valid
        probs = (1 - gate) * torch.softmax(logits, -1) + gate * p_copy
        return probs.clamp_min(1e-12).log()

    # -- save / load ---------------------------------------------------------------
    def save(self, directory: str | Path, dtype: torch.dtype = torch.float16) -> None:
        """Write ``config.json`` and ``model.safetensors`` (tied weights stored once)."""
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        config = {"model_type": "craftlm", "architectures": ["CraftLM"], **asdict(self.cfg)}
        (directory / "config.json").write_text(json.dumps(config, indent=2) + "\n")
        state = {k: v.detach().to("cpu", dtype).contiguous() for k, v in self.state_dict().items()}
        save_file(state, str(directory / "model.safetensors"), metadata={"format": "pt"})
        (directory / SHA_FILE).write_text(_sha256(directory / "model.safetensors") + "\n")

    @classmethod
    def load(cls, directory: str | Path, dtype: torch.dtype = torch.float32) -> "CraftLM":
        """Load what :meth:`save` wrote. Raises ``FileNotFoundError`` / ``ValueError`` on missing or corrupt files."""
        directory = Path(directory)
        for name in ("config.json", "model.safetensors"):
            if not (directory / name).is_file():
                raise FileNotFoundError(f"CraftLM weights incomplete: {directory / name} is missing")
        try:
            cfg = CraftLMConfig.from_dict(json.loads((directory / "config.json").read_text()))
        except (json.JSONDecodeError, TypeError, ValueError, AssertionError) as exc:
            raise ValueError(f"{directory / 'config.json'} is not a valid CraftLM config: {exc}") from exc
        sums = directory / SHA_FILE
        if sums.is_file() and _sha256(directory / "model.safetensors") != sums.read_text().strip():
            raise ValueError(f"{directory / 'model.safetensors'} is corrupt or swapped: its sha256 is not the one "
                             f"{SHA_FILE} names (reinstall the package, or retrain)")
        try:
            state = load_file(str(directory / "model.safetensors"))
        except (SafetensorError, OSError, RuntimeError, ValueError) as exc:
            raise ValueError(f"{directory / 'model.safetensors'} is corrupt or unreadable: {exc}") from exc
        model = cls(cfg)
        try:
            model.load_state_dict({k: v.to(dtype) for k, v in state.items()})
        except RuntimeError as exc:
            raise ValueError(f"{directory / 'model.safetensors'} does not match its config: {exc}") from exc
        return model.to(dtype).eval()


SHA_FILE = "model.safetensors.sha256"  # beside the weights: their sha256, checked at load where present


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()

