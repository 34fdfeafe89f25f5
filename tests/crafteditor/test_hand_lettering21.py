"""Hand-lettered labels of Excalidraw scenes read as their Latin words (issue 31, round 21)."""

import numpy as np

from crafteditor.ocr.corrections import restore_symbols


def _short_k_then(n_letters: int) -> tuple[np.ndarray, list[float]]:
    """A line whose first glyph is a k no taller than an x (Excalidraw's Virgil), then a slash and
    ``n_letters`` letters: what a lone k would read as κ from."""
    mask = np.zeros((40, 20 + 13 * (n_letters + 1)), bool)
    mask[14:28, 4:14] = True  # the k, x-height tall
    mask[6:32, 18:21] = True  # the slash, ascender to descender
    centres = [9.0, 19.5]
    for k in range(n_letters):
        x = 26 + 13 * k
        mask[14:28, x:x + 9] = True
        centres.append(x + 4.5)
    return mask, centres


def test_a_short_k_before_a_slash_and_a_word_stays_latin():
    # Kubernetes' repository names as a real Excalidraw scene writes them: 'k/api', 'k/client-go'
    mask, centres = _short_k_then(3)
    assert restore_symbols("k/api", centres, mask, 0, 24.0) == "k/api"


def test_a_short_k_alone_or_before_a_number_is_kappa():
    mask, centres = _short_k_then(1)
    assert restore_symbols("k/2", centres, mask, 0, 24.0) == "κ/2"
    assert restore_symbols("k", centres[:1], mask[:, :16], 0, 24.0) == "κ"
