"""What follows a box moved in Inkscape or PowerPoint, by the rules both merge-backs share
(crafter.formats.merge.notes_follow, edges_follow): a note placed near it moves with it; an edge whose
ends moved alike is carried along, one whose end moved alone is re-routed to the box's new place."""

from __future__ import annotations

from crafter.base.theme import get_theme
from crafter.formats.merge import edges_follow, notes_follow


def _data():
    box = lambda x, y: {"x": x, "y": y, "w": 40.0, "h": 20.0}  # noqa: E731
    return {"a": {"id": "a", "kind": "node", "box": box(0.0, 0.0)},
            "b": {"id": "b", "kind": "node", "box": box(100.0, 0.0)},
            "c": {"id": "c", "kind": "node", "box": box(200.0, 0.0)},
            "n": {"id": "n", "kind": "text", "near": "a", "box": box(0.0, 30.0)},
            "ab": {"id": "ab", "kind": "edge", "source": "a", "target": "b",
                   "route": [{"x": 40.0, "y": 10.0}, {"x": 100.0, "y": 10.0}]},
            "bc": {"id": "bc", "kind": "edge", "source": "b", "target": "c",
                   "route": [{"x": 140.0, "y": 10.0}, {"x": 200.0, "y": 10.0}]}}


def test_a_note_near_a_moved_box_moves_with_it():
    data = _data()
    notes_follow(data, {"a": (5.0, 7.0)})
    assert (data["n"]["box"]["x"], data["n"]["box"]["y"]) == (5.0, 37.0)


def test_edges_are_carried_when_both_ends_moved_alike_and_rerouted_when_one_did():
    data = _data()
    for k in ("a", "b"):  # a and b moved down by 50 together; b's move leaves c behind
        data[k]["box"] = {**data[k]["box"], "y": 50.0}
    edges_follow(data, {"a": (0.0, 50.0), "b": (0.0, 50.0)}, set(), get_theme("paper"), "straight")
    assert data["ab"]["route"] == [{"x": 40.0, "y": 60.0}, {"x": 100.0, "y": 60.0}]
    start, end = data["bc"]["route"][0], data["bc"]["route"][-1]
    assert 100.0 <= start["x"] <= 140.0 and 50.0 <= start["y"] <= 70.0  # leaves b where b is now
    assert 200.0 <= end["x"] <= 240.0 and 0.0 <= end["y"] <= 20.0  # still ends on c
