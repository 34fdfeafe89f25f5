"""The app and PowerPoint: the Export tab offers a PPTX, the Open tab takes one back (edits merged)."""

import io

from app_helpers import TWO_NODES, data_of, errors, open_dsl
from pptx import Presentation

from crafter.spec import parse_dsl
from crafter.ui import services


def test_open_a_crafter_pptx_edited_in_powerpoint(app):
    laid, _ = services.render(parse_dsl(TWO_NODES))
    prs = Presentation(io.BytesIO(services.export_bytes(laid, ".pptx")))
    shape = next(s for s in prs.slides[0].shapes if s.name == "enc")
    shape.text_frame.paragraphs[0].runs[0].text = "Vision encoder"
    out = io.BytesIO()
    prs.save(out)
    app.file_uploader(key="open_upload").set_value(
        ("fig.pptx", out.getvalue(), "application/vnd.openxmlformats-officedocument.presentationml.presentation"))
    app.run()
    assert not errors(app)
    assert app.session_state["ws"].figure.get("enc").label == "Vision encoder"
    assert any("label changed to 'Vision encoder'" in i.value for i in app.info)


def test_open_refuses_a_pptx_that_is_not_one(app):
    app.file_uploader(key="open_upload").set_value(("talk.pptx", b"not a zip at all", "application/octet-stream"))
    app.run()
    assert any("Could not open it: talk.pptx: not a PowerPoint file" in e for e in errors(app))
    assert not app.exception


def test_export_offers_powerpoint(app, downloads):
    open_dsl(app)
    app.run()
    name, data = downloads["export_.pptx"]
    assert name.endswith(".pptx")
    assert data_of(downloads["export_.pptx"])[:2] == b"PK"
