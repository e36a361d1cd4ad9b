"""Statements of the seeds false as printed, in this topic (see ``note.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.registry import Erratum
from dpspec.proofs.engine.seeds import THESIS

ERRATA: tuple[Erratum, ...] = (
    Erratum(
        id="compression.erratum.thesis-lemma-4.1.3",
        source=f"{THESIS}:L725-735 (Lemma 4.1.3)",
        printed="x ≥ ½ + γ ⇒ x^{1+γ}(1−x)^{1−γ} ≤ (½+γ)^{1−γ}(½−γ)^{1+γ}",
        corrected="… ≤ (½+γ)^{1+γ}(½−γ)^{1−γ} (the value at x = ½ + γ; f decreases there)",
        counterexample="γ = 1/10, x = 3/5: 0.2499 > 0.2305 (10th powers: ratio exactly 9/4)",
        tests=("tests/test_verifiers.py::test_registry_checks_pass",),
        obligation="compression.erratum.thesis-lemma-4.1.3",
    ),
    Erratum(
        id="compression.erratum.thesis-lemma-4.2.5",
        source=f"{THESIS}:L1061-1066 (Lemma 4.2.5)",
        printed="a 2^n × n binary matrix with every row of {0,1}^n has V(M) ≥ 2^n/n",
        corrected="V(M) ≥ (2^n − 1)/n (2^n − 1 row changes, each flips ≥ 1 column)",
        counterexample="n = 1: rows (0), (1) give V(M) = 1 < 2",
        tests=("tests/test_verifiers.py::test_registry_checks_pass",),
        obligation="compression.erratum.thesis-lemma-4.2.5",
    ),
    Erratum(
        id="compression.erratum.thesis-L962-binary-margin",
        source=f"{THESIS}:L956-962 (proof of Thm 1.1.1)",
        printed="with γ = 1/8, Cor 4.1.2 gives |½ − Σ_t α'_t h_t(x_i)| ≥ 1/8",
        corrected="only > γ/2 = 1/16 (Cor 4.1.2 controls the γ/2 quantiles)",
        counterexample=(
            "values (1, 0), weights (145/256, 111/256), label 1: both γ/2-quantiles are 1, margin "
            "17/256 < 1/8"
        ),
        tests=("tests/test_verifiers.py::test_registry_checks_pass",),
        obligation="compression.erratum.thesis-L962-binary-margin",
    ),
)
