"""Seed 002 ch. 4: quantiles, MedBoost, Sparsify, the compression schemes and their CLI."""

from __future__ import annotations

import contextlib
import io
import json
import re
import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from dpspec.cli import main
from dpspec.compression.boosting import (
    CompressionFailure,
    medboost,
    sparsify,
    weighted_quantiles,
)
from dpspec.compression.learners import ThresholdLearner
from dpspec.compression.schemes import (
    compress,
    random_realizable_sample,
    reconstruct,
    rectangle_baseline,
)
from dpspec.spec.compression import quantile_minus, quantile_plus, weighted_median


def test_quantile_definitions() -> None:
    """Hand-checked values: the upper median, weights, and the γ-quantiles."""
    assert weighted_median([0, 1], [1, 1]) == 1  # upper median: Med(0, 1) = 1
    assert weighted_median([3, 1, 2], [1, 1, 1]) == 2
    assert weighted_median([0, 10], [3, 1]) == 0
    assert quantile_plus([0, 1, 2, 3], [1, 1, 1, 1], Fraction(1, 4)) == 3
    assert quantile_minus([0, 1, 2, 3], [1, 1, 1, 1], Fraction(1, 4)) == 0
    lo, hi = weighted_quantiles(np.array([[0.0], [1.0], [2.0], [3.0]]), np.ones(4), 0.25)
    assert (lo[0], hi[0]) == (0.0, 3.0)
    with pytest.raises(ValueError, match="gamma"):
        quantile_plus([1], [1], Fraction(1, 2))
    with pytest.raises(ValueError, match="weights"):
        weighted_median([1, 2], [0, 0])


def test_bad_input() -> None:
    rng = np.random.default_rng(0)
    x, y = random_realizable_sample("thresholds", 100, rng)
    with pytest.raises(ValueError, match="gamma"):
        compress("thresholds", x, y, rng, gamma=0.5)
    with pytest.raises(ValueError, match="eta"):
        compress("bv", x, y, rng, eta=0.0)
    with pytest.raises(ValueError, match="realizable"):
        compress("thresholds", x, 1 - y, rng)  # a decreasing step is no threshold
    with pytest.raises(ValueError, match="x"):
        compress("thresholds", np.zeros(0), np.zeros(0), rng)
    with pytest.raises(ValueError, match="hypothesis_class"):
        compress("polynomials", x, y, rng)
    with pytest.raises(ValueError, match="y"):
        compress("thresholds", x, y * 2, rng)
    # a bounded loop reports failure instead of spinning: no threshold is 0.1-accurate on
    # half the weight of noise labels
    with pytest.raises(CompressionFailure, match="max_tries"):
        medboost(x, rng.random(100), ThresholdLearner(), 5, 0.45, 0.01, 4, rng, max_tries=5)
    boost = medboost(x, y, ThresholdLearner(), 20, 0.25, 0.5, 8, rng)
    with pytest.raises(CompressionFailure, match="max_trials"):
        sparsify(boost, x, 1 - y, 4, 0.5, rng, max_trials=3)


def test_schemes_reconstruct() -> None:
    rng = np.random.default_rng(1)
    for cls in ("thresholds", "intervals", "rectangles", "bv", "lipschitz"):
        sizes = []
        for m in (500, 5000):
            x, y = random_realizable_sample(cls, m, rng)
            c = compress(cls, x, y, rng)
            pred = reconstruct(c, x[c.stored], y[c.stored])(x)
            bound = 0.0 if cls in ("thresholds", "intervals", "rectangles") else 0.1
            assert np.max(np.abs(pred - y)) <= bound, cls
            sizes.append(c.stored_points)
        assert max(sizes) <= 64 * 8  # n·m̃, whatever m is
    x, y = random_realizable_sample("rectangles", 1000, rng)
    assert rectangle_baseline(x, y).size <= 4


def test_cli_compress(tmp_path: Path) -> None:
    out = tmp_path / "c.json"
    assert main(["compress", "intervals", "--m", "2000", "--json", str(out)]) == 0
    payload = json.loads(out.read_text(encoding="utf-8"))
    assert payload["reconstruction_error"] == 0 and payload["stored_points"] <= 512
    assert main(["compress", "bv", "--m", "1000", "--gamma", "0.7"]) == 2


def test_hostile_library_input() -> None:
    """Wrong shapes, types and sizes get a ValueError/TypeError naming the argument before any
    work; unbounded work (γ = 1e-6, m̃ = 10^6) is refused with the limit named."""
    rng = np.random.default_rng(3)
    x, y = random_realizable_sample("thresholds", 200, rng)
    xr, yr = random_realizable_sample("rectangles", 200, rng)
    with pytest.raises(ValueError, match=r"x: rectangles take points of R\^d"):
        compress("rectangles", x, yr, rng)  # 1-D x (was numpy's AxisError)
    with pytest.raises(ValueError, match="x: thresholds take scalar points"):
        compress("thresholds", xr, y, rng)  # 2-D x (was "labels are not realizable")
    c = compress("thresholds", x[:, None], y, rng)  # (m, 1) is a column of scalars
    assert np.array_equal(reconstruct(c, x[c.stored], y[c.stored])(x), y)
    with pytest.raises(TypeError, match="gamma"):
        compress("thresholds", x, y, rng, gamma="x")  # type: ignore[arg-type]
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ValueError, match="subsample"):
            compress("thresholds", x, y, rng, subsample=bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"gamma: 1e-06 needs .* limit 100000 \(rounds\)"):
        compress("thresholds", x, y, rng, gamma=1e-6)
    with pytest.raises(ValueError, match=r"subsample: must be an integer \[1, 100000\]"):
        compress("thresholds", x, y, rng, subsample=10**6)
    with pytest.raises(ValueError, match=r"rounds: must be an integer \[1, 100000\]"):
        compress("thresholds", x, y, rng, rounds=10**9)
    with pytest.raises(ValueError, match=r"n: must be an integer \[1, 100000\]"):
        compress("thresholds", x, y, rng, n=10**9)
    with pytest.raises(ValueError, match=r"m: must be an integer \[1, 10000000\]"):
        random_realizable_sample("thresholds", 10**12, rng)
    with pytest.raises(ValueError, match="eta: binary classes"):
        compress("thresholds", x, y, rng, eta=3.0)
    with pytest.raises(ValueError, match="eta"):
        compress("thresholds", x, y, rng, eta=1e300)
    with pytest.raises(ValueError, match="y: expected 200 labels"):
        compress("thresholds", x, y[:10], rng)
    with pytest.raises(ValueError, match="x"):
        compress("thresholds", np.full(200, np.nan), y, rng)


def test_hostile_quantiles_and_reconstruct() -> None:
    with pytest.raises(ValueError, match="weights: expected 3 weights"):
        weighted_quantiles(np.zeros((3, 2)), np.ones(4), 0.0)
    with pytest.raises(ValueError, match="weights"):
        weighted_quantiles(np.zeros((3, 2)), np.array([1.0, np.nan, 1.0]), 0.0)
    with pytest.raises(ValueError, match="values"):
        weighted_quantiles(np.array([[0.0], [np.nan]]), np.ones(2), 0.0)
    with pytest.raises(TypeError, match="gamma"):
        weighted_quantiles(np.zeros((2, 1)), np.ones(2), "x")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="weights"):
        quantile_plus([1, 2], [1, 2, 3])
    with pytest.raises(ValueError, match="weights"):
        quantile_plus([1, 2], [1, float("nan")])
    with pytest.raises(ValueError, match="values"):
        quantile_minus([1, float("inf")], [1, 1])
    assert quantile_plus([np.int64(1), np.int64(2)], [np.int64(1), np.int64(1)]) == 2
    with pytest.raises(TypeError, match="values"):
        quantile_plus(None, [1])  # type: ignore[arg-type]
    # weights near the float maximum: shares are what matters, no overflow warning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        lo, hi = weighted_quantiles(np.array([[0.0], [1.0]]), np.array([1e308, 1e308]), 0.0)
    assert (lo[0], hi[0]) == (0.0, 1.0)
    with pytest.raises(ValueError, match="x: expected 2 dimension"):
        rectangle_baseline(np.zeros(3), np.ones(3))
    rng = np.random.default_rng(4)
    x, y = random_realizable_sample("intervals", 300, rng)
    c = compress("intervals", x, y, rng)
    with pytest.raises(ValueError, match="x_stored: expected the"):
        reconstruct(c, x[c.stored][:-1], y[c.stored][:-1])  # was an IndexError
    with pytest.raises(ValueError, match="y: expected"):
        reconstruct(c, x[c.stored], y[c.stored][:-1])
    with pytest.raises(TypeError, match="compressed"):
        reconstruct("c", x, y)  # type: ignore[arg-type]


def test_learners_are_closed_at_their_ends() -> None:
    """The weak learners' hypotheses include their ends (the ERM's rule): a sample point on the
    threshold, on an interval's ends, on a box's faces is labelled 1; the step function takes
    the right value at a jump; the rules are those of dpspec.spec.compression."""
    from dpspec.compression.learners import IntervalLearner, RectangleLearner, StepLearner
    from dpspec.spec.compression import interval_rule, step_rule, threshold_rule

    x = np.array([0.25, 0.5, 0.5, 0.75])
    h = ThresholdLearner().learn(x, np.array([0, 1, 1, 1]))
    assert h(np.array([0.5, np.nextafter(0.5, 0)])).tolist() == [1.0, 0.0]
    assert threshold_rule(0.5, 0.5) == 1
    g = IntervalLearner().learn(x, np.array([0, 1, 1, 1]))
    assert g(np.array([0.5, 0.75, 0.76])).tolist() == [1.0, 1.0, 0.0]
    assert interval_rule(0.5, 0.75, 0.75) == 1
    box = RectangleLearner().learn(np.array([[0.1, 0.2], [0.3, 0.4]]), np.array([1, 1]))
    assert box(np.array([[0.1, 0.4], [0.3, 0.41]])).tolist() == [1.0, 0.0]
    step = StepLearner().learn(np.array([0.2, 0.6]), np.array([0.1, 0.4]))
    assert step(np.array([0.6, np.nextafter(0.6, 0)])).tolist() == [0.4, 0.1]
    assert step_rule([0.2, 0.6], [0.1, 0.4], 0.6) == 0.4


def test_compression_contract_regressions() -> None:
    """The weak learners are no estimators (``learn``, not ``fit``);
    the schemes' vote is the bound weighted median; limits refuse before any work; every
    public callable refuses a wrong type naming the parameter."""
    from dpspec.compression import learners, medboost, sparsify
    from dpspec.compression.boosting import MAX_POINT_ROUNDS

    for name in ("ThresholdLearner", "IntervalLearner", "RectangleLearner", "StepLearner"):
        assert hasattr(getattr(learners, name), "learn")
        fit = getattr(learners, name).fit  # 0.2's name, a deprecated alias until 0.4
        assert getattr(fit, "__deprecated_alias_of__", None) == "learn"
    rng = np.random.default_rng(0)
    x, y = random_realizable_sample("thresholds", 10**6, rng)
    with pytest.raises(ValueError, match="gamma: the request needs"):  # T·m beyond the limit
        compress("thresholds", x, y, rng, gamma=0.05)
    assert MAX_POINT_ROUNDS == 2**31
    with pytest.raises(ValueError, match="gamma: 1e-300 needs"):  # was a ZeroDivisionError
        compress("thresholds", x[:10], y[:10], rng, gamma=1e-300)
    with pytest.raises(ValueError, match="rounds: the request needs"):
        medboost(x, y, ThresholdLearner(), 10**4, 0.25, 0.5, 8, rng)
    with pytest.raises(TypeError, match="learner"):
        medboost(x[:10], y[:10], "learner", 3, 0.25, 0.5, 4, rng)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="boost"):
        sparsify("boost", x[:10], y[:10], 4, 0.5, rng)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="rng"):
        compress("thresholds", x[:10], y[:10], 42)  # type: ignore[arg-type]


def test_cli_options_are_refused_before_work() -> None:
    """Every ``compress`` option has a declared domain: out of it, exit 2 before any work."""
    for argv in (
        ["compress", "thresholds", "--seed", "-1"],
        ["compress", "thresholds", "--gamma", "1e-300"],
        ["compress", "thresholds", "--gamma", "nan"],
        ["compress", "bv", "--eta", "0"],
        ["compress", "thresholds", "--m", "1e8"],
        ["compress", "thresholds", "--m", "10000000", "--gamma", "0.1"],
        ["compress", "polynomials"],
        ["compress", "thresholds", "--json", "/dev/null/x.json"],
    ):
        assert main(argv) == 2, argv


def test_readme_compression_figures_are_the_commands(tmp_path: Path) -> None:
    """docs/families.md's sentence "`dpspec compress thresholds --m 1000000` stores K points + B
    side bits" states what the command prints (before: 7 points where the command stored 8)."""
    page = Path(__file__).resolve().parent.parent / "docs" / "families.md"
    stated = re.search(
        r"`dpspec compress thresholds\s+--m 1000000` stores (\d+) points \+ (\d+) side bits",
        page.read_text(encoding="utf-8"),
    )
    assert stated is not None
    out = tmp_path / "c.json"
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["compress", "thresholds", "--m", "1000000", "--json", str(out)]) == 0
    payload = json.loads(out.read_text(encoding="utf-8"))
    assert (payload["stored_points"], payload["side_bits"]) == tuple(map(int, stated.groups()))
