"""The IR-fidelity bench: figures drawn with their truth, read back by CraftEditor, scored per maker and scale."""

from __future__ import annotations

import json

from craftbench.ir_fidelity import draw, read


def test_drawn_crafter_figures_read_back_with_their_sizes(tmp_path):
    draw(tmp_path, ["crafter"], [1.0, 2.0], 1)
    truth = json.loads((tmp_path / "truth.json").read_text(encoding="utf-8"))
    assert [r["scale"] for r in truth] == [1.0, 2.0] and all(r["edges"] for r in truth)
    rows = {(m, s): res for m, s, res in read(tmp_path)}
    assert set(rows) == {("crafter", 1.0), ("crafter", 2.0)}
    for res in rows.values():
        share, count = res["edges"]
        assert count == len(truth[0]["edges"]) and share >= 0.5
        # the sizes are scored against the figure's theme where the reading set none
        assert res["head_size"][1] > 0 and res["head_size"][0] >= 0.5
