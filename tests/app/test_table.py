"""The components table: a figure as rows, and cell edits back into a valid figure."""

import pytest

from crafter.errors import SpecError
from crafter.spec import parse_dsl
from crafter.ui.table import COLUMNS, apply_table_edits, components_table

DSL = """figure "Autoencoder"
enc  node "Encoder" shape=round fill=#dbe9f6
z    node "Latent\\nz" shape=circle
dec  node "Decoder"
e1   edge enc -> z "compress"
e2   edge z -> dec
g    group "Model" [enc, z, dec]
n1   text "frozen" near=enc
"""


@pytest.fixture
def fig():
    return parse_dsl(DSL)


def test_rows_show_what_people_see(fig):
    rows = components_table(fig)
    assert [r["id"] for r in rows] == ["enc", "z", "dec", "e1", "e2", "g", "n1"]
    assert set(rows[0]) == set(COLUMNS)
    assert rows[0] == {"id": "enc", "kind": "node", "label": "Encoder", "shape": "round", "fill": "#dbe9f6",
                       "stroke": "", "text_color": ""}
    assert rows[1]["label"] == "Latent\\nz"  # line breaks shown as the DSL writes them
    assert rows[3]["label"] == "compress" and rows[3]["shape"] == ""
    assert rows[6]["label"] == "frozen"  # an annotation's text


def test_edits_rename_recolour_and_keep_the_input(fig):
    before = fig.to_dict()
    edit = apply_table_edits(fig, {"edited_rows": {
        "2": {"label": "Generator"}, 0: {"fill": "steelblue", "text_color": "#ffffff"},
        3: {"stroke": "#ff0000"}, 1: {"label": "Latent\\ncode"}}})
    new = edit.figure
    assert new.get("dec").label == "Generator"
    assert new.get("enc").fill == "steelblue" and new.get("enc").text_color == "#ffffff"
    assert new.get("e1").color == "#ff0000"
    assert new.get("z").label == "Latent\ncode"
    assert edit.changed == ["dec", "enc", "e1", "z"] and edit.text_changed and edit.needs_layout
    assert fig.to_dict() == before


def test_colour_only_edit_needs_no_layout(fig):
    edit = apply_table_edits(fig, {"edited_rows": {0: {"fill": "#eeeeee"}}})
    assert not edit.needs_layout


def test_blank_cell_unsets_the_field(fig):
    edit = apply_table_edits(fig, {"edited_rows": {0: {"fill": ""}, 3: {"label": None}}})
    assert edit.figure.get("enc").fill is None
    assert edit.figure.get("e1").label is None


def test_bad_cells_name_the_component_and_field(fig):
    with pytest.raises(SpecError) as e:
        apply_table_edits(fig, {"edited_rows": {0: {"fill": "blurple"}}})
    assert e.value.component == "enc" and e.value.field == "fill" and "not a colour" in str(e.value)
    with pytest.raises(SpecError, match="an edge has no shape") as e:
        apply_table_edits(fig, {"edited_rows": {3: {"shape": "box"}}})
    assert e.value.component == "e1"
    with pytest.raises(SpecError, match="needs its label"):
        apply_table_edits(fig, {"edited_rows": {6: {"label": " "}}})
    with pytest.raises(SpecError):
        apply_table_edits(fig, {"edited_rows": {0: {"shape": "blob"}}})


def test_nothing_to_do_returns_the_same_figure(fig):
    assert apply_table_edits(fig, {}).figure is fig
    assert apply_table_edits(fig, {"edited_rows": {0: {"label": "Encoder"}}}).figure is fig
    assert apply_table_edits(fig, {"added_rows": [{}]}).figure is fig  # an empty new row


def test_delete_cascades_to_edges_members_and_annotations(fig):
    edit = apply_table_edits(fig, {"deleted_rows": [0]})
    ids = [c.id for c in edit.figure.components]
    assert "enc" not in ids and "e1" not in ids and "n1" not in ids
    assert edit.figure.get("g").members == ["z", "dec"]
    assert edit.removed == ["enc", "e1", "n1"]


def test_added_rows_become_nodes_with_ids_from_labels(fig):
    edit = apply_table_edits(fig, {"added_rows": [{"label": "Encoder", "shape": "hexagon"}, {"label": "2nd stage"}]})
    new = edit.figure.components[-2:]
    assert [c.id for c in new] == ["encoder", "n_2nd_stage"]
    assert new[0].kind == "node" and new[0].shape == "hexagon"
    assert edit.added == ["encoder", "n_2nd_stage"]


def test_deleting_everything_is_refused(fig):
    with pytest.raises(SpecError, match="at least one component"):
        apply_table_edits(fig, {"deleted_rows": list(range(len(fig.components)))})


def test_a_renamed_label_drops_the_spacing_fitted_to_its_old_text():
    """CraftEditor sets a label as wide as its ink with letter spacing; typed anew, the text is set plainly."""
    fig = parse_dsl('figure "x"\na node "Encoder" letter_spacing=2.5\nb node "Decoder" letter_spacing=1.5\n')
    edited = apply_table_edits(fig, {"edited_rows": {0: {"label": "Transformer encoder"}, 1: {"fill": "#eeeeee"}}})
    a, b = edited.figure.components
    assert a.label == "Transformer encoder" and a.letter_spacing is None
    assert b.letter_spacing == 1.5  # another cell leaves it as fitted
