"""Local repair: rules fix geometry, the model fixes meaning, and nothing else ever changes."""

from __future__ import annotations

from crafter.agents.critique import critique
from crafter.agents.issues import issue_key
from crafter.agents.repair import apply_repairs, changed_ids, merge, repair_by_model, repair_target
from crafter.spec import parse_component, parse_dsl, print_component

PINNED = """figure canvas=600,200
a node "Alpha" box=10,10,100,40 pinned=true
b node "Beta" box=60,20,100,40 pinned=true
c node "Gamma" box=300,10,100,40 pinned=true
d node "A much longer label than fits" box=300,100,60,20 pinned=true width=60 height=20
w node "White" box=450,10,100,40 pinned=true fill=#ffffff text_color=#dddddd
e1 edge a -> c route=110,30;300,30
e2 edge b -> d route=110,40;200,40;200,110;300,110
"""


def repair_all(fig, issues, backend=None):
    """One round: a repair per target, then the fan-in."""
    by_target = {}
    for i in issues:
        by_target.setdefault(i["target"], []).append(i)
    results = [repair_target(fig, t, iss, backend=backend) for t, iss in sorted(by_target.items())]
    return apply_repairs(fig, results, issues)


def test_rules_fix_geometry_and_touch_only_targets() -> None:
    fig = parse_dsl(PINNED)
    issues = critique(fig)
    assert {i["code"] for i in issues} >= {"overlap", "text_overflow", "low_contrast"}
    new, applied, rejected = repair_all(fig, issues)
    assert not rejected, rejected
    targets = {i["target"] for i in issues}
    assert changed_ids(fig, new) <= targets
    # the faults are gone
    left = {(i["code"], i["target"]) for i in critique(new)}
    for i in issues:
        assert (i["code"], i["target"]) not in left, i["message"]


def test_locality_every_unflagged_component_is_byte_identical() -> None:
    fig = parse_dsl(PINNED)
    issues = critique(fig)
    new, _, _ = repair_all(fig, issues)
    flagged = {i["target"] for i in issues}
    before = {c.id: print_component(c) for c in fig.components}
    after = {c.id: print_component(c) for c in new.components}
    for cid, line in before.items():
        if cid not in flagged:
            assert after[cid] == line, cid


def test_edge_crossing_is_rerouted_around() -> None:
    fig = parse_dsl("figure canvas=500,200\n"
                    "a node \"A\" box=10,60,60,30 pinned=true\nm node \"M\" box=200,50,60,50 pinned=true\n"
                    "b node \"B\" box=400,60,60,30 pinned=true\ne edge a -> b route=70,75;400,75\n")
    [issue] = [i for i in critique(fig) if i["code"] == "edge_crosses_node"]
    new, applied, _ = repair_all(fig, [issue])
    assert [r["target"] for r in applied] == ["e"]
    assert not [i for i in critique(new) if i["code"] == "edge_crosses_node"]
    assert changed_ids(fig, new) == {"e"}


def test_missing_entity_is_added_by_the_model(scripted, laid_out) -> None:
    fig = laid_out('enc node "Encoder"\ndec node "Decoder"\ne edge enc -> dec\n')
    [issue] = critique(fig, brief='The "Encoder" feeds the "Decoder", then a "Classifier".')
    backend = scripted(repair=['classifier node "Classifier"\ne2 edge dec -> classifier'])
    new, applied, rejected = repair_all(fig, [issue], backend)
    assert not rejected
    assert changed_ids(fig, new) == {"classifier", "e2"}
    assert new.get("classifier").label == "Classifier"


ISSUE = {"code": "instruction", "severity": "info", "message": "instruction: make the decoder round",
         "component_ids": ["dec"], "target": "dec", "fix": "model", "instruction": "make the decoder round"}


def test_invalid_model_output_is_retried(scripted, pipeline_dsl) -> None:
    fig = parse_dsl(pipeline_dsl)
    backend = scripted(repair=["dec node \"Decoder\" shape=wobbly", "this is not dsl at all ((",
                               'dec node "Decoder" shape=round'])
    r = repair_by_model(fig, "dec", [ISSUE], backend, max_attempts=3)
    assert r["ok"] and r["attempts"] == 3
    assert parse_component(print_component(merge(fig, [parse_component('dec node "Decoder" shape=round')], [], {})
                                           .get("dec"))).shape == "round"


def test_repeated_failure_leaves_the_figure_unchanged(scripted, pipeline_dsl) -> None:
    fig = parse_dsl(pipeline_dsl)
    backend = scripted(repair=["garbage", "", "dec edge x -> y"])
    r = repair_by_model(fig, "dec", [ISSUE], backend, max_attempts=3)
    assert not r["ok"] and r["attempts"] == 3 and r["error"]
    new, applied, rejected = apply_repairs(fig, [r], [ISSUE])
    assert new == fig and not applied and len(rejected) == 1


def test_a_repair_that_would_touch_other_components_is_rejected(scripted, pipeline_dsl) -> None:
    fig = parse_dsl(pipeline_dsl)
    sneaky = 'dec node "Decoder" shape=round\nenc node "Encoder" fill=red'
    backend = scripted(repair=[sneaky, sneaky])
    r = repair_by_model(fig, "dec", [ISSUE], backend, max_attempts=2)
    assert not r["ok"] and "not flagged" in r["error"]
    # and the fan-in refuses such a result even if a worker let it through
    forged = {**r, "ok": True, "components": [
        {"id": "dec", "kind": "node", "label": "Decoder", "shape": "round"},
        {"id": "enc", "kind": "node", "label": "Encoder", "fill": "red"}]}
    new, applied, rejected = apply_repairs(fig, [forged], [ISSUE])
    assert new == fig and rejected and "not flagged" in rejected[0]["error"]


def test_a_repair_that_breaks_references_is_rejected(scripted, pipeline_dsl) -> None:
    fig = parse_dsl(pipeline_dsl)
    backend = scripted(repair=["e2 edge enc -> nowhere"])
    issue = {**ISSUE, "component_ids": ["e2"], "target": "e2"}
    r = repair_by_model(fig, "e2", [issue], backend, max_attempts=1)
    assert not r["ok"] and "nowhere" in r["error"]


def test_unchanged_output_is_not_a_fix(scripted, pipeline_dsl) -> None:
    fig = parse_dsl(pipeline_dsl)
    r = repair_by_model(fig, "dec", [ISSUE], scripted(repair=['dec node "Decoder"']), max_attempts=1)
    assert not r["ok"] and "unchanged" in r["error"]


def test_a_dead_model_gives_up_cleanly(scripted, pipeline_dsl) -> None:
    fig = parse_dsl(pipeline_dsl)
    r = repair_by_model(fig, "dec", [ISSUE], scripted(repair=[{"error": "connection refused"}]))
    assert not r["ok"] and "connection refused" in r["error"]


def test_two_results_for_the_same_component_conflict(pipeline_dsl) -> None:
    fig = parse_dsl(pipeline_dsl)
    i1 = {**ISSUE, "target": "dec"}
    i2 = {**ISSUE, "target": "new", "code": "missing_entity", "component_ids": []}
    r1 = {"target": "dec", "ok": True, "by": "model", "components": [{"id": "dec", "kind": "node", "label": "D1"}]}
    r2 = {"target": "new", "ok": True, "by": "model",
          "components": [{"id": "new", "kind": "node"}, {"id": "dec", "kind": "node", "label": "D2"}]}
    new, applied, rejected = apply_repairs(fig, [r2, r1], [i1, i2])
    assert [r["target"] for r in applied] == ["dec"] and [r["target"] for r in rejected] == ["new"]
    assert new.get("dec").label == "D1"


def test_issue_keys_are_stable() -> None:
    fig = parse_dsl(PINNED)
    assert [issue_key(i) for i in critique(fig)] == [issue_key(i) for i in critique(fig)]


def test_a_pinned_route_left_behind_by_a_move_is_rerouted() -> None:
    fig = parse_dsl("figure canvas=500,200\n"
                    "a node \"A\" box=10,10,60,30 pinned=true\nb node \"B\" box=300,120,60,30 pinned=true\n"
                    "e edge a -> b pinned=true route=70,25;300,25\n")  # B was at y=10 when the route was pinned
    [issue] = [i for i in critique(fig) if i["code"] == "edge_detached"]
    assert issue["target"] == "e"
    new, applied, _ = repair_all(fig, [issue])
    assert applied and not [i for i in critique(new) if i["code"] == "edge_detached"]
    route = new.get("e").route
    assert (route[-1].x, route[-1].y) in {(300, 135), (330, 120), (330, 150), (360, 135)}
