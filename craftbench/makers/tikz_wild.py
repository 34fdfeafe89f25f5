"""Real TikZ figures from public repositories, compiled offline by pdflatex, truth from their own source.

The ``tikz`` maker draws figures from sources the project wrote; they moved dev and left test unmoved. This
maker takes the standalone TikZ sources that researchers published (janosh/diagrams, fraserlove/nntikz —
both MIT; the repository and licence go in each record), compiles each with ``pdflatex`` (then ``lualatex``)
offline, skips those that do not compile, and rasterises the PDF with ``pdftoppm`` at 1x (150 dpi) or 2x
(300 dpi), alternating. A source that is itself a figure of the real set (same repository and the same
figure name as a manifest record's path, any split) is never drawn.

Truth from the source: the words of every ``node``'s text that can be read without running TeX (a text
holding a loop variable, a macro argument or a macro this module does not know is left out: the words are a
subset of what is drawn, and the words score is recall), written inline the way the real set writes math
(``x_{t-1}`` → ``xt−1``, ``\\hat{y}`` → ``ŷ``, ``\\alpha`` → ``α``, ``\\mathbf{W}`` → ``W``). Nodes and edges only
where the source makes them plain: no ``\\foreach``, ``\\pic``, ``forest``, ``neuralnetwork``, ``pgfplots`` or
``\\newcommand``; then every named, readable ``\\node`` is a node and every ``\\draw`` with an arrow head between
two of them (``--``, ``to``, ``-|``, ``|-``, ``edge``) an edge, source first.

    craftbench makers tikz-wild -o /tmp/makers/tikzw -n 200   # mirrors: craftbench.makers.mirrors.mirror_root()
    python scripts/missed_words.py /tmp/makers/tikzw OUT.json --split drawn   # with PYTHONPATH at this checkout

Round 13 (session 48): 106 of 109 readable sources compiled; on the first 81, words 0.670 (694 of 1,036)
before any fix; missed words never 217, misread 74, split/merged 28, scorer 23 — the never class mostly
lone math letters and Greek with scripts beside lines (x, θ, τ_2, φ_a, k_x: no text box found), the
misread class italic leads (x_2 read 'C2', τ_1 read 't1' or '1'). Branch tikz13: words 0.684 (709),
split/merged 28 -> 11.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from craftbench.makers.mirrors import git, mirror_root
from craftbench.makers.mirrors import git_dir as mirror_git_dir
from craftbench.makers.tikz import GREEK, TikzMakerError

# repository -> (folder the sources lie under, licence); the mirrors are git directories (owner+name/repo)
SOURCES = {"janosh/diagrams": ("assets/", "MIT"), "fraserlove/nntikz": ("tikz/", "MIT")}
MANIFEST = Path(__file__).resolve().parents[2] / "realset" / "manifest.json"
DPI = (150, 300)  # 1x and 2x
MORE_GREEK = {"Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Sigma": "Σ", "Phi": "Φ", "Psi": "Ψ",
              "Omega": "Ω", "Pi": "Π", "epsilon": "ε", "varepsilon": "ε", "zeta": "ζ", "eta": "η", "iota": "ι",
              "kappa": "κ", "nu": "ν", "xi": "ξ", "pi": "π", "rho": "ρ", "chi": "χ", "varphi": "φ",
              "vartheta": "ϑ", "ell": "ℓ", "nabla": "∇", "partial": "∂", "infty": "∞"}
SYMBOLS = {**GREEK, **MORE_GREEK, "odot": "⊙", "oplus": "⊕", "otimes": "⊗", "times": "×", "cdot": "·",
           "sum": "∑", "prod": "∏", "int": "∫", "pm": "±", "leq": "≤", "geq": "≥", "le": "≤", "ge": "≥",
           "neq": "≠", "approx": "≈", "sim": "∼", "in": "∈", "to": "→", "rightarrow": "→", "leftarrow": "←",
           "circ": "∘", "star": "⋆", "ast": "∗", "log": "log", "exp": "exp", "tanh": "tanh", "max": "max",
           "min": "min", "softmax": "softmax", "cdots": "…", "ldots": "…", "dots": "…", "vdots": "⋮",
           "hbar": "ℏ", "langle": "⟨", "rangle": "⟩", "mid": "|", "det": "det", "sin": "sin", "cos": "cos",
           "lim": "lim", "forall": "∀", "exists": "∃", "sqrt": "√", "%": "%", "&": "&", "_": "_", "#": "#"}
# commands whose argument is kept as it is (font and style of the word, not the word)
KEEP_ARG = {"mathbf", "mathrm", "mathit", "mathsf", "mathtt", "mathcal", "mathbb", "boldsymbol", "bm", "text",
            "textbf", "textit", "textrm", "textsf", "texttt", "emph", "operatorname", "mbox", "textsc", "underline",
            "mathnormal", "textnormal", "ensuremath"}
LITERAL = {"%", "&", "_", "#"}  # an escaped character is typeset where it stands: 50\% is "50%"
ACCENTS = {"hat": "\u0302", "tilde": "\u0303", "bar": "\u0304", "overline": "\u0304", "vec": "\u20d7",
           "dot": "\u0307", "widehat": "\u0302", "widetilde": "\u0303"}
DROP = {"small", "large", "Large", "LARGE", "huge", "Huge", "tiny", "scriptsize", "footnotesize", "normalsize",
        "bfseries", "itshape", "sffamily", "ttfamily", "rmfamily", "mdseries", "upshape", "scshape", "left",
        "right", "big", "Big", "bigg", "Bigg", "displaystyle", "textstyle", "scriptstyle", "centering", "quad",
        "qquad", "strut", "relax", "limits", "nolimits", "noindent", "par", "hfill", "vfill"}
# packages and commands that draw nodes the source does not name one by one: words only
NOT_PLAIN = re.compile(r"\\foreach|\\pic\b|\\newcommand|\\def\\|forest|neuralnetwork|pgfplots|\\begin\{axis|"
                       r"\\matrix|\\graph\b|circuitikz|\\pgfmathsetmacro|\\tdplot|\\draw\s*plot|\\addplot")
NODE = re.compile(r"\bnode\s*(?:\[|\(|at\b|\{)")
# an arrow option: a tip (``<``, ``>``, ``|``, a named one such as ``Stealth`` or ``{Latex}``) or none, each side
ARROW = re.compile(r"([<>|]*|\{?[A-Za-z' ]+\}?)-([<>|]*|\{?[A-Za-z' ]+\}?)")
DRAW_EDGE = re.compile(r"\\(?:draw|path)\s*\[([^\]]*)\]\s*\(([\w\- ]+?)(?:\.[\w ]+)?\)\s*"
                       r"(?:--|to(?:\s*\[[^\]]*\])?|-\||\|-|edge(?:\s*\[[^\]]*\])?)\s*"
                       r"(?:node\s*(?:\[[^\]]*\])?\s*\{[^{}]*\}\s*)?\(([\w\- ]+?)(?:\.[\w ]+)?\)\s*;")


@dataclass
class Source:
    repo: str
    path: str
    commit: str
    tex: str
    words: list[str] = field(default_factory=list)
    nodes: list[str] = field(default_factory=list)
    edges: list[list[str]] = field(default_factory=list)


def _group(s: str, i: int, open_: str = "{", close: str = "}") -> tuple[str, int] | None:
    """The balanced group starting at ``s[i] == open_``: its inside and the index after it."""
    if i >= len(s) or s[i] != open_:
        return None
    depth, j = 0, i
    while j < len(s):
        if s[j] == "\\":  # a backslash escapes the next character: \\} closes, \} does not
            j += 2
            continue
        if s[j] == open_:
            depth += 1
        elif s[j] == close:
            depth -= 1
            if depth == 0:
                return s[i + 1:j], j + 1
        j += 1
    return None


def tex_words(text: str) -> str | None:
    """A node text's words as the real set writes them (math inline), or None where it cannot be read from the
    source alone (a loop variable, a macro argument, a macro not known here)."""
    if "#" in text.replace("\\#", ""):
        return None
    out: list[str] = []
    i, math = 0, False
    while i < len(text):
        ch = text[i]
        if ch == "$":  # no space: $n$-channel is one word as typeset
            math = not math
            i += 1
        elif ch == "\\":
            m = re.match(r"\\(?:([A-Za-z]+)\s*|(.))", text[i:], re.S)  # a control word eats the spaces after it
            if m is None:
                return None  # a backslash ending the text: nothing to read
            name = m.group(1) or m.group(2)
            i += m.end()
            if name == "\\":
                out.append(" ")
                if i < len(text) and text[i] == "[":  # \\[2pt]
                    i = text.find("]", i) + 1
            elif name in (",", ";", ":", "!") or name.isspace():
                out.append(" " if name != "!" else "")
            elif name in SYMBOLS:
                sym = SYMBOLS[name]
                spaced = not sym.isalnum() and len(sym) == 1 and sym not in "…" and name not in LITERAL
                out.append(f" {sym} " if spaced else sym)
            elif name in DROP:
                pass
            elif name in KEEP_ARG or name in ACCENTS or name == "frac":
                g = _group(text, i)
                if g is None:
                    return None
                inner = tex_words(g[0] if not math else f"${g[0]}$")
                if inner is None:
                    return None
                i = g[1]
                if name in ACCENTS:
                    inner = unicodedata.normalize("NFC", inner.strip() + ACCENTS[name])
                elif name == "frac":
                    g2 = _group(text, i)
                    if g2 is None:
                        return None
                    den = tex_words(f"${g2[0]}$")
                    if den is None:
                        return None
                    i = g2[1]
                    inner = f" {inner.strip()} / {den.strip()} "
                out.append(inner)
            else:
                return None
        elif ch in "{}":
            i += 1
        elif ch in "^_" and math:  # a sub/superscript stays glued to its base: x_{t-1} -> xt−1
            g = _group(text, i + 1)
            if g is None:
                i += 1
                continue
            inner = tex_words(f"${g[0]}$")
            if inner is None:
                return None
            if out:
                out[-1] = out[-1].rstrip()
            out.append(inner.replace(" ", ""))
            i = g[1]
        elif ch == "~":
            out.append(" ")
            i += 1
        elif math and ch in "+=<>,":
            out.append(f" {ch} ")
            i += 1
        elif math and ch == "-":
            out.append(" − " if out and out[-1].strip() else "−")
            i += 1
        else:
            out.append(ch)
            i += 1
    if math:
        return None
    return " ".join("".join(out).split())


def node_texts(src: str) -> list[tuple[str | None, str]]:
    """Every ``node``'s (name, raw text) in a TikZ source (name None where it has none)."""
    found = []
    for m in NODE.finditer(src):
        i = m.start() + 4
        name = None
        while i < len(src):
            while i < len(src) and src[i].isspace():
                i += 1
            if i < len(src) and src[i] == "[":
                g = _group(src, i, "[", "]")
                if g is None:
                    break
                i = g[1]
            elif i < len(src) and src[i] == "(":
                g = _group(src, i, "(", ")")
                if g is None:
                    break
                name, i = (g[0].strip() if name is None else name), g[1]
            elif src.startswith("at", i):
                i += 2
                while i < len(src) and src[i].isspace():
                    i += 1
                g = _group(src, i, "(", ")")
                if g is None:
                    break
                i = g[1]
            elif i < len(src) and src[i] == "{":
                g = _group(src, i)
                if g is not None:
                    found.append((name, g[0]))
                break
            else:
                break
    return found


def arrow_heads(opts: str) -> tuple[bool, bool] | None:
    """(a head at the path's start, a head at its end) from a ``\\draw``'s arrow option (``->``, ``<-``,
    ``Stealth-``, ``-{Latex}``, ``|->``, ``arrows=<->``), None where the options name none."""
    for opt in opts.split(","):
        opt = re.sub(r"^\s*arrows?\s*=", "", opt).strip()
        m = ARROW.fullmatch(opt)
        if m:
            return tuple(bool(re.search(r"[<>A-Za-z]", part)) for part in m.groups())
    return None


def truth_of(src: str) -> tuple[list[str], list[str], list[list[str]]]:
    """Words, nodes and edges of one TikZ source (nodes and edges only where the source makes them plain)."""
    body = re.sub(r"(?<!\\)%.*", "", src)
    body = body[body.find("\\begin{document}"):] if "\\begin{document}" in body else body
    words, labels = [], {}
    for name, raw in node_texts(body):
        w = tex_words(raw)
        if w is None:
            labels[name] = None
            continue
        if w:
            words.append(w)
        if name:
            labels[name] = w
    if NOT_PLAIN.search(src) or any(v is None for v in labels.values()):
        return words, [], []
    nodes = [w for w in labels.values() if w]
    edges = []
    for m in DRAW_EDGE.finditer(body):
        opts, a, b = m.group(1), m.group(2).strip(), m.group(3).strip()
        if not labels.get(a) or not labels.get(b):
            continue
        heads = arrow_heads(opts)
        if heads is None or not any(heads):
            continue
        if heads == (True, False):  # a head at the path's start only: the arrow points back
            a, b = b, a
        edges.append([labels[a], labels[b]])
    return words, nodes, edges


def _real_set_names() -> set[tuple[str, str]]:
    """(repository, figure name) of every real-set record, any split: those sources are never drawn."""
    figs = json.loads(MANIFEST.read_text(encoding="utf-8"))["figures"]
    return {(f["repo"], Path(f["path"]).stem.lower()) for f in figs if f.get("repo") and f.get("path")}


def sources(mirrors: Path) -> list[Source]:
    """The standalone TikZ sources of :data:`SOURCES` under ``mirrors``, real-set figures left out."""
    skip = _real_set_names()
    out = []
    for repo, (under, _) in SOURCES.items():
        git_dir = mirror_git_dir(repo, mirrors)
        if git_dir is None:
            continue
        commit = git(git_dir, "rev-parse", "HEAD").strip()
        for path in sorted(git(git_dir, "ls-tree", "-r", "--name-only", "HEAD", under).split()):
            if not path.endswith(".tex") or (repo, Path(path).stem.lower()) in skip:
                continue
            tex = git(git_dir, "show", f"HEAD:{path}")
            if "\\documentclass" not in tex or "tikz" not in tex:
                continue
            src = Source(repo, path, commit, tex)
            src.words, src.nodes, src.edges = truth_of(tex)
            if src.words:
                out.append(src)
    return out


def _compile(tex: str, png: Path, dpi: int) -> bool:
    """Compile offline (pdflatex, else lualatex) and rasterise the first page; False where it does not compile."""
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "fig.tex").write_text(tex, encoding="utf-8")
        for engine in ("pdflatex", "lualatex"):
            try:
                done = subprocess.run([engine, "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape",
                                       "fig.tex"], cwd=tmp, capture_output=True, timeout=90)
            except subprocess.TimeoutExpired:
                continue
            if done.returncode == 0 and (Path(tmp) / "fig.pdf").is_file():
                break
        else:
            return False
        try:
            r = subprocess.run(["pdftoppm", "-r", str(dpi), "-png", "-singlefile", "-f", "1", "fig.pdf", "fig"],
                               cwd=tmp, capture_output=True, timeout=120)
        except subprocess.TimeoutExpired:
            return False  # a page too heavy to rasterise: that source is skipped
        if r.returncode or not (Path(tmp) / "fig.png").is_file():
            return False
        shutil.move(Path(tmp) / "fig.png", png)
    return True


def draw(figs: Path, n: int, seed: int) -> list[dict]:
    """Compile up to ``n`` real TikZ sources (in order from ``seed``) under ``figs``; their truth records."""
    for tool in ("pdflatex", "pdftoppm"):
        if shutil.which(tool) is None:
            raise TikzMakerError(f"the tikz-wild maker needs {tool} (TeX Live with TikZ and standalone; poppler-utils)")
    mirrors = mirror_root()
    found = sources(mirrors)
    if not found:
        raise TikzMakerError(f"no TikZ sources under {mirrors} (set CRAFTBENCH_MIRRORS to the folder of "
                             f"git directories owner+name/repo of {', '.join(SOURCES)})")
    found = found[seed % len(found):] + found[:seed % len(found)]
    records = []
    for k, src in enumerate(found):
        if len(records) >= n:
            break
        dpi = DPI[k % 2]
        name = "tw_" + re.sub(r"[^A-Za-z0-9]+", "_", f"{src.repo.split('/')[1]}_{Path(src.path).stem}") + f"_{dpi}"
        if not _compile(src.tex, figs / f"{name}.png", dpi):
            continue
        records.append({"id": name, "file": f"figs/{name}.png", "repo": src.repo, "path": src.path,
                        "commit": src.commit, "licence": SOURCES[src.repo][1], "kind": "diagram",
                        "maker": "tikz-wild", "style": f"tikz, real source, {dpi} dpi",
                        "text": " ".join(src.words), "nodes": src.nodes, "edges": src.edges, "images": 0})
    return records
