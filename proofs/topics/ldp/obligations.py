"""The entries of this topic without a check function: documented statements and those
proven by their CrossHair lemmas alone (the others are declared on their checks, see
``note.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.registry import Method, Obligation
from dpspec.proofs.engine.seeds import LDP_REGRESSION

OBLIGATIONS: tuple[Obligation, ...] = (
    Obligation(
        id="ldp.erratum.ldp-regression-L94-L142-typos",
        source=(
            f"{LDP_REGRESSION}:L94 (x_(h,i) for x_(h,j)); {LDP_REGRESSION}:L142 "
            "(A_(h,i) for A_(h,j))"
        ),
        claim="index typos in the binned data and in eq. (6); the code uses the cell index j",
        method=Method.DOCUMENTED,
    ),
)
