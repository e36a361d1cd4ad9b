"""Exact checks for seed 003 (Berrett–Györfi–Walk): Prop 1 on the law the randomiser samples
(over a Hypothesis strategy of parameters, both values of ``idealised``), that law against the
code that runs (the noise injected, every report compared exactly), the reported level, the
estimators' privacy for the caller's ε, the tightness of the Prop 1 lemmas and the Thm 2
erratum. Privacy claims are compared with the ε the caller passed, never with ``privacy``.

Every check reports a control — the same entry point with a plausible bug of a modest size
(noise for ε × 1.25, a level reported for the per-part budget, a bound understated 2×) — that
its predicate must reject, and its slack (claim against measured).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any, cast

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray

from dpspec.contract import PrivacyLevel
from dpspec.ldp.estimators import LDPPartitionClassifier, LDPPartitionRegressor
from dpspec.ldp.mechanism import (
    MIN_ALPHA,
    UNIT_LAPLACE_SCALE,
    W_ONE,
    LocalRandomiser,
    ReportLaw,
    Reports,
    noise_scales,
    privacy_level,
)
from dpspec.ldp.partition import CubicPartition
from dpspec.noise import DiscreteLaplaceNoise
from dpspec.proofs.engine.controls import BugControl
from dpspec.proofs.engine.registry import (
    OWN_LAW,
    CheckOutcome,
    Control,
    Method,
    Obligation,
    Slack,
    VerifyConfig,
)
from dpspec.proofs.engine.seeds import LDP_REGRESSION
from dpspec.spec.ldp import (
    onehot_change,
    prop1_bound,
    report_log_ratio,
    response_change,
    satisfies_prop1,
)

SEED = 6000

#: The factor of the standard privacy control: the same entry point built for ε × 1.25.
CONTROL_FACTOR = 1.25


def record(x: Any, y: float) -> NDArray[np.float64]:
    """One user's record (x_1..x_d, y), the ``data`` of :meth:`LocalRandomiser.pmf`."""
    return np.append(np.asarray(x, dtype=np.float64).ravel(), y)


def partition(d: int) -> CubicPartition:
    """3 cells [−1.5,−0.5), [−0.5,0.5), [0.5,1.5) for d = 1; the 4 unit squares around 0 (the
    ball of radius 0.6 meets exactly those) for d = 2."""
    if d == 1:
        return CubicPartition(1.0, 1.2, 1, offset=-1.5)
    return CubicPartition(1.0, 0.6, 2, offset=-1.0)


def inputs(part: CubicPartition, m: float) -> list[tuple[list[float], float]]:
    """A point in every cell and one outside, each with responses inside, at and beyond ±M
    (raw responses: the truncation is part of the randomiser under test)."""
    lo, hi = part.cube_bounds()
    points = [((lo[j] + hi[j]) / 2).tolist() for j in range(part.n_cells)]
    points.append([5.0] * part.d)
    ys = [-10 * m, -m, -m / 3, 0.0, m, m * (1 + 1e-9), 10 * m]
    return [(x, y) for x in points for y in ys]


def _units(law: ReportLaw, part: str) -> tuple[int, ...]:
    return tuple(int(c) for c in (law.w_centre if part == "w" else law.z_centre))


def _spec_log_ratio(a: ReportLaw, b: ReportLaw, w: tuple[int, ...], z: tuple[int, ...]) -> Fraction:
    """The log ratio at report (w, z) by the spec's sums (Prop 1's proof, L640–656) on lattice
    units: the W part 2^20·onehot_change(k/2^20, cell, cell')/t_W, the Z part
    response_change(k, …)/t_Z."""

    def cell_and_value(law: ReportLaw) -> tuple[int, int]:
        # the cell is where the W signal is (Z only: where the response is; a zero response
        # leaves no trace and "outside" gives the same law)
        nonzero = [j for j, c in enumerate(law.w_centre or law.z_centre) if c != 0]
        cell = nonzero[0] if nonzero else -1
        return cell, (int(law.z_centre[cell]) if cell >= 0 else 0)

    ca, ya = cell_and_value(a)
    cb, yb = cell_and_value(b)
    total = Fraction(response_change(list(z), ca, ya, cb, yb)) / Fraction(a.scale_z)
    if a.w_centre:
        ws = [Fraction(k, W_ONE) for k in w]
        total += W_ONE * Fraction(onehot_change(ws, ca, cb)) / Fraction(a.scale_w)
    return total


def exact_sup(rand: LocalRandomiser) -> tuple[Fraction, bool]:
    """(sup of the exact log likelihood ratio over every report and every two inputs of
    :func:`inputs`, the spec's sums agree) for the default (lattice) randomiser.

    The law of a report given (x, y) is ``rand.pmf(record(x, y))``: a product of discrete
    Laplace pmfs on the lattice. For laws a, b the log ratio at report k is the exact
    Σ(|k − c_b| − |k − c_a|)/t, maximised at k = c_a (triangle inequality, each coordinate
    separately): evaluating at every input's centre gives the exact sup over all reports.
    The integer distances are computed for every pair at once; the pairs whose float value is
    within 10⁻⁹ of the largest are evaluated as Fractions (every other pair is below them), and
    the spec's sums (L640–656) are compared exactly on a sparse subset of pairs."""
    laws = [rand.pmf(record(x, y)) for x, y in inputs(rand.partition, rand.truncation)]
    first = laws[0]
    if any(
        (law.scale_w, law.scale_z, law.step_w, law.step_z)
        != (first.scale_w, first.scale_z, first.step_w, first.step_z)
        for law in laws
    ):
        return Fraction(10**9), False  # the normalisers would not cancel
    centres_z = np.array([_units(law, "z") for law in laws], dtype=np.int64)
    # d_ab = Σ_j |c_a,j − c_b,j| (the ratio at k = c_a is d_ab/t with the centre's own term 0)
    dz = np.abs(centres_z[:, None, :] - centres_z[None, :, :]).sum(axis=2)
    value = dz / float(first.scale_z)
    dw = np.zeros_like(dz)
    if first.w_centre:
        centres_w = np.array([_units(law, "w") for law in laws], dtype=np.int64)
        dw = np.abs(centres_w[:, None, :] - centres_w[None, :, :]).sum(axis=2)
        value = value + dw / float(first.scale_w)
    top = float(value.max())
    worst = Fraction(-1)
    for i, j in zip(*np.nonzero(value >= top * (1 - 1e-9)), strict=True):
        exact = Fraction(int(dz[i, j])) / Fraction(first.scale_z)
        if first.w_centre:
            exact += Fraction(int(dw[i, j])) / Fraction(first.scale_w)
        worst = max(worst, exact)
    spec_agrees = True
    for i, a in enumerate(laws):  # the exact log weights and the spec's sums, sparse pairs
        b = laws[(i + 7) % len(laws)]
        w, z = _units(a, "w"), _units(a, "z")
        direct = a.log_weight(w, z) - b.log_weight(w, z)
        spec_agrees &= direct == _spec_log_ratio(a, b, w, z) <= worst
    return worst, spec_agrees


def idealised_sup(rand: LocalRandomiser) -> tuple[float, bool]:
    """(sup of the log density ratio of the idealised randomiser's law over :func:`inputs`,
    the spec's closed form agrees). The law ``pmf`` states is a product of Laplace densities
    e^{−|r − c|/b}/(2b) with its own scales b; the ratio at report r is Σ(|r − c_b| −
    |r − c_a|)/b, maximised at r = c_a (every pair at once). The spec's
    ``report_log_ratio`` (Prop 1, unit-variance noise times σ) must give the same number there
    (a sparse subset of pairs)."""
    pairs = inputs(rand.partition, rand.truncation)
    laws = [rand.pmf(record(x, y)) for x, y in pairs]
    cells = [int(c) for c in rand.partition.cell_index(np.array([x for x, _ in pairs]))]
    z = np.array([law.z_centre for law in laws], dtype=np.float64)
    value = np.abs(z[:, None, :] - z[None, :, :]).sum(axis=2) / float(laws[0].scale_z)
    if laws[0].w_centre:
        w = np.array([law.w_centre for law in laws], dtype=np.float64)
        value += np.abs(w[:, None, :] - w[None, :, :]).sum(axis=2) / float(laws[0].scale_w)
    agrees = True
    for i, a in enumerate(laws):
        j = (i + 7) % len(laws)
        b = laws[j]
        wa = list(a.w_centre) if a.w_centre else [0.0] * rand.partition.n_cells
        ya = a.z_centre[cells[i]] if cells[i] >= 0 else 0.0
        yb = b.z_centre[cells[j]] if cells[j] >= 0 else 0.0
        spec = report_log_ratio(
            wa, list(a.z_centre), cells[i], ya, cells[j], yb, rand.sigma_w, rand.sigma_z
        )
        agrees &= math.isclose(float(value[i, j]), spec, rel_tol=1e-9, abs_tol=1e-12)
    return float(value.max()), agrees


def level_of(rand: LocalRandomiser) -> tuple[float, bool]:
    """(the exact privacy level of ``rand``'s law on :func:`inputs`, the spec agrees): a
    Fraction's float on the default path, the float sup on the idealised one."""
    if rand.idealised:
        return idealised_sup(rand)
    worst, agrees = exact_sup(rand)
    return float(worst), agrees


def _within(level: float, epsilon: float, idealised: bool) -> bool:
    """The level is at most the caller's ε (exactly for Fractions; the idealised law is in
    floating point: 1e-12 relative)."""
    return level <= epsilon * (1 + 1e-12) if idealised else level <= epsilon


# ---------------------------------------------------------------------------------------------
# Prop 1 over a strategy of parameters


#: ε: the limits 2^−32 and 700, dyadic and non-dyadic values, and floats in between.
EPSILONS = st.one_of(
    st.sampled_from([MIN_ALPHA, 0.3, 1.0, 2.5, 700.0]),
    st.floats(0.01, 50.0, allow_nan=False, allow_infinity=False),
)
#: M: the limits 2^−256 and 2^256, below and above 1, powers of 2 and not.
TRUNCATIONS = st.one_of(
    st.sampled_from([2.0**-256, 0.7, 1.0, 3.0, 2.0**256]),
    st.floats(0.05, 20.0, allow_nan=False, allow_infinity=False),
)
PARAMETERS = st.tuples(EPSILONS, TRUNCATIONS, st.booleans(), st.sampled_from([1, 2]))


def _examples(config: VerifyConfig) -> int:
    return 60 if config.thorough else 12


@Obligation(
    id="ldp.ldp-randomiser.privacy",
    source=(
        f"{LDP_REGRESSION}:L247-251 (Prop 1); {LDP_REGRESSION}:L136-150 (eqs. 5-7); "
        f"{LDP_REGRESSION}:L640-656 (proof)"
    ),
    claim=(
        "the law of a report (exact lattice randomiser: a product of discrete Laplace "
        "pmfs; idealised: Prop 1's Laplace densities) has log likelihood ratio <= the "
        "epsilon the caller passed between any two inputs, attained up to 1e-5, for "
        "epsilon and M drawn by Hypothesis (their limits included) and both values of "
        "idealised"
    ),
    method=Method.EXACT,
    predicates=(onehot_change, response_change, report_log_ratio, satisfies_prop1),
    impls=(LocalRandomiser, ReportLaw, noise_scales, CubicPartition),
    entry_points=(LocalRandomiser.pmf,),
    tests=("tests/test_ldp.py::test_prop1_on_random_reports",),
    privacy=True,
    binding="exact: ldp.ldp-randomiser.exact-law (pmf is the law randomise draws)",
)
def prop1_exact(config: VerifyConfig) -> CheckOutcome:
    """Prop 1 (L247–251) on the law the randomiser samples, against the ε the caller passed,
    for (ε, M, Z only, d) drawn by Hypothesis (the limits 2^−32 and 700 of ε, 2^±256 of M,
    non-integer ratios) and **both** values of ``idealised``.

    Default (exact) path: the exact sup over all reports of the log likelihood ratio between
    every two inputs (a point in each cell or outside, responses inside, at and beyond ±M) of
    ``pmf`` — the product of discrete Laplace pmfs built from the signal and noise
    ``randomise`` uses (bound to it by ``ldp.ldp-randomiser.exact-law``) — is ≤ ε as a Fraction
    and ≥ ε(1 − 10⁻⁵) (the calibration is tight up to the lattice rounding), and equals the
    spec's sums (L640–656). Idealised path: the log density ratio of its stated law at the
    maximising report is ≤ ε(1 + 10⁻¹²), equals the spec's ``report_log_ratio`` and passes
    ``satisfies_prop1`` at the paper's σ's. Control: on every example the randomiser built for
    ε × 1.25 (both paths) exceeds ε — the calibration is tight, so a modest bug shows."""
    rows: list[str] = []
    worst_slack = math.inf
    failures: list[str] = []
    controls_caught: list[bool] = []

    @settings(
        max_examples=_examples(config),
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(PARAMETERS)
    def run(params: tuple[float, float, bool, int]) -> None:
        nonlocal worst_slack
        epsilon, m, z_only, d = params
        part = partition(d)
        for idealised in (False, True):
            rand = LocalRandomiser(part, epsilon, m, z_only, idealised=idealised)
            level, spec_ok = level_of(rand)
            ok = spec_ok and _within(level, epsilon, idealised)
            ok &= level >= epsilon * (1 - 1e-5)
            if idealised:
                ok &= satisfies_prop1(level, m, *noise_scales(epsilon, m, z_only))
            if not ok:
                failures.append(f"{params} idealised={idealised}: level {level!r} spec {spec_ok}")
            worst_slack = min(worst_slack, epsilon / level if level > 0 else math.inf)
            # below 2^-30 the lattice resolution 2^-32 rounds ε × 1.25 back down to ε
            if epsilon >= 4 * MIN_ALPHA and epsilon * CONTROL_FACTOR <= 700:
                bad = LocalRandomiser(
                    part, epsilon * CONTROL_FACTOR, m, z_only, idealised=idealised
                )
                controls_caught.append(not _within(level_of(bad)[0], epsilon, idealised))
        if len(rows) < 6:
            rows.append(f"(eps={epsilon:.4g}, M={m:.3g}, z_only={z_only}, d={d})")

    run()
    caught = bool(controls_caught) and all(controls_caught)
    return CheckOutcome(
        not failures and caught,
        f"{_examples(config)} Hypothesis examples x 2 paths, e.g. {', '.join(rows)}: exact "
        f"level <= epsilon and >= epsilon(1 - 1e-5), spec sums agree; failures: "
        f"{failures[:3] or 'none'}; control (built for epsilon x 1.25) exceeds epsilon on "
        f"{sum(controls_caught)}/{len(controls_caught)} examples",
        {"failures": failures, "controls": len(controls_caught)},
        [
            Control(
                "LocalRandomiser built with noise for epsilon x 1.25 (both paths)",
                caught,
                f"{sum(controls_caught)}/{len(controls_caught)} examples above epsilon",
            )
        ],
        [Slack("ε", 1.0, 1.0 / worst_slack if worst_slack < math.inf else 0.0)],
    )


# ---------------------------------------------------------------------------------------------
# The law against the code that runs: noise injected, reports compared exactly


class _Injected:
    """Stands for a noise object: returns preset lattice integers, in order."""

    def __init__(self, values: NDArray[np.int64], scale: Fraction) -> None:
        self.values, self.scale, self.used = values, scale, 0

    def sample(self, size: int, rng: np.random.Generator) -> NDArray[np.int64]:
        out = self.values[self.used : self.used + size].copy()
        self.used += size
        if out.size != size:
            raise AssertionError(f"asked {size} draws, {out.size} injected")
        return out


class _InjectedGenerator(np.random.Generator):
    """A numpy Generator whose ``laplace`` returns preset unit-variance Laplace draws (the
    idealised path's only randomness), in order, recording the scales asked."""

    def __init__(self, parts: list[NDArray[np.float64]]) -> None:
        super().__init__(np.random.PCG64(0))
        self.parts, self.scales = list(parts), list[float]()

    def laplace(self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None) -> Any:
        self.scales.append(float(scale))
        return self.parts.pop(0).reshape(size).copy()


def _noise_box(coords: int, radius: int) -> NDArray[np.int64]:
    """Every noise vector in {−radius..radius}^coords, one per row."""
    axis = np.arange(-radius, radius + 1, dtype=np.int64)
    return np.array(list(itertools.product(axis, repeat=coords)), dtype=np.int64)


def _noise_objects_problems(rand: LocalRandomiser) -> list[str]:
    """The noise objects the exact path draws from must be the law's discrete Laplace."""
    problems = []
    for name, noise, scale in (
        ("noise_w", rand.noise_w, None if rand.z_only else rand.scale_w),
        ("noise_z", rand.noise_z, rand.scale_z),
    ):
        if scale is not None and not (
            isinstance(noise, DiscreteLaplaceNoise) and noise.scale == scale
        ):
            problems.append(f"{name} is not the law's discrete Laplace of scale {scale}")
    return problems


def _drive(
    rand: LocalRandomiser, entry: str, x: list[float], y: float, w_noise: Any, z_noise: Any
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The reports of ``entry`` (randomise, sample or collect) for len(z_noise) users with
    input (x, y), with the noise injected (collect: the sums)."""
    rows, big_n = z_noise.shape[0], rand.partition.n_cells
    X, Y = np.array([x] * rows, dtype=np.float64), np.full(rows, y)
    scale = UNIT_LAPLACE_SCALE
    parts = [z_noise * scale] if rand.z_only else [w_noise * scale, z_noise * scale]
    gen = _InjectedGenerator([np.asarray(p, dtype=np.float64) for p in parts])
    saved = rand.noise_w, rand.noise_z
    if not rand.idealised:
        assert rand.scale_z is not None
        injected_w = None if rand.z_only else _Injected(w_noise.ravel(), Fraction(0))
        rand.noise_w = cast(DiscreteLaplaceNoise | None, injected_w)
        rand.noise_z = cast(DiscreteLaplaceNoise, _Injected(z_noise.ravel(), rand.scale_z))
    try:
        if entry == "randomise":
            return rand.randomise(X, Y, gen)
        if entry == "collect":
            sums = rand.collect(X, Y, gen, batch_size=97)
            return np.asarray(sums.w_sum), np.asarray(sums.z_sum)
        out = rand.sample(record(x, y), rows, gen)
        if rand.z_only:
            return np.zeros((rows, big_n)), out
        return out[:, :big_n], out[:, big_n:]
    finally:
        rand.noise_w, rand.noise_z = saved
        if rand.idealised and any(s != UNIT_LAPLACE_SCALE for s in gen.scales):
            raise AssertionError(f"idealised draws at scales {gen.scales}")


def _exact_law_of(rand: LocalRandomiser, radius: int) -> tuple[int, list[str]]:
    """Drive ``randomise``, ``sample`` and (exact path) ``collect`` with every noise vector
    of the box on every input of :func:`inputs`; each report must be step·(centre + noise) of
    ``pmf``'s law, and the noise objects the code draws from must be the law's (their scales).
    Returns (reports compared, problems)."""
    big_n = rand.partition.n_cells
    problems = [] if rand.idealised else _noise_objects_problems(rand)
    compared = 0
    for x, y in inputs(rand.partition, rand.truncation):
        law = rand.pmf(record(x, y))
        box = _noise_box((1 if rand.z_only else 2) * big_n, radius)
        w_noise = np.zeros((box.shape[0], big_n), dtype=np.int64) if rand.z_only else box[:, :big_n]
        z_noise = box[:, -big_n:]
        if rand.idealised:
            expect_w = w_noise * UNIT_LAPLACE_SCALE * rand.sigma_w + np.asarray(
                law.w_centre or [0.0] * big_n
            )
            expect_z = z_noise * UNIT_LAPLACE_SCALE * rand.sigma_z + np.asarray(law.z_centre)
        else:
            expect_z = (z_noise + np.asarray(law.z_centre, dtype=np.int64)) * law.step_z
            expect_w = (
                np.zeros((box.shape[0], big_n))
                if rand.z_only
                else (w_noise + np.asarray(law.w_centre, dtype=np.int64)) * law.step_w
            )
        entries = ("randomise", "sample") if rand.idealised else ("randomise", "sample", "collect")
        for entry in entries:
            w, z = _drive(rand, entry, x, y, w_noise, z_noise)
            if entry == "collect":
                same = np.array_equal(z, expect_z.sum(axis=0)) and np.array_equal(
                    w, expect_w.sum(axis=0)
                )
            elif rand.idealised:  # the same float operations: equal to the last bit
                same = np.array_equal(z, expect_z) and (rand.z_only or np.array_equal(w, expect_w))
            else:
                same = np.array_equal(z, expect_z) and np.array_equal(w, expect_w)
            compared += box.shape[0]
            if not same:
                problems.append(f"{entry} at x={x}, y={y}: reports are not step*(centre + noise)")
    return compared, problems


@Obligation(
    id="ldp.ldp-randomiser.exact-law",
    source=f"{LDP_REGRESSION}:L136-150 (eqs. 5-7: the reports)",
    claim=(
        "randomise, sample and collect, driven with every noise vector of a box on every "
        "input of a tiny domain, return exactly step*(centre + noise) of pmf's law, and "
        "draw from the law's noise objects (exact and idealised, W+Z and Z only)"
    ),
    method=Method.EXACT,
    no_predicate=(
        f"{OWN_LAW}: reports with injected noise against step·(centre + noise) of pmf's law"
    ),
    impls=(LocalRandomiser, Reports),
    entry_points=(
        LocalRandomiser.randomise,
        LocalRandomiser.sample,
        LocalRandomiser.collect,
        LocalRandomiser.pmf,
    ),
    tests=("tests/test_ldp.py::test_reports_on_lattice",),
    privacy=True,
    bug_controls=(
        BugControl(
            "dpspec.ldp.mechanism.LocalRandomiser.__init__",
            "self.noise_z = DiscreteLaplaceNoise(scale=self.scale_z)",
            "self.noise_z = DiscreteLaplaceNoise(scale=self.scale_z * Fraction(4, 5))",
            "the Z noise drawn for epsilon x 1.25 (pmf states epsilon)",
        ),
        BugControl(
            "dpspec.ldp.mechanism.LocalRandomiser._randomise",
            "w_units[rows, own] += W_ONE",
            "w_units[rows, own] += 2 * W_ONE",
            "the sampler adding the W indicator twice (pmf unchanged)",
        ),
    ),
)
def exact_law(config: VerifyConfig) -> CheckOutcome:
    """The law ``pmf`` states is the law of the code that runs, exactly: ``randomise`` (the
    path ``sample``, ``collect`` and ``fit`` take; ``sample`` and ``collect`` call the same
    ``_randomise`` kernel) driven with injected noise — every noise vector of the box
    {−2..2}^coordinates on every input (a point in each cell and outside, responses inside, at
    and beyond ±M) — returns exactly step·(centre + noise) of the stated law, and the noise
    objects it draws from are the law's (discrete Laplace of the law's scales, whose sampler is
    pinned by ``noise.exact-samplers``; idealised: numpy's unit-variance Laplace times
    the law's σ). So ``pmf`` is the law of the reports for any noise law the sampler has. Its
    controls are bug controls planted in the code (the registry entry): the Z noise drawn for
    ε × 1.25, the W indicator added twice by the sampler."""
    part = CubicPartition(1.0, 0.9, 1, offset=-1.0)  # cells [−1, 0) and [0, 1)
    total, problems = 0, []
    for idealised, z_only in itertools.product((False, True), (False, True)):
        rand = LocalRandomiser(part, 1.0, 1.0, z_only, idealised=idealised)
        compared, found = _exact_law_of(rand, 2)
        total += compared
        problems += [f"idealised={idealised} z_only={z_only}: {p}" for p in found]
    return CheckOutcome(
        not problems,
        f"{total} reports (W+Z and Z only, exact and idealised) equal step*(centre + noise) of "
        f"pmf's law; noise objects are the law's; problems: {problems[:3] or 'none'}",
        {"reports": total, "problems": problems},
        slack=[Slack("reports differing from the stated law", 0.0, float(len(problems)))],
    )


# ---------------------------------------------------------------------------------------------
# The reported level


class _BudgetReported(LocalRandomiser):
    """Control: a randomiser whose ``privacy`` states the per-part budget ε/2 of the lattice
    calibration instead of the ε asked (a plausible slip: the W and Z parts get ε/2 each)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        half = self.epsilon / 2
        self.privacy = PrivacyLevel(
            half, math.exp(half), 0, self.privacy.exact_sampler, self.privacy.relation
        )


def _reports_asked(rand: LocalRandomiser, epsilon: float, idealised: bool) -> bool:
    lv = rand.privacy
    return (
        lv.epsilon == epsilon
        and lv.ratio == math.exp(epsilon)
        and lv.delta == 0
        and lv.exact_sampler is (not idealised)
    )


@Obligation(
    id="ldp.ldp-randomiser.reported-level",
    source=f"{LDP_REGRESSION}:L247-251 (Prop 1: the level alpha = epsilon)",
    claim=(
        "privacy (randomiser) and privacy_ (fitted estimators) state exactly the epsilon "
        "asked, Prop 1's level at the paper's calibration; the exact lattice level is in "
        "[epsilon(1 - 1e-5), epsilon]"
    ),
    method=Method.EXACT,
    predicates=(prop1_bound,),
    impls=(LocalRandomiser, noise_scales, privacy_level),
    entry_points=(
        "dpspec.ldp.mechanism.LocalRandomiser.__init__",
        LDPPartitionRegressor.fit,
        LDPPartitionClassifier.fit,
    ),
    tests=("tests/test_ldp.py::test_estimators_follow_sklearn_conventions",),
    privacy=True,
)
def reported_level(config: VerifyConfig) -> CheckOutcome:
    """``privacy`` of the randomiser and ``privacy_`` of fitted estimators state exactly the ε
    the caller passed (ε, ratio e^ε, δ = 0), with ``exact_sampler`` True only for the lattice
    randomiser run user by user; that is the theorem's level: Prop 1's bound
    2^{3/2}/σ_W + 2^{3/2}M/σ_Z at the paper's calibration (σ's of ``noise_scales``) is ε, and
    the exact level of the lattice law (``effective_epsilon``) is in [ε(1 − 10⁻⁵), ε].
    Control: a randomiser reporting the per-part budget ε/2 — the comparison with the
    caller's ε catches it."""
    ok, bad = True, list[tuple[Any, ...]]()
    slack = math.inf
    for epsilon, m, z_only in itertools.product((0.3, 1.0, 2.5), (0.7, 1.0, 3.0), (False, True)):
        for idealised in (False, True):
            rand = LocalRandomiser(partition(1), epsilon, m, z_only, idealised=idealised)
            this = _reports_asked(rand, epsilon, idealised)
            theorem = prop1_bound(m, *noise_scales(epsilon, m, z_only))
            this &= math.isclose(theorem, epsilon, rel_tol=1e-12)
            this &= math.isclose(
                privacy_level(*noise_scales(epsilon, m, z_only), m), epsilon, rel_tol=1e-12
            )
            if not idealised:
                eff = rand.effective_epsilon
                this &= isinstance(eff, Fraction) and epsilon * (1 - 1e-5) <= eff <= Fraction(
                    epsilon
                )
                slack = min(slack, epsilon / float(eff))
            if not this:
                bad.append((epsilon, m, z_only, idealised))
            ok &= this
    rng = np.random.default_rng(SEED + 4)
    X = rng.uniform(-1, 1, (200, 1))
    y = rng.uniform(-2, 2, 200)
    labels = np.where(y > 0, 1, -1)
    for epsilon, simulate, idealised in itertools.product(
        (0.5, 2.0), ("users", "in-law"), (False, True)
    ):
        kwargs: dict[str, Any] = {"h": 0.5, "simulate": simulate, "idealised": idealised}
        for est in (
            LDPPartitionRegressor(epsilon, random_state=1, **kwargs).fit(X, y),
            LDPPartitionClassifier(epsilon, random_state=1, **kwargs).fit(X, labels),
        ):
            lv = est.privacy_
            this = (
                lv.epsilon == epsilon
                and lv.ratio == math.exp(epsilon)
                and lv.delta == 0
                and lv.exact_sampler is (not idealised and simulate == "users")
                and est.randomiser_.privacy.epsilon == epsilon
            )
            if not this:
                bad.append((type(est).__name__, epsilon, simulate, idealised))
            ok &= this
    control = _BudgetReported(partition(1), 1.0, 1.0)
    caught = not _reports_asked(control, 1.0, False)
    return CheckOutcome(
        ok and caught,
        f"randomisers (epsilon in 0.3, 1, 2.5; M in 0.7, 1, 3; W+Z and Z only; exact and "
        f"idealised) and fitted estimators report the epsilon asked, the theorem's level; "
        f"mismatches: {bad or 'none'}; control reporting the per-part budget "
        f"{control.privacy.epsilon} != 1: caught {caught}",
        {"mismatches": [str(b) for b in bad]},
        [
            Control(
                "LocalRandomiser.privacy stating the per-part budget epsilon/2",
                caught,
                f"reports {control.privacy.epsilon}",
            )
        ],
        [Slack("ε (asked / exact lattice level)", 1.0, 1.0 / slack)],
    )


# ---------------------------------------------------------------------------------------------
