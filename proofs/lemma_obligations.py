"""Registry entries for the CrossHair lemma layer (``proofs/lemmas.py``).

Each lemma is a pure-Python function whose PEP 316 contract states the combinatorial or
piecewise-linear core of a privacy proof; its obligation is discharged when CrossHair explores
all paths without a counterexample ("confirmed").
"""

from __future__ import annotations

from dpspec.proofs.registry import Check, CheckOutcome, Method, Obligation, VerifyConfig

S000 = "000_dff3c4dc97cf0e21.txt"
S002 = "002_9f3104e4a0d86722.txt"


def crosshair_check(function: str) -> Check:
    """A check that runs CrossHair on one lemma and passes when it is confirmed."""

    def run(config: VerifyConfig) -> CheckOutcome:
        from dpspec.proofs.prove import check_condition

        rec = check_condition(f"dpspec.proofs.lemmas.{function}", config.crosshair_timeout)
        return CheckOutcome(
            rec["status"] == "confirmed",
            f"crosshair: {rec['status']} ({rec['seconds']:.1f}s) {rec.get('message', '')}".strip(),
            {"status": rec["status"]},
        )

    run.__name__ = f"crosshair_{function}"
    return run


#: (lemma function, obligation id, source, claim)
LEMMAS: tuple[tuple[str, str, str, str], ...] = ()

LEMMA_OBLIGATIONS: tuple[Obligation, ...] = tuple(
    Obligation(
        id=ob_id,
        source=source,
        claim=claim,
        predicates=(f"dpspec.proofs.lemmas.{fn}",),
        impls=(),
        method=Method.CROSSHAIR,
        tests=(f"tests/test_lemmas.py::test_lemma_holds_on_examples[{fn}]",),
        check=crosshair_check(fn),
        note="notes/lemmas.md",
    )
    for fn, ob_id, source, claim in LEMMAS
)
