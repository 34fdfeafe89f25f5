"""The Ray executor on a local one-CPU Ray instance (skipped when Ray is not installed)."""

import pytest
from ce_helpers import box_image, png_bytes

from crafteditor import Config, convert_batch

ray = pytest.importorskip("ray")


def test_ray_executor_converts_and_records(tmp_path):
    src = tmp_path / "in"
    src.mkdir()
    for i in range(3):
        (src / f"f{i}.png").write_bytes(png_bytes(box_image()))
    (src / "bad.png").write_bytes(b"nope")
    ray.init(num_cpus=1, include_dashboard=False)
    try:
        s = convert_batch([src], tmp_path / "out", Config(ocr=False, quality=False), executor="ray", progress=False)
    finally:
        ray.shutdown()
    assert (s.converted, s.failed) == (3, 1)
