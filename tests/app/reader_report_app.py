"""The app as ``app.py`` runs it, with a known reading confidence in CraftEditor's report.

For the browser test of the Vectorize tab: ``text_confidence`` and ``unsure_words`` come from
CraftEditor's reader, and how sure it is of a word drawn here changes with the reader (and is
missing from a CraftEditor that does not measure it). So the values in the
``CRAFTER_TEST_READER_REPORT`` environment variable (JSON: file name → report keys) are put in
the report of a file of that name, and the page shows a report the test knows; other files are
left as CraftEditor reads them.
"""

from __future__ import annotations

import functools
import json
import os
import runpy
from pathlib import Path

import crafteditor

_EXTRA = json.loads(os.environ.get("CRAFTER_TEST_READER_REPORT", "{}"))
_real = getattr(crafteditor.convert, "__wrapped__", crafteditor.convert)


@functools.wraps(_real)
def _convert(*args, **kwargs):
    conv = _real(*args, **kwargs)
    for key, value in _EXTRA.get(kwargs.get("name") or "", {}).items():
        conv.report[key] = value
    return conv


crafteditor.convert = _convert  # app.py takes CraftEditor's convert from the package: this one
runpy.run_path(str(Path(__file__).resolve().parents[2] / "app.py"), run_name="__main__")
