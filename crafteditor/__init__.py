"""CraftEditor: raster figures (PNG, JPEG, WebP) → editable FigureSpecs and SVGs.

>>> from crafteditor import Config, convert          # doctest: +SKIP
>>> result = convert("figure.png", Config.preset("diagram"))
>>> result.svg, result.report["ssim"]

Entry points take a path, encoded bytes or a numpy array (:func:`vectorize`,
:func:`convert`); :func:`convert_batch` converts thousands with a resumable manifest.
The output is rendered by Crafter itself (``crafter.render``), so a converted figure is
as editable as a generated one.
"""

from crafteditor.batch import BatchSummary, convert_batch
from crafteditor.config import PRESETS, Config, ConfigError
from crafteditor.convert import Conversion, convert, convert_file
from crafteditor.loading import RasterImage, load_image
from crafteditor.vectorizer import Vectorized, vectorize

__all__ = [
    "BatchSummary", "Config", "ConfigError", "Conversion", "PRESETS", "RasterImage", "Vectorized",
    "convert", "convert_batch", "convert_file", "load_image", "vectorize",
]
