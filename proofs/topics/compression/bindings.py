"""Binding of the quantile lemmas to the code that runs: the vectorised weighted quantiles and
median (MedBoost's) and the vote of the compression scheme's ρ (``reconstruct``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from hypothesis import strategies as st

from dpspec.compression import boosting
from dpspec.compression.boosting import weighted_median, weighted_quantiles
from dpspec.compression.schemes import CompressedSample, reconstruct
from dpspec.proofs.engine.bindings import Case, differential
from dpspec.proofs.engine.controls import BugControl
from dpspec.proofs.engine.registry import CheckOutcome, Method, Obligation, Slack, VerifyConfig
from dpspec.proofs.engine.seeds import THESIS
from dpspec.proofs.topics.compression import lemmas
from dpspec.proofs.topics.compression.lemmas import quantile_lower_order, quantile_upper_order
from dpspec.spec.compression import quantile_plus


def lower_median(values: Any, weights: Any) -> Any:
    """Control: the *lower* weighted median (the real code on the mirrored values), where the
    thesis defines the upper one (Median(0, 1) = 1)."""
    return -boosting.weighted_median(-np.asarray(values, dtype=np.float64), weights)


def _compare_quantiles(median: Callable[[Any, Any], Any]) -> Callable[[Case], str | None]:
    def compare(case: Case) -> str | None:
        values, weights, g = case["values"], case["weights"], case["g_num"]
        a, b, c = sorted(values)
        order = sorted(range(3), key=lambda k: values[k])
        wa, wb, wc = (weights[k] for k in order)
        lo, med = lemmas.quantile_lower_order(a, b, c, wa, wb, wc, g)
        med2, hi = lemmas.quantile_upper_order(a, b, c, wa, wb, wc, g)
        col = np.asarray(values, dtype=np.float64).reshape(3, 1)
        w = np.asarray(weights, dtype=np.float64)
        q_lo, q_hi = boosting.weighted_quantiles(col, w, g / 8)
        got = (float(q_lo[0]), float(median(col, w)[0]), float(q_hi[0]))
        if got != (lo, med, hi) or med != med2:
            return f"impl (Q-, Med, Q+) = {got}, lemma functions ({lo}, {med}, {hi})"
        # ρ's vote, through reconstruct: three groups of one stored point each, so the three
        # hypotheses are the constants values[0..2] and ρ(x) is their (upper) median
        compressed = CompressedSample("bv", np.arange(3), np.arange(3).reshape(3, 1), 3, 1, 1, 1)
        rho = reconstruct(compressed, np.array([0.1, 0.5, 0.9]), np.asarray(values, float))
        vote = float(rho(np.array([0.95]))[0])
        if vote != lemmas._median3(*values):
            return f"reconstruct's vote {vote} != lemma's _median3 {lemmas._median3(*values)}"
        # an even number of hypotheses: the upper median of the definition, not the lower
        four = (*values, values[0] + 1)
        compressed = CompressedSample("bv", np.arange(4), np.arange(4).reshape(4, 1), 4, 1, 1, 1)
        rho = reconstruct(compressed, np.array([0.1, 0.3, 0.5, 0.7]), np.asarray(four, float))
        vote = float(rho(np.array([0.95]))[0])
        if vote != quantile_plus(four, (1, 1, 1, 1), 0):
            return f"reconstruct's vote {vote} != the upper median of {four}"
        return None

    return compare


@Obligation(
    id="compression.quantiles.lemma-binding",
    source=f"{THESIS}:L693-703 (weighted median and quantiles); {THESIS}:L953-972 (rho)",
    claim=(
        "the code that runs equals the lemma functions: weighted_quantiles / "
        "weighted_median (MedBoost's quantiles) and the vote of reconstruct (the "
        "scheme's rho, the upper median of its hypotheses)"
    ),
    method=Method.PROPERTY,
    predicates=(
        quantile_lower_order,
        quantile_upper_order,
        "dpspec.proofs.topics.compression.lemmas._median3",
    ),
    impls=(weighted_quantiles, weighted_median, reconstruct),
    tests=("tests/test_lemma_bindings.py::test_binding_checks_catch_a_broken_rule",),
    bug_controls=(
        BugControl(
            "dpspec.compression.schemes._median_of",
            "return np.asarray(weighted_median(values, np.ones(len(hypotheses))))",
            "return -np.asarray(weighted_median(-values, np.ones(len(hypotheses))))",
            "rho voting with the lower median (the thesis's median is the upper one)",
        ),
        BugControl(
            weighted_quantiles,
            "plus_ok = above < limit",
            "plus_ok = above <= limit",
            "Q+ with a non-strict share (<= where L693-703 has <)",
        ),
    ),
)
def quantiles_binding(config: VerifyConfig) -> CheckOutcome:
    """The code that runs equals the lemma functions (the spec's definitions) on three weighted
    values, γ = g/8: :func:`~dpspec.compression.boosting.weighted_quantiles` and
    ``weighted_median`` (MedBoost's quantiles), and the vote of the compression scheme's ρ —
    :func:`~dpspec.compression.schemes.reconstruct` on three stored groups whose hypotheses are
    constants — against ``_median3`` of the Lipschitz lemmas, and on four groups against the
    definition's upper median (``quantile_plus`` with unit weights). Its controls are bug controls
    planted in the code (the registry entry): ρ voting with the lower median, and Q⁺ with a
    non-strict share."""
    boundaries = [
        {"values": v, "weights": w, "g_num": g}
        for v, w in (
            ((0, 1, 2), (1, 1, 1)),
            ((0, 0, 1), (1, 1, 2)),  # shares exactly ½: the upper median
            ((2, 1, 0), (0, 0, 1)),
            ((1, 1, 1), (3, 0, 0)),
            ((-4, 4, 0), (2, 2, 0)),
        )
        for g in range(4)
    ]
    vals = st.tuples(*(st.integers(-4, 4),) * 3)
    ws = st.tuples(*(st.integers(0, 3),) * 3).filter(lambda w: sum(w) > 0)
    strategy = st.fixed_dictionaries({"values": vals, "weights": ws, "g_num": st.integers(0, 3)})
    compare = _compare_quantiles(boosting.weighted_median)
    outcome = differential(config, boundaries, strategy, compare, 300)
    outcome.slack.append(Slack("inputs where impl != lemma", 0.0, 0.0 if outcome.passed else 1.0))
    return outcome
