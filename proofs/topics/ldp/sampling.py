"""Statistical checks for seed 003: the reports of the real entry points against the exact law
(chi-square on bin patterns), the tight witness audited, and the in-law simulation of the
server's sums. Each states its false-alarm probability (α = 10⁻⁶, fixed seeds so verdicts
reproduce) and its power against the same entry point built for ε × 1.25, which it must
reject.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy import stats

from dpspec.ldp.mechanism import W_ONE, LocalRandomiser, ReportLaw, Reports, aggregate
from dpspec.ldp.partition import CubicPartition
from dpspec.proofs.engine.registry import (
    DIFFERENTIAL,
    OWN_LAW,
    CheckOutcome,
    Control,
    Method,
    Obligation,
    Slack,
    VerifyConfig,
)
from dpspec.proofs.engine.seeds import LDP_REGRESSION
from dpspec.proofs.engine.stats import ALPHA, binomial_pvalue, chisquare_gof
from dpspec.proofs.topics.ldp.checks import CONTROL_FACTOR, record

SEED = 6100

#: bin edges of each report coordinate, in units of its noise scale b around its centre
BIN_EDGES = (-1.0, -0.3, 0.3, 1.0)


def _coordinates(law: ReportLaw) -> list[tuple[str, int]]:
    return [("w", j) for j in range(len(law.w_centre))] + [
        ("z", j) for j in range(len(law.z_centre))
    ]


def _edges(law: ReportLaw) -> list[list[float]]:
    """Per coordinate, the bin edges centre + b·:data:`BIN_EDGES` in real units."""
    out = []
    for part, j in _coordinates(law):
        centre = (law.w_centre if part == "w" else law.z_centre)[j]
        step = law.step_w if part == "w" else law.step_z
        b = float(law.scale_w if part == "w" else law.scale_z) * step
        out.append([float(centre) * step + b * t for t in BIN_EDGES])
    return out


def pattern_law(bins_of: ReportLaw, law: ReportLaw) -> dict[int, float]:
    """The law, under ``law``, of the report's bin pattern on the bins of ``bins_of`` (each
    coordinate in one of 5 bins, coded in base 5): coordinates are independent, so the pmf is
    a product of per-coordinate interval probabilities."""
    probs = []
    for (part, j), e in zip(_coordinates(bins_of), _edges(bins_of), strict=True):
        bounds = [-math.inf, *e, math.inf]
        probs.append(
            [law.interval_probability(part, j, lo, hi) for lo, hi in itertools.pairwise(bounds)]
        )
    pmf: dict[int, float] = {}
    for digits in itertools.product(range(len(BIN_EDGES) + 1), repeat=len(probs)):
        code = sum(dg * 5**i for i, dg in enumerate(digits))
        pmf[code] = math.prod(probs[i][dg] for i, dg in enumerate(digits))
    return pmf


def pattern(bins_of: ReportLaw, w: Any, z: Any) -> NDArray[np.int64]:
    """The bin patterns of reports (W, Z) (rows), on the bins of ``bins_of``."""
    cols = [np.asarray(w if part == "w" else z)[:, j] for part, j in _coordinates(bins_of)]
    code = np.zeros(len(cols[0]), dtype=np.int64)
    for i, (col, e) in enumerate(zip(cols, _edges(bins_of), strict=True)):
        code += np.searchsorted(np.array(e), col, side="right").astype(np.int64) * 5**i
    return code


def _power(pmf: dict[int, float], alternative: dict[int, float], n: int) -> float:
    """Approximate power of the level-1e-6 chi-square test of ``pmf`` with n draws from
    ``alternative`` (non-central chi-square over the bins with n·p ≥ 5, the rest pooled)."""
    keys = [k for k, p in pmf.items() if p * n >= 5]
    rest_p = 1 - sum(pmf[k] for k in keys)
    rest_q = 1 - sum(alternative.get(k, 0.0) for k in keys)
    lam = sum(n * (alternative.get(k, 0.0) - pmf[k]) ** 2 / pmf[k] for k in keys)
    dof = len(keys) - 1
    if rest_p * n >= 5:
        lam += n * (rest_q - rest_p) ** 2 / rest_p
        dof += 1
    return float(stats.ncx2.sf(stats.chi2.isf(ALPHA, dof), dof, lam))


def _draw_users(
    rand: LocalRandomiser, path: str, x: list[float], y: float, n: int, rng: np.random.Generator
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """n users with input (x, y) through the real entry point: ``randomise`` in one call,
    ``sample`` (one record, n reports), or the batched path ``collect`` (and so ``fit``)
    takes."""
    X, Y = np.array([x] * n, dtype=np.float64), np.full(n, y)
    if path == "randomise":
        return rand.randomise(X, Y, rng)
    if path == "sample":
        out = rand.sample(record(x, y), n, rng)
        big_n = rand.partition.n_cells
        return (np.zeros((n, big_n)), out) if rand.z_only else (out[:, :big_n], out[:, big_n:])
    parts = list(rand._batches(X, Y, rng, 777))
    return np.vstack([p[0] for p in parts]), np.vstack([p[1] for p in parts])


#: (label, idealised, z_only, path, x, y, draws, with the ε × 1.25 control)
CONFORMANCE_CASES: tuple[tuple[str, bool, bool, str, list[float], float, int, bool], ...] = (
    ("exact randomise, cell 0, y = 3M", False, False, "randomise", [-0.5], 3.0, 20_000, True),
    ("exact collect path, cell 1, y = -0.37", False, False, "batches", [0.5], -0.37, 20_000, True),
    ("exact sample, outside", False, False, "sample", [4.0], 0.8, 10_000, False),
    ("exact Z only, cell 1, y = -1", False, True, "randomise", [0.5], -1.0, 20_000, True),
    ("idealised randomise, cell 0, y = 3M", True, False, "randomise", [-0.5], 3.0, 20_000, True),
)


@Obligation(
    id="ldp.ldp-randomiser.law",
    source=(
        f"{LDP_REGRESSION}:L136-150 (eqs. 5-7: the reports); {LDP_REGRESSION}:L247-251 (Prop 1)"
    ),
    claim=(
        "randomise, sample and the batched path of collect/fit (exact and idealised, W+Z "
        "and Z only) draw from pmf's law (chi-square at alpha = 1e-6; the randomiser "
        "built for epsilon x 1.25 is rejected)"
    ),
    method=Method.STATISTICAL,
    no_predicate=(
        f"{OWN_LAW}: the entry points' report patterns against pmf's product law (chi-square)"
    ),
    impls=(LocalRandomiser, ReportLaw),
    entry_points=(LocalRandomiser.randomise, LocalRandomiser.sample),
    tests=("tests/test_ldp.py::test_reports_on_lattice",),
    privacy=True,
)
def randomiser_conformance(config: VerifyConfig) -> CheckOutcome:
    """The law :meth:`LocalRandomiser.pmf` states (the one ``ldp.ldp-randomiser.privacy`` decides
    privacy on) is the law of the real entry points, by a test with power against a modest
    bug: users with a fixed input run through ``randomise``, ``sample`` or the batched path
    ``collect`` (and ``fit``) takes; each report's 5-bin pattern per coordinate (5^(2N)
    patterns, N = 2 cells) is tested against the exact product law by chi-square at α = 1e-6
    (merged bins, :mod:`dpspec.proofs.engine.stats`). Cases: a response beyond M
    (truncation), another cell, a point outside every cell, the Z-only randomiser, the
    idealised path. Control: the same entry point built for ε × 1.25 must be rejected against
    the ε law (the approximate power against it is reported). The exact equality of the
    reports with step·(centre + noise) is ``ldp.ldp-randomiser.exact-law``; this check adds the
    noise samplers' draws."""
    rng = np.random.default_rng(SEED)
    part = CubicPartition(1.0, 0.9, 1, offset=-1.0)  # cells [−1, 0) and [0, 1)
    scale = 2 if config.thorough else 1
    rows, ok, numbers = [], True, []
    controls: list[Control] = []
    smallest = 1.0
    for label, idealised, z_only, path, x, y, draws, control in CONFORMANCE_CASES:
        draws *= scale
        rand = LocalRandomiser(part, 1.0, 1.0, z_only, idealised=idealised)
        law = rand.pmf(record(x, y))
        pmf = pattern_law(law, law)
        W, Z = _draw_users(rand, path, x, y, draws, rng)
        gof = chisquare_gof(pattern(law, W, Z), pmf)
        smallest = min(smallest, gof.pvalue)
        case_ok = not gof.rejected
        text = f"{label}: p={gof.pvalue:.3g} ({gof.cells} bins, {draws} draws)"
        entry: dict[str, Any] = {"case": label, "pvalue": gof.pvalue}
        if control:
            bad = LocalRandomiser(part, CONTROL_FACTOR, 1.0, z_only, idealised=idealised)
            Wc, Zc = _draw_users(bad, path, x, y, draws, rng)
            c_gof = chisquare_gof(pattern(law, Wc, Zc), pmf)
            power = _power(pmf, pattern_law(law, bad.pmf(record(x, y))), draws)
            case_ok &= c_gof.rejected
            controls.append(
                Control(
                    f"{label}: noise for epsilon x 1.25",
                    c_gof.rejected,
                    f"p = {c_gof.pvalue:.2g} < 1e-6 (power {power:.4f})",
                )
            )
            text += f", epsilon x 1.25 control p={c_gof.pvalue:.2g} (power {power:.4f})"
            entry.update({"control_pvalue": c_gof.pvalue, "power": power})
        ok &= case_ok
        rows.append(text)
        numbers.append(entry)
    return CheckOutcome(
        ok,
        "; ".join(rows),
        {"cases": numbers},
        controls,
        [Slack("chi-square p-value (must exceed 1e-6)", smallest, ALPHA)],
    )


def witness_probabilities(epsilon: float, m: float) -> tuple[float, float, Fraction]:
    """P(E | x, y), P(E | x', y') and the exact log ratio for the witness event
    E = {w_0 ≥ 1, w_1 ≤ 0, z_0 ≥ M, z_1 ≥ 0}, x ∈ A_0, y = M vs x' ∈ A_1, y' = −M, from the
    lattice law of ``pmf`` (M a power of 2, so M is on the lattice): in lattice units every
    coordinate sits at the edge of its half-line under (x, y), P = 1/(1 + q) each; under
    (x', y') each is a tail q^s/(1 + q) at its sensitivity s (2^20 for W, M/γ_Z for Z)."""
    rand = LocalRandomiser(CubicPartition(1.0, 0.9, 1, offset=-1.0), epsilon, m)
    a, b = rand.pmf(record([-0.5], m)), rand.pmf(record([0.5], -m))

    def event(law: ReportLaw) -> float:
        return (
            law.interval_probability("w", 0, 1.0, math.inf)
            * law.interval_probability("w", 1, -math.inf, math.nextafter(0.0, 1.0))
            * law.interval_probability("z", 0, m, math.inf)
            * law.interval_probability("z", 1, 0.0, math.inf)
        )

    exponent = a.log_weight(a.w_centre, a.z_centre) - b.log_weight(a.w_centre, a.z_centre)
    return event(a), event(b), exponent


class _WitnessView:
    """The real ``LocalRandomiser.sample`` followed by the (public) witness test, a
    post-processing: outputs the 4-bit pattern (w_0 ≥ 1, w_1 ≤ 0, z_0 ≥ M, z_1 ≥ 0) of a report
    on the 2 cells [−1, 0), [0, 1)."""

    def __init__(self, epsilon: float, m: float) -> None:
        self.rand = LocalRandomiser(CubicPartition(1.0, 0.9, 1, offset=-1.0), epsilon, m)
        self.m = m

    def sample(self, data: Any, n: int, rng: np.random.Generator) -> NDArray[np.int64]:
        x, y = data
        out = self.rand.sample(record([x], y), n, rng)  # columns W_0, W_1, Z_0, Z_1
        bits = np.column_stack(
            [out[:, 0] >= 1, out[:, 1] <= 0, out[:, 2] >= self.m, out[:, 3] >= 0]
        )
        return np.asarray(bits.astype(np.int64) @ np.array([8, 4, 2, 1]))


@Obligation(
    id="ldp.ldp-randomiser.tight-witness",
    source=f"{LDP_REGRESSION}:L247-251 (Prop 1; the witness is derived in the digest)",
    claim=(
        "the witness event's probabilities have ratio e^epsilon (exact lattice law, "
        "about 1/16 and e^-epsilon/16); sample matches; the auditor finds eps close to "
        "epsilon and flags the randomiser built for epsilon x 1.25"
    ),
    method=Method.STATISTICAL,
    predicates=("dpspec.audit.bounds._epsilon_lower",),
    impls=(LocalRandomiser,),
    entry_points=(LocalRandomiser.sample,),
    tests=("tests/test_ldp.py::test_two_party_api",),
    privacy=True,
)
def witness_audit(config: VerifyConfig) -> CheckOutcome:
    """The tight witness three ways (ε = 1, M = 1) on the default lattice randomiser: exactly,
    P(E|x,y)/P(E|x',y') = e^{effective ε} with the effective ε ∈ [ε(1 − 10⁻⁵), ε]
    (P(E|x,y) = (1 + q_W)^{−2}(1 + q_Z)^{−2} ≈ 1/16); ``sample``'s frequency of E matches
    (binomial test, α = 1e-6); and the auditor on the pair (x ∈ A_0, y = M) vs
    (x' ∈ A_1, y' = −M), testing E, finds ε_LCB close to ε without a violation. Control: the
    randomiser built for ε × 1.25 audited against ε is flagged."""
    from dpspec.audit import audit
    from dpspec.audit.core import Event

    p, q, exponent = witness_probabilities(1.0, 1.0)
    exact = 1 - Fraction(1, 10**5) <= exponent <= 1
    exact &= math.isclose(math.log(p / q), float(exponent), rel_tol=1e-9)
    view = _WitnessView(1.0, 1.0)
    rng = np.random.default_rng(SEED + 1)
    draws = 100_000
    hits = int(np.count_nonzero(view.sample((-0.5, 1.0), draws, rng) == 15))
    pval = binomial_pvalue(hits, draws, p)
    pair = ((-0.5, 1.0), (0.5, -1.0))  # cells 0 and 1
    samples = 10**6 if config.thorough else 100_000
    event = Event("atoms", (15,))
    honest = audit(view, pair, 1.0, samples=samples, seed=SEED, event=event)
    mutant = audit(
        _WitnessView(CONTROL_FACTOR, 1.0), pair, 1.0, samples=samples, seed=SEED, event=event
    )
    ok = exact and pval > ALPHA and not honest.violation and honest.epsilon_lower >= 0.8
    return CheckOutcome(
        ok and mutant.violation,
        f"exact P(E|x,y) = {p:.6g}, P(E|x',y') = {q:.6g} (log ratio {float(exponent):.9f} "
        f"exactly); sampled {hits}/{draws} (p = {pval:.2g}); audit eps_LCB "
        f"{honest.epsilon_lower:.4f} (epsilon = 1, {samples} draws per side, flagged "
        f"{honest.violation}); built for epsilon x 1.25 flagged {mutant.violation} (eps_LCB "
        f"{mutant.epsilon_lower:.3f})",
        {"audit_lower": honest.epsilon_lower, "mutant_lower": mutant.epsilon_lower},
        [
            Control(
                "LocalRandomiser built for epsilon x 1.25, audited at epsilon",
                mutant.violation,
                f"eps_LCB {mutant.epsilon_lower:.3f} > 1",
            )
        ],
        [Slack("ε (claim / exact witness ratio)", 1.0, float(exponent))],
    )


def _noise_units(sums: NDArray[np.float64], signal: float, step: float) -> NDArray[np.float64]:
    """A cell's noise total in lattice units (the sums are exact multiples of the step)."""
    return np.asarray(sums / step - signal)


def _variance_z(noise: NDArray[np.float64], variance: float, excess_kurtosis: float) -> float:
    """z statistic of the sample variance of ``noise`` against the exact ``variance``: the
    sample variance has relative variance ≈ 2/(N − 1) + κ/N (κ the excess kurtosis)."""
    n = noise.size
    ratio = float(np.var(noise, ddof=1)) / variance
    return (ratio - 1.0) / math.sqrt(2.0 / (n - 1) + excess_kurtosis / n)


#: |z| beyond which the variance test rejects (two-sided normal, α = 1e-6)
Z_CRITICAL = float(stats.norm.isf(ALPHA / 2))


@Obligation(
    id="ldp.in-law-simulation",
    source=f"{LDP_REGRESSION}:L136-150 (eqs. 5-7: the aggregated reports)",
    claim=(
        "drawing each cell's noise total as NB(n, 1-q) - NB(n, 1-q) lattice units (exact "
        "path) or sigma (Gamma(n,1/sqrt2) - Gamma(n,1/sqrt2)) (idealised) has the law of "
        "the sums of n users' reports (KS) and their exact variance; epsilon x 1.25 is "
        "rejected"
    ),
    method=Method.STATISTICAL,
    no_predicate=(
        f"{DIFFERENTIAL}: collect_in_law against collect (KS) and the sums' exact variance"
    ),
    impls=(Reports, aggregate),
    entry_points=(LocalRandomiser.collect_in_law, LocalRandomiser.collect),
    tests=("tests/test_ldp.py::test_collect_in_batches",),
    privacy=True,
)
def in_law_equivalence(config: VerifyConfig) -> CheckOutcome:
    """``collect_in_law`` has the law of ``collect`` (one randomiser per user), default path:
    a cell's W and Z noise totals for 25 users, over 300 replicates of ``collect`` and 1500 of
    ``collect_in_law`` (fixed seed), have (i) the same law (two-sample KS, α = 1e-6) and
    (ii) the exact variance of a sum of 25 discrete Laplace variables of the law's scale,
    25·2q/(1 − q)² lattice units² (z-test of the sample variance, α = 1e-6, normal
    approximation with the sum's excess kurtosis 3/25). Idealised path: σ(Gamma − Gamma)
    against numpy Laplace (KS), variance 25·σ². Control: the in-law totals of the randomiser
    built for ε × 1.25 (variance × 0.64) are rejected by the variance test (power ≈ 1: the
    expected |z| is about 10)."""
    part = CubicPartition(1.0, 0.9, 1, offset=-1.0)
    rng = np.random.default_rng(SEED + 2)
    reps = 1200 if config.thorough else 300
    n = 25
    X = rng.random((n, 1)) - 0.5
    y = rng.uniform(-1.5, 1.5, n)
    pvals, zs = [], []
    control_z = 0.0
    for idealised in (False, True):
        rand = LocalRandomiser(part, 1.0, 1.0, idealised=idealised)
        by_user = [rand.collect(X, y, rng, batch_size=n) for _ in range(reps)]
        in_law = [rand.collect_in_law(X, y, rng) for _ in range(5 * reps)]
        cell = int(part.cell_index(X[:1])[0])
        inside = part.cell_index(X) == cell
        clipped = np.clip(y[inside], -1.0, 1.0)
        for attr, signal_real in (("w_sum", float(inside.sum())), ("z_sum", float(clipped.sum()))):
            a = np.array([getattr(r, attr)[cell] for r in by_user])
            b = np.array([getattr(r, attr)[cell] for r in in_law])
            pvals.append(float(stats.ks_2samp(a, b).pvalue))
            if idealised:
                sigma = rand.sigma_w if attr == "w_sum" else rand.sigma_z
                variance = n * sigma**2
                na, nb = a - signal_real, b - signal_real
                kurtosis = 3.0 / n
            else:
                step = rand.step_w if attr == "w_sum" else rand.step_z
                scale = rand.scale_w if attr == "w_sum" else rand.scale_z
                assert scale is not None
                units = signal_real * (W_ONE if attr == "w_sum" else 1.0 / step)
                if attr == "z_sum":
                    units = float(np.rint(clipped / step).sum())
                q = math.exp(-1.0 / float(scale))
                variance = n * 2 * q / (1 - q) ** 2
                na, nb = _noise_units(a, units, step), _noise_units(b, units, step)
                kurtosis = 3.0 / n
            zs += [_variance_z(na, variance, kurtosis), _variance_z(nb, variance, kurtosis)]
            if not idealised and attr == "z_sum":
                bad = LocalRandomiser(part, CONTROL_FACTOR, 1.0)
                wrong = np.array(
                    [bad.collect_in_law(X, y, rng).z_sum[cell] for _ in range(5 * reps)]
                )
                control_z = _variance_z(_noise_units(wrong, units, step), variance, kurtosis)
    caught = abs(control_z) > Z_CRITICAL
    ok = all(p > ALPHA for p in pvals) and all(abs(z) <= Z_CRITICAL for z in zs) and caught
    return CheckOutcome(
        ok,
        f"KS p-values (exact W, Z; idealised W, Z): {[f'{p:.3g}' for p in pvals]}; variance z "
        f"(collect, in-law per part): {[f'{z:.2f}' for z in zs]} (|z| <= {Z_CRITICAL:.2f}); "
        f"epsilon x 1.25 control z = {control_z:.1f} (rejected: {caught})",
        {"pvalues": pvals, "variance_z": zs, "control_z": control_z},
        [
            Control(
                "collect_in_law of the randomiser built for epsilon x 1.25",
                caught,
                f"variance z = {control_z:.1f}",
            )
        ],
        [
            Slack(
                "|variance z| (must stay below the 1e-6 critical value)",
                Z_CRITICAL,
                max(abs(z) for z in zs),
            )
        ],
    )
