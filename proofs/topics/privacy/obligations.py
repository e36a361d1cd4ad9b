"""The entries of this topic without a check function: documented statements and those
proven by their CrossHair lemmas alone (the others are declared on their checks, see
``note.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.registry import Method, Obligation
from dpspec.proofs.engine.seeds import BAYES_CONSISTENCY, THESIS
from dpspec.proofs.topics.privacy.lemmas import (
    centred_vote_change_add_remove,
    centred_vote_change_substitution,
    count_change_add_remove,
    count_change_substitution,
    histogram_change_add_remove,
    histogram_change_substitution,
    postprocessing_ratio,
)

OBLIGATIONS: tuple[Obligation, ...] = (
    Obligation(
        id="privacy.sensitivity.count-substitution-lemma",
        source=f"{BAYES_CONSISTENCY}:L117 (Def 2.1, global sensitivity)",
        claim="a count changes by at most 1 when one record is substituted",
        method=Method.EXACT,
        predicates=(count_change_substitution,),
        lemmas=(count_change_substitution,),
        tests=("tests/test_lemmas.py::test_lemma_holds_on_examples",),
        binding="differential: privacy.sensitivity.counts-binding",
    ),
    Obligation(
        id="privacy.sensitivity.count-add-remove-lemma",
        source=f"{BAYES_CONSISTENCY}:L117 (Def 2.1)",
        claim="a count changes by at most 1 when one record is added or removed",
        method=Method.EXACT,
        predicates=(count_change_add_remove,),
        lemmas=(count_change_add_remove,),
        tests=("tests/test_lemmas.py::test_lemma_holds_on_examples",),
        binding="differential: privacy.sensitivity.counts-binding",
    ),
    Obligation(
        id="privacy.sensitivity.histogram-substitution-lemma",
        source=f"{BAYES_CONSISTENCY}:L125-147 (Alg 1: Lap(2/ε) for L1 sensitivity 2)",
        claim="a histogram moves by exactly 0 or 2 in L1 under substitution",
        method=Method.EXACT,
        predicates=(histogram_change_substitution,),
        lemmas=(histogram_change_substitution,),
        tests=("tests/test_lemmas.py::test_lemma_holds_on_examples",),
        binding="differential: privacy.sensitivity.counts-binding",
    ),
    Obligation(
        id="privacy.sensitivity.histogram-add-remove-lemma",
        source=f"{BAYES_CONSISTENCY}:L117 (Def 2.1)",
        claim="a histogram moves by exactly 1 in L1 under add/remove",
        method=Method.EXACT,
        predicates=(histogram_change_add_remove,),
        lemmas=(histogram_change_add_remove,),
        tests=("tests/test_lemmas.py::test_lemma_holds_on_examples",),
        binding="differential: privacy.sensitivity.counts-binding",
    ),
    Obligation(
        id="privacy.sensitivity.centred-vote-substitution-lemma",
        source=f"{BAYES_CONSISTENCY}:L206 (Thm 3.1 proof)",
        claim="PCL's per-cell votes Σ(y − ½) move by ≤ 1 in L1 under substitution",
        method=Method.EXACT,
        predicates=(centred_vote_change_substitution,),
        lemmas=(centred_vote_change_substitution,),
        tests=("tests/test_lemmas.py::test_lemma_holds_on_examples",),
        binding="differential: privacy.sensitivity.counts-binding",
    ),
    Obligation(
        id="privacy.sensitivity.centred-vote-add-remove-lemma",
        source=f"{BAYES_CONSISTENCY}:L206 (Thm 3.1 proof)",
        claim="PCL's per-cell votes Σ(y − ½) move by exactly ½ in L1 under add/remove",
        method=Method.EXACT,
        predicates=(centred_vote_change_add_remove,),
        lemmas=(centred_vote_change_add_remove,),
        tests=("tests/test_lemmas.py::test_lemma_holds_on_examples",),
        binding="differential: privacy.sensitivity.counts-binding",
    ),
    Obligation(
        id="privacy.dp.post-processing-lemma",
        source=f"{THESIS}:L643 (Thm 3.2.3, post-processing)",
        claim="a pointwise ratio bound survives any deterministic map of the outputs",
        method=Method.CROSSHAIR,
        predicates=(postprocessing_ratio,),
        lemmas=(postprocessing_ratio,),
        tests=("tests/test_lemmas.py::test_lemma_holds_on_examples",),
        binding="differential: privacy.sensitivity.counts-binding",
    ),
)
