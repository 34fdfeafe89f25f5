"""A figure reads the same in every process: the commonest of several readings (a series' marker
shape, a label's font) is taken from the list, ties to the first seen, never from a set, whose order
of strings changes with PYTHONHASHSEED (two dev charts' marker shapes had flipped between runs)."""

from __future__ import annotations

import re
from pathlib import Path

import crafteditor


def test_no_commonest_is_taken_from_a_sets_order():
    root = Path(crafteditor.__file__).parent
    found = [f"{p.relative_to(root).as_posix()}:{i}" for p in sorted(root.rglob("*.py"))
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if re.search(r"\b(max|min)\(set\(", line)]
    assert found == [], f"a tie follows hash order at {found}: use max(xs, key=xs.count)"
