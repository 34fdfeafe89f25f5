"""CraftLM inside Hugging Face transformers: ``AutoModelForCausalLM`` loads the shipped weights.

``import crafter.llm.hf`` registers the ``craftlm`` model type with ``AutoConfig`` and
``AutoModelForCausalLM`` (no ``trust_remote_code``, no files copied), so::

    import crafter.llm.hf  # noqa: F401
    from transformers import AutoModelForCausalLM
    model = AutoModelForCausalLM.from_pretrained(WEIGHTS_DIR, dtype=torch.float32)

reads the very ``config.json`` + ``model.safetensors`` that :meth:`CraftLM.save` writes.
The wrapper shares its modules with a :class:`CraftLM` (same parameter names, so the
checkpoint needs no key mapping) and its forward is CraftLM's. It is for
interoperability — scoring, fine-tuning with the transformers Trainer, plain
``generate`` (no KV cache: each step re-reads the sequence; pass ``copy_len=`` the prompt's
length for the engine's greedy output). Crafter's own decoding (rollback cache, speculative diffusion drafts,
constraints) is :mod:`crafter.llm.engine`.
"""

from __future__ import annotations

from dataclasses import asdict, fields
from pathlib import Path

import torch
from transformers import (
    AutoConfig,
    AutoModelForCausalLM,
    GenerationMixin,
    PretrainedConfig,
    PreTrainedModel,
    PreTrainedTokenizerFast,
)
from transformers.modeling_outputs import CausalLMOutput

from crafter.llm.model import CraftLM, CraftLMConfig
from crafter.llm.tokenizer import CraftTokenizer

_FIELDS = [f.name for f in fields(CraftLMConfig)]


class CraftLMHFConfig(PretrainedConfig):
    model_type = "craftlm"
    attribute_map = {"num_hidden_layers": "n_layers", "hidden_size": "d_model", "num_attention_heads": "n_heads",
                     "intermediate_size": "d_ff", "max_position_embeddings": "max_len"}

    def __init__(self, **kwargs) -> None:
        defaults = asdict(CraftLMConfig())
        for name in _FIELDS:
            setattr(self, name, kwargs.pop(name, defaults[name]))
        kwargs.setdefault("tie_word_embeddings", True)
        kwargs.setdefault("use_cache", False)  # generate() re-reads the sequence; the engine has the cache
        super().__init__(pad_token_id=self.pad_token_id, eos_token_id=self.eos_token_id,
                         **{k: v for k, v in kwargs.items() if k not in ("pad_token_id", "eos_token_id")})

    def craftlm_config(self) -> CraftLMConfig:
        return CraftLMConfig(**{name: getattr(self, name) for name in _FIELDS})


class CraftLMForCausalLM(PreTrainedModel, GenerationMixin):
    config_class = CraftLMHFConfig
    base_model_prefix = ""
    main_input_name = "input_ids"
    _no_split_modules = ["Block"]

    def __init__(self, config: CraftLMHFConfig) -> None:
        super().__init__(config)
        core = CraftLM(config.craftlm_config())
        object.__setattr__(self, "core", core)  # not a submodule: its parts are registered below
        for name, module in core.named_children():
            self.add_module(name, module)
        for name, param in core.named_parameters(recurse=False):
            self.register_parameter(name, param)
        self.post_init()

    def _init_weights(self, module) -> None:  # CraftLM initialises itself; loading overwrites
        pass

    def get_input_embeddings(self):
        return self.embed

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor | None = None,
                labels: torch.Tensor | None = None, copy_len: int | None = None, enc: torch.Tensor | None = None,
                **_: object) -> CausalLMOutput:
        """copy_len: the copy head copies only from positions below it — pass the prompt's length
        (``generate(ids, copy_len=ids.shape[1])``) to decode as Crafter's engine does.
        enc: ``[B, P, encoder_dim]`` brief-encoder states of the first ``P`` tokens (the prompt), for a
        model with ``encoder_dim`` (:meth:`crafter.llm.encoder.BriefEncoder.features`); later tokens have
        none."""
        # the loader may replace this wrapper's own parameters (ptr_prior) after __init__: share them again
        self.core._parameters.update({k: self._parameters[k] for k in self.core._parameters})
        if enc is not None and enc.shape[1] != input_ids.shape[1]:
            enc = torch.nn.functional.pad(enc, (0, 0, 0, input_ids.shape[1] - enc.shape[1]))[:, : input_ids.shape[1]]
        # log-probabilities with the copy head (softmax-equivalent)
        logits = self.core(input_ids, copy_len=copy_len, enc=enc)
        loss = None
        if labels is not None:
            loss = torch.nn.functional.cross_entropy(logits[:, :-1].flatten(0, 1).float(), labels[:, 1:].flatten(),
                                                     ignore_index=-100)
        return CausalLMOutput(loss=loss, logits=logits)

    def prepare_inputs_for_generation(self, input_ids, **kwargs):
        return {"input_ids": input_ids, "copy_len": kwargs.get("copy_len"), "enc": kwargs.get("enc")}


AutoConfig.register("craftlm", CraftLMHFConfig, exist_ok=True)
AutoModelForCausalLM.register(CraftLMHFConfig, CraftLMForCausalLM, exist_ok=True)


EXPORT_NOTE = """# CraftLM, exported for Hugging Face transformers

Written by `crafter export-model --format hf`: `config.json` (model type `craftlm`, architecture
`CraftLMForCausalLM`), `model.safetensors`, a fast tokenizer (`tokenizer.json`,
`tokenizer_config.json`) and `generation_config.json`.

    import crafter.llm.hf  # registers the craftlm model type with transformers' Auto classes
    from transformers import AutoModelForCausalLM, AutoTokenizer
    model = AutoModelForCausalLM.from_pretrained(DIR)
    tok = AutoTokenizer.from_pretrained(DIR)
    ids = tok("<|plan|>The encoder feeds the decoder.<|out|>", return_tensors="pt").input_ids
    out = model.generate(ids, max_new_tokens=200, do_sample=False, copy_len=ids.shape[1])

Limits, honestly: CraftLM is not a Llama/Qwen/GPT-2 — a copy head (pointer over the prompt) mixes
into its output distribution and a brief encoder's states join its prompt — so vLLM and SGLang have
no kernel for it and cannot serve this checkpoint; transformers can (greedy `generate` gives the
tokens of Crafter's engine decoding without constraint). What stays in Crafter: the DSL-constrained
decoding, the name and edit heads, and self-speculative diffusion drafting. To share CraftLM with
all of them, run `crafter serve` (on a GPU: `--device cuda`); to use a cluster's vLLM/SGLang model,
point Crafter at it with `--backend openai:http://HOST:PORT/v1#model=NAME`.
"""


def export_hf(out_dir: str | Path, weights: str | Path | None = None, dtype: torch.dtype = torch.float32) -> Path:
    """Write CraftLM (``weights``: a CraftLM directory, default the shipped one) as a transformers
    checkpoint in ``out_dir``: model, fast tokenizer, generation config and a note of its limits."""
    src = Path(weights) if weights else Path(__file__).parent / "weights"
    out = Path(out_dir)
    model = AutoModelForCausalLM.from_pretrained(str(src), dtype=dtype).eval()
    model.config.architectures = ["CraftLMForCausalLM"]
    model.config.bos_token_id = model.config.eos_token_id
    model.generation_config.eos_token_id = model.config.eos_token_id
    model.generation_config.pad_token_id = model.config.pad_token_id
    model.generation_config.max_length = model.config.max_len
    model.save_pretrained(str(out))
    tok = CraftTokenizer.load(src)
    fast = PreTrainedTokenizerFast(tokenizer_object=tok.tok, eos_token="<|eos|>", pad_token="<|pad|>",
                                   unk_token="<|unk|>", mask_token="<|mask|>", model_max_length=model.config.max_len)
    fast.save_pretrained(str(out))
    (out / "README.md").write_text(EXPORT_NOTE, encoding="utf-8")
    return out
