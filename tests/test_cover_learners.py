"""Seed 004 (Chaudhuri–Hsu): behaviour of A1/A1r/A2, their covers and certificates, the spec's
predicates, and the regression tests of the reported reproducers. The registered checks themselves
run in ``tests/test_verifiers.py``; these tests compute their expectations independently."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dpspec
from dpspec.contract import PrivateEstimator
from dpspec.cover_learners import (
    Boxes,
    LabelPrivateCoverClassifier,
    PrivateCoverClassifier,
    a1_certificate,
    a1r_certificate,
    a2_certificate,
    empirical_threshold_cover,
    grid_size,
    interval_grid,
    kappa_hat,
    sample_threshold_family,
    threshold_grid,
)
from dpspec.proofs.engine.sweep import least_cpu_seconds
from dpspec.proofs.topics.cover_learners.common import arrays, learner_law
from dpspec.spec import cover_learners as sc
from dpspec.spec.privacy import max_likelihood_ratio


def _data(n: int, seed: int = 0, noise: float = 0.1) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = rng.random((n, 1))
    y = (X[:, 0] >= 0.37).astype(np.int64) ^ (rng.random(n) < noise)
    return X, y


def _dpspec(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dpspec.cli", *argv],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


# ---------------------------------------------------------------------------------------------
# Privacy, computed by hand


def test_a1_privacy_by_hand() -> None:
    """On a label pair at ε = 1/2 the release law's likelihood ratio is the exponential
    mechanism's, written out: candidates below the changed x gain e^{ε/2}, the others lose it,
    and the normaliser moves accordingly (thresholds of the grid J = 4: 1/8, 3/8, 5/8, 7/8)."""
    eps = 0.5
    learner = PrivateCoverClassifier(eps, 0.5)
    a, b = ((0.1, 0), (0.8, 1)), ((0.4, 0), (0.8, 1))
    law = learner_law(learner)
    pa, pb = law(a), law(b)
    grid = [0.125, 0.375, 0.625, 0.875]

    def by_hand(data: tuple[tuple[float, int], ...]) -> dict[tuple[float, float], float]:
        rate = float(dpspec.validation.rational_at_most(eps, "epsilon")) / 2
        mistakes = [sum((x >= w) != bool(y) for x, y in data) for w in grid]
        weights = [math.exp(-rate * k) for k in mistakes]
        return {(w, math.inf): v / sum(weights) for w, v in zip(grid, weights, strict=True)}

    for data, got in ((a, pa), (b, pb)):
        expect = by_hand(data)
        assert got.keys() == expect.keys()
        assert all(math.isclose(got[k], expect[k], rel_tol=1e-12) for k in got)
    ratio = max(max_likelihood_ratio(pa, pb), max_likelihood_ratio(pb, pa))
    assert 1 < ratio <= math.exp(eps) * (1 + 1e-12)


def test_fit_draws_from_release_law() -> None:
    """fit's choice is one of the candidates, deterministic under random_state, and its
    frequencies follow release_law on a 4-candidate grid (chi-square at 1e-6), on both paths."""
    X, y = _data(6, 1, 0.3)
    for idealised in (False, True):
        law = PrivateCoverClassifier(1.0, 0.5, idealised=idealised).release_law(X, y)
        assert len(law) == 4 and math.isclose(sum(law.values()), 1.0)
        picks = [
            PrivateCoverClassifier(1.0, 0.5, idealised=idealised, random_state=s).fit(X, y).choice_
            for s in range(2000)
        ]
        counts = np.bincount(picks, minlength=4)
        expected = 2000 * np.array([law[k] for k in range(4)])
        assert float(np.sum((counts - expected) ** 2 / expected)) < 30.0  # chi2(3): 1.4e-6
    one = PrivateCoverClassifier(random_state=7).fit(X, y)
    assert one.choice_ == PrivateCoverClassifier(random_state=7).fit(X, y).choice_


def test_a2_is_not_private_under_substitution() -> None:
    """Replacing one x moves A2's cover: the new x becomes a candidate the other dataset never
    releases (probability ratio ∞); a label change keeps the cover."""
    law = learner_law(LabelPrivateCoverClassifier(1.0, 0.1))
    a = law(((0.1, 0), (0.8, 1)))
    b = law(((0.45, 0), (0.8, 1)))
    assert set(a) != set(b) and max_likelihood_ratio(b, a) == math.inf
    c = law(((0.1, 1), (0.8, 1)))
    assert set(a) == set(c) and max_likelihood_ratio(a, c) <= math.e * (1 + 1e-12)


def test_privacy_report() -> None:
    X, y = _data(100)
    p = PrivateCoverClassifier(epsilon=0.7, random_state=0).fit(X, y).privacy_
    assert p.epsilon <= 0.7 and 0.7 - p.epsilon < 2**-32 and p.delta == 0 and p.exact_sampler
    q = LabelPrivateCoverClassifier(epsilon=0.7, idealised=True, random_state=0).fit(X, y)
    assert q.privacy_.relation.value == "label" and q.privacy_.epsilon == 0.7
    assert not q.privacy_.exact_sampler


def test_label_pairs_are_substitution_pairs() -> None:
    from dpspec.spec.neighbours import Relation, is_neighbour

    a, b = ((0.1, 0), (0.8, 1)), ((0.1, 1), (0.8, 1))
    assert is_neighbour(a, b, Relation.LABEL) and is_neighbour(a, b, Relation.SUBSTITUTE)
    assert not is_neighbour(a, ((0.45, 0), (0.8, 1)), Relation.LABEL)


# ---------------------------------------------------------------------------------------------
# Covers, smoothness, metric lemmas


def test_smoothness() -> None:
    d = {0: Fraction(1, 2), 1: Fraction(1, 2)}
    u = {0: Fraction(3, 4), 1: Fraction(1, 4)}
    assert sc.smoothness(d, u) == 2
    assert sc.is_smooth(d, u, 2) and not sc.is_smooth(d, u, Fraction(199, 100))
    assert sc.smoothness({0: Fraction(1)}, {1: Fraction(1)}) is None


def test_covers() -> None:
    g = [Fraction(v) for v in threshold_grid(4).lower.tolist()]
    assert g == [Fraction(1, 8), Fraction(3, 8), Fraction(5, 8), Fraction(7, 8)]
    assert interval_grid(4).size == 4 * 5 // 2 + 1
    with pytest.raises(ValueError, match="size"):
        threshold_grid(3)
    x = np.array([0.2, 0.2, 0.2, 0.5, 0.9])
    assert empirical_threshold_cover(x, 0.0).lower.tolist() == [0.2, 0.5, 0.9, math.inf]
    assert sc.packing_size_bound(Fraction(1, 10), Fraction(1, 2), 1) == Fraction(4, 5)
    assert grid_size(1.0, 0.25, "threshold") == 8 and grid_size(1.0, 0.3, "threshold") == 8
    assert grid_size(3.0, 0.5, "interval") == 32  # 4·3/0.5 = 24 → 32


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(0, 1), min_size=1, max_size=40), st.sampled_from([0.05, 0.1, 0.5]))
def test_empirical_cover_radius(xs: list[float], eps: float) -> None:
    """Every dichotomy of thresholds on X is within ε/4 (ρ_X) of A2's cover."""
    x = np.array(xs)
    cover = empirical_threshold_cover(x, eps / 4)
    every = empirical_threshold_cover(x, 0.0)
    for i in range(every.size):
        best = min(np.mean(every.predict(i, x) != cover.predict(j, x)) for j in range(cover.size))
        assert best <= eps / 4 + 1e-12


def test_boxes_on_their_ends() -> None:
    """Both ends are closed, in predict and in the mistakes: a point on an end is inside."""
    boxes = Boxes(np.array([0.25, 0.5, np.inf]), np.array([np.inf, 0.75, -np.inf]))
    x = np.array([0.25, 0.5, 0.75, 0.2])
    assert boxes.predict(0, x).tolist() == [1, 1, 1, 0]
    assert boxes.predict(1, x).tolist() == [0, 1, 1, 0]
    assert boxes.predict(2, x).tolist() == [0, 0, 0, 0]
    y = np.array([1, 1, 0, 0])
    assert boxes.mistakes(x, y).tolist() == [1, 2, 2]
    with pytest.raises(ValueError, match="k"):
        boxes.predict(3, x)
    with pytest.raises(ValueError, match="upper"):
        Boxes(np.array([0.1, 0.2]), np.array([0.5]))
    with pytest.raises(ValueError, match="y"):
        boxes.mistakes(x, np.array([0, 1, 2, 0]))


def test_doubling_dimension() -> None:
    """On the line lattice {0, 1/4, …, 1} at r = 1/2: a ball of radius 1/2 holds ≤ 5 points,
    covered by 2 balls of radius 1/4 (centred at its 1/4-points), so N_r = 2 (ddim 1) and the
    largest (1/4)-packing of a ball has 2 members (strict)."""
    pts = [Fraction(k, 4) for k in range(5)]
    dist = lambda a, b: abs(a - b)  # noqa: E731
    assert sc.doubling_count(pts, dist, Fraction(1, 2)) == 2
    assert sc.max_packing_size(pts, dist, Fraction(1, 4)) == 3
    assert sc.lemma15_conclusion(pts, dist, Fraction(1, 2), 1)
    two = [Fraction(0), Fraction(1)]
    assert not sc.lemma15_conclusion(two, dist, Fraction(1, 4), 1)
    assert sc.thm12_condition(6, 8, 0.1, Fraction(1, 16))
    assert not sc.thm12_condition(7, 8, 0.1, Fraction(1, 16))


def test_sphere_band_masses() -> None:
    """(u·x)² ~ Beta(1/2, (n−1)/2): at n = 3 the band mass is γ (Archimedes), at n = 2 it is
    (2/π) arcsin γ."""
    from dpspec.proofs.topics.cover_learners.geometry import band_mass

    for g in (0.1, 0.5, 0.9):
        assert math.isclose(band_mass(3, g), g, rel_tol=1e-12)
        assert math.isclose(band_mass(2, g), 2 / math.pi * math.asin(g), rel_tol=1e-12)


# ---------------------------------------------------------------------------------------------
# Lower bounds and certificates


def test_packing_inequality() -> None:
    assert sc.satisfies_packing_inequality([Fraction(1, 2), Fraction(1, 2)], 3)
    assert not sc.satisfies_packing_inequality([1, 1, 1], 2)


def test_lower_bound_family() -> None:
    eta, zs = sc.threshold_family(Fraction(1, 2), 4)
    assert len(zs) == math.floor(1 / eta) - 1 and 1 / eta > 6 + 4 * math.exp(2)
    assert sc.family_size(0.5, 4) == len(zs)
    z = zs[3]
    assert sc.threshold_family_error(z, z, eta) == 0
    assert sc.threshold_family_error(z + eta, z, eta) == eta / 2 + Fraction(1, 4)
    X, y = sample_threshold_family(float(z), float(eta), 1000, np.random.default_rng(0))
    assert np.array_equal(y, (X[:, 0] >= float(z)).astype(np.int64))
    near = np.abs(X[:, 0] - float(z)) <= float(eta) / 3
    assert 0.45 < near.mean() < 0.56  # half the mass on G_z (+ the uniform part's share)


def test_certificates_by_hand() -> None:
    """The certificates at one point, computed here from the formulas of the proofs."""
    assert math.isclose(
        a1_certificate(16, 1000, 1.0, 0.2),
        32 * math.exp(-1000 * 0.04 / 8) + 16 * math.exp(-1000 * 0.2 / 8),
    )
    assert math.isclose(
        a1r_certificate(16, 1000, 1.0, 0.2, 0.05),
        16 * math.exp(-1000 * 0.2 / 400) + 0.0125 + 16 * math.exp(-3 * 1000 * 0.2 / 40),
    )
    # below m = (3/ε) ln(4/δ) the δ/4 of Eq. (9) is not available: the term is 1
    assert a1r_certificate(16, 10, 1.0, 0.2, 0.05) > 1
    assert math.isclose(
        a2_certificate(21, 4000, 1.0, 0.2),
        4 * math.exp(-4000 * 0.04 / 32) + 21 * math.exp(-4000 * 0.2 / 8),
    )
    X, y = _data(2000, 5)
    fitted = PrivateCoverClassifier(1.0, 0.2, random_state=0).fit(X, y)
    assert math.isclose(
        fitted.certificate_, a1_certificate(fitted.candidates_.size, 2000, 1.0, 0.2)
    )


def test_lemma11() -> None:
    assert sc.lemma11_condition(12, 66, 0.3, Fraction(1, 12))
    assert not sc.lemma11_condition(18, 66, 0.3, Fraction(1, 12))
    assert sc.lemma11_conclusion([0.9] * 4) and not sc.lemma11_conclusion([0.1] * 4)
    assert sc.lemma11_conclusion([0.1] * 4, printed=True)


def test_errata() -> None:
    """The counterexamples of ``errata.py``, recomputed."""
    assert math.exp(0) > 0.5  # Lemma 18.1 printed: a = (0, 0), t = 0
    eta, zs = sc.threshold_family(Fraction(1, 2), 4)
    assert len(zs) - 1 < 1 / eta - 2 and len(zs) - 1 >= 1 / eta - 3  # L226
    miss = 1 - (1 - Fraction(1, 10**4)) ** 100  # L557
    assert miss > Fraction(1, 4000)


# ---------------------------------------------------------------------------------------------
# The contract: the reported reproducers


def test_the_learners_keep_the_contract() -> None:
    assert isinstance(PrivateCoverClassifier(), PrivateEstimator)
    assert isinstance(LabelPrivateCoverClassifier(), PrivateEstimator)
    assert dpspec.PrivateCoverClassifier is PrivateCoverClassifier
    assert dpspec.LabelPrivateCoverClassifier is LabelPrivateCoverClassifier
    params = list(PrivateCoverClassifier().get_params())
    assert params[0] == "epsilon" and params.index("idealised") < params.index("random_state")
    with pytest.raises(TypeError, match="idealised"):
        PrivateCoverClassifier(idealised="no").fit(*_data(20))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: kappa_hat(10, float("nan"), 0.1, 0.05, 1), "epsilon"),
        (lambda: kappa_hat(10, 1.0, 0.1, 0.05, 0), "dimension"),
        (lambda: kappa_hat(10**400, 1.0, 0.1, 0.05, 1), "m"),
        (lambda: grid_size(1.0, 0.1, "bogus"), "hypothesis_class"),
        (lambda: grid_size(1e300, 1e-300, "threshold"), "kappa"),
        (lambda: grid_size(1.0, 1e-300, "threshold"), "accuracy"),
        (lambda: empirical_threshold_cover(np.array([np.nan, 0.2]), 0.1), "x"),
        (lambda: threshold_grid(2**40), "size"),
        (lambda: sample_threshold_family(0.5, 0.05, 10**9, np.random.default_rng(0)), "size"),
        (lambda: PrivateCoverClassifier(accuracy=1e-300).fit(*_data(20)), "accuracy"),
        (lambda: PrivateCoverClassifier(accuracy=1e-9).fit(*_data(20)), "accuracy"),
    ],
)
def test_issue20_reproducers_are_refused(call, match) -> None:  # type: ignore[no-untyped-def]
    """Each is refused with a ValueError / TypeError naming the parameter, before any work."""

    def refusal() -> None:
        with pytest.raises((ValueError, TypeError), match=match):
            call()

    assert least_cpu_seconds(refusal, 5) < 5  # no 16 GiB grid, no hang (a bound, not a timing)


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (("cover-curve", "a1", "--epsilon", "1e-300"), "--epsilon"),
        (("cover-curve", "a1", "--accuracy", "1e-300"), "--accuracy"),
        (("cover-curve", "a1", "--accuracy", "1e-9"), "--accuracy"),
        (("cover-curve", "a1", "--seed", "-1"), "--seed"),
        (("cover-curve", "a1", "--plot", "x.txt"), "--plot"),
        (("cover-curve", "a1", "--n", "1e7", "--reps", "1e4"), "--reps"),
        (("threshold-lower-bound", "--alpha", "1e-300"), "--epsilon"),
        (("threshold-lower-bound", "--alpha", "5", "--M", "40"), "--M"),
        (("threshold-lower-bound", "--accuracy", "1e-9"), "--accuracy"),
        (("threshold-lower-bound", "--seed", "-1"), "--seed"),
        (("threshold-lower-bound", "--m", "9"), "--m"),
    ],
)
def test_issue20_command_lines_are_usage_errors(argv: tuple[str, ...], needle: str) -> None:
    done = _dpspec(*argv)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0] and "Traceback" not in done.stderr


def test_plot_refused_before_work(tmp_path: Path) -> None:
    """An unsupported --plot extension is refused before the curve is computed: a run that
    would take minutes answers at once (its stdout is empty)."""
    done = _dpspec("cover-curve", "a1", "--n", "1000000", "--reps", "40", "--plot", "x.txt")
    assert done.returncode == 2 and done.stdout == ""


def test_commands(tmp_path: Path) -> None:
    out = tmp_path / "curve.json"
    run = _dpspec("cover-curve", "a1", "--n", "200,800", "--reps", "3", "--json", str(out))
    assert run.returncode == 0, run.stderr
    rows = json.loads(out.read_text())["rows"]
    assert [r["n"] for r in rows] == [200, 800] and rows[1]["failure"] <= rows[1]["certificate"]
    lower = _dpspec("threshold-lower-bound", "--epsilon", "0.5")
    assert lower.returncode == 0 and "packing inequality holds: True" in lower.stdout
    alias = _dpspec("threshold-lower-bound", "--alpha", "0.5")
    assert alias.returncode == 0 and alias.stdout == lower.stdout and "deprecated" in alias.stderr


# ---------------------------------------------------------------------------------------------
# Behaviour


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
        ({"random_state": -1}, "random_state"),
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

    clf = PrivateCoverClassifier(0.5, hypothesis_class="interval", random_state=3)
    assert clone(clf).get_params() == clf.get_params()
    X, y = _data(500)
    labels = np.where(y == 1, "pos", "neg")
    fitted = clf.fit(X, labels)
    assert set(fitted.predict(X)) <= {"pos", "neg"}
    assert LabelPrivateCoverClassifier().get_params()["accuracy"] == 0.1


def test_large_fit_is_vectorised() -> None:
    """n = 10^5 thresholds: one fit (O(n log n + |G| log n)) lands near the target."""
    X, y = _data(100_000, 5)
    clf = PrivateCoverClassifier(random_state=0).fit(X, y)
    assert abs(clf.lower_ - 0.37) < 0.05
    assert (
        PrivateCoverClassifier(1.0, 0.2, hypothesis_class="interval", random_state=0)
        .fit(*_data(20_000, 3))
        .score(*_data(20_000, 3))
        > 0.8
    )


def test_arrays_of_records() -> None:
    X, y = arrays(((0.1, 0), (0.5, 1)))
    assert X.shape == (2, 1) and y.tolist() == [0, 1]


def test_certificate_is_a_probability_bound() -> None:
    """At m = 10 the formula exceeds 1 (a vacuous bound): ``certificate_`` reports 1.0, never a
    "probability" above 1; at m = 2000 it is the formula's value."""
    X, y = _data(10, 5)
    fitted = PrivateCoverClassifier(1.0, 0.2, random_state=0).fit(X, y)
    assert a1_certificate(fitted.candidates_.size, 10, 1.0, 0.2) > 1
    assert fitted.certificate_ == 1.0
