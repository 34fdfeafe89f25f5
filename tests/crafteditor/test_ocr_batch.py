"""A crop reads the same alone and among other crops: the recogniser's and the reader's readings
never depend on which other crops share a call (a padded batch had turned 'docx,' into 'docxi'
when another crop joined it)."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

pytest.importorskip("rapidocr_onnxruntime")

from crafteditor.ocr.engine import get_engine  # noqa: E402


def _crop(text: str, size: int = 15) -> np.ndarray:
    """A clean line crop of ``text`` in DejaVu Sans (BGR), as the line finder cuts them."""
    import matplotlib  # heavy: only for the path of the DejaVu font its wheel ships

    font = ImageFont.truetype(str(matplotlib.get_data_path()) + "/fonts/ttf/DejaVuSans.ttf", size)
    x0, y0, x1, y1 = font.getbbox(text)
    im = Image.new("RGB", (x1 - x0 + 6, y1 - y0 + 6), "white")
    ImageDraw.Draw(im).text((3 - x0, 3 - y0), text, font=font, fill=(20, 20, 20))
    return np.asarray(im)[:, :, ::-1].copy()


LABELS = ["docx,", "Encoder", "Multi-Head Attention", "x", "42", "softmax(QK^T)V over all tokens", "Add & Norm"]


@pytest.mark.parametrize("fast", [False, True], ids=["recogniser", "reader first"])
def test_a_crop_reads_the_same_alone_and_in_company(fast):
    engine = get_engine(1)
    crops = [_crop(t) for t in LABELS]
    # companions a little wider than each label: batches of like widths had held them together
    company = [_crop(t + "m") for t in LABELS] + [_crop(t + "mw") for t in LABELS]
    alone = [engine.recognize([c], latin=True, word_width=96, fast=fast)[0] for c in crops]
    together = engine.recognize(crops + company, latin=True, word_width=96, fast=fast)[:len(crops)]
    reversed_ = engine.recognize(crops[::-1] + company[::-1], latin=True, word_width=96, fast=fast)[:len(crops)][::-1]
    assert together == alone
    assert reversed_ == alone
    assert alone[1][0] == "Encoder"  # and they are readings, not nothing


def test_a_crop_reads_the_same_beside_a_much_wider_one():
    engine = get_engine(1)
    short, wide = _crop("docx,"), _crop("a much longer line of text that pads every crop beside it " * 2)
    assert engine.recognize([short, wide], latin=True)[0] == engine.recognize([short], latin=True)[0]
