"""The basic mechanisms of ``dpspec.mechanisms``: validation, sampling law, exact privacy.

Three kinds of checks:

* bad input raises ``ValueError`` whose message starts with the parameter's name;
* the sampled output law matches the exact law the mechanism states (``pmf``,
  ``one_probabilities``, ``release_probability``, ``local_pmf``, ``sf``): chi-square, exact
  binomial or z-tests, all at level α = 1e-6 with fixed seeds, each with a negative control
  (the same test against a wrong law must reject at the same α);
* exact privacy: on small instances with rational noise bases every output probability is a
  ``Fraction``, and the spec predicates (``dpspec.spec.privacy``) are checked without
  rounding on Hypothesis-drawn neighbouring datasets; mutants with a wrong calibration must
  fail them (found by exhaustive search over all small neighbouring pairs).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from fractions import Fraction
from typing import Any, cast

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray
from scipy.stats import norm

from dpspec.mechanisms import (
    DiscreteLaplaceMechanism,
    ExponentialMechanism,
    LaplaceMechanism,
    NoisyMajorityVote,
    RandomizedResponse,
    StabilityHistogram,
    stability_histogram,
)
from dpspec.mechanisms.discrete_laplace import ABOVE, BELOW
from dpspec.mechanisms.stability_histogram import TAIL, paper_threshold
from dpspec.proofs.engine.stats import binomial_pvalue, chisquare_pvalue
from dpspec.spec.neighbours import Relation, neighbouring_pairs, neighbours
from dpspec.spec.privacy import (
    is_distribution,
    satisfies_approx_dp,
    satisfies_ldp,
    satisfies_pure_dp,
)

ALPHA = 1e-6
N = 200_000
BASES = [Fraction(1, 2), Fraction(2, 3)]

Prob = Fraction | float


# --- statistical helpers (same conventions as tests/test_noise.py) --------------------------


def counts_of(samples: NDArray[Any]) -> dict[Hashable, int]:
    values, counts = np.unique(np.asarray(samples), return_counts=True)
    return dict(zip(values.tolist(), counts.tolist(), strict=True))


def z_pvalue(estimate: float, hypothesised: float, standard_error: float) -> float:
    return float(2 * norm.sf(abs(estimate - hypothesised) / standard_error))


def rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def exact_sqrt(r: Fraction) -> Fraction:
    root = Fraction(math.isqrt(r.numerator), math.isqrt(r.denominator))
    assert root * root == r, f"{r} is not a rational square"
    return root


def pairs(domain: Sequence[Any], max_size: int) -> list[tuple[tuple[Any, ...], tuple[Any, ...]]]:
    """Every unordered substitute-neighbouring pair of non-empty multisets of size ≤ max_size."""
    return list(neighbouring_pairs(domain, max_size, Relation.SUBSTITUTE, min_size=1))


@st.composite
def substitute_pair(
    draw: st.DrawFn, domain: Sequence[Any], max_size: int = 4
) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """A non-empty dataset over ``domain`` and one of its substitute neighbours."""
    data = tuple(draw(st.lists(st.sampled_from(domain), min_size=1, max_size=max_size)))
    other = draw(st.sampled_from(list(neighbours(data, Relation.SUBSTITUTE, domain))))
    return data, other


# --- queries and instances -----------------------------------------------------------------


def int_sum(d: NDArray[Any]) -> int:
    return int(np.sum(d))


def twice_sum(d: NDArray[Any]) -> int:
    return 2 * int(np.sum(d))


def clipped_sum(d: NDArray[Any]) -> float:
    return float(np.sum(np.clip(d, 0.0, 1.0)))


def clipped_sum_and_mean(d: NDArray[Any]) -> NDArray[np.float64]:
    c = np.clip(d, 0.0, 1.0)
    return np.array([c.sum(), c.mean()])


def as_int64(d: NDArray[Any]) -> NDArray[np.int64]:
    return d.astype(np.int64)


def counts3(d: NDArray[Any]) -> NDArray[np.int64]:
    """Score of candidate c = number of records equal to c (per-candidate sensitivity 1)."""
    return np.bincount(np.asarray(d, dtype=np.int64), minlength=3)[:3]


def make_all(seed_base: Fraction = Fraction(1, 2)) -> list[tuple[Any, Any]]:
    """(mechanism, valid data) for every mechanism, exact and idealised paths."""
    nmv_data = np.array([[0, 1], [0, 1], [1, 0], [2, 1]])
    hist_data = [0] * 15 + [1] * 20  # counts near / above every threshold used here
    return [
        (LaplaceMechanism(clipped_sum, 1.0, 0.5), [0.2, 0.7]),
        (LaplaceMechanism(clipped_sum, 1.0, 0.5, idealised=True), [0.2, 0.7]),
        (DiscreteLaplaceMechanism(int_sum, 1, base=seed_base), [1, 0, 1]),
        (DiscreteLaplaceMechanism(int_sum, 1, epsilon=0.5), [1, 0, 1]),
        (ExponentialMechanism(counts3, 1, base=seed_base), [0, 1, 1]),
        (ExponentialMechanism(counts3, 1, epsilon=0.5), [0, 1, 1]),
        (RandomizedResponse(3, base=Fraction(1, 3)), [0, 1, 2, 2]),
        (RandomizedResponse(3, epsilon=1.0), [0, 1, 2, 2]),
        (StabilityHistogram(3, base=seed_base, delta=Fraction(1, 10)), hist_data),
        (StabilityHistogram(3, epsilon=1.0, delta=1e-3), hist_data),
        (StabilityHistogram(3, epsilon=1.0, delta=1e-3, idealised=True), hist_data),
        (NoisyMajorityVote(3, base=seed_base), nmv_data),
        (NoisyMajorityVote(3, epsilon=1.0), nmv_data),
        (NoisyMajorityVote(3, epsilon=1.0, idealised=True), nmv_data),
    ]


ALL = make_all()
ALL_IDS = [f"{type(m).__name__}-{i}" for i, (m, _) in enumerate(ALL)]


# --- validation ----------------------------------------------------------------------------

BAD_EPSILONS = [0, -1.0, float("nan"), float("inf"), -float("inf"), True, "1"]

CONSTRUCTORS_WITH_EPSILON: list[tuple[str, Callable[[Any], Any]]] = [
    ("Laplace", lambda e: LaplaceMechanism(clipped_sum, 1.0, e)),
    ("Laplace-idealised", lambda e: LaplaceMechanism(clipped_sum, 1.0, e, idealised=True)),
    ("DiscreteLaplace", lambda e: DiscreteLaplaceMechanism(int_sum, 1, e)),
    ("Exponential", lambda e: ExponentialMechanism(counts3, 1, e)),
    ("Exponential-printed", lambda e: ExponentialMechanism(counts3, 1, e, half=False)),
    ("RR", lambda e: RandomizedResponse(2, e)),
    ("Histogram", lambda e: StabilityHistogram(3, e, 1e-3)),
    ("Histogram-idealised", lambda e: StabilityHistogram(3, e, 1e-3, idealised=True)),
    ("Majority", lambda e: NoisyMajorityVote(2, e)),
    ("Majority-idealised", lambda e: NoisyMajorityVote(2, e, idealised=True)),
]


@pytest.mark.parametrize(
    ("name", "build"), CONSTRUCTORS_WITH_EPSILON, ids=[n for n, _ in CONSTRUCTORS_WITH_EPSILON]
)
@pytest.mark.parametrize("bad", BAD_EPSILONS, ids=str)
def test_bad_epsilon_is_rejected(name: str, build: Callable[[Any], Any], bad: Any) -> None:
    with pytest.raises(ValueError, match=r"^epsilon:"):
        build(bad)


@pytest.mark.parametrize("bad", [0, -1e-3, 1, 1.5, float("nan"), float("inf"), True, "0.1"])
def test_stability_histogram_delta_outside_zero_one(bad: Any) -> None:
    """δ must be in (0, 1) for the histogram: δ = 0 is impossible for its (ε, δ) guarantee."""
    for idealised in (False, True):
        with pytest.raises(ValueError, match=r"^delta:"):
            StabilityHistogram(3, 1.0, bad, idealised=idealised)
        with pytest.raises(ValueError, match=r"^delta:"):
            stability_histogram([1, 2], 1.0, bad, rng(0), idealised=idealised)


def test_both_or_neither_of_epsilon_and_base() -> None:
    q = Fraction(1, 2)
    builds: list[Callable[[Any, Any], Any]] = [
        lambda e, b: DiscreteLaplaceMechanism(int_sum, 1, e, base=b),
        lambda e, b: ExponentialMechanism(counts3, 1, e, base=b),
        lambda e, b: StabilityHistogram(3, e, 1e-3, base=b),
        lambda e, b: NoisyMajorityVote(2, e, base=b),
        lambda e, b: RandomizedResponse(2, e, base=b),
    ]
    for build in builds:
        for eps, base in ((None, None), (Fraction(1), q)):
            with pytest.raises(ValueError, match=r"^epsilon:"):
                build(eps, base)
    for idealised_build in (
        lambda: StabilityHistogram(3, None, 1e-3, base=q, idealised=True),
        lambda: NoisyMajorityVote(2, None, base=q, idealised=True),
    ):
        with pytest.raises(ValueError, match=r"^epsilon:"):
            idealised_build()


@pytest.mark.parametrize("bad", [Fraction(0), Fraction(1), Fraction(5, 4), 0.5, True])
def test_bad_base_is_rejected(bad: Any) -> None:
    for build in (
        lambda: DiscreteLaplaceMechanism(int_sum, 1, base=bad),
        lambda: ExponentialMechanism(counts3, 1, base=bad),
        lambda: StabilityHistogram(3, None, 1e-3, base=bad),
        lambda: NoisyMajorityVote(2, base=bad),
    ):
        with pytest.raises(ValueError, match=r"^base:"):
            build()


def test_bad_structural_parameters_are_rejected() -> None:
    q = Fraction(1, 2)
    cases: list[tuple[str, Callable[[], Any]]] = [
        ("sensitivity", lambda: LaplaceMechanism(clipped_sum, 0.0, 1.0)),
        ("sensitivity", lambda: LaplaceMechanism(clipped_sum, float("nan"), 1.0)),
        ("dimension", lambda: LaplaceMechanism(clipped_sum, 1.0, 1.0, dimension=0)),
        ("query", lambda: LaplaceMechanism(42, 1.0, 1.0)),  # type: ignore[arg-type]
        ("sensitivity", lambda: DiscreteLaplaceMechanism(int_sum, 0, base=q)),
        ("sensitivity", lambda: DiscreteLaplaceMechanism(int_sum, 1.5, base=q)),  # type: ignore[arg-type]
        ("query", lambda: DiscreteLaplaceMechanism("sum", 1, base=q)),  # type: ignore[arg-type]
        ("sensitivity", lambda: ExponentialMechanism(counts3, 0, base=q)),
        ("scores", lambda: ExponentialMechanism(None, 1, base=q)),  # type: ignore[arg-type]
        ("k", lambda: RandomizedResponse(1, base=Fraction(1, 2))),
        ("base", lambda: RandomizedResponse(2, base=Fraction(1, 1))),
        ("base", lambda: RandomizedResponse(2, base=0.4)),  # type: ignore[arg-type]
        ("bins", lambda: StabilityHistogram(0, 1.0, 1e-3)),
        ("cells", lambda: NoisyMajorityVote(0, 1.0)),
    ]
    for name, build in cases:
        with pytest.raises(ValueError, match=rf"^{name}:"):
            build()


def test_wrong_shapes_and_values_are_rejected() -> None:
    q = Fraction(1, 2)
    nmv = NoisyMajorityVote(2, base=q)
    hist = StabilityHistogram(3, base=q, delta=Fraction(1, 10))
    rr = RandomizedResponse(3, base=Fraction(1, 2))
    two_values_declared_one = LaplaceMechanism(clipped_sum_and_mean, 1.0, 1.0)
    one_value_declared_two = LaplaceMechanism(clipped_sum, 1.0, 1.0, dimension=2)
    cases: list[tuple[str, Callable[[], Any]]] = [
        ("data", lambda: nmv.sample([0, 1, 1], 2, rng(0))),  # 1-D data
        ("data", lambda: nmv.sample([[0, 1, 0]], 2, rng(0))),  # 3 columns
        ("data", lambda: nmv.sample([[0, 2]], 2, rng(0))),  # label 2
        ("data", lambda: nmv.sample([[0, -1]], 2, rng(0))),  # label −1
        ("data", lambda: nmv.sample([[2, 1]], 2, rng(0))),  # cell id out of range
        ("data", lambda: nmv.sample([[-1, 1]], 2, rng(0))),
        ("data", lambda: nmv.sample([[0.0, 0.5]], 2, rng(0))),  # not integers
        ("data", lambda: hist.sample([0, 3], 2, rng(0))),  # cell id out of range
        ("data", lambda: hist.sample([-1, 0], 2, rng(0))),
        ("data", lambda: hist.sample([0.5, 1.0], 2, rng(0))),  # not integer ids
        ("data", lambda: hist.sample([[0, 1]], 2, rng(0))),  # 2-D
        ("cells", lambda: stability_histogram([0.5, 1.5], 1.0, 1e-3, rng(0))),
        ("cells", lambda: stability_histogram([[1, 2]], 1.0, 1e-3, rng(0))),
        ("data", lambda: rr.sample([0, 3], 2, rng(0))),  # value ≥ k
        ("data", lambda: rr.sample([0, -1], 2, rng(0))),
        ("data", lambda: rr.sample([0, 1.5], 2, rng(0))),
        ("x", lambda: rr.randomise([0, 5], rng(0))),
        ("x", lambda: rr.local_pmf(3)),
        ("query", lambda: two_values_declared_one.sample([0.1], 2, rng(0))),
        ("query", lambda: one_value_declared_two.sample([0.1], 2, rng(0))),
        ("query", lambda: DiscreteLaplaceMechanism(clipped_sum, 1, base=q).sample([1], 2, rng(0))),
        ("query", lambda: DiscreteLaplaceMechanism(lambda d: d, 1, base=q).pmf([1, 2], (0, 3))),
        ("window", lambda: DiscreteLaplaceMechanism(int_sum, 1, base=q).pmf([1], (3, 0))),
        ("scores", lambda: ExponentialMechanism(lambda d: d * 0.5, 1, base=q).pmf([1])),
        (
            "scores",
            lambda: ExponentialMechanism(lambda d: np.zeros((2, 2), int), 1, base=q).pmf([1]),
        ),
        ("cap", lambda: hist.cell_pmf(2, int(hist.threshold) - 1)),
        ("cells", lambda: NoisyMajorityVote(17, base=q).pmf([[0, 1]])),
    ]
    for name, call in cases:
        with pytest.raises(ValueError, match=rf"^{name}:"):
            call()


# --- shapes, dtypes, determinism, no global randomness -------------------------------------


def test_sample_shapes_and_dtypes() -> None:
    q = Fraction(1, 2)
    n = 7
    expectations: list[tuple[Any, Any, tuple[int, ...], Any]] = [
        (LaplaceMechanism(clipped_sum, 1.0, 0.5), [0.2], (n,), np.float64),
        (LaplaceMechanism(clipped_sum_and_mean, 1.0, 0.5, dimension=2), [0.2], (n, 2), np.float64),
        (
            LaplaceMechanism(clipped_sum_and_mean, 1.0, 0.5, dimension=2, idealised=True),
            [0.2],
            (n, 2),
            np.float64,
        ),
        (DiscreteLaplaceMechanism(int_sum, 1, base=q), [1, 2], (n,), np.int64),
        (DiscreteLaplaceMechanism(as_int64, 1, base=q), [1, 2, 3], (n, 3), np.int64),
        (ExponentialMechanism(counts3, 1, base=q), [0, 2], (n,), np.int64),
        (ExponentialMechanism(counts3, 1, epsilon=1.0, half=False), [0, 2], (n,), np.int64),
        (RandomizedResponse(4, base=Fraction(1, 3)), [0, 3, 1], (n, 3), np.int64),
        (RandomizedResponse(2, epsilon=1.0), [0, 1, 1, 1, 0], (n, 5), np.int64),
        (StabilityHistogram(4, base=q, delta=Fraction(1, 10)), [0, 1], (n, 4), np.float64),
        (StabilityHistogram(4, 1.0, 1e-3, idealised=True), [0, 1], (n, 4), np.float64),
        (NoisyMajorityVote(5, base=q), [[0, 1]], (n, 5), np.bool_),
        (NoisyMajorityVote(5, 1.0, idealised=True), [[0, 1]], (n, 5), np.bool_),
    ]
    for mech, data, shape, dtype in expectations:
        out = mech.sample(data, n, rng(3))
        assert out.shape == shape, (type(mech).__name__, out.shape)
        assert out.dtype == dtype, (type(mech).__name__, out.dtype)
    rr = RandomizedResponse(3, base=Fraction(1, 2))
    reports = rr.randomise(np.array([[0, 1], [2, 2]]), rng(3))
    assert reports.shape == (2, 2) and reports.dtype == np.int64
    assert set(np.unique(reports).tolist()) <= {0, 1, 2}


@pytest.mark.parametrize(("mech", "data"), ALL, ids=ALL_IDS)
def test_same_seed_same_output_and_no_global_randomness(mech: Any, data: Any) -> None:
    """Same seed ⇒ identical outputs; other seed ⇒ other outputs; neither numpy's nor
    Python's global random state is touched."""
    np_state, py_state = cast(tuple[Any, ...], np.random.get_state()), random.getstate()
    first = mech.sample(data, 500, rng(2024))
    second = mech.sample(data, 500, rng(2024))
    other = mech.sample(data, 500, rng(2025))
    np.testing.assert_array_equal(first, second)
    assert not np.array_equal(first, other)
    after = cast(tuple[Any, ...], np.random.get_state())
    assert np_state[0] == after[0] and np.array_equal(np_state[1], after[1])
    assert np_state[2:] == after[2:]
    assert random.getstate() == py_state


# --- DiscreteLaplaceMechanism: law and exact privacy ---------------------------------------


def windowed_counts(samples: NDArray[np.int64], window: tuple[int, int]) -> dict[Hashable, int]:
    lo, hi = window
    inside = samples[(samples >= lo) & (samples <= hi)]
    out: dict[Hashable, int] = dict(counts_of(inside))
    out[BELOW] = int(np.sum(samples < lo))
    out[ABOVE] = int(np.sum(samples > hi))
    return out


@pytest.mark.parametrize(
    "mech",
    [
        DiscreteLaplaceMechanism(int_sum, 1, base=Fraction(2, 3)),
        DiscreteLaplaceMechanism(twice_sum, 2, base=Fraction(1, 2)),
        DiscreteLaplaceMechanism(int_sum, 1, epsilon=0.7),
        DiscreteLaplaceMechanism(twice_sum, 2, epsilon=0.1),
    ],
    ids=["base-2/3", "base-1/2-sens2", "eps-0.7", "eps-0.1-sens2"],
)
def test_discrete_laplace_mechanism_law(mech: DiscreteLaplaceMechanism) -> None:
    """Chi-square, α = 1e-6, 2·10^5 draws, against ``pmf(data, window)`` (values in the
    window plus the two lumped tails). Negative control (α = 1e-6): the same draws against
    the pmf of a dataset whose query value is one higher must be rejected."""
    data = [1, 0, 1, 1]
    window = (-8, 14)
    out = mech.sample(data, N, rng(71))
    observed = windowed_counts(out, window)
    pmf = mech.pmf(data, window)
    assert is_distribution(pmf)
    assert chisquare_pvalue(observed, pmf) >= ALPHA
    assert chisquare_pvalue(observed, mech.pmf([*data, 1], window)) < ALPHA


def dl_window(a: Sequence[int], b: Sequence[int], query: Callable[[Any], int]) -> tuple[int, int]:
    va, vb = query(np.asarray(a)), query(np.asarray(b))
    return min(va, vb) - 2, max(va, vb) + 2


@pytest.mark.parametrize("base", BASES, ids=str)
@pytest.mark.parametrize(
    ("domain", "query", "sensitivity"),
    [((0, 1), int_sum, 1), ((0, 1, 2), int_sum, 2), ((0, 1), twice_sum, 2)],
    ids=["sum01", "sum012", "2sum01"],
)
@settings(max_examples=30)
@given(data=st.data())
def test_discrete_laplace_mechanism_is_exactly_pure_dp(
    base: Fraction,
    domain: tuple[int, ...],
    query: Callable[[Any], int],
    sensitivity: int,
    data: st.DataObject,
) -> None:
    """ε-DP exactly (Fractions) for Hypothesis-drawn substitute neighbours, the window
    covering both query values, ratio = base^(−Δ) from the mechanism's own PrivacyLevel."""
    s, s2 = data.draw(substitute_pair(domain))
    mech = DiscreteLaplaceMechanism(query, sensitivity, base=base)
    assert mech.privacy.ratio == base ** (-sensitivity)
    window = dl_window(s, s2, query)
    p, p2 = mech.pmf(s, window), mech.pmf(s2, window)
    assert isinstance(p[window[0]], Fraction)
    assert satisfies_pure_dp(p, p2, mech.privacy.ratio)


@pytest.mark.parametrize("base", BASES, ids=str)
def test_discrete_laplace_mutant_with_undeclared_sensitivity_fails(base: Fraction) -> None:
    """Mutant: query 2·Σ (sensitivity 2) declared as sensitivity 1 is not base^{-1}-DP."""
    mech = DiscreteLaplaceMechanism(twice_sum, 1, base=base)
    failures = [
        (s, s2)
        for s, s2 in pairs((0, 1), 4)
        if not satisfies_pure_dp(
            mech.pmf(s, dl_window(s, s2, twice_sum)),
            mech.pmf(s2, dl_window(s, s2, twice_sum)),
            mech.privacy.ratio,
        )
    ]
    assert failures, "the mis-declared sensitivity was not caught"


# --- ExponentialMechanism ------------------------------------------------------------------


@pytest.mark.parametrize(
    "mech",
    [
        ExponentialMechanism(counts3, 1, base=Fraction(2, 3)),
        ExponentialMechanism(counts3, 1, base=Fraction(1, 2), half=False),
        ExponentialMechanism(counts3, 1, epsilon=0.8),
        ExponentialMechanism(counts3, 2, epsilon=0.1),
    ],
    ids=["base-2/3", "base-1/2-printed", "eps-0.8", "eps-0.1-sens2"],
)
def test_exponential_mechanism_law(mech: ExponentialMechanism) -> None:
    """Chi-square, α = 1e-6, 2·10^5 draws, against ``pmf(data)``. Negative control
    (α = 1e-6): the same draws against the pmf on a dataset with two more records of
    candidate 2 must be rejected."""
    data = [0, 0, 0, 1, 1]
    out = mech.sample(data, N, rng(81))
    pmf = mech.pmf(data)
    assert is_distribution(pmf)
    assert chisquare_pvalue(counts_of(out), pmf) >= ALPHA
    assert chisquare_pvalue(counts_of(out), mech.pmf([*data, 2, 2])) < ALPHA


def test_exponential_half_changes_the_law_with_epsilon() -> None:
    """Negative control, α = 1e-6: draws of the correct (½) mechanism tested against the
    printed mechanism's pmf (same ε) must be rejected."""
    data = [0, 0, 0, 1]
    out = ExponentialMechanism(counts3, 1, epsilon=1.0).sample(data, N, rng(82))
    printed = ExponentialMechanism(counts3, 1, epsilon=1.0, half=False)
    assert chisquare_pvalue(counts_of(out), printed.pmf(data)) < ALPHA


def shifted_scores(d: NDArray[Any]) -> NDArray[np.int64]:
    """Candidates 0..4, score −|Σ d − c|: per-candidate sensitivity 1 on records in {0, 1}."""
    total = int(np.sum(d))
    return np.array([-abs(total - c) for c in range(5)], dtype=np.int64)


@pytest.mark.parametrize("base", BASES, ids=str)
@pytest.mark.parametrize(
    ("domain", "scores"), [((0, 1, 2), counts3), ((0, 1), shifted_scores)], ids=["counts", "dist"]
)
@settings(max_examples=30)
@given(data=st.data())
def test_exponential_mechanism_is_exactly_pure_dp(
    base: Fraction, domain: tuple[int, ...], scores: Callable[[Any], Any], data: st.DataObject
) -> None:
    """half=True: ε-DP exactly (Fractions) on Hypothesis-drawn substitute neighbours."""
    s, s2 = data.draw(substitute_pair(domain))
    mech = ExponentialMechanism(scores, 1, base=base)
    p, p2 = mech.pmf(s), mech.pmf(s2)
    assert all(isinstance(v, Fraction) for v in p.values())
    assert satisfies_pure_dp(p, p2, mech.privacy.ratio)


@pytest.mark.parametrize("base", BASES, ids=str)
def test_exponential_without_half_is_not_epsilon_dp(base: Fraction) -> None:
    """Mutant (the printed form, half=False): some neighbouring pair violates its claimed
    ratio. Known witness: S = (0, 0, 0), S' = (0, 0, 1) with the counting scores."""
    mech = ExponentialMechanism(counts3, 1, base=base, half=False)
    assert not satisfies_pure_dp(mech.pmf((0, 0, 0)), mech.pmf((0, 0, 1)), mech.privacy.ratio)
    failures = [
        (s, s2)
        for s, s2 in pairs((0, 1, 2), 4)
        if not satisfies_pure_dp(mech.pmf(s), mech.pmf(s2), mech.privacy.ratio)
    ]
    assert failures
    # …while it is still 2ε-DP, as the errata note says.
    assert all(
        satisfies_pure_dp(mech.pmf(s), mech.pmf(s2), mech.privacy.ratio**2)
        for s, s2 in pairs((0, 1, 2), 4)
    )


# --- RandomizedResponse --------------------------------------------------------------------


@pytest.mark.parametrize(
    "mech",
    [
        RandomizedResponse(2, base=Fraction(1, 3)),
        RandomizedResponse(4, base=Fraction(2, 5)),
        RandomizedResponse(3, epsilon=1.0),
        RandomizedResponse(5, epsilon=0.1),
    ],
    ids=["k2-r3", "k4-r5/2", "k3-eps1", "k5-eps0.1"],
)
def test_randomized_response_law(mech: RandomizedResponse) -> None:
    """Chi-square per record, α = 1e-6, 2·10^5 draws each, against ``local_pmf(x)``.
    Negative control (α = 1e-6): the same draws against the local law of k-ary RR with
    ratio 1.5·e^ε must be rejected."""
    data = [0, 1, 1, 0] if mech.k == 2 else [0, mech.k - 1, 1]
    out = mech.sample(data, N, rng(91))
    wrong = RandomizedResponse(mech.k, base=1 / (Fraction(mech.privacy.ratio) * Fraction(3, 2)))
    for j, x in enumerate(data):
        observed = counts_of(out[:, j])
        assert chisquare_pvalue(observed, mech.local_pmf(x)) >= ALPHA, (j, x)
        assert chisquare_pvalue(observed, wrong.local_pmf(x)) < ALPHA, (j, x)


@pytest.mark.parametrize(("k", "ratio"), [(2, Fraction(3)), (3, Fraction(2)), (5, Fraction(5, 2))])
def test_randomized_response_is_exactly_ldp(k: int, ratio: Fraction) -> None:
    """ε-LDP exactly at ratio = e^ε; a claimed ratio 1/100 smaller fails."""
    mech = RandomizedResponse(k, base=1 / ratio)
    table = mech.local_distributions()
    assert all(is_distribution(p) for p in table.values())
    assert satisfies_ldp(table, mech.privacy.ratio)
    assert not satisfies_ldp(table, ratio * Fraction(99, 100))


def rr_vector_pmf(mech: RandomizedResponse, data: Sequence[int]) -> dict[tuple[int, ...], Prob]:
    """Exact law of the vector of reports on a dataset (positional product of local laws)."""
    out: dict[tuple[int, ...], Prob] = {(): Fraction(1)}
    for x in data:
        law = mech.local_pmf(x)
        out = {(*o, y): p * py for o, p in out.items() for y, py in law.items()}
    return out


@settings(max_examples=30)
@given(
    k=st.integers(min_value=2, max_value=4),
    data=st.data(),
)
def test_randomized_response_is_dp_under_substitution(k: int, data: st.DataObject) -> None:
    """Applied to every record, RR is ε-DP under (positional) substitution, exactly."""
    mech = RandomizedResponse(k, base=Fraction(1, 2))
    s = data.draw(st.lists(st.integers(0, k - 1), min_size=1, max_size=3))
    i = data.draw(st.integers(0, len(s) - 1))
    new = data.draw(st.integers(0, k - 1).filter(lambda v: v != s[i]))
    s2 = [*s[:i], new, *s[i + 1 :]]
    assert satisfies_pure_dp(rr_vector_pmf(mech, s), rr_vector_pmf(mech, s2), mech.privacy.ratio)


# --- NoisyMajorityVote ---------------------------------------------------------------------

NMV_DATA = np.array([[0, 1], [0, 1], [0, 0], [1, 0], [1, 0], [1, 1], [1, 0]])  # m = (1, −2, 0)


@pytest.mark.parametrize(
    "mech",
    [
        NoisyMajorityVote(3, base=Fraction(2, 3)),
        NoisyMajorityVote(3, epsilon=0.5),
        NoisyMajorityVote(3, epsilon=0.5, idealised=True),
    ],
    ids=["base-2/3", "eps-0.5", "idealised"],
)
def test_noisy_majority_law(mech: NoisyMajorityVote) -> None:
    """Per cell: exact binomial test, α = 1e-6, 2·10^5 draws, of P(h_C = 1) =
    ``one_probabilities``. Whole vector (exact path): chi-square, α = 1e-6, against ``pmf``.
    Negative control (α = 1e-6): the bits against the probabilities of a dataset with one
    label flipped in cell 0 must be rejected (binomial on cell 0, and the chi-square)."""
    flipped = NMV_DATA.copy()
    flipped[2, 1] = 1  # cell 0: margin 1 → 3
    out = mech.sample(NMV_DATA, N, rng(101))
    ones = out.sum(axis=0)
    for c, p in enumerate(mech.one_probabilities(NMV_DATA)):
        assert binomial_pvalue(int(ones[c]), N, p) >= ALPHA, c
    assert binomial_pvalue(int(ones[0]), N, mech.one_probabilities(flipped)[0]) < ALPHA
    if mech.idealised:
        return
    codes = counts_of(out.astype(np.int64) @ (1 << np.arange(3)))

    def coded(pmf: Mapping[tuple[int, ...], Prob]) -> dict[Hashable, Prob]:
        return {sum(b << j for j, b in enumerate(bits)): p for bits, p in pmf.items()}

    pmf = mech.pmf(NMV_DATA)
    assert is_distribution(pmf)
    assert chisquare_pvalue(codes, coded(pmf)) >= ALPHA
    assert chisquare_pvalue(codes, coded(mech.pmf(flipped))) < ALPHA


NMV_DOMAIN = [(c, y) for c in range(2) for y in (0, 1)]


def as_records(s: Sequence[tuple[int, int]]) -> NDArray[np.int64]:
    return np.array(s, dtype=np.int64).reshape(-1, 2)


@pytest.mark.parametrize("base", BASES, ids=str)
@settings(max_examples=40)
@given(data=st.data())
def test_noisy_majority_is_exactly_pure_dp(base: Fraction, data: st.DataObject) -> None:
    """ε-DP exactly (Fractions) for Hypothesis-drawn substitute neighbours of (cell, label)
    records over 2 cells, ratio = base^(−2) = e^ε."""
    s, s2 = data.draw(substitute_pair(NMV_DOMAIN))
    mech = NoisyMajorityVote(2, base=base)
    assert mech.privacy.ratio == base**-2
    p, p2 = mech.pmf(as_records(s)), mech.pmf(as_records(s2))
    assert all(isinstance(v, Fraction) for v in p.values())
    assert satisfies_pure_dp(p, p2, mech.privacy.ratio)


@pytest.mark.parametrize("base", BASES, ids=str)
def test_noisy_majority_checked_at_half_epsilon_fails(base: Fraction) -> None:
    """Mutant: the noise calibrated for ε checked against ε/2 (ratio √e^ε) must fail on
    some neighbouring pair (e.g. flipping a label moves the margin by 2)."""
    mech = NoisyMajorityVote(2, base=base)
    half = exact_sqrt(Fraction(mech.privacy.ratio))
    failures = [
        (s, s2)
        for s, s2 in pairs(NMV_DOMAIN, 3)
        if not satisfies_pure_dp(mech.pmf(as_records(s)), mech.pmf(as_records(s2)), half)
    ]
    assert failures


# --- StabilityHistogram --------------------------------------------------------------------

HIST_CASES = [(Fraction(1, 2), Fraction(1, 10)), (Fraction(2, 3), Fraction(1, 20))]


def cell_counts(samples: NDArray[np.float64], cap: int) -> dict[Hashable, int]:
    """Released values of one cell as outcomes of ``cell_pmf``: 0, τ..cap−1, and TAIL."""
    low = samples[samples < cap].astype(np.int64)
    out: dict[Hashable, int] = dict(counts_of(low))
    out[TAIL] = int(np.sum(samples >= cap))
    return out


@pytest.mark.parametrize(
    "mech",
    [
        StabilityHistogram(4, base=Fraction(2, 3), delta=Fraction(1, 20)),
        StabilityHistogram(4, epsilon=1.0, delta=1e-3),
    ],
    ids=["base-2/3", "eps-1"],
)
def test_stability_histogram_law(mech: StabilityHistogram) -> None:
    """Per cell: chi-square, α = 1e-6, 2·10^5 draws, against ``cell_pmf(count, cap)``, and
    exact binomial test (α = 1e-6) of the release frequency against
    ``release_probability(count)``. Negative control (α = 1e-6): the same draws against the
    laws of count + 1 must be rejected. Empty cells are never released."""
    tau = int(mech.threshold)
    counts = [tau - 1, tau + 1, 0, tau - 3]
    data = np.repeat(np.arange(4), counts)
    cap = tau + 4
    out = mech.sample(data, N, rng(111))
    for cell, c in enumerate(counts):
        column = out[:, cell]
        if c == 0:
            assert np.all(column == 0)
            assert mech.release_probability(0) == 0
            continue
        assert np.all((column == 0) | (column >= tau))
        observed = cell_counts(column, cap)
        assert chisquare_pvalue(observed, mech.cell_pmf(c, cap)) >= ALPHA, cell
        assert chisquare_pvalue(observed, mech.cell_pmf(c + 1, cap)) < ALPHA, cell
        released = int(np.sum(column > 0))
        assert binomial_pvalue(released, N, mech.release_probability(c)) >= ALPHA, cell
        assert binomial_pvalue(released, N, mech.release_probability(c + 1)) < ALPHA, cell


def test_stability_histogram_idealised_release_probability() -> None:
    """Idealised path: exact binomial test, α = 1e-6, 2·10^5 draws, of the release frequency
    of each cell against ``release_probability``; negative control (α = 1e-6): against
    ``release_probability(count + 1)``."""
    mech = StabilityHistogram(3, epsilon=1.0, delta=1e-3, idealised=True)
    tau = float(mech.threshold)
    counts = [math.floor(tau), math.ceil(tau) + 2, 0]
    data = np.repeat(np.arange(3), counts)
    out = mech.sample(data, N, rng(112))
    assert np.all(out[:, 2] == 0)
    for cell in (0, 1):
        column = out[:, cell]
        assert np.all((column == 0) | (column >= tau))
        released = int(np.sum(column > 0))
        c = counts[cell]
        assert binomial_pvalue(released, N, mech.release_probability(c)) >= ALPHA
        assert binomial_pvalue(released, N, mech.release_probability(c + 1)) < ALPHA


@pytest.mark.parametrize(("base", "delta"), HIST_CASES, ids=["1/2", "2/3"])
@settings(max_examples=30)
@given(data=st.data())
def test_stability_histogram_is_exactly_approx_dp(
    base: Fraction, delta: Fraction, data: st.DataObject
) -> None:
    """(ε, δ)-DP exactly (Fractions) on Hypothesis-drawn substitute neighbours over 3 bins,
    with cap = threshold + 2 (≥ every count compared)."""
    mech = StabilityHistogram(3, base=base, delta=delta)
    cap = int(mech.threshold) + 2
    s, s2 = data.draw(substitute_pair((0, 1, 2)))
    assert cap >= len(s)
    p, p2 = mech.pmf(s, (0, cap - 1)), mech.pmf(s2, (0, cap - 1))
    assert is_distribution(p) and is_distribution(p2)
    assert satisfies_approx_dp(p, p2, mech.privacy.ratio, mech.privacy.delta)


@pytest.mark.parametrize(("base", "delta"), HIST_CASES, ids=["1/2", "2/3"])
def test_stability_histogram_mutants_fail(base: Fraction, delta: Fraction) -> None:
    """Not pure DP (δ = 0 fails: a newly occupied cell can be released), and a threshold
    lowered to 1 breaks the (ε, δ) guarantee on some neighbouring pair."""
    mech = StabilityHistogram(3, base=base, delta=delta)
    cap = int(mech.threshold) + 2
    all_pairs = pairs((0, 1, 2), 3)
    ratio = mech.privacy.ratio

    def violated(level: Fraction) -> bool:
        return any(
            not satisfies_approx_dp(
                mech.pmf(a, (0, cap - 1)), mech.pmf(b, (0, cap - 1)), ratio, level
            )
            for a, b in all_pairs
        )

    assert not violated(delta)
    assert violated(Fraction(0))
    mech.threshold = 1
    assert violated(delta)


def test_stability_histogram_sparse_function() -> None:
    """Cells absent from the data never appear; released values are ≥ the threshold."""
    cells = np.array([10**12] * 40 + [5] * 3 + [-7] * 25 + [3])
    present = set(cells.tolist())
    for idealised in (False, True):
        threshold = StabilityHistogram(None, 1.0, 1e-3, idealised=idealised).threshold
        seen: set[int] = set()
        generator = rng(121)
        for _ in range(200):
            ids, values = stability_histogram(cells, 1.0, 1e-3, generator, idealised=idealised)
            assert ids.dtype == np.int64 and values.dtype == np.float64
            assert ids.shape == values.shape
            assert set(ids.tolist()) <= present
            assert np.all(values >= threshold)
            seen |= set(ids.tolist())
        assert 10**12 in seen and -7 in seen  # counts far above the threshold are released


def test_paper_threshold() -> None:
    for eps, delta in ((1.0, 1e-3), (0.3, 1e-6), (2.0, 0.5)):
        expected = 2 / eps * math.log(2 / delta) + 1
        assert paper_threshold(eps, delta) == pytest.approx(expected, rel=1e-12)
        mech = StabilityHistogram(3, eps, delta, idealised=True)
        assert mech.threshold == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(
    "mech",
    [
        *(StabilityHistogram(3, base=base, delta=delta) for base, delta in HIST_CASES),
        StabilityHistogram(3, epsilon=1.0, delta=1e-3),
        StabilityHistogram(3, epsilon=0.1, delta=1e-6),
        StabilityHistogram(3, epsilon=3.0, delta=0.2),
    ],
    ids=["base-1/2", "base-2/3", "eps-1", "eps-0.1", "eps-3"],
)
def test_discrete_threshold_is_the_smallest_valid(mech: StabilityHistogram) -> None:
    """τ is the smallest integer ≥ 1 with (1 + e^ε)·P(Z ≥ τ) ≤ δ (exact with a rational base,
    floats on the ε path)."""
    tau, ratio, delta = int(mech.threshold), mech.privacy.ratio, mech.privacy.delta
    assert (1 + ratio) * mech.noise.sf(tau) <= delta
    assert tau == 1 or (1 + ratio) * mech.noise.sf(tau - 1) > delta


# --- LaplaceMechanism ----------------------------------------------------------------------

LAPLACE_DATA = np.array([0.2, 0.9, 0.5, 0.4, 1.7, -0.3])  # clipped sum 3.0
NEIGHBOUR_DATA = np.array([0.2, 0.9, 0.5, 0.4, 1.7, 1.0])  # clipped sum 4.0


def test_laplace_lattice_is_exact_and_idealised_is_not() -> None:
    lattice = LaplaceMechanism(clipped_sum_and_mean, 1.0, 0.5, dimension=2)
    assert lattice.privacy.exact_sampler is True
    assert lattice.privacy.epsilon <= 0.5
    out = lattice.sample(LAPLACE_DATA, 10_000, rng(131))
    units = out / lattice.granularity
    assert np.all(units == np.round(units))
    idealised = LaplaceMechanism(clipped_sum, 1.0, 0.5, idealised=True)
    assert idealised.privacy.exact_sampler is False
    ideal_units = idealised.sample(LAPLACE_DATA, 10_000, rng(131)) / lattice.granularity
    assert not np.all(ideal_units == np.round(ideal_units))


def laplace_moment_pvalues(
    x: NDArray[np.float64], mean: float, scale: float
) -> tuple[float, float]:
    """z-tests of the sample mean (variance 2b²) and sample variance of Lap(b) draws.

    Var(x̄) = 2b²/n; Var(s²) ≈ (μ₄ − σ⁴)/n = 20b⁴/n (μ₄ = 24b⁴). Two-sided p-values (normal
    approximation, n ≥ 2·10^5)."""
    n = x.size
    var = 2 * scale**2
    p_mean = z_pvalue(float(x.mean()), mean, math.sqrt(var / n))
    p_var = z_pvalue(float(x.var(ddof=1)), var, math.sqrt(20 * scale**4 / n))
    return p_mean, p_var


@pytest.mark.parametrize("idealised", [False, True], ids=["lattice", "idealised"])
def test_laplace_mean_and_variance(idealised: bool) -> None:
    """z-tests at α = 1e-6, 4·10^5 draws: mean f(S), variance 2·scale². Negative controls
    (α = 1e-6): draws on a neighbouring dataset (f one higher) fail the mean test; draws of
    the mechanism with 1.1× the sensitivity fail the variance test."""
    mech = LaplaceMechanism(clipped_sum, 1.0, 0.5, idealised=idealised)
    f = clipped_sum(LAPLACE_DATA)
    x = mech.sample(LAPLACE_DATA, 2 * N, rng(141))
    p_mean, p_var = laplace_moment_pvalues(x, f, mech.scale)
    assert p_mean >= ALPHA and p_var >= ALPHA, (p_mean, p_var)
    shifted = mech.sample(NEIGHBOUR_DATA, 2 * N, rng(142))
    assert laplace_moment_pvalues(shifted, f, mech.scale)[0] < ALPHA
    wider = LaplaceMechanism(clipped_sum, 1.1, 0.5, idealised=idealised)
    wide = wider.sample(LAPLACE_DATA, 2 * N, rng(143))
    assert laplace_moment_pvalues(wide, f, mech.scale)[1] < ALPHA


@pytest.mark.parametrize("idealised", [False, True], ids=["lattice", "idealised"])
def test_laplace_sf_matches_empirical_survival(idealised: bool) -> None:
    """Exact binomial tests at α = 1e-6, 2·10^5 draws, of #{M(S) > t} against ``sf(S, t)``
    at several t. Negative control (α = 1e-6): draws on a neighbouring dataset against
    ``sf(S, f(S))`` must be rejected."""
    mech = LaplaceMechanism(clipped_sum, 1.0, 0.5, idealised=idealised)
    f = clipped_sum(LAPLACE_DATA)
    x = mech.sample(LAPLACE_DATA, N, rng(151))
    for c in (-3.0, -1.0, 0.0, 0.3, 1.0, 2.5):
        t = f + c * mech.scale
        p = binomial_pvalue(int(np.sum(x > t)), N, mech.sf(LAPLACE_DATA, t))
        assert p >= ALPHA, (c, p)
    y = mech.sample(NEIGHBOUR_DATA, N, rng(152))
    assert binomial_pvalue(int(np.sum(y > f)), N, mech.sf(LAPLACE_DATA, f)) < ALPHA
    with pytest.raises(ValueError, match=r"^dimension:"):
        LaplaceMechanism(clipped_sum_and_mean, 1.0, 0.5, dimension=2).sf(LAPLACE_DATA, 0.0)


def test_laplace_lattice_value_is_f_snapped() -> None:
    mech = LaplaceMechanism(clipped_sum, 1.0, 0.5)
    units = mech.lattice_value([0.1, 0.3])
    assert units.dtype == np.int64
    assert abs(units[0] * mech.granularity - 0.4) <= mech.granularity / 2
