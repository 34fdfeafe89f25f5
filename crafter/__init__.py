"""Crafter: editable, semantically structured SVG scientific figures."""

__version__ = "0.1.0"
