"""Case generation: coverage-first, seeded, bit-for-bit reproducible.

A case is built in two steps. First the *feature combination* is chosen (group
nesting, edge labels, shapes, long labels, unicode, chart mark, log scale, legend,
facet…) so a suite covers the space evenly rather than by luck; then a ground-truth
FigureSpec with exactly those features is drawn, and the task text for the case's
input condition is written from it. The brief phrasings here are CraftBench's own
(figure-caption and reviewer-request styles), deliberately unlike the templates
CraftLM trains on, so a model cannot score by recalling its training briefs.

Figure types: ``diagram``, ``chart``, ``composite``. Input conditions: ``text``,
``compose``, ``complete``, ``sketch``. Extra tracks: ``vectorize``, ``repair``, and
``prose``: the suites ``prose`` (the frozen test split of Crafter's written brief corpus,
:mod:`crafter.corpora.briefs`) and ``prose-dev`` (its dev split), briefs written the way
researchers write them, each with a hand-made gold figure, scored by
:mod:`crafter.corpora.scoring`.
"""

from __future__ import annotations

import csv
import hashlib
import io
import itertools
import json
import random
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from craftbench.rasters import render_case_assets
from crafter.corpora import load_briefs
from crafter.layout import layout_figure
from crafter.spec import Chart, Edge, Figure, Group, Node, Panel, print_dsl

FIGURE_TYPES = ("diagram", "chart", "composite")
CONDITIONS = ("text", "compose", "complete", "sketch")
TRACKS = ("vectorize", "repair", "prose")
PROSE_SUITES = {"prose": "test", "prose-dev": "dev"}  # suite -> split of the written brief corpus

# Vocabulary kept apart from CraftLM's corpus: stages of pipelines in fields the
# model's templates do not draw from as a set (astronomy, ecology, robotics, genomics,
# materials, speech, climate).
DOMAINS: dict[str, list[str]] = {
    "astronomy": ["Telescope exposures", "Bias subtraction", "Flat fielding", "Source extraction",
                  "Photometric calibration", "Light-curve fitting", "Transient classifier", "Alert stream"],
    "ecology": ["Camera traps", "Image triage", "Species detector", "Individual re-identification",
                "Occupancy model", "Population estimate", "Habitat covariates", "Field survey"],
    "robotics": ["RGB-D camera", "Point-cloud filter", "Grasp proposal net", "Collision checker",
                 "Motion planner", "Impedance controller", "Gripper", "Tactile feedback"],
    "genomics": ["Raw reads", "Adapter trimming", "Read alignment", "Variant calling",
                 "Quality filtering", "Annotation", "Association test", "Candidate genes"],
    "materials": ["Crystal structures", "Graph featuriser", "Message-passing network", "Energy head",
                  "Relaxation", "Phonon analysis", "Stability screen", "Synthesis queue"],
    "speech": ["Waveform", "Log-mel frontend", "Conformer encoder", "CTC decoder",
               "Language-model rescoring", "Punctuation model", "Transcript", "Speaker diarisation"],
    "climate": ["Reanalysis fields", "Regridding", "Bias correction", "Emulator network",
                "Downscaling", "Ensemble spread", "Impact model", "Risk maps"],
}
UNICODE_LABELS = ["Δ-encoder", "α/β filter", "Réseau µ", "σ-normaliser", "Ω-head", "Kalman ∑"]
LONG_SUFFIX = " with cross-validated hyper-parameter selection"
SHAPE_CHOICES = ["box", "round", "ellipse", "cylinder", "diamond", "hexagon", "document", "parallelogram"]

CHART_DATASETS = {
    "accuracy": ("model", "accuracy", ["ViT-B", "ResNet-50", "ConvNeXt", "DeiT-S", "Swin-T"], (60, 90)),
    "latency": ("batch size", "latency (ms)", ["1", "8", "32", "128", "512"], (2, 400)),
    "loss": ("step", "loss", None, (0.05, 5.0)),
}


@dataclass
class Case:
    """One benchmark case: the task a system sees and the ground truth it is scored on."""

    id: str
    figure_type: str  # diagram | chart | composite
    condition: str  # text | compose | complete | sketch | vectorize | repair
    features: dict[str, Any]
    brief: str  # the task text shown to the system
    truth: dict[str, Any]  # ground-truth FigureSpec (JSON form)
    # condition-specific inputs (paths relative to the case dir, spec dicts)
    inputs: dict[str, Any] = field(default_factory=dict)
    data_csv: str | None = None  # the table (CSV text) for chart cases in compose/text

    def truth_figure(self) -> Figure:
        return Figure.from_dict(self.truth)

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False, sort_keys=True)


# ---------------------------------------------------------------------------------
# Feature combinations (coverage first)
# ---------------------------------------------------------------------------------


def diagram_feature_grid() -> list[dict[str, Any]]:
    grid = []
    for nesting, edge_labels, long_labels, unicode, size in itertools.product(
        (0, 1, 2), (False, True), (False, True), (False, True), ("small", "medium")
    ):
        grid.append({"group_nesting": nesting, "edge_labels": edge_labels, "long_labels": long_labels,
                     "unicode": unicode, "size": size})
    return grid


def chart_feature_grid() -> list[dict[str, Any]]:
    grid = []
    for mark, legend, log_scale, facet in itertools.product(
        ("bar", "line", "point"), (False, True), (False, True), (False, True)
    ):
        if mark == "bar" and log_scale:
            continue  # bars on a log axis mislead; the suite does not ask for them
        grid.append({"mark": mark, "legend": legend, "log_scale": log_scale, "facet": facet})
    return grid


def _pick_features(rng: random.Random, grid: list[dict[str, Any]], i: int) -> dict[str, Any]:
    """Walk a shuffled grid so the first N cases cover N distinct combinations."""
    order = list(range(len(grid)))
    rng.shuffle(order)
    return dict(grid[order[i % len(grid)]])


# ---------------------------------------------------------------------------------
# Ground-truth figures
# ---------------------------------------------------------------------------------


def make_diagram(rng: random.Random, feats: dict[str, Any], prefix: str = "") -> Figure:
    domain = rng.choice(sorted(DOMAINS))
    names = list(DOMAINS[domain])
    n = 5 if feats.get("size") == "small" else 8
    labels = names[:n]
    if feats.get("unicode"):
        labels[rng.randrange(1, n)] = rng.choice(UNICODE_LABELS)
    if feats.get("long_labels"):
        j = rng.randrange(n)
        labels[j] = labels[j] + LONG_SUFFIX
    nodes = [
        Node(kind="node", id=f"{prefix}n{i}", label=lab, shape=rng.choice(SHAPE_CHOICES) if i % 3 == 1 else "round")
        for i, lab in enumerate(labels)
    ]
    edges: list[Edge] = []
    for i in range(n - 1):
        lab = None
        if feats.get("edge_labels"):
            lab = rng.choice(["features", "scores", "filtered", "batch", "estimate", None])
        edges.append(Edge(kind="edge", id=f"{prefix}e{i}", source=f"{prefix}n{i}", target=f"{prefix}n{i + 1}",
                          label=lab))
    if n >= 5:  # one skip connection makes the layout non-trivial
        edges.append(Edge(kind="edge", id=f"{prefix}e{n}", source=f"{prefix}n1", target=f"{prefix}n{n - 2}",
                          style="dashed"))
    groups: list[Group] = []
    nest = feats.get("group_nesting", 0)
    if nest >= 1:
        groups.append(Group(kind="group", id=f"{prefix}g0", label="Stage A", members=[f"{prefix}n1", f"{prefix}n2"]))
    if nest >= 2:
        groups.append(Group(kind="group", id=f"{prefix}g1", label="Processing", members=[f"{prefix}g0", f"{prefix}n3"],
                            style="dashed"))
    title = f"{domain.capitalize()} pipeline"
    return Figure(title=title if not prefix else None, direction=rng.choice(["LR", "TB"]),
                  components=[*nodes, *edges, *groups])


def make_table(rng: random.Random, feats: dict[str, Any]) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """Real-looking research data for a chart with the given features."""
    if feats["mark"] == "line":
        x, y = "step", "loss"
        series = ["train", "validation"] if feats.get("legend") else ["train"]
        rows = []
        for s_i, s in enumerate(series):
            base = rng.uniform(2.0, 4.0)
            for step in range(0, 10001, 1000):
                val = base * (0.6 ** (step / 1000)) + 0.05 + 0.03 * s_i
                rows.append({x: step, y: round(val, 4), "split": s})
        fields = {"x": x, "y": y, "color": "split" if feats.get("legend") else ""}
    elif feats["mark"] == "point":
        x, y = "params (M)", "latency (ms)"
        series = ["GPU", "CPU"] if feats.get("legend") else ["GPU"]
        rows = []
        for s_i, s in enumerate(series):
            for p in (5, 12, 25, 60, 110, 300):
                rows.append({x: p, y: round(p * (0.4 + 2.5 * s_i) * rng.uniform(0.8, 1.2), 2), "device": s})
        fields = {"x": x, "y": y, "color": "device" if feats.get("legend") else ""}
    else:
        x, y = "model", "accuracy"
        models = ["ViT-B", "ResNet-50", "ConvNeXt", "DeiT-S"]
        series = ["ImageNet", "CIFAR-100"] if feats.get("legend") else ["ImageNet"]
        rows = [{x: m, y: round(rng.uniform(60, 90), 1), "dataset": s} for s in series for m in models]
        fields = {"x": x, "y": y, "color": "dataset" if feats.get("legend") else ""}
    if feats.get("facet"):
        for r in rows:
            r["seed"] = "seed 0"
        extra = [dict(r, seed="seed 1", **{fields["y"]: round(r[fields["y"]] * rng.uniform(0.95, 1.05), 4)})
                 for r in rows]
        rows = rows + extra
        fields["facet"] = "seed"
    if not fields.get("color"):
        for r in rows:
            r.pop("split", None), r.pop("device", None), r.pop("dataset", None)
    return rows, fields


def make_chart_component(rng: random.Random, feats: dict[str, Any],
                         cid: str = "chart") -> tuple[Chart, list[dict[str, Any]]]:
    rows, fields = make_table(rng, feats)
    x_type = "nominal" if feats["mark"] == "bar" else "quantitative"
    enc: dict[str, Any] = {
        "x": {"field": fields["x"], "type": x_type, "title": fields["x"]},
        "y": {"field": fields["y"], "type": "quantitative", "title": fields["y"]},
    }
    if feats.get("log_scale"):
        enc["y"]["scale"] = {"type": "log"}
    if fields.get("color"):
        enc["color"] = {"field": fields["color"], "type": "nominal"}
        if feats["mark"] == "bar":
            enc["xOffset"] = {"field": fields["color"]}
    if fields.get("facet"):
        enc["column"] = {"field": fields["facet"], "type": "nominal"}
    mark: Any = {"type": "line", "point": True} if feats["mark"] == "line" else feats["mark"]
    title = {"bar": "Accuracy by model", "line": "Training loss", "point": "Latency vs. model size"}[feats["mark"]]
    spec = {"mark": mark, "data": {"values": rows}, "encoding": enc}
    return Chart(kind="chart", id=cid, title=title, spec=spec), rows


def make_composite(rng: random.Random, dfeats: dict[str, Any],
                   cfeats: dict[str, Any]) -> tuple[Figure, list[dict[str, Any]]]:
    small = {**dfeats, "size": "small", "group_nesting": min(dfeats.get("group_nesting", 0), 1)}
    diagram = make_diagram(rng, small, prefix="a_")
    chart, rows = make_chart_component(rng, {**cfeats, "facet": False}, cid="b_chart")
    members_a = [c.id for c in diagram.components if c.kind in ("node", "group") and not any(
        c.id in g.members for g in diagram.components if g.kind == "group")]
    comps = list(diagram.components) + [
        chart,
        Panel(kind="panel", id="pa", label="(a)", title="Method", members=members_a),
        Panel(kind="panel", id="pb", label="(b)", title="Results", members=["b_chart"]),
    ]
    return Figure(title="Method and results", components=comps), rows


# ---------------------------------------------------------------------------------
# Task texts (CraftBench's own phrasing)
# ---------------------------------------------------------------------------------


def _labels(fig: Figure) -> dict[str, str]:
    return {c.id: c.label for c in fig.components if c.kind in ("node", "group") and c.label}


def brief_text(fig: Figure, rng: random.Random) -> str:
    """A figure-caption style description, as a paper's author would write it."""
    lab = _labels(fig)
    parts = []
    if fig.title:
        parts.append(f"Figure 1: {fig.title}.")
    nodes = fig.of_kind("node")
    edges = [e for e in fig.of_kind("edge")]
    if nodes:
        chain = []
        for e in edges:
            if e.style == "solid":
                seg = f"{lab.get(e.source, e.source)} is passed to {lab.get(e.target, e.target)}"
                if e.label:
                    seg += f" (as {e.label})"
                chain.append(seg)
        openers = ["We depict the workflow end to end:", "Panel overview —", "The system proceeds as follows:"]
        parts.append(rng.choice(openers) + " " + "; ".join(chain) + ".")
        for e in edges:
            if e.style != "solid":
                parts.append(f"A dashed shortcut links {lab.get(e.source)} directly with {lab.get(e.target)}.")
        for g in fig.of_kind("group"):
            names = [lab.get(m, m) for m in g.members]
            parts.append(f"{', '.join(names)} are framed together as \u201c{g.label}\u201d.")
    for ch in fig.of_kind("chart"):
        enc = ch.spec.get("encoding", {})
        mark = ch.spec.get("mark")
        mark = mark.get("type") if isinstance(mark, dict) else mark
        desc = f"A {mark} plot titled \u201c{ch.title}\u201d shows {enc['y']['field']} against {enc['x']['field']}"
        if "color" in enc:
            desc += f", one colour per {enc['color']['field']}"
        if enc.get("y", {}).get("scale", {}).get("type") == "log":
            desc += ", on a logarithmic y axis"
        if "column" in enc:
            desc += f", split into small multiples by {enc['column']['field']}"
        parts.append(desc + "; the numbers are in the attached table.")
    return " ".join(parts)


def compose_text(fig: Figure) -> str:
    """The key elements given as a list; layout and style are the system's to choose."""
    lab = _labels(fig)
    lines = ["Compose a figure from these elements (choose layout and style yourself)."]
    nodes = fig.of_kind("node")
    if nodes:
        lines.append("Elements: " + "; ".join(n.text for n in nodes) + ".")
        lines.append("Connections: " + "; ".join(
            f"{lab.get(e.source, e.source)} → {lab.get(e.target, e.target)}" + (f" [{e.label}]" if e.label else "")
            for e in fig.of_kind("edge")) + ".")
        for g in fig.of_kind("group"):
            lines.append(f"Frame \u201c{g.label}\u201d around: " + ", ".join(lab.get(m, m) for m in g.members) + ".")
    for ch in fig.of_kind("chart"):
        enc = ch.spec["encoding"]
        lines.append(f"Chart \u201c{ch.title}\u201d: x = {enc['x']['field']}, y = {enc['y']['field']}"
                     + (f", colour = {enc['color']['field']}" if "color" in enc else "") + "; data attached.")
    return "\n".join(lines)


def rows_to_csv(rows: list[dict[str, Any]]) -> str:
    cols: list[str] = []
    for r in rows:
        for k in r:
            if k not in cols:
                cols.append(k)
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=cols, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    return buf.getvalue()


# ---------------------------------------------------------------------------------
# Condition-specific inputs: masking, faults
# ---------------------------------------------------------------------------------


def mask_component(fig: Figure, rng: random.Random) -> tuple[Figure, str, list[str]]:
    """Remove one inner node (and its edges) and say what the gap held."""
    nodes = [n for n in fig.of_kind("node")]
    inner = [n for n in nodes if sum(1 for e in fig.of_kind("edge") if n.id in (e.source, e.target)) >= 2] or nodes
    victim = rng.choice(inner)
    lab = _labels(fig)
    gone = {victim.id} | {e.id for e in fig.of_kind("edge") if victim.id in (e.source, e.target)}
    kept = []
    for c in fig.components:
        if c.id in gone:
            continue
        if c.kind in ("group", "panel"):
            c = c.model_copy(update={"members": [m for m in c.members if m not in gone]})
            if not c.members:
                continue
        kept.append(c)
    ins = [lab.get(e.source, e.source) for e in fig.of_kind("edge") if e.target == victim.id]
    outs = [lab.get(e.target, e.target) for e in fig.of_kind("edge") if e.source == victim.id]
    instruction = (f"The greyed-out region hid the step \u201c{victim.text}\u201d"
                   + (f", fed by {', '.join(ins)}" if ins else "")
                   + (f" and feeding {', '.join(outs)}" if outs else "")
                   + ". Restore it and its arrows; leave everything else as it is.")
    partial = Figure(**{**fig.model_dump(exclude={"components"}), "components": []})
    return partial.model_copy(update={"components": kept}), instruction, sorted(gone)


FAULTS = ("overlap", "wrong_label", "deleted_arrow", "wrong_bar")


def inject_fault(fig: Figure, fault: str, rng: random.Random) -> tuple[Figure, str, list[str]]:
    """A faulty copy of a correct figure, the bug report a user would file, and the ids at fault."""
    comps = list(fig.components)
    by_id = {c.id: i for i, c in enumerate(comps)}
    if fault == "wrong_label":
        n = rng.choice(fig.of_kind("node"))
        wrong = n.text[:-1] if len(n.text) > 3 else n.text + "x"
        comps[by_id[n.id]] = n.model_copy(update={"label": wrong})
        return (fig.model_copy(update={"components": comps}),
                f"The box reading \u201c{wrong}\u201d has a typo: it should read \u201c{n.text}\u201d.", [n.id])
    if fault == "deleted_arrow":
        e = rng.choice([e for e in fig.of_kind("edge") if e.style == "solid"])
        comps = [c for c in comps if c.id != e.id]
        lab = _labels(fig)
        return (fig.model_copy(update={"components": comps}),
                f"The arrow from \u201c{lab.get(e.source)}\u201d to \u201c{lab.get(e.target)}\u201d is missing; "
                "add it back.", [e.id])
    if fault == "wrong_bar":
        ch = fig.of_kind("chart")[0]
        values = [dict(v) for v in ch.spec["data"]["values"]]
        yf = ch.spec["encoding"]["y"]["field"]
        k = rng.randrange(len(values))
        right = values[k][yf]
        values[k][yf] = round(right * 1.15, 4)
        spec = json.loads(json.dumps(ch.spec))
        spec["data"]["values"] = values
        comps[by_id[ch.id]] = ch.model_copy(update={"spec": spec})
        xf = ch.spec["encoding"]["x"]["field"]
        return (fig.model_copy(update={"components": comps}),
                f"In \u201c{ch.title}\u201d the value for {values[k][xf]} should be {right}, not {values[k][yf]}.",
                [ch.id])
    # overlap: pin one node on top of its neighbour (needs a laid-out figure)

    laid = layout_figure(fig)
    nodes = laid.of_kind("node")
    a, b = nodes[0], nodes[1]
    on_a = a.box.model_copy(update={"x": a.box.x + a.box.w * 0.3, "y": a.box.y + 4})
    moved = b.model_copy(update={"box": on_a, "pinned": True})
    comps = [moved if c.id == b.id else c for c in laid.components]
    return (laid.model_copy(update={"components": comps}),
            "Two boxes overlap; tidy the layout without changing the content.", [b.id])


# ---------------------------------------------------------------------------------
# Suites
# ---------------------------------------------------------------------------------

SUITES: dict[str, dict[str, Any]] = {
    # per type×condition cell: n cases; plus the two extra tracks
    "smoke": {"seed": 7, "per_cell": 1, "vectorize": 3, "repair": 4},
    "v1": {"seed": 2026, "per_cell": 4, "vectorize": 12, "repair": 16},
}


def prose_cases(split: str = "test", *, n: int | None = None) -> list[Case]:
    """One case per brief of a split of the written corpus (the first ``n`` in id order, when given)."""
    cases = []
    for b in load_briefs(split)[:n]:
        feats = {"type": "diagram", "condition": "prose", "field": b.field, "style": b.style, "writer": b.writer,
                 "phenomena": list(b.phenomena), "noise": list(b.noise)}
        cases.append(Case(id=f"prose-{b.id}", figure_type="diagram", condition="prose", features=feats,
                          brief=b.text, truth=b.gold.to_dict(), inputs={"aliases": b.aliases}))
    return cases


def generate_cases(suite: str = "smoke", *, n: int | None = None, seed: int | None = None) -> list[Case]:
    """All cases of a suite. Deterministic for a given (suite, n, seed)."""
    if suite in PROSE_SUITES:
        return prose_cases(PROSE_SUITES[suite], n=n)
    if suite not in SUITES and seed is None:
        raise KeyError(f"unknown suite '{suite}'; named suites: {', '.join([*SUITES, *PROSE_SUITES])} "
                       "(or pass --seed)")
    conf = dict(SUITES.get(suite, {"per_cell": 2, "vectorize": 4, "repair": 4}))
    if seed is not None:
        conf["seed"] = seed
    if n is not None:
        conf["per_cell"] = n
    rng = random.Random(conf["seed"])
    dgrid, cgrid = diagram_feature_grid(), chart_feature_grid()
    cases: list[Case] = []
    counter = itertools.count()
    for ftype in FIGURE_TYPES:
        for cond in CONDITIONS:
            for _ in range(conf["per_cell"]):
                i = next(counter)
                dfeats, cfeats = _pick_features(rng, dgrid, i), _pick_features(rng, cgrid, i)
                cases.append(_make_case(rng, ftype, cond, dfeats, cfeats, suite))
    for j in range(conf["vectorize"]):
        ftype = ("diagram", "chart")[j % 2]
        i = next(counter)
        dfeats, cfeats = _pick_features(rng, dgrid, i), _pick_features(rng, cgrid, i)
        cases.append(_make_case(rng, ftype, "vectorize", dfeats, cfeats, suite))
    for j in range(conf["repair"]):
        i = next(counter)
        fault = FAULTS[j % len(FAULTS)]
        ftype = "chart" if fault == "wrong_bar" else "diagram"
        dfeats, cfeats = _pick_features(rng, dgrid, i), _pick_features(rng, cgrid, i)
        case = _make_case(rng, ftype, "repair", dfeats, cfeats, suite, fault=fault)
        cases.append(case)
    return cases


def _make_case(rng: random.Random, ftype: str, cond: str, dfeats: dict[str, Any], cfeats: dict[str, Any],
               suite: str, fault: str | None = None) -> Case:
    rows: list[dict[str, Any]] = []
    if ftype == "diagram":
        fig = make_diagram(rng, dfeats)
        feats = {"type": "diagram", **dfeats}
    elif ftype == "chart":
        chart, rows = make_chart_component(rng, cfeats)
        fig = Figure(components=[chart])
        feats = {"type": "chart", **cfeats}
    else:
        cfeats = {**cfeats, "facet": False}
        fig, rows = make_composite(rng, dfeats, cfeats)
        feats = {"type": "composite", **{f"diagram_{k}": v for k, v in dfeats.items()},
                 **{f"chart_{k}": v for k, v in cfeats.items()}}
    feats["condition"] = cond
    truth = fig.to_dict()
    digest = hashlib.sha1(json.dumps(truth, sort_keys=True).encode()).hexdigest()[:8]
    cid = f"{suite}-{ftype}-{cond}-{digest}"
    inputs: dict[str, Any] = {}
    brief = brief_text(fig, rng)
    if cond == "compose":
        brief = compose_text(fig)
    elif cond == "complete":
        partial, instruction, gone = mask_component(fig, rng) if fig.of_kind("node") else _mask_chart(fig, rng)
        inputs = {"partial": partial.to_dict(), "masked_ids": gone}
        brief = instruction
    elif cond == "sketch":
        brief = "Redraw this hand-drawn sketch as a clean, publication-ready figure."
    elif cond == "vectorize":
        brief = "Convert this raster figure into an editable SVG."
    elif cond == "repair":
        assert fault is not None
        faulty, report, ids = inject_fault(fig, fault, rng)
        if fault == "overlap":
            truth = faulty.model_copy(update={"components": [
                c.model_copy(update={"box": None, "pinned": False}) if c.id in ids else c
                for c in faulty.components]}).to_dict()
        inputs = {"faulty": faulty.to_dict(), "fault": fault, "fault_ids": ids}
        brief = report
        feats["fault"] = fault
    return Case(id=cid, figure_type=ftype, condition=cond, features=feats, brief=brief, truth=truth,
                inputs=inputs, data_csv=rows_to_csv(rows) if rows else None)


def _mask_chart(fig: Figure, rng: random.Random) -> tuple[Figure, str, list[str]]:
    """For a chart: drop one series' values (or one bar) and ask for them back."""
    ch = fig.of_kind("chart")[0]
    values = ch.spec["data"]["values"]
    k = rng.randrange(len(values))
    missing = values[k]
    spec = json.loads(json.dumps(ch.spec))
    spec["data"]["values"] = [v for i, v in enumerate(values) if i != k]
    partial = fig.model_copy(update={"components": [ch.model_copy(update={"spec": spec})]})
    desc = ", ".join(f"{key} = {val}" for key, val in missing.items())
    return partial, f"One mark of \u201c{ch.title}\u201d was masked out: the data point ({desc}). Restore it.", [ch.id]


def write_suite(cases: list[Case], out_dir: Path, *, render: bool = True) -> Path:
    """Write cases.jsonl plus, per case, reference SVG/PNG and condition inputs (sketch/masked/vectorize PNGs)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    lines = []
    for case in cases:
        case_dir = out_dir / case.id
        case_dir.mkdir(exist_ok=True)
        if render:
            render_case_assets(case, case_dir)
        if case.data_csv:
            (case_dir / "data.csv").write_text(case.data_csv, encoding="utf-8")
            case.inputs["data"] = "data.csv"
        (case_dir / "truth.dsl").write_text(print_dsl(case.truth_figure()), encoding="utf-8")
        lines.append(case.to_json())
    (out_dir / "cases.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out_dir / "cases.jsonl"


def load_cases(suite_dir: Path) -> list[Case]:
    path = suite_dir / "cases.jsonl"
    if not path.exists():
        raise FileNotFoundError(f"{path}: no cases.jsonl (run `craftbench generate` first)")
    return [Case(**json.loads(line)) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
