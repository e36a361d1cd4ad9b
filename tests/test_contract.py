"""Hostile input to the mechanisms, noise samplers and learners: each reported case pinned
(a named refusal or a correct result), the two registered obligations, and a negative control
showing the harness flags a real bug."""

from __future__ import annotations

import math
import warnings
from fractions import Fraction
from typing import Annotated, Any

import numpy as np
import pytest

from dpspec.contract import PrivacyLevel
from dpspec.learners import (
    PrivateHistogramClassifier,
    PrivateSemiSupervisedClassifier,
    PrivateUnboundedClassifier,
)
from dpspec.learners.keyed_noise import BLOCK, block_generator, block_size, keyed_values
from dpspec.learners.pcde import PrivateHistogramDensity
from dpspec.mechanisms import (
    DiscreteLaplaceMechanism,
    ExponentialMechanism,
    LaplaceMechanism,
    NoisyMajorityVote,
    RandomizedResponse,
    StabilityHistogram,
)
from dpspec.proofs.engine.sweep import least_cpu_seconds
from dpspec.validation import (
    LIMITS,
    MAX_EPSILON,
    Array,
    Checked,
    EpsilonArg,
    FlagArg,
    GeneratorArg,
    SizeArg,
    check_epsilon,
    exact_fraction,
    example,
)

G = 21474836511  # ε = 0.1 → numerator 429496729: G·numerator is just above 2^63


def _count(d: Any) -> int:
    return int(np.sum(d))


def _rng(seed: int = 0) -> np.random.Generator:
    return np.random.default_rng(seed)


D = np.array([0, 1, 1])
X2 = _rng(1).random((60, 2))
Y2 = (X2[:, 0] > 0.5).astype(np.int64)


def _refused(call: Any, name: str) -> str:
    with pytest.raises((ValueError, TypeError)) as info:
        call()
    assert name in str(info.value), str(info.value)
    return str(info.value)


# --- silent privacy loss ---------------------------------------------------------------------


def test_exponential_mechanism_large_scores_do_not_wrap() -> None:
    mech = ExponentialMechanism(lambda d: np.array([0, int(d[0])]), 1, 0.1)
    for top in (G, G - 1, 2**62 - 1):
        law = mech.pmf(np.array([top]))
        assert law[1] == 1.0 and law[0] == 0.0
        assert np.all(mech.sample(np.array([top]), 100, _rng()) == 1)


def test_exponential_mechanism_slow_path_keeps_the_law() -> None:
    """A gap just past the int64 fast path: the split exponents keep P(i) ∝ e^{-γ_i}."""
    eps = Fraction(429496729, 2**32)
    gap = 2**62 // eps.numerator + 1  # gap·num ≥ 2^62: Python-int path
    mech = ExponentialMechanism(lambda d: np.array([0, gap, gap]), 1, eps)
    draws = mech.sample(D, 4000, _rng(5))
    assert set(np.unique(draws).tolist()) <= {1, 2}
    assert abs(float(np.mean(draws == 1)) - 0.5) < 6 * math.sqrt(0.25 / 4000)


def test_discrete_laplace_refuses_values_that_would_wrap() -> None:
    _refused(
        lambda: DiscreteLaplaceMechanism(lambda d: 2**63 - 1, 1, 1.0).sample(D, 5, _rng()),
        "query",
    )
    top = 2**62 - 1
    out = DiscreteLaplaceMechanism(lambda d: top, 1, 1.0).sample(D, 200, _rng())
    assert all(abs(int(v) - top) < 200 for v in out.tolist())


def test_pcde_no_release_message_has_no_data_statistic() -> None:
    msg = _refused(lambda: PrivateHistogramDensity(0.1, 1e-9, random_state=0).fit(X2[:5]), "X:")
    assert "occupied" not in msg and "cubes" not in msg.split("threshold")[0]


def test_semi_supervised_no_release_names_x_unlabeled() -> None:
    ssl = PrivateSemiSupervisedClassifier(epsilon=0.1, delta=1e-9, random_state=0)
    msg = _refused(lambda: ssl.fit(X2[:2, :1], [0, 1], X2[:2, :1]), "X_unlabeled:")
    assert "occupied" not in msg


# --- one epsilon rule, numpy scalars ----------------------------------------------------------


@pytest.mark.parametrize("eps", [710, 709.8, 1e6, Fraction(10**9)])
def test_epsilon_above_the_limit_is_refused_everywhere(eps: Any) -> None:
    calls = [
        lambda: DiscreteLaplaceMechanism(_count, 1, eps),
        lambda: LaplaceMechanism(_count, 1.0, eps),
        lambda: ExponentialMechanism(lambda d: np.array([0, 1]), 1, eps),
        lambda: RandomizedResponse(2, eps),
        lambda: NoisyMajorityVote(3, eps),
        lambda: StabilityHistogram(3, eps),
        lambda: PrivateHistogramClassifier(eps).fit(X2, Y2),
        lambda: PrivateHistogramDensity(eps).fit(X2),
        lambda: PrivateUnboundedClassifier(eps).fit(X2, Y2),
    ]
    for call in calls:
        msg = _refused(call, "epsilon")
        assert str(MAX_EPSILON) in msg


def test_epsilon_at_the_limit_works() -> None:
    out = DiscreteLaplaceMechanism(_count, 1, MAX_EPSILON).sample(D, 50, _rng())
    assert np.all(out == 2)  # e^-700 noise: the value itself
    assert RandomizedResponse(3, 700).randomise(np.array([0, 1, 2]), _rng()).tolist() == [0, 1, 2]
    _refused(lambda: PrivateUnboundedClassifier(400.0).fit(X2, Y2), "epsilon")  # 2ε > 700


@pytest.mark.parametrize("scalar", [np.float32(0.5), np.float16(0.5), np.longdouble(0.5)])
def test_numpy_scalar_epsilon_is_converted_exactly(scalar: Any) -> None:
    mech = DiscreteLaplaceMechanism(_count, 1, scalar)
    assert mech.privacy.epsilon == 0.5
    assert exact_fraction(np.float32(0.1), "epsilon") == Fraction(13421773, 2**27)


@pytest.mark.parametrize("bad", [1 + 0j, True, np.bool_(True), "0.5", [0.5], np.complex64(1)])
def test_non_real_epsilon_is_a_type_error_naming_it(bad: Any) -> None:
    with pytest.raises(TypeError, match="epsilon"):
        check_epsilon(bad)
    with pytest.raises(TypeError, match="epsilon"):
        DiscreteLaplaceMechanism(_count, 1, bad)


# --- unclear messages --------------------------------------------------------------------------


def test_unclear_messages_now_name_the_argument() -> None:
    _refused(lambda: DiscreteLaplaceMechanism(_count, 1, base=Fraction(1, 10**30)), "base")
    msg = _refused(
        lambda: LaplaceMechanism(_count, 1e-300, 1.0).sample(D, 2, _rng()), "sensitivity"
    )
    assert "query" in msg
    _refused(lambda: LaplaceMechanism(_count, 1.0, 1.0).sf(D, float("nan")), "t")
    assert LaplaceMechanism(_count, 1.0, 1.0).sf(D, float("inf")) == 0.0
    assert LaplaceMechanism(_count, 1.0, 1.0).sf(D, 1e308) == 0.0
    mech = DiscreteLaplaceMechanism(_count, 1, base=Fraction(1, 2))
    _refused(lambda: mech.pmf(D, (0.5, 2.5)), "window")  # type: ignore[arg-type]
    _refused(lambda: mech.sample(None, 3, _rng()), "data")  # type: ignore[arg-type]
    _refused(
        lambda: PrivateHistogramClassifier(random_state=0).fit(
            X2[:4], np.array(["a", 1, "a", 1], dtype=object)
        ),
        "y",
    )
    clf = PrivateHistogramClassifier(random_state=0).fit(X2, Y2)
    _refused(lambda: clf.score(X2, Y2[:10]), "y")
    _refused(lambda: PrivateHistogramClassifier(random_state=2**128).fit(X2, Y2), "random_state")
    _refused(lambda: PrivateHistogramDensity(side=1e-10).fit(np.full((5, 2), 1e300)), "X")
    _refused(lambda: RandomizedResponse(2, 1.0).randomise(np.array([1e300]), _rng()), "x")


def test_no_runtime_warning_on_huge_coordinates() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _refused(lambda: PrivateHistogramDensity(side=1e-10).fit(np.full((5, 2), 1e300)), "X")
        model = PrivateUnboundedClassifier(2.0, 1e-3, radius=5e-324, random_state=0)
        model.fit(np.full((30, 1), 0.5), np.arange(30) % 2)  # x/r overflows: clipped slabs
        assert model.predict(np.array([[1e300]])).shape == (1,)


# --- unbounded work ------------------------------------------------------------------------


def test_unbounded_requests_are_refused_up_front() -> None:
    mech = DiscreteLaplaceMechanism(_count, 1, base=Fraction(1, 2))
    assert "65536" in _refused(lambda: mech.pmf(D, (0, 10**8)), "window")

    def refusals() -> None:
        _refused(lambda: DiscreteLaplaceMechanism(_count, 1, 1.0).sample(D, 10**12, _rng()), "n")
        _refused(lambda: NoisyMajorityVote(10**12, 1.0), "cells")
        _refused(
            lambda: PrivateSemiSupervisedClassifier(n_synthetic=10**9).fit(
                X2[:4, :1], [0, 1, 0, 1], X2[:, :1]
            ),
            "n_synthetic",
        )
        _refused(lambda: RandomizedResponse(10**9, 1.0), "k")

    assert least_cpu_seconds(refusals, 5.0) < 5.0  # CPU seconds: a bound, not a timing
    assert LIMITS["draws"] == 2**27


def _work_limit_cases() -> list[tuple[str, int, Any]]:
    """(label, work limit, call with n = that limit or beyond) of the entries whose sample
    size is the one :data:`dpspec.validation.SampleSizeArg` and whose work stops below it."""
    from dpspec.adaptive.deviating import MAX_ENUMERATED_SAMPLE_SIZE, PredicateMechanism
    from dpspec.adaptive.game import (
        MAX_FLOAT_SAMPLE_SIZE,
        ExactAnswers,
        LaplaceAnswers,
        RoundingAnswers,
    )
    from dpspec.compression.schemes import MAX_SAMPLE, bv_target, random_realizable_sample

    third = [Fraction(1, 3)] * 3
    return [
        (
            "PredicateMechanism",
            MAX_ENUMERATED_SAMPLE_SIZE,
            lambda n: PredicateMechanism(3, n, third, base=Fraction(1, 2)),
        ),
        ("ExactAnswers", MAX_FLOAT_SAMPLE_SIZE, ExactAnswers),
        ("LaplaceAnswers", MAX_FLOAT_SAMPLE_SIZE, lambda n: LaplaceAnswers(n, 3, 1.0, 1e-6)),
        ("RoundingAnswers", MAX_FLOAT_SAMPLE_SIZE, lambda n: RoundingAnswers(n, 0.125)),
        ("bv_target", MAX_SAMPLE, lambda n: bv_target(n, _rng())),
        (
            "random_realizable_sample",
            MAX_SAMPLE,
            lambda n: random_realizable_sample("thresholds", n, _rng()),
        ),
    ]


@pytest.mark.parametrize("label", [case[0] for case in _work_limit_cases()])
def test_work_limits_below_the_one_sample_size_name_the_parameter_and_the_limit(
    label: str,
) -> None:
    """One sample-size domain (n ≤ 2^62); an entry that cannot finish that much keeps its own
    work limit and refuses beyond it before any work, naming the parameter and the limit."""
    from dpspec.validation import INT_BOUND

    limit, call = next((lim, c) for name, lim, c in _work_limit_cases() if name == label)
    message = _refused(lambda: call(limit + 1), "must be an integer")
    assert message.split(":")[0] in ("n", "m") and f"[1, {limit}]" in message, message
    assert f"[1, {INT_BOUND}]" in _refused(lambda: call(INT_BOUND + 1), "must be an integer")
    if limit < 2**20:  # small enough to run at the limit itself
        call(limit)


# --- keyed noise: O(n + cells), same numbers -----------------------------------------------


def _keyed_values_reference(key: int, cells: Any, sampler: Any) -> Any:
    """The former implementation (one pass over all cells per block), for equality."""
    cells = np.asarray(cells, dtype=np.int64)
    blocks = cells // BLOCK
    out = None
    for b in np.unique(blocks):
        mask = blocks == b
        values = sampler(BLOCK, block_generator(key, int(b)))
        if out is None:
            out = np.empty(cells.shape, dtype=values.dtype)
        out[mask] = values[cells[mask] % BLOCK]
    return out


def test_keyed_values_gives_the_same_numbers_as_before() -> None:
    cells = _rng(3).integers(0, 50 * BLOCK, size=5000)

    def sampler(size: int, g: np.random.Generator) -> Any:
        return g.integers(-(10**6), 10**6, size=size)

    assert np.array_equal(
        keyed_values(11, cells, sampler), _keyed_values_reference(11, cells, sampler)
    )
    # a fixed function of (key, cell): any order, any subset
    perm = _rng(4).permutation(cells.size)
    shuffled = keyed_values(11, cells[perm], sampler)
    assert np.array_equal(shuffled, keyed_values(11, cells, sampler)[perm])


def test_block_size_is_public_and_keeps_small_grids() -> None:
    assert block_size(2**18) == BLOCK and block_size(1) == 1 and block_size(700) == 700
    assert block_size(2**24) == 2**14 and block_size(2**62) == 2**14
    assert block_size(2**24, 2 * 10**6) == 2**14  # dense use: few large blocks
    assert block_size(2**60, 10**5) == 2**6  # sparse use: small blocks


def test_pcl_large_grid_is_fast_and_deterministic() -> None:
    rng = _rng(6)
    X = rng.random((20_000, 2))
    y = (rng.random(20_000) < 0.5).astype(np.int64)
    a = PrivateHistogramClassifier(1.0, cells_per_axis=1024, random_state=3).fit(X, y)
    b = PrivateHistogramClassifier(1.0, cells_per_axis=1024, random_state=3).fit(X, y)
    assert np.array_equal(a.cell_bits_, b.cell_bits_)
    assert np.array_equal(a.predict(X[:500]), b.predict(X[:500]))
    fit = PrivateHistogramClassifier(1.0, cells_per_axis=1024, random_state=3).fit
    assert least_cpu_seconds(lambda: fit(X, y), 20.0) < 20.0  # CPU seconds, not wall clock


# --- the registered obligations --------------------------------------------------------------


def test_one_distribution_for_every_draw_costs_memory_of_one_row() -> None:
    """A 1-D weight vector is not expanded to (size, K): K = 10^6 candidates, 10^4 draws (the
    former code allocated 74.5 GiB), and the draws equal those of the explicit 2-D rows."""
    from dpspec.noise import categorical_exp_neg

    a = np.array([0, 3, 1, 7, 2], dtype=np.int64)
    one = categorical_exp_neg(a, 4, 300, _rng(9))
    rows = categorical_exp_neg(np.tile(a, (300, 1)), 4, 300, _rng(9))
    assert np.array_equal(one, rows)
    mech = ExponentialMechanism(lambda d: np.arange(10**6) % 3, 1, 0.01)
    draws = mech.sample(D, 10**4, _rng())
    assert draws.shape == (10**4,) and draws.min() >= 0 and draws.max() < 10**6
    assert least_cpu_seconds(lambda: mech.sample(D, 10**4, _rng()), 30.0) < 30.0  # CPU seconds


# --- the contract by discovery ----------------------------------------------------------------


@example(every={"data": np.array([0.0, 1.0])}, sample={"size": 3})
class OnContract(Checked):
    def __init__(self, epsilon: EpsilonArg = 1.0, *, idealised: FlagArg = False) -> None:
        self.epsilon, self.idealised = epsilon, idealised
        self.privacy = PrivacyLevel(float(epsilon), math.exp(epsilon), 0, not idealised)

    def sample(self, data: Annotated[Any, Array()], size: SizeArg, rng: GeneratorArg) -> Any:
        return np.asarray(data).sum() + rng.laplace(0, 1 / self.epsilon, size)


def test_a_new_class_without_the_contract_is_reported() -> None:
    """A public mechanism written the way the newest families were (no Checked base, no
    declared domains, no idealised, ``n`` for ``size``) is reported; the same mechanism on the
    contract is not (but for its exports and registry entry, which a scratch class lacks)."""
    from dpspec.proofs.engine.discovery import PublicObject
    from dpspec.proofs.topics.contract.discovery import contract_problems
    from dpspec.proofs.topics.contract.surface import ScratchMechanism

    bad = contract_problems([PublicObject("dpspec.mechanisms.scratch", "S", ScratchMechanism)])
    for expected in ("does not subclass", "no idealised switch", "(data, size, rng)"):
        assert any(expected in p for p in bad), (expected, bad)
    assert any("no declared domain" in p for p in bad), bad

    good = contract_problems([PublicObject("dpspec.mechanisms.scratch", "G", OnContract)])
    assert all("__all__" in p or "registry" in p for p in good), good


def test_the_sweep_catches_bypassed_validation() -> None:
    """The sweep's control: the real discrete Laplace mechanism whose ``sample`` skips its
    checked wrapper accepts NaN data and a float size; the sweep reports it."""
    from dpspec.proofs.engine.discovery import PublicObject
    from dpspec.proofs.engine.sweep import entries, sweep
    from dpspec.proofs.topics.contract.surface import UncheckedDiscreteLaplace

    public = PublicObject(
        "dpspec.mechanisms.x", "DiscreteLaplaceMechanism", UncheckedDiscreteLaplace
    )
    tally = sweep([e for e in entries((public,)) if e.method == "sample"])
    assert any("size=" in f for f in tally.failures), tally.failures
    clean = PublicObject(
        "dpspec.mechanisms.x", "DiscreteLaplaceMechanism", DiscreteLaplaceMechanism
    )
    assert not sweep([e for e in entries((clean,)) if e.method == "sample"]).failures


def test_fixtures_are_exempt_from_the_root_export_and_the_mechanism_protocol() -> None:
    """A target built broken on purpose (``__dpspec_fixture__``) keeps the validation contract
    but is neither a root export nor a Mechanism stating its privacy; the same class without
    the declaration is reported for both."""
    from dpspec.audit.zoo import FunctionMechanism
    from dpspec.proofs.engine.discovery import PublicObject
    from dpspec.proofs.topics.contract.discovery import claims_no_privacy, contract_problems

    class Undeclared(FunctionMechanism):
        __dpspec_fixture__ = None

    rules = ("missing from dpspec.__all__", "does not satisfy dpspec.contract.Mechanism")
    fixture = contract_problems(
        [PublicObject("dpspec.audit.zoo", "FunctionMechanism", FunctionMechanism)]
    )
    assert claims_no_privacy(FunctionMechanism) and not claims_no_privacy(Undeclared)
    from dpspec.audit import LearnerMechanism

    assert claims_no_privacy(LearnerMechanism)  # an adapter: its privacy is what an audit measures
    assert not any(rule in p for rule in rules for p in fixture), fixture
    plain = contract_problems([PublicObject("dpspec.audit.zoo", "FunctionMechanism", Undeclared)])
    for rule in rules:
        assert any(rule in p for p in plain), (rule, plain)


def test_a_name_in_a_module_exported_whole_is_exported() -> None:
    """``dpspec.audit`` exports its zoo modules whole: their names count as exported through
    the module's own ``__all__``; a name outside that ``__all__`` does not."""
    import dpspec.audit
    from dpspec.audit import zoo
    from dpspec.proofs.engine.discovery import PublicObject
    from dpspec.proofs.topics.contract.discovery import contract_problems

    assert "zoo" in dpspec.audit.__all__ and "laplace_sampler" not in dpspec.audit.__all__
    listed = contract_problems(
        [PublicObject("dpspec.audit.zoo", "laplace_sampler", zoo.laplace_sampler)]
    )
    assert not any("__all__" in p for p in listed), listed
    unlisted = contract_problems(
        [PublicObject("dpspec.audit.zoo", "unlisted", zoo.laplace_sampler)]
    )
    assert any("not in dpspec.audit.__all__" in p for p in unlisted), unlisted
