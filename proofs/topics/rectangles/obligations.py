"""The entries of this topic without a check function: documented statements and those
proven by their CrossHair lemmas alone (the others are declared on their checks, see
``note.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.registry import Method, Obligation
from dpspec.proofs.engine.seeds import THESIS

OBLIGATIONS: tuple[Obligation, ...] = (
    Obligation(
        id="rectangles.erratum.thesis-L647-advanced-composition",
        source=f"{THESIS}:L645-647 (Thm 3.2.4, as printed)",
        claim=(
            "garbled text, not a false statement: the 's' in ε√(sk ln(1/δ')) is a symbol "
            "lost in the extraction (and the hypotheses 0 < δ', ε ≤ 1 are printed "
            "twice); the formula must be ε√(2k ln(1/δ')) + 2kε² (ε ≤ 1), which "
            "rectangles.advanced-composition.exact-rr checks"
        ),
        method=Method.DOCUMENTED,
        reason=(
            "nothing to execute: the printed formula has a symbol missing; the "
            "reconstructed one runs in rectangles.advanced-composition.exact-rr"
        ),
    ),
    Obligation(
        id="rectangles.proof-gaps",
        source=(
            f"{THESIS}:L1350 (i*); {THESIS}:L1328-1336 (Thm 5.2.4, Lemma 5.2.6); "
            f"{THESIS}:L1476-1478 (proof of Lemma 5.2.7)"
        ),
        claim=(
            "documented: i* is defined with '>' while removal uses '≥' (the case i = i*, "
            "x' ∉ B'_i is uncovered and harmless); the utility proof's union bounds need "
            "2dβ; the theorem's accounting (70ε₀ ln(1/δ₀)) is not offered by the "
            "learner: its proof rests on Lemma 5.3.2 (rectangles.erratum.thesis-lemma-5.3.2) "
            "and on Claim 5.3.1, unproved in the thesis and false for small samples "
            "(rectangles.erratum.thesis-claim-5.3.1-small-samples), and it would only be chosen "
            "beyond d ≈ 70 ln(d/δ) axes, where nothing can be enumerated"
        ),
        method=Method.DOCUMENTED,
        reason=(
            "proof steps with no finite instance: the uncovered case i = i* has no "
            "effect on any output, and the withdrawn accounting is chosen only for d ≳ "
            "1400 axes"
        ),
    ),
)
