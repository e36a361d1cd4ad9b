"""Statements of seed 004 false as printed (see ``note.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.registry import Erratum
from dpspec.proofs.engine.seeds import CHAUDHURI_HSU as CH

_TESTS = ("tests/test_cover_learners.py::test_errata",)

ERRATA: tuple[Erratum, ...] = (
    Erratum(
        id="cover-learners.erratum.chaudhuri-hsu-lemma-11",
        source=f"{CH}:L365 (Lemma 11)",
        printed="∃Q ⊆ P, |Q| ≥ |P|/2: P(A(S_{X,h}) ∉ B_X(h, s/2)) ≤ 1/2 for h ∈ Q",
        corrected="… > 1/2 for h ∈ Q (the proof derives a contradiction from ≤ 1/2)",
        counterexample=(
            "m = 12, H = weight-≤4 labelings, |P| = 66, s = 1/12, α = 0.3: the exponential "
            "mechanism misses every h ∈ P w.p. 0.9976"
        ),
        tests=("tests/test_cover_learners.py::test_lemma11",),
        obligation="cover-learners.erratum.chaudhuri-hsu-lemma-11",
    ),
    Erratum(
        id="cover-learners.erratum.chaudhuri-hsu-thm-9-exponent",
        source=f"{CH}:L565 (proof of Thm 9)",
        printed="P(err(h, S) > err(g0, S) + 3ε/20) ≤ |G| exp(−3ε|S|/20)",
        corrected="≤ |G| exp(−3α|S|ε/40) (Lemma 18 with a_g = α|S|err(g, S)/2)",
        counterexample=(
            "A1r, realizable thresholds, m = 2000, ε = 0.1, α = 0.01: exact tail 0.73 > printed "
            "bound 3.0e-12"
        ),
        tests=_TESTS,
        obligation="cover-learners.erratum.chaudhuri-hsu-thm-9-exponent",
    ),
    Erratum(
        id="cover-learners.erratum.chaudhuri-hsu-lemma-18",
        source=f"{CH}:L484 (Lemma 18.1)",
        printed="a_i ≤ t ⇒ P(j = i) ≥ exp(−(t − a_i0))",
        corrected="a_i ≥ t ⇒ P(j = i) ≤ exp(−(t − a_i0)) (as the proof at L490 shows)",
        counterexample="a = (0, 0), i = i0 = 0, t = 0: P(j = 0) = 1/2 < 1",
        tests=_TESTS,
        obligation="cover-learners.erratum.chaudhuri-hsu-lemma-18",
    ),
    Erratum(
        id="cover-learners.erratum.chaudhuri-hsu-lemma-14",
        source=f"{CH}:L437-440 (Lemma 14)",
        printed="an ε-packing of a radius-r ball has ≤ (4r/ε)^d points",
        corrected="only for ε ≤ 4r (beyond, the bound is < 1)",
        counterexample="[0, 1], d = 1, r = 1/10, ε = 1/2: bound 4/5 < 1 = a one-point packing",
        tests=("tests/test_cover_learners.py::test_covers",),
        obligation="cover-learners.erratum.chaudhuri-hsu-lemma-14",
    ),
    Erratum(
        id="cover-learners.erratum.chaudhuri-hsu-lemma-15",
        source=f"{CH}:L441-447 (Lemma 15)",
        printed="if ddim_r(Z, ρ) ≤ d, some B(z, r) has an (r/2)-packing of size ≥ 2^d",
        corrected=(
            "if ddim_r(Z, ρ) ≥ d (the proof shows: all packings small ⇒ ddim_r < d); Thm 12's "
            "proof uses it this way"
        ),
        counterexample=(
            "Z = {0, 1} ⊂ ℝ, r = 1/4 < D/2, d = 1: ddim_r = 0 ≤ 1, but every ball B(z, 1/4) "
            "is {z}, whose packings have 1 < 2 points"
        ),
        tests=("tests/test_cover_learners.py::test_doubling_dimension",),
        obligation="cover-learners.erratum.chaudhuri-hsu-lemma-15",
    ),
    Erratum(
        id="cover-learners.erratum.chaudhuri-hsu-lemmas-20-21",
        source=f"{CH}:L581 (Lemma 20's proof); {CH}:L599 (Lemma 21's proof)",
        printed=(
            "Pr_U[x ∈ W] = 1 − 2exp(−nγ²/2); Pr_U[x ∉ W] = ((1 − γ)/2)^{(n−1)/2} (equalities)"
        ),
        corrected=(
            "≥ in both (concentration bounds): the lemmas' κ are upper bounds of the least "
            "smoothness constants 1/𝒰(W) and 1/(1 − 𝒰(W)), Lemma 20's only where "
            "1 − 2e^{−nγ²/2} > 0"
        ),
        counterexample=(
            "n = 3 (u·x uniform on [−1, 1]), γ = 1/2: 𝒰(W) = 1/2, but 1 − 2e^{−3/8} = −0.37 and "
            "((1 − γ)/2)^1 = 1/4 ≠ 1/2"
        ),
        tests=("tests/test_cover_learners.py::test_sphere_band_masses",),
        obligation="cover-learners.erratum.chaudhuri-hsu-lemmas-20-21",
    ),
    Erratum(
        id="cover-learners.erratum.chaudhuri-hsu-lemma-25",
        source=f"{CH}:L767 (Lemma 25); {CH}:L777 (its proof)",
        printed=(
            "for any r > 0, B_D(h_u, r) has an (r/2)-packing of size ≥ 2^{n−2}; the proof's "
            "p = Pr[B(h_u, r/2)]/Pr[B(h_u, r)] = 2^{−(n−1)}"
        ),
        corrected=(
            "for r small enough (the cap ratio tends to 2^{−(n−1)} as r → 0; it is larger for "
            "larger r, so the proof's bound on close pairs fails)"
        ),
        counterexample=(
            "r = 2, n = 3: ρ_D ≤ 1 = r/2, so an (r/2)-packing has one member < 2 = 2^{n−2}; "
            "at n = 3, r = 1 the cap ratio is 1/2, not 1/4"
        ),
        tests=("tests/test_cover_learners.py::test_doubling_dimension",),
        obligation="cover-learners.erratum.chaudhuri-hsu-lemma-25",
    ),
    Erratum(
        id="cover-learners.erratum.chaudhuri-hsu-L557",
        source=f"{CH}:L555-561 (proof of Thm 9)",
        printed=(
            "with probability ≥ 1 − δ/4, err(g0, S) ≤ err(g) + √(3 err(g) ln(4/δ)/|S|) "
            "(a multiplicative Chernoff bound)"
        ),
        corrected=(
            "the form holds for deviations up to err(g0) only; Eq. (9), P(err(g0, S) > 3ε/4) "
            "≤ δ/4 for err(g0) ≤ ε/4 and m ≥ (3/ε) ln(4/δ), holds (exact binomial tails)"
        ),
        counterexample=(
            "m = 100, err(g0) = 10^-4, δ = 10^-3: the bound is < 1/100, exceeded by one "
            "mistake, which has probability 1 − (1 − 10^-4)^100 ≈ 0.00995 > δ/4"
        ),
        tests=_TESTS,
        obligation="cover-learners.erratum.chaudhuri-hsu-L557",
    ),
    Erratum(
        id="cover-learners.erratum.chaudhuri-hsu-L226",
        source=f"{CH}:L226-228 (proof of Thm 5)",
        printed="|Z ∖ {z}| ≥ 1/η − 2; 'since m ≥ M'",
        corrected="|Z ∖ {z}| = ⌊1/η⌋ − 2 ≥ 1/η − 3; 'since m ≤ M' (the contradiction holds)",
        counterexample="α = 1/2, M = 4: |Z ∖ {z}| = 33 < 1/η − 2 = 33.56",
        tests=_TESTS,
        obligation="cover-learners.erratum.chaudhuri-hsu-L226",
    ),
)
