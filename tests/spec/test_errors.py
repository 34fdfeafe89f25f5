"""Bad figures get a specific message naming line, column, component and field."""

from __future__ import annotations

import pytest

from crafter.errors import DSLSyntaxError, SpecError
from crafter.spec import Figure, parse_dsl


def error_of(text: str) -> SpecError:
    with pytest.raises(SpecError) as info:
        parse_dsl(text, file="fig.dsl")
    return info.value


def test_syntax_error_says_found_and_expected() -> None:
    e = error_of('a node "A"\nb node "B" fill\n')
    assert isinstance(e, DSLSyntaxError)
    assert (e.line, e.component) == (2, "b")
    assert "found end of line, expected '=' after attribute name 'fill'" in str(e)
    assert str(e).startswith("fig.dsl, line 2")


def test_unterminated_string() -> None:
    e = error_of('a node "Encoder\n')
    assert e.line == 1 and e.column == 8 and "unterminated string" in str(e)


def test_unknown_kind() -> None:
    e = error_of('a nod "A"')
    assert e.field == "kind" and "unknown kind 'nod'" in str(e) and "node, edge, group" in str(e)


def test_unknown_attribute_lists_allowed() -> None:
    e = error_of('a node "A" colour=red')
    assert (e.component, e.field, e.line, e.column) == ("a", "colour", 1, 19)
    assert "expected one of" in str(e) and "fill" in str(e)


def test_bad_value() -> None:
    e = error_of('a node "A" shape=triangle')
    assert e.field == "shape" and "box" in str(e)
    e = error_of('a node "A" fill=blurple')
    assert e.field == "fill" and "not a colour" in str(e)


def test_duplicate_id_points_at_second_statement() -> None:
    e = error_of('a node "A"\nb node\na node "again"')
    assert (e.component, e.field, e.line) == ("a", "id", 3)


def test_edge_to_missing_node() -> None:
    e = error_of('a node\ne1 edge a -> ghost')
    assert (e.component, e.field, e.line) == ("e1", "target", 2)
    assert "ghost" in str(e)


def test_group_cycle() -> None:
    e = error_of('a node\ng group [h, a]\nh group [g]')
    assert "cycle" in str(e)


def test_member_in_two_groups() -> None:
    e = error_of('a node\ng group [a]\nh group [a]')
    assert "already in 'g'" in str(e)


def test_invalid_id() -> None:
    e = error_of('9lives node "x"')
    assert "valid id" in str(e)


def test_json_errors_name_component_and_field() -> None:
    with pytest.raises(SpecError) as info:
        Figure.from_dict({"components": [{"id": "a", "kind": "node", "shape": "blob"}]}, file="f.json")
    assert info.value.component == "a" and info.value.field == "shape"
    with pytest.raises(SpecError) as info:
        Figure.from_dict({"components": [{"id": "a", "kind": "widget"}]})
    assert "unknown kind 'widget'" in str(info.value)
    with pytest.raises(SpecError):
        Figure.from_dict([1, 2])


def test_image_rejects_external_references() -> None:
    with pytest.raises(SpecError) as info:
        Figure.from_dict({"components": [{"id": "i", "kind": "image", "href": "http://evil.example/x.png"}]})
    assert info.value.field == "href"


def test_path_rejects_markup() -> None:
    with pytest.raises(SpecError):
        Figure.from_dict({"components": [{"id": "p", "kind": "path", "d": "M0 0\"/><script>"}]})


def test_large_figure_parses_quickly_enough() -> None:
    lines = [f"n{i} node \"Node {i}\"" for i in range(5000)]
    lines += [f"e{i} edge n{i} -> n{i + 1}" for i in range(4999)]
    fig = parse_dsl("\n".join(lines))
    assert len(fig.components) == 9999
