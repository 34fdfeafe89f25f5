"""Loading: formats, alpha, 16-bit, grayscale, palette, bombs, entry points."""

import io

import numpy as np
import pytest
from ce_helpers import box_image, png_bytes
from PIL import Image

from crafteditor import Config, load_image, vectorize
from crafter.errors import InputError


def _encode(im: Image.Image, fmt: str, **kw) -> bytes:
    buf = io.BytesIO()
    im.save(buf, format=fmt, **kw)
    return buf.getvalue()


@pytest.mark.parametrize("fmt", ["PNG", "JPEG", "WEBP"])
def test_formats_decode_to_rgb(fmt):
    data = _encode(Image.fromarray(box_image()), fmt)
    img = load_image(data, name=f"x.{fmt.lower()}")
    assert img.rgb.shape == (64, 96, 3) and img.rgb.dtype == np.uint8
    assert img.source_format == fmt


def test_alpha_is_flattened_onto_the_background():
    a = np.zeros((10, 10, 4), np.uint8)
    a[..., 0] = 255
    a[:, 5:, 3] = 255  # left half transparent, right half opaque red
    img = load_image(png_bytes(a))
    assert tuple(img.rgb[0, 0]) == (255, 255, 255)
    assert tuple(img.rgb[0, 9]) == (255, 0, 0)
    assert img.had_alpha
    grey = load_image(png_bytes(a), Config(background="#000000"))
    assert tuple(grey.rgb[0, 0]) == (0, 0, 0)


def test_mostly_opaque_rgba_flattens_only_its_transparent_pixels():
    """Opaque pixels are copied, the rest composited: the same bytes as compositing all of them."""
    from crafteditor.loading import _flatten, array_to_rgb

    rng = np.random.RandomState(3)
    a = rng.randint(0, 256, (30, 40, 4)).astype(np.uint8)
    a[..., 3] = 255
    a[0, :, 3] = rng.randint(0, 255, 40)  # an anti-aliased edge
    a[5:8, 5:9, 3] = 0
    assert np.array_equal(array_to_rgb(a, "#336699", "x"), _flatten(a, "#336699", "x"))
    assert (array_to_rgb(a, "#336699", "x")[5, 5] == [0x33, 0x66, 0x99]).all()


def test_sixteen_bit_grayscale_and_palette():
    deep = Image.fromarray(np.full((8, 8), 32896, np.uint16))
    assert tuple(load_image(_encode(deep, "PNG")).rgb[0, 0]) == (128, 128, 128)
    grey = Image.fromarray(np.full((8, 8), 77, np.uint8), mode="L")
    assert tuple(load_image(_encode(grey, "PNG")).rgb[0, 0]) == (77, 77, 77)
    pal = Image.fromarray(box_image()).convert("P", palette=Image.ADAPTIVE, colors=8)
    pal.info["transparency"] = 0
    img = load_image(_encode(pal, "PNG", transparency=0))
    assert img.rgb.shape == (64, 96, 3)


def test_dpi_is_read_from_the_file():
    data = _encode(Image.fromarray(box_image()), "PNG", dpi=(150, 150))
    assert load_image(data).dpi == 150.0
    assert load_image(data, Config(dpi=300)).dpi == 300.0
    assert load_image(png_bytes(box_image())).dpi == 96.0


def test_pixel_limit_refuses_a_decompression_bomb_by_name(tmp_path):
    p = tmp_path / "bomb.png"
    Image.new("L", (4000, 3000), 255).save(p)
    with pytest.raises(InputError, match=r"bomb\.png: image is 4000×3000 = 12\.0 megapixels, over the limit"):
        load_image(p, Config(max_pixels=1_000_000))


def test_corrupt_and_missing_files_name_the_file(tmp_path):
    bad = tmp_path / "bad.png"
    bad.write_bytes(b"not an image at all")
    with pytest.raises(InputError, match="bad.png: not a readable image"):
        load_image(bad)
    cut = tmp_path / "cut.png"
    cut.write_bytes(png_bytes(np.random.RandomState(0).randint(0, 255, (200, 200, 3), dtype=np.uint8))[:900])
    with pytest.raises(InputError, match="cut.png: corrupt or truncated"):
        load_image(cut)
    with pytest.raises(InputError, match="nope.png: no such image file"):
        load_image(tmp_path / "nope.png")
    with pytest.raises(InputError, match="empty file"):
        load_image(b"")


def test_array_entry_points():
    a = box_image()
    assert load_image(a).rgb.shape == (64, 96, 3)
    assert load_image(a[..., 0]).rgb.shape == (64, 96, 3)  # grayscale
    assert load_image(a.astype(np.float32) / 255).rgb[0, 0, 0] == 255
    with pytest.raises(InputError, match="shape"):
        load_image(np.zeros((4, 4, 5), np.uint8))


def test_path_bytes_and_array_give_the_same_figure(tmp_path):
    a = box_image(160, 110)
    p = tmp_path / "box.png"
    p.write_bytes(png_bytes(a))
    cfg = Config(ocr=False)
    figs = [vectorize(src, cfg).figure for src in (p, p.read_bytes(), a)]
    assert figs[0] == figs[1] == figs[2]
    assert [c.kind for c in figs[0].components] == ["node"]
