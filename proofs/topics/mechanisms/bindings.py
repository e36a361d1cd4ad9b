"""Binding of the mechanisms' lemmas to the code that runs: the stability histogram's release
rule, the discrete Laplace ratios and the exponential mechanism's exponents.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np
from hypothesis import strategies as st
from numpy.typing import NDArray

from dpspec.learners.semi_supervised import Dichotomies
from dpspec.mechanisms.exponential import ExponentialMechanism
from dpspec.mechanisms.stability_histogram import StabilityHistogram
from dpspec.noise import DiscreteLaplaceNoise
from dpspec.proofs.engine.bindings import Case, Mismatch, differential
from dpspec.proofs.engine.controls import BugControl
from dpspec.proofs.engine.registry import CheckOutcome, Method, Obligation, VerifyConfig
from dpspec.proofs.engine.seeds import BAYES_CONSISTENCY
from dpspec.proofs.topics.mechanisms.lemmas import (
    discrete_laplace_ratio_bound,
    em_log_weight_difference,
    em_normaliser_ratio,
    laplace_loss_bound,
    laplace_loss_bound_half_integers,
    laplace_loss_bound_half_integers_scale2,
    laplace_loss_vector_bound,
    stability_histogram_release,
    stability_release,
)
from dpspec.spec.sensitivity import mistakes


class _FixedNoise:
    """Stands in for a mechanism's noise object: ``sample`` returns the chosen draws."""

    def __init__(self, values: Sequence[int]) -> None:
        self.values = np.asarray(values, dtype=np.int64)

    def sample(self, size: int, rng: Any) -> NDArray[np.int64]:
        if size != self.values.size:
            raise Mismatch(f"the mechanism drew {size} noise values, expected {self.values.size}")
        return self.values.copy()


class _FixedLaplace(np.random.Generator):
    """A generator for the idealised path whose ``laplace`` returns chosen draws."""

    def __init__(self, values: Sequence[float]) -> None:
        super().__init__(np.random.PCG64(0))
        self.values = np.asarray(values, dtype=np.float64)

    def laplace(  # type: ignore[override]
        self, loc: float, scale: float, size: int
    ) -> NDArray[np.float64]:
        if size != self.values.size:
            raise Mismatch(f"the mechanism drew {size} noise values, expected {self.values.size}")
        return self.values.copy()


def _stability_mechanisms() -> list[Any]:
    from dpspec.mechanisms.stability_histogram import StabilityHistogram

    return [
        StabilityHistogram(bins=None, base=Fraction(1, 2), delta=Fraction(1, 1000)),
        StabilityHistogram(bins=None, epsilon=1.0, delta=1e-6),
        StabilityHistogram(bins=None, epsilon=0.5, delta=1e-3, idealised=True),
    ]


def _compare_stability(mechs: list[Any]) -> Callable[[Case], str | None]:
    from dpspec.proofs.topics.mechanisms.lemmas import (
        stability_histogram_release,
        stability_release,
    )

    def compare(case: Case) -> str | None:
        mech = mechs[case["mech"]]
        tau = mech.threshold
        counts = list(case["counts"])
        # the draws are offsets from the threshold, so τ − count, τ − count − 1, ... are hit
        noise_all = [tau - c + off for c, off in zip(counts, case["offsets"], strict=True)]
        occupied = [k for k, c in enumerate(counts) if c > 0]
        draws = [noise_all[k] for k in occupied]
        if mech.idealised:
            out = mech.release_counts(np.asarray(counts, dtype=np.int64), _FixedLaplace(draws))
        else:
            saved = mech.noise
            mech.noise = _FixedNoise([int(z) for z in draws])
            try:
                out = mech.release_counts(
                    np.asarray(counts, dtype=np.int64), np.random.default_rng(0)
                )
            finally:
                mech.noise = saved
        expected = [stability_release(c, z, tau) for c, z in zip(counts, noise_all, strict=True)]
        whole = stability_histogram_release(tuple(counts), tuple(noise_all), tau)
        if list(whole) != expected:
            return f"stability_histogram_release {whole} != cellwise {expected}"
        if [float(v) for v in out] != [float(v) for v in expected]:
            return f"release_counts gave {list(out)}, the lemma's rule {expected} (tau={tau})"
        return None

    return compare


@Obligation(
    id="mechanisms.stability-histogram.lemma-binding",
    source=f"{BAYES_CONSISTENCY}:L132-140 (Alg 1 release rule)",
    claim=(
        "StabilityHistogram.release_counts (exact, float-eps and idealised paths, noise "
        "injected) equals the lemma's stability_release cell by cell"
    ),
    method=Method.PROPERTY,
    predicates=(stability_release, stability_histogram_release),
    impls=(StabilityHistogram.release_counts,),
    tests=("tests/test_lemma_bindings.py::test_binding_checks_catch_a_broken_rule",),
    bug_controls=(
        BugControl(
            StabilityHistogram.release_counts,
            "noisy >= self.threshold",
            "noisy > self.threshold",
            "a count equal to the threshold dropped (> for >=)",
        ),
        BugControl(
            StabilityHistogram.release_counts,
            "noisy >= self.threshold",
            "noisy >= self.threshold - 1",
            "the threshold off by one",
        ),
    ),
)
def stability_release_binding(config: VerifyConfig) -> CheckOutcome:
    """``StabilityHistogram.release_counts`` (exact, float-ε and idealised paths) equals
    :func:`dpspec.proofs.topics.mechanisms.lemmas.stability_release` cell by cell, the noise
    injected."""
    mechs = _stability_mechanisms()
    boundaries = [
        {"mech": m, "counts": counts, "offsets": offsets}
        for m in range(len(mechs))
        for counts, offsets in (
            ((1,), (0,)),  # count + noise == τ: released
            ((1,), (-1,)),  # one below τ: 0
            ((1,), (1,)),
            ((0,), (0,)),  # empty cell: never released, even when noise would reach τ
            ((0, 1, 2), (5, 0, -1)),
            ((3, 0, 7), (-1, 3, 0)),
            ((), ()),
        )
    ]
    pairs = st.lists(st.tuples(st.integers(0, 12), st.integers(-4, 4)), max_size=6)
    strategy = st.builds(
        lambda m, cz: {
            "mech": m,
            "counts": tuple(c for c, _ in cz),
            "offsets": tuple(z for _, z in cz),
        },
        st.integers(0, len(mechs) - 1),
        pairs,
    )
    return differential(config, boundaries, strategy, _compare_stability(mechs))


def _compare_discrete_laplace(case: Case) -> str | None:
    from dpspec.noise import DiscreteLaplaceNoise
    from dpspec.proofs.topics.mechanisms import lemmas

    q, y, a, a2 = case["q"], case["y"], case["a"], case["a_prime"]
    noise = DiscreteLaplaceNoise(base=q)

    def ratio(yy: int, aa: int, bb: int) -> Fraction:
        return Fraction(noise.pmf(yy - aa)) / Fraction(noise.pmf(yy - bb))

    k = lemmas.discrete_laplace_ratio_bound(y, a, a2)
    if ratio(y, a, a2) != q ** (-k):
        return f"pmf ratio {ratio(y, a, a2)} != q^(-k) with the lemma's k = {k}"
    # The Laplace loss in units of 1/ln(1/q): p_a(y)/p_a'(y) = q^(-b·loss(y, a, a', b)).
    if ratio(y, a, a2) != q ** (-lemmas.laplace_loss_bound(y, a, a2, 1)):
        return "pmf ratio != q^(-laplace_loss_bound(y, a, a', 1))"
    # Half-integer centres y/2, a/2, a'/2 on the half-lattice: loss·2 is the lattice exponent.
    half = lemmas.laplace_loss_bound_half_integers(y, a, a2)
    if ratio(y, a, a2) != q ** (-int(2 * half)):
        return f"pmf ratio != q^(-2·half-integer loss {half})"
    half2 = lemmas.laplace_loss_bound_half_integers_scale2(a - y, a2 - y)
    if ratio(y, a, a2) != q ** (-int(4 * half2)):
        return f"pmf ratio != q^(-4·half-integer loss at scale 2 {half2})"
    # i.i.d. coordinates: the product of the pmf ratios is q^(-b·vector loss at scale b).
    ys, as_, a2s = (y, a - 1, a2), (a, a2, y), (a2, y + 1, a)
    product = Fraction(1)
    for yj, aj, a2j in zip(ys, as_, a2s, strict=True):
        product *= ratio(yj, aj, a2j)
    for b in (1, 2):
        vec = lemmas.laplace_loss_vector_bound(ys, as_, a2s, b)
        if product != q ** (-int(b * vec)):
            return f"product of pmf ratios != q^(-{b}·vector loss {vec})"
    return None


@Obligation(
    id="mechanisms.discrete-laplace.lemma-binding",
    source=f"{BAYES_CONSISTENCY}:L119-121 (Laplace / discrete Laplace privacy loss)",
    claim=(
        "the pmf ratio of DiscreteLaplaceNoise is q^-k with k the lemma functions' "
        "values (scalar, half-integer, scale 2, vector)"
    ),
    method=Method.PROPERTY,
    predicates=(
        discrete_laplace_ratio_bound,
        laplace_loss_bound,
        laplace_loss_bound_half_integers,
        laplace_loss_bound_half_integers_scale2,
        laplace_loss_vector_bound,
    ),
    impls=(DiscreteLaplaceNoise.pmf,),
    tests=("tests/test_lemma_bindings.py::test_binding_checks_catch_a_broken_rule",),
    bug_controls=(
        BugControl(
            "dpspec.noise._closed_forms.discrete_laplace_pmf",
            "two_sided_pmf(z, base)",
            "two_sided_pmf(2 * z, base)",
            "the pmf at twice the distance (the law of noise for 2ε)",
        ),
    ),
)
def discrete_laplace_binding(config: VerifyConfig) -> CheckOutcome:
    """The implementation's discrete Laplace pmf (:class:`dpspec.noise.DiscreteLaplaceNoise`,
    the noise of every exact mechanism) has ratio ``p_a(y)/p_{a'}(y) = q^{-k}`` with ``k`` the
    lemma function's value, exactly (rational base)."""
    bases = [Fraction(1, 2), Fraction(1, 3), Fraction(2, 3), Fraction(9, 10)]
    boundaries = [
        {"q": q, "y": y, "a": a, "a_prime": a2}
        for q in bases
        for y, a, a2 in ((0, 0, 0), (0, 0, 1), (1, 0, 1), (5, 0, 1), (-5, 0, 1), (0, 3, -3))
    ]
    ints = st.integers(-30, 30)
    strategy = st.fixed_dictionaries(
        {"q": st.sampled_from(bases), "y": ints, "a": ints, "a_prime": ints}
    )
    return differential(config, boundaries, strategy, _compare_discrete_laplace)


def _compare_exponential(case: Case) -> str | None:
    from dpspec.mechanisms.exponential import ExponentialMechanism
    from dpspec.proofs.topics.mechanisms.lemmas import em_log_weight_difference, em_normaliser_ratio

    scores = np.asarray(case["scores"], dtype=np.int64)
    delta, en, ed = case["delta"], case["eps_num"], case["eps_den"]
    mech = ExponentialMechanism(lambda d: d, delta, epsilon=Fraction(en, ed))
    a, d = mech._exponents(scores)
    top = int(scores.max())
    for i, s in enumerate(scores.tolist()):
        lemma = em_log_weight_difference(top, s, delta, en, ed)
        if Fraction(int(a[i]), d) != lemma:
            return f"candidate {i}: impl exponent {a[i]}/{d} != lemma {lemma}"
    base = case["base"]
    exact = ExponentialMechanism(lambda d: d, delta, base=base)
    # a neighbour's scores: each moves by at most Δ (the lemma's per-weight precondition)
    shift = np.asarray(case.get("shift", (0,) * scores.size), dtype=np.int64)[: scores.size]
    shift = np.resize(shift, scores.size) if shift.size else np.zeros_like(scores)
    neighbour = scores + np.clip(shift, -delta, delta)
    # absolute weights q^(−s_i) (the base already holds the ½ and Δ: q = e^(−ε/(2Δ))), as
    # integers over one common denominator for both datasets: W_i = num^(E − e_i) · den^e_i
    low = int(min(scores.min(), neighbour.min()))
    exps = [[s - low for s in v.tolist()] for v in (scores, neighbour)]
    top_e = max(max(e) for e in exps)
    weights = [
        tuple(base.numerator ** (top_e - e) * base.denominator**e for e in es) for es in exps
    ]
    ratio = base ** (-delta)
    z, z_prime = em_normaliser_ratio(weights[0], weights[1], ratio.numerator, ratio.denominator)
    for v, w, norm in ((scores, weights[0], z), (neighbour, weights[1], z_prime)):
        pmf = exact.pmf(v)
        for i, wi in enumerate(w):
            if Fraction(pmf[i]) != Fraction(wi, norm):
                return (
                    f"scores {v.tolist()}, candidate {i}: impl pmf {pmf[i]} != w_i/Z = {wi}/{norm}"
                )
    return None


#: (kind, points) → the domain, its dichotomies and each candidate's labels on the domain.
_Candidates = dict[tuple[str, int], tuple[Any, Any, list[tuple[int, ...]]]]


def _candidates(kind: str, points: int, cache: _Candidates) -> tuple[Any, Any, list[Any]]:
    """:func:`dichotomies` on the domain 0..points−1 and every candidate's predictions there,
    computed once per (kind, points) for one run of the check (a pure function of them)."""
    from dpspec.learners.semi_supervised import dichotomies

    found = cache.get((kind, points))
    if found is None:
        domain = np.arange(points, dtype=np.float64)
        cands = dichotomies(kind, domain.reshape(-1, 1))
        labels = [
            tuple(int(v) for v in cands.predict(i, domain.reshape(-1, 1)))
            for i in range(cands.size)
        ]
        found = cache[(kind, points)] = (domain, cands, labels)
    return found


def _compare_mistakes(case: Case, cache: _Candidates) -> str | None:
    from dpspec.spec.sensitivity import mistakes

    domain, cands, labels = _candidates(case["kind"], case["points"], cache)
    xs, ys = case["xs"], case["ys"]
    X = domain[list(xs)].reshape(-1, 1)
    got = cands.mistakes(X, np.asarray(ys, dtype=np.int64))
    records = list(zip(xs, ys, strict=True))
    for i, candidate in enumerate(labels):
        if int(got[i]) != mistakes(records, candidate):
            return f"candidate {i}: impl mistakes {got[i]} != spec {mistakes(records, candidate)}"
    return None


def _reduce_mistakes(c: dict[str, Any]) -> Case:
    return {
        "kind": "mistakes",
        "kind_h": c["kind_h"],
        "points": c["points"],
        "xs": tuple(x % c["points"] for x, _ in c["records"]),
        "ys": tuple(y for _, y in c["records"]),
    }


@Obligation(
    id="mechanisms.exponential.lemma-binding",
    source=(
        "002_9f3104e4a0d86722.txt:L655 (corrected exponential mechanism); "
        f"{BAYES_CONSISTENCY}:L349 (score = -mistakes)"
    ),
    claim=(
        "ExponentialMechanism exponents == lemma log-weight difference, pmf == w/Z with "
        "the lemma's normaliser, Dichotomies.mistakes == spec mistakes"
    ),
    method=Method.PROPERTY,
    predicates=(em_log_weight_difference, em_normaliser_ratio, mistakes),
    impls=(ExponentialMechanism.pmf, Dichotomies.mistakes),
    tests=("tests/test_lemma_bindings.py::test_binding_checks_catch_a_broken_rule",),
    bug_controls=(
        BugControl(
            "dpspec.mechanisms.exponential.ExponentialMechanism.__init__",
            "c = 2 if half else 1",
            "c = 1",
            "the weights without the ½ whatever half says",
        ),
    ),
)
def exponential_binding(config: VerifyConfig) -> CheckOutcome:
    """The exponential mechanism's exponents ``a_i/d`` equal the lemma's log-weight difference
    ε(max s − s_i)/(2Δ), its exact pmf on scores s and on a neighbour's scores s' (each moved
    by at most Δ) equals w_i/Z and w'_i/Z' with (Z, Z') the lemma's normalisers, and the
    semi-supervised learner's vectorised mistake counts equal :func:`mistakes` (the score the
    lemma bounds) for every dichotomy."""
    base = Fraction(1, 2)
    boundaries: list[Case] = [
        {"kind": "em", "scores": (0,), "delta": 1, "eps_num": 1, "eps_den": 1, "base": base},
        {"kind": "em", "scores": (0, 0), "delta": 1, "eps_num": 1, "eps_den": 2, "base": base},
        {"kind": "em", "scores": (0, -3), "delta": 3, "eps_num": 4, "eps_den": 1, "base": base},
        {"kind": "mistakes", "kind_h": "threshold", "points": 1, "xs": (0,), "ys": (1,)},
        {"kind": "mistakes", "kind_h": "interval", "points": 3, "xs": (0, 2), "ys": (1, 0)},
    ]
    em = st.builds(
        lambda s, dl, en, ed, b, sh: {
            "kind": "em",
            "scores": tuple(s),
            "delta": dl,
            "eps_num": en,
            "eps_den": ed,
            "base": b,
            "shift": tuple(sh),
        },
        st.lists(st.integers(-8, 0), min_size=1, max_size=5),
        st.integers(1, 3),
        st.integers(1, 4),
        st.integers(1, 2),
        st.sampled_from([Fraction(1, 2), Fraction(2, 3), Fraction(1, 5)]),
        st.lists(st.integers(-3, 3), min_size=1, max_size=5),
    )
    mis = st.fixed_dictionaries(
        {
            "kind": st.just("mistakes"),
            "kind_h": st.sampled_from(["threshold", "interval"]),
            "points": st.integers(1, 4),
            "records": st.lists(
                st.tuples(st.integers(0, 11), st.integers(0, 1)), min_size=1, max_size=6
            ),
        }
    ).map(_reduce_mistakes)

    candidates: _Candidates = {}  # per run of the check: a planted bug is in place throughout

    def compare(case: Case) -> str | None:
        if case["kind"] == "em":
            return _compare_exponential(case)
        return _compare_mistakes({**case, "kind": case["kind_h"]}, candidates)

    return differential(config, boundaries, st.one_of(em, mis), compare)
