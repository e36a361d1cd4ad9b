"""Algorithm 10's explicit sample size (Lemma 7.1.5 made explicit), against the exact law of
the histogram it runs (``adaptive.algorithm-10.sample-size``)."""

from __future__ import annotations

import math

from dpspec.adaptive import DeviatingAlgorithm, minimum_sample_size
from dpspec.mechanisms.stability_histogram import StabilityHistogram
from dpspec.proofs.engine.controls import BugControl
from dpspec.proofs.engine.registry import (
    STATED_BOUND,
    CheckOutcome,
    Control,
    Method,
    Obligation,
    Slack,
    VerifyConfig,
)
from dpspec.proofs.engine.seeds import THESIS

#: the grid of (ψ, ε, δ, β) the explicit sample size is checked on (each axis at its ends and
#: inside; 81 points)
SAMPLE_SIZE_GRID = {
    "psi": (0.05, 0.3, 0.9),
    "epsilon": (0.1, 1.0, 4.0),
    "delta": (1e-12, 1e-6, 0.05),
    "beta": (0.001, 0.05, 0.3),
}


@Obligation(
    id="adaptive.algorithm-10.sample-size",
    source=f"{THESIS}:L2056 (Lemma 7.1.5: n ≥ O((1/ψε) log(1/βδ)), made explicit)",
    claim=(
        "with n = minimum_sample_size(ψ, ε, δ, β) a cell of count ⌈nψ/2⌉ is released by "
        "Algorithm 10's histogram with probability ≥ 1 − β, exactly, on an 81-point "
        "grid; 0.8 n falls short"
    ),
    method=Method.EXACT,
    no_predicate=f"{STATED_BOUND}: the exact release probability of a count ⌈nψ/2⌉ against 1 − β",
    impls=(minimum_sample_size,),
    entry_points=(minimum_sample_size, StabilityHistogram.release_probability),
    tests=("tests/test_adaptive.py::test_deviating_algorithm",),
    bug_controls=(
        BugControl(
            minimum_sample_size,
            "value = (2 / psi) * (1 + (2 / epsilon) * (-math.log(beta) + threshold_log))",
            "value = (2 / psi) * (1 + (2 / epsilon) * (-math.log(beta) - math.log(delta)))",
            "the explicit n without its ln(1 + e^ε) term (the form before this check)",
        ),
    ),
)
def minimum_sample_size_suffices(config: VerifyConfig) -> CheckOutcome:
    """The explicit n of Lemma 7.1.5 (:func:`minimum_sample_size`, which the lemma states only
    as O((1/ψε) log(1/βδ)), L2056) does what its derivation needs, checked against the exact
    law of the histogram Algorithm 10 runs, not against the formula: with n draws a value of
    frequency ψ appears at least ⌈nψ/2⌉ times except with probability e^{−nψ/8} (Chernoff), and
    a cell of that count is released by ``DeviatingAlgorithm``'s stability histogram with
    probability ≥ 1 − β — exactly (``release_probability``, the noise's exact tail), on every
    point of :data:`SAMPLE_SIZE_GRID`. The control (on the same grid, the same exact law): 80%
    of that n, a bound 20% too small, falls short of 1 − β somewhere."""
    from itertools import product as grid

    worst, tightest, short, rows = math.inf, (1.0, 1.0), 0, 0
    for psi, eps, delta, beta in grid(*SAMPLE_SIZE_GRID.values()):
        n = minimum_sample_size(psi, eps, delta, beta)
        histogram = DeviatingAlgorithm(2, eps, delta).histogram
        released = float(histogram.release_probability(math.ceil(n * psi / 2)))
        if released - (1 - beta) < worst:
            worst, tightest = released - (1 - beta), (1 - beta, released)
        smaller = int(0.8 * n)
        short += float(histogram.release_probability(math.ceil(smaller * psi / 2))) < 1 - beta
        rows += 1
    ok = worst >= 0
    return CheckOutcome(
        ok,
        f"{rows} points: a count ⌈nψ/2⌉ is released with probability ≥ 1 − β on every one "
        f"(least margin {worst:.3g}); at 0.8 n it falls short on {short}",
        {"points": rows, "least_margin": worst, "short_at_0.8n": short},
        [Control("the sample size 20% too small (0.8 n)", short > 0, f"short on {short} points")],
        [Slack("P(release of ⌈nψ/2⌉) ≥ 1 − β", *tightest)],
    )
