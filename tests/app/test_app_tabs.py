"""Open, Export, Vectorize, Runs and Settings tabs: main flows and their error messages."""

import io
import zipfile

import pytest
from app_helpers import TWO_NODES, data_of, errors, open_dsl
from PIL import Image

# -- Open -------------------------------------------------------------------------------


def test_open_a_crafter_svg_edited_elsewhere(app):
    """A Crafter SVG whose label was retyped in Inkscape comes back with the new label."""
    from crafter.spec import parse_dsl
    from crafter.ui import services

    laid, svg = services.render(parse_dsl(TWO_NODES))
    assert ">Encoder<" in svg
    edited = svg.replace(">Encoder<", ">Vision encoder<")
    app.file_uploader(key="open_upload").set_value(("fig.svg", edited.encode(), "image/svg+xml")).run()
    assert not errors(app)
    assert app.session_state["ws"].figure.get("enc").label == "Vision encoder"
    assert any("Opened **fig.svg**" in s.value for s in app.success)
    assert app.session_state["tab"].endswith("Edit")  # the user is taken to where they can change it


def test_open_a_foreign_svg_sanitised(app):
    svg = (b'<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50"><script>alert(1)</script>'
           b'<rect x="5" y="5" width="40" height="20" fill="red" onclick="steal()"/>'
           b'<text x="10" y="40">Hello</text></svg>')
    app.file_uploader(key="open_upload").set_value(("logo.svg", svg, "image/svg+xml")).run()
    assert not errors(app)
    notes = [i.value for i in app.info]
    assert any("not a Crafter SVG" in n for n in notes)
    assert any("removed: \\<script\\> element" in n for n in notes)
    fig = app.session_state["ws"].figure
    assert "Hello" in [c.text for c in fig.of_kind("text")]
    assert "<script" not in app.session_state["ws"].svg and "steal" not in app.session_state["ws"].svg


def test_open_refuses_empty_svg_bad_dsl_and_wrong_types(app):
    app.file_uploader(key="open_upload").set_value(
        ("logo.svg", b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', "image/svg+xml"))
    app.run()
    assert any("Could not open it: logo.svg: the SVG draws nothing Crafter can import" in e for e in errors(app))
    app.file_uploader(key="open_upload").set_value(("fig.dsl", b'a node "A"\nb nod "B"\n', "text/plain")).run()
    assert any("Could not open it: fig.dsl, line 2, column 3" in e for e in errors(app))
    app.file_uploader(key="open_upload").set_value(("photo.gif", b"GIF89a", "image/gif")).run()
    assert any(".gif files cannot be used as a figure" in e for e in errors(app))
    app.file_uploader(key="open_upload").set_value(
        ("bomb.svg", b'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>'
                     b'<svg xmlns="http://www.w3.org/2000/svg"><text>&b;</text></svg>', "image/svg+xml")).run()
    assert any("Could not open it: bomb.svg: the SVG draws nothing" in e for e in errors(app))  # entities dropped
    assert app.session_state["ws"].figure is None and not app.exception


def test_open_an_example(app):
    app.button(key="open_example_btn").click().run()
    assert not errors(app)
    assert app.session_state["ws"].figure is not None


# -- Export -----------------------------------------------------------------------------


def test_export_offers_every_registered_format_named_after_the_title(app, downloads):
    from crafter.ui import services

    open_dsl(app)
    app.run()  # draw the Export tab with the recorder in place
    suffixes = [f.suffix for f in services.export_formats()]
    assert suffixes[:3] == [".svg", ".pdf", ".png"]
    assert {".tex", ".drawio"} <= set(suffixes)  # formats other areas register are offered too
    for s in suffixes:
        name, _ = downloads[f"export_{s}"]
        assert name == "encoder-decoder" + s
    assert data_of(downloads["export_.svg"]).startswith(b"<svg") or b"<svg" in data_of(downloads["export_.svg"])[:300]
    pdf = data_of(downloads["export_.pdf"])
    assert pdf.startswith(b"%PDF")
    png = data_of(downloads["export_.png"])
    assert png.startswith(b"\x89PNG")


def test_export_file_name_can_be_changed(app, downloads):
    open_dsl(app)
    app.text_input(key="export_name_encoder-decoder").set_value("Figure 3 (final)").run()
    assert downloads["export_.pdf"][0] == "figure-3-final.pdf"


def test_export_png_resolution(app, downloads):
    open_dsl(app)
    app.select_slider(key="export_dpi").set_value(150).run()
    small = Image.open(io.BytesIO(data_of(downloads["export_.png"])))
    app.select_slider(key="export_dpi").set_value(600).run()
    big = Image.open(io.BytesIO(data_of(downloads["export_.png"])))
    assert big.size[0] == 4 * small.size[0] or abs(big.size[0] - 4 * small.size[0]) <= 4


# -- Vectorize --------------------------------------------------------------------------


def _png_bytes(color="white"):
    buf = io.BytesIO()
    Image.new("RGB", (60, 40), color).save(buf, "PNG")
    return buf.getvalue()


def test_vectorize_many_files_with_a_bad_one(app, monkeypatch, downloads):
    from crafter.spec import parse_dsl
    from crafter.ui import services

    def fake_vectorize(data, name):
        laid, svg = services.render(parse_dsl(f'box node "{name}"'))
        return services.Vectorized(name=name, figure=laid, svg=svg, scores={
            "ssim": 0.97, "editability": 0.9, "components": {"node": 1}})

    monkeypatch.setattr(services, "vectorize", fake_vectorize)
    app.file_uploader(key="vectorize_upload").set_value([
        ("a.png", _png_bytes(), "image/png"), ("broken.png", b"nope", "image/png"),
        ("b.jpg", _png_bytes("gray"), "image/jpeg")]).run()
    app.button(key="vectorize").click().run()
    assert not app.exception
    assert any("Not converted: broken.png: not a readable PNG or JPEG" in e for e in errors(app))
    assert [(m.label, m.value) for m in app.metric][:2] == [("Similarity (SSIM)", "0.970"), ("Editability", "90%")]
    assert any(c.value == "Recovered: 1 node" for c in app.caption)
    z = zipfile.ZipFile(io.BytesIO(data_of(downloads["vectorize_zip"])))
    assert z.namelist() == ["a.svg", "b.svg"]
    app.button(key="vec_edit_0").click().run()
    assert app.session_state["ws"].figure.get("box").label == "a.png"


def test_vectorize_shows_how_sure_the_reading_is(app, monkeypatch):
    """Text kept as text can be misread text: the share of words read surely, and the unsure
    words listed for the user to check (a malformed entry is left out, not an error)."""
    from crafter.spec import parse_dsl
    from crafter.ui import services

    def fake_vectorize(data, name):
        laid, svg = services.render(parse_dsl('box node "Embedded"'))
        return services.Vectorized(name=name, figure=laid, svg=svg, scores={
            "ssim": 0.9, "text_as_text": 1.0, "text_confidence": 0.5, "unsure_words": [
                {"text": "Embcddcd", "score": 0.41, "box": [10, 10, 30, 12]}, {"text": "x", "box": "?"},
                {"text": "Returmns", "score": 0.93, "box": [40, 10, 30, 12], "maybe": "returns"},
                {"text": "T*1", "score": 0.2, "box": [5, 20, 10, 10]}]})

    monkeypatch.setattr(services, "vectorize", fake_vectorize)
    app.file_uploader(key="vectorize_upload").set_value([("a.png", _png_bytes(), "image/png")]).run()
    app.button(key="vectorize").click().run()
    assert not app.exception and not errors(app)
    shown = {m.label: m.value for m in app.metric}
    assert shown["Text kept as text"] == "100%" and shown["Words read surely"] == "50%"
    warning = app.warning[0].value
    assert "unsure of 3 words" in warning and warning.index("T\\*1") < warning.index("Embcddcd")  # least sure first
    assert "«Returmns» (93%, maybe «returns»)" in warning  # a sure score, but one slip from a known word


def test_vectorize_without_reading_confidence_shows_no_such_score_but_the_time_budget(app, monkeypatch):
    from crafter.spec import parse_dsl
    from crafter.ui import services

    def fake_vectorize(data, name):
        laid, svg = services.render(parse_dsl('box node "A"'))
        return services.Vectorized(name=name, figure=laid, svg=svg, scores={"ssim": 0.9, "text_as_text": 1.0,
                                                                            "over_budget": ["shapes", "lines"]})

    monkeypatch.setattr(services, "vectorize", fake_vectorize)
    app.file_uploader(key="vectorize_upload").set_value([("a.png", _png_bytes(), "image/png")]).run()
    app.button(key="vectorize").click().run()
    assert not app.exception and "Words read surely" not in {m.label for m in app.metric} and not app.warning
    assert "reached its time budget: shapes, lines skipped" in app.info[0].value  # and says what that means


@pytest.mark.slow
def test_vectorize_a_real_png_with_craftEditor(app):
    """CraftEditor reads back a figure Crafter rendered: its labels come back as editable text."""
    from crafter.spec import parse_dsl
    from crafter.ui import services

    png = services.export_bytes(parse_dsl(TWO_NODES), ".png", dpi=150)
    app.file_uploader(key="vectorize_upload").set_value([("encoder.png", png, "image/png")]).run()
    app.button(key="vectorize").click().run()
    assert not errors(app) and not app.exception
    assert app.metric[0].label == "Similarity (SSIM)"
    app.button(key="vec_edit_0").click().run()
    labels = {getattr(c, "label", None) or getattr(c, "text", None) for c in app.session_state["ws"].figure.components}
    assert {"Encoder", "Decoder"} <= labels


def test_vectorize_without_craftEditor_is_a_message(app, monkeypatch):
    from crafter.ui import services

    def missing(data, name):
        raise services.FeatureUnavailable("CraftEditor (Vectorize) is not available in this installation")

    monkeypatch.setattr(services, "vectorize", missing)
    app.file_uploader(key="vectorize_upload").set_value([("a.png", _png_bytes(), "image/png")]).run()
    app.button(key="vectorize").click().run()
    assert any("CraftEditor (Vectorize) is not available" in e for e in errors(app))


# -- Runs -------------------------------------------------------------------------------


def test_runs_are_listed_and_reopened(app):
    for brief in ("A pipeline: Input → Encoder → Output.", "A loop: Actor → Critic → Actor."):
        app.text_area(key="brief").set_value(brief).run()
        app.button(key="generate").click().run()
    first, second = app.session_state["ws"].history()[-2:]
    table = app.dataframe[-1].value
    assert list(table["brief / instruction"]) == ["A loop: Actor → Critic → Actor.",
                                                    "A pipeline: Input → Encoder → Output."]
    assert list(table["status"]) == ["done", "done"]
    older = list(table["run"])[1]
    app.selectbox(key=f"run_choice_{list(table['run'])[0]}").set_value(older).run()
    app.button(key="reopen_run").click().run()
    assert not errors(app)
    assert [c.label for c in app.session_state["ws"].figure.of_kind("node")] == ["Input", "Encoder", "Output"]
    assert app.session_state["ws"].run_id == older
    assert app.session_state["tab"].endswith("Edit")


def test_runs_tab_when_the_store_cannot_be_read(app, monkeypatch):
    from crafter.ui import services

    def broken(limit=50):
        raise OSError("database disk image is malformed")

    monkeypatch.setattr(services, "list_runs", broken)
    app.run()
    assert any("Past runs cannot be listed: OSError: database disk image is malformed" in e for e in errors(app))


# -- Settings ---------------------------------------------------------------------------


def test_settings_theme_and_width_apply_to_the_figure(app):
    open_dsl(app)
    assert app.button(key="apply_look").disabled is False  # the opened figure has no print width yet
    app.selectbox(key="set_theme").set_value("slides").run()
    app.radio(key="set_column").set_value("single").run()
    fig = app.session_state["ws"].figure
    assert fig.theme == "paper" and fig.width_in is None  # choosing is not applying
    app.button(key="apply_look").click().run()
    fig = app.session_state["ws"].figure
    assert fig.theme == "slides" and fig.width_in == 3.3
    assert app.button(key="apply_look").disabled
    app.button(key="undo").click().run()
    assert app.session_state["ws"].figure.theme == "paper"


def test_settings_backend_choice_reaches_the_pipeline(app, pipeline_calls, tmp_path):
    app.radio(key="set_backend").set_value("hf").run()
    app.text_input(key="set_hf_path").set_value(str(tmp_path / "missing")).run()
    assert any("does not exist" in w.value for w in app.warning)
    app.text_area(key="brief").set_value("A pipeline: Input → Output.").run()
    app.button(key="generate").click().run()
    assert not pipeline_calls and any("does not exist" in e for e in errors(app))
    app.radio(key="set_backend").set_value("none").run()
    app.slider(key="set_rounds").set_value(1).run()
    app.button(key="generate").click().run()
    assert pipeline_calls[-1]["backend"] == "none" and pipeline_calls[-1]["rounds"] == 1


def test_backend_preset_from_the_environment(monkeypatch):
    from app_helpers import APP, APP_TIMEOUT
    from streamlit.testing.v1 import AppTest

    monkeypatch.setenv("CRAFTER_BACKEND", "openai:http://gpu-box:8000/v1")
    at = AppTest.from_file(str(APP), default_timeout=APP_TIMEOUT).run()
    assert at.radio(key="set_backend").value == "openai"
    assert at.text_input(key="set_openai_url").value == "http://gpu-box:8000/v1"


def test_a_transparent_original_is_shown_on_its_page_with_the_unsure_words_boxed():
    """A TikZ export is transparent over whatever colour its pixels hide: the boxed original shows it on white
    (on dark grey where its ink is light), not on that hidden colour."""
    from crafter.ui import services
    from crafter.ui.tabs.vectorize import ORANGE, marked

    im = Image.new("RGBA", (80, 40), (0, 100, 0, 0))  # transparent, hiding a dark green
    for x in range(30, 50):
        im.putpixel((x, 20), (0, 0, 0, 255))  # a stroke of black ink
    buf = io.BytesIO()
    im.save(buf, "PNG")
    unsure = [services.UnsureWord(text="x", score=0.5, box=(28.0, 16.0, 24.0, 8.0))]
    out = Image.open(io.BytesIO(marked(buf.getvalue(), unsure))).convert("RGB")
    assert out.getpixel((5, 35)) == (255, 255, 255) and out.getpixel((40, 20)) == (0, 0, 0)
    assert ORANGE in {out.getpixel((x, 14)) for x in range(24, 56)}  # the unsure word's box
    light = Image.new("RGBA", (80, 40), (0, 0, 0, 0))
    for x in range(30, 50):
        light.putpixel((x, 20), (250, 250, 250, 255))  # light ink, drawn for a dark page
    buf = io.BytesIO()
    light.save(buf, "PNG")
    assert Image.open(io.BytesIO(marked(buf.getvalue(), unsure))).convert("RGB").getpixel((5, 35)) == (34, 34, 34)
