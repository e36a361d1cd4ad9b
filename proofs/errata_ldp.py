"""Errata of locally private partitioning regression (seed 003).

Printed statements that are false, each with its counterexample test.
"""

from __future__ import annotations

from dpspec.proofs.registry import Erratum

LDP_ERRATA: tuple[Erratum, ...] = ()
