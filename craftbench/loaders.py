"""Loaders for what a user has on disk: the public CraftBench release and folders of PNG figures.

* The CraftBench release: JSON or JSONL records with the fields ``task``, ``style``,
  ``caption``, ``paper_context``, ``instruction``, ``masked_region``,
  ``input_image``, ``target_image`` (image paths relative to the file).
* A folder of PNG/JPG figures with captions (e.g. PaperBanana-Bench): a caption per
  image from ``captions.json`` / ``captions.jsonl`` / ``captions.csv``, or a sidecar
  ``NAME.txt`` beside ``NAME.png``.

Both become :class:`ExternalCase` records, usable for judge-based runs and, where a
target image exists, for the vectorize track. Nothing is downloaded.
"""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

RELEASE_FIELDS = ("task", "style", "caption", "paper_context", "instruction", "masked_region", "input_image",
                  "target_image")
IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".webp"}


@dataclass
class ExternalCase:
    id: str
    task: str
    caption: str = ""
    style: str | None = None
    paper_context: str | None = None
    instruction: str | None = None
    masked_region: Any = None
    input_image: Path | None = None
    target_image: Path | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def _records(path: Path) -> list[dict[str, Any]]:
    text = path.read_text(encoding="utf-8-sig")
    if path.suffix == ".jsonl":
        out = []
        for n, line in enumerate(text.splitlines(), 1):
            if line.strip():
                try:
                    out.append(json.loads(line))
                except json.JSONDecodeError as e:
                    raise ValueError(f"{path}, line {n}: invalid JSON ({e.msg})") from None
        return out
    data = json.loads(text)
    if isinstance(data, dict):
        data = data.get("data") or data.get("records") or [data]
    if not isinstance(data, list):
        raise ValueError(f"{path}: expected a list of records")
    return data


def load_craftbench_release(path: str | Path) -> list[ExternalCase]:
    """Records of the public CraftBench release (a .json/.jsonl file, or a folder holding one)."""
    p = Path(path)
    if p.is_dir():
        files = sorted([*p.glob("*.jsonl"), *p.glob("*.json")])
        if not files:
            raise FileNotFoundError(f"{p}: no .json or .jsonl file with CraftBench records")
        p = files[0]
    base = p.parent
    cases = []
    for i, rec in enumerate(_records(p)):
        if not isinstance(rec, dict) or "task" not in rec:
            raise ValueError(f"{p}: record {i + 1} has no 'task' field (expected fields: {', '.join(RELEASE_FIELDS)})")
        def img(key: str) -> Path | None:
            v = rec.get(key)
            return (base / v) if isinstance(v, str) and v else None
        cases.append(ExternalCase(
            id=str(rec.get("id", f"{p.stem}-{i}")), task=str(rec["task"]), caption=rec.get("caption") or "",
            style=rec.get("style"), paper_context=rec.get("paper_context"), instruction=rec.get("instruction"),
            masked_region=rec.get("masked_region"), input_image=img("input_image"), target_image=img("target_image"),
            extra={k: v for k, v in rec.items() if k not in RELEASE_FIELDS and k != "id"},
        ))
    return cases


def load_png_folder(path: str | Path) -> list[ExternalCase]:
    """Figures in a folder with their captions (captions.json/jsonl/csv or NAME.txt sidecars)."""
    folder = Path(path)
    if not folder.is_dir():
        raise FileNotFoundError(f"{folder}: not a folder")
    captions: dict[str, str] = {}
    if (folder / "captions.json").exists():
        data = json.loads((folder / "captions.json").read_text(encoding="utf-8"))
        captions = data if isinstance(data, dict) else {d["image"]: d.get("caption", "") for d in data}
    elif (folder / "captions.jsonl").exists():
        for d in _records(folder / "captions.jsonl"):
            captions[d["image"]] = d.get("caption", "")
    elif (folder / "captions.csv").exists():
        with (folder / "captions.csv").open(encoding="utf-8-sig", newline="") as f:
            for d in csv.DictReader(f):
                captions[d["image"]] = d.get("caption", "")
    cases = []
    for img in sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES):
        cap = captions.get(img.name) or captions.get(img.stem)
        if cap is None and img.with_suffix(".txt").exists():
            cap = img.with_suffix(".txt").read_text(encoding="utf-8").strip()
        cases.append(ExternalCase(id=img.stem, task="vectorize", caption=cap or "", target_image=img, input_image=img))
    return cases
