"""The bytes each token of a byte-level BPE tokenizer stands for (what the constraint scans)."""

from __future__ import annotations

from crafter.llm.prompts import SPECIAL_TOKENS


def token_bytes(tokenizer) -> list[bytes]:
    """The bytes each token id stands for (byte-level BPE); special tokens map to ``b""``."""
    byte_of = {c: b for b, c in _bytes_to_unicode().items()}
    tok = tokenizer.tok
    out = []
    for i in range(tok.get_vocab_size()):
        piece = tok.id_to_token(i)
        if piece is None or piece in SPECIAL_TOKENS:
            out.append(b"")
        else:
            out.append(bytes(byte_of[c] for c in piece))
    return out


def _bytes_to_unicode() -> dict[int, str]:
    """GPT-2's byte -> printable character table, which byte-level BPE pieces are written in."""
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return dict(zip(bs, map(chr, cs)))

