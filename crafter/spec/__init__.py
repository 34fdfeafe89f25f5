"""The FigureSpec IR: typed models, the DSL and JSON (files are :mod:`crafter.formats`).

>>> from crafter.spec import parse_dsl, print_dsl
>>> fig = parse_dsl('a node "Encoder"\\nb node "Decoder"\\ne edge a -> b')
>>> print_dsl(fig).splitlines()[2]
'e edge a -> b'
"""

from crafter.errors import DSLSyntaxError, SpecError
from crafter.spec.dsl import figure_from_text, parse_component, parse_dsl, print_component, print_dsl
from crafter.spec.model import (
    COMPONENT_TYPES,
    KINDS,
    SHAPES,
    THEMES,
    Box,
    Chart,
    Component,
    Edge,
    Figure,
    Group,
    Image,
    Node,
    Panel,
    Path,
    Point,
    Size,
    Text,
    json_schema,
    parents,
)

__all__ = [
    "Box", "Chart", "Component", "COMPONENT_TYPES", "DSLSyntaxError", "Edge", "Figure", "Group", "Image",
    "KINDS", "Node", "Panel", "Path", "Point", "SHAPES", "Size", "SpecError", "Text", "THEMES",
    "figure_from_text", "json_schema", "parents", "parse_component", "parse_dsl",
    "print_component", "print_dsl",
]
