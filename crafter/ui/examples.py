"""Ready-made briefs (and a small results table) behind the app's "Try an example" buttons,
and the repository's example figures behind the Open tab's "start from an example".

They show a first-time user what a brief looks like and let them reach a finished
two-panel figure — a diagram next to a chart of their data — in two clicks.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

EXAMPLE_FIGURES = Path(__file__).resolve().parents[2] / "examples"  # the checkout's examples/*.dsl


@dataclass(frozen=True)
class Example:
    key: str
    button: str  # the button's text
    brief: str
    table_name: str | None = None
    table_csv: str | None = None  # inline, so the example works from an installed wheel


RESULTS_CSV = """model,dataset,accuracy
ResNet-50,ImageNet,76.1
ResNet-50,CIFAR-100,78.9
ViT-B/16,ImageNet,81.8
ViT-B/16,CIFAR-100,87.1
Ours,ImageNet,83.4
Ours,CIFAR-100,89.6
"""

EXAMPLES: tuple[Example, ...] = (
    Example(
        key="diagram",
        button="Pipeline diagram",
        brief=("A retrieval-augmented generation pipeline: User Query → Retriever → Reranker → "
               "LLM Generator → Answer. The Retriever searches a Vector Index."),
    ),
    Example(
        key="two_panel",
        button="Two panels: diagram + chart",
        brief=("Two panels. (a) Method: Images → ViT Encoder → Projection Head → Contrastive Loss. "
               "(b) Results: a grouped bar chart of accuracy by model for each dataset, "
               "from the attached table."),
        table_name="model_accuracy.csv",
        table_csv=RESULTS_CSV,
    ),
)


def example(key: str) -> Example:
    for ex in EXAMPLES:
        if ex.key == key:
            return ex
    raise KeyError(key)


def example_files() -> dict[str, str]:
    """The repository's examples/*.dsl, path → readable name (empty when not in a checkout)."""
    return {str(p): p.stem.replace("_", " ").capitalize() for p in sorted(EXAMPLE_FIGURES.glob("*.dsl"))}
