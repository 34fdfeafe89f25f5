"""matplotlib figures as a researcher saves them, and the rows CraftEditor read from a chart
(shared by the chart tests; imported as ``mpl_helpers``)."""

import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def mpl_png(fig) -> bytes:
    """``fig`` saved as a 150 dpi PNG (tight layout), then closed."""
    buf = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buf, format="png", dpi=150)
    plt.close(fig)
    return buf.getvalue()


def gg_png(plot, dpi: int) -> bytes:
    """A plotnine plot drawn and saved as a PNG at ``dpi`` (as ggsave does: no tight layout), then closed."""
    fig = plot.draw()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    plt.close(fig)
    return buf.getvalue()


def read_rows(conv, k=0):
    """(the k-th chart's spec, its data as (series, x, y) rows)."""
    chart = conv.figure.of_kind("chart")[k]
    return chart.spec, [(r.get("series"), r["x"], r["y"]) for r in chart.spec["data"]["values"]]
