"""Errata of sample compression by boosting (seed 002 ch. 4).

Printed statements that are false, each with its counterexample test.
"""

from __future__ import annotations

from dpspec.proofs.registry import Erratum

COMPRESSION_ERRATA: tuple[Erratum, ...] = ()
