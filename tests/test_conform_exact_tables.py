"""``dpspec conform``'s outcome tables and the discrete Gaussian sampler recomputed exactly, and
the mutants written for conform's statistics (the second half of
``tests/test_conform_exact_statistics.py``, whose exact references it uses): discrete Laplace
atoms, grouped intervals and lumped tails as exact geometric sums, discrete Gaussian cells as
sums of exp(−z²/(2σ²)) at 60 digits, the CKS 2020 Alg 3 acceptance exponent in Fractions, each
with a factor-2 control; then each new mutant planted in-process must make its check fail."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from decimal import Decimal, localcontext
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray

from dpspec import noise
from dpspec.conform import algorithm, core, gaussian, laws, reference
from dpspec.conform.gof import Law
from dpspec.proofs.engine.controls import planted
from dpspec.proofs.topics.conform.exact_statistics import (
    CRITICAL_CASES,
    critical_problems,
    never_drawn,
    split_problems,
)
from dpspec.proofs.topics.conform.mutants import MUTANTS
from tests.test_conform_exact_statistics import (
    CUT,
    DIGITS,
    MAX_ATOMS,
    POWER_CASES,
    PVALUE_CASES,
    UP,
    _close,
    _decimal,
    _exp,
    _half_width,
    power_problems,
    pvalue_problems,
    run_split_problems,
)

# --- interval laws of lattice outputs ---------------------------------------------------------

Number = Fraction | Decimal


def _geometric_between(a: int, b: int, q: Any) -> Any:
    """P(a ≤ Z ≤ b) = Σ_{z=a}^{b} (1 − q)/(1 + q)·q^{|z|} as geometric series:
    (q^a − q^{b+1})/(1 + q) for 0 ≤ a, the mirror image for b ≤ 0, and
    (1 − q^{b+1} + q − q^{1−a})/(1 + q) across 0."""
    if a > b:
        return 0 * q
    if a >= 0:
        return (q**a - q ** (b + 1)) / (1 + q)
    if b <= 0:
        return (q ** (-b) - q ** (1 - a)) / (1 + q)
    return (1 - q ** (b + 1) + q - q ** (1 - a)) / (1 + q)


def _geometric_at_least(k: int, q: Any) -> Any:
    """P(Z ≥ k) = q^k/(1 + q) for k ≥ 0, 1 − q^{1−k}/(1 + q) for k < 0."""
    return q**k / (1 + q) if k >= 0 else 1 - q ** (1 - k) / (1 + q)


def _cells(lo: int, hi: int) -> list[tuple[int, int]]:
    """The atoms lo … hi, grouped into equal intervals of ⌈(hi − lo + 1)/4096⌉ atoms (the last
    one cut at hi) when there are more than 4096."""
    width = -(-(hi - lo + 1) // MAX_ATOMS)
    return [(a, min(a + width - 1, hi)) for a in range(lo, hi + 1, width)]


def _lattice_labels(lo: int, hi: int, unit: float) -> list[Any]:
    def value(k: int) -> Any:
        return k if unit == 1.0 else k * unit

    cells = _cells(lo, hi)
    grouped = cells[0][0] != cells[0][1]
    inner = [f"[{value(a)}, {value(b)}]" if grouped else value(a) for a, b in cells]
    return [f"< {value(lo)}", *inner, f"> {value(hi)}"]


def laplace_interval_problems(
    law: Law, center: int, q: Number, lo: int, hi: int, unit: float = 1.0
) -> list[str]:
    """A discrete Laplace table (``laws._integer_law``): the labels, and each probability
    against the exact geometric sums P(Z < lo − c), P(a − c ≤ Z ≤ b − c) per cell, P(Z > hi − c)
    (in the arithmetic of ``q``: Fraction for an exact base, where the masses must sum to 1
    exactly, or 60 digits)."""
    with localcontext() as ctx:
        ctx.prec = DIGITS
        cells = _cells(lo, hi)
        exact = [
            _geometric_at_least(center - lo + 1, q),  # P(Z < lo − c) = P(Z > c − lo)
            *(_geometric_between(a - center, b - center, q) for a, b in cells),
            _geometric_at_least(hi + 1 - center, q),
        ]
        if isinstance(q, Fraction):
            assert sum(exact) == 1
    return _table_problems(law, _lattice_labels(lo, hi, unit), exact)


def _table_problems(law: Law, labels: list[Any], exact: Sequence[Number]) -> list[str]:
    problems = []
    if list(law.labels) != labels:
        problems.append(f"labels {law.labels[:3]}…, expected {labels[:3]}…")
    if len(law.probs) != len(exact):
        return [*problems, f"{len(law.probs)} probabilities, expected {len(exact)}"]
    bad = [i for i, (g, e) in enumerate(zip(law.probs, exact, strict=True)) if not _close(g, e)]
    if bad:
        i = bad[0]
        problems.append(
            f"{len(bad)} probabilities off, e.g. {law.labels[i]}: {law.probs[i]!r}, exact "
            f"{float(exact[i])!r}"
        )
    return problems


def _lattice_laplace_instance() -> tuple[Law, Law, int, int, float, float, float]:
    """Instance 0 of lattice-laplace at ε = 1, γ = 2^-20 (v = 0.3: c = round(0.3/γ)) and its
    law at ε × 1.1, with c, the table's half width w = W + ⌈Δ/γ⌉ + 1 (W of
    :func:`_half_width`), γ and the bases q = e^{−γ/b}, b = (Δ + γ)/ε, and q^{1.1}.

    The bases are the floats the entry tabulates (its law is a function of them): at 3·10^7
    atoms from the centre, one unit in the last place of q moves q^k by 3e-9 relative, more
    than the tolerance; the sums over them are then exact to 60 digits."""
    g = 2.0**-20
    algo = algorithm("lattice-laplace")
    inst = algo._instances(algo._resolve({"epsilon": 1.0, "granularity": g}))[0]
    q = math.exp(-g / ((1.0 + g) / 1.0))
    w = _half_width(_decimal(q)) + 2**20 + 1
    return inst.law, inst.variant, round(0.3 / g), w, g, q, q**1.1


def test_discrete_laplace_tables_are_the_exact_geometric_sums() -> None:
    """The discrete Laplace table of a plan (scale 2, value 0: atoms, tails; exact rational
    base q = the float e^{−1/2}, masses summing to 1 exactly) and its law at ε × 1.1 (60
    digits); a table of 10001 atoms grouped in threes, cells across 0 (base 0.999)."""
    p = core.plan(never_drawn, "discrete-laplace", audit_samples=10**6, scale=2.0)
    inst = p.instances[0]
    w = _half_width(_exp(Fraction(-1, 2))) + 1
    q = Fraction(math.exp(-0.5))
    assert not laplace_interval_problems(inst.law, 0, q, -w, w)
    up = _exp(-UP / 2)
    assert not laplace_interval_problems(inst.variant, 0, up, -w, w)
    grouped = laws._integer_law(0, 0.999, -5000, 5000)
    assert len(grouped.labels) == 2 + 3334
    assert not laplace_interval_problems(grouped, 0, _decimal(0.999), -5000, 5000)


def test_lattice_laplace_intervals_are_the_exact_geometric_sums() -> None:
    """Lattice Laplace at γ = 2^-20: 4096 intervals of 14 174 lattice points, q = e^{−γ/b}
    ≈ 1 − 2^-20 raised to ~3·10^7 (60 digits): every interval, both tails, and the law at
    ε × 1.1."""
    law, variant, c, w, g, q, q_up = _lattice_laplace_instance()
    assert not laplace_interval_problems(law, c, _decimal(q), c - w, c + w, unit=g)
    assert not laplace_interval_problems(variant, c, _decimal(q_up), c - w, c + w, unit=g)


def test_control_one_interval_doubled_is_seen(monkeypatch: pytest.MonkeyPatch) -> None:
    """Control: one cell's probability doubled in ``laws._between`` (before the table is
    normalised) is reported, on an atom table and on the grouped lattice table."""
    original = laws._between

    def doubled(a: NDArray[np.int64], b: NDArray[np.int64], q: float) -> NDArray[np.float64]:
        out = original(a, b, q).copy()
        out[out.size // 2] *= 2
        return out

    monkeypatch.setattr(laws, "_between", doubled)
    assert laplace_interval_problems(laws._integer_law(0, 0.999, -5000, 5000), 0,
                                     _decimal(0.999), -5000, 5000)  # fmt: skip
    law, _, c, w, g, q, _ = _lattice_laplace_instance()
    assert laplace_interval_problems(law, c, _decimal(q), c - w, c + w, unit=g)


def _gaussian_weights(sigma: Decimal) -> list[Decimal]:
    """exp(−z²/(2σ²)) for z = 0, 1, … while at least 1e-75 (recurrence: r^{(z+1)²} =
    r^{z²}·r^{2z+1}, r = e^{−1/(2σ²)}; the terms left out sum to far below 1e-70)."""
    with localcontext() as ctx:
        ctx.prec = DIGITS
        r = (-1 / (2 * sigma * sigma)).exp()
        weights, step = [Decimal(1)], r
        while weights[-1] >= CUT:
            weights.append(weights[-1] * step)
            step *= r * r
        return weights


def gaussian_cell_problems(
    law: Law, center: int, sigma: float, lo: int, hi: int, unit: float = 1.0
) -> list[str]:
    """A discrete Gaussian table (``laws._discrete_gaussian_law``): each probability against
    Σ_{z in the cell} e^{−z²/(2σ²)} / Σ_{z∈ℤ} e^{−z²/(2σ²)} at 60 digits (σ in lattice units)."""
    weights = _gaussian_weights(_decimal(sigma))
    m = len(weights) - 1

    def w(z: int) -> Decimal:
        return weights[abs(z)] if abs(z) <= m else Decimal(0)

    with localcontext() as ctx:
        ctx.prec = DIGITS
        total = weights[0] + 2 * sum(weights[1:])

        def mass(a: int, b: int) -> Decimal:  # offsets a ≤ z ≤ b, clipped to ±m
            a, b = max(a, -m), min(b, m)
            return sum((w(z) for z in range(a, b + 1)), Decimal(0)) / total

        exact = [
            mass(-m, lo - 1 - center),
            *(mass(a - center, b - center) for a, b in _cells(lo, hi)),
            mass(hi + 1 - center, m),
        ]
    return _table_problems(law, _lattice_labels(lo, hi, unit), exact)


def _gaussian_plan_cases() -> list[tuple[str, Law, int, float, int, int, float]]:
    """(what, law, centre, σ in lattice units, lo, hi, unit) of two plans' first instances:
    σ = 2 on the integers (value 0, w = ⌈8σ⌉ + Δ + 1 = 18) with its law at σ/1.1 and its
    neighbour's (centre 1), and σ = 1.5 on 0.25ℤ (σ = 6 lattice units, w = 48 + 4 + 1)."""
    p = core.plan(never_drawn, "discrete-gaussian", audit_samples=10**6, sigma=2.0)
    i = p.instances[0]
    q = core.plan(
        never_drawn, "discrete-gaussian", audit_samples=10**6, sigma=1.5, granularity=0.25
    )
    j = q.instances[0]
    assert i.neighbour_law is not None
    return [
        ("σ = 2", i.law, 0, 2.0, -18, 18, 1.0),
        ("σ = 2 at σ/1.1", i.variant, 0, 2.0 / 1.1, -18, 18, 1.0),
        ("σ = 2, the neighbour 1", i.neighbour_law, 1, 2.0, -18, 18, 1.0),
        ("σ = 1.5 on 0.25ℤ", j.law, 0, 6.0, -53, 53, 0.25),
    ]


def test_discrete_gaussian_cells_are_the_exact_sums() -> None:
    """The discrete Gaussian tables of two plans, and a table of σ = 1024 lattice units
    grouped in fives (directly from ``laws._discrete_gaussian_law``)."""
    for what, law, c, s, lo, hi, unit in _gaussian_plan_cases():
        assert not gaussian_cell_problems(law, c, s, lo, hi, unit), what
    wide = laws._discrete_gaussian_law(3, 1024.0, 3 - 8200, 3 + 8200)
    assert not gaussian_cell_problems(wide, 3, 1024.0, 3 - 8200, 3 + 8200)


def test_control_gaussian_variance_halved_is_seen(monkeypatch: pytest.MonkeyPatch) -> None:
    """Control: the table built at exp(−z²/σ²) (σ² where 2σ² belongs: the law of σ/√2) is
    reported."""
    original = laws._discrete_gaussian_law

    def halved(center: int, sigma: float, *args: Any, **kwargs: Any) -> Law:
        return original(center, sigma / math.sqrt(2), *args, **kwargs)

    monkeypatch.setattr(laws, "_discrete_gaussian_law", halved)
    assert gaussian_cell_problems(laws._discrete_gaussian_law(0, 2.0, -18, 18), 0, 2.0, -18, 18)


# --- the discrete Gaussian sampler's acceptance -----------------------------------------------


def acceptance_problems(
    sigma2: Fraction,
    draws: int = 3000,
    bug: Callable[[], AbstractContextManager[None]] = nullcontext,
) -> list[str]:
    """``gaussian._discrete_gaussian`` (CKS 2020 Alg 3) run with its two exact primitives
    watched: the discrete Laplace it draws candidates y from must have scale t = ⌊σ⌋ + 1, and
    the Bernoulli(e^{−γ}) that keeps y must have γ = (|y| − σ²/t)²/(2σ²) exactly (Fractions).
    Then P(keep y)·P(Y = y) ∝ e^{−|y|/t − γ(y)} = e^{−y²/(2σ²)}·e^{−σ²/(2t²)}: the kept values
    are the discrete Gaussian, exactly. ``bug`` is entered after the watch is in place (a
    planted bug then calls the watched primitives)."""
    t = 1
    while t * t <= sigma2:  # t = ⌊σ⌋ + 1: the smallest integer with t² > σ²
        t += 1
    rounds: list[tuple[Fraction, NDArray[np.int64]]] = []
    exponents: list[Any] = []
    draw_laplace = noise.discrete_laplace  # the primitives gaussian imports by name
    keep = noise.bernoulli_exp_neg_exponents

    def watched_laplace(scale: Fraction, size: int, rng: np.random.Generator) -> Any:
        y = draw_laplace(scale, size, rng)
        rounds.append((Fraction(scale), np.array(y)))
        return y

    def watched_keep(e: Any, rng: np.random.Generator) -> Any:
        exponents.append(e)
        return keep(e, rng)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(gaussian, "discrete_laplace", watched_laplace)
        mp.setattr(gaussian, "bernoulli_exp_neg_exponents", watched_keep)
        with bug():
            out = gaussian._discrete_gaussian(sigma2, draws, np.random.default_rng(32))
    problems = []
    if not rounds or len(rounds) != len(exponents) or out.size != draws:
        return [f"{len(rounds)} candidate rounds, {len(exponents)} acceptance rounds"]
    for (scale, y), e in zip(rounds, exponents, strict=True):
        if scale != t:
            problems.append(f"candidates of scale {scale}, expected t = {t}")
        excess = [0] * y.size if e.excess is None else [int(v) for v in e.excess]
        for i, v in enumerate(y.tolist()):
            got = int(e.whole[i]) + excess[i] + Fraction(int(e.rest[i]), e.d)
            want = (abs(v) - sigma2 / t) ** 2 / (2 * sigma2)
            if got != want:
                problems.append(f"y = {v}: kept with e^-({got}), expected e^-({want})")
                break
    return problems


@pytest.mark.parametrize("sigma2", [Fraction(4), Fraction(9, 4), Fraction(576)])
def test_discrete_gaussian_acceptance_is_exact(sigma2: Fraction) -> None:
    """σ² = 4 (t = 3), 9/4 (t = 2) and 576 (t = 25): the exponent of every candidate, exactly."""
    assert not acceptance_problems(sigma2)


def test_the_reference_discrete_gaussian_runs_this_sampler() -> None:
    """``reference("discrete-gaussian", sigma=1.5, granularity=0.25)`` draws from
    ``_discrete_gaussian`` at σ² = 1.5²/0.25² = 36 lattice units (watched as above)."""
    seen: list[Fraction] = []
    original = gaussian._discrete_gaussian

    def watched(s2: Fraction, size: int, rng: np.random.Generator) -> NDArray[np.int64]:
        seen.append(s2)
        return original(s2, size, rng)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(gaussian, "_discrete_gaussian", watched)
        out = reference("discrete-gaussian", sigma=1.5, granularity=0.25).draw(
            0.0, 10, np.random.default_rng(1)
        )
    assert seen == [Fraction(36)] and np.all(np.asarray(out) / 0.25 == np.round(out / 0.25))


def test_control_acceptance_exponent_doubled_is_seen(monkeypatch: pytest.MonkeyPatch) -> None:
    """Control: the acceptance exponent over abt² instead of 2abt² (γ doubled) is reported."""
    original = gaussian._exponents
    monkeypatch.setattr(
        gaussian, "_exponents", lambda mag, a, bt, den: original(mag, a, bt, den // 2)
    )
    assert acceptance_problems(Fraction(4))


# --- the mutants of proofs/topics/conform/mutants.py ------------------------------------------


def _split_and_run() -> list[str]:
    return split_problems("randomized-response", {"epsilon": 1.0, "k": 3}, 3, True) + (
        run_split_problems()
    )


def _critical_or_power() -> list[str]:
    problems = [p for case in CRITICAL_CASES for p in critical_problems(*case)]
    return problems + power_problems(POWER_CASES[0])


def _pvalues() -> list[str]:
    cases = PVALUE_CASES
    return [p for _, law, probs, counts in cases for p in pvalue_problems(law, probs, counts)]


def _gaussian_cells() -> list[str]:
    return [
        p
        for _, law, c, s, lo, hi, unit in _gaussian_plan_cases()
        for p in gaussian_cell_problems(law, c, s, lo, hi, unit)
    ]


#: mutant id → the check of this file that must fail on it
KILLERS: dict[str, Callable[[], list[str]]] = {
    "conform.pvalue-upper-tail-off-by-one": _pvalues,
    "conform.alpha-split-ignores-audits": _split_and_run,
    "conform.critical-counts-at-full-alpha": _critical_or_power,
    "conform.discrete-gaussian-law-variance-halved": _gaussian_cells,
}


@contextmanager
def _planted(mutant_id: str) -> Iterator[None]:
    with planted(next(m for m in MUTANTS if m.id == mutant_id).edit):
        yield


@pytest.mark.parametrize("mutant_id", [*KILLERS, "conform.discrete-gaussian-acceptance-squared"])
def test_the_new_mutants_are_killed_by_these_checks(mutant_id: str) -> None:
    """Each mutant written for these statistics, planted in the process (its edit made in its
    target's own source, ``dpspec.proofs.engine.controls.planted``), makes its exact check
    report a problem."""
    if mutant_id == "conform.discrete-gaussian-acceptance-squared":
        assert not acceptance_problems(Fraction(4), 500)
        assert acceptance_problems(Fraction(4), 500, lambda: _planted(mutant_id))
        return
    check = KILLERS[mutant_id]
    assert not check()
    with _planted(mutant_id):
        assert check(), mutant_id
