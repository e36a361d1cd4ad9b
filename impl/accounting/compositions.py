"""A catalogue of compositions and their certified privacy curves: :class:`Composition` (k
identical steps of a Gaussian or Laplace mechanism, subsampled or not), and
:func:`epsilon_interval` / :func:`delta_interval`, certified brackets lo ≤ ε(δ) ≤ hi and
lo ≤ δ(ε) ≤ hi.

**Units.** ``noise`` is the noise multiplier: the Gaussian's standard deviation (the Laplace's
scale b) divided by the sensitivity Δ *under the composition's relation*. A sum of records
clipped to norm C has Δ = C under add/remove and Δ = 2C under substitution (replacing x by x′
moves the sum by x′ − x, of norm up to 2C): a Gaussian sum of standard deviation s·C is
``noise = s`` with ``relation="add_remove"`` and ``noise = s/2`` with
``relation="substitution"``. In these units one step's base pair is the noise law at 0 and at 1
(N(0, σ²) and N(1, σ²); Lap(0, b) and Lap(1, b)).

**The pairs**, each direction kept apart (its :class:`~dpspec.accounting.certified.Step`; the
curve is the maximum over the directions). With A = the law at 0, B = the law at 1, and the
mixture M_q = (1 − q)A + qB:

* ``sampling="none"`` (``rate = 1``): (B, A) and (A, B) — the same curve for these symmetric
  laws, both kept;
* ``sampling="poisson"``, ``relation="add_remove"``, rate q: remove (M_q, A), add (A, M_q)
  (Zhu, Dong & Wang 2022, "Optimal accounting of differential privacy via characteristic
  function", AISTATS, arXiv:2106.08567; Balle, Barthe & Gaboardi 2018, "Privacy amplification
  by subsampling: tight analyses via couplings and divergences", NeurIPS);
* ``sampling="without_replacement"``, ``relation="substitution"``, rate γ = b/n (a batch of b
  of n records): the mixture pair of the base substitution pair, (M_γ, A) and its reverse
  (A, M_γ) (the same papers: sampling without replacement amplifies a substitution pair as
  Poisson sampling amplifies an add/remove pair, with γ for q).

* ``sampling="shuffle"`` (Gaussian only), rate 1/T for an integer T: every epoch a fresh
  permutation cut into T fixed batches, ``steps`` a whole number E·T of steps. Its bracket is
  :func:`dpspec.accounting.shuffling.shuffled_gaussian_epsilon` (and ``_delta``) with T batches
  and E epochs: ``relation="add_remove"`` is that module's ``"zero-out"`` (the record's slot
  emptied, sensitivity C) and ``"substitution"`` its ``"substitution"`` (sensitivity 2C, applied
  there to a noise multiplier over C: 2·``noise`` in this module's units). Its ε_lo is a
  post-processing's (the max of the epoch's releases), not the curve itself: the bracket is
  certified, not tight.

Poisson sampling under substitution and sampling without replacement under add/remove are not
in the catalogue (refused naming ``relation``).

**The loss** L = log P/Q of each pair is monotone in the output x (L = ±log((1 − q) +
q·e^{r(x)}) with r(x) = (2x − 1)/(2σ²) for the Gaussian, (|x| − |x − 1|)/b for the Laplace), so
a cell of outputs has its loss between the loss at its ends. The cells are cut so that the
P-weighted mean of their loss widths, times k, is a quarter of the Hoeffding shift at η = 10^-10
(:mod:`dpspec.accounting.certified`), and their masses are computed with a stated error:
Laplace cells from the closed-form cdf (``expm1``, relative error ≤ 8u); Gaussian cells by the
midpoint rule with its second-order term, ∫_a^b φ_σ = (w/σ)φ(z)(1 + (w/σ)²(z² − 1)/24) + R,
|R| ≤ (w/σ)⁵/1920 · max_cell |He₄(z)φ(z)|, the relative float error (z² + 16)u added. The
Gaussian is truncated to μ ± 10.35σ for each component (P-mass ≤ 2·10^-25 outside: the
``tail``); the Laplace needs no truncation (its loss is constant beyond [0, 1]).

**Closed forms** (``method="auto"``): without subsampling the Gaussian composes to μ = √k/σ
(Dong, Roth & Su 2019/2022, "Gaussian differential privacy"; Balle & Wang 2018, Thm 8, for δ(ε))
read by :func:`dpspec.accounting.pld.gaussian_epsilon` (root found to 10^-12) and
:func:`~dpspec.accounting.pld.gaussian_delta`; the bracket is the value widened by
:data:`CLOSED_FORM_WIDENING` relative (+10^-12 absolute for ε) and checked at its ends (δ at
ε_hi ≤ δ < δ at ε_lo). At δ = 0 the Laplace composes to ε = k/b exactly (a ``Fraction``),
subsampled to k·max(log(1 + q(e^{1/b} − 1)), −log(1 + q(e^{−1/b} − 1))) (floats, widened
by 10^-12 relative); the Gaussian has ε = ∞ at δ = 0.

**Accuracy.** The grid path runs at a coarse grid, then at grids scaled so that the width
(hi − lo) is about ``accuracy`` × hi (× max(hi, 10^-2) for ε; up to four passes, each at most
32 times finer); the
grid is capped at :data:`~dpspec.accounting.certified.MAX_POINTS` circle points, so a bracket
may be returned wider than asked (still certified).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated

import numpy as np
from numpy.typing import NDArray
from scipy import special

from dpspec.accounting.certified import (
    MAX_POINTS,
    ComposedLoss,
    Step,
    circle_points,
    compose_step,
)
from dpspec.accounting.exact import Bracket
from dpspec.accounting.pld import LOSS_CAP, UNIT, gaussian_delta, gaussian_epsilon
from dpspec.accounting.shuffling import shuffled_gaussian_delta, shuffled_gaussian_epsilon
from dpspec.validation import (
    Checked,
    Choice,
    Delta,
    Instance,
    Integer,
    Real,
    checked,
    example,
    require_within,
)

#: Relative widening of a closed-form value into its bracket.
CLOSED_FORM_WIDENING = 1e-9
#: z of the Gaussian's truncation (P(N(0, 1) > z) ≤ 10^-25).
Z_TAIL = 10.35
#: Coarse cells of a mechanism's output range (each then cut into pieces).
COARSE = 16384
#: The most cells a step may have (refused before work, stating the estimate).
MAX_CELLS = 2**23
#: An ε bracket's width is aimed at ``accuracy`` × max(ε_hi, EPSILON_FLOOR).
EPSILON_FLOOR = 1e-2
#: Circle points aimed at by the first, coarse pass.
FIRST_POINTS = 2**13


MechanismArg = Annotated[str, Choice(options=("gaussian", "laplace"))]
NoiseArg = Annotated[float, Real(1e-3, 1e6, clean=1.0)]
SamplingArg = Annotated[str, Choice(options=("none", "poisson", "without_replacement", "shuffle"))]
RateArg = Annotated[float, Real(0.0, 1.0, lo_open=True, clean=1.0)]
StepsArg = Annotated[int, Integer(1, hi=2**30, clean=10)]
RelationArg = Annotated[str, Choice(options=("add_remove", "substitution"))]
AccuracyArg = Annotated[float, Real(1e-6, 1.0, clean=1e-3)]
MethodArg = Annotated[str, Choice(options=("auto", "grid"))]
TargetArg = Annotated[float, Delta()]
LevelArg = Annotated[float, Real(0.0, 700.0, clean=1.0)]


@example(
    __init__={
        "mechanism": "gaussian",
        "noise": 1.0,
        "sampling": "poisson",
        "rate": 0.01,
        "steps": 10,
        "relation": "add_remove",
    }
)
@dataclass(frozen=True)
class Composition(Checked):
    """``steps`` identical steps of the ``mechanism`` ("gaussian" | "laplace") with noise
    multiplier ``noise`` (module docstring: std or scale over the relation's sensitivity), each
    on a sample: ``sampling`` "none" (``rate`` must be 1), "poisson" (``rate`` q, relation
    "add_remove"), "without_replacement" (``rate`` b/n, relation "substitution") or "shuffle"
    (Gaussian, ``rate`` 1/T, ``steps`` whole epochs of T batches; either relation)."""

    mechanism: MechanismArg
    noise: NoiseArg
    sampling: SamplingArg
    rate: RateArg
    steps: StepsArg
    relation: RelationArg

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.sampling == "none" and self.rate != 1:
            raise ValueError(f"rate: must be 1 without sampling, got {self.rate!r}")
        if self.sampling == "poisson" and self.relation != "add_remove":
            raise ValueError(
                "relation: Poisson sampling is catalogued under add_remove only (substitution "
                "under Poisson sampling is not a mixture of the base pair)"
            )
        if self.sampling == "shuffle":
            self._check_shuffle()
        if self.sampling == "without_replacement" and self.relation != "substitution":
            raise ValueError(
                "relation: sampling without replacement is catalogued under substitution only "
                "(the batch size is fixed, so add_remove changes it)"
            )

    def _check_shuffle(self) -> None:
        if self.mechanism != "gaussian":
            raise ValueError("mechanism: shuffled batches are catalogued for the Gaussian only")
        batches = round(1 / self.rate)
        if abs(batches * self.rate - 1) > 1e-12:
            raise ValueError(
                f"rate: shuffled batches need rate 1/T for an integer T batches per epoch, "
                f"got {self.rate!r}"
            )
        if self.steps % batches:
            raise ValueError(
                f"steps: shuffled batches need whole epochs of T = {batches} steps, got "
                f"{self.steps}"
            )


def _shuffled(c: Composition) -> tuple[float, int, int, str]:
    """(noise multiplier over C, batches T, epochs E, relation) of a shuffled composition, in
    :mod:`dpspec.accounting.shuffling`'s terms (module docstring)."""
    batches = round(1 / c.rate)
    if c.relation == "add_remove":
        return c.noise, batches, c.steps // batches, "zero-out"
    return 2 * c.noise, batches, c.steps // batches, "substitution"


_EXAMPLE = Composition("laplace", 1.0, "poisson", 0.5, 3, "add_remove")
CompositionArg = Annotated[Composition, Instance(types=(Composition,), clean=_EXAMPLE)]


def _log_ratio(c: Composition, x: NDArray[np.float64]) -> NDArray[np.float64]:
    """r(x) = log(B(x)/A(x)) (module docstring)."""
    if c.mechanism == "gaussian":
        return (2 * x - 1) / (2 * c.noise * c.noise)
    return (np.abs(x) - np.abs(x - 1)) / c.noise


def _loss(c: Composition, x: NDArray[np.float64], remove: bool) -> NDArray[np.float64]:
    """The loss at x: log((1 − q) + q·e^{r(x)}) (remove), its negative (add)."""
    q = c.rate
    with np.errstate(divide="ignore"):
        value = np.logaddexp(math.log1p(-q) if q < 1 else -math.inf, math.log(q) + _log_ratio(c, x))
    return np.asarray(value if remove else -value, dtype=np.float64)


def _components(c: Composition, remove: bool) -> list[tuple[float, float]]:
    """(weight, centre) of P's components: M_q for remove, A for add."""
    if not remove:
        return [(1.0, 0.0)]
    return [(1.0, 1.0)] if c.rate == 1 else [(1.0 - c.rate, 0.0), (c.rate, 1.0)]


def _gauss_masses(
    ends: NDArray[np.float64], centre: float, sd: float
) -> tuple[NDArray[np.float64], float]:
    """Masses of N(centre, sd²) on the cells and a bound on their total error (module
    docstring: the midpoint rule, its remainder and its float error)."""
    w = np.diff(ends) / sd
    za, zb = (ends[:-1] - centre) / sd, (ends[1:] - centre) / sd
    z = (za + zb) / 2
    phi = np.exp(-0.5 * z * z) / math.sqrt(2 * math.pi)
    masses = np.maximum(w * phi * (1 + w * w * (z * z - 1) / 24), 0.0)
    zmax = np.maximum(np.abs(za), np.abs(zb))
    zmin = np.where(za * zb <= 0, 0.0, np.minimum(np.abs(za), np.abs(zb)))
    he4 = np.minimum((zmax**4 + 6 * zmax**2 + 3) * np.exp(-0.5 * zmin * zmin) / 2.5, 1.2)
    remainder = w**5 / 1920 * he4
    error = float(np.sum(remainder) + np.sum((z * z + 16) * UNIT * masses))
    return masses + 0.0, error


def _laplace_masses(
    ends: NDArray[np.float64], centre: float, scale: float
) -> tuple[NDArray[np.float64], float]:
    """Masses of Lap(centre, scale) on the cells (none straddles the centre), closed form."""
    a, b = (ends[:-1] - centre) / scale, (ends[1:] - centre) / scale
    width = -np.expm1(-(b - a))
    right = 0.5 * np.exp(-np.maximum(a, 0.0)) * width
    left = 0.5 * np.exp(np.minimum(b, 0.0)) * width
    masses = np.where(a >= 0, right, left)
    return masses, float(8 * UNIT * masses.sum())


def _pieces(
    c: Composition, coarse: NDArray[np.float64], remove: bool, budget: float
) -> NDArray[np.float64]:
    """Cut coarse cell c (rough mass m_c, loss spread Δ_c) into n_c = ⌈√(m_c Δ_c)·S/budget⌉
    pieces, S = Σ_c √(m_c Δ_c), so that Σ_c m_c Δ_c/n_c ≤ ``budget`` with the fewest pieces
    (m_c only allocates; the certificate uses each piece's own ends); refused past
    :data:`MAX_CELLS`."""
    loss = _loss(c, coarse, remove)
    spread = np.abs(np.diff(loss))
    rough = np.zeros(coarse.size - 1)
    for weight, centre in _components(c, remove):
        if c.mechanism == "gaussian":
            rough += weight * np.abs(np.diff(special.ndtr((coarse - centre) / c.noise)))
        else:
            rough += weight * _laplace_masses(coarse, centre, c.noise)[0]
    root = np.sqrt(rough * spread)  # n_c ∝ √(m_c Δ_c) minimises Σ n_c at Σ m_c Δ_c / n_c ≤ budget
    pieces = np.maximum(1, np.ceil(root * float(root.sum()) / budget)).astype(np.int64)
    require_within(int(pieces.sum()), MAX_CELLS, "composition", "cells of one step")
    which = np.repeat(np.arange(pieces.size), pieces)
    starts = np.cumsum(pieces) - pieces
    offset = np.arange(which.size) - starts[which]
    width = np.diff(coarse)
    return np.append(coarse[which] + width[which] * offset / pieces[which], coarse[-1])


def _step(c: Composition, remove: bool, grid: float) -> Step:
    """One direction's :class:`Step` on cells fine enough for ``grid`` (module docstring)."""
    budget = 0.25 * grid * math.sqrt(math.log(1e10) / (2 * c.steps))
    parts = _components(c, remove)
    if c.mechanism == "gaussian":
        lo = min(m for _, m in parts) - Z_TAIL * c.noise
        hi = max(m for _, m in parts) + Z_TAIL * c.noise
        ends = _pieces(c, np.linspace(lo, hi, COARSE + 1), remove, budget)
        outer: list[tuple[float, float]] = []
        tail = 2 * float(special.ndtr(-Z_TAIL)) * (1 + 1e-9)
    else:
        ends = _pieces(c, np.linspace(0.0, 1.0, COARSE + 1), remove, budget)
        outer = [(0.0, 0.0), (1.0, 1.0)]  # (−∞, 0] at its loss at 0, [1, ∞) at its loss at 1
        tail = 0.0
    masses = np.zeros(ends.size - 1)
    error = 0.0
    edge = [0.0, 0.0]
    for weight, centre in parts:
        if c.mechanism == "gaussian":
            found, err = _gauss_masses(ends, centre, c.noise)
        else:
            found, err = _laplace_masses(ends, centre, c.noise)
            away = 0.5 * math.exp(-1 / c.noise)  # the far half-line's mass
            edge[0] += weight * (0.5 if centre == 0 else away)
            edge[1] += weight * (away if centre == 0 else 0.5)
        masses += weight * found
        error += weight * err
    loss = _loss(c, ends, remove)
    lower, upper = np.minimum(loss[:-1], loss[1:]), np.maximum(loss[:-1], loss[1:])
    if outer:
        at = _loss(c, np.array([x for x, _ in outer]), remove)
        lower, upper = np.append(lower, at), np.append(upper, at)
        masses = np.append(masses, edge)
        error += 8 * UNIT
    error += 4 * UNIT * float(masses.sum())
    size = float(np.abs(_log_ratio(c, ends)).max() + abs(math.log(c.rate)) + np.abs(loss).max())
    return Step(lower, upper, masses, 0.0, tail, min(1.0, error), 16 * UNIT * (1 + size))


@checked
def composition_steps(
    composition: CompositionArg, grid: Annotated[float, Real(1e-9, 1.0)]
) -> tuple[Step, Step]:
    """The (remove-like, add-like) :class:`Step` of one step of ``composition``, cut for a
    grid of step ``grid`` (module docstring)."""
    return _step(composition, True, grid), _step(composition, False, grid)


def _pure(c: Composition) -> Bracket:
    """ε at δ = 0 (module docstring)."""
    if c.mechanism == "gaussian":
        return Bracket(math.inf, math.inf)
    if c.sampling == "none":
        value = Fraction(c.steps) / Fraction(c.noise)
        return Bracket(value, value)
    q, inv = c.rate, 1 / c.noise
    one = max(math.log1p(q * math.expm1(inv)), -math.log1p(q * math.expm1(-inv)))
    total = c.steps * one
    return Bracket(total * (1 - 1e-12), total * (1 + 1e-12))


def _closed(c: Composition, method: str) -> bool:
    return method == "auto" and c.mechanism == "gaussian" and c.sampling == "none"


def _mu(c: Composition) -> float:
    """μ = √k/σ of the unsubsampled Gaussian composition."""
    return math.sqrt(c.steps) / c.noise


def _first_grid(c: Composition) -> float:
    """A coarse grid: the composed loss's rough span (mean ± 12 sd) over FIRST_POINTS."""
    coarse = _step(c, True, 1.0)
    mean = float(np.dot(coarse.masses, (coarse.lower + coarse.upper) / 2))
    var = float(np.dot(coarse.masses, ((coarse.lower + coarse.upper) / 2 - mean) ** 2))
    span = abs(mean) * c.steps + 24 * math.sqrt(c.steps * var) + 1.0
    return float(min(1.0, max(1e-9, span / FIRST_POINTS)))


def _refined(
    c: Composition, steps: tuple[Step, ...], grid: float, width: float, goal: float
) -> float:
    """The next grid: the width scales about like the grid (aimed at 3/4 of the goal), at most
    32 times finer than the last (so that a cheap pass can rule a direction out first), the
    circle's points like its inverse (kept within
    :data:`~dpspec.accounting.certified.MAX_POINTS`)."""
    points = max(circle_points(s, c.steps, grid) for s in steps)
    return max(grid * 0.75 * goal / width, grid / 32, grid * points / MAX_POINTS * 1.1)


def _meet(a: Bracket | None, b: Bracket) -> Bracket:
    """The intersection of two certified brackets of one value (both contain it)."""
    if a is None:
        return b
    return Bracket(max(a.lo, b.lo), min(a.hi, b.hi))


def _search(
    c: Composition, read: Callable[[ComposedLoss], Bracket], accuracy: float, floor: float
) -> Bracket:
    """The grid path: up to four passes, each direction's brackets intersected across passes;
    a direction whose upper end is below another's lower end cannot be the maximum and is not
    refined further."""
    grid = _first_grid(c)
    best: list[Bracket | None] = [None, None]
    live = [True, True]
    found = Bracket(0.0, math.inf)
    for _ in range(4):
        steps = {d: _step(c, d == 0, grid) for d in (0, 1) if live[d]}
        for d, step in steps.items():
            best[d] = _meet(best[d], read(compose_step(step, c.steps, grid)))
        known = [b for b in best if b is not None]
        found = Bracket(max(b.lo for b in known), max(b.hi for b in known))
        width, top = float(found.hi - found.lo), max(float(found.hi), floor)
        if not math.isfinite(top) or width <= accuracy * top:
            break
        live = [b is not None and b.hi >= found.lo for b in best]
        chosen = tuple(steps[d] for d in (0, 1) if live[d] and d in steps)
        grid = _refined(c, chosen, grid, width, accuracy * top)
    return found


@example(__call__={"delta": 1e-5, "accuracy": 1e-2})
@checked
def epsilon_interval(
    composition: CompositionArg,
    delta: TargetArg,
    accuracy: AccuracyArg = 1e-3,
    method: MethodArg = "auto",
) -> Bracket:
    """A certified bracket lo ≤ ε(δ) ≤ hi of ``composition`` (the maximum over its
    directions), of relative width about ``accuracy`` on the grid path; ``method="grid"``
    skips the closed forms (module docstring)."""
    c = composition
    pure = _pure(c)
    if delta == 0:
        return pure
    if c.sampling == "shuffle":
        noise, batches, epochs, relation = _shuffled(c)
        return shuffled_gaussian_epsilon(noise, batches, epochs, delta, relation)
    if _closed(c, method):
        eps = gaussian_epsilon(delta, _mu(c))
        lo = max(0.0, eps * (1 - CLOSED_FORM_WIDENING) - 1e-12)
        hi = eps * (1 + CLOSED_FORM_WIDENING) + 1e-12
        mu = _mu(c)
        if gaussian_delta(hi, mu) <= delta and (lo == 0 or gaussian_delta(lo, mu) > delta):
            return Bracket(lo, hi)
    found = _search(c, lambda composed: composed.epsilon_bracket(delta), accuracy, EPSILON_FLOOR)
    top = min(float(found.hi), float(pure.hi))  # δ(ε) = 0 ≤ δ from the pure level on
    return Bracket(min(float(found.lo), top), top)


@example(__call__={"epsilon": 1.0, "accuracy": 1e-2})
@checked
def delta_interval(
    composition: CompositionArg,
    epsilon: LevelArg,
    accuracy: AccuracyArg = 1e-3,
    method: MethodArg = "auto",
) -> Bracket:
    """A certified bracket lo ≤ δ(ε) ≤ hi of ``composition`` (the maximum over its
    directions), of relative width about ``accuracy`` on the grid path (module docstring);
    [0, 0] from the pure level on."""
    c = composition
    if epsilon >= _pure(c).hi:
        return Bracket(0.0, 0.0)
    if c.sampling == "shuffle":
        if epsilon > LOSS_CAP:
            raise ValueError(
                f"epsilon: shuffled batches are bracketed up to ε = {LOSS_CAP:g} (the grid's "
                f"cap), got {epsilon!r}"
            )
        noise, batches, epochs, relation = _shuffled(c)
        return shuffled_gaussian_delta(noise, batches, epochs, epsilon, relation)
    if _closed(c, method):
        value = gaussian_delta(epsilon, _mu(c))
        return Bracket(value * (1 - CLOSED_FORM_WIDENING), value * (1 + CLOSED_FORM_WIDENING))
    return _search(c, lambda composed: composed.delta_bracket(epsilon), accuracy, 0.0)


__all__ = [
    "CLOSED_FORM_WIDENING",
    "MAX_CELLS",
    "Composition",
    "composition_steps",
    "delta_interval",
    "epsilon_interval",
]
