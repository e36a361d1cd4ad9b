"""The worst-case neighbouring pairs of mechanisms, as exact privacy curves.

Each curve is computed from the mechanism's own law (never from a formula for its loss):

* :func:`randomized_response_curve` — k-ary randomized response with e^ε = ``ratio``
  (:class:`dpspec.mechanisms.RandomizedResponse` with ``base = 1/ratio``): the laws on inputs
  0 and 1 (:meth:`~dpspec.mechanisms.RandomizedResponse.local_pmf`). Every pair of distinct
  inputs is this one up to a relabelling of the outputs, so it is the worst pair; forward
  (RR(0), RR(1)), backward (RR(1), RR(0)).
* :func:`discrete_laplace_curve` — a count (sensitivity 1) released with discrete Laplace noise
  of rational base q (:func:`dpspec.noise.discrete_laplace_pmf`, P(Z = z) ∝ q^{|z|}): forward
  (1 + Z, Z), the *remove* pair of the count on D = {x} and D′ = ∅, backward (Z, 1 + Z), *add*.
  Every pair of neighbouring counts is this one shifted. The support is infinite; the
  likelihood ratio P(z)/Q(z) = q^{|z − 1| − |z|} is 1/q for z ≤ 0 and q for z ≥ 1, so the loss
  takes only the values ±ln(1/q). It is computed from the law, not written down: the outcomes
  of the window [−2, 3] one by one (:func:`~dpspec.noise.discrete_laplace_pmf`), and each
  tail beyond it as one outcome (its mass from :func:`~dpspec.noise.discrete_laplace_sf`).
  Merging a tail is exact because the ratio is constant on it — beyond both centres c of the
  two laws, |z − c| is linear in z with the same slope for both, so their difference is
  constant — and merging outcomes of equal ratio changes no privacy loss distribution. The
  window's masses and tails must sum exactly to 1 (checked as for any law).
* :func:`subsampled` — Poisson subsampling at rate p of a mechanism with curve (P, Q): the
  relations kept apart. *Remove* (D′ = D minus the record x): the subsampled mechanism on D is
  the mixture (1 − p)·M(D′) + p·M(D′ with x), so with the forward (remove) pair (P_r, Q_r) the
  pair is ((1 − p)·Q_r + p·P_r, Q_r). *Add* (D′ = D plus x): with the backward (add) pair
  (P_a, Q_a) = (M(D), M(D′)) the pair is (P_a, (1 − p)·P_a + p·Q_a). For the count above these
  are the pairs of the subsampled count on ∅ and {x} themselves; in general they dominate the
  subsampled mechanism's pairs when (P_r, Q_r) and (P_a, Q_a) dominate the base mechanism's
  (Zhu, Dong & Wang 2022, "Optimal accounting of differential privacy via characteristic
  function", AISTATS, arXiv:2106.08567, the section on privacy amplification by subsampling;
  Balle, Barthe & Gaboardi 2018, "Privacy amplification by subsampling: tight analyses via
  couplings and divergences", NeurIPS: the mixture identity and the relations' asymmetry).
  Neither paper is among the seeds in ``../shared/seeds/``; their section and theorem numbers
  are not cited here for that reason. The mixture's masses are computed per class of the base
  distribution: an atom (r, m) is a class of P-mass m and Q-mass m/r; the ∞ atom a class of
  Q-mass 0; Q's mass where P has none a class of P-mass 0.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated, Any

from dpspec.accounting._domains import ExactProbability, ExactRatio
from dpspec.accounting.exact import (
    CurveArg,
    LossDistribution,
    PrivacyCurve,
    loss_distribution,
    privacy_curve,
)
from dpspec.mechanisms import RandomizedResponse
from dpspec.noise import discrete_laplace_pmf, discrete_laplace_sf
from dpspec.validation import Base, Integer, check_limit, checked, example

#: The window of a discrete Laplace pair enumerated outcome by outcome (tails merged beyond).
WINDOW = (-2, 3)

#: A likelihood ratio e^ε > 1 of randomized response, exact.
RatioArg = Annotated[Fraction, ExactRatio(clean=Fraction(3, 2))]


@example(__call__={"values": 3, "ratio": Fraction(3, 2)})
@checked
def randomized_response_curve(
    values: Annotated[int, Integer(2, limit="categories", clean=3)], ratio: RatioArg
) -> PrivacyCurve:
    """The curve of k-ary randomized response (k = ``values``) with e^ε = ``ratio`` > 1, from
    the mechanism's laws on inputs 0 and 1."""
    if ratio == 1:
        raise ValueError("ratio: must be > 1 (ratio 1 reports a uniform value: no loss)")
    check_limit(values, "values", "categories")  # the laws are enumerated value by value
    try:
        mechanism = RandomizedResponse(values, base=1 / ratio)
    except ValueError as exc:
        raise ValueError(f"ratio: {exc}") from exc
    p = {y: Fraction(v) for y, v in mechanism.local_pmf(0).items()}
    q = {y: Fraction(v) for y, v in mechanism.local_pmf(1).items()}
    return privacy_curve(p, q)


def _clamped_law(shift: int, base: Fraction) -> dict[Any, Fraction]:
    """The law of shift + Z on the window, with each tail beyond it as one outcome."""
    lo, hi = WINDOW
    law: dict[Any, Fraction] = {
        z: Fraction(discrete_laplace_pmf(z - shift, base)) for z in range(lo, hi + 1)
    }
    law["below"] = Fraction(discrete_laplace_sf(shift + 1 - lo, base))  # P(Z ≤ lo − 1 − shift)
    law["above"] = Fraction(discrete_laplace_sf(hi + 1 - shift, base))  # P(Z ≥ hi + 1 − shift)
    return law


@example(__call__={"base": Fraction(1, 2)})
@checked
def discrete_laplace_curve(base: Annotated[Fraction, Base(sampling=False)]) -> PrivacyCurve:
    """The curve of a count released with discrete Laplace noise of base q = ``base``: forward
    (1 + Z, Z), backward (Z, 1 + Z), from the law (the module docstring)."""
    return privacy_curve(_clamped_law(1, base), _clamped_law(0, base))


def _classes(pld: LossDistribution) -> list[tuple[Fraction, Fraction]]:
    """(P-mass, Q-mass) of each class of outcomes of the pair behind ``pld``."""
    classes = [(m, m / r) for r, m in pld.atoms]
    if pld.infinite:
        classes.append((pld.infinite, Fraction(0)))
    if pld.q_only:
        classes.append((Fraction(0), pld.q_only))
    return classes


def _mixture_pair(pld: LossDistribution, rate: Fraction, mixed_first: bool) -> LossDistribution:
    """From the distribution of (P, Q): that of ((1 − p)·Q + p·P, Q) (``mixed_first``: the
    remove relation) or of (P, (1 − p)·P + p·Q) (the add relation)."""
    classes = _classes(pld)
    if mixed_first:
        mixed = {i: (1 - rate) * b + rate * a for i, (a, b) in enumerate(classes)}
        return loss_distribution(mixed, {i: b for i, (_, b) in enumerate(classes)})
    mixed = {i: (1 - rate) * a + rate * b for i, (a, b) in enumerate(classes)}
    return loss_distribution({i: a for i, (a, _) in enumerate(classes)}, mixed)


@example(__call__={"rate": Fraction(1, 5)})
@checked
def subsampled(
    curve: CurveArg, rate: Annotated[Fraction, ExactProbability(positive=True)]
) -> PrivacyCurve:
    """The curve of the mechanism run on a Poisson subsample at ``rate`` p ∈ (0, 1]: forward
    (remove) ((1 − p)·Q_r + p·P_r, Q_r) from the forward pair, backward (add)
    (P_a, (1 − p)·P_a + p·Q_a) from the backward pair (the module docstring)."""
    remove = _mixture_pair(curve.forward, rate, mixed_first=True)
    add = _mixture_pair(curve.backward, rate, mixed_first=False)
    return PrivacyCurve(remove, add)


__all__ = [
    "WINDOW",
    "discrete_laplace_curve",
    "randomized_response_curve",
    "subsampled",
]
