"""The bytes each token of a byte-level BPE tokenizer stands for (what the constraint scans), and the
vocabulary sorted by those bytes (:class:`ByteVocab`: which tokens a state can take, without trying
all of them)."""

from __future__ import annotations

from bisect import bisect_left

from crafter.llm.prompts import SPECIAL_TOKENS


def token_bytes(tokenizer, size: int | None = None) -> list[bytes]:
    """The bytes each token id stands for (byte-level BPE); special tokens map to ``b""``.

    ``tokenizer``: CraftLM's :class:`~crafter.llm.tokenizer.CraftTokenizer` (its ``tok``) or a
    transformers fast tokenizer (its ``backend_tokenizer``: SmolLM2's). ``size``: the model's
    vocabulary where it is larger than the tokenizer's (ids past the tokenizer stand for nothing)."""
    tok = getattr(tokenizer, "tok", None) or getattr(tokenizer, "backend_tokenizer", None) or tokenizer
    specials = set(SPECIAL_TOKENS)
    specials |= {str(t) for t in getattr(tokenizer, "all_special_tokens", ())}
    added = tok.get_added_tokens_decoder() if hasattr(tok, "get_added_tokens_decoder") else {}
    specials |= {t.content for t in added.values() if t.special}
    byte_of = {c: b for b, c in _bytes_to_unicode().items()}
    n = tok.get_vocab_size()
    out = []
    for i in range(max(n, size or 0)):
        piece = tok.id_to_token(i) if i < n else None
        if piece is None or piece in specials:
            out.append(b"")
            continue
        try:
            out.append(bytes(byte_of[c] for c in piece))
        except KeyError as exc:
            raise ValueError(f"token {i} ({piece!r}) is not a byte-level BPE piece: the DSL constraint "
                             "needs a byte-level tokenizer (GPT-2's alphabet)") from exc
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


class ByteVocab:
    """The tokens sorted by their bytes: the tokens that start with a prefix are one run of the list.

    :meth:`walk` lists the tokens a predicate on byte prefixes admits, descending only into
    prefixes it admits: on SmolLM2's 49,152 tokens a state reads a few hundred prefixes, not the
    whole vocabulary (a trie of token bytes, kept as a sorted list)."""

    def __init__(self, token_bytes: list[bytes]) -> None:
        pairs = sorted((b, i) for i, b in enumerate(token_bytes) if b)
        self.keys = [b for b, _ in pairs]
        self.ids = [i for _, i in pairs]

    def walk(self, ok) -> list[int]:
        """Ids of the tokens whose every prefix (at whole characters) ``ok(prefix_bytes)`` admits.
        A prefix that ends inside a UTF-8 character is not asked: the character may still become
        one the predicate admits."""
        out: list[int] = []
        keys, ids = self.keys, self.ids
        stack = [(b"", 0, len(keys))]
        while stack:
            prefix, lo, hi = stack.pop()
            d = len(prefix)
            while lo < hi and len(keys[lo]) == d:  # tokens that are exactly the prefix (sorted first)
                out.append(ids[lo])
                lo += 1
            while lo < hi:  # one child per next byte
                b = keys[lo][d]
                child = prefix + bytes((b,))
                end = hi if b == 255 else bisect_left(keys, prefix + bytes((b + 1,)), lo, hi)
                if _cut_char(child) or ok(child):
                    stack.append((child, lo, end))
                lo = end
        return out


def _cut_char(b: bytes) -> bool:
    """Whether ``b`` ends inside a UTF-8 character (its last lead byte wants more bytes than follow)."""
    for k in range(1, min(4, len(b)) + 1):
        c = b[-k]
        if c < 0x80:
            return False
        if c >= 0xC0:  # a lead byte: 110xxxxx wants 2 bytes, 1110xxxx 3, 11110xxx 4
            need = 2 if c < 0xE0 else 3 if c < 0xF0 else 4
            return k < need
    return False
