"""The vectorize agent: a reading swamped by stroke fragments is read again as a scan."""

from crafter.agents import vectorize as agent
from crafter.spec import Figure, Node, Path


def _fig(paths: int, nodes: int = 2) -> Figure:
    comps = [Node(kind="node", id=f"n{i}", label=f"N{i}") for i in range(nodes)]
    comps += [Path(kind="path", id=f"p{i}", d="M0 0 L1 1") for i in range(paths)]
    return Figure(components=comps)


def test_a_swamped_reading_is_read_again_with_the_scan_preset(monkeypatch):
    calls = []

    def fake(image, config=None):
        calls.append(getattr(config, "preset_name", None))
        return _fig(300) if config is None else _fig(20)

    monkeypatch.setattr(agent, "_entry_point", lambda: fake)
    fig = agent.vectorize("sketch.png")
    assert calls == [None, "scan"] and len(fig.components) == 22


def test_a_clean_reading_is_read_once(monkeypatch):
    calls = []

    def fake(image, config=None):
        calls.append(config)
        return _fig(30, nodes=10)

    monkeypatch.setattr(agent, "_entry_point", lambda: fake)
    assert len(agent.vectorize("diagram.png").components) == 40 and calls == [None]


def test_the_scan_reading_is_kept_only_when_it_is_smaller(monkeypatch):
    monkeypatch.setattr(agent, "_entry_point", lambda: (lambda image, config=None: _fig(300 if config is None else 400)))
    assert len(agent.vectorize("x.png").components) == 302
