"""CraftBench: a reproducible benchmark of figure systems (cases, systems, metrics, runs, reports)."""
