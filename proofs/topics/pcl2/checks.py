"""Checks of PCL2 and PCL2b (seed 000, App. A): exact privacy through the real ``fit``,
packings, Voronoi cells, the fixed hypothesis.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray
from scipy import stats

from dpspec.learners.packing import (
    CubicLattice,
    Metric,
    greedy_maximal_packing,
    nearest_centre,
    pairwise_distances,
)
from dpspec.learners.pcl2 import (
    PrivatePackingClassifier,
    PrivateUnboundedClassifier,
    cell_release_law,
    release_histogram,
)
from dpspec.mechanisms.stability_histogram import TAIL, StabilityHistogram
from dpspec.proofs.engine.cells import cell_bits, verify_cell_classifier
from dpspec.proofs.engine.conformance import conformance, draws, outcome
from dpspec.proofs.engine.exact import RTOL, Dataset, ExactReport, verify_pairs
from dpspec.proofs.engine.registry import CheckOutcome, VerifyConfig
from dpspec.proofs.engine.stats import ALPHA
from dpspec.spec.neighbours import Relation, neighbouring_pairs
from dpspec.spec.privacy import Dist, bernoulli_product

SEED = 4000


def verify_pcl2(
    clf: PrivatePackingClassifier,
    representatives: Sequence[tuple[float, ...]],
    max_size: int,
    epsilon: float,
    claimed_epsilon: float | None = None,
    relation: Relation = Relation.SUBSTITUTE,
) -> ExactReport:
    """PCL2 on a small public partition: the exact one-bit-per-cell check of the verifiers."""
    return verify_cell_classifier(
        f"PCL2 {len(representatives)} cells ({'idealised' if clf.idealised else 'exact'}, "
        f"{'lattice' if clf.candidates is None else 'packing'})",
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
    candidate set (3 Voronoi cells), the idealised Laplace path and add/remove (e^{ε/2}); a
    0.9ε claim must be caught."""
    size = 5 if config.thorough else 4
    cand, radius = _chebyshev_packing()
    packing = PrivatePackingClassifier(1.0, candidates=cand, metric="chebyshev", radius=radius)
    centres = greedy_maximal_packing(cand, radius, "chebyshev")
    reps_packing = [tuple(float(v) for v in c) for c in centres]
    line = CubicLattice.unit_cube(3, 1).centres()
    square = CubicLattice.unit_cube(2, 2).centres()
    reps_line = [tuple(float(v) for v in c) for c in line]
    reps_square = [tuple(float(v) for v in c) for c in square]
    lattice1 = PrivatePackingClassifier(1.0, cells_per_axis=3)
    reports = [
        verify_pcl2(lattice1, reps_line, size + 1, 1.0),
        verify_pcl2(PrivatePackingClassifier(1.0, cells_per_axis=2), reps_square, size, 1.0),
        verify_pcl2(packing, reps_packing, size, 1.0),
        verify_pcl2(
            PrivatePackingClassifier(0.5, idealised=True, cells_per_axis=3), reps_line, size, 0.5
        ),
        verify_pcl2(lattice1, reps_line, size, 1.0, 0.5, Relation.ADD_REMOVE),
    ]
    control = verify_pcl2(lattice1, reps_line, size, 1.0, claimed_epsilon=0.9)
    tight = abs(float(reports[0].worst_ratio) - math.e) < 1e-9
    ok = all(r.holds for r in reports) and tight and not control.holds
    return CheckOutcome(
        ok,
        "; ".join(r.summary() for r in reports)
        + f"; tight at e^eps: {tight}; control: {control.summary()}",
        {
            "pairs": sum(r.pairs for r in reports),
            "worst_ratios": [float(r.worst_ratio) for r in reports],
            "packing_cells": len(reps_packing),
            "control_caught": not control.holds,
        },
    )


def verify_pcl2b(
    hist: StabilityHistogram,
    ratio: Fraction | float,
    claimed_delta: Fraction | float,
    cells: int = 2,
    max_size: int = 3,
    name: str = "PCL2b",
) -> ExactReport:
    """The release of PCL2b — both histograms over every cell — on records (cell, label).

    Records are mapped to cells by the classifier itself (points (j + ½, ½, …) with radius 1);
    the law of the release is ∏_j law(ĉ_j, ŷ_j) (:func:`cell_release_law`: independent noises
    given the data), over the ``cells`` cells the records can use (every other cell releases
    (0, 0) in both datasets and cancels). Claimed: H_{ratio} ≤ ``claimed_delta`` both ways.
    """
    clf = PrivateUnboundedClassifier(radius=1.0)
    cap = max(int(hist.threshold), max_size) + 1
    domain = tuple((c, y) for c in range(cells) for y in (0, 1))

    def law(data: Dataset) -> Dist:
        recs = cast(tuple[tuple[int, int], ...], data)
        X = np.array([[c + 0.5, 0.5] for c, _ in recs], dtype=np.float64)
        y = np.array([label for _, label in recs], dtype=np.int64)
        coords, counts, ones = clf.cell_statistics(X, y)
        seen = {
            int(c[0]): (int(n), int(o))
            for c, n, o in zip(coords, counts.tolist(), ones.tolist(), strict=True)
        }
        out: dict[tuple[Any, ...], Fraction | float] = {(): 1}
        for j in range(cells):
            n, o = seen.get(j, (0, 0))
            cell = cell_release_law(hist, n, o, cap)
            out = {(*k, v): p * pv for k, p in out.items() for v, pv in cell.items()}
        return out

    report = verify_pairs(
        name,
        law,
        neighbouring_pairs(domain, max_size, Relation.SUBSTITUTE, min_size=1),
        ratio,
        claimed_delta,
    )
    report.details["threshold"] = hist.threshold
    return report


def pcl2b_exact_privacy(config: VerifyConfig) -> CheckOutcome:
    """Thm A.14 exactly: rational bases q = e^{−ε/2} ∈ {1/2, 3/4} and per-histogram δ, release
    laws in Fractions, ratio e^{2ε} = q^{−4}, claim 2δ; plus the ε = 1 float histogram the class
    builds (rtol 1e-9). Reports the smallest δ' with (2ε, δ') on these instances; control:
    the threshold lowered by 3 must break 2δ."""
    size = 4 if config.thorough else 3
    cases: list[tuple[Fraction, Fraction]] = [
        (Fraction(1, 2), Fraction(1, 100)),
        (Fraction(1, 2), Fraction(1, 5)),
        (Fraction(3, 4), Fraction(1, 20)),
    ]
    reports = []
    for q, delta in cases:
        rep = verify_pcl2b(
            release_histogram(delta=delta, base=q),
            q**-4,
            2 * delta,
            max_size=size,
            name=f"PCL2b base {q} delta {delta}",
        )
        rep.details["delta_prime_over_delta"] = float(rep.worst_delta / delta)
        reports.append(rep)
    float_hist = release_histogram(1.0, 1e-3)
    float_rep = verify_pcl2b(
        float_hist, math.exp(2.0), 2e-3 * (1 + RTOL), max_size=size, name="PCL2b eps 1 (float)"
    )
    float_rep.details["delta_prime_over_delta"] = float(float_rep.worst_delta) / 1e-3
    reports.append(float_rep)
    lowered = release_histogram(delta=Fraction(1, 100), base=Fraction(1, 2))
    lowered.threshold = int(lowered.threshold) - 3
    control = verify_pcl2b(
        lowered, Fraction(16), Fraction(2, 100), max_size=size, name="PCL2b, threshold - 3"
    )
    ok = all(r.holds for r in reports) and not control.holds
    tighter = [r.details["delta_prime_over_delta"] for r in reports]
    return CheckOutcome(
        ok,
        "; ".join(r.summary() for r in reports)
        + f"; smallest delta'/delta at e^(2eps): {[round(t, 4) for t in tighter]} "
        f"((2eps, delta) holds: {all(t <= 1 for t in tighter)}); control: {control.summary()}",
        {
            "pairs": sum(r.pairs for r in reports),
            "worst_delta": [str(r.worst_delta) for r in reports],
            "delta_prime_over_delta": tighter,
            "worst_pairs": [r.worst_pair for r in reports],
            "control_delta": float(control.worst_delta),
            "control_caught": not control.holds,
        },
    )


def _grid_points(m: int, d: int) -> NDArray[np.float64]:
    """The cell corners {0, 1/m, …, 1}^d: the deep holes of the unit-cube lattice."""
    return np.asarray(np.indices((m + 1,) * d).reshape(d, -1).T / m, dtype=np.float64)


def _min_separation(points: NDArray[np.float64], metric: Metric = "euclidean") -> float:
    if points.shape[0] < 2:
        return math.inf
    dist = pairwise_distances(points, points, metric)
    np.fill_diagonal(dist, np.inf)
    return float(dist.min())


def lattice_facts(m: int, d: int, rng: np.random.Generator) -> dict[str, Any]:
    """Measured packing/cover numbers of the unit-cube lattice (brute-force distances)."""
    lattice = CubicLattice.unit_cube(m, d)
    centres = lattice.centres()
    probes = np.concatenate([_grid_points(m, d), rng.random((2000, d))])
    index, dist = nearest_centre(probes, centres)
    inside = rng.random((2000, d))
    return {
        "separation": _min_separation(centres),
        "cover": float(dist.max()),
        "voronoi_is_cube": bool(
            np.array_equal(nearest_centre(inside, centres)[0], lattice.cell_index(inside))
        ),
        "corner_addable": bool(dist.max() >= lattice.spacing - 1e-12),
        "nearest_index": index,
    }


def lattice_packing_facts(config: VerifyConfig) -> CheckOutcome:
    """Unit-cube lattices (d ≤ 5, m ≤ 5): an s-packing (min centre distance = s), an
    (s√d/2)-cover attained at the cell corners, Voronoi cells = the cubes, maximal iff d ≤ 3;
    the ℝ^d lattice: each point's own cube centre is nearest among its 3^d neighbours, within
    s√d/2. Controls: covering radius claimed 0.99·s√d/2 and "maximal at d = 4" are caught."""
    rng = np.random.default_rng(SEED)
    problems: list[str] = []
    rows = []
    for d in range(1, 6):
        for m in (1, 2, 3, 5):
            if m**d > 4000:
                continue
            lattice = CubicLattice.unit_cube(m, d)
            facts = lattice_facts(m, d, rng)
            s, cover = lattice.spacing, lattice.covering_radius
            sep_ok = m == 1 or math.isclose(facts["separation"], s, rel_tol=1e-12)
            cover_ok = facts["cover"] <= cover * (1 + 1e-12)
            tight = math.isclose(facts["cover"], cover, rel_tol=1e-12)
            maximal_ok = lattice.is_maximal == (not facts["corner_addable"]) == (d <= 3)
            if not (sep_ok and cover_ok and tight and maximal_ok and facts["voronoi_is_cube"]):
                problems.append(f"d={d} m={m}: {facts | {'nearest_index': None}}")
            rows.append((d, m))
    # the lattice of ℝ^d (PCL2b's cells): own cube centre is the nearest lattice point
    for d in (1, 2, 3):
        spacing = 0.37
        unbounded = CubicLattice(spacing, d)
        X = rng.uniform(-10, 10, size=(3000, d))
        coords = unbounded.cell_coords(X)
        offsets = np.indices((3,) * d).reshape(d, -1).T - 1
        own = int(np.flatnonzero(np.all(offsets == 0, axis=1))[0])
        near = np.stack(
            [np.linalg.norm(X - unbounded.centres_of(coords + off), axis=1) for off in offsets],
            axis=1,
        )
        if not (
            np.all(np.argmin(near, axis=1) == own)
            and near[:, own].max() <= unbounded.covering_radius
        ):
            problems.append(f"unbounded d={d}: own cube centre not nearest")
    # controls
    corner_d2 = lattice_facts(3, 2, rng)["cover"]
    small_cover_caught = corner_d2 > 0.99 * CubicLattice.unit_cube(3, 2).covering_radius
    d4_caught = lattice_facts(2, 4, rng)["corner_addable"]
    ok = not problems and small_cover_caught and d4_caught
    return CheckOutcome(
        ok,
        f"{len(rows)} lattices (d, m) checked; problems: {problems}; controls caught: "
        f"cover 0.99·s√d/2 {small_cover_caught}, maximal at d=4 {d4_caught}",
        {"lattices": rows, "problems": problems},
    )


def _scaled_euclidean(A: NDArray[np.float64], B: NDArray[np.float64]) -> NDArray[np.float64]:
    """A user metric: Euclidean after stretching the first axis by 3 (a vectorised callable)."""
    w = np.ones(A.shape[1])
    w[0] = 3.0
    return np.asarray(np.sqrt((((A[:, None, :] - B[None, :, :]) * w) ** 2).sum(axis=2)))


def packing_violations(
    candidates: NDArray[np.float64], centres: NDArray[np.float64], r: float, metric: Metric
) -> tuple[bool, bool]:
    """(is an r-packing, is maximal in the candidates): brute-force distances, no chunking."""
    packing = _min_separation(centres, metric) >= r
    to_centres = pairwise_distances(candidates, centres, metric).min(axis=1)
    return packing, bool(np.all(to_centres < r))


def greedy_packing_facts(config: VerifyConfig) -> CheckOutcome:
    """greedy_maximal_packing on random public candidate sets (d ∈ {1, 2, 3}; euclidean,
    chebyshev, cityblock, a callable metric; chunk sizes 7 and 1024; small distance budgets
    for nearest_centre): an r-packing, maximal in the candidate set (every candidate < r from a
    centre), independent of chunking; an r-packing passes through unchanged. Controls: the
    output minus one centre (not maximal) and plus a near duplicate (not a packing) caught."""
    rng = np.random.default_rng(SEED + 1)
    trials = 60 if config.thorough else 24
    metrics: list[Metric] = ["euclidean", "chebyshev", "cityblock", _scaled_euclidean]
    problems: list[str] = []
    caught_drop = caught_dup = 0
    sizes = []
    for t in range(trials):
        d = 1 + t % 3
        metric = metrics[t % len(metrics)]
        cand = rng.random((int(rng.integers(5, 1500)), d))
        r = float(rng.uniform(0.03, 0.4))
        centres = greedy_maximal_packing(cand, r, metric)
        small = greedy_maximal_packing(cand, r, metric, chunk_size=7)
        packing, maximal = packing_violations(cand, centres, r, metric)
        few = cand[:200]  # blocked over rows and centres vs one block
        idx_a, dist_a = nearest_centre(few, centres, metric)
        idx_b, dist_b = nearest_centre(few, centres, metric, max_entries=max(2, len(centres) // 3))
        again = greedy_maximal_packing(centres, r, metric)
        if not (
            packing
            and maximal
            and np.array_equal(centres, small)
            and np.array_equal(idx_a, idx_b)
            and np.array_equal(dist_a, dist_b)
            and np.array_equal(again, centres)
        ):
            problems.append(f"trial {t}: packing {packing}, maximal {maximal}")
        sizes.append(centres.shape[0])
        if centres.shape[0] >= 2:
            caught_drop += not packing_violations(cand, centres[:-1], r, metric)[1]
            dup = np.concatenate([centres, centres[:1] + r / 10])
            caught_dup += not packing_violations(cand, dup, r, metric)[0]
    multi = sum(s >= 2 for s in sizes)
    ok = not problems and caught_drop == multi and caught_dup == multi and multi > trials // 2
    return CheckOutcome(
        ok,
        f"{trials} candidate sets (centres {min(sizes)}..{max(sizes)}); problems: {problems}; "
        f"controls caught: dropped centre {caught_drop}/{multi}, "
        f"near duplicate {caught_dup}/{multi}",
        {"centres": sizes, "problems": problems},
    )


def voronoi_diameters(
    points: NDArray[np.float64], centres: NDArray[np.float64], metric: Metric
) -> NDArray[np.float64]:
    """Diameter of each Voronoi cell restricted to a finite point set (brute force)."""
    cell, _ = nearest_centre(points, centres, metric)
    out = np.zeros(centres.shape[0])
    for j in np.unique(cell):
        members = points[cell == j]
        out[j] = pairwise_distances(members, members, metric).max()
    return out


def lemma_a8_cell_diameter(config: VerifyConfig) -> CheckOutcome:
    """Lemma A.8 (L462): the Voronoi cells of a maximal r-packing have diameter ≤ 2r — checked
    on maximal lattices (d ≤ 3, diameter s√d, sampled closures) and on greedy maximal packings
    of random finite spaces. Control = the proof's last line (L476) "ρ(a, b) ≤ r", which must be
    refuted: the ½-lattice of [0,1]² (4 centres, a maximal ½-packing) has a cell [0,½]² of
    diameter √2/2 > ½; and the 1-D maximal 1-packing {0.95, 2.85} of [0, 3.8] has a cell [0, 1.9]
    of diameter 1.9 (2r is sharp)."""
    rng = np.random.default_rng(SEED + 2)
    problems: list[str] = []
    worst_ratio = 0.0
    for d in (1, 2, 3):
        for m in (1, 2, 4):
            lattice = CubicLattice.unit_cube(m, d)
            pts = np.concatenate([_grid_points(2 * m, d), rng.random((3000, d))])
            # closures of the cells: include each cube's far corners (points on faces)
            diam = voronoi_diameters(pts, lattice.centres(), "euclidean").max()
            worst_ratio = max(worst_ratio, float(diam) / lattice.spacing)
            if diam > 2 * lattice.spacing * (1 + 1e-12):
                problems.append(f"lattice d={d} m={m}: diameter {diam} > 2s")
    for t in range(12 if config.thorough else 6):
        metric: Metric = ("euclidean", "chebyshev", "cityblock")[t % 3]
        space = rng.random((800, 1 + t % 3))
        r = float(rng.uniform(0.1, 0.3))
        centres = greedy_maximal_packing(space, r, metric)
        diam = voronoi_diameters(space, centres, metric).max()
        worst_ratio = max(worst_ratio, float(diam) / r)
        if diam > 2 * r:
            problems.append(f"greedy t={t}: diameter {diam} > 2r = {2 * r}")
    # the printed last line "rho(a, b) <= r" — counterexamples (the control: must be refuted)
    square = CubicLattice.unit_cube(2, 2)
    ab = np.array([[0.0, 0.0], [0.49, 0.49]])  # both in the cell of the centre (1/4, 1/4)
    same_cell = bool(np.all(nearest_centre(ab, square.centres())[0] == 0))
    square_diam = float(np.linalg.norm(ab[0] - ab[1]))
    square_maximal = square.covering_radius < square.spacing
    line_space = np.linspace(0.0, 3.8, 3801)[:, None]
    line_centres = np.array([[0.95], [2.85]])
    line_packing, line_maximal = packing_violations(line_space, line_centres, 1.0, "euclidean")
    line_diam = float(voronoi_diameters(line_space, line_centres, "euclidean").max())
    refuted = (
        same_cell
        and square_maximal
        and square_diam > square.spacing
        and line_packing
        and line_maximal
        and line_diam > 1.0
    )
    ok = not problems and bool(refuted) and worst_ratio <= 2.0
    return CheckOutcome(
        ok,
        f"diam ≤ 2r on every maximal packing checked (worst diam/r = {worst_ratio:.4f}); "
        f"problems: {problems}; last line 'diam ≤ r' refuted: lattice s=1/2 in [0,1]^2, "
        f"(0,0) and (0.49,0.49) in one cell at distance {square_diam:.4f} > 0.5 "
        f"(maximal: {square_maximal}); 1-D packing "
        f"{{0.95, 2.85}} of [0, 3.8], r=1: cell diameter {line_diam:.3f} > 1 "
        f"(maximal: {line_maximal})",
        {"worst_diam_over_r": worst_ratio, "square_diam": square_diam, "line_diam": line_diam},
    )


def _grid_candidates(k: int) -> NDArray[np.float64]:
    g = np.linspace(0.0, 1.0, k)
    return np.stack(np.meshgrid(g, g, indexing="ij"), axis=-1).reshape(-1, 2)


def pcl2_fixed_function(config: VerifyConfig) -> CheckOutcome:
    """PCL2's hypothesis is one function (packing mode, 6400 Voronoi cells; lattice mode):
    repeated, split and refitted predictions agree; empty cells carry noise — their 1-rate
    matches P(Z ≥ 1) (binomial test, α = 1e-6), a noiseless rule is rejected; only non-empty
    cells are stored."""
    rng = np.random.default_rng(SEED + 3)
    X = rng.random((300, 2)) * 0.5
    y = (X[:, 0] > 0.25).astype(np.int64)
    cand = _grid_candidates(80)  # spacing 1/79 > radius: every candidate is kept

    def model(seed: int) -> PrivatePackingClassifier:
        return PrivatePackingClassifier(1.0, candidates=cand, radius=0.0125, random_state=seed).fit(
            X, y
        )

    clf = model(7)
    Xt = rng.random((8000, 2))
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
    law = clf.histogram_.noise_law_
    assert law is not None
    p = float(law.sf(1))
    pv = float(stats.binomtest(ones, empty.size, p).pvalue)
    pv_noiseless = float(stats.binomtest(0, empty.size, p).pvalue)
    memory_ok = stored.size <= X.shape[0] and clf.n_cells_ == cand.shape[0]
    ok = same and same_lattice and pv > ALPHA and pv_noiseless < ALPHA and memory_ok
    return CheckOutcome(
        ok,
        f"repeat/split/refit agree: {same}, lattice: {same_lattice}; empty cells 1-rate "
        f"{ones}/{empty.size} vs p={p:.4f} (p-value {pv:.3g}); noiseless rule rejected: "
        f"{pv_noiseless < ALPHA}; stored cells {stored.size} of {clf.n_cells_}",
        {"empty_cells": int(empty.size), "pvalue": pv, "stored_cells": int(stored.size)},
    )


def pcl2_fit_conformance(config: VerifyConfig) -> CheckOutcome:
    """PCL2 ``fit`` + ``predict`` on a public 3-cell lattice of [0,1]: the joint law of
    the cells' bits against ∏ Bernoulli(``release_law``); control: ``fit`` at ε = 2."""
    X = np.array([[0.1], [0.2], [0.15], [0.5], [0.45], [0.55], [0.6]])
    y = np.array([1, 1, 0, 0, 0, 1, 0])
    centres = (np.arange(3) + 0.5)[:, None] / 3
    reps = draws(config, 600)

    def make(eps: float, seed: int) -> PrivatePackingClassifier:
        return PrivatePackingClassifier(eps, cells_per_axis=3, random_state=seed)

    def law(eps: float) -> dict[Any, Any]:
        return bernoulli_product(make(eps, 0).release_law(X, y))

    at = cell_bits(make, X, y, centres)
    return outcome(
        [conformance("PCL2 fit, 3 cells", law(1.0), at(1.0, 0), at(2.0, 10**6), law(2.0), reps)]
    )


def pcl2b_fit_conformance(config: VerifyConfig) -> CheckOutcome:
    """PCL2b ``fit``: one cell with 18 points, 15 labelled 1 (ε = 1, δ = 1e-3): the joint
    (ĉ, ŷ) it releases against :func:`cell_release_law` of the histogram it runs twice;
    control: ``fit`` at ε = 2."""
    X = np.full((18, 1), 0.5)
    y = np.array([1] * 15 + [0] * 3)
    reps = draws(config, 600)
    cap = int(release_histogram(1.0, 1e-3).threshold) + 6

    def code(v: float) -> Any:
        return TAIL if v >= cap else int(v)

    def at(eps: float, offset: int) -> Callable[[int], list[Any]]:
        def draw(k: int) -> list[Any]:
            out = []
            for r in range(k):
                clf = PrivateUnboundedClassifier(
                    eps, 1e-3, radius=1.0, random_state=offset + r
                ).fit(X, y)
                c_hat = float(clf.counts_[0]) if clf.counts_.size else 0.0
                y_hat = float(clf.ones_[0]) if clf.ones_.size else 0.0
                out.append((code(c_hat), code(y_hat)))
            return out

        return draw

    def law(eps: float) -> dict[Any, Any]:
        hist = release_histogram(eps, 1e-3)
        return dict(cell_release_law(hist, 18, 15, max(cap, int(hist.threshold))))

    reports = [
        conformance("PCL2b fit, one cell", law(1.0), at(1.0, 0), at(2.0, 10**6), law(2.0), reps)
    ]
    # the default cell side r = n^{−1/(4d)} is a function of n alone: 40 points at 0.39 and 1.5
    # fall in cells 0 and 3 (r ≈ 0.398); a side that moved with the labels would move them
    X40 = np.repeat([[0.39], [1.5]], 20, axis=0)
    y40 = np.array([1] * 15 + [0] * 5 + [1] * 4 + [0] * 16)

    def at_default(eps: float, offset: int) -> Callable[[int], list[Any]]:
        def draw(k: int) -> list[Any]:
            out = []
            for r in range(k):
                clf = PrivateUnboundedClassifier(eps, 1e-3, random_state=offset + r).fit(X40, y40)
                out.append(
                    tuple(
                        (tuple(int(v) for v in cell), code(float(c)), code(float(o)))
                        for cell, c, o in zip(clf.cells_, clf.counts_, clf.ones_, strict=True)
                    )
                )
            return out

        return draw

    def law_default(eps: float) -> dict[Any, Any]:
        clf = PrivateUnboundedClassifier(eps, 1e-3)
        coords, counts, ones = clf.cell_statistics(X40, y40)
        hist = release_histogram(eps, 1e-3)
        out: dict[Any, Any] = {(): 1.0}
        for cell, c, o in zip(coords, counts.tolist(), ones.tolist(), strict=True):
            key = tuple(int(v) for v in cell)
            cell_law = cell_release_law(hist, c, o, max(cap, int(hist.threshold)))
            out = {
                (*k, (key, a, b)) if (a, b) != (0, 0) else k: p * float(pb)
                for k, p in out.items()
                for (a, b), pb in cell_law.items()
            }
        return out

    reports.append(
        conformance(
            "PCL2b fit, default cell side (n = 40)",
            law_default(1.0),
            at_default(1.0, 0),
            at_default(2.0, 10**6),
            law_default(2.0),
            reps,
        )
    )
    return outcome(reports)
