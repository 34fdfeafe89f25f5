"""``hf:/path/to/model``: any local transformers causal LM (no download: local files only),
decoded with transformers' prompt-lookup speculation."""

from __future__ import annotations

import os
import time
from pathlib import Path

from crafter.llm.backends.base import Completion, ModelError, as_prompt, strip_fences
from crafter.llm.prompts import chat_messages


class HFBackend:
    """A local transformers causal LM; greedy decoding with prompt-lookup speculation."""

    name = "hf"

    def __init__(self, path: str, prompt_lookup_tokens: int = 10) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")  # before transformers is imported: it reads it then
        from transformers import AutoModelForCausalLM, AutoTokenizer  # heavy: seconds to import; only hf: needs it

        if not Path(path).is_dir():
            raise ModelError(f"hf backend: no model directory at {path}")
        try:
            self.tokenizer = AutoTokenizer.from_pretrained(path, local_files_only=True)
            self.model = AutoModelForCausalLM.from_pretrained(path, local_files_only=True).eval()
        except Exception as exc:  # transformers raises many kinds (OSError, ValueError, KeyError...)
            raise ModelError(f"hf backend: cannot load the model at {path}: {exc}") from exc
        self.path = path
        self.prompt_lookup_tokens = prompt_lookup_tokens
        self.forwards = 0
        self.model.register_forward_hook(lambda *a: setattr(self, "forwards", self.forwards + 1))

    def _text_prompt(self, prompt: str) -> str:
        messages = chat_messages(prompt)
        if getattr(self.tokenizer, "chat_template", None):
            return self.tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
        return "\n\n".join(m["content"] for m in messages) + "\n\n"

    def complete(self, task: str, prompt: str, *, max_new_tokens: int = 512, temperature: float = 0.0,
                 speculative: str | None = "ngram", **_: object) -> Completion:
        import torch  # heavy: seconds to import; only a loaded model needs it

        text = self._text_prompt(as_prompt(task, prompt))
        enc = self.tokenizer(text, return_tensors="pt")
        limit = getattr(self.model.config, "max_position_embeddings", None)
        if limit and enc.input_ids.shape[1] >= limit:
            raise ModelError(f"prompt of {enc.input_ids.shape[1]} tokens does not fit the model's context of {limit}")
        kwargs: dict = {"max_new_tokens": max_new_tokens, "do_sample": temperature > 0}
        if temperature > 0:
            kwargs["temperature"] = temperature
        if speculative in ("ngram", "diffusion") and temperature == 0:
            kwargs["prompt_lookup_num_tokens"] = self.prompt_lookup_tokens
        pad = self.tokenizer.pad_token_id if self.tokenizer.pad_token_id is not None else self.tokenizer.eos_token_id
        self.forwards = 0
        t0 = time.perf_counter()
        with torch.inference_mode():
            out = self.model.generate(**enc, pad_token_id=pad, **kwargs)
        seconds = time.perf_counter() - t0
        new = out[0, enc.input_ids.shape[1]:]
        n = int(new.numel())
        stats = {"backend": self.name, "task": task,
                 "drafter": "ngram" if "prompt_lookup_num_tokens" in kwargs else "none",
                 "forward_passes": self.forwards, "tokens": n,
                 "tokens_per_forward": round(n / max(1, self.forwards), 3),
                 "acceptance_histogram": {}, "seconds": round(seconds, 4),
                 "tokens_per_second": round(n / seconds, 1) if seconds > 0 else 0.0}
        return Completion(strip_fences(self.tokenizer.decode(new, skip_special_tokens=True)), stats)

