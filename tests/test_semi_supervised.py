"""Private semi-supervised learner (seed 000 Sec 4.1, Thm 4.11): dichotomies, the exact
selection sampler, learning, the API and the contract's regressions. Label privacy,
accuracy and the score rule are registered obligations (``semi-supervised.*``)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpspec.learners.semi_supervised import (
    PrivateSemiSupervisedClassifier,
    dichotomies,
    exponential_choice,
)


def _data(n_unlabeled: int, m: int, d: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return (
        rng.standard_normal((m, d)),
        rng.standard_normal((n_unlabeled, d)),
        rng.standard_normal((20_000, d)),
    )


def test_dichotomies_are_exact() -> None:
    U = np.array([[0.2], [0.7], [0.7], [1.5]])
    D = dichotomies("threshold", U)
    assert D.size == 4  # t ∈ {0.2, 0.7, 1.5, +∞}: ties give one dichotomy
    assert dichotomies("interval", U).size == 3 * 4 // 2 + 1
    lower, upper = D.bounds()
    assert lower[:, 0].tolist() == [0.2, 0.7, 1.5, math.inf]
    assert np.all(upper[:3, 0] == math.inf)


def test_exponential_choice_law() -> None:
    rng = np.random.default_rng(3)
    picks = exponential_choice(np.array([0, -1, -2, -40], dtype=np.int64), 2.0, 20_000, rng)
    freq = np.bincount(picks, minlength=4) / picks.size
    w = np.exp(np.array([0.0, -1.0, -2.0, -40.0]))
    assert np.allclose(freq, w / w.sum(), atol=0.02)
    big = np.full(500_000, -60, dtype=np.int64)
    big[123] = 0  # concentrated weights over many candidates: batched, still fast
    assert exponential_choice(big, 1.0, 1, rng)[0] == 123
    with pytest.raises(ValueError, match="scores"):
        exponential_choice(np.array([0.5]), 1.0, 1, rng)


def test_learns_intervals_and_rectangles() -> None:
    X, U, T = _data(100_000, 500, 1, 1)
    inside = lambda Z: (np.abs(Z[:, 0]) <= 0.8).astype(int)  # noqa: E731
    clf = PrivateSemiSupervisedClassifier(
        hypothesis_class="interval", n_synthetic=400, random_state=0
    )
    assert clf.fit(X, inside(X), U).score(T, inside(T)) > 0.93
    X, U, T = _data(100_000, 600, 2, 2)
    box = lambda Z: np.all(np.abs(Z) <= 0.8, axis=1).astype(int)  # noqa: E731
    clf = PrivateSemiSupervisedClassifier(
        hypothesis_class="rectangle", n_synthetic=48, random_state=0
    )
    assert clf.fit(X, box(X), U).score(T, box(T)) > 0.9
    # a proper learner: the box's faces are synthetic coordinates
    assert set(clf.lower_.tolist()) | set(clf.upper_.tolist()) <= set(
        clf.synthetic_.ravel().tolist()
    )


def test_fixed_function_labels_and_privacy_levels() -> None:
    X, U, T = _data(50_000, 200, 1, 4)
    y = np.where(X[:, 0] >= 0.0, "yes", "no")
    clf = PrivateSemiSupervisedClassifier(epsilon=2.0, label_epsilon=0.5, random_state=1)
    clf.fit(X, y, U)
    assert set(clf.predict(T)) <= {"yes", "no"}
    assert np.array_equal(clf.predict(T), clf.predict(T))
    assert np.array_equal(clf.predict(T[::-1]), clf.predict(T)[::-1])
    assert clf.density_.privacy_.delta == 1e-6 and clf.density_.privacy_.epsilon <= 2.0
    assert clf.privacy_.delta == 1e-6 and clf.privacy_.epsilon == clf.density_.privacy_.epsilon
    assert clf.synthetic_.shape == (200, 1)


def test_determinism_and_params() -> None:
    X, U, _ = _data(50_000, 100, 1, 5)
    y = (X[:, 0] > 0.2).astype(int)
    clf = PrivateSemiSupervisedClassifier(
        hypothesis_class="interval", n_synthetic=50, random_state=7
    )
    params = clf.get_params()
    assert params["hypothesis_class"] == "interval" and params["n_synthetic"] == 50
    a = clf.fit(X, y, U)
    b = PrivateSemiSupervisedClassifier(**params).fit(X, y, U)
    assert a.choice_ == b.choice_ and np.array_equal(a.synthetic_, b.synthetic_)
    clf.set_params(label_epsilon=3.0)
    assert clf.get_params()["label_epsilon"] == 3.0


def test_keyword_order_puts_privacy_first() -> None:
    """The contract's order (the hypothesis class came first): epsilon, delta,
    label_epsilon positionally, the rest keyword-only; idealised before random_state."""
    import inspect

    params = list(inspect.signature(PrivateSemiSupervisedClassifier).parameters.values())
    assert [p.name for p in params[:3]] == ["epsilon", "delta", "label_epsilon"]
    assert all(p.kind is p.KEYWORD_ONLY for p in params[3:])
    names = [p.name for p in params]
    assert names.index("idealised") < names.index("random_state")
    with pytest.raises(ValueError, match="epsilon"):
        PrivateSemiSupervisedClassifier("threshold").fit(  # type: ignore[arg-type]
            np.zeros((2, 1)), [0, 1], np.zeros((5, 1))
        )


def test_bad_input_names_the_parameter() -> None:
    """What the body refuses beyond the declared domains (those are swept by the contract):
    labels and samples that do not match, the per-class synthetic cap, a missing or too small
    unlabeled sample, a label ε too small to round to a rational."""
    X, U, _ = _data(50_000, 50, 1, 6)
    y = (X[:, 0] > 0).astype(int)
    cases = [
        ({"label_epsilon": 1e-300}, X, y, U, "label_epsilon"),
        ({"hypothesis_class": "interval", "n_synthetic": 5000}, X, y, U, "n_synthetic"),
        ({}, X, y[:-1], U, "y"),
        ({}, X, y, U[:, [0, 0]], "X_unlabeled"),
        ({"hypothesis_class": "rectangle"}, X, y, U, "X_labeled"),
        ({}, X, y, None, "X_unlabeled"),
        ({}, X, y, U[:30], "released"),
    ]
    for kwargs, Xl, yl, Ul, name in cases:
        with pytest.raises(ValueError, match=name):
            PrivateSemiSupervisedClassifier(**kwargs, random_state=0).fit(Xl, yl, Ul)
    with pytest.raises(ValueError, match="not fitted"):
        PrivateSemiSupervisedClassifier().predict(X)
