"""The checks ``dpspec verify`` runs, one per obligation (see ``proofs/obligations.py``).

Every check that can pass can also fail: exact checks run a deliberately broken mechanism on
the same instances and pass only if it is caught; statistical checks run a wrong law through
the same test and pass only if it is rejected.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from itertools import chain, combinations

import numpy as np

from dpspec import noise
from dpspec.mechanisms import (
    LaplaceMechanism,
    NoisyMajorityVote,
    RandomizedResponse,
    StabilityHistogram,
    stability_histogram,
)
from dpspec.proofs.registry import CheckOutcome, VerifyConfig
from dpspec.proofs.stats import ALPHA, chisquare_gof
from dpspec.proofs.verifiers import (
    ExactReport,
    verify_discrete_laplace_count,
    verify_discrete_laplace_mutant,
    verify_exponential,
    verify_laplace_idealised,
    verify_laplace_lattice,
    verify_noisy_majority,
    verify_pairs,
    verify_randomized_response,
    verify_stability_histogram,
)
from dpspec.spec import privacy
from dpspec.spec.neighbours import Relation, neighbouring_pairs

SEED = 20261122


def _exact_with_control(good: ExactReport, bad: ExactReport) -> CheckOutcome:
    ok = good.holds and not bad.holds
    return CheckOutcome(
        ok,
        f"{good.summary()}; control: {bad.summary()}",
        {
            "pairs": good.pairs,
            "worst_ratio": str(good.worst_ratio),
            "claimed_ratio": str(good.claimed_ratio),
            "worst_delta": str(good.worst_delta),
            "control_caught": not bad.holds,
        },
    )


# --- exact -------------------------------------------------------------------------------


def discrete_laplace_exact(config: VerifyConfig) -> CheckOutcome:
    size = 7 if config.thorough else 5
    good = [
        verify_discrete_laplace_count(Fraction(1, 2), size, rel)
        for rel in (Relation.SUBSTITUTE, Relation.ADD_REMOVE)
    ]
    good.append(verify_discrete_laplace_count(Fraction(9, 10), size))
    bad = verify_discrete_laplace_mutant(Fraction(1, 2), size)
    outcome = _exact_with_control(good[0], bad)
    outcome.passed = outcome.passed and all(g.holds for g in good)
    outcome.numbers["pairs"] = sum(g.pairs for g in good)
    return outcome


def laplace_lattice_exact(config: VerifyConfig) -> CheckOutcome:
    size = 6 if config.thorough else 4
    good = verify_laplace_lattice((0.0, 0.3, 0.7, 1.0, 2.5, -1.0), size, 0.5)
    # Δ = 0.7 is not a multiple of γ = 2^-21: Δ/γ = 1468006.4, and snapping f(S) = 5.3γ down and
    # f(S') = f(S) + Δ up puts them 1468007 lattice units apart — the +1 unit of rounding slack
    # in the calibration is needed exactly there
    gamma = 2.0 ** (math.floor(math.log2(0.7)) - 20)
    rounding = verify_laplace_lattice((0.0, 0.7, 5.3 * gamma), 2, 0.5, sensitivity=0.7)
    # control: a query of sensitivity 2 run with the mechanism calibrated to Δ = 1
    bad = verify_laplace_lattice((0.0, 1.0), size, 0.5, query_scale=2.0)
    ideal = verify_laplace_idealised((0.0, 0.3, 1.0, 2.0), 3, 0.5)
    outcome = _exact_with_control(good, bad)
    outcome.passed = outcome.passed and rounding.holds and ideal.holds
    outcome.detail += f"; rounding boundary: {rounding.summary()}; {ideal.summary()}"
    outcome.numbers["rounding_worst_loss"] = rounding.details["worst_loss"]
    return outcome


def exponential_exact(config: VerifyConfig) -> CheckOutcome:
    size = 4 if config.thorough else 3
    good = verify_exponential(Fraction(1, 2), half=True, max_size=size)
    good2 = verify_exponential(Fraction(4, 5), half=True, max_size=size)
    bad = verify_exponential(Fraction(1, 2), half=False, max_size=size)
    outcome = _exact_with_control(good, bad)
    outcome.passed = outcome.passed and good2.holds
    return outcome


def randomized_response_exact(config: VerifyConfig) -> CheckOutcome:
    ks = (2, 3, 5, 8) if config.thorough else (2, 3, 5)
    reports = [verify_randomized_response(Fraction(3), k) for k in ks]
    reports += [verify_randomized_response(Fraction(11, 10), k) for k in ks]
    # control: the k = 3 randomiser with e^ε = 3 checked against the claim e^ε = 29/10
    mech = RandomizedResponse(3, ratio=Fraction(3))
    bad = verify_pairs(
        "randomized response k=3 against a smaller claim",
        lambda d: mech.local_pmf(d[0]),  # type: ignore[arg-type]
        [((0,), (1,)), ((0,), (2,)), ((1,), (2,))],
        Fraction(29, 10),
    )
    # the ε-LDP predicate on each randomiser's whole table, at the caller's ratio
    ldp = [
        privacy.satisfies_ldp(RandomizedResponse(k, ratio=r).local_distributions(), r)
        for r in (Fraction(3), Fraction(11, 10))
        for k in ks
    ]
    ldp_control = privacy.satisfies_ldp(mech.local_distributions(), Fraction(29, 10))
    outcome = _exact_with_control(reports[0], bad)
    outcome.passed = (
        outcome.passed and all(r.holds for r in reports) and all(ldp) and not ldp_control
    )
    outcome.numbers["tables"] = len(reports)
    outcome.numbers["ldp_tables_hold"] = sum(ldp)
    return outcome


def noisy_majority_exact(config: VerifyConfig) -> CheckOutcome:
    size = 5 if config.thorough else 4
    good = verify_noisy_majority(Fraction(1, 2), 3, size)
    # add/remove: the centred vote moves by ½, so the ratio is at most e^{ε/2}
    half = verify_noisy_majority(Fraction(1, 2), 3, size, Relation.ADD_REMOVE)
    half_ok = half.worst_ratio <= 2  # e^{ε/2} = q^{-1} = 2
    # control: noise of half the scale (base q² = 1/4) claimed at the same e^ε = 4
    mech = NoisyMajorityVote(3, base=Fraction(1, 4))
    domain = tuple((c, y) for c in range(3) for y in (0, 1))
    bad = verify_pairs(
        "noisy majority with half the noise",
        lambda d: mech.pmf(np.array(d, dtype=np.int64).reshape(-1, 2)),
        neighbouring_pairs(domain, 2, Relation.SUBSTITUTE, min_size=1),
        Fraction(4),
    )
    # the idealised path (Lap(1/ε) on the centred vote m/2, continuous): float laws against
    # the caller's e^ε with relative slack 1e-9
    ideal = NoisyMajorityVote(3, 1.0, idealised=True)
    ideal_report = verify_pairs(
        "noisy majority, idealised ε = 1",
        lambda d: ideal.pmf(np.array(d, dtype=np.int64).reshape(-1, 2)),
        neighbouring_pairs(domain, size - 1, Relation.SUBSTITUTE, min_size=1),
        math.exp(1.0),
        rtol=1e-9,
    )
    outcome = _exact_with_control(good, bad)
    outcome.passed = outcome.passed and half_ok and ideal_report.holds
    outcome.detail += f"; {ideal_report.summary()}"
    outcome.numbers["add_remove_worst_ratio"] = str(half.worst_ratio)
    return outcome


def stability_histogram_exact(config: VerifyConfig) -> CheckOutcome:
    size = 5 if config.thorough else 4
    reports = [
        verify_stability_histogram(Fraction(1, 2), Fraction(1, 100), 2, size),
        verify_stability_histogram(Fraction(2, 3), Fraction(1, 1000), 2, size),
        verify_stability_histogram(Fraction(1, 2), Fraction(1, 100), 3, size - 1),
    ]
    # control: the same release with the threshold lowered by 4 must exceed the claimed δ
    mech = StabilityHistogram(2, base=Fraction(1, 2), delta=Fraction(1, 100))
    mech.threshold = int(mech.threshold) - 4
    cap = max(int(mech.threshold), size) + 1
    bad = verify_pairs(
        "stability histogram, threshold lowered by 4",
        lambda d: mech.pmf(np.array(d, dtype=np.int64), cap),
        neighbouring_pairs((0, 1), size, Relation.SUBSTITUTE, min_size=1),
        mech.privacy.ratio,
        Fraction(1, 100),
    )
    outcome = _exact_with_control(reports[0], bad)
    outcome.passed = outcome.passed and all(r.holds for r in reports)
    outcome.numbers["exact_deltas"] = [str(r.worst_delta) for r in reports]
    outcome.numbers["thresholds"] = [r.details["threshold"] for r in reports]
    return outcome


# --- property ----------------------------------------------------------------------------


def _random_fraction_dist(rng: np.random.Generator, k: int, zeros: bool) -> dict[int, Fraction]:
    w = rng.integers(0 if zeros else 1, 6, size=k)
    if w.sum() == 0:
        w[0] = 1
    total = int(w.sum())
    return {i: Fraction(int(x), total) for i, x in enumerate(w)}


def _events(k: int) -> list[tuple[int, ...]]:
    return list(chain.from_iterable(combinations(range(k), j) for j in range(1, k + 1)))


def pure_dp_event_equivalence(config: VerifyConfig) -> CheckOutcome:
    """max over events of P(F)/Q(F) equals max over outcomes; pointwise ⇔ event-level."""
    rng = np.random.default_rng(SEED)
    trials = 600 if config.thorough else 200
    disagreements = 0
    for _ in range(trials):
        k = int(rng.integers(1, 6))
        p = _random_fraction_dist(rng, k, zeros=True)
        q = _random_fraction_dist(rng, k, zeros=True)
        ratio = Fraction(int(rng.integers(2, 40)), 10) + 1
        by_event = max(
            (
                sum((p[o] for o in ev), Fraction(0)) / sum((q[o] for o in ev), Fraction(0))
                if sum((q[o] for o in ev), Fraction(0)) > 0
                else (math.inf if sum((p[o] for o in ev), Fraction(0)) > 0 else 0)
                for ev in _events(k)
            ),
            default=0,
        )
        if by_event != privacy.max_likelihood_ratio(p, q):
            disagreements += 1
        if privacy.satisfies_pure_dp(p, q, ratio) != privacy.event_level_dp(p, q, ratio, 0):
            disagreements += 1
    return CheckOutcome(
        disagreements == 0,
        f"{trials} random exact distribution pairs, {disagreements} disagreements",
        {"trials": trials, "disagreements": disagreements},
    )


def hockey_stick_event_equivalence(config: VerifyConfig) -> CheckOutcome:
    """H_{e^ε}(P‖Q) equals the sup over events of P(F) − e^ε Q(F); (ε,δ) forms agree."""
    rng = np.random.default_rng(SEED + 1)
    trials = 600 if config.thorough else 200
    bad = 0
    for _ in range(trials):
        k = int(rng.integers(1, 6))
        p = _random_fraction_dist(rng, k, zeros=True)
        q = _random_fraction_dist(rng, k, zeros=True)
        ratio = Fraction(int(rng.integers(0, 30)), 10) + 1
        delta = Fraction(int(rng.integers(0, 10)), 20)
        sup = max(
            [Fraction(0)]
            + [
                sum((p[o] for o in ev), Fraction(0)) - ratio * sum((q[o] for o in ev), Fraction(0))
                for ev in _events(k)
            ]
        )
        if sup != privacy.hockey_stick(p, q, ratio):
            bad += 1
        if privacy.satisfies_approx_dp(p, q, ratio, delta) != privacy.event_level_dp(
            p, q, ratio, delta
        ):
            bad += 1
    return CheckOutcome(bad == 0, f"{trials} random pairs, {bad} disagreements", {"trials": trials})


def group_privacy_chains(config: VerifyConfig) -> CheckOutcome:
    """Three datasets S0 ~ S1 ~ S2 of randomized response on counts: the pair (S0, S2) meets
    the k = 2 group parameters, and fails the k = 1 parameters (the group bound is needed)."""
    ok = True
    tight = False
    for ratio in (Fraction(2), Fraction(3), Fraction(11, 10)):
        mech = RandomizedResponse(2, ratio=ratio)

        def law(ones: int, m: int = 2, mech: RandomizedResponse = mech) -> privacy.Dist:
            # number of reported ones among m users, ``ones`` of whom hold a 1: exact convolution
            dist: dict[int, Fraction] = {0: Fraction(1)}
            for bit in [1] * ones + [0] * (m - ones):
                p1 = Fraction(mech.local_pmf(bit)[1])
                nxt: dict[int, Fraction] = {}
                for v, pv in dist.items():
                    nxt[v + 1] = nxt.get(v + 1, Fraction(0)) + pv * p1
                    nxt[v] = nxt.get(v, Fraction(0)) + pv * (1 - p1)
                dist = nxt
            return dist

        p0, p2 = law(0), law(2)
        ok &= privacy.satisfies_group_privacy(p0, p2, ratio, 0, 2)
        tight |= not privacy.satisfies_pure_dp(p0, p2, ratio)
    return CheckOutcome(ok and tight, f"k=2 bound holds: {ok}; k=1 bound fails: {tight}", {})


def stability_zero_counts(config: VerifyConfig) -> CheckOutcome:
    """Alg 1 never releases a cell absent from the data; releases are ≥ τ (both paths)."""
    rng = np.random.default_rng(SEED + 2)
    runs = 200 if config.thorough else 50
    violations = 0
    for i in range(runs):
        cells = rng.integers(-(10**9), 10**9, size=int(rng.integers(1, 40)))
        cells = np.concatenate([cells, np.repeat(cells[:3], 60)])
        for idealised in (False, True):
            ids, vals = stability_histogram(cells, 1.0, 1e-3, rng, idealised=idealised)
            mech = StabilityHistogram(None, 1.0, 1e-3, idealised=idealised)
            if not set(ids.tolist()) <= set(cells.tolist()) or np.any(vals < mech.threshold):
                violations += 1
        _ = i
    return CheckOutcome(
        violations == 0, f"{2 * runs} runs, {violations} violations", {"runs": 2 * runs}
    )


def laplace_outputs_on_lattice(config: VerifyConfig) -> CheckOutcome:
    """The exact path releases only multiples of γ; the idealised path does not."""
    rng = np.random.default_rng(SEED + 3)
    exact = LaplaceMechanism(lambda d: float(d.sum()), 1.0, 0.7)
    ideal = LaplaceMechanism(lambda d: float(d.sum()), 1.0, 0.7, idealised=True)
    data = np.array([0.123456789, 0.5])
    y = exact.sample(data, 10**5, rng) / exact.granularity
    on_lattice = bool(np.all(y == np.round(y)))
    z = ideal.sample(data, 10**3, rng) / ideal.granularity
    off_lattice = bool(np.any(z != np.round(z)))
    return CheckOutcome(
        on_lattice
        and off_lattice
        and exact.privacy.exact_sampler
        and not ideal.privacy.exact_sampler,
        f"exact path on lattice: {on_lattice}; idealised path leaves it: {off_lattice}",
        {"granularity": exact.granularity},
    )


# --- statistical ------------------------------------------------------------------------


def _gof_pair(
    draw: Callable[[np.random.Generator], np.ndarray],
    law: dict[int, float],
    wrong: dict[int, float],
    rng: np.random.Generator,
) -> tuple[bool, bool, float]:
    x = draw(rng).astype(np.int64)
    good = chisquare_gof(x, law)
    bad = chisquare_gof(x, wrong)
    return not good.rejected, bad.rejected, good.pvalue


def exact_samplers_statistical(config: VerifyConfig) -> CheckOutcome:
    """Each exact sampler matches its law (chi-square, α = 1e-6 each, 6 tests: family-wise
    false-alarm ≤ 6e-6), and the same test rejects a law with 1.25× the scale / a shifted law."""
    n = 10**6 if config.thorough else 2 * 10**5
    rng = np.random.default_rng(SEED + 4)
    window = range(-60, 61)

    def dlap_law(q: float) -> dict[int, float]:
        return {z: float(noise.discrete_laplace_pmf(z, q)) for z in window}

    q1, q125 = math.exp(-1 / 3), math.exp(-1 / 3.75)
    cases = {
        "discrete_laplace(scale=3)": (
            lambda r: noise.discrete_laplace(Fraction(3), n, r),
            dlap_law(q1),
            dlap_law(q125),
        ),
        "discrete_laplace_base(1/2)": (
            lambda r: noise.discrete_laplace_base(Fraction(1, 2), n, r),
            dlap_law(0.5),
            dlap_law(0.5**0.8),
        ),
        "bernoulli_exp_neg(7/3)": (
            lambda r: noise.bernoulli_exp_neg(np.full(n, 7, dtype=np.int64), 3, r),
            {1: math.exp(-7 / 3), 0: 1 - math.exp(-7 / 3)},
            {1: math.exp(-7 / 3.5), 0: 1 - math.exp(-7 / 3.5)},
        ),
        "categorical_exp_neg": (
            lambda r: noise.categorical_exp_neg(np.array([0, 1, 3, 6]), 2, n, r),
            {
                i: math.exp(-a / 2) / sum(math.exp(-b / 2) for b in (0, 1, 3, 6))
                for i, a in enumerate((0, 1, 3, 6))
            },
            {
                i: math.exp(-a / 2.5) / sum(math.exp(-b / 2.5) for b in (0, 1, 3, 6))
                for i, a in enumerate((0, 1, 3, 6))
            },
        ),
        "geometric(2/3)": (
            lambda r: noise.geometric(Fraction(2, 3), n, r),
            {g: (1 / 3) * (2 / 3) ** g for g in range(80)},
            {g: (1 - 0.7) * 0.7**g for g in range(80)},
        ),
        "randomized_response(eps=1, k=3)": (
            lambda r: RandomizedResponse(3, 1.0).randomise(np.zeros(n, dtype=np.int64), r),
            {0: math.e / (math.e + 2), 1: 1 / (math.e + 2), 2: 1 / (math.e + 2)},
            {
                0: 1.1 * math.e / (1.1 * math.e + 2),
                1: 1 / (1.1 * math.e + 2),
                2: 1 / (1.1 * math.e + 2),
            },
        ),
    }
    accepted = rejected_wrong = 0
    pvalues: dict[str, float] = {}
    for name, (draw, law, wrong) in cases.items():
        a, b, pv = _gof_pair(draw, law, wrong, rng)
        accepted += a
        rejected_wrong += b
        pvalues[name] = pv
    ok = accepted == len(cases) and rejected_wrong == len(cases)
    return CheckOutcome(
        ok,
        f"{accepted}/{len(cases)} samplers fit their law at alpha={ALPHA}; "
        f"{rejected_wrong}/{len(cases)} wrong laws rejected; n={n}",
        {"pvalues": pvalues, "alpha": ALPHA, "n": n},
    )


# --- bad input ---------------------------------------------------------------------------


def bad_input_rejected(config: VerifyConfig) -> CheckOutcome:
    """Every mechanism rejects invalid parameters and data with a ValueError naming them."""
    from dpspec.mechanisms import DiscreteLaplaceMechanism, ExponentialMechanism
    from dpspec.validation import check_delta, check_epsilon, check_rng

    def count(d: np.ndarray) -> int:
        return int(np.sum(d))

    cases: list[tuple[str, Callable[[], object]]] = [
        ("epsilon", lambda: LaplaceMechanism(count, 1.0, 0.0)),
        ("epsilon", lambda: LaplaceMechanism(count, 1.0, float("nan"))),
        ("epsilon", lambda: LaplaceMechanism(count, 1.0, float("inf"))),
        ("sensitivity", lambda: LaplaceMechanism(count, -1.0, 1.0)),
        ("data", lambda: LaplaceMechanism(count, 1.0, 1.0).sample([], 3, np.random.default_rng())),
        (
            "data",
            lambda: LaplaceMechanism(count, 1.0, 1.0).sample(
                [1.0, float("nan")], 3, np.random.default_rng()
            ),
        ),
        ("n", lambda: LaplaceMechanism(count, 1.0, 1.0).sample([1.0], 0, np.random.default_rng())),
        ("rng", lambda: LaplaceMechanism(count, 1.0, 1.0).sample([1.0], 1, 42)),  # type: ignore[arg-type]
        ("epsilon", lambda: DiscreteLaplaceMechanism(count, 1, -2.0)),
        ("epsilon", lambda: DiscreteLaplaceMechanism(count, 1, 1.0, base=Fraction(1, 2))),
        ("base", lambda: DiscreteLaplaceMechanism(count, 1, base=Fraction(3, 2))),
        ("delta", lambda: StabilityHistogram(3, 1.0, 1.5)),
        ("delta", lambda: StabilityHistogram(3, 1.0, 0.0)),
        ("delta", lambda: check_delta(float("nan"))),
        (
            "data",
            lambda: StabilityHistogram(3, 1.0, 1e-3).sample([0, 5], 1, np.random.default_rng()),
        ),
        ("data", lambda: NoisyMajorityVote(2, 1.0).sample([0, 1], 1, np.random.default_rng())),
        ("data", lambda: NoisyMajorityVote(2, 1.0).sample([[0, 2]], 1, np.random.default_rng())),
        ("x", lambda: RandomizedResponse(2, 1.0).randomise([0, 2], np.random.default_rng())),
        ("k", lambda: RandomizedResponse(1, 1.0)),
        (
            "scores",
            lambda: ExponentialMechanism(lambda d: np.array([0.5, 1.5]), 1, 1.0).sample(
                [1], 1, np.random.default_rng()
            ),
        ),
        ("epsilon", lambda: check_epsilon(True)),
        ("rng", lambda: check_rng(np.random.RandomState(0))),
    ]
    missed: list[str] = []
    for name, call in cases:
        try:
            call()
        except ValueError as exc:
            if name not in str(exc):
                missed.append(f"{name}: message {exc!s} does not name it")
        else:
            missed.append(f"{name}: no ValueError")
    return CheckOutcome(
        not missed,
        f"{len(cases) - len(missed)}/{len(cases)} bad inputs rejected with a named ValueError"
        + (f"; missed: {missed}" if missed else ""),
        {"cases": len(cases), "missed": missed},
    )
