"""Statements of seed 004 false as printed (see ``note.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.registry import Erratum
from dpspec.proofs.engine.seeds import CHAUDHURI_HSU as CH

_TESTS = ("tests/test_cover_learners.py::test_errata",)

ERRATA: tuple[Erratum, ...] = (
    Erratum(
        id="erratum.chaudhuri-hsu-lemma-11",
        source=f"{CH}:L365 (Lemma 11)",
        printed="∃Q ⊆ P, |Q| ≥ |P|/2: P(A(S_{X,h}) ∉ B_X(h, s/2)) ≤ 1/2 for h ∈ Q",
        corrected="… > 1/2 for h ∈ Q (the proof derives a contradiction from ≤ 1/2)",
        counterexample=(
            "m = 12, H = weight-≤4 labelings, |P| = 66, s = 1/12, α = 0.3: the exponential "
            "mechanism misses every h ∈ P w.p. 0.9976"
        ),
        tests=("tests/test_cover_learners.py::test_lemma11",),
        obligation="erratum.chaudhuri-hsu-lemma-11",
    ),
    Erratum(
        id="erratum.chaudhuri-hsu-thm-9-exponent",
        source=f"{CH}:L565 (proof of Thm 9)",
        printed="P(err(h, S) > err(g0, S) + 3ε/20) ≤ |G| exp(−3ε|S|/20)",
        corrected="≤ |G| exp(−3α|S|ε/40) (Lemma 18 with a_g = α|S|err(g, S)/2)",
        counterexample=(
            "A1r, realizable thresholds, m = 2000, ε = 0.1, α = 0.01: exact tail 0.73 > printed "
            "bound 3.0e-12"
        ),
        tests=_TESTS,
        obligation="erratum.chaudhuri-hsu-thm-9-exponent",
    ),
    Erratum(
        id="erratum.chaudhuri-hsu-lemma-18",
        source=f"{CH}:L484 (Lemma 18.1)",
        printed="a_i ≤ t ⇒ P(j = i) ≥ exp(−(t − a_i0))",
        corrected="a_i ≥ t ⇒ P(j = i) ≤ exp(−(t − a_i0)) (as the proof at L490 shows)",
        counterexample="a = (0, 0), i = i0 = 0, t = 0: P(j = 0) = 1/2 < 1",
        tests=_TESTS,
        obligation="erratum.chaudhuri-hsu-lemma-18",
    ),
    Erratum(
        id="erratum.chaudhuri-hsu-lemma-14",
        source=f"{CH}:L437-440 (Lemma 14)",
        printed="an ε-packing of a radius-r ball has ≤ (4r/ε)^d points",
        corrected="only for ε ≤ 4r (beyond, the bound is < 1)",
        counterexample="[0, 1], d = 1, r = 1/10, ε = 1/2: bound 4/5 < 1 = a one-point packing",
        tests=("tests/test_cover_learners.py::test_covers",),
        obligation="erratum.chaudhuri-hsu-lemma-14",
    ),
    Erratum(
        id="erratum.chaudhuri-hsu-L226",
        source=f"{CH}:L226-228 (proof of Thm 5)",
        printed="|Z ∖ {z}| ≥ 1/η − 2; 'since m ≥ M'",
        corrected="|Z ∖ {z}| = ⌊1/η⌋ − 2 ≥ 1/η − 3; 'since m ≤ M' (the contradiction holds)",
        counterexample="α = 1/2, M = 4: |Z ∖ {z}| = 33 < 1/η − 2 = 33.56",
        tests=_TESTS,
        obligation="erratum.chaudhuri-hsu-L226",
    ),
)
