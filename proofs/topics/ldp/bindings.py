"""Binding of the Prop 1 lemmas to the exact report laws of ``LocalRandomiser``."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np
from hypothesis import strategies as st

from dpspec.ldp.mechanism import W_ONE, LocalRandomiser, ReportLaw
from dpspec.ldp.partition import CubicPartition
from dpspec.proofs.engine.bindings import Case, differential
from dpspec.proofs.engine.registry import (
    CheckOutcome,
    Control,
    Method,
    Obligation,
    Slack,
    VerifyConfig,
)
from dpspec.proofs.engine.seeds import LDP_REGRESSION
from dpspec.proofs.topics.ldp.lemmas import log_ratio_core, onehot_sensitivity, response_sensitivity

#: Hypothesis inputs of the binding (after its boundary cases); ×5 with ``--thorough``.
EXAMPLES = 300


class _WSignalDoubled(LocalRandomiser):
    """Control: a randomiser whose W signal is 2·1{x ∈ A_j} (a real bug: the one-hot
    indicator added twice, sensitivity 4 for noise calibrated to 2)."""

    @property
    def _w_signal(self) -> float:
        return 2.0 * super()._w_signal


def _ldp_randomisers(kind: type[LocalRandomiser] = LocalRandomiser) -> list[Any]:
    part = CubicPartition(h=2.0, radius=1.0)  # 2 cells: inside every lemma's domain
    return [
        kind(part, 1.0, 1.0),
        kind(part, 0.5, 2.0),
        kind(part, 1.0, 1.0, z_only=True),
    ]


def _compare_ldp(rands: list[Any]) -> Callable[[Case], str | None]:
    from dpspec.proofs.topics.ldp.lemmas import (
        log_ratio_core,
        onehot_sensitivity,
        response_sensitivity,
    )

    def compare(case: Case) -> str | None:
        rand = rands[case["rand"]]
        big_n = rand.partition.n_cells
        x, y, x2, y2 = case["x"], case["y"], case["x2"], case["y2"]
        law, law2 = rand.pmf(np.array([x, y])), rand.pmf(np.array([x2, y2]))
        cells, units = rand._signal(np.asarray([[x], [x2]]), np.array([y, y2]))
        c, c2, d, d2 = int(cells[0]), int(cells[1]), int(units[0]), int(units[1])
        m = int(np.rint(rand.truncation / rand.step_z))
        if not (-1 <= c < big_n and -1 <= c2 < big_n and abs(d) <= m and abs(d2) <= m):
            return f"signal outside the lemma's domain: cells {c}, {c2}, units {d}, {d2}, M {m}"
        w_k = tuple(case["w"][:big_n])
        w = tuple(W_ONE * k + r for k, r in zip(w_k, case["w_rest"], strict=False))
        z = tuple(case["z"][:big_n])
        if len(w) != big_n or len(z) != big_n:
            return None
        w_report = w if law.w_centre else ()
        got = law.log_weight(w_report, z) - law2.log_weight(w_report, z)
        z_part = response_sensitivity(z, c, d, c2, d2, m)
        expected = Fraction(z_part) / Fraction(law.scale_z)
        if law.w_centre:
            # W's signal is W_ONE·1{x ∈ A_j}: the response lemma with y = y' = W_ONE, and for
            # reports on the coarse lattice (w = W_ONE·k) W_ONE times the one-hot lemma
            w_part = response_sensitivity(w, c, W_ONE, c2, W_ONE, W_ONE)
            coarse = W_ONE * onehot_sensitivity(w_k, c, c2)
            if all(r == 0 for r in case["w_rest"]) and w_part != coarse:
                return f"W part {w_part} != W_ONE·one-hot lemma {coarse}"
            expected += Fraction(w_part) / Fraction(law.scale_w)
            if all(r == 0 for r in case["w_rest"]):
                sw, sz = Fraction(law.scale_w), Fraction(law.scale_z)
                lcm = sw.numerator * sz.numerator
                a_int = W_ONE * lcm * sw.denominator // sw.numerator
                b_int = lcm * sz.denominator // sz.numerator
                core = log_ratio_core(w_k, z, c, d, c2, d2, m, a_int, b_int)
                if Fraction(core, lcm) != expected:
                    return f"log_ratio_core {core}/{lcm} != sum of parts {expected}"
        if got != expected:
            return f"impl log-weight difference {got} != lemma value {expected}"
        return None

    return compare


@Obligation(
    id="ldp.ldp-randomiser.lemma-binding",
    source=f"{LDP_REGRESSION}:L247-251 (Prop 1); L640-656 (proof)",
    claim=(
        "the log-weight difference of two exact report laws of LocalRandomiser equals "
        "the lemma functions' sums over the noise scales; the signal is in the lemmas' "
        "domain"
    ),
    method=Method.PROPERTY,
    predicates=(onehot_sensitivity, response_sensitivity, log_ratio_core),
    impls=(LocalRandomiser.pmf, ReportLaw),
    tests=("tests/test_lemma_bindings.py::test_binding_checks_catch_a_broken_rule",),
)
def ldp_binding(config: VerifyConfig) -> CheckOutcome:
    """The log density ratio of two reports' exact laws, as the local randomiser computes it
    (``LocalRandomiser.pmf(...).log_weight``, the law :meth:`randomise` samples: bound by
    ``ldp.ldp-randomiser.exact-law``), equals the lemma functions' sums scaled by the noise
    scales; the signal (cell, truncated response in lattice units) lies in the lemmas' domain.
    Control: a randomiser adding the W indicator twice must be rejected."""
    rands = _ldp_randomisers()
    big_n = rands[0].partition.n_cells
    boundaries: list[Case] = [
        {"rand": r, "x": x, "y": y, "x2": x2, "y2": y2, "w": w, "w_rest": (0,) * big_n, "z": z}
        for r in range(len(rands))
        for x, y, x2, y2 in ((-0.5, 1.0, 0.5, -1.0), (0.5, 5.0, 0.5, -5.0), (3.0, 0.0, 0.5, 1.0))
        for w, z in (((0,) * big_n, (0,) * big_n), ((1,) * big_n, (-3,) * big_n))
    ]
    pos = st.floats(-1.5, 1.5, allow_nan=False)
    resp = st.floats(-3.0, 3.0, allow_nan=False)
    vec = st.lists(st.integers(-8, 8), min_size=big_n, max_size=big_n).map(tuple)
    rest = st.one_of(
        st.just((0,) * big_n), st.lists(st.integers(-3, 3), min_size=big_n, max_size=big_n)
    ).map(tuple)
    strategy = st.fixed_dictionaries(
        {
            "rand": st.integers(0, len(rands) - 1),
            "x": pos,
            "y": resp,
            "x2": pos,
            "y2": resp,
            "w": vec,
            "w_rest": rest,
            "z": vec,
        }
    )
    outcome = differential(config, boundaries, strategy, _compare_ldp(rands), EXAMPLES)
    control = differential(
        config, boundaries, strategy, _compare_ldp(_ldp_randomisers(_WSignalDoubled)), 20
    )
    caught = not control.passed
    outcome.passed &= caught
    outcome.controls.append(
        Control("LocalRandomiser adding the W indicator twice", caught, control.detail[:160])
    )
    outcome.slack.append(Slack("inputs where impl != lemma", 0.0, 0.0 if outcome.passed else 1.0))
    return outcome
