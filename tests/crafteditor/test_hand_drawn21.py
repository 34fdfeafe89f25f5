"""Real Excalidraw scenes (issue 31, round 21, ``craftbench makers excalidraw-real --seed 20``): hand-lettered
labels read as their Latin words, a thick arrow's stub carried on along its pencil to the box it points at, and
arrows merging onto a third kept apart."""

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


def _box(x, y, w, h):
    from crafteditor.shapes.detect import DetectedShape
    from crafteditor.shapes.faces import Face
    m = np.ones((h, w), bool)
    face = Face(paint=0, x=x, y=y, w=w, h=h, mask=m, filled=m)
    return DetectedShape(shape="box", x=x, y=y, w=w, h=h, fill=(255, 255, 255), stroke=(0, 0, 0), stroke_px=3.0,
                         iou=0.95, face=face)


def _thick_arrow_ink(head: bool) -> np.ndarray:
    """The pencil of a thick Excalidraw arrow from x 200 left to a box whose right side is at x 100:
    the shaft drawn to its tip at x 106 (the binding gap), with an open 'V' over its last 40 px."""
    import cv2
    ink = np.zeros((200, 400), np.uint8)
    cv2.line(ink, (200, 100), (106, 100), 1, 3)
    if head:
        for dy in (-22, 22):
            cv2.line(ink, (106, 100), (146, 100 + dy), 1, 3)
    return ink.astype(bool)


def test_a_stub_runs_on_along_its_pencil_to_the_box_and_takes_the_head_drawn_there():
    # the tracer kept only the shaft's first 20 px; its thick head's stretch went with the barbs
    from crafteditor.lines.paths import LinePath
    from crafteditor.sketch_lines import reach_nodes
    shapes = [_box(0, 60, 100, 80), _box(200, 60, 100, 80)]
    stub = LinePath(points=[(200.0, 100.0), (180.0, 100.0)], width=3.0, color=(30, 30, 30))
    reach_nodes([stub], shapes, _thick_arrow_ink(head=True))
    assert stub.end[0] <= 104 and stub.head_end is not None and stub.head_end.kind == "open"
    bare = LinePath(points=[(200.0, 100.0), (180.0, 100.0)], width=3.0, color=(30, 30, 30))
    reach_nodes([bare], shapes, _thick_arrow_ink(head=False))
    assert bare.end[0] <= 104 and bare.head_end is None  # a line the tracer cut short: carried on, headless


def test_a_stub_with_no_pencil_ahead_stays_short():
    from crafteditor.lines.paths import LinePath
    from crafteditor.sketch_lines import reach_nodes
    shapes = [_box(0, 60, 100, 80), _box(200, 60, 100, 80)]
    stub = LinePath(points=[(200.0, 100.0), (180.0, 100.0)], width=3.0, color=(30, 30, 30))
    reach_nodes([stub], shapes, np.zeros((200, 400), bool))
    assert stub.end == (180.0, 100.0) and stub.head_end is None


def test_two_arrows_merging_onto_a_third_are_not_one_line_between_their_sources():
    # drawn excalidraw-real (ctfd-chall-manager's testing page): 'E2E tests' and 'lock-local' each curve onto
    # the arrow 'lock-redis -> End' just before End; joined where they met, they became 'E2E tests - lock-local'
    from crafteditor.lines.paths import Arrowhead, LinePath
    from crafteditor.sketch_arrows import join_sketch_arrows
    upper, lower, middle, end = _box(100, 20, 100, 60), _box(100, 320, 100, 60), _box(0, 170, 100, 60), \
        _box(500, 150, 100, 100)
    head = Arrowhead(tip=(500.0, 200.0), base=(480.0, 200.0), length=20.0, width=16.0, mask_box=(480, 192, 501, 209),
                     kind="open")
    trunk = LinePath(points=[(100.0, 200.0), (500.0, 200.0)], width=3.0, color=(30, 30, 30), head_end=head)
    down = LinePath(points=[(150.0, 80.0), (150.0, 150.0), (200.0, 195.0), (300.0, 199.0)], width=3.0,
                    color=(30, 30, 30))
    up = LinePath(points=[(150.0, 320.0), (150.0, 250.0), (200.0, 205.0), (300.0, 201.0)], width=3.0,
                  color=(30, 30, 30))
    out = join_sketch_arrows([trunk, down, up], [upper, lower, middle, end])
    assert len(out) == 3  # each branch left to share the trunk into 'End'
    assert not any(min(abs(ln.start[1] - 80), abs(ln.end[1] - 80)) < 5 and min(abs(ln.start[1] - 320),
                   abs(ln.end[1] - 320)) < 5 for ln in out)


def test_a_rough_arrow_cut_where_it_crosses_a_line_is_still_one_arrow():
    # the two pieces of one arrow meet on the line it crosses, the one running on from the other
    from crafteditor.lines.paths import LinePath
    from crafteditor.sketch_arrows import join_sketch_arrows
    left, right, top, bottom = _box(0, 150, 100, 100), _box(500, 150, 100, 100), _box(250, 0, 100, 60), \
        _box(250, 340, 100, 60)
    crossing = LinePath(points=[(300.0, 60.0), (300.0, 340.0)], width=3.0, color=(30, 30, 30))
    a = LinePath(points=[(100.0, 200.0), (298.0, 200.0)], width=3.0, color=(30, 30, 30))
    b = LinePath(points=[(302.0, 200.0), (500.0, 200.0)], width=3.0, color=(30, 30, 30))
    out = join_sketch_arrows([crossing, a, b], [left, right, top, bottom])
    assert any(ln.start[0] <= 102 and ln.end[0] >= 498 or ln.end[0] <= 102 and ln.start[0] >= 498 for ln in out)


def test_a_stroke_from_inside_a_node_is_not_carried_back_into_it():
    # an icon drawn over a node's corner (wordsmith's elephant on 'db'): its pencil runs on into the node;
    # carried along it, a stroke of the icon had become a link from 'db' to 'db'
    from crafteditor.lines.paths import LinePath
    from crafteditor.sketch_lines import reach_nodes
    shapes = [_box(0, 60, 100, 80)]
    ink = np.zeros((200, 400), bool)
    ink[98:103, 106:200] = True
    # from the node's side out to x 190, then back towards the node along the icon's pencil
    stroke = LinePath(points=[(100.0, 130.0), (190.0, 100.0), (180.0, 100.0)], width=3.0, color=(30, 30, 30))
    reach_nodes([stroke], shapes, ink)
    assert stroke.end == (180.0, 100.0) and stroke.head_end is None
