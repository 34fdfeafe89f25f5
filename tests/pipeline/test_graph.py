"""The real graph end to end with scripted models: repair rounds, locality, failures, edits, the run store."""

from __future__ import annotations

import pytest
from pipeline_script import ADD_CLASSIFIER, BRIEF, PLAN

from crafter.agents.repair import changed_ids, strip_layout
from crafter.errors import CrafterError
from crafter.graph.pipeline import compiled_graph, edit, generate, iter_generate, list_runs, resume, run_result
from crafter.graph.runs import RunStore
from crafter.spec import Figure, print_component


def _states(db, run_id):
    """The run's checkpoints, oldest first."""
    graph = compiled_graph(_saver(db))
    return list(reversed(list(graph.get_state_history({"configurable": {"thread_id": run_id}}))))


def _saver(db):
    from crafter.graph.pipeline import _saver_for

    return _saver_for(RunStore.shared(db))


def test_generate_repairs_in_parallel_and_reports(db, scripted) -> None:
    backend = scripted(plan=[PLAN], rules=[{"task": "repair", "match": "Classifier", "text": ADD_CLASSIFIER}])
    events = []
    r = generate(BRIEF, backend=backend, db_path=db, rounds=3, on_event=events.append)
    assert r.status == "done", r.message
    assert {i["code"] for i in r.issues_found} == {"missing_entity", "overlap", "low_contrast"}
    assert r.issues_left == [] and len(r.issues_fixed) == 3 and r.rounds == 1
    assert r.figure.get("classifier").label == "Classifier"
    assert r.figure.get("enc").text_color is not None and r.figure.get("enc").text_color != "#eeeeee"
    assert '<g id="classifier"' in r.svg
    repairs = [e for e in events if e.kind == "start" and e.node == "repair"]
    assert len(repairs) == 3  # one Send per flagged target: classifier, enc, memo
    assert events[-1].kind == "finished" and events[-1].result is r
    assert backend.tasks_called == ["plan", "repair"]  # geometry and contrast were fixed by rule
    [info] = list_runs(db)
    assert (info.run_id, info.shown_status, info.brief) == (r.run_id, "done", BRIEF)
    assert info.summary["issues_fixed"] == 3


def test_locality_of_a_repair_round_in_the_graph(db, scripted) -> None:
    backend = scripted(plan=[PLAN], rules=[{"task": "repair", "match": "Classifier", "text": ADD_CLASSIFIER}])
    r = generate(BRIEF, backend=backend, db_path=db, rounds=3, keep_history=True)
    states = _states(db, r.run_id)
    before = next(s for s in states if s.values.get("pending"))  # after the first critique
    after = next(s for s in states if s.values.get("round") == 1)  # after the apply step
    flagged = {p["target"] for p in before.values["pending"]}
    fig0, fig1 = Figure.from_dict(before.values["figure"]), Figure.from_dict(after.values["figure"])
    lines0 = {c.id: print_component(c) for c in fig0.components}
    lines1 = {c.id: print_component(c) for c in fig1.components}
    for cid in lines0:
        if cid not in flagged:
            assert lines1[cid] == lines0[cid], f"{cid} changed but was not flagged"
    assert changed_ids(fig0, fig1) - flagged == {"e3"}  # the edge the new classifier came with
    # and after re-layout, nothing unflagged changed in meaning either
    final = r.figure
    assert changed_ids(strip_layout(fig0), strip_layout(final)) - flagged == {"e3"}


def test_a_model_server_that_dies_mid_run(db, scripted) -> None:
    backend = scripted(plan=[PLAN], repair=[{"error": "connection refused"}] * 5)
    r = generate(BRIEF, backend=backend, db_path=db, rounds=2)
    assert r.status == "done" and r.figure is not None
    assert [i["code"] for i in r.issues_left] == ["missing_entity"]
    assert any("connection refused" in w for w in r.warnings)
    assert len(r.issues_fixed) == 2  # the rule repairs still happened


def test_invalid_dsl_from_the_model_falls_back_to_rules(db, scripted) -> None:
    r = generate(BRIEF, backend=scripted(plan=["<<< nonsense >>>", "still ((( nonsense"]), db_path=db)
    assert r.status == "done"
    assert {n.label for n in r.figure.of_kind("node")} == {"Tokenizer", "Encoder", "Decoder", "Classifier"}
    assert any("by rules" in w for w in r.warnings)


def test_a_repair_that_would_touch_other_components(db, scripted) -> None:
    sneaky = ADD_CLASSIFIER + '\ntok node "Tokenizer" fill=red'
    backend = scripted(plan=[PLAN], rules=[{"task": "repair", "match": "Classifier", "text": sneaky}])
    r = generate(BRIEF, backend=backend, db_path=db, rounds=2)
    assert r.status == "done"
    assert r.figure.get("tok").fill is None  # never touched
    assert "classifier" not in r.figure.by_id()
    assert [i["code"] for i in r.issues_left] == ["missing_entity"]
    assert any("not flagged" in w for w in r.warnings)
    # rejected once (after its retries), it is not retried in later rounds
    assert backend.tasks_called.count("repair") == 3


def test_rules_only_backend(db) -> None:
    r = generate(BRIEF, backend="none", db_path=db)
    assert r.status == "done" and r.model["calls"] == 0
    assert len(r.figure.of_kind("node")) == 4


def test_empty_brief_is_one_clear_error_and_a_failed_run(db) -> None:
    with pytest.raises(CrafterError, match="brief is empty"):
        generate("  ", backend="none", db_path=db)
    [info] = list_runs(db)
    assert info.status == "failed" and "brief is empty" in info.message


def test_not_an_image(db, tmp_path) -> None:
    fake = tmp_path / "fig.png"
    fake.write_text("not a png")
    with pytest.raises(CrafterError, match="not a readable image"):
        generate("", image=fake, backend="none", db_path=db)


def test_iterator_api(db) -> None:
    events = list(iter_generate("Input -> Model -> Output", backend="none", db_path=db))
    nodes = [e.node for e in events if e.kind == "start"]
    assert nodes[:4] == ["run", "ingest", "plan", "compose"] and "critique" in nodes
    assert events[-1].kind == "finished" and events[-1].result.figure is not None


def test_resume_of_a_finished_run_gives_its_result(db) -> None:
    r = generate("Input -> Model -> Output", backend="none", db_path=db)
    again = resume(r.run_id, db_path=db)
    assert again.figure == r.figure and again.status == "done"
    assert run_result(r.run_id[:6], db_path=db).figure == r.figure


def test_edit_a_crafter_svg_changes_only_what_is_named(db, tmp_path) -> None:
    base = generate(BRIEF, backend="none", db_path=db)
    svg = tmp_path / "fig.svg"
    base.save(svg)
    r = edit(svg, "make the encoder blue", backend="none", db_path=db)
    assert r.figure.get("encoder").fill == "blue"
    # a colour does not move anything: every other component is byte-identical, layout included
    assert changed_ids(base.figure, r.figure) == {"encoder"}
    r2 = edit(svg, "make the encoder blue and rename Decoder to Generator", backend="none", db_path=db)
    assert r2.figure.get("decoder").label == "Generator"
    assert changed_ids(strip_layout(base.figure), strip_layout(r2.figure)) == {"encoder", "decoder"}
    assert r2.applied and "Generator" in r2.applied[-1]


def test_edit_falls_back_to_the_model_for_the_rest(db, tmp_path, scripted) -> None:
    base = generate("Input -> Vector index -> Output", backend="none", db_path=db)
    svg = tmp_path / "fig.svg"
    base.save(svg)
    backend = scripted(repair=['vector_index node "Vector index" shape=cylinder bold=true stroke_width=2'])
    r = edit(svg, "make the vector index stand out more", backend=backend, db_path=db)
    assert r.figure.get("vector_index").bold and backend.tasks_called == ["repair"]
    assert changed_ids(strip_layout(base.figure), strip_layout(r.figure)) == {"vector_index"}


def test_edit_without_a_model_says_what_it_could_not_do(db, tmp_path) -> None:
    base = generate("Input -> Output", backend="none", db_path=db)
    svg = tmp_path / "fig.svg"
    base.save(svg)
    r = edit(svg, "make the input sparkle", backend="none", db_path=db)
    assert r.status == "done" and r.figure == base.figure
    assert r.warnings


def test_an_instruction_that_is_empty(db, tmp_path) -> None:
    base = generate("Input -> Output", backend="none", db_path=db)
    with pytest.raises(CrafterError, match="instruction is empty"):
        edit(base.figure, " ", backend="none", db_path=db)


def test_two_panel_figure_from_a_brief_and_a_table(db, tmp_path) -> None:
    pytest.importorskip("crafter.charts", reason="charts not installed")
    from crafter import charts

    if not hasattr(charts, "make_chart"):
        pytest.skip("crafter.charts.make_chart has not landed yet")
    table = tmp_path / "ablation.csv"
    table.write_text("variant,f1\nfull,0.91\nno retriever,0.84\nno re-ranker,0.88\n")
    r = generate("A query encoder feeds a retriever, which is passed to the generator. Plot F1 per variant.",
                 data=table, backend="none", db_path=db)
    assert r.status == "done", r.message
    assert r.route == "two_panel"
    assert len(r.figure.of_kind("panel")) == 2 and len(r.figure.of_kind("chart")) == 1
    assert r.figure.of_kind("chart")[0].spec["data"]["values"][0]["f1"] == 0.91


def test_a_20000_word_brief_runs_with_a_warning(db) -> None:
    brief = " ".join(f"Stage {i} feeds stage {i + 1}." for i in range(4000))
    r = generate(brief, backend="none", db_path=db)
    assert r.status == "done" and r.figure.of_kind("node")
    assert any("20,000 words" in w for w in r.warnings)
    assert list_runs(db)[0].brief == brief  # the run store keeps what the user wrote


def test_a_brief_in_another_language(db) -> None:
    r = generate("Un encodeur transforme l'image en vecteur, puis un décodeur reconstruit l'image à partir du "
                 "vecteur et la compare à l'original.", backend="none", db_path=db)
    assert r.status == "done" and r.figure.components
    assert any("English" in w for w in r.warnings)


def test_run_ids_by_prefix_and_store_sharing(db) -> None:
    a = generate("A -> B", backend="none", db_path=db, run_id="exp_1-first")
    assert run_result("exp_1", db_path=db).run_id == a.run_id
    with pytest.raises(CrafterError, match="already exists"):
        generate("A -> B", backend="none", db_path=db, run_id="exp_1-first")


def test_tidy_the_layout_fixes_an_overlap_and_nothing_else(db) -> None:
    from pathlib import Path

    from crafter.formats import load_figure
    from crafter.layout import layout_figure

    fig = layout_figure(load_figure(Path(__file__).resolve().parents[2] / "examples" / "rag_pipeline.dsl"))
    a, b = fig.get("q"), fig.get("emb")
    moved = b.model_copy(update={"box": a.box.model_copy(update={"x": a.box.x + 20, "y": a.box.y + 4}), "pinned": True})
    faulty = fig.model_copy(update={"components": [moved if c.id == "emb" else c for c in fig.components]})
    r = edit(faulty, "Two boxes overlap; tidy the layout without changing the content.", backend="none", db_path=db)
    assert r.status == "done"
    from crafter.agents.critique import critique

    assert not [i for i in critique(r.figure) if i["code"] == "overlap"]  # by layout or by repair, it is gone
    assert changed_ids(strip_layout(faulty), strip_layout(r.figure)) <= {"emb"}


def test_repairs_of_different_components_run_concurrently(db) -> None:
    """Two model repairs meet at a barrier: run one after the other, the first would wait forever."""
    import threading

    from crafter.agents.testing import Completion

    barrier = threading.Barrier(2, timeout=30)
    plan = 'figure "F"\nenc node "Encoder"\ndec node "Decoder"\ne1 edge enc -> dec\n'
    adds = {"Classifier": 'classifier node "Classifier"\ne3 edge dec -> classifier',
            "Tokenizer": 'tokenizer node "Tokenizer"\ne0 edge tokenizer -> enc'}

    class MeetingBackend:
        def complete(self, task, prompt, *, max_new_tokens=512, temperature=0.0):
            if task == "plan":
                return Completion(plan)
            barrier.wait()  # raises BrokenBarrierError after 30 s if the other repair is not running
            return Completion(next(text for name, text in adds.items() if f'add "{name}"' in prompt))

    brief = 'The "Tokenizer" feeds the "Encoder", which feeds the "Decoder", which feeds a "Classifier".'
    r = generate(brief, backend=MeetingBackend(), db_path=db, rounds=1)
    assert r.status == "done" and not r.warnings, r.warnings
    assert {"classifier", "tokenizer"} <= set(r.figure.by_id())


def test_finished_runs_keep_one_checkpoint_and_still_reopen(db) -> None:
    r = generate("Input -> Model -> Output", backend="none", db_path=db)
    assert len(_states(db, r.run_id)) == 1
    assert run_result(r.run_id, db_path=db).figure == r.figure
    assert resume(r.run_id, db_path=db).figure == r.figure


def test_in_memory_runs_are_forgotten() -> None:
    from langgraph.checkpoint.memory import InMemorySaver

    from crafter.graph.pipeline import _memory_saver

    r = generate("Input -> Output", backend="none", persist=False)
    assert r.status == "done" and r.figure is not None
    assert not list(_memory_saver(InMemorySaver).list({"configurable": {"thread_id": r.run_id}}))
