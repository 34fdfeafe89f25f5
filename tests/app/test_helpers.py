"""Workspace (undo/redo), upload checks, settings and small service helpers."""

import io

import pytest
from PIL import Image

from crafter.errors import InputError
from crafter.spec import parse_dsl
from crafter.ui import edits, services
from crafter.ui.progress import ProgressLog, issue_line
from crafter.ui.settings import Settings, SettingsError
from crafter.ui.uploads import MAX_IMAGE_PIXELS, check_image, check_upload
from crafter.ui.workspace import HISTORY_LIMIT, Workspace


def fake_render(fig, relayout=False):
    return fig, f"<svg>{len(fig.components)}</svg>"


def test_workspace_undo_redo():
    w = Workspace()
    a, b, c = (parse_dsl(f'x node "{n}"') for n in "ABC")
    w.commit(a, "a", render=fake_render)
    w.commit(b, "b", render=fake_render)
    assert w.figure is b and w.version == 2 and w.history() == ["a", "b"]
    assert w.undo() and w.figure is a
    assert not w.undo()  # nothing before the first figure
    assert w.redo() and w.figure is b
    w.undo()
    w.commit(c, "c", render=fake_render)
    assert not w.redo_stack  # a new change drops what was undone
    assert w.history() == ["a", "c"]


def test_workspace_keeps_the_figure_when_rendering_fails():
    w = Workspace()
    a = parse_dsl('x node "A"')
    w.commit(a, "a", render=fake_render)

    def broken(fig, relayout=False):
        raise RuntimeError("cannot draw")

    with pytest.raises(RuntimeError):
        w.commit(parse_dsl('y node "B"'), "b", render=broken)
    assert w.figure is a and w.version == 1 and not w.undo_stack


def test_workspace_history_is_bounded():
    w = Workspace()
    for i in range(HISTORY_LIMIT + 10):
        w.commit(parse_dsl(f'n{i} node "x"'), str(i), render=fake_render)
    assert len(w.undo_stack) == HISTORY_LIMIT


def test_upload_checks():
    assert check_upload("r.CSV", 10, kinds=("csv",), max_bytes=100, what="a table") == "csv"
    with pytest.raises(InputError, match=r"\.exe files cannot be used as a table; upload one of: \.csv"):
        check_upload("x.exe", 10, kinds=("csv",), max_bytes=100, what="a table")
    with pytest.raises(InputError, match="at most"):
        check_upload("big.csv", 101, kinds=("csv",), max_bytes=100, what="a table")
    with pytest.raises(InputError, match="empty"):
        check_upload("e.csv", 0, kinds=("csv",), max_bytes=100, what="a table")


def _png(w=20, h=10, fmt="PNG"):
    buf = io.BytesIO()
    Image.new("RGB", (w, h), "white").save(buf, fmt)
    return buf.getvalue()


def test_image_checks():
    assert check_image("a.png", _png()) == (20, 10)
    assert check_image("a.jpg", _png(fmt="JPEG")) == (20, 10)
    with pytest.raises(InputError, match="not a readable PNG or JPEG"):
        check_image("fake.png", b"hello, I am text")
    with pytest.raises(InputError, match="GIF image, not PNG or JPEG"):
        check_image("a.png", _png(fmt="GIF"))
    with pytest.raises(InputError, match="million pixels"):
        check_image("huge.png", _png(w=MAX_IMAGE_PIXELS // 1000 + 1, h=1000))


def test_settings_backend_strings(tmp_path):
    assert Settings().backend_string() == "craftlm"
    assert Settings(backend="none").backend_string() == "none"
    assert Settings(backend="hf", hf_path=str(tmp_path)).backend_string() == f"hf:{tmp_path}"
    assert Settings(backend="openai", openai_url="http://h:8000/v1").backend_string() == "openai:http://h:8000/v1"
    with pytest.raises(SettingsError, match="does not exist"):
        Settings(backend="hf", hf_path=str(tmp_path / "nope")).backend_string()
    with pytest.raises(SettingsError, match="give the folder"):
        Settings(backend="hf").backend_string()
    with pytest.raises(SettingsError, match="not a server URL"):
        Settings(backend="openai", openai_url="localhost:8000").backend_string()
    assert Settings(column="single").width_in == 3.3


def test_file_stem_from_title():
    assert services.file_stem("Method overview (v2)") == "method-overview-v2"
    assert services.file_stem(None) == "figure"
    assert services.file_stem("  ") == "figure"
    assert services.file_stem("../../etc/passwd") == "etc-passwd"
    assert services.file_stem("Débruitage — étape 1") == "débruitage-étape-1"


def test_svgs_zip_names_are_unique():
    import zipfile

    data = services.svgs_zip([("a.png", "<svg/>"), ("a.jpg", "<svg/>"), ("My Fig.png", "<svg/>")])
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert names == ["a.svg", "a-2.svg", "my-fig.svg"]


def test_progress_log_words_pipeline_events():
    from crafter.graph.pipeline import PipelineEvent as E

    log = ProgressLog()
    for ev in [E("start", node="run"), E("start", node="ingest"), E("done", node="ingest"), E("start", node="plan")]:
        log.feed(ev)
    assert log.label == "Planning the figure…"
    for ev in [E("model", node="plan", tokens_per_s=812.4, tokens_per_forward=5.3, message="1 call(s), 96 tokens"),
               E("done", node="plan"), E("done", node="critique", issues_left=2), E("done", node="critique"),
               E("done", node="repair", round=1), E("done", node="repair", round=1),
               E("warning", node="repair", message="the model failed; rules stood in"),
               E("done", node="critique", round=1, issues_left=0), E("finished", issues_left=0)]:
        log.feed(ev)
    assert log.lines == [
        "✓ Read the inputs",
        "↳ model: 1 call(s), 96 tokens, 812 tokens/s, 5.3 tokens per forward",
        "✓ Planned the figure",
        "✓ Checked the figure — 2 issues left",
        "✓ Repair round 1: 2 components repaired",
        "⚠️ the model failed; rules stood in",
        "✓ Checked the figure (round 1) — no issues left",
    ]
    assert log.label == "Done: no issues left" and log.finished and not log.failed
    assert log.warnings == ["the model failed; rules stood in"]
    log.feed(E("failed", message="the table has a ragged row"))
    assert log.failed and log.label == "Stopped: the table has a ragged row"


def test_issue_line():
    line = issue_line({"code": "overlap", "severity": "error", "component_ids": ["a", "b"], "message": "a overlaps b"})
    assert line == "error · overlap · a, b: a overlaps b"


def test_opening_figure_files():
    fig = services.open_figure_bytes(b'figure "T"\na node "A"\n', "f.dsl").figure
    assert fig.title == "T"
    assert services.open_figure_bytes(fig.to_json().encode(), "f.json").figure == fig
    with pytest.raises(InputError, match="not UTF-8"):
        services.open_figure_bytes(b"\xff\xfe\x00bad", "f.dsl")
    with pytest.raises(Exception, match="line 2"):
        services.open_figure_bytes(b'a node "A"\nb nod "B"\n', "f.dsl")


def test_geometry_is_stripped_for_the_dsl_editor():
    fig = parse_dsl('a node "A" box=0,0,50,20\nb node "B" box=80,0,50,20 pinned=true\ne edge a -> b route=50,10;80,10')
    bare = edits.figure_without_geometry(fig)
    assert bare.get("a").box is None and bare.get("e").route is None
    assert bare.get("b").box is not None  # the user pinned it
    assert edits.has_geometry(fig) and edits.has_geometry(bare)


def test_recovered_components_are_counted_in_plain_english():
    from crafter.ui.services import score_lines

    assert dict(score_lines({"components": {"chart": 2, "node": 1, "text": 3}}))["Components"] == \
        "2 charts, 1 node, 3 texts"
