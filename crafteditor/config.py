"""CraftEditor's one configuration: a dataclass with typed defaults and named presets.

Unknown options are rejected with a message that lists the valid ones (vtracer's
binding silently falls back to defaults; a typo there costs a user an afternoon).

>>> Config.preset("chart").mode
'chart'
>>> Config.from_options({"ocr": False}).ocr
False
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, fields
from typing import Any, Literal, get_args

from crafter.base.theme import get_theme
from crafter.errors import CrafterError

# the theme a converted figure is drawn in: its defaults are what a detected style is compared with
THEME = get_theme("paper")

Mode = Literal["auto", "diagram", "chart"]
TraceMode = Literal["auto", "vtracer", "image", "none"]
OcrScripts = Literal["latin", "any"]
SketchMode = Literal["auto", "on", "off"]


TIME_BUDGET_MIN_S = 20.0  # the least time budget a figure gets, however small


class ConfigError(CrafterError):
    """A CraftEditor option that does not exist or has a bad value."""


@dataclass(frozen=True)
class Config:
    """How a raster figure is read back. Sizes in SVG user units (px at 96 dpi) unless named ``_px``."""

    preset_name: str = "auto"  # the preset this config started from
    mode: Mode = "auto"  # what to look for: diagrams, charts, or decide per image
    dpi: float | None = None  # None: the file's own dpi (PNG pHYs / JPEG JFIF), else 96
    max_pixels: int = 64_000_000  # decompression-bomb guard: larger images are refused
    background: str = "#FFFFFF"  # transparent pixels are flattened onto this colour
    denoise: bool = False  # median filter first (scans, JPEG artefacts); text is read unfiltered
    # compression or scanning noise: pixels take their nearest paint, faint ink (ringing) is not
    # a line, and a wider ring of pixels is erased with the glyphs
    lossy: bool = False
    # colours
    color_merge: float = 6.0  # RGB distance under which two exact colours are one paint
    color_tolerance: float = 12.0  # a pixel farther than this from every paint is anti-aliasing
    min_paint_share: float = 0.0004  # a colour needs this share of pixels to count as a paint
    # text
    ocr: bool = True
    ocr_scripts: OcrScripts = "latin"  # 'latin': Latin/Greek/math symbols only (no CJK look-alikes)
    ocr_min_confidence: float = 0.6
    # the reader trained here (crafteditor.reader) reads the clean line crops first, rapidocr
    # those it is unsure of; False: rapidocr reads every line
    ocr_reader: bool = True
    # the text detector runs on a mosaic of the places glyphs can be (crafteditor.text_regions);
    # False: on the whole image
    ocr_regions: bool = True
    # a short reading's lead glyph is read again as a math italic letter (TeX's x_1 came back '1'),
    # with its hat (crafteditor.ocr.math_letters); False: as the recogniser read it
    ocr_math_letters: bool = True
    # onnxruntime threads (the text detector's; the recogniser runs on one); 0: the cores this process
    # may use. One: a second thread's hand-offs cost the detector more CPU than they saved (a reading
    # on one thread takes longer on an idle multi-core machine; vectorizer.cv_threads has the figures)
    ocr_threads: int = 1
    # OpenCV's threads while a figure is read (restored after); 0: left as the caller set them.
    # One: on figure-sized arrays its pool's hand-offs cost more CPU than they save (vectorizer.cv_threads)
    cv_threads: int = 1
    # shapes, lines, groups
    shapes: bool = True
    edges: bool = True
    groups: bool = True
    min_node_size: float = 14.0  # smallest node side kept as a shape
    shape_min_iou: float = 0.88  # a face must match an ideal shape this well to become a node
    # hand-drawn outlines (wobbly, grey, not quite closed; crafteditor.shapes.sketch): 'auto' where
    # the outlines look hand-drawn, 'on' always, 'off' never
    sketch: SketchMode = "auto"
    # charts
    charts: bool = True
    # photos and screenshots inside a figure: kept as embedded image crops (crafteditor.photos)
    photos: bool = True
    # what remains
    trace: TraceMode = "auto"  # vtracer paths or an embedded image patch for unexplained ink
    trace_min_area: float = 12.0  # residual ink smaller than this (user px²) is dropped as noise
    # time budget: CPU seconds per megapixel (config.budget_clock; at least TIME_BUDGET_MIN_S a figure; 0: none). Past it the
    # stages not yet run are skipped (what is left is traced) and the report says so
    timeout: float = 10.0
    # output
    quality: bool = True  # re-render and compute SSIM (costs one render per figure)

    def __post_init__(self) -> None:
        for f in fields(self):
            allowed = _choices(f.type)
            value = getattr(self, f.name)
            if allowed and value not in allowed:
                raise ConfigError(f"option '{f.name}' must be one of {', '.join(allowed)}, not {value!r}")
        if self.dpi is not None and not (10 <= self.dpi <= 2400):
            raise ConfigError(f"option 'dpi' must be between 10 and 2400, not {self.dpi}")
        if self.max_pixels <= 0:
            raise ConfigError("option 'max_pixels' must be positive")
        if not 0 <= self.ocr_min_confidence <= 1:
            raise ConfigError("option 'ocr_min_confidence' must be between 0 and 1")
        if self.timeout < 0:
            raise ConfigError("option 'timeout' must be 0 (no budget) or more seconds per megapixel")
        if self.ocr_threads < 0:
            raise ConfigError("option 'ocr_threads' must be 0 (all cores) or more")
        if self.cv_threads < 0:
            raise ConfigError("option 'cv_threads' must be 0 (OpenCV's own count) or more")

    # -- construction ---------------------------------------------------------------
    @classmethod
    def preset(cls, name: str = "auto", **overrides: Any) -> "Config":
        """A named preset (auto, diagram, chart, scan, sketch) with options overridden."""
        if name not in PRESETS:
            raise ConfigError(f"unknown preset '{name}'; expected one of {', '.join(PRESETS)}")
        return cls.from_options({**PRESETS[name], **overrides}, preset=name)

    @classmethod
    def from_options(cls, options: dict[str, Any], *, preset: str | None = None) -> "Config":
        """Build from plain options (a CLI's key=value pairs, a JSON file); unknown keys raise."""
        names = {f.name for f in fields(cls)}
        unknown = sorted(set(options) - names)
        if unknown:
            valid = ", ".join(sorted(names - {"preset_name"}))
            raise ConfigError(f"unknown option(s): {', '.join(unknown)}; valid options are {valid}")
        values = dict(options)
        if preset is not None:
            values["preset_name"] = preset
        typed = {k: _coerce(k, v) for k, v in values.items()}
        return cls(**typed)

    def time_budget(self, width: int, height: int) -> float | None:
        """CPU seconds one figure of this size may take (None: no budget), on :func:`budget_clock`."""
        if self.timeout <= 0:
            return None
        return max(TIME_BUDGET_MIN_S, self.timeout * width * height / 1e6)

    def replace(self, **changes: Any) -> "Config":
        """A copy with options changed (unknown names raise)."""
        return Config.from_options({**self.to_dict(), **changes})

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def for_image(self, source_format: str | None, jpeg_marks: bool = False) -> "Config":
        """The config a file is read with: the auto preset reads a JPEG as lossy, with the jpeg
        preset's options wherever this config keeps the default (on q75 JPEGs of the examples:
        boxes 0 -> 97%: every pale fill had broken into noise and was traced as paths); and so
        another file whose pixels carry a JPEG's marks (``jpeg_marks``: :mod:`crafteditor.jpeg_marks`)."""
        if self.preset_name != "auto" or ((source_format or "").upper() not in ("JPEG", "MPO") and not jpeg_marks):
            return self
        base = Config()
        changes = {k: v for k, v in PRESETS["jpeg"].items() if getattr(self, k) == getattr(base, k)}
        return self.replace(**changes, preset_name="jpeg") if changes else self


def _choices(annotation: Any) -> tuple[Any, ...]:
    if isinstance(annotation, str):
        annotation = {"Mode": Mode, "TraceMode": TraceMode, "OcrScripts": OcrScripts, "SketchMode": SketchMode}.get(annotation)
    return get_args(annotation) if annotation is not None else ()


_TYPES = {f.name: f.default for f in fields(Config)}


def _coerce(name: str, value: Any) -> Any:
    """Accept CLI strings ('true', '150') for typed options; raise a ConfigError naming the option."""
    default = _TYPES.get(name)
    if not isinstance(value, str) or isinstance(default, str):
        return value
    try:
        if isinstance(default, bool):
            low = value.strip().lower()
            if low in ("1", "true", "yes", "on"):
                return True
            if low in ("0", "false", "no", "off"):
                return False
            raise ValueError(value)
        if isinstance(default, int):
            return int(value)
        if isinstance(default, float) or name == "dpi":
            return None if value.lower() == "none" else float(value)
    except ValueError:
        raise ConfigError(f"option '{name}' expects a {type(default).__name__ if default is not None else 'number'}, "
                          f"not {value!r}") from None
    return value


PRESETS: dict[str, dict[str, Any]] = {
    # decide per image: charts where axes with numeric ticks are found, diagrams elsewhere
    "auto": {},
    # boxes and arrows: no chart search, so a framed table of boxes never becomes a bar chart
    "diagram": {"mode": "diagram", "charts": False},
    # data plots: axes, ticks, marks and legend; shapes are not searched outside the plot
    "chart": {"mode": "chart", "groups": False},
    # compressed figures (JPEG; auto switches to it for JPEG files): denoise, wider colour tolerance
    "jpeg": {"denoise": True, "lossy": True, "color_merge": 16.0, "color_tolerance": 28.0,
             "trace_min_area": 40.0, "ocr_min_confidence": 0.5},
    # photographed or scanned pages: as jpeg, and raster patches for the rest
    "scan": {"denoise": True, "lossy": True, "color_merge": 16.0, "color_tolerance": 28.0, "min_paint_share": 0.002,
             "trace_min_area": 40.0, "trace": "image", "ocr_min_confidence": 0.5},
    # hand-drawn sketches (pencil, whiteboard, Excalidraw): as scan, every closed or nearly closed
    # outline read as a clean node however much it wobbles
    "sketch": {"denoise": True, "lossy": True, "color_merge": 16.0,
               "color_tolerance": 28.0, "min_paint_share": 0.002, "trace_min_area": 40.0, "trace": "image",
               "ocr_min_confidence": 0.5, "sketch": "on"},
}


def budget_clock() -> float:
    """The clock a figure's time budget runs on (stages compare their ``deadline`` with it): the
    process's CPU seconds, all its threads. Wall-clock time made a figure's reading depend on the
    machine's load: on 2 cores shared by 8 jobs a figure's stages took 2-3x its CPU time, so a
    7 CPU-s diagram passed its 20 s budget and lost its line joins (C_k8s-enhancements_kubeadm-
    reset, 'assemble' skipped), where on an idle machine it took 3 s. CPU time is what the figure
    itself spends, whatever else runs; it still bounds every figure (nothing here waits on I/O)."""
    return time.process_time()


def past(deadline: float | None) -> bool:
    """Whether :func:`budget_clock` has passed ``deadline`` (None: no deadline, never passed)."""
    return deadline is not None and budget_clock() > deadline
