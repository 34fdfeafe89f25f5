"""The written brief corpus: figure descriptions the way researchers write them, each with a gold figure.

1,258 briefs in 19 fields and 10 writing styles, written for this project by six writers
(``writer`` h1…h6, each covering other fields), every sentence new; each brief has a
hand-made gold FigureSpec (DSL) and, per component, the other labels a researcher could
equally have written (``aliases``). Tags say which phenomena a brief exhibits
(coreference, a verb that becomes a box, fan-in, feedback, a condition, negation…) and
which noise it carries (citations, inline math, abbreviations, units, sentences about
motivation or results that must not become boxes).

The splits are by field *and* style: ``test`` holds field-and-style pairs that ``train``
lacks (every field and every style still appear in train). The test split is frozen: its
sha256 is :data:`TEST_SHA256` (and in the README); nothing trains or tunes on it, and no
test brief shares a run of eight words with a train brief (tests/corpora).
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from crafter.errors import InputError, SpecError
from crafter.spec import Figure, parse_dsl

SPLITS = ("train", "dev", "test")
TEST_SHA256 = "322afb5cd2ea63ff059de577486004fbc4654df6d121540e8e193127c293080a"
FIELDS = (
    "ml-vision", "ml-nlp", "ml-rl", "ml-generative", "distributed-systems", "storage-databases",
    "networking-security", "compilers", "bioinformatics", "wet-lab", "chemistry", "materials", "physics-optics",
    "neuroscience", "robotics-control", "earth-climate", "clinical-epidemiology", "social-science", "hci",
)
STYLES = ("method", "passive", "caption", "readme", "numbered", "bullets", "arrows", "docstring", "slide", "abstract")
PHENOMENA = (
    "coreference", "verb_to_box", "participle", "fan_in", "fan_out", "feedback", "condition", "data_vs_process",
    "groups", "nested_groups", "multi_panel", "edge_labels", "negation", "parallel",
)
NOISE = ("citations", "math", "abbreviations", "units", "distractors")


@dataclass(frozen=True)
class Brief:
    id: str
    field: str
    style: str
    writer: str
    phenomena: tuple[str, ...]
    noise: tuple[str, ...]
    text: str  # what a researcher would paste
    gold_dsl: str
    aliases: dict[str, list[str]]

    @property
    def gold(self) -> Figure:
        return _parse_gold(self.id, self.gold_dsl)


@lru_cache(maxsize=None)
def _parse_gold(brief_id: str, dsl: str) -> Figure:
    try:
        return parse_dsl(dsl, file=f"brief {brief_id}")
    except SpecError as e:
        raise InputError(f"the gold figure of brief {brief_id} does not parse: {e}") from None


def split_file(split: str):
    if split not in SPLITS:
        raise InputError(f"unknown split '{split}'; expected one of {', '.join(SPLITS)}")
    return resources.files("crafter.corpora") / "briefs" / f"{split}.jsonl"


def split_sha256(split: str) -> str:
    return hashlib.sha256(split_file(split).read_bytes()).hexdigest()


@lru_cache(maxsize=None)
def load_briefs(split: str) -> tuple[Brief, ...]:
    """Every brief of a split, in id order."""
    out = []
    path = split_file(split)
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            r = json.loads(line)
            out.append(Brief(id=r["id"], field=r["field"], style=r["style"], writer=r["writer"],
                             phenomena=tuple(r["phenomena"]), noise=tuple(r["noise"]), text=r["brief"],
                             gold_dsl=r["gold"], aliases={k: list(v) for k, v in r["aliases"].items()}))
        except (json.JSONDecodeError, KeyError, TypeError, AttributeError) as e:
            raise InputError(f"damaged brief record ({type(e).__name__}: {e})", file=str(path), line=n) from None
    return tuple(out)


def words(text: str) -> list[str]:
    """The words of a text as the overlap rule counts them: runs of letters and digits, lower case."""
    return re.findall(r"[a-z0-9]+", text.lower())


def eight_word_runs(text: str) -> set[tuple[str, ...]]:
    w = words(text)
    return {tuple(w[i:i + 8]) for i in range(len(w) - 7)}
