"""House styles: learn a lab's look from its own figures, and draw every new figure in it.

``crafter style learn FIGURES… -o mylab.style.json`` reads figures (Crafter SVGs exactly; other
SVGs, PDFs and rasters through the vectoriser CraftEditor offers) and writes a style validated
by the published schema (``style.schema.json``): palette by role, font class and closest
installed face, relative type sizes, strokes, corner radius, arrowheads, group frames, chart
look, layout direction and spacing, each with its count and confidence.

A style is applied as a layer over the figure's theme (:func:`apply_style` sets ``Figure.style``;
``crafter.base.theme.figure_theme`` lays it on), so every renderer and export honours it.
"""

from crafter.style.color import delta_e, hex6
from crafter.style.learn import learn_style
from crafter.style.model import (
    MIN_CONFIDENCE,
    SUFFIX,
    apply_style,
    install_style,
    installed_styles,
    load_style,
    resolve_style,
    save_style,
    style_layer,
    style_schema,
    styles_dir,
    validate_style,
    value,
)
from crafter.style.observe import Evidence, observe
from crafter.style.read import READABLE, learn_from_files, read_evidence, valid_name
from crafter.style.sample import sample_figure, swatch_figure

__all__ = [
    "MIN_CONFIDENCE",
    "READABLE",
    "SUFFIX",
    "Evidence",
    "apply_style",
    "delta_e",
    "hex6",
    "install_style",
    "installed_styles",
    "learn_from_files",
    "learn_style",
    "load_style",
    "observe",
    "read_evidence",
    "resolve_style",
    "sample_figure",
    "save_style",
    "style_layer",
    "style_schema",
    "styles_dir",
    "swatch_figure",
    "valid_name",
    "validate_style",
    "value",
]
