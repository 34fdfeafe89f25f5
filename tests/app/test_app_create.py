"""Create tab: brief, table, reference image, Generate with live steps, the figure inline."""

import io
from pathlib import Path

import pytest
from app_helpers import data_of, errors
from PIL import Image

from crafter.ui import services


def test_first_page_explains_itself(app):
    assert [t.label.split(" ", 1)[1] for t in app.tabs] == [
        "Create", "Edit", "Vectorize", "Open", "Runs", "Export", "Settings"]
    assert app.button(key="generate").label == "Generate"
    assert not errors(app)
    htmls = " ".join(h.value for h in app.html)
    assert "Describe the figure" in htmls and "Your figure will appear here" in htmls


def test_example_fills_brief_and_attaches_a_table(app):
    app.button(key="example_two_panel").click().run()
    assert "bar chart" in app.text_area(key="brief").value
    previews = [e.label for e in app.expander if e.label.startswith("Preview")]
    assert previews == ["Preview: 6 rows × 3 columns: model (nominal), dataset (nominal), accuracy (quantitative)"]
    app.button(key="remove_example_table").click().run()
    assert not [e for e in app.expander if e.label.startswith("Preview")]


BRIEF = "A pipeline: Input → Encoder → Decoder → Output."


def test_generate_shows_steps_and_the_figure(app, pipeline_calls, downloads):
    app.text_area(key="brief").set_value(BRIEF).run()
    app.button(key="generate").click().run()
    assert not errors(app) and not app.exception
    call = pipeline_calls[0]
    assert call["fn"] == "iter_generate" and call["args"] == (BRIEF,)
    assert call["backend"] == "none" and call["rounds"] == 3 and call["width_in"] == 7.0
    steps = "\n".join(m.value for m in app.markdown)
    assert "✓ Planned the figure" in steps and "✓ Laid out" in steps and "✓ Checked the figure" in steps
    fig = app.session_state["ws"].figure
    assert [c.label for c in fig.of_kind("node")] == ["Input", "Encoder", "Decoder", "Output"]
    figures = [h.value for h in app.html if 'data-testid="crafter-figure"' in h.value]
    assert figures and "data:image/svg+xml;base64," in figures[0] and "<script" not in figures[0]
    stem = services.file_stem(fig.title)
    assert downloads["create_dl_.pdf"][0] == stem + ".pdf"
    assert data_of(downloads["create_dl_.pdf"]).startswith(b"%PDF")
    assert b"Encoder" in data_of(downloads["create_dl_.svg"])
    # the run is in the store and listed in the Runs tab
    assert list(app.dataframe[-1].value["run"]) == [app.session_state["ws"].run_id]


def test_first_time_user_two_panel_figure_as_pdf(app, pipeline_calls, downloads):
    """Example button → Generate → a diagram panel and a chart panel → Download PDF."""
    app.button(key="example_two_panel").click().run()
    app.button(key="generate").click().run()
    assert not errors(app) and not app.exception
    data = Path(pipeline_calls[0]["data"])
    assert data.name == "model_accuracy.csv" and data.read_text().startswith("model,dataset,accuracy")
    fig = app.session_state["ws"].figure
    assert len(fig.of_kind("panel")) == 2 and len(fig.of_kind("chart")) == 1
    assert "ViT Encoder" in [n.label for n in fig.of_kind("node")]
    name, _ = downloads["create_dl_.pdf"]
    assert name.endswith(".pdf") and data_of(downloads["create_dl_.pdf"]).startswith(b"%PDF")


def test_empty_brief_asks_for_one(app, pipeline_calls):
    app.button(key="generate").click().run()
    assert not pipeline_calls
    assert any("Write a brief first" in w.value for w in app.warning)


def test_a_crash_is_a_message_and_the_brief_stays(app, monkeypatch):
    from crafter.errors import CrafterError

    def crash(*a, **k):
        raise CrafterError("the model server died mid-run")

    monkeypatch.setattr(services, "generate", crash)
    app.text_area(key="brief").set_value(BRIEF).run()
    app.button(key="generate").click().run()
    assert not app.exception
    assert any("Generating the figure failed: the model server died mid-run" in e for e in errors(app))
    assert app.text_area(key="brief").value == BRIEF
    monkeypatch.undo()
    app.button(key="generate").click().run()  # and the app still works afterwards
    assert not errors(app) and app.session_state["ws"].figure is not None


def test_an_unreachable_model_server_is_reported_and_rules_stand_in(app):
    app.radio(key="set_backend").set_value("openai").run()
    app.text_input(key="set_openai_url").set_value("http://127.0.0.1:9/v1").run()  # nothing listens there
    app.text_area(key="brief").set_value(BRIEF).run()
    app.button(key="generate").click().run()
    assert not errors(app)
    notes = [i.value for i in app.info]
    assert any("the model failed" in n and "127.0.0.1:9" in n for n in notes), notes
    assert [c.label for c in app.session_state["ws"].figure.of_kind("node")] == ["Input", "Encoder", "Decoder",
                                                                              "Output"]


def test_unparsable_table_is_a_message(app):
    app.file_uploader(key="table_upload").set_value(("results.csv", b"a,b\n1,2\n3\n4,5,6,7\n", "text/csv")).run()
    msgs = errors(app)
    assert msgs and msgs[0].startswith("This table cannot be used: results.csv")
    assert not app.exception


def test_wrong_table_type_and_oversized_table(app):
    app.file_uploader(key="table_upload").set_value(("notes.pdf", b"%PDF-1.4", "application/pdf")).run()
    assert any(".pdf files cannot be used as a data table" in e for e in errors(app))
    big = b"a,b\n" + b"1,2\n" * (6 * 1024 * 1024)
    app.file_uploader(key="table_upload").set_value(("big.csv", big, "text/csv")).run()
    assert any("may be at most 20.0 MB" in e for e in errors(app))


def test_reference_image_preview_and_bad_image(app):
    buf = io.BytesIO()
    Image.new("RGB", (40, 30), "white").save(buf, "PNG")
    app.file_uploader(key="image_upload").set_value(("sketch.png", buf.getvalue(), "image/png")).run()
    assert not errors(app)
    assert any("sketch.png · 40 × 30 px" in c for img in app.image for c in img.captions)
    app.file_uploader(key="image_upload").set_value(("sketch.png", b"not an image", "image/png")).run()
    assert any("This image cannot be used: sketch.png: not a readable PNG or JPEG" in e for e in errors(app))


@pytest.mark.slow
def test_reference_image_becomes_an_editable_figure(app, pipeline_calls):
    """A PNG given as reference goes to the pipeline, which vectorises it (CraftEditor)."""
    from crafter.spec import parse_dsl

    png = services.export_bytes(parse_dsl('enc node "Encoder"\ndec node "Decoder"\ne1 edge enc -> dec'), ".png",
                                dpi=150)
    app.file_uploader(key="image_upload").set_value(("sketch.png", png, "image/png")).run()
    app.text_area(key="brief").set_value("Make this figure editable").run()
    app.button(key="generate").click().run()
    assert not errors(app) and not app.exception
    assert Path(pipeline_calls[0]["image"]).read_bytes() == png
    labels = [n.label for n in app.session_state["ws"].figure.of_kind("node")]
    assert "Encoder" in labels and "Decoder" in labels
