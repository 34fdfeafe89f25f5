"""The ELK Layered engine: elkjs in one long-lived Node process.

:class:`ElkServer` starts ``node crafter/layout/elk_server.js`` on first use, sends one
JSON line per layout and reads one back; it restarts the process if it died and shuts
it down at interpreter exit. Start-up (about half a second: Node plus the 1.6 MB elkjs
bundle) is paid once per Python process, and timed separately (:attr:`ElkServer.startup_ms`).

:func:`layout_area_elk` turns an :class:`~crafter.layout.problem.Area` into an ELK graph:
groups become compound nodes (``hierarchyHandling=INCLUDE_CHILDREN`` so edges between
groups are routed across the hierarchy), annotations become outside node labels (ELK
keeps room for them), edge labels are sized from our own text measurement and placed
by ELK's label dummies. Spacing comes from the theme.
"""

from __future__ import annotations

import atexit
import itertools
import json
import logging
import os
import queue
import shutil
import subprocess
import threading
import time
from pathlib import Path

from crafter.layout.lanes import flow_layers, lane_edges, route_lanes
from crafter.layout.problem import Annotation, Area, AreaLayout, EngineError, Item, LayoutEdge

log = logging.getLogger(__name__)

SERVER_SCRIPT = Path(__file__).with_name("elk_server.js")
START_TIMEOUT_S = 20.0
# Layouts Node runs in the background after start-up so V8 has compiled ELK by the time
# real figures come: the first layouts of a 10-node graph cost ~250 ms of CPU, warm ones ~30.
WARMUP_LAYOUTS = 25
DIRECTIONS = {"LR": "RIGHT", "RL": "LEFT", "TB": "DOWN", "BT": "UP"}
NODE_LABEL_PLACEMENT = {
    "above": "OUTSIDE V_TOP H_CENTER",
    "below": "OUTSIDE V_BOTTOM H_CENTER",
    "left": "OUTSIDE H_LEFT V_CENTER",
    "right": "OUTSIDE H_RIGHT V_CENTER",
}
ANNOTATION_PREFIX = "A:"  # ELK label ids; ':' never occurs in component ids
EDGE_LABEL_PREFIX = "L:"


def find_node() -> str | None:
    """The Node.js executable: $CRAFTER_NODE, else ``node`` (or ``nodejs``) on the PATH."""
    env = os.environ.get("CRAFTER_NODE")
    if env:
        return env if Path(env).exists() else shutil.which(env)
    return shutil.which("node") or shutil.which("nodejs")


def find_node_modules() -> list[str]:
    """``node_modules`` folders that hold elkjs: above this package (a source checkout) and the cwd."""
    found: list[str] = []
    extra = os.environ.get("CRAFTER_NODE_MODULES")
    candidates = [Path(extra)] if extra else []
    for parent in [Path(__file__).resolve().parent, *Path(__file__).resolve().parents, Path.cwd()]:
        candidates.append(parent / "node_modules")
    for c in candidates:
        if (c / "elkjs" / "package.json").exists() and str(c) not in found:
            found.append(str(c))
    return found


class ElkServer:
    """One Node process running ``elk_server.js``; thread-safe, restarted when it dies."""

    def __init__(self) -> None:
        self._proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self.startup_ms: float | None = None  # the last start-up, Node launch to "ready"
        self.starts = 0
        self.elkjs_version: str | None = None
        self.last_ms: float = 0.0  # the last layout's wall time inside Node
        self.last_cpu_ms: float = 0.0  # and its CPU time (what it costs on an idle machine)

    # -- process ------------------------------------------------------------------
    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def start(self) -> None:
        node = find_node()
        if node is None:
            raise EngineError("Node.js is not installed (no 'node' on the PATH)")
        modules = find_node_modules()
        if not modules:
            raise EngineError("the npm package elkjs is not installed (run `make env` or `npm install`)")
        env = dict(os.environ)
        env["NODE_PATH"] = os.pathsep.join(modules + ([env["NODE_PATH"]] if env.get("NODE_PATH") else []))
        t0 = time.perf_counter()
        try:
            self._proc = subprocess.Popen(
                [node, str(SERVER_SCRIPT)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, text=True, encoding="utf-8", bufsize=1, env=env,
            )
        except OSError as e:
            raise EngineError(f"cannot start Node.js: {e}") from None
        self._lines = queue.Queue()
        threading.Thread(target=self._read, args=(self._proc, self._lines), daemon=True).start()
        self.starts += 1
        hello = self._next_line(START_TIMEOUT_S)
        if hello is None:
            self.close()
            raise EngineError("the ELK server did not start")
        msg = json.loads(hello)
        if not msg.get("ready"):
            self.close()
            raise EngineError(f"the ELK server cannot load elkjs: {msg.get('error')}")
        self.elkjs_version = msg.get("elkjs")
        self.startup_ms = (time.perf_counter() - t0) * 1000
        if WARMUP_LAYOUTS > 0:  # runs in Node's idle time; a real layout never waits for more than one
            self._request({"warmup": {"graph": build_graph(_warmup_area()), "count": WARMUP_LAYOUTS}}, 10.0)

    @staticmethod
    def _read(proc: subprocess.Popen[str], lines: "queue.Queue[str | None]") -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line)
        lines.put(None)  # end of output: the process is gone

    def _next_line(self, timeout: float) -> str | None:
        try:
            return self._lines.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            if proc.stdin:
                proc.stdin.close()
            proc.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()
            try:
                proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                pass

    # -- requests -----------------------------------------------------------------
    def layout(self, graph: dict, timeout: float = 30.0) -> dict:
        """Lay out one ELK graph; raises :class:`EngineError` on any failure (and drops a stuck process)."""
        with self._lock:
            msg = self._request({"graph": graph}, timeout)
            if "error" in msg:
                raise EngineError(f"ELK failed: {msg['error']}")
            self.last_ms = float(msg.get("ms", 0.0))
            self.last_cpu_ms = float(msg.get("cpu_ms", 0.0))
            return msg

    def warm_up(self, timeout: float = 60.0) -> float:
        """Wait until the background warm-up is done; returns the seconds waited."""
        t0 = time.perf_counter()
        with self._lock:
            self._request({"warmed": True}, timeout)
        return time.perf_counter() - t0

    def _request(self, payload: dict, timeout: float) -> dict:
        """Send one request and read its answer (caller holds the lock)."""
        if not self.alive():
            self.start()
        assert self._proc is not None and self._proc.stdin is not None
        rid = next(self._ids)
        try:
            self._proc.stdin.write(json.dumps({"id": rid, **payload}, separators=(",", ":")) + "\n")
            self._proc.stdin.flush()
        except OSError as e:
            self.close()
            raise EngineError(f"the ELK server went away: {e}") from None
        deadline = time.monotonic() + timeout
        while True:
            line = self._next_line(max(deadline - time.monotonic(), 0.0))
            if line is None:
                self.close()  # timed out or died: the next call starts a fresh process
                raise EngineError(f"the ELK server gave no answer within {timeout:.0f} s")
            msg = json.loads(line)
            if msg.get("id") == rid:
                return msg


_SERVER: ElkServer | None = None
_SERVER_LOCK = threading.Lock()
_UNAVAILABLE: str | None = None  # why ELK cannot run here, once we know


def server() -> ElkServer:
    global _SERVER
    with _SERVER_LOCK:
        if _SERVER is None:
            _SERVER = ElkServer()
            atexit.register(_SERVER.close)
        return _SERVER


def elk_available() -> bool:
    """Whether Node and elkjs are here (starts the server the first time it is asked)."""
    global _UNAVAILABLE
    if _UNAVAILABLE is not None:
        return False
    s = server()
    if s.alive():
        return True
    try:
        with s._lock:
            if not s.alive():
                s.start()
        return True
    except EngineError as e:
        _UNAVAILABLE = str(e)
        log.info("ELK layout unavailable: %s", e)
        return False


def unavailable_reason() -> str | None:
    return _UNAVAILABLE


def shutdown() -> None:
    """Stop the Node process (it is started again on the next layout)."""
    if _SERVER is not None:
        _SERVER.close()


# ---------------------------------------------------------------------------------
# Area <-> ELK graph
# ---------------------------------------------------------------------------------


def _spacing(area: Area) -> dict[str, str]:
    edge_sep = area.edge_sep
    return {
        "elk.spacing.nodeNode": _n(area.node_sep),
        "elk.layered.spacing.nodeNodeBetweenLayers": _n(area.rank_sep),
        "elk.spacing.edgeNode": _n(edge_sep),
        "elk.layered.spacing.edgeNodeBetweenLayers": _n(edge_sep),
        "elk.spacing.edgeEdge": _n(edge_sep * 0.8),
        "elk.layered.spacing.edgeEdgeBetweenLayers": _n(edge_sep * 0.8),
        "elk.spacing.edgeLabel": "3",
        "elk.spacing.labelNode": "4",
        "elk.spacing.labelLabel": "2",
        "elk.spacing.componentComponent": _n(area.node_sep * 1.5),
    }


def _n(v: float) -> str:
    return repr(round(float(v), 3))


def backbone_edges(area: Area) -> set[str]:
    """Edges joining consecutive layers of a longest-path layering: the figure's main flow.

    ELK keeps long edges straight before short ones; a U-Net's skip connections then pull
    the encoder chain into a staircase. Giving the one-layer edges priority keeps chains
    on one line and sends the long edges around them.
    """
    layer, _ = flow_layers(area)
    return {e.id for e in area.edges if e.source != e.target
            and abs(layer.get(e.target, 0) - layer.get(e.source, 0)) == 1}


def feedback_edges(area: Area) -> set[str]:
    """Edges that close a cycle and run against the author's order: the figure's feedback edges.

    Inside each strongly connected component, an edge from a later-written item to an
    earlier-written one is a feedback edge (what is left is ordered, so acyclic). ELK gets
    these reversed and we turn their routes round: a feedback edge then leaves its source
    against the flow and reaches its target from behind in a short hook, instead of ELK's
    own cycle breaking picking arbitrary edges and looping them around the whole figure.
    """
    order = {it.id: k for k, it in enumerate(area.walk())}
    succ: dict[str, list[str]] = {}
    for e in area.edges:
        if e.source != e.target:
            succ.setdefault(e.source, []).append(e.target)
    # Tarjan's strongly connected components, iterative
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    comp: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    counter = itertools.count()
    for root in order:
        if root in index:
            continue
        index[root] = low[root] = next(counter)
        stack.append(root)
        on_stack.add(root)
        work = [(root, iter(succ.get(root, ())))]
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = next(counter)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(succ.get(w, ()))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                while True:
                    x = stack.pop()
                    on_stack.discard(x)
                    comp[x] = index[v]
                    if x == v:
                        break
    return {e.id for e in area.edges if e.source != e.target and comp.get(e.source) == comp.get(e.target)
            and order.get(e.source, 0) > order.get(e.target, 0)}


WRAP_LAYERS = 7  # a flat area whose flow runs this many layers deep wraps into rows (or columns)
WRAP_ASPECT = 3.0  # the width-to-height ratio ELK wraps towards


def wraps(area: Area) -> bool:
    """Whether ELK should cut an area's long flow into rows ("nine steps in one row" is an 8:1 strip): a
    left-to-right area whose longest path runs :data:`WRAP_LAYERS` layers, with no skip edge (those run in
    lanes along one row: :func:`crafter.layout.lanes.lane_edges`). The options are given to the top level and,
    as every option is, repeated inside each group (INCLUDE_CHILDREN): a group's own long chain wraps too."""
    if area.direction not in ("LR", "RL") or not area.edges:
        return False
    layer, _ = flow_layers(area)
    return max(layer.values(), default=0) + 1 >= WRAP_LAYERS and not lane_edges(area)


BACKBONE_PRIORITY = {"elk.layered.priority.straightness": "10", "elk.layered.priority.direction": "10"}


def build_graph(area: Area, leave_out: set[str] = frozenset()) -> dict:  # type: ignore[assignment]
    """The ELK JSON graph of an area, without the edges in ``leave_out`` (routed in lanes later)."""
    n = area.leaf_count()
    options = {
        "elk.algorithm": "layered",
        "elk.direction": DIRECTIONS[area.direction],
        "elk.hierarchyHandling": "INCLUDE_CHILDREN",
        "elk.edgeRouting": "ORTHOGONAL",
        "elk.json.shapeCoords": "ROOT",
        "elk.json.edgeCoords": "ROOT",
        "elk.padding": "[top=0,left=0,bottom=0,right=0]",
        "elk.randomSeed": "1",
        # the author's order breaks ties: figures keep the order they were written in
        "elk.layered.considerModelOrder.strategy": "PREFER_EDGES",
        "elk.layered.cycleBreaking.strategy": "GREEDY_MODEL_ORDER",
        # network simplex gives the straightest chains; Brandes-Koepf is faster on big figures
        "elk.layered.nodePlacement.strategy": "BRANDES_KOEPF",
        "elk.layered.nodePlacement.bk.fixedAlignment": "BALANCED",
        "elk.edgeLabels.placement": "CENTER",
        "elk.layered.edgeLabels.sideSelection": "ALWAYS_UP",
        # fewer crossing-minimisation rounds on big figures keeps them to seconds
        "elk.layered.thoroughness": "7" if n <= 100 else "3",
        # edges leaving one side of a node share their first stretch: nodes in a chain line up
        "elk.layered.mergeEdges": "false",
        **_spacing(area),
    }
    if wraps(area):
        options |= {"elk.layered.wrapping.strategy": "MULTI_EDGE", "elk.aspectRatio": str(WRAP_ASPECT)}
    # with INCLUDE_CHILDREN a compound node's own options govern its insides: repeat them there
    inherited = {k: v for k, v in options.items()
                 if k not in ("elk.algorithm", "elk.hierarchyHandling", "elk.padding", "elk.json.shapeCoords",
                              "elk.json.edgeCoords")}

    def node(it: Item) -> dict:
        d: dict = {"id": it.id}
        if it.container:
            top, right, bottom, left = it.padding
            d["layoutOptions"] = {
                "elk.padding": f"[top={_n(top)},left={_n(left)},bottom={_n(bottom)},right={_n(right)}]",
                "elk.nodeSize.constraints": "MINIMUM_SIZE",
                "elk.nodeSize.minimum": f"({_n(it.w)},{_n(it.h)})",
                **inherited,
            }
            d["children"] = [node(c) for c in it.children]
        else:
            d["width"], d["height"] = it.w, it.h
            if it.annotations:
                d["labels"] = [
                    {"id": ANNOTATION_PREFIX + a.id, "text": a.id, "width": a.w, "height": a.h,
                     "layoutOptions": {"elk.nodeLabels.placement": NODE_LABEL_PLACEMENT[a.side]}}
                    for a in it.annotations
                ]
        return d

    backbone = backbone_edges(area)
    feedback = feedback_edges(area)
    edges = []
    for e in area.edges:
        if e.id in leave_out:
            continue
        ends = (e.target, e.source) if e.id in feedback else (e.source, e.target)
        d: dict = {"id": e.id, "sources": [ends[0]], "targets": [ends[1]]}
        if e.id in backbone:
            d["layoutOptions"] = BACKBONE_PRIORITY
        if e.label is not None and area.direction in ("LR", "RL"):
            d["labels"] = [{"id": EDGE_LABEL_PREFIX + e.id, "text": e.id, "width": e.label[0], "height": e.label[1]}]
        edges.append(d)
    return {"id": "root", "layoutOptions": options, "children": [node(it) for it in area.items], "edges": edges}


def _set_option(node: dict, key: str, value: str) -> None:
    """Set a layout option on a graph node and every compound node inside it."""
    if "layoutOptions" in node and "children" in node:
        node["layoutOptions"][key] = value
    for child in node.get("children", ()):
        _set_option(child, key, value)


def _warmup_area() -> Area:
    """A small figure with what real ones have (a group, labels, a cycle, an annotation) to warm ELK up."""
    leaves = [Item(f"n{i}", 70.0 + 9 * (i % 5), 32.0 + 12 * (i % 3 == 0)) for i in range(14)]
    leaves[1].annotations.append(Annotation("t", "above", 60.0, 14.0))
    group = Item("g", 80.0, 30.0, children=leaves[3:7], container=True, padding=(24.0, 12.0, 12.0, 12.0))
    items = leaves[:3] + [group] + leaves[7:]
    pairs = [(i, i + 1) for i in range(13)] + [(0, 8), (2, 10), (9, 5), (4, 12), (11, 11)]
    edges = [LayoutEdge(f"e{k}", f"n{a}", f"n{b}", (40.0, 15.0) if k % 4 == 0 else None)
             for k, (a, b) in enumerate(pairs)]
    return Area(items=items, edges=edges, direction="LR", node_sep=22.0, rank_sep=44.0)


def layout_area_elk(area: Area) -> AreaLayout:
    """Lay out an area with ELK Layered (raises :class:`EngineError` if ELK cannot)."""
    if _UNAVAILABLE is not None:
        raise EngineError(_UNAVAILABLE)
    # long forward edges go in lanes after layout; one whose lane is blocked goes back to ELK
    refused: set[str] = set()
    while True:
        lanes = lane_edges(area, skip=refused)
        out = _run_elk(area, lanes)
        failed = route_lanes(area, out, lanes) if lanes else set()
        if not failed:
            break
        refused |= failed
    out.normalise()
    return out


def _run_elk(area: Area, leave_out: set[str]) -> AreaLayout:
    """One ELK run over an area without the edges in ``leave_out`` (they get no route)."""
    graph = build_graph(area, leave_out)
    n = area.leaf_count()
    try:
        msg = server().layout(graph, timeout=10.0 + 0.03 * n)
    except EngineError as e:
        if "went away" in str(e) or "no answer" in str(e):
            raise
        # elkjs 0.12's model-order tie-breaking and cycle breaking crash on some compound graphs (an edge out
        # of a nested group and one back into it through the group around it): again without either
        log.info("ELK failed (%s); again without model order", e)
        _set_option(graph, "elk.layered.considerModelOrder.strategy", "NONE")
        _set_option(graph, "elk.layered.cycleBreaking.strategy", "GREEDY")
        msg = server().layout(graph, timeout=10.0 + 0.03 * n)
    out = AreaLayout(engine="elk")
    nodes, labels, edges = msg["nodes"], msg["labels"], msg["edges"]
    for it in area.walk():
        r = nodes.get(it.id)
        if r is None:
            raise EngineError(f"ELK returned no position for '{it.id}'")
        out.boxes[it.id] = (r[0], r[1], r[2], r[3]) if it.container else (r[0], r[1], it.w, it.h)
        for a in it.annotations:
            lr = labels.get(ANNOTATION_PREFIX + a.id)
            if lr is not None:
                out.annotation_boxes[a.id] = (lr[0], lr[1], a.w, a.h)
    feedback = feedback_edges(area)
    for e in area.edges:
        if e.id in leave_out:
            continue
        pts = edges.get(e.id)
        if not pts or len(pts) < 2:
            raise EngineError(f"ELK returned no route for edge '{e.id}'")
        route = [(p[0], p[1]) for p in pts]
        out.routes[e.id] = route[::-1] if e.id in feedback else route
        if e.label is not None:
            lr = labels.get(EDGE_LABEL_PREFIX + e.id)
            if lr is not None:
                out.label_boxes[e.id] = (lr[0], lr[1], e.label[0], e.label[1])
    for r in out.boxes.values():
        if not all(v == v and abs(v) < 1e9 for v in r):
            raise EngineError("ELK returned a position that is not a number")
    return out
