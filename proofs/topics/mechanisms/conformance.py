"""Conformance checks of the basic mechanisms: ``sample`` / ``randomise`` against the exact law.

Each check runs the entry point a user calls on a small instance, tests its outcome frequencies
against the law the exact privacy obligation decides (α = 1e-6,
:mod:`dpspec.proofs.engine.conformance`) and runs the same entry point at 2ε as the control that
must be rejected. Both the rational-base constructor (the exact checks' path) and the ``epsilon=``
constructor (the users' path) are run.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import partial
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpspec.mechanisms import (
    DiscreteLaplaceMechanism,
    ExponentialMechanism,
    LaplaceMechanism,
    NoisyMajorityVote,
    RandomizedResponse,
    StabilityHistogram,
)
from dpspec.mechanisms.base import (
    count_nonzero,
    counts_by_value,
    discrete_laplace_for,
    float_discrete_laplace,
    mean_value,
)
from dpspec.mechanisms.stability_histogram import TAIL, discrete_threshold, stability_histogram
from dpspec.noise import DiscreteLaplaceNoise
from dpspec.proofs.engine.conformance import (
    ConformanceReport,
    conformance,
    conformance_rng,
    draws,
    outcome,
)
from dpspec.proofs.engine.registry import CheckOutcome, Method, Obligation, VerifyConfig
from dpspec.proofs.engine.seeds import BAYES_CONSISTENCY, THESIS
from dpspec.proofs.topics.mechanisms.checks import (
    discrete_laplace_exact,
    exponential_exact,
    laplace_lattice_exact,
    noisy_majority_exact,
    randomized_response_exact,
    stability_histogram_exact,
)
from dpspec.proofs.topics.mechanisms.verifiers import threshold_mistakes
from dpspec.spec.mechanisms import discrete_laplace_log_ratio
from dpspec.spec.privacy import (
    hockey_stick,
    satisfies_approx_dp,
    satisfies_ldp,
    satisfies_pure_dp,
    satisfies_pure_dp_losses,
)

Law = dict[Any, Any]


def _sampling(
    mech: Any, data: Any, tag: int, encode: Callable[[Any], Any] = np.asarray
) -> Callable[[int], Any]:
    """``k ↦ encode(mech.sample(data, k, rng))`` with the check's generator number ``tag``."""

    def draw(k: int) -> Any:
        return encode(mech.sample(data, k, conformance_rng(tag)))

    return draw


def _randomising(mech: RandomizedResponse, x: int, tag: int) -> Callable[[int], Any]:
    """``k ↦ mech.randomise([x] * k, rng)``: k independent reports of one user's value x."""

    def draw(k: int) -> Any:
        return mech.randomise(np.full(k, x), conformance_rng(tag))

    return draw


def _count(d: Any) -> int:
    return int(np.sum(np.asarray(d) == 1))


def _sample_vs_pmf(
    what: str,
    pairs: list[tuple[str, Any, Any]],
    data: Any,
    n: int,
    tag: int,
    window: tuple[Any, Any] | None = None,
) -> CheckOutcome:
    """For each (label, mechanism, the same at 2ε): ``sample`` on ``data`` against
    ``pmf(data, window)``, the 2ε twin as the control (generators numbered from ``tag``)."""
    reports = [
        conformance(
            f"{what} ({label})",
            good.pmf(data, window),
            _sampling(good, data, tag + i),
            _sampling(bad, data, tag + 50 + i),
            bad.pmf(data, window),
            n,
        )
        for i, (label, good, bad) in enumerate(pairs)
    ]
    return outcome(reports)


@Obligation(
    id="mechanisms.discrete-laplace.privacy",
    source=f"{BAYES_CONSISTENCY}:L117-121 (Def 2.1, Def 2.2, Thm 2.3)",
    claim="integer query of sensitivity Δ plus discrete Laplace ∝ e^{−ε|z|/Δ} is ε-DP",
    method=Method.EXACT,
    predicates=(satisfies_pure_dp,),
    impls=(
        DiscreteLaplaceMechanism,
        float_discrete_laplace,
        count_nonzero,
        mean_value,
        counts_by_value,
        discrete_laplace_for,
        DiscreteLaplaceNoise,
    ),
    entry_points=(DiscreteLaplaceMechanism.sample,),
    tests=("tests/test_verifiers.py::test_discrete_laplace_mutant_is_caught",),
    privacy=True,
    before=(discrete_laplace_exact,),
)
def discrete_laplace_conformance(config: VerifyConfig) -> CheckOutcome:
    """DiscreteLaplaceMechanism.sample against pmf (base 1/2 and ε = 1), control at 2ε."""
    pairs = [
        (
            "base 1/2",
            DiscreteLaplaceMechanism(_count, 1, base=Fraction(1, 2)),
            DiscreteLaplaceMechanism(_count, 1, base=Fraction(1, 4)),
        ),
        (
            "ε = 1",
            DiscreteLaplaceMechanism(_count, 1, 1.0),
            DiscreteLaplaceMechanism(_count, 1, 2.0),
        ),
    ]
    data = np.array([0, 1, 1, 1])
    return _sample_vs_pmf("discrete Laplace", pairs, data, draws(config, 100_000), 0, (-12, 18))


def sf_law(mech: LaplaceMechanism, data: Any, edges: NDArray[np.float64]) -> Law:
    """Law of the output binned at ``edges`` (bin −1: ≤ e_0, bin i: (e_i, e_{i+1}], the last bin
    above the last edge) from the mechanism's own ``sf`` — P(M(S) > t), the discrete Laplace
    survival function at the lattice point above t, or the continuous one when idealised."""
    sf = [float(mech.sf(data, float(t))) for t in edges]
    law: Law = {-1: 1.0 - sf[0]}
    for i in range(len(edges) - 1):
        law[i] = sf[i] - sf[i + 1]
    law[len(edges) - 1] = sf[-1]
    return law


def _binned(edges: NDArray[np.float64]) -> Callable[[Any], Any]:
    return lambda out: np.searchsorted(edges, out, side="left") - 1


@Obligation(
    id="mechanisms.laplace.privacy",
    source=f"{BAYES_CONSISTENCY}:L117-121 (Def 2.2, Thm 2.3)",
    claim="the float-safe Laplace mechanism (lattice snap + exact discrete noise) is ε-DP",
    method=Method.EXACT,
    predicates=(satisfies_pure_dp_losses, discrete_laplace_log_ratio),
    impls=(LaplaceMechanism,),
    entry_points=(LaplaceMechanism.sample,),
    privacy=True,
    before=(laplace_lattice_exact,),
)
def laplace_conformance(config: VerifyConfig) -> CheckOutcome:
    """LaplaceMechanism.sample, lattice (default) and idealised paths, against the law its
    ``sf`` states, 40 bins over ±4 scales; control: the mechanism at 2ε."""
    data = np.array([0.3, 0.7, 1.0])

    def query(d: Any) -> float:
        return float(np.clip(d, 0.0, 1.0).sum())

    n = draws(config, 100_000)
    reports = []
    for tag, idealised in enumerate((False, True)):
        good = LaplaceMechanism(query, 1.0, 0.5, idealised=idealised)
        bad = LaplaceMechanism(query, 1.0, 1.0, idealised=idealised)
        centre = float(good.value(data)[0])
        edges = centre + good.scale * np.linspace(-4.0, 4.0, 41)
        # exact: the law is symmetric about the (snapped) query value, so P(M > c) = 1/2
        # (idealised) and P(M > c) + P(M > c − γ) = 1 (lattice: P(Z ≥ 1) + P(Z ≥ 0))
        c = float(good.lattice_value(data)[0]) * good.granularity if not idealised else centre
        symmetric = (
            abs(float(good.sf(data, c)) - 0.5) < 1e-12
            if idealised
            else abs(float(good.sf(data, c)) + float(good.sf(data, c - good.granularity)) - 1)
            < 1e-12
        )
        reports.append(
            conformance(
                f"Laplace ({'idealised' if idealised else 'lattice'}), ε = 0.5",
                sf_law(good, data, edges),
                _sampling(good, data, 10 + tag, _binned(edges)),
                _sampling(bad, data, 12 + tag, _binned(edges)),
                sf_law(bad, data, edges),
                n,
            )
        )
        reports[-1].details["sf_symmetric"] = symmetric
        if not symmetric:
            reports[-1].pvalue = 0.0  # the stated law is not the Laplace law about f(S)
    return outcome(reports)


@Obligation(
    id="mechanisms.exponential.privacy",
    source=f"{THESIS}:L655 (exponential mechanism, corrected)",
    claim="P(a) ∝ exp(ε s(S,a)/(2Δ)) over a finite candidate set is ε-DP",
    method=Method.EXACT,
    predicates=(satisfies_pure_dp,),
    impls=(ExponentialMechanism,),
    entry_points=(ExponentialMechanism.sample,),
    privacy=True,
    before=(exponential_exact,),
)
def exponential_conformance(config: VerifyConfig) -> CheckOutcome:
    """ExponentialMechanism.sample against pmf (base 1/2 and ε = 1), control at 2ε."""
    data = np.array([[0, 0], [1, 1], [2, 1], [2, 0], [1, 0]])
    scores = threshold_mistakes([0, 1, 2, 3])
    n = draws(config, 60_000)
    pairs = [
        (
            "base 1/2",
            ExponentialMechanism(scores, 1, base=Fraction(1, 2)),
            ExponentialMechanism(scores, 1, base=Fraction(1, 4)),
        ),
        ("ε = 1", ExponentialMechanism(scores, 1, 1.0), ExponentialMechanism(scores, 1, 2.0)),
    ]
    return _sample_vs_pmf("exponential mechanism", pairs, data, n, 200)


@Obligation(
    id="mechanisms.randomized-response.privacy",
    source=f"{THESIS}:L429 (local DP; randomized response, Warner 1965)",
    claim="k-ary randomized response with keep-weight e^ε is ε-LDP",
    method=Method.EXACT,
    predicates=(satisfies_ldp, satisfies_pure_dp),
    impls=(RandomizedResponse,),
    entry_points=(RandomizedResponse.randomise,),
    privacy=True,
    before=(randomized_response_exact,),
)
def randomized_response_conformance(config: VerifyConfig) -> CheckOutcome:
    """RandomizedResponse.randomise against local_pmf for every input (ratio 3 and ε = 1, k = 3),
    control at 2ε (ratio 9, ε = 2)."""
    n = draws(config, 60_000)
    reports = []
    pairs = [
        (
            "ratio 3",
            RandomizedResponse(3, base=Fraction(1, 3)),
            RandomizedResponse(3, base=Fraction(1, 9)),
        ),
        ("ε = 1", RandomizedResponse(3, 1.0), RandomizedResponse(3, 2.0)),
    ]
    for i, (label, good, bad) in enumerate(pairs):
        for x in range(3):
            reports.append(
                conformance(
                    f"randomized response ({label}), x = {x}",
                    good.local_pmf(x),
                    _randomising(good, x, 40 + 3 * i + x),
                    _randomising(bad, x, 50 + 3 * i + x),
                    bad.local_pmf(x),
                    n,
                )
            )
    return outcome(reports)


@Obligation(
    id="mechanisms.noisy-majority.privacy",
    source=f"{BAYES_CONSISTENCY}:L193-206 (Alg 2, Thm 3.1 proof)",
    claim="PCL's per-cell noisy majority bits (empty cells included) are ε-DP",
    method=Method.EXACT,
    predicates=(satisfies_pure_dp,),
    impls=(NoisyMajorityVote,),
    entry_points=(NoisyMajorityVote.sample,),
    privacy=True,
    before=(noisy_majority_exact,),
)
def noisy_majority_conformance(config: VerifyConfig) -> CheckOutcome:
    """NoisyMajorityVote.sample: the joint law of the 3 cells' bits (independence included)
    against pmf, base 1/2 and ε = 1; control at 2ε."""
    data = np.array([[0, 1], [0, 1], [0, 0], [1, 0], [1, 0], [1, 1], [1, 0]])
    n = draws(config, 60_000)
    pairs = [
        (
            "base 1/2",
            NoisyMajorityVote(3, base=Fraction(1, 2)),
            NoisyMajorityVote(3, base=Fraction(1, 4)),
        ),
        ("ε = 1", NoisyMajorityVote(3, 1.0), NoisyMajorityVote(3, 2.0)),
        (
            "idealised ε = 1",
            NoisyMajorityVote(3, 1.0, idealised=True),
            NoisyMajorityVote(3, 2.0, idealised=True),
        ),
    ]
    return _sample_vs_pmf("noisy majority", pairs, data, n, 300)


def release_codes(released: NDArray[np.float64], cap: int) -> NDArray[Any]:
    """Releases as pmf outcomes: 0, the integer value below ``cap``, or ``TAIL`` (as −1)."""
    values = np.rint(released).astype(np.int64)
    return np.where(values >= cap, -1, values)


def _coded_law(law: dict[tuple[Any, ...], Any]) -> Law:
    return {tuple(-1 if v == TAIL else v for v in key): p for key, p in law.items()}


@Obligation(
    id="mechanisms.stability-histogram.privacy",
    source=f"{BAYES_CONSISTENCY}:L125-147 (Alg 1, Thm 2.4)",
    claim="the stability-based histogram is (ε,δ)-DP (exact δ on small instances)",
    method=Method.EXACT,
    predicates=(satisfies_approx_dp, hockey_stick),
    impls=(StabilityHistogram, discrete_threshold),
    entry_points=(
        StabilityHistogram.sample,
        StabilityHistogram.release_counts,
        stability_histogram,
    ),
    privacy=True,
    before=(stability_histogram_exact,),
)
def stability_histogram_conformance(config: VerifyConfig) -> CheckOutcome:
    """StabilityHistogram.sample (→ release_counts) and the function ``stability_histogram``
    against the exact law ``pmf`` on counts straddling the threshold; control at 2ε."""
    n = draws(config, 60_000)
    reports: list[ConformanceReport] = []
    for i, (good, bad) in enumerate(
        [
            (
                StabilityHistogram(3, base=Fraction(1, 2), delta=Fraction(1, 100)),
                StabilityHistogram(3, base=Fraction(1, 4), delta=Fraction(1, 100)),
            ),
            (StabilityHistogram(3, 1.0, 1e-3), StabilityHistogram(3, 2.0, 1e-3)),
        ]
    ):
        tau = int(good.threshold)
        # counts τ − 1, τ + 1 and 0: releases on both sides of the threshold and an empty cell
        data = np.array([0] * (tau - 1) + [1] * (tau + 1))
        cap = tau + 6
        label = "base 1/2" if i == 0 else "ε = 1"

        reports.append(
            conformance(
                f"stability histogram sample ({label})",
                _coded_law(good.pmf(data, (0, cap - 1))),
                _sampling(good, data, 80 + i, partial(release_codes, cap=cap)),
                _sampling(bad, data, 90 + i, partial(release_codes, cap=cap)),
                _coded_law(bad.pmf(data, (0, max(cap, int(bad.threshold)) - 1))),
                n,
            )
        )
    # the module-level function (used by the learners) on one occupied cell
    good_fn = StabilityHistogram(1, 1.0, 1e-3)
    tau = int(good_fn.threshold)
    cap = tau + 6

    def one_cell(eps: float, tag: int) -> Callable[[int], Any]:
        # k distinct cells with the same count τ in one call: k independent one-cell releases
        def run(k: int) -> Any:
            ids, vals = stability_histogram(
                np.repeat(np.arange(k), tau), eps, 1e-3, conformance_rng(tag)
            )
            out = np.zeros(k, dtype=np.float64)
            out[ids] = vals
            return release_codes(out, cap)

        return run

    k_fn = draws(config, 60_000)
    bad_fn = StabilityHistogram(1, 2.0, 1e-3)
    reports.append(
        conformance(
            "stability_histogram() on one cell (ε = 1)",
            {
                k[0]: p
                for k, p in _coded_law(
                    good_fn.pmf(np.zeros(tau, dtype=np.int64), (0, cap - 1))
                ).items()
            },
            one_cell(1.0, 95),
            one_cell(2.0, 96),
            {
                k[0]: p
                for k, p in _coded_law(
                    bad_fn.pmf(
                        np.zeros(tau, dtype=np.int64), (0, max(cap, int(bad_fn.threshold)) - 1)
                    )
                ).items()
            },
            k_fn,
        )
    )
    return outcome(reports)
