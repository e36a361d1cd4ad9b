"""Statements of thesis ch. 5 (and its background, Sec 2–3) false as printed (see ``note.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.registry import Erratum
from dpspec.proofs.engine.seeds import THESIS

_TESTS = ("tests/test_rectangles.py::test_errata",)

ERRATA: tuple[Erratum, ...] = (
    Erratum(
        id="erratum.thesis-L647-advanced-composition",
        source=f"{THESIS}:L645-647 (Thm 3.2.4)",
        printed="ε' = ε√(sk ln(1/δ')) + 2kε²",
        corrected="ε' = ε√(2k ln(1/δ')) + kε(e^ε − 1) ≤ ε√(2k ln(1/δ')) + 2kε² (ε ≤ 1)",
        counterexample=(
            "s = 1, ε = 0.01, k = 1000, δ' = 1e-8: k-fold ε-randomized response has exact δ = "
            "5.2e-8 > δ' at the printed ε' = 1.557"
        ),
        tests=("tests/test_rectangles.py::test_composition",),
        obligation="erratum.thesis-L647-advanced-composition",
    ),
    Erratum(
        id="erratum.thesis-L420-renyi",
        source=f"{THESIS}:L417-427 (Def 2.2.1)",
        printed="D_α(P, Q) = (1/(1 − α)) log Σ p_i^α/q_i^{α−1}; ε' = ε + log(1/δ)/(1 − α)",
        corrected="1/(α − 1) in both",
        counterexample="P = (0.6, 0.4), Q = (0.4, 0.6), α = 2: printed D_2 = −0.154 < 0",
        tests=("tests/test_rectangles.py::test_composition",),
        obligation="erratum.thesis-L420-renyi",
    ),
    Erratum(
        id="erratum.thesis-lemma-5.3.2",
        source=f"{THESIS}:L1368-1372 (Lemma 5.3.2)",
        printed="every (ε, δ)-DP pair has an event G, P(G), Q(G) > 1 − δ, with |loss| ≤ ε on G",
        corrected=(
            "only with lost constants (loss ≤ 2ε outside probability δ/(1 − e^{−ε})); RandMargins "
            "with a pure-DP interior point does not need it"
        ),
        counterexample=(
            "P = (0.6, 0.4), Q = (0.4, 0.6), ε = 0.1, δ = 0.158: |loss| = 0.405 everywhere"
        ),
        tests=_TESTS,
        obligation="erratum.thesis-lemma-5.3.2",
    ),
    Erratum(
        id="erratum.thesis-L1326-ties",
        source=f"{THESIS}:L1324-1326 (Algorithm 4, removal y[i] ≥ p_i)",
        printed="remove {y ∈ S̄ : y[i] ≥ p_i} (ties leave together)",
        corrected=(
            "order each axis by (y[i], tag) with independent uniform per-record tags and threshold "
            "in the refined order (each fixed-tag run is the printed algorithm: same privacy)"
        ),
        counterexample="all positives at (5, 9), X = 15: every positive misclassified w.p. 0.562",
        tests=("tests/test_rectangles.py::test_ties",),
        obligation="erratum.thesis-L1326-ties",
    ),
)
