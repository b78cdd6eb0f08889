"""Heuristic bots (placeholder module: filled in by the heuristic bot work)."""
