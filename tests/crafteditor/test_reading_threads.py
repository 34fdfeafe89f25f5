"""A figure is read on ``Config.cv_threads`` OpenCV threads (one by default: less CPU for the same
reading), and the caller's own OpenCV thread count is back in place afterwards."""

from __future__ import annotations

import cv2
import pytest

from crafteditor.config import Config, ConfigError
from crafteditor.convert import convert
from crafteditor.vectorizer import cv_threads
from crafter.formats.raster import svg_to_png
from crafter.render.svg import ensure_layout, figure_to_svg
from crafter.spec import parse_dsl

PIPELINE = '''figure direction=LR
a node "Load" font_size=13
b node "Tokenise" font_size=13
c node "Train" font_size=13 shape=round
e1 edge a -> b "text"
e2 edge b -> c
'''


@pytest.fixture
def opencv_threads():
    before = cv2.getNumThreads()
    yield before
    cv2.setNumThreads(before)


def _png() -> bytes:
    fig = ensure_layout(parse_dsl(PIPELINE), relayout=True)
    return svg_to_png(figure_to_svg(fig), width=round(fig.canvas.w * 1.5))


def test_one_thread_reads_the_figure_all_threads_read(opencv_threads) -> None:
    cv2.setNumThreads(2)  # the caller's choice (a 2-core machine's default)
    png = _png()
    one = convert(png, Config(quality=False))
    assert cv2.getNumThreads() == 2  # restored after the reading
    mine = convert(png, Config(quality=False, cv_threads=0))
    assert one.svg == mine.svg
    assert {n.label for n in one.figure.of_kind("node")} == {"Load", "Tokenise", "Train"}
    assert len(one.figure.of_kind("edge")) == 2


def test_the_thread_count_is_restored_when_the_reading_fails(opencv_threads) -> None:
    cv2.setNumThreads(2)
    with pytest.raises(RuntimeError), cv_threads(1):
        assert cv2.getNumThreads() == 1
        raise RuntimeError("a stage failed")
    assert cv2.getNumThreads() == 2


def test_cv_threads_is_an_option_that_rejects_negative_counts() -> None:
    assert Config.from_options({"cv_threads": "0"}).cv_threads == 0
    with pytest.raises(ConfigError, match="cv_threads"):
        Config(cv_threads=-1)


def test_overlapping_readings_in_two_threads_give_the_caller_its_count_back(opencv_threads) -> None:
    """The app reads each session in a thread: A in, B in, A out, B out must leave the caller's count, not the
    one A saw on its way in (B's)."""
    import threading

    cv2.setNumThreads(2)
    a_in, b_in, a_out = threading.Event(), threading.Event(), threading.Event()
    under_b: list[int] = []

    def reading_a():
        with cv_threads(1):
            a_in.set()
            b_in.wait(5)
        a_out.set()

    def reading_b():
        a_in.wait(5)
        with cv_threads(1):
            b_in.set()
            a_out.wait(5)
            under_b.append(cv2.getNumThreads())  # A's leaving does not put the caller's count back under B

    ta, tb = threading.Thread(target=reading_a), threading.Thread(target=reading_b)
    ta.start(), tb.start()
    ta.join(10), tb.join(10)
    assert under_b == [1] and cv2.getNumThreads() == 2
