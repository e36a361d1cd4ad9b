"""The batch samplers DP-SGD accountants assume, as dpspec's reference implementations.

An accountant's guarantee holds for the sampler it assumes, not for any sampler of the same
average batch size. Three schemes, each a function ``(n, rate or size, steps, rng) -> list of
steps integer index arrays`` (one array per step: the batch's record indices in increasing
order), every random choice drawn from the ``numpy.random.Generator`` passed in:

* :func:`poisson_batches` — Poisson sampling at rate q: every record is in each step's batch
  independently with probability q, independently across steps (the batch size is
  Binomial(n, q)). The sampler of the privacy amplification by subsampling that the moments
  accountant and its successors compose (Abadi et al. 2016, "Deep learning with differential
  privacy", CCS, arXiv:1607.00133; Mironov, Talwar & Zhang 2019, "Rényi differential privacy of
  the sampled Gaussian mechanism", arXiv:1908.10530).
* :func:`fixed_size_batches` — sampling without replacement of a fixed size b: each step's
  batch is a uniformly random b-subset of the n records, independently across steps (Balle,
  Barthe & Gaboardi 2018, "Privacy amplification by subsampling: tight analyses via couplings
  and divergences", NeurIPS, arXiv:1807.01647, sampling without replacement under the
  substitution relation).
* :func:`shuffled_batches` — shuffling: each epoch a fresh uniformly random permutation of the
  n records cut into n/b consecutive batches of b, so that every record is in exactly one
  batch of each epoch; ``steps`` batches run through ⌈steps·b/n⌉ epochs, the permutations of
  distinct epochs independent (the sampler of most training loops; its accounting differs
  from Poisson's: Chua et al. 2024, "How private are DP-SGD implementations?", ICML,
  arXiv:2403.17673).

Each also comes as ``*_membership(n, rate or size, steps, count, rng)``: ``count`` independent
epochs at once as a boolean array (count, steps, n) — the form ``dpspec conform`` draws many
epochs in (the ``*_batches`` functions are one epoch of it).

``dpspec conform``'s algorithms ``poisson-batches``, ``fixed-size-batches`` and
``shuffled-batches`` (:mod:`dpspec.conform.samplers`) judge a sampler against these laws and take
these functions as dpspec's references.
"""

from __future__ import annotations

from typing import Annotated

import numpy as np
from numpy.typing import NDArray

from dpspec.validation import GeneratorArg, Integer, Real, checked, example, require_within

#: the most record draws (n · steps) one call makes: one float or index per record and step
MAX_RECORD_DRAWS = 2**30

#: The number of records n of the dataset.
RecordsArg = Annotated[int, Integer(1, hi=2**31 - 1, clean=10)]
#: The number of steps (batches) drawn.
StepsArg = Annotated[int, Integer(1, hi=2**31 - 1, clean=3)]
#: The Poisson rate q in [0, 1].
RateArg = Annotated[float, Real(0.0, 1.0, clean=0.5)]
#: The batch size b (1 ≤ b ≤ n).
BatchSizeArg = Annotated[int, Integer(1, hi=2**31 - 1, clean=2)]

IndexArray = NDArray[np.int64]
BoolArray = NDArray[np.bool_]

#: The number of independent epochs drawn at once.
CountArg = Annotated[int, Integer(1, hi=2**31 - 1, clean=2)]


def _within(n: int, steps: int, count: int = 1) -> None:
    require_within(n * steps * count, MAX_RECORD_DRAWS, "count", "record draws (n · steps · count)")


def _batches(members: BoolArray) -> list[IndexArray]:
    """One epoch's membership (steps, n) as its batches (increasing record indices)."""
    return [np.flatnonzero(row).astype(np.int64) for row in members]


@example(__call__={"n": 10, "rate": 0.5, "steps": 3, "count": 2})
@checked
def poisson_membership(
    n: RecordsArg, rate: RateArg, steps: StepsArg, count: CountArg, rng: GeneratorArg
) -> BoolArray:
    """``count`` independent epochs of ``steps`` Poisson batches of the records 0 … n − 1 at
    rate q = ``rate``, as a boolean array (count, steps, n): record i is in batch t when
    U_{t,i} < q, the U_{t,i} independent uniforms on [0, 1) (``rng.random``), so
    P(batch t = S) = q^{|S|} (1 − q)^{n − |S|} for every S ⊆ {0 … n − 1}, independently over t
    and epochs (a float uniform has 2^−53 resolution: P(U < q) is q rounded up to that grid,
    exact for the dyadic rates of the conform catalogue's small instances, within 2^−53 for
    any other)."""
    _within(n, steps, count)
    return np.asarray(rng.random((count, steps, n)) < rate)


@example(__call__={"n": 10, "rate": 0.5, "steps": 3})
@checked
def poisson_batches(
    n: RecordsArg, rate: RateArg, steps: StepsArg, rng: GeneratorArg
) -> list[IndexArray]:
    """One epoch of :func:`poisson_membership` as ``steps`` index arrays."""
    return _batches(poisson_membership(n, rate, steps, 1, rng)[0])


@example(__call__={"n": 10, "size": 2, "steps": 3, "count": 2})
@checked
def fixed_size_membership(
    n: RecordsArg, size: BatchSizeArg, steps: StepsArg, count: CountArg, rng: GeneratorArg
) -> BoolArray:
    """``count`` epochs of ``steps`` batches, each a uniformly random subset of ``size`` = b
    of the records 0 … n − 1 (without replacement), as a boolean array (count, steps, n): the
    b records of smallest key among n independent uniform keys (``rng.random``; ties have
    probability 0 up to 2^−53 resolution), so P(batch t = S) = 1 / C(n, b) for every b-subset
    S, independently over steps and epochs."""
    if size > n:
        raise ValueError(f"size: at most n = {n}, got {size}")
    _within(n, steps, count)
    keys = rng.random((count, steps, n))
    chosen = np.argpartition(keys, size - 1, axis=-1)[..., :size]
    out = np.zeros((count, steps, n), dtype=np.bool_)
    np.put_along_axis(out, chosen, True, axis=-1)
    return out


@example(__call__={"n": 10, "size": 2, "steps": 3})
@checked
def fixed_size_batches(
    n: RecordsArg, size: BatchSizeArg, steps: StepsArg, rng: GeneratorArg
) -> list[IndexArray]:
    """One epoch of :func:`fixed_size_membership` as ``steps`` index arrays."""
    return _batches(fixed_size_membership(n, size, steps, 1, rng)[0])


@example(__call__={"n": 10, "size": 2, "steps": 7, "count": 2})
@checked
def shuffled_membership(
    n: RecordsArg, size: BatchSizeArg, steps: StepsArg, count: CountArg, rng: GeneratorArg
) -> BoolArray:
    """``count`` independent runs of ``steps`` batches of ``size`` = b from shuffling, as a
    boolean array (count, steps, n): per epoch a fresh uniform permutation π of 0 … n − 1
    (``rng.permuted`` of each row), its batches π[jb : (j + 1)b] for j = 0 … n/b − 1; b must
    divide n. Every record is in exactly one batch of each epoch; the epochs' permutations are
    independent. A run's last epoch is cut after ``steps`` batches."""
    if size > n or n % size:
        raise ValueError(f"size: must divide n = {n} (the epoch is n/b whole batches), got {size}")
    per_epoch = n // size
    epochs = -(-steps // per_epoch)
    _within(n, epochs * per_epoch, count)
    order = rng.permuted(np.tile(np.arange(n), (count, epochs, 1)), axis=-1)
    batch = np.empty_like(order)  # batch[c, e, record] = its batch in epoch e
    np.put_along_axis(batch, order, np.arange(n) // size, axis=-1)
    step = batch + (np.arange(epochs) * per_epoch)[None, :, None]
    out = step.reshape(count, epochs, 1, n) == np.arange(epochs * per_epoch).reshape(
        1, epochs, per_epoch, 1
    )
    return np.asarray(out.reshape(count, epochs * per_epoch, n)[:, :steps], dtype=np.bool_)


@example(__call__={"n": 10, "size": 2, "steps": 7})
@checked
def shuffled_batches(
    n: RecordsArg, size: BatchSizeArg, steps: StepsArg, rng: GeneratorArg
) -> list[IndexArray]:
    """One run of :func:`shuffled_membership` as ``steps`` index arrays."""
    return _batches(shuffled_membership(n, size, steps, 1, rng)[0])
