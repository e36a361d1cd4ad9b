"""The control of the auditor's CrossHair lemma: the same statement with δ forgotten.

``lower_bound_without_delta`` is what an auditor computes when it audits an (ε, δ) claim as
if it were pure: ln(p₁⁻/p₂⁺). It is false (an event with p₁ = e^ε p₂ + δ gives a bound above
ε), so CrossHair must find a counterexample within the lemma budget; the module is not named
``lemmas`` so that ``dpspec prove`` does not count it among the lemmas that must hold.
"""

from __future__ import annotations

from dpspec.audit.bounds import epsilon_lower
from dpspec.proofs.engine.registry import CheckOutcome, Control, Method, Obligation, VerifyConfig
from dpspec.proofs.topics.audit.lemmas import lower_bound_sound, lower_bound_sound_reversed
from dpspec.spec.audit import (  # event_within is used in the docstring contract
    bound_certified,
    event_within,
)


def lower_bound_without_delta(
    p1: int, p2: int, p1_lo: int, p2_hi: int, delta: int, num: int, den: int
) -> bool:
    """The soundness lemma with δ dropped from the bound (false).

    pre: 0 <= p1_lo <= p1
    pre: 0 <= p2 <= p2_hi
    pre: 0 <= delta
    pre: 1 <= den <= num
    pre: event_within(p1, p2, delta, num, den)
    post: __return__
    """
    return bound_certified(p1_lo, p2_hi, 0, num, den)


@Obligation(
    id="audit.lower-bound-lemma",
    source="auditing.md (DP-Sniper, StatDP: Clopper-Pearson event bounds)",
    claim=(
        "if p1 <= e^eps p2 + delta and the confidence bounds hold, ln((p1_lo - "
        "delta)/p2_hi) <= eps (both directions)"
    ),
    method=Method.CROSSHAIR,
    predicates=(event_within, bound_certified, lower_bound_sound, lower_bound_sound_reversed),
    impls=(epsilon_lower,),
    lemmas=(lower_bound_sound, lower_bound_sound_reversed),
    tests=(
        "tests/test_audit.py::test_lower_bound_lemma_holds_on_examples",
        "tests/test_audit.py::test_false_audit_lemma_has_a_counterexample",
    ),
    binding="differential: audit.lemma-binding",
)
def false_lemma_refuted(config: VerifyConfig) -> CheckOutcome:
    """CrossHair, with the budget the lemmas get, finds a counterexample to the soundness
    lemma with δ forgotten: the lemma layer can fail (the control of
    ``audit.lower-bound-lemma``)."""
    from dpspec.proofs.engine.crosshair import check_condition

    record = check_condition(f"{__name__}.lower_bound_without_delta", config.crosshair_timeout)
    refuted = record["status"] == "counterexample"
    return CheckOutcome(
        True,
        f"control: the lemma with δ forgotten is {record['status']} "
        f"({record.get('message', '')!s:.120})",
        {"control_status": record["status"]},
        [Control("the soundness lemma with δ forgotten", refuted, str(record["status"]))],
    )
