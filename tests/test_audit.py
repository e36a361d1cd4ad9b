"""The statistical auditor: bounds, events, zoo truths, CLI, assert_dp, the lemma layer."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from dpspec.audit import AuditResult, CallableMechanism, Event, audit, cp_lower, cp_upper
from dpspec.audit.ci import DPViolation, assert_dp, majority_false_alarm
from dpspec.audit.core import audit_pairs, epsilon_lower
from dpspec.audit.zoo import (
    FunctionMechanism,
    gaussian_epsilon,
    laplace_sampler,
    svt_no_threshold_noise_epsilon,
    zoo,
)
from dpspec.proofs import lemmas_audit
from dpspec.proofs.cli import main
from dpspec.proofs.prove import check_condition, evaluate_contract
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
    with pytest.raises(ValueError, match="checkpoint"):
        audit(LAPLACE, (0.0, 1.0), 0.5, samples=1000, jobs=2, checkpoint="x.json")
    with pytest.raises(ValueError, match="backend"):
        audit(LAPLACE, (0.0, 1.0), 0.5, samples=1000, jobs=2, backend="spark")


def test_statdp_patterns() -> None:
    """Every pattern is a neighbouring pair of query vectors (each answer moves by ≤ 1), the
    eight StatDP shapes are distinct, and the Hypothesis strategy stays neighbouring."""
    from hypothesis import given

    from dpspec.audit.search import query_vector_pairs, statdp_patterns

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
    from dpspec.audit.core import float_keys

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
