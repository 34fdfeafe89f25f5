"""The brief encoder: the pinned pretrained encoder's states reach exactly the prompt's English tokens,
a decoder warm-started with it starts unchanged, and speculative decoding stays identical with it."""

import random

import pytest
import torch

from crafter.llm.encoder import (
    ENCODER_DIM,
    BriefEncoder,
    EncoderError,
    _align,
    check_weights,
    model_path,
    shared_encoder,
)
from crafter.llm.engine import generate_ids, make_drafter
from crafter.llm.prompts import chart_prompt, english_span, plan_prompt, repair_prompt


@pytest.fixture(scope="module")
def encoder() -> BriefEncoder:
    return shared_encoder()


def test_english_span_is_the_brief_the_request_or_the_instruction():
    p = plan_prompt("The Encoder feeds the Decoder.")
    assert p[slice(*english_span(p))] == "The Encoder feeds the Decoder."
    c = chart_prompt("table: epoch (quantitative), loss (quantitative)", "loss over epochs")
    assert c[slice(*english_span(c))] == "table: epoch (quantitative), loss (quantitative)\nloss over epochs"
    r = repair_prompt('n1 node "A"\nn2 node "B"', "make n2 a cylinder", ["n2"])
    assert r[slice(*english_span(r))] == "make n2 a cylinder"  # the figure's DSL is not English
    assert english_span("no markers here") == (0, 0)


def test_align_averages_the_pieces_a_token_overlaps():
    states = torch.tensor([[1.0, 0.0], [3.0, 0.0], [0.0, 5.0]])
    pieces = [(0, 4), (4, 6), (7, 10)]  # "proj" "##or" _ "net"
    out = _align([(0, 6), (6, 7), (7, 10), (2, 5)], pieces, states)
    assert out.tolist() == [[2.0, 0.0], [0.0, 0.0], [0.0, 5.0], [2.0, 0.0]]


def test_features_sit_on_the_brief_tokens_only_and_depend_on_context(encoder, tokenizer):
    prompt = plan_prompt("The Encoder feeds the Decoder.")
    ids, offsets = tokenizer.encode_offsets(prompt)
    f = encoder.features([prompt], [offsets])[0]
    assert f.shape == (len(ids), ENCODER_DIM)
    has = f.abs().sum(-1) > 0
    for (a, b), h in zip(offsets, has.tolist()):
        piece = prompt[a:b]
        assert h == (piece.strip() != "" and not piece.startswith("<|")), piece
    other = plan_prompt("The Decoder feeds the Encoder.")
    ids2, off2 = tokenizer.encode_offsets(other)
    g = encoder.features([other], [off2])[0]
    k = next(i for i, (a, b) in enumerate(offsets) if a == prompt.index("feeds"))  # its first piece
    k2 = next(i for i, (a, b) in enumerate(off2) if a == other.index("feeds"))
    assert not torch.allclose(f[k], g[k2])  # contextual states, not a word table
    batched = encoder.features([prompt, other], [offsets, off2])
    assert torch.allclose(batched[0], f, atol=1e-5) and torch.allclose(batched[1], g, atol=1e-5)


def test_long_text_is_encoded_in_windows(encoder, tokenizer):
    prompt = plan_prompt(" ".join(f"Stage{i} feeds Stage{i + 1}." for i in range(200)))  # > 512 WordPieces
    ids, offsets = tokenizer.encode_offsets(prompt)
    f = encoder.features([prompt], [offsets])[0]
    last_word = max(i for i, (a, b) in enumerate(offsets) if prompt[a:b].strip() and not prompt[a:b].startswith("<|"))
    assert f[last_word].abs().sum() > 0


def test_weights_other_than_the_pinned_release_are_refused(tmp_path):
    assert check_weights(model_path()).name == "model.safetensors"
    (tmp_path / "model.safetensors").write_bytes(b"not the release")
    with pytest.raises(EncoderError, match="model.safetensors is not the pinned"):
        check_weights(tmp_path)
    with pytest.raises(EncoderError, match="missing"):
        check_weights(tmp_path / "nowhere")


def test_a_warm_started_decoder_is_unchanged_until_trained(make_model):
    plain = make_model(64, seed=3)
    with_enc = make_model(64, seed=3, encoder_dim=8)
    with_enc.load_state_dict(plain.state_dict(), strict=False)
    x = torch.randint(10, 64, (1, 12))
    enc = torch.randn(1, 12, 8)
    assert torch.allclose(plain(x), with_enc(x, enc=enc), atol=1e-6)


def _encoder_model(make_model, vocab: int):
    model = make_model(vocab, seed=5, encoder_dim=8, copy_head=True)
    with torch.no_grad():
        model.enc_proj.weight.normal_(0, 3.0)  # as if trained: the states matter
    return model


def test_speculative_output_is_identical_with_encoder_states(make_model, tokenizer):
    model = _encoder_model(make_model, tokenizer.vocab_size)
    for k in range(4):
        prompt = tokenizer.encode(plan_prompt(f"The Encoder {k} feeds the Decoder. A Critic reads the Decoder."))
        enc = torch.randn(len(prompt), 8, generator=torch.Generator().manual_seed(k))
        enc[-1] = 0  # <|out|>
        enc[0] = 0  # <|plan|>
        plain = generate_ids(model, prompt, 40, prompt_enc=enc).ids
        for mode in ("diffusion", "ngram"):
            assert generate_ids(model, prompt, 40, drafter=make_drafter(mode, "plan"), prompt_enc=enc).ids == plain
        x = torch.tensor([prompt])
        assert not torch.allclose(model(x, enc=enc[None]), model(x))  # the states change what it reads


def test_engine_refuses_states_it_cannot_feed(make_model, tokenizer):
    model = _encoder_model(make_model, tokenizer.vocab_size)
    prompt = tokenizer.encode(plan_prompt("The Encoder feeds the Decoder."))
    with pytest.raises(AssertionError, match="one encoder row per prompt token"):
        generate_ids(model, prompt, 4, prompt_enc=torch.ones(len(prompt) - 1, 8))
    with pytest.raises(AssertionError, match="last token"):
        generate_ids(model, prompt, 4, prompt_enc=torch.ones(len(prompt), 8))


def test_training_batches_carry_states_and_blank_only_encoded_words(tokenizer, encoder):
    from crafter.llm.corpus import make_example
    from crafter.llm.train import UNK_ID, TrainConfig, build_batch, encode_examples, losses

    rng = random.Random(0)
    items = encode_examples(tokenizer, [make_example(rng, "train", task=t) for t in ("plan", "chart", "repair")],
                            encoder)
    batch = build_batch(items, TrainConfig(enc_word_dropout=0.5), tokenizer.mask_id, tokenizer.eos_id,
                        tokenizer.pad_id, rng)
    enc, ids, shown = batch["enc"], batch["input_ids"], batch["embed_ids"]
    for k, (prompt, _, f) in enumerate(items):
        assert torch.equal(enc[k, : len(prompt)], f) and not enc[k, len(prompt):].any()
    blanked = shown != ids
    assert blanked.any() and (shown[blanked] == UNK_ID).all()
    assert (enc.abs().sum(-1)[blanked] > 0).all()  # only words the encoder read are blanked
    from crafter.llm.model import CraftLM, CraftLMConfig

    model = CraftLM(CraftLMConfig(vocab_size=tokenizer.vocab_size, d_model=32, n_layers=1, n_heads=2, d_ff=64,
                                  copy_head=True, encoder_dim=ENCODER_DIM))
    l_ar, l_diff, _ = losses(model, batch)
    (l_ar + l_diff).backward()
    assert model.enc_proj.weight.grad.abs().sum() > 0  # the projection learns from the first step
