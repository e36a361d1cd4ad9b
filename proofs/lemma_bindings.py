"""Differential checks binding each CrossHair lemma to the code that runs.

A lemma of :mod:`dpspec.proofs.lemmas` (and ``lemmas_*``) is a statement about a pure-Python
function on ints/Fractions. The implementation computes the same quantity vectorised with
numpy. Each check below runs the implementation's own code path (the method ``fit`` /
``release_counts`` / ``pmf`` / ``report_law`` calls) and requires *equality* with the lemma's
function, input by input, on the lemma's domain: first on an explicit list of boundary
inputs (thresholds hit exactly, empty cells, ties, zero weights), then on ``EXAMPLES``
Hypothesis inputs (derandomised: the same inputs on every machine). A mismatch fails the
check and names the input. Breaking the implementation's rule (e.g. ``>=`` → ``>`` in the
stability histogram's release) makes the corresponding check fail.

Where the implementation draws noise, the noise is injected: the mechanism's noise object (or
the generator's ``laplace``) is replaced, on that one instance, by an object returning chosen
values, so the release rule is compared on exactly the draws the lemma quantifies over.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray

from dpspec.proofs.registry import CheckOutcome, VerifyConfig

#: Hypothesis inputs per check (after the boundary list).
EXAMPLES = 2000
THOROUGH_EXAMPLES = 10000

Case = dict[str, Any]


class _Mismatch(AssertionError):
    pass


def _differential(
    config: VerifyConfig,
    boundaries: Iterable[Case],
    strategy: st.SearchStrategy[Case],
    compare: Callable[[Case], str | None],
) -> CheckOutcome:
    """Run ``compare`` on every boundary case, then on Hypothesis cases; ``compare`` returns
    None when the implementation equals the lemma's function, else a description."""
    n_boundary = 0
    for case in boundaries:
        n_boundary += 1
        problem = compare(case)
        if problem is not None:
            return CheckOutcome(False, f"boundary case {case}: {problem}", {"case": repr(case)})
    examples = THOROUGH_EXAMPLES if config.thorough else EXAMPLES
    ran = [0]

    @settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def prop(case: Case) -> None:
        ran[0] += 1
        problem = compare(case)
        if problem is not None:
            raise _Mismatch(f"{case}: {problem}")

    try:
        prop()
    except _Mismatch as exc:
        return CheckOutcome(False, str(exc), {"boundary": n_boundary, "examples": ran[0]})
    return CheckOutcome(
        True,
        f"implementation == lemma function on {n_boundary} boundary and {ran[0]} generated "
        "inputs",
        {"boundary": n_boundary, "examples": ran[0]},
    )


# --------------------------------------------------------------------------------------------
# Stability histogram release (seed 000 Alg 1, 000_dff3c4dc97cf0e21.txt:L132-L140)
# --------------------------------------------------------------------------------------------


class _FixedNoise:
    """Stands in for a mechanism's noise object: ``sample`` returns the chosen draws."""

    def __init__(self, values: Sequence[int]) -> None:
        self.values = np.asarray(values, dtype=np.int64)

    def sample(self, size: int, rng: Any) -> NDArray[np.int64]:
        if size != self.values.size:
            raise _Mismatch(f"the mechanism drew {size} noise values, expected {self.values.size}")
        return self.values.copy()


class _FixedLaplace:
    """Stands in for the generator of the idealised path: ``laplace`` returns chosen draws."""

    def __init__(self, values: Sequence[float]) -> None:
        self.values = np.asarray(values, dtype=np.float64)

    def laplace(self, loc: float, scale: float, size: int) -> NDArray[np.float64]:
        if size != self.values.size:
            raise _Mismatch(f"the mechanism drew {size} noise values, expected {self.values.size}")
        return self.values.copy()


def _stability_mechanisms() -> list[Any]:
    from dpspec.mechanisms.stability_histogram import StabilityHistogram

    return [
        StabilityHistogram(bins=None, base=Fraction(1, 2), delta=Fraction(1, 1000)),
        StabilityHistogram(bins=None, epsilon=1.0, delta=1e-6),
        StabilityHistogram(bins=None, epsilon=0.5, delta=1e-3, idealised=True),
    ]


def _compare_stability(mechs: list[Any]) -> Callable[[Case], str | None]:
    from dpspec.proofs.lemmas import stability_histogram_release, stability_release

    def compare(case: Case) -> str | None:
        mech = mechs[case["mech"]]
        tau = mech.threshold
        counts = list(case["counts"])
        # the draws are offsets from the threshold, so τ − count, τ − count − 1, ... are hit
        noise_all = [tau - c + off for c, off in zip(counts, case["offsets"], strict=True)]
        occupied = [k for k, c in enumerate(counts) if c > 0]
        draws = [noise_all[k] for k in occupied]
        if mech.idealised:
            out = mech.release_counts(np.asarray(counts, dtype=np.int64), _FixedLaplace(draws))
        else:
            saved = mech.noise
            mech.noise = _FixedNoise([int(z) for z in draws])
            try:
                out = mech.release_counts(np.asarray(counts, dtype=np.int64), None)
            finally:
                mech.noise = saved
        expected = [stability_release(c, z, tau) for c, z in zip(counts, noise_all, strict=True)]
        whole = stability_histogram_release(tuple(counts), tuple(noise_all), tau)
        if list(whole) != expected:
            return f"stability_histogram_release {whole} != cellwise {expected}"
        if [float(v) for v in out] != [float(v) for v in expected]:
            return f"release_counts gave {list(out)}, the lemma's rule {expected} (tau={tau})"
        return None

    return compare


def stability_release_binding(config: VerifyConfig) -> CheckOutcome:
    """``StabilityHistogram.release_counts`` (exact, float-ε and idealised paths) equals
    :func:`dpspec.proofs.lemmas.stability_release` cell by cell, the noise injected."""
    mechs = _stability_mechanisms()
    boundaries = [
        {"mech": m, "counts": counts, "offsets": offsets}
        for m in range(len(mechs))
        for counts, offsets in (
            ((1,), (0,)),  # count + noise == τ: released
            ((1,), (-1,)),  # one below τ: 0
            ((1,), (1,)),
            ((0,), (0,)),  # empty cell: never released, even when noise would reach τ
            ((0, 1, 2), (5, 0, -1)),
            ((3, 0, 7), (-1, 3, 0)),
            ((), ()),
        )
    ]
    pairs = st.lists(st.tuples(st.integers(0, 12), st.integers(-4, 4)), max_size=6)
    strategy = st.builds(
        lambda m, cz: {
            "mech": m,
            "counts": tuple(c for c, _ in cz),
            "offsets": tuple(z for _, z in cz),
        },
        st.integers(0, len(mechs) - 1),
        pairs,
    )
    return _differential(config, boundaries, strategy, _compare_stability(mechs))


# --------------------------------------------------------------------------------------------
# Counts, histograms and PCL's centred votes (000_dff3c4dc97cf0e21.txt:L117, L125-L147, L206)
# --------------------------------------------------------------------------------------------


def _equals(j: int) -> Callable[[int], bool]:
    return lambda r: r == j


def _compare_counts(case: Case) -> str | None:
    from dpspec.mechanisms.stability_histogram import _cell_counts
    from dpspec.spec.sensitivity import count, histogram

    data, bins = case["data"], case["bins"]
    if not data:
        return None
    ids, counts = _cell_counts(np.asarray(data, dtype=np.int64))
    dense = [0] * bins
    for i, c in zip(ids.tolist(), counts.tolist(), strict=True):
        dense[i] = c
    spec_hist = list(histogram(data, bins))
    if dense != spec_hist:
        return f"impl counts {dense} != spec histogram {spec_hist}"
    per_bin = [count(data, _equals(j)) for j in range(bins)]
    if per_bin != spec_hist:
        return f"spec count {per_bin} != spec histogram {spec_hist}"
    return None


def _compare_votes(case: Case) -> str | None:
    from dpspec.learners.pcl import PrivateHistogramClassifier, cube_index
    from dpspec.proofs.lemmas import pushforward
    from dpspec.spec.sensitivity import centred_votes

    m, cells_, labels = case["m"], case["cells"], case["labels"]
    # one point at the centre of each chosen cube of [0, 1] split into m cubes
    X = ((np.asarray(cells_, dtype=np.float64) + 0.5) / m).reshape(-1, 1)
    y = np.asarray(labels, dtype=np.int64)
    clf = PrivateHistogramClassifier(
        epsilon=1.0, cells_per_axis=m, random_state=case.get("seed", 0)
    )
    seen: list[tuple[NDArray[np.int64], NDArray[np.int64]]] = []
    original = clf._bits

    def spy(cells: NDArray[np.int64], margins: NDArray[np.int64]) -> NDArray[np.bool_]:
        seen.append((np.asarray(cells).copy(), np.asarray(margins).copy()))
        return original(cells, margins)

    clf._bits = spy  # type: ignore[method-assign]
    try:
        clf.fit(X, y)
    except ValueError as exc:
        return None if len(set(labels)) < 2 else f"fit raised {exc}"
    if not seen:
        return "fit never computed margins"
    votes = centred_votes(list(zip(cells_, labels, strict=True)), m)
    for cells, margins in seen:
        for c, mc in zip(cells.tolist(), margins.tolist(), strict=True):
            if Fraction(mc) != 2 * votes[c]:
                return f"cube {c}: fit's margin {mc} != 2 * centred vote {votes[c]}"
    # Post-processing: predict is a deterministic map g of the released grid of bits. Its law
    # is the lemma's pushforward of the grid's law (here the point mass of this run's grid).
    grid = tuple(int(b) for b in clf.grid_labels().reshape(-1))
    T = np.asarray(case["test"], dtype=np.float64).reshape(-1, 1)
    predicted = clf.predict(T)
    classes = [int(c) for c in clf.classes_]
    for k, cube in enumerate(cube_index(T, m).tolist()):

        def g(released: tuple[int, ...], c: int = cube) -> int:
            return classes[released[c]]

        law = pushforward({grid: Fraction(1)}, g)
        if law != {predicted[k].item(): Fraction(1)}:
            return f"predict({case['test'][k]}) = {predicted[k]}: not the bit of cube {cube}"
    return None


def _reduce_counts(c: dict[str, Any]) -> Case:
    return {**c, "data": tuple(r % c["bins"] for r in c["data"])}


def _reduce_votes(c: dict[str, Any]) -> Case:
    return {
        "kind": "votes",
        "m": c["m"],
        "cells": tuple(r[0] % c["m"] for r in c["records"]),
        "labels": tuple(r[1] for r in c["records"]),
        "test": c["test"],
        "seed": c["seed"],
    }


def counts_binding(config: VerifyConfig) -> CheckOutcome:
    """The implementation's counting (``np.unique`` counts of the stability histogram) equals
    :func:`dpspec.spec.sensitivity.histogram` / ``count``; the margins PCL's ``fit`` feeds its
    noise step equal 2 × :func:`dpspec.spec.sensitivity.centred_votes`; and PCL's ``predict``
    is a deterministic map of the released bits (the post-processing lemma's hypothesis): each
    prediction is the lemma's :func:`pushforward` of the released grid through "class of the
    bit of x's cube"."""
    boundaries: list[Case] = [
        {"kind": "counts", "data": (0,), "bins": 1},
        {"kind": "counts", "data": (3, 3, 3), "bins": 4},
        {"kind": "counts", "data": (0, 3), "bins": 4},
        {"kind": "votes", "m": 1, "cells": (0, 0), "labels": (0, 1), "test": (0.0, 1.0)},  # tie
        {"kind": "votes", "m": 2, "cells": (1, 1), "labels": (1, 0), "test": (0.5, 0.4999)},
        {"kind": "votes", "m": 40, "cells": (0, 39), "labels": (0, 1), "test": (0.0, 0.99)},
        {"kind": "votes", "m": 2, "cells": (0, 1, 1, 1), "labels": (1, 0, 0, 1), "test": (1.0,)},
    ]
    # flat strategies (cheap to generate); cells and bins are reduced modulo the drawn size
    counts = st.fixed_dictionaries(
        {
            "kind": st.just("counts"),
            "bins": st.integers(1, 5),
            "data": st.lists(st.integers(0, 59), min_size=1, max_size=12).map(tuple),
        }
    ).map(_reduce_counts)
    records = st.lists(st.tuples(st.integers(0, 59), st.integers(0, 1)), min_size=2, max_size=12)
    votes = st.fixed_dictionaries(
        {
            "kind": st.just("votes"),
            "m": st.sampled_from([1, 2, 3, 7, 60]),
            "records": records,
            "test": st.lists(st.floats(0.0, 1.0), min_size=1, max_size=4).map(tuple),
            "seed": st.integers(0, 2**16),
        }
    ).map(_reduce_votes)

    def compare(case: Case) -> str | None:
        return _compare_counts(case) if case["kind"] == "counts" else _compare_votes(case)

    return _differential(config, boundaries, st.one_of(counts, votes), compare)


# --------------------------------------------------------------------------------------------
# Discrete Laplace ratio (000_dff3c4dc97cf0e21.txt:L119-L121) and the Laplace loss
# --------------------------------------------------------------------------------------------


def _compare_discrete_laplace(case: Case) -> str | None:
    from dpspec.noise import DiscreteLaplaceNoise
    from dpspec.proofs import lemmas

    q, y, a, a2 = case["q"], case["y"], case["a"], case["a_prime"]
    noise = DiscreteLaplaceNoise(base=q)

    def ratio(yy: int, aa: int, bb: int) -> Fraction:
        return Fraction(noise.pmf(yy - aa)) / Fraction(noise.pmf(yy - bb))

    k = lemmas.discrete_laplace_ratio_bound(y, a, a2)
    if ratio(y, a, a2) != q ** (-k):
        return f"pmf ratio {ratio(y, a, a2)} != q^(-k) with the lemma's k = {k}"
    # The Laplace loss in units of 1/ln(1/q): p_a(y)/p_a'(y) = q^(-b·loss(y, a, a', b)).
    if ratio(y, a, a2) != q ** (-lemmas.laplace_loss_bound(y, a, a2, 1)):
        return "pmf ratio != q^(-laplace_loss_bound(y, a, a', 1))"
    # Half-integer centres y/2, a/2, a'/2 on the half-lattice: loss·2 is the lattice exponent.
    half = lemmas.laplace_loss_bound_half_integers(y, a, a2)
    if ratio(y, a, a2) != q ** (-int(2 * half)):
        return f"pmf ratio != q^(-2·half-integer loss {half})"
    half2 = lemmas.laplace_loss_bound_half_integers_scale2(a - y, a2 - y)
    if ratio(y, a, a2) != q ** (-int(4 * half2)):
        return f"pmf ratio != q^(-4·half-integer loss at scale 2 {half2})"
    # i.i.d. coordinates: the product of the pmf ratios is q^(-b·vector loss at scale b).
    ys, as_, a2s = (y, a - 1, a2), (a, a2, y), (a2, y + 1, a)
    product = Fraction(1)
    for yj, aj, a2j in zip(ys, as_, a2s, strict=True):
        product *= ratio(yj, aj, a2j)
    for b in (1, 2):
        vec = lemmas.laplace_loss_vector_bound(ys, as_, a2s, b)
        if product != q ** (-int(b * vec)):
            return f"product of pmf ratios != q^(-{b}·vector loss {vec})"
    return None


def discrete_laplace_binding(config: VerifyConfig) -> CheckOutcome:
    """The implementation's discrete Laplace pmf (:class:`dpspec.noise.DiscreteLaplaceNoise`,
    the noise of every exact mechanism) has ratio ``p_a(y)/p_{a'}(y) = q^{-k}`` with ``k`` the
    lemma function's value, exactly (rational base)."""
    bases = [Fraction(1, 2), Fraction(1, 3), Fraction(2, 3), Fraction(9, 10)]
    boundaries = [
        {"q": q, "y": y, "a": a, "a_prime": a2}
        for q in bases
        for y, a, a2 in ((0, 0, 0), (0, 0, 1), (1, 0, 1), (5, 0, 1), (-5, 0, 1), (0, 3, -3))
    ]
    ints = st.integers(-30, 30)
    strategy = st.fixed_dictionaries(
        {"q": st.sampled_from(bases), "y": ints, "a": ints, "a_prime": ints}
    )
    return _differential(config, boundaries, strategy, _compare_discrete_laplace)


# --------------------------------------------------------------------------------------------
# Exponential mechanism (002_9f3104e4a0d86722.txt:L655, corrected) and its score
# --------------------------------------------------------------------------------------------


def _compare_exponential(case: Case) -> str | None:
    from dpspec.mechanisms.exponential import ExponentialMechanism
    from dpspec.proofs.lemmas import em_log_weight_difference, em_normaliser_ratio

    scores = np.asarray(case["scores"], dtype=np.int64)
    delta, en, ed = case["delta"], case["eps_num"], case["eps_den"]
    mech = ExponentialMechanism(lambda d: d, delta, epsilon=Fraction(en, ed))
    a, d = mech._exponents(scores)
    top = int(scores.max())
    for i, s in enumerate(scores.tolist()):
        lemma = em_log_weight_difference(top, s, delta, en, ed)
        if Fraction(int(a[i]), d) != lemma:
            return f"candidate {i}: impl exponent {a[i]}/{d} != lemma {lemma}"
    base = case["base"]
    exact = ExponentialMechanism(lambda d: d, delta, base=base)
    pmf = exact.pmf(scores)
    gaps = [top - s for s in scores.tolist()]
    big = max(gaps)
    # integer weights over the common denominator q^big: w_i = p^g_i q^(big - g_i)
    weights = tuple(base.numerator**g * base.denominator ** (big - g) for g in gaps)
    z, _ = em_normaliser_ratio(weights, weights, 1, 1)
    for i, w in enumerate(weights):
        if Fraction(pmf[i]) != Fraction(w, z):
            return f"candidate {i}: impl pmf {pmf[i]} != w_i/Z = {w}/{z}"
    return None


def _compare_mistakes(case: Case) -> str | None:
    from dpspec.learners.semi_supervised import dichotomies
    from dpspec.spec.sensitivity import mistakes

    domain = np.arange(case["points"], dtype=np.float64)
    cands = dichotomies(case["kind"], domain.reshape(-1, 1))
    xs, ys = case["xs"], case["ys"]
    X = domain[list(xs)].reshape(-1, 1)
    got = cands.mistakes(X, np.asarray(ys, dtype=np.int64))
    records = list(zip(xs, ys, strict=True))
    for i in range(cands.size):
        candidate = tuple(int(v) for v in cands.predict(i, domain.reshape(-1, 1)))
        if int(got[i]) != mistakes(records, candidate):
            return f"candidate {i}: impl mistakes {got[i]} != spec {mistakes(records, candidate)}"
    return None


def _reduce_mistakes(c: dict[str, Any]) -> Case:
    return {
        "kind": "mistakes",
        "kind_h": c["kind_h"],
        "points": c["points"],
        "xs": tuple(x % c["points"] for x, _ in c["records"]),
        "ys": tuple(y for _, y in c["records"]),
    }


def exponential_binding(config: VerifyConfig) -> CheckOutcome:
    """The exponential mechanism's exponents ``a_i/d`` equal the lemma's log-weight difference
    ε(max s − s_i)/(2Δ), its exact pmf equals w_i/Z with Z the lemma's normaliser, and the
    semi-supervised learner's vectorised mistake counts equal :func:`mistakes` (the score the
    lemma bounds) for every dichotomy."""
    base = Fraction(1, 2)
    boundaries: list[Case] = [
        {"kind": "em", "scores": (0,), "delta": 1, "eps_num": 1, "eps_den": 1, "base": base},
        {"kind": "em", "scores": (0, 0), "delta": 1, "eps_num": 1, "eps_den": 2, "base": base},
        {"kind": "em", "scores": (0, -3), "delta": 3, "eps_num": 4, "eps_den": 1, "base": base},
        {"kind": "mistakes", "kind_h": "threshold", "points": 1, "xs": (0,), "ys": (1,)},
        {"kind": "mistakes", "kind_h": "interval", "points": 3, "xs": (0, 2), "ys": (1, 0)},
    ]
    em = st.builds(
        lambda s, dl, en, ed, b: {
            "kind": "em", "scores": tuple(s), "delta": dl, "eps_num": en, "eps_den": ed, "base": b
        },
        st.lists(st.integers(-8, 0), min_size=1, max_size=5),
        st.integers(1, 3),
        st.integers(1, 4),
        st.integers(1, 2),
        st.sampled_from([Fraction(1, 2), Fraction(2, 3), Fraction(1, 5)]),
    )
    mis = st.fixed_dictionaries(
        {
            "kind": st.just("mistakes"),
            "kind_h": st.sampled_from(["threshold", "interval"]),
            "points": st.integers(1, 4),
            "records": st.lists(
                st.tuples(st.integers(0, 11), st.integers(0, 1)), min_size=1, max_size=6
            ),
        }
    ).map(_reduce_mistakes)

    def compare(case: Case) -> str | None:
        if case["kind"] == "em":
            return _compare_exponential(case)
        return _compare_mistakes({**case, "kind": case["kind_h"]})

    return _differential(config, boundaries, st.one_of(em, mis), compare)


# --------------------------------------------------------------------------------------------
# Weighted quantiles (002_9f3104e4a0d86722.txt:L693-L703)
# --------------------------------------------------------------------------------------------


def _compare_quantiles(case: Case) -> str | None:
    from dpspec.compression.boosting import weighted_median, weighted_quantiles
    from dpspec.proofs.lemmas_compression import (
        _median3,
        quantile_lower_order,
        quantile_upper_order,
    )

    values, weights, g = case["values"], case["weights"], case["g_num"]
    a, b, c = sorted(values)
    order = sorted(range(3), key=lambda k: values[k])
    wa, wb, wc = (weights[k] for k in order)
    lo, med = quantile_lower_order(a, b, c, wa, wb, wc, g)
    med2, hi = quantile_upper_order(a, b, c, wa, wb, wc, g)
    col = np.asarray(values, dtype=np.float64).reshape(3, 1)
    w = np.asarray(weights, dtype=np.float64)
    q_lo, q_hi = weighted_quantiles(col, w, g / 8)
    impl_med = weighted_median(col, w)
    got = (float(q_lo[0]), float(impl_med[0]), float(q_hi[0]))
    if got != (lo, med, hi) or med != med2:
        return f"impl (Q-, Med, Q+) = {got}, lemma functions ({lo}, {med}, {hi})"
    # the unweighted median of the Lipschitz lemmas
    unweighted = float(weighted_median(col, np.ones(3))[0])
    if unweighted != _median3(*values):
        return f"impl unweighted median {unweighted} != lemma's _median3 {_median3(*values)}"
    return None


def quantiles_binding(config: VerifyConfig) -> CheckOutcome:
    """:func:`dpspec.compression.boosting.weighted_quantiles` / ``weighted_median`` equal
    the lemma functions (the spec's definitions) on three weighted values, γ = g/8."""
    boundaries = [
        {"values": v, "weights": w, "g_num": g}
        for v, w in (
            ((0, 1, 2), (1, 1, 1)),
            ((0, 0, 1), (1, 1, 2)),  # shares exactly ½: the upper median
            ((2, 1, 0), (0, 0, 1)),
            ((1, 1, 1), (3, 0, 0)),
            ((-4, 4, 0), (2, 2, 0)),
        )
        for g in range(4)
    ]
    vals = st.tuples(*(st.integers(-4, 4),) * 3)
    ws = st.tuples(*(st.integers(0, 3),) * 3).filter(lambda w: sum(w) > 0)
    strategy = st.fixed_dictionaries({"values": vals, "weights": ws, "g_num": st.integers(0, 3)})
    return _differential(config, boundaries, strategy, _compare_quantiles)


# --------------------------------------------------------------------------------------------
# Local randomiser's log density ratio (003_5e2a1f46235ac29b.txt:L247-L251, L640-L656)
# --------------------------------------------------------------------------------------------


def _ldp_randomisers() -> list[Any]:
    from dpspec.ldp.mechanism import LocalRandomiser
    from dpspec.ldp.partition import CubicPartition

    part = CubicPartition(h=2.0, radius=1.0)  # 2 cells: inside every lemma's domain
    return [
        LocalRandomiser(part, 1.0, 1.0),
        LocalRandomiser(part, 0.5, 2.0),
        LocalRandomiser(part, 1.0, 1.0, z_only=True),
    ]


def _compare_ldp(rands: list[Any]) -> Callable[[Case], str | None]:
    from dpspec.ldp.mechanism import W_ONE
    from dpspec.proofs.lemmas_ldp import log_ratio_core, onehot_sensitivity, response_sensitivity

    def compare(case: Case) -> str | None:
        rand = rands[case["rand"]]
        big_n = rand.partition.n_cells
        x, y, x2, y2 = case["x"], case["y"], case["x2"], case["y2"]
        law, law2 = rand.report_law([x], y), rand.report_law([x2], y2)
        cells, units = rand._signal(np.asarray([[x], [x2]]), [y, y2])
        c, c2, d, d2 = int(cells[0]), int(cells[1]), int(units[0]), int(units[1])
        m = int(np.rint(rand.truncation / rand.step_z))
        if not (-1 <= c < big_n and -1 <= c2 < big_n and abs(d) <= m and abs(d2) <= m):
            return f"signal outside the lemma's domain: cells {c}, {c2}, units {d}, {d2}, M {m}"
        w_k = tuple(case["w"][:big_n])
        w = tuple(W_ONE * k + r for k, r in zip(w_k, case["w_rest"], strict=False))
        z = tuple(case["z"][:big_n])
        if len(w) != big_n or len(z) != big_n:
            return None
        w_report = w if law.w_centre else ()
        got = law.log_weight(w_report, z) - law2.log_weight(w_report, z)
        z_part = response_sensitivity(z, c, d, c2, d2, m)
        expected = Fraction(z_part) / Fraction(law.scale_z)
        if law.w_centre:
            # W's signal is W_ONE·1{x ∈ A_j}: the response lemma with y = y' = W_ONE, and for
            # reports on the coarse lattice (w = W_ONE·k) W_ONE times the one-hot lemma
            w_part = response_sensitivity(w, c, W_ONE, c2, W_ONE, W_ONE)
            coarse = W_ONE * onehot_sensitivity(w_k, c, c2)
            if all(r == 0 for r in case["w_rest"]) and w_part != coarse:
                return f"W part {w_part} != W_ONE·one-hot lemma {coarse}"
            expected += Fraction(w_part) / Fraction(law.scale_w)
            if all(r == 0 for r in case["w_rest"]):
                sw, sz = Fraction(law.scale_w), Fraction(law.scale_z)
                lcm = sw.numerator * sz.numerator
                a_int = W_ONE * lcm * sw.denominator // sw.numerator
                b_int = lcm * sz.denominator // sz.numerator
                core = log_ratio_core(w_k, z, c, d, c2, d2, m, a_int, b_int)
                if Fraction(core, lcm) != expected:
                    return f"log_ratio_core {core}/{lcm} != sum of parts {expected}"
        if got != expected:
            return f"impl log-weight difference {got} != lemma value {expected}"
        return None

    return compare


def ldp_binding(config: VerifyConfig) -> CheckOutcome:
    """The log density ratio of two reports' exact laws, as the local randomiser computes it
    (``LocalRandomiser.report_law(...).log_weight``, the law :meth:`randomise` samples), equals
    the lemma functions' sums scaled by the noise scales; the signal (cell, truncated response
    in lattice units) lies in the lemmas' domain."""
    rands = _ldp_randomisers()
    big_n = rands[0].partition.n_cells
    boundaries: list[Case] = [
        {"rand": r, "x": x, "y": y, "x2": x2, "y2": y2, "w": w, "w_rest": (0,) * big_n, "z": z}
        for r in range(len(rands))
        for x, y, x2, y2 in ((-0.5, 1.0, 0.5, -1.0), (0.5, 5.0, 0.5, -5.0), (3.0, 0.0, 0.5, 1.0))
        for w, z in (((0,) * big_n, (0,) * big_n), ((1,) * big_n, (-3,) * big_n))
    ]
    pos = st.floats(-1.5, 1.5, allow_nan=False)
    resp = st.floats(-3.0, 3.0, allow_nan=False)
    vec = st.lists(st.integers(-8, 8), min_size=big_n, max_size=big_n).map(tuple)
    rest = st.one_of(
        st.just((0,) * big_n), st.lists(st.integers(-3, 3), min_size=big_n, max_size=big_n)
    ).map(tuple)
    strategy = st.fixed_dictionaries(
        {
            "rand": st.integers(0, len(rands) - 1),
            "x": pos, "y": resp, "x2": pos, "y2": resp, "w": vec, "w_rest": rest, "z": vec,
        }
    )
    return _differential(config, boundaries, strategy, _compare_ldp(rands))


# --------------------------------------------------------------------------------------------
# Auditor's lower bound (auditing.md: Clopper-Pearson event bounds)
# --------------------------------------------------------------------------------------------


def _compare_audit(case: Case) -> str | None:
    from dpspec.audit.core import epsilon_lower
    from dpspec.proofs.lemmas_audit import lower_bound_sound, lower_bound_sound_reversed

    p1_lo, p2_hi, delta, num, den = (case[k] for k in ("p1_lo", "p2_hi", "delta", "num", "den"))
    scale = case["scale"]
    eps_hat = float(epsilon_lower(p1_lo / scale, p2_hi / scale, delta / scale))
    exact = (p1_lo - delta) * den - num * p2_hi  # ≤ 0 iff the bound is certified at ratio num/den
    # the lemma on the event p1 = p1_lo, p2 = p2_hi at ratio e^ε = num/den: holds iff certified
    within = (p1_lo - delta) * den <= num * p2_hi
    if within:
        # the event's own probabilities at their bounds, in both directions of the search
        forward = lower_bound_sound(p1_lo, p2_hi, p1_lo, p2_hi, delta, num, den)
        backward = lower_bound_sound_reversed(p2_hi, p1_lo, p1_lo, p2_hi, delta, num, den)
        if forward is not True or backward is not True:
            return f"lemma functions say not certified: {forward}, {backward}"
    log_r = math.log(num / den)
    tol = 1e-9 * max(1.0, abs(log_r))
    if exact < 0 and not eps_hat <= log_r + tol:
        return f"epsilon_lower {eps_hat} > ln(num/den) {log_r} although certified"
    if exact > 0 and p2_hi > 0 and not eps_hat > log_r - tol:
        return f"epsilon_lower {eps_hat} <= ln(num/den) {log_r} although not certified"
    if exact == 0 and abs(eps_hat - log_r) > tol:
        return f"boundary: epsilon_lower {eps_hat} != ln(num/den) {log_r}"
    return None


def audit_binding(config: VerifyConfig) -> CheckOutcome:
    """:func:`dpspec.audit.core.epsilon_lower` (the auditor's ε_LCB) is ≤ ln r exactly when
    the lemma's certificate ``(p₁⁻ − δ)·den ≤ num·p₂⁺`` holds (up to 1e-9 relative float
    rounding at equality), on integer probabilities over a common denominator."""
    boundaries = [
        {"p1_lo": p1, "p2_hi": p2, "delta": dl, "num": n, "den": d, "scale": 1000}
        for p1, p2, dl, n, d in (
            (200, 100, 0, 2, 1),  # exactly ln 2
            (201, 100, 0, 2, 1),
            (199, 100, 0, 2, 1),
            (210, 100, 10, 2, 1),  # δ subtracted: exactly ln 2
            (10, 100, 10, 1, 1),  # p₁⁻ = δ: no evidence, −inf
            (300, 100, 0, 3, 1),
        )
    ]
    strategy = st.fixed_dictionaries(
        {
            "p1_lo": st.integers(0, 1000),
            "p2_hi": st.integers(1, 1000),
            "delta": st.integers(0, 50),
            "num": st.integers(1, 20),
            "den": st.integers(1, 20),
            "scale": st.sampled_from([1000, 1024, 10**6]),
        }
    ).filter(lambda c: c["num"] >= c["den"])
    return _differential(config, boundaries, strategy, _compare_audit)
