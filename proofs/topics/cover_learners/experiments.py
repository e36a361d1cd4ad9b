"""Experiments of seed 004 shared by the ``dpspec cover-curve`` and ``dpspec threshold-lower-bound``
commands: exact utility of A1/A1r/A2 against their certificates, and Thm 5's packing inequality.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from dpspec.cover_learners import (
    LabelPrivateCoverClassifier,
    PrivateCoverClassifier,
    sample_threshold_family,
)
from dpspec.cover_learners.learners import _CoverExponentialClassifier
from dpspec.spec import cover_learners as sc

LEARNERS = ("a1", "a1r", "a2")


def make_learner(
    name: str, epsilon: float, accuracy: float, confidence: float, kappa_max: float = 64.0
) -> _CoverExponentialClassifier:
    """A1 / A1r (thresholds) or A2 with the paper's parameters (α = ``epsilon``)."""
    if name == "a2":
        return LabelPrivateCoverClassifier(epsilon, accuracy, confidence)
    return PrivateCoverClassifier(
        "threshold", epsilon, accuracy, confidence, realizable=name == "a1r", kappa_max=kappa_max
    )


@dataclass
class CurveRow:
    """One sample size: exact failure probability and excess error (means over samples) and
    the certificate the learner reports."""

    n: int
    failure: float
    excess: float
    certificate: float
    candidates: int


def utility_curve(
    name: str,
    ns: list[int],
    epsilon: float,
    accuracy: float,
    noise: float,
    reps: int,
    seed: int,
    target: float = 0.37,
) -> list[CurveRow]:
    """x ~ Unif[0, 1], label 1[x ≥ target] flipped w.p. ``noise`` (excess of h_g is
    (1 − 2·noise)|min(g, 1) − target|); per sample the exact P(excess > accuracy) and E[excess]
    under ``release_law`` (the law ``fit`` draws from), averaged over ``reps`` samples."""
    rng = np.random.default_rng(seed)
    rows = []
    for n in ns:
        learner = make_learner(name, epsilon, accuracy, 0.05)
        fails, excesses, certs, sizes = [], [], [], []
        for r in range(reps):
            X = rng.random((n, 1))
            y = (X[:, 0] >= target).astype(np.int64) ^ (rng.random(n) < noise)
            cands = learner.candidates(X[:, 0], n)
            law = learner.release_law(X, y)
            idx = np.fromiter(law.keys(), dtype=np.int64)
            p = np.fromiter(law.values(), dtype=np.float64)
            excess = (1 - 2 * noise) * np.abs(np.clip(cands.lower[idx], 0.0, 1.0) - target)
            fails.append(float(p @ (excess > accuracy)))
            excesses.append(float(p @ excess))
            learner.set_params(random_state=r)
            certs.append(learner.fit(X, y).certificate_)
            sizes.append(cands.size)
        rows.append(
            CurveRow(
                n,
                float(np.mean(fails)),
                float(np.mean(excesses)),
                float(np.mean(certs)),
                int(np.max(sizes)),
            )
        )
    return rows


def lower_bound_table(
    alpha: Fraction, horizon: int, m: int, accuracy: float, seed: int
) -> dict[str, Any]:
    """Thm 5's family at (α, M): q_z for A1 (exact law) on one sample S_z ~ P_z^m per z, the
    packing inequality's verdict, Σ q_z against e^{αm}."""
    eta, zs = sc.threshold_family(alpha, horizon)
    rng = np.random.default_rng(seed)
    learner = PrivateCoverClassifier("threshold", float(alpha), accuracy)
    q = []
    for z in zs:
        X, y = sample_threshold_family(float(z), float(eta), m, rng)
        lower = learner.candidates(X[:, 0], m).lower
        law = learner.release_law(X, y)
        q.append(sum(p for k, p in law.items() if abs(Fraction(float(lower[k])) - z) <= eta / 3))
    ratio = float(np.exp(float(alpha) * m))
    return {
        "alpha": float(alpha),
        "M": horizon,
        "m": m,
        "eta": float(eta),
        "K": len(zs),
        "q": q,
        "sum_q": float(sum(q)),
        "exp_alpha_m": ratio,
        "holds": sc.satisfies_packing_inequality(q, ratio),
    }


def rows_json(rows: list[CurveRow]) -> list[dict[str, Any]]:
    return [asdict(r) for r in rows]
