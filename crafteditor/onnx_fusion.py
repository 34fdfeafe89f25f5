"""Operator fusion for rapidocr's PP-OCRv4 models: the same network in fewer, fatter nodes.

The bundled detector and recogniser were exported from Paddle (PPLCNetV3 backbone) with every
HardSwish spelled out as four element-wise nodes (``Add 3 → Clip 0..6 → Mul x → Div 6``) and
every "learnable affine block" as a scalar ``Mul`` and ``Add`` after the convolution and after
the activation. onnxruntime's optimiser fuses none of them, so each is a pass over the whole
activation tensor, and the broadcast ``Mul``/``Add`` also move the tensor out of onnxruntime's
blocked (NCHWc) convolution layout and back. Profiled on one core, element-wise nodes were 33%
of the recogniser's time at 48×320 and 40% of the detector's at 736×1312, layout reorders
another 8% and 12%.

The rewrite computes the same function (outputs agree to ~1e-6):

* ``Conv → Mul(c) → Add(d)`` becomes one ``Conv`` with weights ``c·W`` and bias ``c·b + d``;
* the four-node HardSwish becomes ``HardSigmoid(α=1/6, β=½) → Mul``, which onnxruntime then
  fuses into the convolution before it (``activation=HardSwish``);
* an affine ``Mul(c) → Add(d)`` in front of a 1×1 unpadded ``Conv`` is folded into it
  (``c·W``, ``b + d·ΣW``); in front of a padded one it cannot be (the zero padding would see
  the shift), so it becomes a 1×1 per-channel ``Conv`` (weight c, bias d), which stays in the
  blocked layout;
* (detector) ``x + x·s`` after a squeeze-excitation gate becomes ``x·(s + 1)``, the Add on
  one value per channel; the head's ``ConvTranspose → Add(bias) → BatchNormalization`` is one
  ``ConvTranspose`` with bias (version 2: the bench's 21 detector inputs, best of 6 per input,
  3.78–3.85 → 3.59–3.69 s CPU on one core; the same boxes).

Best of 30 runs on one core: recogniser at 48×320 27.3 → 20.2 ms, detector at 736×1312
388 → 238 ms. :func:`fused_model` rewrites a model once and keeps the result in the user's cache
folder: the rewrite needs the ``onnx`` package, whose import alone costs ~1 s (ml_dtypes), so
later processes load the cached file without it. Without ``onnx`` the models run as shipped.
"""

from __future__ import annotations

import hashlib
import os
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

FUSION_VERSION = 3  # part of the cache key: bump when a rewrite changes


def fused_model(path: str, cache_dir: Path | None = None) -> str | bytes:
    """What to hand ``onnxruntime.InferenceSession`` for the model at ``path``: the cached fused
    model's path, the fused bytes where the cache cannot be written, or ``path`` itself where
    the model cannot be rewritten (no ``onnx`` package)."""
    src = Path(path)
    digest = hashlib.sha256(src.read_bytes()).hexdigest()[:16]
    try:
        folder = cache_dir if cache_dir is not None else default_cache_dir()
    except RuntimeError:  # no home folder to be found
        folder = None
    target = None if folder is None else folder / f"{src.stem}-{digest}-fused{FUSION_VERSION}.onnx"
    if target is not None and target.is_file():
        return str(target)
    try:
        data = fused_model_bytes(str(src))
    except ImportError:
        return str(src)
    if folder is None or target is None:
        return data
    tmp = target.with_name(f"{target.name}.{os.getpid()}.tmp")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(data)
        os.replace(tmp, target)  # atomic: parallel workers may write the same file
    except OSError:
        try:
            tmp.unlink()
        except OSError:
            pass
        return data
    return str(target)


def default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "crafteditor"


def fused_model_bytes(path: str) -> bytes:
    """The ONNX model at ``path`` with the fusions above applied, serialised."""
    import onnx  # heavy: 2.6 s to import, optional: without it the shipped model runs unfused

    model = onnx.load(path)
    graph = _Graph(model.graph)
    graph.fold_affine_after_conv()
    graph.hardswish()
    graph.fold_affine_before_pointwise_conv()
    graph.affine_as_channel_conv()
    graph.gated_residual()
    graph.fold_into_conv_transpose()
    graph.write_back()
    return model.SerializeToString()


class _Graph:
    """An editable node list over one ``onnx.GraphProto``: constants by name, consumers by tensor."""

    def __init__(self, graph: Any) -> None:
        from onnx import numpy_helper  # heavy: as in fused_model_bytes

        self.graph = graph
        self.to_array = numpy_helper.to_array
        self.from_array = numpy_helper.from_array
        self.nodes: list[Any] = list(graph.node)
        self.const: dict[str, np.ndarray] = {t.name: self.to_array(t) for t in graph.initializer}
        for n in self.nodes:
            if n.op_type == "Constant" and len(n.attribute) == 1 and n.attribute[0].name == "value":
                self.const[n.output[0]] = self.to_array(n.attribute[0].t)
        self.new_initializers: list[Any] = []
        self.outputs = {o.name for o in graph.output}
        for k, n in enumerate(self.nodes):
            if not n.name:
                n.name = f"{n.op_type.lower()}_{k}"
        self.consumers: dict[str, list[Any]] = defaultdict(list)
        for n in self.nodes:
            for i in n.input:
                self.consumers[i].append(n)

    # -- queries ----------------------------------------------------------------------------

    def only_consumer(self, tensor: str) -> Any | None:
        users = self.consumers.get(tensor, [])
        if len(users) != 1 or tensor in self.outputs:
            return None
        return users[0]

    def scalar(self, node: Any, other_than: str) -> float | None:
        """The scalar float constant operand of a binary node (the operand that is not ``other_than``)."""
        if len(node.input) != 2 or other_than not in node.input:
            return None
        name = node.input[1] if node.input[0] == other_than else node.input[0]
        v = self.const.get(name)
        if v is None or v.size != 1 or v.dtype != np.float32:
            return None
        return float(v.reshape(()))

    def variable_input(self, node: Any) -> str | None:
        return next((i for i in node.input if i not in self.const), None)

    def conv_params(self, conv: Any) -> tuple[np.ndarray, np.ndarray] | None:
        """(weights, bias) of a Conv whose parameters are constants (bias zero where absent)."""
        if len(conv.input) < 2 or conv.input[1] not in self.const:
            return None
        w = self.const[conv.input[1]].astype(np.float32)
        if len(conv.input) >= 3 and conv.input[2]:
            if conv.input[2] not in self.const:
                return None
            return w, self.const[conv.input[2]].astype(np.float32)
        return w, np.zeros(w.shape[0], np.float32)

    def affine_pair(self, mul: Any) -> tuple[str, float, float, Any] | None:
        """``Mul(x, c) → Add(·, d)`` starting at ``mul``: (x, c, d, the Add), else None."""
        if mul.op_type != "Mul":
            return None
        x = self.variable_input(mul)
        c = None if x is None else self.scalar(mul, x)
        if c is None:
            return None
        add = self.only_consumer(mul.output[0])
        if add is None or add.op_type != "Add":
            return None
        d = self.scalar(add, mul.output[0])
        return None if d is None else (x, c, d, add)

    # -- edits ------------------------------------------------------------------------------

    def remove(self, *nodes: Any) -> None:
        for node in nodes:
            self.nodes = [n for n in self.nodes if n is not node]
            for i in node.input:
                self.consumers[i] = [n for n in self.consumers[i] if n is not node]

    def insert_at(self, anchor: Any, node: Any) -> None:
        """Put ``node`` where ``anchor`` stands (before it)."""
        at = next(k for k, n in enumerate(self.nodes) if n is anchor)
        self.nodes.insert(at, node)
        for i in node.input:
            self.consumers[i].append(node)

    def rewire(self, old: str, new: str) -> None:
        """Every consumer of tensor ``old`` reads ``new`` instead."""
        if old in self.outputs:
            raise ValueError(f"cannot rewire the graph output {old}")
        for n in self.consumers.pop(old, []):
            for k, i in enumerate(n.input):
                if i == old:
                    n.input[k] = new
            self.consumers[new].append(n)

    def set_input(self, node: Any, k: int, name: str) -> None:
        old = node.input[k]
        self.consumers[old] = [n for n in self.consumers[old] if n is not node]
        node.input[k] = name
        self.consumers[name].append(node)

    def add_constant(self, name: str, value: np.ndarray) -> str:
        """A new initializer named after ``name``, made unique (a node may be rewritten twice)."""
        base, k = name, 1
        while name in self.const:
            k += 1
            name = f"{base}_{k}"
        value = np.ascontiguousarray(value.astype(np.float32))
        self.new_initializers.append(self.from_array(value, name))
        self.const[name] = value
        return name

    def set_conv(self, conv: Any, w: np.ndarray, b: np.ndarray) -> None:
        """Give ``conv`` new weights and bias (fresh names: a constant may be shared)."""
        wname = self.add_constant(conv.name + "_fused_w", w)
        bname = self.add_constant(conv.name + "_fused_b", b)
        data = conv.input[0]
        for i in list(conv.input[1:]):
            self.consumers[i] = [n for n in self.consumers[i] if n is not conv]
        del conv.input[:]
        conv.input.extend([data, wname, bname])
        self.consumers[wname].append(conv)
        self.consumers[bname].append(conv)

    def write_back(self) -> None:
        """The edited node list into the GraphProto, less the constants nothing reads any more."""
        used = {i for n in self.nodes for i in n.input} | self.outputs
        nodes = [n for n in self.nodes if n.op_type != "Constant" or n.output[0] in used]
        inits = [t for t in list(self.graph.initializer) + self.new_initializers if t.name in used]
        del self.graph.node[:]
        self.graph.node.extend(nodes)
        del self.graph.initializer[:]
        self.graph.initializer.extend(inits)

    # -- the fusions ------------------------------------------------------------------------

    def fold_affine_after_conv(self) -> None:
        """Conv → Mul(c) [→ Add(d)] into the convolution's weights and bias."""
        for conv in [n for n in self.nodes if n.op_type == "Conv"]:
            params = self.conv_params(conv)
            out = conv.output[0]
            mul = self.only_consumer(out)
            if params is None or mul is None or mul.op_type != "Mul":
                continue
            c = self.scalar(mul, out)
            if c is None:
                continue
            w, b = params
            pair = self.affine_pair(mul)
            d, last = (pair[2], pair[3]) if pair is not None else (0.0, mul)
            self.set_conv(conv, w * c, b * c + d)
            self.remove(mul)
            if last is not mul:
                self.remove(last)
            self.rewire(last.output[0], out)

    def hardswish(self) -> None:
        """Add(x, 3) → Clip(0, 6) → Mul(x, ·) → Div(6)  ⇒  HardSigmoid(x; 1/6, ½) → Mul(x, ·)."""
        from onnx import helper  # heavy: as in fused_model_bytes

        for add in [n for n in self.nodes if n.op_type == "Add"]:
            x = self.variable_input(add)
            if x is None or self.scalar(add, x) != 3.0:
                continue
            clip = self.only_consumer(add.output[0])
            if clip is None or clip.op_type != "Clip" or len(clip.input) != 3:
                continue
            lo, hi = self.const.get(clip.input[1]), self.const.get(clip.input[2])
            if lo is None or hi is None or lo.size != 1 or hi.size != 1 or float(lo) != 0.0 or float(hi) != 6.0:
                continue
            mul = self.only_consumer(clip.output[0])
            if mul is None or mul.op_type != "Mul" or sorted(mul.input) != sorted([x, clip.output[0]]):
                continue
            div = self.only_consumer(mul.output[0])
            if (div is None or div.op_type != "Div" or div.input[0] != mul.output[0]
                    or self.scalar(div, mul.output[0]) != 6.0):
                continue
            gate = add.name + "_hardsigmoid"
            self.insert_at(add, helper.make_node("HardSigmoid", [x], [gate], name=gate, alpha=1.0 / 6.0, beta=0.5))
            self.insert_at(add, helper.make_node("Mul", [x, gate], [div.output[0]], name=add.name + "_hardswish"))
            self.remove(add, clip, mul, div)

    def fold_affine_before_pointwise_conv(self) -> None:
        """Mul(c) → Add(d) → Conv 1×1 without padding  ⇒  Conv with weights c·W, bias b + d·ΣW."""
        for mul in [n for n in self.nodes if n.op_type == "Mul"]:
            pair = self.affine_pair(mul)
            if pair is None:
                continue
            x, c, d, add = pair
            conv = self.only_consumer(add.output[0])
            if conv is None or conv.op_type != "Conv" or conv.input[0] != add.output[0] or not _unpadded(conv):
                continue
            params = self.conv_params(conv)
            if params is None or params[0].shape[2:] != (1, 1):
                continue
            w, b = params
            self.set_input(conv, 0, x)
            self.set_conv(conv, w * c, b + d * w.sum(axis=(1, 2, 3)))
            self.remove(mul, add)

    def affine_as_channel_conv(self) -> None:
        """Mul(c) → Add(d) → Conv  ⇒  1×1 per-channel Conv (weight c, bias d) → Conv.

        The same arithmetic, but a convolution stays in onnxruntime's blocked layout where a
        broadcast Mul and Add do not: the pair cost a reorder out of the layout and back in
        besides its two passes (detector 276 → 238 ms). Where the pair feeds several
        convolutions, the one per-channel Conv feeds them all (version 3: the bench's 21 detector
        inputs 3.5–5% less CPU than version 2, alternating, best of 8 per input).
        """
        from onnx import helper  # heavy: as in fused_model_bytes

        for mul in [n for n in self.nodes if n.op_type == "Mul"]:
            pair = self.affine_pair(mul)
            if pair is None:
                continue
            x, c, d, add = pair
            # every reader a convolution (the detector has three such pairs feeding two each)
            users = self.consumers.get(add.output[0], [])
            if (not users or add.output[0] in self.outputs
                    or any(u.op_type != "Conv" or list(u.input).count(add.output[0]) != 1
                           or u.input[0] != add.output[0] for u in users)):
                continue
            conv = users[0]
            params = self.conv_params(conv)
            if params is None:
                continue
            group = next((a.i for a in conv.attribute if a.name == "group"), 1)
            channels = int(params[0].shape[1]) * int(group)
            name = mul.name + "_affine"
            wname = self.add_constant(name + "_w", np.full((channels, 1, 1, 1), c, np.float32))
            bname = self.add_constant(name + "_b", np.full((channels,), d, np.float32))
            self.insert_at(mul, helper.make_node("Conv", [x, wname, bname], [add.output[0]], name=name,
                                                 group=channels, kernel_shape=[1, 1]))
            self.remove(mul, add)

    def gated_residual(self) -> None:
        """Add(x, Mul(x, s))  ⇒  Mul(x, Add(s, 1)): the detector's squeeze-excitation residuals
        (``x + x·σ(·)``), where ``s`` is one value per channel, so the Add runs over C values
        instead of the whole activation. A HardSwish (``s`` computed from ``x`` itself, fused
        into the convolution by onnxruntime) is left alone."""
        from onnx import helper  # heavy: as in fused_model_bytes

        for add in [n for n in self.nodes if n.op_type == "Add" and len(n.input) == 2]:
            for x, gated in (tuple(add.input), tuple(reversed(add.input))):
                mul = next((n for n in self.nodes if gated in n.output), None)
                if (mul is None or mul.op_type != "Mul" or x not in mul.input or self.only_consumer(gated) is not add
                        or list(mul.input).count(x) != 1):
                    continue
                s = next(i for i in mul.input if i != x)
                gate = next((n for n in self.nodes if s in n.output), None)
                if gate is None or x in gate.input or s in self.const:
                    continue
                one = self.add_constant(add.name + "_one", np.ones((), np.float32))
                shifted = add.name + "_gate1"
                self.insert_at(add, helper.make_node("Add", [s, one], [shifted], name=shifted))
                self.insert_at(add, helper.make_node("Mul", [x, shifted], [add.output[0]], name=add.name + "_gated"))
                self.remove(mul, add)
                break

    def fold_into_conv_transpose(self) -> None:
        """ConvTranspose [→ Add(per-channel bias)] [→ BatchNormalization]  ⇒  one ConvTranspose
        with the batch norm in its weights and both in its bias: the detector head's two
        upsamplings, whose bias and batch norm onnxruntime ran as passes of their own (it folds
        batch norms only into ``Conv``)."""

        for ct in [n for n in self.nodes if n.op_type == "ConvTranspose"]:
            group = next((a.i for a in ct.attribute if a.name == "group"), 1)
            if group != 1 or len(ct.input) < 2 or ct.input[1] not in self.const:
                continue
            if len(ct.input) >= 3 and ct.input[2] and ct.input[2] not in self.const:
                continue
            w = self.const[ct.input[1]].astype(np.float32)  # Cin × Cout × kh × kw
            cout = w.shape[1]
            b = (self.const[ct.input[2]].astype(np.float32) if len(ct.input) >= 3 and ct.input[2]
                 else np.zeros(cout, np.float32))
            last, chain = ct, []
            nxt = self.only_consumer(ct.output[0])
            if nxt is not None and nxt.op_type == "Add" and len(nxt.input) == 2:
                d = self.const.get(next((i for i in nxt.input if i != ct.output[0]), ""))
                if d is not None and d.size == cout and d.ndim in (3, 4) and d.shape[-2:] == (1, 1):
                    b = b + d.reshape(cout).astype(np.float32)
                    last = nxt
                    chain.append(nxt)
                    nxt = self.only_consumer(nxt.output[0])
            if (nxt is not None and nxt.op_type == "BatchNormalization" and len(nxt.output) == 1
                    and nxt.input[0] == last.output[0] and all(i in self.const for i in nxt.input[1:5])
                    and not any(a.name == "training_mode" and a.i for a in nxt.attribute)):
                eps = next((a.f for a in nxt.attribute if a.name == "epsilon"), 1e-5)
                scale, shift, mean, var = (self.const[i].astype(np.float64) for i in nxt.input[1:5])
                k = scale / np.sqrt(var + eps)
                w = (w * k[None, :, None, None]).astype(np.float32)
                b = ((b - mean) * k + shift).astype(np.float32)
                last = nxt
                chain.append(nxt)
            if not chain:
                continue
            out = last.output[0]
            self.set_conv(ct, w, b)
            self.remove(*chain)
            self.rewire(out, ct.output[0])

def _unpadded(conv: Any) -> bool:
    for a in conv.attribute:
        if a.name == "pads" and any(a.ints):
            return False
        if a.name == "auto_pad" and a.s not in (b"", b"NOTSET", b"VALID"):
            return False
    return True
