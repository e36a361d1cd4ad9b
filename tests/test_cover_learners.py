"""Seed 004 (Chaudhuri–Hsu): A1/A1r/A2, covers, smoothness, the threshold lower bound, errata."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpspec.cover_learners import (
    LabelPrivateCoverClassifier,
    PrivateCoverClassifier,
    empirical_threshold_cover,
    interval_grid,
    kappa_hat,
    sample_threshold_family,
    threshold_grid,
)
from dpspec.proofs.engine.registry import VerifyConfig
from dpspec.proofs.topics.cover_learners import checks
from dpspec.spec import cover_learners as sc
from dpspec.spec.neighbours import Relation
from dpspec.spec.privacy import max_likelihood_ratio

CONFIG = VerifyConfig()


def _data(n: int, seed: int = 0, noise: float = 0.1) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = rng.random((n, 1))
    y = (X[:, 0] >= 0.37).astype(np.int64) ^ (rng.random(n) < noise)
    return X, y


def test_a1_privacy_exact() -> None:
    """The exact check over substitution pairs, independently: the worst likelihood ratio of
    the release law between two neighbours is ≤ e^α and grows with α."""
    law = checks.learner_law(PrivateCoverClassifier("threshold", 0.5, 0.1))
    a = ((0.1, 0), (0.8, 1))
    b = ((0.1, 0), (0.8, 0))
    ratio = max(max_likelihood_ratio(law(a), law(b)), max_likelihood_ratio(law(b), law(a)))
    assert 1 < ratio <= math.exp(0.5) * (1 + 1e-12)
    assert checks.a1_privacy(CONFIG).passed
    assert checks.a1r_privacy(CONFIG).passed


def test_fit_draws_from_release_law() -> None:
    """fit's choice is one of the candidates, deterministic under random_state, and its
    frequencies follow release_law on a 4-candidate grid (chi-square at 1e-6)."""
    X, y = _data(6, 1, 0.3)
    law = PrivateCoverClassifier("threshold", 1.0, 0.5).release_law(X, y)
    assert len(law) == 4 and math.isclose(sum(law.values()), 1.0)
    picks = [
        PrivateCoverClassifier("threshold", 1.0, 0.5, random_state=s).fit(X, y).choice_
        for s in range(2000)
    ]
    counts = np.bincount(picks, minlength=4)
    expected = 2000 * np.array([law[k] for k in range(4)])
    stat = float(np.sum((counts - expected) ** 2 / expected))
    assert stat < 30.0  # chi2(3) exceeds 30 with probability 1.4e-6
    one = PrivateCoverClassifier(random_state=7).fit(X, y)
    two = PrivateCoverClassifier(random_state=7).fit(X, y)
    assert one.choice_ == two.choice_


def test_a2_label_privacy_exact() -> None:
    assert checks.a2_label_privacy(CONFIG).passed
    report = checks.verify_learner(
        LabelPrivateCoverClassifier(0.3, 0.1), Relation.LABEL, 3, "A2 at α = 0.3"
    )
    assert report.holds and report.worst_ratio <= math.exp(0.3) * (1 + 1e-9)


def test_a2_is_not_private_under_substitution() -> None:
    """Replacing one x moves A2's cover: the new x becomes a candidate the other dataset never
    releases (probability ratio ∞)."""
    law = checks.learner_law(LabelPrivateCoverClassifier(1.0, 0.1))
    a = law(((0.1, 0), (0.8, 1)))
    b = law(((0.45, 0), (0.8, 1)))
    assert set(a) != set(b)
    assert max_likelihood_ratio(b, a) == math.inf
    assert checks.a2_not_private(CONFIG).passed


def test_privacy_report() -> None:
    X, y = _data(100)
    p = PrivateCoverClassifier(epsilon=0.7, random_state=0).fit(X, y).privacy_
    assert p.epsilon == pytest.approx(0.7) and p.delta == 0 and p.relation is Relation.SUBSTITUTE
    q = LabelPrivateCoverClassifier(epsilon=0.7, random_state=0).fit(X, y).privacy_
    assert q.relation is Relation.LABEL
    assert checks.privacy_report(CONFIG).passed


def test_label_pairs_are_substitution_pairs() -> None:
    assert checks.label_privacy_implied(CONFIG).passed


def test_smoothness() -> None:
    d = {0: Fraction(1, 2), 1: Fraction(1, 2)}
    u = {0: Fraction(3, 4), 1: Fraction(1, 4)}
    assert sc.smoothness(d, u) == 2
    assert sc.is_smooth(d, u, 2) and not sc.is_smooth(d, u, Fraction(199, 100))
    assert sc.smoothness({0: Fraction(1)}, {1: Fraction(1)}) is None
    assert checks.smoothness_lemma19(CONFIG).passed


def test_covers() -> None:
    g = [Fraction(v) for v in threshold_grid(4).lower.tolist()]
    assert g == [Fraction(1, 8), Fraction(3, 8), Fraction(5, 8), Fraction(7, 8)]
    assert interval_grid(4).size == 4 * 5 // 2 + 1
    with pytest.raises(ValueError, match="size"):
        threshold_grid(3)
    x = np.array([0.2, 0.2, 0.2, 0.5, 0.9])
    cover = empirical_threshold_cover(x, 0.0)
    assert cover.lower.tolist() == [0.2, 0.5, 0.9, math.inf]
    assert checks.cover_grids(CONFIG).passed
    assert checks.lemma14_erratum(CONFIG).passed


def test_group_privacy() -> None:
    assert checks.group_privacy(CONFIG).passed


def test_packing_inequality() -> None:
    assert sc.satisfies_packing_inequality([Fraction(1, 2), Fraction(1, 2)], 3)
    assert not sc.satisfies_packing_inequality([1, 1, 1], 2)
    assert checks.packing_inequality(CONFIG).passed


def test_lower_bound_failure() -> None:
    eta, zs = sc.threshold_family(Fraction(1, 2), 4)
    assert len(zs) == math.floor(1 / eta) - 1 and 1 / eta > 6 + 4 * math.exp(2)
    z = zs[3]
    assert sc.threshold_family_error(z, z, eta) == 0
    assert sc.threshold_family_error(z + eta, z, eta) == eta / 2 + Fraction(1, 4)
    X, y = sample_threshold_family(float(z), float(eta), 1000, np.random.default_rng(0))
    assert np.array_equal(y, (X[:, 0] >= float(z)).astype(np.int64))
    near = np.abs(X[:, 0] - float(z)) <= float(eta) / 3
    assert 0.45 < near.mean() < 0.56  # half the mass on G_z (+ the uniform part's share)
    assert checks.lower_bound_failure(CONFIG).passed


def test_utility_against_certificate() -> None:
    for check in (checks.a1_utility, checks.a1r_utility, checks.a2_utility):
        assert check(CONFIG).passed
    X, y = _data(20_000, 3)
    clf = PrivateCoverClassifier("interval", 1.0, 0.2, random_state=0).fit(X, y)
    assert clf.score(X, y) > 0.8


def test_lemma11() -> None:
    assert sc.lemma11_condition(12, 66, 0.3, Fraction(1, 12))
    assert not sc.lemma11_condition(18, 66, 0.3, Fraction(1, 12))
    assert checks.lemma11(CONFIG).passed and checks.lemma11_printed(CONFIG).passed


def test_errata() -> None:
    for check in (checks.thm9_exponent, checks.lemma18_part1, checks.thm5_counting):
        assert check(CONFIG).passed


def test_kappa_hat_solves_the_sample_size_equation() -> None:
    """κ̂ from Fig. 1 step 1 satisfies m = C(1/(αε) + 1/ε²)(log(κ̂/ε) + log(1/δ)) when inside
    [1, κ_max], and is clipped outside."""
    m, a, e, d = 20_000, 1.0, 0.2, 0.05
    k = kappa_hat(m, a, e, d, 1, kappa_max=1e9)
    assert m == pytest.approx(56 * (1 / (a * e) + 1 / e**2) * (math.log(k / e) + math.log(1 / d)))
    assert kappa_hat(10, a, e, d, 1) == 1.0
    assert kappa_hat(10**9, a, e, d, 1, kappa_max=64) == 64


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"epsilon": 0}, "epsilon"),
        ({"epsilon": float("nan")}, "epsilon"),
        ({"accuracy": 1.5}, "accuracy"),
        ({"confidence": 0}, "confidence"),
        ({"hypothesis_class": "ball"}, "hypothesis_class"),
        ({"kappa_max": -1}, "kappa_max"),
        ({"realizable": "yes"}, "realizable"),
    ],
)
def test_bad_parameters_are_named(kwargs: dict[str, object], match: str) -> None:
    X, y = _data(20)
    with pytest.raises((ValueError, TypeError), match=match):
        PrivateCoverClassifier(**kwargs).fit(X, y)  # type: ignore[arg-type]


def test_bad_data_is_named() -> None:
    X, y = _data(20)
    with pytest.raises(ValueError, match="X"):
        PrivateCoverClassifier().fit(X * 3, y)
    with pytest.raises(ValueError, match="X"):
        PrivateCoverClassifier().fit(np.hstack([X, X]), y)
    with pytest.raises(ValueError, match="y"):
        LabelPrivateCoverClassifier().fit(X, y[:5])
    with pytest.raises(ValueError, match="not fitted"):
        PrivateCoverClassifier().predict(X)


def test_sklearn_conventions() -> None:
    from sklearn.base import clone

    clf = PrivateCoverClassifier("interval", epsilon=0.5, random_state=3)
    assert clone(clf).get_params() == clf.get_params()
    X, y = _data(500)
    labels = np.where(y == 1, "pos", "neg")
    fitted = clf.fit(X, labels)
    assert set(fitted.predict(X)) <= {"pos", "neg"}
    assert LabelPrivateCoverClassifier().get_params()["accuracy"] == 0.1


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.floats(0, 1), min_size=1, max_size=40),
    st.sampled_from([0.05, 0.1, 0.5]),
)
def test_empirical_cover_radius(xs: list[float], eps: float) -> None:
    """Every dichotomy of thresholds on X is within ε/4 (ρ_X) of A2's cover."""
    x = np.array(xs)
    cover = empirical_threshold_cover(x, eps / 4)
    every = empirical_threshold_cover(x, 0.0)
    for i in range(every.size):
        best = min(np.mean(every.predict(i, x) != cover.predict(j, x)) for j in range(cover.size))
        assert best <= eps / 4 + 1e-12


def test_large_fit_is_fast_enough() -> None:
    """n = 10^5 thresholds: one fit, vectorised (O(n log n + |G| log n))."""
    X, y = _data(100_000, 5)
    clf = PrivateCoverClassifier(random_state=0).fit(X, y)
    assert abs(clf.lower_ - 0.37) < 0.05


def test_commands(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import json
    import subprocess
    import sys

    out = tmp_path / "curve.json"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "dpspec.proofs.cli",
            "cover-curve",
            "a1",
            "--n",
            "200,800",
            "--reps",
            "3",
            "--json",
            str(out),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    rows = json.loads(out.read_text())["rows"]
    assert [r["n"] for r in rows] == [200, 800] and rows[1]["failure"] <= rows[1]["certificate"]
    lower = subprocess.run(
        [sys.executable, "-m", "dpspec.proofs.cli", "threshold-lower-bound"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert lower.returncode == 0 and "packing inequality holds: True" in lower.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "dpspec.proofs.cli", "threshold-lower-bound", "--m", "9"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2 and "--m" in bad.stderr and len(bad.stderr.strip().splitlines()) == 1
