"""Statements of the seeds false as printed, in this topic (see ``note.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.registry import Erratum
from dpspec.proofs.engine.seeds import THESIS

ERRATA: tuple[Erratum, ...] = (
    Erratum(
        id="mechanisms.erratum.thesis-L655-exponential-half",
        source=f"{THESIS}:L655 (exponential mechanism, Sec 3.2)",
        printed="picking a with probability ∝ exp(ε·f(S, a)) is (ε, 0)-DP",
        corrected=(
            "with a score of sensitivity Δ the weights must be exp(ε·f(S, a)/(2Δ)); exp(ε·f/Δ) is "
            "only 2ε-DP"
        ),
        counterexample=(
            "thresholds on {0,1,2} scored by −mistakes, base e^{−ε} = 1/2: datasets "
            "((0,0),(0,0),(0,0)) and ((0,0),(0,0),(0,1)) have likelihood ratio 25/7 ≈ 3.57 > 2"
        ),
        tests=("tests/test_verifiers.py::test_exponential_without_half_is_caught",),
        obligation="mechanisms.erratum.thesis-L655-exponential-half",
    ),
)
