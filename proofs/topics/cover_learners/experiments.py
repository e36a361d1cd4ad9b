"""Experiments of seed 004 shared by the ``dpspec cover-curve`` and ``dpspec threshold-lower-bound``
commands: exact utility of A1/A1r/A2 against their certificates, and Thm 5's packing inequality.

Each experiment states what it will cost before it runs (:func:`curve_limits`,
:func:`lower_bound_limits`): a request beyond the limits is refused with the estimate.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from dpspec.cover_learners import (
    LabelPrivateCoverClassifier,
    PrivateCoverClassifier,
    grid_size,
    sample_threshold_family,
)
from dpspec.cover_learners.learners import MAX_LAW_CANDIDATES
from dpspec.cover_learners.machinery import (
    CoverExponentialClassifier as _CoverExponentialClassifier,
)
from dpspec.spec import cover_learners as sc
from dpspec.validation import rational_at_most

LEARNERS = ("a1", "a1r", "a2")
#: Most examples one ``cover-curve`` run draws in all (Σ n × reps): ≈ 10 s on one core.
MAX_CURVE_EXAMPLES = 5 * 10**7
#: Most distributions of Thm 5's family one ``threshold-lower-bound`` run goes through.
MAX_LOWER_FAMILY = 2**12


def make_learner(
    name: str, epsilon: float, accuracy: float, confidence: float, kappa_max: float = 64.0
) -> _CoverExponentialClassifier:
    """A1 / A1r (thresholds) or A2 with the paper's parameters (α = ``epsilon``)."""
    if name == "a2":
        return LabelPrivateCoverClassifier(epsilon, accuracy, confidence)
    return PrivateCoverClassifier(
        epsilon, accuracy, confidence, realizable=name == "a1r", kappa_max=kappa_max
    )


def _candidates_bound(name: str, n: int, epsilon: float, accuracy: float) -> int:
    """An upper bound on |G| at sample size n, without building G: A1/A1r's grid size; for A2
    the cover keeps at most one value per bucket of ⌊nε/4⌋ + 1 points, plus +∞."""
    if name == "a2":
        return min(n, n // (int(n * accuracy / 4) + 1) + 1) + 1
    learner = PrivateCoverClassifier(epsilon, accuracy, realizable=name == "a1r")
    return grid_size(learner.kappa(n), accuracy, "threshold")


def curve_limits(name: str, ns: list[int], epsilon: float, accuracy: float, reps: int) -> None:
    """Refuse (ValueError naming the option) a curve that cannot run: ε below the exact
    sampler's resolution, a grid or law too large, or more than ``MAX_CURVE_EXAMPLES``
    examples in all."""
    rational_at_most(epsilon, "--epsilon")
    total = sum(ns) * reps
    if total > MAX_CURVE_EXAMPLES:
        raise ValueError(
            f"--reps: {reps} samples at n = {','.join(map(str, ns))} draw {total:.3g} examples; "
            f"the limit is {MAX_CURVE_EXAMPLES:.3g} (lower --reps or the sizes)"
        )
    try:
        size = max(_candidates_bound(name, n, epsilon, accuracy) for n in ns)
    except ValueError as exc:
        raise ValueError(f"--accuracy: {str(exc).split(': ', 1)[-1]}") from None
    if size > MAX_LAW_CANDIDATES:
        raise ValueError(
            f"--accuracy: the exact law would list {size} candidates; the limit is "
            f"{MAX_LAW_CANDIDATES} (use a larger accuracy)"
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
    curve_limits(name, ns, epsilon, accuracy, reps)
    rng = np.random.default_rng(seed)
    rows = []
    for n in ns:
        learner = make_learner(name, epsilon, accuracy, 0.05)
        fails, excesses, certs, sizes = [], [], [], []
        for r in range(reps):
            X = rng.random((n, 1))
            y = (X[:, 0] >= target).astype(np.int64) ^ (rng.random(n) < noise)
            cands = learner.candidates(X)
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


def lower_bound_limits(epsilon: float, horizon: int, accuracy: float) -> None:
    """Refuse (ValueError naming the option) a table that cannot run: a family of more than
    ``MAX_LOWER_FAMILY`` distributions (K ≈ 4e^{αM}), ε below the exact sampler's resolution,
    or A1's grid beyond the exact law's limit."""
    rational_at_most(epsilon, "--epsilon")
    if sc.family_size(epsilon, horizon) > MAX_LOWER_FAMILY:
        raise ValueError(
            f"--M: Thm 5's family at αM = {epsilon * horizon:.4g} has about "
            f"4e^(αM) distributions; the limit is {MAX_LOWER_FAMILY} "
            f"(αM <= {float(np.log((MAX_LOWER_FAMILY - 5) / 4)):.3g})"
        )
    try:
        size = _candidates_bound("a1", horizon, epsilon, accuracy)
    except ValueError as exc:
        raise ValueError(f"--accuracy: {str(exc).split(': ', 1)[-1]}") from None
    if size > MAX_LAW_CANDIDATES:
        raise ValueError(
            f"--accuracy: A1's law would list {size} candidates; the limit is "
            f"{MAX_LAW_CANDIDATES} (use a larger accuracy)"
        )


def lower_bound_table(
    epsilon: float, horizon: int, m: int, accuracy: float, seed: int
) -> dict[str, Any]:
    """Thm 5's family at (α, M), α = ``epsilon``: q_z for A1 (exact law) on one sample
    S_z ~ P_z^m per z, the packing inequality's verdict, Σ q_z against e^{αm}."""
    lower_bound_limits(epsilon, horizon, accuracy)
    eta, zs = sc.threshold_family(epsilon, horizon)
    rng = np.random.default_rng(seed)
    learner = PrivateCoverClassifier(epsilon, accuracy)
    q = []
    for z in zs:
        X, y = sample_threshold_family(float(z), float(eta), m, rng)
        lower = learner.candidates(X).lower
        law = learner.release_law(X, y)
        q.append(sum(p for k, p in law.items() if abs(Fraction(float(lower[k])) - z) <= eta / 3))
    ratio = float(np.exp(epsilon * m))
    return {
        "epsilon": epsilon,
        "M": horizon,
        "m": m,
        "eta": float(eta),
        "K": len(zs),
        "q": q,
        "sum_q": float(sum(q)),
        "exp_epsilon_m": ratio,
        "holds": sc.satisfies_packing_inequality(q, ratio),
    }


def rows_json(rows: list[CurveRow]) -> list[dict[str, Any]]:
    return [asdict(r) for r in rows]
