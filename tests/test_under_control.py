"""Under a bug control a check may stop at its first failing part: the verdict is the same as
the whole run's, and outside a control every part still runs and is reported."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import replace

import pytest

from dpspec.proofs.engine.exact import ExactReport, reports_until_failure
from dpspec.proofs.engine.registry import (
    CheckOutcome,
    FailedUnderControl,
    VerifyConfig,
    all_of,
    stop_if_failed,
)

PLAIN = VerifyConfig()
CONTROL = replace(PLAIN, under_control=True)


def _report(holds: bool) -> ExactReport:
    return ExactReport("case", "substitute", 1, 1, 0, violations=0 if holds else 1)


def test_stop_if_failed_only_under_a_control() -> None:
    stop_if_failed(PLAIN, False, "a part")  # outside a control: nothing
    stop_if_failed(CONTROL, True, "a part")
    with pytest.raises(FailedUnderControl, match="a part"):
        stop_if_failed(CONTROL, False, "a part")


def test_reports_until_failure_runs_everything_outside_a_control() -> None:
    ran: list[int] = []

    def run(i: int, holds: bool) -> ExactReport:
        ran.append(i)
        return _report(holds)

    got = reports_until_failure(
        PLAIN, lambda: run(0, True), lambda: run(1, False), lambda: run(2, True)
    )
    assert ran == [0, 1, 2] and [r.holds for r in got] == [True, False, True]
    ran.clear()
    with pytest.raises(FailedUnderControl):
        reports_until_failure(
            CONTROL, lambda: run(0, True), lambda: run(1, False), lambda: run(2, True)
        )
    assert ran == [0, 1]
    ran.clear()
    # the check's own controls must be violated: one that holds ends the check
    with pytest.raises(FailedUnderControl):
        reports_until_failure(
            CONTROL,
            lambda: run(0, False),
            lambda: run(1, True),
            lambda: run(2, False),
            controls=True,
        )
    assert ran == [0, 1]


def test_all_of_stops_at_the_first_failing_part_under_a_control() -> None:
    ran: list[str] = []

    def part(name: str, passed: bool) -> object:
        def check(config: VerifyConfig) -> CheckOutcome:
            ran.append(name)
            return CheckOutcome(passed, name)

        check.__name__ = name
        return check

    both = all_of(part("a", False), part("b", True))  # type: ignore[arg-type]
    assert not both(PLAIN).passed and ran == ["a", "b"]
    ran.clear()
    assert not both(CONTROL).passed and ran == ["a"]


def test_a_real_run_under_a_control_ends_at_its_first_violating_pair() -> None:
    """Under a control, the real runs of :func:`reports_until_failure` end at their first pair
    violating the predicate (the check fails there whatever follows); its own controls, and
    every run outside a control, go through all their pairs."""
    from fractions import Fraction

    from dpspec.proofs.engine.exact import verify_pairs

    laws: dict[tuple[Hashable, ...], dict[str, Fraction]] = {
        (0,): {"y": Fraction(1)},
        (1,): {"n": Fraction(1)},
        (2,): {"y": Fraction(1)},
    }
    pairs: list[tuple[tuple[Hashable, ...], tuple[Hashable, ...]]] = [
        ((0,), (2,)),
        ((0,), (1,)),
        ((1,), (2,)),
        ((2,), (0,)),
    ]
    ended: list[ExactReport] = []

    def run() -> ExactReport:
        ended.append(verify_pairs("case", laws.__getitem__, pairs, Fraction(2)))
        return ended[-1]

    full = reports_until_failure(PLAIN, run)[0]
    assert (full.pairs, full.violations) == (4, 2) and "ended" not in full.details
    with pytest.raises(FailedUnderControl, match="VIOLATED"):
        reports_until_failure(CONTROL, run)
    assert (ended[-1].pairs, ended[-1].violations) == (2, 1) and "ended" in ended[-1].details
    as_control = reports_until_failure(CONTROL, run, controls=True)[0]
    assert (as_control.pairs, as_control.violations) == (4, 2)
    assert run().pairs == 4  # outside reports_until_failure: every pair
