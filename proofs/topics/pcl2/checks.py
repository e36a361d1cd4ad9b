"""Checks of PCL2 and PCL2b (seed 000, App. A): exact privacy through the real ``fit``,
packings, Voronoi cells, the fixed hypothesis, the cell rule of ``fit`` = the cell rule of
``predict``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from itertools import product
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray
from scipy import stats

from dpspec.learners.packing import (
    CubicLattice,
    greedy_maximal_packing,
)
from dpspec.learners.pcl import PrivateHistogramClassifier
from dpspec.learners.pcl2 import (
    PrivatePackingClassifier,
    PrivateUnboundedClassifier,
    hypothesis_bits,
    lattice_cells_per_axis,
    packing_radius,
    release_histogram,
)
from dpspec.mechanisms.stability_histogram import TAIL
from dpspec.proofs.engine.cells import cell_bits, verify_cell_classifier
from dpspec.proofs.engine.conformance import (
    conformance,
    draws,
    outcome,
    power_against,
    tabulate,
)
from dpspec.proofs.engine.controls import BugControl
from dpspec.proofs.engine.exact import (
    RTOL,
    Dataset,
    ExactReport,
    control_of,
    reports_until_failure,
    slack_of,
    verify_pairs,
)
from dpspec.proofs.engine.registry import (
    RECOMPUTED,
    CheckOutcome,
    Control,
    Method,
    Obligation,
    Slack,
    VerifyConfig,
    stop_if_failed,
)
from dpspec.proofs.engine.seeds import BAYES_CONSISTENCY
from dpspec.proofs.engine.stats import ALPHA, chisquare_counts
from dpspec.spec.laws import two_sided_sf
from dpspec.spec.neighbours import Relation, neighbouring_pairs
from dpspec.spec.privacy import (
    Dist,
    bernoulli_product,
    hockey_stick,
    satisfies_approx_dp,
    satisfies_pure_dp,
)

SEED = 4000

#: The bug every privacy control of this topic plants: noise calibrated for ε × 1.25.
CONTROL_FACTOR = 1.25


def verify_pcl2(
    clf: PrivatePackingClassifier,
    representatives: Sequence[tuple[float, ...]],
    max_size: int,
    epsilon: float,
    claimed_epsilon: float | None = None,
    relation: Relation = Relation.SUBSTITUTE,
) -> ExactReport:
    """PCL2 on a small public partition: the exact one-bit-per-cell check of the verifiers
    (its own ``release_law`` against e^{claimed_epsilon}, default ε)."""
    return verify_cell_classifier(
        f"PCL2 {len(representatives)} cells ({'idealised' if clf.idealised else 'exact'}, "
        f"{'lattice' if clf.candidates is None else 'packing'}, ε={float(clf.epsilon):g})",
        clf,
        representatives,
        max_size,
        epsilon,
        relation,
        claimed_epsilon,
    )


def _chebyshev_packing() -> tuple[NDArray[np.float64], float]:
    """A public candidate set of the plane under ℓ∞ and a radius giving a 3-centre packing."""
    candidates = np.array([[0.0, 0.0], [0.3, 0.1], [1.0, 0.0], [0.5, 0.9], [1.0, 1.0]])
    return candidates, 0.8


def pcl2_exact_privacy(config: VerifyConfig) -> CheckOutcome:
    """Thm A.6 exactly: lattice d=1 (3 cells) and d=2 (4 cells), a greedy ℓ∞ packing of a public
    candidate set (3 Voronoi cells), the idealised Laplace path and add/remove (e^{ε/2}); every
    instance is tight (worst ratio = the claim), so PCL2 with noise for ε × 1.25 (lattice and
    packing) must be caught against the caller's ε."""
    size = 5 if config.thorough else 3
    cand, radius = _chebyshev_packing()

    def packing(eps: float) -> PrivatePackingClassifier:
        return PrivatePackingClassifier(eps, candidates=cand, metric="chebyshev", radius=radius)

    centres = greedy_maximal_packing(cand, radius, "chebyshev")
    reps_packing = [tuple(float(v) for v in c) for c in centres]
    reps_line = [tuple(float(v) for v in c) for c in CubicLattice.unit_cube(3, 1).centres()]
    reps_square = [tuple(float(v) for v in c) for c in CubicLattice.unit_cube(2, 2).centres()]
    lattice1 = PrivatePackingClassifier(1.0, cells_per_axis=3)
    reports = reports_until_failure(
        config,
        lambda: verify_pcl2(lattice1, reps_line, size + 1, 1.0),
        lambda: verify_pcl2(
            PrivatePackingClassifier(1.0, cells_per_axis=2), reps_square, size, 1.0
        ),
        lambda: verify_pcl2(packing(1.0), reps_packing, size, 1.0),
        lambda: verify_pcl2(
            PrivatePackingClassifier(0.5, idealised=True, cells_per_axis=3), reps_line, size, 0.5
        ),
        lambda: verify_pcl2(lattice1, reps_line, size, 1.0, 0.5, Relation.ADD_REMOVE),
    )
    controls = reports_until_failure(
        config,
        lambda: verify_pcl2(
            PrivatePackingClassifier(CONTROL_FACTOR, cells_per_axis=3), reps_line, size, 1.0
        ),
        lambda: verify_pcl2(packing(CONTROL_FACTOR), reps_packing, size, 1.0),
        controls=True,
    )
    ok = all(r.holds for r in reports) and not any(c.holds for c in controls)
    return CheckOutcome(
        ok,
        "; ".join(r.summary() for r in reports)
        + "; controls: "
        + "; ".join(c.summary() for c in controls),
        {
            "pairs": sum(r.pairs for r in reports),
            "worst_ratios": [float(r.worst_ratio) for r in reports],
            "packing_cells": len(reps_packing),
        },
        [
            control_of(controls[0], "PCL2 (lattice) with noise for ε × 1.25, claim ε"),
            control_of(controls[1], "PCL2 (packing) with noise for ε × 1.25, claim ε"),
        ],
        [slack_of(r) for r in reports],
    )


@Obligation(
    id="pcl2.privacy",
    source=f"{BAYES_CONSISTENCY}:L466-476 (Alg 4, Thm A.6)",
    claim=(
        "PCL2's hypothesis (one noisy bit per Voronoi cell of a public packing) is ε-DP "
        "for the caller's ε, exactly on tight instances, through the law fit draws"
    ),
    method=Method.EXACT,
    predicates=(satisfies_pure_dp,),
    impls=(PrivatePackingClassifier, packing_radius, lattice_cells_per_axis),
    entry_points=(
        PrivatePackingClassifier.fit,
        "dpspec.learners.pcl2.PrivatePackingClassifier.predict",
    ),
    tests=("tests/test_pcl2.py::test_lattice_mode_is_pcl_with_4d",),
    privacy=True,
    bug_controls=(
        BugControl(
            "dpspec.learners.pcl2.PrivatePackingClassifier._inner",
            "self.epsilon, self.idealised,",
            "1.25 * float(self.epsilon), self.idealised,",
            "PCL2's cell votes noised for ε × 1.25",
        ),
    ),
    before=(pcl2_exact_privacy,),
)
def pcl2_fit_conformance(config: VerifyConfig) -> CheckOutcome:
    """PCL2 ``fit`` + ``predict`` on a public 3-cell lattice of [0,1]: the joint law of
    the cells' bits against ∏ Bernoulli(``release_law``); control: ``fit`` at ε = 2; the power
    against ``fit`` at ε × 1.25 is stated (the exact check catches that bug)."""
    X = np.array([[0.1], [0.2], [0.15], [0.5], [0.45], [0.55], [0.6]])
    y = np.array([1, 1, 0, 0, 0, 1, 0])
    centres = (np.arange(3) + 0.5)[:, None] / 3
    reps = draws(config, 400)

    def make(eps: float, seed: int) -> PrivatePackingClassifier:
        return PrivatePackingClassifier(eps, cells_per_axis=3, random_state=seed)

    def law(eps: float) -> dict[Any, Any]:
        return bernoulli_product(make(eps, 0).release_law(X, y))

    at = cell_bits(make, X, y, centres)
    result = outcome(
        [conformance("PCL2 fit, 3 cells", law(1.0), at(1.0, 0), at(2.0, 10**6), law(2.0), reps)]
    )
    power = power_against(law(1.0), law(CONTROL_FACTOR), reps)
    result.numbers["power_at_1.25_epsilon"] = power
    result.detail += f"; power against fit at ε × 1.25: {power:.2f}"
    return result


#: Thm A.6 through ``fit``: the exact check of the law, then the conformance of ``fit`` to it.


# --- PCL2b ------------------------------------------------------------------------------------


def _records_to_points(data: Dataset) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """Records (cell j, label) as points (j + ½, ½) of the lattice of side 1 (cell (j, 0))."""
    recs = cast(tuple[tuple[int, int], ...], data)
    X = np.array([[c + 0.5, 0.5] for c, _ in recs], dtype=np.float64).reshape(-1, 2)
    y = np.array([label for _, label in recs], dtype=np.int64)
    return X, y


def pcl2b_law(clf: PrivateUnboundedClassifier, cap: int) -> Callable[[Dataset], Dist]:
    """The law of PCL2b's release on records (cell, label), from the learner's own
    ``release_law`` (cells of side 1; one common ``cap`` for every dataset compared)."""

    def law(data: Dataset) -> Dist:
        X, y = _records_to_points(data)
        return dict(clf.release_law(X, y, cap))

    return law


def verify_pcl2b(
    epsilon: float,
    delta: float,
    claimed: tuple[float, float],
    pairs: Any,
    max_count: int,
    name: str,
) -> ExactReport:
    """(ε, δ) of PCL2b's release against the claim (e^{claimed ε}, claimed δ) on the given
    pairs of record datasets (no cell holding more than ``max_count`` records); the learner is
    PCL2b at (``epsilon``, ``delta``) per histogram with cells of side 1."""
    clf = PrivateUnboundedClassifier(epsilon, delta, radius=1.0)
    threshold = int(release_histogram(epsilon, delta).threshold)
    cap = max(threshold, max_count) + 1
    report = verify_pairs(
        name,
        pcl2b_law(clf, cap),
        pairs,
        math.exp(claimed[0]),
        claimed[1] * (1 + RTOL),
        rtol=RTOL,
    )
    report.details["threshold"] = threshold
    return report


def threshold_of(epsilon: float, delta: float) -> int:
    """The exact stability histogram's threshold, written out from its rule (Alg 1 with
    discrete Laplace noise P(z) ∝ q^{|z|}, q = e^{−ε/2}, L1 sensitivity 2): the least integer
    τ ≥ 1 with (1 + e^ε)·P(Z ≥ τ) ≤ δ, P(Z ≥ τ) = q^τ/(1 + q)
    (:func:`~dpspec.spec.laws.two_sided_sf`)."""
    q = math.exp(-epsilon / 2)
    tau = 1
    while (1 + math.exp(epsilon)) * two_sided_sf(tau, q) > delta:
        tau += 1
    return tau


def lone_point_delta(epsilon: float, delta: float) -> float:
    """δ of PCL2b on the pair "one label-1 point alone in cell 0" / "… alone in cell 1", in
    closed form: each of the two histograms releases the lone cell with probability
    p = P(Z ≥ τ − 1) = q^{τ−1}/(1 + q), independently, and nothing else differs, so
    H_γ = 1 − (1 − p)² for every γ ≥ 1."""
    q = math.exp(-epsilon / 2)
    p = two_sided_sf(threshold_of(epsilon, delta) - 1, q)
    return 1 - (1 - p) ** 2


def epsilon_at(delta: float, laws: list[tuple[Dist, Dist]], top: float) -> float:
    """The smallest ε' in [0, top] with H_{e^{ε'}} ≤ δ both ways on every pair (bisection to
    1e-6: H_γ decreases in γ; each law pair aligned once as two float vectors)."""
    aligned = []
    for p, q in laws:
        keys = list(set(p) | set(q))
        a = np.array([float(p.get(k, 0)) for k in keys])
        b = np.array([float(q.get(k, 0)) for k in keys])
        aligned += [(a, b), (b, a)]

    def holds(e: float) -> bool:
        g = math.exp(e)
        return all(float(np.maximum(a - g * b, 0.0).sum()) <= delta for a, b in aligned)

    lo, hi = 0.0, top
    if not holds(hi):
        return math.inf
    while hi - lo > 1e-6:
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if holds(mid) else (mid, hi)
    return hi


def _lone_point_pins() -> list[tuple[float, float, float, float]]:
    """(ε, δ, measured δ, closed form 1 − (1 − p)²) of PCL2b on a lone label-1 point moving
    between two cells, for three levels (the pins of :func:`pcl2b_exact_privacy`)."""
    lone = ((0, 1),), ((1, 1),)
    pins = []
    for e, dl in ((1.0, 0.01), (1.0, 0.2), (2.0, 0.01)):
        lone_law = pcl2b_law(PrivateUnboundedClassifier(e, dl, radius=1.0), threshold_of(e, dl))
        got = float(hockey_stick(lone_law(lone[0]), lone_law(lone[1]), math.exp(2 * e)))
        pins.append((e, dl, got, lone_point_delta(e, dl)))
    return pins


def _pinned(pins: list[tuple[float, float, float, float]]) -> bool:
    """Every pin's measured δ equals its closed form (relative tolerance 1e-6)."""
    return all(math.isclose(g, w, rel_tol=1e-6) for _, _, g, w in pins)


def pcl2b_exact_privacy(config: VerifyConfig) -> CheckOutcome:
    """Thm A.14 exactly through PCL2b's own ``release_law``, at the claim (2ε, 2δ) for the
    caller's per-histogram (ε, δ):

    * every substitution pair of ≤ 3 records over 2 cells × 2 labels (ε = 1; δ = 0.01, 0.2);
    * a tight instance in ε: 12 label-1 points in two cells, counts above τ (ε = 2, δ = 0.05),
      where a moved point shifts all four released counts: the smallest ε' with
      H_{e^{ε'}} ≤ 2δ is reported against 2ε, and PCL2b with noise for ε × 1.25 is caught;
    * δ pinned: on a lone label-1 point moving between cells, the measured δ equals the closed
      form 1 − (1 − p)² with p = P(Z ≥ τ − 1) and τ the threshold rule written out — the
      claim 2δ is loose by the rule's own factor (1 + e^ε)e^{−ε/2} ≥ 2, so a histogram run at
      2δ is caught by this pin, not by the claim.

    Under a bug control the cheap pins run first and the check stops at the first claim that
    fails (pins, then the reports); the 1.25ε control and the reported ε at 2δ are skipped."""
    size = 4 if config.thorough else 3
    domain = tuple((c, y) for c in range(2) for y in (0, 1))

    def at(delta: float) -> Callable[[], ExactReport]:
        pairs = neighbouring_pairs(domain, size, Relation.SUBSTITUTE, min_size=1)
        label = f"PCL2b ε=1 δ={delta} (2 cells, ≤ {size} records)"
        return lambda: verify_pcl2b(1.0, delta, (2.0, 2 * delta), pairs, size, label)

    eps, delta, n = 2.0, 0.05, 12
    ones = tuple((c, 1) for c in range(2))
    tight_pairs = list(neighbouring_pairs(ones, n, Relation.SUBSTITUTE, min_size=n))
    if config.under_control:
        pins = _lone_point_pins()
        stop_if_failed(config, _pinned(pins), f"lone-point δ = 1 − (1 − p)²: {pins}")
    *reports, tight = reports_until_failure(
        config,
        at(0.01),
        at(0.2),
        lambda: verify_pcl2b(eps, delta, (2 * eps, 2 * delta), tight_pairs, n, "PCL2b tight"),
    )
    if config.under_control:  # every claim held (a failing one ended the check above)
        return CheckOutcome(True, "under a bug control: the pins and every report hold")
    (control,) = reports_until_failure(
        config,
        lambda: verify_pcl2b(
            CONTROL_FACTOR * eps, delta, (2 * eps, 2 * delta), tight_pairs, n, "PCL2b 1.25ε"
        ),
        controls=True,
    )
    law = pcl2b_law(PrivateUnboundedClassifier(eps, delta, radius=1.0), n + 1)
    measured = epsilon_at(2 * delta, [(law(a), law(b)) for a, b in tight_pairs], 4 * eps)
    pins = _lone_point_pins()
    pinned = _pinned(pins)
    ok = all(r.holds for r in reports) and tight.holds and not control.holds and pinned
    return CheckOutcome(
        ok,
        "; ".join(r.summary() for r in [*reports, tight])
        + f"; ε at 2δ on the tight instance {measured:.4f} vs claim 2ε = {2 * eps}; "
        f"lone-point δ = 1 − (1 − p)²: {[(round(g, 6), round(w, 6)) for *_, g, w in pins]}; "
        f"control: {control.summary()}",
        {
            "pairs": sum(r.pairs for r in reports) + tight.pairs,
            "worst_delta": [float(r.worst_delta) for r in reports],
            "epsilon_at_2delta": measured,
            "pins": pins,
        },
        [
            control_of(control, "PCL2b with noise for ε × 1.25 (claim (2ε, 2δ))"),
            Control(
                "δ pinned to 1 − (1 − p)², p = P(Z ≥ τ − 1) (a histogram run at 2δ moves τ)",
                True,
                f"measured = closed form on {len(pins)} instances: {pinned}",
            ),
        ],
        [
            Slack("ε (PCL2b, at 2δ)", 2 * eps, measured),
            *(slack_of(r) for r in reports),
            *(Slack("lone-point δ vs closed form", w, g) for *_, g, w in pins),
        ],
    )


def _release_outcome(clf: PrivateUnboundedClassifier, cap: int) -> tuple[Any, ...]:
    """The fitted release as ``release_law`` writes its outcomes: ((cell), ĉ, ŷ) per cell
    with (ĉ, ŷ) ≠ (0, 0), values ≥ cap lumped into ``TAIL``."""

    def code(v: float) -> Any:
        return TAIL if v >= cap else int(v)

    return tuple(
        (tuple(int(v) for v in cell), code(float(c)), code(float(o)))
        for cell, c, o in zip(clf.cells_, clf.counts_, clf.ones_, strict=True)
    )


@Obligation(
    id="pcl2.pcl2b.privacy",
    source=f"{BAYES_CONSISTENCY}:L554-564 (Alg 5); {BAYES_CONSISTENCY}:L568-570 (Thm A.14)",
    claim=(
        "PCL2b's release (two stability histograms over lattice cells) is (2ε, 2δ)-DP "
        "for the caller's per-histogram (ε, δ), exactly, through the law fit draws; "
        "tight in ε, and its δ pinned to the closed form of the threshold rule"
    ),
    method=Method.EXACT,
    predicates=(satisfies_approx_dp, hockey_stick),
    impls=(
        PrivateUnboundedClassifier,
        release_histogram,
        "dpspec.learners.pcl2._cell_release_law",
        hypothesis_bits,
    ),
    entry_points=(PrivateUnboundedClassifier.fit,),
    tests=("tests/test_pcl2.py::test_pcl2b_release_law_is_a_product",),
    privacy=True,
    bug_controls=(
        BugControl(
            "dpspec.learners.pcl2.PrivateUnboundedClassifier._histogram",
            "return release_histogram(self.epsilon, self.delta, self.idealised)",
            "return release_histogram(self.epsilon, 2 * self.delta, self.idealised)",
            "each histogram run at 2δ (the total 2δ given to each)",
        ),
        BugControl(
            "dpspec.learners.pcl2.PrivateUnboundedClassifier._histogram",
            "return release_histogram(self.epsilon, self.delta, self.idealised)",
            "return release_histogram(1.25 * float(self.epsilon), self.delta, self.idealised)",
            "each histogram noised for ε × 1.25",
        ),
    ),
    before=(pcl2b_exact_privacy,),
)
def pcl2b_fit_conformance(config: VerifyConfig) -> CheckOutcome:
    """PCL2b ``fit`` against its ``release_law`` (ε = 1, δ = 1e-3): one cell with 18 points,
    15 labelled 1 (fixed side 1), and 40 points in two cells on the default side
    r = n^{−1/(4d)} (a function of n alone, so the cells cannot move with the labels);
    control: ``fit`` at ε = 2; the power against ``fit`` at ε × 1.25 is stated. Under a bug
    control only ``fit`` at ε is drawn (no 2ε or ε × 1.25 control, no power), to the first
    report that does not conform."""
    reps = draws(config, 400)
    X18 = np.full((18, 1), 0.5)
    y18 = np.array([1] * 15 + [0] * 3)
    X40 = np.repeat([[0.39], [1.5]], 20, axis=0)
    y40 = np.array([1] * 15 + [0] * 5 + [1] * 4 + [0] * 16)
    reports = []
    powers = {}
    modest: list[Control] = []
    for name, X, y, radius, cap in (
        ("PCL2b fit, one cell", X18, y18, 1.0, 19),
        ("PCL2b fit, default cell side (n = 40)", X40, y40, None, 21),
    ):

        def at(
            eps: float, offset: int, X: Any = X, y: Any = y, radius: Any = radius, cap: int = cap
        ) -> Any:
            def draw(k: int) -> list[Any]:
                return [
                    _release_outcome(
                        PrivateUnboundedClassifier(
                            eps, 1e-3, radius=radius, random_state=offset + r
                        ).fit(X, y),
                        cap,
                    )
                    for r in range(k)
                ]

            return draw

        def law(
            eps: float, X: Any = X, y: Any = y, radius: Any = radius, cap: int = cap
        ) -> dict[Any, Any]:
            return dict(PrivateUnboundedClassifier(eps, 1e-3, radius=radius).release_law(X, y, cap))

        reports.append(
            conformance(name, law(1.0), at(1.0, 0), at(2.0, 10**6), law(2.0), reps, config=config)
        )
        if config.under_control:
            continue
        powers[name] = power_against(law(1.0), law(CONTROL_FACTOR), reps)
        pvalue, _ = chisquare_counts(tabulate(at(CONTROL_FACTOR, 2 * 10**6)(reps)), law(1.0))
        modest.append(
            Control(
                f"{name} drawn with noise for ε × 1.25",
                pvalue < ALPHA,
                f"p = {pvalue:.3g} < α = {ALPHA:g} (power ≈ {powers[name]:.3f})",
            )
        )
    result = outcome(reports)
    if config.under_control:
        return result
    result.controls.extend(modest)
    result.passed = result.passed and all(c.caught for c in modest)
    result.numbers["power_at_1.25_epsilon"] = powers
    result.detail += "; ε × 1.25 controls: " + ", ".join(c.measured for c in modest)
    return result


#: Thm A.14 through ``fit``: the exact checks of the law, then the conformance of ``fit``.


def _grid_candidates(k: int) -> NDArray[np.float64]:
    g = np.linspace(0.0, 1.0, k)
    return np.stack(np.meshgrid(g, g, indexing="ij"), axis=-1).reshape(-1, 2)


@Obligation(
    id="pcl2.fixed-function",
    source=f"{BAYES_CONSISTENCY}:L466-476 (Alg 4 step 6: one noise draw per cell, fixed)",
    claim="PCL2's output is one function: same x → same answer; empty cells carry noise",
    method=Method.STATISTICAL,
    predicates=(two_sided_sf,),
    impls=(PrivatePackingClassifier,),
    tests=("tests/test_pcl2.py::test_predictions_are_one_function",),
    bug_controls=(
        BugControl(
            PrivateHistogramClassifier.decision_cells,
            "bits[~found] = self._bits(empty, np.zeros(empty.size, dtype=np.int64))[inverse]",
            "bits[~found] = False",
            "empty cells predict 0 without noise (Alg 4 step 6 gives every cell noise)",
        ),
    ),
)
def pcl2_fixed_function(config: VerifyConfig) -> CheckOutcome:
    """PCL2's hypothesis is one function (packing mode, 2500 Voronoi cells; lattice mode):
    repeated, split and refitted predictions agree; empty cells carry noise — their 1-rate
    matches P(Z ≥ 1) = q/(1 + q), q = e^{−1/2} (two-sided binomial test at α = 1e-6, fixed
    seeds), which a rule without noise in empty cells fails; only non-empty cells are
    stored. Slack: the measured 1-rate against P(Z ≥ 1)."""
    rng = np.random.default_rng(SEED + 3)
    X = rng.random((300, 2)) * 0.5
    y = (X[:, 0] > 0.25).astype(np.int64)
    cand = _grid_candidates(50)  # spacing 1/49 > radius: every candidate is kept

    def model(seed: int) -> PrivatePackingClassifier:
        return PrivatePackingClassifier(1.0, candidates=cand, radius=0.0125, random_state=seed).fit(
            X, y
        )

    clf = model(7)
    Xt = rng.random((4000, 2))
    first = clf.predict(Xt)
    split = np.concatenate([clf.predict(Xt[:777]), clf.predict(Xt[777:])])
    same = bool(
        np.array_equal(first, clf.predict(Xt))
        and np.array_equal(first, split)
        and np.array_equal(model(7).predict(Xt), first)
    )
    lattice = PrivatePackingClassifier(1.0, cells_per_axis=300, random_state=3).fit(X, y)
    same_lattice = bool(np.array_equal(lattice.predict(Xt), lattice.predict(Xt[::-1])[::-1]))
    assert clf.centres_ is not None
    stored = clf.histogram_.cells_
    empty = np.setdiff1d(np.arange(clf.n_cells_), stored)
    ones = int(clf.decision_cells(clf.centres_[empty]).sum())
    q = math.exp(-0.5)
    p = two_sided_sf(1, q)  # P(Z ≥ 1) = q/(1 + q) of the discrete Laplace P(z) ∝ q^{|z|}
    pv = float(stats.binomtest(ones, empty.size, p).pvalue)
    memory_ok = stored.size <= X.shape[0] and clf.n_cells_ == cand.shape[0]
    ok = same and same_lattice and pv > ALPHA and memory_ok
    return CheckOutcome(
        ok,
        f"repeat/split/refit agree: {same}, lattice: {same_lattice}; empty cells 1-rate "
        f"{ones}/{empty.size} vs p={p:.4f} (p-value {pv:.3g}, α = {ALPHA:g}); stored cells "
        f"{stored.size} of {clf.n_cells_}",
        {"empty_cells": int(empty.size), "pvalue": pv, "stored_cells": int(stored.size)},
        slack=[Slack("empty-cell P(h = 1)", p, ones / empty.size)],
    )


# --- the score is the predict rule ------------------------------------------

#: ε at which the exact noise is 0 except with probability ~e^{−ε/2} per cell (PCL2: 700;
#: PCL2b, whose two releases cost 2ε ≤ 700: 350).
NOISELESS_EPSILON = 700.0


def _edges(m: int) -> list[float]:
    """0, 1 and every k/m with the floats one ulp either side of it."""
    out = {0.0, 1.0}
    for k in range(1, m):
        e = k / m
        out.update({e, float(np.nextafter(e, 0.0)), float(np.nextafter(e, 1.0))})
    return sorted(out)


def _lattice_cell(x: tuple[float, ...], m: int) -> int:
    """PCL2's lattice cell of x ∈ [0,1]^d written out: axis by axis min(⌊x_j·m⌋, m − 1)."""
    index = 0
    for v in x:
        index = index * m + min(math.floor(v * m), m - 1)
    return index


def _majority(cells: list[Any], labels: list[int]) -> dict[Any, int]:
    """1 for each cell whose margin Σ(2y − 1) is > 0 (Alg 4, no noise)."""
    margins: dict[Any, int] = {}
    for c, label in zip(cells, labels, strict=True):
        margins[c] = margins.get(c, 0) + (1 if label else -1)
    return {c: int(v > 0) for c, v in margins.items()}


def _unbounded_bits(
    cells: list[tuple[int, ...]], labels: list[int], tau: float
) -> dict[tuple[int, ...], int]:
    """PCL2b's bit of each occupied cell with no noise: ĉ = c and ŷ = c¹ when ≥ τ (else 0),
    h = 1[min(ŷ, ĉ) > ĉ/2] (Alg 5, L562–563)."""
    count: dict[tuple[int, ...], int] = {}
    ones: dict[tuple[int, ...], int] = {}
    for c, label in zip(cells, labels, strict=True):
        count[c] = count.get(c, 0) + 1
        ones[c] = ones.get(c, 0) + label
    out = {}
    for c, n in count.items():
        c_hat = n if n >= tau else 0
        y_hat = ones[c] if ones[c] >= tau else 0
        out[c] = int(min(y_hat, c_hat) > c_hat / 2)
    return out


@Obligation(
    id="pcl2.score-is-predict",
    source=(
        f"{BAYES_CONSISTENCY}:L466-476 (Alg 4: h(x) from V(x)); "
        f"{BAYES_CONSISTENCY}:L554-564 (Alg 5)"
    ),
    claim=(
        "the cell whose votes (counts) fit releases for a point is the cell predict "
        "reads there: lattice cubes, Voronoi ties to the lowest index, cubes of ℝ^d"
    ),
    method=Method.PROPERTY,
    no_predicate=f"{RECOMPUTED}: predict without noise against the rule from the cell boundaries",
    impls=(PrivatePackingClassifier, PrivateUnboundedClassifier),
    tests=("tests/test_pcl2.py::test_packing_mode_cells_and_law",),
    bug_controls=(
        BugControl(
            PrivateUnboundedClassifier.decision_cells,
            "query = _row_keys(self.lattice_.cell_coords(X))",
            "query = _row_keys(self.lattice_.cell_coords(np.nextafter(X, -np.inf)))",
            "PCL2b's predict reads cubes (k r, (k+1) r] while fit counts [k r, (k+1) r)",
        ),
        BugControl(
            PrivateHistogramClassifier.decision_cells,
            'flat = _cube_keys(X, self.m_, name="X", clip=self.clip)',
            'flat = _cube_keys(np.nextafter(X, 0), self.m_, name="X", clip=self.clip)',
            "PCL2's predict reads the lattice cube of the point below x",
        ),
    ),
)
def pcl2_score_is_predict(config: VerifyConfig) -> CheckOutcome:
    """The cell whose votes (counts) ``fit`` releases for a point is the cell
    ``predict`` reads there — PCL2 on the unit-cube lattice (half-open cubes, the last
    closed), PCL2 on a packing (Voronoi cells, ties to the lowest centre index) and PCL2b
    (cubes [k r, (k + 1) r) of ℝ^d, negative coordinates included) — on Hypothesis samples on
    cell boundaries, one ulp either side of them, and points equidistant from two centres. The
    noise is 0 at ε = 700 (PCL2) and 350 (PCL2b), so ``predict`` must equal the noiseless rule
    computed from the boundaries written out. Its bug controls read the other end of a cell
    in ``predict``."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    problems: list[str] = []
    samples = 0
    centres_1d = np.array([[0.0], [0.25], [0.5], [1.0]])  # ties at 0.125, 0.375, 0.75
    ties = [0.125, 0.375, 0.75, 0.0, 0.25, 0.5, 1.0, 0.3, 0.9]

    @st.composite
    def cases(draw: Any) -> tuple[str, int, NDArray[np.float64], NDArray[np.int64]]:
        mode = draw(st.sampled_from(["lattice", "packing", "unbounded"]))
        m = draw(st.sampled_from([2, 3, 4, 7]))
        d = 1 if mode == "packing" else draw(st.integers(1, 2))
        if mode == "lattice":
            values = _edges(m)
        elif mode == "packing":
            values = ties
        else:  # faces k·r of cubes of side r = 1/m, on both sides of 0
            values = [k / m for k in range(-m, m + 1)] + [float(np.nextafter(-1 / m, 0.0))]
        rows = draw(
            st.lists(
                st.tuples(*[st.sampled_from(values)] * d, st.integers(0, 1)),
                min_size=2,
                max_size=8,
            )
        )
        X = np.array([r[:d] for r in rows], dtype=np.float64)
        y = np.array([r[d] for r in rows], dtype=np.int64)
        if y.min() == y.max():
            y[0] = 1 - y[0]
        return mode, m, X, y

    @settings(
        max_examples=90 if config.thorough else 30,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(cases())
    def sample(case: tuple[str, int, NDArray[np.float64], NDArray[np.int64]]) -> None:
        nonlocal samples
        mode, m, X, y = case
        samples += 1
        labels = y.tolist()
        if mode == "lattice":
            clf: Any = PrivatePackingClassifier(NOISELESS_EPSILON, cells_per_axis=m, random_state=0)
            clf.fit(X, y)
            probes = np.concatenate([X, np.array(list(product(_edges(m), repeat=X.shape[1])))])
            bits = _majority([_lattice_cell(tuple(r), m) for r in X.tolist()], labels)
            want = [bits.get(_lattice_cell(tuple(p), m), 0) for p in probes.tolist()]
        elif mode == "packing":
            clf = PrivatePackingClassifier(
                NOISELESS_EPSILON, candidates=centres_1d, radius=0.2, random_state=0
            ).fit(X, y)
            probes = np.concatenate([X, np.array(ties)[:, None]])

            def nearest(x: float) -> int:  # the lowest index among the nearest centres
                dist = [abs(x - float(c)) for c in centres_1d[:, 0]]
                return dist.index(min(dist))

            bits = _majority([nearest(r[0]) for r in X.tolist()], labels)
            want = [bits.get(nearest(p[0]), 0) for p in probes.tolist()]
        else:
            r = 1.0 / m
            Xd, yd = np.repeat(X, 4, axis=0), np.repeat(y, 4)  # counts ≥ τ: every cell released
            clf = PrivateUnboundedClassifier(
                NOISELESS_EPSILON / 2, 0.5, radius=r, random_state=0
            ).fit(Xd, yd)

            def cell(x: tuple[float, ...]) -> tuple[int, ...]:
                return tuple(math.floor(v / r) for v in x)

            probes = np.concatenate([X, X + r / 2, np.nextafter(X, -np.inf)])
            bits = _unbounded_bits(
                [cell(tuple(p)) for p in Xd.tolist()], yd.tolist(), float(clf.threshold_)
            )
            want = [bits.get(cell(tuple(p)), 0) for p in probes.tolist()]
        got = clf.predict(probes).astype(np.int64)
        if got.tolist() != want:
            bad = int(np.flatnonzero(got != np.array(want))[0])
            problems.append(f"{mode} m={m}: probe {probes[bad].tolist()} predicted {got[bad]}")

    sample()
    return CheckOutcome(
        not problems,
        f"{samples} samples on cell boundaries (lattice, packing ties, ℝ^d cubes): "
        f"{'predict reads the cell fit counted' if not problems else problems[:3]}",
        {"samples": samples, "problems": problems[:10]},
        [],
        [Slack("probes whose cell differs from fit's (claim 0)", 0.0, float(len(problems)))],
    )
