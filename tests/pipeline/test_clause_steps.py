"""Links read from clauses of one sentence said one after another (:mod:`crafter.agents.clauses`)."""

from __future__ import annotations

from figure_labels import edge_labels

from crafter.agents.clauses import clause_steps
from crafter.agents.extract import figure_from_brief
from crafter.agents.links import _mentions, _patterns


def _steps(sentence: str, names: list[str]) -> list[tuple[str, str]]:
    return clause_steps(sentence, _mentions(sentence, _patterns(names)))


def test_clauses_each_opening_on_an_acting_name_chain_their_subjects() -> None:
    sentence = ("In the inner loop, a camera images each deposited line, a CNN estimates its width, and a PI "
                "controller corrects the extruder's flow.")
    assert _steps(sentence, ["camera", "CNN", "PI controller", "extruder"]) == [
        ("camera", "CNN"), ("CNN", "PI controller")]


def test_clauses_beside_each_other_or_about_structure_are_not_steps() -> None:
    names = ["loader", "augmenter", "exporter", "quantiser", "build stage", "site", "pharmacy"]
    assert _steps("The loader reads images, while the augmenter crops them.", names) == []
    assert _steps("The exporter forms the build stage, and the quantiser forms it too.", names) == []
    # a clause whose step ends at its own target hands nothing to the next subject
    assert _steps("The loader goes back to the site, and the pharmacy receives a kit.", names) == []
    # "During training, …": a participle after the name, no step
    assert _steps("During training, the loader reads images.", ["During", "loader"]) == []


def test_a_figure_from_a_sentence_of_steps_links_each_actor_to_the_next() -> None:
    fig = figure_from_brief("Our print-control loop: a camera images each deposited line, a CNN estimates its width, "
                            "and a PI controller corrects the extruder flow.")
    edges = edge_labels(fig, lower=True)
    assert ("camera", "cnn") in edges
    assert ("cnn", "pi controller") in edges
    assert ("pi controller", "camera") not in edges


def test_clauses_doing_the_same_are_side_by_side_not_steps() -> None:
    # the same verb in each clause: actors side by side (parallel workers, compared models), not a chain
    assert _steps("Worker 1 reads shard 1, worker 2 reads shard 2, and worker 3 reads shard 3.",
                  ["Worker 1", "worker 2", "worker 3", "shard 1", "shard 2", "shard 3"]) == []
    assert _steps("Model A scores 0.91, Model B scores 0.87, and Model C scores 0.85.",
                  ["Model A", "Model B", "Model C"]) == []
    # different verbs still hand on
    assert _steps("Alice sends a key, Bob signs it, and Carol verifies the signature.", ["Alice", "Bob", "Carol"]) == [
        ("Alice", "Bob"), ("Bob", "Carol")]
