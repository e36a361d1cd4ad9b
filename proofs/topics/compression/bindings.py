"""Binding of the quantile lemmas to the vectorised weighted quantiles and median."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from dpspec.proofs.engine.bindings import Case, differential
from dpspec.proofs.engine.registry import CheckOutcome, VerifyConfig


def _compare_quantiles(case: Case) -> str | None:
    from dpspec.compression.boosting import weighted_median, weighted_quantiles
    from dpspec.proofs.topics.compression.lemmas import (
        _median3,
        quantile_lower_order,
        quantile_upper_order,
    )

    values, weights, g = case["values"], case["weights"], case["g_num"]
    a, b, c = sorted(values)
    order = sorted(range(3), key=lambda k: values[k])
    wa, wb, wc = (weights[k] for k in order)
    lo, med = quantile_lower_order(a, b, c, wa, wb, wc, g)
    med2, hi = quantile_upper_order(a, b, c, wa, wb, wc, g)
    col = np.asarray(values, dtype=np.float64).reshape(3, 1)
    w = np.asarray(weights, dtype=np.float64)
    q_lo, q_hi = weighted_quantiles(col, w, g / 8)
    impl_med = weighted_median(col, w)
    got = (float(q_lo[0]), float(impl_med[0]), float(q_hi[0]))
    if got != (lo, med, hi) or med != med2:
        return f"impl (Q-, Med, Q+) = {got}, lemma functions ({lo}, {med}, {hi})"
    # the unweighted median of the Lipschitz lemmas
    unweighted = float(weighted_median(col, np.ones(3))[0])
    if unweighted != _median3(*values):
        return f"impl unweighted median {unweighted} != lemma's _median3 {_median3(*values)}"
    return None


def quantiles_binding(config: VerifyConfig) -> CheckOutcome:
    """:func:`dpspec.compression.boosting.weighted_quantiles` / ``weighted_median`` equal
    the lemma functions (the spec's definitions) on three weighted values, γ = g/8."""
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
    return differential(config, boundaries, strategy, _compare_quantiles)
