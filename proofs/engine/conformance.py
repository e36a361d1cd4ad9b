"""Conformance: the entry point a user calls draws from the exact law the privacy checks decide.

The exact privacy obligations enumerate an output law (``pmf``, ``release_law``,
``release_law``, ``release_law``); the user calls ``sample``, ``fit``/``predict``,
``release_counts``, ``randomise``. A conformance obligation binds the two: it runs the real
entry point ``draws`` times on a small instance, tabulates the outcomes, and tests them against
the exact law with the chi-square test of :mod:`dpspec.proofs.engine.stats` at α = 1e-6 (the
false-alarm probability of one obligation). Its power is shown, not assumed: the same entry
point run at **2ε** (a real mechanism with a real bug: the noise of half the scale) must be
rejected against the ε law at the same α, and the report states the approximate power of the
test against that alternative (non-central chi-square with λ = n Σ (q − p)²/p over the bins).

So a sampler that drifts from its law (a halved scale, a threshold off by one, a draw reused
across cells) fails here, and a law that drifts from the sampler fails here too; the exact
check then decides privacy on a law that is, up to this test, the law of the code that runs.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy import stats

from dpspec._rows import distinct_rows
from dpspec.proofs.engine.registry import CheckOutcome, Control, VerifyConfig, stop_if_failed
from dpspec.proofs.engine.stats import ALPHA, chisquare_counts

Law = Mapping[Any, Any]

#: Root of the generators of every conformance check (one child per check ``tag``).
CONFORMANCE_SEED = 20261123


def conformance_rng(tag: int) -> np.random.Generator:
    """The generator of the conformance check numbered ``tag`` (fixed: verdicts reproduce)."""
    return np.random.default_rng([CONFORMANCE_SEED, tag])


def draws(config: VerifyConfig, base: int) -> int:
    """How many runs of the entry point a conformance check makes (4× with ``--thorough``)."""
    return 4 * base if config.thorough else base


def tabulate(outcomes: Iterable[Hashable] | NDArray[Any]) -> dict[Hashable, int]:
    """Counts of outcomes; a 2-D array counts its rows (as tuples of Python scalars)."""
    if isinstance(outcomes, np.ndarray):
        if outcomes.ndim == 2:
            kind = outcomes.dtype.kind
            if kind in "ib" or (kind == "u" and outcomes.itemsize < 8):  # rows of int64 keys
                packable, counted = distinct_rows(outcomes.astype(np.int64))
                rows = packable.astype(outcomes.dtype)
            else:
                rows, counted = np.unique(outcomes, axis=0, return_counts=True)
            return {tuple(r): int(c) for r, c in zip(rows.tolist(), counted.tolist(), strict=True)}
        values, counts = np.unique(outcomes, return_counts=True)
        return {v: int(c) for v, c in zip(values.tolist(), counts.tolist(), strict=True)}
    table: dict[Hashable, int] = {}
    for o in outcomes:
        table[o] = table.get(o, 0) + 1
    return table


def power_against(law: Law, alternative: Law, n: int, alpha: float = ALPHA) -> float:
    """Approximate power of the level-α chi-square test of ``law`` with n draws when the draws
    follow ``alternative`` (non-central chi-square, λ = n Σ (q − p)²/p over the outcomes of
    ``law`` with p·n ≥ 5; outcomes outside share one bin)."""
    keys = [k for k, p in law.items() if float(p) * n >= 5]
    rest_p = 1.0 - sum(float(law[k]) for k in keys)
    rest_q = 1.0 - sum(float(alternative.get(k, 0)) for k in keys)
    lam = sum(n * (float(alternative.get(k, 0)) - float(law[k])) ** 2 / float(law[k]) for k in keys)
    dof = len(keys) - 1
    if rest_p * n >= 5:
        lam += n * (rest_q - rest_p) ** 2 / rest_p
        dof += 1
    if dof < 1:
        return 0.0
    critical = float(stats.chi2.isf(alpha, dof))
    return float(stats.ncx2.sf(critical, dof, lam))


@dataclass
class ConformanceReport:
    """One entry point against its exact law, with the 2ε control."""

    name: str
    draws: int
    bins: int
    pvalue: float
    control_pvalue: float
    power: float
    alpha: float = ALPHA
    details: dict[str, Any] = field(default_factory=dict)
    control_bug: str = "noise for 2ε"
    #: False under a bug control: the 2ε control was not drawn (only the verdict counts)
    control_run: bool = True

    @property
    def conforms(self) -> bool:
        return self.pvalue >= self.alpha

    @property
    def control_rejected(self) -> bool:
        return not self.control_run or self.control_pvalue < self.alpha

    @property
    def holds(self) -> bool:
        return self.conforms and self.control_rejected

    @property
    def control(self) -> Control:
        """The entry point run with the bug the power is stated against, as a control."""
        return Control(
            f"{self.name} drawn with {self.control_bug}",
            self.control_rejected,
            f"p = {self.control_pvalue:.3g} < α = {self.alpha:g} (power ≈ {self.power:.3f})",
        )

    def summary(self) -> str:
        control = (
            f"2ε control p={self.control_pvalue:.3g} (power ≈ {self.power:.3f})"
            if self.control_run
            else "2ε control not run (under a bug control)"
        )
        return (
            f"{self.name}: {self.draws} draws, {self.bins} bins, p={self.pvalue:.3g} "
            f"(α={self.alpha:g}); {control} -> "
            f"{'conforms' if self.holds else 'NONCONFORMING' if not self.conforms else 'NO POWER'}"
        )


def conformance(
    name: str,
    law: Law,
    draw: Callable[[int], Iterable[Hashable] | NDArray[Any]],
    draw_control: Callable[[int], Iterable[Hashable] | NDArray[Any]],
    control_law: Law,
    draws: int,
    alpha: float = ALPHA,
    *,
    config: VerifyConfig | None = None,
) -> ConformanceReport:
    """Run the entry point (``draw(n)`` → n outcomes) and the 2ε control, test both against
    ``law``; ``control_law`` is the exact law of the control, used only to state the power.

    Under a bug control (``config.under_control``) only the entry point is drawn: the check
    ends at a report that does not conform (:func:`stop_if_failed`), and a conforming one
    comes back with the 2ε control not run (``control_run`` False: it counts as rejected)."""
    observed = tabulate(draw(draws))
    n = sum(observed.values())
    if n != draws:
        raise ValueError(f"draw: returned {n} outcomes, expected {draws}")
    pvalue, bins = chisquare_counts(observed, law)
    if config is not None and config.under_control:
        stop_if_failed(config, pvalue >= alpha, f"{name}: p={pvalue:.3g} < α={alpha:g}")
        return ConformanceReport(
            name, draws, bins, pvalue, math.nan, math.nan, alpha, control_run=False
        )
    control_pvalue, _ = chisquare_counts(tabulate(draw_control(draws)), law)
    return ConformanceReport(
        name,
        draws,
        bins,
        pvalue,
        control_pvalue,
        power_against(law, control_law, draws, alpha),
        alpha,
    )


def outcome(reports: list[ConformanceReport], extra_ok: bool = True) -> CheckOutcome:
    """All reports conform and every control is rejected."""
    ok = extra_ok and all(r.holds for r in reports)
    return CheckOutcome(
        ok,
        "; ".join(r.summary() for r in reports),
        {
            "alpha": ALPHA,
            "reports": [
                {
                    "name": r.name,
                    "draws": r.draws,
                    "bins": r.bins,
                    "pvalue": r.pvalue,
                    "control_pvalue": r.control_pvalue,
                    "power": r.power,
                }
                for r in reports
            ],
        },
        [r.control for r in reports],
    )
