"""Attention masks for the draft and training layouts, on hand-made cases."""

import torch

from kernels import draft_attention_mask, training_attention_mask, training_block_ids


def test_draft_mask_prefix_causal_run_and_bidirectional_block():
    m = draft_attention_mask(prefix_len=2, n_causal=2, n_mask=2).int().tolist()
    #            p0 p1 a0 d1 M1 M2
    assert m == [[1, 1, 1, 0, 0, 0],   # a0
                 [1, 1, 1, 1, 0, 0],   # d1
                 [1, 1, 1, 1, 1, 1],   # M1 sees all drafts and the whole block
                 [1, 1, 1, 1, 1, 1]]   # M2


def test_draft_mask_without_masks_is_plain_causal():
    m = draft_attention_mask(prefix_len=1, n_causal=3, n_mask=0)
    assert m.int().tolist() == [[1, 1, 0, 0], [1, 1, 1, 0], [1, 1, 1, 1]]


def test_block_ids_with_phase():
    assert training_block_ids(7, 3, 0).tolist() == [0, 0, 0, 1, 1, 1, 2]
    assert training_block_ids(7, 3, 1).tolist() == [0, 1, 1, 1, 2, 2, 2]
    assert training_block_ids(7, 3, 2).tolist() == [0, 0, 1, 1, 1, 2, 2]


def test_training_mask_hand_case():
    # prompt of 1, response of 4 in blocks [0,0,1,1]: L = 1 + 4 + 4
    m = training_attention_mask(1, torch.tensor([0, 0, 1, 1])).int().tolist()
    #        P  c0 c1 c2 c3 n0 n1 n2 n3
    assert m == [
        [1, 0, 0, 0, 0, 0, 0, 0, 0],  # prompt
        [1, 1, 0, 0, 0, 0, 0, 0, 0],  # clean, causal
        [1, 1, 1, 0, 0, 0, 0, 0, 0],
        [1, 1, 1, 1, 0, 0, 0, 0, 0],
        [1, 1, 1, 1, 1, 0, 0, 0, 0],
        [1, 0, 0, 0, 0, 1, 1, 0, 0],  # noised block 0: prompt + own block
        [1, 0, 0, 0, 0, 1, 1, 0, 0],
        [1, 1, 1, 0, 0, 0, 0, 1, 1],  # noised block 1: prompt + clean block 0 + own block
        [1, 1, 1, 0, 0, 0, 0, 1, 1],
    ]


def test_clean_rows_never_see_noised_copy():
    m = training_attention_mask(5, training_block_ids(11, 4, 3))
    assert not m[: 5 + 11, 5 + 11 :].any()


def test_training_mask_with_eos_padded_noised_copy():
    # clean response of 3, noised copy padded to 4 (one block of 4)
    m = training_attention_mask(1, torch.tensor([0, 0, 0, 0]), clean_len=3)
    assert m.shape == (8, 8)
    assert m[4:, 0].all() and not m[4:, 1:4].any() and m[4:, 4:].all()


def test_a_batched_mask_is_each_requests_own_mask_top_left():
    from kernels import batched_draft_attention_mask, draft_attention_mask

    m = batched_draft_attention_mask([4, 1], [3, 1], [2, 0])
    assert m.shape == (2, 1, 5, 9)
    assert torch.equal(m[0, 0, :5, :9], draft_attention_mask(4, 3, 2))
    assert torch.equal(m[1, 0, :1, :2], draft_attention_mask(1, 1, 0))
    assert not m[1, 0, :1, 2:].any()  # no padding key is seen
    assert m[1, 0, 1:].sum(-1).tolist() == [1, 1, 1, 1]  # padding rows see one key (never NaN)
