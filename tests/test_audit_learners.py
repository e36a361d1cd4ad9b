"""Learner audits: LearnerMechanism, the learner zoo, the vectorised repeated fits, one-run."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from scipy import stats

from dpspec.audit import audit
from dpspec.audit.learner_zoo import (
    HalvedNoiseHistogramClassifier,
    data_range_epsilon,
    learner_zoo,
)
from dpspec.audit.learners import LearnerMechanism
from dpspec.audit.one_run import (
    learner_one_run,
    one_run_audit,
    one_run_epsilon_lower,
    one_run_pvalue,
)
from dpspec.cli import main
from dpspec.learners.pcl import PrivateHistogramClassifier


def _pcl(seed: int) -> PrivateHistogramClassifier:
    return PrivateHistogramClassifier(1.0, cells_per_axis=4, random_state=seed)


def test_learner_mechanism_releases() -> None:
    rng = np.random.default_rng(0)
    X = rng.random((40, 1))
    y = (X[:, 0] > 0.5).astype(int)
    probe = np.array([[0.1], [0.9]])
    loop = LearnerMechanism(_pcl, probe=probe, vectorised=False)
    fast = LearnerMechanism(_pcl, probe=probe)
    a = loop.sample((X, y), 50, np.random.default_rng(1))
    b = fast.sample((X, y), 50, np.random.default_rng(1))
    assert a.shape == b.shape == (50, 2)
    # each loop row is exactly a real fit with the seed the auditor's generator gave
    seeds = np.random.default_rng(1).integers(0, 2**62, size=50)
    assert np.array_equal(a[3], _pcl(int(seeds[3])).fit(X, y).predict(probe))
    params = LearnerMechanism(_pcl, lambda m: m.cell_bits_.astype(int))
    assert params.sample((X, y), 5, np.random.default_rng(2)).shape[0] == 5


def test_learner_mechanism_arguments() -> None:
    with pytest.raises(TypeError, match="factory"):
        LearnerMechanism(3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="release"):
        LearnerMechanism(_pcl, "coef", probe=[[0.1]])
    with pytest.raises(ValueError, match="probe"):
        LearnerMechanism(_pcl, "predict").sample(
            (np.zeros((2, 1)), [0, 1]), 1, np.random.default_rng()
        )
    with pytest.raises(ValueError, match="probe"):
        LearnerMechanism(_pcl, "predict", probe=[0.1, 0.2])
    with pytest.raises(TypeError, match="release"):
        LearnerMechanism(_pcl, 3, probe=[[0.1]])  # type: ignore[arg-type]


def test_repeated_predictions_match_fit() -> None:
    """Same per-probe rates as real fits (a quick binomial check; the registered chi-square
    is ``audit.learner-repeated-fits``), and probes in one cube share its bit."""
    X = np.array([[0.1], [0.2], [0.15], [0.5], [0.45], [0.55], [0.6], [0.4]])
    y = np.array([1, 1, 0, 0, 0, 1, 0, 0])
    probe = np.array([[0.125], [0.375], [0.05]])
    clf = PrivateHistogramClassifier(1.0, cells_per_axis=4)
    bits = clf.repeated_predictions(X, y, probe, 20_000, np.random.default_rng(3))
    assert np.array_equal(bits[:, 0], bits[:, 2])
    law = clf.release_law(X, y)
    for j, cube in enumerate((0, 1)):
        p = float(law[cube])
        assert stats.binomtest(int(bits[:, j].sum()), 20_000, p).pvalue > 1e-6
    with pytest.raises(TypeError, match="rng"):
        clf.repeated_predictions(X, y, probe, 3, 0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="probe"):
        clf.repeated_predictions(X, y, [[2.0]], 3, np.random.default_rng(0))
    with pytest.raises((ValueError, TypeError), match="repetitions"):
        clf.repeated_predictions(X, y, probe, 0, np.random.default_rng(0))


def test_learner_zoo_true_epsilons() -> None:
    zoo = learner_zoo(n_pcl=200)
    assert {e.correct for e in zoo.values()} == {True, False}
    q = math.exp(-0.5)
    # PCL: P(Z ≥ 0)/P(Z ≥ 2) with P(Z ≥ k) = q^k/(1 + q), P(Z ≥ 0) = 1/(1 + q)
    assert zoo["pcl"].true_epsilon == pytest.approx(math.log((1 / (1 + q)) / (q**2 / (1 + q))))
    assert zoo["pcl-idealised"].true_epsilon == pytest.approx(math.log(2 * math.sqrt(math.e) - 1))
    assert data_range_epsilon() == pytest.approx(11 + math.log(1 + q), abs=1e-3)
    # the data-range bug: the probe's cube margin is +20 under D and −21 under D'
    clf = zoo["pcl-data-range"].mechanism.factory(0)
    D, D2 = zoo["pcl-data-range"].pair
    for data, margin in ((D, 20), (D2, -21)):
        fitted = clf.fit(*data)
        scaled = np.minimum(np.array([[0.66]]) / fitted_scale(clf), 1.0)
        cube = int(scaled[0, 0] * 10) if scaled[0, 0] < 1 else 9
        where = np.searchsorted(fitted.cells_, cube)
        assert fitted.cells_[where] == cube
        X, y = data
        inside = np.minimum((np.minimum(X[:, 0] / fitted_scale(clf), 1.0) * 10).astype(int), 9)
        assert int((2 * y[inside == cube] - 1).sum()) == margin


def fitted_scale(model: Any) -> float:
    return float(model.scale_[0])


def test_half_noise_learner_is_flagged_and_pcl_is_not() -> None:
    zoo = learner_zoo(n_pcl=500)
    good = audit(zoo["pcl"].mechanism, zoo["pcl"].pair, 1.0, samples=50_000, seed=1)
    bad = audit(
        zoo["pcl-half-noise"].mechanism, zoo["pcl-half-noise"].pair, 1.0, samples=50_000, seed=1
    )
    assert not good.violation and good.epsilon_lower > 0.9
    assert bad.violation and bad.epsilon_lower > 1.8


def test_cli_audits_learners(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", "list"]) == 0
    listed = capsys.readouterr().out
    assert "learner:pcl " in listed and "learner:a2-as-private" in listed
    out = tmp_path / "l.json"
    code = main(
        [
            "audit",
            "learner:pcl-half-noise",
            "--samples",
            "50000",
            "--no-progress",
            "--json",
            str(out),
        ]
    )
    assert code == 1 and json.loads(out.read_text())["violation"]
    assert main(["audit", "learner:pcl", "--samples", "50000", "--no-progress"]) == 0
    module = tmp_path / "mylearner.py"
    module.write_text(
        "from dpspec.learners import PrivateHistogramClassifier\n"
        "def make(seed):\n"
        "    return PrivateHistogramClassifier(1.0, cells_per_axis=2, random_state=seed)\n"
    )
    pair = json.dumps([[[[0.1], [0.9]], [0, 1]], [[[0.1], [0.9]], [0, 0]]])
    code = main(
        [
            "audit",
            f"learner:{module}:make",
            "--epsilon",
            "1",
            "--pair",
            pair,
            "--probe",
            "[[0.9]]",
            "--samples",
            "20000",
            "--no-progress",
        ]
    )
    assert code == 0
    code = main(
        [
            "audit",
            f"learner:{module}:make",
            "--epsilon",
            "0.3",
            "--pair",
            pair,
            "--probe",
            "[[0.9]]",
            "--samples",
            "20000",
            "--no-progress",
        ]
    )
    assert code == 1
    capsys.readouterr()
    assert main(["audit", "learner:nope"]) == 2
    assert main(["audit", f"learner:{module}:make", "--epsilon", "1"]) == 2
    assert (
        main(
            [
                "audit",
                f"learner:{module}:make",
                "--epsilon",
                "1",
                "--pair",
                pair,
                "--probe",
                "[[0.9",
            ]
        )
        == 2
    )
    err = capsys.readouterr().err
    assert "pair" in err and "probe" in err


def test_one_run_bound_inverts_the_binomial_tail() -> None:
    """ε_LB is the ε at which P[Bin(r, e^ε/(1+e^ε)) ≥ W] = α: rejected just below, not above."""
    for w, r in ((600, 1000), (70, 100), (9, 10)):
        eps = one_run_epsilon_lower(w, r, 0.95)
        q = lambda e: 1 / (1 + math.exp(-e))  # noqa: E731
        assert stats.binom.sf(w - 1, r, q(eps)) == pytest.approx(0.05, rel=1e-6)
        assert one_run_pvalue(r, r, w, eps - 1e-3) < 0.05 < one_run_pvalue(r, r, w, eps + 1e-3)
    assert one_run_epsilon_lower(0, 10) == -math.inf
    assert one_run_epsilon_lower(600, 1000, 0.95, 1e-5, 1000) < one_run_epsilon_lower(600, 1000)
    assert one_run_epsilon_lower(600, 1000, 0.95, 1e-12, 1000) == pytest.approx(
        one_run_epsilon_lower(600, 1000), abs=1e-4
    )


def test_one_run_arguments() -> None:
    def fine(included: Any, rng: Any) -> Any:
        return np.zeros(included.size)

    with pytest.raises(TypeError, match="train_and_score"):
        one_run_audit(3, 10, 1.0)  # type: ignore[arg-type]
    with pytest.raises((ValueError, TypeError), match="canaries"):
        one_run_audit(fine, 0, 1.0)
    with pytest.raises(ValueError, match="epsilon"):
        one_run_audit(fine, 10, float("nan"))
    with pytest.raises(ValueError, match="guesses"):
        one_run_audit(fine, 10, 1.0, guesses=(8, 8))
    with pytest.raises(ValueError, match="train_and_score"):
        one_run_audit(lambda s, g: np.zeros(3), 10, 1.0)
    with pytest.raises(ValueError, match="correct"):
        one_run_epsilon_lower(11, 10)
    with pytest.raises(ValueError, match="canaries"):
        one_run_epsilon_lower(6, 10, 0.95, 1e-5, 5)


def test_one_run_scores_are_read_from_the_model() -> None:
    """A learner that ignores its data guesses at chance (no false alarm at ε = 0.01 beyond
    the level); a leaky one (the canary's cell copies the inclusion bit) is flagged."""
    rng = np.random.default_rng(5)
    Xb, yb = rng.random((50, 2)) * [0.5, 1], rng.integers(0, 2, 50)
    cells = rng.choice(50 * 100, 500, replace=False)
    Xc = np.stack([(50 + cells // 100 + 0.5) / 100, (cells % 100 + 0.5) / 100], 1)
    yc = np.ones(500, int)

    class Leaky:
        def __init__(self, seed: int) -> None:
            self.seen: Any = None

        def fit(self, X: Any, y: Any) -> Any:
            self.seen = {tuple(x) for x in np.asarray(X).tolist()}
            return self

        def predict(self, X: Any) -> Any:
            return np.array([1 if tuple(x) in self.seen else 0 for x in np.asarray(X).tolist()])

    leaky = learner_one_run(Leaky, (Xb, yb), (Xc, yc), 1.0, seed=2)
    # wrong only where k_in = 250 differs from the number included (~√m)
    assert leaky.violation and leaky.correct >= 470
    half = learner_one_run(
        lambda s: HalvedNoiseHistogramClassifier(1.0, cells_per_axis=100, random_state=s),
        (Xb, yb),
        (Xc, yc),
        0.1,
        seed=2,
    )
    assert half.violation
    fine = learner_one_run(
        lambda s: PrivateHistogramClassifier(1.0, cells_per_axis=100, random_state=s),
        (Xb, yb),
        (Xc, yc),
        0.5,
        seed=2,
    )
    assert not fine.violation and fine.to_json()["guesses"] == 500


def test_canary_pairs() -> None:
    from hypothesis import given, settings

    from dpspec.audit._learner_search import canary_pair_strategy, canary_pairs, isolated_records

    X = np.array([[0.1, 0.1], [0.12, 0.1], [0.9, 0.9], [0.5, 0.5]])
    y = np.array([0, 1, 1, 0])
    assert isolated_records(X, 1).tolist() == [2]  # (0.9, 0.9) is farthest from the others
    pairs = canary_pairs(X, y, grid=4)
    for (X1, y1, p1), (X2, y2, p2) in pairs:
        assert np.array_equal(p1, p2)
        if len(X1) == len(X2):  # substitution: exactly one record differs
            assert int(np.sum(np.any(X1 != X2, axis=1) | (y1 != y2))) == 1
        else:
            assert abs(len(X1) - len(X2)) == 1
    assert len(canary_pairs(X, y, relation="add-remove")) == 3 + 4 * 2
    with pytest.raises(ValueError, match="relation"):
        canary_pairs(X, y, relation="swap")
    with pytest.raises(ValueError, match="X"):
        canary_pairs(X * 2, y)

    @settings(max_examples=20, deadline=None)
    @given(canary_pair_strategy(X, y))
    def one(pair: Any) -> None:
        (X1, y1, _), (X2, y2, _) = pair
        assert int(np.sum(np.any(X1 != X2, axis=1) | (y1 != y2))) <= 1

    one()


# --- the reported reproducers: named errors before any fit, never exit 3 for a usage error --------


def _learner_file(tmp_path: Path) -> Path:
    module = tmp_path / "mylearner.py"
    module.write_text(
        "from dpspec.learners import PrivateHistogramClassifier\n"
        "def make(seed):\n"
        "    return PrivateHistogramClassifier(1.0, cells_per_axis=2, random_state=seed)\n"
    )
    return module


@pytest.mark.parametrize(
    ("extra", "named"),
    [
        ([], "probe"),  # before: exit 3, "the target raised"
        (["--probe", "[[0.9]]", "--pair", "[1,2]"], "pair"),
        (["--probe", "[[0.9, 0.1]]"], "probe"),  # wrong dimension
        (["--probe", "[[0.9]]", "--release", "decision_function"], "release"),
        (["--probe", '[["a"]]'], "probe"),  # before: "could not convert string to float"
        (["--probe", "[[0.9]]", "--pair", "[[[1,2],[3]],[[1],[2]]]"], "pair"),
    ],
)
def test_cli_learner_usage_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], named: str
) -> None:
    pair = json.dumps([[[[0.1], [0.9]], [0, 1]], [[[0.1], [0.9]], [0, 0]]])
    argv = ["audit", f"learner:{_learner_file(tmp_path)}:make", "--epsilon", "1"]
    argv += ["--pair", pair, "--samples", "2000", "--no-progress", *extra]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and f": {named}:" in err, err


def test_cli_class_target_is_built_at_the_claim(capsys: pytest.CaptureFixture[str]) -> None:
    """Before: a class target ignored --epsilon (built at its default ε = 1 and flagged
    against a claim of 0.1); now it is built at the claim."""
    pair = json.dumps([[[[0.1], [0.9]], [0, 1]], [[[0.1], [0.9]], [0, 0]]])
    target = "learner:dpspec.learners.pcl:PrivateHistogramClassifier"
    base = ["--pair", pair, "--probe", "[[0.9]]", "--samples", "20000", "--no-progress"]
    assert main(["audit", target, "--epsilon", "0.1", *base]) == 0
    assert main(["audit", "learner:numpy:ndarray", "--epsilon", "0.1", *base]) == 2
    assert "without an epsilon parameter" in capsys.readouterr().err


def test_one_run_refuses_complex_scores_and_bool_arguments() -> None:
    """Before: complex scores were cast with a ComplexWarning; epsilon=True and
    guesses=(True, True) were accepted."""

    def fine(included: Any, rng: Any) -> Any:
        return included.astype(float)

    with pytest.raises(ValueError, match="train_and_score"):
        one_run_audit(lambda s, g: s + 1j, 10, 1.0)
    with pytest.raises(TypeError, match="epsilon"):
        one_run_audit(fine, 10, True)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="guesses"):
        one_run_audit(fine, 10, 1.0, guesses=(True, True))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="correct"):
        one_run_epsilon_lower(True, 10)  # type: ignore[arg-type]
