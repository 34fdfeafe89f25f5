"""The fused OCR models compute what rapidocr's shipped models compute, with fewer nodes."""

from __future__ import annotations

import builtins
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

from crafteditor import onnx_fusion  # noqa: E402
from crafteditor.onnx_fusion import fused_model, fused_model_bytes  # noqa: E402

MODELS = Path(pytest.importorskip("rapidocr_onnxruntime").__file__).parent / "models"


def _session(model) -> "ort.InferenceSession":
    opts = ort.SessionOptions()
    opts.log_severity_level = 4
    opts.intra_op_num_threads = 1
    return ort.InferenceSession(model, sess_options=opts, providers=["CPUExecutionProvider"])


@pytest.mark.parametrize("name,shape", [("ch_PP-OCRv4_rec_infer.onnx", (2, 3, 48, 96)),
                                        ("ch_PP-OCRv4_det_infer.onnx", (1, 3, 96, 128))])
def test_fused_model_computes_the_same_function(name, shape):
    path = MODELS / name
    fused = fused_model_bytes(str(path))
    x = np.random.RandomState(0).uniform(-1, 1, shape).astype(np.float32)
    shipped, ours = _session(str(path)), _session(fused)
    feed = {shipped.get_inputs()[0].name: x}
    a, b = shipped.run(None, feed)[0], ours.run(None, feed)[0]
    assert a.shape == b.shape
    assert np.abs(a - b).max() < 1e-4
    before = Counter(n.op_type for n in onnx.load(str(path)).graph.node)
    after = Counter(n.op_type for n in onnx.load_from_string(fused).graph.node)
    # every four-node HardSwish became HardSigmoid → Mul, and the scalar affine pairs went
    assert after["Clip"] == 0 and after["HardSigmoid"] >= before["Clip"]
    assert after["Add"] + after["Mul"] < 0.6 * (before["Add"] + before["Mul"])


def test_fused_model_is_cached_and_reused(tmp_path, monkeypatch):
    path = MODELS / "ch_PP-OCRv4_det_infer.onnx"
    first = fused_model(str(path), tmp_path)
    assert isinstance(first, str) and Path(first).parent == tmp_path and Path(first).is_file()

    def no_rewrite(_path):
        raise AssertionError("the cached model should have been used")

    monkeypatch.setattr(onnx_fusion, "fused_model_bytes", no_rewrite)
    assert fused_model(str(path), tmp_path) == first


def test_without_onnx_the_shipped_model_runs(tmp_path, monkeypatch):
    path = MODELS / "ch_PP-OCRv4_det_infer.onnx"
    real_import = builtins.__import__

    def no_onnx(name, *args, **kwargs):
        if name == "onnx" or name.startswith("onnx."):
            raise ImportError("no onnx here")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_onnx)
    assert fused_model(str(path), tmp_path / "empty") == str(path)


def test_an_unwritable_cache_still_gives_the_fused_model(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    out = fused_model(str(MODELS / "ch_PP-OCRv4_det_infer.onnx"), blocker / "cache")
    assert isinstance(out, bytes) and len(out) > 1000


def test_a_damaged_cached_model_falls_back_to_the_shipped_one(tmp_path, monkeypatch):
    from types import SimpleNamespace

    from crafteditor.ocr.engine import _quiet_session

    path = MODELS / "ch_PP-OCRv4_det_infer.onnx"
    monkeypatch.setattr(onnx_fusion, "default_cache_dir", lambda: tmp_path)
    cached = Path(fused_model(str(path)))
    cached.write_bytes(b"not a model")
    session = _quiet_session(SimpleNamespace(_model_path=str(path)), 1)
    x = np.zeros((1, 3, 64, 64), np.float32)
    assert session.run(None, {session.get_inputs()[0].name: x})[0].shape[-2:] == (64, 64)


def test_detector_residual_gates_and_upsampling_bias_are_folded():
    """x + x·s became x·(s + 1), and the head's ConvTranspose carries its bias and batch norm."""
    model = onnx.load_from_string(fused_model_bytes(str(MODELS / "ch_PP-OCRv4_det_infer.onnx")))
    producer = {o: n for n in model.graph.node for o in n.output}
    for n in model.graph.node:
        if n.op_type == "Add" and len(n.input) == 2:
            for x, other in (tuple(n.input), tuple(reversed(n.input))):
                mul = producer.get(other)
                assert not (mul is not None and mul.op_type == "Mul" and x in mul.input), n.name
        if n.op_type in ("Add", "BatchNormalization"):
            assert all(producer.get(i) is None or producer[i].op_type != "ConvTranspose" for i in n.input), n.name
    assert sum(n.op_type == "ConvTranspose" and len(n.input) == 3 for n in model.graph.node) == 2


def test_gated_residual_leaves_hardswish_alone():
    """Add(x, x·HardSigmoid(x)) is not a gate: s is computed from x itself."""
    from onnx import TensorProto, helper

    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 3, 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 2, 3, 3])
    g = helper.make_graph([helper.make_node("HardSigmoid", ["x"], ["s"]), helper.make_node("Mul", ["x", "s"], ["m"]),
                           helper.make_node("Add", ["x", "m"], ["y"])], "g", [x], [y])
    graph = onnx_fusion._Graph(g)
    graph.gated_residual()
    assert [n.op_type for n in graph.nodes] == ["HardSigmoid", "Mul", "Add"]
