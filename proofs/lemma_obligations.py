"""Registry entries for the CrossHair lemma layer (``proofs/lemmas.py``).

Each lemma is a pure-Python function whose PEP 316 contract states the combinatorial or
piecewise-linear core of a privacy proof; its obligation is discharged when CrossHair explores
all paths without a counterexample ("confirmed").
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

from dpspec.proofs.registry import Check, CheckOutcome, Method, Obligation, VerifyConfig

if TYPE_CHECKING:
    from dpspec.proofs.prove import ProveReport

S000 = "000_dff3c4dc97cf0e21.txt"
S002 = "002_9f3104e4a0d86722.txt"


#: One CrossHair run per (lemma module, budget) and process: ``dpspec verify`` checks several
#: obligations of one module, and each obligation reads its own conditions from the shared run.
_MODULE_RUNS: dict[tuple[str, float], ProveReport] = {}
#: Runs started in the background by :func:`prefetch_crosshair`, set when their report is in.
_PENDING: dict[tuple[str, float], threading.Event] = {}
_LOCK = threading.Lock()


def module_report(module: str, budget: float) -> ProveReport:
    """The CrossHair report of every lemma of ``module`` at CPU ``budget`` (run once, cached
    for the rest of the process; two workers), waiting for a background run if one is under
    way."""
    from dpspec.proofs.prove import run_prove

    key = (module, float(budget))
    with _LOCK:
        pending = _PENDING.get(key)
    if pending is not None:
        pending.wait()
    with _LOCK:
        if key not in _MODULE_RUNS:
            _MODULE_RUNS[key] = run_prove((module,), per_condition_timeout=budget, progress=False)
        return _MODULE_RUNS[key]


def prefetch_crosshair(selected: Sequence[Obligation], budget: float) -> None:
    """Start, in a background thread, the CrossHair runs (two workers each, one module after
    the other) of every lemma module the ``selected`` CrossHair obligations need, so that they
    overlap with the other checks of ``dpspec verify``; each obligation's check later reads
    its own conditions (:func:`module_report` waits for a run still under way)."""
    from dpspec.proofs.prove import run_prove

    modules: list[str] = []
    for ob in selected:
        module = getattr(ob.check, "crosshair_module", None)
        if ob.method == Method.CROSSHAIR and isinstance(module, str) and module not in modules:
            modules.append(module)
    with _LOCK:
        modules = [m for m in modules if (m, float(budget)) not in _MODULE_RUNS | _PENDING]
        events = {m: threading.Event() for m in modules}
        for m, event in events.items():
            _PENDING[(m, float(budget))] = event
    if not modules:
        return

    def work() -> None:
        # one module after the other, in the order the obligations need them, so the first
        # module's obligations can be read while the next module is still being checked
        for m in modules:
            key = (m, float(budget))
            try:
                report = run_prove((m,), per_condition_timeout=budget, progress=False)
                with _LOCK:
                    _MODULE_RUNS[key] = report
            finally:
                with _LOCK:
                    _PENDING.pop(key, None)
                events[m].set()

    threading.Thread(target=work, name="crosshair-prefetch", daemon=True).start()


def crosshair_check(
    functions: str | tuple[str, ...], module: str = "dpspec.proofs.lemmas"
) -> Check:
    """A check that passes when every condition of the lemma(s) ``module.function`` is
    confirmed by CrossHair within the CPU budget ``config.crosshair_timeout``; the detail gives
    the largest CPU time of a condition against that budget."""
    names = (functions,) if isinstance(functions, str) else functions
    qualnames = tuple(f"{module}.{name}" for name in names)

    def run(config: VerifyConfig) -> CheckOutcome:
        from dpspec.proofs.prove import summarise

        report = module_report(module, config.crosshair_timeout)
        records = [r for r in report.conditions if r["function"] in qualnames]
        missing = [q for q in qualnames if not any(r["function"] == q for r in records)]
        rec = summarise(" + ".join(qualnames), records, report.seconds)
        passed = rec["status"] == "confirmed" and not missing
        detail = (
            f"crosshair: {rec['status']}, {len(records)} condition(s), max "
            f"{rec['max_cpu_seconds']:.2f}s CPU of a {config.crosshair_timeout:g}s budget"
            + (f"; no conditions found for {missing}" if missing else "")
            + (f"; {rec['message']}" if rec["message"] else "")
        )
        return CheckOutcome(
            passed,
            detail,
            {
                "status": rec["status"],
                "max_cpu_seconds": rec["max_cpu_seconds"],
                "budget": config.crosshair_timeout,
                "conditions": {r["id"]: r["status"] for r in records},
            },
        )

    run.__name__ = f"crosshair_{'_'.join(names)}"
    run.crosshair_module = module  # type: ignore[attr-defined]
    return run


# Differential obligations binding the lemmas to the implementation (proofs/lemma_bindings.py).
B_COUNTS = "lemma.binding.counts"
B_LAPLACE = "lemma.binding.discrete-laplace"
B_STABILITY = "lemma.binding.stability-release"
B_EXPONENTIAL = "lemma.binding.exponential"
B_QUANTILES = "lemma.binding.quantiles"
B_LDP = "lemma.binding.ldp"
B_AUDIT = "lemma.binding.audit"

#: (lemma function(s), obligation id, source, claim, binding obligation id)
LEMMAS: tuple[tuple[str | tuple[str, ...], str, str, str, str], ...] = (
    (
        "count_change_substitution",
        "lemma.count-sensitivity.substitution",
        f"{S000}:L117 (Def 2.1, global sensitivity)",
        "a count changes by at most 1 when one record is substituted",
        B_COUNTS,
    ),
    (
        "count_change_add_remove",
        "lemma.count-sensitivity.add-remove",
        f"{S000}:L117 (Def 2.1)",
        "a count changes by at most 1 when one record is added or removed",
        B_COUNTS,
    ),
    (
        "histogram_change_substitution",
        "lemma.histogram-sensitivity.substitution",
        f"{S000}:L125-147 (Alg 1: Lap(2/ε) for L1 sensitivity 2)",
        "a histogram moves by exactly 0 or 2 in L1 under substitution",
        B_COUNTS,
    ),
    (
        "histogram_change_add_remove",
        "lemma.histogram-sensitivity.add-remove",
        f"{S000}:L117 (Def 2.1)",
        "a histogram moves by exactly 1 in L1 under add/remove",
        B_COUNTS,
    ),
    (
        "centred_vote_change_substitution",
        "lemma.centred-vote.substitution",
        f"{S000}:L206 (Thm 3.1 proof)",
        "PCL's per-cell votes Σ(y − ½) move by ≤ 1 in L1 under substitution",
        B_COUNTS,
    ),
    (
        "centred_vote_change_add_remove",
        "lemma.centred-vote.add-remove",
        f"{S000}:L206 (Thm 3.1 proof)",
        "PCL's per-cell votes Σ(y − ½) move by exactly ½ in L1 under add/remove",
        B_COUNTS,
    ),
    (
        "laplace_loss_bound",
        "lemma.laplace-loss",
        f"{S000}:L119-121 (Def 2.2, Thm 2.3)",
        "(|y − a'| − |y − a|)/b ≤ |a − a'|/b, attained at y = a",
        B_LAPLACE,
    ),
    (
        ("laplace_loss_bound_half_integers", "laplace_loss_bound_half_integers_scale2"),
        "lemma.laplace-loss.half-integers",
        f"{S000}:L206 (PCL thresholds at half-integers)",
        "the Laplace loss bound on half-integer arguments (Fraction path), scales 1 and 2",
        B_LAPLACE,
    ),
    (
        "laplace_loss_vector_bound",
        "lemma.laplace-loss.vector",
        f"{S000}:L119-121 (Def 2.2: i.i.d. noise per coordinate)",
        "Σ_j (|y_j − a'_j| − |y_j − a_j|)/b ≤ ‖a − a'‖₁/b",
        B_LAPLACE,
    ),
    (
        "discrete_laplace_ratio_bound",
        "lemma.discrete-laplace-ratio",
        f"{S000}:L119-121 (Thm 2.3, discrete analogue)",
        "|y − a'| − |y − a| ≤ |a − a'| for all integers (division-free core)",
        B_LAPLACE,
    ),
    (
        "stability_release",
        "lemma.stability.zero-never-released",
        f"{S000}:L125-147 (Alg 1, Thm 2.4)",
        "a zero count is never released; a release is ≥ τ and equals count + noise",
        B_STABILITY,
    ),
    (
        "stability_histogram_release",
        "lemma.stability.histogram-support",
        f"{S000}:L125-147 (Alg 1)",
        "the released histogram's support is inside the data's support",
        B_STABILITY,
    ),
    (
        "em_score_change_substitution",
        "lemma.exponential.score-sensitivity",
        f"{S002}:L655 (exponential mechanism; score = −mistakes)",
        "the −mistakes score of every candidate moves by ≤ 1 under substitution",
        B_EXPONENTIAL,
    ),
    (
        "em_log_weight_difference",
        "lemma.exponential.log-weight",
        f"{S002}:L655 (corrected: weights exp(ε s/(2Δ)))",
        "ε(s − s')/(2Δ) ≤ ε/2 when |s − s'| ≤ Δ",
        B_EXPONENTIAL,
    ),
    (
        "em_normaliser_ratio",
        "lemma.exponential.normaliser",
        f"{S002}:L655 (corrected)",
        "normalisers satisfy Σw' ≤ r·Σw when every weight moves by ≤ r",
        B_EXPONENTIAL,
    ),
    (
        "postprocessing_ratio",
        "lemma.post-processing",
        f"{S002}:L643 (Thm 3.2.3, post-processing)",
        "a pointwise ratio bound survives any deterministic map of the outputs",
        B_COUNTS,
    ),
)


def _names(fns: str | tuple[str, ...]) -> tuple[str, ...]:
    return (fns,) if isinstance(fns, str) else fns


_CROSSHAIR_OBLIGATIONS: tuple[Obligation, ...] = tuple(
    Obligation(
        id=ob_id,
        source=source,
        claim=claim,
        predicates=tuple(f"dpspec.proofs.lemmas.{fn}" for fn in _names(fns)),
        impls=(),
        method=Method.CROSSHAIR,
        tests=tuple(
            f"tests/test_lemmas.py::test_lemma_holds_on_examples[{fn}]" for fn in _names(fns)
        ),
        check=crosshair_check(fns),
        note="notes/lemmas.md",
        binding=f"differential: {binding}",
    )
    for fns, ob_id, source, claim, binding in LEMMAS
)

_RUN = "tests/test_verifiers.py::test_registry_checks_pass"
_LEM = "dpspec.proofs.lemmas"
_SH = "dpspec.mechanisms.stability_histogram"
_PCL = "dpspec.learners.pcl.PrivateHistogramClassifier"
_BIND_TEST = "tests/test_lemma_bindings.py::test_binding_checks_catch_a_broken_rule"


def _binding(
    ob_id: str,
    source: str,
    claim: str,
    predicates: tuple[str, ...],
    impls: tuple[str, ...],
    check: Check,
) -> Obligation:
    return Obligation(
        id=ob_id,
        source=source,
        claim=claim,
        predicates=predicates,
        impls=impls,
        method=Method.PROPERTY,
        tests=(f"{_RUN}[{ob_id}]", _BIND_TEST),
        check=check,
        note="notes/lemmas.md",
    )


def _lazy(name: str) -> Check:
    """The check ``dpspec.proofs.lemma_bindings.<name>``, imported when it runs."""

    def run(config: VerifyConfig) -> CheckOutcome:
        from dpspec.proofs import lemma_bindings

        check: Check = getattr(lemma_bindings, name)
        return check(config)

    run.__name__ = name
    return run


def _bindings() -> tuple[Obligation, ...]:
    return (
        _binding(
            B_STABILITY,
            f"{S000}:L132-140 (Alg 1 release rule)",
            "StabilityHistogram.release_counts (exact, float-eps and idealised paths, noise "
            "injected) equals the lemma's stability_release cell by cell",
            (f"{_LEM}.stability_release", f"{_LEM}.stability_histogram_release"),
            (f"{_SH}.StabilityHistogram.release_counts",),
            _lazy("stability_release_binding"),
        ),
        _binding(
            B_COUNTS,
            f"{S000}:L117, L125-147, L206 (counts, histograms, PCL votes, post-processing)",
            "impl cell counts == spec histogram/count; PCL fit's margins == 2 x spec "
            "centred_votes; PCL predict == pushforward of the released bits",
            (
                "dpspec.spec.sensitivity.histogram",
                "dpspec.spec.sensitivity.count",
                "dpspec.spec.sensitivity.centred_votes",
                f"{_LEM}.pushforward",
            ),
            (f"{_SH}._cell_counts", f"{_PCL}.fit", f"{_PCL}.predict"),
            _lazy("counts_binding"),
        ),
        _binding(
            B_LAPLACE,
            f"{S000}:L119-121 (Laplace / discrete Laplace privacy loss)",
            "the pmf ratio of DiscreteLaplaceNoise is q^-k with k the lemma functions' values "
            "(scalar, half-integer, scale 2, vector)",
            (
                f"{_LEM}.discrete_laplace_ratio_bound",
                f"{_LEM}.laplace_loss_bound",
                f"{_LEM}.laplace_loss_bound_half_integers",
                f"{_LEM}.laplace_loss_bound_half_integers_scale2",
                f"{_LEM}.laplace_loss_vector_bound",
            ),
            ("dpspec.noise.DiscreteLaplaceNoise.pmf",),
            _lazy("discrete_laplace_binding"),
        ),
        _binding(
            B_EXPONENTIAL,
            f"{S002}:L655 (corrected exponential mechanism); {S000}:L349 (score = -mistakes)",
            "ExponentialMechanism exponents == lemma log-weight difference, pmf == w/Z with "
            "the lemma's normaliser, Dichotomies.mistakes == spec mistakes",
            (
                f"{_LEM}.em_log_weight_difference",
                f"{_LEM}.em_normaliser_ratio",
                "dpspec.spec.sensitivity.mistakes",
            ),
            (
                "dpspec.mechanisms.exponential.ExponentialMechanism.pmf",
                "dpspec.learners.semi_supervised.Dichotomies.mistakes",
            ),
            _lazy("exponential_binding"),
        ),
        _binding(
            B_QUANTILES,
            f"{S002}:L693-703 (weighted median and quantiles)",
            "the vectorised weighted_quantiles / weighted_median equal the lemma functions "
            "(quantile order, and the unweighted median of the Lipschitz lemmas)",
            (
                "dpspec.proofs.lemmas_compression.quantile_lower_order",
                "dpspec.proofs.lemmas_compression.quantile_upper_order",
                "dpspec.proofs.lemmas_compression._median3",
            ),
            (
                "dpspec.compression.boosting.weighted_quantiles",
                "dpspec.compression.boosting.weighted_median",
            ),
            _lazy("quantiles_binding"),
        ),
        _binding(
            B_LDP,
            "003_5e2a1f46235ac29b.txt:L247-251 (Prop 1); L640-656 (proof)",
            "the log-weight difference of two exact report laws of LocalRandomiser equals the "
            "lemma functions' sums over the noise scales; the signal is in the lemmas' domain",
            (
                "dpspec.proofs.lemmas_ldp.onehot_sensitivity",
                "dpspec.proofs.lemmas_ldp.response_sensitivity",
                "dpspec.proofs.lemmas_ldp.log_ratio_core",
            ),
            ("dpspec.ldp.mechanism.LocalRandomiser.report_law",),
            _lazy("ldp_binding"),
        ),
        _binding(
            B_AUDIT,
            "auditing.md (DP-Sniper, StatDP: Clopper-Pearson event bounds)",
            "epsilon_lower <= ln r exactly when the lemma's certificate holds",
            (
                "dpspec.proofs.lemmas_audit.lower_bound_sound",
                "dpspec.proofs.lemmas_audit.lower_bound_sound_reversed",
            ),
            ("dpspec.audit.core.epsilon_lower",),
            _lazy("audit_binding"),
        ),
    )


BINDING_OBLIGATIONS: tuple[Obligation, ...] = _bindings()

#: The differential obligations that bind every lemma (of all lemma modules) to the
#: implementation, then the CrossHair lemmas of ``dpspec.proofs.lemmas`` (in this order, so
#: that ``dpspec verify`` runs the former while CrossHair checks the latter in the background).
LEMMA_OBLIGATIONS: tuple[Obligation, ...] = BINDING_OBLIGATIONS + _CROSSHAIR_OBLIGATIONS
