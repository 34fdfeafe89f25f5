"""The name head: gold tags from a target, spans from tags, the constraint it narrows, and the
shipped head reading briefs it never saw."""

import pytest

from crafter.llm.constrain import DSLConstraint
from crafter.llm.names import (
    TAGS,
    NameReader,
    RecentReadings,
    _run_on,
    candidate_pairs,
    decode_tags,
    gold_tags,
    link_targets,
    mentions,
    sentence_ids,
    words,
)
from crafter.llm.prompts import plan_prompt

BRIEF = plan_prompt('A DRAM Camera supplies the FRET Magnet. The FRET Magnet hands off to camera, '
                    'labelled "frames".\nFigure title: Overview of the FRET Magnet rig')
TARGET = ('figure "Overview of the FRET Magnet rig"\nn1 node "DRAM Camera"\nn2 node "FRET Magnet"\n'
          'n3 node "camera"\ne1 edge n1 -> n2\ne2 edge n2 -> n3 "frames"\n')


def _tagged(prompt, tags, spans):
    return [(prompt[s:e], TAGS[t]) for (s, e), t in zip(spans, tags) if t]


def test_gold_tags_take_longest_labels_first_and_the_title_before_names():
    spans = words(BRIEF)
    tags = gold_tags(BRIEF, TARGET, spans)
    got = _tagged(BRIEF, tags, spans)
    assert got[:4] == [("DRAM", "B-node"), ("Camera", "I-node"), ("FRET", "B-node"), ("Magnet", "I-node")]
    assert ("camera", "B-node") in got and ("frames", "B-label") in got
    # the node named inside the title is the title there
    assert got[-6:] == [("Overview", "B-title"), ("of", "I-title"), ("the", "I-title"), ("FRET", "I-title"),
                        ("Magnet", "I-title"), ("rig", "I-title")]
    names = decode_tags(BRIEF, spans, tags)
    assert names["node"] == ["DRAM Camera", "FRET Magnet", "camera"]
    assert names["label"] == ["frames"] and names["title"] == ["Overview of the FRET Magnet rig"]


def test_a_name_stops_at_a_comma_and_a_line_break():
    p = plan_prompt("Encoder, Decoder\nCritic")
    spans = words(p)
    node_b, node_i = TAGS.index("B-node"), TAGS.index("I-node")
    assert decode_tags(p, spans, [node_b, node_i, node_i])["node"] == ["Encoder", "Decoder", "Critic"]


def test_links_join_mentions_in_either_direction():
    spans = words(BRIEF)
    tags = gold_tags(BRIEF, TARGET, spans)
    lk = link_targets(BRIEF, TARGET, spans, tags)
    assert len(lk["ments"]) == 4  # DRAM Camera, FRET Magnet, FRET Magnet, camera (not the one in the title)
    assert lk["pairs"] == candidate_pairs(lk["ments"]) == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    # DRAM Camera -> FRET Magnet and FRET Magnet -> camera, each where its sentence says it: not from
    # the other sentence's mention of FRET Magnet
    assert lk["cls"].tolist() == [1, 0, 0, 0, 0, 1]
    steps = plan_prompt("1. Encoder\n2. Decoder")
    sp = words(steps)
    steps_target = 'n1 node "Encoder"\nn2 node "Decoder"\ne1 edge n1 -> n2\n'
    assert link_targets(steps, steps_target, sp, gold_tags(steps, steps_target, sp))["cls"].tolist() == [1]
    assert sentence_ids(BRIEF, spans)[0] == 0 and sentence_ids(BRIEF, spans)[-1] == 2
    assert mentions([TAGS.index("I-node"), 0, TAGS.index("B-node")]) == [(0, 1), (2, 3)]


def test_node_labels_are_the_heads_names_and_edges_its_links(tokenizer, tb, accepts):
    names = {"node": ["DRAM Camera", "FRET Magnet", "camera"], "group": [], "label": ["frames"], "title": [],
             "links": [("dram camera", "fret magnet"), ("fret magnet", "camera")]}
    c = DSLConstraint("plan", BRIEF, tb, tokenizer.eos_id, names)
    assert accepts(c, tokenizer, 'n1 node "DRAM Camera"\nn2 node "FRET Magnet"\nn3 node "camera"\n'
                                  'e1 edge n1 -> n2\ne2 edge n2 -> n3 "frames"\n')
    assert not accepts(c, tokenizer, 'n1 node "FRET Magnet hands"\n')  # a span, but not a name
    assert not accepts(c, tokenizer, 'n1 node "DRAM Camera"\nn2 node "FRET Magnet"\ne1 edge n2 -> n1\n')
    # without links (or with under two names) the constraint is the brief's spans, as before
    loose = DSLConstraint("plan", BRIEF, tb, tokenizer.eos_id, {"node": ["camera"], "links": []})
    assert accepts(loose, tokenizer, 'n1 node "FRET Magnet hands"\nn2 node "camera"\ne1 edge n2 -> n1\n')


def test_the_shipped_head_reads_briefs_it_never_saw():
    """Words from outside the corpus' vocabulary, a passive link and a "which" clause."""
    from crafter.llm.backends import WEIGHTS_DIR

    reader = NameReader(WEIGHTS_DIR)
    got = reader.names(plan_prompt("The Spectrogram Cropper hands its patches to a Whisker Sorter, which "
                                   "relays them to Margin Auditor. Margin Auditor is watched by the Dashboard."))
    assert got["node"] == ["Spectrogram Cropper", "Whisker Sorter", "Margin Auditor", "Dashboard"]
    assert set(got["links"]) == {("spectrogram cropper", "whisker sorter"), ("whisker sorter", "margin auditor"),
                                 ("dashboard", "margin auditor")}


def test_forced_text_is_drafted_outright(tokenizer, tb):
    names = {"node": ["DRAM Camera", "FRET Magnet", "camera"], "group": [], "label": ["frames"], "title": [],
             "links": [("dram camera", "fret magnet"), ("fret magnet", "camera")]}
    c = DSLConstraint("plan", BRIEF, tb, tokenizer.eos_id, names, encode=tokenizer.encode)

    def forced_after(text):
        st, rest = c.start(), text
        while rest:  # the text, in the forced tokenization where text is forced
            f = c.forced(st)
            t = f[0] if f and rest.startswith(tokenizer.decode(f[:1])) else tokenizer.encode(rest)[0]
            st, rest = c.advance(st, t), rest[len(tokenizer.decode([t])):]
        return tokenizer.decode(c.forced(st))

    assert forced_after('n1 node "DR') == 'AM Camera"'  # one name starts so
    assert forced_after("") == 'n1 node "'  # no title read: the answer starts with the one node id
    # forced text is written in its own tokenization: another spelling of it is refused
    st = c.start()
    first = c.forced(st)
    assert first and c.advance(st, first[0]) is not None
    assert all(c.advance(st, t) is None for t in range(tokenizer.vocab_size) if t != first[0])
    assert forced_after('n1 node "') == ""  # three names may follow
    assert forced_after('n1 node "DRAM Camera"\n') == 'n2 node "'  # the only id, its keyword
    done = 'n1 node "DRAM Camera"\nn2 node "FRET Magnet"\nn3 node "camera"\n'
    assert forced_after(done + "e1 edge n1") == " -> n2"  # its one link
    assert forced_after(done + "e1 edge n1 -> n2\n") == "e2 edge n2 -> n3"  # one link left, from its one source
    # without an encoder (or a name head) nothing is forced
    assert DSLConstraint("plan", BRIEF, tb, tokenizer.eos_id, names).forced(c.start()) == []


@pytest.mark.parametrize("seed", [0, 1])
def test_output_under_the_head_is_identical_with_forced_drafts(seed, tokenizer, tb, make_model):
    """Jump-forward drafts change forwards, never tokens."""
    from crafter.llm.corpus import held_out_set
    from crafter.llm.engine import generate_ids, make_drafter

    model = make_model(tokenizer.vocab_size, seed=seed, eos_token_id=tokenizer.eos_id,
                       mask_token_id=tokenizer.mask_id, copy_head=True)
    for e in [e for e in held_out_set(6, seed=seed) if e.task == "plan"][:3]:
        spans = words(e.prompt)
        tags = gold_tags(e.prompt, e.target, spans)
        names = {**decode_tags(e.prompt, spans, tags), "links": []}
        prompt = tokenizer.encode(e.prompt)

        def run(mode):
            c = DSLConstraint("plan", e.prompt, tb, tokenizer.eos_id, names, encode=tokenizer.encode)
            return generate_ids(model, prompt, 80, drafter=make_drafter(mode, "plan"), constraint=c)

        plain = run("none")
        for mode in ("ngram", "diffusion"):
            spec = run(mode)
            assert spec.ids == plain.ids and spec.stopped == plain.stopped, (mode, e.prompt)
            assert spec.forward_passes <= plain.forward_passes


def test_a_name_never_said_on_its_own_is_dropped():
    from crafter.llm.names import _only_said_alone

    brief = "Our offline caller feeds the pixel classifier. The classifier ships masks to the offline caller."
    assert _only_said_alone(brief, ["offline caller", "offline", "pixel classifier", "classifier"]) == \
        ["offline caller", "pixel classifier", "classifier"]


def test_two_names_side_by_side_are_one_name():
    p = plan_prompt("Thermal Ionic Cortex feeds the Judge, Critic\nMesh")
    spans = words(p)
    b, i, o = TAGS.index("B-node"), TAGS.index("I-node"), TAGS.index("O")
    split = [b, i, b, o, o, b, b, b]  # Thermal Ionic | Cortex feeds the Judge, | Critic | Mesh
    names = decode_tags(p, spans, _run_on(p, spans, split))["node"]
    assert names == ["Thermal Ionic Cortex", "Judge", "Critic", "Mesh"]  # a comma or a line break still separates
    twice = plan_prompt("A ⟶ thermal distiller Thermal distiller feeds B")
    sp = words(twice)
    tags = [b, b, i, b, i, o, b]
    assert decode_tags(twice, sp, _run_on(twice, sp, tags))["node"] == ["A", "thermal distiller", "Thermal distiller", "B"]


def test_a_hyphenated_word_is_one_word():
    """Real briefs write "Open-domain QA" and "Retrieve-then-read" (the corpus never does): the head
    had read "Open" as a group and "then" as the title."""
    p = plan_prompt("The retriever sits in a box labelled Open-domain QA. Title: Retrieve-then-read")
    assert "Open-domain" in [p[a:b] for a, b in words(p)] and "Retrieve-then-read" in [p[a:b] for a, b in words(p)]


def test_recent_readings_keep_the_last_few_prompts() -> None:
    recent = RecentReadings(keep=3)
    for i in range(5):
        recent.remember(f"p{i}", {"i": i})
    assert [recent.get(f"p{i}") for i in range(5)] == [None, None, {"i": 2}, {"i": 3}, {"i": 4}]
    recent.remember("p2", {"i": 9})  # a prompt read again is the newest
    assert recent.get("p2") == {"i": 9} and recent.get("p3") == {"i": 3}
