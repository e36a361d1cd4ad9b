"""The entries of this topic without a check function: documented statements and those
proven by their CrossHair lemmas alone (the others are declared on their checks, see
``note.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.registry import Method, Obligation
from dpspec.proofs.engine.seeds import THESIS

OBLIGATIONS: tuple[Obligation, ...] = (
    Obligation(
        id="adaptive.existential",
        source=(
            f"{THESIS}:L347-355 (Cor 1.3.4, Thm 1.3.5); {THESIS}:L2050 (Thm 7.1.4); "
            f"{THESIS}:L2135 (Thm 7.2.9); {THESIS}:L2173-2191 (Cor 7.3.4, Cor 7.3.7)"
        ),
        claim=(
            "Cor 1.3.4, 7.3.4, 7.3.7 (n ≥ Õ(√k/α² log 1/β)), Thm 7.2.9 (an inefficient "
            "mechanism not given), Thm 7.1.4's O(·) (cited): no finite instance is "
            "asserted (see note.md for what of each runs elsewhere)"
        ),
        method=Method.DOCUMENTED,
    ),
)
