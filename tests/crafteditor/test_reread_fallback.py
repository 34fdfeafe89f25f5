"""The re-read fallback (seq12, mended): a sketch re-read that lost a sequence diagram's messages gives
way to a third reading, the first finished, only where the budget affords it and the re-read was not
cut short; the re-read thrown away is its own CPU stage; the third reading keeps rough outlines as a
plain first reading would (only where they wobble)."""

from __future__ import annotations

import crafteditor.vectorizer as vz
from crafteditor.config import budget_clock
from tests.crafteditor.test_sketch_decision import _ladder

_real = vz.vectorize


def _spy(monkeypatch, *, cut_short: bool = False, spent: bool = False) -> list[str]:
    """Readings asked after the first, by preset; the sketch re-read made to lose the sequence."""
    calls: list[str] = []
    sketch_shapes = vz.add_sketch_shapes

    def rough(*a, **kw):  # the ladder's outlines taken as rough: a re-read follows where one may
        shapes, _ = sketch_shapes(*a, **kw)
        return shapes, bool(kw["rereads"])

    def spy(image, config=None, **kw):
        calls.append(config.preset_name)
        out = _real(image, config, **kw)
        if config.preset_name == "sketch":
            out.stats["sequence_messages"] = 0
            if cut_short:
                out.stats["over_budget"] = ["lines"]
            if spent:  # the budget spent meanwhile: the clock a day on
                monkeypatch.setattr(vz, "budget_clock", lambda: budget_clock() + 86400.0)
        return out

    monkeypatch.setattr(vz, "add_sketch_shapes", rough)
    monkeypatch.setattr(vz, "vectorize", spy)
    return calls


def test_a_lost_re_read_gives_way_to_the_first_reading_its_cpu_a_stage_of_its_own(monkeypatch):
    calls = _spy(monkeypatch)
    out = _real(_ladder())
    assert calls == ["sketch", "auto"]
    assert out.stats["preset"] == "auto" and out.stats["sequence_messages"] >= 7
    assert out.stats["cpu"]["discarded re-read"] > 0


def test_no_third_reading_past_the_budget(monkeypatch):
    calls = _spy(monkeypatch, spent=True)
    out = _real(_ladder())
    assert calls == ["sketch"] and out.stats["preset"] == "sketch"
    assert "discarded re-read" not in out.stats["cpu"]


def test_no_third_reading_after_a_re_read_cut_short(monkeypatch):
    calls = _spy(monkeypatch, cut_short=True)
    out = _real(_ladder())
    assert calls == ["sketch"] and out.stats["preset"] == "sketch"


def test_the_third_reading_keeps_rough_outlines_as_a_plain_first_reading(monkeypatch):
    seen: list = []
    real = vz.add_sketch_shapes

    def spy(*a, **kw):
        seen.append(kw["rereads"])
        return real(*a, **kw)

    monkeypatch.setattr(vz, "add_sketch_shapes", spy)
    _real(_ladder(), reread=False)
    assert seen == [False]
