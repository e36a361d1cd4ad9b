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
from typing import Any

from dpspec.audit import audit
from dpspec.audit.zoo import FunctionMechanism, laplace_sampler, rare_leak_sampler, zoo
from dpspec.proofs.engine.registry import CheckOutcome, VerifyConfig

SEED = 9200


def _body_bound(extra: dict[str, Any]) -> float:
    """The bound of the first (body) event of a multi-event audit, −inf when it was alone."""
    events = extra.get("events", [])
    if not events:
        return -math.inf
    value = events[0]["epsilon_lower"]
    return float(value) if not isinstance(value, str) else float(value.strip("'"))


def rare_events(config: VerifyConfig) -> CheckOutcome:
    """Rare leaks flagged at 50/p draws per side (see the module docstring); controls: the
    leak-free Laplace and the leak under an (ε, 2p) claim stay consistent; Laplace ε = 0.1 at
    10^6 draws stays tight (≥ 0.09)."""
    rows = []
    ok = True
    for p in (1e-4, 1e-5, 1e-6):
        n = round(50 / p)
        leak = FunctionMechanism(f"leak-{p:g}", rare_leak_sampler(1.0, p))
        r = audit(leak, (0.0, 1.0), 1.0, samples=n, seed=SEED)
        body = _body_bound(r.extra)
        good = r.violation and "output in" in r.event and body <= 1.0
        if p == 1e-5:
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
    return CheckOutcome(
        ok,
        "; ".join(
            f"leak {r['leak']:g} at {r['samples']:.0e}/side: ε_LCB {r['epsilon_lower']:.3g} "
            f"(body alone {r['body_epsilon_lower']:.3g})"
            for r in rows
        )
        + f"; controls consistent; Laplace 0.1 at 1e6: {tight.epsilon_lower:.4f}",
        {"rows": rows, "laplace_0.1": tight.epsilon_lower},
    )


def vector_tightness(config: VerifyConfig) -> CheckOutcome:
    """The zoo's vector releases at their true ε (10^6 draws per side, seed fixed): ε_LCB ≥
    0.95 × true ε, not flagged; the half-noise histogram is flagged."""
    entries = zoo()
    rows = {}
    ok = True
    for name in (
        "laplace-2d-unequal",
        "histogram-substitution",
        "histogram-substitution-half-noise",
    ):
        e = entries[name]
        r = audit(e.mechanism, e.pair, e.epsilon, samples=10**6, seed=SEED)
        ratio = r.epsilon_lower / e.true_epsilon
        good = (not r.violation and ratio >= 0.95) if e.correct else r.violation
        ok = ok and good
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
    )
