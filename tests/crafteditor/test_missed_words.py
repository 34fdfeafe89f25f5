"""The missed-word diagnosis (issue 31): each true word the SVG does not keep as text, classed."""

from crafteditor.missed_words import classify_missed, count_classes


def test_missed_words_are_classed():
    truth = "Returns Zoo GM12878_R1 Accuracy by model hidden José Legend"
    svg = ["returmns", "z00", "gm", "12878r1", "accuracybymodel", "jose"]  # drawn as text, in order
    runs = ["Returmns", "Z00", "GM 12878_R1", "Accuracybymodel", "Legend", "Jose"]  # 'Legend' read, not kept
    rows = {r["word"]: r for r in classify_missed(truth, svg, runs)}
    assert rows["returns"]["class"] == "misread" and rows["returns"]["read"] == "returmns"
    assert rows["zoo"]["class"] == "misread"
    assert rows["gm12878r1"]["class"] == "split" and rows["gm12878r1"]["read"] == "gm 12878r1"
    assert rows["accuracy"]["class"] == "split" and rows["model"]["class"] == "split"
    assert rows["legend"]["class"] == "paths"
    assert rows["hidden"]["class"] == "never"
    assert rows["josé"]["class"] == "scorer"  # an accent the truth has and the reading not
    assert sum(count_classes(list(rows.values())).values()) == len(rows)


def test_the_svgs_words_come_in_drawing_order_for_the_split_word_check():
    """A word drawn in two halves ('Data' 'base') is told apart from a misreading by its neighbours: the list
    keeps the SVG's order, a repeated word included (a Counter's elements() had grouped them)."""
    from crafteditor.realset import svg_word_list, svg_words

    svg = ('<svg><text x="0" y="0">Data flow</text><text x="0" y="9">to Data</text>'
           '<text x="0" y="18">base T<tspan baseline-shift="sub">1</tspan></text></svg>')
    assert svg_word_list(svg) == ["data", "flow", "to", "data", "base", "t1"]
    assert svg_words(svg)["data"] == 2
