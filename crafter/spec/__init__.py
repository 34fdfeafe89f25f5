"""The FigureSpec IR: typed models, the DSL, JSON and file I/O.

>>> from crafter.spec import parse_dsl, print_dsl
>>> fig = parse_dsl('a node "Encoder"\\nb node "Decoder"\\ne edge a -> b')
>>> print_dsl(fig).splitlines()[2]
'e edge a -> b'
"""

from crafter.errors import DSLSyntaxError, SpecError
from crafter.spec.dsl import parse_component, parse_dsl, print_component, print_dsl
from crafter.spec.io import load_figure, save_figure, figure_from_text
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
    "figure_from_text", "json_schema", "load_figure", "parents", "parse_component", "parse_dsl",
    "print_component", "print_dsl", "save_figure",
]
