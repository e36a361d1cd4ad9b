"""The hard family of Thm 5 (seed 004, L196–228): thresholds on [0, 1] that no α-private proper
learner learns from m ≤ M examples.

η = 1/(6 + 4e^{αM}), Z = {η, 2η, …, Kη}, K = ⌊1/η⌋ − 1, G_z = [z − η/3, z + η/3];
P_z: x ~ ½ Unif[0, 1] + ½ Unif(G_z), label 1 iff x ≥ z (error 0 for h_z). The exact error of
every threshold under P_z is :func:`dpspec.spec.cover_learners.threshold_family_error`; the
G_z are disjoint, so the success sets 𝒢_z = {h_τ : τ ∈ G_z} are too, which is what the packing
inequality (:func:`dpspec.spec.cover_learners.satisfies_packing_inequality`) needs.
"""

from __future__ import annotations

from typing import Annotated

import numpy as np
from numpy.typing import NDArray

from dpspec.validation import (
    MEMORY_LIMIT,
    GeneratorArg,
    Integer,
    Real,
    checked,
    require_within,
)

#: The target threshold z ∈ (0, 1) of P_z.
TargetArg = Annotated[float, Real(lo=0.0, hi=1.0, lo_open=True, hi_open=True, clean=0.5)]
#: The family's η = 1/(6 + 4e^{αM}) ∈ (0, 1/10].
EtaArg = Annotated[float, Real(lo=0.0, hi=0.1, lo_open=True, clean=0.05)]
#: Examples drawn (≤ ``LIMITS["draws"]``).
ExamplesArg = Annotated[int, Integer(lo=1, limit="draws")]

#: Bytes one drawn example takes while it is made (three uniforms, the point, its label).
BYTES_PER_EXAMPLE = 40


@checked
def sample_threshold_family(
    z: TargetArg, eta: EtaArg, size: ExamplesArg, rng: GeneratorArg
) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """``size`` labelled examples from P_z (x as a (size, 1) array, labels 1[x ≥ z]);
    η ≤ z ≤ 1 − η is required (G_z ⊆ [0, 1])."""
    if not eta <= z <= 1 - eta:
        raise ValueError(f"z: expected η ≤ z ≤ 1 − η, got z={z}, eta={eta}")
    require_within(BYTES_PER_EXAMPLE * size, MEMORY_LIMIT, "size", "bytes")
    uniform = rng.random(size)
    near = z + (eta / 3) * (2 * rng.random(size) - 1)
    x = np.where(rng.random(size) < 0.5, uniform, near)
    return x.reshape(-1, 1), (x >= z).astype(np.int64)
