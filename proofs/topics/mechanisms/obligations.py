"""The entries of this topic without a check function: documented statements and those
proven by their CrossHair lemmas alone (the others are declared on their checks, see
``note.md``)."""

from __future__ import annotations

from dpspec.mechanisms.stability_histogram import StabilityHistogram
from dpspec.proofs.engine.registry import Method, Obligation
from dpspec.proofs.engine.seeds import BAYES_CONSISTENCY, THESIS
from dpspec.proofs.topics.mechanisms.lemmas import (
    discrete_laplace_ratio_bound,
    em_log_weight_difference,
    em_normaliser_ratio,
    em_score_change_substitution,
    laplace_loss_bound,
    laplace_loss_bound_half_integers,
    laplace_loss_bound_half_integers_scale2,
    laplace_loss_vector_bound,
    stability_histogram_release,
    stability_release,
)

OBLIGATIONS: tuple[Obligation, ...] = (
    Obligation(
        id="mechanisms.stability-histogram.accuracy",
        source=f"{BAYES_CONSISTENCY}:L145 (Thm 2.4, accuracy part)",
        claim="E|ĉ(x) − count(x)| ≤ O((1/ε)·min{log(1/δ), count(x)}) (constants unspecified)",
        method=Method.DOCUMENTED,
        impls=(StabilityHistogram,),
    ),
    Obligation(
        id="mechanisms.laplace.loss-lemma",
        source=f"{BAYES_CONSISTENCY}:L119-121 (Def 2.2, Thm 2.3)",
        claim="(|y − a'| − |y − a|)/b ≤ |a − a'|/b, attained at y = a",
        method=Method.CROSSHAIR,
        predicates=(laplace_loss_bound,),
        lemmas=(laplace_loss_bound,),
        tests=("tests/test_lemmas.py::test_lemma_holds_on_examples",),
        binding="differential: mechanisms.discrete-laplace.lemma-binding",
    ),
    Obligation(
        id="mechanisms.laplace.loss-lemma-half-integers",
        source=f"{BAYES_CONSISTENCY}:L206 (PCL thresholds at half-integers)",
        claim="the Laplace loss bound on half-integer arguments (Fraction path), scales 1 and 2",
        method=Method.CROSSHAIR,
        predicates=(laplace_loss_bound_half_integers, laplace_loss_bound_half_integers_scale2),
        lemmas=(laplace_loss_bound_half_integers, laplace_loss_bound_half_integers_scale2),
        tests=("tests/test_lemmas.py::test_lemma_holds_on_examples",),
        binding="differential: mechanisms.discrete-laplace.lemma-binding",
    ),
    Obligation(
        id="mechanisms.laplace.loss-lemma-vector",
        source=f"{BAYES_CONSISTENCY}:L119-121 (Def 2.2: i.i.d. noise per coordinate)",
        claim="Σ_j (|y_j − a'_j| − |y_j − a_j|)/b ≤ ‖a − a'‖₁/b",
        method=Method.CROSSHAIR,
        predicates=(laplace_loss_vector_bound,),
        lemmas=(laplace_loss_vector_bound,),
        tests=("tests/test_lemmas.py::test_lemma_holds_on_examples",),
        binding="differential: mechanisms.discrete-laplace.lemma-binding",
    ),
    Obligation(
        id="mechanisms.discrete-laplace.ratio-lemma",
        source=f"{BAYES_CONSISTENCY}:L119-121 (Thm 2.3, discrete analogue)",
        claim="|y − a'| − |y − a| ≤ |a − a'| for all integers (division-free core)",
        method=Method.CROSSHAIR,
        predicates=(discrete_laplace_ratio_bound,),
        lemmas=(discrete_laplace_ratio_bound,),
        tests=("tests/test_lemmas.py::test_lemma_holds_on_examples",),
        binding="differential: mechanisms.discrete-laplace.lemma-binding",
    ),
    Obligation(
        id="mechanisms.stability-histogram.zero-never-released-lemma",
        source=f"{BAYES_CONSISTENCY}:L125-147 (Alg 1, Thm 2.4)",
        claim="a zero count is never released; a release is ≥ τ and equals count + noise",
        method=Method.CROSSHAIR,
        predicates=(stability_release,),
        lemmas=(stability_release,),
        tests=("tests/test_lemmas.py::test_lemma_holds_on_examples",),
        binding="differential: mechanisms.stability-histogram.lemma-binding",
    ),
    Obligation(
        id="mechanisms.stability-histogram.support-lemma",
        source=f"{BAYES_CONSISTENCY}:L125-147 (Alg 1)",
        claim="the released histogram's support is inside the data's support",
        method=Method.CROSSHAIR,
        predicates=(stability_histogram_release,),
        lemmas=(stability_histogram_release,),
        tests=("tests/test_lemmas.py::test_lemma_holds_on_examples",),
        binding="differential: mechanisms.stability-histogram.lemma-binding",
    ),
    Obligation(
        id="mechanisms.exponential.score-sensitivity-lemma",
        source=f"{THESIS}:L655 (exponential mechanism; score = −mistakes)",
        claim="the −mistakes score of every candidate moves by ≤ 1 under substitution",
        method=Method.EXACT,
        predicates=(em_score_change_substitution,),
        lemmas=(em_score_change_substitution,),
        tests=("tests/test_lemmas.py::test_lemma_holds_on_examples",),
        binding="differential: mechanisms.exponential.lemma-binding",
    ),
    Obligation(
        id="mechanisms.exponential.log-weight-lemma",
        source=f"{THESIS}:L655 (corrected: weights exp(ε s/(2Δ)))",
        claim="ε(s − s')/(2Δ) ≤ ε/2 when |s − s'| ≤ Δ",
        method=Method.CROSSHAIR,
        predicates=(em_log_weight_difference,),
        lemmas=(em_log_weight_difference,),
        tests=("tests/test_lemmas.py::test_lemma_holds_on_examples",),
        binding="differential: mechanisms.exponential.lemma-binding",
    ),
    Obligation(
        id="mechanisms.exponential.normaliser-lemma",
        source=f"{THESIS}:L655 (corrected)",
        claim="normalisers satisfy Σw' ≤ r·Σw when every weight moves by ≤ r",
        method=Method.CROSSHAIR,
        predicates=(em_normaliser_ratio,),
        lemmas=(em_normaliser_ratio,),
        tests=("tests/test_lemmas.py::test_lemma_holds_on_examples",),
        binding="differential: mechanisms.exponential.lemma-binding",
    ),
)
