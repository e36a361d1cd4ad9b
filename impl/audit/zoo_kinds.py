"""Zoo entries for the ways real implementations reach the auditor: callables of every form,
mechanisms audited without a known pair, releases that are not fixed-shape vectors, and
(ε, δ) and wide vector releases. Each kind has a correct entry and a broken one with its true
ε (closed forms, stated in ``why``); :func:`dpspec.audit.zoo.zoo` includes them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

import numpy as np
from numpy.typing import NDArray

from dpspec.audit.pair_search import Search
from dpspec.audit.zoo_base import ScaleArg, ZooEntry, _Sampler, gaussian_epsilon
from dpspec.validation import (
    Array,
    Checked,
    CountArg,
    EpsilonArg,
    FlagArg,
    GeneratorArg,
    PositiveDeltaArg,
    Real,
    SizeArg,
    checked,
    example,
)

__all__ = [
    "CallableRelease",
    "clipped_sum",
    "gaussian_sigma",
    "gaussian_vector",
    "global_laplace",
    "global_laplace_half_noise",
    "group_by_counts",
    "kinds",
    "labelled_release",
    "laplace_vector",
    "laplace_with_defaults",
    "laplace_wrong_default",
    "noisy_records",
    "one_coordinate_released",
    "resampled_bounded_epsilon",
    "resampled_bounded_laplace",
    "unclipped_sum",
]

#: One query answer q (a real).
AnswerArg = Annotated[float, Real()]
#: A dataset of real records (empty allowed: the add-remove search starts from ()).
RecordsArg = Annotated[Any, Array(empty=True)]


@dataclass(frozen=True)
class _GlobalAnswer(Real):
    """A query answer of a function drawing from numpy's global generator: no equivalents are
    compared (two calls draw different noise, whatever their arguments)."""

    def equivalents(self, clean: Any) -> tuple[Any, ...]:
        return ()


GlobalAnswerArg = Annotated[float, _GlobalAnswer()]

F = TypeVar("F", bound=Callable[..., Any])


def _fixture(why: str) -> Callable[[F], F]:
    """Declare a callable broken on purpose (``__dpspec_fixture__``: why)."""

    def mark(fn: F) -> F:
        fn.__dpspec_fixture__ = why  # type: ignore[attr-defined]
        return fn

    return mark


# --- callables of every form -------------------------------------------------------------------


@checked
def laplace_with_defaults(
    data: AnswerArg, n: SizeArg, rng: GeneratorArg, scale: ScaleArg = 2.0
) -> Any:
    """f(data, n, rng) with a defaulted extra parameter: q + Lap(scale)."""
    return float(data) + rng.laplace(0.0, scale, n)


@_fixture("its default scale is half what ε = 0.5 needs")
@checked
def laplace_wrong_default(
    data: AnswerArg, n: SizeArg, rng: GeneratorArg, scale: ScaleArg = 1.0
) -> Any:
    """The same with a default calibrated for ε = 1 while ε = 0.5 is claimed."""
    return float(data) + rng.laplace(0.0, scale, n)


class CallableRelease(Checked):
    """A class with ``__call__(data, rng)``: one release q + Lap(scale) per call."""

    def __init__(self, scale: ScaleArg) -> None:
        self.scale = scale

    def __call__(self, data: Any, rng: np.random.Generator, unused: int = 0) -> float:
        return float(data) + float(rng.laplace(0.0, self.scale))


@checked
def global_laplace(data: GlobalAnswerArg) -> float:
    """f(data): one release from numpy's global generator (seeded by the audit)."""
    return float(data) + float(np.random.laplace(0.0, 2.0))


@_fixture("half the noise its claim of ε = 0.5 needs")
@checked
def global_laplace_half_noise(data: GlobalAnswerArg) -> float:
    """f(data) with half the noise a claim of 0.5 needs."""
    return float(data) + float(np.random.laplace(0.0, 1.0))


# --- no known pair: search ---------------------------------------------------------------------


@example(__call__={"data": (0.5, 2.0)})
@checked
def clipped_sum(data: RecordsArg, n: SizeArg, rng: GeneratorArg) -> NDArray[np.float64]:
    """Σ clip(x, 0, 1) + Lap(2): records in any range, sensitivity 1 (add-remove)."""
    total = float(np.sum(np.clip(np.asarray(data, dtype=np.float64), 0.0, 1.0)))
    return total + rng.laplace(0.0, 2.0, n)


@example(__call__={"data": (0.5, 2.0)})
@_fixture("the clipping to [0, 1] is forgotten (sensitivity 5)")
@checked
def unclipped_sum(data: RecordsArg, n: SizeArg, rng: GeneratorArg) -> NDArray[np.float64]:
    """Σ x + Lap(2) with records in [0, 5] and the clipping forgotten: sensitivity 5."""
    records = np.asarray(data, dtype=np.float64)
    if not np.all((records >= 0.0) & (records <= 5.0)):
        raise ValueError("data: the records of this entry lie in [0, 5]")
    return float(np.sum(records)) + rng.laplace(0.0, 2.0, n)


#: the domain of the bounded Laplace entries and its noise scale
_BOUNDS, _BOUNDED_SCALE = (0.0, 10.0), 2.0


@_fixture("rejection sampling renormalises by a q-dependent mass")
@checked
def resampled_bounded_laplace(
    data: Annotated[float, Real(*_BOUNDS)], n: SizeArg, rng: GeneratorArg
) -> Any:
    """q + Lap(2) drawn again until it lands in [0, 10] (the bug: rejection sampling
    renormalises by P(q + L ∈ [0, 10]), which depends on q: at the edges the loss exceeds
    1/b by ln of the ratio of those probabilities)."""
    q = float(data)
    out = q + rng.laplace(0.0, _BOUNDED_SCALE, n)
    for _ in range(200):  # each round keeps at least half of what is left (q in [0, 10])
        bad = (out < _BOUNDS[0]) | (out > _BOUNDS[1])
        if not bad.any():
            return out
        out[bad] = q + rng.laplace(0.0, _BOUNDED_SCALE, int(bad.sum()))
    return np.clip(out, *_BOUNDS)


def _mass(q: float) -> float:
    """P(q + Lap(b) ∈ [0, 10])."""

    def cdf(z: float) -> float:
        return (
            0.5 * math.exp(z / _BOUNDED_SCALE) if z < 0 else 1 - 0.5 * math.exp(-z / _BOUNDED_SCALE)
        )

    return cdf(_BOUNDS[1] - q) - cdf(_BOUNDS[0] - q)


@checked
def resampled_bounded_epsilon() -> float:
    """Exact worst ε of :func:`resampled_bounded_laplace` over neighbours q, q ± 1 in
    [0, 10]: 1/b + max ln(mass(q')/mass(q)), attained at the edges (q, q') = (0, 1)."""
    grid = np.linspace(0.0, 9.0, 9001)
    return 1 / _BOUNDED_SCALE + max(abs(math.log(_mass(q + 1) / _mass(q))) for q in grid.tolist())


# --- outputs that are not fixed-shape vectors --------------------------------------------------


@checked
def one_coordinate_released(scale: ScaleArg) -> Any:
    """A 2-vector of which one coordinate (chosen by a fair coin, independent of the data) is
    released as q_j + Lap(scale) and the other is NaN: the NaN pattern carries nothing, every
    row holds a NaN, and the leak is in the finite value (ε = 1/scale on a pair moving both
    coordinates by 1)."""

    def run(data: Any, n: int, rng: np.random.Generator) -> NDArray[np.float64]:
        q = np.asarray(data, dtype=np.float64)
        out = q + rng.laplace(0.0, scale, (n, 2))
        hide = rng.integers(0, 2, n)
        out[np.arange(n), hide] = np.nan
        return out

    return _Sampler("one_coordinate_released", {"scale": scale}, run)


@checked
def group_by_counts(public_keys: FlagArg) -> Any:
    """A GROUP BY count released as a dict {group: count + Lap(2)}. With ``public_keys``
    every group of the public domain {a, b, c} is a key (ε = 1/2 under add-remove); without,
    only the groups present in the data are (the partition-selection bug: the key set
    reveals whether a group is empty, ε = ∞)."""

    def run(data: Any, n: int, rng: np.random.Generator) -> list[dict[str, float]]:
        records = list(data)
        groups = ("a", "b", "c") if public_keys else tuple(sorted(set(records)))
        noise = rng.laplace(0.0, 2.0, (n, len(groups)))
        counts = [records.count(g) for g in groups]
        return [
            {g: c + float(z) for g, c, z in zip(groups, counts, row, strict=True)} for row in noise
        ]

    return _Sampler("group_by_counts", {"public_keys": public_keys}, run)


@checked
def noisy_records(fixed_length: FlagArg) -> Any:
    """Every record of the dataset plus Lap(2), as a list: with ``fixed_length`` the list is
    padded to 4 entries with noise alone (each record moves one entry: ε = 1/2 under
    substitution); without, its length is the number of records (ε = ∞ under add-remove)."""

    def run(data: Any, n: int, rng: np.random.Generator) -> list[list[float]]:
        records = [float(v) for v in data]
        size = 4 if fixed_length else len(records)
        values = (records + [0.0] * size)[:size]
        noise = rng.laplace(0.0, 2.0, (n, size))
        return [[v + float(z) for v, z in zip(values, row, strict=True)] for row in noise]

    return _Sampler("noisy_records", {"fixed_length": fixed_length}, run)


@checked
def labelled_release(epsilon_bit: EpsilonArg) -> Any:
    """A mixed tuple (bit, label, count): the data's bit through randomized response at
    ``epsilon_bit``, a constant label, and the count + Lap(2). On a pair where both move,
    ε = ε_bit + 1/2 (composition)."""
    keep = 1 / (1 + math.exp(-float(epsilon_bit)))

    def run(data: Any, n: int, rng: np.random.Generator) -> list[tuple[int, str, float]]:
        bit, count = data
        kept = rng.random(n) < keep
        bits = np.where(kept, bit, 1 - bit)
        noise = rng.laplace(0.0, 2.0, n)
        return [(int(b), "count", count + float(z)) for b, z in zip(bits, noise, strict=True)]

    return _Sampler("labelled_release", {"epsilon_bit": epsilon_bit}, run)


# --- (ε, δ) and wide vectors -------------------------------------------------------------------


@checked
def gaussian_vector(sigma: ScaleArg, d: CountArg) -> Any:
    """q + N(0, σ² I_d)."""

    def run(data: Any, n: int, rng: np.random.Generator) -> NDArray[np.float64]:
        q = np.asarray(data, dtype=np.float64)
        if q.size != d:
            raise ValueError(f"data: expected {d} coordinates, got {q.size}")
        return q + rng.normal(0.0, sigma, (n, d))

    return _Sampler("gaussian_vector", {"sigma": sigma, "d": d}, run)


@checked
def gaussian_sigma(epsilon: EpsilonArg, delta: PositiveDeltaArg) -> float:
    """The σ whose exact ε at δ (sensitivity 1) is ``epsilon`` (bisection, rel. 1e-10)."""
    lo, hi = 1e-3, 1.0
    while gaussian_epsilon(hi, delta) > epsilon:
        hi *= 2
    while (hi - lo) / hi > 1e-10:
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if gaussian_epsilon(mid, delta) > epsilon else (lo, mid)
    return hi


@checked
def laplace_vector(scale: ScaleArg) -> Any:
    """q + Lap(scale) per coordinate (a histogram release)."""

    def run(data: Any, n: int, rng: np.random.Generator) -> NDArray[np.float64]:
        q = np.asarray(data, dtype=np.float64)
        return q + rng.laplace(0.0, scale, (n, q.size))

    return _Sampler("laplace_vector", {"scale": scale}, run)


def _histogram_pair(bins: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """A histogram of 20 records in ``bins`` bins and its substitution neighbour (one record
    moves from bin 0 to bin 1: L1 distance 2)."""
    base = np.zeros(bins)
    base[:4] = (8.0, 5.0, 4.0, 3.0) if bins >= 4 else (8.0, 5.0, 4.0, 3.0)[:bins]
    moved = base.copy()
    moved[0] -= 1
    moved[1] += 1
    return tuple(base.tolist()), tuple(moved.tolist())


@checked
def kinds() -> list[ZooEntry]:
    """The entries (see the module docstring)."""
    out: list[ZooEntry] = []

    def add(
        name: str,
        mechanism: Any,
        pair: Any,
        eps: float,
        true: float,
        why: str,
        delta: float = 0.0,
        samples: int = 5 * 10**4,
        **options: Any,
    ) -> None:
        correct = true <= eps * (1 + 1e-9)
        out.append(
            ZooEntry(name, mechanism, pair, eps, delta, true, correct, why, tuple(options.items()),
                     samples)
        )  # fmt: skip

    add(
        "callable-defaulted",
        laplace_with_defaults,
        (0.0, 1.0),
        0.5,
        0.5,
        "f(data, n, rng, scale=2.0): an extra defaulted parameter, Lap(1/ε)",
    )
    add(
        "callable-defaulted-wrong",
        laplace_wrong_default,
        (0.0, 1.0),
        0.5,
        1.0,
        "the default scale is 1/ε for ε = 1 while 0.5 is claimed: true ε = 1",
    )
    add(
        "callable-instance",
        CallableRelease(2.0),
        (0.0, 1.0),
        0.5,
        0.5,
        "an instance with __call__(data, rng): one Lap(2) release per call",
        samples=20_000,
    )
    add(
        "callable-instance-half-noise",
        CallableRelease(1.0),
        (0.0, 1.0),
        0.5,
        1.0,
        "the same with Lap(1): true ε = 1",
        samples=20_000,
    )
    add(
        "callable-global-rng",
        global_laplace,
        (0.0, 1.0),
        0.5,
        0.5,
        "f(data) drawing from numpy's global generator (seeded by the audit)",
        samples=20_000,
    )
    add(
        "callable-global-rng-half-noise",
        global_laplace_half_noise,
        (0.0, 1.0),
        0.5,
        1.0,
        "f(data) with Lap(1): true ε = 1",
        samples=20_000,
    )
    add(
        "search-clipped-sum",
        clipped_sum,
        None,
        0.5,
        0.5,
        "Σ clip(x, 0, 1) + Lap(2) over records in [0, 5], add-remove: sensitivity 1; no pair "
        "given (searched)",
        search=Search(domain=(0.0, 5.0), relation="add-remove"),
    )
    add(
        "search-unclipped-sum",
        unclipped_sum,
        None,
        0.5,
        2.5,
        "Σ x + Lap(2) with the clipping to [0, 1] forgotten, records in [0, 5]: a record "
        "moves the sum by 5, true ε = 2.5 at the edge pair ((), (5,)) the search finds",
        search=Search(domain=(0.0, 5.0), relation="add-remove"),
    )
    bounded_true = resampled_bounded_epsilon()
    add(
        "search-bounded-laplace",
        resampled_bounded_laplace,
        None,
        0.5,
        bounded_true,
        "Lap(2) resampled until it lands in [0, 10]: ε = 0.5 inside, "
        f"{bounded_true:.3f} at the edges (q, q') = (0, 1), which the query search tries",
        search=Search(queries=1, bounds=_BOUNDS),
    )
    add(
        "nan-one-coordinate",
        one_coordinate_released(2.0),
        ((0.0, 0.0), (1.0, 1.0)),
        0.5,
        0.5,
        "one coordinate of two released (by a coin), the other NaN, Lap(2): ε = 0.5",
    )
    add(
        "nan-one-coordinate-leak",
        one_coordinate_released(0.4),
        ((0.0, 0.0), (1.0, 1.0)),
        0.5,
        2.5,
        "the same with Lap(0.4): true ε = 2.5, e² beyond the claim, visible only "
        "within the NaN pattern (every row holds a NaN)",
    )
    add(
        "group-by-public-keys",
        group_by_counts(True),
        (("a", "b"), ("a",)),
        0.5,
        0.5,
        "dict {group: count + Lap(2)} over the public groups a, b, c: add-remove ε = 0.5",
        samples=10_000,
    )
    add(
        "group-by-data-keys",
        group_by_counts(False),
        (("a", "b"), ("a",)),
        0.5,
        math.inf,
        "the same with the keys taken from the data: key b present or absent (ε = ∞)",
        samples=20_000,
    )
    add(
        "records-fixed-length",
        noisy_records(True),
        ((0.0, 1.0), (0.0, 0.0)),
        0.5,
        0.5,
        "a list of 4 noisy values (records padded): substitution moves one by 1, ε = 0.5",
        samples=10_000,
    )
    add(
        "records-variable-length",
        noisy_records(False),
        ((0.0, 1.0), (0.0,)),
        0.5,
        math.inf,
        "a list of one noisy value per record: its length reveals the count (ε = ∞)",
        samples=20_000,
    )
    add(
        "tuple-composed",
        labelled_release(0.5),
        ((1, 3.0), (0, 2.0)),
        1.0,
        1.0,
        "(bit through RR at 0.5, label, count + Lap(2)): ε = 0.5 + 0.5 = 1 (composition)",
        samples=10_000,
    )
    add(
        "tuple-composition-forgotten",
        labelled_release(0.5),
        ((1, 3.0), (0, 2.0)),
        0.5,
        1.0,
        "the same claimed at 0.5, the count's ε alone: composition forgotten, true ε = 1",
        samples=10_000,
    )
    delta = 1e-3
    sigma = gaussian_sigma(1.0, delta)
    sigma_broken = gaussian_sigma(2.0, delta)
    unit = ((0.0, 0.0, 0.0), (1.0, 0.0, 0.0))
    add(
        "gaussian-3d",
        gaussian_vector(sigma, 3),
        unit,
        1.0,
        1.0,
        f"N(0, σ² I_3), σ = {sigma:.4g} exact for (1, 1e-3) (Balle–Wang), pair at L2 distance 1",
        delta=delta,
        samples=3 * 10**5,
    )
    add(
        "gaussian-3d-small-sigma",
        gaussian_vector(sigma_broken, 3),
        unit,
        1.0,
        2.0,
        f"σ = {sigma_broken:.4g}, exact for ε = 2 at δ = 1e-3, claimed (1, 1e-3)",
        delta=delta,
        samples=3 * 10**5,
    )
    add(
        "histogram-16",
        laplace_vector(2.0),
        _histogram_pair(16),
        1.0,
        1.0,
        "16-bin histogram, one record moves bin 0 → 1, Lap(2) per bin: ε = 2/2 = 1",
        samples=10**5,
    )
    add(
        "histogram-16-half-noise",
        laplace_vector(1.0),
        _histogram_pair(16),
        1.0,
        2.0,
        "the same with Lap(1) (add-remove calibration under substitution): true ε = 2",
        samples=10**5,
    )
    return out
