"""The chapter's background results it relies on (thesis Sec 2–3): advanced composition against
its exact worst case, the Rényi divergence, and Lemma 5.3.2 as stated."""

from __future__ import annotations

import math

from dpspec.proofs.engine.registry import (
    CheckOutcome,
    Control,
    Method,
    Obligation,
    Slack,
    VerifyConfig,
)
from dpspec.proofs.engine.seeds import THESIS
from dpspec.spec import composition as comp
from dpspec.spec import rectangles as rect
from dpspec.spec.composition import advanced_composition as composition_advanced_composition
from dpspec.spec.composition import (
    advanced_composition_simple,
    per_step_epsilon,
    randomized_response_composition_delta,
    renyi_divergence,
)
from dpspec.spec.privacy import hockey_stick, satisfies_approx_dp
from dpspec.spec.rectangles import good_event_exists

#: (ε, k, δ') instances of the composition check (where the bound is within 2× of exact).
COMPOSITIONS = ((0.05, 100, 1e-10), (0.1, 50, 1e-6), (0.01, 1000, 1e-8))


def _exact_epsilon(eps: float, k: int, delta_prime: float, upper: float) -> float:
    """The least ε' with δ(ε') ≤ δ' for k-fold ε-randomized response (bisection, 60 steps)."""
    lo, hi = 0.0, upper
    for _ in range(60):
        mid = (lo + hi) / 2
        if comp.randomized_response_composition_delta(eps, k, mid) <= delta_prime:
            hi = mid
        else:
            lo = mid
    return hi


@Obligation(
    id="rectangles.advanced-composition.exact-rr",
    source=f"{THESIS}:L645-647 (Thm 3.2.4)",
    claim=(
        "advanced composition holds against the exact k-fold composition of ε-randomized "
        "response (the worst case), within 1.4× of its exact ε', and per_step_epsilon "
        "inverts it"
    ),
    method=Method.EXACT,
    predicates=(
        composition_advanced_composition,
        advanced_composition_simple,
        per_step_epsilon,
        randomized_response_composition_delta,
    ),
    tests=("tests/test_rectangles.py::test_composition",),
)
def advanced_composition(config: VerifyConfig) -> CheckOutcome:
    """Advanced composition (Dwork–Rothblum–Vadhan; thesis Thm 3.2.4, L645–647, read as
    ε' = ε√(2k ln(1/δ')) + kε(e^ε − 1) ≤ ε√(2k ln 1/δ') + 2kε² for ε ≤ 1) against the exact
    k-fold composition of ε-randomized response — the worst case among pure ε-DP mechanisms
    (Kairouz–Oh–Viswanath): its exact δ(ε') ≤ δ', the simple form is larger, and
    ``per_step_epsilon`` inverts it. The slack is the bound's ε' against the exact least ε' of
    the worst case (within 2× on these instances). Control: the bound understated 2× (ε'/2) —
    its exact δ exceeds δ'."""
    rows, ok, caught, ratios, pairs = [], True, True, [], []
    for eps, k, dp in COMPOSITIONS:
        target = comp.advanced_composition(eps, 0.0, k, dp)[0]
        delta = comp.randomized_response_composition_delta(eps, k, target)
        simple = comp.advanced_composition_simple(eps, k, dp)
        step = comp.per_step_epsilon(target, k, dp)
        exact = _exact_epsilon(eps, k, dp, target)
        ok &= (
            delta <= dp
            and simple >= target
            and comp.advanced_composition(step, 0, k, dp)[0] <= target
        )
        halved = comp.randomized_response_composition_delta(eps, k, target / 2)
        caught &= halved > dp
        ratios.append(target / exact)
        pairs.append((target, exact))
        rows.append(
            f"(ε={eps}, k={k}, δ'={dp:g}): ε' = {target:.4g} (exact least {exact:.4g}), exact δ = "
            f"{delta:.3g}; at ε'/2: δ = {halved:.3g}"
        )
    worst = min(range(len(ratios)), key=lambda i: ratios[i])
    return CheckOutcome(
        ok and caught,
        "; ".join(rows),
        {"ratios": ratios},
        [Control("the advanced-composition bound understated 2× (ε'/2)", caught, "δ > δ' on all")],
        [Slack("ε'", *pairs[worst])],
    )


@Obligation(
    id="rectangles.erratum.thesis-L420-renyi",
    source=f"{THESIS}:L417-427 (Def 2.2.1, RDP conversion)",
    claim="the Rényi divergence needs 1/(α − 1): the printed 1/(1 − α) is negative for α > 1",
    method=Method.EXACT,
    predicates=(renyi_divergence,),
    tests=("tests/test_rectangles.py::test_composition",),
)
def renyi_printed(config: VerifyConfig) -> CheckOutcome:
    """Erratum (L420, L427): the Rényi divergence is (1/(α − 1)) ln Σ p^α q^{1−α}; the printed
    1/(1 − α) makes it negative for α > 1. ``spec.composition.renyi_divergence`` equals the
    closed form ln Σ p²/q at α = 2 and is 0 on P = P; the printed form is negative
    (P = (0.6, 0.4), Q = (0.4, 0.6): −0.154). Control: the printed sign put through the same
    properties fails them."""
    p, q = [0.6, 0.4], [0.4, 0.6]
    correct = comp.renyi_divergence(p, q, 2.0)
    closed = math.log(sum(a * a / b for a, b in zip(p, q, strict=True)))
    printed = comp.renyi_divergence(p, q, 2.0, printed=True)
    same = comp.renyi_divergence(p, p, 3.0)
    holds = math.isclose(correct, closed, rel_tol=1e-12) and abs(same) < 1e-12 and correct > 0
    caught = not (printed >= 0 and math.isclose(printed, closed, rel_tol=1e-12))
    return CheckOutcome(
        holds and caught and printed < 0,
        f"D_2 = {correct:.4f} (closed form {closed:.4f}), printed {printed:.4f}; D_3(P‖P) = "
        f"{same:.2g}",
        {},
        [Control("the printed 1/(1 − α)", caught, f"D_2 = {printed:.4f} < 0")],
        [Slack("D_2", closed, correct)],
    )


@Obligation(
    id="rectangles.erratum.thesis-lemma-5.3.2",
    source=f"{THESIS}:L1368-1372 (Lemma 5.3.2)",
    claim="(0.6, 0.4) vs (0.4, 0.6) are (0.1, 0.158)-indistinguishable yet have no good event",
    method=Method.EXACT,
    predicates=(good_event_exists, satisfies_approx_dp),
    tests=("tests/test_rectangles.py::test_errata",),
)
def lemma_532(config: VerifyConfig) -> CheckOutcome:
    """Erratum (L1368–1372, Lemma 5.3.2 as stated): P = (0.6, 0.4), Q = (0.4, 0.6) are
    (0.1, 0.158)-indistinguishable (``satisfies_approx_dp``; their exact δ at ε = 0.1 is
    0.6 − 0.4e^{0.1} = 0.1579), yet |ln P/Q| = 0.405 > 0.1 at both points, so no event G with
    P(G), Q(G) > 1 − δ has loss ≤ ε (``good_event_exists``). The instance is at the boundary:
    Controls: δ understated by 5% (0.150) — the pair is then not indistinguishable, so the
    counterexample needs its δ; and a pair (0.51, 0.49) within the loss bound does have G."""
    from dpspec.spec.privacy import Dist

    pp: Dist = {0: 0.6, 1: 0.4}
    qq: Dist = {0: 0.4, 1: 0.6}
    indist = satisfies_approx_dp(pp, qq, math.exp(0.1), 0.158)
    exact_delta = float(hockey_stick(pp, qq, math.exp(0.1)))
    no_event = not rect.good_event_exists([0.6, 0.4], [0.4, 0.6], 0.1, 0.158)
    tight = not satisfies_approx_dp(pp, qq, math.exp(0.1), 0.150)
    has_event = rect.good_event_exists([0.51, 0.49], [0.49, 0.51], 0.1, 0.158)
    return CheckOutcome(
        indist and no_event and tight and has_event,
        f"(0.1, 0.158)-indistinguishable: {indist} (exact δ {exact_delta:.4f}); no good event: "
        f"{no_event}; at δ = 0.150 not indistinguishable: {tight}; (0.51, 0.49) has one: "
        f"{has_event}",
        {"exact_delta": exact_delta},
        [
            Control("δ understated 5% (0.150)", tight, "not indistinguishable"),
            Control("a pair within the loss bound (0.51, 0.49)", has_event, "a good event exists"),
        ],
        [Slack("δ", 0.158, exact_delta)],
    )
