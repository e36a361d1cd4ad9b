"""Thesis ch. 5: the exponential median, RandMargins, the classifier, composition, errata."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from dpspec.proofs.engine.registry import VerifyConfig
from dpspec.proofs.topics.rectangles import checks
from dpspec.rectangles import (
    ExponentialMedian,
    PrivateRectangleClassifier,
    RandMarginsParameters,
    interior_point_sample_complexity,
    median_scores,
    nonprivate_rectangle,
    release_law,
)
from dpspec.spec import composition as comp
from dpspec.spec import rectangles as rect

CONFIG = VerifyConfig()


def test_exponential_median() -> None:
    assert median_scores(np.array([1, 1, 3]), 5).tolist() == [0, 2, 1, 1, 0]
    m = ExponentialMedian(7, 1.0)
    pmf = m.pmf(np.array([2, 3, 3, 4]))
    assert sum(pmf.values()) == 1 and all(isinstance(v, Fraction) for v in pmf.values())
    assert max(pmf, key=lambda k: pmf[k]) == 3
    assert m.privacy.epsilon <= 1.0 and m.privacy.ratio == m.base**-2
    assert m.pmf(np.array([], dtype=np.int64))[0] == Fraction(1, 8)
    assert interior_point_sample_complexity(3, 2.0, 0.25) == 6
    draws = m.sample(np.array([2, 3, 3, 4]), 5000, np.random.default_rng(0))
    assert set(draws.tolist()) <= set(range(8))
    assert abs(float(np.mean(draws == 3)) - float(pmf[3])) < 0.03
    with pytest.raises(ValueError, match="data"):
        m.pmf(np.array([9]))
    assert checks.interior_point_exact(CONFIG).passed


def test_rand_margins_privacy() -> None:
    law = release_law(np.array([[0, 0], [1, 1], [1, 0]] * 4), checks.TINY)
    assert math.isclose(sum(law.values()), 1.0)
    assert checks.rand_margins_privacy(CONFIG).passed


def test_no_domino() -> None:
    assert checks.no_domino(CONFIG).passed


def test_claim_531() -> None:
    assert checks.claim_531(CONFIG).passed


def test_ties() -> None:
    printed = RandMarginsParameters(15, 1.0, 0.05, tags=1)
    law = release_law(np.full((20, 2), [5, 9]), printed)
    miss = sum(p for corner, p in law.items() if not rect.in_rectangle(corner, (5, 9)))
    assert 0.5 < miss < 0.6  # ≈ 9/16
    assert checks.tie_utility(CONFIG).passed


def test_classifier() -> None:
    rng = np.random.default_rng(0)
    X = rng.integers(0, 64, size=(30_000, 2))
    y = np.all(X <= [40, 50], axis=1).astype(np.int64)
    clf = PrivateRectangleClassifier(epsilon=2.0, grid_max=63, random_state=0).fit(X, y)
    assert clf.score(X, y) > 0.9 and np.all(clf.p_ <= [40, 50])
    assert clf.privacy_.epsilon == 2.0 and clf.accounting_ in ("basic", "theorem")
    assert nonprivate_rectangle(X[y == 1]).tolist() == [40, 50]
    assert rect.rectangle_error((40, 50), (40, 50), 63) == 0
    assert rect.rectangle_error((1, 1), (0, 0), 1) == Fraction(3, 4)
    for check in (checks.pac_utility, checks.privacy_report):
        assert check(CONFIG).passed


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


def test_composition() -> None:
    eps, k, dp = 0.1, 50, 1e-6
    target = comp.advanced_composition(eps, 0.0, k, dp)[0]
    assert comp.randomized_response_composition_delta(eps, k, target) <= dp
    assert comp.randomized_response_composition_delta(eps, 1, eps) == pytest.approx(0.0, abs=1e-15)
    assert comp.randomized_response_composition_delta(eps, 1, 0.0) == pytest.approx(
        math.tanh(eps / 2)
    )
    assert comp.renyi_divergence([0.5, 0.5], [0.5, 0.5], 2.0) == pytest.approx(0.0)
    for check in (
        checks.advanced_composition,
        checks.advanced_composition_printed,
        checks.renyi_printed,
    ):
        assert check(CONFIG).passed


def test_errata() -> None:
    assert not rect.good_event_exists([0.6, 0.4], [0.4, 0.6], 0.1, 0.158)
    assert rect.good_event_exists([0.6, 0.4], [0.4, 0.6], 0.5, 0.01)
    assert checks.lemma_532(CONFIG).passed


def test_command(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import json
    import subprocess
    import sys

    out = tmp_path / "rect.json"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "dpspec.proofs.cli",
            "rectangles",
            "--d",
            "2",
            "--grid-max",
            "63",
            "--n",
            "5000,20000",
            "--reps",
            "2",
            "--json",
            str(out),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    rows = json.loads(out.read_text())["rows"]
    assert [r["n"] for r in rows] == [5000, 20000]
    bad = subprocess.run(
        [sys.executable, "-m", "dpspec.proofs.cli", "rectangles", "--d", "0"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2 and "--d" in bad.stderr
