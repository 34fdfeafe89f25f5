"""Edit tab: components table → re-render at once, instruction box, DSL editor, undo/redo."""

from app_helpers import current_svg, errors, open_dsl


def edit_table(at, **delta):
    """Type into the components table (what st.data_editor stores under its key)."""
    key = f"table_{at.session_state['ws'].version}"
    at.session_state[key] = {"edited_rows": {}, "added_rows": [], "deleted_rows": [], **delta}
    at.run()
    assert not at.exception, at.exception


def test_nothing_to_edit_yet(app):
    assert any("Nothing to edit yet" in h.value for h in app.html)


def test_table_lists_components(app):
    open_dsl(app)
    editor = app.data_editor[0]
    assert editor.editing_mode == "dynamic"
    assert list(editor.value["id"]) == ["enc", "dec", "e1"]
    assert list(editor.value["label"]) == ["Encoder", "Decoder", "latent"]


def test_rename_in_table_redraws_at_once(app):
    open_dsl(app)
    edit_table(app, edited_rows={1: {"label": "Generator"}})
    assert not errors(app)
    fig = app.session_state["ws"].figure
    assert fig.get("dec").label == "Generator"
    assert ">Generator<" in current_svg(app)
    assert list(app.data_editor[0].value["label"])[1] == "Generator"  # the table shows the new figure
    assert any("Last change: table: edited dec" in c.value for c in app.caption)


def test_bad_colour_is_a_message_and_changes_nothing(app):
    open_dsl(app)
    before = current_svg(app)
    edit_table(app, edited_rows={0: {"fill": "blurple"}})
    assert any("Not applied: component 'enc' field 'fill': 'blurple' is not a colour" in e for e in errors(app))
    assert current_svg(app) == before


def test_add_and_delete_rows(app):
    open_dsl(app)
    edit_table(app, added_rows=[{"label": "Critic", "shape": "hexagon"}])
    assert app.session_state["ws"].figure.get("critic").shape == "hexagon"
    ids = list(app.data_editor[0].value["id"])
    edit_table(app, deleted_rows=[ids.index("enc")])
    fig = app.session_state["ws"].figure
    assert [c.id for c in fig.components] == ["dec", "critic"]  # the edge to enc went with it


def test_undo_and_redo(app):
    open_dsl(app)
    edit_table(app, edited_rows={1: {"label": "Generator"}})
    app.button(key="undo").click().run()
    assert app.session_state["ws"].figure.get("dec").label == "Decoder"
    assert ">Decoder<" in current_svg(app)
    app.button(key="redo").click().run()
    assert app.session_state["ws"].figure.get("dec").label == "Generator"


def test_dsl_editor_applies_text(app):
    open_dsl(app)
    ws = app.session_state["ws"]
    key = f"dsl_{ws.version}_0"
    text = app.text_area(key=key).value
    assert 'enc node "Encoder"' in text and "box=" not in text  # no coordinates by default
    app.text_area(key=key).set_value(text.replace('"Decoder"', '"Decoder" fill=#CDEBE1')).run()
    app.button(key="apply_dsl").click().run()
    assert not errors(app)
    assert app.session_state["ws"].figure.get("dec").fill == "#CDEBE1"


def test_dsl_error_is_shown_at_its_line(app):
    open_dsl(app)
    key = f"dsl_{app.session_state['ws'].version}_0"
    bad = 'figure "T"\na node "A"\nb nod "B"\n'
    app.text_area(key=key).set_value(bad).run()
    app.button(key="apply_dsl").click().run()
    msgs = errors(app)
    assert msgs and msgs[0].startswith("Line 3, column 3")
    code = [c.value for c in app.code]
    assert any('   3 | b nod "B"\n     |   ^' in c for c in code)
    assert app.text_area(key=key).value == bad  # the user's text is kept
    assert app.session_state["ws"].figure.get("enc")  # the figure is unchanged


def test_instruction_runs_a_local_edit(app, pipeline_calls):
    open_dsl(app)
    app.text_input(key="instruction").set_value("make the encoder blue and rename Decoder to Generator").run()
    app.button(key="apply_instruction").click().run()
    assert not errors(app)
    assert pipeline_calls[-1]["fn"] == "iter_edit" and pipeline_calls[-1]["backend"] == "none"
    fig = app.session_state["ws"].figure
    assert fig.get("enc").fill == "blue" and fig.get("dec").label == "Generator"
    assert any(s.value.startswith("Changed: 'Encoder' filled blue (enc)") for s in app.success)
    assert app.text_input(key="instruction").value.startswith("make the encoder blue")
    app.button(key="undo").click().run()
    assert app.session_state["ws"].figure.get("dec").label == "Decoder"


def test_instruction_that_changes_nothing_says_so(app):
    open_dsl(app)
    version = app.session_state["ws"].version
    app.text_input(key="instruction").set_value("add a dashed box").run()
    app.button(key="apply_instruction").click().run()
    assert any(w.value.startswith("Nothing was changed.") for w in app.warning)
    assert app.session_state["ws"].version == version


def test_instruction_failure_keeps_the_figure(app, monkeypatch):
    from crafter.errors import CrafterError
    from crafter.ui import services

    def broken(*a, **k):
        raise CrafterError("the model server at http://127.0.0.1:9 is unreachable")

    monkeypatch.setattr(services, "edit", broken)
    open_dsl(app)
    before = current_svg(app)
    app.text_input(key="instruction").set_value("make it nicer").run()
    app.button(key="apply_instruction").click().run()
    assert any("Applying the instruction failed: the model server" in e for e in errors(app))
    assert current_svg(app) == before


def test_title_is_editable_and_names_the_exports(app, downloads):
    open_dsl(app)
    key = f"title_{app.session_state['ws'].version}"
    assert app.text_input(key=key).value == "Encoder decoder"
    app.text_input(key=key).set_value("Figure 2: our method").run()
    assert not errors(app)
    assert app.session_state["ws"].figure.title == "Figure 2: our method"
    assert ">Figure 2: our method<" in current_svg(app)
    assert downloads["export_.svg"][0] == "figure-2-our-method.svg"


def test_user_text_in_messages_is_not_markdown(app):
    """Ids with underscores and labels with $ or <tags> are shown as written, not formatted."""
    open_dsl(app, 'figure "T"\nuser_query node "Costs $5 <b>bold</b>"\n')
    edit_table(app, edited_rows={0: {"fill": "not_a_colour"}})
    msg = errors(app)[0]
    assert r"component 'user\_query' field 'fill': 'not\_a\_colour' is not a colour" in msg
