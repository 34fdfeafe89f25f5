"""No figures, unreadable ones, figures that disagree, a style file edited into nonsense: a clear
message naming the file or field, never a silently ignored field."""

from __future__ import annotations

import json

import pytest

from crafter.errors import InputError, SpecError
from crafter.style import learn_from_files, load_style, resolve_style, style_layer


def test_no_figures_is_an_error() -> None:
    with pytest.raises(InputError, match="no figures given"):
        learn_from_files([], "x")


def test_unreadable_figures_are_named_and_the_rest_go_on(svg_sets, tmp_path) -> None:
    broken = tmp_path / "broken.svg"
    broken.write_text("<svg><g>", encoding="utf-8")
    text = tmp_path / "notes.txt"
    text.write_text("hello", encoding="utf-8")
    style = learn_from_files([broken, svg_sets["paper"][0], text, tmp_path / "missing.png"], "x")
    assert [u["file"] for u in style["unreadable"]] == [str(broken), str(text), str(tmp_path / "missing.png")]
    assert "no such file" in style["unreadable"][2]["reason"]
    assert len(style["learned_from"]) == 1


def test_all_unreadable_names_each(tmp_path) -> None:
    with pytest.raises(InputError, match="none of the 2 figures could be read.*a.pdf.*b.png"):
        learn_from_files([tmp_path / "a.pdf", tmp_path / "b.png"], "x")


def test_a_raster_without_a_vectoriser_says_what_is_missing(tmp_path) -> None:
    png = tmp_path / "fig.png"
    png.write_bytes(b"\x89PNG\r\n\x1a\n")
    with pytest.raises(InputError, match="CraftEditor"):
        learn_from_files([png], "x")


def test_figures_that_disagree_are_a_mixed_style(svg_sets) -> None:
    paper, mono = svg_sets["paper"], svg_sets["mono"]
    style = learn_from_files(paper[:3] + mono[:2], "mixed")
    mixed = {m["field"]: m for m in style["mixed"]}
    assert "palette.node_stroke" in mixed
    m = mixed["palette.node_stroke"]
    assert m["majority"] == "#4A5568"  # paper's, three figures to two
    assert sorted(m["others"][0]["files"]) == sorted(str(p) for p in mono[:2])
    assert style["palette"]["node_stroke"]["value"] == "#4A5568"
    assert style["palette"]["node_stroke"]["others"][0]["value"] == "#000000"


def _edited(tmp_path, svg_sets, change) -> str:
    style = learn_from_files(svg_sets["lab"][:2], "lab")
    change(style)
    p = tmp_path / "lab.style.json"
    p.write_text(json.dumps(style), encoding="utf-8")
    return str(p)


@pytest.mark.parametrize("change,field", [
    (lambda s: s["sizes"]["label"].update(value="big"), "sizes.label.value"),
    (lambda s: s["palette"].update(node_colour={"value": "#FF0000", "confidence": 1, "count": 1}), "palette"),
    (lambda s: s["palette"]["node_fill"].update(value="red; stroke: blue"), "palette.node_fill.value"),
    (lambda s: s["shapes"]["arrowhead"].update(value="harpoon"), "shapes.arrowhead.value"),
    (lambda s: s.update(version=7), "version"),
])
def test_a_style_edited_into_nonsense_names_the_field(tmp_path, svg_sets, change, field) -> None:
    path = _edited(tmp_path, svg_sets, change)
    with pytest.raises(SpecError) as e:
        load_style(path)
    assert e.value.field == field and path in str(e.value)


def test_an_unknown_field_is_named_not_ignored(tmp_path, svg_sets) -> None:
    path = _edited(tmp_path, svg_sets, lambda s: s["palette"].update(node_colour={"value": "#FF0000",
                                                                                    "confidence": 1, "count": 1}))
    with pytest.raises(SpecError, match="node_colour"):
        load_style(path)


def test_a_missing_style_name_lists_what_there_is(tmp_path, monkeypatch, svg_sets) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    with pytest.raises(InputError, match="no style 'nolab'.*no styles there yet"):
        resolve_style("nolab")


def test_a_figure_refuses_a_nonsense_layer() -> None:
    from crafter.spec import Figure

    with pytest.raises(SpecError, match="style.font_size"):
        Figure.from_dict({"style": {"name": "x", "font_size": -3}})
    with pytest.raises(SpecError, match="style.corner_radios"):
        Figure.from_dict({"style": {"name": "x", "corner_radios": 3}})
    assert style_layer({"format": "crafter-style", "version": 1, "name": "empty"}).name == "empty"


def test_a_reader_that_breaks_names_the_file_and_the_rest_go_on(svg_sets, tmp_path) -> None:
    png = tmp_path / "odd.png"
    png.write_bytes(b"\x89PNG\r\n\x1a\n")

    def broken(path: str):
        raise ValueError("could not broadcast")

    style = learn_from_files([png, svg_sets["paper"][0]], "x", vectorizer=broken)
    assert style["unreadable"] == [{"file": str(png), "reason": "internal error: ValueError: could not broadcast"}]
    assert len(style["learned_from"]) == 1
