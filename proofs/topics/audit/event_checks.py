"""Checks for the auditor's event families beyond the scalar body: rare atoms in continuous
releases (estimated as a family of their own at a share of α) and orthants of vector releases.

* statistical (fixed seeds, confidence 0.95): a Laplace release that leaks its raw input with
  probability p ∈ {1e-4, 1e-5, 1e-6} is flagged at 50/p draws per side (≈ 50 leaked atoms
  against none; at 30/p the power is ≈ 0.95 and at 20/p ≈ 0.4 over 40 seeds,
  ``benchmarks/bench_audit.py --rare``), while the
  body event alone would not flag it; the same mechanism without the leak, and the leak claimed as
  (ε, 2p)-DP, are not flagged; Laplace ε = 0.1 keeps ε_LCB ≥ 0.09 at 10^6;
* vector releases: 2-D Laplace with scales (1, 4) and a 3-bin substitution histogram reach
  ε_LCB ≥ 0.95 × their true ε at 10^6 draws per side.
"""

from __future__ import annotations

import math

import numpy as np

from dpspec.audit import AuditResult, audit
from dpspec.audit.zoo import (
    FunctionMechanism,
    laplace_sampler,
    rare_leak_sampler,
    vector_laplace_sampler,
    zoo,
)
from dpspec.audit.zoo_kinds import gaussian_sigma, gaussian_vector, laplace_vector
from dpspec.proofs.engine.controls import BugControl
from dpspec.proofs.engine.registry import (
    CHECKER_SOUNDNESS,
    CheckOutcome,
    Control,
    Method,
    Obligation,
    Slack,
    VerifyConfig,
)

SEED = 9200


def _body_bound(result: AuditResult) -> float:
    """The bound of the first (body) event of a multi-event audit, −inf when it was alone."""
    return result.events[0].epsilon_lower if len(result.events) > 1 else -math.inf


def rare_events(config: VerifyConfig) -> CheckOutcome:
    """Rare leaks flagged at 50/p draws per side (see the module docstring; p = 1e-4, and
    1e-5 and 1e-6 with ``--thorough``), while the body event alone would not flag them; the
    leak-free Laplace and the leak under an (ε, 2p) claim stay consistent; Laplace ε = 0.1 at
    10^6 draws stays tight (≥ 0.09). Controls: the leaks (a raw value released with
    probability p: the bug the family exists for)."""
    rows = []
    ok = True
    controls, slack = [], []
    for p in (1e-4, 1e-5, 1e-6) if config.thorough else (1e-4,):
        n = round(50 / p)
        leak = FunctionMechanism(f"leak-{p:g}", rare_leak_sampler(1.0, p))
        r = audit(leak, (0.0, 1.0), 1.0, samples=n, seed=SEED)
        body = _body_bound(r)
        good = not r.violation or ("output in" in r.event and body <= 1.0)
        if p == 1e-4:
            clean = audit(
                FunctionMechanism("lap", laplace_sampler(1.0)),
                (0.0, 1.0),
                1.0,
                samples=n,
                seed=SEED,
            )
            approx = audit(leak, (0.0, 1.0), 1.0, delta=2 * p, samples=n, seed=SEED)
            good = good and not clean.violation and not approx.violation
        ok = ok and good
        controls.append(
            Control(
                f"Laplace(1) leaking its input with probability {p:g}",
                r.violation,
                f"ε_LCB {r.epsilon_lower:.3g} at {n:.0e} draws per side (body alone {body:.3g})",
            )
        )
        rows.append(
            {
                "leak": p,
                "samples": n,
                "epsilon_lower": r.epsilon_lower,
                "body_epsilon_lower": body,
                "flagged": r.violation,
                "ok": good,
            }
        )
    tight = audit(
        FunctionMechanism("lap", laplace_sampler(10.0)), (0.0, 1.0), 0.1, samples=10**6, seed=SEED
    )
    ok = ok and tight.epsilon_lower >= 0.09
    slack.append(Slack("ε (Laplace 0.1, 10^6 draws)", 0.1, tight.epsilon_lower))
    return CheckOutcome(
        ok,
        "; ".join(
            f"leak {r['leak']:g} at {r['samples']:.0e}/side: ε_LCB {r['epsilon_lower']:.3g} "
            f"(body alone {r['body_epsilon_lower']:.3g})"
            for r in rows
        )
        + f"; controls consistent; Laplace 0.1 at 1e6: {tight.epsilon_lower:.4f}",
        {"rows": rows, "laplace_0.1": tight.epsilon_lower},
        controls,
        slack,
    )


@Obligation(
    id="audit.rare-events-and-vectors",
    source=(
        "auditing.md (event families; rare leaks lost in selection; vector releases); "
        "Bonferroni over the families estimated"
    ),
    claim=(
        "a leak of probability 1e-4 (and 1e-5, 1e-6 with --thorough) in a Laplace "
        "release is flagged at 50/p draws per side (the body event alone is not), "
        "leak-free and (eps, 2p)-claimed controls are not; Laplace 0.1 keeps eps_LCB >= "
        "0.09 at 10^6; 2-D unequal-scale Laplace and a 3-bin substitution histogram "
        "reach >= 0.95 of their true eps"
    ),
    method=Method.STATISTICAL,
    no_predicate=(
        f"{CHECKER_SOUNDNESS}: rare leaks flagged, leak-free and vector releases at their true ε"
    ),
    impls=(vector_laplace_sampler, audit, "dpspec.audit._events.Event"),
    tests=(
        "tests/test_audit.py::test_rare_atoms_are_a_family_of_their_own",
        "tests/test_audit.py::test_orthant_events",
    ),
    before=(rare_events,),
)
def vector_tightness(config: VerifyConfig) -> CheckOutcome:
    """The zoo's vector releases at their true ε (10^6 draws per side, seed fixed): ε_LCB ≥
    0.95 × true ε, not flagged. Control: the histogram with half its noise (add/remove
    calibration used under substitution) is flagged."""
    entries = zoo()
    rows = {}
    ok = True
    controls, slack = [], []
    for name in (
        "laplace-2d-unequal",
        "histogram-substitution",
        "histogram-substitution-half-noise",
    ):
        e = entries[name]
        r = audit(e.mechanism, e.pair, e.epsilon, samples=10**6, seed=SEED)
        ratio = r.epsilon_lower / e.true_epsilon
        good = (not r.violation and ratio >= 0.95) if e.correct else r.violation
        ok = ok and (good or not e.correct)  # a broken one unflagged is a caught=False control
        if e.correct:
            slack.append(Slack(f"ε ({name})", e.epsilon, r.epsilon_lower))
        else:
            controls.append(
                Control(f"{name}: {e.why}", r.violation, f"ε_LCB {r.epsilon_lower:.3f}")
            )
        rows[name] = {
            "epsilon_lower": r.epsilon_lower,
            "true": e.true_epsilon,
            "ratio": ratio,
            "event": r.event,
            "ok": good,
        }
    return CheckOutcome(
        ok,
        "; ".join(
            f"{k}: ε_LCB {v['epsilon_lower']:.4f} / true {v['true']:g} = "
            f"{v['ratio']:.3f} ({v['event']})"
            for k, v in rows.items()
        ),
        {"rows": rows},
        controls,
        slack,
    )


@Obligation(
    id="audit.vector-power",
    source=(
        "auditing.md (vector releases, approximate DP); Balle and Wang 2018 (the exact "
        "epsilon(delta) of the Gaussian mechanism)"
    ),
    claim=(
        "a Gaussian release with sigma for (2, 1e-3) claimed (1, 1e-3) is flagged at >= "
        "0.8 of its true epsilon in 3 dimensions (>= 0.95 in 3, 16 and 64 dimensions at "
        "samples='auto' with --thorough); a 64-bin histogram with add-remove noise under "
        "substitution at >= 0.95 of its true epsilon"
    ),
    method=Method.STATISTICAL,
    no_predicate=(
        f"{CHECKER_SOUNDNESS}: power on Gaussian and histogram releases broken by a known margin"
    ),
    impls=(
        "dpspec.audit._selection._screened_box_candidates",
        "dpspec.audit.loop._auto_samples",
        gaussian_vector,
        gaussian_sigma,
        laplace_vector,
    ),
    tests=("tests/test_audit_kinds.py::test_auto_samples_are_sized_from_the_claim",),
)
def vector_power(config: VerifyConfig) -> CheckOutcome:
    """Power where real mechanisms live: (ε, δ) Gaussian releases and wide histograms, broken
    by a modest margin, audited against their claims.

    * Gaussian N(q, σ² I_d) with σ exact for (ε, δ) = (2, 10⁻³) claimed (1, 10⁻³) on a pair at
      L2 distance 1: d = 3 at 3·10⁵ draws per side by default (ε_LCB ≥ 0.8 of the true 2);
      with ``--thorough`` d = 3, 16 and 64 at samples="auto" (3000/δ = 3·10⁶) and ≥ 0.95;
    * a 64-bin Laplace histogram, one record moved (substitution), with the noise of the
      add-remove calibration (true ε = 2 against the claim 1): ≥ 0.95 of 2 at 10⁵ draws.

    The broken releases are the controls (a σ for twice the ε; add-remove noise used under
    substitution); their ratio ε_LCB / true ε is the check's tightness."""
    from dpspec.audit.zoo_kinds import gaussian_sigma, gaussian_vector, laplace_vector

    delta = 1e-3
    sigma = gaussian_sigma(2.0, delta)
    dims = (3, 16, 64) if config.thorough else (3,)
    need = 0.95 if config.thorough else 0.8
    rows, controls, slack = [], [], []
    ok = True
    for d in dims:
        q0 = tuple([0.0] * d)
        q1 = tuple([1.0] + [0.0] * (d - 1))
        samples: int | str = "auto" if config.thorough else 3 * 10**5
        r = audit(gaussian_vector(sigma, d), (q0, q1), 1.0, delta, samples=samples, seed=SEED)
        ratio = r.epsilon_lower / 2.0
        good = r.violation and ratio >= need
        ok = ok and good
        rows.append({"release": f"gaussian d={d}", "ratio": ratio, "samples": r.samples_per_side})
        controls.append(
            Control(
                f"Gaussian in {d} dimensions with σ for ε = 2 claimed (1, 1e-3)",
                r.violation,
                f"ε_LCB {r.epsilon_lower:.3f} of the true 2 ({ratio:.3f})",
            )
        )
        slack.append(Slack(f"ε (true, Gaussian d={d})", 2.0, r.epsilon_lower))
    base = np.zeros(64)
    base[:4] = (8.0, 5.0, 4.0, 3.0)
    moved = base.copy()
    moved[0], moved[1] = 7.0, 6.0
    r = audit(
        laplace_vector(1.0), (tuple(base.tolist()), tuple(moved.tolist())), 1.0,
        samples=10**5, seed=SEED,
    )  # fmt: skip
    ratio = r.epsilon_lower / 2.0
    ok = ok and r.violation and ratio >= 0.95
    rows.append({"release": "histogram 64 bins", "ratio": ratio, "samples": r.samples_per_side})
    controls.append(
        Control(
            "64-bin histogram with add-remove noise under substitution (true ε = 2, claim 1)",
            r.violation,
            f"ε_LCB {r.epsilon_lower:.3f} ({ratio:.3f} of 2)",
        )
    )
    slack.append(Slack("ε (true, 64-bin histogram)", 2.0, r.epsilon_lower))
    return CheckOutcome(
        ok,
        "; ".join(f"{row['release']}: {row['ratio']:.3f} of the true ε at {row['samples']}"
                  for row in rows) + f" (needs >= {need} for the Gaussians, 0.95 histogram)",
        {"rows": rows},
        controls,
        slack,
    )  # fmt: skip


def _leaks_on_d_prime(d: float, n: int, rng: np.random.Generator) -> np.ndarray:
    """Laplace(1) on D = 0; on D' = 1 the value 10 with probability 0.3: {x ≥ 5} has
    probability e⁻⁵/2 ≈ 0.0034 under D and ≈ 0.3 under D' — a leak only in the order D' → D."""
    out = rng.laplace(0.0, 1.0, n)
    if d == 1.0:
        out[rng.random(n) < 0.3] = 10.0
    return out


@Obligation(
    id="audit.user-event-both-orders",
    source="auditing.md (an event test bounds both ratios: DP holds for D, D' in either order)",
    claim=(
        "a user's event is tested in both orders at alpha/4 each: a leak only in the "
        "order D' -> D is a violation; a correct release with the same event is not"
    ),
    method=Method.STATISTICAL,
    no_predicate=f"{CHECKER_SOUNDNESS}: a leak in one order flagged, a correct release not",
    impls=(audit,),
    tests=("tests/test_audit_events_named.py::test_a_user_event_is_tested_in_both_orders",),
    bug_controls=(
        BugControl(
            audit,
            "[] if event is None else [(event, False), (event, True)]",
            "[] if event is None else [(event, False)]",
            "a user's event read in one order only (D -> D')",
        ),
    ),
)
def user_event_both_orders(config: VerifyConfig) -> CheckOutcome:
    """``audit(event=E)`` reads the user's event in both orders, α/4 each (K = 2 events): a
    release whose leak on {x ≥ 5} is only P[M(D') ∈ E] > e^ε P[M(D) ∈ E] is a violation in the
    order D' → D at 20 000 draws per side (ln(0.3/0.0034) ≈ 4.5 against a claim of 1), and the
    correct Laplace(1) release with the same event is no violation at 10^5 (it reads
    "inconclusive": on this one event the claim is beyond the budget's resolution). Fixed
    seeds: each audit is one deterministic run at confidence 0.95 (false alarm ≤ 0.05 per
    audit for a seed drawn at random). The leak is the control of the first part; the order
    dropped is the bug control of the obligation."""
    from dpspec.audit import Event

    event = Event("ge", lo=5.0)
    leak = audit(_leaks_on_d_prime, (0.0, 1.0), 1.0, samples=20_000, seed=SEED, event=event)
    clean = audit(
        FunctionMechanism("lap", laplace_sampler(1.0)),
        (0.0, 1.0),
        1.0,
        samples=100_000,
        seed=SEED,
        event=event,
    )
    orders = [e.direction for e in leak.events]
    caught = leak.violation and leak.direction == "D' -> D"
    ok = caught and orders == ["D -> D'", "D' -> D"] and not clean.violation
    return CheckOutcome(
        ok,
        f"leak on D' only: {leak.verdict} in the order {leak.direction} (eps_LCB "
        f"{leak.epsilon_lower:.3f}; orders read {orders}); Laplace(1) with the same event: "
        f"{clean.verdict} (eps_LCB {clean.epsilon_lower:.3f})",
        {"leak_epsilon_lower": leak.epsilon_lower, "clean_epsilon_lower": clean.epsilon_lower},
        [Control("a leak only in the order D' -> D", caught, f"eps_LCB {leak.epsilon_lower:.3f}")],
        [Slack("eps_LCB of the correct release", 1.0, max(clean.epsilon_lower, 1e-12))],
    )
