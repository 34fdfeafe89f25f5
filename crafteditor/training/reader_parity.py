"""Where the reader's gate belongs: the reader against rapidocr on the same held-out crops.

    python -m crafteditor.training.reader_parity --val val.pkl --unseen unseen.pkl [--record]

For each band of the reader's sureness, prints how many of the crops read in that band the
reader gets wrong and how many rapidocr gets wrong (the crops :mod:`crafteditor.training.reader_data`
cuts, with their true strings). A crop the reader does not take goes to rapidocr, so the gate
belongs where, above it, the reader is wrong no more often than rapidocr would be on the same
crops. Both readings are compared without their spaces: a conversion sets the spaces from
the gaps between the glyphs whichever engine read the line (:func:`crafteditor.ocr.corrections.restore_spaces`).
``--record`` writes the tables, and the gate table at the reader's gates, into the weights'
``reader.json``.
"""

from __future__ import annotations

import argparse
import json

import cv2
import numpy as np

from crafteditor.ocr.engine import REC_WORD_WIDTH, get_engine
from crafteditor.reader import GATE, SINGLE_GATE, WEIGHTS, get_reader, taken
from crafteditor.reader.model import MAX_WIDTH, decode, pad_batch, steps
from crafteditor.training.reader_train import gate_table, load

BANDS = (0.90, 0.92, 0.94, 0.95, 0.96, 0.97, 0.98)


def reader_readings(crops: list[np.ndarray]) -> list[tuple[str, float]]:
    """The shipped reader's (text, sureness) for each normalised crop (uint8, ink 255); ("", 0)
    for a crop over the width it reads (it goes to rapidocr whole)."""
    reader = get_reader(1)
    if reader is None:
        raise RuntimeError(f"no reader weights in {WEIGHTS}")
    out: list[tuple[str, float]] = []
    for x in crops:
        if x.shape[1] > MAX_WIDTH:
            out.append(("", 0.0))
            continue
        probs = reader.session.run(None, {"x": pad_batch([x / 255.0])})[0][0, :steps(x.shape[1])]
        text, _scores, _steps, sure = decode(probs)
        out.append((text, sure))
    return out


def rapidocr_readings(crops: list[np.ndarray]) -> list[str]:
    """rapidocr's reading of each normalised crop, as a conversion asks for it."""
    bgr = [cv2.cvtColor(255 - x, cv2.COLOR_GRAY2BGR) for x in crops]
    return [text for text, _conf, _centres in get_engine(1).recognize(bgr, True, REC_WORD_WIDTH)]


def parity_table(labels: list[str], reader: list[tuple[str, float]], rapid: list[str],
                 bands: tuple[float, ...] = BANDS) -> list[dict]:
    """Per sureness band [lo, hi): the crops of more than one character read there, and how
    many of them each engine reads wrong (spaces aside). The top band is [last edge, ∞)."""
    def same(a: str, b: str) -> bool:
        return a.replace(" ", "") == b.replace(" ", "")

    rows = []
    for k, lo in enumerate(bands):
        hi = bands[k + 1] if k + 1 < len(bands) else float("inf")
        band = [i for i, (text, sure) in enumerate(reader) if lo <= sure < hi and len(text.strip()) > 1
                and taken(text, sure, lo)]
        rows.append({"band": [lo, hi if hi != float("inf") else None], "crops": len(band),
                     "reader_wrong": sum(not same(reader[i][0], labels[i]) for i in band),
                     "rapidocr_wrong": sum(not same(rapid[i], labels[i]) for i in band)})
    return rows


def measure(path: str) -> dict:
    crops, labels = load([path])
    reader = reader_readings(crops)
    pos = [i for i, lab in enumerate(labels) if lab is not None]
    rapid = rapidocr_readings([crops[i] for i in pos])
    exact = sum(reader[i][0] == labels[i] for i in pos) / max(1, len(pos))
    return {"crops": len(crops), "exact": exact, "gates": gate_table([(lab, *r) for lab, r in zip(labels, reader)]),
            "rapidocr_parity": parity_table([labels[i] for i in pos], [reader[i] for i in pos], rapid)}


def format_table(name: str, rows: list[dict]) -> str:
    lines = [f"{name}: sureness band   crops   reader wrong   rapidocr wrong (same crops, spaces aside)"]
    for r in rows:
        lo, hi = r["band"]
        band = f"[{lo:.2f}, {hi:.2f})" if hi is not None else f"[{lo:.2f}, 1]   "
        lines.append(f"  {band:>16}  {r['crops']:6d}"
                     f"   {r['reader_wrong']:6d} {r['reader_wrong'] / max(1, r['crops']):6.1%}"
                     f"   {r['rapidocr_wrong']:6d} {r['rapidocr_wrong'] / max(1, r['crops']):6.1%}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description="The reader against rapidocr on held-out crops, per band of sureness")
    p.add_argument("--val", required=True, help="held-out crops in the training fonts")
    p.add_argument("--unseen", help="held-out crops in fonts the reader was not trained on")
    p.add_argument("--record", action="store_true", help="write the tables into the weights' reader.json")
    a = p.parse_args(argv)
    meta_path = WEIGHTS / "reader.json"
    meta = json.loads(meta_path.read_text())
    print(f"gate {GATE} ({SINGLE_GATE} for one character)")
    for name, path in (("held_out", a.val), ("unseen_font", a.unseen)):
        if not path:
            continue
        m = measure(path)
        print(format_table(f"{name} ({path})", m["rapidocr_parity"]))
        meta[name] = m
    if a.record:
        meta_path.write_text(json.dumps(meta, indent=1, ensure_ascii=False) + "\n")
        print(f"recorded in {meta_path}")


if __name__ == "__main__":
    main()
