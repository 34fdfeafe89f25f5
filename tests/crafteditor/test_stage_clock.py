"""The conversion report shows each stage's seconds twice, wall (``timings``) and CPU (``cpu_stages``),
read by one stopwatch: the same stages, and the CPU stages sum to the conversion's CPU seconds."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from crafteditor.config import Config
from crafteditor.convert import convert

STAGES = ["paints", "text", "charts", "shapes", "lines", "trace", "assemble"]


def test_report_times_every_stage_wall_and_cpu():
    img = np.full((160, 260, 3), 255, np.uint8)
    cv2.rectangle(img, (20, 40), (100, 100), (40, 40, 40), 2)
    cv2.rectangle(img, (160, 40), (240, 100), (40, 40, 40), 2)
    cv2.arrowedLine(img, (102, 70), (158, 70), (40, 40, 40), 2)
    r = convert(img, Config(ocr=False, quality=False)).report
    assert list(r["timings"]) == STAGES
    assert list(r["cpu_stages"]) == ["load", *STAGES, "render"]
    assert all(v >= 0 for v in [*r["timings"].values(), *r["cpu_stages"].values()])
    assert sum(r["cpu_stages"].values()) == pytest.approx(r["cpu_seconds"], abs=0.01)
