"""TikZ/pgfplots export: a laid-out figure as LaTeX that pdflatex compiles.

Two forms of the same picture:

* :func:`figure_to_tikz` — the ``tikzpicture`` alone, to ``\\input`` into a paper (the
  ``.tikz`` exporter). It needs ``tikz`` and ``pgfplots`` and the libraries listed in its
  header comment; colours are defined inside the picture, so nothing leaks into the
  document.
* :func:`figure_to_latex` — a ``standalone`` document around it (the ``.tex`` exporter).

Coordinates are the figure's own (SVG px, y down): the picture sets ``x=0.75pt,
y=-0.75pt`` (96 px = 72 pt), so every number in the file is the one in the FigureSpec
and a reader can match them. Nodes are named TikZ nodes (``(enc)``, ``(enc-label)``)
with TikZ's own shapes (rectangle, rounded corners, ellipse, circle, diamond, signal
for the hexagon, tape for the document, copy shadows for the stack) sized exactly to
the layout box; the label is a separate node centred in the box, so a shape never
grows around its text. Parallelograms and cylinders, whose TikZ shapes cannot take an
exact box, are drawn as paths with an invisible named node on top. Edges follow the
layout route, groups are ``fit`` frames on the background layer, charts are pgfplots
axes with their data inline.

User text goes through :func:`crafter.formats.latex.escape_latex`; characters pdflatex
cannot typeset are replaced by ``?`` and listed in a comment.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from crafter.base.geometry import TRAPEZOIDS, outline_polygon
from crafter.base.markup import num
from crafter.base.rules import (
    EXPORT_LAYERS,
    WRAP_SLACK,
    drawing_order,
    drawn_route,
    edge_font,
    edge_label_plate,
    group_band,
    group_bold,
    group_font,
    group_stroke_width,
    node_label_lines,
    panel_letters,
    readable_on,
)
from crafter.base.svgpath import parse_path
from crafter.base.text import FONT_CLASS_FAMILIES, text_width, wrap
from crafter.base.theme import Theme, figure_theme
from crafter.formats.latex import escape_latex
from crafter.formats.pgfplots import chart_to_pgfplots
from crafter.render.markers import MarkerSpec
from crafter.render.routes import spline_d
from crafter.render.shapes import Paint, shape_svg
from crafter.render.svg import ensure_layout
from crafter.spec.colors import is_color, to_rgb
from crafter.spec.markup import has_markup, segments
from crafter.spec.model import Box, Chart, Edge, Figure, Group, Image, Node, Panel, Path, Text

PT_PER_PX = 0.75
TIKZ_LIBRARIES = ("shapes.geometric", "shapes.misc", "shapes.symbols", "positioning", "arrows.meta", "fit",
                  "backgrounds", "shadows")
PGFPLOTS_COMPAT = "1.16"  # Debian bookworm ships pgfplots 1.18; 1.16 keeps older TeX Live working too

# FigureSpec arrowheads → arrows.meta tips (sized in the picture's style).
_MONO_FONT = re.compile(r"mono|courier|consol|typewriter", re.I)
_SERIF_FONT = re.compile(r"(?<!sans )(?<!sans-)serif|times|roman|georgia|garamond|palatino", re.I)


def latex_family(font_family: str) -> str:
    """The LaTeX family switch for a CSS font list's first face: sans unless it names serif or mono."""
    first = font_family.split(",")[0]
    if _MONO_FONT.search(first):
        return "\\ttfamily"
    return "\\rmfamily" if _SERIF_FONT.search(first) else "\\sffamily"


_MATH_SCRIPT = re.compile(r"[-+]?[A-Za-z0-9.]+")
ARROW_TIPS = {"arrow": "Stealth", "open": "Straight Barb", "diamond": "Diamond", "circle": "Circle",
              "bar": "Bar", "triangle_open": "Triangle"}


@dataclass
class TikzOptions:
    """What goes into the picture besides the components."""

    title: bool = True  # the figure title above the drawing, as in the SVG (drop it when a caption carries it)
    image_files: dict[str, str] = field(default_factory=dict)  # image component id → file for \includegraphics


def figure_to_latex(fig: Figure, options: TikzOptions | None = None) -> str:
    """A standalone LaTeX document (``pdflatex fig.tex`` gives a cropped PDF of the figure)."""
    body = figure_to_tikz(fig, options)
    libs = ",".join(TIKZ_LIBRARIES)
    return (
        "% Crafter figure: compile with pdflatex.\n"
        "\\documentclass[border=4pt]{standalone}\n"
        "\\usepackage{fix-cm}% Computer Modern at any size (labels use the figure's point sizes)\n"
        "\\usepackage{graphicx}\n"
        "\\usepackage{tikz}\n"
        "\\usepackage{pgfplots}\n"
        f"\\pgfplotsset{{compat={PGFPLOTS_COMPAT}}}\n"
        f"\\usetikzlibrary{{{libs}}}\n"
        "\\begin{document}\n"
        f"{body}"
        "\\end{document}\n"
    )


def figure_to_tikz(fig: Figure, options: TikzOptions | None = None) -> str:
    """The ``tikzpicture`` of a figure (laid out first if it lacks geometry), ready to ``\\input``."""
    return _TikzWriter(ensure_layout(fig), options or TikzOptions()).picture()


# ---------------------------------------------------------------------------------


def pt(px: float) -> str:
    return f"{num(px * PT_PER_PX)}pt"


class ColorTable:
    """Colours used by the picture, each defined once with ``\\definecolor``."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}  # RRGGBB → colour name

    def ref(self, value: str | None) -> tuple[str | None, float | None]:
        """(colour name or None for 'none', opacity or None when opaque)."""
        if value is None or value == "none" or not is_color(value):
            return None, None
        opacity = None
        if value.startswith("#") and len(value) == 9:
            opacity = int(value[7:9], 16) / 255
            value = value[:7]
        r, g, b = to_rgb(value)
        hexa = f"{round(r * 255):02X}{round(g * 255):02X}{round(b * 255):02X}"
        name = self.names.setdefault(hexa, f"cr{hexa}")
        return name, opacity

    def definitions(self) -> list[str]:
        return [f"\\definecolor{{{name}}}{{HTML}}{{{hexa}}}" for hexa, name in self.names.items()]


class _TikzWriter:
    def __init__(self, fig: Figure, options: TikzOptions) -> None:
        self.fig = fig
        self.opts = options
        self.theme: Theme = figure_theme(fig)
        self.colors = ColorTable()
        self.by_id = fig.by_id()
        self.dropped: list[str] = []

    # -- document -----------------------------------------------------------------
    def picture(self) -> str:
        t = self.theme
        body: list[str] = []
        # back to front: panels, groups (outer first), edges, nodes, texts, the rest
        for c in drawing_order(self.fig, EXPORT_LAYERS):
            self.dropped = []
            lines = getattr(self, f"draw_{c.kind}")(c)
            if not lines:
                continue
            head = f"% {c.kind} {c.id}"
            if self.dropped:
                head += f" (characters pdflatex cannot typeset, shown as '?': {', '.join(sorted(set(self.dropped)))})"
            body.append(head)
            body.extend(lines)
        if self.opts.title and self.fig.title:
            self.dropped = []
            title = self.tex(self.fig.title, space=True)
            x0, x1 = self.horizontal_extent()
            body.insert(0, f"\\node[crafter title] (crafter-title) at ({num((x0 + x1) / 2)},{num(-t.margin * 0.3)}) "
                           f"{{{title}}};")
            body.insert(0, "% figure title (delete this node when the caption carries the title)"
                        + (f"; not typeset: {', '.join(self.dropped)}" if self.dropped else ""))
        if self.fig.background is not None:
            # the page colour under everything (the title too), over the laid-out canvas
            page, _ = self.colors.ref(self.fig.background)
            x0, x1 = self.horizontal_extent()
            y1 = self.fig.canvas.h if self.fig.canvas is not None else max(
                (c.box.bottom for c in self.fig.components if c.box is not None), default=100.0)
            # the title's node stands on y = −0.3 margin, a line of title text tall
            top = -t.margin * 0.3 - 1.5 * t.title_font_size if self.opts.title and self.fig.title else 0.0
            body[0:0] = ["% page colour", f"\\fill[{page}] ({num(x0)},{num(top)}) rectangle ({num(x1)},{num(y1)});"]
        text, _ = self.colors.ref(t.text_color)
        styles = self.styles(text or "black")
        out = [
            "% Crafter figure as TikZ. Needs in the preamble:",
            "%   \\usepackage{tikz,pgfplots} \\pgfplotsset{compat=" + PGFPLOTS_COMPAT + "}",
            "%   \\usetikzlibrary{" + ",".join(TIKZ_LIBRARIES) + "}",
            "% Coordinates are the figure's (px, y down): x=0.75pt, y=-0.75pt.",
            "\\begin{tikzpicture}[x=0.75pt, y=-0.75pt,",
            *[f"  {s}," for s in styles[:-1]], f"  {styles[-1]}]",
            *self.colors.definitions(),
            *body,
            "\\end{tikzpicture}",
        ]
        return "\n".join(out) + "\n"

    def styles(self, text_color: str) -> list[str]:
        t = self.theme
        return [
            f"every node/.style={{text={text_color}}}",
            "crafter node/.style={inner sep=0pt, outer sep=0pt, line join=round}",
            "crafter label/.style={inner sep=0pt, align=center}",
            f"crafter edge/.style={{line join=round, >={{Stealth[length={pt(8)}, width={pt(6.4)}]}}}}",
            f"crafter edge label/.style={{inner sep=1pt, align=center, font={self.font(t.small_font_size)}}}",
            "crafter group/.style={inner sep=0pt, outer sep=0pt}",
            "crafter group label/.style={anchor=west, inner sep=0pt, "
            f"font={self.font(t.group_font_size, bold=t.group_label_bold)}}}",
            f"crafter title/.style={{anchor=south, align=center, font={self.font(t.title_font_size, bold=True)}}}",
        ]

    def horizontal_extent(self) -> tuple[float, float]:
        if self.fig.canvas is not None:
            return 0.0, self.fig.canvas.w
        xs = [c.box.x for c in self.fig.components if c.box is not None]
        xe = [c.box.right for c in self.fig.components if c.box is not None]
        return (min(xs), max(xe)) if xs else (0.0, 100.0)

    # -- text ---------------------------------------------------------------------
    def tex(self, text: str, *, space: bool = False) -> str:
        """Escaped text; ``space=True`` joins lines with spaces (one-line labels); sub- and
        superscripts (``T_{1}``) as ``$_{\\mathrm{1}}$`` (``\\textsubscript`` where not letters and digits)."""
        newline = " " if space else r"\\"
        if not has_markup(text):
            return escape_latex(text, dropped=self.dropped, newline=newline)
        out = []
        for piece, shift in segments(text):
            body = escape_latex(piece, dropped=self.dropped, newline=newline)
            if shift and _MATH_SCRIPT.fullmatch(piece):  # 10^{-3}: a math minus, upright letters
                body = f"${'_' if shift == 'sub' else '^'}{{\\mathrm{{{piece}}}}}$"
            elif shift:
                body = f"\\text{'sub' if shift == 'sub' else 'super'}script{{{body}}}"
            out.append(body)
        return "".join(out)

    def tex_lines(self, lines: list[str]) -> str:
        return r"\\".join(self.tex(line, space=True) for line in lines)

    def font(self, size_px: float, *, bold: bool = False, italic: bool = False, family: str | None = None) -> str:
        size = size_px * PT_PER_PX
        skip = size * self.theme.line_height
        face = FONT_CLASS_FAMILIES[family] if family else self.theme.font_family
        out = f"\\fontsize{{{num(size)}}}{{{num(skip)}}}\\selectfont{latex_family(face)}"
        if bold:
            out += "\\bfseries"
        if italic:
            out += "\\itshape"
        return out

    def paint_opts(self, fill: str | None, stroke: str | None, width: float | None) -> list[str]:
        opts = []
        name, opacity = self.colors.ref(fill)
        if name:
            opts.append(f"fill={name}")
            if opacity is not None:
                opts.append(f"fill opacity={num(opacity)}")
        name, opacity = self.colors.ref(stroke)
        if name and (width is None or width > 0):
            opts.append(f"draw={name}")
            if opacity is not None:
                opts.append(f"draw opacity={num(opacity)}")
            if width is not None:
                opts.append(f"line width={pt(width)}")
        return opts

    def readable_on(self, fill: str) -> str:
        return readable_on(fill, self.theme)

    def label_node(self, name: str, cx: float, cy: float, lines: list[str], size: float, color: str, *,
                   bold: bool = False, italic: bool = False, extra: str = "", family: str | None = None) -> str:
        colour, _ = self.colors.ref(color)
        opts = ["crafter label", f"font={self.font(size, bold=bold, italic=italic, family=family)}"]
        if colour:
            opts.append(f"text={colour}")
        if extra:
            opts.append(extra)
        named = f" ({name})" if name else ""
        return f"\\node[{', '.join(opts)}]{named} at ({num(cx)},{num(cy)}) {{{self.tex_lines(lines)}}};"

    # -- components -----------------------------------------------------------------
    def draw_node(self, n: Node) -> list[str]:
        t = self.theme
        b = n.box
        if b is None:
            return [f"% node {n.id} has no position: lay the figure out first"]
        fill = n.fill or t.node_fill
        stroke = n.stroke or t.node_stroke
        width = t.stroke_width if n.stroke_width is None else n.stroke_width
        paint = ", ".join(self.paint_opts(fill, stroke, width))
        size = f"minimum width={pt(b.w)}, minimum height={pt(b.h)}"
        at = f"({num(b.cx)},{num(b.cy)})"
        out: list[str] = []
        shape = n.shape
        if shape in ("parallelogram", "cylinder", *TRAPEZOIDS):
            out.append(f"\\path[crafter node, {paint}] {self.outline_path(shape, b)};")
            out.append(f"\\node[crafter node, {size}] ({n.id}) at {at} {{}};")
        else:
            style = {
                "box": "rectangle",
                "round": f"rectangle, rounded corners={pt(min(t.corner_radius, b.w / 2, b.h / 2))}",
                "ellipse": "ellipse",
                "circle": "circle",
                "diamond": "diamond",
                "hexagon": f"signal, signal to=west and east, signal pointer angle={num(self.hexagon_angle(b))}",
                "document": f"tape, tape bend top=none, tape bend height={pt(2 * min(b.h * 0.1, 5.0))}",
                "stack": self.stack_style(b, paint),
            }[shape]
            if shape == "circle":
                size = f"minimum size={pt(min(b.w, b.h))}"
            if shape == "stack":
                # copies offset up and to the right, as in the SVG; the front sheet keeps the box's lower left
                off = min(4.0, b.h * 0.1, b.w * 0.05)
                size = f"minimum width={pt(b.w - 2 * off)}, minimum height={pt(b.h - 2 * off)}"
                at = f"({num(b.x + (b.w - 2 * off) / 2)},{num(b.y + 2 * off + (b.h - 2 * off) / 2)})"
            out.append(f"\\node[crafter node, {style}, {size}, {paint}] ({n.id}) at {at} {{}};")
        _, area = shape_svg(shape, b, Paint(fill=fill, stroke=stroke, width=width), t.corner_radius)
        lines, fs = node_label_lines(n, t)
        if any(lines):
            color = n.text_color or self.readable_on(fill)
            out.append(self.label_node(f"{n.id}-label", area.cx, area.cy, lines, fs, color,
                                       bold=n.bold, italic=n.italic, family=n.font))
        return out

    @staticmethod
    def hexagon_angle(b: Box) -> float:
        """signal's pointer angle for the SVG hexagon's slant s = min(0.3 h, 0.2 w)."""
        s = min(b.h * 0.3, b.w * 0.2)
        return 2 * math.degrees(math.atan2(b.h / 2, s)) if s > 0 else 179.0

    def stack_style(self, b: Box, paint: str) -> str:
        off = min(4.0, b.h * 0.1, b.w * 0.05)
        return (f"rectangle, rounded corners={pt(min(2.0, b.h / 4))}, double copy shadow={{shadow xshift={pt(off)}, "
                f"shadow yshift={pt(off)}, {paint}}}")

    def outline_path(self, shape: str, b: Box) -> str:
        """Parallelogram and cylinder outlines, the geometry of crafter.render.shapes."""
        x, y, w, h = b.x, b.y, b.w, b.h
        if shape in TRAPEZOIDS:
            return " -- ".join(f"({num(px)},{num(py)})" for px, py in outline_polygon(shape, b) or []) + " -- cycle"
        if shape == "parallelogram":
            s = min(h * 0.35, w * 0.2)
            return (f"({num(x + s)},{num(y)}) -- ({num(x + w)},{num(y)}) -- ({num(x + w - s)},{num(y + h)}) -- "
                    f"({num(x)},{num(y + h)}) -- cycle")
        ry = min(h * 0.12, w * 0.25, 7.0)
        rx = w / 2
        # body: down the left side, lower front arc, up the right side, upper back arc; then the rim in front
        return (f"({num(x)},{num(y + ry)}) -- ({num(x)},{num(y + h - ry)}) "
                f"arc[start angle=180, end angle=360, x radius={num(rx)}, y radius={num(-ry)}] "
                f"-- ({num(x + w)},{num(y + ry)}) "
                f"arc[start angle=0, end angle=180, x radius={num(rx)}, y radius={num(-ry)}] -- cycle "
                f"({num(x)},{num(y + ry)}) "
                f"arc[start angle=180, end angle=360, x radius={num(rx)}, y radius={num(-ry)}]")

    def draw_edge(self, e: Edge) -> list[str]:
        t = self.theme
        pts = drawn_route(e, self.by_id)
        if len(pts) < 2:
            return [f"% edge {e.id} has no route: lay the figure out first"]
        color = e.color or t.edge_color
        width = t.edge_width if e.stroke_width is None else e.stroke_width
        name, opacity = self.colors.ref(color)
        opts = ["crafter edge", f"draw={name or 'black'}", f"line width={pt(width)}"]
        if opacity is not None:
            opts.append(f"draw opacity={num(opacity)}")
        if e.style == "dashed":
            opts.append(f"dash pattern=on {pt(4 * width + 1)} off {pt(2.5 * width + 0.5)}")
        elif e.style == "dotted":
            opts.append(f"line cap=round, dash pattern=on {pt(max(width, 0.8))} off {pt(2 * width + 0.5)}")
        tips = self.arrow_tips(e, width)
        if tips:
            opts.append(tips)
        routing = e.routing or self.fig.routing
        if routing == "spline" and len(pts) >= 3:
            path = self.svg_to_tikz(spline_d(pts))
        else:
            if routing == "orthogonal" and len(pts) > 2:
                opts.append(f"rounded corners={pt(t.edge_corner_radius)}")
            path = " -- ".join(f"({num(x)},{num(y)})" for x, y in pts)
        out = [f"\\draw[{', '.join(opts)}] {path};"]
        if e.label:
            out.append(self.edge_label(e, pts))
        return out

    def arrow_tips(self, e: Edge, width: float) -> str:
        def tip(kind: str) -> str:
            if kind == "none":
                return ""
            m = MarkerSpec(kind, "head", "", width, "", size=e.head_size)  # the SVG markers' size rule
            length = width if kind == "bar" else m.length
            half = m.base * 0.5 if kind == "bar" else m.half_width
            # the SVG's circle and hollow-triangle heads are filled with the background; the others are solid
            hollow = kind in ("circle", "triangle_open")
            extra = f", open, fill={self.colors.ref(self.theme.background)[0]}" if hollow else ""
            return f"{{{ARROW_TIPS[kind]}[length={pt(length)}, width={pt(2 * half)}{extra}]}}"

        head, tail = tip(self.theme.head_kind(e.head)), tip(self.theme.head_kind(e.tail))
        if not head and not tail:
            return ""
        return f"{tail}-{head}"


    def edge_label(self, e: Edge, pts: list[tuple[float, float]]) -> str:
        t = self.theme
        lines, plate = edge_label_plate(e, pts, t)
        bg, _ = self.colors.ref(t.background)
        fg, _ = self.colors.ref(t.edge_label_color)
        font = f", font={self.font(edge_font(e, t))}" if e.font_size else ""
        return (f"\\node[crafter edge label, fill={bg}, fill opacity=0.92, text opacity=1, text={fg}{font}] "
                f"({e.id}-label) at ({num(plate.cx)},{num(plate.cy)}) {{{self.tex_lines(lines)}}};")

    def draw_group(self, g: Group) -> list[str]:
        t = self.theme
        b = g.box or self.members_box(g)
        if b is None:
            return [f"% group {g.id} has no position: lay the figure out first"]
        w = group_stroke_width(g, t)
        opts = ["crafter group", *self.paint_opts(g.fill or t.group_fill, g.stroke or t.group_stroke, w)]
        r = min(t.corner_radius, b.w / 2, b.h / 2)
        if r > 0:
            opts.append(f"rounded corners={pt(r)}")
        dash = t.frame_dash(g.style)
        if dash == "dashed":
            opts.append(f"dash pattern=on {pt(4 * w + 1)} off {pt(2.5 * w + 0.5)}")
        elif dash == "dotted":
            opts.append(f"dash pattern=on {pt(max(w, 0.8))} off {pt(2 * w + 0.5)}")
        # frame and label on the background layer, so frames nested inside stack over both (as in the SVG)
        out = ["\\begin{scope}[on background layer]",
               f"  \\node[{', '.join(opts)}, fit={{({num(b.x)},{num(b.y)}) ({num(b.right)},{num(b.bottom)})}}] "
               f"({g.id}) {{}};"]
        if g.label:
            band = min(group_band(g, t), b.h)
            colour, _ = self.colors.ref(g.text_color or t.group_text_color)
            font = (f", font={self.font(group_font(g, t), bold=group_bold(g, t))}"
                    if g.font_size or g.bold is not None else "")
            out.append(f"  \\node[crafter group label, text={colour}{font}] ({g.id}-label) at "
                       f"({num(b.x + t.group_label_inset)},{num(b.y + band / 2 + 2)}) "
                       f"{{{self.tex(g.label, space=True)}}};")
        out.append("\\end{scope}")
        return out

    def members_box(self, c: Group | Panel) -> Box | None:
        """A frame around the members (for a hand-made figure whose groups have no box)."""
        boxes = [self.by_id[m].box or (self.members_box(self.by_id[m]) if self.by_id[m].kind in ("group", "panel")
                                       else None) for m in c.members]
        boxes = [b for b in boxes if b is not None]
        if not boxes:
            return None
        pad = self.theme.group_pad
        x0, y0 = min(b.x for b in boxes) - pad, min(b.y for b in boxes) - pad - self.theme.group_label_h
        x1, y1 = max(b.right for b in boxes) + pad, max(b.bottom for b in boxes) + pad
        return Box(x=x0, y=y0, w=x1 - x0, h=y1 - y0)

    def draw_panel(self, p: Panel) -> list[str]:
        t = self.theme
        b = p.box or self.members_box(p)
        if b is None:
            return [f"% panel {p.id} has no position: lay the figure out first"]
        out = ["\\begin{scope}[on background layer]",
               f"  \\node[crafter group, fit={{({num(b.x)},{num(b.y)}) ({num(b.right)},{num(b.bottom)})}}] "
               f"({p.id}) {{}};",
               "\\end{scope}"]
        index = [c.id for c in self.fig.components if isinstance(c, Panel)].index(p.id)
        label = p.label if p.label is not None else f"({panel_letters(index)})"
        fs = t.panel_font_size
        y = b.y + min(t.group_label_h, b.h) / 2 + 1
        x = b.x + 2
        colour, _ = self.colors.ref(t.text_color)
        if label:
            out.append(f"\\node[anchor=west, inner sep=0pt, text={colour}, font={self.font(fs, bold=True)}] "
                       f"({p.id}-label) at ({num(x)},{num(y)}) {{{self.tex(label, space=True)}}};")
            x += text_width(label + " ", fs, bold=True)
        if p.title:
            out.append(f"\\node[anchor=west, inner sep=0pt, text={colour}, font={self.font(fs)}] "
                       f"({p.id}-title) at ({num(x)},{num(y)}) {{{self.tex(p.title, space=True)}}};")
        return out

    def draw_text(self, x: Text) -> list[str]:
        t = self.theme
        fs = x.font_size or t.small_font_size
        color = x.color or t.annotation_color
        if x.box is not None:
            cx, cy = x.box.cx, x.box.cy
            width = x.box.h if abs(x.rotate) % 180 == 90 else x.box.w
            lines = (wrap(x.text, fs, max(width, fs) + WRAP_SLACK, bold=x.bold, italic=x.italic)
                     if x.rotate % 90 == 0 else x.text.split("\n"))
        elif x.at is not None:
            cx, cy = x.at.x, x.at.y
            lines = x.text.split("\n")
        else:
            return [f"% text {x.id} has no position: lay the figure out first"]
        # TikZ turns counter-clockwise; SVG's rotate() turns clockwise on screen (its y axis points down)
        extra = f"rotate={num(-x.rotate)}" if x.rotate else ""
        return [self.label_node(x.id, cx, cy, lines, fs, color, bold=x.bold, italic=x.italic, extra=extra,
                                family=x.font)]

    def draw_chart(self, c: Chart) -> list[str]:
        if c.box is None:
            return [f"% chart {c.id} has no position: lay the figure out first"]
        return chart_to_pgfplots(c, c.box, self)

    def draw_image(self, im: Image) -> list[str]:
        b = im.box
        if b is None:
            return [f"% image {im.id} has no position: lay the figure out first"]
        file = self.opts.image_files.get(im.id)
        if file:
            return [f"\\node[anchor=north west, inner sep=0pt] ({im.id}) at ({num(b.x)},{num(b.y)}) "
                    f"{{\\includegraphics[width={pt(b.w)}, height={pt(b.h)}]{{{file}}}}};"]
        alt = self.tex(im.alt or "image", space=True)
        return ["% the raster image is not inlined in LaTeX: export with a file name to get it as a side file",
                f"\\node[draw=gray, dashed, inner sep=0pt, minimum width={pt(b.w)}, minimum height={pt(b.h)}, "
                f"align=center, font=\\scriptsize\\sffamily] ({im.id}) at ({num(b.cx)},{num(b.cy)}) {{{alt}}};"]

    def draw_path(self, p: Path) -> list[str]:
        t = self.theme
        if p.fill is None and p.stroke is None:
            fill, stroke = t.text_color, "none"
        else:
            fill, stroke = p.fill or "none", p.stroke or "none"
        width = t.stroke_width if p.stroke_width is None else p.stroke_width
        path = self.svg_to_tikz(p.d)
        if not path:
            return []
        opts = self.paint_opts(fill, stroke, width) or ["draw=none"]
        return [f"\\path[{', '.join(opts)}] {path};"]

    def svg_to_tikz(self, d: str) -> str:
        """SVG path data as TikZ path operations (lines, curves, cycles)."""
        parts: list[str] = []
        for s in parse_path(d):
            if s.op == "M":
                parts.append(f"({num(s.pts[0][0])},{num(s.pts[0][1])})")
            elif s.op == "L":
                parts.append(f"-- ({num(s.pts[0][0])},{num(s.pts[0][1])})")
            elif s.op == "C":
                (a, b), (c, d_), (e, f) = s.pts
                parts.append(f".. controls ({num(a)},{num(b)}) and ({num(c)},{num(d_)}) .. ({num(e)},{num(f)})")
            elif s.op == "Z":
                parts.append("-- cycle")
        return " ".join(parts)


