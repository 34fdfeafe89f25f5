"""Config: presets, unknown options rejected, values checked."""

import pytest

from crafteditor import PRESETS, Config, ConfigError


def test_presets_exist_and_differ():
    assert {"auto", "diagram", "chart", "scan"} <= set(PRESETS)
    assert Config.preset("diagram").charts is False
    assert Config.preset("chart").mode == "chart"
    assert Config.preset("scan").denoise is True
    assert Config.preset("scan").preset_name == "scan"
    assert Config().preset_name == "auto"


def test_unknown_option_is_rejected_with_the_valid_names():
    with pytest.raises(ConfigError, match="unknown option.*colour_merge.*valid options are .*color_merge"):
        Config.from_options({"colour_merge": 3})
    with pytest.raises(ConfigError, match="unknown option"):
        Config.preset("diagram", ocr_engine="tesseract")


def test_unknown_preset_and_bad_values():
    with pytest.raises(ConfigError, match="unknown preset 'photo'"):
        Config.preset("photo")
    with pytest.raises(ConfigError, match="mode"):
        Config(mode="table")
    with pytest.raises(ConfigError, match="dpi"):
        Config(dpi=1)
    with pytest.raises(ConfigError, match="'ocr' expects a bool"):
        Config.from_options({"ocr": "maybe"})


def test_cli_strings_are_typed():
    c = Config.from_options({"ocr": "false", "dpi": "150", "max_pixels": "1000", "trace": "image"})
    assert c.ocr is False and c.dpi == 150.0 and c.max_pixels == 1000 and c.trace == "image"
    assert c.replace(dpi=None).dpi is None
