"""Differential privacy as predicates on two discrete output distributions.

Seed 000 Def 1.1 (``000_dff3c4dc97cf0e21.txt:L15``): A is (ε, δ)-DP when for all neighbouring
S, S' and every event F, Pr[A(S) ∈ F] ≤ e^ε · Pr[A(S') ∈ F] + δ.

Here a distribution is a finite mapping ``outcome -> probability``. Probabilities may be
``Fraction`` (then every predicate is exact) or ``float`` (then comparisons allow a stated
relative slack ``rtol``; the default ``rtol = 0`` is exact arithmetic on the numbers given).
The privacy level enters as the likelihood-ratio bound ``ratio = e^ε`` (a ``Fraction`` when
the mechanism was built from a rational noise base, e.g. e^{-ε} = 1/2), so no ``exp`` or
``log`` is needed and CrossHair can reason about these functions.

Facts used (and property-tested in ``tests/test_privacy.py``):

* pure DP, event form ⇔ pointwise form: max_F P(F)/Q(F) = max_o P(o)/Q(o) for discrete
  distributions (a ratio of sums is at most the largest ratio of terms);
* (ε, δ): sup_F [P(F) − e^ε Q(F)] = Σ_o max(0, P(o) − e^ε Q(o)), the hockey-stick
  divergence H_{e^ε}(P ‖ Q), attained by F = {o : P(o) > e^ε Q(o)};
* group privacy: datasets k substitutions apart satisfy (kε, k e^{(k−1)ε} δ).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from fractions import Fraction
from itertools import chain, combinations
from typing import Any, TypeVar

Prob = Fraction | float | int
Dist = Mapping[Any, Prob]
X = TypeVar("X", bound=Hashable)

INFINITY = float("inf")


def _check_probs(p: Dist, name: str) -> None:
    """Every probability is a number >= 0 (rejects NaN and negatives; the sum is not checked)."""
    for o, v in p.items():
        if not v >= 0:  # also rejects NaN
            raise ValueError(f"{name}: probability of {o!r} is {v!r}, not a number >= 0")


def _check_dist(p: Dist, name: str) -> None:
    _check_probs(p, name)
    total: Prob = sum(p.values())
    if isinstance(total, float):
        if abs(total - 1.0) > 1e-9:
            raise ValueError(f"{name}: probabilities sum to {total!r}, not 1")
    elif total != 1:
        raise ValueError(f"{name}: probabilities sum to {total}, not 1")


def _check_ratio(ratio: Prob) -> None:
    if not ratio >= 1 or ratio == INFINITY:
        raise ValueError(f"ratio: the bound e^epsilon must be finite and >= 1, got {ratio!r}")


def _check_delta(delta: Prob) -> None:
    if not 0 <= delta < 1:
        raise ValueError(f"delta: must be in [0, 1), got {delta!r}")


def support(p: Dist) -> set[Hashable]:
    """Outcomes with positive probability."""
    return {o for o, v in p.items() if v > 0}


def max_likelihood_ratio(p: Dist, q: Dist) -> Prob:
    """max_o p(o)/q(o) over outcomes with p(o) > 0; ``inf`` when q(o) = 0 < p(o).

    This is e^{ε*} for the smallest ε* with p(o) ≤ e^{ε*} q(o) everywhere (one direction).
    """
    _check_probs(p, "p")
    _check_probs(q, "q")
    best: Prob = 0
    for o, pv in p.items():
        if pv <= 0:
            continue
        qv = q.get(o, 0)
        if qv <= 0:
            return INFINITY
        r = pv / qv if isinstance(pv, float) or isinstance(qv, float) else Fraction(pv, qv)
        if r > best:
            best = r
    return best


def _le(a: Prob, b: Prob, rtol: float) -> bool:
    """a ≤ b, with relative slack ``rtol`` (0 = exact on the given numbers)."""
    if rtol == 0:
        return a <= b
    return float(a) <= float(b) + rtol * abs(float(b))


def pure_dp_one_way(p: Dist, q: Dist, ratio: Prob, rtol: float = 0.0) -> bool:
    """p(o) ≤ ratio · q(o) for every outcome o (one direction of ε-DP, ratio = e^ε)."""
    _check_ratio(ratio)
    _check_probs(p, "p")
    _check_probs(q, "q")
    return all(_le(pv, ratio * q.get(o, 0), rtol) for o, pv in p.items())


def satisfies_pure_dp(p: Dist, q: Dist, ratio: Prob, rtol: float = 0.0) -> bool:
    """ε-DP for one neighbouring pair: the pointwise likelihood-ratio bound both ways.

    ``p`` and ``q`` are the output distributions on S and S'; ``ratio`` = e^ε.
    """
    return pure_dp_one_way(p, q, ratio, rtol) and pure_dp_one_way(q, p, ratio, rtol)


def satisfies_pure_dp_losses(losses: Iterable[Fraction], epsilon: Fraction) -> bool:
    """ε-DP for one neighbouring pair, stated on the privacy loss: |ln p(o)/q(o)| ≤ ε for every
    outcome o (``002_9f3104e4a0d86722.txt:L425``). Used where the losses are exact rationals
    while the probabilities are not (e.g. discrete Laplace of an irrational base e^{−1/t})."""
    if epsilon < 0:
        raise ValueError(f"epsilon: must be >= 0, got {epsilon}")
    return all(abs(loss) <= epsilon for loss in losses)


def hockey_stick(p: Dist, q: Dist, ratio: Prob) -> Prob:
    """H_{ratio}(p ‖ q) = Σ_o max(0, p(o) − ratio · q(o)) = sup_F p(F) − ratio · q(F)."""
    _check_ratio(ratio)
    _check_probs(p, "p")
    _check_probs(q, "q")
    total: Prob = 0
    for o, pv in p.items():
        gap = pv - ratio * q.get(o, 0)
        if gap > 0:
            total += gap
    return total


def satisfies_approx_dp(p: Dist, q: Dist, ratio: Prob, delta: Prob, rtol: float = 0.0) -> bool:
    """(ε, δ)-DP for one neighbouring pair: H_{e^ε}(p‖q) ≤ δ and H_{e^ε}(q‖p) ≤ δ."""
    _check_delta(delta)
    return _hockey_both_ways_le(p, q, ratio, delta, rtol)


def _hockey_both_ways_le(p: Dist, q: Dist, ratio: Prob, delta: Prob, rtol: float) -> bool:
    return _le(hockey_stick(p, q, ratio), delta, rtol) and _le(
        hockey_stick(q, p, ratio), delta, rtol
    )


def _events(outcomes: list[Hashable]) -> Iterable[tuple[Hashable, ...]]:
    return chain.from_iterable(combinations(outcomes, k) for k in range(len(outcomes) + 1))


def event_level_dp(p: Dist, q: Dist, ratio: Prob, delta: Prob = 0) -> bool:
    """The definition itself: P(F) ≤ ratio · Q(F) + δ for every event F, both directions.

    Enumerates all 2^|outcomes| events, so it is only for small distributions; it exists to
    check the pointwise and hockey-stick forms against the definition.
    """
    _check_ratio(ratio)
    _check_delta(delta)
    _check_probs(p, "p")
    _check_probs(q, "q")
    outcomes = sorted(set(p) | set(q), key=repr)
    if len(outcomes) > 16:
        raise ValueError("p: event enumeration is limited to 16 outcomes")
    for event in _events(outcomes):
        pf = sum((p.get(o, 0) for o in event), Fraction(0))
        qf = sum((q.get(o, 0) for o in event), Fraction(0))
        if pf > ratio * qf + delta or qf > ratio * pf + delta:
            return False
    return True


def group_privacy_parameters(ratio: Prob, delta: Prob, k: int) -> tuple[Prob, Prob]:
    """(e^{kε}, k e^{(k−1)ε} δ): what (ε, δ)-DP gives for datasets k changes apart."""
    _check_ratio(ratio)
    _check_delta(delta)
    if k < 1:
        raise ValueError(f"k: must be >= 1, got {k}")
    return ratio**k, k * ratio ** (k - 1) * delta


def satisfies_group_privacy(
    p: Dist, q: Dist, ratio: Prob, delta: Prob, k: int, rtol: float = 0.0
) -> bool:
    """The group-privacy guarantee for two datasets ``k`` changes apart."""
    gr, gd = group_privacy_parameters(ratio, delta, k)
    if gd == 0:
        return satisfies_pure_dp(p, q, gr, rtol)
    return _hockey_both_ways_le(p, q, gr, gd, rtol)  # gd may exceed 1: then it is vacuous


def satisfies_ldp(randomiser: Mapping[X, Dist], ratio: Prob, rtol: float = 0.0) -> bool:
    """ε-LDP of a randomiser over a finite input set: every pair of inputs is ε-DP.

    ``randomiser[x]`` is the output distribution of the local randomiser on input x.
    """
    inputs = list(randomiser)
    return all(
        satisfies_pure_dp(randomiser[a], randomiser[b], ratio, rtol)
        for i, a in enumerate(inputs)
        for b in inputs[i + 1 :]
    )


def is_distribution(p: Dist) -> bool:
    """Non-negative probabilities summing to 1 (exactly for Fractions, to 1e-9 for floats)."""
    try:
        _check_dist(p, "p")
    except ValueError:
        return False
    return True


def bernoulli_product(ps: Sequence[Prob]) -> dict[tuple[int, ...], Prob]:
    """The law of independent bits with P(bit_j = 1) = ps[j], over all 2^k bit vectors.

    Exact for Fractions. Used for hypotheses that release one independent bit per cell
    (PCL, PCL2, the noisy majority vote).
    """
    out: dict[tuple[int, ...], Prob] = {(): 1}
    for pj in ps:
        nxt: dict[tuple[int, ...], Prob] = {}
        for bits, pv in out.items():
            nxt[(*bits, 0)] = pv * (1 - pj)
            nxt[(*bits, 1)] = pv * pj
        out = nxt
    return out
