"""Regression tests: the hostile inputs reported in review, each pinned to
a named refusal or a correct result. The derived sweep (``contract.hostile-sweep``) covers every
declared parameter; these are the cases people found by hand, kept as they were reported."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from dpspec.learners import (
    PrivateHistogramClassifier,
    PrivateHistogramDensity,
    PrivateSemiSupervisedClassifier,
)
from dpspec.mechanisms import (
    DiscreteLaplaceMechanism,
    ExponentialMechanism,
    LaplaceMechanism,
    NoisyMajorityVote,
    RandomizedResponse,
    StabilityHistogram,
)

_GEN = np.random.default_rng(20240611)
_X2 = _GEN.random((40, 2))
_Y2 = (_X2[:, 0] > 0.5).astype(np.int64)
_X1 = np.sort(_GEN.random((300, 1)), axis=0)
_D = np.array([0, 1, 1, 0, 1])
_NAN = float("nan")
_NONE: Any = None
#: ε = 0.1: gap·numerator just above 2^63 (the int64 overflow found in review).
_G = 21474836511


def _count(d: Any) -> int:
    return int(np.count_nonzero(d))


def _mean(d: Any) -> float:
    return float(np.mean(d))


def _reported_cases() -> list[tuple[str, Callable[[], Any], Callable[[Any], str | None] | None]]:
    """(names the error may use, call, predicate on an accepted result) for every listed case.

    A case with predicate None must be refused with a named error.
    """
    rng = np.random.default_rng
    two = np.array([0, 1])

    def exp_opposite() -> Any:
        m = ExponentialMechanism(lambda d: np.array([0, int(d[0])]), 1, 0.1)
        return (
            m.pmf(np.array([_G])),
            m.pmf(np.array([_G - 1])),
            m.sample(np.array([_G]), 50, rng(0)),
            m.sample(np.array([_G - 1]), 50, rng(0)),
        )

    def exp_ok(r: Any) -> str | None:
        p, q, a, b = r
        if float(p[1]) != 1.0 or float(q[1]) != 1.0:
            return f"pmf {p} / {q}: the top-scored candidate must get all the mass"
        if not (np.all(a == 1) and np.all(b == 1)):
            return "samples differ between neighbours with a 1e9 score gap"
        return None

    fit_pcde = PrivateHistogramDensity(0.1, 1e-9, random_state=0)
    ssl = PrivateSemiSupervisedClassifier(epsilon=0.1, delta=1e-9, random_state=0)
    pcl = PrivateHistogramClassifier(1.0, random_state=0).fit(_X2, _Y2)
    cases: list[tuple[str, Callable[[], Any], Callable[[Any], str | None] | None]] = [
        ("scores", exp_opposite, exp_ok),
        (
            "query",
            lambda: DiscreteLaplaceMechanism(lambda d: 2**63 - 1, 1, 1.0).sample(_D, 5, rng(0)),
            None,
        ),
        ("X:", lambda: fit_pcde.fit(_X2[:5]), None),
        ("X_unlabeled", lambda: ssl.fit(_X1[:2], [0, 1], _X1[:2]), None),
        ("epsilon", lambda: DiscreteLaplaceMechanism(_count, 1, 710).sample(_D, 2, rng(0)), None),
        ("epsilon", lambda: PrivateHistogramClassifier(710.0).fit(_X2, _Y2), None),
        ("epsilon", lambda: LaplaceMechanism(_mean, 1.0, 1e6), None),
        ("epsilon", lambda: RandomizedResponse(2, 710), None),
        ("epsilon", lambda: StabilityHistogram(3, 710.0), None),
        ("epsilon", lambda: DiscreteLaplaceMechanism(_count, 1, 1 + 0j), None),  # type: ignore[arg-type]
        ("epsilon", lambda: DiscreteLaplaceMechanism(_count, 1, "0.5"), None),  # type: ignore[arg-type]
        ("epsilon", lambda: DiscreteLaplaceMechanism(_count, 1, True), None),
        ("base", lambda: DiscreteLaplaceMechanism(_count, 1, base=Fraction(1, 10**30)), None),
        ("sensitivity", lambda: LaplaceMechanism(_mean, 1e-300, 1.0).sample(_D, 2, rng(0)), None),
        ("t", lambda: LaplaceMechanism(_mean, 1.0, 1.0).sf(_D, _NAN), None),
        (
            "window",
            lambda: DiscreteLaplaceMechanism(_count, 1, base=Fraction(1, 2)).pmf(
                _D,
                (0.5, 2.5),  # type: ignore[arg-type]
            ),
            None,
        ),
        ("data", lambda: DiscreteLaplaceMechanism(_count, 1, 1.0).sample(_NONE, 3, rng(0)), None),
        (
            "y",
            lambda: PrivateHistogramClassifier(1.0, random_state=0).fit(
                _X2[:4], np.array(["a", 1, "a", 1], dtype=object)
            ),
            None,
        ),
        ("y", lambda: pcl.score(_X2, _Y2[:10]), None),
        (
            "random_state",
            lambda: PrivateHistogramClassifier(1.0, random_state=2**128).fit(_X2, _Y2),
            None,
        ),
        ("X", lambda: PrivateHistogramDensity(1.0, side=1e-10).fit(np.full((5, 2), 1e300)), None),
        ("x", lambda: RandomizedResponse(2, 1.0).randomise(np.array([1e300]), rng(0)), None),
        (
            "window",
            lambda: DiscreteLaplaceMechanism(_count, 1, base=Fraction(1, 2)).pmf(_D, (0, 10**8)),
            None,
        ),
        ("size", lambda: DiscreteLaplaceMechanism(_count, 1, 1.0).sample(_D, 10**12, rng(0)), None),
        ("cells", lambda: NoisyMajorityVote(10**12, 1.0), None),
        (
            "n_synthetic",
            lambda: PrivateSemiSupervisedClassifier(n_synthetic=10**9).fit(
                _X1[:4], [0, 1, 0, 1], _X1
            ),
            None,
        ),
        (
            "scores",
            lambda: ExponentialMechanism(lambda d: np.array([2**63 - 1, 0]), 1, 1.0).sample(
                two, 2, rng(0)
            ),
            None,
        ),
    ]
    return cases


CASES = _reported_cases()


@pytest.mark.parametrize(
    ("names", "call", "predicate"), CASES, ids=[f"{i}-{c[0]}" for i, c in enumerate(CASES)]
)
def test_a_reported_hostile_input(
    names: str, call: Callable[[], Any], predicate: Callable[[Any], str | None] | None
) -> None:
    """Refused with a ValueError / TypeError naming the argument, or — where the case has a
    predicate — accepted with a result the predicate accepts; no warning either way."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", category=DeprecationWarning)
        if predicate is None:
            with pytest.raises((ValueError, TypeError)) as info:
                call()
            assert names.rstrip(":") in str(info.value), str(info.value)
        else:
            problem = predicate(call())
            assert problem is None, problem
