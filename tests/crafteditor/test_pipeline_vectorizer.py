"""CraftEditor as the pipeline's vectoriser: a reading swamped by stroke fragments is read again as a scan."""

from importlib.metadata import entry_points

from crafteditor.pipeline import vectorize_for_pipeline
from crafter.spec import Figure, Node, Path


def _fig(paths: int, nodes: int = 2) -> Figure:
    comps = [Node(kind="node", id=f"n{i}", label=f"N{i}") for i in range(nodes)]
    comps += [Path(kind="path", id=f"p{i}", d="M0 0 L1 1") for i in range(paths)]
    return Figure(components=comps)


def test_a_swamped_reading_is_read_again_with_the_scan_preset():
    calls = []

    def fake(image, config=None):
        calls.append(getattr(config, "preset_name", None))
        return _fig(300) if config is None else _fig(20)

    fig = vectorize_for_pipeline("sketch.png", read=fake)
    assert calls == [None, "scan"] and len(fig.components) == 22


def test_a_clean_reading_is_read_once():
    calls = []

    def fake(image, config=None):
        calls.append(config)
        return _fig(30, nodes=10)

    assert len(vectorize_for_pipeline("diagram.png", read=fake).components) == 40 and calls == [None]


def test_the_scan_reading_is_kept_only_when_it_is_smaller():
    fake = lambda image, config=None: _fig(300 if config is None else 400)  # noqa: E731
    assert len(vectorize_for_pipeline("x.png", read=fake).components) == 302


def test_crafteditor_offers_itself_to_crafter_as_an_entry_point():
    (ep,) = [e for e in entry_points(group="crafter.vectorizers") if e.name == "crafteditor"]
    assert ep.load() is vectorize_for_pipeline
