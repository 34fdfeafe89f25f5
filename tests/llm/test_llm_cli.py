"""`crafter complete`: DSL plus one JSON line of stats; errors are one line, no traceback."""

import json

from crafter.cli import main


def test_complete_prints_dsl_and_stats(weights_dir, capsys):
    rc = main(["complete", "--backend", f"craftlm:{weights_dir}", "--task", "plan", "--max-new-tokens", "16",
               "--stats", "The encoder feeds the decoder."])
    out = capsys.readouterr().out.strip().splitlines()
    assert rc == 0
    stats = json.loads(out[-1])
    assert stats["tokens"] <= 16 and stats["drafter"] == "diffusion"


def test_complete_errors_are_one_line(weights_dir, capsys):
    assert main(["complete", "--backend", "bogus", "x"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: unknown backend") and "Traceback" not in err
    assert main(["complete", "--backend", f"craftlm:{weights_dir}", "--speculative", "eagle", "x"]) == 1
    assert "unknown --speculative" in capsys.readouterr().err
    assert main(["complete", "--backend", f"craftlm:{weights_dir}", ""]) == 1
    assert "empty" in capsys.readouterr().err


def test_commands_have_help(capsys):
    for argv in (["complete", "--help"], ["train", "--help"], ["train-names", "--help"], ["train-edits", "--help"],
                 ["bench", "decode", "--help"]):
        assert main(argv) == 0
        assert "Example:" in capsys.readouterr().out


def test_train_on_the_smol_backbone_refuses_the_frozen_test_split(capsys):
    assert main(["train", "--backbone", "smol", "--data", "briefs:test"]) == 1
    err = capsys.readouterr().err
    assert "frozen" in err and "Traceback" not in err
    assert main(["train", "--backbone", "gpt"]) == 1
    assert "unknown --backbone" in capsys.readouterr().err


def test_train_names_trains_and_saves_a_head_the_backend_loads(tmp_path, capsys):
    from crafter.llm.names import NameReader

    out = tmp_path / "names"
    assert main(["train-names", "--out-dir", str(out), "--briefs", "40", "--held-out", "10", "--epochs", "1"]) == 0
    metrics = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert {"tag_acc", "span_f1", "link_f1"} <= set(metrics)
    got = NameReader(out).names("<|plan|>The Encoder feeds the Decoder.<|out|>")
    assert set(got) == {"node", "group", "label", "title", "links", "members"}


def test_train_edits_trains_and_saves_a_head_the_backend_loads(tmp_path, capsys):
    from crafter.llm.edits import EditReader
    from crafter.llm.prompts import repair_prompt

    out = tmp_path / "edits"
    assert main(["train-edits", "--out-dir", str(out), "--instructions", "60", "--held-out", "10"]) == 0
    metrics = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert {"accuracy", "sure"} <= set(metrics)
    got = EditReader(out).read(repair_prompt('n1 node "A"\nn2 node "B"\ne1 edge n1 -> n2', "Reverse e1.", ["e1"]))
    assert got is None or got["lines"]
