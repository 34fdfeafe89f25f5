"""Small stand-ins for the SmolLM2 backbone: a random Llama and a byte-level BPE tokenizer with
SmolLM2's special tokens (same ids, so the mask id 16 holds) and its chat template."""

from __future__ import annotations

from functools import lru_cache

from crafter.llm.smol.model import tiny_llama  # noqa: F401  (re-exported for the tests)

SMOL_SPECIALS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<repo_name>", "<reponame>", "<file_sep>",
                 "<filename>", "<gh_stars>", "<issue_start>", "<issue_comment>", "<issue_closed>",
                 "<jupyter_start>", "<jupyter_text>", "<jupyter_code>", "<jupyter_output>", "<jupyter_script>",
                 "<empty_output>"]
CHAT_TEMPLATE = ("{% for message in messages %}{{'<|im_start|>' + message['role'] + '\n' + message['content'] "
                 "+ '<|im_end|>' + '\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}"
                 "{% endif %}")


@lru_cache(maxsize=1)
def tiny_tokenizer(vocab_size: int = 320):
    """A byte-level BPE (SmolLM2's kind) trained on a few synthetic examples, in a transformers wrapper."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    from crafter.llm.corpus import make_corpus
    from crafter.llm.prompts import chat_messages

    texts = []
    for e in make_corpus(60, "train", seed=5):
        texts += [m["content"] for m in chat_messages(e.prompt)] + [e.target]
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=SMOL_SPECIALS,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator(texts, trainer)
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, bos_token="<|im_start|>", eos_token="<|im_end|>",
                                   unk_token="<|endoftext|>", pad_token="<|im_end|>",
                                   additional_special_tokens=SMOL_SPECIALS[3:])
    fast.chat_template = CHAT_TEMPLATE
    assert fast.convert_tokens_to_ids("<empty_output>") == 16 and fast.convert_tokens_to_ids("<|im_end|>") == 2
    return fast
