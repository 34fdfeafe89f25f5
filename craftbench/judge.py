"""Optional judge: a vision-language model behind an OpenAI-compatible endpoint.

It scores a rendered figure against its caption with the published CraftBench rubric
(``RUBRIC``): faithfulness, readability and format, each 1–5, returned as JSON. The
judge is never needed for the automatic metrics; it adds a human-like opinion when a
user has such a model served (vLLM, SGLang, llama.cpp, Ollama).
"""

from __future__ import annotations

import base64
import json
import re
from typing import Any

import httpx

RUBRIC = (
    "You are reviewing a scientific figure for a paper. Score it from 1 (poor) to 5 (excellent) on:\n"
    "- faithfulness: every element, label, connection and number the caption describes is present and correct; "
    "nothing invented;\n"
    "- readability: text is legible at print size, nothing overlaps, the flow is easy to follow, colours are "
    "distinguishable;\n"
    "- format: it looks like a figure in a peer-reviewed paper (consistent fonts and strokes, aligned elements, "
    "restrained colour).\n"
    'Answer with JSON only: {"faithfulness": n, "readability": n, "format": n, "comment": "one sentence"}.'
)


def judge_figure(png: bytes, caption: str, url: str, *, model: str = "default",
                 timeout: float = 120.0) -> dict[str, Any]:
    """Ask the served model to score one figure; returns the three scores and a comment."""
    body = {
        "model": model,
        "temperature": 0,
        "messages": [
            {"role": "system", "content": RUBRIC},
            {"role": "user", "content": [
                {"type": "text", "text": f"Caption: {caption}"},
                {"type": "image_url", "image_url": {"url": "data:image/png;base64," + base64.b64encode(png).decode()}},
            ]},
        ],
    }
    resp = httpx.post(url.rstrip("/") + "/chat/completions", json=body, timeout=timeout)
    resp.raise_for_status()
    text = resp.json()["choices"][0]["message"]["content"]
    return parse_scores(text)


def parse_scores(text: str) -> dict[str, Any]:
    """The JSON object in a judge's answer, scores clamped to 1..5."""
    m = re.search(r"\{.*\}", text, re.S)
    if not m:
        raise ValueError(f"judge answer holds no JSON object: {text[:80]!r}")
    data = json.loads(m.group(0))
    out: dict[str, Any] = {}
    for key in ("faithfulness", "readability", "format"):
        v = float(data.get(key, 0))
        out[key] = min(5.0, max(1.0, v))
    out["comment"] = str(data.get("comment", ""))
    return out
