"""The pipeline's agents: plain functions over plain JSON data, one file per stage.

The LangGraph graph in :mod:`crafter.graph.pipeline` wires them together; each is usable and
unit-tested on its own, without the graph or a model:

* :mod:`~crafter.agents.ingest` — check and normalise the inputs (brief, table, image);
* :mod:`~crafter.agents.route` — which planner a request needs;
* :mod:`~crafter.agents.plan` — brief → figure (model, with a rule-based fallback);
* :mod:`~crafter.agents.chart_plan` — table + brief → chart component;
* :mod:`~crafter.agents.vectorize` — raster image → figure (CraftEditor);
* :mod:`~crafter.agents.compose` — the planners' parts → one figure (panels);
* :mod:`~crafter.agents.critique` — deterministic checks that name component ids;
* :mod:`~crafter.agents.repair` — local repair: rules for geometry, the model for meaning;
* :mod:`~crafter.agents.instruct` — edits by instruction ("make the encoder blue");
* :mod:`~crafter.agents.extract` — the rule-based brief reader (fallback planner, entity list);
* :mod:`~crafter.agents.backend` — which model backend a spec string names, call statistics;
* :mod:`~crafter.agents.testing` — a scripted backend for tests and benchmarks.
"""
