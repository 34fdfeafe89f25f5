"""Bad input gets a clear message; the planner survives any model output."""

from __future__ import annotations

import pytest

from crafter.agents.ingest import ingest, looks_english
from crafter.agents.plan import PlanFailed, assemble_figure, plan
from crafter.agents.route import route
from crafter.errors import InputError


def test_empty_brief_is_an_error_that_says_what_to_do() -> None:
    with pytest.raises(InputError, match="brief is empty"):
        ingest("   \n ")


def test_a_20000_word_brief_is_truncated_with_a_warning() -> None:
    brief = " ".join(f"Stage {i} feeds stage {i + 1}." for i in range(4000))  # 20,000 words
    out = ingest(brief, max_brief_words=400)
    assert len(out["brief"].split()) <= 400
    assert out["brief"].endswith(".")  # cut at a sentence end
    assert "20,000 words" in out["warnings"][0]


def test_a_brief_in_another_language_warns() -> None:
    assert not looks_english("Ein Encoder wandelt das Bild in einen Vektor um, danach rekonstruiert ein "
                             "Decoder das Bild aus dem Vektor und vergleicht es mit dem Original.")
    assert not looks_english("エンコーダが画像をベクトルに変換し、デコーダが画像を再構成する")
    assert looks_english("An encoder turns the image into a vector, which the decoder reads.")
    out = ingest("エンコーダが画像をベクトルに変換し、デコーダが画像を再構成する")
    assert any("English" in w for w in out["warnings"])


def test_a_table_that_does_not_parse(tmp_path) -> None:
    bad = tmp_path / "results.csv"
    bad.write_bytes(b"\x00\x01\x02garbage\xff\xfe")
    with pytest.raises(InputError) as e:
        ingest("a chart", data_path=str(bad))
    assert "results.csv" in str(e.value)


def test_a_missing_table(tmp_path) -> None:
    with pytest.raises(InputError, match="no such table"):
        ingest("a chart", data_path=str(tmp_path / "nope.csv"))


def test_an_image_that_is_not_an_image(tmp_path) -> None:
    fake = tmp_path / "figure.png"
    fake.write_text("this is text, not a PNG")
    with pytest.raises(InputError, match="not a readable image") as e:
        ingest("", image_path=str(fake))
    assert "figure.png" in str(e.value)


def test_a_real_image_passes(tmp_path) -> None:
    from PIL import Image

    p = tmp_path / "ok.png"
    Image.new("RGB", (20, 10), "white").save(p)
    assert ingest("", image_path=str(p))["image"].endswith("ok.png")


def test_routes() -> None:
    assert route({"brief": "a feeds b"}) == "plan"
    assert route({"brief": "bar chart of accuracy", "table": {"columns": []}}) == "chart"
    assert route({"brief": "A feeds B, which is passed to C; plot accuracy", "table": {"columns": []}}) == "two_panel"
    assert route({"brief": "", "image": "x.png"}) == "vectorize"
    assert route({"instruction": "make it blue"}) == "edit"


# -- the planner ------------------------------------------------------------------

def test_assembly_keeps_good_lines_and_fixes_dangling_edges() -> None:
    text = ('figure "T"\nenc node "Encoder"\nthis line is junk ((\ndec node "Decoder" fill=notacolour\n'
            "e1 edge enc -> latent\ne2 edge latent -> enc\ng group \"G\" [enc, ghost]\n")
    fig, issues, warnings = assemble_figure(text)
    assert fig.title == "T"
    assert {c.id for c in fig.components} == {"enc", "latent", "e1", "e2", "g"}
    assert fig.get("g").members == ["enc"]
    assert sorted(i["code"] for i in issues) == ["dangling_id", "dangling_id", "dangling_id"]
    assert len(warnings) == 2 and "line 3" in warnings[0] and "line 4" in warnings[1]


@pytest.mark.parametrize("text", ["", "   ", "I cannot draw figures, sorry.", "```\n```"])
def test_assembly_refuses_nothing(text) -> None:
    with pytest.raises(PlanFailed):
        assemble_figure(text)


BRIEF = 'A "Tokenizer" feeds an "Encoder", which feeds a "Decoder".'


def test_plan_uses_the_model(scripted) -> None:
    out = plan(BRIEF, scripted(plan=['t node "Tokenizer"\ne node "Encoder"\nd node "Decoder"\n'
                                     "a edge t -> e\nb edge e -> d\n"]))
    assert out["source"] == "model" and not out["warnings"]


@pytest.mark.parametrize("replies", [
    ["", ""],  # a model that returns nothing
    ["bla bla bla", "((("],  # nonsense
    ['x node "Banana"\ny node "Apple"', 'x node "Pear"'],  # valid DSL about something else
    [{"error": "connection refused"}],  # the server died
])
def test_plan_falls_back_to_rules_with_a_message(scripted, replies) -> None:
    backend = scripted(plan=replies)
    out = plan(BRIEF, backend)
    assert out["source"] == "rules"
    assert {n["label"] for n in out["figure"]["components"] if n["kind"] == "node"} == {"Tokenizer", "Encoder", "Decoder"}
    assert "planned from the brief by rules" in out["warnings"][-1]


def test_a_plan_cut_at_a_bad_line_is_not_used_as_the_figure(scripted) -> None:
    """Output the backend stopped at a non-DSL line would lose the rest: sample again."""
    cut = {"text": 't node "Tokenizer"\n" node "Enc\n', "stopped": "guard"}
    full = 't node "Tokenizer"\ne node "Encoder"\nd node "Decoder"\na edge t -> e\nb edge e -> d\n'
    out = plan(BRIEF, scripted(plan=[cut, full]))
    assert out["source"] == "model" and len(out["calls"]) == 2
    assert out["calls"][0]["stopped_at_invalid_line"] is True
    out = plan(BRIEF, scripted(plan=[cut, cut]))
    assert out["source"] == "rules" and "not DSL" in out["warnings"][-1]


def test_plan_without_a_model() -> None:
    out = plan(BRIEF, None)
    assert out["source"] == "rules" and out["warnings"] == [] and out["calls"] == []


def test_a_model_figure_that_misses_a_named_thing_loses_to_the_rules(scripted) -> None:
    prose = "The tokenizer feeds the encoder, which passes hidden states to the decoder. A critic scores the decoder."
    missing = 't node "tokenizer"\ne node "encoder"\nd node "decoder"\na edge t -> e\nb edge e -> d\n'
    out = plan(prose, scripted(plan=[missing]))
    assert out["source"] == "rules" and "names 3 of the 4" in out["warnings"][-1]
    assert {"tokenizer", "encoder", "decoder", "critic"} <= {n["label"].lower() for n in out["figure"]["components"]
                                                            if n["kind"] == "node"}
    twice = 't node "Tokenizer"\ne node "Encoder"\nd node "Decoder"\nx node "Decoder"\na edge t -> e\nb edge e -> d\n'
    out = plan(BRIEF, scripted(plan=[twice]))
    assert out["source"] == "rules" and "same name twice" in out["warnings"][-1]
    plural = twice.replace('x node "Decoder"', 'x node "Decoders"')  # one name, spelt twice, is two boxes too
    out = plan(BRIEF, scripted(plan=[plural]))
    assert out["source"] == "rules" and "same name twice" in out["warnings"][-1]


def test_names_cut_short_or_fewer_links_lose_to_the_rules(scripted) -> None:
    """What the shipped model once wrote for an EEG brief: every name cut to its first word."""
    brief = ("Raw EEG signals are cleaned by a Bandpass Filter. The Bandpass Filter hands the clean signal to a "
             "Feature Extractor, which passes features to a Seizure Classifier. The Seizure Classifier writes "
             "alerts to the Clinician Dashboard.")
    cut = ('n1 node "Bandpass"\nn2 node "Feature"\nn3 node "Seizure"\nn4 node "Clinician"\n'
           'e1 edge n1 -> n2\ne2 edge n2 -> n3\n')
    out = plan(brief, scripted(plan=[cut]))
    assert out["source"] == "rules" and "names 0 of the 5" in out["warnings"][-1]  # "Raw EEG" too
    unlinked = ('n0 node "Raw EEG"\nn1 node "Bandpass Filter"\nn2 node "Feature Extractor"\n'
                'n3 node "Seizure Classifier"\nn4 node "Clinician Dashboard"\ne0 edge n0 -> n1\ne1 edge n1 -> n2\n')
    out = plan(brief, scripted(plan=[unlinked]))
    assert out["source"] == "rules" and "links 2 pairs" in out["warnings"][-1]
    whole = unlinked + 'e2 edge n2 -> n3 "features"\ne3 edge n3 -> n4 "alerts"\n'
    assert plan(brief, scripted(plan=[whole]))["source"] == "model"


def test_a_trusted_model_plans_without_the_check_against_the_rules(scripted) -> None:
    """A backend measured to read briefs better than the rules (``trusted_plan``) has its figure kept as written;
    the rules still stand in for output that is no figure."""
    prose = "The tokenizer feeds the encoder, which passes hidden states to the decoder. A critic scores the decoder."
    missing = 't node "tokenizer"\ne node "encoder"\nd node "decoder"\na edge t -> e\nb edge e -> d\n'
    backend = scripted(plan=[missing])
    backend.trusted_plan = True
    out = plan(prose, backend)
    assert out["source"] == "model" and len(out["figure"]["components"]) == 5
    backend = scripted(plan=["this is not DSL", "neither is this"])
    backend.trusted_plan = True
    assert plan(prose, backend)["source"] == "rules"


@pytest.mark.parametrize("brief,title", [
    ("The Encoder feeds the Decoder. Figure title: Seizure detection pipeline", "Seizure detection pipeline"),
    ("Title: My pipeline. The Encoder feeds the Decoder.", "My pipeline"),
    ("Caption: Overview\nThe Encoder feeds the Decoder.", "Overview"),
])
def test_an_unquoted_title_line_becomes_the_title(brief, title) -> None:
    from crafter.agents.extract import figure_from_brief

    fig = figure_from_brief(brief)
    assert fig.title == title
    assert {c.label for c in fig.components if c.kind == "node"} == {"Encoder", "Decoder"}


def test_a_brief_that_describes_no_figure_gets_a_plain_warning() -> None:
    from crafter.agents.plan import plan

    out = plan("We thank the reviewers for their helpful comments.", None)
    assert any("describe the parts of the figure" in w for w in out["warnings"])
    assert not plan("The encoder feeds the decoder.", None)["warnings"]
