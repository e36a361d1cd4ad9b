"""The entries of this topic without a check function: none (every obligation is declared on
its check in ``sampler_laws.py``, ``sampler_statistics.py`` and ``exact_tables.py``)."""

from __future__ import annotations

from dpspec.proofs.engine.registry import Obligation

OBLIGATIONS: tuple[Obligation, ...] = ()
