"""`crafter export-model --format hf`: a transformers checkpoint that decodes greedily as Crafter's engine."""

import pytest
import torch

from crafter.cli import main
from crafter.llm.backends import WEIGHTS_DIR, CraftLMBackend
from crafter.llm.engine import generate_ids

pytestmark = pytest.mark.skipif(not (WEIGHTS_DIR / "model.safetensors").is_file(), reason="no shipped weights")


def test_the_export_loads_with_transformers_and_decodes_as_the_engine(tmp_path, capsys):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    import crafter.llm.hf  # noqa: F401  registers the craftlm model type with the Auto classes

    out = tmp_path / "craftlm-hf"
    assert main(["export-model", str(out), "--format", "hf"]) == 0
    assert "wrote" in capsys.readouterr().out
    for name in ("config.json", "model.safetensors", "tokenizer.json", "tokenizer_config.json",
                 "generation_config.json", "README.md"):
        assert (out / name).is_file(), name
    assert "vLLM and SGLang" in (out / "README.md").read_text()
    hf = AutoModelForCausalLM.from_pretrained(str(out)).eval()
    tok = AutoTokenizer.from_pretrained(str(out))
    b = CraftLMBackend(device="cpu")
    for prompt in ("<|plan|>The encoder feeds the decoder, which writes to a cache.<|out|>",
                   "<|repair|>n1 node \"A\"\nn2 node \"B\"\ne1 edge n1 -> n2<|issue|>rename n1 to \"Alpha\"<|ids|>n1<|out|>"):
        ids, offsets = b.tokenizer.encode_offsets(prompt)
        assert tok(prompt, add_special_tokens=False).input_ids == ids  # the same tokenizer
        enc, _ = b.encode(prompt, offsets)
        x = torch.tensor([ids])
        with torch.no_grad():
            got = hf.generate(x, max_new_tokens=40, do_sample=False, copy_len=len(ids),
                              enc=None if enc is None else enc[None])[0, len(ids):].tolist()
        want = generate_ids(b.model, ids, 40, prompt_enc=enc).ids  # plain greedy, no constraint
        assert got[: len(want)] == want and len(want) > 5
        if len(got) > len(want):
            assert got[len(want)] == hf.generation_config.eos_token_id


def test_an_unknown_export_format_is_one_line(tmp_path, capsys):
    assert main(["export-model", str(tmp_path / "x"), "--format", "gguf"]) == 1
    assert capsys.readouterr().err.strip() == "error: unknown --format 'gguf' (use hf)"
