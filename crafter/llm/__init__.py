"""CraftLM and the model backends: what the rest of Crafter calls to get DSL from a model.

Stable interface::

    from crafter.llm import get_backend, plan_prompt, chart_prompt, repair_prompt

    backend = get_backend()                      # "craftlm" (built-in, default; the server at
                                                 # CRAFTER_MODEL_URL where that is set), "server[:URL]",
                                                 # "hf:/path/to/model", "openai:http://host:port/v1"
    out = backend.complete("plan", plan_prompt(brief), max_new_tokens=512, temperature=0.0)
    out.text    # FigureSpec DSL (plan: a whole figure; chart: one chart statement;
                # repair: replacement lines for the named components)
    out.stats   # {"forward_passes", "tokens", "tokens_per_forward", "acceptance_histogram",
                #  "seconds", "tokens_per_second", ...}

* ``plan_prompt(brief)``, ``chart_prompt(schema_text, brief)``,
  ``repair_prompt(dsl, instruction, component_ids)`` build the prompts
  (:mod:`crafter.llm.prompts`); ``complete`` also accepts plain user text and wraps it.
* Errors a user can act on (unknown backend, missing/corrupt weights, empty or
  over-long prompt, unreachable or garbled server) raise :class:`ModelError`
  (a :class:`crafter.errors.CrafterError`).
* CraftLM's ``complete`` takes ``speculative="diffusion" | "ngram" | "none"`` and
  ``block_size``; greedy output is identical whichever is chosen.
"""

from crafter.llm.backends import Backend, Completion, ModelError, get_backend
from crafter.llm.prompts import TASKS, build_prompt, chart_prompt, plan_prompt, repair_prompt

__all__ = ["Backend", "Completion", "ModelError", "TASKS", "build_prompt", "chart_prompt", "get_backend",
           "plan_prompt", "repair_prompt"]
