"""CraftLM's tokenizer: byte-level BPE trained with ``tokenizers`` on the corpus.

Pre-tokenisation splits text into words, single punctuation marks, DSL arrows and
single whitespace characters, and BPE merges only inside those pieces. So a word
is tokenised the same way wherever it stands — in a brief, after a quote in a DSL
label, at the start of a line — which is what lets the model copy labels it never
saw in training token by token. DSL keywords (``node``, ``edge``, ``->``…) come out
as single tokens; the task markers, ``<|eos|>`` and ``<|mask|>`` are special tokens
with fixed ids (see :mod:`crafter.llm.prompts`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers, trainers

from crafter.llm.prompts import EOS, MASK, PAD, SPECIAL_TOKENS, UNK

PIECES = r"<->|<-|->|--|\s|\w+|[^\w\s]"
DSL_KEYWORDS = ["figure", "node", "edge", "group", "text", "panel", "chart", "spec", "shape", "style", "label",
                "fill", "dashed", "cylinder", "diamond", "mark", "encoding", "field", "type", "->"]


class CraftTokenizer:
    """Thin wrapper: ``encode(text) -> ids``, ``decode(ids) -> text`` and the special ids."""

    def __init__(self, tok: Tokenizer) -> None:
        self.tok = tok
        ids = [tok.token_to_id(t) for t in SPECIAL_TOKENS]
        if ids != list(range(len(SPECIAL_TOKENS))):
            raise ValueError("tokenizer special tokens are not in the expected order")
        self.pad_id, self.unk_id = tok.token_to_id(PAD), tok.token_to_id(UNK)
        self.eos_id, self.mask_id = tok.token_to_id(EOS), tok.token_to_id(MASK)

    @property
    def vocab_size(self) -> int:
        return self.tok.get_vocab_size()

    def encode(self, text: str) -> list[int]:
        return self.tok.encode(text).ids

    def encode_offsets(self, text: str) -> tuple[list[int], list[tuple[int, int]]]:
        """Ids and each token's character span in ``text`` (what the brief encoder aligns to)."""
        enc = self.tok.encode(text)
        return enc.ids, [tuple(o) for o in enc.offsets]

    def decode(self, ids: Iterable[int]) -> str:
        return self.tok.decode([int(i) for i in ids], skip_special_tokens=True)

    def save(self, directory: str | Path) -> None:
        self.tok.save(str(Path(directory) / "tokenizer.json"))

    @classmethod
    def load(cls, directory: str | Path) -> "CraftTokenizer":
        path = Path(directory) / "tokenizer.json"
        if not path.is_file():
            raise FileNotFoundError(f"CraftLM tokenizer missing: {path}")
        try:
            return cls(Tokenizer.from_file(str(path)))
        except Exception as exc:  # tokenizers raises a bare Exception on bad JSON
            raise ValueError(f"{path} is corrupt: {exc}") from exc


def train_tokenizer(texts: Iterable[str], vocab_size: int = 2048) -> CraftTokenizer:
    tok = Tokenizer(models.BPE(unk_token=UNK))
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(PIECES), behavior="isolated"),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
    ])
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, min_frequency=2, special_tokens=SPECIAL_TOKENS,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    # keywords repeated so BPE surely merges them into single tokens
    tok.train_from_iterator(list(texts) + [" ".join(DSL_KEYWORDS)] * 1000, trainer=trainer)
    out = CraftTokenizer(tok)
    for kw in DSL_KEYWORDS:
        assert len(out.encode(kw)) == 1, f"DSL keyword {kw!r} is not a single token"
    return out
