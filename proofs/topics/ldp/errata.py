"""Statements of the seeds false as printed, in this topic (see ``note.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.registry import Erratum
from dpspec.proofs.engine.seeds import LDP_REGRESSION

ERRATA: tuple[Erratum, ...] = (
    Erratum(
        id="ldp.erratum.ldp-regression-lemma-1-strict",
        source=f"{LDP_REGRESSION}:L706-708 (proof of Thm 4)",
        printed="Σ_n |B_n| P{|σ_Z n^{-1} Σ ε| ≥ ε h^d} = Σ_n (4λ(S)/h^d) e^{-n(εh^d/σ_Z)²/4}",
        corrected="≤ (|B_n| ≤ 4λ(S)/h^d and Lemma 1 is an inequality)",
        counterexample=(
            "exact quadrature of the Laplace mean tail: P(|mean| ≥ ε) ≤ 0.4351·2e^{−nε²/4} on "
            "every tested (n, ε); e.g. n = 1, ε = 1.9: e^{−√2·1.9} = 0.068 < 2e^{−0.9025} = 0.81"
        ),
        tests=("tests/test_verifiers.py::test_registry_checks_pass",),
        obligation="ldp.laplace-mean-tail",
    ),
    Erratum(
        id="ldp.erratum.ldp-regression-thm2-fixed-alpha",
        source=f"{LDP_REGRESSION}:L166-175 (Thm 2) vs L253-261",
        printed="Thm 2: σ_W, σ_Z fixed, M_n → ∞ gives strong consistency of the α-LDP estimate",
        corrected=(
            "with σ fixed the Prop 1 level 2^{3/2}(1/σ_W + M_n/σ_Z) → ∞: not α-LDP for a fixed α; "
            "take σ_Z ≍ M_n/α and (log n)³ max(1, M_n²/α²)/(n c_n² h_n^{2d}) → 0 (L259)"
        ),
        counterexample=(
            "σ calibrated for α = 1, M = 1 and M_n = √(log n): level 1.57 at n = 10², 2.36 at "
            "10⁶, 2.65 at 10⁸"
        ),
        tests=("tests/test_verifiers.py::test_registry_checks_pass",),
        obligation="ldp.erratum.ldp-regression-thm2-fixed-alpha",
    ),
    Erratum(
        id="ldp.erratum.ldp-regression-L94-L142-typos",
        source=f"{LDP_REGRESSION}:L94 and L142 (eq. 6)",
        printed="ν_n(A_{h,j}) sums over Q_h(X_i) = x_{h,i}; W_{i,j} uses 1{X_i ∈ A_{h,i}}",
        corrected="x_{h,j} and A_{h,j}: the cell index, not the user index",
        counterexample="index typos (no executable content); the randomiser uses cell j",
        tests=("tests/test_ldp.py::test_two_party_api",),
        obligation="ldp.erratum.ldp-regression-L94-L142-typos",
    ),
)
