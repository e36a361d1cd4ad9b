"""The entries of this topic without a check function: documented statements and those
proven by their CrossHair lemmas alone (the others are declared on their checks, see
``note.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.registry import Method, Obligation
from dpspec.proofs.engine.seeds import CHAUDHURI_HSU

OBLIGATIONS: tuple[Obligation, ...] = (
    Obligation(
        id="cover-learners.erratum.chaudhuri-hsu-garbles",
        source=(
            f"{CHAUDHURI_HSU}:L55; {CHAUDHURI_HSU}:L463; {CHAUDHURI_HSU}:L524; "
            f"{CHAUDHURI_HSU}:L547; {CHAUDHURI_HSU}:L551; {CHAUDHURI_HSU}:L676-682"
        ),
        claim=(
            "OCR/typesetting garbles with nothing to execute: L55 '1/ε^α' means 1/(εα); "
            "L463 'of size m = V/2' means of size m; L524 'err(h) = err(h, S) − ε/4' "
            "means ≤ (both directions); L547 'G1 = {g : err(g) ≤ ε}' means > ε (the "
            "Chernoff step needs err(g) > ε); L551 δ/4^{|G1|} means δ/(4|G1|); L676/L682 "
            "drop α (the factor is e^{-8αsm}, the bound log(|P|/2 − 1)/(8αs)) — the "
            "statement L361 keeps α and is what lemma-11 checks"
        ),
        method=Method.DOCUMENTED,
    ),
    Obligation(
        id="cover-learners.chaudhuri-hsu.label-lower-bound",
        source=f"{CHAUDHURI_HSU}:L346-352 (Thm 10); {CHAUDHURI_HSU}:L684-759 (proof)",
        claim=(
            "Thm 10 (Ω(d/(αε)) for α-label private learners): documented — its constant "
            "c is existential and its proof runs through Lemma 24, whose constant C is "
            "too, so no finite instance satisfies its hypotheses without values the "
            "paper does not give; its executable parts run as "
            "cover-learners.lemma-11.exact-instance and cover-learners.chaudhuri-hsu.thm-12"
        ),
        method=Method.DOCUMENTED,
    ),
    Obligation(
        id="cover-learners.chaudhuri-hsu.lemmas-23-24",
        source=f"{CHAUDHURI_HSU}:L635-652 (Lemma 23); {CHAUDHURI_HSU}:L688-729 (Lemma 24)",
        claim=(
            "Lemmas 23-24: documented — both hold 'for a constant C > 1' that the paper "
            "does not give (m ≥ (CV/r) log(C/r)); Lemma 23 is Lemma 17 at ε_m = r/2, r/3 "
            "(its inequalities run in cover-learners.metric.vc-lemmas-16-17) and Lemma 24 is "
            "Lemma 11 (run in cover-learners.lemma-11.exact-instance) averaged over X under "
            "Lemma 23's event"
        ),
        method=Method.DOCUMENTED,
    ),
)
