"""The decode benchmark: plain vs speculative CraftLM on the held-out prompts, batch 1.

For every held-out prompt and every mode (``none``, ``ngram``, ``diffusion``) the
same model decodes greedily; the table reports decode tokens/s, the speed-up over
plain cached decoding, tokens per forward, the acceptance histogram, the share of
outputs identical to plain decoding, and task quality (DSL parse rate, component F1
against the target). Numbers are printed, never asserted.
"""

from __future__ import annotations

from dataclasses import dataclass

from crafter.llm.backends import get_backend
from crafter.llm.corpus import Example, held_out_set
from crafter.llm.quality import score

MODES = ("none", "ngram", "diffusion")


@dataclass
class Row:
    task: str
    mode: str
    n: int
    tokens: int
    seconds: float
    forwards: int
    identical: int
    parses: int
    f1: float
    exact: int
    histogram: dict


def run_decode_bench(backend=None, per_task: int = 20, tasks: tuple[str, ...] = ("plan", "chart", "repair"),
                     modes: tuple[str, ...] = MODES, max_new_tokens: int = 400, seed: int = 0,
                     examples: list[Example] | None = None, progress=None, constrain: bool = True) -> list[Row]:
    backend = backend or get_backend("craftlm")
    examples = examples or [e for e in held_out_set(per_task, seed) if e.task in tasks]
    rows: dict[tuple[str, str], Row] = {}
    for i, ex in enumerate(examples):
        plain_text = None
        for mode in modes:
            # the engine alone (no line guard): every mode decodes the whole answer
            kw = {"guard": False, "constrain": constrain} if getattr(backend, "name", "") == "craftlm" else {}
            out = backend.complete(ex.task, ex.prompt, max_new_tokens=max_new_tokens, speculative=mode, **kw)
            if mode == "none" or plain_text is None:
                plain_text = out.text if mode == "none" else plain_text
            q = score(ex.task, out.text, ex.target)
            r = rows.setdefault((ex.task, mode), Row(ex.task, mode, 0, 0, 0.0, 0, 0, 0, 0.0, 0, {}))
            s = out.stats
            r.n += 1
            r.tokens += s["tokens"]
            r.seconds += s["seconds"]
            r.forwards += s["forward_passes"]
            r.identical += int(plain_text is not None and out.text == plain_text)
            r.parses += int(q["parses"])
            r.f1 += q["f1"]
            r.exact += int(q["exact"])
            for k, v in s["acceptance_histogram"].items():
                r.histogram[k] = r.histogram.get(k, 0) + v
        if progress:
            progress(i + 1, len(examples))
    return list(rows.values())


def _hist_text(h: dict, width: int = 17) -> str:
    if not h:
        return "-"
    total = sum(h.values())
    keys = sorted(h, key=int)
    return " ".join(f"{k}:{100 * h[k] / total:.0f}%" for k in keys if h[k] / total >= 0.03)[:80]


def format_table(rows: list[Row]) -> str:
    plain = {r.task: r for r in rows if r.mode == "none"}
    head = (f"{'task':<7}{'mode':<10}{'n':>4}{'tok/s':>9}{'speed-up':>9}{'tok/fwd':>8}{'identical':>10}"
            f"{'parses':>8}{'F1':>7}{'exact':>7}  acceptance (drafts accepted per round: share)")
    lines = [head, "-" * len(head)]
    for r in rows:
        tps = r.tokens / r.seconds if r.seconds else 0.0
        base = plain.get(r.task)
        base_tps = base.tokens / base.seconds if base and base.seconds else 0.0
        speed = f"{tps / base_tps:.2f}x" if base_tps else "-"
        lines.append(f"{r.task:<7}{r.mode:<10}{r.n:>4}{tps:>9.0f}{speed:>9}{r.tokens / max(1, r.forwards):>8.2f}"
                     f"{100 * r.identical / r.n:>9.0f}%{100 * r.parses / r.n:>7.0f}%{r.f1 / r.n:>7.3f}"
                     f"{100 * r.exact / r.n:>6.0f}%  {_hist_text(r.histogram)}")
    tot = {}
    for r in rows:
        t = tot.setdefault(r.mode, [0, 0.0, 0])
        t[0] += r.tokens
        t[1] += r.seconds
        t[2] += r.forwards
    if "none" in tot and tot["none"][1]:
        base = tot["none"][0] / tot["none"][1]
        for mode, (tk, sec, fw) in tot.items():
            if sec:
                lines.append(f"{'all':<7}{mode:<10}{'':>4}{tk / sec:>9.0f}{(tk / sec) / base:>8.2f}x"
                             f"{tk / max(1, fw):>8.2f}")
    return "\n".join(lines)
