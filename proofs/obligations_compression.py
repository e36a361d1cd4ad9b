"""Registered obligations of seed 002 ch. 4 (sample compression by boosting). Checks:
``proofs/checks_compression.py``; lemmas: ``proofs/lemmas_compression.py``; note:
``proofs/notes/compression.md``.
"""

from __future__ import annotations

from dpspec.proofs import checks_compression
from dpspec.proofs.lemma_obligations import crosshair_check
from dpspec.proofs.lemmas_compression import MEDIAN_LIPSCHITZ_CASES
from dpspec.proofs.registry import Method, Obligation

S002 = "002_9f3104e4a0d86722.txt"
_RUN = "tests/test_verifiers.py::test_registry_checks_pass"
_B = "dpspec.compression.boosting"
_L = "dpspec.compression.learners"
_S = "dpspec.compression.schemes"
NOTE = "notes/compression.md"
_LEM = "dpspec.proofs.lemmas_compression"

COMPRESSION_OBLIGATIONS: tuple[Obligation, ...] = (
    Obligation(
        id="002.L693.quantile-order",
        source=f"{S002}:L693-703 (weighted median and quantiles)",
        claim="Q-_gamma <= Median <= Q+_gamma, each one of the values (CrossHair)",
        predicates=(
            "dpspec.spec.compression.quantile_plus",
            "dpspec.spec.compression.quantile_minus",
            "dpspec.spec.compression.weighted_median",
            f"{_LEM}.quantile_lower_order",
            f"{_LEM}.quantile_upper_order",
        ),
        impls=(),
        method=Method.CROSSHAIR,
        tests=("tests/test_compression.py::test_lemmas_hold_on_examples",),
        check=crosshair_check(("quantile_lower_order", "quantile_upper_order"), module=_LEM),
        note=NOTE,
        binding="differential: lemma.binding.quantiles",
    ),
    Obligation(
        id="002.L693.median-lipschitz",
        source=f"{S002}:L693-703; {S002}:L1001 (median 1-Lipschitz in the sup norm)",
        claim="|Med(a) - Med(b)| <= ||a - b||_inf for three values (CrossHair)",
        predicates=tuple(f"{_LEM}.{name}" for name in MEDIAN_LIPSCHITZ_CASES),
        impls=(),
        method=Method.CROSSHAIR,
        tests=("tests/test_compression.py::test_lemmas_hold_on_examples",),
        check=crosshair_check(MEDIAN_LIPSCHITZ_CASES, module=_LEM),
        note=NOTE,
        binding="differential: lemma.binding.quantiles",
    ),
    Obligation(
        id="002.L693.quantiles-vectorised",
        source=f"{S002}:L693-703",
        claim="the vectorised quantiles equal the definitions; order, monotonicity in gamma, "
        "1-Lipschitz median",
        predicates=("dpspec.spec.compression.quantile_plus",),
        impls=(f"{_B}.weighted_quantiles", f"{_B}.weighted_median"),
        method=Method.PROPERTY,
        tests=(f"{_RUN}[002.L693.quantiles-vectorised]",),
        check=checks_compression.quantiles,
        note=NOTE,
    ),
    Obligation(
        id="002.alg2.medboost",
        source=f"{S002}:L687 (Alg 2); {S002}:L707-721 (Lemma 4.1.1, Cor 4.1.2); "
        f"{S002}:L759-763 (per-round factor)",
        claim="P_t distributions, alpha_t > 0, error of h_t under P_(t+1) = (1-gamma)/2, "
        "factor < e^(-gamma^2/4), Kegl's bound, zero violations at T >= (4/gamma^2) ln m",
        predicates=(),
        impls=(
            f"{_B}.medboost",
            f"{_B}.BoostResult",
            f"{_B}.WeakLearner",
            f"{_B}.CompressionFailure",
            f"{_B}.check_gamma",
            f"{_B}.check_bounded_count",
        ),
        method=Method.PROPERTY,
        tests=(f"{_RUN}[002.alg2.medboost]", "tests/test_compression.py::test_bad_input"),
        check=checks_compression.medboost_invariants,
        note=NOTE,
    ),
    Obligation(
        id="002.alg3.schemes",
        source=f"{S002}:L936-938 (Alg 3, Sparsify); {S002}:L953-972 (the scheme); "
        f"{S002}:L1205-1213 (2d-point rectangles); {S002}:L553-565 (definitions)",
        claim="kappa(S) is a sub-multiset of S, rho reproduces every label (binary) or is "
        "within eta (real-valued), size bounded independently of m",
        predicates=(
            "dpspec.spec.compression.is_submultiset",
            "dpspec.spec.compression.size_within",
            "dpspec.spec.compression.reconstructs_exactly",
            "dpspec.spec.compression.uniformly_approximates",
        ),
        impls=(
            f"{_B}.sparsify",
            f"{_B}.SparsifyResult",
            f"{_S}.compress",
            f"{_S}.reconstruct",
            f"{_S}.CompressedSample",
            f"{_S}.rectangle_baseline",
            f"{_S}.random_realizable_sample",
            f"{_S}.bv_target",
            f"{_L}.ThresholdLearner",
            f"{_L}.IntervalLearner",
            f"{_L}.RectangleLearner",
            f"{_L}.StepLearner",
            f"{_L}.LinearLearner",
        ),
        method=Method.PROPERTY,
        tests=(
            f"{_RUN}[002.alg3.schemes]",
            "tests/test_compression.py::test_schemes_reconstruct",
            "tests/test_compression.py::test_cli_compress",
        ),
        check=checks_compression.schemes,
        note=NOTE,
    ),
    Obligation(
        id="002.learners.proper",
        source=f"{S002}:L889-897 (deterministic proper ERM); {S002}:L1030-1050 (BV)",
        claim="the step learner stays in BV(v), the interpolation keeps the Lipschitz constant",
        predicates=(),
        impls=(f"{_L}.StepLearner", f"{_L}.LinearLearner"),
        method=Method.PROPERTY,
        tests=(f"{_RUN}[002.learners.proper]",),
        check=checks_compression.lipschitz_learner_is_proper,
        note=NOTE,
    ),
    Obligation(
        id="002.lem4.2.7.bv-dual-witness",
        source=f"{S002}:L1061-1100 (Lemma 4.2.5, Thm 4.2.3, Lemma 4.2.7)",
        claim="floor(log2(v/t)) functions on a Gray-code grid dual-shatter at margin t within "
        "BV(v); the corrected Lemma 4.2.5 bounds k <= 2 log2(v/t)",
        predicates=(),
        impls=(),
        method=Method.EXACT,
        tests=(f"{_RUN}[002.lem4.2.7.bv-dual-witness]",),
        check=checks_compression.gray_code_witness,
        note=NOTE,
    ),
    Obligation(
        id="E-002-L725",
        source=f"{S002}:L725-735 (Lemma 4.1.3)",
        claim="Lemma 4.1.3 as printed is false (gamma = 1/10, x = 3/5); the corrected right "
        "side (1/2+gamma)^(1+gamma)(1/2-gamma)^(1-gamma) holds",
        predicates=(),
        impls=(),
        method=Method.EXACT,
        tests=(f"{_RUN}[E-002-L725]",),
        check=checks_compression.lemma_413,
        note=NOTE,
    ),
    Obligation(
        id="E-002-L1061",
        source=f"{S002}:L1061-1066 (Lemma 4.2.5)",
        claim="V(M) >= 2^n/n fails at n = 1 (brute force); (2^n - 1)/n holds for n <= 3",
        predicates=(),
        impls=(),
        method=Method.EXACT,
        tests=(f"{_RUN}[E-002-L1061]",),
        check=checks_compression.lemma_425,
        note=NOTE,
    ),
    Obligation(
        id="E-002-L962",
        source=f"{S002}:L956-962 (proof of Thm 1.1.1)",
        claim="the binary margin is gamma/2 (= 1/16), not the printed 1/8: exact example",
        predicates=("dpspec.spec.compression.quantile_plus",),
        impls=(),
        method=Method.EXACT,
        tests=(f"{_RUN}[E-002-L962]",),
        check=checks_compression.binary_margin,
        note=NOTE,
    ),
    Obligation(
        id="002.lem4.2.10.lipschitz-dual-witness",
        source=f"{S002}:L1181-1190 (Lemma 4.2.10: onto code, values 1/2 +- t, McShane)",
        claim="floor(log2 M(X, 2t/L)) L-Lipschitz functions dual-shatter at margin t; "
        "2^n <= the packing number",
        predicates=(),
        impls=(),
        method=Method.EXACT,
        tests=(f"{_RUN}[002.lem4.2.10.lipschitz-dual-witness]",),
        check=checks_compression.lipschitz_dual_witness,
        note=NOTE,
    ),
    Obligation(
        id="002.eq4.6.chernoff",
        source=f"{S002}:L1001-1003 (eq. 4.6, per-point Chernoff bound in Sparsify)",
        claim="P(>= n/2 of n draws wrong) <= 2 exp(-n gamma^2/2), exact binomial tails",
        predicates=(),
        impls=(),
        method=Method.EXACT,
        tests=(f"{_RUN}[002.eq4.6.chernoff]",),
        check=checks_compression.chernoff_per_point,
        note=NOTE,
    ),
)
