"""The tikz-wild maker's truth: a real TikZ source's node texts written inline as the real set writes math."""

from craftbench.makers.tikz_wild import node_texts, tex_words, truth_of


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
