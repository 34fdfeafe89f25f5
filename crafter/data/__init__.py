"""Tables in: CSV/TSV, JSON and XLSX files → typed :class:`Table` objects for charts.

>>> from crafter.data import read_table_bytes
>>> t = read_table_bytes(b"model,accuracy\\nViT-B/16,81.2\\nResNet-50,76.1\\n", "results.csv")
>>> t.types
{'model': 'nominal', 'accuracy': 'quantitative'}
>>> t.to_records()[0]
{'model': 'ViT-B/16', 'accuracy': 81.2}

Public API: :func:`read_table` (a path), :func:`read_table_bytes` (an upload),
:class:`Table` / :class:`Column`, :data:`MAX_TABLE_BYTES`. Errors are
:class:`crafter.errors.InputError` naming the file, row and column.
"""

from crafter.data.infer import table_from_records
from crafter.data.readers import MAX_TABLE_BYTES, read_table, read_table_bytes
from crafter.data.table import MEASURE_TYPES, Column, MeasureType, Table

__all__ = [
    "Column", "MAX_TABLE_BYTES", "MEASURE_TYPES", "MeasureType", "Table", "read_table", "read_table_bytes",
    "table_from_records",
]
