"""The synthetic corpus: targets parse, the held-out split really is held out."""

import random
import re

from crafter.llm.corpus import held_out_set, make_corpus
from crafter.llm.corpus.vocabulary import HEADS, MODIFIERS, vocab_for
from crafter.llm.prompts import build_prompt, chart_prompt, plan_prompt, repair_prompt, task_of
from crafter.llm.quality import score


def test_every_target_parses_and_scores_perfectly_against_itself():
    for e in make_corpus(150, "train", seed=3) + held_out_set(15):
        s = score(e.task, e.target, e.target)
        assert s["parses"] and s["f1"] == 1.0, e


def test_held_out_vocabulary_and_phrasing_never_appear_in_training():
    train, held = vocab_for("train"), vocab_for("heldout")
    assert not set(train.heads) & set(held.heads) and not set(train.modifiers) & set(held.modifiers)
    assert set(train.heads) | set(held.heads) == set(HEADS) and set(MODIFIERS) == set(train.modifiers) | set(held.modifiers)
    held_words = set(held.heads) | set(held.modifiers)
    train_text = " ".join(e.prompt + e.target for e in make_corpus(400, "train", seed=5)).lower()
    train_words = set(re.findall(r"[a-z]+", train_text))
    # chart field names and types ("model", "sample", "temporal") are shared by both splits on purpose
    assert not (held_words - {"model", "sample", "temporal"}) & train_words


def test_briefs_read_like_research_prose():
    briefs = [e.source for e in held_out_set(60) if e.task == "plan"] + \
             [e.source for e in make_corpus(200, "train", 1, task="plan")]
    assert any("\n- " in b or "\n* " in b or "\n• " in b for b in briefs)  # bullets
    assert any("1." in b or "Step 1" in b or "1)" in b or "Stage 1" in b for b in briefs)  # numbered steps
    assert any("->" in b or "→" in b or "=>" in b for b in briefs)  # arrows
    assert any(" by " in b for b in briefs)  # passive voice
    assert any("which" in b for b in briefs)


def test_prompt_builders():
    assert task_of(plan_prompt("x")) == "plan" and task_of(chart_prompt("t: a (nominal)", "bars")) == "chart"
    p = repair_prompt('n1 node "A"', "rename", ["n1"])
    assert p.endswith("<|ids|>n1<|out|>")
    assert plan_prompt("sneaky <|out|> marker") == "<|plan|>sneaky  marker<|out|>"
    assert build_prompt("repair", 'n1 node "A"\nISSUE: Rename n1 to "B".') == \
        repair_prompt('n1 node "A"', 'Rename n1 to "B".', ["n1"])


def test_invented_phrasings_never_use_held_out_words():
    from crafter.llm.corpus.invented import (
        invented_caption,
        invented_group,
        invented_link,
        invented_sentence,
        invented_step,
    )
    from crafter.llm.corpus.phrasings import HELD_OUT_ONLY_WORDS

    rng = random.Random(0)
    made = [invented_link(rng, k) for k in ("active", "passive", "which", "labelled", "dashed") for _ in range(300)]
    made += [f(rng) for f in (invented_sentence, invented_step, invented_caption, invented_group) for _ in range(300)]
    words = set(re.findall(r"[a-z]+", " ".join(made).lower()))
    assert not words & (HELD_OUT_ONLY_WORDS - {"and"})
    assert len({m for m in made if "{a}" in m}) > 500  # many distinct link frames, not a fixed list


def test_invented_links_draw_on_english_verbs_but_never_a_held_out_word():
    from crafter.llm.corpus.invented import FORBIDDEN, english_verbs, participle, third

    verbs = english_verbs()
    assert len(verbs) > 1000  # too many to learn by heart: the model must read the sentence
    assert not {f for v in verbs for f in (v, third(v), participle(v))} & FORBIDDEN
    assert not {"supply", "drive", "ship", "activate", "relay"} & set(verbs)  # held-out phrasings' verbs
    assert {"observe", "provide", "implement"} <= set(verbs)


def test_training_names_draw_on_english_content_words_never_held_out_ones():
    from crafter.llm.corpus.invented import FORBIDDEN, english_name_words, english_verbs

    words = english_name_words()
    assert len(words) > 2000 and {"kinetic", "turbulence"} <= set(words)
    assert not set(words) & FORBIDDEN and not set(words) & set(english_verbs())
    assert not {"however", "together", "under", "ionic"} & set(words)  # function words; a held-out modifier
    labels = " ".join(e.target for e in make_corpus(300, "train", seed=9, task="plan")).lower()
    assert len(set(re.findall(r"[a-z]+", labels)) & set(words)) > 100


def test_the_held_out_split_is_what_it_was():
    """The benchmark's prompts may not move when the training corpus grows."""
    import hashlib

    digest = hashlib.md5(repr([(e.prompt, e.target) for e in held_out_set(40, 0)]).encode()).hexdigest()
    assert digest == HELD_OUT_DIGEST


HELD_OUT_DIGEST = "8dd7099a1007aed9664134e8176cdf6b"  # held_out_set(40, 0) since the stage-7 weights
