"""The hard family of Thm 5 (seed 004, L196–228): thresholds on [0, 1] that no α-private proper
learner learns from m ≤ M examples.

η = 1/(6 + 4e^{αM}), Z = {η, 2η, …, Kη}, K = ⌊1/η⌋ − 1, G_z = [z − η/3, z + η/3];
P_z: x ~ ½ Unif[0, 1] + ½ Unif(G_z), label 1 iff x ≥ z (error 0 for h_z). The exact error of
every threshold under P_z is :func:`dpspec.spec.cover_learners.threshold_family_error`; the
G_z are disjoint, so the success sets 𝒢_z = {h_τ : τ ∈ G_z} are too, which is what the packing
inequality (:func:`dpspec.spec.cover_learners.satisfies_packing_inequality`) needs.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from dpspec.validation import check_count, check_rng


def sample_threshold_family(
    z: float, eta: float, m: int, rng: np.random.Generator
) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """m labelled examples from P_z (x as an (m, 1) array, labels 1[x ≥ z])."""
    check_rng(rng)
    m = check_count(m, "m")
    if not 0 < eta < 1 or not eta <= z <= 1 - eta:
        raise ValueError(f"z: expected η ≤ z ≤ 1 − η with 0 < η < 1, got z={z}, eta={eta}")
    uniform = rng.random(m)
    near = z + (eta / 3) * (2 * rng.random(m) - 1)
    x = np.where(rng.random(m) < 0.5, uniform, near)
    return x.reshape(-1, 1), (x >= z).astype(np.int64)
