"""Replay auditing (``dpspec.audit.replay``): the upper side of the audit's bracket, on the
targets of the registered checks and on the ways users write noise."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from dpspec.accounting.pld import epsilon_of, gaussian_delta
from dpspec.audit import audit
from dpspec.audit.replay import replay
from dpspec.proofs.engine.registry import VerifyConfig
from dpspec.proofs.topics.audit import replay_checks as rc
from dpspec.spec.audit import bracket_verdict


def test_laplace_both_ways() -> None:
    outcome = rc.replay_laplace(VerifyConfig())
    assert outcome.passed, outcome.detail
    assert all(c.caught for c in outcome.controls)
    for target in (rc.laplace_added, rc.laplace_located):
        r = replay(target, rc.PAIR, rc.EPS, runs=4)
        assert r.exact and r.epsilon_upper == pytest.approx(rc.EPS, abs=1e-9)
        (row,) = r.calls
        assert row.family == "laplace" and row.sensitivity_l1 == pytest.approx(1.0)
        assert row.scale == pytest.approx(1 / rc.EPS) and row.site.endswith(
            rc._line_of(target, "rng.laplace").rsplit("/", 1)[-1]
        )


def test_gaussian_closed_forms() -> None:
    outcome = rc.replay_gaussian(VerifyConfig())
    assert outcome.passed, outcome.detail
    # the engine's closed form agrees with the check's own (math.erfc) to 1e-12
    for mu in (0.1, 0.8, 2.5):
        for eps in (0.0, 0.5, 3.0):
            assert gaussian_delta(eps, mu) == pytest.approx(rc._gaussian_delta(eps, mu), abs=1e-12)


def test_uncoupled_targets_are_named() -> None:
    outcome = rc.replay_uncoupled(VerifyConfig())
    assert outcome.passed, outcome.detail
    r = replay(lambda d, n: d, rc.PAIR, 1.0)  # f(data, n) is the f(data, rng) form
    assert r.epsilon_upper is None or r.finding in ("deterministic", "coupled")


def test_gumbel_max_is_sound() -> None:
    outcome = rc.replay_gumbel(VerifyConfig())
    assert outcome.passed, outcome.detail


def test_global_generators_are_not_coupled() -> None:
    r = replay(lambda d: float(np.sum(d)) + np.random.laplace(0, 2), rc.PAIR, 0.5)
    assert r.finding == "global generators" and r.epsilon_upper is None


def test_choice_of_the_data_is_a_data_dependent_draw() -> None:
    def target(d: Any, n: int, rng: np.random.Generator) -> Any:
        return rng.choice(np.asarray(d)) + rng.laplace(0, 2.0, n)

    r = replay(target, rc.PAIR, 0.5, runs=4)
    assert r.finding == "data-dependent draw" and r.epsilon_upper is None
    assert r.site is not None and "test_replay.py" in r.site


def test_data_independent_permutation_is_replayed_identically() -> None:
    def target(d: Any, n: int, rng: np.random.Generator) -> Any:
        order = rng.permutation(3)
        return float(np.sum(d)) + rng.laplace(0, 2.0, n) + order[0]

    r = replay(target, rc.PAIR, 0.5, runs=4)
    assert r.finding == "coupled" and r.epsilon_upper == pytest.approx(0.5)


def test_scaled_standard_normal_is_coupled_by_probing() -> None:
    def target(d: Any, n: int, rng: np.random.Generator) -> Any:
        return float(np.sum(d)) + 2.0 * rng.standard_normal(n)

    r = replay(target, rc.PAIR, 1.0, 1e-5, runs=4)
    truth = rc.gaussian_epsilon_closed_form(1e-5, 0.5)
    assert r.exact and r.epsilon_upper == pytest.approx(truth, abs=1e-6)


def test_clipping_after_the_noise_is_an_upper_bound_not_exact() -> None:
    def target(d: Any, n: int, rng: np.random.Generator) -> Any:
        return np.clip(float(np.sum(d)) + rng.laplace(0, 2.0, n), -1, 1)

    r = replay(target, rc.PAIR, 0.5, runs=16)
    assert r.finding == "coupled" and not r.exact and r.epsilon_exact is None
    assert r.epsilon_upper == pytest.approx(0.5)


def test_pld_brackets_the_gaussian_closed_form() -> None:
    """A Laplace draw with no shift forces nothing; a Gaussian and a Laplace draw together go
    through the loss distribution, which must bracket the composition computed by numerical
    integration of the two independent losses (here: Gaussian alone as the limit check)."""
    curve = epsilon_of({"gaussian": np.array([0.6]), "laplace": np.array([1e-12])}, 1e-4)
    truth = rc.gaussian_epsilon_closed_form(1e-4, 0.6)
    assert curve.lower - 1e-3 <= truth <= curve.upper + 1e-9
    assert curve.upper - truth < 5e-3


@pytest.mark.parametrize(
    ("lower", "upper", "exact", "verdict"),
    [
        (0.6, None, None, "violation"),
        (0.4, 0.5, 0.5, "consistent"),
        (0.4, None, None, "inconclusive"),
        (0.4, 0.7, None, "inconclusive"),
        (0.4, 0.7, 0.6, "violation"),
        (0.4, math.inf, None, "inconclusive"),
    ],
)
def test_bracket_verdict(
    lower: float, upper: float | None, exact: float | None, verdict: str
) -> None:
    assert bracket_verdict(lower, upper, exact, 0.5, 1e-9) == verdict


def test_audit_json_carries_the_bracket() -> None:
    result = audit(rc.laplace_added, rc.PAIR, rc.EPS, samples=2000, replay=True, replay_runs=4)
    out = result.to_json()
    assert out["verdict"] == "consistent" and out["epsilon_upper"] == pytest.approx(rc.EPS)
    assert (
        out["replay"]["finding"] == "coupled" and out["replay"]["calls"][0]["family"] == "laplace"
    )
    plain = audit(rc.laplace_added, rc.PAIR, rc.EPS, samples=2000)
    assert plain.replay is None and plain.epsilon_upper is None
    assert plain.epsilon_lower == result.epsilon_lower  # the replay changes no estimation draw


def test_replay_refuses_bad_arguments() -> None:
    with pytest.raises(ValueError, match="runs"):
        replay(rc.laplace_added, rc.PAIR, 0.5, runs=0)
    with pytest.raises(ValueError, match="pair"):
        replay(rc.laplace_added, (1.0,), 0.5)
    with pytest.raises(TypeError, match="mechanism"):
        replay(3, rc.PAIR, 0.5)


def test_detection_power_is_the_exact_sum() -> None:
    """The power of the event test, summed by brute force over both counts, equals
    :func:`detection_power` (a control: the same sum with the bounds at twice the level
    differs)."""
    from scipy import stats

    from dpspec.audit.bounds import cp_lower, cp_upper
    from dpspec.audit.power import detection_power, resolution

    n, level = 50, 0.025
    k = np.arange(n + 1)
    for p1, p2, claim, delta in ((0.6, 0.25, 0.3, 0.0), (0.3, 0.02, 1.0, 0.01)):
        for lev, equal in ((level, True), (2 * level, False)):
            lo, up = cp_lower(k, n, lev), cp_upper(k, n, lev)
            brute = 0.0
            for k1 in range(n + 1):
                for k2 in range(n + 1):
                    if lo[k1] - delta > 0 and math.log((lo[k1] - delta) / up[k2]) > claim:
                        brute += stats.binom.pmf(k1, n, p1) * stats.binom.pmf(k2, n, p2)
            got = detection_power(n, p1, p2, level, claim, delta)
            assert bool(abs(got - brute) < 1e-12) == equal
    r = resolution(2000, 0.2, level, 0.5)
    p1 = math.exp(r) * 0.2
    assert detection_power(2000, p1, 0.2, level, 0.5) >= 0.9
    assert detection_power(2000, math.exp(r - 0.01) * 0.2, 0.2, level, 0.5) < 0.9


def test_readme_bracket_example_runs_as_written(capsys: pytest.CaptureFixture[str]) -> None:
    """The bracket example of docs/auditing.md prints what its comments say."""
    from pathlib import Path

    page = Path(__file__).resolve().parent.parent / "docs" / "auditing.md"
    text = page.read_text(encoding="utf-8")
    block = text.split("<!-- readme-example: bracket -->\n```python\n", 1)[1].split("```", 1)[0]
    exec(compile(block, "docs/auditing.md", "exec"), {})
    first, second = capsys.readouterr().out.splitlines()
    assert first.startswith("consistent 0.4") and first.endswith(" 0.5")
    assert second == "violation no shift output[0, 4]"


def test_readme_power_statements_are_what_the_code_says() -> None:
    """The resolution sentences docs/auditing.md and docs/verifying.md quote are regenerated here
    (no stale figures)."""
    from pathlib import Path

    from dpspec.audit import assert_dp

    docs = Path(__file__).resolve().parent.parent / "docs"
    text = " ".join(
        " ".join((docs / page).read_text(encoding="utf-8").split())
        for page in ("auditing.md", "verifying.md")
    )
    pair = ([0.2], [0.2, 1.0])

    def noisy_sum(data: Any, n: int, rng: np.random.Generator) -> Any:
        return float(np.sum(data)) + rng.laplace(0.0, 2.0, n)

    assert audit(noisy_sum, pair, 0.5, samples=2000).power in text
    quoted = assert_dp(noisy_sum, pair, 0.5).power().split(" with probability")[0]
    assert quoted in text
    from dpspec.audit import delta_resolution

    leak = delta_resolution(10**7, 1e-3 / 4, 1.0, 1e-5)
    assert f"= {leak * 1e5:.1f}·10⁻⁵" in text


def test_truncated_laplace_leak_is_never_consistent() -> None:
    """A Laplace truncated at ±9.5 (resampled) leaks δ ≈ 1e-4 beyond the neighbour's support
    against a claim of (1, 1e-5). Before: "consistent" at 10^6 draws per side (the body's
    interval reported). The region beyond the other side's range is now an event of its own
    (a violation at 10^6), and without it the claim's δ is not resolved at 10^6 (inconclusive),
    at 10^7 it is."""
    from dpspec.audit import delta_resolution

    def truncated(data: Any, n: int, rng: np.random.Generator) -> Any:
        x = float(np.sum(data))
        out = x + rng.laplace(0.0, 1.0, n)
        for _ in range(64):
            bad = np.abs(out - x) > 9.5
            if not bad.any():
                break
            out[bad] = x + rng.laplace(0.0, 1.0, int(bad.sum()))
        return out

    r = audit(truncated, ([0.0], [1.0]), 1.0, 1e-5, samples=10**6, seed=3)
    assert r.verdict == "violation" and r.p2 == 0.0
    assert delta_resolution(10**6, 1e-3 / 4, 1.0, 1e-5) > 2e-5
    assert delta_resolution(10**7, 1e-3 / 4, 1.0, 1e-5) < 2e-5


def test_replay_covers_every_finalist_pair_of_a_search() -> None:
    """With a pair search, the upper side is maximised over the finalists' pairs, not only
    the reported one: a query that scales values above 500 by 1.25 (sensitivity 1.25 there)
    is a violation on whichever finalist sits there, found exactly by its replay."""
    from dpspec.audit import Search

    def scaled(x: Any, n: int, rng: np.random.Generator) -> Any:
        v = float(x) * (1.25 if float(x) > 500 else 1.0)
        return v + rng.laplace(0.0, 2.0, n)

    search = Search(queries=1, candidates=4, screen=300, finalists=2)
    r = audit(scaled, None, 0.5, samples=5000, search=search, replay=True, seed=1)
    pairs = r.extra["replay_pairs"]
    assert len(pairs) == 2
    assert r.epsilon_upper == max(p["epsilon_upper"] for p in pairs)
    assert r.epsilon_upper == pytest.approx(0.625, abs=1e-9)
    assert r.verdict == "violation"
    fine = audit(rc.laplace_added, None, 0.5, samples=5000, search=search, replay=True, seed=1)
    assert fine.verdict in ("consistent", "inconclusive") and fine.epsilon_upper is not None
