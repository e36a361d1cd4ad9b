"""The refusal bound of the hostile sweep is judged by the least of a few runs, with the cyclic
collector paused: a pause that happens once cannot fail a refusal, work that recurs still does."""

from __future__ import annotations

import gc
import time

from dpspec.proofs.engine.sweep import (
    REFUSAL_RERUNS,
    cpu_seconds,
    gc_paused,
    least_cpu_seconds,
    least_seconds,
)


def test_a_pause_seen_once_is_measured_again() -> None:
    calls: list[float] = []

    def again() -> float:
        calls.append(0.001)
        return 0.001

    assert least_seconds(0.24, again, 0.1) == 0.001
    assert len(calls) == 1


def test_work_that_recurs_stays_over_the_bound() -> None:
    runs = iter([0.3, 0.25])
    assert least_seconds(0.4, lambda: next(runs), 0.1) == 0.25
    assert REFUSAL_RERUNS == 2


def test_a_first_run_within_the_bound_is_not_repeated() -> None:
    def again() -> float:
        raise AssertionError("measured again")

    assert least_seconds(0.01, again, 0.1) == 0.01


def test_busy_work_is_measured_and_the_collector_is_restored() -> None:
    def busy() -> None:
        end = time.process_time() + 0.05
        while time.process_time() < end:
            pass

    assert gc.isenabled()
    assert cpu_seconds(busy) >= 0.05
    assert least_cpu_seconds(busy, 0.01) >= 0.05
    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
