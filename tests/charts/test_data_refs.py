"""Chart data by reference (spec.data.url): resolved at load time, inside the figure's folder only."""

from __future__ import annotations

import pytest
from charts_testlib import EXAMPLES

from crafter.charts import chart_svg, resolve_data_urls
from crafter.errors import SpecError
from crafter.spec import Chart, Figure

SPEC = {"data": {"url": "accuracy.csv"}, "mark": "bar",
        "encoding": {"x": {"field": "model", "type": "nominal"}, "y": {"field": "top1_accuracy", "type": "quantitative"}}}


def test_resolves_relative_table_into_inline_rows():
    fig = Figure(components=[Chart(id="acc", kind="chart", spec=SPEC)])
    out = resolve_data_urls(fig, EXAMPLES)
    data = out.get("acc").spec["data"]
    assert data["name"] == "accuracy.csv" and len(data["values"]) == 15
    assert fig.get("acc").spec["data"] == {"url": "accuracy.csv"}  # the input is not changed
    chart_svg(out.get("acc"))


def test_sheet_of_a_workbook():
    spec = resolve_data_urls({**SPEC, "data": {"url": "throughput.xlsx#memory"}}, EXAMPLES)
    assert list(spec["data"]["values"][0]) == ["batch_size", "peak_memory_gb"]


@pytest.mark.parametrize("url,why", [
    ("../accuracy.csv", "'..'"), ("/etc/passwd", "absolute"), ("C:\\data\\x.csv", "absolute"),
    ("http://example.org/x.csv", "URLs"), ("file:///etc/passwd", "URLs"), ("data:text/csv,a", "URLs"),
    ("~/x.csv", "absolute"), ("missing.csv", "no such file"), ("", "relative file name"),
])
def test_refused(url, why):
    with pytest.raises(SpecError) as e:
        resolve_data_urls({**SPEC, "data": {"url": url}}, EXAMPLES)
    assert why in str(e.value) and "data.url" in str(e.value)


def test_symlink_leading_outside_is_refused(tmp_path):
    inner = tmp_path / "fig"
    inner.mkdir()
    (tmp_path / "secret.csv").write_text("a,b\n1,2\n")
    (inner / "link.csv").symlink_to(tmp_path / "secret.csv")
    with pytest.raises(SpecError, match="outside"):
        resolve_data_urls({**SPEC, "data": {"url": "link.csv"}}, inner)


def test_unresolved_url_is_a_clear_render_error():
    from crafter.charts import ChartSpecError

    with pytest.raises(ChartSpecError, match="data.url 'accuracy.csv' was not resolved"):
        chart_svg(Chart(id="c", kind="chart", spec=SPEC))


def test_bad_table_names_the_component(tmp_path):
    (tmp_path / "bad.csv").write_text("a,b\n1,2\n3\n")
    with pytest.raises(SpecError) as e:
        resolve_data_urls(Chart(id="c9", kind="chart", spec={**SPEC, "data": {"url": "bad.csv"}}), tmp_path)
    assert "component 'c9'" in str(e.value) and "ragged" in str(e.value)
