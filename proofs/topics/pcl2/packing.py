"""Checks of the public packings PCL2 and PCL2b partition by (seed 000 App. A, Defs A.2–A.3,
Thm A.4, Lemma A.8): the cubic lattice, the greedy maximal packing, the diameter of Voronoi
cells.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpspec.learners.packing import (
    CubicLattice,
    Metric,
    greedy_maximal_packing,
    nearest_centre,
    pairwise_distances,
)
from dpspec.proofs.engine.controls import BugControl
from dpspec.proofs.engine.registry import (
    RECOMPUTED,
    STATED_BOUND,
    CheckOutcome,
    Control,
    Method,
    Obligation,
    Slack,
    VerifyConfig,
    stop_if_failed,
)
from dpspec.proofs.engine.seeds import BAYES_CONSISTENCY

SEED = 4000


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


@Obligation(
    id="pcl2.packing.lattice",
    source=(
        f"{BAYES_CONSISTENCY}:L431-446 (Defs A.2-A.3, Thm A.4); {BAYES_CONSISTENCY}:L513 (Thm A.11)"
    ),
    claim=(
        "the cubic lattice of spacing s is an s-packing and an (s√d/2)-cover, maximal "
        "iff d ≤ 3, and its Voronoi cells are its cubes"
    ),
    method=Method.PROPERTY,
    no_predicate=(
        f"{RECOMPUTED}: separation, covering radius and Voronoi cells by brute-force distances"
    ),
    impls=(CubicLattice,),
    tests=(
        "tests/test_pcl2.py::test_lattice_is_packing_and_cover",
        "tests/test_pcl2.py::test_lattice_voronoi_cells_are_cubes",
    ),
    bug_controls=(
        BugControl(
            CubicLattice.covering_radius,
            "return float(self.spacing) * math.sqrt(self.dim) / 2.0",
            "return float(self.spacing) * math.sqrt(self.dim) / 2.2",
            "the covering radius understated by 10% (s√d/2.2)",
        ),
        BugControl(
            CubicLattice.is_maximal,
            "return self.dim <= 3",
            "return self.dim <= 4",
            "maximal claimed up to d = 4 (one dimension too many)",
        ),
    ),
)
def lattice_packing_facts(config: VerifyConfig) -> CheckOutcome:
    """Unit-cube lattices (d ≤ 5, m ≤ 5): an s-packing (min centre distance = s), an
    (s√d/2)-cover attained at the cell corners, Voronoi cells = the cubes, maximal iff d ≤ 3;
    the ℝ^d lattice: each point's own cube centre is nearest among its 3^d neighbours, within
    s√d/2. Controls: covering radius claimed 0.99·s√d/2 and "maximal at d = 4" are caught.
    Under a bug control the check ends at the first problem and the controls are not run."""
    rng = np.random.default_rng(SEED)
    problems: list[str] = []
    rows = []
    cover_ratio = separation_ratio = 0.0
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
            cover_ratio = max(cover_ratio, facts["cover"] / cover)
            if m > 1:
                separation_ratio = max(separation_ratio, s / facts["separation"])
            if not (sep_ok and cover_ok and tight and maximal_ok and facts["voronoi_is_cube"]):
                problems.append(f"d={d} m={m}: {facts | {'nearest_index': None}}")
                stop_if_failed(config, False, problems[-1])
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
            stop_if_failed(config, False, problems[-1])
    if config.under_control:  # no problem (the first one ended the check above)
        return CheckOutcome(True, f"under a bug control: {len(rows)} lattices, no problem")
    # controls
    corner_d2 = lattice_facts(3, 2, rng)["cover"]
    small_cover_caught = corner_d2 > 0.99 * CubicLattice.unit_cube(3, 2).covering_radius
    d4_caught = lattice_facts(2, 4, rng)["corner_addable"]
    ok = not problems and small_cover_caught and d4_caught
    return CheckOutcome(
        ok,
        f"{len(rows)} lattices (d, m) checked; problems: {problems}; the cover is attained "
        f"(measured / s√d/2 = {cover_ratio:.12g}; a claim 0.99·s√d/2 would fail: "
        f"{small_cover_caught}); a corner can be added at d = 4: {d4_caught}",
        {"lattices": rows, "problems": problems},
        slack=[
            Slack("covering radius s√d/2 (measured: farthest point)", 1.0, cover_ratio),
            Slack("s / min centre distance (≤ 1: an s-packing)", 1.0, separation_ratio),
        ],
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


@Obligation(
    id="pcl2.packing.greedy-maximal",
    source=(
        f"{BAYES_CONSISTENCY}:L435-439 (Def A.3, maximal packing); "
        f"{BAYES_CONSISTENCY}:L466-476 (Alg 4 step 3)"
    ),
    claim=(
        "greedy reduction of a public candidate set is an r-packing (distances ≥ r), "
        "maximal in that set (every candidate < r from a centre), ties at r included"
    ),
    method=Method.PROPERTY,
    no_predicate=f"{RECOMPUTED}: packing and maximality of the output by brute-force distances",
    impls=(greedy_maximal_packing, nearest_centre, pairwise_distances),
    tests=(
        "tests/test_pcl2.py::test_greedy_packing_is_maximal",
        "tests/test_pcl2.py::test_nearest_centre_blocks_and_ties",
    ),
    bug_controls=(
        BugControl(
            "dpspec.learners.packing._greedy",
            "remaining = rest[inner[i, rest] >= radius]",
            "remaining = rest[inner[i, rest] > radius]",
            "a candidate at distance exactly r from a kept one dropped (> for ≥)",
        ),
        BugControl(
            "dpspec.learners.packing._greedy",
            "alive = alive[dist >= radius]",
            "alive = alive[dist > radius]",
            "across chunks, a candidate at distance exactly r dropped (> for ≥)",
        ),
    ),
)
def greedy_packing_facts(config: VerifyConfig) -> CheckOutcome:
    """greedy_maximal_packing on random public candidate sets (d ∈ {1, 2, 3}; euclidean,
    chebyshev, cityblock, a callable metric; chunk sizes 7 and 1024; small distance budgets
    for nearest_centre): an r-packing, maximal in the candidate set (every candidate < r from a
    centre), independent of chunking; an r-packing passes through unchanged. Controls: the
    output minus one centre (not maximal) and plus a near duplicate (not a packing) caught.
    Under a bug control the check ends at the first problem and the controls are not run."""
    rng = np.random.default_rng(SEED + 1)
    trials = 60 if config.thorough else 24
    metrics: list[Metric] = ["euclidean", "chebyshev", "cityblock", _scaled_euclidean]
    problems: list[str] = []
    caught_drop = caught_dup = 0
    sizes = []
    worst = 0.0  # r / min centre distance, ≤ 1 for a packing
    grid = np.indices((8, 8)).reshape(2, -1).T.astype(np.float64)  # distances exactly r = 1, 2
    tied: list[tuple[NDArray[np.float64], float, Metric]] = [
        (grid, 1.0, "euclidean"),
        (grid, 2.0, "euclidean"),
        (grid, 2.0, "chebyshev"),
    ]
    for t in range(trials + len(tied)):
        if t < len(tied):  # candidates at distance exactly r: kept (≥ r), never dropped
            cand, r, metric = tied[t]
            d = 2
        else:
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
            stop_if_failed(config, False, problems[-1])
        sizes.append(centres.shape[0])
        worst = max(worst, r / _min_separation(centres, metric))
        if centres.shape[0] >= 2 and not config.under_control:
            caught_drop += not packing_violations(cand, centres[:-1], r, metric)[1]
            dup = np.concatenate([centres, centres[:1] + r / 10])
            caught_dup += not packing_violations(cand, dup, r, metric)[0]
    multi = sum(s >= 2 for s in sizes)
    if config.under_control:  # no problem (the first one ended the check above)
        return CheckOutcome(multi > trials // 2, f"under a bug control: {multi} sets, no problem")
    ok = not problems and caught_drop == multi and caught_dup == multi and multi > trials // 2
    return CheckOutcome(
        ok,
        f"{len(sizes)} candidate sets ({len(tied)} with distances exactly r; centres "
        f"{min(sizes)}..{max(sizes)}); problems: {problems}; the predicates see a dropped "
        f"centre {caught_drop}/{multi} and a near duplicate {caught_dup}/{multi}",
        {"centres": sizes, "problems": problems},
        slack=[Slack("r / min centre distance (≤ 1: an r-packing)", 1.0, worst)],
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


@Obligation(
    id="pcl2.packing.cell-diameter",
    source=f"{BAYES_CONSISTENCY}:L462-476 (Lemma A.8 and its proof)",
    claim=(
        "Voronoi cells of a maximal r-packing have diameter ≤ 2r (the proof's last line "
        "'≤ r' is false: a d = 2 lattice counterexample)"
    ),
    method=Method.PROPERTY,
    no_predicate=f"{STATED_BOUND}: Voronoi cell diameters by brute force against Lemma A.8's 2r",
    impls=(CubicLattice, greedy_maximal_packing),
    tests=("tests/test_pcl2.py::test_lemma_a8_last_line_counterexample",),
)
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
    bound = f"diam ≤ r refuted: {refuted} (1-D cell {line_diam:.3f} > 1, square {square_diam:.4f})"
    return CheckOutcome(
        ok,
        f"diam ≤ 2r on every maximal packing checked (worst diam/r = {worst_ratio:.4f}); "
        f"problems: {problems}; last line 'diam ≤ r' refuted: lattice s=1/2 in [0,1]^2, "
        f"(0,0) and (0.49,0.49) in one cell at distance {square_diam:.4f} > 0.5 "
        f"(maximal: {square_maximal}); 1-D packing "
        f"{{0.95, 2.85}} of [0, 3.8], r=1: cell diameter {line_diam:.3f} > 1 "
        f"(maximal: {line_maximal})",
        {"worst_diam_over_r": worst_ratio, "square_diam": square_diam, "line_diam": line_diam},
        [
            Control(
                "the bound understated 2× (the last line of the proof, L476)", bool(refuted), bound
            )
        ],
        [Slack("diam / r (Lemma A.8: ≤ 2)", 2.0, max(worst_ratio, line_diam))],
    )
