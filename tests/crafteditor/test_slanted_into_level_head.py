"""A line that arrives slanted at a level arrowhead (a Mermaid basis curve's long straight run that
flattens only inside its head) keeps its last leg: the route stays on the ink up to the head.

The skeleton ends at the head's back, so the route's last point always touches the head; it was
dropped as skeleton wobble however long its leg, and the route was joined to the head from the
point before, projected onto the head's axis: dev G_clem_web-architecture's curve from
'Statistics Service' into 'Project Discovery' came back with its bend 37 px below the ink."""

from __future__ import annotations

import cv2
import numpy as np

from crafteditor.lines.arrows import _join_head
from crafteditor.lines.detect import detect_lines


def _slant_into_level_head() -> tuple[np.ndarray, np.ndarray]:
    rgb = np.full((240, 460, 3), 255, np.uint8)
    cv2.polylines(rgb, [np.array([(40, 20), (40, 100), (398, 190)], np.int32)], False, (51, 51, 51), 2, cv2.LINE_AA)
    cv2.fillPoly(rgb, [np.array([(398, 182), (420, 190), (398, 198)], np.int32)], (51, 51, 51), cv2.LINE_AA)
    return rgb, rgb.min(axis=2) < 200


def test_a_slanted_run_into_a_level_head_stays_on_its_ink():
    rgb, ink = _slant_into_level_head()
    lines, _ = detect_lines(rgb, ink, np.array([255.0, 255.0, 255.0]))
    assert len(lines) == 1
    ln = lines[0]
    assert (ln.head_start is None) != (ln.head_end is None)
    off_ink = cv2.distanceTransform((~ink).astype(np.uint8), cv2.DIST_L2, 3)
    for x, y in ln.points:
        assert off_ink[int(round(y)), int(round(x))] <= 2.0, (x, y)
    # and along each leg, not only at the bends
    for a, b in zip(ln.points, ln.points[1:]):
        for t in np.linspace(0, 1, 25):
            x, y = a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t
            assert off_ink[int(round(y)), int(round(x))] <= 3.0, (x, y)


def test_a_far_point_off_the_heads_axis_is_not_projected_onto_it():
    # the last point clear of the head lies 36 px off its axis: it stays, the route runs on to the tip
    pts = [(73.0, 1877.0), (199.0, 1903.0)]
    assert _join_head(pts, (432.4, 1939.9), (1.0, 0.0), 1.8) == pts
    # a point a pixel or two off (skeleton wobble) is still brought onto the axis
    near = _join_head([(100.0, 51.0), (300.0, 51.5)], (420.0, 50.0), (1.0, 0.0), 1.8)
    assert near[-1] == (300.0, 50.0)
