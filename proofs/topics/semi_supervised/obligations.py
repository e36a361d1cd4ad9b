"""The entries of this topic without a check function: documented statements and those
proven by their CrossHair lemmas alone (the others are declared on their checks, see
``note.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.registry import Method, Obligation
from dpspec.proofs.engine.seeds import BAYES_CONSISTENCY

OBLIGATIONS: tuple[Obligation, ...] = (
    Obligation(
        id="semi-supervised.unlabeled-sample-size",
        source=(
            f"{BAYES_CONSISTENCY}:L349 (Thm 4.10, as printed); "
            "002_9f3104e4a0d86722.txt:L1683 (Thm 6.2.10)"
        ),
        claim=(
            "semi-private learning needs O((VC/α) log(1/(αβ))) unlabeled examples; seed "
            "000 prints O((VC/(εα)) log(1/(αβ))) — a misstatement (ε does not belong "
            "there)"
        ),
        method=Method.DOCUMENTED,
        reason=(
            "an O(·) sample size with unspecified constants: no finite instance decides "
            "it; the erratum records the corrected statement"
        ),
    ),
)
