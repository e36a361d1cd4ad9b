"""Thesis ch. 5: behaviour of the rectangles family that the registry's checks do not run
themselves — the exponential median's law, the exact law of ``fit``, the classifier, the
command line, and the reproducers of the contract issue (each a regression test)."""

from __future__ import annotations

import json
import math
import resource
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from dpspec.mechanisms.exponential import ExponentialMechanism
from dpspec.proofs.engine.sweep import least_cpu_seconds
from dpspec.rectangles import (
    ExponentialMedian,
    PrivateRectangleClassifier,
    RandMarginsParameters,
    clamp_size,
    interior_point_sample_complexity,
    margin_set,
    median_scores,
    nonprivate_rectangle,
    per_call_level,
    rand_margins_trace,
    release_law,
    size_law,
)
from dpspec.spec import composition as comp
from dpspec.spec import rectangles as rect


def _dpspec(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dpspec.cli", *argv],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def test_exponential_median() -> None:
    assert median_scores(np.array([1, 1, 3]), 5).tolist() == [0, 2, 1, 1, 0]
    m = ExponentialMedian(1.0, grid_max=7)
    data = np.array([2, 3, 3, 4])
    pmf = m.pmf(data)
    assert sum(pmf.values()) == 1 and all(isinstance(v, Fraction) for v in pmf.values())
    assert max(pmf, key=lambda k: pmf[k]) == 3
    mechanism = ExponentialMechanism(lambda d: median_scores(d, 8), 1, base=m.base)
    assert pmf == mechanism.pmf(data)
    assert [pmf[x] for x in range(8)] == rect.exponential_median_law(data.tolist(), 8, m.base)
    assert m.privacy.epsilon <= 1.0 and m.privacy.ratio == m.base**-2 and m.privacy.exact_sampler
    assert m.pmf(np.array([], dtype=np.int64))[0] == Fraction(1, 8)
    assert m.pmf(data, window=(3, 4)) == {3: pmf[3], 4: pmf[4]}
    outside = sum(p for x, p in pmf.items() if not 2 <= x <= 4)
    assert m.failure_probability(data) == pytest.approx(float(outside), rel=1e-12)
    assert interior_point_sample_complexity(3, 2.0, 0.25) == 6
    draws = m.sample(data, 5000, np.random.default_rng(0))
    assert set(draws.tolist()) <= set(range(8))
    ideal = ExponentialMedian(1.0, grid_max=7, idealised=True)
    assert not ideal.privacy.exact_sampler and ideal.privacy.epsilon == 1.0
    law = ideal.pmf(data)
    assert math.isclose(sum(law.values()), 1.0) and law[3] == pytest.approx(float(pmf[3]), 1e-6)
    with pytest.raises(ValueError, match="data"):
        m.pmf(np.array([9]))


def test_release_law() -> None:
    X = np.array([[0, 1], [1, 1], [1, 0], [2, 2]])
    y = np.array([1, 1, 1, 0])
    printed = PrivateRectangleClassifier(8.0, 0.0, 2, 0.24, tags=1)
    law = printed.release_law(X, y)
    assert math.isclose(sum(law.values()), 1.0)
    assert law == printed.release_law(X, y, tags=np.zeros(4, dtype=np.int64))
    tagged = PrivateRectangleClassifier(8.0, 0.0, 2, 0.24, tags=2)
    mixture = tagged.release_law(X, y)
    by_tags = [tagged.release_law(X, y, tags=np.array([*t, 0])) for t in np.ndindex(2, 2, 2)]
    for corner, p in mixture.items():
        assert p == pytest.approx(sum(law.get(corner, 0) for law in by_tags) / 8, abs=1e-14)
    with pytest.raises(ValueError, match="tags"):
        tagged.release_law(X, y, tags=np.array([0, 1, 2, 0]))
    with pytest.raises(ValueError, match="tags"):
        tagged.release_law(X, y, tags=np.array([0, 1]))
    with pytest.raises(ValueError, match="X"):
        PrivateRectangleClassifier(8.0, tags=16, grid_max=63).release_law(
            np.arange(40).reshape(-1, 2), np.ones(20)
        )


def test_rand_margins_privacy() -> None:
    params = RandMarginsParameters(63, 0.5, 0.05, tags=4)
    call, run = params.privacy, params.run_privacy(3)
    assert call.epsilon <= 0.5 and math.isclose(run.epsilon, 3 * call.epsilon)
    assert run.ratio == call.ratio**3 and run.delta == 0
    assert not RandMarginsParameters(63, 0.5, 0.05, idealised=True).run_privacy(2).exact_sampler
    with pytest.raises(ValueError, match="d: the run's level"):
        RandMarginsParameters(63, 700.0, 0.05, idealised=True).run_privacy(2)
    law = params.size_pmf(50)
    assert len(law) == 51 and math.isclose(sum(law), 1.0) and law[50] > 0.5  # μ ≫ 50


def test_no_domino() -> None:
    values = np.array([5, 1, 9, 3, 7])
    assert margin_set(values, 3, 2).tolist() == [5, 7]  # the 2 smallest of the 3 largest
    assert margin_set(values, 0, 2).tolist() == []
    assert clamp_size(-4, 10) == 0 and clamp_size(14, 10) == 10 and clamp_size(6, 10) == 6
    with pytest.raises(ValueError, match="k"):
        margin_set(values, 6, 2)


def test_claim_531() -> None:
    params = RandMarginsParameters(63, 16.0, 0.05)
    rng = np.random.default_rng(0)
    S = rng.integers(0, 64, size=(params.sample_size(6), 6))
    corner = np.vstack([S, np.full((1, 6), 63)])
    watch = S.shape[0]
    assert rand_margins_trace(corner, params, rng, watch=watch)[1] == 1  # in B'_1, then gone
    assert rand_margins_trace(corner, params, rng, watch=watch, remove=False)[1] == 6
    origin = np.vstack([S, np.zeros((1, 6), dtype=np.int64)])
    assert rand_margins_trace(origin, params, rng, watch=watch)[1] == 0


def test_ties() -> None:
    printed = PrivateRectangleClassifier(2.0, 0.0, 15, 0.05, tags=1)
    X = np.vstack([np.full((20, 2), [5, 9]), [[15, 15]]])
    law = printed.release_law(X, np.r_[np.ones(20, dtype=np.int64), 0])
    miss = sum(p for corner, p in law.items() if not rect.in_rectangle(corner, (5, 9)))
    assert 0.5 < miss < 0.6  # ≈ 9/16


def test_classifier() -> None:
    rng = np.random.default_rng(0)
    X = rng.integers(0, 64, size=(30_000, 2))
    y = np.all(X <= [40, 50], axis=1).astype(np.int64)
    clf = PrivateRectangleClassifier(epsilon=2.0, grid_max=63, random_state=0).fit(X, y)
    assert clf.score(X, y) > 0.9 and np.all(clf.p_ <= [40, 50])
    assert clf.privacy_.epsilon <= 2.0 and clf.privacy_.delta == 0
    assert clf.accounting_ == "basic" and clf.epsilon_call_ == 1.0
    assert nonprivate_rectangle(X[y == 1]).tolist() == [40, 50]
    assert rect.rectangle_error((40, 50), (40, 50), 63) == 0
    assert rect.rectangle_error((1, 1), (0, 0), 1) == Fraction(3, 4)
    clf.p_ = np.array([3, 3])
    assert clf.predict(np.array([[3, 3], [3, 4], [0, 0]])).tolist() == [1, 0, 1]  # closed end
    same = PrivateRectangleClassifier(epsilon=2.0, grid_max=63, random_state=7)
    assert same.fit(X, y).p_.tolist() == same.fit(X, y).p_.tolist()


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"epsilon": -1}, "epsilon"),
        ({"delta": 2}, "delta"),
        ({"beta": 0.3}, "beta"),
        ({"tags": 0}, "tags"),
        ({"accounting": "magic"}, "accounting"),
        ({"grid_max": 0}, "grid_max"),
        ({"grid_max": 2**21}, "tags"),
        ({"idealised": "no"}, "idealised"),
    ],
)
def test_bad_parameters_are_named(kwargs: dict[str, object], match: str) -> None:
    X = np.array([[1, 2], [3, 4]])
    with pytest.raises((ValueError, TypeError), match=match):
        PrivateRectangleClassifier(**kwargs).fit(X, np.array([1, 0]))  # type: ignore[arg-type]


def test_bad_data_is_named() -> None:
    clf = PrivateRectangleClassifier(grid_max=7)
    with pytest.raises(ValueError, match="X"):
        clf.fit(np.array([[0.5, 1.0]]), np.array([1]))
    with pytest.raises(ValueError, match="X"):
        clf.fit(np.array([[9, 1]]), np.array([1]))
    with pytest.raises(ValueError, match="not fitted"):
        clf.predict(np.array([[1, 1]]))


def test_reproducers_of_issue_20() -> None:
    """Each reproducer of the contract issue in this family, as it now behaves."""
    # nonprivate_rectangle on 1-D input returned array(2)
    with pytest.raises(ValueError, match="points"):
        nonprivate_rectangle(np.array([1, 2, 3]))
    # PrivateRectangleClassifier(epsilon=0.001) said "epsilon: … got 0.0005" (ε/d under the
    # name epsilon); 0.0005 per axis is now accepted, a smaller level is refused as per-axis
    with pytest.raises(ValueError, match=r"epsilon: the per-axis level ε/d = 0\.0008/2") as err:
        PrivateRectangleClassifier(epsilon=0.0008).fit(np.array([[1, 2], [3, 4]]), [1, 0])
    assert "got 0.0004" not in str(err.value)
    # interior_point_sample_complexity(eps=0): ZeroDivisionError
    for bad in (0, 0.0, 5e-324, -1.0):
        with pytest.raises(ValueError, match="epsilon"):
            interior_point_sample_complexity(1023, bad, 0.05)
    # per_call_level(1, 1e-6, 2, 'bogus') used 'theorem'; nan gave nan; d=0 divided by zero
    with pytest.raises(ValueError, match="accounting"):
        per_call_level(1.0, 1e-6, 2, "bogus")
    with pytest.raises(ValueError, match="epsilon"):
        per_call_level(math.nan, 1e-6, 2, "basic")
    with pytest.raises(ValueError, match="d"):
        per_call_level(1.0, 1e-6, 0, "basic")
    with pytest.raises(ValueError, match=r"rectangles\.erratum\.thesis-lemma-5\.3\.2"):
        per_call_level(1.0, 1e-6, 2, "theorem")
    assert per_call_level(1.0, 1e-6, 2, "best") == (0.5, "basic", 0.0)
    # RandMarginsParameters(63, 1.0, 0.05, 1, 'no') used float noise
    with pytest.raises(TypeError, match="idealised"):
        RandMarginsParameters(63, 1.0, 0.05, 1, "no")  # type: ignore[arg-type]
    assert RandMarginsParameters(63, 1.0, 0.05, 1, np.True_).idealised is True
    # the old positional order of ExponentialMedian (grid_max first) is refused, not swapped
    with pytest.raises(TypeError):
        ExponentialMedian(7, 1.0)  # type: ignore[misc]


def test_limits_before_work() -> None:
    """ExponentialMedian.sample(…, 2**27 + 1) took > 15 s and sample(…, 10**9) 7.45 GiB; a pmf
    on a 2^24 grid > 30 s: each is refused at once, naming the parameter and the limit."""
    m = ExponentialMedian(1.0, grid_max=2**24 - 1)
    data = np.array([0, 5, 2**24 - 1])
    rng = np.random.default_rng(0)
    for size in (2**27 + 1, 10**9):

        def refusal(size: int = size) -> None:
            with pytest.raises(ValueError, match="size"):
                m.sample(data, size, rng)

        assert least_cpu_seconds(refusal, 0.5) < 0.5
    # the level sampler costs O(m log m + levels + size) whatever the grid: 2^20 answers run
    assert m.sample(data, 2**20, rng).shape == (2**20,)

    def window_refusal() -> None:
        with pytest.raises(ValueError, match="window"):
            m.pmf(data)

    assert least_cpu_seconds(window_refusal, 0.5) < 0.5
    assert len(m.pmf(data, window=(0, 9))) == 10
    with pytest.raises(ValueError, match="data: the exact pmf"):
        ExponentialMedian(1.0, grid_max=7).pmf(np.zeros(5000, dtype=np.int64))


def test_deprecated_names() -> None:
    params = RandMarginsParameters(1, 4.0, 0.24)
    points = np.array([[0, 1], [1, 1]])
    with pytest.warns(DeprecationWarning):
        old = release_law(points, params)
    clf = PrivateRectangleClassifier(8.0, 0.0, 1, 0.24, tags=1)
    assert old == clf.release_law(np.vstack([points, [[1, 1]]]), np.array([1, 1, 0]))
    with pytest.warns(DeprecationWarning):
        assert size_law(params, 5) == params.size_pmf(5)
    assert release_law.__deprecated_alias_of__ == "release_law"  # type: ignore[attr-defined]


def test_composition() -> None:
    eps, k, dp = 0.1, 50, 1e-6
    target = comp.advanced_composition(eps, 0.0, k, dp)[0]
    assert comp.randomized_response_composition_delta(eps, k, target) <= dp
    assert comp.randomized_response_composition_delta(eps, 1, eps) == pytest.approx(0.0, abs=1e-15)
    assert comp.randomized_response_composition_delta(eps, 1, 0.0) == pytest.approx(
        math.tanh(eps / 2)
    )
    assert comp.renyi_divergence([0.5, 0.5], [0.5, 0.5], 2.0) == pytest.approx(0.0)


def test_errata() -> None:
    assert not rect.good_event_exists([0.6, 0.4], [0.4, 0.6], 0.1, 0.158)
    assert rect.good_event_exists([0.6, 0.4], [0.4, 0.6], 0.5, 0.01)


def test_command(tmp_path: Path) -> None:
    out = tmp_path / "rect.json"
    run = _dpspec(
        "rectangles", "--d", "2", "--grid-max", "63", "--n", "5000,2e4", "--reps", "2",
        "--json", str(out),
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert [r["n"] for r in json.loads(out.read_text())["rows"]] == [5000, 20000]
    assert (
        _dpspec("rectangles", "--d", "2", "--n", "300", "--reps", "1", "--delta", "0").returncode
        == 0
    )


@pytest.mark.parametrize(
    ("argv", "option"),
    [
        (("--delta", "1"), "--delta"),
        (("--delta", "1.5"), "--delta"),
        (("--delta", "-1"), "--delta"),
        (("--delta", "nan"), "--delta"),
        (("--epsilon", "1e-300"), "--epsilon"),
        (("--d", "1000", "--n", "1e7"), "--n"),
        (("--d", "0"), "--d"),
        (("--n", "1,x"), "--n"),
        (("--seed", "-1"), "--seed"),
        (("--plot", "x.txt"), "--plot"),
    ],
)
def test_command_refuses_before_work(argv: tuple[str, ...], option: str) -> None:
    """``rectangles --delta 0|1|1.5|-1|nan`` gave raw errors naming delta_prime, ``--epsilon
    1e-300`` a raw exception, ``--d 1000 --n 1e7`` asked for 74.5 GiB: one line, exit 2."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = _dpspec("rectangles", *argv)
    lines = run.stderr.strip().splitlines()
    assert run.returncode == 2 and len(lines) == 1, run.stderr
    assert option in lines[0] and "delta_prime" not in lines[0] and "Traceback" not in run.stderr
    if "1e7" in argv:
        assert "GiB" in lines[0]
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime < 60  # CPU seconds
