"""Registered obligations of locally private partitioning regression (seed 003)."""

from __future__ import annotations

from dpspec.proofs.registry import Obligation

LDP_OBLIGATIONS: tuple[Obligation, ...] = ()
