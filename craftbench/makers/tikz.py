"""TikZ figures like papers' (layer diagrams, unrolled RNNs, gated cells, block diagrams), drawn by pdflatex.

Each figure is a ``standalone`` TikZ picture compiled with ``pdflatex`` and rasterised with ``pdftoppm``
at 1x or 2x (100 to 300 dpi); its truth comes from the same source: every label's words written inline the
way the real set writes math (``x_1`` → ``x1``, ``h^{(2)}`` → ``h(2)``, ``\\hat{y}_t`` → ``ŷt``, ``\\sigma`` → ``σ``),
the labelled shapes as nodes, and the arrows between labelled shapes as edges (an arrow that touches an
unlabelled circle is no edge, as in the real set's truth).

Kinds (``kind`` in each record's ``style``): ``mlp`` (columns of circles, fully connected, layer titles,
vertical dots), ``rnn`` (an unrolled chain of cells with inputs and outputs, encoder-decoder), ``cell`` (a
gated GRU/LSTM-like cell: circled operators ⊙ + ×, σ and tanh boxes), ``block`` (boxes of words joined by
labelled arrows, in serif or sans, bold or italic, several sizes). About one figure in six is dark
(white ink on a near-black page) or drawn in faint grey ink.
"""

from __future__ import annotations

import random
import re
import shutil
import subprocess
import tempfile
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from crafter.errors import CrafterError

KINDS = ("mlp", "rnn", "cell", "block", "pipeline")
LETTERS = "xhyzsuvaoc"
GREEK = {"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "theta": "θ", "phi": "φ", "mu": "μ",
         "lambda": "λ", "sigma": "σ", "tau": "τ", "omega": "ω", "psi": "ψ"}
BLOCK_WORDS = ["Encoder", "Decoder", "Linear", "Softmax", "Attention", "Embedding", "Conv 3x3", "ReLU", "Pooling",
               "Dropout", "LayerNorm", "Feed Forward", "Input", "Output", "Classifier", "Backbone", "Projection",
               "Tokenizer", "Loss", "Sampler", "Memory", "Router", "Expert", "Gate", "Residual", "Upsample",
               "Batch Norm", "Max Pool", "Concat", "Queries", "Keys", "Values", "Scaled Dot-Product", "Optimizer"]
EDGE_WORDS = ["features", "logits", "tokens", "skip", "gradients", "mask", "context", "state", "update", "query"]


class TikzMakerError(CrafterError):
    """pdflatex or pdftoppm is missing, or a drawn figure did not compile."""


@dataclass
class Label:
    """One label: its TeX and its words as the truth writes them."""

    tex: str
    words: str


@dataclass
class Figure:
    body: list[str] = field(default_factory=list)  # TikZ commands inside the picture
    words: list[str] = field(default_factory=list)
    nodes: list[str] = field(default_factory=list)
    edges: list[list[str]] = field(default_factory=list)


def math_label(rng: random.Random, letter: str | None = None, sub: str | None = None, sup: str | None = None,
               hat: bool = False, bold: bool = False) -> Label:
    """A math variable like x_1, h^{(2)}, \\hat{y}_t, \\bm{h}_t; or a Greek letter."""
    if letter is None:
        letter = rng.choice(LETTERS)
    if letter in GREEK:
        core, word = f"\\{letter}", GREEK[letter]
    else:
        core, word = letter, letter
    if hat:
        core, word = f"\\hat{{{core}}}", unicodedata.normalize("NFC", word + "\u0302")
    if bold:
        core = f"\\bm{{{core}}}"
    tex = core
    if sup:
        tex += f"^{{({sup})}}"
        word += f"({sup})"
    if sub:
        tex += f"_{{{sub}}}"
        word += sub
    return Label(f"${tex}$", word)


def _arrow(a: str, b: str, style: str = "->") -> str:
    return f"\\draw[{style}] ({a}) -- ({b});"


def draw_mlp(rng: random.Random, fig: Figure) -> None:
    """Columns of circles, fully connected; inputs and outputs labelled, hidden ones labelled or not."""
    layers = rng.randint(3, 5)
    sizes = [rng.randint(2, 5) for _ in range(layers)]
    hidden_labelled = rng.random() < 0.5
    dots = rng.random() < 0.5
    out_letter = rng.choice("yo")
    ids: list[list[tuple[str, str]]] = []  # per layer: (node id, truth label or "")
    for li, n in enumerate(sizes):
        col = []
        for j in range(n):
            nid = f"n{li}_{j}"
            sub = "n" if dots and j == n - 1 and n > 2 else str(j + 1)
            if li == 0:
                lab = math_label(rng, "x", sub=sub)
            elif li == layers - 1:
                lab = math_label(rng, out_letter, sub=sub, hat=rng.random() < 0.5)
            elif hidden_labelled:
                lab = math_label(rng, "h", sub=sub, sup=str(li))
            else:
                lab = Label("", "")
            y = (n - 1) / 2 - j
            if dots and j == n - 1 and n > 2:
                y -= 0.5
                fig.body.append(f"\\node at ({li * 2.2},{y + 0.75:.2f}) {{$\\vdots$}};")
            fig.body.append(f"\\node[neuron] ({nid}) at ({li * 2.2},{y * 1.1:.2f}) {{{lab.tex}}};")
            if lab.words:
                fig.words.append(lab.words)
                fig.nodes.append(lab.words)
            col.append((nid, lab.words))
        ids.append(col)
        title = (math_label(rng, "x", bold=True) if li == 0 else
                 math_label(rng, out_letter, hat=True, bold=True) if li == layers - 1 else
                 math_label(rng, "h", sup=str(li), bold=True))
        top = max(sizes) / 2 * 1.1 + 0.9
        fig.body.append(f"\\node at ({li * 2.2},{top:.2f}) {{{title.tex}}};")
        fig.words.append(title.words)
    for a, b in zip(ids, ids[1:]):
        for na, la in a:
            for nb, lb in b:
                fig.body.append(_arrow(na, nb, "->, gray!70"))
                if la and lb:
                    fig.edges.append([la, lb])


def draw_rnn(rng: random.Random, fig: Figure) -> None:
    """An unrolled chain: x_t -> h_t -> \\hat{y}_t, h_t -> h_{t+1}; optionally a decoder after a context c."""
    steps = rng.randint(3, 5)
    bold = rng.random() < 0.5
    subs = [str(i + 1) for i in range(steps - 1)] + [rng.choice(["T", "t", "n"])]
    prev = None
    for i, s in enumerate(subs):
        h, x, y = (math_label(rng, "h", sub=s, bold=bold), math_label(rng, "x", sub=s, bold=bold),
                   math_label(rng, "y", sub=s, hat=True, bold=bold))
        fig.body += [f"\\node[cell] (h{i}) at ({i * 2},0) {{{h.tex}}};",
                     f"\\node[io] (x{i}) at ({i * 2},-1.6) {{{x.tex}}};",
                     f"\\node[io] (y{i}) at ({i * 2},1.6) {{{y.tex}}};",
                     _arrow(f"x{i}", f"h{i}", "->, thick"), _arrow(f"h{i}", f"y{i}", "->, thick")]
        fig.words += [h.words, x.words, y.words]
        fig.nodes += [h.words, x.words, y.words]
        fig.edges += [[x.words, h.words], [h.words, y.words]]
        if prev is not None:
            fig.body.append(_arrow(f"h{i - 1}", f"h{i}", "->, thick"))
            fig.edges.append([prev, h.words])
        prev = h.words
    if rng.random() < 0.5:  # an encoder / decoder caption under the chain
        cap = rng.choice(["Encoder", "Decoder", "Recurrent layer", "Unrolled RNN"])
        fig.body.append(f"\\node[font=\\itshape] at ({(steps - 1)},-2.6) {{{cap}}};")
        fig.words.append(cap)


def draw_cell(rng: random.Random, fig: Figure) -> None:
    """A gated cell: σ and tanh boxes feeding circled ⊙ / × / + operators, labelled state lines."""
    op = rng.choice([("\\odot", "⊙"), ("\\times", "×")])
    gates = rng.randint(2, 3)
    fig.body.append("\\draw[rounded corners=8pt, thick, fill=black!4] (-0.6,-1.2) rectangle (7.2,2.4);")
    for g in range(gates):
        name = Label("$\\sigma$", "σ") if g < gates - 1 or rng.random() < 0.5 else Label("tanh", "tanh")
        fig.body += [f"\\node[gate] (g{g}) at ({g * 1.6},-0.3) {{{name.tex}}};",
                     f"\\node[op] (m{g}) at ({g * 1.6},1.3) {{${op[0]}$}};",
                     _arrow(f"g{g}", f"m{g}", "->, thick")]
        fig.words.append(name.words)
        fig.nodes += [name.words, op[1]]
        fig.edges.append([name.words, op[1]])
        gate_name = math_label(rng, rng.choice("rzfio"), sub="t")
        fig.body.append(f"\\node[right, font=\\small] at ({g * 1.6 + 0.15},0.5) {{{gate_name.tex}}};")
        fig.words.append(gate_name.words)
    fig.body += [f"\\node[op] (plus) at ({gates * 1.6},1.3) {{$+$}};"]
    fig.nodes.append("+")
    for g in range(gates):
        fig.body.append(f"\\draw[->, thick] (m{g}) to[bend left=20] (plus);")
        fig.edges.append([op[1], "+"])
    state_in, state_out = math_label(rng, "c", sub="t-1"), math_label(rng, "c", sub="t")
    state_in.words = state_in.words.replace("-", "−")
    hid = math_label(rng, "h", sub="t", bold=rng.random() < 0.5)
    xin = math_label(rng, "x", sub="t")
    fig.body += [f"\\node[left] at (-0.6,1.3) {{{state_in.tex}}};",
                 f"\\node[right] (out) at (7.2,1.3) {{{state_out.tex}}};",
                 f"\\node[right] at (7.2,-0.3) {{{hid.tex}}};",
                 f"\\node[io] (xin) at (0,-2.2) {{{xin.tex}}};",
                 "\\draw[->, thick] (xin) -- (g0);"]
    fig.words += [state_in.words, state_out.words, hid.words, xin.words]
    fig.nodes.append(xin.words)
    fig.edges.append([xin.words, "σ"])


def draw_block(rng: random.Random, fig: Figure) -> None:
    """Boxes of words in a row or a column, arrows between them, some arrows labelled."""
    n = rng.randint(3, 6)
    names = rng.sample(BLOCK_WORDS, n)
    vertical = rng.random() < 0.4
    font = rng.choice(["", "\\bfseries", "\\itshape", "\\sffamily", "\\small", "\\large", "\\sffamily\\bfseries"])
    for i, name in enumerate(names):
        pos = f"0,{-i * 1.5}" if vertical else f"{i * 3.2},0"
        fill = rng.choice(["white", "blue!10", "orange!15", "green!10", "gray!15", "red!10"])
        fig.body.append(f"\\node[box, fill={fill}, font={font}] (b{i}) at ({pos}) {{{name}}};")
        fig.words.append(name)
        fig.nodes.append(name)
        if i:
            fig.body.append(_arrow(f"b{i - 1}", f"b{i}", "->, thick"))
            fig.edges.append([names[i - 1], name])
            if rng.random() < 0.35:
                word = rng.choice(EDGE_WORDS)
                side = "right" if vertical else "above"
                fig.body.append(f"\\path (b{i - 1}) -- node[{side}, font=\\footnotesize\\itshape] {{{word}}} (b{i});")
                fig.words.append(word)
    if rng.random() < 0.5:  # a math label on the input
        lab = math_label(rng, rng.choice(["x", "theta", "phi", "z"]), sub=rng.choice(["0", "t", "i", None]))
        side = "above" if vertical else "left"
        fig.body.append(f"\\node[{side}=0.4cm of b0] {{{lab.tex}}};")
        fig.words.append(lab.words)


PIPE_WORDS = [("Feature", "Extractor"), ("Image", "Encoder"), ("Text", "Encoder"), ("Fusion", "Module"),
              ("Prediction", "Head"), ("Region", "Proposal"), ("Memory", "Bank"), ("Cross", "Attention"),
              ("Data", "Loader"), ("Reward", "Model"), ("Policy", "Network"), ("Value", "Head"), ("Mask", "Decoder")]


def draw_pipeline(rng: random.Random, fig: Figure) -> None:
    """A paper's pipeline laid out with the positioning library: boxes of one or two lines (some a
    math symbol and a word), placed right of / below one another, joined by straight and elbow
    (-| |-) arrows, some labelled; two or three of them framed by a dashed fit box with a title."""
    n = rng.randint(4, 6)
    pairs = rng.sample(PIPE_WORDS, n)
    labels: list[Label] = []
    for a, b in pairs:
        r = rng.random()
        if r < 0.4:  # two lines
            labels.append(Label(f"{a}\\\\{b}", f"{a} {b}"))
        elif r < 0.6:  # a symbol and a word
            sym = math_label(rng, rng.choice(["f", "g", "theta", "phi", "E", "D"]), sub=rng.choice(["1", "2", None]))
            labels.append(Label(f"{b} {sym.tex}", f"{b} {sym.words}"))
        else:
            labels.append(Label(f"{a} {b}", f"{a} {b}"))
    font = rng.choice(["", "\\sffamily", "\\small", "\\sffamily\\small"])
    fill = rng.choice(["white", "blue!8", "orange!12", "green!8", "gray!10"])
    fig.body.append(f"\\tikzset{{pb/.style={{draw, thick, rounded corners=2pt, align=center, minimum height=1cm, "
                    f"minimum width=2.2cm, fill={fill}, font={font}}}}}")
    for i, lab in enumerate(labels):
        if i == 0:
            fig.body.append(f"\\node[pb] (p0) {{{lab.tex}}};")
        else:
            side = "below" if i % 3 == 2 and rng.random() < 0.7 else "right"
            fig.body.append(f"\\node[pb, {side}={rng.choice(['0.9cm', '1.2cm', '1.5cm'])} of p{i - 1}] (p{i}) {{{lab.tex}}};")
        fig.words.append(lab.words)
        fig.nodes.append(lab.words)
    for i in range(1, n):
        lab = ""
        if rng.random() < 0.3:
            lab = rng.choice(EDGE_WORDS)
            fig.words.append(lab)
        node = f" node[midway, above, font=\\footnotesize] {{{lab}}}" if lab else ""
        fig.body.append(f"\\draw[->, thick] (p{i - 1}) --{node} (p{i});")
        fig.edges.append([labels[i - 1].words, labels[i].words])
    if n >= 4 and rng.random() < 0.8:  # a skip connection drawn as an elbow, from the first box to a later one
        j = rng.randint(2, n - 1)
        fig.body.append(f"\\draw[->, thick] (p0.south) |- ([yshift=-0.5cm]p{j}.south) -- (p{j}.south);"
                        if rng.random() < 0.5 else f"\\draw[->, thick] (p0.north) |- ([yshift=0.6cm]p{j}.north) -- (p{j}.north);")
        fig.edges.append([labels[0].words, labels[j].words])
    if rng.random() < 0.7:
        a = rng.randrange(n - 1)
        b = min(n - 1, a + rng.randint(1, 2))
        title = rng.choice(["Stage 1", "Backbone", "Training only", "Frozen", "Inference"])
        fit = " ".join(f"(p{k})" for k in range(a, b + 1))
        fig.body.append(f"\\node[draw, dashed, inner sep=8pt, fit={fit}, label=above:{{{title}}}] {{}};")
        fig.words.append(title)


DRAW = {"mlp": draw_mlp, "rnn": draw_rnn, "cell": draw_cell, "block": draw_block, "pipeline": draw_pipeline}


def tex_source(fig: Figure, theme: str, scale: float) -> str:
    ink = {"light": "black", "dark": "white", "faint": "black!55"}[theme]
    page = "\\pagecolor{black!88}" if theme == "dark" else ""
    body = fig.body
    if theme == "dark":  # fills darkened under the white ink
        body = [re.sub(r"fill=([a-z]+)(?:!\d+)?", r"fill=\1!30!black", line) for line in body]
    return "\n".join([
        "\\documentclass[tikz,border=6pt]{standalone}",
        "\\usepackage{amsmath,amssymb,bm}",
        "\\usetikzlibrary{positioning,arrows.meta,fit}",
        "\\begin{document}", page, f"\\color{{{ink}}}",
        f"\\begin{{tikzpicture}}[scale={scale:.2f}, >=Stealth, draw={ink}, text={ink},",
        " neuron/.style={circle, draw, thick, minimum size=0.85cm, inner sep=1pt},",
        " cell/.style={rectangle, rounded corners=3pt, draw, thick, minimum size=0.9cm},",
        " io/.style={circle, draw, minimum size=0.8cm, inner sep=1pt},",
        " gate/.style={rectangle, draw, thick, minimum width=0.9cm, minimum height=0.6cm},",
        " op/.style={circle, draw, thick, inner sep=0.5pt, minimum size=0.5cm},",
        " box/.style={rectangle, draw, thick, rounded corners=2pt, minimum height=0.8cm, minimum width=2.2cm}]",
        *body, "\\end{tikzpicture}", "\\end{document}", ""])


def _compile(tex: str, png: Path, dpi: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "fig.tex"
        src.write_text(tex, encoding="utf-8")
        done = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "fig.tex"], cwd=tmp,
                              capture_output=True, text=True, timeout=120)
        if done.returncode:
            tail = "\n".join(done.stdout.splitlines()[-15:])
            raise TikzMakerError(f"pdflatex failed on {png.name}:\n{tail}")
        subprocess.run(["pdftoppm", "-r", str(dpi), "-png", "-singlefile", "fig.pdf", "fig"], cwd=tmp, check=True,
                       capture_output=True, timeout=120)
        shutil.move(Path(tmp) / "fig.png", png)


def draw(figs: Path, n: int, seed: int) -> list[dict]:
    """Draw ``n`` TikZ figures under ``figs`` (kinds in turn, content from ``seed``); their truth records."""
    for tool in ("pdflatex", "pdftoppm"):
        if shutil.which(tool) is None:
            raise TikzMakerError(f"the tikz maker needs {tool} (TeX Live with TikZ and standalone; poppler-utils)")
    rng = random.Random(seed)
    records = []
    for i in range(n):
        kind = KINDS[i % len(KINDS)]
        fig = Figure()
        DRAW[kind](rng, fig)
        theme = rng.choices(["light", "dark", "faint"], weights=[10, 1, 1])[0]
        dpi = rng.choice([120, 150, 200, 300])
        name = f"tikz_{kind}_{i:03d}"
        tex = tex_source(fig, theme, rng.uniform(0.8, 1.3))
        (figs / f"{name}.tex").write_text(tex, encoding="utf-8")
        _compile(tex, figs / f"{name}.png", dpi)
        records.append({"id": name, "file": f"figs/{name}.png", "kind": "diagram", "maker": f"tikz-{kind}",
                        "style": f"tikz, {theme}, {dpi} dpi",
                        "text": " ".join(w for w in fig.words if w), "nodes": fig.nodes, "edges": fig.edges,
                        "images": 0})
    return records
