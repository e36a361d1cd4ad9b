"""Statements of the seeds false as printed, in this topic (see ``note.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.registry import Erratum
from dpspec.proofs.engine.seeds import BAYES_CONSISTENCY, THESIS

ERRATA: tuple[Erratum, ...] = (
    Erratum(
        id="semi-supervised.erratum.bayes-consistency-thm-4.10-sample-size",
        source=f"{BAYES_CONSISTENCY}:L349 (Thm 4.10) vs {THESIS}:L1683",
        printed="semi-private learning with O((VC/(εα)) log(1/(αβ))) unlabeled examples",
        corrected=(
            "O((VC/α) log(1/(αβ))) unlabeled examples (the thesis's Thm 6.2.10): the unlabeled "
            "sample is not accessed privately, so ε does not belong in its size"
        ),
        counterexample=(
            "for ε → ∞ the printed size drives the total sample below the non-private Ω(VC/α) "
            "lower bound; asymptotic statement with unspecified constants, so documented only"
        ),
        tests=(),
        obligation="semi-supervised.unlabeled-sample-size",
    ),
)
