"""A one-word verb said only as its sentence's verb is no box ("the two towers each give pooled vectors", "whose
maps feed the head", "to assign each record a label"); the same word said as a thing ("a query is raised", "→ parse
→") stays one."""

from __future__ import annotations

from crafter.agents.extract import figure_from_brief


def _labels(text: str) -> set[str]:
    return {n.label.lower() for n in figure_from_brief(text).of_kind("node")}


def test_a_verb_after_its_plural_subject_draws_no_box() -> None:
    text = ("The encoder stacks three stages. Both stages together make up the pyramid, whose upsampled maps feed "
            "the segmentation head.")
    assert "feed" not in _labels(text)


def test_a_verb_after_each_draws_no_box() -> None:
    text = ("Two towers:\n- BERT-Q and BERT-D each give pooled and per-token vectors\n"
            "- the per-token vectors go to the late-interaction scorer")
    labels = _labels(text)
    assert "give" not in labels
    assert "late-interaction scorer" in labels


def test_a_verb_word_said_as_a_thing_stays_a_box() -> None:
    labels = _labels("Query compiler: expression → parse → typed AST → code generation → shared object")
    assert "parse" in labels
