"""The audit's budget is checked before the work (dpspec.audit._budget): plans beyond the
unattended caps, the memory limit or ``max_seconds`` are refused with an error naming the
parameter and the estimate, before any call of the target (or after the pilot's few calls);
the pilot leaves the audit's result for a seed unchanged."""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import pytest

from dpspec.audit import Search, audit, audit_pairs
from dpspec.audit._budget import PILOT_BATCH, PILOT_FROM, UNATTENDED_DRAWS, Plan
from dpspec.audit._freshness import PROBE
from dpspec.audit.learner_zoo import learner_zoo
from dpspec.cli import main
from dpspec.cli.audit import EXIT_CODES

#: most calls a per-call target's pilot makes (batches 1, 2, 4, …, PILOT_BATCH)
PILOT_CALLS = 2 * PILOT_BATCH["per-call"] - 1


class Counted:
    """Targets that count their calls: ``f(data, rng)`` (one Lap(2) draw per call),
    ``f(data, n, rng)`` (n Lap(1) draws), ``f(data)`` releasing 10^5-vectors, a slow
    ``f(data, rng)``."""

    def __init__(self) -> None:
        self.calls = 0

    def per_call(self, d: float, rng: np.random.Generator) -> float:
        self.calls += 1
        return float(d) + float(rng.laplace(0.0, 2.0))

    def vectorised(self, d: float, n: int, rng: np.random.Generator) -> Any:
        self.calls += 1
        return float(d) + rng.laplace(0.0, 1.0, size=n)

    def wide(self, d: float) -> Any:
        self.calls += 1
        return float(d) + np.random.normal(0.0, 1.0, size=10**5)

    def slow(self, d: float, rng: np.random.Generator) -> float:
        self.calls += 1
        time.sleep(0.002)  # at least 2 ms per call on any machine
        return float(d) + float(rng.laplace(0.0, 1.0))


# --- the six plans of the issue, each refused before the work ---------------------------------


def test_per_call_target_at_ten_million_draws_is_refused_before_any_call() -> None:
    t = Counted()
    with pytest.raises(ValueError, match=r"^samples: .*2\.4e7 target calls.*5e6 calls") as exc:
        audit(t.per_call, (0.0, 1.0), 1.0, samples=10**7)
    assert "max_seconds" in str(exc.value) and t.calls == 0


def test_auto_samples_at_a_tiny_delta_is_refused_before_any_call() -> None:
    t = Counted()
    with pytest.raises(ValueError, match=r"^samples: 'auto' at delta=1e-07 needs .*3e\+10"):
        audit(t.vectorised, (0.0, 1.0), 1.0, 1e-7, samples="auto")
    assert t.calls == 0
    # a delta 'auto' resolves at its cap still runs as before (sized, capped, said so)
    small = audit(t.vectorised, (0.0, 1.0), 1.0, 1e-3, samples="auto", seed=1)
    assert "3000/delta" in small.extra["samples_auto"]


def test_ten_billion_samples_are_refused_before_any_call() -> None:
    t = Counted()
    with pytest.raises(ValueError, match=r"^samples: the audit plans 2e10 target draws.*1\.07e9"):
        audit(t.vectorised, (0.0, 1.0), 1.0, samples=10**10)
    assert t.calls == 0


def test_cli_samples_1e10_exits_2_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", "builtin:laplace", "--samples", "1e10", "--no-progress"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "samples" in err and "2e10" in err and "max-seconds" in err


def test_a_million_pairs_are_refused_before_any_call() -> None:
    t = Counted()
    with pytest.raises(ValueError, match=r"^pairs: 1000000 pairs to screen; the limit is 10000"):
        audit_pairs(t.vectorised, [(0.0, 1.0)] * 10**6, 1.0)
    assert t.calls == 0


def test_a_screening_plan_beyond_the_caps_is_refused_before_any_call() -> None:
    t = Counted()
    with pytest.raises(ValueError, match=r"^pairs: .*calls"):
        audit_pairs(t.per_call, [(0.0, 1.0), (0.0, 2.0)] * 100, 1.0, samples=1000)
    search = Search(queries=1, candidates=10_000, screen=10_000)
    with pytest.raises(ValueError, match=r"^search: the audit plans 2e8 target calls"):
        audit(t.per_call, None, 1.0, samples=1000, search=search)
    assert t.calls == 0


def test_a_hypothesis_search_beyond_the_caps_is_refused_before_any_call() -> None:
    from dpspec.audit._search import hypothesis_search, query_vector_pairs

    t = Counted()
    with pytest.raises(ValueError, match=r"^screen: the audit plans 4\.02e8 target calls"):
        hypothesis_search(t.per_call, query_vector_pairs(1), 1.0, max_examples=10_000)
    assert t.calls == 0


def test_a_ten_million_record_domain_is_refused() -> None:
    with pytest.raises(ValueError, match=r"^domain: 10000000 records; the limit is 100000"):
        Search(domain=range(10**7))
    Search(domain=range(10**5))  # at the limit: accepted


def test_wide_outputs_are_refused_on_memory_after_the_pilot_only() -> None:
    t = Counted()
    with pytest.raises(ValueError, match=r"^samples: .*GiB of memory; the limit is 4 GiB"):
        audit(t.wide, (0.0, 1.0), 1.0)
    assert t.calls == 1  # the pilot's one draw


# --- max_seconds ----------------------------------------------------------------------------


def test_max_seconds_refuses_on_the_pilots_estimate() -> None:
    """2.4·10^6 calls of ≥ 2 ms each: ≥ 4800 s on any machine, far beyond 10 s."""
    t = Counted()
    with pytest.raises(ValueError, match=r"^max_seconds: .*estimated .* > max_seconds=10"):
        audit(t.slow, (0.0, 1.0), 1.0, max_seconds=10)
    assert 1 <= t.calls <= PILOT_CALLS


@pytest.mark.parametrize("bad", [0, -1.0, float("nan"), float("inf"), "10", True])
def test_max_seconds_is_checked(bad: Any) -> None:
    t = Counted()
    with pytest.raises((ValueError, TypeError), match="max_seconds"):
        audit(t.vectorised, (0.0, 1.0), 1.0, samples=1000, max_seconds=bad)
    assert t.calls == 0


def test_cli_max_seconds(capsys: pytest.CaptureFixture[str]) -> None:
    base = ["audit", "builtin:laplace", "--samples", "2000", "--no-progress"]
    assert main([*base, "--max-seconds", "600"]) in (0, 4)
    capsys.readouterr()
    assert main([*base, "--max-seconds", "0"]) == 2
    assert "max-seconds" in capsys.readouterr().err


def test_learner_fits_are_counted_as_fits() -> None:
    entry = learner_zoo()["pcl"]
    entry.mechanism.vectorised = False  # real fits
    with pytest.raises(ValueError, match=r"^samples: .*2\.4e7 target fits.*5e6 fits"):
        audit(entry.mechanism, entry.pair, 1.0, samples=10**7)


# --- a normal audit is unchanged --------------------------------------------------------------


def test_results_are_those_recorded_before_the_budget() -> None:
    """ε_LCB of two audits with a pilot (plans above PILOT_FROM), recorded on the code before
    the budget existed; with max_seconds the same."""
    t = Counted()
    r = audit(t.vectorised, (0.0, 1.0), 1.0, samples=300_000, seed=7)
    assert r.epsilon_lower == 0.9749263265804984
    again = audit(t.vectorised, (0.0, 1.0), 1.0, samples=300_000, seed=7, max_seconds=3600)
    assert again.epsilon_lower == r.epsilon_lower and again.events == r.events
    per = audit(t.per_call, (0.0, 1.0), 0.5, samples=200_000, seed=5)
    assert per.epsilon_lower == 0.48660580912771567


def test_small_plans_make_no_extra_call_and_large_ones_only_the_pilots() -> None:
    small = Counted()
    audit(small.per_call, (0.0, 1.0), 0.5, samples=100, seed=0)
    assert small.calls == 2 * (100 + 100) + 4 * PROBE <= PILOT_FROM
    large = Counted()
    r = audit(large.per_call, (0.0, 1.0), 0.5, samples=5000, seed=0)
    planned = 2 * (5000 + r.selection_samples) + 4 * PROBE
    assert planned > PILOT_FROM and large.calls == planned + 1  # the pilot's one draw
    timed = Counted()
    audit(timed.per_call, (0.0, 1.0), 0.5, samples=5000, seed=0, max_seconds=600)
    assert 1 <= timed.calls - planned <= PILOT_CALLS


def test_the_plan_is_told_before_the_work() -> None:
    seen: list[Any] = []

    class Progress:
        def __call__(self, draws: int) -> None:
            seen.append(draws)

        def planned(self, plan: Plan) -> None:
            seen.append(plan)

    t = Counted()
    audit(t.vectorised, (0.0, 1.0), 1.0, samples=20_000, seed=0, progress=Progress())
    plan = seen[0]
    assert isinstance(plan, Plan) and plan.kind == "vectorised"
    assert plan.draws == 2 * (20_000 + 4000) + 4 * PROBE <= UNATTENDED_DRAWS["vectorised"]
    assert plan.seconds is not None and plan.bytes is not None
    assert "estimated" in plan.describe() and all(isinstance(s, int) for s in seen[1:])


def test_cli_shows_the_estimate_when_progress_is_on(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", "builtin:laplace", "--samples", "20000"]) in (0, 4)
    err = capsys.readouterr().err
    assert "target draws planned" in err and "estimated" in err


def test_help_says_structured_outputs_are_audited() -> None:
    assert "Dicts, None, ragged\n     rows and mixed tuples ARE audited" in EXIT_CODES
    assert "--max-seconds" in EXIT_CODES
