"""Names said in a list beside a known name (:mod:`crafter.agents.coordination`): "runs the parser, the type
checker and the emitter" where one of them is a box makes every item a box; a list of no box, a count's apposition
("two modules, A and B") and a number's thousands comma make none."""

from __future__ import annotations

from crafter.agents.coordination import _lists, read_coordinated_names
from crafter.agents.extract import figure_from_brief
from crafter.agents.reading import BriefReading


def _added(text: str, names: list[str]) -> list[str]:
    reading = BriefReading(entities=list(names))
    read_coordinated_names(reading, text)
    return reading.entities[len(names):]


def test_a_list_with_one_box_makes_every_item_a_box() -> None:
    text = "Each shard runs Zeek's tokenizer, flow assembly and rule matching stages on its own."
    assert _added(text, ["Rule matching stage"]) == ["Tokenizer", "Flow assembly"]


def test_a_list_after_a_colon_or_an_aside_starts_at_its_first_noun_phrase() -> None:
    assert _lists("The board drives three outputs: nose pokes, a buzzer and a valve.") == [
        ["Nose pokes", "Buzzer", "Valve"]]
    assert _lists("Both towers share one trunk, each with its own gating layer, key projection and MLP.")[-1] == [
        "Gating layer", "Key projection", "MLP"]
    assert _lists("The runner executes `OpenGate`, `ScanBadge`, `CloseGate` and `Report`, in turn.") == [
        ["OpenGate", "ScanBadge", "CloseGate", "Report"]]


def test_lists_of_no_box_of_a_count_or_of_numbers_add_nothing() -> None:
    # materials, not parts: no item is a box
    assert _added("Wafers are rinsed in acetone, ethanol, methanol and water before the furnace.", ["Furnace"]) == []
    # "two modules, A and B": the count is the apposition's head, not a third part
    assert _added("The QC block holds two modules, Pyfilt and Seqtrim, and MultiReport.", ["Pyfilt"]) == []
    # "1,024 tokens": one number, no list
    assert _lists("It cuts the clip into 1,024 tokens and a scorer ranks them.") == []


def test_the_whole_reader_draws_the_listed_parts() -> None:
    fig = figure_from_brief("The gateway forwards each request to the router. The router calls the cache, the ranker "
                            "and the logger.")
    labels = {n.label for n in fig.of_kind("node")}
    assert {"Gateway", "Router", "Cache", "Ranker", "Logger"} <= labels


def test_a_list_ending_on_a_lone_plural_verb_neither_raises_nor_wraps_round() -> None:
    """"…, queues and runs, and …": the last item is one word, a verb's "-s" form; the plural test had looked at the
    word before it as words[-1] (the item's own last word, then words[-2]: IndexError, the whole plan aborted)."""
    text = "The Scheduler tracks jobs, queues and runs, and the Scheduler sends results to the Store."
    assert all(len(items) < 3 for items in _lists(text))  # "runs" is no part
    fig = figure_from_brief(text)
    assert {"Scheduler", "Store"} <= {n.label for n in fig.of_kind("node")}


def test_a_list_of_code_names_or_closing_on_a_plural_and_a_colon_names_parts() -> None:
    # no item is a box yet: code names, or the parts a plural noun and a colon announce
    assert _added("The runner executes `OpenGate`, `ScanBadge`, `CloseGate` and `Report`.", []) == [
        "OpenGate", "ScanBadge", "CloseGate", "Report"]
    assert _added("The hub talks to the devices on its ports: a buzzer, a lamp and a valve.", []) == [
        "Buzzer", "Lamp", "Valve"]
    # a colon that opens a sentence going on, or materials after no colon: nothing
    assert _added("Rinse: acetone, ethanol and water are used before the furnace.", []) == []
    assert _added("Wafers are rinsed in acetone, ethanol, methanol and water.", []) == []


def test_a_list_said_in_order_is_chained() -> None:
    reading = BriefReading(entities=["Runner"])
    read_coordinated_names(reading, "The runner executes `OpenGate`, `ScanBadge` and `CloseGate`, one after the other.")
    assert reading.relations == [("OpenGate", "ScanBadge"), ("ScanBadge", "CloseGate")]
    reading = BriefReading(entities=["Hub"])
    read_coordinated_names(reading, "The hub talks to the devices on its ports: a buzzer, a lamp and a valve.")
    assert reading.relations == []  # parts side by side, no order said


def test_a_papers_own_labels_name_no_parts() -> None:
    for text in ("Keywords: representation learning, autoencoders and compression.",
                 "Funding sources: NIH, NSF and the Wellcome Trust.",
                 "Authors' contributions: design, analysis and writing."):
        assert _added(text, []) == [], text
