"""Chaudhuri & Hsu, "Sample Complexity Bounds for Differentially Private Learning" (seed 004),
as predicates on exact rationals.

Line numbers refer to ``004_2f105cca2f6050df.txt``. The paper writes α for the privacy
parameter and ε, δ for accuracy and confidence; these predicates call privacy ``epsilon`` (the
paper's α) as every dpspec signature does, and keep ``accuracy`` for the paper's ε.

* Metric notions (L164–168): G is an r-**cover** of (H, ρ) when every h has some g ∈ G with
  ρ(h, g) ≤ r (non-strict); an r-**packing** when distinct members are at distance > r
  (strict). A maximal r-packing is an r-cover (:func:`greedy_packing`).
* Smoothness (Def 6, L244): D is κ-smooth w.r.t. 𝒰 when D(A) ≤ κ 𝒰(A) for every event A; on a
  finite domain the least κ is κ* = max_x D(x)/𝒰(x) (:func:`smoothness`), and Lemma 19
  (L500) follows: ρ_D ≤ κ ρ_𝒰 (:func:`distances_dominated`).
* The packing inequality (from Thm 5's proof, L212–228): an α-private learner run on datasets
  S_z, pairwise at most m substitutions apart, with disjoint success sets 𝒢_z, has
  q_z + e^{−αm} Σ_{z'≠z} q_{z'} ≤ 1 for every z, where q_z = P(A(S_z) ∈ 𝒢_z)
  (:func:`satisfies_packing_inequality`). A violation proves the learner is not α-private.
* Lemma 18 (L481–497), the exponential mechanism's tail: with p_i ∝ e^{−a_i},
  P(a_j ≥ a_{i₀} + t) ≤ |I| e^{−t} (:func:`exponential_tail_holds`).
* Lemma 11's conclusion (L358–365, corrected: "> 1/2"; the paper prints "≤ 1/2"):
  :func:`lemma11_conclusion`.
* Doubling dimension at a scale (L168) on a finite metric space, exactly: ddim_r = log₂ N_r with
  N_r the largest, over the balls B(z, r), of the fewest (r/2)-balls covering one
  (:func:`doubling_count`); the largest strict packing of a set (:func:`max_packing_size`);
  Lemma 15 (L441–447, corrected direction "ddim_r ≥ d"): :func:`lemma15_conclusion`.
* Thm 12's hypothesis (L369–373): :func:`thm12_condition`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from fractions import Fraction
from itertools import combinations
from typing import TypeVar

H = TypeVar("H")
X = TypeVar("X", bound=Hashable)
Num = Fraction | int


def smoothness(d: Mapping[X, Num], u: Mapping[X, Num]) -> Fraction | None:
    """κ* = max_x D(x)/𝒰(x) over the support of D: the least κ with D(A) ≤ κ 𝒰(A) for all A
    (Def 6); None when D puts mass where 𝒰 has none (no finite κ)."""
    best = Fraction(0)
    for x, px in d.items():
        if px == 0:
            continue
        ux = u.get(x, 0)
        if ux == 0:
            return None
        best = max(best, Fraction(px) / Fraction(ux))
    return best


def is_smooth(d: Mapping[X, Num], u: Mapping[X, Num], kappa: Num) -> bool:
    """Whether D is κ-smooth w.r.t. 𝒰 (Def 6): D(x) ≤ κ 𝒰(x) pointwise, which on a finite
    domain is D(A) ≤ κ 𝒰(A) for every event A (sum the pointwise bounds)."""
    return all(px <= kappa * u.get(x, 0) for x, px in d.items())


def disagreement(d: Mapping[X, Num], h: Mapping[X, int], g: Mapping[X, int]) -> Fraction:
    """ρ_D(h, g) = D({x : h(x) ≠ g(x)}) for hypotheses given as labels on D's domain."""
    return sum((Fraction(p) for x, p in d.items() if h[x] != g[x]), Fraction(0))


def distances_dominated(
    d: Mapping[X, Num], u: Mapping[X, Num], kappa: Num, hypotheses: Sequence[Mapping[X, int]]
) -> bool:
    """Lemma 19 on the given hypotheses: ρ_D(h, g) ≤ κ ρ_𝒰(h, g) for every pair."""
    return all(
        disagreement(d, h, g) <= kappa * disagreement(u, h, g)
        for i, h in enumerate(hypotheses)
        for g in hypotheses[i + 1 :]
    )


def is_cover(
    space: Sequence[H], members: Sequence[H], distance: Callable[[H, H], Num], radius: Num
) -> bool:
    """Every point of ``space`` is within ``radius`` (≤) of some member."""
    return all(any(distance(h, g) <= radius for g in members) for h in space)


def is_packing(members: Sequence[H], distance: Callable[[H, H], Num], radius: Num) -> bool:
    """Distinct members are more than ``radius`` apart (strict, as at L166)."""
    return all(distance(a, b) > radius for i, a in enumerate(members) for b in members[i + 1 :])


def greedy_packing(space: Sequence[H], distance: Callable[[H, H], Num], radius: Num) -> list[H]:
    """A maximal strict ``radius``-packing of ``space`` (scan, keep a point when it is more
    than ``radius`` from every kept one); being maximal, it is also a ``radius``-cover."""
    kept: list[H] = []
    for h in space:
        if all(distance(h, g) > radius for g in kept):
            kept.append(h)
    return kept


def packing_size_bound(radius: Num, scale: Num, dimension: int) -> Fraction:
    """Lemma 14 (L437): a ``scale``-packing of a ball of radius r in a space of doubling
    dimension d has at most (4r/ε)^d members — for ε ≤ 4r only: beyond, the bound is < 1
    while every non-empty ball has a one-point packing."""
    return (4 * Fraction(radius) / Fraction(scale)) ** dimension


def satisfies_packing_inequality(q: Sequence[Num | float], ratio: Num | float) -> bool:
    """For every z: q_z + Σ_{z'≠z} q_{z'} / ratio ≤ 1, with ratio = e^{αm} (stated division-free:
    ratio·q_z + (Σ q − q_z) ≤ ratio). Holds for every α-private learner on datasets at most m
    substitutions apart with disjoint success sets (group privacy, Lemma 22, and Eq. (1)–(2)
    of Thm 5's proof); summing gives Σ q_z ≤ e^{αm}."""
    total = sum(q)
    return all(ratio * qz + (total - qz) <= ratio for qz in q)


def exponential_tail_holds(a: Sequence[float], i0: int, t: float, rtol: float = 1e-12) -> bool:
    """Lemma 18 part 2 on one weight vector: with p_i ∝ e^{−a_i},
    P(a_j ≥ a_{i₀} + t) ≤ |I| e^{−t} (floats; ``rtol`` relative slack)."""
    low = min(a)
    w = [math.exp(low - ai) for ai in a]
    tail = sum(wi for wi, ai in zip(w, a, strict=True) if ai >= a[i0] + t) / sum(w)
    return tail <= len(a) * math.exp(-t) * (1 + rtol)


def lemma11_condition(m: int, packing_size: int, epsilon: float, s: Num) -> bool:
    """Lemma 11's hypothesis (L361): m < log(|P|/2 − 1)/(8αs), α = ``epsilon``."""
    return packing_size > 4 and m < math.log(packing_size / 2 - 1) / (8 * epsilon * float(s))


def lemma11_conclusion(miss: Sequence[float], *, printed: bool = False) -> bool:
    """Lemma 11's conclusion given miss_h = P(A(S_{X,h}) ∉ B_X(h, s/2)) for each h ∈ P: at
    least |P|/2 of them are > 1/2 (corrected, as the proof at L670–690 shows) — or, as printed
    at L365, ≤ 1/2."""
    hits = sum(1 for v in miss if (v <= 0.5 if printed else v > 0.5))
    return 2 * hits >= len(miss)


def threshold_family_error(tau: Fraction, z: Fraction, eta: Fraction) -> Fraction:
    """err_z(h_τ) under P_z of Thm 5's proof (L200–205): D_z = ½ Unif[0, 1] + ½ Unif(G_z),
    G_z = [z − η/3, z + η/3], label 1 iff x ≥ z; h_τ(x) = 1 iff x ≥ τ. The disagreement is
    [min(τ, z), max(τ, z)): ½|τ − z| + (3/(4η))·|[min, max] ∩ G_z|."""
    lo, hi = min(tau, z), max(tau, z)
    overlap = max(Fraction(0), min(hi, z + eta / 3) - max(lo, z - eta / 3))
    return abs(tau - z) / 2 + 3 * overlap / (4 * eta)


#: Most distributions :func:`threshold_family` lists (K ≈ 4e^{αM}: αM ≤ ln 2^14 ≈ 9.7).
MAX_FAMILY = 2**16


def family_size(epsilon: Num | float, horizon: int) -> int:
    """K = ⌊1/η⌋ − 1 of Thm 5's family, from αM alone (α = ``epsilon``), without listing it;
    ``MAX_FAMILY + 1`` when it is larger (e^{αM} beyond the float range included)."""
    exponent = float(epsilon) * horizon
    if exponent > math.log(MAX_FAMILY):
        return MAX_FAMILY + 1
    eta = 1 / (6 + 4 * Fraction(math.exp(exponent)) * (1 + Fraction(1, 2**40)))
    return math.floor(1 / eta) - 1


def threshold_family(epsilon: Num | float, horizon: int) -> tuple[Fraction, list[Fraction]]:
    """(η, Z) of Thm 5's proof (L212), α = ``epsilon``, with e^{αM} rounded *up* to a rational
    (so η is rounded down and the G_z stay disjoint): η = 1/(6 + 4e^{αM}),
    Z = {η, 2η, …, Kη}, K = ⌊1/η⌋ − 1; refused (ValueError) when K > ``MAX_FAMILY``."""
    if family_size(epsilon, horizon) > MAX_FAMILY:
        raise ValueError(
            f"epsilon: Thm 5's family at αM = {float(epsilon) * horizon:.4g} has about "
            f"4e^(αM) distributions; the limit is {MAX_FAMILY} "
            f"(αM <= {math.log(MAX_FAMILY / 4):.3g})"
        )
    # math.exp is within one ulp (relative 2^-52): the slack makes ``growth`` ≥ e^{αM}
    growth = Fraction(math.exp(float(epsilon) * horizon)) * (1 + Fraction(1, 2**40))
    eta = 1 / (6 + 4 * growth)
    count = math.floor(1 / eta) - 1
    return eta, [k * eta for k in range(1, count + 1)]


def ball(space: Sequence[H], distance: Callable[[H, H], Num], center: H, radius: Num) -> list[H]:
    """B(z, r) = {z' : ρ(z, z') ≤ r} (closed, L164)."""
    return [h for h in space if distance(center, h) <= radius]


def min_cover_size(
    targets: Sequence[H], centers: Sequence[H], distance: Callable[[H, H], Num], radius: Num
) -> int:
    """The fewest balls of ``radius`` centred in ``centers`` covering ``targets`` (exhaustive
    search by size: for small finite spaces only)."""
    covers = [
        frozenset(i for i, t in enumerate(targets) if distance(c, t) <= radius) for c in centers
    ]
    everything = frozenset(range(len(targets)))
    for k in range(0, len(centers) + 1):
        for chosen in combinations(covers, k):
            if frozenset().union(*chosen) == everything:
                return k
    raise ValueError("centers: the balls do not cover the targets")


def doubling_count(space: Sequence[H], distance: Callable[[H, H], Num], radius: Num) -> int:
    """N_r = max over z of the fewest (r/2)-balls (centred in the space) covering B(z, r); the
    doubling dimension at scale r (L168) is ddim_r = log₂ N_r (the least d with ⌊2^d⌋ ≥ N_r)."""
    half = Fraction(radius) / 2
    return max(
        min_cover_size(ball(space, distance, z, radius), space, distance, half) for z in space
    )


def max_packing_size(points: Sequence[H], distance: Callable[[H, H], Num], radius: Num) -> int:
    """The size of the largest strict ``radius``-packing inside ``points`` (exhaustive)."""
    for k in range(len(points), 0, -1):
        for chosen in combinations(points, k):
            if is_packing(chosen, distance, radius):
                return k
    return 0


def lemma15_conclusion(
    space: Sequence[H], distance: Callable[[H, H], Num], radius: Num, d: float
) -> bool:
    """Lemma 15's conclusion (L443): some ball B(z, r) has an (r/2)-packing of ≥ 2^d points."""
    half = Fraction(radius) / 2
    best = max(max_packing_size(ball(space, distance, z, radius), distance, half) for z in space)
    return best >= 2**d


def thm12_condition(m: int, doubling: int, epsilon: float, accuracy: Num) -> bool:
    """Thm 12's hypothesis (L369–371), α = ``epsilon``, with d'' = ddim_{4ε} − 1 and
    ddim_{4ε} = log₂ ``doubling`` (N_{4ε} of :func:`doubling_count`): ε ≤ 1/2 and
    m ≤ (d'' − 1) log 2/α."""
    d2 = math.log2(doubling) - 1
    return Fraction(accuracy) <= Fraction(1, 2) and m <= (d2 - 1) * math.log(2) / epsilon
