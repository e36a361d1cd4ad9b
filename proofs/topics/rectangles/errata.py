"""Statements of thesis ch. 5 (and its background, Sec 2–3) false or garbled as printed (see
``note.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.registry import Erratum
from dpspec.proofs.engine.seeds import THESIS

_TESTS = ("tests/test_rectangles.py::test_errata",)

ERRATA: tuple[Erratum, ...] = (
    Erratum(
        id="rectangles.erratum.thesis-L647-advanced-composition",
        source=f"{THESIS}:L645-647 (Thm 3.2.4)",
        printed="ε' = ε√(sk ln(1/δ')) + 2kε², under 'Let 0 < δ', ε ≤ 1, and let 0 ≤ δ', ε ≤ 1'",
        corrected=(
            "garbled in the extraction, not false: the lost symbol is the 2 of "
            "ε' = ε√(2k ln(1/δ')) + 2kε² (ε ≤ 1; Dwork–Rothblum–Vadhan: "
            "ε√(2k ln(1/δ')) + kε(e^ε − 1)), and the hypotheses are one line printed twice"
        ),
        counterexample=(
            "none (a lost symbol, like seed 004's garbles); the reconstructed formula holds "
            "against the exact k-fold randomized response "
            "(rectangles.advanced-composition.exact-rr)"
        ),
        tests=("tests/test_rectangles.py::test_composition",),
        obligation="rectangles.erratum.thesis-L647-advanced-composition",
    ),
    Erratum(
        id="rectangles.erratum.thesis-L420-renyi",
        source=f"{THESIS}:L417-427 (Def 2.2.1)",
        printed="D_α(P, Q) = (1/(1 − α)) log Σ p_i^α/q_i^{α−1}; ε' = ε + log(1/δ)/(1 − α)",
        corrected="1/(α − 1) in both",
        counterexample="P = (0.6, 0.4), Q = (0.4, 0.6), α = 2: printed D_2 = −0.154 < 0",
        tests=("tests/test_rectangles.py::test_composition",),
        obligation="rectangles.erratum.thesis-L420-renyi",
    ),
    Erratum(
        id="rectangles.erratum.thesis-lemma-5.3.2",
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
        obligation="rectangles.erratum.thesis-lemma-5.3.2",
    ),
    Erratum(
        id="rectangles.erratum.thesis-claim-5.3.1-small-samples",
        source=f"{THESIS}:L1360-1364 (Claim 5.3.1)",
        printed="Pr[|I_in| > 35 log(1/δ)] ≤ δ (no condition on the sample)",
        corrected=(
            "only when S̄ cannot run out: with n ≥ 6dΔ ln(1/β) (the size the proof of Lemma 5.2.7 "
            "assumes, L1476); below, a record under every other coordinate sits in D_i on every "
            "axis and survives"
        ),
        counterexample=(
            "d = 80, ε₀ = 1 on {0..1023} (μ ≈ 479), n = 50 uniform points of {1..1023}^80, "
            "x' = the origin: |I_in| ≈ 80 > 70.4 in every run"
        ),
        tests=("tests/test_rectangles.py::test_claim_531",),
        obligation="rectangles.erratum.thesis-claim-5.3.1-small-samples",
    ),
    Erratum(
        id="rectangles.erratum.thesis-L1326-ties",
        source=f"{THESIS}:L1324-1326 (Algorithm 4, removal y[i] ≥ p_i)",
        printed="remove {y ∈ S̄ : y[i] ≥ p_i} (ties leave together)",
        corrected=(
            "order each axis by (y[i], tag) with independent uniform per-record tags and threshold "
            "in the refined order (each fixed-tag run is the printed algorithm: same privacy)"
        ),
        counterexample="all positives at (5, 9), X = 15: every positive misclassified w.p. 0.562",
        tests=("tests/test_rectangles.py::test_ties",),
        obligation="rectangles.erratum.thesis-L1326-ties",
    ),
)
