"""DP-SGD's bracket: the replay on the real fit, the reference accountant, the statistical
lower bound — on the fixed-gradient pair of :mod:`.pair`, Poisson against shuffled batches.

One obligation, three parts run in order (under a bug control the first failing part ends
the check):

1. **full batch** (the fixed-batch step composition): ``batch_sampler="shuffle"`` with b = n,
   so every step holds the canary (or the blank). The replay couples it (one fixed shift of
   1/σ per step: every batch is all n records, whatever the permutation) and the
   release determines the shifted noise, so its value is the pair's own ε(δ): it must be the
   closed form of μ = √T/σ (Balle & Wang 2018, written in :mod:`dpspec.spec.accounting`) and
   meet the accountant's certified bracket of ``Composition(sampling="none")``.
2. **Poisson batches**: the replay replays every non-noise draw identically (the identity
   coupling of :mod:`dpspec.audit._recording`), so its coupling is *conditional on the
   batches*: the shift is 1/σ at the steps whose batch holds the canary, which the sampler's
   draws decide. Amplification by subsampling is a property of the mixture over those draws,
   which no per-draw shift expresses: the runs' shifts differ and the finding is "shift
   varies", no upper side. A replay that does couple (every run the same batches) is exact,
   and its value must not exceed the accountant's certified ε_hi of Poisson sampling at
   q = b/n under add/remove (the pair is the remove pair in law, see :mod:`.pair`).
3. **shuffled batches**: the statistical lower bound ε_LCB of the shuffled fit (the audit of
   the pair's log-likelihood ratio statistic, fixed seed) must not exceed the shuffle
   accountant's certified ε_hi (zero-out relation, the pair's); and the certified gap: the
   shuffle accountant's ε_lo exceeds the Poisson accountant's ε_hi for the same (σ, q, T).
"""

from __future__ import annotations

import math

from dpspec.accounting.compositions import Composition, epsilon_interval
from dpspec.accounting.shuffling import shuffled_gaussian_epsilon
from dpspec.audit import audit, replay
from dpspec.learners.dpsgd import DPSGDRegressor
from dpspec.proofs.engine.controls import BugControl
from dpspec.proofs.engine.registry import (
    CheckOutcome,
    Kind,
    Method,
    Obligation,
    Slack,
    VerifyConfig,
    stop_if_failed,
)
from dpspec.proofs.topics.dpsgd.pair import canary_pair, path_release, statistic_release
from dpspec.spec import accounting as stated

#: noise multiplier σ, records n, steps T (one shuffled epoch of batches of 1), target δ
SIGMA, RECORDS, STEPS, DELTA = 1.0, 8, 8, 1e-2
#: the fit's parameters (C = 1, η = 1, b = 1: q = 1/8)
PARAMS = {
    "noise_multiplier": SIGMA,
    "clip_norm": 1.0,
    "learning_rate": 1.0,
    "steps": STEPS,
    "batch_size": 1,
}
#: replayed runs: a correct Poisson sampler gives all 4 runs one pattern of the canary's steps
#: with probability Σ_pattern P(pattern)⁴ = ((1 − q)⁴ + q⁴)^T ≈ 0.014, almost all of it the
#: empty pattern (shift 0: ε 0, which passes); a non-empty common pattern, which the replay would
#: take for a fixed coupling (and fail the check on), has probability
#: ((1 − q)⁴ + q⁴)^T − (1 − q)^{4T} ≈ 4.7·10^-5 over seeds (the seed is fixed)
REPLAY_RUNS = 4
#: estimation and selection draws per side of the statistical audit
SAMPLES = 200
#: the accountants' relative width (a certified bracket either way)
ACCURACY = 5e-2
#: the replay's value is the closed form's root to this (the replay finds it to 1e-12)
ROOT_TOLERANCE = 1e-6


def _full_batch() -> tuple[list[str], dict[str, float]]:
    """Part 1: the replay of the full-batch fit against the closed form and the accountant."""
    params = PARAMS | {"batch_sampler": "shuffle", "batch_size": RECORDS}
    found = replay(path_release(params), canary_pair(RECORDS), 1.0, DELTA, runs=REPLAY_RUNS)
    mu = math.sqrt(STEPS) / SIGMA
    numbers = {"mu": mu}
    if found.finding != "coupled" or not found.exact:
        return [f"full batch: the replay found {found.finding!r} ({found.detail})"], numbers
    upper, exact = float(found.epsilon_upper or math.inf), float(found.epsilon_exact or 0.0)
    numbers |= {"full_replay_exact": exact, "full_replay_upper": upper}
    out = []
    if not stated.gaussian_delta(upper, mu) <= DELTA * (1 + 1e-9):
        out.append(f"full batch: replay ε_hi {upper:.9g} below the closed form's ε (μ = {mu:.6g})")
    if not stated.gaussian_delta(max(0.0, exact - ROOT_TOLERANCE), mu) > DELTA:
        out.append(f"full batch: replay ε {exact:.9g} above the closed form's ε (μ = {mu:.6g})")
    account = epsilon_interval(
        Composition("gaussian", SIGMA, "none", 1.0, STEPS, "add_remove"), DELTA, ACCURACY
    )
    lo, hi = float(account.lo), float(account.hi)
    numbers |= {"full_accountant_lo": lo, "full_accountant_hi": hi}
    if not stated.intervals_meet((exact, upper), (lo, hi)):
        out.append(f"full batch: replay [{exact:.6g}, {upper:.6g}] misses [{lo:.6g}, {hi:.6g}]")
    return out, numbers


def _poisson_interval() -> tuple[float, float]:
    """The accountant's certified ε(δ) bracket of Poisson sampling at q = b/n."""
    q = PARAMS["batch_size"] / RECORDS
    found = epsilon_interval(
        Composition("gaussian", SIGMA, "poisson", q, STEPS, "add_remove"), DELTA, ACCURACY
    )
    return float(found.lo), float(found.hi)


def _poisson() -> tuple[list[str], dict[str, float], str]:
    """Part 2: the replay of the Poisson fit — no fixed coupling, or an exact value within the
    Poisson accountant's ε_hi."""
    params = PARAMS | {"batch_sampler": "poisson"}
    found = replay(path_release(params), canary_pair(RECORDS), 1.0, DELTA, runs=REPLAY_RUNS)
    lo, hi = _poisson_interval()
    numbers = {"poisson_accountant_lo": lo, "poisson_accountant_hi": hi}
    if found.finding == "shift varies":
        return [], numbers, found.finding
    if found.finding == "coupled" and found.exact:
        exact = float(found.epsilon_exact or 0.0)
        numbers["poisson_replay_exact"] = exact
        if exact <= hi:
            return [], numbers, found.finding
        return (
            [f"Poisson: the replay couples every run exactly at ε {exact:.6g} > ε_hi {hi:.6g}"],
            numbers,
            found.finding,
        )
    return [f"Poisson: the replay found {found.finding!r} ({found.detail})"], numbers, found.finding


def _shuffled(poisson_hi: float) -> tuple[list[str], dict[str, float]]:
    """Part 3: the shuffled fit's statistical lower bound within the shuffle accountant's
    ε_hi, and the certified gap over the Poisson accountant."""
    account = shuffled_gaussian_epsilon(SIGMA, RECORDS, STEPS // RECORDS, DELTA, "zero-out")
    lo, hi = float(account.lo), float(account.hi)
    params = PARAMS | {"batch_sampler": "shuffle"}
    result = audit(
        statistic_release(params, RECORDS),
        canary_pair(RECORDS),
        hi,
        DELTA,
        samples=SAMPLES,
        selection=SAMPLES,
        seed=0,
    )
    lower = float(result.epsilon_lower)
    numbers = {"shuffle_accountant_lo": lo, "shuffle_accountant_hi": hi, "shuffle_lcb": lower}
    out = []
    if not lower <= hi:
        out.append(f"shuffle: ε_LCB {lower:.6g} > the accountant's ε_hi {hi:.6g}")
    if not lo > poisson_hi:
        out.append(
            f"shuffle: ε_lo {lo:.6g} not above the Poisson accountant's ε_hi {poisson_hi:.6g}"
        )
    return out, numbers


@Obligation(
    id="dpsgd.bracket-poisson-shuffle",
    source=(
        "Abadi et al. 2016 (DP-SGD, arXiv:1607.00133); Balle & Wang 2018 (the Gaussian "
        "mechanism's curve); Zhu, Dong & Wang 2022 (Poisson subsampling, arXiv:2106.08567); "
        "Chua et al. 2024 (shuffled batches, arXiv:2403.17673)"
    ),
    claim=(
        "DPSGDRegressor.fit (σ = 1, C = 1, η = 1, n = 8, T = 8) on the fixed-gradient pair "
        "(canary +C against a zero-gradient blank, seven others −C): with one full batch the "
        "replay couples the real fit exactly at the closed form of μ = √T/σ (to 1e-6) and meets "
        "the accountant's certified bracket; with Poisson batches (q = 1/8) the replay cannot "
        "couple the sampler's draws ('shift varies'), and a replay that couples never exceeds "
        "the Poisson accountant's certified ε_hi; with shuffled batches (b = 1, one epoch) the "
        "statistical ε_LCB at δ = 10^-2 (200 draws per side, seed 0) does not exceed the shuffle "
        "accountant's certified ε_hi, and the shuffle accountant's ε_lo exceeds the Poisson "
        "accountant's ε_hi (the same σ, q, T)"
    ),
    method=Method.EXACT,
    predicates=(stated.gaussian_delta, stated.intervals_meet),
    impls=(DPSGDRegressor,),
    entry_points=(DPSGDRegressor.fit,),
    privacy=True,
    kind=Kind.DISCRIMINATING,
    tests=(
        "tests/test_dpsgd.py::test_the_full_batch_replay_is_the_closed_form",
        "tests/test_dpsgd.py::test_the_replay_cannot_couple_poisson_batches",
    ),
    bug_controls=(
        BugControl(
            DPSGDRegressor._noisy_sum,
            "rng.normal(0.0, float(self.noise_multiplier) * C, X.shape[1])",
            "rng.normal(0.0, float(self.noise_multiplier) * C / 1.25, X.shape[1])",
            "too little noise: std σ·C/1.25",
        ),
        BugControl(
            DPSGDRegressor._noisy_sum,
            "size = np.where(residual == 0, 0.0, np.minimum(norm, C))",
            "size = np.where(residual == 0, 0.0, norm)",
            "clipping skipped",
        ),
        BugControl(
            DPSGDRegressor._noisy_sum,
            "size = np.where(residual == 0, 0.0, np.minimum(norm, C))",
            "size = np.where(residual == 0, 0.0, np.minimum(norm, 2 * C))",
            "gradients clipped to norm 2C (noise still σ·C)",
        ),
        BugControl(
            DPSGDRegressor.fit,
            "batches = poisson_batches(n, b / n, steps, rng)",
            "batches = [np.arange(b)] * steps",
            "the Poisson sampler replaced by a fixed batch (the first b records)",
        ),
    ),
)
def bracket_poisson_shuffle(config: VerifyConfig) -> CheckOutcome:
    """The three parts of the module docstring, in order."""
    failures, numbers = _full_batch()
    stop_if_failed(config, not failures, failures[0] if failures else "")
    found, more, finding = _poisson()
    failures += found
    numbers |= more
    stop_if_failed(config, not found, found[0] if found else "")
    found, more = _shuffled(numbers["poisson_accountant_hi"])
    failures += found
    numbers |= more
    exact = numbers.get("full_replay_exact", math.nan)
    detail = (
        f"full batch: replay ε {exact:.6g} (closed form μ = {numbers['mu']:.4g}); Poisson: "
        f"replay {finding!r}, accountant [{numbers['poisson_accountant_lo']:.4g}, "
        f"{numbers['poisson_accountant_hi']:.4g}]; shuffle: ε_LCB "
        f"{numbers.get('shuffle_lcb', math.nan):.4g} ≤ accountant "
        f"[{numbers.get('shuffle_accountant_lo', math.nan):.4g}, "
        f"{numbers.get('shuffle_accountant_hi', math.nan):.4g}]; {len(failures)} failures"
        + (f": {failures[0]}" if failures else "")
    )
    hi = numbers.get("shuffle_accountant_hi", math.inf)
    lcb = numbers.get("shuffle_lcb", 0.0)
    return CheckOutcome(
        not failures,
        detail,
        numbers=numbers | {"failures": len(failures)},
        slack=[Slack("ε", hi, lcb, (lcb, hi))],
    )
