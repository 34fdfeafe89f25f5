"""Train the reader on pages from :mod:`crafteditor.training.reader_data` and export it to ONNX.

    python -m crafteditor.training.reader_data --pages 300 --seed 1 -o train1.pkl     # (and more seeds)
    python -m crafteditor.training.reader_train train*.pkl --val val.pkl --unseen unseen.pkl --epochs 10

writes ``crafteditor/reader/weights/reader.onnx`` and ``reader.json`` (vocabulary, the
confidence gate, and what was measured on the held-out pages).
"""

from __future__ import annotations

import argparse
import json
import pickle
import random
import time
from pathlib import Path

import cv2
import numpy as np

from crafteditor.reader import WEIGHTS, taken
from crafteditor.reader.model import CLASS, HEIGHT, VOCAB, build_network, decode, pad_batch, steps


def load(paths: list[str]) -> tuple[list[np.ndarray], list[str | None]]:
    crops: list[np.ndarray] = []
    labels: list[str | None] = []
    for p in paths:
        with open(p, "rb") as f:
            d = pickle.load(f)
        if d.get("height") != HEIGHT:
            raise ValueError(f"{p}: crops are {d.get('height')} rows, the reader reads {HEIGHT}")
        crops += d["crops"]
        labels += d["labels"]
    return crops, labels


def _batches(widths: list[int], budget: int, rng: random.Random, shuffle: bool) -> list[list[int]]:
    order = sorted(range(len(widths)), key=lambda i: (widths[i], rng.random() if shuffle else i))
    out: list[list[int]] = []
    cur: list[int] = []
    for i in order:
        if cur and (len(cur) + 1) * widths[i] > budget:
            out.append(cur)
            cur = []
        cur.append(i)
    if cur:
        out.append(cur)
    if shuffle:
        rng.shuffle(out)
    return out


def _augment(x: np.ndarray, rng: random.Random) -> np.ndarray:
    v = x.astype(np.float32) / 255.0
    if rng.random() < 0.5:  # a little wider or narrower (another font's set width, another dpi)
        w = max(8, int(round(v.shape[1] * rng.uniform(0.88, 1.12))))
        v = cv2.resize(v, (w, HEIGHT), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.3:  # weaker ink (thin light strokes)
        v = v * rng.uniform(0.6, 1.0)
    if rng.random() < 0.15:
        v = cv2.GaussianBlur(v, (3, 3), rng.uniform(0.3, 0.8))
    if rng.random() < 0.1:
        v = np.clip(v + np.random.default_rng(rng.randrange(1 << 30)).normal(0, 0.04, v.shape), 0, 1)
    return v.astype(np.float32)


def evaluate(model, crops, labels, budget: int = 4096) -> list[tuple[str | None, str, float]]:
    import torch  # heavy: 6 s to import; reader_parity uses this module's tables without it

    model.eval()
    rng = random.Random(0)
    out: list[tuple[str | None, str, float]] = [None] * len(crops)  # type: ignore[list-item]
    with torch.no_grad():
        for b in _batches([c.shape[1] for c in crops], budget, rng, False):
            logp = model(torch.from_numpy(pad_batch([crops[i].astype(np.float32) / 255.0 for i in b]))).numpy()
            for row, i in enumerate(b):
                text, _scores, _steps, sure = decode(np.exp(logp[row, :steps(crops[i].shape[1])]))
                out[i] = (labels[i], text, sure)
    return out


def gate_table(results, gates=(0.5, 0.7, 0.8, 0.9, 0.95, 0.96, 0.98, 0.99)) -> list[dict]:
    """Per confidence gate (applied as the reader applies it, :func:`crafteditor.reader.taken`):
    the share of labelled crops accepted, the share of accepted readings that are wrong, and of
    the negatives how many would be accepted as text. ``results``: (label, text, sureness)."""
    pos = [(lab, txt, c) for lab, txt, c in results if lab is not None]
    neg = [(lab, txt, c) for lab, txt, c in results if lab is None]
    rows = []
    for g in gates:
        acc = [(lab, txt) for lab, txt, c in pos if taken(txt, c, g)]
        wrong = sum(lab != txt for lab, txt in acc)
        rows.append({"gate": g, "accepted": len(acc) / max(1, len(pos)),
                     "wrong_of_accepted": wrong / max(1, len(acc)),
                     "negatives_accepted": sum(taken(txt, c, g) for _l, txt, c in neg) / max(1, len(neg))})
    return rows


def train(train_paths: list[str], val_path: str | None, unseen_path: str | None, epochs: int = 8,
          budget: int = 6144, lr: float = 3e-3, seed: int = 0, threads: int = 1, out: Path = WEIGHTS) -> dict:
    import torch  # heavy: 6 s to import; reader_parity uses this module's tables without it

    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    rng = random.Random(seed)
    crops, labels = load(train_paths)
    held = {name: load([path]) for name, path in (("held_out", val_path), ("unseen_font", unseen_path)) if path}
    targets = [[CLASS[ch] for ch in lab] if lab is not None else [] for lab in labels]
    model = build_network()
    batches_per_epoch = len(_batches([c.shape[1] for c in crops], budget, rng, True))
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=epochs * batches_per_epoch + 10,
                                                pct_start=0.15)
    ctc = torch.nn.CTCLoss(blank=0, zero_infinity=True)
    t0 = time.time()
    for epoch in range(epochs):
        model.train()
        total, n = 0.0, 0
        for b in _batches([c.shape[1] for c in crops], budget, rng, True):
            xs = [_augment(crops[i], rng) for i in b]
            logp = model(torch.from_numpy(pad_batch(xs))).transpose(0, 1)  # T×B×C
            in_len = torch.tensor([steps(v.shape[1]) for v in xs])
            tg = [targets[i] for i in b]
            loss = ctc(logp, torch.tensor([k for t in tg for k in t], dtype=torch.long),
                       in_len, torch.tensor([len(t) for t in tg]))
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(b)
            n += len(b)
        msg = f"epoch {epoch + 1}/{epochs}: loss {total / max(1, n):.4f} ({time.time() - t0:.0f} s)"
        if "held_out" in held:
            res = evaluate(model, *held["held_out"])
            pos = [r for r in res if r[0] is not None]
            msg += f"; held-out exact {sum(r[0] == r[1] for r in pos) / max(1, len(pos)):.4f}"
        print(msg, flush=True)
    report: dict = {"vocab": VOCAB, "height": HEIGHT, "train_crops": len(crops), "epochs": epochs,
                    "train_seconds": round(time.time() - t0)}
    for name, (vc, vl) in held.items():
        res = evaluate(model, vc, vl)
        pos = [r for r in res if r[0] is not None]
        report[name] = {"crops": len(res), "exact": sum(r[0] == r[1] for r in pos) / max(1, len(pos)),
                        "gates": gate_table(res)}
    export(model, out)
    (out / "reader.json").write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n")
    return report


def export(model, out: Path) -> None:
    import torch  # heavy: 6 s to import; reader_parity uses this module's tables without it

    class Probs(torch.nn.Module):
        def __init__(self, m):
            super().__init__()
            self.m = m

        def forward(self, x):
            return torch.exp(self.m(x))

    out.mkdir(parents=True, exist_ok=True)
    model.eval()
    torch.onnx.export(Probs(model), (torch.zeros(1, 1, HEIGHT, 64),), str(out / "reader.onnx"),
                      input_names=["x"], output_names=["probs"], opset_version=17, dynamo=False,
                      dynamic_axes={"x": {0: "batch", 3: "width"}, "probs": {0: "batch", 1: "steps"}})


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description="Train CraftEditor's reader and export it to ONNX")
    p.add_argument("train", nargs="+", help="crop files from python -m crafteditor.training.reader_data")
    p.add_argument("--val", help="held-out crops (the training fonts)")
    p.add_argument("--unseen", help="held-out crops in a font the reader was not trained on")
    p.add_argument("--epochs", type=int, default=8)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("-o", "--output", default=str(WEIGHTS))
    a = p.parse_args(argv)
    report = train(a.train, a.val, a.unseen, a.epochs, lr=a.lr, threads=a.threads, out=Path(a.output))
    print(json.dumps({k: v for k, v in report.items() if k != "vocab"}, indent=1))


if __name__ == "__main__":
    main()
