"""The BPE tokenizer: lossless round trip, single-token DSL keywords, fixed special ids."""

from crafter.llm.corpus import held_out_set
from crafter.llm.prompts import EOS, MASK, OUT
from crafter.llm.tokenizer import DSL_KEYWORDS, CraftTokenizer


def test_round_trip_on_held_out_text_and_unicode(tokenizer):
    texts = [e.source for e in held_out_set(5)] + [e.target for e in held_out_set(5)]
    texts += ["Ψ-encoder → décodeur ⟶ 量子 cache", "tabs\tand\n\nnewlines  double  spaces"]
    for t in texts:
        assert tokenizer.decode(tokenizer.encode(t)) == t


def test_keywords_are_single_tokens_and_specials_fixed(tokenizer):
    for kw in DSL_KEYWORDS:
        assert len(tokenizer.encode(kw)) == 1
    assert tokenizer.encode(EOS) == [tokenizer.eos_id] and tokenizer.encode(MASK) == [tokenizer.mask_id]
    assert len(tokenizer.encode(OUT)) == 1


def test_a_word_tokenises_the_same_in_a_brief_and_in_a_label(tokenizer):
    word = tokenizer.encode("Zorblax")
    assert tokenizer.encode('"Zorblax"')[1:-1] == word
    assert tokenizer.encode("the Zorblax feeds")[2:2 + len(word)] == word


def test_save_load(tmp_path, tokenizer):
    tokenizer.save(tmp_path)
    again = CraftTokenizer.load(tmp_path)
    assert again.encode("n1 node \"A\"") == tokenizer.encode("n1 node \"A\"")
