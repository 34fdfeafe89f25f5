"""The tikz-wild maker's truth: a real TikZ source's node texts written inline as the real set writes math."""

import subprocess
from pathlib import Path

from craftbench.makers.tikz_wild import _group, arrow_heads, node_texts, tex_words, truth_of


def test_math_is_written_inline_as_the_real_set_writes_it():
    assert tex_words("$x_{t-1}$") == "xt−1"
    assert tex_words("$\\hat{y}_t$") == "ŷt"
    assert tex_words("$h^{(1)}$") == "h(1)"
    assert tex_words("$\\mathbf{W}_{hh}$") == "Whh"
    assert tex_words("$n$-channel MOSFET") == "n-channel MOSFET"
    assert tex_words("$\\sigma(z)$") == "σ(z)"
    assert tex_words("Add \\& Norm") == "Add & Norm"
    assert tex_words("input\\\\gate") == "input gate"


def test_a_text_that_needs_tex_to_run_is_left_out():
    assert tex_words("$x_\\i$") is None  # a loop variable
    assert tex_words("#1") is None  # a macro argument
    assert tex_words("\\mymacro{a}") is None


SOURCE = r"""\documentclass[tikz]{standalone}
\begin{document}
\begin{tikzpicture}
  \node[draw] (x) at (0,0) {$x_t$};
  \node[draw, right=of x] (h) {Hidden $\mathbf{h}_t$}; % a comment {not a node}
  \node[draw] (y) at (4,0) {$\hat{y}_t$};
  \draw[->] (x) -- (h);
  \draw[<-, thick] (y.west) -- (h.east);
  \draw (x) -- (y);
  \path (x) -- node[above] {skip} (y);
\end{tikzpicture}
\end{document}
"""


def test_plain_nodes_and_arrows_become_nodes_and_edges():
    assert [t for _, t in node_texts(SOURCE)][:3] == ["$x_t$", "Hidden $\\mathbf{h}_t$", "$\\hat{y}_t$"]
    words, nodes, edges = truth_of(SOURCE)
    assert words == ["xt", "Hidden ht", "ŷt", "skip"]
    assert nodes == ["xt", "Hidden ht", "ŷt"]
    assert edges == [["xt", "Hidden ht"], ["Hidden ht", "ŷt"]]  # the plain line (no head) is no edge


def test_a_loop_keeps_words_but_gives_no_nodes():
    src = SOURCE.replace("\\draw (x) -- (y);", "\\foreach \\i in {1,2} \\node (n\\i) at (\\i,1) {$n_\\i$};")
    words, nodes, edges = truth_of(src)
    assert "xt" in words and not nodes and not edges


def test_a_backslash_at_a_text_end_or_before_a_newline_does_not_abort():
    assert tex_words("a\\") is None  # nothing to read after it: the text is left out, the loop goes on
    assert tex_words("a\\\nb") == "a b"  # a control space


def test_an_escaped_backslash_before_a_brace_does_not_escape_it():
    assert _group("{One\\\\}", 0) == ("One\\\\", 7)
    assert _group("{a\\}b}", 0) == ("a\\}b", 6)
    assert [t for _, t in node_texts("\\node (a) {One\\\\}; \\node (b) {Two};")] == ["One\\\\", "Two"]


def test_escaped_characters_stay_where_they_stand():
    assert tex_words("50\\% of") == "50% of"
    assert tex_words("Add \\& Norm") == "Add & Norm"


def test_a_head_at_the_path_start_reverses_the_edge():
    assert arrow_heads("Stealth-, thick") == (True, False)
    assert arrow_heads("thick, -{Latex}") == (False, True)
    assert arrow_heads("-stealth, >=Latex") == (False, True)
    assert arrow_heads("shorten <=-3em, arrow") is None  # a length, no arrow
    src = SOURCE.replace("\\draw[->] (x) -- (h);", "\\draw[Latex-] (h) -- (x);")
    src = src.replace("\\draw[<-, thick] (y.west) -- (h.east);", "\\draw[Stealth-, thick] (y.west) -- (h.east);")
    assert truth_of(src)[2] == [["xt", "Hidden ht"], ["Hidden ht", "ŷt"]]


def test_a_pdftoppm_timeout_skips_the_source(tmp_path, monkeypatch):
    from craftbench.makers import tikz_wild

    def run(cmd, cwd=None, **kw):
        if cmd[0] == "pdftoppm":
            raise subprocess.TimeoutExpired(cmd, kw.get("timeout"))
        (Path(cwd) / "fig.pdf").write_bytes(b"%PDF")
        return subprocess.CompletedProcess(cmd, 0)

    monkeypatch.setattr(tikz_wild.subprocess, "run", run)
    assert tikz_wild._compile(SOURCE, tmp_path / "out.png", 150) is False
