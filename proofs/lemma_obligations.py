"""Registry entries for the CrossHair lemma layer (``proofs/lemmas.py``).

Each lemma is a pure-Python function whose PEP 316 contract states the combinatorial or
piecewise-linear core of a privacy proof; its obligation is discharged when CrossHair explores
all paths without a counterexample ("confirmed").
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from dpspec.proofs.registry import Check, CheckOutcome, Method, Obligation, VerifyConfig

if TYPE_CHECKING:
    from dpspec.proofs.prove import ProveReport

S000 = "000_dff3c4dc97cf0e21.txt"
S002 = "002_9f3104e4a0d86722.txt"


#: One CrossHair run per (lemma module, budget) and process: ``dpspec verify`` checks several
#: obligations of one module, and each obligation reads its own conditions from the shared run.
_MODULE_RUNS: dict[tuple[str, float], ProveReport] = {}
_LOCK = threading.Lock()


def module_report(module: str, budget: float) -> ProveReport:
    """The CrossHair report of every lemma of ``module`` at CPU ``budget`` (run once, cached
    for the rest of the process; two workers)."""
    from dpspec.proofs.prove import run_prove

    with _LOCK:
        key = (module, float(budget))
        if key not in _MODULE_RUNS:
            _MODULE_RUNS[key] = run_prove((module,), per_condition_timeout=budget, progress=False)
        return _MODULE_RUNS[key]


def crosshair_check(function: str, module: str = "dpspec.proofs.lemmas") -> Check:
    """A check that passes when every condition of the lemma ``module.function`` is confirmed
    by CrossHair within the CPU budget ``config.crosshair_timeout``; the detail lists the
    largest CPU time of a condition against that budget."""

    def run(config: VerifyConfig) -> CheckOutcome:
        from dpspec.proofs.prove import summarise

        qualname = f"{module}.{function}"
        report = module_report(module, config.crosshair_timeout)
        records = [r for r in report.conditions if r["function"] == qualname]
        rec = summarise(qualname, records, report.seconds)
        detail = (
            f"crosshair: {rec['status']}, {len(records)} condition(s), max "
            f"{rec['max_cpu_seconds']:.2f}s CPU of a {config.crosshair_timeout:g}s budget "
            f"{rec['message']}"
        )
        return CheckOutcome(
            rec["status"] == "confirmed",
            detail.strip(),
            {
                "status": rec["status"],
                "max_cpu_seconds": rec["max_cpu_seconds"],
                "budget": config.crosshair_timeout,
                "conditions": {r["id"]: r["status"] for r in records},
            },
        )

    run.__name__ = f"crosshair_{function}"
    return run


#: (lemma function, obligation id, source, claim)
LEMMAS: tuple[tuple[str, str, str, str], ...] = (
    (
        "count_change_substitution",
        "lemma.count-sensitivity.substitution",
        f"{S000}:L117 (Def 2.1, global sensitivity)",
        "a count changes by at most 1 when one record is substituted",
    ),
    (
        "count_change_add_remove",
        "lemma.count-sensitivity.add-remove",
        f"{S000}:L117 (Def 2.1)",
        "a count changes by at most 1 when one record is added or removed",
    ),
    (
        "histogram_change_substitution",
        "lemma.histogram-sensitivity.substitution",
        f"{S000}:L125-147 (Alg 1: Lap(2/ε) for L1 sensitivity 2)",
        "a histogram moves by exactly 0 or 2 in L1 under substitution",
    ),
    (
        "histogram_change_add_remove",
        "lemma.histogram-sensitivity.add-remove",
        f"{S000}:L117 (Def 2.1)",
        "a histogram moves by exactly 1 in L1 under add/remove",
    ),
    (
        "centred_vote_change_substitution",
        "lemma.centred-vote.substitution",
        f"{S000}:L206 (Thm 3.1 proof)",
        "PCL's per-cell votes Σ(y − ½) move by ≤ 1 in L1 under substitution",
    ),
    (
        "centred_vote_change_add_remove",
        "lemma.centred-vote.add-remove",
        f"{S000}:L206 (Thm 3.1 proof)",
        "PCL's per-cell votes Σ(y − ½) move by exactly ½ in L1 under add/remove",
    ),
    (
        "laplace_loss_bound",
        "lemma.laplace-loss",
        f"{S000}:L119-121 (Def 2.2, Thm 2.3)",
        "(|y − a'| − |y − a|)/b ≤ |a − a'|/b, attained at y = a",
    ),
    (
        "laplace_loss_bound_half_integers",
        "lemma.laplace-loss.half-integers",
        f"{S000}:L206 (PCL thresholds at half-integers)",
        "the Laplace loss bound on half-integer arguments (Fraction path)",
    ),
    (
        "laplace_loss_vector_bound",
        "lemma.laplace-loss.vector",
        f"{S000}:L119-121 (Def 2.2: i.i.d. noise per coordinate)",
        "Σ_j (|y_j − a'_j| − |y_j − a_j|)/b ≤ ‖a − a'‖₁/b",
    ),
    (
        "discrete_laplace_ratio_bound",
        "lemma.discrete-laplace-ratio",
        f"{S000}:L119-121 (Thm 2.3, discrete analogue)",
        "|y − a'| − |y − a| ≤ |a − a'| for all integers (division-free core)",
    ),
    (
        "stability_release",
        "lemma.stability.zero-never-released",
        f"{S000}:L125-147 (Alg 1, Thm 2.4)",
        "a zero count is never released; a release is ≥ τ and equals count + noise",
    ),
    (
        "stability_histogram_release",
        "lemma.stability.histogram-support",
        f"{S000}:L125-147 (Alg 1)",
        "the released histogram's support is inside the data's support",
    ),
    (
        "em_score_change_substitution",
        "lemma.exponential.score-sensitivity",
        f"{S002}:L655 (exponential mechanism; score = −mistakes)",
        "the −mistakes score of every candidate moves by ≤ 1 under substitution",
    ),
    (
        "em_log_weight_difference",
        "lemma.exponential.log-weight",
        f"{S002}:L655 (corrected: weights exp(ε s/(2Δ)))",
        "ε(s − s')/(2Δ) ≤ ε/2 when |s − s'| ≤ Δ",
    ),
    (
        "em_normaliser_ratio",
        "lemma.exponential.normaliser",
        f"{S002}:L655 (corrected)",
        "normalisers satisfy Σw' ≤ r·Σw when every weight moves by ≤ r",
    ),
    (
        "postprocessing_ratio",
        "lemma.post-processing",
        f"{S002}:L643 (Thm 3.2.3, post-processing)",
        "a pointwise ratio bound survives any deterministic map of the outputs",
    ),
)

LEMMA_OBLIGATIONS: tuple[Obligation, ...] = tuple(
    Obligation(
        id=ob_id,
        source=source,
        claim=claim,
        predicates=(f"dpspec.proofs.lemmas.{fn}",),
        impls=(),
        method=Method.CROSSHAIR,
        tests=(f"tests/test_lemmas.py::test_lemma_holds_on_examples[{fn}]",),
        check=crosshair_check(fn),
        note="notes/lemmas.md",
    )
    for fn, ob_id, source, claim in LEMMAS
)
