"""A remark that a list or a sentence cut out ("Otherwise", "At each site", "Deployment results are not fed
back") is no box in the figure and links nothing; a decision ("BIDS valid?") and a name whose verb-like word
follows an article ("Hinted handoff node holds the write") stay."""

from __future__ import annotations

from crafter.agents.extract import figure_from_brief, read_brief
from crafter.agents.labels import OPENERS, REMARK_WORDS
from crafter.agents.reading import is_remark

BRIEF = ("Layout of the yield figure:\n"
         "- (a) training: reaction SMILES -> DRFP fingerprints -> XGBoost regressor\n"
         "- (b) deployment: new substrate pairs -> trained model -> predicted yields\n"
         "- deployment results are not fed back into training; the model stays frozen\n")


def test_remarks_are_told_from_names() -> None:
    for remark in ("Otherwise", "At each site", "Per medium", "If any transect differs",
                   "Deployment results are not fed back", "Executors write shuffle files to local"):
        assert is_remark(remark), remark
    for name in ("BIDS valid?", "Hinted handoff node holds the write", "In-memory skip", "On-chip buffer",
                 "Sequencing run", "Fetch failure?", "Raw reads", "Disk writes", "Compute costs", "Tokens used",
                 "Cache writes", "For loop", "While loop", "If statement", "Yes", "No"):
        assert not is_remark(name), name


def test_a_remark_in_a_list_is_no_box() -> None:
    labels = {n.label for n in figure_from_brief(BRIEF).of_kind("node")}
    assert {"Reaction SMILES", "DRFP fingerprints", "XGBoost regressor", "Trained model"} <= labels
    assert not any("not fed back" in x for x in labels)


def test_the_models_own_names_are_never_taken_for_remarks() -> None:
    brief = "The worker streams disk writes to a monitor, which tallies compute costs."
    names = {"node": ["Worker", "Disk writes", "Monitor", "Compute costs", "Per worker queue"]}
    labels = {n.label for n in figure_from_brief(brief, names=names).of_kind("node")}
    assert {"Worker", "Disk writes", "Monitor", "Compute costs"} <= labels


def test_one_opener_list_serves_the_prose_reader_and_the_remark_check() -> None:
    # the words the prose reader skips before a comma ("Downstream, the …"); alone, those that name nothing are
    # remarks ("Otherwise"), those that can name a thing stay names ("Upstream feeds the merge queue")
    for word in OPENERS:
        assert is_remark(word.capitalize()) == (word in REMARK_WORDS), word
        entities = read_brief(f"{word.capitalize()}, the sorter feeds the metrics unit.").entities
        assert entities == ["Sorter", "Metrics unit"], (word, entities)
    assert REMARK_WORDS < OPENERS and {"otherwise", "then", "once"} <= REMARK_WORDS
    fig = figure_from_brief("Upstream feeds the merge queue. The merge queue feeds Downstream.")
    assert {"Upstream", "Merge queue", "Downstream"} <= {n.label for n in fig.of_kind("node")}
