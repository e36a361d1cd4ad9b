"""DP-SGD (dpspec.learners.dpsgd): the update written out, the samplers' batches, the
estimator protocol, refusals, and the replay's two findings the obligation rests on."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from scipy import optimize, stats

from dpspec.audit import replay
from dpspec.learners import DPSGDRegressor
from dpspec.learners.dpsgd import MAX_WORK
from dpspec.proofs.topics.dpsgd.pair import canary_pair, path_release, statistic, steps_of

#: noise so small that a step is its clipped sum to ~1e-12
QUIET = 1e-12


def _one_hot_canaries(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Record i: x = e_i, y = −10^6: its clipped gradient is +e_i at every θ reached."""
    return np.eye(n), np.full(n, -1e6)


def test_one_step_is_the_clipped_gradient_written_out() -> None:
    # x = (3, 4), y = −10: ∇ = (0·x + 10)·x = (30, 40), norm 50, clipped to C = 1: (0.6, 0.8)
    model = DPSGDRegressor(
        noise_multiplier=QUIET,
        clip_norm=1.0,
        learning_rate=0.5,
        steps=1,
        batch_size=1,
        batch_sampler="shuffle",
        random_state=0,
    ).fit(np.array([[3.0, 4.0]]), np.array([-10.0]))
    np.testing.assert_allclose(model.coef_, [-0.3, -0.4], atol=1e-9)
    np.testing.assert_allclose(model.coef_path_[0], [0.0, 0.0])
    # a gradient inside the ball is not scaled: x = (0.1, 0), y = −1 → ∇ = (0.1, 0)
    small = DPSGDRegressor(
        noise_multiplier=QUIET,
        clip_norm=1.0,
        learning_rate=1.0,
        steps=1,
        batch_size=1,
        batch_sampler="shuffle",
        random_state=0,
    ).fit(np.array([[0.1, 0.0]]), np.array([-1.0]))
    np.testing.assert_allclose(small.coef_, [-0.1, 0.0], atol=1e-9)


def test_a_shuffled_epoch_uses_every_record_once() -> None:
    n, b = 12, 3
    X, y = _one_hot_canaries(n)
    model = DPSGDRegressor(
        noise_multiplier=QUIET,
        learning_rate=float(b),
        steps=2 * n // b,
        batch_size=b,
        batch_sampler="shuffle",
        random_state=1,
    ).fit(X, y)
    moves = -np.diff(model.coef_path_, axis=0)  # one row per step: the batch's indicator
    np.testing.assert_allclose(moves.sum(axis=1), b, atol=1e-6)
    for epoch in range(2):
        np.testing.assert_allclose(moves[epoch * 4 : epoch * 4 + 4].sum(axis=0), 1.0, atol=1e-6)
    assert model.epochs_ == 2


def test_poisson_batches_hold_each_record_with_probability_q() -> None:
    n, b, steps = 20, 5, 400
    X, y = _one_hot_canaries(n)
    model = DPSGDRegressor(
        noise_multiplier=QUIET,
        learning_rate=float(b),
        steps=steps,
        batch_size=b,
        batch_sampler="poisson",
        random_state=2,
    ).fit(X, y)
    members = np.rint(-np.diff(model.coef_path_, axis=0)).astype(int)
    assert set(np.unique(members)) <= {0, 1}
    # 8000 Bernoulli(1/4) draws: a two-sided binomial test at 1e-6 (fixed seed)
    assert stats.binomtest(int(members.sum()), members.size, b / n).pvalue > 1e-6
    assert model.sampling_rate_ == b / n and model.epochs_ == 0


def test_the_estimator_protocol() -> None:
    model = DPSGDRegressor(steps=5, batch_size=2, random_state=3)
    assert model.get_params()["steps"] == 5
    model.set_params(steps=6)
    assert model.steps == 6
    rng = np.random.default_rng(0)
    X, y = rng.random((10, 2)), rng.random(10)
    first = DPSGDRegressor(steps=5, batch_size=2, random_state=3).fit(X, y)
    again = DPSGDRegressor(steps=5, batch_size=2, random_state=3).fit(X, y)
    np.testing.assert_array_equal(first.coef_path_, again.coef_path_)
    assert first.predict(X).shape == (10,)
    gen = np.random.default_rng(4)
    state = gen.bit_generator.state
    DPSGDRegressor(steps=2, batch_size=2, random_state=gen).fit(X, y)
    assert gen.bit_generator.state != state  # a Generator is drawn from as it is


def test_a_public_noise_free_optimum_is_approached() -> None:
    # with little noise and no active clipping the path approaches least squares
    rng = np.random.default_rng(5)
    X = rng.random((64, 2))
    y = X @ np.array([0.5, -0.25])
    model = DPSGDRegressor(
        noise_multiplier=0.01,
        clip_norm=10.0,
        learning_rate=0.5,
        steps=600,
        batch_size=16,
        random_state=0,
    ).fit(X, y)
    np.testing.assert_allclose(model.coef_, [0.5, -0.25], atol=0.05)


@pytest.mark.parametrize(
    ("params", "name"),
    [
        ({"noise_multiplier": 0.0}, "noise_multiplier"),
        ({"clip_norm": -1.0}, "clip_norm"),
        ({"batch_sampler": "bogus"}, "batch_sampler"),
        ({"steps": 0}, "steps"),
        ({"batch_size": 11}, "batch_size"),
    ],
)
def test_bad_parameters_are_refused_naming_them(params: dict[str, object], name: str) -> None:
    X, y = np.zeros((10, 1)), np.zeros(10)
    with pytest.raises(ValueError, match=name):
        DPSGDRegressor(**params).fit(X, y)  # type: ignore[arg-type]


def test_a_fit_beyond_the_work_limit_is_refused_before_any_draw() -> None:
    gen = np.random.default_rng(0)
    state = gen.bit_generator.state
    steps = MAX_WORK // 4 + 1
    with pytest.raises(ValueError, match="steps: the request needs"):
        DPSGDRegressor(steps=steps, batch_size=1, random_state=gen).fit(
            np.zeros((4, 1)), np.zeros(4)
        )
    assert gen.bit_generator.state == state


def test_the_pair_has_fixed_clipped_gradients() -> None:
    (X, y), (X2, y2) = canary_pair(8)
    assert (X[1:] == X2[1:]).all() and (y[1:] == y2[1:]).all()
    params = {
        "noise_multiplier": QUIET,
        "clip_norm": 1.0,
        "learning_rate": 1.0,
        "steps": 8,
        "batch_size": 1,
        "batch_sampler": "shuffle",
    }
    for data, top in (((X, y), 1.0), ((X2, y2), 0.0)):
        path = path_release(params)(data, np.random.default_rng(0))
        s = np.sort(steps_of(path[None], params)[0])
        np.testing.assert_allclose(s, [-1.0] * 7 + [top], atol=1e-6)


def _closed_form_epsilon(delta: float, mu: float) -> float:
    """ε(δ) of μ-GDP, from Balle & Wang's δ(ε) written here (not the package's)."""

    def gap(e: float) -> float:
        return (
            float(stats.norm.cdf(-e / mu + mu / 2) - math.exp(e) * stats.norm.cdf(-e / mu - mu / 2))
            - delta
        )

    return float(optimize.brentq(gap, 0.0, 100.0, xtol=1e-12))


def test_the_full_batch_replay_is_the_closed_form() -> None:
    params = {
        "noise_multiplier": 1.0,
        "clip_norm": 1.0,
        "learning_rate": 1.0,
        "steps": 8,
        "batch_size": 8,
        "batch_sampler": "shuffle",
    }
    found = replay(path_release(params), canary_pair(8), 1.0, 1e-2, runs=4)
    assert found.finding == "coupled" and found.exact
    expected = _closed_form_epsilon(1e-2, math.sqrt(8))
    assert found.epsilon_exact == pytest.approx(expected, abs=1e-6)
    assert found.epsilon_upper is not None and found.epsilon_upper >= expected - 1e-9


def test_the_replay_cannot_couple_poisson_batches() -> None:
    for sampler in ("poisson", "shuffle"):
        params = {
            "noise_multiplier": 1.0,
            "clip_norm": 1.0,
            "learning_rate": 1.0,
            "steps": 8,
            "batch_size": 1,
            "batch_sampler": sampler,
        }
        found = replay(path_release(params), canary_pair(8), 1.0, 1e-2, runs=4)
        assert found.finding == "shift varies" and found.epsilon_upper is None


def test_the_statistic_is_the_likelihood_ratio_of_the_shuffled_pair() -> None:
    # one epoch of 2 steps, σ = 1: u = s + 1; LR = log Σ e^{2u−2} − log Σ e^{u−1/2}
    params = {"noise_multiplier": 1.0, "clip_norm": 1.0, "learning_rate": 1.0, "batch_size": 1}
    s = np.array([0.3, -1.2])
    path = np.concatenate([[0.0], -np.cumsum(s)])[None, :, None]
    u = s + 1
    expected = math.log(sum(math.exp(2 * v - 2) for v in u)) - math.log(
        sum(math.exp(v - 0.5) for v in u)
    )
    assert statistic(path, params, 2)[0] == pytest.approx(expected, rel=1e-12)


def test_the_docs_example_runs() -> None:
    """The example of docs/families.md after its ``dpsgd-example`` marker: the shuffled fit's
    statistical lower bound refutes the Poisson accountant's ε (seed 0 of the audit)."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "families.md").read_text("utf-8")
    block = text.split("<!-- dpsgd-example -->", 1)[1].split("```python\n", 1)[1]
    space: dict[str, Any] = {}
    exec(compile(block.split("```", 1)[0], "docs/families.md", "exec"), space)
    assert space["r"].violation and space["r"].epsilon_lower > float(space["poisson"].hi)
    assert float(space["shuffle"].lo) > float(space["poisson"].hi)
