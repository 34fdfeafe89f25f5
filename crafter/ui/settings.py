"""The Settings tab's choices, and the backend string the pipeline understands.

Backends are named the way the CLI names them: ``craftlm`` (built in), ``hf:/path``
(a local Hugging Face causal LM), ``openai:http://host:port/v1`` (any OpenAI-compatible
server). Column widths are the two print widths journals ask for.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Literal

from crafter.errors import CrafterError

BackendKind = Literal["craftlm", "none", "hf", "openai"]
BACKEND_LABELS: dict[str, str] = {
    "craftlm": "Built-in CraftLM (offline, no set-up)",
    "none": "No model: rules only (fastest; simple briefs)",
    "hf": "Local Hugging Face model (a folder on this machine)",
    "openai": "OpenAI-compatible server (vLLM, SGLang, llama.cpp, Ollama)",
}
THEME_LABELS: dict[str, str] = {
    "paper": "paper — print, 9 pt text, colour-blind-safe",
    "slides": "slides — large text and strokes",
    "mono": "mono — black and white",
}
COLUMN_WIDTHS_IN: dict[str, float] = {"single": 3.3, "double": 7.0}
COLUMN_LABELS: dict[str, str] = {"single": "Single column (3.3 in)", "double": "Double column (7 in)"}
MAX_ROUNDS = 6


class SettingsError(CrafterError):
    """A setting that cannot work (a model folder that does not exist, a URL that is not one)."""


@dataclass
class Settings:
    backend: BackendKind = "craftlm"
    hf_path: str = ""
    openai_url: str = "http://127.0.0.1:8000/v1"
    theme: str = "paper"
    rounds: int = 3  # critique → repair rounds after the first draft
    column: str = "double"  # "single" or "double"
    style: str = ""  # a house style kept in the config folder (crafter style list); "": the theme alone

    @classmethod
    def with_backend(cls, spec: str | None) -> "Settings":
        """Settings whose backend is the spec string (``craftlm``, ``none``, ``hf:…``, ``openai:…``).

        How ``CRAFTER_BACKEND`` (the same string the CLI's ``--backend`` takes) presets the
        app's choice; an unknown string leaves the built-in model.
        """
        s = cls()
        spec = (spec or "").strip()
        if spec in ("craftlm", "none"):
            s.backend = spec  # type: ignore[assignment]
        elif spec.startswith("hf:"):
            s.backend, s.hf_path = "hf", spec[3:]
        elif spec.startswith("openai:"):
            s.backend, s.openai_url = "openai", spec[7:]
        return s

    @property
    def width_in(self) -> float:
        return COLUMN_WIDTHS_IN[self.column]

    def backend_string(self) -> str:
        """``craftlm``, ``hf:/path`` or ``openai:URL``; raises :class:`SettingsError` if unusable."""
        if self.backend in ("craftlm", "none"):
            return self.backend
        if self.backend == "hf":
            path = self.hf_path.strip()
            if not path:
                raise SettingsError("Settings: give the folder of the local Hugging Face model, "
                                    "or choose the built-in model")
            if not os.path.isdir(os.path.expanduser(path)):
                raise SettingsError(f"Settings: the model folder '{path}' does not exist on this machine")
            return "hf:" + os.path.expanduser(path)
        if self.backend == "openai":
            url = self.openai_url.strip()
            if not url.startswith(("http://", "https://")):
                raise SettingsError(f"Settings: '{url}' is not a server URL "
                                    "(expected e.g. http://127.0.0.1:8000/v1)")
            return "openai:" + url
        raise SettingsError(f"Settings: unknown backend '{self.backend}'")

    def describe_backend(self) -> str:
        if self.backend == "hf":
            return f"local model {self.hf_path.strip() or '(no folder set)'}"
        if self.backend == "openai":
            return f"server {self.openai_url.strip()}"
        if self.backend == "none":
            return "rules only (no model)"
        if (url := os.environ.get("CRAFTER_MODEL_URL", "").strip()):  # crafter.llm.get_backend reads it too
            return f"built-in CraftLM at the model server {url} (CRAFTER_MODEL_URL)"
        return "built-in CraftLM"
