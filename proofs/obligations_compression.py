"""Registered obligations of sample compression by boosting (seed 002 ch. 4)."""

from __future__ import annotations

from dpspec.proofs.registry import Obligation

COMPRESSION_OBLIGATIONS: tuple[Obligation, ...] = ()
