"""Binding of the auditor's soundness lemma to ``epsilon_lower``."""

from __future__ import annotations

import math

from hypothesis import strategies as st

from dpspec.audit.bounds import epsilon_lower
from dpspec.proofs.engine.bindings import Case, differential
from dpspec.proofs.engine.registry import CheckOutcome, Control, Method, Obligation, VerifyConfig
from dpspec.proofs.topics.audit.lemmas import lower_bound_sound, lower_bound_sound_reversed


def _compare_audit(case: Case) -> str | None:
    from dpspec.audit.bounds import epsilon_lower
    from dpspec.proofs.topics.audit.lemmas import lower_bound_sound, lower_bound_sound_reversed

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


@Obligation(
    id="audit.lemma-binding",
    source="auditing.md (DP-Sniper, StatDP: Clopper-Pearson event bounds)",
    claim="epsilon_lower <= ln r exactly when the lemma's certificate holds",
    method=Method.PROPERTY,
    predicates=(lower_bound_sound, lower_bound_sound_reversed),
    impls=(epsilon_lower,),
    tests=("tests/test_lemma_bindings.py::test_binding_checks_catch_a_broken_rule",),
)
def audit_binding(config: VerifyConfig) -> CheckOutcome:
    """:func:`dpspec.audit.bounds.epsilon_lower` (the auditor's ε_LCB) is ≤ ln r exactly when
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
    outcome = differential(config, boundaries, strategy, _compare_audit)
    # control: ε_LCB computed with δ forgotten (the pure-DP formula used for an (ε, δ) claim)
    from unittest import mock

    import dpspec.audit.bounds as bounds

    honest = bounds.epsilon_lower
    with mock.patch.object(
        bounds, "epsilon_lower", lambda p1_lo, p2_hi, delta: honest(p1_lo, p2_hi, 0.0)
    ):
        forgot = differential(config, boundaries, strategy, _compare_audit)
    outcome.controls.append(
        Control(
            "epsilon_lower with δ forgotten (ln(p₁⁻/p₂⁺) for an (ε, δ) claim)",
            not forgot.passed,
            forgot.detail,
        )
    )
    return outcome
