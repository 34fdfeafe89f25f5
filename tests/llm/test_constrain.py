"""Constrained decoding: only valid DSL of the task, labels copied from the prompt, and
speculative output still identical to plain decoding under the constraint."""

import pytest

from crafter.llm.constrain import DSLConstraint
from crafter.llm.constrain.labels import Spans
from crafter.llm.corpus import held_out_set, make_corpus
from crafter.llm.engine import generate_ids, make_drafter
from crafter.llm.prompts import chart_prompt, plan_prompt, repair_prompt, requested_lines
from crafter.llm.quality import parse_output


def _walk(c: DSLConstraint, tok, text: str, eos: bool = True):
    """Feed ``text`` token by token; the state, or the text read when a token is refused."""
    st = c.start()
    ids = tok.encode(text) + ([tok.eos_id] if eos else [])
    for i, t in enumerate(ids):
        nxt = c.advance(st, t)
        if nxt is None:
            return tok.decode(ids[: i + 1])
        st = nxt
    return st


def test_token_bytes_round_trip(tokenizer, tb):
    text = 'n1 node "Ωmega Ünit" → x\n'
    assert b"".join(tb[i] for i in tokenizer.encode(text)).decode() == text
    assert tb[tokenizer.eos_id] == b"" and tb[tokenizer.mask_id] == b""


def test_corpus_targets_are_allowed(tokenizer, tb):
    """Every held-out target; training targets all but a few whose brief glues a list item to the
    next capitalised word with no punctuation ("4. The Polymeric Encoder Qpcr Corzi and…"), where
    the name-run rule reads one longer name (3 in 1,120 with the shipped tokenizer)."""
    refused = 0
    train = make_corpus(300, "train", seed=11)
    for e in train + held_out_set(10):
        c = DSLConstraint(e.task, e.prompt, tb, tokenizer.eos_id)
        if isinstance(_walk(c, tokenizer, e.target), str):
            assert e in train, (e.task, e.prompt)
            refused += 1
    assert refused <= 0.01 * len(train)


def test_a_capitalised_name_is_not_cut_before_its_next_word(tokenizer, tb):
    c = DSLConstraint("plan", plan_prompt("The Noisy Projector feeds the Decoder. Step 1: Encoder Step 2: Decoder"),
                      tb, tokenizer.eos_id)
    assert isinstance(_walk(c, tokenizer, 'n1 node "Noisy"', eos=False), str)
    assert not isinstance(_walk(c, tokenizer, 'n1 node "Noisy Projector"\n'), str)
    assert not isinstance(_walk(c, tokenizer, 'n1 node "Encoder"\n'), str)  # "Step" starts the next item


BRIEF = plan_prompt("The Encoder feeds the Decoder. The Decoder sends tokens to a Critic (dashed).")


@pytest.mark.parametrize("answer,why", [
    ('n1 node "Encoder"\nn2 nodef', "a keyword run into a word"),
    ('n1 node "Encoder"\nn1 node "Decoder"', "an id used twice"),
    ('n2 node "Encoder"', "ids out of order"),
    ('n1 node "Encoder"\nn2 node "encoder"', "a node label repeated"),
    ('n1 node "Transformer"', "a label that is not in the brief"),
    ('n1 node "Encod"\n', "a label that ends inside a word"),
    ('n1 node "Encoder"\nn2 node "Decoder"\ne1 edge n1 -> n3', "an edge to a node that does not exist"),
    ('n1 node "Encoder"\nn2 node "Decoder"\ne1 edge n1 -> n1', "a self-loop"),
    ('n1 node "Encoder"\nn2 node "Decoder"\ne1 edge n1 -> n2\ne2 edge n1 -> n2', "the same edge twice"),
    ('n1 node "Encoder" shape=blob', "a shape the spec does not have"),
    ('n1 node "Encoder" fill=#12345z', "a malformed colour"),
    ('n1 node "Encoder"\nfigure "Encoder"', "a title after the first line"),
    ('n1 node "Encoder"\n\n', "an empty line"),
])
def test_invalid_plan_answers_are_refused(tokenizer, tb, answer, why):
    c = DSLConstraint("plan", BRIEF, tb, tokenizer.eos_id)
    assert isinstance(_walk(c, tokenizer, answer, eos=False), str), why


def test_a_valid_plan_answer_and_where_it_may_end(tokenizer, tb):
    c = DSLConstraint("plan", BRIEF, tb, tokenizer.eos_id)
    good = ('n1 node "Encoder"\nn2 node "decoder"\nn3 node "Critic"\n'
            'e1 edge n1 -> n2\ne2 edge n2 -> n3 "tokens" style=dashed\ng1 group "The Encoder" [n1, n2]\n')
    assert not isinstance(_walk(c, tokenizer, good), str)
    # a plan writes the corpus' attributes only: no fill, bold or other shape (the decoder drifted to
    # fill=rebeccapurple on real briefs), dashed only where the brief says so
    assert isinstance(_walk(c, tokenizer, good.replace('"decoder"', '"decoder" fill=#dbe9f6'), eos=False), str)
    assert isinstance(_walk(c, tokenizer, good.replace('"decoder"', '"decoder" shape=round'), eos=False), str)
    plain = DSLConstraint("plan", plan_prompt("The Encoder feeds the Decoder. The Decoder sends tokens to a Critic."),
                          tb, tokenizer.eos_id)
    nodes = 'n1 node "Encoder"\nn2 node "Decoder"\nn3 node "Critic"\ne1 edge n1 -> n2\n'
    assert not isinstance(_walk(plain, tokenizer, nodes + 'e2 edge n2 -> n3 "tokens"\n'), str)
    assert isinstance(_walk(plain, tokenizer, nodes + 'e2 edge n2 -> n3 "tokens" style=dashed\n', eos=False), str)
    store = DSLConstraint("plan", plan_prompt("The Encoder writes to the Feature store. Converged?"), tb, tokenizer.eos_id)
    assert not isinstance(_walk(store, tokenizer, 'n1 node "Encoder"\nn2 node "Feature store" shape=cylinder\n'
                                                  'e1 edge n1 -> n2\n'), str)
    assert isinstance(_walk(store, tokenizer, 'n1 node "Encoder"\nn2 node "Feature store"\n', eos=False), str)
    assert isinstance(_walk(c, tokenizer, ""), str)  # no answer at all may not end
    assert isinstance(_walk(c, tokenizer, 'n1 node "Encoder"'), str)  # nor a line without its newline


def test_repair_writes_only_the_requested_components(tokenizer, tb):
    fig = 'n1 node "Encoder"\nn2 node "Decoder"\ne1 edge n1 -> n2'
    prompt = repair_prompt(fig, 'Rename n2 to "Vision Decoder".', ["n2"])
    c = DSLConstraint("repair", prompt, tb, tokenizer.eos_id)
    assert not isinstance(_walk(c, tokenizer, 'n2 node "Vision Decoder"\n'), str)
    assert isinstance(_walk(c, tokenizer, 'n1 node "Encoder"\n'), str)  # not asked for
    assert isinstance(_walk(c, tokenizer, 'n2 edge n1 -> n2\n'), str)  # n2 is a node
    assert isinstance(_walk(c, tokenizer, 'n2 node "Vision Decoder"\nn2 node "Decoder"\n'), str)  # once


def test_chart_fields_must_be_columns(tokenizer, tb):
    prompt = chart_prompt("table runs: epoch (quantitative), loss (quantitative), model (nominal)", "loss over epoch")
    c = DSLConstraint("chart", prompt, tb, tokenizer.eos_id)
    ok = ('c1 chart spec={"mark":"line","encoding":{"x":{"field":"epoch","type":"quantitative"},'
          '"y":{"field":"loss","type":"quantitative"}}}\n')
    assert not isinstance(_walk(c, tokenizer, ok), str)
    assert isinstance(_walk(c, tokenizer, ok.replace('"loss"', '"accuracy"'), eos=False), str)
    assert isinstance(_walk(c, tokenizer, ok.replace('"line"', '"pie"'), eos=False), str)
    assert isinstance(_walk(c, tokenizer, ok[:-3] + "\n", eos=False), str)  # JSON not closed


def test_a_chart_encodes_the_columns_the_request_names_with_their_schema_types(tokenizer, tb):
    schema = "table runs: epoch (quantitative), loss (quantitative), model (nominal), seed (nominal)"
    c = DSLConstraint("chart", chart_prompt(schema, 'Loss over epoch, one colour per model, titled "Training loss"'),
                      tb, tokenizer.eos_id, encode=tokenizer.encode)
    ok = ('c1 chart "Training loss" spec={"mark":"line","encoding":{"x":{"field":"epoch","type":"quantitative"},'
          '"y":{"field":"loss","type":"quantitative"},"color":{"field":"model","type":"nominal"}}}\n')
    assert not isinstance(_walk(c, tokenizer, ok), str)
    assert isinstance(_walk(c, tokenizer, ok.replace('"nominal"', '"ordinal"'), eos=False), str)  # not its schema type
    assert isinstance(_walk(c, tokenizer, ok.replace('"model"', '"seed"'), eos=False), str)  # not named in the request
    assert isinstance(_walk(c, tokenizer, ok.replace('"field":"loss"', '"field":"epoch"'), eos=False), str)  # twice
    no_colour = ok.replace(',"color":{"field":"model","type":"nominal"}', "")
    assert isinstance(_walk(c, tokenizer, no_colour, eos=False), str)  # a named column left out
    assert isinstance(_walk(c, tokenizer, ok.replace('"Training loss"', '"Training"'), eos=False), str)  # quoted: whole

    def forced_after(text):
        st, rest = c.start(), text
        while rest:
            f = c.forced(st)
            t = f[0] if f and rest.startswith(tokenizer.decode(f[:1])) else tokenizer.encode(rest)[0]
            st, rest = c.advance(st, t), rest[len(tokenizer.decode([t])):]
        return tokenizer.decode(c.forced(st))

    # jump-forward: everything but the mark and the x column is forced (y: the one quantitative column
    # left, the colour: the one nominal column named)
    assert forced_after("") == 'c1 chart "Training loss" spec={"mark":"'
    assert forced_after(ok[:ok.index('line"') + 4]).startswith('","encoding":{"x":{"field":"')
    assert forced_after(ok[:ok.index('"epoch"') + 6]) == ('","type":"quantitative"},"y":{"field":"loss",'
                                                           '"type":"quantitative"},"color":{"field":"model",'
                                                           '"type":"nominal"}}}\n')
    assert forced_after(ok[:ok.index('"loss"') + 5]) == ('","type":"quantitative"},"color":{"field":"model",'
                                                          '"type":"nominal"}}}\n')
    spoken = DSLConstraint("chart", chart_prompt("table t: batch_size (quantitative), step_ms (quantitative), x1 (nominal)",
                                                 "step ms against batch size"), tb, tokenizer.eos_id)
    assert spoken.chart_required == {"batch_size", "step_ms"}  # a column said with spaces for its underscores
    hyphen = DSLConstraint("chart", chart_prompt("table t: model (nominal), dataset (nominal), top1_accuracy (quantitative)",
                                                 "Bar chart of top-1 accuracy per model, coloured by dataset"),
                           tb, tokenizer.eos_id)
    assert hyphen.chart_required == {"model", "dataset", "top1_accuracy"}
    # a mention missed (here: spelled otherwise) still leaves y a quantitative column, never a nominal one
    missed = DSLConstraint("chart", chart_prompt("table t: model (nominal), dataset (nominal), top1_accuracy (quantitative)",
                                                 "Bar chart of top one accuracy per model, coloured by dataset"),
                           tb, tokenizer.eos_id)
    assert missed.chart_options["y"] == ("top1_accuracy",) and missed.chart_options["color"] == ("model", "dataset")
    assert not isinstance(_walk(missed, tokenizer, 'c1 chart spec={"mark":"bar","encoding":{"x":{"field":"model",'
                                '"type":"nominal"},"y":{"field":"top1_accuracy","type":"quantitative"},'
                                '"color":{"field":"dataset","type":"nominal"}}}\n'), str)
    # with fewer than two columns named, any column may be x, any quantitative one y, a colour is optional
    loose = DSLConstraint("chart", chart_prompt(schema, "plot it"), tb, tokenizer.eos_id)
    untitled = no_colour.replace('c1 chart "Training loss" ', "c1 chart ")
    assert not isinstance(_walk(loose, tokenizer, untitled.replace('"field":"epoch"', '"field":"seed"')
                                .replace('"seed","type":"quantitative"', '"seed","type":"nominal"')), str)
    assert isinstance(_walk(loose, tokenizer, untitled.replace('"loss","type":"quantitative"', '"seed","type":"nominal"'),
                            eos=False), str)  # y nominal


def test_a_label_does_not_run_past_a_full_stop_an_arrow_or_a_line():
    s = Spans("The Noisy Projector. Target is next.\nMesh => Sample Projector ⟶ Head\n- Critic\n- Judge")
    assert s.full_ok("Noisy Projector") and s.full_ok("Sample Projector") and s.full_ok("Critic")
    assert not s.prefix_ok("Noisy Projector. Target")
    assert not s.prefix_ok("Mesh =>") and not s.prefix_ok("Projector ⟶")
    assert not s.prefix_ok("Critic - Judge") and not s.prefix_ok("Critic -")  # the next bullet is another line


def test_a_label_prefix_must_still_be_completable():
    """No dead ends: a prefix that can neither go on nor close (a line's last word and its full stop, a
    name already used) is refused when it is written, not after (the answer then stopped there, edges lost)."""
    s = Spans("Critic ships data to our code classifier.\nMesh feeds Head")
    assert s.prefix_ok("code classifier") and not s.prefix_ok("code classifier.")
    assert s.prefix_ok("code", frozenset({"code classifier"}))  # "code" itself is still free
    assert not s.prefix_ok("code classifier", frozenset({"code classifier"}))
    assert not s.prefix_ok("Head", frozenset({"head"}))


def test_the_answer_must_end_when_nothing_else_may_follow(tokenizer, tb):
    fig = 'n1 node "Encoder"\nn2 node "Decoder"\ne1 edge n1 -> n2'
    c = DSLConstraint("repair", repair_prompt(fig, "Make n1 and n2 round.", ["n1", "n2"]), tb, tokenizer.eos_id)
    one = _walk(c, tokenizer, 'n1 node "Encoder" shape=round\n', eos=False)
    both = _walk(c, tokenizer, 'n1 node "Encoder" shape=round\nn2 node "Decoder" shape=round\n', eos=False)
    assert not c.must_end(one) and c.must_end(both)
    p = DSLConstraint("plan", BRIEF, tb, tokenizer.eos_id)
    assert not p.must_end(_walk(p, tokenizer, 'n1 node "Encoder"\n', eos=False))  # a plan may always go on
    assert requested_lines(repair_prompt(fig, "Make n2 round.", ["n2", "zz"])) == 'n2 node "Decoder"\n'


def test_colour_names_are_written_in_lower_case_unless_kept(tokenizer, tb):
    fig = 'n1 node "Encoder" fill=Red\nn2 node "Decoder"'
    c = DSLConstraint("repair", repair_prompt(fig, "Make n1 and n2 stand out.", ["n1", "n2"]), tb, tokenizer.eos_id)
    assert isinstance(_walk(c, tokenizer, 'n1 node "Encoder" fill=tomAto\n', eos=False), str)
    assert not isinstance(_walk(c, tokenizer, 'n1 node "Encoder" fill=Red\nn2 node "Decoder" fill=tomato\n'), str)
    assert isinstance(_walk(c, tokenizer, 'n1 node "Encoder"\nn2 node "Decoder" fill=Red\n', eos=False), str)


def test_spans_are_whole_words_without_case():
    s = Spans("The FRET Magnet hands off to camera.")
    assert s.full_ok("FRET Magnet") and s.full_ok("Camera") and s.full_ok("the FRET Magnet") and s.prefix_ok("FRET Mag")
    assert not s.full_ok("fret magnet") and not s.full_ok("CaMera")
    assert not s.full_ok("FRET Mag") and not s.full_ok("amera") and not s.prefix_ok("Magnet  hands")


@pytest.mark.parametrize("seed", [0, 1])
def test_constrained_speculative_output_is_identical_to_plain(seed, tokenizer, tb, make_model):
    model = make_model(tokenizer.vocab_size, seed=seed, eos_token_id=tokenizer.eos_id,
                       mask_token_id=tokenizer.mask_id, copy_head=True)
    for e in held_out_set(2, seed=seed):
        prompt = tokenizer.encode(e.prompt)

        prime = tokenizer.encode(requested_lines(e.prompt))  # repair: the requested lines drafted first

        def run(mode, bs=None):
            c = DSLConstraint(e.task, e.prompt, tb, tokenizer.eos_id)
            return generate_ids(model, prompt, 60, drafter=make_drafter(mode, e.task, bs, prime=prime), constraint=c)

        plain = run("none")
        text = tokenizer.decode(plain.ids)
        # a random model's answer is still valid DSL as far as it got
        whole = text[: text.rfind("\n") + 1]
        if whole.strip():
            parse_output(e.task, whole)
        for mode, bs in [("ngram", None), ("diffusion", None), ("diffusion", 4)]:
            spec = run(mode, bs)
            assert spec.ids == plain.ids and spec.stopped == plain.stopped, (mode, bs, e.prompt)


def test_constrained_sampling_stays_valid(tokenizer, tb, make_model):
    import torch

    model = make_model(tokenizer.vocab_size, seed=3, eos_token_id=tokenizer.eos_id, mask_token_id=tokenizer.mask_id)
    prompt = plan_prompt("The Encoder feeds the Decoder.")
    c = DSLConstraint("plan", prompt, tb, tokenizer.eos_id)
    res = generate_ids(model, tokenizer.encode(prompt), 80, temperature=1.0, drafter=make_drafter("diffusion"),
                       generator=torch.Generator().manual_seed(0), constraint=c)
    text = tokenizer.decode(res.ids)
    assert res.forward_passes == len(res.ids) + (res.stopped == "eos")  # one token a forward when sampling
    whole = text[: text.rfind("\n") + 1]
    if whole.strip():
        parse_output("plan", whole)


def test_a_label_may_not_end_in_punctuation(tokenizer, tb):
    c = DSLConstraint("plan", BRIEF, tb, tokenizer.eos_id)
    assert isinstance(_walk(c, tokenizer, 'n1 node "Decoder."', eos=False), str)


def test_repair_may_keep_the_attributes_a_component_already_has(tokenizer, tb):
    fig = 'n1 node "Encoder" box=10,20,120,40 pinned=true stroke=#333333\nn2 node "Decoder"\ne1 edge n1 -> n2 head=open'
    prompt = repair_prompt(fig, 'Rename n1 to "Vision Encoder".', ["n1"])
    c = DSLConstraint("repair", prompt, tb, tokenizer.eos_id)
    assert not isinstance(_walk(c, tokenizer, 'n1 node "Vision Encoder" box=10,20,120,40 pinned=true stroke=#333333\n'), str)
    assert isinstance(_walk(c, tokenizer, 'n1 node "Vision Encoder" box=1,2,3,4\n', eos=False), str)
    edge = DSLConstraint("repair", repair_prompt(fig, "Draw e1 dashed.", ["e1"]), tb, tokenizer.eos_id)
    assert not isinstance(_walk(edge, tokenizer, "e1 edge n1 -> n2 head=open style=dashed\n"), str)


def test_repair_of_a_kind_the_model_was_not_trained_on_must_still_parse(tokenizer, tb):
    fig = 'enc node "Encoder"\nn1 text "frozen" near=enc side=above'
    prompt = repair_prompt(fig, 'Change the note to "trainable".', ["n1"])
    c = DSLConstraint("repair", prompt, tb, tokenizer.eos_id)
    assert not isinstance(_walk(c, tokenizer, 'n1 text "trainable" near=enc side=below\n'), str)
    assert isinstance(_walk(c, tokenizer, 'n1 text "trainable\n', eos=False), str)  # an unfinished string
    assert isinstance(_walk(c, tokenizer, 'n1 node "trainable"\n', eos=False), str)  # another kind


def test_a_repaired_node_does_not_take_another_nodes_label(tokenizer, tb):
    """And a label never runs through a double quote (a DSL string of the prompt ends there)."""
    fig = 'n1 node "Decoder"\nn2 node "Output head"\ne1 edge n1 -> n2'
    c = DSLConstraint("repair", repair_prompt(fig, "rename n1", ["n1"]), tb, tokenizer.eos_id)
    assert isinstance(_walk(c, tokenizer, 'n1 node "Output head"\n'), str)
    assert not isinstance(_walk(c, tokenizer, 'n1 node "Output"\n'), str)  # a span, not the other label
    assert not c.spans.prefix_ok('Output head" ')


def test_an_acronym_keeps_its_case():
    s = Spans("Aligned reads go to the variant caller, which writes a VCF file. The Encoder reads it.")
    assert s.full_ok("VCF file") and not s.full_ok("vCF file")
    assert s.full_ok("encoder") and s.full_ok("Variant caller")  # other first letters stay case-free
