"""Create tab: brief, table, reference image, Generate with live steps, the figure inline."""

import io

from PIL import Image

from conftest import errors


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


def test_generate_shows_steps_and_the_figure(app, fake_pipeline, downloads):
    app.text_area(key="brief").set_value("An encoder and a decoder").run()
    app.button(key="generate").click().run()
    assert not errors(app) and not app.exception
    assert fake_pipeline[0]["brief"] == "An encoder and a decoder"
    assert fake_pipeline[0]["backend"] == "craftlm" and fake_pipeline[0]["rounds"] == 3
    steps = [m.value for m in app.markdown]
    assert "- Planning the figure" in steps and "- Repair round 1 — no issues left" in steps
    figures = [h.value for h in app.html if 'data-testid="crafter-figure"' in h.value]
    assert figures and "data:image/svg+xml;base64," in figures[0]
    assert "<script" not in figures[0]
    assert {"create_dl_.pdf", "create_dl_.svg", "create_dl_.png"} <= set(downloads)
    assert downloads["create_dl_.pdf"][0] == "encoder-decoder.pdf"


def test_generate_with_the_example_table_passes_the_table(app, fake_pipeline):
    app.button(key="example_two_panel").click().run()
    app.button(key="generate").click().run()
    table = fake_pipeline[0]["table"]
    assert table is not None and table.names == ["model", "dataset", "accuracy"]


def test_empty_brief_asks_for_one(app, fake_pipeline):
    app.button(key="generate").click().run()
    assert not fake_pipeline
    assert any("Write a brief first" in w.value for w in app.warning)


def test_model_failure_is_a_message_and_the_brief_stays(app, fake_pipeline):
    app.text_area(key="brief").set_value("please FAIL now").run()
    app.button(key="generate").click().run()
    assert not app.exception
    assert any("Generation failed: model backend 'craftlm' could not be loaded" in e for e in errors(app))
    assert app.text_area(key="brief").value == "please FAIL now"
    # and the app still works afterwards
    app.text_area(key="brief").set_value("An encoder and a decoder").run()
    app.button(key="generate").click().run()
    assert not errors(app) and app.session_state["ws"].figure is not None


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
