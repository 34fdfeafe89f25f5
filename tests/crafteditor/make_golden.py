"""Regenerate the golden figures: `python tests/crafteditor/make_golden.py`.

Each golden figure is a small PNG plus its ground truth as JSON: the FigureSpec that
Crafter rendered (diagrams) or the data matplotlib plotted (charts). The tests score a
conversion against the truth instead of comparing exact output, so improving the
detectors never needs new goldens.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

from crafteditor.synthetic import diagram_png, random_chart, random_diagram

HERE = Path(__file__).parent / "golden"

DIAGRAMS = [("diagram_150", 7, 150, 3, 2), ("diagram_300", 11, 300, 2, 2), ("diagram_100", 12, 100, 3, 2)]
EXAMPLES = [("example_multi_agent", "examples/multi_agent.dsl", 150)]
CHARTS = [("chart_bar_150", 3, 150), ("chart_line_200", 13, 200), ("chart_scatter_100", 14, 100)]


def main() -> None:
    HERE.mkdir(exist_ok=True)
    for name, seed, dpi, cols, rows in DIAGRAMS:
        fig = random_diagram(seed, cols=cols, rows=rows)
        (HERE / f"{name}.png").write_bytes(diagram_png(fig, dpi))
        (HERE / f"{name}.json").write_text(fig.to_json() + "\n", encoding="utf-8")
    from crafteditor.bench import render_truth

    root = Path(__file__).resolve().parents[2]
    for name, dsl, dpi in EXAMPLES:
        fig, png = render_truth(root / dsl, dpi)
        (HERE / f"{name}.png").write_bytes(png)
        (HERE / f"{name}.json").write_text(fig.to_json() + "\n", encoding="utf-8")
    for name, seed, dpi in CHARTS:
        png, truth = random_chart(seed, dpi)
        (HERE / f"{name}.png").write_bytes(png)
        (HERE / f"{name}.json").write_text(json.dumps(asdict(truth), indent=1) + "\n", encoding="utf-8")
    for p in sorted(HERE.iterdir()):
        print(f"{p.name:28} {p.stat().st_size:>8} bytes")


if __name__ == "__main__":
    main()
