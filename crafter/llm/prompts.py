"""The exact prompt formats of CraftLM's three tasks (the one place they are defined).

Every prompt is ``<|task|> … <|out|>``; the model then writes DSL and ``<|eos|>``.
Backends that talk to general chat models (``hf:``, ``openai:``) wrap the same
content in :func:`chat_messages` instead.

* plan:   ``<|plan|>{brief}<|out|>``
* chart:  ``<|chart|>{schema_text}\\n{brief}<|out|>``
* repair: ``<|repair|>{figure DSL}<|issue|>{instruction}<|ids|>{id id …}<|out|>``

User text never contains the markers (they are stripped), so a brief cannot
forge a task boundary.
"""

from __future__ import annotations

import re

TASKS = ("plan", "chart", "repair")
PLAN, CHART, REPAIR = "<|plan|>", "<|chart|>", "<|repair|>"
ISSUE, IDS, OUT = "<|issue|>", "<|ids|>", "<|out|>"
EOS, MASK, PAD, UNK = "<|eos|>", "<|mask|>", "<|pad|>", "<|unk|>"
SPECIAL_TOKENS = [PAD, UNK, EOS, MASK, PLAN, CHART, REPAIR, ISSUE, IDS, OUT]  # ids 0..9, in this order

_MARKER = re.compile(r"<\|[a-z]+\|>")


def clean(text: str) -> str:
    """User text without task markers and without surrounding blank space."""
    return _MARKER.sub("", text).strip()


def plan_prompt(brief: str) -> str:
    return f"{PLAN}{clean(brief)}{OUT}"


def chart_prompt(schema_text: str, brief: str) -> str:
    return f"{CHART}{clean(schema_text)}\n{clean(brief)}{OUT}"


def repair_prompt(dsl: str, instruction: str, component_ids: list[str]) -> str:
    return f"{REPAIR}{clean(dsl)}{ISSUE}{clean(instruction)}{IDS}{' '.join(component_ids)}{OUT}"


def repair_parts(prompt: str) -> tuple[str, str, list[str]]:
    """A repair prompt's figure DSL, instruction and requested ids (the inverse of :func:`repair_prompt`)."""
    body = prompt[len(REPAIR):] if prompt.startswith(REPAIR) else prompt
    figure, _, rest = body.partition(ISSUE)
    instruction, _, ids = rest.rpartition(IDS) if IDS in rest else (rest, "", "")
    return figure, instruction, ids.split(OUT, 1)[0].split()


def requested_lines(prompt: str) -> str:
    """A repair prompt's requested components as the figure has them now, one line each (else "").

    A repair answer starts by copying these lines and then edits them, so they are what the
    n-gram drafter proposes first (:class:`crafter.llm.engine.NgramDrafter`'s ``prime``)."""
    if not prompt.startswith(REPAIR) or IDS not in prompt:
        return ""
    figure, _, wanted = repair_parts(prompt)
    lines = {ln.split(maxsplit=1)[0]: ln for ln in figure.splitlines() if ln.strip()}
    return "".join(lines[i] + "\n" for i in wanted if i in lines)


_ENGLISH = {PLAN: (PLAN, OUT), CHART: (CHART, OUT), REPAIR: (ISSUE, IDS)}


def english_span(prompt: str) -> tuple[int, int]:
    """Character span of a prompt's natural-language part: the brief (plan), the schema line and
    the request (chart), the instruction (repair); ``(0, 0)`` for anything else."""
    for marker, (start, end) in _ENGLISH.items():
        if prompt.startswith(marker):
            a = prompt.find(start)
            b = prompt.find(end, a + len(start))
            if a < 0 or b < 0:
                break
            return a + len(start), b
    return 0, 0


def task_of(prompt: str) -> str:
    for task, marker in zip(TASKS, (PLAN, CHART, REPAIR)):
        if prompt.startswith(marker):
            return task
    raise ValueError("not a CraftLM prompt (build it with plan_prompt/chart_prompt/repair_prompt)")


def build_prompt(task: str, text: str) -> str:
    """A prompt from one piece of user text (what ``crafter complete`` gets).

    plan: the brief. chart: schema text, a blank line or newline, then the brief.
    repair: figure DSL, then a line ``ISSUE: …`` (optionally ``IDS: a b``); when no
    ids are given, the ids the instruction names are used.
    """
    if task not in TASKS:
        raise ValueError(f"unknown task '{task}' (use one of: {', '.join(TASKS)})")
    text = clean(text)
    if not text:
        raise ValueError(f"empty {task} prompt")
    if task == "plan":
        return plan_prompt(text)
    if task == "chart":
        schema, _, brief = text.partition("\n")
        return chart_prompt(schema, brief.strip() or schema)
    dsl_lines, instruction, ids = [], "", []
    for line in text.splitlines():
        if line.upper().startswith("ISSUE:"):
            instruction = line.split(":", 1)[1].strip()
        elif line.upper().startswith("IDS:"):
            ids = line.split(":", 1)[1].split()
        else:
            dsl_lines.append(line)
    if not instruction:
        raise ValueError("repair needs a line 'ISSUE: <instruction>' after the figure DSL")
    if not ids:
        known = {ln.split()[0] for ln in dsl_lines if ln.strip() and not ln.startswith(("#", "figure"))}
        ids = [w.strip(".,:;\"'") for w in instruction.split() if w.strip(".,:;\"'") in known]
    return repair_prompt("\n".join(dsl_lines), instruction, ids)


def chat_messages(prompt: str) -> list[dict[str, str]]:
    """The same request as chat messages, for general models behind ``hf:``/``openai:``."""
    task = task_of(prompt)
    body = prompt[len({"plan": PLAN, "chart": CHART, "repair": REPAIR}[task]):].removesuffix(OUT)
    body = body.replace(ISSUE, "\n\nInstruction: ").replace(IDS, "\nComponents to rewrite: ")
    system = ("You write Crafter FigureSpec DSL: one statement per line, `id kind \"label\" key=value`, "
              "edges as `id edge a -> b`. Reply with DSL only, no prose, no code fences.")
    return [{"role": "system", "content": system}, {"role": "user", "content": _ASK[task] + body}]


_ASK = {"plan": "Write the figure for this brief:\n\n",
        "chart": "Write one chart statement for this table and request:\n\n",
        "repair": "Rewrite only the named components of this figure; reply with their replacement lines:\n\n"}
_MARKERS = {"plan": PLAN, "chart": CHART, "repair": REPAIR}


def prompt_from_chat(text: str) -> tuple[str | None, str]:
    """A chat message back to CraftLM's prompt: the inverse of :func:`chat_messages` (its user
    message gives the task and the exact prompt), a prompt as it is (``<|plan|>…``), else
    ``(None, text)`` — plain user text, for the caller to wrap for a task."""
    if text.startswith("<|"):
        try:
            return task_of(text), text
        except ValueError:
            return None, text
    for task, ask in _ASK.items():
        if text.startswith(ask):
            body = text[len(ask):]
            if task == "repair":
                figure, _, rest = body.rpartition("\n\nInstruction: ")
                instruction, _, ids = rest.rpartition("\nComponents to rewrite: ")
                body = f"{figure}{ISSUE}{instruction}{IDS}{ids}"
            return task, f"{_MARKERS[task]}{body}{OUT}"
    return None, text
