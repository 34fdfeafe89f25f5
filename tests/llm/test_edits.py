"""The edit head: the lines an edit gives, the constraint they make, jump-forward drafts of them,
identical output across drafters, save/load, and the shipped head on instructions it never saw."""

import pytest
import torch

from crafter.llm.constrain import DSLConstraint
from crafter.llm.edits import EDITS, FILE, EditHead, EditReader, edited_lines, instruction_span
from crafter.llm.prompts import repair_prompt
from crafter.spec import parse_component, parse_dsl

FIGURE = ('n1 node "Tokenizer" fill=#dbe9f6\nn2 node "Encoder"\ne1 edge n1 -> n2 "tokens"\n'
          'e2 edge n2 -> n1 style=dashed\n')


def test_edited_lines_take_their_values_from_the_instruction():
    n1 = parse_component('n1 node "Tokenizer" fill=#dbe9f6')
    e1 = parse_component('e1 edge n1 -> n2 "tokens"')
    assert edited_lines(n1, "label", 'Call it "BPE tokenizer", not "Tokenizer".') == ['n1 node "BPE tokenizer" fill=#dbe9f6']
    assert edited_lines(n1, "fill", "Paint it salmon or #fff2cc.") == ['n1 node "Tokenizer" fill=#fff2cc',
                                                                       'n1 node "Tokenizer" fill=salmon']
    assert edited_lines(n1, "shape", "It ought to be a Cylinder.") == ['n1 node "Tokenizer" shape=cylinder fill=#dbe9f6']
    assert edited_lines(n1, "bold", "heavier type") == ['n1 node "Tokenizer" fill=#dbe9f6 bold=true']
    assert edited_lines(e1, "reverse", "the other way") == ['e1 edge n2 -> n1 "tokens"']
    assert edited_lines(e1, "dash", "dotted please") == ['e1 edge n1 -> n2 "tokens" style=dotted']
    # nothing the edit can use: no lines (the decoder then answers alone)
    assert edited_lines(n1, "label", "Rename it.") == []
    assert edited_lines(n1, "fill", "Make it #dbe9f6.") == []  # what it has already
    assert edited_lines(n1, "shape", "Make it rounder.") == []


def test_the_constraint_admits_only_the_heads_lines_and_drafts_them_whole(tokenizer, tb, accepts):
    prompt = repair_prompt(FIGURE, "Turn e1 around.", ["e1"])
    lines = ['e1 edge n2 -> n1 "tokens"']
    c = DSLConstraint("repair", prompt, tb, tokenizer.eos_id, encode=tokenizer.encode, lines=lines)
    assert accepts(c, tokenizer, 'e1 edge n2 -> n1 "tokens"\n')
    assert not accepts(c, tokenizer, 'e1 edge n1 -> n2 "tokens"\n')
    assert tokenizer.decode(c.forced(c.start())) == 'e1 edge n2 -> n1 "tokens"\n'
    # a line the task's rules refuse (here: a label that is not in the prompt) is dropped
    bad = DSLConstraint("repair", prompt, tb, tokenizer.eos_id, lines=['e1 edge n2 -> n1 "nowhere"'])
    assert bad.lines == () and accepts(bad, tokenizer, 'e1 edge n1 -> n2 "tokens"\n')
    # two lines: the text they share is forced, then the decoder chooses
    two = DSLConstraint("repair", repair_prompt(FIGURE, "Paint n2 salmon or gold.", ["n2"]), tb, tokenizer.eos_id,
                        encode=tokenizer.encode, lines=['n2 node "Encoder" fill=salmon', 'n2 node "Encoder" fill=gold'])
    assert tokenizer.decode(two.forced(two.start())) == 'n2 node "Encoder" fill='
    assert accepts(two, tokenizer, 'n2 node "Encoder" fill=gold\n')


@pytest.mark.parametrize("seed", [0, 1])
def test_output_under_the_heads_lines_is_identical_across_drafters(seed, tokenizer, tb, make_model):
    from crafter.llm.engine import generate_ids, make_drafter
    from crafter.llm.prompts import requested_lines

    model = make_model(tokenizer.vocab_size, seed=seed, eos_token_id=tokenizer.eos_id,
                       mask_token_id=tokenizer.mask_id, copy_head=True)
    cases = [("Turn e1 around.", ["e1"], ['e1 edge n2 -> n1 "tokens"']),
             ("Paint n2 salmon or gold.", ["n2"], ['n2 node "Encoder" fill=salmon', 'n2 node "Encoder" fill=gold'])]
    for instruction, ids, lines in cases:
        prompt = repair_prompt(FIGURE, instruction, ids)
        prime = tokenizer.encode(requested_lines(prompt).rstrip("\n"))

        def run(mode):
            c = DSLConstraint("repair", prompt, tb, tokenizer.eos_id, encode=tokenizer.encode, lines=lines)
            return generate_ids(model, tokenizer.encode(prompt), 60, drafter=make_drafter(mode, "repair", prime=prime),
                                constraint=c)

        plain = run("none")
        assert tokenizer.decode(plain.ids).strip() in lines
        for mode in ("ngram", "diffusion"):
            spec = run(mode)
            assert spec.ids == plain.ids and spec.stopped == plain.stopped, (mode, instruction)
            assert spec.forward_passes <= plain.forward_passes


def _heads():
    from crafter.llm import names

    return [(EditHead, lambda: EditHead(16), lambda: torch.randn(3, 16), FILE, "edit head"),
            (names.NameTagger, lambda: names.NameTagger(names.NamesConfig(enc_dim=16, hidden=8)),
             lambda: torch.randn(1, 5, 16 + 8), names.FILE, "name head")]


@pytest.mark.parametrize("i", [0, 1], ids=["edit head", "name head"])
def test_a_head_saves_loads_and_a_corrupt_file_is_named(i, tmp_path, weights_dir):
    import shutil

    from crafter.llm.backends import CraftLMBackend, ModelError

    cls, make, sample, file, what = _heads()[i]
    torch.manual_seed(0)
    head = make().eval()
    head.save(tmp_path / "alone")
    x = sample()
    assert torch.equal(cls.load(tmp_path / "alone")(x), head(x))
    (tmp_path / "alone" / file).write_bytes(b"not safetensors")
    with pytest.raises(ValueError, match=file):
        cls.load(tmp_path / "alone")
    # beside the decoder's weights: the backend refuses to load, naming the head
    for f in weights_dir.iterdir():
        shutil.copy(f, tmp_path / f.name)
    head.save(tmp_path)
    (tmp_path / file).write_bytes(b"\x00" * 10)
    with pytest.raises(ModelError, match=what):
        CraftLMBackend(tmp_path)


def test_instruction_span_is_the_instruction():
    p = repair_prompt(FIGURE, "Turn e1 around.", ["e1"])
    a, b = instruction_span(p)
    assert p[a:b] == "Turn e1 around."
    assert instruction_span("<|plan|>A feeds B<|out|>") is None


def test_the_shipped_head_reads_instructions_it_never_saw():
    """Phrasings of neither the corpus nor its paraphrases."""
    from crafter.llm.backends import WEIGHTS_DIR

    reader = EditReader(WEIGHTS_DIR)
    cases = {("Could you swap which way e1 points?", "e1"): 'e1 edge n2 -> n1 "tokens"',
             ('The box n2 should really say "Transformer encoder".', "n2"): 'n2 node "Transformer encoder"',
             ("I'd like n2 coloured lightgray.", "n2"): 'n2 node "Encoder" fill=lightgray',
             ("Draw e1 with dashes.", "e1"): 'e1 edge n1 -> n2 "tokens" style=dashed'}
    for (instruction, cid), line in cases.items():
        got = reader.read(repair_prompt(FIGURE, instruction, [cid]))
        assert got is not None and got["lines"] == [line], (instruction, got)
    # several components, or a kind the head does not edit: no reading
    assert reader.read(repair_prompt(FIGURE, "Swap e1 and e2.", ["e1", "e2"])) is None


def test_paraphrases_are_not_held_out_phrasings():
    from crafter.llm.corpus.phrasings import REPAIR_FRAMES
    from crafter.llm.corpus.repair import EDIT_PARAPHRASES

    held = {f for fs in REPAIR_FRAMES["heldout"].values() for f in fs}
    assert not held & {f for fs in EDIT_PARAPHRASES.values() for f in fs}
    assert set(EDIT_PARAPHRASES) == set(REPAIR_FRAMES["train"]) and EDITS[-1] == "other"


def test_the_shipped_head_says_nothing_for_requests_outside_its_edits():
    """Unseen requests it cannot do (none of them in its training): no lines, the decoder answers alone.
    Without the "other" class, "delete e1" came back reversed."""
    from crafter.llm.backends import WEIGHTS_DIR

    reader = EditReader(WEIGHTS_DIR)
    for instruction, cid in [("make e1 thicker", "e1"), ("route e1 around the legend", "e1"), ("delete e1", "e1"),
                             ("e1 crosses node n3", "e1"), ("move n2 to the right", "n2"), ("n2 overlaps n1", "n2"),
                             ("the arrow e1 is missing its head", "e1"), ("remove the label of e1", "e1")]:
        assert reader.read(repair_prompt(FIGURE, instruction, [cid])) is None, instruction


def test_a_relabelled_node_drops_the_spacing_fitted_to_its_old_text():
    n1 = parse_dsl('figure "x"\nn1 node "Tokenizer" letter_spacing=2.5\n').components[0]
    assert edited_lines(n1, "label", 'Call it "BPE tokenizer".') == ['n1 node "BPE tokenizer"']
