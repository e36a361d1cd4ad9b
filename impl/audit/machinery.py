"""The internals of :mod:`dpspec.audit` that other packages rely on, public under one name.

These are the objects the package's own code runs (re-exported, never copies): the exact checks
and the command line drive them directly. They validate nothing themselves (the public entry
points validate before calling them), so they are not part of the user-facing API.
"""

from __future__ import annotations

from dpspec.audit import _checkpoint as checkpoint
from dpspec.audit import _identity as identity
from dpspec.audit._checkpoint import KEY_VARIABLE
from dpspec.audit._checkpoint import _digest as digest
from dpspec.audit._events import Event
from dpspec.audit._freshness import PROBE
from dpspec.audit._learner_search import canary_pair_strategy, canary_pairs
from dpspec.audit._search import hypothesis_search, query_vector_pairs, statdp_patterns
from dpspec.audit.learners import _listed_class as listed_class
from dpspec.audit.libraries import _model_canary_pair as model_canary_pair

__all__ = [
    "KEY_VARIABLE",
    "PROBE",
    "Event",
    "canary_pair_strategy",
    "canary_pairs",
    "checkpoint",
    "digest",
    "hypothesis_search",
    "identity",
    "listed_class",
    "model_canary_pair",
    "query_vector_pairs",
    "statdp_patterns",
]
