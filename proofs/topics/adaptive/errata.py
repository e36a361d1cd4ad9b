"""Statements of thesis ch. 7 false as printed (see ``note.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.registry import Erratum
from dpspec.proofs.engine.seeds import THESIS

ERRATA: tuple[Erratum, ...] = (
    Erratum(
        id="adaptive.erratum.thesis-thm-7.3.6",
        source=f"{THESIS}:L2181-2183 (Thm 7.3.6)",
        printed="ψ(μ_{×t}) ≤ ψ(μ)^t",
        corrected="ψ(μ_{×t}) ≤ R̄^t (the proof's last equality at L2256 is wrong)",
        counterexample=(
            "n = 4, Ω = {0, 1}, g(a, b) = 3 if a = b else 1, t = 2: ψ(μ) = 13/40, "
            "ψ(μ_{×2}) = 1/8 > 169/1600"
        ),
        tests=("tests/test_adaptive.py::test_markov_chains",),
        obligation="adaptive.erratum.thesis-thm-7.3.6",
    ),
    Erratum(
        id="adaptive.erratum.thesis-L2159-r-bar",
        source=f"{THESIS}:L2159 (Def 7.3.2)",
        printed="R̄ = R²r²/(R² + r²)",
        corrected="R̄ = (R² − r²)/(R² + r²) (as used at L2169)",
        counterexample="the Thm 7.3.6 chain with g/10: printed R̄ = 0.009 < ψ = 0.325",
        tests=("tests/test_adaptive.py::test_markov_chains",),
        obligation="adaptive.erratum.thesis-L2159-r-bar",
    ),
    Erratum(
        id="adaptive.erratum.thesis-lemma-7.1.5-chernoff",
        source=f"{THESIS}:L2067 (proof of Lemma 7.1.5)",
        printed="P(Bin(n, ψ) < nψ/2) ≤ exp(−n/8)",
        corrected="≤ exp(−nψ/8) (multiplicative Chernoff with deviation 1/2)",
        counterexample="n = 194, ψ = 0.2: exact 9.6e-5 > e^{−n/8} = 2.9e-11",
        tests=("tests/test_adaptive.py::test_errata",),
        obligation="adaptive.erratum.thesis-lemma-7.1.5-chernoff",
    ),
    Erratum(
        id="adaptive.erratum.thesis-lemma-7.2.6-strict",
        source=f"{THESIS}:L2102-2127 (Lemma 7.2.6, Thm 7.2.7); {THESIS}:L2084 (Def 7.2.2)",
        printed="P(∃i: |q_i(S) − q_i(μ)| ≥ γ(q, μ, δ)) ≤ δ·k·2^b (and ≥ α + γ in Thm 7.2.7)",
        corrected=(
            "the strict '>' of Def 7.2.2: P(∃i: |q_i(S) − q_i(μ)| > γ) ≤ δ·|Q_A| ≤ δ·k·2^b, and "
            "P(∃i: |a_i − q_i(μ)| > α + γ) ≤ β + δ·k·2^b"
        ),
        counterexample=(
            "one fair bit (n = 1, q(x) = x): γ(q, μ, δ) = 1/2 for every δ, and with a constant "
            "mechanism (b = 0, k = 1) P(|q(S) − q(μ)| ≥ 1/2) = 1 > δ; with exact answers (b = 1) "
            "P(|a − q(μ)| ≥ γ) = 1 > 2δ"
        ),
        tests=("tests/test_adaptive.py::test_errata",),
        obligation="adaptive.erratum.thesis-lemma-7.2.6-strict",
    ),
    Erratum(
        id="adaptive.erratum.thesis-remark-7.2.5-hoeffding",
        source=f"{THESIS}:L2098 (Remark 7.2.5)",
        printed="γ(q, μ, δ) = √(ln(2/δ)/(2n)) for a statistical query and a product measure",
        corrected="γ(q, μ, δ) ≤ √(ln(2/δ)/(2n)) (Hoeffding's inequality bounds the radius)",
        counterexample="8 fair bits, q(x) = x, δ = 1/4: γ = 1/4 < √(ln 8/16) = 0.3605",
        tests=("tests/test_adaptive.py::test_errata",),
        obligation="adaptive.erratum.thesis-remark-7.2.5-hoeffding",
    ),
)
