"""The exact accountant against the enumerated hockey-stick divergence of the product laws.

Each instance is a mechanism's worst pair stated from :mod:`dpspec.spec` (randomized response by
:func:`~dpspec.spec.laws.randomized_response_spec`, the discrete Laplace count by
:func:`~dpspec.spec.laws.two_sided_pmf` on a window), optionally Poisson-subsampled by
:func:`~dpspec.spec.accounting.poisson_subsampled` (remove forward, add backward), and the
accountant's curve of the same mechanism (:mod:`dpspec.accounting.pairs`). For 1–4 copies and
both directions the k-fold product laws are enumerated (:func:`~dpspec.spec.accounting.
product_laws_upto`) and their hockey-stick divergence compared, all in Fractions:

* at exact ratios e^ε: the accountant's δ equals the enumerated value (whole laws) or lies in
  its enclosure (a window: [H, H + the mass outside]);
* at a real ε: the enumerated enclosure at 256 bits lies inside the accountant's certified
  bracket (whole laws) or meets it (a window);
* ε(δ): the bracket (ε_lo, ε_hi] is certified by the enumeration — δ(ε_hi) ≤ δ and (ε_lo = 0 or
  δ(ε_lo) > δ), an infinite bracket iff P^k's mass where Q^k has none exceeds δ; a windowed
  instance whose enclosure cannot decide counts as undecided, never as certified; a refuting
  enumeration fails the check.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from dpspec.accounting import (
    LossDistribution,
    PrivacyCurve,
    discrete_laplace_curve,
    privacy_curve,
    randomized_response_curve,
    subsampled,
)
from dpspec.proofs.engine.registry import VerifyConfig, stop_if_failed
from dpspec.spec.accounting import (
    ProductLaws,
    exp_bounds,
    hockey_stick_enclosure,
    hockey_stick_enclosure_at,
    interval_contains,
    intervals_meet,
    poisson_subsampled,
    product_laws_upto,
    unreached_mass,
)
from dpspec.spec.laws import as_interval, randomized_response_spec, two_sided_pmf

Law = Mapping[Any, Fraction]

#: Randomized response: (values k, e^ε).
RR_CASES = ((2, Fraction(2)), (2, Fraction(3, 2)), (3, Fraction(2)), (3, Fraction(3, 2)))
#: e^ε = 1 + 2^-60: the three ratios r, 1, 1/r of randomized response on 3 values are one float.
NEAR_TIE = Fraction(2**60 + 1, 2**60)
#: Discrete Laplace bases q, with the half-width w of the window [−w, w + 1] each is enumerated
#: on (the mass outside, ≤ 1 − P(window)^4, below 10^-5).
DLAP_WINDOWS = {Fraction(1, 2): 20, Fraction(2, 3): 32}
#: Poisson subsampling rates (None: not subsampled); the windowed discrete Laplace (the costly
#: enumeration) at the smaller rate only.
RATES = (None, Fraction(1, 2), Fraction(1, 5))
WINDOW_RATES = (None, Fraction(1, 5))
COPIES = 4
#: Exact ratios e^ε at which δ is compared.
RATIOS = (Fraction(1), Fraction(6, 5))
#: Real levels ε at which the certified bracket is compared (a float: e^ε irrational).
EPSILONS = (0.25,)
#: Targets δ of the ε(δ) brackets, and their width.
DELTAS = (Fraction(1, 100),)
WIDTH = Fraction(1, 2**10)


@dataclass(frozen=True)
class Instance:
    """A mechanism's worst pair (P, Q) from the spec, the accountant's curve of it, and whether
    P and Q are restricted to a window (their mass below 1)."""

    name: str
    p: Law
    q: Law
    curve: Callable[[], PrivacyCurve]
    window: bool = False

    @property
    def rates(self) -> tuple[Fraction | None, ...]:
        return WINDOW_RATES if self.window else RATES


def _rr(values: int, ratio: Fraction) -> Instance:
    def law(x: int) -> Law:
        stated = randomized_response_spec(ratio, values, x)
        return {y: as_interval(stated(y)).lo for y in range(values)}  # points: exact

    return Instance(
        f"RR k={values} e^eps={ratio}" if ratio != NEAR_TIE else "RR k=3 e^eps=1+2^-60",
        law(0),
        law(1),
        lambda: randomized_response_curve(values, ratio),
    )


def _dlap(base: Fraction, half: int) -> Instance:
    window = range(-half, half + 2)
    return Instance(
        f"discrete Laplace q={base}",
        {z: two_sided_pmf(z - 1, base) for z in window},
        {z: two_sided_pmf(z, base) for z in window},
        lambda: discrete_laplace_curve(base),
        window=True,
    )


def instances() -> list[Instance]:
    """The instances, those the bug controls need first (the near tie, the ∞ atom)."""
    half = {0: Fraction(1, 2), 1: Fraction(1, 2)}
    shifted = {1: Fraction(1, 2), 2: Fraction(1, 2)}
    return [
        _rr(3, NEAR_TIE),
        Instance(
            "shifted uniform (an atom at ∞)", half, shifted, lambda: privacy_curve(half, shifted)
        ),
        *(_rr(k, r) for k, r in RR_CASES),
        *(_dlap(q, w) for q, w in DLAP_WINDOWS.items()),
    ]


@dataclass
class Tally:
    """What the comparisons found."""

    compared: int = 0
    certified: int = 0
    undecided: int = 0
    widest: Fraction = Fraction(0)
    failures: list[str] = field(default_factory=list)

    def fail(self, config: VerifyConfig, text: str) -> None:
        self.failures.append(text)
        stop_if_failed(config, False, text)


def _directions(
    inst: Instance, rate: Fraction | None
) -> Iterator[tuple[str, Law, Law, Callable[[PrivacyCurve], LossDistribution]]]:
    """(label, P, Q, which side of the accountant's curve) of both directions."""
    if rate is None:
        yield "forward", inst.p, inst.q, lambda c: c.forward
        yield "backward", inst.q, inst.p, lambda c: c.backward
        return
    yield ("remove", *poisson_subsampled(inst.p, inst.q, rate, "remove"), lambda c: c.forward)
    yield ("add", *poisson_subsampled(inst.q, inst.p, rate, "add"), lambda c: c.backward)


def _compare_ratio(pld: LossDistribution, laws: ProductLaws, window: bool) -> list[str]:
    out = []
    for ratio in RATIOS:
        lo, hi = hockey_stick_enclosure(laws, ratio)
        got = pld.delta_at_ratio(ratio)
        ok = interval_contains(lo, hi, got) and (window or lo == got == hi)
        if not ok:
            spec = f"[{float(lo):.6g}, {float(hi):.6g}]"
            out.append(f"delta at e^eps={ratio}: {float(got):.6g}, enumerated {spec}")
    return out


def _compare_level(pld: LossDistribution, laws: ProductLaws, window: bool) -> list[str]:
    out = []
    for eps in EPSILONS:
        spec = hockey_stick_enclosure_at(laws, Fraction(eps))
        got = pld.delta_at(eps)
        ok = (
            intervals_meet((got.lo, got.hi), spec)
            if window
            else interval_contains(got.lo, got.hi, spec[0])
            and interval_contains(got.lo, got.hi, spec[1])
        )
        if not ok:
            out.append(
                f"delta({eps}): [{float(got.lo):.6g}, {float(got.hi):.6g}], enumerated "
                f"[{float(spec[0]):.6g}, {float(spec[1]):.6g}]"
            )
    return out


def _certified(laws: ProductLaws, lo: Fraction, hi: Fraction, delta: Fraction) -> bool:
    """Whether the enumeration certifies ε(δ) ∈ (lo, hi]: δ(hi) ≤ δ from above (H at the lower
    bound of e^hi, its window term added), and lo = 0 or δ(lo) > δ from below (H at the upper
    bound of e^lo)."""
    if hockey_stick_enclosure(laws, exp_bounds(hi)[0])[1] > delta:
        return False
    return lo == 0 or hockey_stick_enclosure(laws, exp_bounds(lo)[1])[0] > delta


def _refuted(laws: ProductLaws, lo: Fraction, hi: Fraction, delta: Fraction) -> bool:
    """Whether the enumeration proves ε(δ) ∉ (lo, hi]: δ(hi) > δ from below, or lo > 0 and
    δ(lo) ≤ δ from above."""
    if hockey_stick_enclosure(laws, exp_bounds(hi)[1])[0] > delta:
        return True
    return lo > 0 and hockey_stick_enclosure(laws, exp_bounds(lo)[0])[1] <= delta


def _compare_epsilon(
    pld: LossDistribution, laws: ProductLaws, window: bool, tally: Tally
) -> list[str]:
    """The ε(δ) brackets certified by the enumeration; one the enumeration cannot decide is
    allowed on a window only, and one it refutes never."""
    out = []
    for delta in DELTAS:
        got = pld.epsilon_at(delta, WIDTH)
        where = f"eps({delta}) bracket [{float(got.lo):.6g}, {float(got.hi):.6g}]"
        if not isinstance(got.hi, Fraction):  # ∞: no finite ε
            if not unreached_mass(laws) > delta:
                out.append(f"{where}, but the mass Q^k misses is {unreached_mass(laws)}")
            continue
        lo, hi = Fraction(got.lo), Fraction(got.hi)
        tally.widest = max(tally.widest, hi - lo)
        if hi - lo > WIDTH:
            out.append(f"{where} wider than {WIDTH}")
        if _certified(laws, lo, hi, delta):
            tally.certified += 1
        elif _refuted(laws, lo, hi, delta):
            out.append(f"{where} refuted by the enumeration")
        elif window:
            tally.undecided += 1
        else:
            out.append(f"{where} neither certified nor refuted by the exact enumeration")
    return out


def compare(inst: Instance, config: VerifyConfig, tally: Tally) -> None:
    """Every rate, copy count and direction of one instance."""
    base = inst.curve()
    for rate in inst.rates:
        curve = base if rate is None else subsampled(base, rate)
        composed = [curve.power(k) for k in range(1, COPIES + 1)]
        for label, p, q, side in _directions(inst, rate):
            laws = product_laws_upto(p, q, COPIES)
            for k, (product, c) in enumerate(zip(laws, composed, strict=True), 1):
                pld = side(c)
                found = _compare_ratio(pld, product, inst.window)
                found += _compare_level(pld, product, inst.window)
                found += _compare_epsilon(pld, product, inst.window, tally)
                tally.compared += 1
                where = f"{inst.name}, rate {rate}, {label}, {k} copies"
                for text in found:
                    tally.fail(config, f"{where}: {text}")
