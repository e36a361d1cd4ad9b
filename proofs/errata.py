"""Errata: statements of the seeds that are false as printed, with the check that exhibits it.

Policy: the corrected statement is what dpspec implements; the printed one is pinned by a test
that shows the counterexample; nothing is silently fixed. Later issues add entries here.
"""

from __future__ import annotations

from fractions import Fraction

from dpspec.proofs.errata_compression import COMPRESSION_ERRATA
from dpspec.proofs.errata_ldp import LDP_ERRATA
from dpspec.proofs.registry import CheckOutcome, Erratum, VerifyConfig
from dpspec.proofs.verifiers import verify_exponential

__all__ = ["ERRATA", "Erratum", "exponential_without_half"]


def exponential_without_half(config: VerifyConfig) -> CheckOutcome:
    """E-002-L655: weights exp(ε·s) (no ½) are not ε-DP; the exact verifier must find a pair.

    Passes when the printed mechanism is *caught* (a pair with likelihood ratio > e^ε) and the
    corrected mechanism (weights exp(ε·s/2)) holds on the same instances.
    """
    size = 4 if config.thorough else 3
    printed = verify_exponential(Fraction(1, 2), half=False, max_size=size)
    corrected = verify_exponential(Fraction(1, 2), half=True, max_size=size)
    caught = not printed.holds and corrected.holds
    return CheckOutcome(
        caught,
        f"printed: worst ratio {float(printed.worst_ratio):.4f} > e^eps = "
        f"{float(printed.claimed_ratio):.4f} at {printed.worst_pair}; corrected holds: "
        f"{corrected.holds}",
        {
            "printed_worst_ratio": str(printed.worst_ratio),
            "printed_claimed_ratio": str(printed.claimed_ratio),
            "corrected_claimed_ratio": str(corrected.claimed_ratio),
            "pairs": printed.pairs,
        },
    )


_CORE_ERRATA: tuple[Erratum, ...] = (
    Erratum(
        id="E-002-L655",
        source="002_9f3104e4a0d86722.txt:L655 (exponential mechanism, Sec 3.2)",
        printed="picking a with probability ∝ exp(ε·f(S, a)) is (ε, 0)-DP",
        corrected=(
            "with a score of sensitivity Δ the weights must be exp(ε·f(S, a)/(2Δ)); "
            "exp(ε·f/Δ) is only 2ε-DP"
        ),
        counterexample=(
            "thresholds on {0,1,2} scored by −mistakes, base e^{−ε} = 1/2: datasets "
            "((0,0),(0,0),(0,0)) and ((0,0),(0,0),(0,1)) have likelihood ratio 25/7 ≈ 3.57 > 2"
        ),
        tests=("tests/test_verifiers.py::test_exponential_without_half_is_caught",),
        obligation="E-002-L655",
    ),
    Erratum(
        id="E-000-L476",
        source="000_dff3c4dc97cf0e21.txt:L462-476 (Lemma A.8, last line of its proof)",
        printed="the proof of Lemma A.8 ends with ρ(a, b) ≤ r for a, b in one Voronoi cell",
        corrected="ρ(a, b) ≤ 2r (the lemma's statement, diam ≤ 2r, is true; constant 2 is sharp)",
        counterexample=(
            "centres (¼,¼), (¾,¼), (¼,¾), (¾,¾) are a maximal ½-packing of [0,1]²; (0,0) and "
            "(0.49,0.49) share a cell at distance 0.693 > ½; in 1-D {0.95, 2.85} in [0, 3.8] "
            "has a cell of diameter 1.9 = 2r·0.95"
        ),
        tests=("tests/test_pcl2.py::test_lemma_a8_last_line_counterexample",),
        obligation="000.lemA.8.cell-diameter",
    ),
    Erratum(
        id="E-000-L349",
        source="000_dff3c4dc97cf0e21.txt:L349 (Thm 4.10) vs 002_9f3104e4a0d86722.txt:L1683",
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
        obligation="000.thm4.10.unlabeled-sample-size",
    ),
)

ERRATA: tuple[Erratum, ...] = _CORE_ERRATA + COMPRESSION_ERRATA + LDP_ERRATA
