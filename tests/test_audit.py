"""The statistical auditor: bounds, events, zoo truths, CLI, assert_dp, the lemma layer."""

from __future__ import annotations

import json
import math
import warnings
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from dpspec.audit import (
    AuditResult,
    CallableMechanism,
    Event,
    audit,
    audit_pairs,
    cp_lower,
    cp_upper,
    epsilon_lower,
)
from dpspec.audit.ci import DPViolation, assert_dp, majority_false_alarm
from dpspec.audit.zoo import (
    FunctionMechanism,
    gaussian_epsilon,
    laplace_sampler,
    rare_leak_sampler,
    svt_no_threshold_noise_epsilon,
    zoo,
)
from dpspec.cli import main
from dpspec.proofs.engine.crosshair import check_condition, evaluate_contract
from dpspec.proofs.topics.audit import lemmas as lemmas_audit
from dpspec.spec.audit import binomial_upper_tail, false_alarm_rate_acceptable

pytest_plugins = ["dpspec.audit.pytest_plugin"]

LAPLACE = FunctionMechanism("lap", laplace_sampler(2.0))


def test_cp_bounds() -> None:
    """Against scipy's own Clopper–Pearson interval (two-sided 1 − 2α) and the edge cases."""
    for n, k in [(10, 0), (10, 3), (10, 10), (1000, 17), (10**6, 0), (10**6, 2250)]:
        ci = stats.binomtest(k, n).proportion_ci(0.95, method="exact")
        assert math.isclose(float(cp_lower(k, n, 0.025)), ci.low, rel_tol=1e-9, abs_tol=1e-15)
        assert math.isclose(float(cp_upper(k, n, 0.025)), ci.high, rel_tol=1e-9)
    # no floor: zero successes in N draws bound p by ~ln(1/α)/N, not by a fixed c
    assert float(cp_upper(0, 10**6, 0.025)) < 4e-6
    assert epsilon_lower(0.01, 0.0, 0.02) == -np.inf  # p1_lo <= delta: no evidence


@settings(max_examples=200, deadline=None)
@given(
    st.integers(0, 50),
    st.integers(0, 50),
    st.integers(0, 50),
    st.integers(0, 50),
    st.integers(0, 20),
    st.integers(1, 8),
    st.integers(0, 8),
)
def test_lower_bound_lemma_holds_on_examples(
    p1: int, p2: int, lo_gap: int, hi_gap: int, delta: int, den: int, extra: int
) -> None:
    args = dict(
        p1=p1,
        p2=p2,
        p1_lo=max(p1 - lo_gap, 0),
        p2_hi=p2 + hi_gap,
        delta=delta,
        num=den + extra,
        den=den,
    )
    for fn in (lemmas_audit.lower_bound_sound, lemmas_audit.lower_bound_sound_reversed):
        outcome = evaluate_contract(fn, **args)
        assert outcome is not False, (fn.__name__, args)


def test_false_audit_lemma_has_a_counterexample(tmp_path: Path) -> None:
    """Negative control of the CrossHair obligation: forgetting δ (a common slip when an
    (ε, δ) claim is audited as if pure) must produce a counterexample."""
    bad = tmp_path / "false_audit.py"
    bad.write_text(
        "from dpspec.spec.audit import bound_certified, event_within  # noqa: F401\n\n"
        "def without_delta(p1: int, p2: int, p1_lo: int, p2_hi: int, delta: int,\n"
        "                  num: int, den: int) -> bool:\n"
        '    """\n'
        "    pre: 0 <= p1_lo <= p1\n"
        "    pre: 0 <= p2 <= p2_hi\n"
        "    pre: 0 <= delta\n"
        "    pre: 1 <= den <= num\n"
        "    pre: event_within(p1, p2, delta, num, den)\n"
        "    post: __return__\n"
        '    """\n'
        "    return bound_certified(p1_lo, p2_hi, 0, num, den)\n",
        encoding="utf-8",
    )
    assert check_condition(f"{bad}:without_delta", 20)["status"] == "counterexample"


def test_spec_rate_predicates() -> None:
    assert binomial_upper_tail(3, 0, Fraction(1, 2)) == 1
    assert binomial_upper_tail(3, 3, Fraction(1, 2)) == Fraction(1, 8)
    assert false_alarm_rate_acceptable(15, 200, Fraction(1, 20), Fraction(1, 10**6))
    assert not false_alarm_rate_acceptable(60, 200, Fraction(1, 20), Fraction(1, 10**6))
    with pytest.raises(ValueError, match="violations"):
        false_alarm_rate_acceptable(5, 3, Fraction(1, 20), Fraction(1, 10))


def test_audit_result_json_and_validation(tmp_path: Path) -> None:
    r = audit(LAPLACE, (0.0, 1.0), 0.5, samples=20_000, seed=1)
    assert isinstance(r, AuditResult) and not r.violation
    payload = r.to_json()
    assert set(payload) >= {
        "epsilon_claimed",
        "delta",
        "epsilon_lower",
        "epsilon_estimate",
        "confidence",
        "violation",
        "event",
        "pair",
        "p1",
        "p1_interval",
        "p2",
        "p2_interval",
        "samples_per_side",
        "seconds",
    }
    json.dumps(payload)
    lo, hi = r.p1_interval
    assert lo <= r.p1 <= hi
    for kwargs, name in [
        ({"epsilon": -1.0}, "epsilon"),
        ({"delta": 1.5}, "delta"),
        ({"samples": 0}, "samples"),
        ({"confidence": 1.0}, "confidence"),
    ]:
        args: dict[str, Any] = {"epsilon": 0.5, "samples": 1000, **kwargs}
        with pytest.raises(ValueError, match=name):
            audit(LAPLACE, (0.0, 1.0), **args)
    with pytest.raises(ValueError, match="pair"):
        audit(LAPLACE, (0.0,), 0.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="mechanism"):
        audit(42, (0.0, 1.0), 0.5)
    broken = FunctionMechanism("short", lambda d, n, rng: np.zeros(n - 1))
    with pytest.raises(ValueError, match="mechanism"):
        audit(broken, (0.0, 1.0), 0.5, samples=1000)


def test_callable_shapes() -> None:
    """f(data, n, rng) is used as is; f(data, rng) and f(data) are called once per draw."""

    def vec(d: float, n: int, rng: np.random.Generator) -> np.ndarray:
        return d + rng.laplace(0, 2.0, n)

    def one(d: float, rng: np.random.Generator) -> float:
        return float(d + rng.laplace(0, 2.0))

    rng = np.random.default_rng(0)
    assert CallableMechanism(vec).sample(0.0, 5, rng).shape == (5,)
    assert CallableMechanism(one).sample(0.0, 5, rng).shape == (5,)
    assert CallableMechanism(lambda d: d).sample(3, 4, rng).tolist() == [3, 3, 3, 3]
    # a deterministic release is caught at once: a support shift
    r = audit(lambda d: d, (0, 1), 1.0, samples=2000, selection=2000)
    assert r.violation and r.epsilon_estimate == math.inf


def test_events() -> None:
    out = np.array([0.0, 1.0, 2.0, 3.0])
    assert Event("ge", lo=1.5).contains(out).tolist() == [False, False, True, True]
    assert Event("interval", lo=1.0, hi=2.0).contains(out).tolist() == [False, True, True, False]
    assert Event("atoms", (0.0, 3.0)).contains(out).tolist() == [True, False, False, True]
    rows = np.array([[0, 1], [1, 1], [0, 1]])
    assert Event("atoms", ((0, 1),)).contains(rows).tolist() == [True, False, True]
    assert "output in" in Event("atoms", ((0, 1),)).describe()


def test_zoo_true_epsilons() -> None:
    """The stated truths, recomputed independently where they have a closed form."""
    entries = zoo()
    assert sum(not e.correct for e in entries.values()) >= 12
    assert math.isclose(gaussian_epsilon(4.845, 1e-5), 0.751, abs_tol=5e-4)
    assert math.isclose(gaussian_epsilon(1.0, 1e-5), 4.38, abs_tol=5e-3)
    # noisy max v2b: the separating event's probability is (1 − e^{−ε/2})^5
    assert math.isclose((1 - math.exp(-0.35)) ** 5, 2.25e-3, rel_tol=1e-2)
    assert entries["noisy-max-v2b"].true_epsilon == math.inf
    # exponential mechanism without the ½: the exact verifier's ratio 25/7
    assert math.isclose(entries["exponential-no-half"].true_epsilon, math.log(25 / 7))
    # SVT without threshold noise: ten answers, each at most ε/4 (ν ~ Lap(4/ε))
    true = svt_no_threshold_noise_epsilon((1,) * 5 + (0,) * 5, (0,) * 5 + (1,) * 5, 8.0, 5)
    assert 0.5 < true <= 10 * 0.5 / 4 + 1e-12
    assert entries["histogram-eps-0.2"].true_epsilon == 5.0


def test_audit_pairs_picks_the_revealing_pair() -> None:
    """Screening picks the pair on which the broken mechanism leaks (the other is harmless)."""
    mech = zoo()["laplace-wrong-sensitivity"].mechanism
    r = audit_pairs(mech, [(0.0, 0.5), (0.0, 2.0)], 0.5, samples=200_000, seed=3)
    assert r.pair == (0.0, 2.0) and r.violation and r.extra["screened_pairs"] == 2


def test_assert_dp_fixture(assert_dp: Any) -> None:
    res = assert_dp(LAPLACE, (0.0, 1.0), 0.5, samples=50_000)
    assert res.passed and res.violations == 0
    with pytest.raises(DPViolation, match="violated"):
        assert_dp(LAPLACE, (0.0, 1.0), 0.25, samples=50_000)
    assert math.isclose(majority_false_alarm(9, 0.05), 3.3222e-5, rel_tol=1e-4)
    with pytest.raises(ValueError, match="votes"):
        majority_false_alarm(4, 0.05)


def test_assert_dp_votes() -> None:
    assert assert_dp(LAPLACE, (0.0, 1.0), 0.5, samples=20_000, votes=3).votes == 3


def test_cli_audit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "a.json"
    code = main(
        [
            "audit",
            "builtin:noisy-max-v2b",
            "--samples",
            "200000",
            "--no-progress",
            "--json",
            str(out),
        ]
    )
    assert code == 1
    payload = json.loads(out.read_text(encoding="utf-8"))
    assert payload["violation"] and payload["target"] == "builtin:noisy-max-v2b"
    assert main(["audit", "builtin:laplace", "--samples", "100000", "--no-progress"]) == 0
    assert main(["audit", "builtin:nope"]) == 2
    assert main(["audit", "builtin:laplace", "--pair", "[0"]) == 2
    assert main(["audit", "list"]) == 0
    assert "builtin:noisy-max-v2b" in capsys.readouterr().out


def test_parallel_backends_agree() -> None:
    """jobs > 1 spawns one child generator per block: the same seed gives the same counts on
    joblib's local processes and on a dask.distributed cluster."""
    distributed = pytest.importorskip("distributed")  # in the dev extra; optional for users
    local = audit(LAPLACE, (0.0, 1.0), 0.5, samples=600_000, seed=4, jobs=2)
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster),
    ):
        remote = audit(LAPLACE, (0.0, 1.0), 0.5, samples=600_000, seed=4, jobs=2, backend="dask")
    assert (local.p1, local.p2, local.event) == (remote.p1, remote.p2, remote.event)
    assert not local.violation
    with pytest.raises(ValueError, match="backend"):
        audit(LAPLACE, (0.0, 1.0), 0.5, samples=1000, jobs=2, backend="spark")


def test_statdp_patterns() -> None:
    """Every pattern is a neighbouring pair of query vectors (each answer moves by ≤ 1), the
    eight StatDP shapes are distinct, and the Hypothesis strategy stays neighbouring."""
    from hypothesis import given

    from dpspec.audit._search import query_vector_pairs, statdp_patterns

    pats = statdp_patterns(6)
    assert len(set(pats)) == 8
    for a, b in pats:
        assert len(a) == len(b) == 6 and max(abs(x - y) for x, y in zip(a, b, strict=True)) <= 1

    @given(query_vector_pairs(4))
    def neighbouring(pair: tuple[tuple[int, ...], tuple[int, ...]]) -> None:
        a, b = pair
        assert len(a) == len(b) == 4 and all(abs(x - y) <= 1 for x, y in zip(a, b, strict=True))

    neighbouring()
    with pytest.raises(ValueError, match="m"):
        statdp_patterns(1)


def test_float_attack() -> None:
    """Events on float64 bits catch textbook float Laplace (Mironov) while dpspec's lattice
    Laplace, audited the same way, stays within its claim."""
    from dpspec.audit._events import float_keys

    keys = float_keys(np.array([1.0, -1.0, 1.0 + 2.0**-52]), 1)
    assert keys[0] != keys[1] and keys[0] != keys[2]  # sign and last mantissa bit differ
    entries = zoo()
    naive = entries["naive-float-laplace"]
    r = audit(naive.mechanism, naive.pair, 0.1, samples=100_000, seed=2, float_bits=True)
    assert r.violation and r.epsilon_lower > 3 and "mantissa" in r.event
    assert not audit(naive.mechanism, naive.pair, 0.1, samples=100_000, seed=2).violation
    lattice = entries["laplace-lattice-float-attack"]
    assert not audit(
        lattice.mechanism, lattice.pair, 0.5, samples=100_000, seed=2, **lattice.audit_options()
    ).violation


# --- hostile outputs and arguments -------------------------------------------------------------


def _nan_leak(d: float, n: int, rng: np.random.Generator) -> np.ndarray:
    """Laplace noise, but on D' = 1 half of the releases are NaN: a support shift (ε = ∞)."""
    x = rng.laplace(0.0, 2.0, n)
    if d == 1:
        x[rng.random(n) < 0.5] = np.nan
    return x


def test_nan_is_an_event_of_its_own() -> None:
    """A NaN release is an output like any other: the event {NaN} catches a NaN leak (before:
    ε_LCB = −inf and assert_dp passed), and NaN on both sides alike is not a violation."""
    r = audit(_nan_leak, (0.0, 1.0), 0.5, samples=100_000, seed=0)
    assert r.violation and r.epsilon_lower > 5 and "NaN" in r.event
    with pytest.raises(DPViolation):
        assert_dp(_nan_leak, (0.0, 1.0), 0.5, samples=20_000, votes=3)

    def same(d: float, n: int, rng: np.random.Generator) -> np.ndarray:
        x = rng.laplace(0.0, 2.0, n)
        x[rng.random(n) < 0.5] = np.nan
        return x

    assert not audit(same, (0.0, 1.0), 0.5, samples=50_000, seed=0).violation

    # NaN inside vectors, and a NaN atom of a discrete float law
    def vec(d: float, n: int, rng: np.random.Generator) -> np.ndarray:
        x = rng.laplace(0.0, 2.0, (n, 2))
        if d == 1:
            x[rng.random(n) < 0.5, 0] = np.nan
        return x

    assert audit(vec, (0.0, 1.0), 0.5, samples=50_000, seed=0).violation

    def coin(d: float, n: int, rng: np.random.Generator) -> np.ndarray:
        x = rng.integers(0, 2, n).astype(float)
        if d == 1:
            x[x == 1] = -np.inf * 0  # NaN with the sign bit set: same atom as np.nan
        return x

    r = audit(coin, (0.0, 1.0), 0.5, samples=20_000, seed=0)
    assert r.violation and r.epsilon_estimate == math.inf


def test_complex_outputs_are_audited_as_pairs() -> None:
    """Complex outputs are (real, imaginary) pairs, never cast to real with a ComplexWarning;
    a leak in the imaginary part is caught."""

    def leak(d: float, n: int, rng: np.random.Generator) -> np.ndarray:
        return rng.laplace(0.0, 2.0, n) + 1j * 10 * d

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = audit(leak, (0.0, 1.0), 0.5, samples=50_000, seed=0)
    assert r.violation and r.epsilon_lower > 5

    def fine(d: float, n: int, rng: np.random.Generator) -> np.ndarray:
        return d + rng.laplace(0.0, 2.0, n) + 1j * rng.laplace(0.0, 2.0, n)

    assert not audit(fine, (0.0, 1.0), 0.5, samples=50_000, seed=0).violation


@pytest.mark.parametrize(
    ("fn", "error"),
    [
        (lambda d: None, TypeError),  # no release at all
        (lambda d, n, rng: np.full(n, np.datetime64("2020-01-01")), TypeError),
        (lambda d, rng: {"when": np.datetime64("2020-01-01")}, TypeError),
        (lambda d, n, rng: np.zeros((n, 0)), ValueError),
        (lambda d, rng: f"{d + rng.laplace(0.0, 2.0):.17g}", ValueError),  # unique strings
        (
            lambda d, n, rng: np.ma.masked_array(np.zeros(n), mask=rng.random(n) < 0.5 * d),
            TypeError,
        ),  # the mask carries the leak
    ],
)
def test_unrepresentable_outputs_are_refused(fn: Any, error: type[Exception]) -> None:
    """Outputs the auditor cannot represent get an error naming ``mechanism``, never a
    verdict (before: a TypeError from sorting dicts, or a verdict)."""
    with pytest.raises(error, match="mechanism"):
        audit(fn, (0.0, 1.0), 0.5, samples=1000, selection=1000, seed=0)


@pytest.mark.parametrize(
    ("fn", "leaks"),
    [
        (lambda d: {"a": d}, True),  # a keyed release of the data
        (lambda d, rng: [d] * int(1 + rng.integers(0, 2)), True),  # ragged rows of the data
        (lambda d, rng: "x" if rng.random() < 0.5 else None, False),  # mixed kinds, no data
        (lambda d, n, rng: [[0.0], [1.0, 2.0]] * (n // 2), False),  # two shapes, constant
        (lambda d, rng: (int(rng.integers(0, 3)), d + rng.laplace(0.0, 2.0), "x"), False),
        (lambda d: [d] * (1 + int(d)), True),  # row length by data: a support shift
        (lambda d: "x" if d else 0.5, True),  # kind by data
        (lambda d, n, rng: np.zeros((n, 2)) if d else np.zeros(n), True),  # shape by data
        (lambda d, n, rng: np.full(n, "a") if d else np.zeros(n), True),  # kind by data
    ],
)
def test_structured_outputs_are_audited(fn: Any, leaks: bool) -> None:
    """Dicts, ragged rows and rows of mixed kinds are audited as shapes and the numbers
    within them (before: refused, "outputs of type dict cannot be audited")."""
    result = audit(fn, (0.0, 1.0), 0.5, samples=2000, selection=1000, seed=0)
    assert result.violation == leaks, result.event


def test_representable_unusual_outputs() -> None:
    """Strings, bytes, huge integers, float32 and 3-D outputs are audited exactly."""
    big = 2**70

    def huge(d: int, rng: np.random.Generator) -> int:
        return big + int(rng.integers(0, 2)) * (1 + d)  # D' = 1 reaches big + 2: a leak

    assert audit(huge, (0, 1), 0.5, samples=2000, seed=0).violation
    assert not audit(
        lambda d, rng: ("yes", "no")[int(rng.integers(0, 2))], (0, 1), 0.5, samples=2000
    ).violation
    assert audit(lambda d: b"x" if d else b"y", (0, 1), 1.0, samples=500).violation

    def cube(d: float, n: int, rng: np.random.Generator) -> np.ndarray:
        x = rng.laplace(0.0, 2.0, (n, 2, 2))
        x[:, 0, 0] += d  # one coordinate moves: ε = 0.5
        return x.astype(np.float32)

    assert not audit(cube, (0.0, 1.0), 0.5, samples=20_000, seed=0).violation


def test_small_selection_is_not_judged_by_atoms() -> None:
    """Continuous outputs at ≤ 2048 selection draws per side are not treated as discrete
    (before: ε_LCB = −inf, "consistent", for a true ε of 10)."""

    def sharp(d: float, n: int, rng: np.random.Generator) -> np.ndarray:
        return d + rng.laplace(0.0, 0.1, n)

    for selection in (100, 500, 2000):
        r = audit(sharp, (0.0, 1.0), 0.5, samples=100_000, selection=selection, seed=0)
        assert r.violation and r.epsilon_lower > 4, (selection, r.epsilon_lower)
    # a discrete law is still audited by atom sets (randomized response: ε = ln 3 > 1)
    rr = zoo()["randomized-response-overclaimed"]
    r = audit(rr.mechanism, rr.pair, rr.epsilon, samples=200_000, selection=500, seed=0)
    assert r.violation and "output in" in r.event


def test_selection_follows_samples() -> None:
    """audit(samples=100) makes 2·(100 + 100) = 400 mechanism calls (before: 40 200), and the
    freshness probe's 4·64."""
    from dpspec.audit import default_selection
    from dpspec.audit._freshness import PROBE

    calls = [0]

    def counted(d: float, rng: np.random.Generator) -> float:
        calls[0] += 1
        return float(d + rng.laplace(0.0, 2.0))

    r = audit(counted, (0.0, 1.0), 0.5, samples=100, seed=0)
    assert calls[0] == 400 + 4 * PROBE and r.selection_samples == 100
    assert [default_selection(n) for n in (1, 100, 5000, 10**6, 10**10)] == [
        1,
        100,
        1000,
        200_000,
        10**7,
    ]


@pytest.mark.parametrize(
    ("kwargs", "name", "error"),
    [
        ({"seed": -1}, "seed", ValueError),
        ({"seed": 1.5}, "seed", TypeError),
        ({"seed": "0"}, "seed", TypeError),
        ({"seed": True}, "seed", TypeError),
        ({"confidence": "0.9"}, "confidence", TypeError),
        ({"confidence": 1.5}, "confidence", ValueError),
        ({"confidence": float("nan")}, "confidence", ValueError),
        ({"event": "x"}, "event", TypeError),
        ({"samples": 0}, "samples", ValueError),
        ({"samples": 10**15}, "samples", ValueError),
        ({"samples": 1.5}, "samples", TypeError),
        ({"selection": 10**15}, "selection", ValueError),
        ({"selection": 0}, "selection", ValueError),
        ({"jobs": 0}, "jobs", ValueError),
        ({"jobs": 10**6}, "jobs", ValueError),
        ({"epsilon": "x"}, "epsilon", TypeError),
        ({"epsilon": float("nan")}, "epsilon", ValueError),
        ({"epsilon": -1.0}, "epsilon", ValueError),
        ({"delta": 1.0}, "delta", ValueError),
        ({"progress": 3}, "progress", TypeError),
        ({"float_bits": "yes"}, "float_bits", TypeError),
        ({"checkpoint": 3}, "checkpoint", TypeError),
        ({"checkpoint": ""}, "checkpoint", ValueError),
        ({"backend": "spark"}, "backend", ValueError),
    ],
)
def test_arguments_are_checked_by_name(
    kwargs: dict[str, Any], name: str, error: type[Exception]
) -> None:
    """Each bad argument is refused before any draw with an error naming it."""
    calls = [0]

    def counted(d: float, n: int, rng: np.random.Generator) -> np.ndarray:
        calls[0] += 1
        return d + rng.laplace(0.0, 2.0, n)

    args: dict[str, Any] = {"epsilon": 0.5, "samples": 1000, **kwargs}
    with pytest.raises(error, match=name):
        audit(counted, (0.0, 1.0), **args)
    assert calls[0] == 0


def test_assert_dp_arguments() -> None:
    with pytest.raises(ValueError, match="confidence"):
        assert_dp(LAPLACE, (0.0, 1.0), 0.5, confidence=1.5)  # before: "alpha ... got -0.5"
    with pytest.raises(TypeError, match="confidence"):
        assert_dp(LAPLACE, (0.0, 1.0), 0.5, confidence="0.9")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="seed"):
        assert_dp(LAPLACE, (0.0, 1.0), 0.5, seed=1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="votes"):
        assert_dp(LAPLACE, (0.0, 1.0), 0.5, votes=1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="samples"):
        assert_dp(LAPLACE, (0.0, 1.0), 0.5, samples=10**12)


def test_event_argument_is_validated() -> None:
    with pytest.raises(ValueError, match="event"):
        Event("bogus")
    with pytest.raises(ValueError, match="event"):
        Event("ge", lo=float("nan"))
    with pytest.raises(ValueError, match="event"):  # weights of another dimension
        audit(
            LAPLACE, ((0.0, 0.0), (1.0, 0.0)), 0.5, samples=100, event=Event("ge", weights=(1.0,))
        )
    # a valid user event: tested as given, no selection draws
    r = audit(LAPLACE, (0.0, 1.0), 0.5, samples=10_000, event=Event("ge", lo=1.0))
    assert r.selection_samples == 0 and r.event == "output >= 1"


def test_mechanism_errors_are_not_verdicts() -> None:
    from dpspec.audit import MechanismError

    def boom(d: float, n: int, rng: np.random.Generator) -> np.ndarray:
        raise ValueError("broken target")

    with pytest.raises(MechanismError, match="broken target") as info:
        audit(boom, (0.0, 1.0), 0.5, samples=100)
    assert isinstance(info.value.__cause__, ValueError)


@pytest.mark.parametrize("jobs", [2, 3])
def test_jobs_do_not_change_the_counts(jobs: int) -> None:
    """Blocks of 2^18 draws, one child SeedSequence each: jobs = 1, 2, 3 give the same counts
    (before: jobs = 1 and jobs = 2 differed)."""
    one = audit(LAPLACE, (0.0, 1.0), 0.5, samples=600_000, seed=4, jobs=1)
    many = audit(LAPLACE, (0.0, 1.0), 0.5, samples=600_000, seed=4, jobs=jobs, backend="threading")
    assert (one.p1, one.p2, one.event, one.epsilon_lower) == (
        many.p1,
        many.p2,
        many.event,
        many.epsilon_lower,
    )


def test_jobs_agree_across_processes() -> None:
    one = audit(LAPLACE, (0.0, 1.0), 0.5, samples=600_000, seed=4, jobs=1)
    loky = audit(LAPLACE, (0.0, 1.0), 0.5, samples=600_000, seed=4, jobs=2)
    assert (one.p1, one.p2) == (loky.p1, loky.p2)


# --- the CLI: exit codes ------------------------------------------------------------------------


def _target_file(tmp_path: Path) -> Path:
    code = tmp_path / "targets.py"
    code.write_text(
        "import numpy as np\n"
        "def boom(d, n, rng):\n    raise RuntimeError('target broke')\n"
        "def as_dict(d):\n    return {'value': d}\n"
        "def nan_leak(d, n, rng):\n"
        "    x = rng.laplace(0.0, 2.0, n)\n"
        "    x[rng.random(n) < 0.5 * d] = np.nan\n"
        "    return x\n"
        "def fine(d, n, rng):\n    return d + rng.laplace(0.0, 2.0, n)\n",
        encoding="utf-8",
    )
    return code


def test_cli_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """0 consistent, 1 violation, 2 usage error, 3 internal error, 4 inconclusive (a correct
    target whose claim 2000 draws do not resolve) — one line on stderr for 2 and 3, no
    traceback (before: a traceback and exit 1, the violation code, for all of these)."""
    code = _target_file(tmp_path)
    base = ["audit", "--epsilon", "0.5", "--samples", "2000", "--no-progress", "--pair", "[0, 1]"]
    cases = [
        ([f"{code}:fine"], 4),
        ([f"{code}:fine", "--samples", "20000"], 0),
        ([f"{code}:fine", "--replay"], 0),
        ([f"{code}:nan_leak"], 1),
        ([f"{code}:boom"], 3),
        ([f"{code}:as_dict"], 1),  # a keyed release of the data: audited, a leak
        ([f"{code}:fine", "--json", str(tmp_path)], 2),
        ([f"{code}:fine", "--json", "/proc/version"], 2),
        ([f"{code}:fine", "--checkpoint", "/proc/nope/c.json"], 2),
        ([f"{code}:fine", "--checkpoint", str(tmp_path)], 2),
        ([f"{code}:fine", "--seed", "-1"], 2),
        ([f"{code}:fine", "--confidence", "1.5"], 2),
        ([f"{code}:fine", "--samples", "0"], 2),
        ([f"{code}:fine", "--samples", "1000000000000000"], 2),
        ([f"{code}:fine", "--epsilon", "nan"], 2),
        ([f"{code}:fine", "--jobs", "0"], 2),
    ]
    capsys.readouterr()
    for extra, expected in cases:
        argv = [*base[:1], *extra[:1], *base[1:], *extra[1:]]
        got = main(argv)
        out, err = capsys.readouterr()
        assert got == expected, (extra, got, err)
        if expected in (2, 3):
            assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
            assert "consistent" not in out and "VIOLATION" not in out
    assert main(["audit", f"{code}:fine", "--epsilon", "0.5", "--no-progress"]) == 2
    assert "pair: none given" in capsys.readouterr().err  # no pair is invented
    boom = ["audit", f"{code}:boom", "--epsilon", "0.5", "--no-progress", "--pair", "[0, 1]"]
    assert main(boom) == 3
    assert "target broke" in capsys.readouterr().err
    assert main(["--debug", *boom]) == 3
    assert "Traceback" in capsys.readouterr().err


def test_cli_help_documents_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", "--help"]) == 0
    text = capsys.readouterr().out
    for line in ("0  consistent", "1  VIOLATION", "2  usage error", "3  internal error"):
        assert line in text
    assert "N/5, at least min(N, 1000)" in " ".join(text.split())


def test_search_limits_are_named() -> None:
    from dpspec.audit._search import hypothesis_search, query_vector_pairs, statdp_patterns

    with pytest.raises(ValueError, match="m"):
        statdp_patterns(10**9)
    with pytest.raises(ValueError, match="m"):
        query_vector_pairs(10**9)
    strategy = query_vector_pairs(2)
    for kwargs, name in [
        ({"seed": -1}, "seed"),
        ({"confidence": 2.0}, "confidence"),
        ({"samples": 10**15}, "samples"),
        ({"screen": 10**12}, "screen"),
        ({"max_examples": 10**9}, "max_examples"),
    ]:
        with pytest.raises((ValueError, TypeError), match=name):
            hypothesis_search(LAPLACE, strategy, 0.5, **kwargs)


def test_unrefutable_claims_are_refused() -> None:
    """An audit none of whose outcomes could exceed the claim is refused naming samples (its
    "consistent" would be a test that cannot fail)."""
    from dpspec.audit import max_epsilon_lower

    assert max_epsilon_lower(1, 0.95) < 0 < 0.5 < max_epsilon_lower(8, 0.95)
    assert 12 < max_epsilon_lower(10**6, 0.95) < 13
    with pytest.raises(ValueError, match="samples: 1 draws"):
        audit(LAPLACE, (0.0, 1.0), 0.5, samples=1)
    with pytest.raises(ValueError, match=r"samples.*epsilon=20.*at least"):
        audit(LAPLACE, (0.0, 1.0), 20.0, samples=10**6)
    with pytest.raises(ValueError, match="samples"):
        assert_dp(LAPLACE, (0.0, 1.0), 13.0)  # 10^6 draws reach at most 12.5
    assert not audit(LAPLACE, (0.0, 1.0), 0.5, samples=8, seed=0).violation


def test_rare_atoms_are_a_family_of_their_own() -> None:
    """A raw value leaked w.p. 1e-4 next to a Laplace body: the atom is estimated as a second
    event at α/2 and flags the claim; a smooth release keeps one event (no extra cost)."""
    leak = FunctionMechanism("leak", rare_leak_sampler(1.0, 1e-4))
    r = audit(leak, (0.0, 1.0), 1.0, samples=500_000, seed=1)
    assert r.violation and r.event.startswith("output in {")
    assert len(r.events) == 2 and r.events[0].epsilon_lower < 1.0
    assert r.to_json()["events"][1]["level"] == pytest.approx(0.05 / 4)
    smooth = audit(FunctionMechanism("lap", laplace_sampler(1.0)), (0.0, 1.0), 1.0, samples=10**5)
    assert "events" not in smooth.extra and not smooth.violation


def test_orthant_events() -> None:
    from dpspec.audit._selection import _box_candidates

    box = Event("box", (-math.inf, 0.0, 1.0, math.inf))
    x = np.array([[-1.0, 2.0], [0.0, 2.0], [-1.0, 0.5], [np.nan, 2.0]])
    assert box.contains(x).tolist() == [True, False, False, False]
    assert box.describe() == "x[0] < 0 and x[1] >= 1"
    rng = np.random.default_rng(0)
    a, b = rng.laplace(size=(2000, 2)), 1 + rng.laplace(size=(2000, 2))
    cands = _box_candidates(a, b)
    assert cands is not None
    k1, k2, n1, _, build = cands
    assert n1 == 2000
    for j in rng.integers(0, k1.size, 20):  # every count is the event's own count
        event = build(int(j))
        assert k1[j] == event.contains(a).sum() and k2[j] == event.contains(b).sum()
    assert _box_candidates(rng.random((50, 5)), rng.random((50, 5))) is None  # d = 5: none


def test_auditor_modules_are_named_small_and_exported() -> None:
    """The auditor is split into modules under 800 lines; ``dpspec.audit.__all__`` names only
    what exists; the 0.2 import path ``dpspec.audit.core`` still serves the same objects."""
    import importlib

    import dpspec.audit as package
    from dpspec.audit import core

    folder = Path(package.__file__).parent
    for module in folder.glob("*.py"):
        lines = module.read_text(encoding="utf-8").count("\n")
        assert lines < 800, (module.name, lines)
    for name in package.__all__:
        assert hasattr(package, name), name
    for name in core.__all__:
        obj = getattr(core, name)
        defining = getattr(obj, "__module__", None)
        if defining and defining.startswith("dpspec.audit."):
            assert getattr(importlib.import_module(defining), name) is obj
    assert core.audit is package.audit and core.Event is package.Event


@given(
    st.integers(0, 10**7),
    st.integers(1, 10**7),
    st.sampled_from([1e-12, 1e-7, 0.025, 0.5]),
)
def test_bound_kernels_on_one_count_are_the_array_kernels(k: int, n: int, alpha: float) -> None:
    """The one-count path of the Clopper–Pearson and ε kernels (Python or numpy integers,
    floats) gives the same floats as the array path."""
    from dpspec.audit.bounds import _cp_lower, _cp_upper, _epsilon_lower

    k = min(k, n)
    arrays = (np.array([k]), np.array([n]))
    for kk, nn in ((k, n), (np.int64(k), np.int64(n))):
        lo, hi = float(_cp_lower(kk, nn, alpha)), float(_cp_upper(kk, nn, alpha))
        assert lo == float(_cp_lower(*arrays, alpha)[0])
        assert hi == float(_cp_upper(*arrays, alpha)[0])
        for delta in (0.0, lo / 2, lo):
            one = float(_epsilon_lower(lo, hi, delta))
            assert one == float(_epsilon_lower(np.array([lo]), np.array([hi]), delta)[0])


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 2**31),
    st.sampled_from([np.int64, np.float64]),
    st.integers(1, 3),
)
def test_atom_table_read_in_both_directions_gives_the_recounted_candidates(
    seed: int, dtype: Any, width: int
) -> None:
    """The atom family's candidates from one shared count of the pooled atoms (read with the
    sides swapped for the other direction) are those of counting each direction afresh."""
    from dpspec.audit._selection import _atom_table, _discrete_candidates

    rng = np.random.default_rng(seed)
    shape = (int(rng.integers(20, 200)), width) if width > 1 else (int(rng.integers(20, 200)),)
    a = rng.integers(0, 5, size=shape).astype(dtype)
    b = rng.integers(0, 4, size=shape).astype(dtype)
    atoms, ca, cb = _atom_table(a, b)
    for (x, y), table in (((a, b), (atoms, ca, cb)), ((b, a), (atoms, cb, ca))):
        fresh, shared = _discrete_candidates(x, y), _discrete_candidates(x, y, table=table)
        assert all(np.array_equal(f, s) for f, s in zip(fresh[:2], shared[:2], strict=True))
        assert fresh[2:4] == shared[2:4]
        assert [fresh[4](j) for j in range(atoms.size)] == [shared[4](j) for j in range(atoms.size)]
