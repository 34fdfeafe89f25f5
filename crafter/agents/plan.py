"""Plan: brief → figure, by the model's plan task, with a rule-based fallback.

The model's DSL is assembled leniently (:func:`assemble_figure`): a line that does not
parse is dropped with a warning naming it, an edge to an id nobody declared gets a
placeholder node (a ``dangling_id`` issue, fixed by rule on the spot), a group member
that does not exist is dropped. What cannot be saved — no component at all, or a
figure that shares nothing with the brief — is retried, then replaced by the rule-based
reader (:func:`crafter.agents.extract.figure_from_brief`), so the user always gets a
figure and a message saying what happened.
"""

from __future__ import annotations

import re
from typing import Any

from crafter.agents.backend import call_model, head_reading, trusts_plan
from crafter.agents.critique import check_dangling, figure_labels
from crafter.agents.extract import box_key, figure_from_brief, read_brief
from crafter.agents.labels import labels_match, normalise_label
from crafter.errors import SpecError
from crafter.llm.prompts import plan_prompt
from crafter.spec import Figure, parse_component, parse_dsl
from crafter.spec.model import COMPONENT_TYPES, check_references

MAX_ATTEMPTS = 2
MAX_NEW_TOKENS = 640  # a 25-component figure is about 400 tokens of DSL


class PlanFailed(Exception):
    """Model output that cannot become a figure (the reason is the message)."""


def assemble_figure(text: str) -> tuple[Figure, list[dict[str, Any]], list[str]]:
    """Model DSL → (figure, issues found and fixed while assembling, warnings).

    Raises :class:`PlanFailed` when nothing usable is left.
    """
    text = re.sub(r"^\s*```[a-zA-Z]*\s*$", "", text or "", flags=re.M)
    if not text.strip():
        raise PlanFailed("the model returned nothing")
    try:
        fig = parse_dsl(text)
        if fig.components:
            return fig, [], []
    except SpecError:
        pass
    warnings: list[str] = []
    header: dict[str, Any] = {}
    comps: list[dict[str, Any]] = []
    seen: set[str] = set()
    for n, line in enumerate(text.splitlines(), start=1):
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        try:
            if re.match(r"^figure(\s|$)", s) and not re.match(r"^figure\s+(?:" + "|".join(COMPONENT_TYPES) + r")\b", s):
                header = parse_dsl(s).model_dump(exclude={"components"}, exclude_defaults=True)
                continue
            c = parse_component(s)
        except SpecError as e:
            warnings.append(f"model output line {n} dropped: {e.message}")
            continue
        if c.id in seen:
            warnings.append(f"model output line {n} dropped: id '{c.id}' used twice")
            continue
        seen.add(c.id)
        comps.append(c.model_dump(mode="json", exclude_defaults=True) | {"id": c.id, "kind": c.kind})
    if not comps:
        raise PlanFailed("the model output holds no valid component" + (f" ({warnings[0]})" if warnings else ""))
    issues = check_dangling(comps)
    for issue in issues:
        _fix_dangling(comps, issue)
        issue["fixed_at_assembly"] = True
    _fix_containment(comps, warnings)
    try:
        fig = Figure.from_dict({**header, "components": comps})
        check_references(fig)
    except SpecError as e:
        raise PlanFailed(f"the model's figure is inconsistent: {e}") from None
    return fig, issues, warnings


def _fix_dangling(comps: list[dict[str, Any]], issue: dict[str, Any]) -> None:
    """Repair one dangling reference by rule: a placeholder node for an edge end, else drop the reference."""
    c = next(c for c in comps if c["id"] == issue["component_ids"][0])
    ref, field = issue["ref"], issue["field"]
    if field in ("source", "target"):
        if not any(x["id"] == ref for x in comps):
            label = ref.replace("_", " ").replace("-", " ").strip()
            comps.append({"id": ref, "kind": "node", "label": label[:1].upper() + label[1:]})
        issue["message"] += "; added a node for it"
    elif field == "members":
        c["members"] = [m for m in c["members"] if m != ref]
        issue["message"] += "; dropped the member"
    elif field == "near":
        c.pop("near", None)
        issue["message"] += "; dropped the reference"


def _fix_containment(comps: list[dict[str, Any]], warnings: list[str]) -> None:
    """A component listed by two groups stays in the first (the IR allows one direct container)."""
    owner: dict[str, str] = {}
    for c in comps:
        if c["kind"] in ("group", "panel"):
            keep = []
            for m in c.get("members", []):
                if m in owner or m == c["id"]:
                    warnings.append(f"'{m}' was listed in both '{owner.get(m, m)}' and '{c['id']}'; kept it in the first")
                    continue
                owner[m] = c["id"]
                keep.append(m)
            c["members"] = list(dict.fromkeys(keep))


def matches_brief(fig: Figure, brief: str) -> bool:
    """False when the brief names several things and the figure shows none of them (nonsense output).

    Every name the reader finds counts here, guesses included: a figure that shares no
    name at all with its brief is wrong whichever names were guessed right.
    """
    ents = read_brief(brief).entities
    if len(ents) < 2:
        return True
    labels = figure_labels(fig)
    return any(labels_match(e, lab) for e in ents for lab in labels)


def worse_than_rules(fig: Figure, rules_fig: Figure, brief: str, *, with_head: bool = False) -> str | None:
    """Why the model's figure reads the brief worse than the rule-based reading, or None.

    The model must name at least as many of the things the brief's reader found as the
    rules' own figure does — by their whole names: "Bandpass" for "Bandpass Filter" does not
    count — link at least as many pairs of them, and must not draw one name twice where the
    rules drew it once (a small model's typical slips: a name cut short, a node dropped, a
    label repeated). Names the brief gives for certain (quoted, listed, in an arrow chain)
    are left out of the count: the critic flags a missing one and the repair adds it to the
    model's figure, locally.

    ``with_head``: the rules' figure took the backend's name head's reading (:func:`_rules_figure`); the
    model's figure must then also draw as many edges and groups as it (on the 156 dev briefs the
    rules-and-head reading links and groups more than CraftLM's plan: edge F1 0.18 against 0.13).
    """
    if with_head:
        for kinds, what in ((("edge",), "connections"), (("group", "panel"), "groups")):
            mine, theirs = (sum(c.kind in kinds for c in f.components) for f in (fig, rules_fig))
            if mine < theirs:
                return f"the model's figure draws {mine} {what}, the rule-based reading with the name head {theirs}"
    reading = read_brief(brief)
    strong = set(reading.strong)
    ents = {normalise_label(e) for e in reading.entities if e not in strong} - {""}
    if ents:
        def covered(f: Figure) -> int:
            return len(ents & {normalise_label(lab) for lab in figure_labels(f)})

        def linked(f: Figure) -> int:
            names = {c.id: normalise_label(c.label or c.id) for c in f.components if c.kind == "node"}
            return len({(names.get(c.source), names.get(c.target)) for c in f.components
                        if c.kind == "edge" and names.get(c.source) in ents and names.get(c.target) in ents})

        mine, theirs = covered(fig), covered(rules_fig)
        if mine < theirs:
            return (f"the model's figure names {mine} of the {len(ents)} things the brief names, "
                    f"the rule-based reading {theirs}")
        mine, theirs = linked(fig), linked(rules_fig)
        if mine < theirs:
            return f"the model's figure links {mine} pairs of the brief's things, the rule-based reading {theirs}"

    def repeats(f: Figure) -> int:
        labels = [box_key(c.label or "") for c in f.components if c.kind == "node"]  # "dashboard"/"dashboards"
        return len(labels) - len(set(labels))

    if repeats(fig) > repeats(rules_fig):
        return "the model's figure draws the same name twice"
    return None


def plan(brief: str, backend: Any, *, max_attempts: int = MAX_ATTEMPTS) -> dict[str, Any]:
    """Plan a figure: ``{"figure", "source", "issues", "warnings", "calls"}``.

    ``source`` is "model" or "rules"; ``issues`` are those found (and fixed) while
    assembling the model's output; ``warnings`` say what was dropped or why the rules
    were used. Never raises for model trouble.
    """
    warnings: list[str] = []
    calls: list[dict[str, Any]] = []
    rules_fig: Figure | None = None
    used_head = False
    if backend is not None and brief.strip():
        prompt = plan_prompt(brief)
        reason = ""
        for attempt in range(1, max_attempts + 1):
            try:
                text, record = call_model(backend, "plan", prompt, max_new_tokens=MAX_NEW_TOKENS,
                                          temperature=0.0 if attempt == 1 else 0.7)
            except Exception as e:  # the model server died or the backend crashed: fall back, keep going
                reason = f"the model failed ({e})"
                break
            calls.append(record)
            if record.get("stopped_at_invalid_line"):  # a cut-short figure would silently lose the rest
                reason = "the model wrote a line that is not DSL"
                continue
            try:
                fig, issues, notes = assemble_figure(text)
            except PlanFailed as e:  # unusable DSL: sample once more, unless the model was looping
                reason = str(e)
                if record.get("hit_length_limit"):
                    reason += " (the output ran to the length limit)"
                    break
                continue
            if not matches_brief(fig, brief):
                # valid DSL about something else: the model did not understand; another sample rarely does
                reason = "the model's figure names none of the things the brief names"
                break
            worse = None
            if not trusts_plan(backend):  # a trusted model's plan is the plan; the rules are the fallback only
                if rules_fig is None:
                    rules_fig, used_head = _rules_figure(brief, backend)
                worse = worse_than_rules(fig, rules_fig, brief, with_head=used_head)
            if worse:  # keep the better reading of the brief; a resample is rarely better
                reason = worse
                break
            return {"figure": fig.to_dict(), "source": "model", "issues": issues, "warnings": notes + _sparse(fig),
                    "calls": calls}
        warnings.append(f"{reason}; the figure was planned from the brief by rules instead")
    fig = rules_fig or _rules_figure(brief, backend)[0]
    return {"figure": fig.to_dict(), "source": "rules", "issues": [], "warnings": warnings + _sparse(fig),
            "calls": calls}


def _rules_figure(brief: str, backend: Any) -> tuple[Figure, bool]:
    """The rule-based reading of the brief, with the backend's name head's names and links where it has one
    (:func:`crafter.agents.extract.with_head`; a brief that draws its own arrows is read by the rules alone),
    and whether it had one: the model's plan is then held to that reading's edges and groups (on the dev
    briefs with four or more arrows too: there CraftLM's plan drew fewer of them than the rules)."""
    head = head_reading(backend, plan_prompt(brief)) if backend is not None and brief.strip() else None
    return figure_from_brief(brief, names=head), bool(head and head.get("node"))


def _sparse(fig: Figure) -> list[str]:
    """A plain warning when the brief gave fewer than two things to draw (it may describe no figure)."""
    nodes = fig.of_kind("node")
    if len(nodes) >= 2:
        return []
    found = f"only one thing to draw ('{nodes[0].text}')" if nodes else "nothing to draw"
    return [f"the brief names {found}; describe the parts of the figure and how they connect, "
            "e.g. 'the encoder feeds the decoder, which writes the caption'"]
